"""Episode state as a value on ``Cerebellum-Sim-v0`` (issue 37): cost, size, exactness, groups.

Three measures, side by side in one run:

1. Per task family, the median of ``clone_state`` and of ``restore_state`` (the state put back,
   and the same with the observation a reset hands out), and the state's size (its own bytes, the
   history's frames being shared with the episode, and as bytes, frames included), at a
   mid-episode moment (the oracle's first steps), tree-only and with pixels.
2. Exactness: random (task, seed, prefix, actions) cases: the episode goes on from a clone
   taken after the prefix, then an env made with the same options restores the clone (through
   its bytes) and takes the same actions: observations, rewards, terminations and infos must be
   equal, bit for bit (the last action is ``F``: the task's judge gives its verdict in both). On
   ``Cerebellum-AndroidWorld-v0`` too, where AndroidWorld's own ``is_successful`` judges.
3. A GRPO-style group: 8 episodes started from one state taken after a 10-step prefix, against
   8 resets each replaying the prefix.

    python benchmarks/perf/clone_state.py                    # 1,000 + 100 exactness cases
    python benchmarks/perf/clone_state.py --cases 100 --repeats 50
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from typing import Any

import gymnasium as gym
import numpy as np

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.core.state import EpisodeState
from cerebellum_gym.tasks import task_names
from cerebellum_gym.tasks.registry import get_task_class

ENV_ID = "Cerebellum-Sim-v0"


def explore(env: Any, rng: random.Random) -> str:
    """A mix of the oracle's moves and random ones (valid and not), as exploration makes."""
    u = env.unwrapped
    if rng.random() < 0.5:
        try:
            return str(u.oracle_action())
        except Exception:  # an oracle lost off its path (random moves took it there): a random move then
            pass
    labels = list(u.screen.labels)
    moves = ["B", "W", "D", "U", "H", "K hello", "R", "T ZZ", *(f"T {label}" for label in labels), *(f"P {label}" for label in labels[:3])]
    return rng.choice(moves)


def same_step(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Whether two ``step`` results are equal: every observation array, reward, flag and info."""
    (obs_a, *rest_a), (obs_b, *rest_b) = a, b
    if rest_a != rest_b or obs_a.keys() != obs_b.keys():
        return False
    for key, value in obs_a.items():
        parts = value.items() if key == "history" else [(key, value)]
        other = obs_b[key]
        for part, array in parts:
            if not np.array_equal(np.asarray(array), np.asarray(other[part] if key == "history" else other)):
                return False
    return True


def continuation_case(case: int, envs: dict[tuple[str, bool], tuple[Any, Any]], env_id: str = ENV_ID) -> bool:
    """One exactness case (its task, seed, prefix and actions drawn from ``case``): whether the
    restored episode continued exactly as the original did. The actions end with ``F``, so the
    task's judge (AndroidWorld's own on ``Cerebellum-AndroidWorld-v0``) gives its verdict in both."""
    rng = random.Random(case)
    pixels = case % 4 == 0 and env_id == ENV_ID
    key = (env_id, pixels)
    if key not in envs:
        envs[key] = tuple(gym.make(env_id, pixels=pixels, screenshot_width=96, history_width=48) for _ in range(2))
    env, other = envs[key]
    names = env.unwrapped.catalog.names() if env_id != ENV_ID else task_names()
    options = {"task": names[case % len(names)]}
    env.reset(seed=10_000 + case, options=options)
    for _ in range(rng.randrange(0, 12)):
        ended = env.step(explore(env, rng))
        if ended[2] or ended[3]:  # the prefix ended the episode: the clone is taken at its start
            env.reset(seed=10_000 + case, options=options)
            break
    state = env.unwrapped.clone_state()
    branch = random.Random(case * 31)
    actions, first = [], []
    for _ in range(8):
        actions.append(explore(env, branch) if len(actions) < 7 else "F")
        first.append(env.step(actions[-1]))
        if first[-1][2] or first[-1][3]:
            break
    other.reset(options={"state": EpisodeState.from_bytes(state.to_bytes())})
    return all(same_step(other.step(action), expected) for action, expected in zip(actions, first, strict=True))


def costs(pixels: bool, repeats: int) -> dict[str, dict[str, float]]:
    """Per family: median clone / restore / restore-with-observation (ms) and state sizes (bytes)."""
    rows: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for name in task_names():
        family = get_task_class(name).family
        env = gym.make(ENV_ID, task=name, pixels=pixels)
        env.reset(seed=7)
        for _ in range(3):
            if env.step(env.unwrapped.oracle_action())[2]:
                break
        u = env.unwrapped
        for _ in range(repeats):
            start = time.perf_counter()
            state = u.clone_state()
            cloned = time.perf_counter()
            u.restore_state(state)
            restored = time.perf_counter()
            rows[family]["clone"].append((cloned - start) * 1e3)
            rows[family]["restore+obs"].append((restored - cloned) * 1e3)
        # the restore alone: the observation a reset hands out is the cost of any step's
        observe = u._observation
        u._observation = lambda: None  # type: ignore[method-assign]
        for _ in range(repeats):
            start = time.perf_counter()
            u.restore_state(state)
            rows[family]["restore"].append((time.perf_counter() - start) * 1e3)
        u._observation = observe  # type: ignore[method-assign]
        rows[family]["own_kb"].append(len(state.blob) / 1024)
        rows[family]["bytes_kb"].append(len(state.to_bytes()) / 1024)
        env.close()
    return {
        family: {k: statistics.median(v) if k not in ("own_kb", "bytes_kb") else max(v) for k, v in cols.items()}
        for family, cols in rows.items()
    }


def group(prefix: int, size: int, rounds: int) -> tuple[float, float]:
    """Seconds to start ``size`` episodes at ``prefix`` steps in: from one state, and by resets
    that replay the prefix (median over ``rounds``)."""
    task = "SimpleCalendarAddOneEvent"
    envs = [gym.make(ENV_ID, task=task, pixels=False) for _ in range(size)]
    source = envs[0]
    source.reset(seed=3)
    prefix_actions = []
    for _ in range(prefix):  # the oracle's way in: a prefix that changes the phone at every step
        action = str(source.unwrapped.oracle_action())
        prefix_actions.append(action)
        source.step(action)
    state = source.unwrapped.clone_state()
    forks, replays = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        first = [env.reset(options={"state": state})[0] for env in envs]
        forks.append(time.perf_counter() - start)
        start = time.perf_counter()
        for env in envs:
            env.reset(seed=3)
            for action in prefix_actions:
                obs = env.step(action)[0]
        replays.append(time.perf_counter() - start)
        assert obs["tree"] == first[-1]["tree"], "a replayed prefix must reach the cloned moment"
    for env in envs:
        env.close()
    return statistics.median(forks), statistics.median(replays)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000, help="exactness cases (random task, seed, prefix, actions)")
    parser.add_argument(
        "--androidworld-cases", type=int, default=100, help="exactness cases on Cerebellum-AndroidWorld-v0 (AndroidWorld's judges; 0: none)"
    )
    parser.add_argument("--repeats", type=int, default=30, help="clone/restore repeats per task")
    parser.add_argument("--prefix", type=int, default=10, help="the group's prefix length (steps)")
    args = parser.parse_args()

    for pixels in (False, True):
        mode = "pixels" if pixels else "tree-only"
        table = costs(pixels, args.repeats)
        print(f"\n{mode}: per family, median ms (clone / restore / restore with the observation) and the largest state")
        print("(KiB: its own, the frames being shared with the episode; as bytes, frames included)")
        print(f"{'family':<14} {'clone':>7} {'restore':>8} {'+obs':>7} {'own':>9} {'bytes':>9}")
        for family in sorted(table):
            row = table[family]
            times = f"{row['clone']:7.3f} {row['restore']:8.3f} {row['restore+obs']:7.3f}"
            print(f"{family:<14} {times} {row['own_kb']:9.1f} {row['bytes_kb']:9.1f}")
        clone = statistics.median(r["clone"] for r in table.values())
        restore = statistics.median(r["restore"] for r in table.values())
        print(f"{mode}: median over families: clone {clone:.3f} ms + restore {restore:.3f} ms = {clone + restore:.3f} ms")

    envs: dict[tuple[str, bool], tuple[Any, Any]] = {}
    failed: list[tuple[str, int]] = []
    for env_id, count in ((ENV_ID, args.cases), ("Cerebellum-AndroidWorld-v0", args.androidworld_cases)):
        if count == 0:
            continue
        start = time.perf_counter()
        missed = [case for case in range(count) if not continuation_case(case, envs, env_id)]
        failed += [(env_id, case) for case in missed]
        took = time.perf_counter() - start
        print(f"\nexactness on {env_id}: {count - len(missed)} of {count} restored episodes continued bit for bit ({took:.0f} s)")
        if missed:
            print(f"  failed cases: {missed[:20]}")
    for pair in envs.values():
        for env in pair:
            env.close()

    forked, replayed = group(args.prefix, 8, rounds=5)
    print(
        f"\ngroup of 8 at a {args.prefix}-step prefix: from one state {forked * 1e3:.1f} ms, "
        f"8 resets + prefix replays {replayed * 1e3:.1f} ms: {replayed / forked:.1f}x faster from the state"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
