"""Injected faults in the served device surface as InfraError within the timeout; reset recovers."""

from __future__ import annotations

import time
from typing import Any

import gymnasium as gym
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.devices.adb import AdbDevice
from cerebellum_gym.errors import DeviceProtocolError, InfraError

TIMEOUT = 1.5
#: Seconds of slack over the timeout (process scheduling on a loaded CI machine).
SLACK = 5.0


@pytest.mark.parametrize(
    ("kind", "on"),
    [
        ("drop", "input"),
        ("hang", "uiautomator"),
        ("garbage", "screencap"),
        ("garbage_output", "screencap"),
        ("garbage_output", "settings get"),
    ],
)
def test_fault_mid_step_is_an_infra_error_and_reset_recovers(served: Any, kind: str, on: str) -> None:
    env = gym.make("Cerebellum-Adb-v0", task="SystemWifiTurnOn", device_options=served.options(timeout=TIMEOUT, reconnect_timeout=5.0))
    try:
        obs, _ = env.reset(seed=0)
        served.server.inject(kind, on=on)
        started = time.monotonic()
        obs, reward, terminated, truncated, info = env.step(f"T {obs['labels'][0]}")
        elapsed = time.monotonic() - started
        assert info["infra_error"], f"{kind} on {on!r} went unnoticed"
        assert truncated and not terminated and reward == 0.0
        assert elapsed < TIMEOUT + SLACK, f"{kind} took {elapsed:.1f}s to surface"
        served.server.clear_faults()
        # The next episode reconnects and runs to success.
        obs, info = env.reset(seed=0)
        terminated = truncated = False
        while not (terminated or truncated):
            obs, _, terminated, truncated, info = env.step(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
        assert info["success"], info
    finally:
        env.close()


@pytest.mark.parametrize(("screencap_format", "message"), [("raw", "not a raw screencap"), ("png", "no PNG")])
def test_raise_infra_errors_raises_the_typed_error(served: Any, screencap_format: str, message: str) -> None:
    options = served.options(timeout=TIMEOUT, screencap_format=screencap_format)
    env = gym.make("Cerebellum-Adb-v0", task="SystemWifiTurnOn", raise_infra_errors=True, device_options=options)
    try:
        obs, _ = env.reset(seed=0)
        served.server.inject("garbage_output", on="screencap")
        with pytest.raises(DeviceProtocolError, match=message):
            env.step("W")
    finally:
        env.close()


def test_a_device_that_stops_answering_times_out_every_call(served: Any, adb_server: Any) -> None:
    device = AdbDevice(served.serial, adb_port=adb_server.port, timeout=0.5, reconnect_timeout=1.0)
    served.server.inject("hang", on="", count=1000)
    for call in (lambda: device.get_setting("global", "wifi_on"), device.ui_tree, device.screenshot):
        started = time.monotonic()
        with pytest.raises(InfraError):
            call()
        assert time.monotonic() - started < 0.5 + 1.0 + SLACK  # the call's timeout, plus one reconnect attempt
    served.server.clear_faults()
    device.factory_reset()
    assert device.get_setting("global", "wifi_on") == "1"
