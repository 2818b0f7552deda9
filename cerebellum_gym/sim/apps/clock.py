"""Clock (Google Clock, ``com.google.android.deskclock``): alarms, world clock, timer, stopwatch.

Google Clock grew out of AOSP DeskClock and keeps its layout: a toolbar with "More options",
the tab's page, a row of three floating buttons over the bottom navigation (``left_button``,
``fab``, ``right_button``) and the ``bottom_view`` tabs Alarm, Clock, Timer, Stopwatch. Ids,
strings and which buttons show in which state follow LineageOS DeskClock (lineage-20.0, Android
13): ``res/layout/desk_clock.xml``, ``timer_setup_*.xml``, ``timer_item.xml``,
``StopwatchFragment.onUpdateFabButtons`` and ``TimerFragment.updateFab``.

Stopwatch and timer run on the phone's virtual clock. Alarms live in the sim's alarms provider
(``content://com.google.android.deskclock/alarms``, the stand-in for DeskClock's database), so a
judge can read them through the Device interface. Like the real app, the stopwatch and timer
show their state on screen: AndroidWorld's clock judges read the screen, and so do ours.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import partial
from typing import ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import time_picker
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.material import dp
from cerebellum_gym.sim.material.components import BottomNavigation, Fab, MaterialIconButton, NavItem, OverflowButton, TopAppBar
from cerebellum_gym.sim.material.pickers import picked_time
from cerebellum_gym.sim.providers import ALARMS_URI
from cerebellum_gym.sim.screen import BOTTOM_BAR_HEIGHT, NAV_HEIGHT, STATUS_HEIGHT, ScreenSpec
from cerebellum_gym.sim.widgets import Button, Dialog, Row, Text, Widget

#: The bottom navigation's destinations (``menu_alarm``, ``menu_clock``, ``menu_timer``,
#: ``menu_stopwatch``) and their icons.
TABS: Final = ("Alarm", "Clock", "Timer", "Stopwatch")
_TAB_ICONS: Final = {"Alarm": "alarm", "Clock": "schedule", "Timer": "hourglass_empty", "Stopwatch": "timer"}
#: The page between the app bar (``actionBarSize``) and the floating buttons' row.
_CONTROLS_HEIGHT: Final = dp(96)
_BODY_HEIGHT: Final = 2400 - STATUS_HEIGHT - dp(56) - NAV_HEIGHT - BOTTOM_BAR_HEIGHT


def format_stopwatch(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def format_timer_entry(digits: str) -> str:
    """The timer keypad's display, ``HHh MMm SSs``, from up to six typed digits."""
    d = digits.rjust(6, "0")
    return f"{d[0:2]}h {d[2:4]}m {d[4:6]}s"


def describe_timer_entry(digits: str) -> str:
    """The display's description (``timer_setup_description``: "1 hour, 0 minutes, 5 seconds")."""
    d = digits.rjust(6, "0")
    parts = ((int(d[0:2]), "hour"), (int(d[2:4]), "minute"), (int(d[4:6]), "second"))
    return ", ".join(f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in parts)


class _Centered(Widget):
    """A layout-only cell holding one widget of a fixed size at its centre (a constraint-centred
    floating button)."""

    class_name = "android.widget.FrameLayout"
    opaque = False

    def __init__(self, child: Widget | None, size: int, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.child = child
        self.size = size

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.child is not None, self.size)

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        if self.child is None:
            return []
        left, top, right, bottom = bounds
        cx, cy, half = (left + right) // 2, (top + bottom) // 2, self.size // 2
        return [(self.child, (cx - half, cy - half, cx + half, cy + half))]


class _TimeText(Text):
    """A big time display (``AutoSizingTextView``) without the plain Text's wrapping."""

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(self.size * scale)
        draw.text((width / 2, height / 2), self.text, font=render.font(size), fill=render.TEXT, anchor="mm")


class _OnOff(Widget):
    """An alarm's ``onoff`` switch (``SwitchCompat``: a ``Switch`` node, checkable)."""

    class_name = "android.widget.Switch"

    def __init__(self, checked: bool, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.checked = checked

    def render_key(self) -> Hashable:
        return (self.checked,)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.checked)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        tw, th = round(dp(52) * scale), round(dp(32) * scale)
        x, y = (width - tw) / 2, (height - th) / 2
        on = self.checked
        draw.rounded_rectangle((x, y, x + tw, y + th), radius=th // 2, fill=(26, 115, 232) if on else (225, 227, 230))
        knob = round(dp(24 if on else 16) * scale)
        kx = x + tw - th / 2 - knob / 2 if on else x + th / 2 - knob / 2
        draw.ellipse((kx, height / 2 - knob / 2, kx + knob, height / 2 + knob / 2), fill=(255, 255, 255) if on else (116, 119, 125))

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.checkable = True
        node.checked = self.checked
        return node


class _AlarmRow(Widget):
    """A collapsed alarm (``alarm_time_collapsed.xml``): its label when it has one, the time
    (``digital_clock``), "Expand alarm" (``arrow``), the ``onoff`` switch and ``days_of_week``."""

    class_name = "android.widget.FrameLayout"
    opaque = False
    default_height = dp(120)

    def __init__(self, time: str, label: str, days: str, on: bool, *, package: str, on_toggle: Callable[[], None]) -> None:
        super().__init__()  # (expanding an alarm is not modelled: the row itself takes no tap)
        rid = f"{package}:id/"
        self.label = Text(label, size=36, height=dp(24), rid=rid + "label", desc=f"Label {label}") if label else None
        self.time = _TimeText(time, size=120, height=dp(72), rid=rid + "digital_clock", on_tap=lambda: None)
        self.arrow = MaterialIconButton("Expand alarm", "expand_more", on_tap=lambda: None, rid=rid + "arrow")
        self.onoff = _OnOff(on, on_tap=on_toggle, rid=rid + "onoff")
        self.days = Text(days, size=36, height=dp(24), rid=rid + "days_of_week")

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.label is not None)

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        pad = dp(16)
        placed: list[tuple[Widget, Bounds]] = []
        if self.label is not None:
            placed.append((self.label, (left + pad, top, right - pad, top + dp(24))))
        placed += [
            (self.time, (left + pad, top + dp(24), left + dp(220), top + dp(96))),
            (self.arrow, (right - pad - dp(48), top + dp(24), right - pad, top + dp(72))),
            (self.onoff, (right - pad - dp(64), top + dp(72), right - pad, bottom)),
            (self.days, (left + pad, top + dp(96), right - dp(96), bottom)),
        ]
        return placed


@register_app
class ClockApp(App):
    package: ClassVar[str] = "com.google.android.deskclock"
    activity: ClassVar[str] = "com.android.deskclock.DeskClock"
    label: ClassVar[str] = "Clock"
    color: ClassVar[tuple[int, int, int]] = (66, 133, 244)

    def shows_running_clock(self) -> bool:
        # A running stopwatch or timer counts seconds; alarms and the world clock show minutes.
        d = self.saved_data()
        return bool(d.get("sw_running")) or d.get("timer_end") is not None

    def initial_data(self) -> dict[str, object]:
        return {
            "tab": "Alarm",
            "sw_running": False,
            "sw_start": 0.0,
            "sw_acc": 0.0,
            "laps": [],
            "timer_digits": "",
            # The one timer: its length, and either its end (running) or what is left (paused).
            "timer_length": None,
            "timer_end": None,
            "timer_left": None,
            "timer_setup": False,
        }

    def rid(self, name: str) -> str:
        return f"{self.package}:id/{name}"

    # --- stopwatch ---------------------------------------------------------------------------

    def _sw_elapsed(self) -> float:
        d = self.data
        return float(d["sw_acc"]) + (self.phone.state.clock - float(d["sw_start"]) if d["sw_running"] else 0.0)

    def _sw_start(self) -> None:
        self.data.update(sw_running=True, sw_start=self.phone.state.clock)

    def _sw_pause(self) -> None:
        self.data.update(sw_acc=self._sw_elapsed(), sw_running=False)

    def _sw_reset(self) -> None:
        self.data.update(sw_acc=0.0, sw_running=False, laps=[])

    def _sw_lap(self) -> None:
        self.data["laps"] = [*self.data["laps"], self._sw_elapsed()]

    # --- timer -------------------------------------------------------------------------------

    def _has_timer(self) -> bool:
        return self.data.get("timer_end") is not None or self.data.get("timer_left") is not None

    def _digit(self, digit: str) -> None:
        current = str(self.data["timer_digits"]).lstrip("0")
        if len(current) < 6 and (current or digit != "0"):
            self.data["timer_digits"] = current + digit

    def _digits(self, digits: str) -> None:
        for digit in digits:
            self._digit(digit)

    def _timer_start(self) -> None:
        d = str(self.data["timer_digits"]).rjust(6, "0")
        seconds = int(d[0:2]) * 3600 + int(d[2:4]) * 60 + int(d[4:6])
        if seconds > 0:
            self.data.update(
                timer_end=self.phone.state.clock + seconds, timer_left=None, timer_length=seconds, timer_digits="", timer_setup=False
            )

    def _timer_remaining(self) -> float:
        d = self.data
        if d.get("timer_end") is not None:
            return max(0.0, float(d["timer_end"]) - self.phone.state.clock)
        return float(d.get("timer_left") or 0.0)

    def _timer_play_pause(self) -> None:
        d = self.data
        if d.get("timer_end") is not None:
            d.update(timer_left=self._timer_remaining(), timer_end=None)
        elif d.get("timer_left"):
            d.update(timer_end=self.phone.state.clock + float(d["timer_left"]), timer_left=None)

    def _timer_add_minute(self) -> None:
        d = self.data
        if d.get("timer_end") is not None:
            d["timer_end"] = float(d["timer_end"]) + 60
        elif d.get("timer_left") is not None:
            d["timer_left"] = float(d["timer_left"]) + 60

    def _timer_reset(self) -> None:
        self.data.update(timer_end=None, timer_left=float(self.data.get("timer_length") or 0.0))

    def _timer_delete(self) -> None:
        self.data.update(timer_end=None, timer_left=None, timer_length=None, timer_setup=False)

    # --- frame -------------------------------------------------------------------------------

    def _switch(self, tab: str) -> None:
        self.data["tab"] = tab
        self.reset_to("main")

    def _frame(
        self,
        body: list[Widget],
        *,
        fab: Widget | None = None,
        left: Widget | None = None,
        right: Widget | None = None,
        dialog: Dialog | None = None,
    ) -> ScreenSpec:
        """The tab's page in DeskClock's frame: the toolbar, the page, the floating buttons'
        row, the bottom navigation."""
        tab = str(self.data["tab"])
        bar = TopAppBar("", actions=[OverflowButton(on_tap=lambda: None)], rid=self.rid("toolbar"))
        used = sum(w.height for w in body)
        page: list[Widget] = [*body]
        if used < _BODY_HEIGHT - _CONTROLS_HEIGHT:
            page.append(Widget(height=_BODY_HEIGHT - _CONTROLS_HEIGHT - used))
        side = dp(48)
        page.append(
            Row(
                [
                    _Centered(left, side),
                    _Centered(fab, dp(64)),
                    _Centered(right, side),
                ],
                height=_CONTROLS_HEIGHT,
            )
        )
        nav = BottomNavigation(
            [NavItem(t, _TAB_ICONS[t], on_tap=partial(self._switch, t)) for t in TABS],
            TABS.index(tab),
            rid=self.rid("bottom_view"),
        )
        return ScreenSpec(title=None, app_bar=bar, body=page, bottom=[nav], dialog=dialog, background=render.SURFACE)

    def _button(self, desc: str, icon: str, on_tap: Callable[[], None], rid: str) -> Fab:
        return Fab(desc, icon, on_tap=on_tap, rid=self.rid(rid), background=render.SURFACE)

    def screen_main(self, route: Route) -> ScreenSpec:
        tab = self.data["tab"]
        if tab == "Alarm" and not route.get("dialog"):
            # The alarm list shows only the alarms and when each rings next (its callbacks use no
            # route without the dialog).
            alarms = tuple(tuple(sorted(alarm.items())) for alarm in self.alarms())
            now = self.phone.now()
            return self.reused_spec(("alarms", alarms, now.hour, now.minute), lambda: self._alarm(route))
        builder = {"Alarm": self._alarm, "Clock": self._world, "Timer": self._timer, "Stopwatch": self._stopwatch}[tab]
        return builder(route)

    def _world(self, route: Route) -> ScreenSpec:
        now = self.phone.now()
        body: list[Widget] = [
            _TimeText(now.strftime("%H:%M"), size=160, height=360, rid=self.rid("digital_clock")),
            Text(
                now.strftime("%a, %b %-d"), size=44, center=True, color=(96, 94, 102), rid=self.rid("date"), desc=now.strftime("%A, %B %-d")
            ),
        ]
        return self._frame(body, fab=self._button("Cities", "public", lambda: None, "fab"))

    def _stopwatch(self, route: Route) -> ScreenSpec:
        d = self.data
        elapsed = self._sw_elapsed()
        body: list[Widget] = [_TimeText(format_stopwatch(elapsed), size=150, height=dp(300), rid=self.rid("stopwatch_time_text"))]
        for i, lap in enumerate(reversed(d["laps"])):
            body.append(Text(f"# {len(d['laps']) - i}   {format_stopwatch(lap)}", size=42, height=dp(48)))
        # StopwatchFragment: running shows Reset, Pause, Lap; paused Reset, Start, Share; reset
        # only Start.
        reset = self._button("Reset", "refresh", self._sw_reset, "left_button")
        if d["sw_running"]:
            return self._frame(
                body,
                left=reset,
                fab=self._button("Pause", "pause", self._sw_pause, "fab"),
                right=self._button("Lap", "timer", self._sw_lap, "right_button"),
            )
        if elapsed > 0:
            return self._frame(
                body,
                left=reset,
                fab=self._button("Start", "play_arrow", self._sw_start, "fab"),
                right=self._button("Share", "share", lambda: None, "right_button"),
            )
        return self._frame(body, fab=self._button("Start", "play_arrow", self._sw_start, "fab"))

    def _timer(self, route: Route) -> ScreenSpec:
        d = self.data
        if self._has_timer() and not d.get("timer_setup"):
            left = self._timer_remaining()
            running = d.get("timer_end") is not None
            body: list[Widget] = [
                Row(
                    [
                        Text("Label", size=44, on_tap=lambda: None, rid=self.rid("timer_label"), height=dp(64)),
                        _Centered(MaterialIconButton("Delete", "cancel", on_tap=self._timer_delete, rid=self.rid("close")), dp(48)),
                    ],
                    height=dp(64),
                ),
                _TimeText(format_stopwatch(left) if left > 0 else "Time's up", size=150, height=dp(220), rid=self.rid("timer_time_text")),
                _Centered(MaterialIconButton("Reset", "refresh", on_tap=self._timer_reset, rid=self.rid("reset")), dp(48), height=dp(56)),
                Row(
                    [
                        Button("+ 1:00", filled=False, on_tap=self._timer_add_minute, rid=self.rid("add_one_min"), desc="Add 1 Minute"),
                        _Centered(
                            MaterialIconButton(
                                "Start", "pause" if running else "play_arrow", on_tap=self._timer_play_pause, rid=self.rid("play_pause")
                            ),
                            dp(64),
                        ),
                    ],
                    height=dp(88),
                ),
            ]
            return self._frame(body, fab=self._button("Add Timer", "add", lambda: self.data.update(timer_setup=True), "fab"))
        digits = str(d["timer_digits"])
        display = format_timer_entry(digits)
        body = [
            _TimeText(display, size=110, height=dp(120), rid=self.rid("timer_setup_time"), desc=describe_timer_entry(digits)),
        ]
        keys = [*"123456789", "00", "0"]
        cells: list[Widget] = [
            Button(k, filled=False, on_tap=partial(self._digits, k), height=dp(72), rid=self.rid(f"timer_setup_digit_{k}")) for k in keys
        ]
        # timer_setup_delete: a key like the digits, "⌫", described "Backspace" (as a recorded
        # tree of Google Clock's keypad has it; AOSP DeskClock says "Delete").
        cells.append(
            Button(
                "⌫",
                filled=False,
                on_tap=lambda: self.data.update(timer_digits=str(self.data["timer_digits"])[:-1]),
                height=dp(72),
                rid=self.rid("timer_setup_delete"),
                desc="Backspace",
            )
        )
        for i in range(0, 12, 3):
            body.append(Row(cells[i : i + 3], height=dp(72)))
        fab = self._button("Start", "play_arrow", self._timer_start, "fab") if digits.strip("0") else None
        cancel = (
            self._button("Cancel", "delete", lambda: self.data.update(timer_setup=False, timer_digits=""), "left_button")
            if self._has_timer()
            else None
        )
        return self._frame(body, fab=fab, left=cancel)

    # --- alarms ------------------------------------------------------------------------------

    def alarms(self) -> list[dict[str, str]]:
        rows = self.phone.content_query(ALARMS_URI)
        return sorted(rows, key=lambda r: (int(r.get("hour", 0)), int(r.get("minutes", 0)), r.get("_id", "")))

    def _toggle_alarm(self, alarm_id: str, on: bool) -> None:
        rows = self.phone.content_query(ALARMS_URI, where={"_id": alarm_id})
        if rows:
            row = rows[0]
            self.phone.content_delete(ALARMS_URI, where={"_id": alarm_id})
            self.phone.content_insert(ALARMS_URI, {**{k: v for k, v in row.items() if k != "_id"}, "enabled": "0" if on else "1"})

    def _add_alarm(self, route: Route) -> None:
        picked = picked_time(route)
        if picked is None:
            return  # the platform picker keeps the dialog open on an invalid entry
        self.phone.content_insert(ALARMS_URI, {"hour": str(picked[0]), "minutes": str(picked[1]), "enabled": "1", "label": ""})
        self.set_dialog(None)

    def _time_picker(self, route: Route) -> Dialog:
        """The new alarm's time: the platform's ``TimePickerDialog`` (DeskClock's
        ``TimePickerDialogFragment``), 12-hour as en-US reads time, at the current time."""
        return time_picker(self, route, on_ok=lambda: self._add_alarm(route), on_cancel=lambda: self.set_dialog(None))

    def _alarm(self, route: Route) -> ScreenSpec:
        body: list[Widget] = []
        now = self.phone.now()
        for alarm in self.alarms():
            on = alarm.get("enabled") == "1"
            hour, minute = int(alarm["hour"]), int(alarm["minutes"])
            # A one-time alarm says when it rings next (alarm_today, alarm_tomorrow).
            days = "Today" if (hour, minute) > (now.hour, now.minute) else "Tomorrow"
            body.append(
                _AlarmRow(
                    f"{hour:02d}:{minute:02d}",
                    alarm.get("label", ""),
                    days,
                    on,
                    package=self.package,
                    on_toggle=partial(self._toggle_alarm, alarm["_id"], on),
                )
            )
        if not body:
            # alarms_empty_view: an alarm icon over "No Alarms" (``no_alarms``).
            body = [Text("No Alarms", size=44, center=True, height=300, rid=self.rid("alarms_empty_view"))]
        dialog = self._time_picker(route) if route.get("dialog") == "time" else None

        def open_picker() -> None:
            now = self.phone.now()
            self.set_dialog("time", hour=now.hour, minute=now.minute, minutes=False, text_mode=False, p1="", p2="")

        return self._frame(body, fab=self._button("Add alarm", "add", open_picker, "fab"), dialog=dialog)
