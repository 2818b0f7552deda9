"""Speed and memory of ``Cerebellum-Sim-v0`` on one core. Prints figures; asserts nothing.

Run: ``python benchmarks/perf/sim_step.py [--steps N] [--rounds R]``

Measures, in one process and one run (ratios are side by side, as these machines are noisy):
- env steps/s with 464-px screenshots and full observations (history frames included),
- env steps/s tree-only (``pixels=False``),
- reset latency,
- resident memory per extra instance.
Steps/s are per second of this process's CPU time (``time.process_time``), so that other load on
the machine does not count against the simulator (on an idle core that equals wall-clock time);
wall-clock steps/s are printed beside them. Each figure is the best of ``--rounds`` rounds (the
machine's other load only ever slows a round down). Every step includes the agent's own time
(``RandomAgent.act``: uniform over the legal codes, then over the visible labels).
Targets (issue 18): >= 2,000 steps/s with pixels, >= 20,000 tree-only (issue 2's were 1,000 and
10,000), reset < 2 ms, < 30 MB each.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import time

import gymnasium as gym
import numpy as np

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents import RandomAgent
from cerebellum_gym.core.memory import reuse_freed_frames

TASKS = ["SystemWifiTurnOn", "SystemBluetoothTurnOff", "SystemBrightnessMax", "ContactsAddContact"]


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def steps_per_second(pixels: bool, steps: int, policy: str) -> tuple[float, float]:
    """(CPU, wall-clock) steps/s of a policy that acts like an agent exploring (random legal actions)."""
    env = gym.make("Cerebellum-Sim-v0", task=TASKS, pixels=pixels)
    agent = RandomAgent(seed=0, allow_terminal=False)
    obs, _ = env.reset(seed=0)
    # Warm the shared tile cache the way a long run would have it warm.
    for _ in range(200):
        obs, _, term, trunc, _ = env.step(agent.act(obs) if policy == "random" else "W")
        if term or trunc:
            obs, _ = env.reset()
    start, wall = time.process_time(), time.perf_counter()
    for _ in range(steps):
        obs, _, term, trunc, _ = env.step(agent.act(obs) if policy == "random" else "W")
        if term or trunc:
            obs, _ = env.reset()
    return steps / (time.process_time() - start), steps / (time.perf_counter() - wall)


def best_of(rounds: int, pixels: bool, steps: int, policy: str) -> tuple[float, float]:
    runs = [steps_per_second(pixels, steps, policy) for _ in range(rounds)]
    return max(cpu for cpu, _ in runs), max(wall for _, wall in runs)


def reset_latency_ms(n: int = 300) -> float:
    env = gym.make("Cerebellum-Sim-v0", task=TASKS, pixels=True)
    env.reset(seed=0)
    times = []
    for seed in range(n):
        start = time.process_time()
        env.reset(seed=seed)
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def memory_per_instance_mb(n: int = 20) -> float:
    envs = [gym.make("Cerebellum-Sim-v0", task=TASKS) for _ in range(2)]
    for env in envs:
        env.reset(seed=0)
    before = rss_mb()
    more = [gym.make("Cerebellum-Sim-v0", task=TASKS) for _ in range(n)]
    rng = np.random.default_rng(0)
    for env in more:
        obs, _ = env.reset(seed=int(rng.integers(1000)))
        for _ in range(10):
            obs, *_ = env.step("T " + obs["labels"][int(rng.integers(len(obs["labels"])))] if obs["labels"] else "W")
    return (rss_mb() - before) / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3, help="best of this many rounds per figure")
    args = parser.parse_args()
    reuse_freed_frames()  # as a training or eval process opts in (core/memory.py)
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    rounds = max(1, args.rounds)
    px_random = best_of(rounds, True, args.steps, "random")
    px_wait = best_of(rounds, True, args.steps, "wait")
    tree_random = best_of(rounds, False, args.steps, "random")
    tree_wait = best_of(rounds, False, args.steps, "wait")
    reset_ms = reset_latency_ms()
    mem = memory_per_instance_mb()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Cerebellum-Sim-v0 on one core (best of {rounds} x {args.steps} steps; load average {load:.1f})")
    print("                                                           CPU steps/s  wall steps/s")
    rows = (
        ("pixels (464 px + 4x232 px history), random legal actions:", px_random, "(target >= 2,000)"),
        ("pixels, W (screen unchanged):", px_wait, ""),
        ("tree-only, random legal actions:", tree_random, "(target >= 20,000)"),
        ("tree-only, W:", tree_wait, ""),
    )
    for name, (cpu, wall), target in rows:
        print(f"  {name:<57}{cpu:8.0f}     {wall:8.0f}   {target}".rstrip())
    print(f"  {'reset latency (median, CPU):':<57}{reset_ms:8.2f} ms              (target < 2 ms)")
    print(f"  {'memory per extra instance:':<57}{mem:8.2f} MB              (target < 30 MB)")
    print("  for scale: an AndroidWorld emulator step costs seconds; a browser-simulated phone ~400 MB and 3 s to start")


if __name__ == "__main__":
    main()
