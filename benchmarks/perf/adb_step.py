"""Env step over ADB vs the raw adb calls that step needs, measured side by side.

Serves the simulator with ``cerebellum-gym serve-adb`` in a separate process, connects it to a
private adb server (the binary in adbutils' wheel), and alternates, round by round:

- ``env``: one ``Cerebellum-Adb-v0`` step (act, screenshot 464 px, UI tree, judge);
- ``raw``: the same device calls over the same transport, with nothing done to their answers:
  ``input tap|keyevent``, ``screencap -p``, ``uiautomator dump`` + sync RECV, ``settings get``;
- ``adbutils``: those calls through adbutils' own ``shell``/``sync`` API, for reference.

The env's overhead is ``env / raw - 1``: decoding and scaling the PNG, parsing the XML, labelling
and building the observation. Target: under 20%.

    python benchmarks/perf/adb_step.py [--steps 60] [--no-pixels]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from typing import Any

import gymnasium as gym

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.devices.adb import DUMP_PATH, AdbDevice, PrivateAdbServer, free_port
from cerebellum_gym.tasks.oracle import label_for


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
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--no-pixels", action="store_true", help="tree-only observations (no screencap)")
    args = parser.parse_args()
    pixels = not args.no_pixels

    port = free_port()
    served = subprocess.Popen(
        [sys.executable, "-m", "cerebellum_gym.cli", "serve-adb", "--port", str(port)], stdout=subprocess.PIPE, text=True
    )
    assert served.stdout is not None
    served.stdout.readline()
    adb = PrivateAdbServer().start()
    serial = f"127.0.0.1:{port}"
    try:
        env = gym.make("Cerebellum-Adb-v0", task="SystemWifiTurnOn", pixels=pixels, device_options={"serial": serial, "adb_port": adb.port})
        device: AdbDevice = env.unwrapped.device  # type: ignore[attr-defined]
        import adbutils

        client = adbutils.AdbClient(port=adb.port, socket_timeout=10)
        raw_dev = client.device(serial)
        env.reset(seed=0)

        def raw(command: list[str]) -> None:
            device.shell(command)
            if pixels:
                device.exec_out(["screencap", "-p"])
            device.shell(["uiautomator", "dump", DUMP_PATH])
            device.pull(DUMP_PATH)
            device.shell(["settings", "get", "global", "wifi_on"])

        def via_adbutils(command: list[str]) -> None:
            raw_dev.shell(command)
            if pixels:
                raw_dev.shell(["screencap", "-p"], encoding=None)
            raw_dev.shell(["uiautomator", "dump", DUMP_PATH])
            raw_dev.sync.read_bytes(DUMP_PATH)
            raw_dev.shell(["settings", "get", "global", "wifi_on"])

        label = label_for(env.unwrapped.screen, text="Settings")  # type: ignore[attr-defined]
        icon = env.unwrapped.screen.node_for(label).center  # type: ignore[attr-defined]
        times: dict[str, list[float]] = {"env": [], "raw": [], "adbutils": []}
        for i in range(args.steps + 5):
            action, command, undo = next_action(env, icon)
            started = time.perf_counter()
            env.step(action)
            lap = [("env", time.perf_counter() - started)]
            # Each raw column undoes the step and redoes it, so every call sees a new screen and
            # the device ends where the env believes it is.
            for name, fn in (("raw", raw), ("adbutils", via_adbutils)):
                for cmd in (undo, command):
                    started = time.perf_counter()
                    fn(cmd)
                    lap.append((name, time.perf_counter() - started))
            if i >= 5:  # warm-up
                for name, seconds in lap:
                    times[name].append(seconds)
        env.close()
    finally:
        adb.stop()
        served.terminate()
        served.wait(timeout=10)

    env_ms = statistics.median(times["env"]) * 1000
    raw_ms = statistics.median(times["raw"]) * 1000
    lib_ms = statistics.median(times["adbutils"]) * 1000
    print(f"Cerebellum-Adb-v0 step over ADB vs its raw adb calls (pixels={pixels}, {args.steps} steps each, medians)")
    print(f"{'':28}{'ms/step':>10}{'steps/s':>10}")
    print(f"{'env.step':28}{env_ms:>10.1f}{1000 / env_ms:>10.1f}")
    print(f"{'raw calls (same transport)':28}{raw_ms:>10.1f}{1000 / raw_ms:>10.1f}")
    print(f"{'raw calls (adbutils API)':28}{lib_ms:>10.1f}{1000 / lib_ms:>10.1f}")
    overhead = env_ms / raw_ms - 1
    print(f"env overhead over the raw calls: {overhead:+.1%} (target < 20%)")
    return 0 if overhead < 0.2 else 1


if __name__ == "__main__":
    sys.exit(main())
