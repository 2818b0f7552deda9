"""OpenTracks' six information-retrieval questions (AndroidWorld's ``SportsTracker*``), seeded and
judged through ``content://de.dennisguse.opentracks.content/tracks``, the stand-in for the
app's ``tracks`` table that AndroidWorld fills and reads with sqlite.

Each question's relevant state is AndroidWorld's (``tasks.textproto``): the activities that
answer it, then twenty random ones (``activity_app_utils._generate_random_activity``: a category
and a name for it, a start in the two weeks before the device's now, 1 to 299 minutes, up to
20 km, up to 500 m of climb and descent) that its exclusion conditions let through, shuffled.
Distances are stored as AndroidWorld stores them: rounded to what two decimals of a mile give
back, so the app's miles read back to the metre. The answer is worked out from the tracks on the
device and scored as AndroidWorld's ``check_agent_answer`` scores it (distances within 10 m).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import ClassVar

import numpy as np

from cerebellum_gym.devices.base import Row
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.answers import Expected
from cerebellum_gym.tasks.registry import register_task
from cerebellum_gym.tasks.retrieval import (
    NOW,
    ListQuestion,
    Reading,
    as_text,
    day_of_ms,
    draw_distinct,
    number,
    random_moment,
    stamp_ms,
    week_of,
)

TRACKS_URI = "content://de.dennisguse.opentracks.content/tracks"
TRACKS_PACKAGE = "de.dennisguse.opentracks"
#: AndroidWorld's miles-to-metres factor (``activity_app_utils._MILES_TO_METERS``).
MILES_TO_METERS = 1609.34
#: The tolerance of AndroidWorld's distance answers, in metres.
DISTANCE_TOLERANCE = 10.0
_POOLS: dict[str, tuple[str, ...]] = {
    "category": awdata.SPORTS_CATEGORIES,
    "duration": awdata.SPORTS_DURATIONS,
    "distance": awdata.SPORTS_DISTANCES,
    "start_time": awdata.SPORTS_START_TIMES,
    "elevation": awdata.SPORTS_ELEVATIONS,
    "activity_name": awdata.SPORTS_NAMES,
    "activity_description": awdata.SPORTS_DESCRIPTIONS,
}
_WEEK = "Assume the week starts from Monday."


def stored_distance(metres: float) -> int:
    """``_distance_rounding_error_conversion``: to miles at two decimals and back, to the metre."""
    return round(round(metres * (1.0 / MILES_TO_METERS), 2) * MILES_TO_METERS)


def track_row(
    rng: np.random.Generator,
    name: str,
    *,
    category: str,
    start: tuple[str, str],
    minutes: float,
    metres: float,
    climb: int,
    descent: int,
    description: str = "",
) -> dict[str, str]:
    """A ``tracks`` row as ``_create_activity_from_proto`` makes it (times in ms; AndroidWorld's
    own average speed, which the app recomputes from distance over time; a random ``uuid``, hex
    as the provider keeps a BLOB; NULL ``icon`` left out)."""
    begin = stamp_ms(*start)
    total = int(minutes * 60 * 1000)
    distance = float(stored_distance(metres))
    speed = distance / (total * 1000) if total else 0.0
    return {
        "name": name,
        "description": description,
        "category": category,
        "activity_type": category,
        "starttime": str(begin),
        "stoptime": str(begin + total),
        "numpoints": "0",
        "totaldistance": repr(distance),
        "totaltime": str(total),
        "movingtime": str(total),
        "avgspeed": repr(speed),
        "avgmovingspeed": repr(speed),
        "maxspeed": "0.0",
        "minelevation": "0.0",
        "maxelevation": "0.0",
        "elevationgain": repr(float(climb)),
        "elevationloss": repr(float(descent)),
        "uuid": rng.bytes(16).hex(),
        "starttime_offset": "0",
    }


def random_track(rng: np.random.Generator) -> dict[str, str]:
    """``activity_app_utils._generate_random_activity``."""
    category = awdata.pick(rng, tuple(awdata.ACTIVITY_NAMES))
    name = awdata.pick(rng, awdata.ACTIVITY_NAMES[category])
    start = as_text(random_moment(rng, centre=NOW - timedelta(days=7)))
    minutes = int(rng.integers(1, 60 * 5))
    metres = int(rng.integers(0, 20001))
    climb, descent = (int(v) for v in rng.integers(0, 501, size=2))
    return track_row(rng, name, category=category, start=start, minutes=minutes, metres=metres, climb=climb, descent=descent)


def start_day(row: Row) -> date:
    return day_of_ms(int(number(row, "starttime")))


def minutes(row: Row) -> int:
    return round(number(row, "totaltime") / 60000)


def by_start(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: number(r, "starttime"))


class SportsQuestion(ListQuestion):
    """An OpenTracks question (family ``opentracks``). Complexities are the textproto's, which
    the live AndroidWorld task takes (not the registry's class-level overrides)."""

    app: ClassVar[str] = "OpenTracks"
    family: ClassVar[str] = "opentracks"
    complexity: ClassVar[float] = 1.0
    uri: ClassVar[str] = TRACKS_URI
    package: ClassVar[str] = TRACKS_PACKAGE
    app_label: ClassVar[str] = "OpenTracks"
    pools: ClassVar[dict[str, tuple[str, ...]]] = _POOLS
    #: How many activities of the question's category its state has, and the days they start on.
    count: ClassVar[int] = 2
    #: Whether the state's activities draw their days from the week (else the question's date).
    in_week: ClassVar[bool] = True

    def noise_row(self, rng: np.random.Generator) -> dict[str, str]:
        return random_track(rng)

    def category(self) -> str:
        return str(self.params.get("category", ""))

    def of_category(self, row: Row) -> bool:
        return row.get("category", "").lower() == self.category().lower()

    def close_category(self, row: Row) -> bool:
        """AndroidWorld's ``CONTAINS`` condition on the category."""
        return self.category().lower() in row.get("category", "").lower()

    def this_week(self, row: Row) -> bool:
        monday, _ = week_of(awdata.DEVICE_TODAY)
        return monday <= start_day(row) <= awdata.DEVICE_TODAY

    def activities(
        self, rng: np.random.Generator, days: list[str], *, category: str | None = None, metres: str | None = None
    ) -> list[dict[str, str]]:
        """The state's activities: every field without replacement but the ones the question fixes."""
        n = len(days)
        names = draw_distinct(rng, awdata.SPORTS_NAMES, n)
        notes = draw_distinct(rng, awdata.SPORTS_DESCRIPTIONS, n)
        categories = [category] * n if category else draw_distinct(rng, awdata.SPORTS_CATEGORIES, n)
        times = draw_distinct(rng, awdata.SPORTS_START_TIMES, n)
        lengths = draw_distinct(rng, awdata.SPORTS_DURATIONS, n)
        distances = [metres] * n if metres else draw_distinct(rng, awdata.SPORTS_DISTANCES, n)
        # Climb and descent are two fields, each drawn without replacement.
        climbs = draw_distinct(rng, awdata.SPORTS_ELEVATIONS, 2 * n)
        return [
            track_row(
                rng,
                names[i],
                category=categories[i],
                start=(days[i], times[i]),
                minutes=float(lengths[i]),
                metres=float(distances[i]),
                climb=int(climbs[2 * i]),
                descent=int(climbs[2 * i + 1]),
                description=notes[i],
            )
            for i in range(n)
        ]

    def week_days(self, rng: np.random.Generator) -> list[str]:
        return draw_distinct(rng, awdata.SPORTS_WEEK_DATES, self.count)


def names_reading(rows: list[Row], answer: str, expected: Expected, open_text: str | None = None) -> Reading:
    return Reading(answer, tuple(r.get("name", "") for r in rows), open_text=open_text, expected=expected)


@register_task
class SportsTrackerActivitiesOnDate(SportsQuestion):
    mirrors = "SportsTrackerActivitiesOnDate"
    complexity: ClassVar[float] = 2.0
    template = (
        "What activities did I do {date} in the OpenTracks app? Answer with the activity type only. "
        "If there are multiple types, format your answer in a comma separated list."
    )
    judge = (
        "The answer lists the categories of the two activities of that day (fuzzy 0.9, any order), as AndroidWorld's check_agent_answer."
    )
    dates: ClassVar[dict[str, tuple[str, ...]]] = {"date": awdata.SPORTS_ON_DATE_DATES}

    def state_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        day = self.day("date").strftime("%B %d %Y")
        return self.activities(rng, [day, day])

    def excluded(self, row: dict[str, str]) -> bool:
        return start_day(row) == self.day("date")

    def expect(self, rows: list[Row]) -> Reading:
        found = by_start([r for r in rows if start_day(r) == self.day("date")])
        kinds = [r.get("category", "") for r in found]
        return names_reading(found, ", ".join(kinds), Expected.text(kinds))


class WeekQuestion(SportsQuestion):
    """A question on this week's activities of one category: two of them in the state, and no
    random one of a category containing it this week."""

    pools: ClassVar[dict[str, tuple[str, ...]]] = {**_POOLS, "start_date": awdata.SPORTS_WEEK_DATES}

    def state_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        return self.activities(rng, self.week_days(rng), category=self.category())

    def excluded(self, row: dict[str, str]) -> bool:
        return self.close_category(row) and self.this_week(row)

    def of_week(self, rows: list[Row]) -> list[Row]:
        """This week's activities of the category, by start."""
        return by_start([r for r in rows if self.of_category(r) and self.this_week(r)])


@register_task
class SportsTrackerActivitiesCountForWeek(WeekQuestion):
    mirrors = "SportsTrackerActivitiesCountForWeek"
    template = (
        f"How many {{category}} activities did I do this week in the OpenTracks app? {_WEEK} Express your answer as a single integer."
    )
    judge = "The answer is the number of this week's activities of the category (two), as AndroidWorld's check_agent_answer."

    def expect(self, rows: list[Row]) -> Reading:
        found = self.of_week(rows)
        return names_reading(found, str(len(found)), Expected.number([len(found)]))


@register_task
class SportsTrackerActivityDuration(SportsQuestion):
    mirrors = "SportsTrackerActivityDuration"
    template = "How long was my {category} activity {date} in the OpenTracks app? Express your answer in minutes as a single integer."
    judge = "The answer is the duration in minutes of that day's activity of the category, as AndroidWorld's check_agent_answer."
    dates: ClassVar[dict[str, tuple[str, ...]]] = {"date": awdata.SPORTS_DURATION_DATES}

    def state_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        p = self.params
        day = self.day("date").strftime("%B %d %Y")
        climb, descent = (int(v) for v in draw_distinct(rng, awdata.SPORTS_ELEVATIONS, 2))
        row = track_row(
            rng,
            str(p.get("activity_name") or awdata.pick(rng, awdata.SPORTS_NAMES)),
            category=self.category(),
            start=(day, str(p.get("start_time") or awdata.pick(rng, awdata.SPORTS_START_TIMES))),
            minutes=float(p.get("duration") or awdata.pick(rng, awdata.SPORTS_DURATIONS)),
            metres=float(p.get("distance") or awdata.pick(rng, awdata.SPORTS_DISTANCES)),
            climb=climb,
            descent=descent,
            description=str(p.get("activity_description") or ""),
        )
        return [row]

    def _target(self, row: Row) -> bool:
        return start_day(row) == self.day("date")

    def excluded(self, row: dict[str, str]) -> bool:
        return self._target(row) and self.close_category(row)

    def expect(self, rows: list[Row]) -> Reading:
        found = by_start([r for r in rows if self._target(r) and self.of_category(r)])
        spans = [minutes(r) for r in found]
        return names_reading(found, ", ".join(map(str, spans)), Expected.number(spans), found[0].get("name") if found else None)


@register_task
class SportsTrackerLongestDistanceActivity(WeekQuestion):
    mirrors = "SportsTrackerLongestDistanceActivity"
    template = (
        "What was the longest distance covered in a {category} activity in the OpenTracks app this week? "
        f"{_WEEK} Express your answer as a single number in meters rounded to the nearest integer."
    )
    judge = (
        "The answer is the longest distance of this week's activities of the category, in metres within 10 m, as "
        "AndroidWorld's check_agent_answer."
    )
    count: ClassVar[int] = 1

    def state_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        return self.activities(rng, self.week_days(rng), category=self.category(), metres=str(self.params.get("distance") or "1000"))

    def excluded(self, row: dict[str, str]) -> bool:
        floor = stored_distance(float(self.params.get("distance") or 0))
        return self.close_category(row) and number(row, "totaldistance") >= floor and self.this_week(row)

    def expect(self, rows: list[Row]) -> Reading:
        found = self.of_week(rows)
        longest = max((number(r, "totaldistance") for r in found), default=0.0)
        return names_reading(found, str(round(longest)), Expected.number([longest], tolerance=DISTANCE_TOLERANCE))


@register_task
class SportsTrackerTotalDurationForCategoryThisWeek(WeekQuestion):
    mirrors = "SportsTrackerTotalDurationForCategoryThisWeek"
    template = (
        "What was the total duration of {category} activities in the OpenTracks app this week? "
        f"{_WEEK} Express your answer in minutes as a single integer."
    )
    judge = "The answer is the summed minutes of this week's two activities of the category, as AndroidWorld's check_agent_answer."

    def expect(self, rows: list[Row]) -> Reading:
        found = self.of_week(rows)
        total = sum(minutes(r) for r in found)
        return names_reading(found, str(total), Expected.number([total]))


@register_task
class SportsTrackerTotalDistanceForCategoryOverInterval(SportsQuestion):
    mirrors = "SportsTrackerTotalDistanceForCategoryOverInterval"
    complexity: ClassVar[float] = 2.0
    template = (
        "What was the total distance covered for {category} activities in the OpenTracks app from {start_date} to "
        "{end_date}? Express your answer as a single number in meters rounded to the nearest integer."
    )
    judge = (
        "The answer is the summed distance of the category's activities between the two days, in metres within 10 m, "
        "as AndroidWorld's check_agent_answer."
    )
    dates: ClassVar[dict[str, tuple[str, ...]]] = {"start_date": awdata.SPORTS_INTERVAL_STARTS, "end_date": awdata.TASKS_PAST_WEEK_DATES}

    def _within(self, row: Row) -> bool:
        return self.day("start_date") <= start_day(row) <= self.day("end_date")

    def state_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        day = self.day("start_date").strftime("%B %d %Y")
        return self.activities(rng, [day, day], category=self.category())

    def excluded(self, row: dict[str, str]) -> bool:
        return self.close_category(row) and self._within(row)

    def expect(self, rows: list[Row]) -> Reading:
        found = by_start([r for r in rows if self.of_category(r) and self._within(r)])
        total = sum(number(r, "totaldistance") for r in found)
        return names_reading(found, str(round(total)), Expected.number([total], tolerance=DISTANCE_TOLERANCE))
