"""Batched rollouts of ``Cerebellum-Sim-v0``: env-steps/s of every vector env, in one run.

Run: ``python benchmarks/perf/vector.py [--seconds S] [--rounds R] [--sizes 1,8,32] [--tree-sizes 1,8,32,64]``

For each vector env (gymnasium's ``sync`` and ``async``, the ``native`` batched env, and
``native-sharded`` over one worker process per core) and each number of envs N, with 464-px
screenshots and history frames (``pixels``) and without (``tree``), it runs a batched random
policy in the loop (uniform over the legal codes of ``action_mask`` without ``F``/``I``, then over
the filled label slots of ``label_mask``, in numpy over the whole batch) and prints env-steps per
second of wall-clock time (the sharded and async forms use every core), and env-steps per
CPU-second of this process and its workers (read from ``/proc``): on a machine shared with other
work, wall-clock figures swing with the load, CPU figures much less.
The sharded form can only beat the native env by as much as the machine can run its shards at
once: the ``halves`` mode (with ``native-sharded``) runs the same work as independent native envs,
one per core with N/cores envs each, in that many processes stepping at the same time, with no
messages and no merging, and counts their env-steps together: the ceiling of sharded/native at
that moment (2.00x on two idle cores; less when other work shares them, or when the processes
slow each other down through shared caches and memory).
The process-wide caches are warmed once before the first cell (worker processes are forked from
this one and inherit them). Ratios are measured side by side in one run: each row's modes take
turns over a few rounds; each figure is the best of its rounds, each ratio the median over rounds
of the ratio of the two figures of one round (measured seconds apart, so the load moves less
between them than between two modes' best rounds). The load average is printed with them.
Asserts nothing.

The ``pipelined`` mode is the sharded env stepped the way a training loop can: the N envs as one
batch per core, each a :class:`~cerebellum_gym.vector.shards.ShardedVectorEnv` of one worker
process (``local_shard=False``), stepped with ``step_async``/``step_wait`` in turn, so that this
process draws one batch's actions and merges its answers while the other batches step.

The ``sharded-blocking`` mode is ``native-sharded`` with ``spin_s=0``: this process and its
workers block on each message at once instead of busy-waiting for it first (see
:data:`~cerebellum_gym.vector.shards.DEFAULT_SPIN_S`); ``sharded/blocking`` is what the spin wins.

Targets (issue 18): native >= 3x async and >= 1.5x sync at N=8, pixels and tree; sharded over 2
cores >= 1.7x native. Issue 28: the sharded env over 2 processes (``native-sharded`` or
``pipelined``) >= 90% of ``halves`` at N=32, pixels and tree; >= 1.7x native tree-only where
``halves`` allows it.
"""

from __future__ import annotations

import argparse
import functools
import gc
import multiprocessing
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.core.actions import CODE_INDEX, CODES
from cerebellum_gym.core.memory import reuse_freed_frames
from cerebellum_gym.vector.shards import ShardedVectorEnv, shard_sizes

ENV_ID = "Cerebellum-Sim-v0"
TASKS = ["SystemWifiTurnOn", "SystemBluetoothTurnOff", "SystemBrightnessMax", "ContactsAddContact"]
MODES = ("sync", "async", "native", "native-sharded", "sharded-blocking", "pipelined", "halves")
WORDS = ("hello", "Alice", "2023-10-16", "groceries")
#: Codes the random policy never draws (they end the episode at once), as RandomAgent(allow_terminal=False).
_NO_TERMINAL = np.ones(len(CODES), bool)
_NO_TERMINAL[[CODE_INDEX["F"], CODE_INDEX["I"]]] = False


def batched_random_actions(obs: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """One random legal structured action per env, drawn for the whole batch at once."""
    legal = (obs["action_mask"] != 0) & _NO_TERMINAL
    n = legal.shape[0]
    # A uniform legal code per row: the argmax of uniform noise over the legal entries.
    codes = np.argmax(np.where(legal, rng.random(legal.shape), -1.0), axis=1)
    filled = obs["label_mask"].sum(axis=1)
    labels = (rng.random(n) * np.maximum(filled, 1)).astype(np.int64)
    words = rng.integers(len(WORDS), size=n)
    texts = tuple(WORDS[w] if c == CODE_INDEX["K"] else "" for c, w in zip(codes.tolist(), words.tolist(), strict=True))
    return {"code": codes.astype(np.int64), "label": labels, "text": texts}


def make(mode: str, num_envs: int, pixels: bool, shards: int) -> gym.vector.VectorEnv[Any, Any, Any]:
    kwargs: dict[str, Any] = {"task": TASKS, "pixels": pixels}
    if mode == "sync":
        return gym.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode="sync", **kwargs)
    if mode == "async":
        return gym.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode="async", vector_kwargs={"shared_memory": False}, **kwargs)
    if mode == "native":
        return gym.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)
    if mode == "sharded-blocking":
        kwargs["spin_s"] = 0.0
    return gym.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode="vector_entry_point", shards=min(shards, num_envs), **kwargs)


def _worker_pids(envs: gym.vector.VectorEnv[Any, Any, Any]) -> list[int]:
    processes = getattr(envs, "processes", None) or getattr(envs, "_processes", None) or []
    return [p.pid for p in processes if p.pid is not None]


def _cpu_seconds(pids: list[int]) -> float:
    """CPU seconds used so far by this process and the given worker processes (from /proc)."""
    total = time.process_time()
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        except (OSError, IndexError, ValueError):
            pass
    return total


def _warm(envs: gym.vector.VectorEnv[Any, Any, Any], obs: Any, rng: np.random.Generator, seconds: float) -> Any:
    """Step for ``seconds`` so that the tile and layout caches are as warm as in a long run; the last observation."""
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, *_ = envs.step(batched_random_actions(obs, rng))
    return obs


def env_steps_per_second(factory: Callable[[], gym.vector.VectorEnv[Any, Any, Any]], seconds: float) -> tuple[float, float]:
    """Env-steps per second of wall-clock time, and per CPU-second of every process involved."""
    envs = factory()
    try:
        rng = np.random.default_rng(0)
        obs = _warm(envs, envs.reset(seed=0)[0], rng, seconds / 3)
        pids = _worker_pids(envs)
        steps = 0
        cpu = _cpu_seconds(pids)
        start = time.perf_counter()
        while True:
            obs, *_ = envs.step(batched_random_actions(obs, rng))
            steps += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds and steps >= 5:
                cpu = _cpu_seconds(pids) - cpu
                return steps * envs.num_envs / elapsed, steps * envs.num_envs / max(cpu, 1e-9)
    finally:
        envs.close()
        gc.collect()


def pipelined_steps_per_second(num_envs: int, pixels: bool, shards: int, seconds: float) -> tuple[float, float]:
    """Env-steps/s (wall, per CPU-second) of ``num_envs`` envs as ``shards`` batches of one
    worker each, stepped in a pipeline: while batch ``j`` steps in its worker, this process
    collects batch ``j - 1`` and sends its next actions."""
    sizes = shard_sizes(num_envs, shards)
    batches = [ShardedVectorEnv(size, num_shards=1, local_shard=False, task=TASKS, pixels=pixels) for size in sizes if size]
    try:
        rngs = [np.random.default_rng(j) for j in range(len(batches))]
        obs = [env.reset(seed=sum(sizes[:j]))[0] for j, env in enumerate(batches)]

        def run(duration: float) -> tuple[int, float]:
            for j, env in enumerate(batches):
                env.step_async(batched_random_actions(obs[j], rngs[j]))
            rounds, begin = 0, time.perf_counter()
            while (elapsed := time.perf_counter() - begin) < duration or rounds < 5:
                for j, env in enumerate(batches):
                    obs[j] = env.step_wait()[0]
                    env.step_async(batched_random_actions(obs[j], rngs[j]))
                rounds += 1
            for j, env in enumerate(batches):
                obs[j] = env.step_wait()[0]
            return rounds, elapsed

        run(seconds / 3)  # warm, as the other modes are
        pids = [pid for env in batches for pid in _worker_pids(env)]
        cpu = _cpu_seconds(pids)
        rounds, elapsed = run(seconds)
        cpu = _cpu_seconds(pids) - cpu
        steps = rounds * num_envs
        return steps / elapsed, steps / max(cpu, 1e-9)
    finally:
        for env in batches:
            env.close()
        gc.collect()


def _half(offset: int, num_envs: int, pixels: bool, seconds: float, start: Any, results: Any) -> None:
    """One of :func:`independent_halves`' processes: a native env of the batch's envs ``offset``
    onwards (their seeds, as a shard has them), stepped for ``seconds`` after ``start``."""
    envs = make("native", num_envs, pixels, 1)
    rng = np.random.default_rng(offset)
    obs = _warm(envs, envs.reset(seed=offset)[0], rng, seconds / 3)
    start.wait(timeout=300)  # a sibling that died breaks the barrier instead of hanging this one
    steps, begin, cpu = 0, time.perf_counter(), time.process_time()
    while (elapsed := time.perf_counter() - begin) < seconds or steps < 5:
        obs, *_ = envs.step(batched_random_actions(obs, rng))
        steps += 1
    results.put((steps * num_envs, elapsed, time.process_time() - cpu))
    envs.close()


def independent_halves(num_envs: int, pixels: bool, shards: int, seconds: float) -> tuple[float, float]:
    """Env-steps/s (wall, per CPU-second) of ``shards`` independent native envs sharing
    ``num_envs`` envs, each in its own process, all stepping at the same time: what a sharded env
    would do with free messages and merging, on this machine at this moment."""
    ctx = multiprocessing.get_context("fork")
    start, results = ctx.Barrier(shards), ctx.Queue()
    sizes = shard_sizes(num_envs, shards)
    processes = [
        ctx.Process(target=_half, args=(sum(sizes[:k]), size, pixels, seconds, start, results), daemon=True) for k, size in enumerate(sizes)
    ]
    for process in processes:
        process.start()
    try:
        answers = [results.get(timeout=600) for _ in processes]
    finally:
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.terminate()
    steps = sum(a[0] for a in answers)
    return steps / max(a[1] for a in answers), steps / max(sum(a[2] for a in answers), 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="measured seconds per cell (plus a third of it to warm up)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over the modes; each cell keeps its best")
    parser.add_argument("--sizes", default="1,8,32", help="numbers of envs with pixels")
    parser.add_argument("--tree-sizes", default="1,8,32,64", help="numbers of envs tree-only")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--async-max", type=int, default=32, help="largest N for async (a process per env; memory)")
    args = parser.parse_args()
    reuse_freed_frames()  # as a training or eval process opts in (core/memory.py)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    modes = [m for m in args.modes.split(",") if m]
    #: Per row, per mode: (wall, cpu) of each round, in round order.
    rows: dict[tuple[str, int], dict[str, list[tuple[float, float]]]] = {}
    load_before = os.getloadavg()
    # Warm the process-wide caches (tiles, trees, frames) once, so that the first cell measured
    # does not pay for everyone; worker processes are forked from this one and inherit them.
    env_steps_per_second(lambda: make("native", 8, True, cores), 3 * args.seconds)
    for pixels, sizes in ((True, args.sizes), (False, args.tree_sizes)):
        kind = "pixels" if pixels else "tree"
        for n in (int(s) for s in sizes.split(",") if s):
            row: dict[str, list[tuple[float, float]]] = {mode: [] for mode in modes}
            # Rounds go through every mode in turn, so that the modes of a row are measured
            # under the same conditions, seconds apart.
            for _ in range(args.rounds):
                for mode in modes:
                    if (mode == "async" and n > args.async_max) or (mode == "halves" and n < 2):
                        continue
                    if mode == "pipelined" and n < 2:
                        continue
                    if mode == "halves":
                        wall, cpu = independent_halves(n, pixels, min(cores, n), args.seconds)
                    elif mode == "pipelined":
                        wall, cpu = pipelined_steps_per_second(n, pixels, min(cores, n), args.seconds)
                    else:
                        wall, cpu = env_steps_per_second(functools.partial(make, mode, n, pixels, cores), args.seconds)
                    row[mode].append((wall, cpu))
                    print(f"  {kind:6s} N={n:3d} {mode:15s} {wall:9.0f} env-steps/s   {cpu:9.0f} per CPU-second", flush=True)
            rows[(kind, n)] = row
    load_after = os.getloadavg()

    for title, which in (("env-steps/s of wall-clock time", 0), ("env-steps per CPU-second (this process and its workers)", 1)):
        print()
        print(f"Cerebellum-Sim-v0 vector envs, {title}; batched random policy, {cores} cores")
        print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min)")
        if "halves" in modes:
            print(f"halves: {cores} independent native envs of N/{cores} envs, a process each, at once (the ceiling of sharded/native)")
        print("each figure: the best of its rounds; each ratio: the median over rounds of the ratio of one round's two figures")
        header = (
            f"| obs | N | {' | '.join(modes)} | native/sync | native/async | sharded/native | pipelined/native | halves/native "
            "| sharded/halves | pipelined/halves | sharded/blocking |"
        )
        print(header)
        print("|" + "---|" * (header.count("|") - 1))
        for (kind, n), row in rows.items():
            cells = [f"{max(r[which] for r in row[m]):,.0f}" if row[m] else "-" for m in modes]

            def ratio(a: str, b: str, row: dict[str, list[tuple[float, float]]] = row, which: int = which) -> str:
                # Figures of the same round were measured seconds apart: the load moves less
                # between them than between the best rounds of two modes.
                pairs = list(zip(row.get(a, []), row.get(b, []), strict=False))
                if not pairs:
                    return "-"
                return f"{statistics.median(x[which] / y[which] for x, y in pairs):.2f}x"

            print(
                f"| {kind} | {n} | {' | '.join(cells)} "
                f"| {ratio('native', 'sync')} | {ratio('native', 'async')} | {ratio('native-sharded', 'native')} "
                f"| {ratio('pipelined', 'native')} | {ratio('halves', 'native')} "
                f"| {ratio('native-sharded', 'halves')} | {ratio('pipelined', 'halves')} "
                f"| {ratio('native-sharded', 'sharded-blocking')} |"
            )


if __name__ == "__main__":
    main()
