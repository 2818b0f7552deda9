"""CPU cost of one AndroidWorld episode on the served simulator, reset to judged (issue 12's
target: under 1 s for the system and clock families). Prints figures; asserts nothing.

Run: ``python benchmarks/perf/androidworld_episode.py [--repeats N] [--tasks A,B]``

One episode is ``env.reset`` (AndroidWorld's ``initialize_task``, then home), the simulator's
oracle acting through AndroidWorld's env until ``F``, and AndroidWorld's ``is_successful`` (then
``tear_down``). Its CPU time is counted on every process that does the work:

- this process (``time.process_time``): AndroidWorld, android_env, the env, and the simulator's
  adbd, which serves from threads of this process;
- the ``adb`` client processes android_env starts for every command (``RUSAGE_CHILDREN``);
- the private adb server (its ``/proc/<pid>/stat``).

Side by side, in the same run: the same task as the simulator's own (``Cerebellum-Sim-v0``,
the simulator's judge, no adb), and the wall-clock time of each.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "androidworld"))

TASKS = ("SystemWifiTurnOn", "SystemBrightnessMax", "TurnOffWifiAndTurnOnBluetooth", "ClockTimerEntry", "ClockStopWatchRunning")


def adb_server_pid(port: int) -> int | None:
    """The adb server listening on ``port`` (``adb -L tcp:PORT fork-server server``)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"fork-server" in cmdline and f"tcp:{port}".encode() in cmdline:
            return int(entry)
    return None


def proc_cpu(pid: int | None) -> float:
    """User + system seconds of process ``pid`` (0 when unknown)."""
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def aw_episode(world: Any, name: str, seed: int) -> tuple[float, float, float]:
    """(AndroidWorld's judgement, CPU seconds, wall seconds) of one episode."""
    import conformance

    server_pid = adb_server_pid(world.adb.port)
    cpu0, child0, server0, wall0 = time.process_time(), children_cpu(), proc_cpu(server_pid), time.perf_counter()
    score, _, _ = conformance._episode(world, name, seed, None)
    cpu = (time.process_time() - cpu0) + (children_cpu() - child0) + (proc_cpu(server_pid) - server0)
    return float(score or 0.0), cpu, time.perf_counter() - wall0


def sim_episode(name: str, seed: int) -> tuple[float, float, float]:
    """The simulator's own task of the same name on the embedded simulator."""
    import gymnasium as gym

    import cerebellum_gym  # noqa: F401

    cpu0, wall0 = time.process_time(), time.perf_counter()
    env = gym.make("Cerebellum-Sim-v0", task=name, pixels=False)
    _, info = env.reset(seed=seed)
    inner: Any = env.unwrapped
    oracle = inner.task.oracle()
    while True:
        _, _, terminated, truncated, info = env.step(oracle.act(inner.screen))
        if terminated or truncated:
            break
    env.close()
    return float(info["progress"]), time.process_time() - cpu0, time.perf_counter() - wall0


def main(argv: list[str] | None = None) -> int:
    import conformance

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--tasks", default=",".join(TASKS))
    args = parser.parse_args(argv)
    logging.getLogger("absl").setLevel(logging.ERROR)
    results: dict[str, Any] = {}
    with conformance.served_world() as world:
        for name in args.tasks.split(","):
            seed = conformance.seed_for(name)
            aw_episode(world, name, seed)  # warm-up: imports, first dumps
            sim_episode(name, seed)
            aw = [aw_episode(world, name, seed) for _ in range(args.repeats)]
            sim = [sim_episode(name, seed) for _ in range(args.repeats)]
            results[name] = {
                "androidworld_judgement": min(a[0] for a in aw),
                "androidworld_cpu_s": round(statistics.median(a[1] for a in aw), 3),
                "androidworld_wall_s": round(statistics.median(a[2] for a in aw), 3),
                "sim_judgement": min(s[0] for s in sim),
                "sim_cpu_s": round(statistics.median(s[1] for s in sim), 4),
                "sim_wall_s": round(statistics.median(s[2] for s in sim), 4),
            }
            print(json.dumps({"task": name, **results[name]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
