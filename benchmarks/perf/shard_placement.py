"""Where a shard worker runs when its request arrives: on the parent's core, or on the other one.

Run: ``python benchmarks/perf/shard_placement.py [--steps S] [--envs N]``

A 2-shard :class:`~cerebellum_gym.vector.shards.ShardedVectorEnv` (shard 0 in this process, shard 1
in a worker) steps tree-only envs with random actions, once with the worker waiting on its eventfd
doorbell (the default) and once waiting in the pipe (the doorbell switched off here). For every
step it records the core this process is on when it sends the request and the core the worker
starts the step on, and prints how often they are the same core and how much of the worker's step
overlaps this process's own shard. A pipe write wakes its reader as a *sync* wakeup, so Linux
queues the worker on the writer's core, behind a parent that keeps running its shard.
It also prints the CPU time of a batch step: the single-process native env's, and the sharded
env's in this process (its own shard and the rest: messages, merge, infos) and in the worker.
Asserts nothing; on a machine busy with other work every figure moves with the load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from typing import Any

import numpy as np

import cerebellum_gym.vector.native as native
import cerebellum_gym.vector.shards as shards

sys.path.insert(0, os.path.dirname(__file__))
from vector import TASKS, batched_random_actions


def current_cpu() -> int:
    """The core this process is running on (field 39 of ``/proc/self/stat``)."""
    with open("/proc/self/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[36])


def measure(steps: int, envs: int, doorbell: bool, out_dir: str) -> tuple[float, float, list[float]]:
    """Fraction of steps whose worker started on this process's core, mean overlap, and the
    mean CPU ms per batch step of: this process's step, its own shard, the worker's shard."""
    original_step, original_bell, original_local = shards.ShardHost.step, shards._new_bell, shards.LocalTransport.request
    parent = os.getpid()  # the local shard's host steps here too: only the worker's steps are logged
    log: list[tuple[float, float, int, float]] = []
    local_log: list[tuple[float, float, int, float]] = []
    parent_cpu: list[float] = []

    def timed_step(self: Any, actions: Any) -> Any:
        if os.getpid() == parent:
            return original_step(self, actions)
        start, cpu, spent = time.perf_counter(), current_cpu(), time.thread_time()
        result = original_step(self, actions)
        log.append((start, time.perf_counter(), cpu, time.thread_time() - spent))
        if len(log) == steps:
            with open(os.path.join(out_dir, f"{os.getpid()}.json"), "w") as f:
                json.dump(log, f)
        return result

    def timed_local(transport: Any, command: str, payload: Any) -> None:
        start, cpu, spent = time.perf_counter(), current_cpu(), time.thread_time()
        original_local(transport, command, payload)
        if command == "step":
            local_log.append((start, time.perf_counter(), cpu, time.thread_time() - spent))

    shards.ShardHost.step = timed_step  # type: ignore[method-assign]
    shards.LocalTransport.request = timed_local  # type: ignore[method-assign,assignment]
    if not doorbell:
        shards._new_bell = lambda context: None
    try:
        sharded = shards.ShardedVectorEnv(envs, num_shards=2, task=TASKS, pixels=False)
        try:
            rng = np.random.default_rng(0)
            obs, _ = sharded.reset(seed=0)
            for _ in range(steps):
                actions = batched_random_actions(obs, rng)
                spent = time.thread_time()
                obs, *_ = sharded.step(actions)
                parent_cpu.append(time.thread_time() - spent)
            pid = sharded._processes[0].pid
        finally:
            sharded.close()
    finally:
        shards.ShardHost.step, shards._new_bell = original_step, original_bell  # type: ignore[method-assign]
        shards.LocalTransport.request = original_local  # type: ignore[method-assign]
    with open(os.path.join(out_dir, f"{pid}.json")) as f:
        worker = json.load(f)
    half = steps // 2  # the second half: caches warm
    pairs = list(zip(worker[half:], local_log[half:], strict=True))
    same = sum(1 for w, p in pairs if w[2] == p[2]) / len(pairs)
    overlap = statistics.mean(max(0.0, min(w[1], p[1]) - max(w[0], p[0])) / max(w[1] - w[0], 1e-9) for w, p in pairs)
    cpu = [1e3 * statistics.mean(x[half:]) for x in (parent_cpu, [p[3] for p in local_log], [w[3] for w in worker])]
    return same, overlap, cpu


def native_step_cpu(steps: int, envs: int) -> float:
    """Mean CPU ms of a batch step of the single-process native env (the second half)."""
    env = native.NativeVectorEnv(envs, task=TASKS, pixels=False)
    try:
        rng = np.random.default_rng(0)
        obs, _ = env.reset(seed=0)
        spent: list[float] = []
        for _ in range(steps):
            actions = batched_random_actions(obs, rng)
            start = time.thread_time()
            obs, *_ = env.step(actions)
            spent.append(time.thread_time() - start)
    finally:
        env.close()
    return 1e3 * statistics.mean(spent[steps // 2 :])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--envs", type=int, default=8)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} (1 min), {len(os.sched_getaffinity(0))} cores")
    with tempfile.TemporaryDirectory() as out_dir:
        for doorbell in (False, True, False, True):
            same, overlap, (step, local, worker) = measure(args.steps, args.envs, doorbell, out_dir)
            how = "eventfd doorbell" if doorbell else "pipe only       "
            print(f"worker waits on {how}: starts on the parent's core in {same:6.1%} of steps; overlaps the local shard {overlap:6.1%}")
            print(
                f"    CPU ms per batch step: native env {native_step_cpu(args.steps, args.envs):.3f}; sharded: this process {step:.3f} "
                f"(its shard {local:.3f}, the rest {step - local:.3f}), the worker's shard {worker:.3f}"
            )


if __name__ == "__main__":
    main()
