"""Benchmark: one RL recipe variant of ``rl_tiny.py``, short, for side-by-side comparisons.

Trains the small policy from scratch for ``--minutes`` (or ``--cfg '{"updates": N}'``) with the
given :class:`~cerebellum_gym.training.rl.RLConfig` overrides, then evaluates the last checkpoint
greedy and sampled on the first stage's tasks at held-out seeds (``--eval-seeds`` per task, from
910000, as ``rl_tiny.py``). Prints one JSON line: updates, held-out success per task, training
success per quarter of the run, promotions, mean timings, KL and clip fraction.

Run (the rows of ``docs/rl.md``'s side-by-side)::

    OLD='{"codes": "TKUDLRBHF", "max_steps": null, "failure_filter": true}'
    python benchmarks/learning/rl_tiny_ablate.py old --stage1 --minutes 4 --token-dim 32 --cfg "$OLD"
    python benchmarks/learning/rl_tiny_ablate.py b512 --stage1 --minutes 4 --cfg "$OLD"
    python benchmarks/learning/rl_tiny_ablate.py codes --stage1 --minutes 6 --cfg '{"failure_filter": true}'
    python benchmarks/learning/rl_tiny_ablate.py nofilter --stage1 --minutes 6
    python benchmarks/learning/rl_tiny_ablate.py full --minutes 6
    python benchmarks/learning/rl_tiny_ablate.py mb4 --minutes 6 --cfg '{"minibatches": 4}'
    python benchmarks/learning/rl_tiny_ablate.py defaults --minutes 6 --cfg '{"codes": "TKUDLRBHF", "max_steps": null}'
    python benchmarks/learning/rl_tiny_ablate.py defaults20 --minutes 6 --cfg '{"codes": "TKUDLRBHF"}'
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rl_tiny import evaluate, heldout_suite, per_task, rate

from cerebellum_gym.training.curriculum import DEFAULT_CURRICULUM, load_curriculum
from cerebellum_gym.training.rl import PolicyAgent, RLConfig, RLTrainer, read_log
from cerebellum_gym.training.rl_policy import TinySlotPolicy
from cerebellum_gym.wrappers.actions import FlatActionLayout
from cerebellum_gym.wrappers.encoding import EncoderConfig


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", help="the run's folder under --work")
    parser.add_argument("--minutes", type=float, default=4.0)
    parser.add_argument("--cfg", default="{}", help="RLConfig overrides as JSON")
    parser.add_argument("--token-dim", type=int, default=0, help="the small policy's hash buckets (0: its default)")
    parser.add_argument("--stage1", action="store_true", help="a curriculum of the default's first stage only")
    parser.add_argument("--eval-seeds", type=int, default=10)
    parser.add_argument("--work", default="/tmp/rl_tiny_ablate")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)  # 2 cores shared with other jobs
    out = Path(args.work) / args.name
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    curriculum = "default"
    if args.stage1:
        path = out.with_name(args.name + "-curriculum.json")
        path.write_text(json.dumps({**DEFAULT_CURRICULUM, "stages": DEFAULT_CURRICULUM["stages"][:1]}))
        curriculum = str(path)
    settings: dict[str, Any] = {
        "output": str(out / "run"), "updates": 100_000, "groups": 8, "group_size": 8, "lr": 3e-3, "gate_every": 0,
        "max_minutes": args.minutes, "progress": "off", "curriculum": curriculum, "codes": "TUDLRBF", "max_steps": 20,
    }  # fmt: skip
    settings.update(json.loads(args.cfg))
    config = RLConfig(**settings)
    policy = None
    if args.token_dim:
        texts = 4 if "K" in config.codes else 0
        layout = FlatActionLayout(max_labels=config.max_labels, max_texts=texts, codes=config.codes, answer_texts=False)
        dim = args.token_dim
        encoder = EncoderConfig(max_labels=config.max_labels, max_texts=texts, history_len=2, token_dim=dim, goal_dim=max(64, dim))
        policy = TinySlotPolicy(layout, encoder, seed=config.seed)
    began = time.perf_counter()
    trainer = RLTrainer(config, policy)
    summary = trainer.run()
    log = read_log(out / "run" / "log.jsonl")
    suite = heldout_suite(list(load_curriculum("default").stages[0].tasks), args.eval_seeds)
    last = TinySlotPolicy.from_folder(out / "run" / "last")
    result: dict[str, Any] = {
        "name": args.name, "settings": {k: v for k, v in settings.items() if k != "output"}, "token_dim": last.encoder_config.token_dim,
        "failure_filter": trainer.failure_filtering(), "updates": len(log), "stage": summary["stage"],
        "wall_s": round(time.perf_counter() - began),
    }  # fmt: skip
    for temperature, key in ((0.0, "greedy"), (1.0, "sampled")):
        records = evaluate(PolicyAgent(last, temperature=temperature), suite, out / f"eval-{key}")
        result[key], result[f"{key}_by_task"] = rate(records), per_task(records)
    n = len(log)
    q = max(1, n // 4)
    result["train_success_quarters"] = [round(sum(r["success"] for r in log[i : i + q]) / len(log[i : i + q]), 2) for i in range(0, n, q)]
    result["promotions"] = [(r["update"], e) for r in log for e in r["events"] if "promoted" in e]
    keys = ("rollout_s", "env_s", "policy_s", "update_s", "kl", "clip_frac", "entropy", "flat_groups")
    result["mean"] = {k: round(sum(r[k] for r in log) / n, 3) for k in keys}
    print(json.dumps(result))
    (out / "result.json").write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
