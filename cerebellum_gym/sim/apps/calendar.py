"""Simple Calendar Pro: a month view, a day's agenda, and an event editor with date and time
pickers (in their keyboard-entry form) and a repetition picker (daily, weekly, monthly, yearly,
written as the real app writes ``repeat_interval`` and ``repeat_rule``); a repeating event shows
on every occurrence.

Events live in ``content://com.simplemobiletools.calendar.pro/events``, the sim's stand-in for
the app's ``events`` table that AndroidWorld reads with sqlite. Times are POSIX seconds; the
device's time zone is UTC.
"""

from __future__ import annotations

import calendar as pycal
import functools
from datetime import date, datetime, timedelta, timezone
from typing import ClassVar

from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import confirm_dialog, edit_field, field_key, number_dialog, parse_int
from cerebellum_gym.sim.providers import CALENDAR_URI
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Dialog, IconButton, ListItem, Row, Text, Widget

ORANGE = (255, 111, 0)
WEEKDAYS = ("M", "T", "W", "T", "F", "S", "S")
DAY = 24 * 60 * 60
#: The repetition picker's choices and the ``repeat_interval`` each writes (seconds), as Simple
#: Calendar Pro's constants have them (a month is 30 days, a year 365).
REPETITIONS: dict[str, int] = {"No repetition": 0, "Daily": DAY, "Weekly": 7 * DAY, "Monthly": 30 * DAY, "Yearly": 365 * DAY}
#: ``repeat_rule`` for a monthly or yearly event: the same day each time (``REPEAT_SAME_DAY``).
REPEAT_SAME_DAY = 1


def repetition_name(interval: int) -> str:
    """The picker's name of ``repeat_interval`` (an interval it does not offer reads as custom)."""
    for name, seconds in REPETITIONS.items():
        if seconds == interval:
            return name
    return f"Every {interval // DAY} days" if interval % DAY == 0 else "Custom"


def repeat_rule(interval: int, start: datetime) -> int:
    """What the app writes as ``repeat_rule``: for a weekly event the weekday bits (Monday 1,
    Tuesday 2, ..., Sunday 64; the start's day), for monthly and yearly the same day, else 0."""
    if interval == 7 * DAY:
        return 1 << (start.isoweekday() - 1)
    if interval in (30 * DAY, 365 * DAY):
        return REPEAT_SAME_DAY
    return 0


def ts(day: date, hour: int, minute: int) -> int:
    return int(datetime(day.year, day.month, day.day, hour, minute, tzinfo=timezone.utc).timestamp())


def from_ts(value: str | int) -> datetime:
    return datetime.fromtimestamp(int(value), timezone.utc)


def long_date(day: date) -> str:
    return f"{day.strftime('%B')} {day.day}, {day.year}"


def occurrences(event: dict[str, str], low: int, high: int) -> list[tuple[int, int]]:
    """The (start, end) times of ``event``'s occurrences that start before ``high`` and end at or
    after ``low``: the event itself, and for a repeating one (``repeat_interval``; forever unless
    ``repeat_limit`` gives a last time) every repetition, as the app lays them out: daily every
    interval, weekly on the ``repeat_rule`` weekdays, monthly and yearly on the same date."""
    start, end = int(event.get("start_ts", 0) or 0), int(event.get("end_ts", 0) or 0)
    interval = int(event.get("repeat_interval", 0) or 0)
    limit = int(event.get("repeat_limit", 0) or 0)
    if interval <= 0:
        return [(start, end)] if start < high and end >= low else []
    duration, last = end - start, limit if limit > 0 else high
    first = from_ts(start)
    starts: list[int] = []
    if interval == 7 * DAY:
        rule = int(event.get("repeat_rule", 0) or 0) or 1 << (first.isoweekday() - 1)
        week = (max(low - duration, start) - start) // (7 * DAY)
        monday = first - timedelta(days=first.weekday())
        while True:
            base = monday + timedelta(weeks=int(week))
            if int(base.timestamp()) >= min(high, last + 1):
                break
            starts += [int((base + timedelta(days=d)).timestamp()) for d in range(7) if rule & (1 << d)]
            week += 1
    elif interval in (30 * DAY, 365 * DAY):
        months = 12 if interval == 365 * DAY else 1
        step = 0
        while True:
            total = first.month - 1 + step * months
            year, month = first.year + total // 12, total % 12 + 1
            moment = int(first.timestamp()) if step == 0 else None
            if pycal.monthrange(year, month)[1] >= first.day:
                moment = int(first.replace(year=year, month=month).timestamp())
            if moment is not None and moment >= min(high, last + 1):
                break
            if moment is not None:
                starts.append(moment)
            step += 1
            if step > 12 * 200:
                break
    else:
        k = max(0, (low - duration - start) // interval)
        while start + k * interval < min(high, last + 1):
            starts.append(start + k * interval)
            k += 1
    return [(s, s + duration) for s in starts if start <= s < high and s <= last and s + duration >= low]


def _runs_on(start_ts: int, end_ts: int, day_start: int, day_end: int) -> bool:
    """Whether an event from ``start_ts`` to ``end_ts`` starts on a day or runs into it."""
    return start_ts < day_end and (end_ts > day_start or start_ts >= day_start)


@functools.lru_cache(maxsize=64)
def _month_cells(year: int, month: int, spans: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[date, str] | None, ...], ...]:
    """The month grid's weeks: per cell its day and description (``None`` for padding), given
    the events' (start, end) times. The grid is worked out once per month and set of events:
    the month screen is built again on every input."""
    weeks = []
    for week in pycal.Calendar().monthdayscalendar(year, month):
        cells: list[tuple[date, str] | None] = []
        for d in week:
            if d == 0:
                cells.append(None)
                continue
            day = date(year, month, d)
            start, end = ts(day, 0, 0), ts(day + timedelta(days=1), 0, 0)
            count = sum(1 for s, e in spans if _runs_on(s, e, start, end))
            cells.append((day, f"{long_date(day)}, {count} event{'s' if count != 1 else ''}" if count else long_date(day)))
        weeks.append(tuple(cells))
    return tuple(weeks)


class SimpleCalendarApp(App):
    package: ClassVar[str] = "com.simplemobiletools.calendar.pro"
    #: Its screens show no time finer than the minute (the phone rebuilds every screen on a new one).
    clock_dependent: ClassVar[bool] = False
    activity: ClassVar[str] = "com.simplemobiletools.calendar.pro.activities.MainActivity"
    label: ClassVar[str] = "Simple Calendar Pro"
    color: ClassVar[tuple[int, int, int]] = ORANGE

    def events(self) -> list[dict[str, str]]:
        return sorted(self.phone.content_query(CALENDAR_URI), key=lambda r: (int(r.get("start_ts", 0)), r.get("title", "")))

    def events_on(self, day: date, events: list[dict[str, str]] | None = None) -> list[dict[str, str]]:
        start, end = ts(day, 0, 0), ts(day + timedelta(days=1), 0, 0)
        out = []
        for event in self.events() if events is None else events:
            for begin, finish in occurrences(event, start, end):
                if _runs_on(begin, finish, start, end):
                    # A repetition shows at its own time; it opens the event it repeats.
                    out.append(
                        event if begin == int(event.get("start_ts", 0)) else {**event, "start_ts": str(begin), "end_ts": str(finish)}
                    )
                    break
        return out

    def make_route(self, name: str, **params: object) -> Route:  # type: ignore[override]
        route = App.make_route(name, **params)
        if name == "main" and "year" not in route:
            today = self.phone.now().date()
            route.update(year=today.year, month=today.month)
        return route

    # --- month -------------------------------------------------------------------------------

    def _shift_month(self, route: Route, delta: int) -> None:
        month = route["month"] + delta
        route.update(year=route["year"] + (month - 1) // 12, month=(month - 1) % 12 + 1)

    def screen_main(self, route: Route) -> ScreenSpec:
        year, month = route["year"], route["month"]
        today = self.phone.now().date()
        first = ts(date(year, month, 1), 0, 0)
        after = ts(date(year + month // 12, month % 12 + 1, 1), 0, 0)
        spans = tuple(span for event in self.events() for span in occurrences(event, first - DAY, after + DAY))
        # The month screen depends on nothing else: made once per key (reused_spec).
        return self.reused_spec(("main", year, month, today, spans), lambda: self._month_screen(year, month, today, spans))

    def _month_screen(self, year: int, month: int, today: date, spans: tuple[tuple[int, int], ...]) -> ScreenSpec:
        body: list[Widget] = [Row([Text(d, size=36, center=True, color=(96, 94, 102), height=100) for d in WEEKDAYS], height=100)]
        for week in _month_cells(year, month, spans):
            cells: list[Widget] = []
            for cell in week:
                if cell is None:
                    cells.append(Text("", height=200))
                    continue
                day, desc = cell
                cells.append(
                    Text(
                        str(day.day),
                        size=44,
                        center=True,
                        height=200,
                        desc=desc,
                        selected=day == today,
                        on_tap=lambda dd=day: self.push("day", day=dd.isoformat()),
                    )
                )
            body.append(Row(cells, height=200))
        body.append(Text("Tap a day to see its events", size=36, center=True, color=(96, 94, 102)))
        title = f"{pycal.month_name[month]} {year}"
        actions: list[Widget] = [
            IconButton("Previous month", "‹", on_tap=lambda: self._shift_month(self.route, -1)),
            IconButton("Next month", "›", on_tap=lambda: self._shift_month(self.route, 1)),
        ]
        fab = IconButton("New Event", "+", color=(255, 255, 255), round_fill=ORANGE, on_tap=lambda: self._new_event(today))
        return ScreenSpec(title=title, body=body, actions=actions, fab=fab)

    # --- day ---------------------------------------------------------------------------------

    def screen_day(self, route: Route) -> ScreenSpec:
        day = date.fromisoformat(route["day"])
        body: list[Widget] = []
        for event in self.events_on(day):
            start, end = from_ts(event["start_ts"]), from_ts(event["end_ts"])
            body.append(
                ListItem(
                    event.get("title", ""),
                    f"{start:%H:%M} - {end:%H:%M}",
                    avatar="•",
                    avatar_color=ORANGE,
                    on_tap=lambda e=event["_id"]: self._open_event(e),
                )
            )
        if not body:
            body = [Text("No events on this day", size=44, center=True, height=300)]

        def shift(delta: int) -> None:
            route.update(day=(day + timedelta(days=delta)).isoformat(), scroll=0)

        actions: list[Widget] = [
            IconButton("Previous day", "‹", on_tap=lambda: shift(-1)),
            IconButton("Next day", "›", on_tap=lambda: shift(1)),
        ]
        fab = IconButton("New Event", "+", color=(255, 255, 255), round_fill=ORANGE, on_tap=lambda: self._new_event(day))
        return ScreenSpec(title=long_date(day), up=self.pop, body=body, actions=actions, fab=fab)

    # --- event editor ------------------------------------------------------------------------

    def _new_event(self, day: date) -> None:
        now = self.phone.now()
        start = datetime(day.year, day.month, day.day, now.hour, tzinfo=timezone.utc) + timedelta(hours=1)
        self._push_editor(None, "", "", "", start, start + timedelta(hours=1), 0)

    def _open_event(self, event_id: str) -> None:
        rows = self.phone.content_query(CALENDAR_URI, where={"_id": event_id})
        if rows:
            e = rows[0]
            interval = parse_int(e.get("repeat_interval", "0"), 0, 2**62) or 0
            self._push_editor(
                event_id,
                e.get("title", ""),
                e.get("location", ""),
                e.get("description", ""),
                from_ts(e["start_ts"]),
                from_ts(e["end_ts"]),
                interval,
            )

    def _push_editor(
        self, event_id: str | None, title: str, location: str, description: str, start: datetime, end: datetime, repeat: int
    ) -> None:
        self.push(
            "event",
            event_id=event_id,
            title=title,
            location=location,
            description=description,
            start=int(start.timestamp()),
            end=int(end.timestamp()),
            repeat=repeat,
            error="",
        )

    def _pick(self, route: Route, which: str, kind: str) -> None:
        route.update(dialog=f"{which}_{kind}", p1="", p2="", p3="")
        self.phone.focus(field_key(self, route, "p1"))

    def _apply_pick(self, route: Route) -> None:
        which, kind = str(route["dialog"]).split("_")
        current = from_ts(route[which])
        if kind == "time":
            hour = current.hour if not str(route["p1"]).strip() else parse_int(route["p1"], 0, 23)
            minute = current.minute if not str(route["p2"]).strip() else parse_int(route["p2"], 0, 59)
            if hour is None or minute is None:
                route["error"] = "Invalid time"
                return
            new = current.replace(hour=hour, minute=minute)
        else:
            month = current.month if not str(route["p1"]).strip() else parse_int(route["p1"], 1, 12)
            year = current.year if not str(route["p3"]).strip() else parse_int(route["p3"], 1970, 2100)
            if month is None or year is None:
                route["error"] = "Invalid date"
                return
            day = current.day if not str(route["p2"]).strip() else parse_int(route["p2"], 1, pycal.monthrange(year, month)[1])
            if day is None:
                route["error"] = "Invalid date"
                return
            new = current.replace(year=year, month=month, day=day)
        if which == "start":
            # Moving the start keeps the duration, as Simple Calendar does.
            route["end"] = int(route["end"]) + int(new.timestamp()) - int(route["start"])
        route[which] = int(new.timestamp())
        route.update(dialog=None, error="")

    def _save(self, route: Route) -> None:
        title = str(route.get("title", "")).strip()
        if not title:
            route["error"] = "Title cannot be empty"
            return
        if int(route["end"]) < int(route["start"]):
            route["error"] = "The end date cannot be before the start date"
            return
        values = {
            "title": title,
            "location": str(route.get("location", "")).strip(),
            "description": str(route.get("description", "")).strip(),
            "start_ts": str(route["start"]),
            "end_ts": str(route["end"]),
            "repeat_interval": "0",
        }
        repeat = int(route.get("repeat", 0))
        if repeat:
            values.update(repeat_interval=str(repeat), repeat_rule=str(repeat_rule(repeat, from_ts(route["start"]))))
        if route["event_id"] is not None:
            self.phone.content_delete(CALENDAR_URI, where={"_id": route["event_id"]})
        self.phone.content_insert(CALENDAR_URI, values)
        self.pop()

    def _delete(self, route: Route) -> None:
        self.phone.content_delete(CALENDAR_URI, where={"_id": route["event_id"]})
        self.pop()

    def screen_event(self, route: Route) -> ScreenSpec:
        start, end = from_ts(route["start"]), from_ts(route["end"])
        body: list[Widget] = []
        if route.get("error"):
            body.append(Text(route["error"], size=40, color=(200, 30, 30)))
        body += [
            edit_field(self, route, "title", hint="Title"),
            edit_field(self, route, "location", hint="Location"),
            edit_field(self, route, "description", hint="Description"),
            ListItem(
                "Start date",
                long_date(start.date()),
                on_tap=lambda: self._pick(route, "start", "date"),
                rid=f"{self.package}:id/event_start_date",
            ),
            ListItem(
                "Start time", f"{start:%H:%M}", on_tap=lambda: self._pick(route, "start", "time"), rid=f"{self.package}:id/event_start_time"
            ),
            ListItem(
                "End date", long_date(end.date()), on_tap=lambda: self._pick(route, "end", "date"), rid=f"{self.package}:id/event_end_date"
            ),
            ListItem("End time", f"{end:%H:%M}", on_tap=lambda: self._pick(route, "end", "time"), rid=f"{self.package}:id/event_end_time"),
            ListItem(
                "Repetition",
                repetition_name(int(route.get("repeat", 0))),
                on_tap=lambda: self.set_dialog("repeat"),
                rid=f"{self.package}:id/event_repetition",
            ),
        ]
        dialog = None
        kind = route.get("dialog")
        if kind in ("start_time", "end_time"):
            current = start if kind == "start_time" else end
            dialog = number_dialog(
                self,
                route,
                "Set time",
                (("p1", f"Hour ({current.hour:02d})"), ("p2", f"Minute ({current.minute:02d})")),
                lambda: self._apply_pick(route),
            )
        elif kind in ("start_date", "end_date"):
            current = start if kind == "start_date" else end
            fields = (("p1", f"Month ({current.month})"), ("p2", f"Day ({current.day})"), ("p3", f"Year ({current.year})"))
            dialog = number_dialog(self, route, "Set date", fields, lambda: self._apply_pick(route))
        elif kind == "repeat":

            def choose(seconds: int) -> None:
                route["repeat"] = seconds
                self.set_dialog(None)

            dialog = Dialog(
                "Repetition",
                [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None))],
                body=[ListItem(name, on_tap=lambda s=seconds: choose(s), height=120) for name, seconds in REPETITIONS.items()],
            )
        elif kind == "delete":
            dialog = confirm_dialog(
                self, "Delete event", "Are you sure you want to delete this event?", "Delete", lambda: self._delete(route)
            )
        actions: list[Widget] = [IconButton("Save", "✓", on_tap=lambda: self._save(route))]
        if route["event_id"] is not None:
            actions.insert(0, IconButton("Delete", "✕", on_tap=lambda: self.set_dialog("delete")))
        return ScreenSpec(
            title="Edit Event" if route["event_id"] is not None else "New Event", up=self.pop, body=body, actions=actions, dialog=dialog
        )
