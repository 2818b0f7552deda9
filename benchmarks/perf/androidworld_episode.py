"""Speed of ``Cerebellum-AndroidWorld-v0`` on its embedded simulator, beside ``Cerebellum-Sim-v0``.
Prints figures; asserts nothing.

Run: ``python benchmarks/perf/androidworld_episode.py [--only random|oracle|episodes] ...``; with no
``--only``, the random play and oracle sections (issue 25), then the per-episode CPU section
(issue 12).

**random** (``--steps N``, ``--task NAME``, default 3000 steps of ContactsAddContact): steps/s of
the random agent (uniform over the legal actions, ``W`` included; resets on episode end counted in
the run) on both envs, tree-only (``pixels=False``) and with pixels (the env's default
screenshot and history), one env each, side by side in one run; and the median wall time of a
``W`` step and of the input steps (``T``/``B``/``H``/``P``/...) in that play.

**oracle** (``--seeds K``, default 3): an oracle episode, reset to judged, of every AndroidWorld
task the simulator mirrors (``env.unwrapped.oracle_action()``, AndroidWorld's own set-up and
judge), seeds ``0..K-1``, all on one long-lived env (so a task that inherits state from the tasks
before it shows as not solved): median and worst wall time, tree-only and with pixels.
``--order shuffled`` (with ``--shuffle-seed``) runs the episodes in a shuffled order instead of
task by task; ``--slowest N`` prints the N slowest episodes, each split into AndroidWorld's
``initialize_task``, ``is_successful`` and ``tear_down``, the rest of the env's reset and the
oracle's steps; ``--pixels tree|pixels|both`` picks the columns.

**episodes** (``--repeats N``, ``--tasks A,B``; default every mirrored task of the system and clock
families): the CPU cost of one episode, reset to judged, on the served simulator.

One episode is ``env.reset`` (AndroidWorld's ``initialize_task``, then home), the simulator's
oracle acting through AndroidWorld's env until ``F``, and AndroidWorld's ``is_successful`` (then
``tear_down``), on ``Cerebellum-AndroidWorld-v0``'s embedded simulator
(:class:`~cerebellum_gym.devices.androidworld.embedded.EmbeddedAndroidWorld`: the simulator
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
import contextlib
import functools
import json
import logging
import math
import os
import random
import resource
import statistics
import sys
import time
from collections.abc import Iterator
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
        from cerebellum_gym.devices.androidworld.embedded import EmbeddedAndroidWorld
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


ENVS = {"sim": "Cerebellum-Sim-v0", "aw": "Cerebellum-AndroidWorld-v0"}


def random_play(env_id: str, task: str, pixels: bool, steps: int) -> dict[str, float]:
    """``steps`` steps of the random agent on one env (built and reset before the clock starts;
    later resets are in the run): steps/s, and the median wall time of ``W`` and of input steps."""
    import gymnasium as gym

    import cerebellum_gym  # noqa: F401
    from cerebellum_gym.agents.random_agent import RandomAgent

    env = gym.make(env_id, task=task, pixels=pixels)
    agent = RandomAgent(seed=0)
    obs, _ = env.reset(seed=0)
    per_code: dict[str, list[float]] = {}
    episodes = 0
    start = time.perf_counter()
    for _ in range(steps):
        action = agent.act(obs)
        t0 = time.perf_counter()
        obs, _, terminated, truncated, _ = env.step(action)
        per_code.setdefault(action[:1], []).append(time.perf_counter() - t0)
        if terminated or truncated:
            episodes += 1
            obs, _ = env.reset()
    wall = time.perf_counter() - start
    env.close()
    inputs = [t for code, times in per_code.items() if code in "TBHPUDLRSK" for t in times]
    return {
        "steps_per_s": steps / wall,
        "w_ms": 1000 * statistics.median(per_code.get("W", [math.nan])),
        "w_count": len(per_code.get("W", [])),
        "input_ms": 1000 * statistics.median(inputs) if inputs else math.nan,
        "episodes": episodes,
    }


#: AndroidWorld's task calls timed apart in an oracle episode (the rest is the env's own work).
PHASES = ("initialize_task", "is_successful", "tear_down")


@contextlib.contextmanager
def timed_phases(spent: dict[str, float]) -> Iterator[None]:
    """Add the wall seconds of each AndroidWorld task call (:data:`PHASES`) to ``spent`` while
    the block runs (around the adapter's one call site, ``tasks.androidworld._call``)."""
    from cerebellum_gym.tasks import androidworld

    original = androidworld._call

    def call(what: str, *args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return original(what, *args, **kwargs)
        finally:
            spent[what] = spent.get(what, 0.0) + time.perf_counter() - t0

    androidworld._call = call
    try:
        yield
    finally:
        androidworld._call = original


def episode_order(seeds: int, order: str, shuffle_seed: int) -> list[tuple[str, int]]:
    """Every mirrored task at seeds ``0..seeds-1``: task by task, or shuffled."""
    from cerebellum_gym.tasks.androidworld import mirrored_tasks

    episodes = [(name, seed) for name in mirrored_tasks() for seed in range(seeds)]
    if order == "shuffled":
        random.Random(shuffle_seed).shuffle(episodes)
    return episodes


def oracle_episodes(pixels: bool, episodes: list[tuple[str, int]]) -> tuple[dict[str, dict[str, float]], list[str]]:
    """Per episode (``NAME-SEED``), in the order given, on one embedded env: its wall seconds
    (``total``) and their split (:data:`PHASES`; ``reset``: the rest of the env's reset;
    ``steps``: the oracle's steps but AndroidWorld's calls in them); and the episodes AndroidWorld
    did not judge solved."""
    import gymnasium as gym

    import cerebellum_gym  # noqa: F401

    env: Any = gym.make("Cerebellum-AndroidWorld-v0", task="SystemWifiTurnOn", pixels=pixels)
    env.reset(seed=0)  # warm: imports, the first dumps
    rows: dict[str, dict[str, float]] = {}
    failed = []
    for name, seed in episodes:
        spent: dict[str, float] = {}
        with timed_phases(spent):
            t0 = time.perf_counter()
            env.reset(seed=seed, options={"task": name})
            t1, in_reset = time.perf_counter(), sum(spent.values())
            while True:
                _, _, terminated, truncated, info = env.step(env.unwrapped.oracle_action())
                if terminated or truncated:
                    break
            total = time.perf_counter() - t0
        # The reset tears the previous task down; the last step judges this one (and tears it down).
        row = {"total": total, **{phase: spent.get(phase, 0.0) for phase in PHASES}}
        row["reset"] = (t1 - t0) - in_reset
        row["steps"] = total - sum(row[phase] for phase in PHASES) - row["reset"]
        rows[f"{name}-{seed}"] = row
        if info["progress"] != 1.0:
            failed.append(f"{name}-{seed}")
    env.close()
    return rows, failed


def print_random(task: str, steps: int) -> None:
    rows = {(key, px): random_play(env_id, task, px, steps) for px in (False, True) for key, env_id in ENVS.items()}
    print(f"### Random legal play ({steps} steps of {task}, W included; one env each, this machine)\n")
    print("| | Cerebellum-Sim-v0 | Cerebellum-AndroidWorld-v0 (embedded) |")
    print("|---|---|---|")
    for px, what in ((False, "tree only"), (True, "pixels")):
        sim, aw = rows[("sim", px)], rows[("aw", px)]
        print(f"| random agent, {what} | {sim['steps_per_s']:,.0f} steps/s | {aw['steps_per_s']:,.0f} steps/s |")
        print(f"| input step (T/B/H/P/...), {what}, median | {sim['input_ms']:.3f} ms | {aw['input_ms']:.3f} ms |")
        print(f"| `W`, {what}, median | {sim['w_ms']:.3f} ms | {aw['w_ms']:.3f} ms |")
    print(flush=True)
    print(json.dumps({f"{key}_{'pixels' if px else 'tree'}": row for (key, px), row in rows.items()}), flush=True)


def print_oracle(seeds: int, order: str = "sorted", shuffle_seed: int = 0, slowest: int = 0, pixels: str = "both") -> None:
    episodes = episode_order(seeds, order, shuffle_seed)
    how = "task by task" if order == "sorted" else f"shuffled (seed {shuffle_seed})"
    print(f"\n### Oracle episodes, reset to judged (every mirrored task, seeds 0..{seeds - 1}, {how}, one embedded env)\n")
    print("| | episodes | median | max | not solved |")
    print("|---|---|---|---|---|")
    columns = {"tree": ((False, "tree only"),), "pixels": ((True, "pixels"),)}.get(pixels, ((False, "tree only"), (True, "pixels")))
    split: dict[str, dict[str, dict[str, float]]] = {}
    for px, what in columns:
        rows, failed = oracle_episodes(px, episodes)
        split[what] = rows
        times = [row["total"] for row in rows.values()]
        median, worst = 1000 * statistics.median(times), 1000 * max(times)
        print(f"| {what} | {len(times)} | {median:.1f} ms | {worst:.1f} ms | {', '.join(failed) or 'none'} |", flush=True)
    for what, rows in split.items():
        if not slowest:
            break
        parts = (*PHASES, "reset", "steps")
        print(f"\n{what}: the {slowest} slowest episodes (ms; reset: the env's reset but AndroidWorld's calls, steps: the oracle's)\n")
        print("| episode | total | " + " | ".join(parts) + " |")
        print("|---|---|" + "---|" * len(parts))
        for key, row in sorted(rows.items(), key=lambda kv: -kv[1]["total"])[:slowest]:
            cells = " | ".join(f"{1000 * row[phase]:.1f}" for phase in parts)
            print(f"| {key} | {1000 * row['total']:.1f} | {cells} |")
        totals = {phase: sum(row[phase] for row in rows.values()) for phase in parts}
        print("| all, share of the time | 100% | " + " | ".join(f"{100 * v / sum(totals.values()):.0f}%" for v in totals.values()) + " |")


def main(argv: list[str] | None = None) -> int:
    import conformance

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("random", "oracle", "episodes"), help="run one section (default: all)")
    parser.add_argument("--steps", type=int, default=3000, help="random play: steps per env")
    parser.add_argument("--task", default="ContactsAddContact", help="random play: the task")
    parser.add_argument("--seeds", type=int, default=3, help="oracle episodes: seeds per mirrored task")
    parser.add_argument("--order", choices=("sorted", "shuffled"), default="sorted", help="oracle episodes: their order")
    parser.add_argument("--shuffle-seed", type=int, default=0, help="oracle episodes: the shuffled order's seed")
    parser.add_argument("--slowest", type=int, default=0, help="oracle episodes: print the N slowest, split by phase")
    parser.add_argument("--pixels", choices=("tree", "pixels", "both"), default="both", help="oracle episodes: the columns")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--tasks", help="comma-separated AndroidWorld task names (default: the system and clock families)")
    args = parser.parse_args(argv)
    logging.getLogger("absl").setLevel(logging.ERROR)
    logging.getLogger("cerebellum_gym.androidworld").setLevel(logging.ERROR)
    if args.only in (None, "random"):
        print_random(args.task, args.steps)
    if args.only in (None, "oracle"):
        print_oracle(args.seeds, args.order, args.shuffle_seed, args.slowest, args.pixels)
    if args.only not in (None, "episodes"):
        return 0
    print("\n### CPU per episode on the served simulator (JSON rows)\n", flush=True)
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
