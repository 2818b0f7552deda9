"""Tasks.org (org.tasks): a task list with due dates and priorities, the filters the real app
has (My Tasks, Today, Recently modified; show completed, show unstarted, sort), and a task page
to read and edit a task.

Tasks live in ``content://org.tasks/tasks``: rows keyed by the columns of the app's ``tasks``
table in ``/data/data/org.tasks/databases/database`` (``title``, ``importance`` 0 high to 3
none, ``dueDate``, ``hideUntil``, ``completed``, ``created``, ``modified``, ``deleted`` in
milliseconds, 0 for unset; ``notes``; ...), which AndroidWorld seeds and reads with sqlite. A
task whose ``hideUntil`` is still ahead is *unstarted* ("hide until" its start date), and the
list leaves it out unless asked, as the app does; completed tasks likewise. The device's time
zone is UTC.
"""

from __future__ import annotations

import uuid
from collections.abc import Hashable
from datetime import date, datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, ClassVar

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import providers, render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import confirm_dialog, edit_field, field_key
from cerebellum_gym.sim.providers import TASKS_URI
from cerebellum_gym.sim.render import font, text_fit
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import (
    BODY_SIZE,
    PAD,
    SECONDARY_SIZE,
    Button,
    Callback,
    Dialog,
    IconButton,
    ListItem,
    Row,
    Switch,
    Text,
    Widget,
)

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

RED = (219, 68, 55)
#: Priority names and the colours of their check boxes (``importance`` 0..3), as the app shows them.
PRIORITIES = ("High", "Medium", "Low", "None")
PRIORITY_COLORS: tuple[render.RGB, ...] = ((219, 68, 55), (245, 124, 0), (66, 133, 244), (117, 117, 117))
FILTERS = ("My Tasks", "Today", "Recently modified")
SORTS = ("Due date", "Priority", "Start date", "Title", "Modified")
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


def due_text(ms: int, today: date) -> str:
    """The due date as the list's chip shows it (the app's relative day): Today, Tomorrow or
    Yesterday, the weekday within six days (``Fri``), else ``Oct 17`` (with the year when it is
    not this one); then the time when the task has one."""
    if not ms:
        return ""
    when = moment(ms)
    day = when.date()
    offset = (day - today).days
    text = {0: "Today", 1: "Tomorrow", -1: "Yesterday"}.get(offset, "")
    if not text:
        near = abs(offset) <= 6
        text = f"{day:%a}" if near else f"{day:%b} {day.day}" + (f", {day.year}" if day.year != today.year else "")
    if (when.hour, when.minute) != (0, 0):
        text += f", {clock(when)}"
    return text


def full_date(ms: int) -> str:
    """``Tuesday, October 17, 2023 5:00 PM`` (the time only when set)."""
    when = moment(ms)
    text = f"{when:%A}, {when:%B} {when.day}, {when.year}"
    return text + (f" {clock(when)}" if (when.hour, when.minute) != (0, 0) else "")


class TaskItem(Widget):
    """One task of the list: a check box ringed in its priority's colour, the title (struck
    through when done), the due date chip and the description. A tap on the box completes the
    task or brings it back; elsewhere it opens the task."""

    class_name = "android.view.ViewGroup"
    default_height = 231
    BOX = 160  # width of the check box's touch area

    def __init__(
        self,
        title: str,
        *,
        priority: int,
        done: bool,
        due: str,
        overdue: bool,
        start: str,
        notes: str,
        on_toggle: Callback,
        on_open: Callback,
    ) -> None:
        super().__init__(text=title, on_tap=on_open)
        self.priority, self.done, self.due, self.overdue, self.start, self.notes = priority, done, due, overdue, start, notes
        self.on_toggle = on_toggle

    def tap(self, phone: Phone, x: int, y: int, bounds: Bounds) -> bool:
        if x < bounds[0] + self.BOX:
            self.on_toggle()
            return True
        return super().tap(phone, x, y, bounds)

    def _detail(self) -> str:
        parts = [self.due] if self.due else []
        if self.start:
            parts.append(f"Starts {self.start}")
        return "  ·  ".join(parts)

    def render_key(self) -> Hashable:
        return (self.text, self.priority, self.done, self.due, self.overdue, self.start, self.notes)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        pad = round(PAD * scale)
        d = round(64 * scale)
        top = round(40 * scale)
        color = PRIORITY_COLORS[self.priority]
        draw.ellipse((pad, top, pad + d, top + d), outline=color, width=max(1, round(6 * scale)), fill=color if self.done else None)
        left = round(self.BOX * scale)
        max_w = width - left - pad
        size, small = round(BODY_SIZE * scale), round(SECONDARY_SIZE * scale)
        shown = text_fit(draw, self.text, size, max_w)
        draw.text((left, top), shown, font=font(size), fill=render.TEXT_SECONDARY if self.done else render.TEXT)
        if self.done:
            length = draw.textlength(shown, font=font(size))
            draw.line((left, top + size * 0.6, left + length, top + size * 0.6), fill=render.TEXT_SECONDARY, width=max(1, round(3 * scale)))
        y = top + size + round(14 * scale)
        detail = self._detail()
        if detail:
            fill = RED if self.overdue else render.TEXT_SECONDARY
            draw.text((left, y), text_fit(draw, detail, small, max_w), font=font(small), fill=fill)
            y += small + round(12 * scale)
        if self.notes:
            draw.text((left, y), text_fit(draw, self.notes.replace("\n", " "), small, max_w), font=font(small), fill=render.TEXT_SECONDARY)
        draw.line((left, height - 1, width, height - 1), fill=render.DIVIDER)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.priority, self.done, self.due, self.start, self.notes)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        row = super().encode(bounds, package)
        left, top, right, bottom = bounds
        text_left = left + self.BOX
        children = [
            UINode(
                "android.widget.CheckBox",
                (left, top, text_left, bottom),
                content_desc=f"{PRIORITIES[self.priority]} priority" if self.priority < 3 else "No priority",
                resource_id=f"{package}:id/completeBox",
                package=package,
                checkable=True,
                checked=self.done,
                clickable=True,
                focusable=True,
            ),
            UINode(
                "android.widget.TextView",
                (text_left, top + 30, right - PAD, top + 100),
                text=self.text,
                resource_id=f"{package}:id/title",
                package=package,
            ),
        ]
        detail = self._detail()
        if detail:
            children.append(
                UINode(
                    "android.widget.TextView",
                    (text_left, top + 100, right - PAD, top + 160),
                    text=detail,
                    resource_id=f"{package}:id/due_date",
                    package=package,
                )
            )
        if self.notes:
            children.append(
                UINode(
                    "android.widget.TextView",
                    (text_left, top + 160, right - PAD, bottom - 10),
                    text=self.notes,
                    resource_id=f"{package}:id/description",
                    package=package,
                )
            )
        for i, child in enumerate(children):
            child.index = i
        row.children = children
        return row


class TasksApp(App):
    package: ClassVar[str] = "org.tasks"
    activity: ClassVar[str] = "com.todoroo.astrid.activity.MainActivity"
    label: ClassVar[str] = "Tasks"
    color: ClassVar[tuple[int, int, int]] = (33, 150, 243)
    clock_dependent: ClassVar[bool] = False

    def initial_data(self) -> dict[str, Any]:
        return {"filter": "My Tasks", "show_completed": False, "show_unstarted": False, "sort": "Due date"}

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

    def visible(self) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
        """The shown filter's open and completed tasks, each in the chosen order."""
        data = self.data
        now = self._now_ms()
        today_end = int(datetime.combine(self.phone.now().date() + timedelta(days=1), datetime.min.time(), timezone.utc).timestamp() * 1000)
        rows = [r for r in self._table() if not millis(r, "deleted")]
        kind = data.get("filter", "My Tasks")
        if kind == "Today":
            rows = [r for r in rows if 0 < millis(r, "dueDate") < today_end and not millis(r, "completed")]
        if kind != "Recently modified" and not data.get("show_unstarted"):
            rows = [r for r in rows if millis(r, "hideUntil") <= now]
        if not data.get("show_completed") and kind != "Recently modified":
            rows = [r for r in rows if not millis(r, "completed")]
        order = data.get("sort", "Due date") if kind != "Recently modified" else "Modified"

        def key(r: dict[str, str]) -> tuple[Any, ...]:
            due = millis(r, "dueDate") or 2**62
            if order == "Priority":
                return (importance(r), due, r.get("title", ""))
            if order == "Start date":
                return (millis(r, "hideUntil"), due, r.get("title", ""))
            if order == "Title":
                return (r.get("title", "").lower(), due)
            if order == "Modified":
                return (-millis(r, "modified"), r.get("title", ""))
            return (due, importance(r), r.get("title", ""))

        rows.sort(key=key)
        open_rows = [r for r in rows if not millis(r, "completed")]
        done = [r for r in rows if millis(r, "completed")]
        return open_rows, done

    # --- the list ---------------------------------------------------------------------------------

    def _item(self, row: dict[str, str], today: date, now: int) -> TaskItem:
        due, start = millis(row, "dueDate"), millis(row, "hideUntil")
        done = bool(millis(row, "completed"))
        task_id = row["_id"]
        return TaskItem(
            row.get("title", ""),
            priority=importance(row),
            done=done,
            due=due_text(due, today),
            overdue=bool(due) and due < now and not done,
            start=due_text(start, today) if start > now else "",
            notes=row.get("notes") or "",
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
        body: list[Widget] = [self._item(r, today, now) for r in open_rows]
        if done:
            body.append(Text(f"Completed ({len(done)})", size=40, color=render.TEXT_SECONDARY, rid=f"{self.package}:id/header"))
            body += [self._item(r, today, now) for r in done]
        if not body:
            body.append(Text("No tasks", size=44, center=True, height=300))
        actions: list[Widget] = [
            IconButton("Filters", "☰", on_tap=lambda: self.push("filters")),
            IconButton("More options", "•••", on_tap=lambda: self.set_dialog("menu")),
        ]
        fab = IconButton("Create new task", "+", color=(255, 255, 255), round_fill=self.color, on_tap=self._new_task)
        dialog = self._menu() if route.get("dialog") == "menu" else self._sort_dialog() if route.get("dialog") == "sort" else None
        return ScreenSpec(title=self.data.get("filter", "My Tasks"), body=body, actions=actions, fab=fab, dialog=dialog)

    def _flip(self, name: str) -> None:
        self.data[name] = not self.data.get(name)

    def _menu(self) -> Dialog:
        data = self.data
        body: list[Widget] = [
            ListItem("Sort", data.get("sort", "Due date"), on_tap=lambda: self.set_dialog("sort"), height=150),
            Switch("Show completed", bool(data.get("show_completed")), on_toggle=lambda: self._flip("show_completed")),
            Switch("Show unstarted", bool(data.get("show_unstarted")), on_toggle=lambda: self._flip("show_unstarted")),
        ]
        return Dialog("Options", [Button("Done", filled=False, on_tap=lambda: self.set_dialog(None))], body=body)

    def _sort_dialog(self) -> Dialog:
        def choose(sort: str) -> None:
            self.data["sort"] = sort
            self.set_dialog(None)

        current = self.data.get("sort", "Due date")
        body: list[Widget] = [ListItem(s, avatar="✓" if s == current else "", on_tap=lambda s=s: choose(s), height=130) for s in SORTS]
        return Dialog("Sort by", [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None))], body=body)

    def screen_filters(self, route: Route) -> ScreenSpec:
        def choose(name: str) -> None:
            self.data["filter"] = name
            self.pop()

        current = self.data.get("filter", "My Tasks")
        body: list[Widget] = [ListItem(f, avatar="✓" if f == current else "", on_tap=lambda f=f: choose(f)) for f in FILTERS]
        return ScreenSpec(title="Filters", up=self.pop, body=body)

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

    def back(self) -> bool:
        route = self.route
        if route["screen"] == "task" and not route.get("dialog"):
            self._save(route)
        return super().back()

    def _close(self, route: Route) -> None:
        self._save(route)
        self.pop()

    def _delete(self, route: Route) -> None:
        self._update(route["task_id"], {"deleted": str(self._now_ms())})
        self.pop()

    def screen_task(self, route: Route) -> ScreenSpec:
        row = self._row(route["task_id"]) if route["task_id"] is not None else {k: v for k, v in NEW_TASK.items() if v is not None}
        if row is None:
            return ScreenSpec(title="Task", up=self.pop, body=[Text("Task not found", size=44)])
        now = self._now_ms()
        due, start, completed = millis(row, "dueDate"), millis(row, "hideUntil"), millis(row, "completed")

        def set_priority(value: int) -> None:
            route["priority"] = value

        priority_buttons: list[Widget] = [
            Button(name, filled=i == route["priority"], on_tap=lambda i=i: set_priority(i), desc=f"Priority {name}")
            for i, name in enumerate(PRIORITIES)
        ]
        body: list[Widget] = [edit_field(self, route, "title", hint="Task name", rid=f"{self.package}:id/title")]
        if route["task_id"] is not None:
            body.append(
                Switch(
                    "Completed",
                    bool(completed),
                    subtitle=full_date(completed) if completed else "",
                    on_toggle=lambda: self._toggle(route["task_id"]),
                    rid=f"{self.package}:id/completeBox",
                )
            )
        body += [
            ListItem("Due date", full_date(due) if due else "No due date", rid=f"{self.package}:id/due_date"),
            ListItem(
                "Start date",
                (full_date(start) + (" (unstarted)" if start > now else "")) if start else "No start date",
                rid=f"{self.package}:id/hide_until",
            ),
            Text("Priority", size=40, color=render.TEXT_SECONDARY),
            Row(priority_buttons, height=150),
            edit_field(self, route, "notes", hint="Description", rid=f"{self.package}:id/notes", area=True, height=300),
        ]
        actions: list[Widget] = [IconButton("Save", "✓", on_tap=lambda: self._close(route))]
        dialog = None
        if route["task_id"] is not None:
            actions.insert(0, IconButton("Delete task", "✕", on_tap=lambda: self.set_dialog("delete")))
            if route.get("dialog") == "delete":
                dialog = confirm_dialog(self, "Delete task", "Delete this task?", "Delete", lambda: self._delete(route))
        return ScreenSpec(
            title="Task" if route["task_id"] is not None else "New task",
            up=lambda: self._close(route),
            body=body,
            actions=actions,
            dialog=dialog,
        )
