"""Benchmark: MaskablePPO on the system-toggle tasks on this CPU, 10 minutes of training, with learning curves.

Tasks: the six AndroidWorld system toggles, ``SystemWifiTurnOn/Off``, ``SystemBluetoothTurnOn/Off``
and ``SystemBrightnessMax/Min`` (the ``Verify`` variants share their goal texts but start in the
goal state, and the rest of the simulator's ``system`` family opens apps; both are left out).

Two variants, both trained by :mod:`cerebellum_gym.agents.sb3_train` with the slot-sharing
policy (:class:`~cerebellum_gym.agents.slot_policy.SlotPointerPolicy`) and self-imitation of
the agent's own successful episodes:

- ``pure`` (the headline): pure RL. No oracle data, no privileged start states.
- ``bc``: the same, after a behaviour-cloning warm start on oracle demonstrations (privileged).

Shared settings (``COMMON``): action codes ``T U D L R B F`` (no long-press, typing, home, wait or
"impossible"), no step cost, no novelty bonus (it lured the policy into the calendar app's
endless screens for the brightness goals), 20-step training episodes.

Each variant's model is reloaded the way the eval CLI does (``sb3:PATH``) and evaluated on fresh
seeds (deterministic policy, success requires ``F``, the tasks' own 10-step budget). Outputs:
``system_toggles_curve.png`` (success vs environment steps, both variants) and
``system_toggles_results.json``.

Run::

    python benchmarks/learning/train_system.py                    # both variants, one after the other, then plot
    python benchmarks/learning/train_system.py --variant pure     # one variant (run two shells in parallel) ...
    python benchmarks/learning/train_system.py --variant bc
    python benchmarks/learning/train_system.py --plot             # ... then merge their results
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from cerebellum_gym.agents import load_agent
from cerebellum_gym.agents.sb3_agent import SB3Agent
from cerebellum_gym.agents.sb3_train import Args, evaluate, parse_args, train

HERE = Path(__file__).resolve().parent
TASKS = (
    "SystemWifiTurnOn",
    "SystemWifiTurnOff",
    "SystemBluetoothTurnOn",
    "SystemBluetoothTurnOff",
    "SystemBrightnessMax",
    "SystemBrightnessMin",
)
#: Settings shared by both variants (``sb3_train`` flags).
COMMON = [
    "--tasks", ",".join(TASKS),
    "--policy", "slot",
    "--codes", "TUDLRBF",
    "--step-cost", "0",
    "--novelty-bonus", "0",
    "--train-max-steps", "20",
    "--self-imitation",
    "--max-minutes", "10",
    "--eval-every", "8192",
]  # fmt: skip
VARIANTS = {
    "pure": {"flags": ["--bc-episodes", "0"], "label": "pure RL (no oracle data)"},
    "bc": {"flags": ["--bc-episodes", "300"], "label": "oracle BC warm start (privileged)"},
}


def run_variant(name: str, extra: list[str], episodes_per_task: int, run_dir: Path) -> dict[str, Any]:
    """Train one variant, reload its model as ``sb3:PATH``, evaluate on fresh seeds; returns (and saves) the result."""
    args: Args = parse_args([*COMMON, *VARIANTS[name]["flags"], "--output", str(run_dir / name), *extra])
    summary = train(args)
    began = time.perf_counter()
    agent = load_agent(f"sb3:{summary['model']}")
    assert isinstance(agent, SB3Agent)
    episodes = episodes_per_task * len(summary["tasks"])
    final = evaluate(agent, agent.config, episodes, seed=900_000)
    final["episodes"] = float(episodes)
    final["seconds"] = round(time.perf_counter() - began, 1)
    result = {"variant": name, "label": VARIANTS[name]["label"], "final_eval": final, **summary}
    (run_dir / name / "result.json").write_text(json.dumps(result, indent=2))
    return result


def plot(results: dict[str, dict[str, Any]], path: Path) -> None:
    """Evaluation success vs steps for each variant, wall-clock seconds annotated."""
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for i, (name, result) in enumerate(results.items()):
        curve = result["curve"]
        steps = [p["steps"] for p in curve]
        final = result["final_eval"]
        style = {"lw": 2.2} if name == "pure" else {"lw": 1.2, "ls": "--"}
        ax.plot(
            steps,
            [p["success"] for p in curve],
            marker="o",
            ms=3,
            c=f"C{i}",
            label=f"{result['label']}: final {final['success']:.0%} on {final['episodes']:.0f} fresh episodes",
            **style,
        )
        last = curve[-1]
        ax.annotate(
            f"{last['seconds'] / 60:.1f} min",
            (last["steps"], last["success"]),
            fontsize=7,
            c=f"C{i}",
            xytext=(-40, -12 - 10 * i),
            textcoords="offset points",
        )
        reached = result.get("first_reached_80")
        if reached:
            ax.annotate(
                f"80% at {reached['seconds']:.0f}s",
                (reached["steps"], 0.8),
                fontsize=7,
                c=f"C{i}",
                xytext=(3, 6 - 14 * i),
                textcoords="offset points",
            )
    ax.axhline(0.8, ls=":", c="grey", lw=0.8, label="80% target")
    ax.set_xlabel("environment steps")
    ax.set_ylabel("eval success (deterministic, F required)")
    ax.set_ylim(-0.02, 1.05)
    ax.set_title(f"MaskablePPO + slot policy + self-imitation, {len(TASKS)} system toggles, 10 min CPU")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_outputs(run_dir: Path, out: Path, ablations: dict[str, Path] | None = None) -> dict[str, Any]:
    """Merge the variants' ``result.json`` files into the PNG and the results JSON.

    ``ablations`` names other runs' ``result.json`` files (other settings) whose figures and
    curves are kept in the JSON, not in the plot.
    """
    results = {
        name: json.loads((run_dir / name / "result.json").read_text()) for name in VARIANTS if (run_dir / name / "result.json").exists()
    }
    if not results:
        raise SystemExit(f"no results under {run_dir}: train a variant first")
    plot(results, out / "system_toggles_curve.png")
    merged = {
        "benchmark": "MaskablePPO (sb3-contrib) on the six system-toggle tasks, CPU, 1 torch thread, 10-minute budget",
        "tasks": list(TASKS),
        "headline": "pure",
        "variants": results,
    }
    if ablations:
        merged["ablations"] = {}
        for name, path in ablations.items():
            other = json.loads(path.read_text())
            keep = ("label", "final_eval", "best_success", "first_reached_80", "total_steps", "wall_seconds", "args", "curve")
            merged["ablations"][name] = {k: other.get(k) for k in keep}
    (out / "system_toggles_results.json").write_text(json.dumps(merged, indent=2))
    return merged


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=sorted(VARIANTS), help="train only this variant (default: all, then plot)")
    parser.add_argument("--plot", action="store_true", help="only merge existing results into the PNG and JSON")
    parser.add_argument("--final-episodes-per-task", type=int, default=20)
    parser.add_argument("--run-dir", default=str(HERE / "run"))
    parser.add_argument("--ablation", action="append", default=[], metavar="NAME=RESULT_JSON", help="another run's result.json to keep")
    parser.add_argument("--out", default=str(HERE))
    ours, rest = parser.parse_known_args()
    run_dir, out = Path(ours.run_dir), Path(ours.out)
    out.mkdir(parents=True, exist_ok=True)
    if not ours.plot:
        for name in [ours.variant] if ours.variant else list(VARIANTS):
            result = run_variant(name, rest, ours.final_episodes_per_task, run_dir)
            print(json.dumps({"variant": name, "final_success": result["final_eval"]["success"], "steps": result["total_steps"]}))
    if ours.plot or not ours.variant:
        ablations = {k: Path(v) for k, v in (a.split("=", 1) for a in ours.ablation)}
        merged = write_outputs(run_dir, out, ablations)
        print(json.dumps({name: r["final_eval"]["success"] for name, r in merged["variants"].items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
