"""Env step over ADB vs the raw adb calls that step needs, measured side by side.

Serves the simulator with ``cerebellum-gym serve-adb`` in a separate process, connects it to a
private adb server (the binary in adbutils' wheel), and alternates, round by round and for each
screenshot format (raw framebuffer ``screencap`` and PNG ``screencap -p``) in the same run:

- ``env``: one ``Cerebellum-Adb-v0`` step (act, screenshot 464 px, UI tree, judge);
- ``raw serial``: the same device calls over the same transport, one after another, with
  nothing done to their answers: ``input tap|keyevent``, ``screencap [-p]``,
  ``uiautomator dump`` + sync RECV, ``settings get``;
- ``raw overlapped``: the same calls, with the dump + RECV on a second connection while the
  screenshot transfers, as the env does (the fastest schedule of those calls);
- ``adbutils``: the serial calls through adbutils' own ``shell``/``sync`` API, for reference.

The env's overhead is ``env / raw serial - 1`` (the issue's measure: what the env adds over the
calls it needs), shown also against the overlapped schedule (what the env adds on the host:
converting and scaling the frame, parsing the XML, labelling, building the observation).
Target: under 20% for the format ``screencap_format="auto"`` picks here (raw, on loopback).

    python benchmarks/perf/adb_step.py [--steps 40] [--no-pixels]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import gymnasium as gym

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.core.memory import reuse_freed_frames
from cerebellum_gym.devices.adb import DUMP_PATH, AdbDevice, PrivateAdbServer, free_port
from cerebellum_gym.tasks.oracle import label_for

COLUMNS = ("env.step", "raw serial", "raw overlapped", "adbutils")


def next_action(env: Any, settings_icon: tuple[int, int]) -> tuple[str, list[str], list[str]]:
    """Alternate between the home screen and Settings, so every step changes the screen.

    Returns the action, the input command the device gets for it, and the one that undoes it.
    """
    tap = ["input", "tap", str(settings_icon[0]), str(settings_icon[1])]
    back = ["input", "keyevent", "4"]
    label = label_for(env.unwrapped.screen, text="Settings")
    return (f"T {label}", tap, back) if label is not None else ("B", back, tap)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40, help="measured rounds (each steps once per format)")
    parser.add_argument("--no-pixels", action="store_true", help="tree-only observations (no screencap)")
    args = parser.parse_args()
    reuse_freed_frames()  # as a training or eval process opts in (core/memory.py)
    pixels = not args.no_pixels
    formats = ["raw", "png"] if pixels else ["none"]

    port = free_port()
    served = subprocess.Popen(
        [sys.executable, "-m", "cerebellum_gym.cli", "serve-adb", "--port", str(port)], stdout=subprocess.PIPE, text=True
    )
    assert served.stdout is not None
    served.stdout.readline()
    adb = PrivateAdbServer().start()
    serial = f"127.0.0.1:{port}"
    pool = ThreadPoolExecutor(1)
    times: dict[tuple[str, str], list[float]] = {(f, c): [] for f in formats for c in COLUMNS}
    try:
        env = gym.make("Cerebellum-Adb-v0", task="SystemWifiTurnOn", pixels=pixels, device_options={"serial": serial, "adb_port": adb.port})
        device: AdbDevice = env.unwrapped.device  # type: ignore[attr-defined]
        auto_format = device.screencap_mode if pixels else "none"
        import adbutils

        client = adbutils.AdbClient(port=adb.port, socket_timeout=10)
        raw_dev = client.device(serial)
        env.reset(seed=0)

        def screencap(fmt: str) -> None:
            if fmt == "raw":
                device.exec_raw(["screencap"], bytearray(1080 * 2400 * 4 + 16))
            elif fmt == "png":
                device.exec_out(["screencap", "-p"])

        def tree() -> None:
            device.shell(["uiautomator", "dump", DUMP_PATH])
            device.pull(DUMP_PATH)

        def serial_calls(fmt: str, command: list[str]) -> None:
            device.shell(command)
            screencap(fmt)
            tree()
            device.shell(["settings", "get", "global", "wifi_on"])

        def overlapped_calls(fmt: str, command: list[str]) -> None:
            device.shell(command)
            pending = pool.submit(tree) if fmt != "none" else None
            screencap(fmt)
            if pending is not None:
                pending.result()
            else:
                tree()
            device.shell(["settings", "get", "global", "wifi_on"])

        def via_adbutils(fmt: str, command: list[str]) -> None:
            raw_dev.shell(command)
            if fmt != "none":
                raw_dev.shell(["screencap", "-p"] if fmt == "png" else ["screencap"], encoding=None)
            raw_dev.shell(["uiautomator", "dump", DUMP_PATH])
            raw_dev.sync.read_bytes(DUMP_PATH)
            raw_dev.shell(["settings", "get", "global", "wifi_on"])

        label = label_for(env.unwrapped.screen, text="Settings")  # type: ignore[attr-defined]
        icon = env.unwrapped.screen.node_for(label).center  # type: ignore[attr-defined]
        calls: list[tuple[str, Callable[[str, list[str]], None]]] = [
            ("raw serial", serial_calls),
            ("raw overlapped", overlapped_calls),
            ("adbutils", via_adbutils),
        ]
        for i in range(args.steps + 5):
            for fmt in formats:
                if pixels:
                    device.screencap_format = fmt  # type: ignore[assignment]
                action, command, undo = next_action(env, icon)
                started = time.perf_counter()
                env.step(action)
                lap = [("env.step", time.perf_counter() - started)]
                # Each raw column undoes the step and redoes it, so every call sees a new screen
                # and the device ends where the env believes it is.
                for name, fn in calls:
                    for cmd in (undo, command):
                        started = time.perf_counter()
                        fn(fmt, cmd)
                        lap.append((name, time.perf_counter() - started))
                if i >= 5:  # warm-up
                    for name, seconds in lap:
                        times[(fmt, name)].append(seconds)
        env.close()
    finally:
        pool.shutdown()
        adb.stop()
        served.terminate()
        served.wait(timeout=10)

    print(f"Cerebellum-Adb-v0 step over ADB vs its raw adb calls (pixels={pixels}, {args.steps} rounds, medians in ms/step)")
    print(f"{'screenshots':14}" + "".join(f"{c:>16}" for c in COLUMNS) + f"{'env/serial':>12}{'env/overlap':>12}")
    overheads: dict[str, float] = {}
    for fmt in formats:
        ms = {c: statistics.median(times[(fmt, c)]) * 1000 for c in COLUMNS}
        overheads[fmt] = ms["env.step"] / ms["raw serial"] - 1
        vs_overlap = ms["env.step"] / ms["raw overlapped"] - 1
        shown = {"raw": "raw screencap", "png": "screencap -p", "none": "none"}[fmt]
        print(f"{shown:14}" + "".join(f"{ms[c]:>16.1f}" for c in COLUMNS) + f"{overheads[fmt]:>+12.1%}{vs_overlap:>+12.1%}")
    overhead = overheads[auto_format]
    print(f"env overhead over the raw serial calls with screencap_format='auto' ({auto_format}): {overhead:+.1%} (target < 20%)")
    return 0 if overhead < 0.2 else 1


if __name__ == "__main__":
    sys.exit(main())
