"""Reset latency of every task on ``Cerebellum-Sim-v0``, with pixels and tree-only (issue 36).

Each task is reset at several seeds not used before in the process (so no cache of a previous
episode's media helps), on one env per mode, and timed; the table gives each task's median over
its seeds, then the median, p99 and max over all tasks, and names the slowest. Then random play
with pixels, side by side: ``task=None`` (a task drawn at every reset) against one cheap task, in
steps per second (CPU time), and their ratio.

    python benchmarks/perf/reset.py                 # 5 seeds a task, both modes
    python benchmarks/perf/reset.py --seeds 10 --top 10
    python benchmarks/perf/reset.py --seeds 0 --play-steps 3000   # random play only
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import gymnasium as gym
import numpy as np

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents import RandomAgent
from cerebellum_gym.tasks import task_names


def reset_times(pixels: bool, seeds: list[int]) -> dict[str, list[float]]:
    """Per task, the wall-clock seconds of ``reset`` at each seed."""
    env = gym.make("Cerebellum-Sim-v0", pixels=pixels)
    env.reset(seed=0, options={"task": task_names()[0]})  # imports and first-use caches out of the way
    out: dict[str, list[float]] = {}
    try:
        for name in task_names():
            times = []
            for seed in seeds:
                start = time.perf_counter()
                env.reset(seed=seed, options={"task": name})
                times.append(time.perf_counter() - start)
            out[name] = times
    finally:
        env.close()
    return out


#: The single task random play is compared with: its reset costs well under a millisecond.
CHEAP_TASK = "ClockTimerEntry"


def play_rate(task: str | None, steps: int) -> tuple[float, float]:
    """Steps per CPU second of random legal actions with pixels, resets (new seeds) included, and
    the share of that time spent in resets."""
    env = gym.make("Cerebellum-Sim-v0", task=task, pixels=True)
    agent = RandomAgent(seed=0, allow_terminal=False)
    obs, _ = env.reset(seed=0)
    start, in_resets = time.process_time(), 0.0
    for _ in range(steps):
        obs, _, terminated, truncated, _ = env.step(agent.act(obs))
        if terminated or truncated:
            began = time.process_time()
            obs, _ = env.reset()
            in_resets += time.process_time() - began
    total = time.process_time() - start
    env.close()
    return steps / total, in_resets / total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=5, help="seeds per task (1000, 1001, ...)")
    parser.add_argument("--top", type=int, default=5, help="how many of the slowest tasks to name")
    parser.add_argument("--play-steps", type=int, default=2000, help="steps of random play per side (0: none)")
    args = parser.parse_args()
    for pixels in (True, False) if args.seeds else ():
        # Seeds of their own per mode: a task's media cached from the other mode would not count.
        first = 1000 if pixels else 2000
        seeds = list(range(first, first + args.seeds))
        times = reset_times(pixels, seeds)
        medians = {name: statistics.median(t) for name, t in times.items()}
        values = np.array(sorted(medians.values())) * 1000
        mode = "pixels" if pixels else "tree-only"
        print(
            f"{mode:<9} {len(medians)} tasks x {len(seeds)} seeds: per-task median reset "
            f"median {np.median(values):.1f} ms, p99 {np.percentile(values, 99):.1f} ms, max {values.max():.1f} ms"
        )
        for name in sorted(medians, key=medians.__getitem__, reverse=True)[: args.top]:
            print(f"    {name:<36} median {medians[name] * 1000:7.1f} ms  max {max(times[name]) * 1000:7.1f} ms")
    if args.play_steps:
        (drawn, drawn_share), (cheap, cheap_share) = play_rate(None, args.play_steps), play_rate(CHEAP_TASK, args.play_steps)
        print(
            f"random play, pixels: task=None {drawn:.0f} steps/s ({drawn_share:.0%} in resets), "
            f"{CHEAP_TASK} {cheap:.0f} steps/s ({cheap_share:.0%} in resets): {drawn / cheap:.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
