"""Recording overhead on simulator rollouts with 464-px screenshots. Prints figures; asserts nothing.

Run: ``python benchmarks/perf/recording.py [--steps N] [--rounds R]``

In one process and one run (ratios side by side, as these machines are noisy), the same seeded
rollouts (a random agent exploring four tasks, full observations: 464-px screenshot and four
232-px history frames) are timed without and with :class:`RecordEpisodes`, alternating, R rounds
each. A recorded round's time runs until everything is on disk (the writer is closed inside the
timed region). Reported per mode: steps/s by the wall clock, by this process's CPU time (all
threads, so the background encoder counts) and by the stepping thread's own CPU time (what a
rollout pays when a spare core runs the encoder), and for recording: images written, bytes per step.
Target (issue 16): recording costs under 25% of steps/s.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import gymnasium as gym

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents import RandomAgent
from cerebellum_gym.datasets import RecordEpisodes, open_dataset

TASKS = ["SystemWifiTurnOn", "SystemBluetoothTurnOff", "SystemBrightnessMax", "ContactsAddContact"]


def rollout(env: gym.Env, steps: int, seed: int) -> None:
    agent = RandomAgent(seed=seed, allow_terminal=False)
    obs, _ = env.reset(seed=seed)
    episode = 0
    for _ in range(steps):
        obs, _, term, trunc, _ = env.step(agent.act(obs))
        if term or trunc:
            episode += 1
            obs, _ = env.reset(seed=seed * 10_000 + episode)


def timed(steps: int, seed: int, folder: Path | None) -> tuple[float, float, float]:
    """(wall s, process CPU s, stepping-thread CPU s) of one rollout; with ``folder``, recorded
    there (the writer drained)."""
    env = gym.make("Cerebellum-Sim-v0", task=TASKS)
    if folder is not None:
        env = RecordEpisodes(env, folder, agent="random")
    wall, cpu, thread = time.perf_counter(), time.process_time(), time.thread_time()
    rollout(env, steps, seed)
    env.close()  # drains the writer: the time covers everything being on disk
    return time.perf_counter() - wall, time.process_time() - cpu, time.thread_time() - thread


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    # Warm the shared tile cache the way a long run would have it warm (both modes benefit).
    timed(300, 99, None)
    plain: list[tuple[float, float, float]] = []
    recorded: list[tuple[float, float, float]] = []
    sizes: list[tuple[int, int, int]] = []
    for r in range(args.rounds):
        plain.append(timed(args.steps, r, None))
        folder = Path(tempfile.mkdtemp(prefix="cg-rec-bench-"))
        try:
            recorded.append(timed(args.steps, r, folder))
            data = open_dataset(folder)
            images = data.image_ids()
            size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
            sizes.append((len(data), len(images), size))
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def rate(runs: list[tuple[float, float, float]], k: int) -> float:
        return args.steps / statistics.median(t[k] for t in runs)

    print(f"{args.steps} steps x {args.rounds} rounds, random agent over {len(TASKS)} tasks, 464-px screenshots + 4 history frames")
    print(f"{'':22}{'wall steps/s':>14}{'CPU steps/s':>14}{'stepping thread':>17}")
    for name, runs in (("without recording", plain), ("with recording", recorded)):
        print(f"{name:22}{rate(runs, 0):14,.0f}{rate(runs, 1):14,.0f}{rate(runs, 2):17,.0f}")
    costs = [1 - rate(recorded, k) / rate(plain, k) for k in range(3)]
    print(f"{'overhead':22}{costs[0]:14.1%}{costs[1]:14.1%}{costs[2]:17.1%}   (target < 25%)")
    episodes, images, size = sizes[-1]
    print(
        f"per round: {episodes} episodes, {images} distinct images written ({images / args.steps:.3f} per step), "
        f"{size / 1e6:.1f} MB on disk ({size / args.steps / 1e3:.1f} kB per step)"
    )


if __name__ == "__main__":
    main()
