"""Benchmark: the RL curriculum (``cerebellum-gym train rl``) on this CPU, beside MaskablePPO.

What it runs:

1. **GRPO + curriculum, from scratch** (the small torch policy of
   :mod:`cerebellum_gym.training.rl_policy`: a masked softmax over the flat action layout on the
   project's hashed features; no SFT checkpoint, no oracle data). The default curriculum, held-out
   gates every ``--gate-every`` updates, for ``--minutes`` of wall time.
2. **Held-out success before and after** on the first curriculum stage's tasks at held-out seeds
   (910000+, ``--eval-seeds`` per task; training draws seeds below 100000, the gates run
   ``rl-short-heldout`` at 900000-900003 and pick the checkpoint evaluated), greedy constrained
   actions through the eval harness, paired by case (McNemar), and on the three generalization
   splits (``rl-unseen-instances``, ``rl-unseen-templates``, ``rl-unseen-apps``).
3. **MaskablePPO** (``benchmarks/learning/train_system.py``'s settings, pure RL) trained on the same
   first-stage tasks for ``--sb3-minutes`` and evaluated on the same held-out cases.
4. **Rollout throughput with an LLM in the loop**: a few updates of the trainer with a tiny
   Qwen3.5 built locally (random weights, a fresh LoRA, screenshots on), env-steps/s and the
   env's share of the rollout time (``env_s / rollout_s`` from the trainer's log).

Outputs (``--out``, default this folder): ``rl_tiny_results.json`` and ``rl_tiny_curve.png``.

Run::

    python benchmarks/learning/rl_tiny.py                       # everything (about minutes + sb3-minutes + 3)
    python benchmarks/learning/rl_tiny.py --minutes 5 --sb3-minutes 0 --eval-seeds 10
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from cerebellum_gym.agents.base import Agent
from cerebellum_gym.evaluation.runner import EvalConfig, run_suite
from cerebellum_gym.evaluation.suites import Suite, load_suite, suite_from_mapping
from cerebellum_gym.evaluation.summary import paired_difference
from cerebellum_gym.training.curriculum import HELDOUT_SEED_BASE, load_curriculum
from cerebellum_gym.training.rl import PolicyAgent, RLConfig, RLTrainer, read_log
from cerebellum_gym.training.rl_policy import TinySlotPolicy

HERE = Path(__file__).resolve().parent
SPLITS = ("rl-unseen-instances", "rl-unseen-templates", "rl-unseen-apps")


#: The final evaluation's seeds: held out of training (below 100000) and of the gate
#: (``rl-short-heldout``, 900000-900003), so the checkpoint the gate picks is not judged on its own cases.
EVAL_SEED_BASE = HELDOUT_SEED_BASE + 10_000


def heldout_suite(tasks: list[str], seeds: int) -> Suite:
    """The first stage's tasks at ``seeds`` held-out seeds each (from :data:`EVAL_SEED_BASE`)."""
    cases = [{"id": f"{t}-{EVAL_SEED_BASE + i}", "task": t, "seed": EVAL_SEED_BASE + i} for t in tasks for i in range(seeds)]
    return suite_from_mapping({"name": "rl-stage1-heldout", "cases": cases}, name="rl-stage1-heldout", source="rl_tiny.py")


def evaluate(agent: Agent, suite: Suite, run_dir: Path) -> list[dict[str, Any]]:
    if run_dir.exists():
        shutil.rmtree(run_dir)
    return run_suite(agent, suite, run_dir, EvalConfig(num_envs=8, vectorization="sync", progress="off", pixels=False)).records


def rate(records: list[dict[str, Any]]) -> float:
    return sum(bool(r["success"]) for r in records) / len(records) if records else 0.0


def per_task(records: list[dict[str, Any]]) -> dict[str, float]:
    out: dict[str, list[bool]] = {}
    for r in records:
        out.setdefault(r["task"], []).append(bool(r["success"]))
    return {k: sum(v) / len(v) for k, v in out.items()}


def run_rl(args: argparse.Namespace, work: Path, suite: Suite) -> dict[str, Any]:
    out = work / "rl"
    if out.exists():
        shutil.rmtree(out)
    config = RLConfig(
        output=str(out), updates=100_000, groups=args.groups, group_size=args.group_size, lr=args.lr, kl=args.kl,
        gate_every=args.gate_every, gate_suite="rl-short-heldout", max_minutes=args.minutes, progress="lines" if args.verbose else "off",
        seed=args.seed, codes=args.codes, max_steps=args.train_max_steps or None, minibatches=args.minibatches,
    )  # fmt: skip
    began = time.perf_counter()
    trainer = RLTrainer(config)
    summary = trainer.run()
    wall = time.perf_counter() - began
    log = read_log(out / "log.jsonl")
    start = TinySlotPolicy.from_folder(out / "reference")
    last = TinySlotPolicy.from_folder(out / "last")
    # The checkpoint the held-out gate picked (ties go to the later one), else the last.
    final = TinySlotPolicy.from_folder(out / "best" / "online") if (out / "best" / "online").is_dir() else last
    before = evaluate(PolicyAgent(start), suite, work / "eval-before")
    after = evaluate(PolicyAgent(final), suite, work / "eval-after")
    after_last = evaluate(PolicyAgent(last), suite, work / "eval-after-last")
    # The sampled policy too (temperature 1, what training draws from): greedy decoding can loop.
    sampled_before = evaluate(PolicyAgent(start, temperature=1.0), suite, work / "eval-before-sampled")
    sampled_after = evaluate(PolicyAgent(final, temperature=1.0), suite, work / "eval-after-sampled")
    splits = {}
    for name in SPLITS:
        split = load_suite(name)
        b = evaluate(PolicyAgent(start), split, work / f"{name}-before")
        a = evaluate(PolicyAgent(final), split, work / f"{name}-after")
        splits[name] = {"cases": len(split.cases), "before": rate(b), "after": rate(a), "paired": paired_difference(b, a)}
    rollout_s = sum(r["rollout_s"] for r in log)
    env_s = sum(r["env_s"] for r in log)
    steps = sum(r["env_steps"] for r in log)
    return {
        "policy": "tiny-slot (from scratch, no SFT checkpoint)",
        "config": {k: v for k, v in config.to_dict().items() if k not in ("output", "env_kwargs")},
        "failure_filter": trainer.failure_filtering(),
        "updates": len(log),
        "wall_s": round(wall, 1),
        "env_steps": steps,
        "best": summary["best"],
        "stage_reached": summary["stage"],
        "promotions": [e for r in log for e in r["events"] if "promoted" in e],
        "before": rate(before),
        "after": rate(after),
        "before_by_task": per_task(before),
        "after_by_task": per_task(after),
        "paired": paired_difference(before, after),
        "after_last": rate(after_last),
        "after_last_by_task": per_task(after_last),
        "paired_last": paired_difference(before, after_last),
        "sampled_before": rate(sampled_before),
        "sampled_after": rate(sampled_after),
        "sampled_after_by_task": per_task(sampled_after),
        "sampled_paired": paired_difference(sampled_before, sampled_after),
        "splits": splits,
        "rollout_env_steps_per_s": round(steps / rollout_s, 1) if rollout_s else None,
        "env_share_of_rollout": round(env_s / rollout_s, 3) if rollout_s else None,
        "curve": [_point(r) for r in log],
    }


def _point(r: dict[str, Any]) -> dict[str, Any]:
    keep = ("update", "success", "kl", "entropy", "flat_groups")
    return {**{k: r[k] for k in keep}, "gate": r.get("gate", {}).get("online"), "by_task": r["success_by_task"]}


def run_sb3(args: argparse.Namespace, work: Path, tasks: list[str], suite: Suite) -> dict[str, Any]:
    from cerebellum_gym.agents import load_agent
    from cerebellum_gym.agents.sb3_train import parse_args, train

    out = work / "sb3"
    flags = [
        "--tasks", ",".join(tasks), "--policy", "slot", "--codes", "TUDLRBF", "--step-cost", "0", "--novelty-bonus", "0",
        "--train-max-steps", "20", "--self-imitation", "--max-minutes", str(args.sb3_minutes), "--eval-every", "8192",
        "--bc-episodes", "0", "--output", str(out), "--seed", str(args.seed),
    ]  # fmt: skip
    began = time.perf_counter()
    summary = train(parse_args(flags))
    wall = time.perf_counter() - began
    agent = load_agent(f"sb3:{summary['model']}")
    after = evaluate(agent, suite, work / "eval-sb3")
    return {
        "algorithm": "MaskablePPO (sb3-contrib), pure RL",
        "wall_s": round(wall, 1),
        "env_steps": summary.get("total_steps"),
        "after": rate(after),
        "after_by_task": per_task(after),
    }


def run_qwen_throughput(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """A few trainer updates with a tiny Qwen3.5 (random weights, fresh LoRA, screenshots on)."""
    from cerebellum_gym.agents.qwen_tiny import build_tiny_qwen35

    base = build_tiny_qwen35(work / "tiny-qwen35")
    out = work / "rl-qwen"
    if out.exists():
        shutil.rmtree(out)
    config = RLConfig(
        output=str(out), policy=f"qwen:{base}", updates=args.qwen_updates, groups=2, group_size=4, max_steps=5,
        gate_every=0, progress="off", micro_batch=8, seed=args.seed,
    )  # fmt: skip
    RLTrainer(config).run()
    log = read_log(out / "log.jsonl")
    rollout_s = sum(r["rollout_s"] for r in log)
    return {
        "policy": "tiny Qwen3.5 (hidden 64, 2 layers, random weights) + fresh LoRA, screenshots on",
        "updates": len(log),
        "env_steps": sum(r["env_steps"] for r in log),
        "rollout_env_steps_per_s": round(sum(r["env_steps"] for r in log) / rollout_s, 1),
        "env_share_of_rollout": round(sum(r["env_s"] for r in log) / rollout_s, 4),
        "update_s_mean": round(sum(r["update_s"] for r in log) / len(log), 3),
        "scorer_gap_max": max(r["scorer_gap"] for r in log),
    }


def plot(results: dict[str, Any], path: Path) -> None:
    rl = results["rl"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [2, 1]})
    xs = [p["update"] for p in rl["curve"]]
    raw = [p["success"] for p in rl["curve"]]
    smooth = [sum(raw[max(0, i - 24) : i + 1]) / len(raw[max(0, i - 24) : i + 1]) for i in range(len(raw))]
    left.plot(xs, smooth, lw=2, c="k", alpha=0.5, label="training groups, all tasks (sampled, mean of 25 updates)")
    for k, task in enumerate(results["tasks"]):
        points = [(p["update"], p["by_task"][task]) for p in rl["curve"] if task in p.get("by_task", {})]
        if points:
            ys = [v for _, v in points]
            mean = [sum(ys[max(0, i - 9) : i + 1]) / len(ys[max(0, i - 9) : i + 1]) for i in range(len(ys))]
            left.plot([u for u, _ in points], mean, lw=1, c=f"C{k}", label=f"{task} (mean of its last 10 draws)")
    gates = [(p["update"], p["gate"]) for p in rl["curve"] if p["gate"] is not None]
    if gates:
        left.plot([g[0] for g in gates], [g[1] for g in gates], "k-o", ms=3, label="held-out gate (greedy)")
    left.set_xlabel("update")
    left.set_ylabel("success")
    left.set_ylim(-0.02, 1.05)
    left.set_title(f"GRPO + curriculum, tiny policy from scratch, {rl['wall_s'] / 60:.0f} min CPU")
    left.legend(fontsize=6)
    bars = {"before": rl["before"], "gate's\npick": rl["after"], "last": rl.get("after_last", 0.0), "sampled": rl["sampled_after"]}
    if "sb3" in results:
        bars["Maskable\nPPO"] = results["sb3"]["after"]
    right.bar(list(bars), list(bars.values()), color=["#999", "C0", "C9", "C2", "C1"][: len(bars)])
    for i, v in enumerate(bars.values()):
        right.text(i, v + 0.02, f"{v:.0%}", ha="center", fontsize=9)
    right.set_ylim(0, 1.1)
    right.set_title(f"first stage, held-out seeds ({results['heldout_cases']} cases)\nRL greedy unless 'sampled'", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=15.0, help="RL training wall time")
    parser.add_argument("--sb3-minutes", type=float, default=5.0, help="MaskablePPO training wall time (0: skip)")
    parser.add_argument("--qwen-updates", type=int, default=3, help="updates of the Qwen throughput run (0: skip)")
    parser.add_argument("--eval-seeds", type=int, default=20, help="held-out seeds per first-stage task")
    parser.add_argument("--gate-every", type=int, default=100)
    parser.add_argument("--groups", type=int, default=8)
    parser.add_argument("--group-size", type=int, default=8)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--kl", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--codes", default="TUDLRBF", help="the small policy's action codes (default: MaskablePPO's)")
    parser.add_argument(
        "--train-max-steps", type=int, default=20, help="training episodes' step budget (default: MaskablePPO's 20; 0: each task's own)"
    )
    parser.add_argument("--minibatches", type=int, default=1, help="optimizer steps per pass over an update's steps")
    parser.add_argument("--sb3-from", default=None, metavar="JSON", help="take MaskablePPO's figures from an earlier results file")
    parser.add_argument("--work", default="/tmp/rl_tiny_bench")
    parser.add_argument("--out", default=str(HERE))
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)  # 2 cores shared with other jobs
    work, out = Path(args.work), Path(args.out)
    work.mkdir(parents=True, exist_ok=True)
    tasks = list(load_curriculum("default").stages[0].tasks)
    suite = heldout_suite(tasks, args.eval_seeds)
    results: dict[str, Any] = {
        "tasks": tasks, "heldout_cases": len(suite.cases), "args": vars(args), "torch_threads": 1, "load_before": os.getloadavg(),
    }  # fmt: skip
    results["rl"] = run_rl(args, work, suite)
    print(
        json.dumps(
            {k: results["rl"][k] for k in ("updates", "before", "after", "sampled_before", "sampled_after", "rollout_env_steps_per_s")}
        )
    )
    if args.sb3_from:
        results["sb3"] = {**json.loads(Path(args.sb3_from).read_text())["sb3"], "from": args.sb3_from}
    elif args.sb3_minutes > 0:
        results["sb3"] = run_sb3(args, work, tasks, suite)
        print(json.dumps({"sb3_after": results["sb3"]["after"]}))
    if args.qwen_updates > 0:
        results["qwen_throughput"] = run_qwen_throughput(args, work)
        print(json.dumps(results["qwen_throughput"]))
    results["load_after"] = os.getloadavg()
    (out / "rl_tiny_results.json").write_text(json.dumps(results, indent=2))
    plot(results, out / "rl_tiny_curve.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
