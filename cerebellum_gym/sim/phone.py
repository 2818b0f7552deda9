"""The embedded phone: an in-process Android-like device with apps, state and a screen.

:class:`Phone` implements the :class:`~cerebellum_gym.devices.base.Device` interface directly,
so everything that drives a real device (the env, the tasks' judges, the ADB server) drives it
the same way. All state lives in one :class:`PhoneState` of plain data, which makes snapshots
and restores a copy.

Example:
    >>> phone = Phone()
    >>> phone.foreground_package()
    'com.google.android.apps.nexuslauncher'
    >>> phone.start_app("com.android.settings")
    >>> phone.ui_tree().find(text="Network & internet") is not None
    True
    >>> phone.screenshot(464).shape
    (1031, 464, 3)
"""

from __future__ import annotations

import copy
import functools
import pickle
import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Final, NamedTuple

import numpy as np

from cerebellum_gym.core.state import register_state_type
from cerebellum_gym.core.tree import UINode, to_uiautomator_xml
from cerebellum_gym.devices.base import KEYCODE_BACK, KEYCODE_DEL, KEYCODE_ENTER, KEYCODE_HOME, Device, Row, require_encodable
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.sim import providers, render
from cerebellum_gym.sim.apps.base import App
from cerebellum_gym.sim.render import FRAMES, TILES, paste
from cerebellum_gym.sim.screen import SCREEN_HEIGHT, SCREEN_WIDTH, STATUS_HEIGHT, TREES, HashedKey, Layout
from cerebellum_gym.sim.widgets import TextArea, TextField, Widget

#: AndroidWorld freezes the emulator's clock at this moment; the simulator starts there too.
DEFAULT_CLOCK: Final = datetime(2023, 10, 15, 15, 34, tzinfo=timezone.utc).timestamp()
LAUNCHER_PACKAGE: Final = "com.google.android.apps.nexuslauncher"
#: Device seconds that pass per input action (a person's pace), and per ``W``.
SECONDS_PER_ACTION: Final = 1.0


def default_settings() -> dict[str, dict[str, str]]:
    return {
        "global": {"wifi_on": "1", "bluetooth_on": "0", "airplane_mode_on": "0", "auto_time": "0"},
        "system": {"screen_brightness": "102", "screen_brightness_mode": "0", "font_scale": "1.0"},
        "secure": {"location_mode": "3", "ui_night_mode": "1"},
    }


@register_state_type
@dataclass
class PhoneState:
    """Everything the phone knows, as plain data (cheap to copy, trivially picklable)."""

    settings: dict[str, dict[str, str]] = field(default_factory=default_settings)
    content: dict[str, list[Row]] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    #: When each file was last written (the phone's clock, seconds): ``ls -l`` shows it.
    mtimes: dict[str, float] = field(default_factory=dict)
    #: Directories made explicitly (``mkdir``); directories holding files exist implicitly.
    dirs: set[str] = field(default_factory=set)
    app_data: dict[str, dict[str, Any]] = field(default_factory=dict)
    stacks: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    foreground: str = LAUNCHER_PACKAGE
    focus: str | None = None
    clock: float = DEFAULT_CLOCK
    next_id: int = 1


class Phone(Device):
    """A simulated phone. Apps are given as classes; the default set is every bundled app.

    Args:
        apps: app classes to install (the launcher is always installed).
        clock: device time at start (POSIX seconds).
    """

    backend = "sim"
    #: Frames are composed from cached tiles, so any width costs about the same as another.
    renders_any_width = True

    def __init__(self, apps: Iterable[type[App]] | None = None, *, clock: float = DEFAULT_CLOCK) -> None:
        from cerebellum_gym.sim.apps import DEFAULT_APPS
        from cerebellum_gym.sim.apps.launcher import Launcher

        classes: list[type[App]] = [Launcher, *(DEFAULT_APPS if apps is None else apps)]
        self.apps: dict[str, App] = {}
        for cls in classes:
            self.apps[cls.package] = cls(self)
        self.state = PhoneState(clock=clock)
        self.state.dirs.update(self._norm(d) for app in self.apps.values() for d in app.first_run_dirs)
        self._pristine = copy.deepcopy(self.state)
        # Plain data: unpickling a pickled state is an exact copy, several times faster than deepcopy.
        self._pristine_blob = pickle.dumps(self._pristine, protocol=pickle.HIGHEST_PROTOCOL)
        self._layout: Layout | None = None
        self._layout_minute = -1
        self._version = 0
        self._frames: dict[int, tuple[tuple[int, int], np.ndarray]] = {}
        self.closed = False

    def __getstate__(self) -> dict[str, Any]:
        # The laid-out screen holds callbacks (closures) and frames; both are rebuilt on demand.
        state = self.__dict__.copy()
        state["_layout"] = None
        state["_frames"] = {}
        return state

    # --- state management --------------------------------------------------------------------

    def invalidate(self) -> None:
        """Mark the screen stale after a state change (the next read rebuilds it)."""
        self._layout = None
        self._version += 1

    @property
    def pristine(self) -> PhoneState:
        """The state the phone started in and returns to on :meth:`factory_reset` (read only)."""
        return self._pristine

    def snapshot(self) -> PhoneState:
        """A copy of the full state, for :meth:`restore`."""
        return copy.deepcopy(self.state)

    def restore(self, state: PhoneState) -> None:
        self.state = copy.deepcopy(state)
        self.invalidate()

    def factory_reset(self) -> None:
        self.state = _copy_state(self._pristine) or pickle.loads(self._pristine_blob)
        self.invalidate()

    def save_state(self) -> PhoneState:
        """The live state (the caller pickles it at once: episode states hold it as bytes)."""
        return self.state

    def load_state(self, state: Any) -> None:
        if not isinstance(state, PhoneState):
            raise CerebellumError(f"a phone state is a PhoneState, not {type(state).__name__}")
        self.state = state
        self.invalidate()

    @property
    def version(self) -> int:
        """Increases on every change of what the screen shows."""
        return self._version

    @property
    def foreground_app(self) -> App:
        return self.apps[self.state.foreground]

    def app(self, package: str) -> App:
        try:
            return self.apps[package]
        except KeyError:
            raise CerebellumError(f"no app {package!r} is installed on the simulator") from None

    def launchable_apps(self) -> list[App]:
        # The installed apps never change after construction: sort them once (the launcher asks
        # on every build of the home screen).
        launchable = self.__dict__.get("_launchable")
        if launchable is None:
            launchable = self._launchable = sorted((a for a in self.apps.values() if a.launchable), key=lambda a: a.label.lower())
        return list(launchable)

    def focus(self, key: str | None) -> None:
        self.state.focus = key
        self.invalidate()

    def go_home(self) -> None:
        self.state.stacks.pop(LAUNCHER_PACKAGE, None)  # home shows the home screen, not the drawer
        self.state.foreground = LAUNCHER_PACKAGE
        self.state.focus = None
        self.invalidate()

    def force_stop(self, package: str) -> None:
        """Stop ``package`` as ``am force-stop`` does: its screens and drafts go, its data stays.

        The next launch starts from the app's root screen; a stopped foreground app leaves the
        launcher on screen. Unknown packages are ignored, as on a device.
        """
        if package not in self.apps:
            return
        self.state.stacks.pop(package, None)
        if self.state.foreground == package:
            self.go_home()
        self.invalidate()

    def new_id(self) -> int:
        self.state.next_id += 1
        return self.state.next_id

    # --- layout and rendering ----------------------------------------------------------------

    @property
    def layout(self) -> Layout:
        # Screens show the time to the minute (status bar, dates), so a new minute rebuilds too.
        minute = int(self.state.clock // 60)
        if self._layout is None or self._layout_minute != minute:
            spec = self.foreground_app.build()
            package = self.state.foreground
            # An app may hand back the very spec it built before when its screen cannot have
            # changed (the home screen does, App.reused_spec): its layout is then reused as it is.
            last = spec.laid_out
            if last is not None and last[0] == spec.scroll:
                self._layout = last[1]
            else:
                self._layout = TREES.layout(spec, package)
                spec.laid_out = (spec.scroll, self._layout)
            self._layout_minute = minute
        return self._layout

    @property
    def screen_size(self) -> tuple[int, int]:
        return SCREEN_WIDTH, SCREEN_HEIGHT

    def ui_tree(self) -> UINode:
        return self.layout.root

    def status_bar_tree(self) -> UINode:
        """The status bar's window as the system UI exposes it: the clock, then each icon with
        what it says to accessibility (a window of its own: ``uiautomator dump`` of the active
        window leaves it out, the accessibility forest has it)."""
        return _status_bar_nodes(self._clock_text(), status_icons(self.state.settings["global"]))

    def _clock_text(self) -> str:
        """The status bar's clock, "HH:MM" (UTC, like now(); cheaper than strftime)."""
        minutes = int(self.state.clock // 60) % (24 * 60)
        return f"{minutes // 60:02d}:{minutes % 60:02d}"

    def dump_xml(self) -> str:
        """The screen as ``uiautomator dump`` writes it."""
        return to_uiautomator_xml(self.ui_tree())

    def screenshot(self, width: int | None = None) -> np.ndarray:
        width = SCREEN_WIDTH if width is None else int(width)
        if width <= 0:
            raise ValueError(f"screenshot width must be positive, got {width}")
        key = (self._version, int(self.state.clock // 60))
        cached = self._frames.get(width)
        if cached is not None and cached[0] == key:
            return cached[1]
        frame = self._compose(width)
        frame.flags.writeable = False
        self._frames[width] = (key, frame)
        return frame

    def _compose(self, width: int) -> np.ndarray:
        lay = self.layout
        scale = width / SCREEN_WIDTH
        height = round(SCREEN_HEIGHT * scale)
        status_key, status_paint = self._status_tile(width, scale, status_background(lay.background))
        plan = _paint_plan(lay)
        # A frame is a function of what it is made of: a screen that returns (at any width) is
        # fetched, not composed again.
        frame_key = (width, status_key, plan.key)
        frame = FRAMES.get(frame_key)
        if frame is not None:
            return frame
        # Where each tile lands at this width (int(v * scale + 0.5) rather than round(): this
        # loop runs for every widget of every frame), and which rows full-width tiles cover.
        skey = round(scale, 5)
        pastes: list[tuple[Any, int, int, int, int, int, int, int, int, Widget]] = []
        covered: list[tuple[int, int]] = [(0, round(STATUS_HEIGHT * scale))]  # the status bar
        for (name, render_key, tile_background, (left, top, right, bottom), (cl, ct, cr, cb)), widget in zip(
            plan.ops, plan.widgets, strict=True
        ):
            x, y = int(left * scale + 0.5), int(top * scale + 0.5)
            w, h = int((right - left) * scale + 0.5), int((bottom - top) * scale + 0.5)
            # The part of the tile (at least one pixel each way) inside its clip, in canvas pixels.
            px0, py0 = max(x, int(cl * scale + 0.5)), max(y, int(ct * scale + 0.5))
            px1, py1 = min(x + max(1, w), int(cr * scale + 0.5), width), min(y + max(1, h), int(cb * scale + 0.5), height)
            pastes.append(((name, render_key, w, h, skey, tile_background), x, y, w, h, px0, py0, px1, py1, widget))
            if px0 <= 0 and px1 >= width and py1 > py0:
                covered.append((py0, py1))
        # Only rows no full-width tile paints over need the background (a tile's paste replaces
        # whatever lay under it, so what those rows held before cannot show).
        blank = _blank(plan.background, width, height)
        canvas = np.empty_like(blank)
        row = 0
        for top, bottom in sorted(covered):
            if top > row:
                canvas[row:top] = blank[row:top]
            row = max(row, bottom)
        if row < height:
            canvas[row:] = blank[row:]
        status = TILES.get(status_key, (width, status_key[4]), status_paint, status_key[5])
        paste(canvas, status, 0, 0, (0, 0, width, height))
        lookup, get_tile, dim_at = TILES.lookup, TILES.get, plan.dim_at
        for j, (key, x, y, w, h, px0, py0, px1, py1, owner) in enumerate(pastes):
            if j == dim_at:
                canvas >>= 1  # dim what lies under a dialog to half brightness
            if px1 <= px0 or py1 <= py0:
                continue
            tile = lookup(key)
            if tile is None:
                tile = get_tile(key, (w, h), _painter(owner, scale), key[5])
            canvas[py0:py1, px0:px1] = tile[py0 - y : py1 - y, px0 - x : px1 - x]
        if dim_at is not None and dim_at == len(pastes):
            canvas >>= 1
        canvas.flags.writeable = False
        FRAMES.put(frame_key, canvas)
        return canvas

    def _status_tile(self, width: int, scale: float, background: render.RGB) -> tuple[tuple[Any, ...], Any]:
        """The status bar's tile key and painter: the clock at the left; Bluetooth, airplane mode,
        Wi-Fi, the mobile signal with its "LTE" and the battery at the right, as Android 13 draws
        them (light on a dark screen, dark on a light one)."""
        clock = self._clock_text()
        icons = status_icons(self.state.settings["global"])
        h = round(STATUS_HEIGHT * scale)
        ink = (255, 255, 255) if _dark(background) else (31, 31, 31)

        def paint(draw: Any, w: int, hh: int) -> None:
            size = round(38 * scale)
            draw.text((round(50 * scale), (hh - size) / 2), clock, font=render.font(size, "medium"), fill=ink)
            right = w - round(50 * scale)
            icon = round(44 * scale)
            for name in reversed(icons):
                if name == "LTE":
                    tw = draw.textlength("LTE", font=render.font(round(30 * scale), "medium"))
                    right -= round(tw)
                    draw.text((right, (hh - round(30 * scale)) / 2), "LTE", font=render.font(round(30 * scale), "medium"), fill=ink)
                else:
                    right -= icon
                    render.draw_icon(draw, name, (right, (hh - icon) / 2, right + icon, (hh + icon) / 2), ink)
                right -= round(10 * scale)

        return ("status", clock, icons, width, h, background), paint

    # --- input -------------------------------------------------------------------------------

    def _after_input(self, changed: bool = True) -> None:
        """Let a person's moment pass; rebuild the screen if the input changed something or
        the app shows a running clock (input that hit nothing leaves the screen as it was)."""
        self.state.clock += SECONDS_PER_ACTION
        if changed or self.foreground_app.shows_running_clock():
            self.invalidate()

    def tap(self, x: int, y: int) -> None:
        hit = self.layout.hit(int(x), int(y))
        handled = hit is not None and hit.widget.tap(self, int(x), int(y), hit.bounds)
        self._after_input(handled)

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        hit = self.layout.hit(int(x), int(y))
        handled = hit is not None and hit.widget.long_press(self, int(x), int(y), hit.bounds)
        self._after_input(handled)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        lay = self.layout
        hit = lay.hit(int(x1), int(y1))
        changed = hit is not None and hit.widget.drag(self, int(x1), int(y1), int(x2), int(y2), hit.bounds)
        if not changed:
            left, top, right, bottom = lay.viewport
            if not lay.modal and left <= x1 < right and top <= y1 < bottom and abs(y2 - y1) > abs(x2 - x1):
                route = self.foreground_app.route
                scroll = min(lay.max_scroll, max(0, lay.scroll + int(y1 - y2)))
                changed = scroll != lay.scroll
                route["scroll"] = scroll
                if not changed:  # a list at its end: the app may take the pull (the launcher does)
                    changed = self.foreground_app.overscroll(int(y1 - y2))
        self._after_input(changed)

    def press_key(self, keycode: int) -> None:
        if keycode == KEYCODE_HOME:
            self.go_home()
        elif keycode == KEYCODE_BACK:
            if not self.foreground_app.back():
                self.go_home()
        elif keycode in (KEYCODE_ENTER, KEYCODE_DEL):
            field_widget = self._focused_field()
            if field_widget is not None:
                if keycode == KEYCODE_DEL:
                    field_widget.on_change(field_widget.value[:-1])
                elif isinstance(field_widget, TextArea):
                    # A multi-line EditText takes Enter as a line break (how `input text` and an
                    # IME type one), replacing a selection as typed text does.
                    field_widget.on_change(field_widget.value + "\n")
                elif field_widget.on_submit is not None:
                    field_widget.on_submit()
        self._after_input()

    def _focused_field(self) -> TextField | None:
        key = self.state.focus
        if key is None:
            return None
        placed = self.layout.fields.get(key)
        widget: Widget | None = placed.widget if placed is not None else None
        return widget if isinstance(widget, TextField) else None

    def type_text(self, text: str) -> None:
        require_encodable(text)
        field_widget = self._focused_field()
        if field_widget is not None:
            field_widget.on_change(field_widget.value + text)
        self._after_input(field_widget is not None)

    def clear_focused_text(self) -> None:
        """Empty the focused field (what an IME's clear-text command does); no-op without focus."""
        field_widget = self._focused_field()
        if field_widget is not None:
            field_widget.on_change("")
            self.invalidate()

    def focused_text(self) -> str | None:
        """The text of the focused field, exactly as typed (``None`` when nothing is focused)."""
        field_widget = self._focused_field()
        return None if field_widget is None else field_widget.value

    def wait(self, seconds: float) -> None:
        self.state.clock += max(0.0, float(seconds))
        if self.foreground_app.shows_running_clock():
            self.invalidate()

    # --- apps and system state ---------------------------------------------------------------

    def foreground_package(self) -> str:
        return self.state.foreground

    def start_app(self, package: str) -> None:
        app = self.app(package)
        self.state.foreground = package
        self.state.focus = None
        app.on_launch()
        self.invalidate()

    def get_setting(self, namespace: str, key: str) -> str | None:
        return self.state.settings.get(namespace, {}).get(key)

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        if namespace not in ("global", "system", "secure"):
            raise CerebellumError(f"unknown settings namespace {namespace!r}")
        self.state.settings[namespace][key] = str(value)
        self.invalidate()

    def _table(self, uri: str) -> tuple[list[Row], dict[str, str]]:
        try:
            table, implied = providers.resolve(uri)
        except KeyError as exc:
            raise CerebellumError(str(exc)) from None
        return self.state.content.setdefault(table, []), implied

    def content_query(self, uri: str, projection: Sequence[str] | None = None, where: Mapping[str, str] | None = None) -> list[Row]:
        rows, implied = self._table(uri)
        wanted = {**implied, **(where or {})}
        out = []
        for row in rows:
            if all(row.get(k) == v for k, v in wanted.items()):
                out.append({k: row.get(k, "NULL") for k in projection} if projection else dict(row))
        return out

    def content_insert(self, uri: str, values: Mapping[str, str]) -> None:
        rows, implied = self._table(uri)
        rows.append({"_id": str(self.new_id()), **implied, **{k: str(v) for k, v in values.items()}})
        self.invalidate()

    def content_delete(self, uri: str, where: Mapping[str, str] | None = None) -> None:
        rows, implied = self._table(uri)
        wanted = {**implied, **(where or {})}
        rows[:] = [r for r in rows if not all(r.get(k) == v for k, v in wanted.items())]
        self.invalidate()

    # --- files -------------------------------------------------------------------------------

    @staticmethod
    def _norm(path: str) -> str:
        # One leading slash: POSIX normpath keeps "//x" as is, which would split one file in two.
        return posixpath.normpath("/" + path.strip().lstrip("/"))

    def list_dir(self, path: str) -> list[str]:
        prefix = self._norm(path).rstrip("/") + "/"
        names = {p[len(prefix) :].split("/", 1)[0] for p in (*self.state.files, *self.state.dirs) if p.startswith(prefix)}
        return sorted(n for n in names if n)

    def make_dir(self, path: str) -> None:
        """``mkdir -p``: create directory ``path`` (empty directories show in :meth:`list_dir`)."""
        self.state.dirs.add(self._norm(path))
        self.invalidate()

    def read_file(self, path: str) -> bytes:
        try:
            return self.state.files[self._norm(path)]
        except KeyError:
            raise FileNotFoundError(path) from None

    def write_file(self, path: str, data: bytes) -> None:
        norm = self._norm(path)
        self.state.files[norm] = bytes(data)
        self.state.mtimes[norm] = self.state.clock
        self.invalidate()

    def file_mtime(self, path: str) -> float:
        """When file ``path`` was last written (the clock's start for files of unknown age)."""
        return self.state.mtimes.get(self._norm(path), DEFAULT_CLOCK)

    def remove_path(self, path: str) -> None:
        target = self._norm(path)
        prefix = target.rstrip("/") + "/"
        parent = posixpath.dirname(target)
        if parent != "/" and self.is_dir(parent):
            # The folder stays when its last file goes (``rm -r dir/*`` keeps ``dir``), as on a
            # device; a folder that held only files existed implicitly until now.
            self.state.dirs.add(parent)
        for name in [p for p in self.state.files if p == target or p.startswith(prefix)]:
            del self.state.files[name]
            self.state.mtimes.pop(name, None)
        self.state.dirs = {d for d in self.state.dirs if d != target and not d.startswith(prefix)}
        self.invalidate()

    def is_dir(self, path: str) -> bool:
        norm = self._norm(path)
        prefix = norm.rstrip("/") + "/"
        return norm in self.state.dirs or any(p.startswith(prefix) for p in (*self.state.files, *self.state.dirs))

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.state.clock, timezone.utc)

    def get_clipboard(self) -> str | None:
        from cerebellum_gym.sim import telephony

        return telephony.clipboard(self)

    def set_clipboard(self, text: str) -> None:
        from cerebellum_gym.sim import telephony

        telephony.set_clipboard(self, text)

    def close(self) -> None:
        self.closed = True


#: The status bar's icons, left to right, with the setting that shows each ("" always shows) and
#: what the system UI says of it to accessibility (Android 13's descriptions).
STATUS_ICONS: Final = (
    ("bluetooth", "bluetooth_on", "Bluetooth on."),
    ("airplanemode_active", "airplane_mode_on", "Airplane mode."),
    ("wifi", "wifi_on", "Wifi signal full."),
    ("LTE", "", "LTE"),
    ("signal_cellular_4_bar", "", "Phone signal full."),
    ("battery_full", "", "Battery 100 percent."),
)


def status_icons(global_settings: Mapping[str, str]) -> tuple[str, ...]:
    """The status bar's icons shown for these ``global`` settings, left to right."""
    return tuple(name for name, key, _ in STATUS_ICONS if not key or global_settings.get(key) == "1")


@functools.lru_cache(maxsize=64)
def _status_bar_nodes(clock: str, shown: tuple[str, ...]) -> UINode:
    systemui = "com.android.systemui"
    nodes = [
        UINode("android.widget.TextView", (50, 0, 200, STATUS_HEIGHT), text=clock, resource_id=f"{systemui}:id/clock", package=systemui)
    ]
    right = SCREEN_WIDTH - 50
    for name, _, said in reversed(STATUS_ICONS):
        if name not in shown:
            continue
        width = 70 if name == "LTE" else 44
        bounds = (right - width, 20, right, STATUS_HEIGHT - 20)
        if name == "LTE":
            nodes.insert(1, UINode("android.widget.TextView", bounds, text=said, package=systemui))
        else:
            nodes.insert(1, UINode("android.widget.ImageView", bounds, content_desc=said, package=systemui))
        right -= width + 10
    for i, node in enumerate(nodes):
        node.index = i
    bar = UINode(
        "android.widget.FrameLayout", (0, 0, SCREEN_WIDTH, STATUS_HEIGHT), resource_id=f"{systemui}:id/status_bar", package=systemui
    )
    bar.children = nodes
    return bar


def status_background(screen_background: render.RGB) -> render.RGB:
    """The status bar's colour: the screen's own where it is dark (the launcher's wallpaper),
    else the light system bar."""
    return screen_background if _dark(screen_background) else render.STATUS_BAR


def _dark(color: render.RGB) -> bool:
    return sum(color) < 384


def _copy_state(state: PhoneState) -> PhoneState | None:
    """An independent copy of a state that holds only settings, rows, files and directories
    (a fresh phone's), made field by field (faster than unpickling); ``None`` for a state with
    app data or screens, whose values may nest anything (those go through pickle)."""
    if state.app_data or state.stacks:
        return None
    return PhoneState(
        settings={namespace: dict(values) for namespace, values in state.settings.items()},
        content={table: [dict(row) for row in rows] for table, rows in state.content.items()},
        files=dict(state.files),  # bytes: immutable
        mtimes=dict(state.mtimes),
        dirs=set(state.dirs),
        app_data={},
        stacks={},
        foreground=state.foreground,
        focus=state.focus,
        clock=state.clock,
        next_id=state.next_id,
    )


@functools.lru_cache(maxsize=32)
def _blank(color: tuple[int, int, int], width: int, height: int) -> np.ndarray:
    # Filling a frame from a colour tuple is slow in numpy; copying a cached blank frame is not.
    frame = np.empty((height, width, 3), np.uint8)
    frame[:] = color
    frame.flags.writeable = False
    return frame


class _PaintPlan(NamedTuple):
    """What a layout's frames are made of at any width (see :func:`_paint_plan`)."""

    key: HashedKey
    background: tuple[int, int, int]
    dim_at: int | None
    ops: tuple[tuple[Any, ...], ...]
    widgets: list[Widget]


def _paint_plan(lay: Layout) -> _PaintPlan:
    """What a layout's frames are made of at any width, computed once per layout: the
    background, where the dialog's dimming falls, and per opaque widget its tile's identity
    (class, ``render_key``, background) with its bounds and clip; and those widgets, to paint.
    ``key`` is all but the widgets, hashed once (a frame cache key)."""
    if lay.paint is None:
        ops: list[tuple[Any, ...]] = []
        widgets: list[Widget] = []
        dim_at = None
        overlay = lay.overlay_index
        for i, (widget, bounds, clip) in enumerate(lay.placed):
            if i == overlay:
                dim_at = len(ops)
            if widget.opaque:
                ops.append((type(widget).__name__, widget.render_key(), widget.background, bounds, clip))
                widgets.append(widget)
        frozen = tuple(ops)
        lay.paint = _PaintPlan(HashedKey((lay.background, dim_at, frozen)), lay.background, dim_at, frozen, widgets)
    return lay.paint


def _painter(widget: Widget, scale: float) -> Any:
    def paint(draw: Any, width: int, height: int) -> None:
        widget.paint(draw, width, height, scale)

    return paint
