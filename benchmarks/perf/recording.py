"""Recording overhead on simulator rollouts with 464-px screenshots. Prints figures; asserts nothing.

Run: ``python benchmarks/perf/recording.py [--steps N] [--rounds R] [--num-envs E]``

With ``--num-envs E`` (more than 1) the rollouts run in the simulator's native vector env of E
envs (``gym.make_vec``), recorded with its ``record=`` option; steps count env steps.

In one process and one run (ratios side by side, as these machines are noisy), the same seeded
rollouts (a random agent exploring four tasks, full observations: 464-px screenshot and four
232-px history frames) are timed without and with :class:`RecordEpisodes`, R rounds, the order
alternating (plain first, then recorded first). A recorded round's time runs until everything is
on disk (the writer is closed inside the timed region).

The overhead is ``1 - (steps/s with recording) / (steps/s without)``, by three clocks:

- wall: what a rollout pays here and now (it depends on whether a core is free for the writer);
- CPU: this process's CPU time, all threads (the background writer counts): what recording
  costs a saturated machine;
- stepping thread: that thread's own CPU time: what a rollout pays when a spare core runs the writer.

Each figure is the median over rounds of that round's pair (plain and recorded, back to back),
with the range. Target (issue 16): under 25%.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
from gymnasium.vector.utils import iterate

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents import RandomAgent
from cerebellum_gym.core.memory import reuse_freed_frames
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


def vector_rollout(envs: gym.vector.VectorEnv, steps: int, seed: int) -> None:
    """``steps`` env steps of a random agent per sub-env (autoreset: the next step after an
    episode's end resets it)."""
    agents = [RandomAgent(seed=seed * 100 + i, allow_terminal=False) for i in range(envs.num_envs)]
    batch, _ = envs.reset(seed=[seed * 100 + i for i in range(envs.num_envs)])
    for _ in range(steps // envs.num_envs):
        observations = iterate(envs.observation_space, batch)
        batch, *_ = envs.step([agent.act(obs) for agent, obs in zip(agents, observations, strict=True)])


def timed(steps: int, seed: int, folder: Path | None, num_envs: int = 1) -> tuple[float, float, float]:
    """(wall s, process CPU s, stepping-thread CPU s) of one rollout; with ``folder``, recorded
    there (the writer drained)."""
    envs: Any
    if num_envs > 1:
        record = {} if folder is None else {"record": folder, "record_agent": "random"}
        envs, play = gym.make_vec("Cerebellum-Sim-v0", num_envs=num_envs, task=TASKS, **record), vector_rollout
    else:
        envs, play = gym.make("Cerebellum-Sim-v0", task=TASKS), rollout
        if folder is not None:
            envs = RecordEpisodes(envs, folder, agent="random")
    wall, cpu, thread = time.perf_counter(), time.process_time(), time.thread_time()
    play(envs, steps, seed)
    envs.close()  # drains the writers: the time covers everything being on disk
    return time.perf_counter() - wall, time.process_time() - cpu, time.thread_time() - thread


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--num-envs", type=int, default=1, help="more than 1: the native vector env of that many envs")
    args = parser.parse_args()
    reuse_freed_frames()  # as a training or eval process opts in (core/memory.py)
    load_before = os.getloadavg()[0]
    # Warm the shared tile cache the way a long run would have it warm (both modes benefit).
    timed(300, 99, None, args.num_envs)
    pairs: list[tuple[tuple[float, float, float], tuple[float, float, float]]] = []
    sizes: list[tuple[int, int, int]] = []
    for r in range(args.rounds):
        folder = Path(tempfile.mkdtemp(prefix="cg-rec-bench-"))
        try:
            if r % 2 == 0:
                plain = timed(args.steps, r, None, args.num_envs)
                recorded = timed(args.steps, r, folder, args.num_envs)
            else:
                recorded = timed(args.steps, r, folder, args.num_envs)
                plain = timed(args.steps, r, None, args.num_envs)
            pairs.append((plain, recorded))
            data = open_dataset(folder)
            size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
            sizes.append((len(data), len(data.image_ids()), size))
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def rate(k: int, which: int) -> float:
        return args.steps / statistics.median(pair[which][k] for pair in pairs)

    def overheads(k: int) -> list[float]:
        return sorted(1 - plain[k] / recorded[k] for plain, recorded in pairs)

    print(
        f"{args.steps} steps x {args.rounds} rounds, random agent over {len(TASKS)} tasks, 464-px screenshots + 4 history frames, "
        f"{'one env' if args.num_envs == 1 else f'native vector env of {args.num_envs}'} "
        f"(load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after, {os.cpu_count()} cores)"
    )
    print(f"{'':22}{'wall steps/s':>20}{'CPU steps/s':>20}{'stepping thread':>20}")
    for name, which in (("without recording", 0), ("with recording", 1)):
        print(f"{name:22}{rate(0, which):20,.0f}{rate(1, which):20,.0f}{rate(2, which):20,.0f}")
    cells = []
    for k in range(3):
        o = overheads(k)
        cells.append(f"{statistics.median(o):.1%} ({o[0]:.0%}..{o[-1]:.0%})")
    print(f"{'overhead':22}{cells[0]:>20}{cells[1]:>20}{cells[2]:>20}")
    print(f"{'':22}(median of the rounds' pairs, their range in brackets; target < 25%)")
    writer = statistics.median((recorded[1] - recorded[2]) / args.steps * 1e6 for _, recorded in pairs)
    stepping = statistics.median((recorded[2] - plain[2]) / args.steps * 1e6 for plain, recorded in pairs)
    print(f"recording's CPU per step: {stepping:.0f} us on the stepping thread, {writer:.0f} us on the writer thread")
    episodes, images, size = sizes[-1]
    print(
        f"per round: {episodes} episodes, {images} distinct images written ({images / args.steps:.3f} per step), "
        f"{size / 1e6:.1f} MB on disk ({size / args.steps / 1e3:.1f} kB per step)"
    )


if __name__ == "__main__":
    main()
