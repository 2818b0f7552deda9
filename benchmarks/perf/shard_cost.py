"""Where a sharded batch step's CPU goes: each section of the calling process and of the worker.

Run: ``python benchmarks/perf/shard_cost.py [--envs N] [--pixels] [--steps S]``

A 2-shard :class:`~cerebellum_gym.vector.shards.ShardedVectorEnv` (shard 0 in this process, shard 1
in a worker) and the single-process native env with the same N step the batched random policy of
``vector.py``. Each section is timed with ``time.thread_time`` (CPU of the thread, so waiting is
not counted) by wrapping the functions that do it, and printed in microseconds per batch step:

- this process: the policy, the envs' step (native), its own shard's step (sharded), sending the actions (``send``) and ringing the
  worker's doorbell (``bell``), receiving and unpickling the answer (``recv``), merging the
  answer's text parts (``take``), the batch's infos and its observation;
- the worker: waiting for the doorbell (the syscalls only), receiving the actions, its shard's
  step, sending the answer.

The wall-clock time per batch step is printed beside the CPU of this process: the difference is
time this process waited for the worker. The wrappers cost about a microsecond each. Asserts
nothing; on a machine shared with other work every figure moves with the load.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

import cerebellum_gym.vector.native as native
import cerebellum_gym.vector.shards as shards

sys.path.insert(0, os.path.dirname(__file__))
from vector import batched_random_actions, make

#: CPU seconds per section in this process (the worker has its own copy after the fork).
SPENT: dict[str, float] = {}


def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            SPENT[name] = SPENT.get(name, 0.0) + time.thread_time() - start

    return wrapper


def instrument(out_dir: str) -> None:
    """Wrap the sections; the worker writes its figures to ``out_dir`` when it closes."""
    native.batch_infos = timed("infos", native.batch_infos)
    shards.batch_infos = timed("infos", shards.batch_infos)
    native.NativeVectorEnv.step_entries = timed("envs' step", native.NativeVectorEnv.step_entries)  # type: ignore[method-assign]
    shards.ShardedVectorEnv._take = timed("take", shards.ShardedVectorEnv._take)  # type: ignore[method-assign]
    shards.ShardedVectorEnv._observation = timed("observation", shards.ShardedVectorEnv._observation)  # type: ignore[method-assign]
    Connection.recv = timed("recv", Connection.recv)  # type: ignore[method-assign]
    Connection.send = timed("send", Connection.send)  # type: ignore[method-assign]
    os.eventfd_write = timed("bell", os.eventfd_write)
    shards._wait_for_bell = timed("doorbell wait", shards._wait_for_bell)
    host_init, host_step, host_close = shards.ShardHost.__init__, shards.ShardHost.step, shards.ShardHost.close
    parent = os.getpid()  # the local shard's host runs here too: its step is this process's "own shard"

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        host_init(self, *args, **kwargs)
        if os.getpid() != parent:
            SPENT.clear()  # forked with this process's figures
        self.steps = 0

    def step(self: Any, actions: Any) -> Any:
        self.steps += 1
        return timed("own shard", host_step)(self, actions)

    def close(self: Any) -> None:
        if os.getpid() == parent:
            host_close(self)
            return
        with open(os.path.join(out_dir, f"{os.getpid()}.json"), "w") as f:
            json.dump({"steps": self.steps, "spent": SPENT}, f)
        host_close(self)

    shards.ShardHost.__init__ = init  # type: ignore[method-assign]
    shards.ShardHost.step = step  # type: ignore[method-assign]
    shards.ShardHost.close = close  # type: ignore[method-assign]


def run(mode: str, num_envs: int, pixels: bool, steps: int) -> tuple[float, float, dict[str, float]]:
    """Wall and CPU microseconds per batch step, and each section's CPU microseconds per step."""
    envs = make(mode, num_envs, pixels, 2)
    rng = np.random.default_rng(0)
    obs, _ = envs.reset(seed=0)
    for _ in range(max(20, steps // 10)):  # warm the caches
        obs, *_ = envs.step(batched_random_actions(obs, rng))
    SPENT.clear()
    policy = 0.0
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        start = time.thread_time()
        actions = batched_random_actions(obs, rng)
        policy += time.thread_time() - start
        obs, *_ = envs.step(actions)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    sections = {"policy": policy, **SPENT}
    envs.close()
    return wall / steps * 1e6, cpu / steps * 1e6, {k: v / steps * 1e6 for k, v in sections.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=32)
    parser.add_argument("--pixels", action="store_true", help="464-px screenshots and history frames (default: tree-only)")
    parser.add_argument("--steps", type=int, default=2000, help="batch steps measured (a tenth more to warm up)")
    args = parser.parse_args()
    if args.envs < 2:
        parser.error("--envs must be at least 2 (one env per shard)")
    with tempfile.TemporaryDirectory() as out_dir:
        instrument(out_dir)
        kind = "pixels" if args.pixels else "tree-only"
        print(f"N={args.envs} {kind}, {args.steps} batch steps; load average {os.getloadavg()[0]:.2f}; us per batch step")
        for mode in ("native", "native-sharded"):
            wall, cpu, sections = run(mode, args.envs, args.pixels, args.steps)
            keep = ("policy", "envs' step", "infos") if mode == "native" else tuple(k for k in sections if k != "envs' step")
            own = {k: sections[k] for k in keep if k in sections}
            print(f"  {mode:15s} wall {wall:7.0f}  CPU here {cpu:7.0f}  ({args.envs / wall * 1e6:,.0f} env-steps/s)")
            print("    this process: " + ", ".join(f"{k} {v:.0f}" for k, v in own.items()))
            for name in os.listdir(out_dir):
                with open(os.path.join(out_dir, name)) as f:
                    worker = json.load(f)
                os.remove(os.path.join(out_dir, name))
                n = max(1, worker["steps"])
                spent = {k: v / n * 1e6 for k, v in worker["spent"].items()}
                shown = ("doorbell wait", "recv", "own shard", "send")
                print("    the worker:   " + ", ".join(f"{k} {spent[k]:.0f}" for k in shown if k in spent))


if __name__ == "__main__":
    main()
