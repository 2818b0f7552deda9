"""Benchmark: MaskablePPO on the simulator's ``system`` family on this CPU, with a learning curve.

Trains with :mod:`cerebellum_gym.agents.sb3_train` (10-minute budget by default), reloads the
saved model the way the eval CLI does (``sb3:PATH``), evaluates it on fresh seeds (success
requires ``F``, as in AndroidWorld), and writes:

- ``system_toggles_curve.png``: evaluation success vs environment steps (and wall time);
- ``system_toggles_results.json``: the figures, the curve and the settings.

Run::

    python benchmarks/learning/train_system.py                 # the published run
    python benchmarks/learning/train_system.py --bc-episodes 0 # pure RL, no oracle warm start
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


def plot(summary: dict[str, Any], final: dict[str, float], path: Path) -> None:
    """Success vs steps, with wall-clock seconds on a twin axis."""
    curve = summary["curve"]
    steps = [p["steps"] for p in curve]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.plot(steps, [p["success"] for p in curve], marker="o", ms=3, label="eval success (deterministic, F required)")
    ax.plot(steps, [p["train_success"] for p in curve], lw=1, alpha=0.6, label="training episodes' success (sampled)")
    ax.axhline(0.8, ls="--", c="grey", lw=0.8, label="80% target")
    ax.axhline(final["success"], ls=":", c="C2", lw=1, label=f"final, {final['episodes']:.0f} fresh episodes: {final['success']:.0%}")
    ax.set_xlabel("environment steps")
    ax.set_ylabel("success rate")
    ax.set_ylim(-0.02, 1.02)
    warm = " after oracle BC warm start" if summary.get("warm_start") else " (pure RL)"
    ax.set_title(f"MaskablePPO{warm}, family 'system' ({len(summary['tasks'])} tasks), {summary['wall_seconds'] / 60:.1f} min CPU")
    top = ax.twiny()
    top.set_xlim(ax.get_xlim())
    ticks = steps[:: max(1, len(steps) // 5)]
    top.set_xticks(ticks)
    top.set_xticklabels([f"{curve[steps.index(t)]['seconds']:.0f}s" for t in ticks])
    top.set_xlabel("wall clock")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--final-episodes-per-task", type=int, default=10)
    parser.add_argument("--out", default=str(HERE))
    ours, rest = parser.parse_known_args()
    defaults = ["--family", "system", "--max-minutes", "10", "--bc-episodes", "300", "--output", str(HERE / "run")]
    args: Args = parse_args([*defaults, *rest])
    out = Path(ours.out)
    out.mkdir(parents=True, exist_ok=True)

    summary = train(args)
    began = time.perf_counter()
    agent = load_agent(f"sb3:{summary['model']}")
    assert isinstance(agent, SB3Agent)
    episodes = ours.final_episodes_per_task * len(summary["tasks"])
    final = evaluate(agent, agent.config, episodes, seed=900_000)
    final["episodes"] = float(episodes)
    final["seconds"] = round(time.perf_counter() - began, 1)

    plot(summary, final, out / "system_toggles_curve.png")
    results = {
        "benchmark": "MaskablePPO on family 'system', CPU, 1 torch thread",
        "final_eval": final,
        **{k: v for k, v in summary.items() if k != "curve"},
        "curve": summary["curve"],
    }
    (out / "system_toggles_results.json").write_text(json.dumps(results, indent=2))
    print(json.dumps({"final_success": final["success"], "wall_seconds": summary["wall_seconds"], "steps": summary["total_steps"]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
