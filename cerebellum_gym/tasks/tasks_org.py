"""Tasks.org's six information-retrieval questions (AndroidWorld's ``Tasks*``), seeded and judged
through ``content://org.tasks/tasks``, the stand-in for the app's ``tasks`` table that
AndroidWorld fills and reads with sqlite.

Each question's relevant state is AndroidWorld's (``tasks.textproto``): the tasks that answer it,
then twenty random tasks (``task_app_utils._generate_random_task``: a title and maybe its notes
from AndroidWorld's list, a random priority, due within a week of the device's now, hidden until
a few days before, completed two weeks back half the time) that its exclusion conditions let
through, shuffled. The answer is worked out from the tasks on the device and scored as
AndroidWorld's ``check_agent_answer`` scores it.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Row
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.answers import Expected
from cerebellum_gym.tasks.base import Oracle
from cerebellum_gym.tasks.oracle import by_text, find, label_for, switch_state
from cerebellum_gym.tasks.registry import register_task
from cerebellum_gym.tasks.retrieval import (
    NOW,
    ListQuestion,
    Reading,
    ReadingOracle,
    as_text,
    day_of_ms,
    draw_distinct,
    number,
    random_moment,
    stamp_ms,
    week_of,
)

TASKS_URI = "content://org.tasks/tasks"
TASKS_PACKAGE = "org.tasks"
_TITLES_LIST = "Answer with the titles only. If there are multiples titles, format your answer in a comma separated list."
#: The start ("hide until") dates and times of the three tasks of most questions' state.
_HIDDEN_UNTIL = (("October 10 2023", "8:00"), ("October 9 2023", "10:00"), ("October 11 2023", "9:00"))


def task_row(
    rng: np.random.Generator,
    title: str,
    *,
    importance: str | None = None,
    due: tuple[str, str] | None = None,
    hide: tuple[str, str] | None = None,
    completed: tuple[str, str] | None = None,
    notes: str | None = None,
) -> dict[str, str]:
    """A ``tasks`` row as ``task_app_utils.create_task_from_proto`` makes it: times in ms (0 for
    none), priority 2 unless given, created and modified 7 * 3600 ms before the due time (as
    AndroidWorld writes them), a random remote id, NULL columns left out."""
    due_ms = stamp_ms(*due) if due else 0
    created = due_ms - 7 * 3600
    row = {
        "title": title,
        "importance": str(int(importance) if importance is not None else 2),
        "dueDate": str(due_ms),
        "hideUntil": str(stamp_ms(*hide) if hide else 0),
        "created": str(created),
        "modified": str(created),
        "completed": str(stamp_ms(*completed) if completed else 0),
        "deleted": "0",
        "estimatedSeconds": "0",
        "elapsedSeconds": "0",
        "timerStart": "0",
        "notificationFlags": "0",
        "lastNotified": "0",
        "repeat_from": "0",
        "remoteId": str(int.from_bytes(rng.bytes(16), "big")),
        "collapsed": "0",
        "parent": "0",
        "read_only": "0",
    }
    if notes is not None:
        row["notes"] = notes
    return row


def random_task(rng: np.random.Generator) -> dict[str, str]:
    """``task_app_utils._generate_random_task``."""
    title = awdata.pick(rng, tuple(awdata.TASK_NOISE))
    notes = awdata.TASK_NOISE[title] if rng.integers(2) else None
    importance = str(int(rng.integers(4)))
    due = random_moment(rng)
    hide = random_moment(rng, timedelta(days=5), due - timedelta(days=6))
    completed = as_text(random_moment(rng, centre=NOW - timedelta(days=14))) if rng.integers(2) else None
    return task_row(rng, title, importance=importance, due=as_text(due), hide=as_text(hide), completed=completed, notes=notes)


def due_day(row: Row) -> date | None:
    ms = int(number(row, "dueDate"))
    return day_of_ms(ms) if ms else None


def titles(rows: list[Row]) -> list[str]:
    """The rows' titles, by due time."""
    return [r.get("title", "") for r in sorted(rows, key=lambda r: (number(r, "dueDate"), r.get("title", "")))]


def title_reading(rows: list[Row], options: tuple[str, ...] = ()) -> Reading:
    names = titles(rows)
    return Reading(", ".join(names), tuple(names), options, expected=Expected.text(names))


class TasksReadingOracle(ReadingOracle):
    """The reading oracle on Tasks.org's own list: "Show completed" and "Show unstarted" are
    checkable items of the bottom app bar's overflow menu (on by default). For each option the
    question needs, open More options and tap the item only when its box is unchecked (a tap
    closes the menu); when it is already checked, close the menu with back."""

    def __init__(self, package: str, app_label: str, reading: Reading) -> None:
        super().__init__(package, app_label, reading, menu="More options", menu_done="\x00")

    def _options(self, screen: LabelledScreen) -> str:
        menu_open = label_for(screen, rid=f"{TASKS_PACKAGE}:id/checkbox") is not None
        if not self.pending_options:
            return "B" if menu_open else self.tap(label_for(screen, desc=self.menu) or "")
        if not menu_open:
            label = label_for(screen, desc=self.menu)
            return self.tap(label) if label else "B"
        option = self.pending_options.pop(0)
        hit = find(screen, by_text(option))
        if hit is None or switch_state(hit[1]):
            return "B"  # already shown: close the menu
        return self.tap(hit[0])


class TasksQuestion(ListQuestion):
    """A Tasks.org question (family ``tasks``)."""

    app: ClassVar[str] = "Tasks"
    family: ClassVar[str] = "tasks"
    complexity: ClassVar[float] = 1.0
    uri: ClassVar[str] = TASKS_URI
    package: ClassVar[str] = TASKS_PACKAGE
    app_label: ClassVar[str] = "Tasks"

    def noise_row(self, rng: np.random.Generator) -> dict[str, str]:
        return random_task(rng)

    def oracle(self) -> Oracle:
        return TasksReadingOracle(self.package, self.app_label, Reading(**{**self._reading.__dict__}))


@register_task
class TasksDueOnDate(TasksQuestion):
    mirrors = "TasksDueOnDate"
    template = f"What tasks do I have due {{date}} in Tasks app? {_TITLES_LIST}"
    judge = "The answer lists the titles of the three tasks due that day (fuzzy 0.9, any order), as AndroidWorld's check_agent_answer."
    dates: ClassVar[dict[str, tuple[str, ...]]] = {"date": awdata.EVENTS_ON_DATE_DATES}  # the same fifteen days
    pools: ClassVar[dict[str, tuple[str, ...]]] = {
        "importance": awdata.TASKS_DUE_ON_DATE_IMPORTANCES,
        "title": awdata.TASKS_TITLES,
        "notes": awdata.TASKS_NOTES,
    }

    def state_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        day = self.day("date").strftime("%B %d %Y")
        names = draw_distinct(rng, awdata.TASKS_TITLES, 3)
        levels = draw_distinct(rng, awdata.TASKS_DUE_ON_DATE_IMPORTANCES, 3)
        notes = draw_distinct(rng, awdata.TASKS_NOTES, 3)
        return [task_row(rng, names[i], importance=levels[i], due=(day, ""), hide=_HIDDEN_UNTIL[i], notes=notes[i]) for i in range(3)]

    def excluded(self, row: dict[str, str]) -> bool:
        return due_day(row) == self.day("date")

    def expect(self, rows: list[Row]) -> Reading:
        return title_reading([r for r in rows if due_day(r) == self.day("date")])


@register_task
class TasksHighPriorityTasks(TasksQuestion):
    mirrors = "TasksHighPriorityTasks"
    template = f"What are my high priority tasks in Tasks app? {_TITLES_LIST}"
    judge = (
        "The answer is the title of the one high-priority (importance 0) task, which may still be hidden until its start "
        "date (fuzzy 0.9), as AndroidWorld's check_agent_answer."
    )
    pools: ClassVar[dict[str, tuple[str, ...]]] = {
        "task_title": awdata.TASKS_TITLES,
        "notes": awdata.TASKS_NOTES,
        "due_date": awdata.TASKS_NEXT_WEEK_DATES,
        "time": awdata.EVENTS_ON_DATE_TIMES,  # the same twenty times in the textproto
        "hide_until_date": awdata.TASKS_PAST_WEEK_DATES,
    }

    def state_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        p = self.params
        return [
            task_row(
                rng,
                p["task_title"],
                importance="0",
                due=(p["due_date"], p["time"]),
                hide=(p["hide_until_date"], p["time"]),
                notes=p["notes"],
            )
        ]

    def excluded(self, row: dict[str, str]) -> bool:
        return int(number(row, "importance")) == 0

    def expect(self, rows: list[Row]) -> Reading:
        return title_reading([r for r in rows if int(number(r, "importance")) == 0], ("Show unstarted",))


@register_task
class TasksHighPriorityTasksDueOnDate(TasksQuestion):
    mirrors = "TasksHighPriorityTasksDueOnDate"
    template = (
        "Which tasks with high priority are due {date} in the Tasks app? Answer with the title only. "
        "If there are multiples titles, format your answer in a comma separated list."
    )
    judge = "The answer is the title of the one high-priority task due that day (fuzzy 0.9), as AndroidWorld's check_agent_answer."
    dates: ClassVar[dict[str, tuple[str, ...]]] = {"date": awdata.EVENTS_ON_DATE_DATES}  # the same fifteen days
    pools: ClassVar[dict[str, tuple[str, ...]]] = {"time": awdata.TASKS_HIGH_PRIORITY_TIMES, "title": awdata.TASKS_HIGH_PRIORITY_TITLES}

    def state_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        day = self.day("date").strftime("%B %d %Y")
        return [task_row(rng, self.params["title"], importance="0", due=(day, self.params["time"]))]

    def excluded(self, row: dict[str, str]) -> bool:
        return due_day(row) == self.day("date") and int(number(row, "importance")) == 0

    def expect(self, rows: list[Row]) -> Reading:
        day = self.day("date")
        return title_reading([r for r in rows if due_day(r) == day and int(number(r, "importance")) == 0])


@register_task
class TasksDueNextWeek(TasksQuestion):
    mirrors = "TasksDueNextWeek"
    template = (
        "How many tasks do I have due next week in Tasks app? Assume the week starts from Monday. Express your answer as a single integer."
    )
    judge = "The answer is the number of tasks due Monday to Sunday of next week (six), as AndroidWorld's check_agent_answer."
    pools: ClassVar[dict[str, tuple[str, ...]]] = {
        "title": awdata.TASKS_MORE_TITLES,
        "notes": awdata.TASKS_MORE_NOTES,
        "due_date": awdata.TASKS_NEXT_WEEK_DATES,
    }

    @staticmethod
    def next_week() -> tuple[date, date]:
        monday, _ = week_of(awdata.DEVICE_TODAY + timedelta(days=7))
        return monday, monday + timedelta(days=6)

    def state_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        names = draw_distinct(rng, awdata.TASKS_MORE_TITLES, 6)
        days = draw_distinct(rng, awdata.TASKS_NEXT_WEEK_DATES, 6)
        notes = draw_distinct(rng, awdata.TASKS_MORE_NOTES, 6)
        hidden = [*_HIDDEN_UNTIL, *[_HIDDEN_UNTIL[2]] * 3]
        return [task_row(rng, names[i], due=(days[i], ""), hide=hidden[i], notes=notes[i]) for i in range(6)]

    def _due_next_week(self, row: Row) -> bool:
        first, last = self.next_week()
        day = due_day(row)
        return day is not None and first <= day <= last

    def excluded(self, row: dict[str, str]) -> bool:
        return self._due_next_week(row)

    def expect(self, rows: list[Row]) -> Reading:
        names = titles([r for r in rows if self._due_next_week(r)])
        return Reading(str(len(names)), tuple(names), expected=Expected.number([len(names)]))


@register_task
class TasksCompletedTasksForDate(TasksQuestion):
    mirrors = "TasksCompletedTasksForDate"
    template = f"Which tasks have I completed for {{date}} in Tasks app? {_TITLES_LIST}"
    judge = (
        "The answer lists the titles of the three completed tasks due that day (fuzzy 0.9, any order), as AndroidWorld's "
        "check_agent_answer."
    )
    dates: ClassVar[dict[str, tuple[str, ...]]] = {"date": awdata.TASKS_COMPLETED_FOR_DATES}
    pools: ClassVar[dict[str, tuple[str, ...]]] = {
        "title": awdata.TASKS_MORE_TITLES,
        "notes": awdata.TASKS_MORE_NOTES,
        "completed_date": awdata.TASKS_PAST_WEEK_DATES,
        "time": awdata.EVENTS_ON_DATE_TIMES,
    }

    def state_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        day = self.day("date").strftime("%B %d %Y")
        done = str(self.params.get("completed_date") or awdata.pick(rng, awdata.TASKS_PAST_WEEK_DATES))
        names = draw_distinct(rng, awdata.TASKS_MORE_TITLES, 3)
        notes = draw_distinct(rng, awdata.TASKS_MORE_NOTES, 3)
        times = draw_distinct(rng, awdata.EVENTS_ON_DATE_TIMES, 6)
        return [
            task_row(
                rng, names[i], due=(day, ""), hide=(_HIDDEN_UNTIL[i][0], times[2 * i]), completed=(done, times[2 * i + 1]), notes=notes[i]
            )
            for i in range(3)
        ]

    def excluded(self, row: dict[str, str]) -> bool:
        return due_day(row) == self.day("date")

    def expect(self, rows: list[Row]) -> Reading:
        day = self.day("date")
        return title_reading([r for r in rows if due_day(r) == day and number(r, "completed")], ("Show completed",))


@register_task
class TasksIncompleteTasksOnDate(TasksQuestion):
    mirrors = "TasksIncompleteTasksOnDate"
    template = f"What incomplete tasks do I have still have to do by {{date}} in Tasks app? {_TITLES_LIST}"
    judge = (
        "The answer lists the titles of the three incomplete tasks due by that day (fuzzy 0.9, any order), as AndroidWorld's "
        "check_agent_answer."
    )
    dates: ClassVar[dict[str, tuple[str, ...]]] = {"date": awdata.EVENTS_ON_DATE_DATES}  # the same fifteen days
    pools: ClassVar[dict[str, tuple[str, ...]]] = {
        "title": awdata.TASKS_MORE_TITLES,
        "importance": ("0", "1", "2", "3"),
        "notes": awdata.TASKS_MORE_NOTES,
        "time": awdata.EVENTS_ON_DATE_TIMES,
    }

    def state_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        day = self.day("date").strftime("%B %d %Y")
        names = draw_distinct(rng, awdata.TASKS_MORE_TITLES, 3)
        levels = draw_distinct(rng, ("0", "1", "2", "3"), 3)
        notes = draw_distinct(rng, awdata.TASKS_MORE_NOTES, 3)
        times = draw_distinct(rng, awdata.EVENTS_ON_DATE_TIMES, 3)
        return [
            task_row(rng, names[i], importance=levels[i], due=(day, ""), hide=(_HIDDEN_UNTIL[i][0], times[i]), notes=notes[i])
            for i in range(3)
        ]

    def _open_by_date(self, row: Row) -> bool:
        day = due_day(row)
        return day is not None and day <= self.day("date") and not number(row, "completed")

    def excluded(self, row: dict[str, str]) -> bool:
        return self._open_by_date(row)

    def expect(self, rows: list[Row]) -> Reading:
        return title_reading([r for r in rows if self._open_by_date(r)])
