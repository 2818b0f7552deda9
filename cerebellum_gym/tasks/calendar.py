"""Simple Calendar Pro tasks, judged on the events provider (the stand-in for the app's events
table that AndroidWorld pulls with root sqlite)."""

from __future__ import annotations

import calendar
import contextlib
from collections.abc import Callable, Mapping
from datetime import date, datetime, timedelta, timezone
from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.core.tree import UINode
from cerebellum_gym.devices.base import Device, Row
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.answers import Expected, score_answer
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.common import fraction, fuzzy_match, same_items
from cerebellum_gym.tasks.oracle import ScriptedOracle, by_desc, by_id, find, label_for, time_picker_step
from cerebellum_gym.tasks.registry import register_task

CAL_PACKAGE = "com.simplemobiletools.calendar.pro"
CALENDAR_URI = "content://com.simplemobiletools.calendar.pro/events"
TODAY = awdata.DEVICE_TODAY
#: AndroidWorld's device clock (``device_constants.DT``), the centre of its random event window.
NOW = datetime(2023, 10, 15, 15, 34, tzinfo=timezone.utc)


def ts(day: date, hour: int, minute: int = 0) -> int:
    return int(datetime(day.year, day.month, day.day, hour, minute, tzinfo=timezone.utc).timestamp())


def random_title(rng: np.random.Generator) -> str:
    """``events_generator.generate_event_title``: "Meeting with Bob", "Workshop on Budget Planning"."""
    prefix = awdata.pick(rng, awdata.EVENT_TITLES_PREFIXES)
    return f"{prefix} {awdata.pick(rng, awdata.EVENT_NAMES if 'with' in prefix else awdata.EVENT_SUBJECTS)}"


def random_description(rng: np.random.Generator) -> str:
    """``events_generator.generate_event_description``: "We will <act> <subject>." and, half the time, a note."""
    text = f"We will {awdata.pick(rng, awdata.EVENT_ACTIONS)} {awdata.pick(rng, awdata.EVENT_SUBJECTS_DESCRIPTIONS)}."
    return text + f" {awdata.pick(rng, awdata.EVENT_ADDITIONAL_NOTES)}" if rng.integers(2) else text


def event_row(title: str, description: str, start: int, minutes: int, location: str = "") -> dict[str, str]:
    return {
        "title": title,
        "location": location,
        "description": description,
        "start_ts": str(start),
        "end_ts": str(start + 60 * minutes),
        "repeat_interval": "0",
    }


def random_event(rng: np.random.Generator, first_day: int = 15, last_day: int = 31) -> dict[str, str]:
    """``generate_event`` at ``create_random_october_2023_unix_ts(first_day, last_day)``: a whole hour
    of a random October day in range, 15 to 60 minutes long, no location."""
    start = ts(date(2023, 10, int(rng.integers(first_day, last_day + 1))), int(rng.integers(0, 24)))
    minutes = int(awdata.pick(rng, ("15", "30", "45", "60")))
    return event_row(random_title(rng), random_description(rng), start, minutes)


def seed_noise(device: Device, rng: np.random.Generator, count: int, keep: Callable[[dict[str, str]], bool]) -> None:
    """``count`` random October events that ``keep`` accepts (AndroidWorld's ``generate_noise_events``)."""
    added = 0
    while added < count:
        row = random_event(rng, first_day=1)
        if keep(row):
            device.content_insert(CALENDAR_URI, row)
            added += 1


def day_of(row: Mapping[str, str]) -> date:
    return datetime.fromtimestamp(int(row["start_ts"]), timezone.utc).date()


def rows_by_id(device: Device) -> dict[str, Row]:
    return {r["_id"]: r for r in device.content_query(CALENDAR_URI)}


def reworded_dates(day: date) -> list[str]:
    """Every way AndroidWorld's ``generate_reworded_date`` may name ``day`` in a question."""
    options = [day.strftime("%B %d"), day.strftime("%B %d %Y")]
    delta = (day - TODAY).days
    options += {0: ["today"], 1: ["tomorrow"], -1: ["yesterday"]}.get(delta, [])
    name = day.strftime("%A")
    if 0 < delta <= 7:
        options += [name, f"this {name}"]
    elif 7 < delta <= 14:
        options.append(f"the {name} after next")
    if -7 <= delta < 0:
        options.append(name)
    return options


def parse_time(text: str) -> tuple[int, int]:
    """``datetime_utils.parse_time``: 24-hour ``H:MM``, ``H:MMam`` or ``Ham``."""
    for fmt in ("%H:%M", "%I:%M%p", "%I%p"):
        try:
            moment = datetime.strptime(text, fmt)
        except ValueError:
            continue
        return moment.hour, moment.minute
    raise ValueError(f"unknown time {text!r}")


def parse_minutes(text: str) -> int:
    """``calendar_utils.parse_duration`` in minutes: "1.5 hours", "2 h", "45min", "30 m"."""
    if "h" in text:
        return round(60 * float(text[: text.find("h")].strip()))
    return int(text[: text.find("m")].strip())


def random_window_event(rng: np.random.Generator) -> dict[str, str]:
    """``calendar_utils.generate_random_event``: a random minute of the 30 days around the device's
    now, 15 to 60 minutes long, with a generated title and description."""
    start = NOW - timedelta(days=15) + timedelta(minutes=int(rng.integers(0, 30 * 24 * 60)))
    minutes = int(awdata.pick(rng, ("15", "30", "45", "60")))
    return event_row(random_title(rng), random_description(rng), int(start.timestamp()), minutes)


def day_params(day: date) -> dict[str, Any]:
    """The goal-template fields of a day: year, month, day and day of the week."""
    return {"year": day.year, "month": day.month, "day": day.day, "day_of_week": day.strftime("%A")}


def day_title(day: date) -> str:
    """Simple Calendar's day title (``Formatter.getDayTitle``): "October 15 (Sun)", the year
    added outside the device's year."""
    year = f" {day.year}" if day.year != TODAY.year else ""
    return f"{day.strftime('%B')} {day.day}{year} ({day.strftime('%a')})"


def clock_text(moment: datetime) -> str:
    """The editor's time (``hh:mm a`` on the 12-hour phone)."""
    return moment.strftime("%I:%M %p")


def cell_index(day: date) -> int:
    """Where ``day`` lies among the month view's 42 cells (weeks from Sunday)."""
    first = day.replace(day=1)
    return (first.weekday() + 1) % 7 + day.day - 1


class CalendarOracle(ScriptedOracle):
    """Moves shared by the calendar tasks: open the app and walk to a day's events (the month
    view's day cells carry no text: the oracle knows the grid, as a person reading it does)."""

    def __init__(self, day: date) -> None:
        super().__init__()
        self.day = day

    @staticmethod
    def node(screen: LabelledScreen, name: str) -> UINode | None:
        return screen.root.find(resource_id=name if ":" in name else f"{CAL_PACKAGE}:id/{name}")

    @classmethod
    def title(cls, screen: LabelledScreen) -> str:
        """The editor's title ("New Event" / "Edit Event"), else the month or day shown."""
        bar = cls.node(screen, "event_toolbar")
        if bar is not None:
            texts = [n.text for n in bar.iter() if n.text]
            return texts[0] if texts else ""
        value = cls.node(screen, "top_value")
        return value.text if value is not None else ""

    def tap_id(self, screen: LabelledScreen, name: str, nth: int = 0) -> str:
        rid = name if ":" in name else f"{CAL_PACKAGE}:id/{name}"
        hits = [label for label, node in zip(screen.labels, screen.nodes, strict=True) if node.resource_id == rid]
        return self.tap(hits[nth]) if len(hits) > nth else self.scroll_search(screen)

    def to_day(self, screen: LabelledScreen) -> str | None:
        step = self.open_app(screen, CAL_PACKAGE, "Simple Calendar Pro")
        if step is not None:
            return step
        if self.node(screen, "event_toolbar") is not None or self.node(screen, "android:id/parentPanel") is not None:
            return "B"
        title = self.title(screen)
        if self.node(screen, "day_events") is not None or "(" in title:
            return None if title == day_title(self.day) else "B"
        words = title.split()
        if not words:
            return "B"
        shown = (int(words[1]) if len(words) > 1 else TODAY.year, list(calendar.month_name).index(words[0]))
        want = (self.day.year, self.day.month)
        if shown != want:
            return self.tap_id(screen, "top_right_arrow" if shown < want else "top_left_arrow")
        return self.tap_id(screen, "month_view_background", cell_index(self.day))


class AddEventOracle(CalendarOracle):
    def __init__(self, day: date, start: datetime, end: datetime, title: str, description: str) -> None:
        super().__init__(day)
        self.start, self.end, self.event_title, self.description = start, end, title, description
        self.saved = False
        self.pending: datetime = start

    #: The repetition to pick (the picker's name), or ``None`` to leave it as it is.
    repetition: str | None = None

    def pick_date(self, screen: LabelledScreen) -> str:
        """The platform date picker: page to the month, tap the day, OK."""
        want = self.pending.date()
        header = self.node(screen, "android:id/date_picker_header_date")
        year = self.node(screen, "android:id/date_picker_header_year")
        if header is not None and year is not None and header.text == f"{want:%a, %b} {want.day}" and year.text == str(want.year):
            return self.tap(label_for(screen, text="OK") or "")
        hit = find(screen, by_desc(f"{want.day:02d} {want:%B} {want.year}"))
        if hit is not None:
            return self.tap(hit[0])
        days = [n.content_desc for n in screen.root.iter() if n.content_desc[:2].isdigit()]
        if not days:
            return "B"
        shown = datetime.strptime(days[0], "%d %B %Y").date()
        return self.tap_id(screen, "android:id/next" if (shown.year, shown.month) < (want.year, want.month) else "android:id/prev")

    def pick_time(self, screen: LabelledScreen) -> str:
        """The platform time picker: to its text mode, type the hour and minute, AM/PM, OK."""
        return time_picker_step(self, screen, self.pending.hour, self.pending.minute)

    def act(self, screen: LabelledScreen) -> str:
        if self.saved:
            return "F"
        if self.node(screen, "android:id/parentPanel") is not None:
            if self.node(screen, "android:id/date_picker_header_date") is not None:
                return self.pick_date(screen)
            if self.node(screen, "android:id/toggle_mode") is not None:
                return self.pick_time(screen)
            if self.repetition is not None and screen.root.find(text="No repetition") is not None:
                return self.tap(label_for(screen, text=self.repetition) or "")
            return "B"
        if self.title(screen) == "New Event":
            for rid, value in (("event_title", self.event_title), ("event_description", self.description)):
                hit = find(screen, by_id(f"{CAL_PACKAGE}:id/{rid}"))
                if hit is not None and hit[1].text != value:
                    return self.type_into(screen, hit[1], hit[0], value)
            for which, moment in (("start", self.start), ("end", self.end)):
                for kind, shown in (("date", day_title(moment.date())), ("time", clock_text(moment))):
                    node = self.node(screen, f"event_{which}_{kind}")
                    if node is None:
                        return self.scroll_search(screen)
                    if node.text != shown:
                        self.pending = moment
                        return self.tap_id(screen, f"event_{which}_{kind}")
            if self.repetition is not None:
                node = self.node(screen, "event_repetition")
                if node is None:
                    return self.scroll_search(screen)
                if node.text != self.repetition:
                    return self.tap_id(screen, "event_repetition")
            self.saved = True
            return self.tap(label_for(screen, desc="Save") or "")
        step = self.to_day(screen)
        if step is not None:
            return step
        if self.node(screen, "fab_event_label") is not None:
            return self.tap_id(screen, "fab_event_label")  # the chooser: Event, not Task
        return self.tap_id(screen, "calendar_fab")


class _AddEvent(Task):
    app: ClassVar[str] = "Simple Calendar Pro"
    family: ClassVar[str] = "calendar"
    complexity: ClassVar[float] = 3.4
    judge = (
        "Exactly one new event, with that start and end time, fuzzy-matching title and description and an empty location (as "
        "AndroidWorld's reference event has), and every earlier event unchanged; the new event earns a fifth each for title, "
        "description, location, start and end (AndroidWorld scores it 0/1)."
    )
    #: The October days the event may fall on (AndroidWorld: today to the month's end).
    days: ClassVar[tuple[int, int]] = (15, 31)

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        event = random_event(rng, *cls.days)
        start = datetime.fromtimestamp(int(event["start_ts"]), timezone.utc)
        return {
            **day_params(start.date()),
            "hour": start.hour,
            "event_title": event["title"],
            "event_description": event["description"],
            "duration_mins": (int(event["end_ts"]) - int(event["start_ts"])) // 60,
            "noise_seed": int(rng.integers(2**31)),
            "noise": int(rng.integers(0, 21)),
        }

    @property
    def start(self) -> datetime:
        p = self.params
        return datetime(p["year"], p["month"], p["day"], p["hour"], tzinfo=timezone.utc)

    def initialize(self, device: Device) -> None:
        device.content_delete(CALENDAR_URI)
        title = self.params["event_title"]
        seed_noise(device, np.random.default_rng(self.params["noise_seed"]), self.params["noise"], lambda r: r["title"] != title)
        self.baseline(device)

    def baseline(self, device: Device) -> None:
        self._before = rows_by_id(device)

    def progress(self, device: Device, answer: str | None = None) -> float:
        after = rows_by_id(device)
        if any(after.get(i) != row for i, row in self._before.items()):
            return 0.0
        new = [r for i, r in after.items() if i not in self._before]
        if len(new) != 1:
            return 0.0
        row, start = new[0], int(self.start.timestamp())
        return fraction(
            [
                fuzzy_match(row.get("title", ""), self.params["event_title"]),
                fuzzy_match(row.get("description", ""), self.params["event_description"]),
                fuzzy_match(row.get("location", ""), ""),
                row.get("start_ts") == str(start),
                row.get("end_ts") == str(start + 60 * self.params["duration_mins"]),
            ]
        )

    def text_candidates(self) -> list[str]:
        p, s = self.params, self.start
        end = s + timedelta(minutes=p["duration_mins"])
        return [
            p["event_title"],
            p["event_description"],
            f"{s.hour:02d}",
            f"{end.hour:02d}",
            f"{end.minute:02d}",
            str(end.day),
            str(end.month),
        ]

    def oracle(self) -> Oracle:
        s = self.start
        return AddEventOracle(
            s.date(), s, s + timedelta(minutes=self.params["duration_mins"]), self.params["event_title"], self.params["event_description"]
        )


@register_task
class SimpleCalendarAddOneEvent(_AddEvent):
    mirrors = "SimpleCalendarAddOneEvent"
    template = (
        "In Simple Calendar Pro, create a calendar event on {year}-{month}-{day} at {hour}h with the title '{event_title}' "
        "and the description '{event_description}'. The event should last for {duration_mins} mins."
    )


@register_task
class SimpleCalendarAddOneEventTomorrow(_AddEvent):
    mirrors = "SimpleCalendarAddOneEventTomorrow"
    template = (
        "In Simple Calendar Pro, create a calendar event for tomorrow at {hour}h with the title '{event_title}' "
        "and the description '{event_description}'. The event should last for {duration_mins} mins."
    )

    days = (16, 16)


@register_task
class SimpleCalendarAddOneEventRelativeDay(_AddEvent):
    mirrors = "SimpleCalendarAddOneEventRelativeDay"
    template = (
        "In Simple Calendar Pro, create a calendar event for this {day_of_week} at {hour}h with the title '{event_title}' "
        "and the description '{event_description}'. The event should last for {duration_mins} mins."
    )

    days = (16, 21)  # this Monday to this Saturday


@register_task
class SimpleCalendarAddOneEventInTwoWeeks(_AddEvent):
    mirrors = "SimpleCalendarAddOneEventInTwoWeeks"
    template = (
        "In Simple Calendar Pro, create a calendar event in two weeks from today at {hour}h with the title '{event_title}' "
        "and the description '{event_description}'. The event should last for {duration_mins} mins."
    )

    days = (29, 29)  # today, October 15, and 14 days


#: AndroidWorld's repetitions (``_REPEAT_INTERVALS``): the goal's word -> (the app's choice, seconds).
REPEATS: dict[str, tuple[str, int]] = {"daily": ("Daily", 24 * 3600), "weekly": ("Weekly", 7 * 24 * 3600)}


@register_task
class SimpleCalendarAddRepeatingEvent(_AddEvent):
    mirrors = "SimpleCalendarAddRepeatingEvent"
    template = (
        "In Simple Calendar Pro, create a recurring calendar event titled '{event_title}' starting on {year}-{month}-{day} at "
        "{hour}h. The event recurs {repeat_rule}, forever, and lasts for {duration_mins} minutes each occurrence. The event "
        "description should be '{event_description}'."
    )
    judge = (
        "As for adding one event, and the new event repeats as asked: its repeat_interval a day or a week and, weekly, its "
        "repeat_rule the start's weekday bit (Monday 1 ... Sunday 64), else 0, as Simple Calendar Pro writes them; credit is "
        "the share of the seven checks (AndroidWorld scores it 0/1)."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        event = random_event(rng, *cls.days)
        repeat = awdata.pick(rng, tuple(REPEATS))
        start = datetime.fromtimestamp(int(event["start_ts"]), timezone.utc)
        return {
            **day_params(start.date()),
            "hour": start.hour,
            "event_title": event["title"],
            "event_description": event["description"],
            "duration_mins": (int(event["end_ts"]) - int(event["start_ts"])) // 60,
            "repeat_rule": repeat,
            "noise_seed": int(rng.integers(2**31)),
            "noise": int(rng.integers(0, 21)),
        }

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in params.items() if "row_objects" not in k}

    def progress(self, device: Device, answer: str | None = None) -> float:
        event = super().progress(device, answer)
        if event == 0.0:
            return 0.0
        new = next(r for i, r in rows_by_id(device).items() if i not in self._before)
        interval = REPEATS[self.params["repeat_rule"]][1]
        rule = 1 << (self.start.isoweekday() - 1) if self.params["repeat_rule"] == "weekly" else 0
        checks = [new.get("repeat_interval") == str(interval), new.get("repeat_rule", "0") == str(rule)]
        return (5 * event + sum(checks)) / 7

    def oracle(self) -> Oracle:
        oracle = super().oracle()
        assert isinstance(oracle, AddEventOracle)
        oracle.repetition = REPEATS[self.params["repeat_rule"]][0]
        return oracle


class DeleteEventsOracle(CalendarOracle):
    def __init__(self, day: date, titles: list[str]) -> None:
        super().__init__(day)
        self.titles = titles

    def act(self, screen: LabelledScreen) -> str:
        if self.node(screen, "delete_event_description") is not None:
            return self.tap(label_for(screen, text="Yes") or "")
        if self.title(screen) == "Edit Event":
            return self.tap(label_for(screen, desc="Delete") or "")
        step = self.to_day(screen)
        if step is not None:
            return step
        for title in self.titles:
            label = label_for(screen, text=title)
            if label is not None:
                return self.tap(label)
        return "F"


class _DeleteEvents(Task):
    app: ClassVar[str] = "Simple Calendar Pro"
    family: ClassVar[str] = "calendar"
    complexity: ClassVar[float] = 1.4
    judge = "The target events are gone (partial credit per event) while every other event is unchanged and nothing was added (else 0)."
    targets: ClassVar[int] = 3
    #: The October days the target day may be (AndroidWorld: today to the month's end).
    days: ClassVar[tuple[int, int]] = (15, 31)

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        day = date(2023, 10, int(rng.integers(cls.days[0], cls.days[1] + 1)))
        return {**day_params(day), "noise_seed": int(rng.integers(2**31))}

    @property
    def target_day(self) -> date:
        return date(self.params["year"], self.params["month"], self.params["day"])

    def target_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        """The events to delete: random events on the target day."""
        day = self.target_day.day
        return [random_event(rng, day, day) for _ in range(self.targets)]

    def keep_noise(self, row: dict[str, str], targets: list[dict[str, str]]) -> bool:
        """Whether a random event may be noise (AndroidWorld: not on the target day)."""
        return day_of(row) != self.target_day

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        day = date(int(params["year"]), int(params["month"]), int(params["day"]))
        targets = [[str(e.title), str(int(e.start_ts))] for e in params["row_objects"]]
        return {**{k: v for k, v in params.items() if "row_objects" not in k}, **day_params(day), "targets": targets, "noise_seed": 0}

    def initialize(self, device: Device) -> None:
        device.content_delete(CALENDAR_URI)
        rng = np.random.default_rng(self.params["noise_seed"])
        targets = self.target_rows(rng)
        for row in targets:
            device.content_insert(CALENDAR_URI, row)
        seed_noise(device, rng, 20, lambda r: self.keep_noise(r, targets))
        self._target_keys = [[r["title"], r["start_ts"]] for r in targets]
        self.baseline(device)

    def baseline(self, device: Device) -> None:
        # The targets: the events with a target's title and start (AndroidWorld's row objects,
        # or the ones this task's set-up drew).
        keys = [list(k) for k in self.params.get("targets") or self._target_keys]
        self._before = rows_by_id(device)
        self._targets = {i for i, r in self._before.items() if [r.get("title"), r.get("start_ts")] in keys}
        self._titles = [title for title, _ in keys]

    def progress(self, device: Device, answer: str | None = None) -> float:
        after = rows_by_id(device)
        others_ok = all(after.get(i) == row for i, row in self._before.items() if i not in self._targets)
        if not others_ok or any(i not in self._before for i in after):
            return 0.0
        return fraction(i not in after for i in self._targets)

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        return DeleteEventsOracle(self.target_day, self._titles)


@register_task
class SimpleCalendarDeleteEvents(_DeleteEvents):
    mirrors = "SimpleCalendarDeleteEvents"
    template = "In Simple Calendar Pro, delete all the calendar events on {year}-{month}-{day}"


@register_task
class SimpleCalendarDeleteEventsOnRelativeDay(_DeleteEvents):
    mirrors = "SimpleCalendarDeleteEventsOnRelativeDay"
    complexity: ClassVar[float] = 1.2
    template = "In Simple Calendar Pro, delete all events scheduled for this {day_of_week}."
    targets = 2
    days = (16, 21)  # this Monday to this Saturday


@register_task
class SimpleCalendarDeleteOneEvent(_DeleteEvents):
    mirrors = "SimpleCalendarDeleteOneEvent"
    complexity: ClassVar[float] = 1.2
    template = "In Simple Calendar Pro, delete the calendar event on {year}-{month}-{day} at {hour}h with the title '{event_title}'"
    judge = "That one event is gone while every other event (including a decoy on the same day) is unchanged and nothing was added."
    targets = 1

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        noise_seed = int(rng.integers(2**31))
        # The target is the first draw of the set-up's generator, so the goal can name it.
        event = random_event(np.random.default_rng(noise_seed))
        start = datetime.fromtimestamp(int(event["start_ts"]), timezone.utc)
        return {**day_params(start.date()), "hour": start.hour, "event_title": event["title"], "noise_seed": noise_seed}

    def target_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        target = random_event(rng)
        # A decoy on the same day, so "delete everything that day" is a near miss.
        day = self.target_day.day
        decoy = random_event(rng, day, day)
        while decoy["title"] == target["title"] or decoy["start_ts"] == target["start_ts"]:
            decoy = random_event(rng, day, day)
        self._decoy = decoy
        return [target]

    def keep_noise(self, row: dict[str, str], targets: list[dict[str, str]]) -> bool:
        # AndroidWorld: noise anywhere in October, but not at the target's time or with its title.
        return row["start_ts"] != targets[0]["start_ts"] and row["title"] != targets[0]["title"]

    def initialize(self, device: Device) -> None:
        super().initialize(device)
        device.content_insert(CALENDAR_URI, self._decoy)
        self.baseline(device)


class AnswerOracle(CalendarOracle):
    """Walk to the day, optionally open an event, and answer from what the screen shows."""

    def __init__(self, day: date, answer: str, open_title: str | None = None) -> None:
        super().__init__(day)
        self.answer, self.open_title = answer, open_title

    def act(self, screen: LabelledScreen) -> str:
        if self.title(screen) == "Edit Event":
            return f"F {self.answer}"
        step = self.to_day(screen)
        if step is not None:
            return step
        if self.open_title is not None:
            label = label_for(screen, text=self.open_title)
            return self.tap(label) if label else self.scroll_search(screen)
        return f"F {self.answer}"


def ir_event_row(date_text: str, time_text: str, minutes: int, title: str, location: str = "") -> dict[str, str]:
    """An event of an information-retrieval task's state (``create_event_from_proto``)."""
    day = datetime.strptime(date_text, "%B %d %Y").date()
    hour, minute = parse_time(time_text)
    return event_row(title, "", ts(day, hour, minute), minutes, location)


def seed_window_noise(device: Device, rng: np.random.Generator, keep: Callable[[dict[str, str]], bool], count: int = 75) -> None:
    """AndroidWorld's 75 random events around today that its exclusion conditions let through."""
    added = 0
    while added < count:
        row = random_window_event(rng)
        if keep(row):
            device.content_insert(CALENDAR_URI, row)
            added += 1


@register_task
class SimpleCalendarEventsOnDate(Task):
    mirrors = "SimpleCalendarEventsOnDate"
    app: ClassVar[str] = "Simple Calendar Pro"
    family: ClassVar[str] = "calendar"
    complexity: ClassVar[float] = 1.0
    answer: ClassVar[bool] = True
    template = (
        "What events do I have {date} in Simple Calendar Pro? Answer with the titles only. "
        "If there are multiple titles, format your answer as a comma separated list."
    )
    judge = (
        "The answer, split on commas, is the title of the day's one event (fuzzy 0.9); the day is named as AndroidWorld rewords "
        "it (today, tomorrow, this Friday, October 25, ...) and 75 random events fill the other days."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        date_text = awdata.pick(rng, awdata.EVENTS_ON_DATE_DATES)
        day = datetime.strptime(date_text, "%B %d %Y").date()
        return {
            "date": awdata.pick(rng, reworded_dates(day)),
            "iso": day.isoformat(),
            "time": awdata.pick(rng, awdata.EVENTS_ON_DATE_TIMES),
            "duration": awdata.pick(rng, awdata.EVENTS_ON_DATE_DURATIONS),
            "title": awdata.pick(rng, awdata.EVENTS_ON_DATE_TITLES),
            "noise_seed": int(rng.integers(2**31)),
        }

    def initialize(self, device: Device) -> None:
        p = self.params
        device.content_delete(CALENDAR_URI)
        day = date.fromisoformat(p["iso"])
        device.content_insert(CALENDAR_URI, ir_event_row(day.strftime("%B %d %Y"), p["time"], parse_minutes(p["duration"]), p["title"]))
        seed_window_noise(device, np.random.default_rng(p["noise_seed"]), lambda r: day_of(r) != day)
        self.baseline(device)

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        # AndroidWorld rewords the date in place ("this Friday"): the day is read from the device.
        return {**params, "noise_seed": 0}

    def baseline(self, device: Device) -> None:
        rows = device.content_query(CALENDAR_URI)
        titled = [r for r in rows if r.get("title") == self.params["title"]]
        self._day = day_of(titled[0]) if titled else date.fromisoformat(self.params.get("iso", TODAY.isoformat()))
        self._titles = [r["title"] for r in sorted(rows, key=lambda r: int(r["start_ts"])) if day_of(r) == self._day]

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if answer is not None and same_items(answer, self._titles) else 0.0

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        return AnswerOracle(self._day, ", ".join(self._titles))


@register_task
class SimpleCalendarLocationOfEvent(Task):
    mirrors = "SimpleCalendarLocationOfEvent"
    app: ClassVar[str] = "Simple Calendar Pro"
    family: ClassVar[str] = "calendar"
    complexity: ClassVar[float] = 1.0
    answer: ClassVar[bool] = True
    template = "What is the location of my {title} event in Simple Calendar Pro? Answer with the location only."
    judge = "The answer fuzzy-matches (ratio >= 0.9, case aside) the location of the one event with that title, as AndroidWorld's does."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        date_text = awdata.pick(rng, awdata.LOCATION_OF_EVENT_DATES)
        return {
            "title": awdata.pick(rng, awdata.LOCATION_OF_EVENT_TITLES),
            "location": awdata.pick(rng, awdata.LOCATION_OF_EVENT_LOCATIONS),
            "iso": datetime.strptime(date_text, "%B %d %Y").date().isoformat(),
            "time": awdata.pick(rng, awdata.LOCATION_OF_EVENT_TIMES),
            "noise_seed": int(rng.integers(2**31)),
        }

    def initialize(self, device: Device) -> None:
        p = self.params
        device.content_delete(CALENDAR_URI)
        day = date.fromisoformat(p["iso"])
        # No duration in this task's state: AndroidWorld's default, 30 minutes.
        device.content_insert(CALENDAR_URI, ir_event_row(day.strftime("%B %d %Y"), p["time"], 30, p["title"], p["location"]))
        seed_window_noise(device, np.random.default_rng(p["noise_seed"]), lambda r: p["title"] not in r["title"])
        self.baseline(device)

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        return {**params, "noise_seed": 0}

    def baseline(self, device: Device) -> None:
        # The event's day, read from the device (AndroidWorld rewords its date parameter).
        titled = [r for r in device.content_query(CALENDAR_URI) if r.get("title") == self.params["title"]]
        self._day = day_of(titled[0]) if titled else date.fromisoformat(self.params.get("iso", TODAY.isoformat()))

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if answer is not None and same_items(answer, [self.params["location"]]) else 0.0

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        return AnswerOracle(self._day, self.params["location"], open_title=self.params["title"])


# --- the other information-retrieval questions -----------------------------------------------------

#: The device's clock when an AndroidWorld task starts (``device_constants.DT``, 15:34), as the
#: questions' exclusions round it: noise before 15:30 today is in the past.
QUESTION_NOW = datetime(2023, 10, 15, 15, 30, tzinfo=timezone.utc)
_DAY_S = 24 * 3600


def day_from_words(text: str) -> date:
    """The day a question names, however AndroidWorld reworded it ("this Friday", "October 17",
    "tomorrow"; the questions' dates are today or later).

    Raises:
        ValueError: no day of the weeks around today reads so.
    """
    with contextlib.suppress(ValueError):
        return datetime.strptime(text, "%B %d %Y").date()
    for offset in (*range(0, 60), *range(-1, -30, -1)):
        day = TODAY + timedelta(days=offset)
        if text in reworded_dates(day):
            return day
    raise ValueError(f"no day reads {text!r}")


class _CalendarQuestion(Task):
    """A question about the calendar, set up as AndroidWorld's ``tasks.textproto`` sets it: its
    events (``date``, ``time``, ``duration``, ``title``; ``{x}`` a parameter, ``{x*}`` another
    value of parameter ``x``, drawn without replacement), 75 random events around today that
    stay clear of the answer, and the goal's dates reworded ("this Friday")."""

    app: ClassVar[str] = "Simple Calendar Pro"
    family: ClassVar[str] = "calendar"
    complexity: ClassVar[float] = 1.0
    answer: ClassVar[bool] = True
    events: ClassVar[tuple[tuple[str, str, str, str], ...]] = ()

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        spec = awdata.CALENDAR_QUESTION_PARAMS[cls.name]
        params: dict[str, Any] = {name: awdata.pick(rng, values) for name, values in spec.items()}
        params = {name: value.format(**params) for name, value in params.items()}
        unused = {name: list(values) for name, values in spec.items()}
        for name, value in params.items():
            if value in unused[name]:
                unused[name].remove(value)
        events = []
        for fields in cls.events:
            event = []
            for field in fields:
                text = field
                if field.endswith("*}"):
                    text = awdata.pick(rng, unused[field[1:-2]])
                    unused[field[1:-2]].remove(text)
                event.append(text.format(**params))
            events.append(event)
        for name, value in params.items():
            with contextlib.suppress(ValueError):
                params[name] = awdata.pick(rng, reworded_dates(datetime.strptime(value, "%B %d %Y").date()))
        return {**params, "events": events, "noise_seed": int(rng.integers(2**31))}

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        # AndroidWorld's parameters, its dates reworded in place; the events are read from the device.
        return {**params, "events": [], "noise_seed": 0}

    def windows(self) -> list[tuple[int, int]]:
        """Spans (POSIX seconds, inclusive) no random event may touch: where the answer lies."""
        return []

    def keeps(self, row: dict[str, str]) -> bool:
        """Whether a random event may join the calendar (it touches no :meth:`windows`)."""
        start, end = int(row["start_ts"]), int(row["end_ts"])
        return all(end < low or start > high for low, high in self.windows())

    def event_start(self, index: int = 0) -> int:
        day_text, time_text, _, _ = self.params["events"][index]
        hour, minute = parse_time(time_text)
        return ts(datetime.strptime(day_text, "%B %d %Y").date(), hour, minute)

    def initialize(self, device: Device) -> None:
        device.content_delete(CALENDAR_URI)
        for day_text, time_text, duration, title in self.params["events"]:
            device.content_insert(CALENDAR_URI, ir_event_row(day_text, time_text, parse_minutes(duration) if duration else 30, title))
        seed_window_noise(device, np.random.default_rng(self.params["noise_seed"]), self.keeps)
        self.baseline(device)

    def relevant(self, row: dict[str, str]) -> bool:
        """Whether ``row`` is one of the events the answer names (read from the device, so it
        holds after AndroidWorld's own set-up too)."""
        return row.get("title") == self.params.get("title")

    def baseline(self, device: Device) -> None:
        rows = sorted((r for r in device.content_query(CALENDAR_URI) if self.relevant(r)), key=lambda r: int(r["start_ts"]))
        self._rows = rows
        self._day = day_of(rows[0]) if rows else TODAY

    def expected(self) -> Expected:
        return Expected.text([r["title"] for r in self._rows])

    def progress(self, device: Device, answer: str | None = None) -> float:
        return score_answer(answer, self.expected()) if self._rows else 0.0

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        return AnswerOracle(self._day, ", ".join(str(v) for v in self.answer_text()))

    def answer_text(self) -> list[str]:
        return [r["title"] for r in self._rows]


@register_task
class SimpleCalendarNextEvent(_CalendarQuestion):
    mirrors = "SimpleCalendarNextEvent"
    template = (
        "What is my next upcoming event in Simple Calendar Pro? Answer with the title only. If there are multiples titles, "
        "format your answer in a comma separated list."
    )
    judge = (
        "The answer (comma-separated, fuzzy 0.9) is the title of the event set today at the drawn time, no random event lying "
        "between now and it; as AndroidWorld's judge."
    )
    events = (("October 15 2023", "{time}", "{duration}", "{title}"),)

    def windows(self) -> list[tuple[int, int]]:
        return [(int(QUESTION_NOW.timestamp()), self.event_start())]


@register_task
class SimpleCalendarEventOnDateAtTime(_CalendarQuestion):
    mirrors = "SimpleCalendarEventOnDateAtTime"
    template = (
        "What is on my schedule for {date} at {time} in Simple Calendar Pro? Answer with the titles only. If there are "
        "multiples titles, format your answer in a comma separated list."
    )
    judge = "The answer (comma-separated, fuzzy 0.9) is the title of the one event running at that date and time; as AndroidWorld's judge."
    events = (("{date}", "{time}", "{duration}", "{title}"),)

    def windows(self) -> list[tuple[int, int]]:
        return [(self.event_start(), self.event_start())]


@register_task
class SimpleCalendarAnyEventsOnDate(_CalendarQuestion):
    mirrors = "SimpleCalendarAnyEventsOnDate"
    template = (
        "Do I have any events {date} in Simple Calendar Pro? Answer with the titles only. If there are multiples titles, "
        "format your answer in a comma separated list."
    )
    judge = (
        "The answer (comma-separated, fuzzy 0.9) names the three events of that day, an hour each at other times; as AndroidWorld's judge."
    )
    events = (("{date}", "{time*}", "1 hour", "{title*}"),) * 3

    def day(self) -> date:
        return day_from_words(self.params["date"])

    def windows(self) -> list[tuple[int, int]]:
        start = ts(self.day(), 0, 0)
        return [(start, start + _DAY_S - 1)]

    def relevant(self, row: dict[str, str]) -> bool:
        start = ts(self.day(), 0, 0)
        return int(row["start_ts"]) <= start + _DAY_S - 1 and int(row["end_ts"]) >= start


@register_task
class SimpleCalendarNextMeetingWithPerson(_CalendarQuestion):
    mirrors = "SimpleCalendarNextMeetingWithPerson"
    template = (
        "When is my next meeting with {person} in Simple Calendar Pro? Express your answer in the format <month name> <day> "
        "<year> <hour in 24-hour format>:<minutes>."
    )
    judge = "The answer reads as the date and time (to the minute) that 'Drinks with <person>' starts; as AndroidWorld's judge."
    events = (("{date}", "{time}", "", "Drinks with {person}"),)

    def keeps(self, row: dict[str, str]) -> bool:
        return self.params["person"] not in row["title"]

    def relevant(self, row: dict[str, str]) -> bool:
        return row.get("title") == f"Drinks with {self.params['person']}"

    def expected(self) -> Expected:
        return Expected.datetime([datetime.fromtimestamp(int(r["start_ts"]), timezone.utc).replace(tzinfo=None) for r in self._rows])

    def answer_text(self) -> list[str]:
        return [f"{datetime.fromtimestamp(int(r['start_ts']), timezone.utc):%B %d %Y %H:%M}" for r in self._rows]


@register_task
class SimpleCalendarEventsInNextWeek(_CalendarQuestion):
    mirrors = "SimpleCalendarEventsInNextWeek"
    template = (
        "What events do I have in the next week in Simple Calendar Pro? Assume the week starts from Monday. Answer with the "
        "titles only. If there are multiples titles, format your answer in a comma separated list."
    )
    judge = (
        "The answer (comma-separated, fuzzy 0.9) names the two events of Monday October 16 to Sunday October 22, random events "
        "kept out of October 15-22; as AndroidWorld's judge."
    )
    events = (("{date*}", "{time*}", "{duration}", "{title}"), ("{date*}", "{time*}", "", "{title*}"))
    #: The next week, Monday to Sunday, and the days random events keep out of (today on).
    week: ClassVar[tuple[date, date]] = (date(2023, 10, 16), date(2023, 10, 22))

    def windows(self) -> list[tuple[int, int]]:
        return [(ts(TODAY, 0, 0), ts(self.week[1], 0, 0) + _DAY_S - 1)]

    def relevant(self, row: dict[str, str]) -> bool:
        return self.week[0] <= day_of(row) <= self.week[1]


@register_task
class SimpleCalendarFirstEventAfterStartTime(_CalendarQuestion):
    mirrors = "SimpleCalendarFirstEventAfterStartTime"
    template = (
        "What is my first event after {time} {date} in Simple Calendar Pro? Answer with the titles only. If there are "
        "multiples titles, format your answer in a comma separated list."
    )
    judge = (
        "The answer (comma-separated, fuzzy 0.9) is the title of the event at that time, no random event later that day; "
        "as AndroidWorld's judge."
    )
    events = (("{date}", "{time}", "{duration}", "{title}"),)

    def windows(self) -> list[tuple[int, int]]:
        start = self.event_start()
        return [(start, ts(datetime.fromtimestamp(start, timezone.utc).date(), 0, 0) + _DAY_S - 1)]


@register_task
class SimpleCalendarEventsInTimeRange(_CalendarQuestion):
    mirrors = "SimpleCalendarEventsInTimeRange"
    template = (
        "Do I have any events between {start_time} and 8pm {date} in Simple Calendar Pro? Answer with the titles only. If "
        "there are multiples titles, format your answer in a comma separated list."
    )
    judge = (
        "The answer (comma-separated, fuzzy 0.9) is the title of the event at the start time, no random event between it and "
        "8pm; as AndroidWorld's judge."
    )
    events = (("{date}", "{start_time}", "{duration}", "{title}"),)

    def windows(self) -> list[tuple[int, int]]:
        start = self.event_start()
        return [(start, ts(datetime.fromtimestamp(start, timezone.utc).date(), 20, 0))]
