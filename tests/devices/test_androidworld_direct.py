"""The embedded simulator's observations and inputs read and sent in-process, AndroidWorld's set-up
and judges through adb: the same episode either way.

Real: AndroidWorld (the pinned wheel) and android_env with their own task code, the simulator
served over ADB with a private real adb server; one env reads the phone in this process
(``direct``, the default on the embedded simulator), the other through AndroidWorld's env and
adb (``direct=False``: ``uiautomator dump``, ``screencap``, ``input``), as before.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)

pytest.importorskip("android_world", reason="AndroidWorld is not installed (scripts/dev.sh test installs it)")
pytest.importorskip("adbutils")

from cerebellum_gym.core.tree import to_uiautomator_xml
from cerebellum_gym.devices.android import CONSOLE_TOKEN_FILE
from cerebellum_gym.devices.androidworld import AndroidWorldDevice
from cerebellum_gym.loader import make_env
from cerebellum_gym.sim.adbd import AdbdServer
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks.catalog import BUILTIN


def embedded_device(direct: bool) -> AndroidWorldDevice:
    """An embedded simulator as the loader builds it, with the screen read either way."""
    token = Path(tempfile.mkdtemp(prefix="cerebellum-aw-test-")) / CONSOLE_TOKEN_FILE
    served = AdbdServer(Phone(), port=0, console=True, console_auth_token=token).start()
    return AndroidWorldDevice(served=served, direct=direct)


@pytest.fixture(scope="module")
def devices() -> Iterator[tuple[AndroidWorldDevice, AndroidWorldDevice]]:
    logging.getLogger("absl").setLevel(logging.ERROR)
    direct, over_adb = embedded_device(True), embedded_device(False)
    try:
        yield direct, over_adb
    finally:
        direct.close()
        over_adb.close()


def same(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, tuple | list):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray):
        return bool(a.shape == b.shape and np.array_equal(a, b))
    return bool(a == b)


def episode(device: AndroidWorldDevice, task: str, seed: int, **options: Any) -> list[tuple[Any, ...]]:
    """One episode with the simulator's oracle of the mirrored task; every step's observation,
    reward, end flags, AndroidWorld's verdict (``progress``) and the phone's clock."""
    env: Any = make_env(task, backend="androidworld", device=device, **options)
    obs, info = env.reset(seed=seed)
    sim_class = BUILTIN.get(task)
    oracle = sim_class(sim_class.from_androidworld(dict(env.task.params))).oracle()
    steps: list[tuple[Any, ...]] = [(obs, info["progress"], device.in_process.phone.state.clock)]
    while True:
        action = oracle.act(env.screen)
        obs, reward, terminated, truncated, info = env.step(action)
        steps.append((action, obs, reward, terminated, truncated, info["progress"], device.in_process.phone.state.clock))
        if terminated or truncated:
            return steps


@pytest.mark.parametrize(
    ("task", "options"),
    [
        ("MarkorCreateNote", {"pixels": False}),  # typing, taps, a file AndroidWorld judges
        ("SystemBrightnessMax", {"pixels": True, "screenshot_width": 1080, "history_width": 1080}),  # a slider, full-size frames
        ("ClockStopWatchRunning", {"pixels": False}),  # a running clock on screen
    ],
)
def test_an_episode_is_the_same_read_in_process_or_over_adb(
    devices: tuple[AndroidWorldDevice, AndroidWorldDevice], task: str, options: dict[str, Any]
) -> None:
    direct, over_adb = devices
    assert direct.direct and not over_adb.direct
    a = episode(direct, task, 0, **options)
    b = episode(over_adb, task, 0, **options)
    assert len(a) == len(b) > 2
    for mine, theirs in zip(a, b, strict=True):
        assert same(mine, theirs), (mine[0], theirs[0])
    assert a[-1][5] == 1.0  # AndroidWorld judged both episodes solved


def test_the_tree_and_frame_are_the_ones_adb_shows(devices: tuple[AndroidWorldDevice, AndroidWorldDevice]) -> None:
    direct, over_adb = devices
    over_adb.tap(540, 1200)  # somewhere on the home screen: a fresh state, nothing changed
    # The same phone read both ways: the tree `uiautomator dump` prints, the frame `screencap` sends.
    via_adb = AndroidWorldDevice(over_adb.env, tree_source="uiautomator", transition_pause=0.0)
    reread = AndroidWorldDevice(over_adb.env, in_process=over_adb.in_process, transition_pause=0.0)
    assert reread.direct and not via_adb.direct
    assert to_uiautomator_xml(reread.ui_tree()) == to_uiautomator_xml(via_adb.ui_tree())
    assert np.array_equal(reread.screenshot(), via_adb.screenshot())


def test_the_transport_is_chosen_once_and_the_device_never_asks_again(devices: tuple[AndroidWorldDevice, AndroidWorldDevice]) -> None:
    """One screen/input object per device, picked when it is built: the in-process phone (behind
    the served lock) or AndroidWorld's env over adb; no method of the device branches on it."""
    import ast
    import inspect

    from cerebellum_gym.devices.androidworld.transports import EnvTransport, PhoneTransport

    direct, over_adb = devices
    assert isinstance(direct.transport, PhoneTransport) and direct.transport.phone is direct.in_process
    assert isinstance(over_adb.transport, EnvTransport)
    assert direct.renders_any_width and not over_adb.renders_any_width
    tree = ast.parse(inspect.getsource(AndroidWorldDevice).lstrip())
    methods = {f.name: f for f in tree.body[0].body if isinstance(f, ast.FunctionDef)}  # type: ignore[attr-defined]
    input_methods = ("screenshot", "ui_tree", "tap", "long_press", "swipe", "press_key", "type_text")
    for name in input_methods:
        tests = [n.test for n in ast.walk(methods[name]) if isinstance(n, ast.If)]
        named = {a.attr for t in tests for a in ast.walk(t) if isinstance(a, ast.Attribute)}
        assert not named & {"direct", "in_process", "transport"}, (name, named)
