"""``AndroidWorldDevice``: the Device interface over an AndroidWorld env (google-research/android_world).

AndroidWorld is not on PyPI: it installs from its source and drives an emulator (Pixel 6, API 33,
``-grpc 8554``) through android_env. Nothing here imports it until a device is built, so
``import cerebellum_gym`` works without it; building a device without it raises a
:class:`~cerebellum_gym.errors.CerebellumError` that says how to install it (``docs/androidworld.md``).

With no emulator named (no ``console_port``, ``grpc_port`` or ``env``) the loader serves the embedded
simulator over ADB in this process and the device runs AndroidWorld there
(:mod:`cerebellum_gym.devices.androidworld.embedded`); ``info["device_backend"]`` says which.

On the embedded simulator (``info["device_backend"] == "simulator"``, or any device given the
served phone as ``in_process``) two things differ, both because the device is a Python object in
this process:

- **time** is the phone's clock: ``W``, the transition pause and every sleep of AndroidWorld's
  code run through this device and its tasks (actuation, stability polling, set-up and judge
  waits) advance the phone's clock instead of the host's
  (:mod:`~cerebellum_gym.devices.androidworld.clock`); an emulator's device has no such clock;
- **screen and input** go straight to the phone (``direct``): the tree it would print to
  ``uiautomator dump``, its frame (at the device's width, the bytes ``screencap`` sends;
  narrower, rendered at that width as ``Cerebellum-Sim-v0`` does), and the agent's inputs as
  the ``input`` commands AndroidWorld's actuation sends would reach it. AndroidWorld's own
  set-up, judges and ``reset`` still go through its env and adb. ``direct=False`` reads and acts
  through AndroidWorld's env and adb, as on an emulator.

What goes where on an emulator (and with ``direct=False``), and why:

- **screen**: one ``AsyncEnv.get_state()`` gives ``State.pixels`` and the accessibility forest of
  the same moment. :meth:`AndroidWorldDevice.screenshot` fetches a state and keeps it;
  the :meth:`~AndroidWorldDevice.ui_tree` that follows (the env asks for both per step) reuses it
  unless an input came in between, so the tree always describes the pixels the agent sees.
- **tree**: built from the forest by default (:func:`forest_to_tree`), shaped as
  ``uiautomator dump`` prints it: the active window only, nodes invisible to the user dropped with
  their subtrees, bounds clipped to the screen, children in order with their ``index``. The forest
  is the more faithful source here: it is the tree AndroidWorld's own agents and element lists
  read, it comes with every state at no extra cost, and it belongs to the very frame of the
  screenshot, while a ``uiautomator dump`` costs another 1-3 s per step, fails on screens that
  never go idle (a running stopwatch, a video) and may describe a later frame than the pixels.
  ``tree_source="uiautomator"`` dumps through the env's adb controller instead (also the fallback
  when the controller was built without the accessibility forwarder and states carry no forest).
- **input**: taps, long presses, Back, Home and Enter go through ``AsyncEnv.execute_action`` as
  ``JSONAction`` (``click`` / ``long_press`` with ``x``, ``y``; ``navigate_back``,
  ``navigate_home``, ``keyboard_enter``), exactly as AndroidWorld's agents act. ``JSONAction`` has
  no coordinate swipe (``scroll`` / ``swipe`` take a direction only and span an element or the
  whole screen), so :meth:`~AndroidWorldDevice.swipe` sends the ``input swipe`` command that
  AndroidWorld's own ``scroll`` sends, with our coordinates.
- **text**: AndroidWorld's ``input_text`` action types word by word, drops what is not ASCII and
  then presses Enter (``android_world/env/actuation.py``), which is not "type exactly this".
  By default (``text_input="adb"``) text goes as single-quoted ``input text`` arguments through
  the env's adb controller: printable ASCII typed exactly (a literal ``%s`` split across two
  calls), ``\\n`` as the Enter key, nothing pressed after. ``text_input="json_action"`` uses
  AndroidWorld's ``input_text`` (and its trailing Enter) for agents that expect it. Either way,
  text the route cannot type raises :class:`~cerebellum_gym.errors.UnsupportedOperationError`
  before anything is typed.
- **state queries** (settings, content providers, files, clock) run as shell commands through
  ``adb_utils.issue_generic_request`` on the env's controller. android_env retries a command that
  exits non-zero and then raises, so every command is wrapped to exit 0 and report its own exit
  status after a random marker, with its stderr kept apart.

Failures map onto :class:`~cerebellum_gym.errors.InfraError` as
:mod:`~cerebellum_gym.devices.androidworld.gate` says (``map_error``).

Example (needs AndroidWorld and a running emulator; see ``docs/androidworld.md``)::

    import gymnasium as gym, cerebellum_gym
    env = gym.make("Cerebellum-AndroidWorld-v0", task="SystemWifiTurnOn",
                   device_options={"console_port": 5554, "grpc_port": 8554, "adb_path": "/opt/android/platform-tools/adb"})
"""

from __future__ import annotations

import base64
import contextlib
import math
import posixpath
import secrets
import shlex
import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

import numpy as np

from cerebellum_gym.core.tree import UINode, parse_uiautomator_xml
from cerebellum_gym.devices.androidworld.gate import guarded, import_android_world
from cerebellum_gym.devices.androidworld.transports import EnvTransport, PhoneTransport, Transport
from cerebellum_gym.devices.shell import ShellDevice, ShellOutput
from cerebellum_gym.errors import (
    CerebellumError,
    ConfigError,
    DeviceLostError,
    DeviceProtocolError,
    DeviceTimeoutError,
    InfraError,
    UnsupportedOperationError,
)

if TYPE_CHECKING:
    from cerebellum_gym.devices.androidworld.clock import SimulatedTime

TreeSource = Literal["forest", "uiautomator"]
TextInput = Literal["adb", "json_action"]

#: Where an :class:`AndroidWorldDevice`'s env runs (``info["device_backend"]``).
DeviceBackend = Literal["simulator", "emulator", "env"]
#: ``android_env.proto.adb_pb2.AdbResponse.Status`` values (proto enums are ints).
ADB_STATUS_OK: Final = 1
ADB_STATUS_TIMEOUT: Final = 6
DUMP_PATH: Final = "/data/local/tmp/cerebellum_window_dump.xml"
#: Raw bytes per ``write_file`` shell call (as base64, well under adb's shell line limit).
WRITE_CHUNK: Final = 32 * 1024
_MISSING_FILE_RC: Final = 44


def placement(
    *, env: Any = None, served: Any = None, console_port: int | None = None, grpc_port: int | None = None, emulator_setup: bool = False
) -> DeviceBackend | None:
    """Where an :class:`AndroidWorldDevice` with these options runs: decided here only (the
    loader asks it too, before it builds anything).

    Returns:
        ``"env"`` (an env given), ``"simulator"`` (a device served in this process),
        ``"emulator"`` (a console or gRPC port named), or ``None`` when nothing is named: the
        loader then serves the embedded simulator and hands it over as ``served``.

    Raises:
        ConfigError: ``served`` with an env or emulator ports, or ``emulator_setup`` with no
            emulator named.
    """
    if served is not None and (env is not None or console_port is not None or grpc_port is not None):
        raise ConfigError("served runs AndroidWorld on a device served in this process; it goes with no env and no emulator ports")
    if env is not None:
        return "env"
    if served is not None:
        return "simulator"
    if console_port is not None or grpc_port is not None:
        return "emulator"
    if emulator_setup:
        raise ConfigError(
            "emulator_setup=True needs an emulator: name it with console_port (and grpc_port), "
            "for example device_options={'console_port': 5554, 'grpc_port': 8554, 'emulator_setup': True}; "
            "with no emulator named, AndroidWorld runs on the embedded simulator, which needs no set-up"
        )
    return None


class AndroidWorldDevice(ShellDevice):
    """A phone behind an AndroidWorld ``AsyncEnv``: the embedded simulator, an emulator, or an
    env of the caller's.

    Which one (``info["device_backend"]``, :attr:`device_backend`):

    - ``"env"``: ``env`` given; it is driven as it is.
    - ``"simulator"``: ``served`` given, a device served over ADB in this process (the loader
      serves the embedded simulator there when no emulator is named: ``gym.make`` with no
      ``console_port``, ``grpc_port`` or ``env``). A private adb server connects to it and
      AndroidWorld's env is built over it
      (:class:`~cerebellum_gym.devices.androidworld.embedded.EmbeddedAndroidWorld`); all of it,
      the served device included, stops on :meth:`close`.
    - ``"emulator"``: an emulator named by ``console_port`` or ``grpc_port`` (the other takes
      AndroidWorld's default, 5554 or 8554); the env comes from ``env_launcher.load_and_setup_env``.

    Built directly with none of these it raises :class:`ConfigError` (this layer knows no
    simulator to serve: build through ``gym.make`` or ``loader.make_device``, which do).

    Args:
        env: a ready AndroidWorld env (``interface.AsyncEnv``).
        served: a device served over ADB in this process (``serial_for_adb`` and ``stop()``, as
            the simulator's ``AdbdServer``); this device stops it on :meth:`close`.
        console_port: the emulator's console port (its adb port is this plus one).
        grpc_port: the emulator's gRPC port (``-grpc``).
        adb_path: the adb binary; ``None`` takes AndroidWorld's default for an emulator and
            cerebellum's (``$ADB``, ``PATH``, adbutils' wheel) for the simulator.
        emulator_setup: install and set up AndroidWorld's apps first (once per emulator; minutes).
            Names no emulator by itself: with no port it is a :class:`ConfigError`.
        freeze_datetime: freeze the device clock as AndroidWorld's benchmark does.
        tree_source: ``"forest"``, ``"uiautomator"``, or ``"auto"`` (default): the forest on an
            emulator or a given env, ``uiautomator`` dumps on the simulator (its AndroidWorld env
            reads the UI through ``uiautomator``, with no forest); see the module docstring.
        all_windows: keep every window of the forest (status bar, keyboard, ...), not only the
            active one.
        text_input: ``"adb"`` (exact, no Enter) or ``"json_action"`` (AndroidWorld's
            ``input_text``, which presses Enter after typing).
        transition_pause: seconds between an input and the next observation, as AndroidWorld's
            agents pause (1 s); ``None`` polls until the UI is stable instead
            (``get_state(wait_to_stabilize=True)``); ``"auto"`` (default): 1 s on an emulator or a
            given env, 0 on the simulator (it has settled when an input returns).
        timeout: seconds an adb command may take.
        task_family: the AndroidWorld registry family whose tasks the loader offers on this device.
        close_env: close the env on :meth:`close`; defaults to whether this device built it.
        in_process: the served simulator in this process
            (:class:`~cerebellum_gym.devices.androidworld.embedded.InProcessPhone`) behind
            ``env``, when the caller built AndroidWorld's env over one itself; the embedded
            simulator's own when ``served``. With one, time is the phone's clock (every wait of
            AndroidWorld's code run through this device and its tasks advances it, see
            :mod:`~cerebellum_gym.devices.androidworld.clock`).
        direct: read the screen and UI tree from the phone in this process and send inputs to
            it there (``True``), or through AndroidWorld's env and adb (``False``); ``"auto"``
            (default): directly whenever ``in_process`` is there. AndroidWorld's own set-up and
            judges go through adb either way.
        open_target_app: start each episode in the task's app (the live eval of the reference
            model card: "target app pre-opened"): after AndroidWorld's set-up and Home, its
            ``open_app`` action opens the task's first app. Tasks whose goal is to open an app
            start on the home screen all the same.

    Raises:
        CerebellumError: AndroidWorld is not importable (with install instructions).
        ConfigError: nothing to run on (see above), or ``emulator_setup`` with no emulator named.
        InfraError: the emulator, or the served simulator, could not be reached.
    """

    backend = "androidworld"

    def __init__(
        self,
        env: Any = None,
        *,
        served: Any = None,
        console_port: int | None = None,
        grpc_port: int | None = None,
        adb_path: str | None = None,
        emulator_setup: bool = False,
        freeze_datetime: bool = True,
        tree_source: TreeSource | Literal["auto"] = "auto",
        all_windows: bool = False,
        text_input: TextInput = "adb",
        transition_pause: float | Literal["auto"] | None = "auto",
        timeout: float = 10.0,
        task_family: str = "android_world",
        close_env: bool | None = None,
        in_process: Any = None,
        direct: bool | Literal["auto"] = "auto",
        open_target_app: bool = False,
    ) -> None:
        if tree_source not in ("auto", "forest", "uiautomator"):
            raise ValueError(f"tree_source must be 'auto', 'forest' or 'uiautomator', got {tree_source!r}")
        if text_input not in ("adb", "json_action"):
            raise ValueError(f"text_input must be 'adb' or 'json_action', got {text_input!r}")
        if transition_pause is not None and transition_pause != "auto" and float(transition_pause) < 0:
            raise ValueError(f"transition_pause must be >= 0, None or 'auto', got {transition_pause}")
        if timeout <= 0:
            raise ValueError(f"timeout must be positive, got {timeout}")
        try:
            self._json_action = import_android_world("env.json_action")
            self._adb_utils = import_android_world("env.adb_utils")
        except CerebellumError:
            if served is not None:
                served.stop()  # handed over: it stops with this device, built or not
            raise
        try:
            where = placement(env=env, served=served, console_port=console_port, grpc_port=grpc_port, emulator_setup=emulator_setup)
        except ConfigError:
            if served is not None:
                served.stop()
            raise
        if where is None:
            raise ConfigError(
                "AndroidWorldDevice needs something to run on: console_port (and grpc_port) for an emulator, "
                "env for an AndroidWorld env, or served for a device served over ADB in this process; "
                "gym.make('Cerebellum-AndroidWorld-v0') and cerebellum_gym.loader.make_device('androidworld') "
                "serve the embedded simulator when no emulator is named"
            )
        self.device_backend: DeviceBackend = where
        #: AndroidWorld's env over the served device and its adb server, when this device runs there.
        self.embedded: Any = None
        if where == "simulator":
            from cerebellum_gym.devices.androidworld.embedded import EmbeddedAndroidWorld

            self.embedded = EmbeddedAndroidWorld(served, adb_path=adb_path, freeze_datetime=freeze_datetime, timeout=timeout)
            env = self.embedded.env
            in_process = self.embedded.in_process
            self._close_env = True if close_env is None else close_env
        elif where == "emulator":
            launcher = import_android_world("env.env_launcher")
            console = 5554 if console_port is None else int(console_port)
            grpc = 8554 if grpc_port is None else int(grpc_port)
            kwargs: dict[str, Any] = {
                "console_port": console,
                "emulator_setup": emulator_setup,
                "freeze_datetime": freeze_datetime,
                "grpc_port": grpc,
            }
            if adb_path is not None:
                kwargs["adb_path"] = adb_path
            with guarded(f"connecting to the emulator (console {console}, gRPC {grpc})"):
                env = launcher.load_and_setup_env(**kwargs)
            self._close_env = True if close_env is None else close_env
        else:
            self._close_env = False if close_env is None else close_env
        if tree_source == "auto":
            tree_source = "uiautomator" if where == "simulator" else "forest"
        if transition_pause == "auto":
            transition_pause = 0.0 if where == "simulator" else 1.0
        self.env: Any = env
        self.tree_source: TreeSource = tree_source
        self.all_windows = all_windows
        self.text_input: TextInput = text_input
        self.transition_pause = transition_pause
        self.timeout = float(timeout)
        self.task_family = task_family
        #: The served phone in this process, if AndroidWorld runs on one.
        self.in_process: Any = in_process
        #: The phone's clock: AndroidWorld's waits through this device advance it (else ``None``: real time).
        self.clock: SimulatedTime | None = None if in_process is None else in_process.clock
        if direct not in ("auto", True, False):
            raise ValueError(f"direct must be True, False or 'auto', got {direct!r}")
        if direct is True and in_process is None:
            raise ConfigError("direct=True reads the phone in this process; this device has none (in_process)")
        #: The screen and the inputs, chosen once: straight to the phone in this process, or
        #: through AndroidWorld's env over adb (``transports.py``).
        self.transport: Transport = (
            PhoneTransport(self, in_process) if in_process is not None and direct is not False else EnvTransport(self)
        )
        # The phone renders any width itself (the env then asks for history frames).
        self.renders_any_width = self.transport.renders_any_width
        #: Start each AndroidWorld task in its app (read by the task's start_episode).
        self.open_target_app = bool(open_target_app)
        self._closed = False
        self._state: Any = None  # the last fetched state, until an input makes it stale
        self._state_fresh = False
        self._last_input = -math.inf
        self._settled = True  # no input since the last observation
        try:
            with self._guarded("reading the logical screen size"):
                width, height = env.logical_screen_size
        except BaseException:
            self.close()
            raise
        self._size = (int(width), int(height))

    def save_state(self) -> Any:
        """The served phone's state, when AndroidWorld runs on the embedded simulator in this
        process; an emulator's state is not a value (it can only be reset)."""
        if self.in_process is None:
            return super().save_state()
        return self.in_process.call("save_state")

    def load_state(self, state: Any) -> None:
        if self.in_process is None:
            super().load_state(state)
            return
        self.in_process.call("load_state", state)
        # What was read of the phone before is stale now; the next read is of the restored one.
        self.transport.forget()
        self._state = None
        self._state_fresh = False
        self._settled = True

    def info_entries(self) -> dict[str, Any]:
        """``info["device_backend"]``: ``"simulator"``, ``"emulator"`` or ``"env"``."""
        return {"device_backend": self.device_backend}

    # --- plumbing ----------------------------------------------------------------------------

    @property
    def controller(self) -> Any:
        """The env's ``AndroidWorldController`` (what ``adb_utils`` functions take)."""
        return self.env.controller

    def simulated_time(self) -> contextlib.AbstractContextManager[Any]:
        """A block in which AndroidWorld's code waits on this device's clock: the phone's on the
        embedded simulator (:mod:`~cerebellum_gym.devices.androidworld.clock`), real time
        elsewhere (a no-op)."""
        return contextlib.nullcontext() if self.clock is None else self.clock.scope()

    @contextlib.contextmanager
    def _guarded(self, what: str) -> Iterator[None]:
        """:func:`guarded`, on this device's clock."""
        with guarded(what), self.simulated_time():
            yield

    def _sleep(self, seconds: float) -> None:
        if self.clock is None:
            time.sleep(seconds)
        else:
            self.clock.sleep(seconds)

    def _monotonic(self) -> float:
        return time.monotonic() if self.clock is None else self.clock.monotonic()

    def _check_open(self) -> None:
        if self._closed:
            raise DeviceLostError("AndroidWorld device is closed")

    def _touched(self) -> None:
        """An input went out: the kept state is stale, and the next one waits for the UI."""
        self._state = None
        self._state_fresh = False
        self._last_input = self._monotonic()
        self._settled = False

    def execute_json_action(self, **fields: Any) -> None:
        """Send one ``JSONAction(**fields)`` through ``AsyncEnv.execute_action``.

        Example: ``device.execute_json_action(action_type="click", x=540, y=1200)``.
        """
        self._check_open()
        action = self._json_action.JSONAction(**fields)
        self._touched()
        with self._guarded(f"execute_action({fields.get('action_type')})"):
            self.env.execute_action(action)

    def open_app(self, app_name: str) -> None:
        """Open AndroidWorld's app ``app_name`` ("contacts", "simple calendar pro", ...) at its
        launcher activity, as AndroidWorld's ``launch_app`` does for the apps it knows by
        activity (its ``adb_utils.get_adb_activity``); an app it knows no activity of goes
        through its ``open_app`` action.
        """
        self._check_open()
        activity = self._adb_utils.get_adb_activity(app_name)
        if activity is None:
            self.execute_json_action(action_type=self._json_action.OPEN_APP, app_name=app_name)
            return
        self._touched()
        with self._guarded(f"start_activity({activity})"):
            self._adb_utils.start_activity(activity, extra_args=[], env=self.controller, timeout_sec=self.timeout)

    def shell(
        self, command: str | Sequence[str], *, timeout: float | None = None, check: bool = True, readonly: bool = False
    ) -> ShellOutput:
        """Run a device shell command through the env's adb controller, with its exit status.

        ``command`` as a sequence is quoted argument by argument; as a string it reaches the
        device's shell as is (for constant, trusted lines only).

        Raises:
            DeviceProtocolError: ``check`` and it exited non-zero, or its output was unreadable.
        """
        self._check_open()
        line = command if isinstance(command, str) else shlex.join(command)
        nonce = secrets.token_hex(8)
        marker = f"__cerebellum_rc_{nonce}__"
        err = f"/data/local/tmp/.cerebellum-{nonce}.err"
        # android_env retries a non-zero exit (restarting the adb server) and then raises, so the
        # wrapper always exits 0 and reports the command's status after a marker of its own.
        wrapped = f"( {line} ) 2>{err}; printf '\\n{marker}%d\\n' $?; cat {err} 2>/dev/null; rm -f {err}"
        with self._guarded(f"adb shell {line[:60]!r}"):
            response = self._adb_utils.issue_generic_request(["shell", wrapped], self.controller, timeout_sec=timeout or self.timeout)
        status = int(getattr(response, "status", ADB_STATUS_OK))
        if status != ADB_STATUS_OK:
            detail = getattr(response, "error_message", "") or ""
            cls = DeviceTimeoutError if status == ADB_STATUS_TIMEOUT else DeviceProtocolError
            raise cls(f"adb shell {line[:60]!r}: adb status {status}: {str(detail)[:200]}")
        output = bytes(response.generic.output)
        at = output.find(b"\n" + marker.encode())
        if at < 0:
            raise DeviceProtocolError(f"adb shell {line[:60]!r}: no exit status in the output: {output[:200]!r}")
        rest = output[at + len(marker) + 1 :]
        code_text, _, stderr = rest.partition(b"\n")
        try:
            code = int(code_text)
        except ValueError:
            raise DeviceProtocolError(f"adb shell {line[:60]!r}: bad exit status {code_text[:20]!r}") from None
        result = ShellOutput(output[:at], stderr, code)
        if check and code != 0:
            detail = (stderr or result.stdout).decode("utf-8", "replace").strip()
            raise DeviceProtocolError(f"adb shell {line[:80]!r} exited {code}: {detail[:300]}")
        return result

    def _settle(self) -> bool:
        """Before the first observation after an input: let the transition pause run out, as
        AndroidWorld's agents do. True when the caller should poll for a stable UI instead."""
        if self._settled:
            return False
        if self.transition_pause is None:
            return True
        remaining = self.transition_pause - (self._monotonic() - self._last_input)
        if remaining > 0:
            self._sleep(remaining)
        return False

    def _get_state(self) -> Any:
        self._check_open()
        stabilize = self._settle()
        with self._guarded("get_state"):
            state = self.env.get_state(wait_to_stabilize=stabilize)
        self._state = state
        self._state_fresh = True
        self._settled = True
        return state

    # --- screen ------------------------------------------------------------------------------

    @property
    def screen_size(self) -> tuple[int, int]:
        return self._size

    @property
    def direct(self) -> bool:
        """Whether the screen, tree and inputs go straight to the phone in this process."""
        return isinstance(self.transport, PhoneTransport)

    def screenshot(self, width: int | None = None) -> np.ndarray:
        if width is not None and int(width) <= 0:
            raise ValueError(f"screenshot width must be positive, got {width}")
        return self.transport.screenshot(None if width is None else int(width))

    def ui_tree(self) -> UINode:
        return self.transport.ui_tree()

    def _dump_tree(self) -> UINode:
        self._settle()  # uiautomator itself waits for an idle UI
        out = self.shell(f"uiautomator dump {DUMP_PATH} >/dev/null && cat {DUMP_PATH}", timeout=max(self.timeout, 30.0))
        self._settled = True
        return parse_uiautomator_xml(out.stdout)

    # --- input -------------------------------------------------------------------------------

    def tap(self, x: int, y: int) -> None:
        self.transport.tap(int(x), int(y))

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        # AndroidWorld's long_press holds for a fixed 1000 ms (adb_utils.long_press).
        self.transport.long_press(int(x), int(y))

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        self.transport.swipe(int(x1), int(y1), int(x2), int(y2), int(duration_ms))

    def press_key(self, keycode: int) -> None:
        self.transport.press_key(int(keycode))

    def type_text(self, text: str) -> None:
        if not text:
            return
        bad = sorted({c for c in text if not (" " <= c <= "~" or c == "\n")})
        if bad:
            raise UnsupportedOperationError(
                f"the androidworld backend types printable ASCII and newlines only; {bad[:5]!r} cannot be typed "
                "(AndroidWorld's emulator has no Unicode keyboard, and its input_text drops such characters)"
            )
        if self.text_input == "json_action":
            if "%s" in text:
                raise UnsupportedOperationError("AndroidWorld's input_text types a literal '%s' as a space; use text_input='adb'")
            self.execute_json_action(action_type=self._json_action.INPUT_TEXT, text=text)
            return
        self.transport.type_text(text)

    def wait(self, seconds: float) -> None:
        self._check_open()
        # AndroidWorld's "wait" action sleeps a fixed 1 s on the host; an emulator runs in real
        # time, the embedded simulator's time is its clock.
        self._sleep(max(0.0, float(seconds)))
        self._state_fresh = False

    # --- apps and system state ---------------------------------------------------------------

    def foreground_package(self) -> str:
        self._check_open()
        with self._guarded("foreground_activity_name"):
            activity = str(self.env.foreground_activity_name or "")
        if not activity:
            raise DeviceProtocolError("AndroidWorld reports no foreground activity")
        return activity.split("/", 1)[0]

    def start_app(self, package: str) -> None:
        self._touched()
        out = self.shell(["monkey", "-p", package, "-c", "android.intent.category.LAUNCHER", "1"], check=False)
        self._touched()
        if out.code != 0 or "Events injected" not in out.text:
            raise CerebellumError(f"cannot start {package!r}: {(out.stderr or out.stdout).decode('utf-8', 'replace').strip()[:200]}")

    def read_file(self, path: str) -> bytes:
        quoted = shlex.quote(path)
        # base64 keeps the bytes intact whatever adb does to line ends.
        out = self.shell(f"[ -f {quoted} ] || exit {_MISSING_FILE_RC}; base64 {quoted}", check=False)
        if out.code == _MISSING_FILE_RC:
            raise FileNotFoundError(path)
        if out.code != 0:
            raise DeviceProtocolError(f"cannot read {path!r}: {(out.stderr or out.stdout).decode('utf-8', 'replace').strip()[:200]}")
        try:
            return base64.b64decode(out.stdout)
        except ValueError as exc:
            raise DeviceProtocolError(f"base64 of {path!r} is unreadable: {exc}") from exc

    def write_file(self, path: str, data: bytes) -> None:
        data = bytes(data)
        quoted = shlex.quote(path)
        parent = posixpath.dirname(path) or "/"
        self.shell(f"mkdir -p {shlex.quote(parent)} && : > {quoted}")
        for i in range(0, len(data), WRITE_CHUNK):
            payload = base64.b64encode(data[i : i + WRITE_CHUNK]).decode("ascii")
            self.shell(f"echo {payload} | base64 -d >> {quoted}")

    # --- lifecycle ---------------------------------------------------------------------------

    def reset_env(self, *, go_home: bool = True) -> None:
        """``AsyncEnv.reset(go_home)``: what AndroidWorld's agents do when an episode starts
        (Home if asked, the answer cache cleared)."""
        self._check_open()
        self._touched()
        with self._guarded(f"reset(go_home={go_home})"):
            self.env.reset(go_home=go_home)

    def probe(self, timeout: float = 5.0) -> InfraError | None:
        """Whether the device still answers: ``None``, or the infra error met asking it."""
        try:
            out = self.shell("echo cerebellum-probe", timeout=timeout, check=False)
        except InfraError as exc:
            return exc
        except Exception as exc:  # a probe never raises
            return DeviceLostError(f"probe: {type(exc).__name__}: {exc}")
        if b"cerebellum-probe" not in out.stdout:
            return DeviceProtocolError(f"probe: unexpected answer {out.stdout[:80]!r}")
        return None

    def factory_reset(self) -> None:
        """Go home and clear AndroidWorld's interaction cache (``AsyncEnv.reset(go_home=True)``).

        App data is not wiped here: an AndroidWorld task's ``initialize_task`` restores its
        apps' snapshots, and the next task tears down the previous one first.
        """
        self._check_open()
        self._touched()
        with self._guarded("reset(go_home=True)"):
            self.env.reset(go_home=True)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._state = None
        if self._close_env:
            with contextlib.suppress(Exception):  # closing a dead emulator link must not fail
                self.env.close()
        if self.embedded is not None:
            self.embedded.close()  # the served simulator and its adb server

    def __repr__(self) -> str:
        return (
            f"AndroidWorldDevice({self.device_backend}, screen={self._size[0]}x{self._size[1]}, "
            f"tree={self.tree_source}, text={self.text_input})"
        )


__all__ = ["AndroidWorldDevice", "DeviceBackend", "TextInput", "TreeSource", "placement"]
