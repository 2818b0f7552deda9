"""CPU cost of one AndroidWorld episode on the served simulator, reset to judged (issue 12's
target: under 1 s for the system and clock families). Prints figures; asserts nothing.

Run: ``python benchmarks/perf/androidworld_episode.py [--repeats N] [--tasks A,B]``
(default: every AndroidWorld task the simulator mirrors in the system and clock families).

One episode is ``env.reset`` (AndroidWorld's ``initialize_task``, then home), the simulator's
oracle acting through AndroidWorld's env until ``F``, and AndroidWorld's ``is_successful`` (then
``tear_down``), on ``Cerebellum-AndroidWorld-v0``'s embedded simulator
(:class:`~cerebellum_gym.devices.androidworld_embedded.EmbeddedAndroidWorld`: the simulator
served over ADB in-process, a private real adb server, AndroidWorld's env over it). Its CPU time
is counted on every process that does the work:

- this process (``time.process_time``): AndroidWorld, android_env, the env, and the simulator's
  adbd, which serves from threads of this process;
- the ``adb`` client processes android_env starts (``RUSAGE_CHILDREN``);
- the private adb server (its ``/proc/<pid>/stat``).

Side by side, in the same run, each on its own served simulator:

- ``binary``: adb as android_env's own controller runs it, one ``adb`` client process per
  command, and a PNG screenshot taken for every state AndroidWorld fetches (what this path cost
  before ``SocketAdbController``, ``LazyPixels`` and raw screenshots);
- ``now``: the default (commands over the adb server's socket protocol, screenshots when read,
  raw frames over loopback),
  without observing pixels (``pixels=False``, as a text agent runs) and with them (``pixels=True``,
  the env's default: one screenshot a step);
- ``sim``: the simulator's own task of the same name (``Cerebellum-Sim-v0``, its own judge, no adb).
"""

from __future__ import annotations

import argparse
import functools
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

FAMILIES = ("system", "clock")


def default_tasks() -> list[str]:
    """The AndroidWorld tasks the simulator mirrors in :data:`FAMILIES`."""
    from cerebellum_gym.tasks.registry import TASKS

    return sorted({cls.mirrors for cls in TASKS.values() if cls.mirrors and cls.family in FAMILIES})


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
    """User + system seconds of process ``pid`` (0 when unknown or gone)."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Served:
    """One embedded simulator with AndroidWorld set up on it, and the env over it."""

    def __init__(self, adb_client: str, lazy_pixels: bool, screencap_format: str) -> None:
        from cerebellum_gym.devices.androidworld_embedded import EmbeddedAndroidWorld
        from cerebellum_gym.sim.adbd import AdbdServer
        from cerebellum_gym.sim.phone import Phone

        served = AdbdServer(Phone(), port=0).start()
        self.world = EmbeddedAndroidWorld(
            served, timeout=20.0, adb_client=adb_client, lazy_pixels=lazy_pixels, screencap_format=screencap_format
        )
        self.clean = self.world.phone.snapshot()

    def episode(self, name: str, seed: int, pixels: bool) -> tuple[float, float, float]:
        """(AndroidWorld's judgement, CPU seconds, wall seconds) of one episode."""
        from cerebellum_gym.devices.androidworld import AndroidWorldDevice
        from cerebellum_gym.loader import make_env
        from cerebellum_gym.tasks.catalog import BUILTIN

        self.world.phone.restore(self.clean)  # as AndroidWorld restores a snapshot: rows stay independent
        server_pid = adb_server_pid(self.world.adb.port)
        cpu0, child0, server0, wall0 = time.process_time(), children_cpu(), proc_cpu(server_pid), time.perf_counter()
        device = AndroidWorldDevice(self.world.env, tree_source="uiautomator", transition_pause=0.0)
        env: Any = make_env(name, backend="androidworld", device=device, pixels=pixels)
        _, info = env.reset(seed=seed)
        oracle = BUILTIN.get(name)(BUILTIN.get(name).from_androidworld(dict(env.task.params))).oracle()
        while True:
            _, _, terminated, truncated, info = env.step(oracle.act(env.screen))
            if terminated or truncated:
                break
        env.close()
        cpu = (time.process_time() - cpu0) + (children_cpu() - child0) + (proc_cpu(server_pid) - server0)
        return float(info["progress"]), cpu, time.perf_counter() - wall0

    def close(self) -> None:
        self.world.close()


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
    parser.add_argument("--tasks", help="comma-separated AndroidWorld task names (default: the system and clock families)")
    args = parser.parse_args(argv)
    logging.getLogger("absl").setLevel(logging.ERROR)
    logging.getLogger("cerebellum_gym.androidworld").setLevel(logging.ERROR)
    names = args.tasks.split(",") if args.tasks else default_tasks()
    binary = Served("binary", lazy_pixels=False, screencap_format="png")
    now = Served("socket", lazy_pixels=True, screencap_format="auto")
    try:
        for name in names:
            seed = conformance.seed_for(name)
            runs: dict[str, Any] = {
                "binary": functools.partial(binary.episode, name, seed, pixels=False),
                "now": functools.partial(now.episode, name, seed, pixels=False),
                "now_pixels": functools.partial(now.episode, name, seed, pixels=True),
                "sim": functools.partial(sim_episode, name, seed),
            }
            for run in runs.values():
                run()  # warm-up: imports, first dumps
            results: dict[str, list[tuple[float, float, float]]] = {key: [] for key in runs}
            for _ in range(args.repeats):  # interleaved: load on the machine hits every column alike
                for key, run in runs.items():
                    results[key].append(run())
            row: dict[str, Any] = {"task": name}
            for key, values in results.items():
                row[f"{key}_judgement"] = min(v[0] for v in values)
                row[f"{key}_cpu_s"] = round(statistics.median(v[1] for v in values), 3)
                row[f"{key}_wall_s"] = round(statistics.median(v[2] for v in values), 3)
            print(json.dumps(row), flush=True)
    finally:
        binary.close()
        now.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
