"""A device wrapper that intercepts nothing changes nothing: observations and infos bit for bit.

Real: the simulator in process, the simulator served over ADB through the real adb server binary
(the session's private adb server), and AndroidWorld's own env on the embedded simulator. The episode is the
task's scripted oracle plus steps that fill the history (its frames are where a wrapper that
did not forward ``renders_any_width`` differed), run once on a plain env and once on an env
whose device is wrapped, each on a fresh device.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.devices.base import Device, DeviceWrapper
from cerebellum_gym.evaluation.faults import FaultPlan, FaultyDevice
from cerebellum_gym.sim.adbd import AdbdServer
from cerebellum_gym.sim.phone import Phone

Trace = list[tuple[Any, ...]]


def episode(env: gym.Env[Any, Any], seed: int = 3) -> Trace:
    """Everything the env returns over an episode: ``W`` and ``H`` steps, then the oracle's."""
    obs, info = env.reset(seed=seed)
    trace: Trace = [(obs, info)]
    inner: Any = env.unwrapped
    oracle = inner.task.oracle()
    for step in range(inner.max_steps):
        action = ("W", "H")[step] if step < 2 else oracle.act(inner.screen)
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append((obs, reward, terminated, truncated, info))
        if terminated or truncated:
            break
    env.close()
    return trace


def assert_identical(left: Any, right: Any, path: str = "") -> None:
    """Equal values of equal types; arrays of the same dtype, shape and bytes."""
    assert type(left) is type(right), path
    if isinstance(left, dict):
        assert list(left) == list(right), path
        for key in left:
            assert_identical(left[key], right[key], f"{path}/{key}")
    elif isinstance(left, tuple | list):
        assert len(left) == len(right), path
        for i, (a, b) in enumerate(zip(left, right, strict=True)):
            assert_identical(a, b, f"{path}[{i}]")
    elif isinstance(left, np.ndarray):
        assert left.dtype == right.dtype and left.shape == right.shape and left.tobytes() == right.tobytes(), path
    else:
        assert left == right, path


def compare(make: Callable[[Callable[[Device], Device] | None], gym.Env[Any, Any]], wrap: Callable[[Device], Device]) -> Trace:
    plain, wrapped = episode(make(None)), episode(make(wrap))
    assert len(plain) > 3
    assert_identical(plain, wrapped)
    return wrapped


class Counting(DeviceWrapper):
    """Intercepts every call and lets it through (a wrapper that injects nothing, but is there)."""

    def __init__(self, device: Device) -> None:
        super().__init__(device)
        self.methods: list[str] = []

    def intercept(self, method: str, call: Callable[..., Any], *args: Any) -> Any:
        self.methods.append(method)
        return call(*args)


WRAPPERS: dict[str, Callable[[Device], Device]] = {
    "forwarding": DeviceWrapper,
    "counting": Counting,
    "faulty-no-faults": lambda d: FaultyDevice(d, FaultPlan()),
}


@pytest.mark.parametrize("wrap", sorted(WRAPPERS))
def test_on_the_simulator(wrap: str) -> None:
    def make(wrapper: Callable[[Device], Device] | None) -> gym.Env[Any, Any]:
        return gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", device_wrapper=wrapper)

    compare(make, WRAPPERS[wrap])


def test_on_the_simulator_served_over_adb(adb_server: Any) -> None:
    """Each env on a fresh phone served over ADB (``conftest.adb_server``: the real adb server)."""
    servers: list[AdbdServer] = []

    def make(wrapper: Callable[[Device], Device] | None) -> gym.Env[Any, Any]:
        server = AdbdServer(Phone(), port=0).start()
        servers.append(server)
        options = {"serial": server.serial_for_adb, "adb_port": adb_server.port, "timeout": 5.0}
        return gym.make("Cerebellum-Adb-v0", task="SystemWifiTurnOn", device_options=options, device_wrapper=wrapper)

    try:
        compare(make, WRAPPERS["faulty-no-faults"])
    finally:
        for server in servers:
            adb_server.run("disconnect", server.serial_for_adb)
            server.stop()


def test_on_androidworld_over_the_embedded_simulator() -> None:
    """A bundled task (AndroidWorld's own tasks judge on AndroidWorld's device itself, see
    ``tasks/androidworld.py``), so the point is the backend's info entries and its frames."""
    pytest.importorskip("android_world")

    def make(wrapper: Callable[[Device], Device] | None) -> gym.Env[Any, Any]:
        return gym.make("Cerebellum-AndroidWorld-v0", task="ClockAddAlarm", max_steps=6, device_wrapper=wrapper)

    trace = compare(make, WRAPPERS["faulty-no-faults"])
    assert trace[0][1]["device_backend"] == "simulator"


def test_every_call_passes_the_one_hook_and_the_rest_is_forwarded() -> None:
    phone = Phone()
    device = Counting(phone)
    assert (device.backend, device.renders_any_width, device.screen_size) == (phone.backend, True, phone.screen_size)
    assert device.unwrapped is phone and DeviceWrapper(device).unwrapped is phone and phone.unwrapped is phone
    device.make_dir("/sdcard/Made")  # not in Device's default set: a wrapper forwards it all the same
    device.write_file("/sdcard/Made/a.txt", b"x")
    assert device.list_dir("/sdcard/Made") == ["a.txt"] and device.read_file("/sdcard/Made/a.txt") == b"x"
    assert device.info_entries() == {}
    assert device.methods == ["make_dir", "write_file", "list_dir", "read_file"]
    device.close()
    assert phone.closed


@pytest.fixture
def faulty_make_dir() -> Iterator[FaultyDevice]:
    device = FaultyDevice(Phone(), FaultPlan(cases={"c": 1}, at_call=1))
    device.begin_case("c", attempt=0)
    yield device
    device.close()


def test_a_faulty_device_counts_every_intercepted_call(faulty_make_dir: FaultyDevice) -> None:
    from cerebellum_gym.errors import DeviceLostError

    faulty_make_dir.make_dir("/sdcard/X")  # call 0 passes (it used to raise: the wrapper had no make_dir)
    with pytest.raises(DeviceLostError, match=r"call #1 \(list_dir\)"):
        faulty_make_dir.list_dir("/sdcard")


def test_the_wrapper_forwards_every_method_of_the_device_interface() -> None:
    """A method added to Device and not to DeviceWrapper would reach the base class's default
    (a refusal, or nothing) instead of the wrapped device: the way FaultyDevice lost three."""
    import inspect

    public = {name for name, _ in inspect.getmembers(Device) if not name.startswith("_")}
    own = set(vars(DeviceWrapper))
    assert public - own == {"backend", "renders_any_width"}  # set per instance from the wrapped device
