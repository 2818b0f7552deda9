"""The androidworld device against a fake ``android_world`` package: what the real one cannot do here.

Everything the real AndroidWorld can run here (its controller, env, actuation, task set-up and
judges over ADB against the served simulator) is tested with the real code in
``test_androidworld_real.py``. What stays here needs the emulator's gRPC side, which no test
machine has: the accessibility forest of the a11y forwarder app (``forest_to_tree``, one state
serving pixels and tree), ``env_launcher.load_and_setup_env``, a missing AndroidWorld or
android_env, and faults injected into ``get_state``/``execute_action`` (gRPC errors, time-outs).
So these tests write a small fake ``android_world`` package into a temporary directory and
put it on ``sys.path`` (setting the installed one aside while they run). It follows AndroidWorld's documented API only (read from
google-research/android_world, never copied): ``env.json_action.JSONAction`` with its action-type
constants and field checks, ``env.interface.State(pixels, forest, ui_elements)``,
``env.adb_utils.issue_generic_request(args, env, timeout_sec)`` answering an ``AdbResponse``-like
object (``status``, ``generic.output``), ``env.env_launcher.load_and_setup_env(...)``, and
``registry.TaskRegistry().get_registry(family)`` of ``TaskEval``-like classes
(``generate_random_params``, ``goal``, ``initialize_task``, ``is_successful``, ``tear_down``).
The fake env's ``execute_action`` records actions and keeps an ``answer`` in
``interaction_cache``, as ``AsyncAndroidEnv`` does.

The fake controller runs the device's shell lines in a real ``/bin/sh`` (with small stand-ins
for ``input``, ``settings``, ``content``, ``monkey`` and ``uiautomator`` on ``PATH``), so the
quoting, exit-status and file round trips are exercised for real; only the phone is fake.
What this cannot show: that a real emulator, its accessibility forwarder and AndroidWorld's
judges behave as documented (see docs/androidworld.md).
"""

from __future__ import annotations

import importlib
import os
import random
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.devices.base import KEYCODE_BACK, KEYCODE_DEL, KEYCODE_ENTER, KEYCODE_HOME
from cerebellum_gym.errors import (
    CerebellumError,
    DeviceLostError,
    DeviceProtocolError,
    DeviceTimeoutError,
    InfraError,
    TaskError,
    UnknownTaskError,
    UnsupportedOperationError,
)

SCREEN = (1080, 2400)

# --- the fake android_world package ---------------------------------------------------------

FAKE_FILES = {
    "android_world/__init__.py": "",
    "android_world/env/__init__.py": "",
    "android_world/env/json_action.py": """
        import dataclasses
        from typing import Optional

        ANSWER = "answer"
        CLICK = "click"
        DOUBLE_TAP = "double_tap"
        INPUT_TEXT = "input_text"
        KEYBOARD_ENTER = "keyboard_enter"
        LONG_PRESS = "long_press"
        NAVIGATE_BACK = "navigate_back"
        NAVIGATE_HOME = "navigate_home"
        OPEN_APP = "open_app"
        SCROLL = "scroll"
        STATUS = "status"
        SWIPE = "swipe"
        UNKNOWN = "unknown"
        WAIT = "wait"
        _ACTION_TYPES = (CLICK, DOUBLE_TAP, SCROLL, SWIPE, INPUT_TEXT, NAVIGATE_HOME, NAVIGATE_BACK,
                         KEYBOARD_ENTER, OPEN_APP, STATUS, WAIT, LONG_PRESS, ANSWER, UNKNOWN)

        @dataclasses.dataclass
        class JSONAction:
            action_type: Optional[str] = None
            index: Optional[int] = None
            x: Optional[int] = None
            y: Optional[int] = None
            text: Optional[str] = None
            direction: Optional[str] = None
            goal_status: Optional[str] = None
            app_name: Optional[str] = None
            keycode: Optional[str] = None
            clear_text: Optional[bool] = None

            def __post_init__(self):
                if self.action_type not in _ACTION_TYPES:
                    raise ValueError(f"Invalid action type: {self.action_type}")
                if self.index is not None and (self.x is not None or self.y is not None):
                    raise ValueError("Either an index or a <x, y> should be provided.")
    """,
    "android_world/env/interface.py": """
        import dataclasses
        from typing import Any

        @dataclasses.dataclass(frozen=True)
        class State:
            pixels: Any
            forest: Any
            ui_elements: list
            auxiliaries: Any = None
    """,
    "android_world/env/adb_utils.py": """
        from types import SimpleNamespace

        def issue_generic_request(args, env, timeout_sec=10):
            if isinstance(args, str):
                args = args.split(" ")
            request = SimpleNamespace(generic=SimpleNamespace(args=list(args)), timeout_sec=timeout_sec)
            return env.execute_adb_call(request)
    """,
    "android_world/env/env_launcher.py": """
        FACTORY = None  # set by the test: builds the fake env from the launcher's arguments

        def load_and_setup_env(console_port=5554, emulator_setup=False, freeze_datetime=True,
                               adb_path="~/Android/Sdk/platform-tools/adb", grpc_port=8554):
            return FACTORY(console_port=console_port, emulator_setup=emulator_setup,
                           freeze_datetime=freeze_datetime, adb_path=adb_path, grpc_port=grpc_port)
    """,
    "android_world/env/broken.py": """
        import android_env_is_not_installed_here  # a dependency AndroidWorld needs, missing
    """,
    "android_world/registry.py": """
        import random

        class TaskEval:
            template = ""
            complexity = 1
            app_names = ()
            calls = []  # (task name, method) in order, shared by every fake task

            def __init__(self, params):
                self.initialized = False
                self._params = params

            @property
            def params(self):
                return self._params

            @property
            def name(self):
                return type(self).__name__

            @property
            def goal(self):
                return self.template.format(**self.params)

            @classmethod
            def set_device_time(cls, env):
                del env

            def initialize_task(self, env):
                env.interaction_cache = ""
                if self.initialized:
                    raise RuntimeError(f"{self.name}.initialize_task() is already called.")
                self.initialized = True
                TaskEval.calls.append((self.name, "initialize_task"))

            def is_successful(self, env):
                if not self.initialized:
                    raise RuntimeError("initialize_task() must be called first")
                return 1.0

            def tear_down(self, env):
                self.initialized = False
                TaskEval.calls.append((self.name, "tear_down"))

        class ContactsAddContact(TaskEval):
            template = "Create a new contact for {name}. Their number is {number}."
            complexity = 1.2
            app_names = ("contacts",)

            @classmethod
            def generate_random_params(cls):
                return {"name": random.choice(["Ada Lovelace", "Alan Turing", "Grace Hopper"]),
                        "number": "".join(random.choice("0123456789") for _ in range(10))}

            def is_successful(self, env):
                super().is_successful(env)
                # Privileged judge: what reached the emulator's `input` command.
                typed = env.controller.typed_text()
                return 1.0 if self.params["name"] in typed else 0.0

        class InformationRetrieval(TaskEval):
            app_names = ("tasks",)

        class TasksDueNextWeek(InformationRetrieval):
            complexity = 1.2  # the class attribute; instances take the proto's value

            def __init__(self, params):
                super().__init__(params)
                self.template = "How many tasks are due in the week of {week}? Answer with a number."
                self.complexity = 2

            @classmethod
            def generate_random_params(cls):
                return {"week": random.choice(["Oct 16 2023", "Oct 23 2023"])}

            def is_successful(self, env):
                super().is_successful(env)
                return 1.0 if env.interaction_cache.strip() == "3" else 0.0

        class TaskRegistry:
            ANDROID_WORLD_FAMILY = "android_world"

            def get_registry(self, family):
                if family != self.ANDROID_WORLD_FAMILY:
                    raise ValueError(f"Unsupported family: {family}")
                return {"ContactsAddContact": ContactsAddContact, "TasksDueNextWeek": TasksDueNextWeek}
    """,
}

FAKE_BIN = {
    "input": """#!/bin/sh
        ( IFS=$(printf '\\037'); printf '%s\\n' "$*" ) >> "$FAKE_STATE/input.log"
    """,
    "settings": """#!/bin/sh
        d="$FAKE_STATE/settings/$2"; mkdir -p "$d"
        case "$1" in
          get) if [ -f "$d/$3" ]; then cat "$d/$3"; echo; else echo null; fi ;;
          put) printf '%s' "$4" > "$d/$3" ;;
          *) echo "settings: bad command $1" >&2; exit 2 ;;
        esac
    """,
    "content": """#!/bin/sh
        printf '%s\\n' "$@" > "$FAKE_STATE/content.args"
        if [ "$1" = query ]; then
          echo "Row: 0 display_name=Ada Lovelace, number=+1 555, 0100"
          echo "Row: 1 display_name=Bob, number=42"
        fi
    """,
    "monkey": """#!/bin/sh
        echo "  bash arg: -p"; echo "Events injected: 1"
    """,
    "uiautomator": """#!/bin/sh
        cat "$FAKE_STATE/dump.xml" > "$2" && echo "UI hierchary dumped to: $2"
    """,
}


class AdbControllerError(Exception):
    """Named as android_env's error that ``AdbController.execute_command`` raises after its retries."""


class FakeController:
    """The env's controller: ``execute_adb_call`` runs generic ``shell`` requests in /bin/sh."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.state = root / "state"
        self.device_tmp = root / "data_local_tmp"
        for d in (self.state, self.device_tmp):
            d.mkdir(parents=True, exist_ok=True)
        self.fail_with: BaseException | None = None
        self.status = 1
        self.requests: list[list[str]] = []

    def execute_adb_call(self, request: Any) -> Any:
        args = list(request.generic.args)
        self.requests.append(args)
        if self.fail_with is not None:
            raise self.fail_with
        if self.status != 1:
            return SimpleNamespace(status=self.status, error_message="Timeout", generic=SimpleNamespace(output=b""))
        assert args[0] == "shell", args
        # adb joins the arguments after `shell` with spaces and hands the line to the device's sh.
        line = " ".join(args[1:]).replace("/data/local/tmp/", f"{self.device_tmp}/")
        env = {**os.environ, "PATH": f"{self.root / 'bin'}:{os.environ['PATH']}", "FAKE_STATE": str(self.state)}
        proc = subprocess.run(["sh", "-c", line], env=env, cwd=self.root, capture_output=True, timeout=20, check=False)
        if proc.returncode != 0:  # android_env raises once its retries are spent
            raise AdbControllerError(f"Error executing adb command: [adb shell {line[:80]}]")
        # android_env captures stderr into the output (stderr=STDOUT).
        return SimpleNamespace(status=1, error_message="", generic=SimpleNamespace(output=proc.stdout + proc.stderr))

    def input_calls(self) -> list[list[str]]:
        log = self.state / "input.log"
        if not log.exists():
            return []
        return [line.split("\x1f") for line in log.read_text().splitlines()]

    def typed_text(self) -> str:
        """What the ``input`` calls typed: ``%s`` is a space, Enter a newline (a privileged read,
        as AndroidWorld's judges pull databases: it fails when the link does)."""
        if self.fail_with is not None:
            raise self.fail_with
        out = []
        for call in self.input_calls():
            if call[0] == "text":
                out.append(call[1].replace("%s", " "))
            elif call == ["keyevent", str(KEYCODE_ENTER)]:
                out.append("\n")
        return "".join(out)


def _node(uid: int, cls: str, bounds: tuple[int, int, int, int], children: tuple[int, ...] = (), **flags: Any) -> Any:
    left, top, right, bottom = bounds
    fields = {
        "unique_id": uid,
        "class_name": cls,
        "bounds_in_screen": SimpleNamespace(left=left, top=top, right=right, bottom=bottom),
        "text": "",
        "content_description": "",
        "view_id_resource_name": "",
        "package_name": "com.android.contacts",
        "hint_text": "",
        "child_ids": list(children),
        "is_checkable": False,
        "is_checked": False,
        "is_clickable": False,
        "is_editable": False,
        "is_enabled": True,
        "is_focusable": False,
        "is_focused": False,
        "is_scrollable": False,
        "is_long_clickable": False,
        "is_password": False,
        "is_selected": False,
        "is_visible_to_user": True,
    }
    fields.update(flags)
    return SimpleNamespace(**fields)


def make_forest() -> Any:
    """An app window (active) with a focused field, a button, a hidden node, and a status bar."""
    app_nodes = [
        _node(1, "android.widget.FrameLayout", (0, 0, 1080, 2400), (2, 3, 4, 5)),
        _node(2, "android.widget.EditText", (40, 300, 1040, 420), text="Name", is_clickable=True, is_focused=True, is_editable=True),
        _node(3, "android.widget.Button", (40, 500, 1040, 620), text="Save", is_clickable=True, view_id_resource_name="app:id/save"),
        _node(4, "android.widget.TextView", (40, 700, 1040, 760), text="Hidden", is_visible_to_user=False),
        _node(5, "androidx.recyclerview.widget.RecyclerView", (-20, 800, 1200, 2600), (6,), is_scrollable=True),
        _node(6, "android.widget.Switch", (40, 820, 1040, 900), text="Wi-Fi", is_checkable=True, is_clickable=True),
    ]
    status_nodes = [_node(10, "android.widget.FrameLayout", (0, 0, 1080, 80), package_name="com.android.systemui", text="12:00")]
    return SimpleNamespace(
        windows=[
            SimpleNamespace(is_active=False, window_type=3, layer=5, tree=SimpleNamespace(nodes=status_nodes)),
            SimpleNamespace(is_active=True, window_type=1, layer=1, tree=SimpleNamespace(nodes=app_nodes)),
        ]
    )


def make_pixels(size: tuple[int, int] = SCREEN, channels: int = 3) -> np.ndarray:
    """Top half red, bottom half blue."""
    width, height = size
    pixels = np.zeros((height, width, channels), np.uint8)
    pixels[: height // 2, :, 0] = 255
    pixels[height // 2 :, :, 2] = 255
    if channels == 4:
        pixels[..., 3] = 255
    return pixels


class FakeEnv:
    """``AsyncEnv`` as documented: reset, get_state, execute_action, controller, screen size."""

    def __init__(self, root: Path, **launch: Any) -> None:
        from android_world.env.interface import State

        self._state_cls = State
        self.controller = FakeController(root)
        self.launch = launch
        self.interaction_cache = ""
        self.actions: list[Any] = []
        self.get_state_calls: list[bool] = []
        self.resets: list[bool] = []
        self.closed = False
        self.pixels = make_pixels()
        self.forest: Any = make_forest()
        self.fail_get_state: BaseException | None = None
        self.fail_action: BaseException | None = None

    @property
    def logical_screen_size(self) -> tuple[int, int]:
        return SCREEN

    @property
    def foreground_activity_name(self) -> str:
        return "com.android.contacts/.activities.PeopleActivity"

    def reset(self, go_home: bool = False) -> Any:
        self.resets.append(go_home)
        self.interaction_cache = ""
        return self.get_state()

    def get_state(self, wait_to_stabilize: bool = False) -> Any:
        self.get_state_calls.append(wait_to_stabilize)
        if self.fail_get_state is not None:
            raise self.fail_get_state
        return self._state_cls(self.pixels, self.forest, [])

    def execute_action(self, action: Any) -> None:
        if self.fail_action is not None:
            raise self.fail_action
        self.actions.append(action)
        if action.action_type == "answer":
            self.interaction_cache = action.text

    def close(self) -> None:
        self.closed = True


@pytest.fixture(scope="module")
def fake_package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("fake_android_world")
    for rel, body in FAKE_FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(body))
    # The real AndroidWorld may be installed (the test set-up installs it): set it aside while
    # the fake stands in, and put it back after.
    real = {m: sys.modules.pop(m) for m in list(sys.modules) if m == "android_world" or m.startswith("android_world.")}
    sys.path.insert(0, str(root))
    try:
        yield root
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == "android_world" or m.startswith("android_world.")]:
            del sys.modules[name]
        sys.modules.update(real)


@pytest.fixture
def fake_env(fake_package: Path, tmp_path: Path) -> FakeEnv:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in FAKE_BIN.items():
        script = bin_dir / name
        script.write_text(textwrap.dedent(body).lstrip())
        script.chmod(0o755)
    importlib.import_module("android_world.registry").TaskEval.calls.clear()
    return FakeEnv(tmp_path)


@pytest.fixture
def device(fake_env: FakeEnv) -> Iterator[Any]:
    from cerebellum_gym.devices.androidworld import AndroidWorldDevice

    dev = AndroidWorldDevice(fake_env, transition_pause=0.0)
    yield dev
    dev.close()


# --- construction and the missing dependency -------------------------------------------------


def test_missing_android_world_is_a_clear_error_at_construction_not_at_import(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "android_world" or m.startswith("android_world.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "android_world", None)  # not importable, installed or not
    module = importlib.import_module("cerebellum_gym.devices.androidworld")  # importing never needs it
    with pytest.raises(CerebellumError, match=r"not on PyPI.*\n.*git clone https://github.com/google-research/android_world"):
        module.AndroidWorldDevice()
    with pytest.raises(CerebellumError, match="android_world"):
        gym.make("Cerebellum-AndroidWorld-v0", task="SystemWifiTurnOn")


def test_a_missing_dependency_of_android_world_is_named(fake_package: Path) -> None:
    from cerebellum_gym.devices.androidworld import import_android_world

    with pytest.raises(CerebellumError, match="android_env_is_not_installed_here"):
        import_android_world("env.broken")


def test_builds_the_env_from_launcher_options_and_closes_only_its_own(fake_package: Path, tmp_path: Path) -> None:
    from cerebellum_gym.devices.androidworld import AndroidWorldDevice

    launcher = importlib.import_module("android_world.env.env_launcher")
    built: list[FakeEnv] = []
    launcher.FACTORY = lambda **kw: built.append(FakeEnv(tmp_path, **kw)) or built[-1]
    try:
        dev = AndroidWorldDevice(console_port=5556, grpc_port=8556, adb_path="/opt/adb", emulator_setup=True, freeze_datetime=False)
        assert built[0].launch == {
            "console_port": 5556,
            "grpc_port": 8556,
            "adb_path": "/opt/adb",
            "emulator_setup": True,
            "freeze_datetime": False,
        }
        assert dev.screen_size == SCREEN
        dev.close()
        dev.close()  # idempotent
        assert built[0].closed
        with pytest.raises(DeviceLostError):
            dev.tap(1, 1)
    finally:
        launcher.FACTORY = None
    given = FakeEnv(tmp_path)
    AndroidWorldDevice(given).close()
    assert not given.closed  # the caller's env stays the caller's


def test_bad_options_are_rejected(fake_env: FakeEnv) -> None:
    from cerebellum_gym.devices.androidworld import AndroidWorldDevice

    for kwargs in ({"tree_source": "xml"}, {"text_input": "keyboard"}, {"transition_pause": -1}, {"timeout": 0}):
        with pytest.raises(ValueError):
            AndroidWorldDevice(fake_env, **kwargs)


# --- screen ---------------------------------------------------------------------------------------


def test_screenshot_is_state_pixels_scaled_to_the_width(device: Any, fake_env: FakeEnv) -> None:
    shot = device.screenshot(464)
    assert shot.shape == (1031, 464, 3) and shot.dtype == np.uint8  # the env's observation shape
    assert tuple(shot[10, 10]) == (255, 0, 0) and tuple(shot[-10, -10]) == (0, 0, 255)
    assert device.screenshot().shape == (2400, 1080, 3)
    fake_env.pixels = make_pixels(channels=4)  # RGBA frames lose their alpha
    assert device.screenshot(232).shape == (516, 232, 3)
    fake_env.pixels = np.zeros((10, 10), np.uint8)
    with pytest.raises(DeviceProtocolError):
        device.screenshot(464)
    with pytest.raises(ValueError):
        device.screenshot(0)


def test_tree_from_the_forest_is_the_active_window_as_uiautomator_shows_it(device: Any) -> None:
    root = device.ui_tree()
    assert root.class_name == "hierarchy" and len(root.children) == 1  # the status bar is another window
    frame = root.children[0]
    assert [c.short_class for c in frame.children] == ["EditText", "Button", "RecyclerView"]  # hidden node dropped
    field, save, recycler = frame.children
    assert (field.text, field.focused, field.clickable, field.index) == ("Name", True, True, 0)
    assert (save.resource_id, save.index, save.bounds) == ("app:id/save", 1, (40, 500, 1040, 620))
    assert (recycler.index, recycler.scrollable, recycler.bounds) == (2, True, (0, 800, 1080, 2400))  # clipped
    wifi = recycler.children[0]
    assert (wifi.text, wifi.checkable, wifi.checked, wifi.package) == ("Wi-Fi", True, False, "com.android.contacts")

    from cerebellum_gym.devices.androidworld import forest_to_tree

    every = forest_to_tree(make_forest(), SCREEN, all_windows=True)
    assert [w.package for w in every.children] == ["com.android.contacts", "com.android.systemui"]  # by layer


def test_one_state_serves_the_screenshot_and_the_tree_until_an_input(device: Any, fake_env: FakeEnv) -> None:
    device.screenshot(464)
    device.ui_tree()
    assert len(fake_env.get_state_calls) == 1
    device.ui_tree()  # a second tree is a fresh look: the device runs in real time
    assert len(fake_env.get_state_calls) == 2
    device.screenshot(464)
    device.tap(10, 10)
    device.ui_tree()
    assert len(fake_env.get_state_calls) == 4


def test_transition_pause_none_waits_for_a_stable_ui(fake_env: FakeEnv) -> None:
    from cerebellum_gym.devices.androidworld import AndroidWorldDevice

    dev = AndroidWorldDevice(fake_env, transition_pause=None)
    dev.screenshot()
    dev.tap(1, 1)
    dev.screenshot()
    dev.screenshot()  # only the first look after an input waits for the UI to settle
    assert fake_env.get_state_calls == [False, True, False]
    paused = AndroidWorldDevice(fake_env, transition_pause=0.2)
    paused.tap(1, 1)
    start = time.monotonic()
    paused.screenshot()
    assert time.monotonic() - start >= 0.15  # AndroidWorld's agents pause after acting too


def test_uiautomator_tree_source_and_the_fallback_without_a_forest(device: Any, fake_env: FakeEnv) -> None:
    from cerebellum_gym.devices.androidworld import AndroidWorldDevice

    xml = (
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
        '<node index="0" text="Dumped" resource-id="" class="android.widget.TextView" package="p" content-desc="" '
        'checkable="false" checked="false" clickable="true" enabled="true" focusable="false" focused="false" '
        'scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][100,50]" /></hierarchy>'
    )
    (fake_env.controller.state / "dump.xml").write_text(xml)
    dumped = AndroidWorldDevice(fake_env, tree_source="uiautomator", transition_pause=0.0).ui_tree()
    assert dumped.children[0].text == "Dumped"
    fake_env.forest = None  # a controller built with A11yMethod.UIAUTOMATOR carries no forest
    assert device.ui_tree().children[0].text == "Dumped"


# --- input -----------------------------------------------------------------------------------------


def test_inputs_reach_execute_action_as_json_actions(device: Any, fake_env: FakeEnv) -> None:
    device.tap(540, 360)
    device.long_press(100, 200)
    device.press_key(KEYCODE_HOME)
    device.press_key(KEYCODE_BACK)
    device.press_key(KEYCODE_ENTER)
    got = [{k: v for k, v in vars(a).items() if v is not None} for a in fake_env.actions]
    assert got == [
        {"action_type": "click", "x": 540, "y": 360},
        {"action_type": "long_press", "x": 100, "y": 200},
        {"action_type": "navigate_home"},
        {"action_type": "navigate_back"},
        {"action_type": "keyboard_enter"},
    ]
    # JSONAction has no coordinate swipe; other keys have no action type: both go as AndroidWorld's scroll does.
    device.swipe(540, 1800, 540, 600, 300)
    device.press_key(KEYCODE_DEL)
    assert fake_env.controller.input_calls() == [["swipe", "540", "1800", "540", "600", "300"], ["keyevent", "67"]]
    start = time.monotonic()
    device.wait(0.1)
    assert time.monotonic() - start >= 0.1


@pytest.mark.parametrize(
    "text",
    [
        "hello world",
        "50%s off, 100% sure",
        'it\'s "quoted" & $(rm -rf /) `x` ; * ? [a] ~ \\ |',
        "  two  spaces ",
        "line one\nline two",
    ],
)
def test_typed_text_arrives_exactly(device: Any, fake_env: FakeEnv, text: str) -> None:
    device.type_text(text)
    assert fake_env.controller.typed_text() == text
    assert fake_env.actions == []  # no input_text action: it would press Enter afterwards


def test_text_the_emulator_cannot_type_is_refused_before_anything_is_typed(device: Any, fake_env: FakeEnv) -> None:
    for text in ("café", "emoji 🙂", "tab\there"):
        with pytest.raises(UnsupportedOperationError):
            device.type_text(text)
    assert fake_env.controller.input_calls() == [] and fake_env.actions == []


def test_json_action_text_input_passes_the_text_exactly(fake_env: FakeEnv) -> None:
    from cerebellum_gym.devices.androidworld import AndroidWorldDevice

    dev = AndroidWorldDevice(fake_env, text_input="json_action", transition_pause=0.0)
    dev.type_text("Ada Lovelace, 1815")
    assert [(a.action_type, a.text) for a in fake_env.actions] == [("input_text", "Ada Lovelace, 1815")]
    with pytest.raises(UnsupportedOperationError):
        dev.type_text("50%s")  # AndroidWorld's input_text would type a space


# --- state queries ---------------------------------------------------------------------------------


def test_settings_files_content_and_clock_through_the_controller(device: Any, fake_env: FakeEnv, tmp_path: Path) -> None:
    assert device.get_setting("global", "wifi_on") is None
    device.put_setting("global", "wifi_on", "1")
    assert device.get_setting("global", "wifi_on") == "1"

    folder = tmp_path / "sdcard" / "Download"
    blob = bytes(range(256)) * 400  # binary, several write chunks
    device.write_file(f"{folder}/it's a file.bin", blob)
    assert device.read_file(f"{folder}/it's a file.bin") == blob
    device.write_file(f"{folder}/empty.txt", b"")
    assert device.read_file(f"{folder}/empty.txt") == b""
    assert device.list_dir(str(folder)) == ["empty.txt", "it's a file.bin"]
    assert device.list_dir(str(tmp_path / "nowhere")) == []
    with pytest.raises(FileNotFoundError):
        device.read_file(f"{folder}/missing.txt")
    device.remove_path(str(folder))
    assert device.list_dir(str(tmp_path / "sdcard")) == []

    rows = device.content_query("content://com.android.contacts/data", ["display_name", "number"], {"display_name": "Ada"})
    assert rows == [{"display_name": "Ada Lovelace", "number": "+1 555, 0100"}, {"display_name": "Bob", "number": "42"}]
    args = (fake_env.controller.state / "content.args").read_text().splitlines()
    assert args[args.index("--where") + 1] == "display_name='Ada'"
    device.content_insert("content://x", {"name": "O'Brien"})
    assert "name:s:O'Brien" in (fake_env.controller.state / "content.args").read_text()
    with pytest.raises(ValueError):
        device.content_query("content://x", ["bad column"])

    assert abs(device.now().timestamp() - time.time()) < 60
    assert device.foreground_package() == "com.android.contacts"
    device.start_app("com.android.contacts")


def test_shell_reports_exit_status_and_stderr_apart(device: Any) -> None:
    out = device.shell("printf 'out'; echo err >&2; exit 3", check=False)
    assert (out.stdout, out.stderr, out.code) == (b"out", b"err\n", 3)
    with pytest.raises(DeviceProtocolError, match="exited 3"):
        device.shell("exit 3")


# --- failures ----------------------------------------------------------------------------------------


def test_failures_map_to_infra_errors(device: Any, fake_env: FakeEnv) -> None:
    fake_env.controller.fail_with = AdbControllerError("Error executing adb command: [adb shell settings]")
    with pytest.raises(DeviceLostError):
        device.get_setting("global", "wifi_on")
    fake_env.controller.fail_with = AdbControllerError("Caused by: Command '['adb', 'shell']' timed out after 10 seconds")
    with pytest.raises(DeviceTimeoutError):
        device.list_dir("/sdcard")
    fake_env.controller.fail_with = subprocess.TimeoutExpired(["adb"], 10)
    with pytest.raises(DeviceTimeoutError):
        device.swipe(1, 2, 3, 4)
    fake_env.controller.fail_with = None
    fake_env.controller.status = 6  # AdbResponse.Status.TIMEOUT
    with pytest.raises(DeviceTimeoutError):
        device.now()
    fake_env.controller.status = 5  # ADB_ERROR
    with pytest.raises(DeviceProtocolError):
        device.now()
    fake_env.controller.status = 1

    fake_env.fail_get_state = RuntimeError("Could not get a11y tree.")
    with pytest.raises(DeviceProtocolError, match="a11y"):
        device.screenshot(464)
    fake_env.fail_get_state = ConnectionResetError("emulator went away")
    with pytest.raises(DeviceLostError):
        device.ui_tree()
    fake_env.fail_get_state = None

    class _InactiveRpcError(Exception):  # grpc's class name for a failed call
        def code(self) -> str:
            return "StatusCode.DEADLINE_EXCEEDED"

    fake_env.fail_action = _InactiveRpcError()
    with pytest.raises(DeviceTimeoutError):
        device.tap(1, 1)
    fake_env.fail_action = None


def _adb_failure(output: bytes, code: int = 1) -> Exception:
    """What android_env raises after its tries: AdbControllerError from the last
    CalledProcessError (adb's stdout and stderr merged in ``output``)."""
    cause = subprocess.CalledProcessError(code, ["adb", "-s", "SERIAL", "shell", "sqlite3"], output=output)
    try:
        raise AdbControllerError("Error executing adb command: [adb -s SERIAL shell sqlite3 ...]") from cause
    except AdbControllerError as exc:
        return exc


def test_a_command_the_device_answered_is_not_a_lost_device() -> None:
    from cerebellum_gym.devices.androidworld import device_answer, infra_error, map_error

    # The device ran the command and answered with an error: sqlite3 on a bad statement, a shell
    # without the command, pm on an unknown package.
    for output, code in ((b'Error: in prepare, near "SELEC": syntax error', 1), (b"/system/bin/sh: sqlite3: not found", 127)):
        exc = _adb_failure(output, code)
        assert device_answer(exc) is exc.__cause__
        assert infra_error(exc, "set-up") is None  # the task's error (the caller probes the device)
        mapped = map_error(exc, "get_state")
        assert isinstance(mapped, DeviceProtocolError) and f"status {code}" in str(mapped)
    # Wrapped once more, as AndroidWorld's clear_app_data does: still the device's answer.
    try:
        raise AdbControllerError("Failed to clear app data for package x. Is the app installed?") from _adb_failure(b"Failed", 1)
    except AdbControllerError as exc:
        assert infra_error(exc, "set-up") is None
    # The adb client could not reach the device: no answer, a lost device.
    for output in (b"adb: device '127.0.0.1:6520' not found", b"error: closed", b"adb: error: failed to get feature set: device offline"):
        assert device_answer(_adb_failure(output)) is None
        assert isinstance(infra_error(_adb_failure(output), "set-up"), DeviceLostError)
    # No process result at all (AndroidWorld's own AdbControllerError), or a time-out: infra.
    assert isinstance(infra_error(AdbControllerError("device offline"), "x"), DeviceLostError)
    try:
        raise AdbControllerError("timed out") from subprocess.TimeoutExpired(["adb"], 10)
    except AdbControllerError as exc:
        assert isinstance(infra_error(exc, "x"), DeviceTimeoutError)


def test_programming_errors_are_not_disguised_as_infra(device: Any, fake_env: FakeEnv) -> None:
    fake_env.fail_action = TypeError("a bug")
    with pytest.raises(TypeError):
        device.tap(1, 1)


def test_infra_errors_end_the_env_episode_not_the_process(device: Any, fake_env: FakeEnv) -> None:
    from cerebellum_gym.tasks.androidworld import task_class

    env = gym.make("Cerebellum-AndroidWorld-v0", task=task_class("ContactsAddContact"), device=device, pixels=False)
    obs, _ = env.reset(seed=3)
    fake_env.fail_action = AdbControllerError("device offline")
    _, _, terminated, truncated, info = env.step(f"T {obs['labels'][0]}")
    assert truncated and not terminated and info["infra_error"].startswith("DeviceLostError")


# --- AndroidWorld's tasks ------------------------------------------------------------------------------


def test_task_classes_adapt_the_registry(device: Any) -> None:
    from cerebellum_gym.tasks.androidworld import AndroidWorldTask, task_class, task_classes

    classes = task_classes()
    assert sorted(classes) == ["ContactsAddContact", "TasksDueNextWeek"]
    from cerebellum_gym.loader import make_catalog

    catalog = make_catalog("androidworld")
    assert catalog.names() == sorted(classes) and all(catalog.get(n) is classes[n] for n in classes)
    assert catalog.get("SystemWifiTurnOn").family == "system"  # the bundled tasks stay reachable by name
    add = classes["ContactsAddContact"]
    assert issubclass(add, AndroidWorldTask) and add.name == "ContactsAddContact"
    assert (add.app, add.complexity, add.answer, add.mirrors) == ("contacts", 1.2, False, "ContactsAddContact")
    assert classes["TasksDueNextWeek"].answer
    assert task_class("ContactsAddContact") is add  # one adapter per AndroidWorld class
    with pytest.raises(UnknownTaskError, match="ContactsAddContact"):
        task_class("ContactsAddContacts")
    with pytest.raises(TaskError):
        task_classes("no_such_family")
    import cerebellum_gym.tasks as shared

    assert shared.get_task_class("ContactsAddContact") is not add  # the simulator's registry is untouched


def test_params_come_from_generate_random_params_seeded_by_our_rng(device: Any) -> None:
    from cerebellum_gym.tasks.androidworld import task_class

    cls = task_class("ContactsAddContact")
    random.seed(123)
    before = random.random()
    random.seed(123)
    first = cls.generate_params(np.random.default_rng(5))
    assert random.random() == before  # Python's global random is left as it was
    assert first == cls.generate_params(np.random.default_rng(5))
    assert first != cls.generate_params(np.random.default_rng(6))
    assert set(first) == {"name", "number", "seed"} and isinstance(first["seed"], int)
    random.seed(first["seed"])  # as suite_utils seeds before generate_random_params
    registry = importlib.import_module("android_world.registry")
    assert {**registry.ContactsAddContact.generate_random_params(), "seed": first["seed"]} == first
    task = cls(first)
    assert task.goal == f"Create a new contact for {first['name']}. Their number is {first['number']}."
    assert task.text_candidates() == [first["name"], first["number"]]
    assert task.max_steps() == 12 + 1  # AndroidWorld's int(10 * complexity), and the launcher's step


def test_initialize_judge_and_tear_down(device: Any, fake_env: FakeEnv) -> None:
    from cerebellum_gym.tasks.androidworld import task_class, tear_down_active

    calls = importlib.import_module("android_world.registry").TaskEval.calls
    cls = task_class("ContactsAddContact")
    task = cls(cls.generate_params(np.random.default_rng(1)))
    with pytest.raises(TaskError, match="initialize"):
        task.progress(device)
    task.initialize(device)
    assert task.progress(device) == 0.0
    device.type_text(task.params["name"])
    assert task.progress(device) == 1.0
    task.initialize(device)  # again: the previous TaskEval is torn down, a fresh one set up
    other = cls(cls.generate_params(np.random.default_rng(2)))
    other.initialize(device)
    with pytest.raises(TaskError):
        task.progress(device)  # no longer the live task on this device
    tear_down_active(device)
    assert calls == [
        ("ContactsAddContact", "initialize_task"),
        ("ContactsAddContact", "tear_down"),
        ("ContactsAddContact", "initialize_task"),
        ("ContactsAddContact", "tear_down"),
        ("ContactsAddContact", "initialize_task"),
        ("ContactsAddContact", "tear_down"),
    ]


def test_tasks_need_the_androidworld_backend() -> None:
    from cerebellum_gym.loader import make_device
    from cerebellum_gym.tasks.androidworld import AndroidWorldTask

    sim = make_device("sim")
    task = AndroidWorldTask()
    with pytest.raises(TaskError, match="androidworld backend"):
        task.initialize(sim)


def test_information_retrieval_answer_goes_through_the_answer_action(device: Any, fake_env: FakeEnv) -> None:
    from cerebellum_gym.tasks.androidworld import task_class

    cls = task_class("TasksDueNextWeek")
    task = cls(cls.generate_params(np.random.default_rng(0)))
    assert task.goal.startswith("How many tasks are due in the week of Oct")
    assert task.max_steps() == 20 + 1  # the instance's complexity (2), not the class attribute (1.2)
    task.initialize(device)
    assert task.progress(device) == 0.0
    assert task.progress(device, "4") == 0.0
    assert task.progress(device, " 3 ") == 1.0
    assert [(a.action_type, a.text) for a in fake_env.actions] == [("answer", "4"), ("answer", " 3 ")]
    assert fake_env.interaction_cache == " 3 "


def test_judge_faults_are_infra_and_a_judge_that_raises_fails_the_episode(device: Any, fake_env: FakeEnv) -> None:
    """A device fault while judging is infra (retried); a judge whose own code raises scores 0.0
    with the reason kept, as AndroidWorld's suite runner scores it."""
    from cerebellum_gym.tasks.androidworld import task_class

    cls = task_class("ContactsAddContact")
    task = cls(cls.generate_params(np.random.default_rng(1)))
    task.initialize(device)
    fake_env.controller.fail_with = AdbControllerError("device offline")
    with pytest.raises(InfraError):
        task.progress(device)  # the fake judge reads through the controller
    fake_env.controller.fail_with = None
    live = task._live
    live.is_successful = lambda env: {}["missing"]
    with pytest.warns(UserWarning, match="judged 0.0"):
        assert task.progress(device) == 0.0
    assert "is_successful failed: KeyError" in task.judge_error
    live.is_successful = lambda env: 1.0
    assert task.progress(device) == 1.0 and task.judge_error == ""


# --- env episodes ------------------------------------------------------------------------------------


def test_env_episode_with_an_androidworld_task(device: Any, fake_env: FakeEnv) -> None:
    from cerebellum_gym.tasks.androidworld import task_class

    env = gym.make("Cerebellum-AndroidWorld-v0", task=task_class("ContactsAddContact"), device=device)
    obs, info = env.reset(seed=11)
    name = env.unwrapped.task.params["name"]  # type: ignore[attr-defined]
    assert obs["goal"].startswith(f"Create a new contact for {name}.")
    assert obs["screenshot"].shape == (1031, 464, 3)
    assert "[" in obs["tree"] and 'EditText "Name" focused' in obs["tree"]
    assert info["max_steps"] == 12 + 1 and info["progress"] == 0.0  # AndroidWorld's budget and the launcher's step
    assert fake_env.resets == [True]  # after initialize_task: AsyncEnv.reset(go_home=True)
    obs, reward, terminated, truncated, info = env.step(f"K {name}")
    assert (reward, terminated, truncated, info["success"]) == (0.0, False, False, False)  # judged at the end only
    obs, reward, terminated, truncated, info = env.step("F")
    assert terminated and info["success"] and info["progress"] == 1.0 and reward == 1.0
    calls = importlib.import_module("android_world.registry").TaskEval.calls
    assert calls[-1] == ("ContactsAddContact", "tear_down")  # the episode is over: torn down
    env.reset(seed=12)
    assert calls[-2:] == [("ContactsAddContact", "tear_down"), ("ContactsAddContact", "initialize_task")]
    env.close()
    assert calls[-1] == ("ContactsAddContact", "tear_down")  # close tears down the live task


def test_env_episode_answering_a_question(device: Any, fake_env: FakeEnv) -> None:
    from cerebellum_gym.tasks.androidworld import task_class

    env = gym.make("Cerebellum-AndroidWorld-v0", task=task_class("TasksDueNextWeek"), device=device, pixels=False)
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step("F 3")
    assert terminated and info["success"] and reward == 1.0
    assert fake_env.interaction_cache == "3"


def test_env_resolves_task_names_to_androidworld_tasks_on_this_backend(device: Any) -> None:
    from cerebellum_gym.tasks.androidworld import AndroidWorldTask

    env = gym.make("Cerebellum-AndroidWorld-v0", task="ContactsAddContact", device=device, pixels=False)
    env.reset(seed=0)
    assert isinstance(env.unwrapped.task, AndroidWorldTask)  # type: ignore[attr-defined]
    env.reset(seed=1, options={"task": "TasksDueNextWeek"})
    assert env.unwrapped.task.name == "TasksDueNextWeek"  # type: ignore[attr-defined]
