"""Tasks.org (org.tasks) as versionCode 130605 (tag 13.6.3) shows it: the task list with its
toolbar (the filter's title, Search), ``task_adapter_row`` rows, the bottom app bar (drawer
button, Voice input, Sort, More options) and its docked "Create new task" FAB; the overflow menu
with the checkable Show completed / Show unstarted (on by default); the drawer's built-in filters
(My Tasks, Today, Recently modified); the sort sheet; and the task editor.

Tasks live in ``content://org.tasks/tasks``: rows keyed by the columns of the app's ``tasks``
table in ``/data/data/org.tasks/databases/database`` (``title``, ``importance`` 0 high to 3
none, ``dueDate``, ``hideUntil``, ``completed``, ``created``, ``modified``, ``deleted`` in
milliseconds, 0 for unset; ``notes``; ...), which AndroidWorld seeds and reads with sqlite. A
task whose ``hideUntil`` is still ahead is *unstarted* ("hide until" its start date), and the
list leaves it out unless asked, as the app does; completed tasks likewise. The device's time
zone is UTC.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Hashable, Sequence
from datetime import date, datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import providers, render
from cerebellum_gym.sim.apps import permissions
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.databases import DATA_ROOT, AppDatabase, Table, declare, room_schema
from cerebellum_gym.sim.material import Theme, dp, sp
from cerebellum_gym.sim.material.bottom_app_bar import BottomAppBar, DockedFab, PopupMenuItem
from cerebellum_gym.sim.material.components import ActionMenuItem, Fab, MaterialIconButton, MaterialSwitch, OverflowButton, TopAppBar
from cerebellum_gym.sim.providers import TASKS_URI
from cerebellum_gym.sim.render import draw_icon, font, text_fit
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import (
    Button,
    Callback,
    Dialog,
    Text,
    Widget,
)

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

#: The app's colours (res/values/colors.xml at 13.6.3): blue_500 for the default theme colour,
#: md_background_light, black_87/60/38 text, error_color_material_light for overdue dates.
BLUE = (33, 150, 243)
SURFACE = (250, 250, 250)
PRIMARY_TEXT = (33, 33, 33)
SECONDARY = (102, 102, 102)
TERTIARY = (158, 158, 158)
#: The app's red_500 (AlarmRow's "Enable reminders").
RED_500 = (244, 67, 54)
OVERDUE = (244, 67, 54)
THEME = Theme(primary=BLUE, surface=SURFACE, on_surface=PRIMARY_TEXT, on_surface_variant=SECONDARY)
#: The bottom app bar's overflow menu (menu_task_list_fragment_bottom.xml, as setupMenu leaves it
#: for the built-in My Tasks filter): text, and whether the item is a checkable preference.
OVERFLOW = ("Clear Completed", "Collapse subtasks", "Expand subtasks", "Show completed", "Show unstarted", "Share")
#: Priority names and the colours of their check boxes (``importance`` 0..3), as the app shows them.
PRIORITIES = ("High", "Medium", "Low", "None")
PRIORITY_COLORS: tuple[render.RGB, ...] = ((219, 68, 55), (245, 124, 0), (66, 133, 244), (117, 117, 117))
FILTERS = ("My Tasks", "Today", "Recently modified")
#: SortSettingsActivity's sortOptions, in order (SSD_sort_* and sort_created); Smart sort is SORT_AUTO, the default.
SORTS = ("By due date", "By start date", "By priority", "By title", "By last modified", "Smart sort", "By creation time")
#: The ``tasks`` table's columns with the values a new task gets (AndroidWorld's ``Task`` row).
NEW_TASK: dict[str, str | None] = {
    "title": "",
    "importance": "3",
    "dueDate": "0",
    "hideUntil": "0",
    "created": "0",
    "modified": "0",
    "completed": "0",
    "deleted": "0",
    "notes": None,
    "estimatedSeconds": "0",
    "elapsedSeconds": "0",
    "timerStart": "0",
    "notificationFlags": "0",
    "lastNotified": "0",
    "recurrence": None,
    "repeat_from": "0",
    "calendarUri": None,
    "remoteId": "",
    "collapsed": "0",
    "parent": "0",
    "order": None,
    "read_only": "0",
}


def millis(row: dict[str, str], column: str) -> int:
    """A time column in milliseconds (0 when unset or unreadable)."""
    try:
        return int(float(row.get(column) or 0))
    except ValueError:
        return 0


def moment(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, timezone.utc)


def importance(row: dict[str, str]) -> int:
    try:
        value = int(float(row.get("importance") or 3))
    except ValueError:
        return 3
    return min(3, max(0, value))


def clock(when: datetime) -> str:
    """``5:00 PM``."""
    return when.strftime("%-I:%M %p")


def has_time(ms: int) -> bool:
    """``Task.hasDueTime``: the app marks a due time by a due date off a whole minute."""
    return ms > 0 and ms % 60000 > 0


def due_text(ms: int, today: date) -> str:
    """The row's ``due_date`` as ``DateUtilities.getRelativeDateTime`` (MEDIUM) writes it:
    within six days Today, Tmrw, Yest or the short weekday (``Fri``), with the time when the
    task has one (the time alone for today); else the medium date, ``Oct 17`` (the year kept
    when it is not this one: ``Oct 17, 2024``), and its time."""
    if not ms:
        return ""
    when = moment(ms)
    day = when.date()
    offset = (day - today).days
    timed = has_time(ms)
    if abs(offset) <= 6:
        if offset == 0:
            return clock(when) if timed else "Today"
        text = {1: "Tmrw", -1: "Yest"}.get(offset, f"{day:%a}")
        return f"{text} {clock(when)}" if timed else text
    text = f"{day:%b} {day.day}" + (f", {day.year}" if day.year != today.year else "")
    return f"{text}, {clock(when)}" if timed else text


def full_due_text(ms: int, today: date) -> str:
    """The editor's dates: ``getRelativeDateTime`` with FormatStyle.FULL: Today, Tomorrow,
    Yesterday or the weekday within six days, else ``Tuesday, October 24`` (the year kept in
    another year), then the time when there is one."""
    when = moment(ms)
    day = when.date()
    offset = (day - today).days
    if abs(offset) <= 6:
        text = {0: "Today", 1: "Tomorrow", -1: "Yesterday"}.get(offset, f"{day:%A}")
        if has_time(ms):
            return clock(when) if offset == 0 else f"{text} {clock(when)}"
        return text
    text = f"{day:%A}, {day:%B} {day.day}" + (f", {day.year}" if day.year != today.year else "")
    return f"{text} at {clock(when)}" if has_time(ms) else text


class TaskItem(Widget):
    """One task of the list as ``task_adapter_row.xml`` lays it out: the ``row`` frame and its
    clickable ``rowBody`` holding the ``completeBox`` (a check box drawn in the priority's colour,
    filled when done), the ``due_date`` at the end (laid out before the title), the ``title``
    (struck through when done) and the ``description``. A tap on the box completes the task or
    brings it back; elsewhere it opens the task."""

    class_name = "android.widget.FrameLayout"
    default_height = dp(56)
    BOX = dp(56)  # completeBox: a 24 dp box with keyline_first (16 dp) either side

    def __init__(
        self,
        title: str,
        *,
        priority: int,
        done: bool,
        due: str,
        overdue: bool,
        notes: str,
        start: str = "",
        on_toggle: Callback,
        on_open: Callback,
    ) -> None:
        height = dp(56) + (dp(28) if notes else 0) + (dp(40) if start else 0)
        super().__init__(text=title, on_tap=on_open, height=height)
        self.priority, self.done, self.due, self.overdue, self.notes = priority, done, due, overdue, notes
        self.start = start  # an unstarted task's start date chip (StartDateChip)
        self.on_toggle = on_toggle
        self.background = SURFACE

    def tap(self, phone: Phone, x: int, y: int, bounds: Bounds) -> bool:
        if x < bounds[0] + self.BOX and y < bounds[1] + dp(56):
            self.on_toggle()
            return True
        return super().tap(phone, x, y, bounds)

    def render_key(self) -> Hashable:
        return (self.text, self.priority, self.done, self.due, self.overdue, self.notes, self.start)

    def _due_width(self, draw: ImageDraw.ImageDraw | None, size: int) -> int:
        if not self.due:
            return 0
        length = draw.textlength(self.due, font=font(size)) if draw is not None else len(self.due) * size * 0.55
        return round(length) + 2 * dp(8)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        box = round(dp(20) * scale)
        x0, y0 = round(dp(18) * scale), round(dp(18) * scale)
        color = PRIORITY_COLORS[self.priority]
        radius = max(1, round(dp(2) * scale))
        if self.done:
            draw.rounded_rectangle((x0, y0, x0 + box, y0 + box), radius=radius, fill=color)
            draw_icon(draw, "check", (x0, y0, x0 + box, y0 + box), (255, 255, 255))
        else:
            draw.rounded_rectangle((x0, y0, x0 + box, y0 + box), radius=radius, outline=color, width=max(1, round(dp(2) * scale)))
        size, small = round(sp(18) * scale), round(sp(14) * scale)
        right = width - round(dp(8) * scale)
        if self.due:
            due_w = round(draw.textlength(self.due, font=font(small)))
            draw.text(
                (right - round(dp(8) * scale) - due_w, round(dp(28) * scale)),
                self.due,
                font=font(small),
                fill=OVERDUE if self.overdue else SECONDARY,
                anchor="lm",
            )
            right -= due_w + round(dp(16) * scale)
        left = round(self.BOX * scale)
        shown = text_fit(draw, self.text, size, max(1, right - left))
        fill = TERTIARY if self.done or self.start else PRIMARY_TEXT  # done or hidden: text_tertiary
        draw.text((left, round(dp(28) * scale)), shown, font=font(size), fill=fill, anchor="lm")
        if self.done:
            length = draw.textlength(shown, font=font(size))
            draw.line((left, round(dp(28) * scale), left + length, round(dp(28) * scale)), fill=fill, width=max(1, round(dp(1) * scale)))
        y = round(dp(56) * scale)
        if self.notes:
            note = text_fit(draw, self.notes.replace("\n", " "), size, max(1, width - left - round(dp(16) * scale)))
            draw.text((left, y + round(dp(2) * scale)), note, font=font(size), fill=SECONDARY, anchor="lm")
            y += round(dp(28) * scale)
        if self.start:
            small = round(sp(14) * scale)
            chip_w = round(draw.textlength(self.start, font=font(small))) + round(dp(44) * scale)
            top = y - round(dp(12) * scale)
            draw.rounded_rectangle(
                (left, top, left + chip_w, top + round(dp(32) * scale)),
                radius=round(dp(16) * scale),
                outline=(189, 189, 189),
                width=max(1, round(scale * 2)),
            )
            ic = round(dp(18) * scale)
            draw_icon(
                draw,
                "pending_actions",
                (
                    left + round(dp(8) * scale),
                    top + round(dp(7) * scale),
                    left + round(dp(8) * scale) + ic,
                    top + round(dp(7) * scale) + ic,
                ),
                SECONDARY,
            )
            draw.text(
                (left + round(dp(32) * scale), top + round(dp(16) * scale)), self.start, font=font(small), fill=SECONDARY, anchor="lm"
            )

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.priority, self.done, self.due, self.notes, self.start)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        left, top, right, _bottom = bounds
        row = UINode("android.widget.FrameLayout", bounds, resource_id=f"{package}:id/row", package=package)
        body = UINode(
            "android.widget.RelativeLayout",
            bounds,
            resource_id=f"{package}:id/rowBody",
            package=package,
            clickable=True,
            long_clickable=True,
            focusable=True,
        )
        text_left = left + self.BOX
        end = right - dp(8)
        children = [
            UINode(
                "android.widget.ImageView",
                (left, top, text_left, top + dp(56)),
                resource_id=f"{package}:id/completeBox",
                package=package,
                clickable=True,
                focusable=True,
            )
        ]
        if self.due:
            due_left = end - self._due_width(None, sp(14))
            children.append(
                UINode(
                    "android.widget.TextView",
                    (due_left, top + dp(18), end, top + dp(38)),
                    text=self.due,
                    resource_id=f"{package}:id/due_date",
                    package=package,
                    clickable=True,
                    focusable=True,
                )
            )
            end = due_left
        children.append(
            UINode(
                "android.widget.TextView",
                (text_left, top + dp(16), end, top + dp(40)),
                text=self.text,
                resource_id=f"{package}:id/title",
                package=package,
            )
        )
        y = top + dp(44)
        if self.notes:
            children.append(
                UINode(
                    "android.widget.TextView",
                    (text_left, y, right - dp(16), y + dp(28)),
                    text=self.notes,
                    resource_id=f"{package}:id/description",
                    package=package,
                )
            )
            y += dp(28)
        if self.start:
            chip = UINode(
                "android.view.View", (text_left, y, right - dp(16), y + dp(40)), resource_id=f"{package}:id/chip_group", package=package
            )
            chip.children = [
                UINode(
                    "android.widget.TextView",
                    (text_left + dp(32), y + dp(10), right - dp(16), y + dp(30)),
                    text=self.start,
                    package=package,
                    index=0,
                )
            ]
            children.append(chip)
        for i, child in enumerate(children):
            child.index = i
        body.children = children
        row.children = [body]
        return row


class FilterRow(Widget):
    """A drawer entry (``filter_adapter_row.xml``): the filter's name in a ``CheckedTextView``
    (checked for the list shown) and its task count in ``size``."""

    class_name = "android.widget.RelativeLayout"
    default_height = dp(48)

    def __init__(self, name: str, count: int, *, checked: bool, on_tap: Callback) -> None:
        super().__init__(on_tap=on_tap)
        self.name, self.count, self.checked = name, count, checked
        self.background = (227, 242, 253) if checked else SURFACE

    def render_key(self) -> Hashable:
        return (self.name, self.count, self.checked)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.name, self.count, self.checked)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(sp(14) * scale)
        color = BLUE if self.checked else PRIMARY_TEXT
        icon = round(dp(24) * scale)
        x0, y0 = round(dp(16) * scale), (height - icon) // 2
        draw_icon(
            draw,
            "inbox" if self.name == "My Tasks" else "today" if self.name == "Today" else "history",
            (x0, y0, x0 + icon, y0 + icon),
            color,
        )
        draw.text((round(dp(72) * scale), height / 2), self.name, font=font(size, "medium"), fill=color, anchor="lm")
        if self.count:
            draw.text((width - round(dp(16) * scale), height / 2), str(self.count), font=font(size), fill=SECONDARY, anchor="rm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.resource_id = f"{package}:id/row"
        left, top, right, bottom = bounds
        name = UINode(
            "android.widget.CheckedTextView",
            (left + dp(72), top, right - dp(56), bottom),
            text=self.name,
            resource_id=f"{package}:id/text",
            package=package,
            checkable=True,
            checked=self.checked,
        )
        count = UINode(
            "android.widget.TextView",
            (right - dp(56), top, right - dp(16), bottom),
            text=str(self.count),
            resource_id=f"{package}:id/size",
            package=package,
        )
        # filter_adapter_row.xml lays the count out first; it shows only when there is one.
        node.children = [count, name] if self.count else [name]
        for i, child in enumerate(node.children):
            child.index = i
        return node


class EditRow(Widget):
    """A row of the task editor (``TaskEditRow``: a 24 dp icon, then its content)."""

    class_name = "android.view.View"

    def __init__(
        self,
        icon: str,
        text: str,
        *,
        muted: bool = False,
        height: int | None = None,
        on_tap: Callback | None = None,
        tint: render.RGB | None = None,
    ) -> None:
        super().__init__(on_tap=on_tap or (lambda: None), height=height or dp(64))
        self.icon, self.label, self.muted, self.tint = icon, text, muted, tint
        self.background = SURFACE

    def render_key(self) -> Hashable:
        return (self.icon, self.label, self.muted, self.tint)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.label)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        icon = round(dp(24) * scale)
        x0, y0 = round(dp(16) * scale), round(dp(20) * scale)
        draw_icon(draw, self.icon, (x0, y0, x0 + icon, y0 + icon), SECONDARY)
        size = round(sp(16) * scale)
        y = round(dp(22) * scale)
        for line in self.label.split("\n"):
            draw.text(
                (round(dp(72) * scale), y),
                text_fit(draw, line, size, max(1, width - round(dp(88) * scale))),
                font=font(size),
                fill=self.tint or (TERTIARY if self.muted else PRIMARY_TEXT),
            )
            y += round(dp(20) * scale)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.text = ""
        left, top, right, _bottom = bounds
        lines = self.label.split("\n")
        node.children = [
            UINode(
                "android.widget.TextView",
                (left + dp(72), top + dp(20) + i * dp(20), right - dp(16), top + dp(40) + i * dp(20)),
                text=line,
                package=package,
                index=i,
            )
            for i, line in enumerate(lines)
        ]
        return node


class PriorityChooser(Widget):
    """PriorityRow: the label "Priority" and four radio buttons, None to High, in the priorities'
    colours (no descriptions)."""

    class_name = "android.view.View"
    default_height = dp(64)

    def __init__(self, selected: int, *, on_choose: Callable[[int], None]) -> None:
        super().__init__()
        self.chosen, self.on_choose = selected, on_choose
        self.background = SURFACE

    def render_key(self) -> Hashable:
        return (self.chosen,)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.chosen)

    def _slots(self, bounds: Bounds) -> list[tuple[int, Bounds]]:
        _left, top, right, bottom = bounds
        x = right - dp(16) - 4 * dp(48)
        return [(3 - i, (x + i * dp(48), top + dp(8), x + (i + 1) * dp(48), bottom - dp(8))) for i in range(4)]

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, _right, bottom = bounds
        placed: list[tuple[Widget, Bounds]] = [(_PriorityLabel(), (left + dp(72), top + dp(20), left + dp(160), bottom - dp(20)))]
        for value, box in self._slots(bounds):
            placed.append((_Radio(value, value == self.chosen, functools.partial(self.on_choose, value)), box))
        return placed

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        icon = round(dp(24) * scale)
        x0, y0 = round(dp(16) * scale), round(dp(20) * scale)
        draw_icon(draw, "flag", (x0, y0, x0 + icon, y0 + icon), SECONDARY)
        draw.text((round(dp(72) * scale), height / 2), "Priority", font=font(round(sp(16) * scale)), fill=PRIMARY_TEXT, anchor="lm")
        for value, (x0, t, x1, b) in self._slots((0, 0, round(width / scale), round(height / scale))):
            cx, cy, rad = (x0 + x1) / 2 * scale, (t + b) / 2 * scale, dp(10) * scale
            color = PRIORITY_COLORS[value]
            draw.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), outline=color, width=max(1, round(dp(2) * scale)))
            if value == self.chosen:
                inner = rad * 0.5
                draw.ellipse((cx - inner, cy - inner, cx + inner, cy + inner), fill=color)


class _PriorityLabel(Widget):
    class_name = "android.widget.TextView"
    opaque = False

    def __init__(self) -> None:
        super().__init__(text="Priority")


class _Radio(Widget):
    """One of PriorityRow's radio buttons (painted by the row)."""

    class_name = "android.widget.RadioButton"
    opaque = False

    def __init__(self, value: int, checked: bool, on_tap: Callback) -> None:
        super().__init__(on_tap=on_tap)
        self.value, self.checked = value, checked

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.value, self.checked)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.checkable, node.checked = True, self.checked
        return node


class SortRow(Widget):
    """A row of the sort sheet (SortRow): its title over the chosen mode."""

    class_name = "android.view.View"
    default_height = dp(72)

    def __init__(self, title: str, mode: str, *, on_tap: Callback | None = None) -> None:
        super().__init__(on_tap=on_tap)
        self.title, self.mode = title, mode
        self.background = SURFACE

    def render_key(self) -> Hashable:
        return (self.title, self.mode)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title, self.mode)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        icon = round(dp(24) * scale)
        x0, y0 = round(dp(16) * scale), (height - icon) // 2
        draw_icon(draw, "swap_vert", (x0, y0, x0 + icon, y0 + icon), SECONDARY)
        left = round(dp(72) * scale)
        draw.text((left, round(dp(16) * scale)), self.title, font=font(round(sp(16) * scale)), fill=PRIMARY_TEXT)
        draw.text((left, round(dp(40) * scale)), self.mode, font=font(round(sp(14) * scale)), fill=SECONDARY)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, _bottom = bounds
        node.children = [
            UINode(
                "android.widget.TextView",
                (left + dp(72), top + dp(14), right - dp(16), top + dp(38)),
                text=self.title,
                package=package,
                index=0,
            ),
            UINode(
                "android.widget.TextView",
                (left + dp(72), top + dp(38), right - dp(16), top + dp(58)),
                text=self.mode,
                package=package,
                index=1,
            ),
        ]
        return node


class RadioRow(Widget):
    """A choice of the sort picker: a radio button and the mode's name."""

    class_name = "android.view.View"
    default_height = dp(48)

    def __init__(self, text: str, checked: bool, *, on_tap: Callback) -> None:
        super().__init__(on_tap=on_tap)
        self.label, self.checked = text, checked
        self.background = SURFACE

    def render_key(self) -> Hashable:
        return (self.label, self.checked)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.label, self.checked)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        cx, cy, rad = dp(28) * scale, height / 2, dp(10) * scale
        color = BLUE if self.checked else SECONDARY
        draw.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), outline=color, width=max(1, round(dp(2) * scale)))
        if self.checked:
            draw.ellipse((cx - rad / 2, cy - rad / 2, cx + rad / 2, cy + rad / 2), fill=color)
        draw.text((round(dp(56) * scale), height / 2), self.label, font=font(round(sp(16) * scale)), fill=PRIMARY_TEXT, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        node.children = [
            UINode(
                "android.widget.RadioButton",
                (left + dp(4), top, left + dp(52), bottom),
                package=package,
                checkable=True,
                checked=self.checked,
                index=0,
            ),
            UINode(
                "android.widget.TextView",
                (left + dp(56), top + dp(12), right - dp(16), bottom - dp(12)),
                text=self.label,
                package=package,
                index=1,
            ),
        ]
        return node


class SearchToolbar(Widget):
    """The toolbar with its SearchView expanded: the Collapse button, the query field
    (``search_src_text``) and, once there is text, Clear query."""

    class_name = "android.view.ViewGroup"

    def __init__(self, navigation: Widget, field: Widget, actions: list[Widget], **kwargs: object) -> None:
        super().__init__(height=dp(56), **kwargs)  # type: ignore[arg-type]
        self.navigation, self.field, self.actions = navigation, field, actions
        self.background = SURFACE

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), len(self.actions))

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        mid, half = (top + bottom) // 2, dp(24)
        placed: list[tuple[Widget, Bounds]] = [(self.navigation, (left + dp(4), mid - half, left + dp(52), mid + half))]
        x = right - dp(4) - dp(48) * len(self.actions)
        placed.append((self.field, (left + dp(56), mid - dp(22), x, mid + dp(22))))
        for action in self.actions:
            placed.append((action, (x, mid - half, x + dp(48), mid + half)))
            x += dp(48)
        return placed


@register_app
class TasksApp(App):
    package: ClassVar[str] = "org.tasks"
    activity: ClassVar[str] = "com.todoroo.astrid.activity.MainActivity"
    label: ClassVar[str] = "Tasks"
    color: ClassVar[tuple[int, int, int]] = (33, 150, 243)
    clock_dependent: ClassVar[bool] = False

    def initial_data(self) -> dict[str, Any]:
        # Preferences.kt's defaults: completed and unstarted ("hidden") tasks shown.
        return {"filter": "My Tasks", "show_completed": True, "show_unstarted": True, "sort": "Smart sort", "completed_at_bottom": True}

    # --- rows ----------------------------------------------------------------------------------

    def _table(self) -> list[dict[str, str]]:
        return self.phone.content_query(TASKS_URI)

    def _row(self, task_id: str) -> dict[str, str] | None:
        rows = self.phone.content_query(TASKS_URI, where={"_id": task_id})
        return rows[0] if rows else None

    def _update(self, task_id: str, values: dict[str, str]) -> None:
        """Change a task in place (its id stays), stamping ``modified``."""
        table = self.phone.state.content.setdefault(providers.resolve(TASKS_URI)[0], [])
        for row in table:
            if row.get("_id") == task_id:
                row.update(values)
                row["modified"] = str(self._now_ms())
        self.phone.invalidate()

    def _now_ms(self) -> int:
        return int(self.phone.state.clock * 1000)

    def ordered(self) -> list[dict[str, str]]:
        """The shown filter's tasks in the chosen order."""
        data = self.data
        now = self._now_ms()
        today_end = int(datetime.combine(self.phone.now().date() + timedelta(days=1), datetime.min.time(), timezone.utc).timestamp() * 1000)
        rows = [r for r in self._table() if not millis(r, "deleted")]
        kind = data.get("filter", "My Tasks")
        route = self.route if self.stack else {}
        typed = str(route.get("search_text", "")).strip() if route.get("search_open") else ""
        query = typed or (str(data.get("search", "")) if kind.startswith("Matching") else "")
        if query:
            # SearchFilter: the title or the notes hold the query (LIKE, case-insensitive).
            needle = query.lower()
            rows = [r for r in rows if needle in (r.get("title") or "").lower() or needle in (r.get("notes") or "").lower()]
        if kind == "Today":
            rows = [r for r in rows if 0 < millis(r, "dueDate") < today_end and not millis(r, "completed")]
        if kind != "Recently modified" and not data.get("show_unstarted"):
            rows = [r for r in rows if millis(r, "hideUntil") <= now]
        if not data.get("show_completed") and kind != "Recently modified":
            rows = [r for r in rows if not millis(r, "completed")]
        order = data.get("sort", "Smart sort") if kind != "Recently modified" else "By last modified"

        def key(r: dict[str, str]) -> tuple[Any, ...]:
            due = millis(r, "dueDate") or 2**62
            if order == "By priority":
                return (importance(r), due, r.get("title", ""))
            if order == "By start date":
                return (millis(r, "hideUntil"), due, r.get("title", ""))
            if order == "By title":
                return (r.get("title", "").lower(), due)
            if order == "By last modified":
                return (-millis(r, "modified"), r.get("title", ""))
            if order == "By creation time":
                return (-millis(r, "created"), r.get("title", ""))
            return (due, importance(r), r.get("title", ""))  # Smart sort, approximated by due date then priority

        rows.sort(key=key)
        return rows

    def visible(self) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
        """The shown filter's open and completed tasks, each in the chosen order."""
        rows = self.ordered()
        return [r for r in rows if not millis(r, "completed")], [r for r in rows if millis(r, "completed")]

    # --- the list ---------------------------------------------------------------------------------

    def _item(self, row: dict[str, str], today: date, now: int) -> TaskItem:
        due = millis(row, "dueDate")
        done = bool(millis(row, "completed"))
        task_id = row["_id"]
        return TaskItem(
            row.get("title", ""),
            priority=importance(row),
            done=done,
            due=due_text(due, today),
            overdue=bool(due) and due < now and not done,
            notes=row.get("notes") or "",
            start=due_text(millis(row, "hideUntil"), today) if millis(row, "hideUntil") > now and not done else "",
            on_toggle=lambda: self._toggle(task_id),
            on_open=lambda: self._open(task_id),
        )

    def _toggle(self, task_id: str) -> None:
        row = self._row(task_id)
        if row is not None:
            self._update(task_id, {"completed": "0" if millis(row, "completed") else str(self._now_ms())})

    def screen_main(self, route: Route) -> ScreenSpec:
        today, now = self.phone.now().date(), self._now_ms()
        open_rows, done = self.visible()
        # Completed tasks go to the bottom (completedTasksAtBottom); no section headers (GROUP_NONE).
        shown = open_rows + done if self.data.get("completed_at_bottom", True) else self.ordered()
        body: list[Widget] = [self._item(r, today, now) for r in shown]
        if not body:
            body.append(Text("There are no tasks here.", size=sp(20), center=True, height=dp(200), color=TERTIARY))
        bar: Widget = TopAppBar(
            self.data.get("filter", "My Tasks"),
            actions=[ActionMenuItem("Search", "search", theme=THEME, on_tap=self._open_search, rid=f"{self.package}:id/menu_search")],
            theme=THEME,
            rid=f"{self.package}:id/toolbar",
        )
        if route.get("search_open"):
            bar = self._search_bar(route)
        white = Theme(primary=BLUE, surface=BLUE, on_surface=(255, 255, 255))
        bottom = BottomAppBar(
            navigation=MaterialIconButton("", "menu", theme=white, on_tap=lambda: self.push("filters")),
            actions=[
                ActionMenuItem("Voice input", "mic_none", theme=white, on_tap=lambda: None, rid=f"{self.package}:id/menu_voice_add"),
                ActionMenuItem("Sort", "sort", theme=white, on_tap=lambda: self.set_dialog("sort"), rid=f"{self.package}:id/menu_sort"),
                OverflowButton(on_tap=lambda: self.set_dialog("menu"), theme=white),
            ],
            fab=DockedFab(
                "Create new task", "add", bar=BLUE, theme=THEME, background=SURFACE, on_tap=self._new_task, rid=f"{self.package}:id/fab"
            ),
            color=BLUE,
            rid=f"{self.package}:id/bottomAppBar",
        )
        kind = route.get("dialog")
        dialog = self._menu() if kind == "menu" else self._sort_dialog() if kind == "sort" else None
        if kind == "sort_pick":
            dialog = self._sort_picker()
        if kind == "clear":
            dialog = Dialog(
                "",
                [
                    Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)),
                    Button("OK", filled=False, on_tap=self._clear_completed),
                ],
                message="Clear completed tasks?",
            )
        return ScreenSpec(title=None, app_bar=bar, body=body, bottom=[bottom], dialog=dialog, background=SURFACE, list_id="recycler_view")

    def _flip(self, name: str) -> None:
        self.data[name] = not self.data.get(name)

    def _menu_choice(self, item: str) -> None:
        """A tap on an overflow item closes the menu; the two checkable ones flip their preference."""
        self.set_dialog(None)
        if item in ("Show completed", "Show unstarted"):
            self._flip("show_completed" if item == "Show completed" else "show_unstarted")
        elif item == "Clear Completed":
            self.set_dialog("clear")

    def _menu(self) -> Dialog:
        checks = {"Show completed": bool(self.data.get("show_completed")), "Show unstarted": bool(self.data.get("show_unstarted"))}
        body: list[Widget] = [
            PopupMenuItem(item, checked=checks.get(item), theme=THEME, on_tap=functools.partial(self._menu_choice, item))
            for item in OVERFLOW
        ]
        return Dialog("", [], body=body)

    def _sort_dialog(self) -> Dialog:
        """SortSettingsActivity's sheet: Grouping, Sorting, Subtasks, the completed-at-bottom switch
        and the completed tasks' order (the preferences' defaults: no grouping, Smart sort, My
        order, at the bottom by completion time). Sorting opens its picker."""
        at_bottom = bool(self.data.get("completed_at_bottom", True))

        def flip_bottom() -> None:
            self.data["completed_at_bottom"] = not at_bottom

        body: list[Widget] = [
            SortRow("Grouping", "None"),
            SortRow("Sorting", str(self.data.get("sort", "Smart sort")), on_tap=lambda: self.set_dialog("sort_pick")),
            SortRow("Subtasks", "My order"),
            MaterialSwitch("Move completed tasks to bottom", at_bottom, on_toggle=flip_bottom, theme=THEME),
        ]
        if at_bottom:
            body.append(SortRow("Completed", "By completion time"))
        return Dialog("", [], body=body)

    def _sort_picker(self) -> Dialog:
        def choose(sort: str) -> None:
            self.data["sort"] = sort
            self.set_dialog("sort")

        current = self.data.get("sort", "Smart sort")
        return Dialog("", [], body=[RadioRow(s, s == current, on_tap=functools.partial(choose, s)) for s in SORTS])

    def _clear_completed(self) -> None:
        _open, done = self.visible()
        stamp = str(self._now_ms())
        for row in done:
            self._update(row["_id"], {"deleted": stamp})
        self.set_dialog(None)

    def _count(self, name: str) -> int:
        """The number the drawer shows beside a filter (its open tasks)."""
        saved = self.data.get("filter")
        self.data["filter"] = name
        try:
            open_rows, _done = self.visible()
        finally:
            self.data["filter"] = saved
        return len(open_rows)

    def screen_filters(self, route: Route) -> ScreenSpec:
        """The navigation drawer (NavigationDrawerFragment's ``recycler_view``): the built-in
        filters, each a ``filter_adapter_row`` with its name and count."""

        def choose(name: str) -> None:
            self.data["filter"] = name
            self.pop()

        current = self.data.get("filter", "My Tasks")
        body: list[Widget] = [FilterRow(f, self._count(f), checked=f == current, on_tap=functools.partial(choose, f)) for f in FILTERS]
        return ScreenSpec(title=None, body=body, background=SURFACE, list_id="recycler_view")

    # --- one task -----------------------------------------------------------------------------------

    def _open(self, task_id: str) -> None:
        row = self._row(task_id)
        if row is not None:
            self.push("task", task_id=task_id, title=row.get("title", ""), notes=row.get("notes") or "", priority=importance(row))

    def _new_task(self) -> None:
        self.push("task", task_id=None, title="", notes="", priority=3)
        self.phone.focus(field_key(self, self.route, "title"))

    def _save(self, route: Route) -> None:
        """Keep the page's edits (the app saves when the page closes); a new task needs a title."""
        title = str(route.get("title", "")).strip()
        notes = str(route.get("notes", "")).strip()
        if route["task_id"] is None:
            if title:
                now = str(self._now_ms())
                values = {k: v for k, v in NEW_TASK.items() if v is not None}
                values.update(title=title, importance=str(route["priority"]), created=now, modified=now, remoteId=str(uuid.uuid4().int))
                if notes:
                    values["notes"] = notes
                self.phone.content_insert(TASKS_URI, values)
            return
        row = self._row(route["task_id"])
        if row is None:
            return
        changed = {"title": title or row.get("title", ""), "importance": str(route["priority"])}
        if notes or row.get("notes"):
            changed["notes"] = notes
        if any(row.get(k, "") != v for k, v in changed.items()):
            self._update(route["task_id"], changed)

    # --- search (the toolbar's collapsible SearchView) -----------------------------------------

    def _open_search(self) -> None:
        """onMenuItemActionExpand: the SearchView opens empty (the list shows My Tasks)."""
        route = self.route
        route.update(search_open=True, search_text="")
        self.phone.focus(field_key(self, route, "search_text"))

    def _close_search(self) -> None:
        self.route.update(search_open=False, search_text="")
        self.phone.focus(None)

    def _submit_search(self) -> None:
        """onQueryTextSubmit: open the search filter, "Matching 'query'", and collapse the view."""
        query = str(self.route.get("search_text", "")).strip()
        self._close_search()
        if query:
            self.data["previous_filter"] = self.data.get("filter", "My Tasks")
            self.data.update(filter=f"Matching '{query}'", search=query)

    def _search_bar(self, route: Route) -> Widget:
        pid = f"{self.package}:id/"
        field = edit_field(self, route, "search_text", hint="Search…", rid=pid + "search_src_text")
        field.on_submit = self._submit_search
        actions: list[Widget] = []
        if route.get("search_text"):
            actions.append(
                MaterialIconButton(
                    "Clear query", "close", theme=THEME, on_tap=lambda: route.update(search_text=""), rid=pid + "search_close_btn"
                )
            )
        return SearchToolbar(
            MaterialIconButton("Collapse", "arrow_back", theme=THEME, on_tap=self._close_search), field, actions, rid=pid + "toolbar"
        )

    def back(self) -> bool:
        route = self.route
        if route["screen"] == "main" and not route.get("dialog"):
            if route.get("search_open"):
                self._close_search()
                return True
            if str(self.data.get("filter", "")).startswith("Matching"):
                # The search opened as a list of its own: back returns to the one before.
                self.data["filter"] = self.data.pop("previous_filter", "My Tasks")
                self.data.pop("search", None)
                return True
        if route["screen"] == "task" and not route.get("dialog"):
            self._save(route)
        return super().back()

    def _close(self, route: Route) -> None:
        self._save(route)
        self.pop()

    def _delete(self, route: Route) -> None:
        self._update(route["task_id"], {"deleted": str(self._now_ms())})
        self.pop()

    def _discard(self) -> None:
        self.set_dialog(None)
        self.pop()  # leaves without saving

    def _edit_menu(self, route: Route, item: str) -> None:
        if item == "Discard changes":
            self._discard()
        else:
            self.set_dialog("delete")

    def _toggle_open(self, route: Route) -> None:
        if route["task_id"] is not None:
            self._toggle(route["task_id"])

    def _reminders_row(self) -> Widget:
        """AlarmRow: "Add reminder" once the app may notify; until then (AndroidWorld's set-up
        grants Tasks no POST_NOTIFICATIONS) "Enable reminders" in red, which asks for it."""
        if permissions.granted(self.phone, self.package, permissions.POST_NOTIFICATIONS):
            return EditRow("notifications", "Add reminder", muted=True)
        return EditRow(
            "notifications",
            "Enable reminders\nReminders are disabled in Android Settings",
            tint=RED_500,
            height=dp(84),
            on_tap=lambda: permissions.request(self.phone, self.package, permissions.POST_NOTIFICATIONS),
        )

    def screen_task(self, route: Route) -> ScreenSpec:
        """The task editor (fragment_task_edit.xml): the title in the collapsing app bar, then the
        rows TaskEditFragment composes in the default order of ``TEA_control_sets_prefs`` (start
        date, due date, repeat, priority, location, tags, subtasks, reminders, files, description,
        calendar, timer, created/modified), the FAB that completes the task, and the overflow's
        Discard changes and Delete task."""
        row = self._row(route["task_id"]) if route["task_id"] is not None else {k: v for k, v in NEW_TASK.items() if v is not None}
        if row is None:
            return ScreenSpec(title=None, body=[Text("Task not found", size=44)], background=SURFACE)
        today = self.phone.now().date()
        due, start = millis(row, "dueDate"), millis(row, "hideUntil")
        pid = f"{self.package}:id/"

        def set_priority(value: int) -> None:
            route["priority"] = value

        info: list[str] = []
        for column, label in (("completed", "Completed"), ("created", "Created"), ("modified", "Modified")):
            if millis(row, column):
                info.append(f"{label} {moment(millis(row, column)):%Y-%m-%d %H:%M}")
        body: list[Widget] = [
            edit_field(self, route, "title", hint="Task name", rid=pid + "title"),
            EditRow("event_available", full_due_text(start, today) if start else "No start date", muted=not start),
            EditRow("schedule", full_due_text(due, today) if due else "No due date", muted=not due),
            EditRow("repeat", "Does not repeat", muted=True),
            PriorityChooser(int(route["priority"]), on_choose=set_priority),
            EditRow("place", "Add location", muted=True),
            EditRow("label", "Add tags", muted=True),
            EditRow("subdirectory_arrow_right", "Add subtask", muted=True),
            self._reminders_row(),
            EditRow("attachment", "Add attachment", muted=True),
            edit_field(self, route, "notes", hint="Description", area=True, height=dp(120)),
            EditRow("event", "Don't add to calendar", muted=True),
            EditRow("timer", "Timer", muted=True),
        ]
        if info:
            body.append(EditRow("info", "\n".join(info), muted=True, height=dp(24) + dp(20) * len(info)))
        kind = route.get("dialog")
        dialog = None
        if kind == "menu":
            dialog = Dialog(
                "",
                [],
                body=[
                    PopupMenuItem(item, theme=THEME, on_tap=functools.partial(self._edit_menu, route, item))
                    for item in (("Discard changes", "Delete task") if route["task_id"] is not None else ("Discard changes",))
                ],
            )
        elif kind == "delete" and route["task_id"] is not None:
            dialog = Dialog(
                "",
                [
                    Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)),
                    Button("OK", filled=False, on_tap=lambda: self._delete(route)),
                ],
                message="Delete this task?",
            )
        bar = TopAppBar(
            "",
            navigation=MaterialIconButton("Save", "save", theme=THEME, on_tap=lambda: self._close(route)),
            actions=[OverflowButton(on_tap=lambda: self.set_dialog("menu"), theme=THEME)],
            theme=THEME,
            rid=pid + "toolbar",
        )
        done = bool(millis(row, "completed"))
        fab = Fab(
            "", "check_box" if done else "check_box_outline_blank", theme=THEME, on_tap=lambda: self._toggle_open(route), rid=pid + "fab"
        )
        return ScreenSpec(
            title=None,
            app_bar=bar,
            body=body,
            fab=fab,
            dialog=dialog,
            background=SURFACE,
            list_id="compose_view",
            list_class="android.widget.ScrollView",
        )


#: The provider table the app's tasks live in.
TASKS_ORG_TASKS: Final = "tasksorg_tasks"

# --- the app's database: database (Room) --------------------------------------------------------------------

TASKS_DB: Final = declare(
    AppDatabase(
        path=f"{DATA_ROOT}/org.tasks/databases/database",
        schema=room_schema(
            "a4e2c9d1b7f34e0c8d6a5b3f1e9c7d20",
            "CREATE TABLE `tasks` (`_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `title` TEXT, "
            "`importance` INTEGER NOT NULL, `dueDate` INTEGER NOT NULL, `hideUntil` INTEGER NOT NULL, "
            "`created` INTEGER NOT NULL, `modified` INTEGER NOT NULL, `completed` INTEGER NOT NULL, "
            "`deleted` INTEGER NOT NULL, `notes` TEXT, `estimatedSeconds` INTEGER NOT NULL, "
            "`elapsedSeconds` INTEGER NOT NULL, `timerStart` INTEGER NOT NULL, `notificationFlags` INTEGER NOT NULL, "
            "`lastNotified` INTEGER NOT NULL, `recurrence` TEXT, `repeat_from` INTEGER NOT NULL DEFAULT 0, "
            "`calendarUri` TEXT, `remoteId` TEXT, `collapsed` INTEGER NOT NULL, `parent` INTEGER NOT NULL, "
            "`order` INTEGER, `read_only` INTEGER NOT NULL DEFAULT 0)",
            "CREATE INDEX `t_rid` ON `tasks` (`remoteId`)",
            "CREATE INDEX `active_and_visible` ON `tasks` (`completed`, `deleted`, `hideUntil`)",
            "CREATE TABLE `tagdata` (`_id` INTEGER PRIMARY KEY AUTOINCREMENT, `remoteId` TEXT, `name` TEXT, "
            "`color` INTEGER, `tagOrdering` TEXT, `td_icon` INTEGER, `td_order` INTEGER NOT NULL)",
            "CREATE TABLE `tags` (`_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `task` INTEGER NOT NULL, "
            "`name` TEXT, `tag_uid` TEXT, `task_uid` TEXT, FOREIGN KEY(`task`) REFERENCES `tasks`(`_id`) "
            "ON UPDATE NO ACTION ON DELETE CASCADE)",
            "CREATE INDEX `tag_task` ON `tags` (`task`)",
            "CREATE TABLE `alarms` (`_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `task` INTEGER NOT NULL, "
            "`time` INTEGER NOT NULL, `type` INTEGER NOT NULL DEFAULT 0, `repeat` INTEGER NOT NULL DEFAULT 0, "
            "`interval` INTEGER NOT NULL DEFAULT 0, FOREIGN KEY(`task`) REFERENCES `tasks`(`_id`) "
            "ON UPDATE NO ACTION ON DELETE CASCADE)",
            "CREATE TABLE `filters` (`_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `title` TEXT, `sql` TEXT, "
            "`values` TEXT, `criterion` TEXT, `f_color` INTEGER, `f_icon` INTEGER, `f_order` INTEGER NOT NULL)",
            "CREATE TABLE `caldav_lists` (`cdl_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `cdl_account` TEXT, "
            "`cdl_uuid` TEXT, `cdl_name` TEXT, `cdl_color` INTEGER NOT NULL, `cdl_ctag` TEXT, `cdl_url` TEXT, "
            "`cdl_icon` INTEGER, `cdl_order` INTEGER NOT NULL, `cdl_access` INTEGER NOT NULL DEFAULT 0, "
            "`cdl_last_sync` INTEGER NOT NULL DEFAULT 0)",
            "INSERT INTO caldav_lists VALUES (1, 'local', 'default', 'My Tasks', 0, NULL, NULL, NULL, -1, 0, 0)",
        ),
        tables=(
            Table(
                "tasks",
                TASKS_ORG_TASKS,
                # A new task has no priority (Tasks.org's NONE is 3) and a fresh remote id.
                defaults={"title": "", "importance": 3, "remoteId": ""},
            ),
        ),
    )
)
