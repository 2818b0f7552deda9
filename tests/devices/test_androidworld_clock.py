"""Simulated time on ``Cerebellum-AndroidWorld-v0``'s embedded simulator, real time elsewhere.

Real: AndroidWorld (the pinned wheel) and android_env, unmodified, with their own sleeps and
deadline loops; the simulator served over ADB with a private real adb server; for the emulator
side, the emulator stand-in (``standin_emulator.py``, a separate process served over the real adb
protocol, which is what this machine can run in place of an emulator), reached through the same
adapter (``load_adb_env`` and ``AndroidWorldDevice``) with no simulated clock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import gymnasium as gym
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)

pytest.importorskip("android_world", reason="AndroidWorld is not installed (scripts/dev.sh test installs it)")
pytest.importorskip("adbutils")

from android_world.env import actuation, interface, json_action
from android_world.task_evals import task_eval
from android_world.task_evals.single import sms
from standins import StandinSdk

from cerebellum_gym.devices.androidworld import AndroidWorldDevice
from cerebellum_gym.devices.androidworld import clock as androidworld_clock
from cerebellum_gym.devices.androidworld.adb import load_adb_env
from cerebellum_gym.devices.emulators import EmulatorPool
from cerebellum_gym.env import WAIT_SECONDS
from cerebellum_gym.errors import InfraError, TaskError
from cerebellum_gym.loader import make_env
from cerebellum_gym.tasks.androidworld import _adapter


@pytest.fixture(scope="module")
def embedded() -> Iterator[Any]:
    env = gym.make("Cerebellum-AndroidWorld-v0", task="SystemWifiTurnOn", pixels=False)
    try:
        env.reset(seed=0)
        yield env
    finally:
        env.close()


def phone_of(env: Any) -> Any:
    return env.unwrapped.device.in_process.phone


def test_w_advances_the_phones_clock_and_sleeps_nothing(embedded: Any) -> None:
    phone = phone_of(embedded)
    before, host = phone.state.clock, time.monotonic()
    for _ in range(3):
        embedded.step("W")
    # Three waits of WAIT_SECONDS each, on the phone; the host did not wait them.
    assert phone.state.clock == pytest.approx(before + 3 * WAIT_SECONDS)
    assert time.monotonic() - host < 3 * WAIT_SECONDS


def test_androidworlds_own_sleeps_advance_the_phone_inside_the_adapter_only(embedded: Any) -> None:
    device = embedded.unwrapped.device
    phone = phone_of(embedded)
    # AndroidWorld's "wait" action: actuation.py sleeps 1 s on the host.
    before = phone.state.clock
    with device.simulated_time():
        host = time.monotonic()
        device.execute_json_action(action_type="wait")
        assert time.monotonic() - host < 1.0
    assert phone.state.clock == pytest.approx(before + 1.0)
    # Outside the adapter's scope the same AndroidWorld module sleeps for real.
    host = time.monotonic()
    actuation.time.sleep(0.2)
    assert time.monotonic() - host >= 0.2
    assert phone.state.clock == pytest.approx(before + 1.0)


def test_deadline_loops_see_their_sleeps_pass(embedded: Any) -> None:
    """AndroidWorld's stability poll (``interface._get_stable_state``) measures ``time.time()``
    around ``time.sleep``: inside the scope its deadline is reached by the sleeps alone."""
    device = embedded.unwrapped.device
    phone = phone_of(embedded)
    before = phone.state.clock
    with device.simulated_time():
        start = interface.time.time()
        device.env.get_state(wait_to_stabilize=True)
        elapsed = interface.time.time() - start
    slept = phone.state.clock - before
    assert slept > 0  # it slept between its checks, on the phone
    assert elapsed >= slept  # and its own clock saw those seconds pass


def test_a_scope_is_this_threads_own(embedded: Any) -> None:
    device = embedded.unwrapped.device
    seen: list[float] = []

    def other() -> None:
        start = time.monotonic()
        sms.time.sleep(0.2)  # the SMS judge's module: real time in a thread with no scope
        seen.append(time.monotonic() - start)

    with device.simulated_time():
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
        assert androidworld_clock.active() is device.clock
    assert androidworld_clock.active() is None
    assert seen and seen[0] >= 0.2


def test_the_sms_judges_five_second_sleep_is_on_the_phone() -> None:
    env = gym.make("Cerebellum-AndroidWorld-v0", task="SimpleSmsSend", pixels=False)
    try:
        env.reset(seed=0)
        phone = phone_of(env)
        before, host = phone.state.clock, time.monotonic()
        _, _, terminated, _, info = env.step("F")  # AndroidWorld judges: sleeps 5 s, then reads the texts
        assert terminated and info["progress"] == 0.0
        assert phone.state.clock - before >= 5.0
        assert time.monotonic() - host < 5.0
    finally:
        env.close()


def test_an_emulator_sleeps_for_real_beside_an_embedded_env(standin: StandinSdk, embedded: Any) -> None:
    """The adapter over the emulator stand-in (a device in another process, reached by adb as an
    emulator is): its waits and AndroidWorld's take their real time, while the embedded env in
    the same process and thread keeps its simulated clock."""
    with EmulatorPool(1, **standin.pool_kwargs()) as pool:
        serial = pool.emulators[0].serial
        aw_env = load_adb_env(serial, adb_env=standin.env, timeout=20.0)
        device = AndroidWorldDevice(aw_env, transition_pause=0.0, tree_source="uiautomator", close_env=True)
        try:
            assert device.clock is None and not device.direct
            start = time.monotonic()
            device.wait(0.5)
            assert time.monotonic() - start >= 0.5
            start = time.monotonic()
            device.execute_json_action(action_type=json_action.WAIT)  # AndroidWorld's 1 s sleep
            assert time.monotonic() - start >= 1.0
            # Interleaved with the embedded env: each keeps its own time.
            phone = phone_of(embedded)
            before, start = phone.state.clock, time.monotonic()
            embedded.step("W")
            assert phone.state.clock == pytest.approx(before + WAIT_SECONDS)
            device.wait(0.3)
            assert time.monotonic() - start >= 0.3
            # No oracle there: the simulator's oracles read a simulator in this process.
            env = make_env("SystemWifiTurnOn", backend="androidworld", device=device, pixels=False)
            env.reset(seed=0)
            with pytest.raises(TaskError, match="no scripted oracle on this device"):
                env.oracle_action()
        finally:
            device.close()


class SleepyRaisingSetUp(task_eval.TaskEval):
    """Task code that waits (on the phone's clock here) and then raises, as a bad parameter does."""

    app_names = ()
    complexity = 1
    schema: dict[str, Any] = {}  # noqa: RUF012
    template = "Never starts."

    @classmethod
    def generate_random_params(cls) -> dict[str, Any]:
        return {}

    def initialize_task(self, env: Any) -> None:
        super().initialize_task(env)
        time.sleep(3.0)  # this module's own time: AndroidWorld's are redirected, a test's is not
        raise ValueError("no such parameter")


def test_on_the_phones_clock_task_errors_stay_task_errors_and_a_dead_device_stays_infra() -> None:
    env = gym.make("Cerebellum-AndroidWorld-v0", task=_adapter(SleepyRaisingSetUp, "android_world"), pixels=False)
    try:
        with pytest.raises(TaskError, match="no such parameter") as raised:
            env.reset(seed=0)
        assert not isinstance(raised.value, InfraError)
        inner = env.unwrapped
        inner.reset(seed=0, options={"task": "SystemWifiTurnOn"})
        # The served phone goes away: android_env's retries (their sleeps on the phone's clock)
        # give up, and the judge's failure is the device's, not the task's.
        inner.device.embedded.server.stop()
        _, _, _, truncated, info = inner.step("F")
        assert truncated and info["infra_error"].startswith(("DeviceLostError", "DeviceTimeoutError", "DeviceProtocolError"))
    finally:
        env.close()
