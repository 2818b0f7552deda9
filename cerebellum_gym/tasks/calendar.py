"""Simple Calendar Pro tasks, judged on the events provider (the stand-in for the app's events
table that AndroidWorld pulls with root sqlite)."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device, Row
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.common import fraction, fuzzy_match, normalize_answer, same_items
from cerebellum_gym.tasks.contacts import GIVEN_NAMES
from cerebellum_gym.tasks.oracle import ScriptedOracle, by_id, find, label_for
from cerebellum_gym.tasks.registry import register_task

CAL_PACKAGE = "com.simplemobiletools.calendar.pro"
CALENDAR_URI = "content://com.simplemobiletools.calendar.pro/events"
TODAY = date(2023, 10, 15)
PREFIXES = ("Meeting with", "Workshop on", "Call with", "Review of", "Lunch with", "Catch up on")
SUBJECTS = ("the budget", "Project Atlas", "the roadmap", "hiring plans", "the Q4 report", "design ideas", "marketing", "the launch")
ACTIONS = ("discuss", "review", "plan", "finalize", "brainstorm")
LOCATIONS = ("Conference Room A", "Main Office", "Cafe Central", "Room 204", "City Library", "Online", "Town Hall", "Studio B")


def ts(day: date, hour: int, minute: int = 0) -> int:
    return int(datetime(day.year, day.month, day.day, hour, minute, tzinfo=timezone.utc).timestamp())


def long_date(day: date) -> str:
    return f"{day.strftime('%B')} {day.day}, {day.year}"


def random_title(rng: np.random.Generator) -> str:
    other = rng.choice(GIVEN_NAMES) if rng.random() < 0.5 else rng.choice(SUBJECTS)
    return f"{rng.choice(PREFIXES)} {other}"


def random_event(rng: np.random.Generator, day: date, avoid_titles: set[str]) -> dict[str, str]:
    title = random_title(rng)
    while title in avoid_titles:
        title = random_title(rng)
    hour = int(rng.integers(7, 21))
    start = ts(day, hour, int(rng.choice([0, 30])))
    return {
        "title": title,
        "location": str(rng.choice(LOCATIONS)),
        "description": f"We will {rng.choice(ACTIONS)} {rng.choice(SUBJECTS)}.",
        "start_ts": str(start),
        "end_ts": str(start + 60 * int(rng.choice([30, 45, 60, 90]))),
        "repeat_interval": "0",
    }


def seed_noise(device: Device, rng: np.random.Generator, count: int, avoid_days: set[date], avoid_titles: set[str]) -> None:
    days = [TODAY + timedelta(days=i) for i in range(-10, 17) if TODAY + timedelta(days=i) not in avoid_days]
    for _ in range(count):
        device.content_insert(CALENDAR_URI, random_event(rng, days[int(rng.integers(len(days)))], avoid_titles))


def rows_by_id(device: Device) -> dict[str, Row]:
    return {r["_id"]: r for r in device.content_query(CALENDAR_URI)}


def relative_phrase(day: date) -> str:
    """How AndroidWorld's questions name a date: today, tomorrow, a weekday this week, or the date."""
    delta = (day - TODAY).days
    if delta == 0:
        return "today"
    if delta == 1:
        return "tomorrow"
    if delta < 7:
        return f"on {day.strftime('%A')}"
    return f"on {day.strftime('%B')} {day.day}"


def day_params(day: date) -> dict[str, Any]:
    """The goal-template fields of a day: year, month, day and day of the week."""
    return {"year": day.year, "month": day.month, "day": day.day, "day_of_week": day.strftime("%A")}


class CalendarOracle(ScriptedOracle):
    """Moves shared by the calendar tasks: open the app and walk to a day's agenda."""

    def __init__(self, day: date) -> None:
        super().__init__()
        self.day = day

    @staticmethod
    def title(screen: LabelledScreen) -> str:
        bar = screen.root.find(resource_id=f"{CAL_PACKAGE}:id/toolbar")
        texts = [n.text for n in bar.iter() if n.text] if bar is not None else []
        return texts[0] if texts else ""

    def to_day(self, screen: LabelledScreen) -> str | None:
        step = self.open_app(screen, CAL_PACKAGE, "Simple Calendar Pro")
        if step is not None:
            return step
        title = self.title(screen)
        if title == long_date(self.day):
            return None
        if "," in title or title in ("New Event", "Edit Event"):
            return "B"
        want = f"{self.day.strftime('%B')} {self.day.year}"
        if title != want:
            month, year = datetime.strptime(title, "%B %Y").date(), self.day.replace(day=1)
            return self.tap(label_for(screen, desc="Next month" if month < year else "Previous month") or "")
        hit = find(screen, lambda n: n.content_desc.startswith(long_date(self.day)))
        return self.tap(hit[0]) if hit else self.scroll_search(screen)


class AddEventOracle(CalendarOracle):
    def __init__(self, day: date, start: datetime, end: datetime, title: str, description: str) -> None:
        super().__init__(day)
        self.start, self.end, self.event_title, self.description = start, end, title, description
        self.saved = False
        self.pending: tuple[str, ...] = ()

    def fill(self, screen: LabelledScreen, values: tuple[str, ...]) -> str:
        for i, value in enumerate(values, start=1):
            hit = find(screen, by_id(f":id/p{i}"))
            if hit is None:
                continue
            node = hit[1]
            if node.text == value or node.text.endswith(f"({value})"):
                continue
            return self.type_into(screen, node, hit[0], value)
        return self.tap(label_for(screen, text="OK") or "")

    def act(self, screen: LabelledScreen) -> str:
        if self.saved:
            return "F"
        dialog = screen.root.find(resource_id="android:id/alertTitle")
        if dialog is not None:
            return self.fill(screen, self.pending)
        if self.title(screen) == "New Event":
            for rid, value in (("title", self.event_title), ("description", self.description)):
                hit = find(screen, by_id(f"{CAL_PACKAGE}:id/{rid}"))
                if hit is not None and hit[1].text != value:
                    return self.type_into(screen, hit[1], hit[0], value)
            for which, moment in (("start", self.start), ("end", self.end)):
                for kind, shown, values in (
                    ("date", long_date(moment.date()), (str(moment.month), str(moment.day), str(moment.year))),
                    ("time", f"{moment:%H:%M}", (f"{moment.hour:02d}", f"{moment.minute:02d}")),
                ):
                    hit = find(screen, by_id(f"event_{which}_{kind}"))
                    if hit is None:
                        return self.scroll_search(screen)
                    if screen.root.find(text=shown) is None or not any(n.text == shown for n in hit[1].iter()):
                        self.pending = values
                        return self.tap(hit[0])
            self.saved = True
            return self.tap(label_for(screen, desc="Save") or "")
        step = self.to_day(screen)
        if step is not None:
            return step
        return self.tap(label_for(screen, desc="New Event") or "")


class _AddEvent(Task):
    app: ClassVar[str] = "Simple Calendar Pro"
    family: ClassVar[str] = "calendar"
    complexity: ClassVar[float] = 3.4
    judge = (
        "Exactly one new event, with that start and end time and fuzzy-matching title and description, and every earlier event unchanged; "
        "the new event earns a quarter each for title, description, start and end (AndroidWorld scores it 0/1)."
    )

    @classmethod
    def pick_day(cls, rng: np.random.Generator) -> date:
        return TODAY + timedelta(days=int(rng.integers(0, 17)))

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        day = cls.pick_day(rng)
        return {
            **day_params(day),
            "hour": int(rng.integers(0, 24)),
            "event_title": random_title(rng),
            "event_description": f"We will {rng.choice(ACTIONS)} {rng.choice(SUBJECTS)}.",
            "duration_mins": int(rng.choice([15, 30, 45, 60])),
            "noise_seed": int(rng.integers(2**31)),
            "noise": int(rng.integers(0, 21)),
        }

    @property
    def start(self) -> datetime:
        p = self.params
        return datetime(p["year"], p["month"], p["day"], p["hour"], tzinfo=timezone.utc)

    def initialize(self, device: Device) -> None:
        device.content_delete(CALENDAR_URI)
        seed_noise(device, np.random.default_rng(self.params["noise_seed"]), self.params["noise"], set(), {self.params["event_title"]})
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
    name = "SimpleCalendarAddOneEvent"
    mirrors = "SimpleCalendarAddOneEvent"
    template = (
        "In Simple Calendar Pro, create a calendar event on {year}-{month}-{day} at {hour}h with the title '{event_title}' "
        "and the description '{event_description}'. The event should last for {duration_mins} mins."
    )


@register_task
class SimpleCalendarAddOneEventTomorrow(_AddEvent):
    name = "SimpleCalendarAddOneEventTomorrow"
    mirrors = "SimpleCalendarAddOneEventTomorrow"
    template = (
        "In Simple Calendar Pro, create a calendar event for tomorrow at {hour}h with the title '{event_title}' "
        "and the description '{event_description}'. The event should last for {duration_mins} mins."
    )

    @classmethod
    def pick_day(cls, rng: np.random.Generator) -> date:
        return TODAY + timedelta(days=1)


@register_task
class SimpleCalendarAddOneEventRelativeDay(_AddEvent):
    name = "SimpleCalendarAddOneEventRelativeDay"
    mirrors = "SimpleCalendarAddOneEventRelativeDay"
    template = (
        "In Simple Calendar Pro, create a calendar event for this {day_of_week} at {hour}h with the title '{event_title}' "
        "and the description '{event_description}'. The event should last for {duration_mins} mins."
    )

    @classmethod
    def pick_day(cls, rng: np.random.Generator) -> date:
        return TODAY + timedelta(days=int(rng.integers(1, 7)))


class DeleteEventsOracle(CalendarOracle):
    def __init__(self, day: date, titles: list[str]) -> None:
        super().__init__(day)
        self.titles = titles

    def act(self, screen: LabelledScreen) -> str:
        dialog = screen.root.find(resource_id="android:id/alertTitle")
        if dialog is not None:
            return self.tap(label_for(screen, text="Delete") or "")
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

    @classmethod
    def pick_day(cls, rng: np.random.Generator) -> date:
        return TODAY + timedelta(days=int(rng.integers(0, 17)))

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        day = cls.pick_day(rng)
        return {
            **day_params(day),
            "noise_seed": int(rng.integers(2**31)),
        }

    @property
    def target_day(self) -> date:
        return date(self.params["year"], self.params["month"], self.params["day"])

    def target_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        rows: list[dict[str, str]] = []
        for _ in range(self.targets):
            rows.append(random_event(rng, self.target_day, {r["title"] for r in rows}))
        return rows

    def initialize(self, device: Device) -> None:
        device.content_delete(CALENDAR_URI)
        rng = np.random.default_rng(self.params["noise_seed"])
        targets = self.target_rows(rng)
        for row in targets:
            device.content_insert(CALENDAR_URI, row)
        target_ids = set(rows_by_id(device))
        seed_noise(device, rng, 20, {self.target_day}, {r["title"] for r in targets})
        self._before = rows_by_id(device)
        self._targets = target_ids
        self._titles = [r["title"] for r in targets]

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
    name = "SimpleCalendarDeleteEvents"
    mirrors = "SimpleCalendarDeleteEvents"
    template = "In Simple Calendar Pro, delete all the calendar events on {year}-{month}-{day}"


@register_task
class SimpleCalendarDeleteEventsOnRelativeDay(_DeleteEvents):
    name = "SimpleCalendarDeleteEventsOnRelativeDay"
    mirrors = "SimpleCalendarDeleteEventsOnRelativeDay"
    complexity: ClassVar[float] = 1.2
    template = "In Simple Calendar Pro, delete all events scheduled for this {day_of_week}."
    targets = 2

    @classmethod
    def pick_day(cls, rng: np.random.Generator) -> date:
        return TODAY + timedelta(days=int(rng.integers(1, 7)))


@register_task
class SimpleCalendarDeleteOneEvent(_DeleteEvents):
    name = "SimpleCalendarDeleteOneEvent"
    mirrors = "SimpleCalendarDeleteOneEvent"
    complexity: ClassVar[float] = 1.2
    template = "In Simple Calendar Pro, delete the calendar event on {year}-{month}-{day} at {hour}h with the title '{event_title}'"
    judge = "That one event is gone while every other event (including others on the same day) is unchanged and nothing was added."
    targets = 1

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        params = super().generate_params(rng)
        event = random_event(np.random.default_rng(params["noise_seed"]), date(params["year"], params["month"], params["day"]), set())
        start = datetime.fromtimestamp(int(event["start_ts"]), timezone.utc)
        return {**params, "hour": start.hour, "event_title": event["title"]}

    def target_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        target = random_event(rng, self.target_day, set())
        # A decoy on the same day, so "delete everything that day" is a near miss.
        self._decoy = random_event(rng, self.target_day, {target["title"]})
        return [target]

    def initialize(self, device: Device) -> None:
        super().initialize(device)
        device.content_insert(CALENDAR_URI, self._decoy)
        self._before = rows_by_id(device)


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


@register_task
class SimpleCalendarEventsOnDate(Task):
    name = "SimpleCalendarEventsOnDate"
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
        "The answer, split on commas, matches the titles of that day's events as an unordered list of the same length "
        "(fuzzy 0.9 per title)."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        day = TODAY + timedelta(days=int(rng.integers(0, 15)))
        return {
            "date": relative_phrase(day),
            "iso": day.isoformat(),
            "count": int(rng.integers(1, 4)),
            "noise_seed": int(rng.integers(2**31)),
        }

    def initialize(self, device: Device) -> None:
        device.content_delete(CALENDAR_URI)
        rng = np.random.default_rng(self.params["noise_seed"])
        day = date.fromisoformat(self.params["iso"])
        self._titles: list[str] = []
        for _ in range(self.params["count"]):
            row = random_event(rng, day, set(self._titles))
            device.content_insert(CALENDAR_URI, row)
            self._titles.append(row["title"])
        seed_noise(device, rng, 20, {day}, set(self._titles))

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if answer is not None and same_items(answer, self._titles) else 0.0

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        return AnswerOracle(date.fromisoformat(self.params["iso"]), ", ".join(self._titles))


@register_task
class SimpleCalendarLocationOfEvent(Task):
    name = "SimpleCalendarLocationOfEvent"
    mirrors = "SimpleCalendarLocationOfEvent"
    app: ClassVar[str] = "Simple Calendar Pro"
    family: ClassVar[str] = "calendar"
    complexity: ClassVar[float] = 1.0
    answer: ClassVar[bool] = True
    template = "What is the location of my {title} event in Simple Calendar Pro? Answer with the location only."
    judge = (
        "The answer equals (case, spaces and a final full stop aside) the location of the one event with that title; "
        "stricter than AndroidWorld's 0.9 fuzzy match."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        day = TODAY + timedelta(days=int(rng.integers(0, 15)))
        return {
            "title": random_title(rng),
            "iso": day.isoformat(),
            "location": str(rng.choice(LOCATIONS)),
            "noise_seed": int(rng.integers(2**31)),
        }

    def initialize(self, device: Device) -> None:
        device.content_delete(CALENDAR_URI)
        rng = np.random.default_rng(self.params["noise_seed"])
        day = date.fromisoformat(self.params["iso"])
        row = random_event(rng, day, set())
        row.update(title=self.params["title"], location=self.params["location"])
        device.content_insert(CALENDAR_URI, row)
        seed_noise(device, rng, 20, set(), {self.params["title"]})

    def progress(self, device: Device, answer: str | None = None) -> float:
        # Exact after normalising: AndroidWorld's 0.9 fuzzy ratio would take "Room A" for "Room Z".
        return 1.0 if answer is not None and normalize_answer(answer) == normalize_answer(self.params["location"]) else 0.0

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        return AnswerOracle(date.fromisoformat(self.params["iso"]), self.params["location"], open_title=self.params["title"])
