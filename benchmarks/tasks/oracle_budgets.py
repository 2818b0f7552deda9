"""How much of its step budget each task's oracle uses, over many seeds (issue 36: every task's
budget must hold its oracle at every seed, with room).

    python benchmarks/tasks/oracle_budgets.py            # seeds 0-19, the tightest tasks first
    python benchmarks/tasks/oracle_budgets.py --seeds 50 --top 5
"""

from __future__ import annotations

import argparse
import sys

import gymnasium as gym

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.tasks import get_task_class, task_names


def oracle_steps(name: str, seed: int) -> tuple[int, bool]:
    """Actions the oracle takes at ``seed`` (its final answer included) and whether it succeeded."""
    env = gym.make("Cerebellum-Sim-v0", task=name, pixels=False)
    env.reset(seed=seed)
    u = env.unwrapped
    steps, info = 0, {}
    for _ in range(u.max_steps):
        _, _, terminated, truncated, info = env.step(u.oracle_action())
        steps += 1
        if terminated or truncated:
            break
    env.close()
    return steps, bool(info.get("success"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20, help="seeds 0..N-1 per task")
    parser.add_argument("--top", type=int, default=10, help="how many of the tightest tasks to list")
    args = parser.parse_args()
    rows = []
    failed = []
    for name in task_names():
        budget = get_task_class(name).max_steps()
        runs = [oracle_steps(name, seed) for seed in range(args.seeds)]
        failed += [f"{name} seed {seed}" for seed, (_, ok) in enumerate(runs) if not ok]
        worst = max(range(args.seeds), key=lambda s: runs[s][0])
        rows.append((runs[worst][0] / budget, name, runs[worst][0], budget, worst))
    rows.sort(reverse=True)
    print(f"{'task':<36} {'most steps':>10} {'budget':>6} {'share':>6}  seed")
    for share, name, steps, budget, seed in rows[: args.top]:
        print(f"{name:<36} {steps:>10} {budget:>6} {share:>6.0%}  {seed}")
    print(f"{len(rows)} tasks x {args.seeds} seeds: {len(failed)} oracle failures; the tightest uses {rows[0][0]:.0%} of its budget")
    for line in failed:
        print(f"failed: {line}")
    return 1 if failed or rows[0][0] >= 1.0 else 0


if __name__ == "__main__":
    sys.exit(main())
