"""The platform's date and time pickers (``android.app.DatePickerDialog`` and
``android.app.TimePickerDialog`` on Android 13, Material theme) as dialogs any app can show.

Facts from AOSP frameworks/base at android-13.0.0 (``core/res/res/layout/date_picker_material.xml``,
``date_picker_header_material.xml``, ``day_picker_content_material.xml``,
``time_picker_material.xml``, ``time_picker_header_material.xml``,
``time_picker_text_input_material.xml``; ``SimpleMonthView`` describes a day as
``dd MMMM yyyy``; ``TimePickerClockDelegate``'s toggle descriptions). The dialogs keep no state of
their own: the app holds the picked values in its route and hands callbacks.
"""

from __future__ import annotations

import calendar as pycal
import functools
import math
from collections.abc import Callable, Hashable, Sequence
from datetime import date
from typing import TYPE_CHECKING

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds
from cerebellum_gym.sim import render
from cerebellum_gym.sim.material import LIGHT, Theme, dp, sp
from cerebellum_gym.sim.material.components import MaterialIconButton
from cerebellum_gym.sim.render import font
from cerebellum_gym.sim.widgets import Button, Dialog, Row, Text, Widget

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

TO_TEXT_MODE = "Switch to text input mode for the time input."
TO_CLOCK_MODE = "Switch to clock mode for the time input."


class UntitledDialog(Dialog):
    """An AlertDialog made without a title: no ``alertTitle`` (its title panel is gone)."""

    untitled = True

    def __init__(self, buttons: Sequence[Button], *, message: str = "", body: Sequence[Widget] = ()) -> None:
        super().__init__("", buttons, message=message, body=body)


def day_description(day: date) -> str:
    """``SimpleMonthView``'s description of a day cell (``dd MMMM yyyy``)."""
    return f"{day.day:02d} {day.strftime('%B')} {day.year}"


def hour12(hour: int) -> int:
    return hour % 12 or 12


class _Painted(Widget):
    """A layout-only view that draws a label the tree does not show (a canvas draws it for real)."""

    opaque = True

    def __init__(self, label: str, *, size: int = 14, color: render.RGB = (96, 94, 102), bold: bool = False, height: int = dp(40)) -> None:
        super().__init__(height=height, background=(255, 255, 255))
        self.label = label
        self.size = size
        self.color = color
        self.bold = bold

    def render_key(self) -> Hashable:
        return (self.label, self.size, self.color, self.bold)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.label)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = max(1, round(sp(self.size) * scale))
        draw.text((width / 2, height / 2), self.label, font=font(size, "medium" if self.bold else "regular"), fill=self.color, anchor="mm")


class _WeekdayLetters(Widget):
    """The month's weekday initials, drawn by ``SimpleMonthView`` (no nodes)."""

    def __init__(self, letters: Sequence[str], *, height: int = dp(40)) -> None:
        super().__init__(height=height, background=(255, 255, 255))
        self.letters = tuple(letters)

    def render_key(self) -> Hashable:
        return self.letters

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        cell = width / len(self.letters)
        f = font(max(1, round(sp(12) * scale)))
        for i, letter in enumerate(self.letters):
            draw.text((cell * (i + 0.5), height / 2), letter, font=f, fill=(96, 94, 102), anchor="mm")


class _DayCell(Text):
    """A day of ``SimpleMonthView`` as its virtual node: the number, described by its date."""

    class_name = "android.view.View"

    def __init__(self, day: date, *, selected: bool, theme: Theme, on_tap: Callable[[], None]) -> None:
        super().__init__(
            str(day.day),
            size=sp(14),
            center=True,
            height=dp(40),
            desc=day_description(day),
            selected=selected,
            color=theme.on_primary if selected else theme.on_surface,
            on_tap=on_tap,
            background=(255, 255, 255),
        )
        self.theme = theme

    def render_key(self) -> Hashable:
        return (super().render_key(), self.theme)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        if self.selected:
            r = min(width, height) / 2 - 2
            draw.ellipse((width / 2 - r, height / 2 - r, width / 2 + r, height / 2 + r), fill=self.theme.primary)
        f = font(max(1, round(sp(14) * scale)))
        draw.text((width / 2, height / 2), self.text, font=f, fill=self.color, anchor="mm")


def date_picker_dialog(
    selected: date,
    shown_month: tuple[int, int],
    *,
    on_pick: Callable[[date], None],
    on_month: Callable[[int], None],
    on_ok: Callable[[], None],
    on_cancel: Callable[[], None],
    first_weekday: int = pycal.SUNDAY,
    theme: Theme = LIGHT,
) -> Dialog:
    """``DatePickerDialog`` in calendar mode: the header (year, then ``EEE, MMM d``), the month
    with its previous/next buttons and day cells, and Cancel / OK. ``shown_month`` is the
    (year, month) on the pager; ``on_month(+1 | -1)`` pages it."""
    year, month = shown_month
    body: list[Widget] = [
        Text(
            str(selected.year),
            size=sp(16),
            color=theme.on_primary,
            background=theme.primary,
            height=dp(40),
            rid="android:id/date_picker_header_year",
        ),
        Text(
            selected.strftime("%a, %b ") + str(selected.day),
            size=sp(34),
            color=theme.on_primary,
            background=theme.primary,
            height=dp(72),
            rid="android:id/date_picker_header_date",
        ),
        Row(
            [
                MaterialIconButton("Previous month", "chevron_left", theme=theme, on_tap=lambda: on_month(-1), rid="android:id/prev"),
                _Painted(f"{pycal.month_name[month]} {year}", bold=True, color=theme.on_surface, height=dp(48)),
                MaterialIconButton("Next month", "chevron_right", theme=theme, on_tap=lambda: on_month(1), rid="android:id/next"),
            ],
            height=dp(48),
        ),
    ]
    cal = pycal.Calendar(firstweekday=first_weekday)
    letters = [pycal.day_abbr[(first_weekday + i) % 7][0] for i in range(7)]
    body.append(_WeekdayLetters(letters))
    for week in cal.monthdayscalendar(year, month):
        cells: list[Widget] = []
        for d in week:
            if d == 0:
                cells.append(_Painted("", height=dp(40)))
                continue
            day = date(year, month, d)
            cells.append(_DayCell(day, selected=day == selected, theme=theme, on_tap=functools.partial(on_pick, day)))
        body.append(Row(cells, height=dp(40)))
    buttons = [Button("Cancel", filled=False, on_tap=on_cancel), Button("OK", filled=False, on_tap=on_ok)]
    return UntitledDialog(buttons, body=body)


class _Checked(Text):
    """``CheckedTextView``: the AM and PM labels of the time header."""

    class_name = "android.widget.CheckedTextView"


class _Spinner(Text):
    """The text mode's AM/PM ``Spinner`` (a tap flips it)."""

    class_name = "android.widget.Spinner"


class RadialPicker(Widget):
    """``RadialTimePickerView``: the clock face. A tap picks the hour (1-12) or the minute (in
    steps of 5 as the face shows them, the nearest minute otherwise) at the touched angle."""

    def __init__(self, value: int, *, minutes: bool, on_pick: Callable[[int], None], theme: Theme = LIGHT) -> None:
        super().__init__(rid="android:id/radial_picker", height=dp(260), on_tap=lambda: None, background=(255, 255, 255))
        self.value = value
        self.minutes = minutes
        self.on_pick = on_pick
        self.theme = theme

    def render_key(self) -> Hashable:
        return (self.value, self.minutes, self.theme)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.value, self.minutes)

    def tap(self, phone: Phone, x: int, y: int, bounds: Bounds) -> bool:
        left, top, right, bottom = bounds
        cx, cy = (left + right) / 2, (top + bottom) / 2
        angle = (math.degrees(math.atan2(x - cx, cy - y)) + 360) % 360
        if self.minutes:
            self.on_pick(round(angle / 6) % 60)
        else:
            self.on_pick(round(angle / 30) % 12 or 12)
        return True

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        cx, cy = width / 2, height / 2
        r = min(width, height) / 2 - 4
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(238, 238, 238))
        f = font(max(1, round(sp(16) * scale)))
        labels = [f"{m:02d}" for m in range(0, 60, 5)] if self.minutes else [str(h or 12) for h in range(12)]
        current = self.value // 5 if self.minutes else self.value % 12
        for i, label in enumerate(labels):
            a = math.radians(i * 30)
            px, py = cx + 0.8 * r * math.sin(a), cy - 0.8 * r * math.cos(a)
            if i == current:
                s = 0.14 * r
                draw.line((cx, cy, px, py), fill=self.theme.primary, width=max(1, round(2 * scale)))
                draw.ellipse((px - s, py - s, px + s, py + s), fill=self.theme.primary)
            draw.text((px, py), label, font=f, fill=self.theme.on_primary if i == current else self.theme.on_surface, anchor="mm")


# --- the time picker's state, kept in the caller's route ----------------------------------------
# ``hour`` (0-23) and ``minute`` are what the dial shows; ``minutes`` whether the dial picks minutes;
# ``text_mode`` the text-input mode, whose fields hold ``p1`` (hour, 1-12) and ``p2`` (minute).


def typed_time(route: dict[str, object]) -> tuple[int, int] | None:
    """The hour and minute the text-input mode holds (what is typed, else what was shown);
    ``None`` for an entry the picker refuses (it keeps the dialog open)."""
    hour, minute = int(str(route["hour"])), int(str(route["minute"]))
    typed_hour, typed_minute = str(route.get("p1", "")).strip(), str(route.get("p2", "")).strip()
    if typed_hour:
        if not typed_hour.isdigit() or not 1 <= int(typed_hour) <= 12:
            return None
        hour = int(typed_hour) % 12 + (12 if hour >= 12 else 0)
    if typed_minute:
        if not typed_minute.isdigit() or not 0 <= int(typed_minute) <= 59:
            return None
        minute = int(typed_minute)
    return hour, minute


def picked_time(route: dict[str, object]) -> tuple[int, int] | None:
    """What OK takes: the typed time in text mode, else the dial's."""
    return typed_time(route) if route.get("text_mode") else (int(str(route["hour"])), int(str(route["minute"])))


def set_am_pm(route: dict[str, object], pm: bool) -> None:
    """AM or PM picked (in text mode what is typed is taken first)."""
    if route.get("text_mode"):
        picked = typed_time(route)
        if picked is not None:
            route.update(hour=picked[0], minute=picked[1], p1="", p2="")
    hour = int(str(route["hour"])) % 12
    route["hour"] = hour + 12 if pm else hour


def dial_time(route: dict[str, object], value: int) -> None:
    """A tap on the clock face: an hour (then the dial turns to minutes), or a minute."""
    if route.get("minutes"):
        route["minute"] = value
    else:
        route.update(hour=value % 12 + (12 if int(str(route["hour"])) >= 12 else 0), minutes=True)


def toggle_time_mode(route: dict[str, object]) -> bool:
    """The keyboard / clock toggle; True when text mode opened (the caller focuses its hour field)."""
    if route.get("text_mode"):
        picked = typed_time(route)
        if picked is not None:
            route.update(hour=picked[0], minute=picked[1])
        route.update(text_mode=False, p1="", p2="")
        return False
    route.update(text_mode=True, p1="", p2="")
    return True


def time_picker_dialog(
    hour: int,
    minute: int,
    *,
    is24: bool,
    text_mode: bool,
    selecting_minutes: bool,
    on_hours: Callable[[], None],
    on_minutes: Callable[[], None],
    on_dial: Callable[[int], None],
    on_am_pm: Callable[[bool], None],
    on_toggle: Callable[[], None],
    on_ok: Callable[[], None],
    on_cancel: Callable[[], None],
    input_fields: tuple[Widget, Widget] | None = None,
    theme: Theme = LIGHT,
) -> Dialog:
    """``TimePickerDialog``: in clock mode the header (hours, separator, minutes, AM / PM) over
    the clock face; in text mode "Type in time" with the hour and minute fields (the caller's
    ``input_fields``, ids ``android:id/input_hour`` / ``input_minute``) and the AM/PM spinner;
    the keyboard/clock toggle and Cancel / OK."""
    pm = hour >= 12
    shown_hour = f"{hour:02d}" if is24 else str(hour12(hour))
    body: list[Widget] = []
    if not text_mode:
        header: list[Widget] = [
            Text(
                shown_hour, size=sp(48), center=True, height=dp(96), rid="android:id/hours", selected=not selecting_minutes, on_tap=on_hours
            ),
            Text(":", size=sp(48), center=True, height=dp(96), rid="android:id/separator"),
            Text(
                f"{minute:02d}",
                size=sp(48),
                center=True,
                height=dp(96),
                rid="android:id/minutes",
                selected=selecting_minutes,
                on_tap=on_minutes,
            ),
        ]
        if not is24:
            header += [
                Text(
                    "AM",
                    size=sp(14),
                    center=True,
                    height=dp(96),
                    rid="android:id/am_label",
                    selected=not pm,
                    on_tap=lambda: on_am_pm(False),
                ),
                _Checked(
                    "PM", size=sp(14), center=True, height=dp(96), rid="android:id/pm_label", selected=pm, on_tap=lambda: on_am_pm(True)
                ),
            ]
        body.append(Row(header, height=dp(96), rid="android:id/time_header"))
        body.append(
            RadialPicker(
                minute if selecting_minutes else hour12(hour) if not is24 else hour, minutes=selecting_minutes, on_pick=on_dial, theme=theme
            )
        )
        toggle = MaterialIconButton(TO_TEXT_MODE, "keyboard", theme=theme, on_tap=on_toggle, rid="android:id/toggle_mode")
    else:
        body.append(Text("Type in time", size=sp(12), height=dp(40), color=theme.on_surface_variant, rid="android:id/top_label"))
        fields: list[Widget] = list(input_fields or ())
        row: list[Widget] = [*fields[:1], Text(":", size=sp(24), center=True, rid="android:id/input_separator"), *fields[1:]]
        if not is24:
            row.append(
                _Spinner("PM" if pm else "AM", size=sp(16), center=True, rid="android:id/am_pm_spinner", on_tap=lambda: on_am_pm(not pm))
            )
        body.append(Row(row, height=dp(72)))
        labels: list[Widget] = [
            Text("hour", size=sp(12), color=theme.on_surface_variant, rid="android:id/label_hour"),
            Text("minute", size=sp(12), color=theme.on_surface_variant, rid="android:id/label_minute"),
        ]
        body.append(Row(labels, height=dp(32)))
        toggle = MaterialIconButton(TO_CLOCK_MODE, "schedule", theme=theme, on_tap=on_toggle, rid="android:id/toggle_mode")
    body.append(Row([toggle, _Painted("", height=dp(48))], height=dp(48)))
    buttons = [Button("Cancel", filled=False, on_tap=on_cancel), Button("OK", filled=False, on_tap=on_ok)]
    return UntitledDialog(buttons, body=body)
