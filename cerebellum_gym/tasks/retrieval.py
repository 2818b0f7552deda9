"""What the information-retrieval tasks of list apps share: AndroidWorld's seeding (its rows from
the task's state, then twenty random rows its exclusion conditions let through, shuffled), its
date wording, a judge that scores the answer with :mod:`~cerebellum_gym.tasks.answers` against
the answer worked out from the rows on the device, and an oracle that reads the answer off the
app's list before saying it.

A task names its app's provider (``uri``), builds its seeded rows (:meth:`ListQuestion.state_rows`,
:meth:`ListQuestion.noise_row`, :meth:`ListQuestion.excluded`) and works the answer out of the
device's rows (:meth:`ListQuestion.expect`). The answer is worked out from the device, not from
the parameters, so the judge holds however the rows got there (AndroidWorld's own set-up picks
titles and times without replacement, which its parameters do not record).
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.core.state import register_state_type
from cerebellum_gym.devices.base import Device, Row
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.answers import Expected, score_answer
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.calendar import parse_time, reworded_dates
from cerebellum_gym.tasks.oracle import ScriptedOracle, label_for

#: AndroidWorld's device clock (``device_constants.DT``): the centre of its random windows.
NOW = datetime(2023, 10, 15, 15, 34, tzinfo=timezone.utc)
#: AndroidWorld's random rows per task (``generate_random_tasks(20, ...)`` and the like).
NOISE_ROWS = 20
_DAY_MS = 86_400_000


def parse_day(text: str) -> date:
    """A ``"%B %d %Y"`` date (``October 15 2023``)."""
    return datetime.strptime(text, "%B %d %Y").date()


def day_named(text: str, pool: Sequence[str]) -> date:
    """The day a question names: a written date, or AndroidWorld's rewording of one of ``pool``
    (``today``, ``this Friday``, ``October 17``), resolved against the pool the task draws from."""
    for fmt in ("%B %d %Y", "%Y-%m-%d"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            pass
    for option in pool:
        day = parse_day(option)
        if text in reworded_dates(day):
            return day
    raise ValueError(f"{text!r} names none of the task's days")


def reword(rng: np.random.Generator, day: date) -> str:
    """One of AndroidWorld's ways of naming ``day`` (``generate_reworded_date``)."""
    return awdata.pick(rng, reworded_dates(day))


def stamp_ms(date_text: str, time_text: str = "") -> int:
    """``convert_datetime_to_unix_ts(date, time) * 1000``: milliseconds, UTC, midnight if no time."""
    hour, minute = parse_time(time_text) if time_text else (0, 0)
    return int(datetime.combine(parse_day(date_text), time(hour, minute), timezone.utc).timestamp()) * 1000


def day_of_ms(ms: int) -> date:
    """The UTC day of a millisecond time (``timestamp_to_localized_datetime(ms // 1000)``)."""
    return datetime.fromtimestamp(int(ms / 1000), timezone.utc).date()


def random_moment(rng: np.random.Generator, window: timedelta = timedelta(days=14), centre: datetime = NOW) -> datetime:
    """``generate_random_datetime``: a whole minute of the window around ``centre``."""
    start = centre - window / 2
    return start + timedelta(minutes=int(rng.integers(window.days * 24 * 60)))


def as_text(moment: datetime) -> tuple[str, str]:
    """A moment as the date and time strings AndroidWorld's state protos hold."""
    return moment.strftime("%B %d %Y"), moment.strftime("%H:%M")


def week_of(day: date) -> tuple[date, date]:
    """Monday to Sunday of the week ``day`` is in ("assume the week starts from Monday")."""
    monday = day - timedelta(days=day.weekday())
    return monday, monday + timedelta(days=6)


def number(row: Row, column: str) -> float:
    try:
        return float(row.get(column) or 0)
    except ValueError:
        return 0.0


def draw_distinct(rng: np.random.Generator, pool: Sequence[str], n: int) -> list[str]:
    """``n`` values of ``pool`` without replacement, as ``{name_without_replacement}`` fields get
    them (a value listed twice in the pool may come twice)."""
    left = list(pool)
    out = []
    for _ in range(n):
        out.append(left.pop(int(rng.integers(len(left)))))
    return out


@register_state_type
@dataclass
class Reading:
    """What the oracle needs: the answer, the texts it must have seen on screen first, the
    list options to switch on, and a row to open."""

    answer: str
    texts: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    open_text: str | None = None
    expected: Expected = field(default_factory=lambda: Expected.text([]))


class ReadingOracle(ScriptedOracle):
    """Open the app, switch on the list options the question needs (its options menu), scroll
    the list until every text of the answer has been on screen, open a row if asked, and say the
    answer."""

    def __init__(self, package: str, app_label: str, reading: Reading, menu: str = "More options", menu_done: str = "Done") -> None:
        super().__init__()
        self.package, self.app_label, self.reading = package, app_label, reading
        self.menu, self.menu_done = menu, menu_done
        self.pending_options = list(reading.options)
        self.unseen = set(reading.texts)
        self.opened = False

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, self.package, self.app_label)
        if step is not None:
            return step
        if self.pending_options or label_for(screen, text=self.menu_done):
            return self._options(screen)
        self.unseen -= {n.text for n in screen.root.iter() if n.text}
        if self.opened:
            return f"F {self.reading.answer}"
        if self.unseen:
            action = self.scroll_search(screen)
            if action != "B":
                return action
            self.unseen.clear()  # the list has been looked through: say what is known
        target = self.reading.open_text
        if target is not None:
            label = label_for(screen, text=target)
            if label is not None:
                self.opened = True
                return self.tap(label)
            action = self.scroll_search(screen)
            if action != "B":
                return action
        return f"F {self.reading.answer}"

    def _options(self, screen: LabelledScreen) -> str:
        done = label_for(screen, text=self.menu_done)
        if done is None:
            label = label_for(screen, desc=self.menu)
            return self.tap(label) if label else "B"
        if self.pending_options:
            option = self.pending_options.pop(0)
            label = label_for(screen, text=option)
            if label is not None:
                return self.tap(label)
        return self.tap(done)


class ListQuestion(Task, abc.ABC):
    """A question answered from an app's list: AndroidWorld's seeding, the answer judged as
    AndroidWorld judges it. Subclasses set the app, the template and the seeding."""

    answer: ClassVar[bool] = True
    #: The question's date parameters (reworded in the goal) and the pools their days come from.
    dates: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: AndroidWorld's other parameters and their pools (drawn as AndroidWorld draws them).
    pools: ClassVar[dict[str, tuple[str, ...]]] = {}
    uri: ClassVar[str] = ""
    package: ClassVar[str] = ""
    #: The app's name on the home screen.
    app_label: ClassVar[str] = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(params)
        self._reading = Reading("")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        params: dict[str, Any] = {}
        for name, pool in cls.dates.items():
            raw = awdata.pick(rng, pool)
            params[name], params[f"{name}_day"] = reword(rng, parse_day(raw)), raw
        params.update({name: awdata.pick(rng, pool) for name, pool in cls.pools.items()})
        params["noise_seed"] = int(rng.integers(2**31))
        return params

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        # The day behind each date parameter, however AndroidWorld worded it; the rows come from
        # AndroidWorld's own set-up, and the answer from the device.
        return {**params, **{f"{name}_day": params[name] for name in cls.dates if name in params}, "noise_seed": 0}

    def day(self, name: str) -> date:
        """The day date parameter ``name`` names."""
        return day_named(str(self.params.get(f"{name}_day") or self.params[name]), self.dates[name])

    # --- seeding ------------------------------------------------------------------------------

    @abc.abstractmethod
    def state_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        """The rows of the task's relevant state (the question's answer is in them)."""

    @abc.abstractmethod
    def noise_row(self, rng: np.random.Generator) -> dict[str, str]:
        """One of AndroidWorld's random rows."""

    def excluded(self, row: dict[str, str]) -> bool:
        """Whether a random row meets every exclusion condition (and so is not seeded)."""
        return False

    def initialize(self, device: Device) -> None:
        rng = np.random.default_rng(int(self.params.get("noise_seed", 0)))
        rows = self.state_rows(rng)
        wanted = len(rows) + NOISE_ROWS
        while len(rows) < wanted:
            candidate = self.noise_row(rng)
            if not self.excluded(candidate):
                rows.append(candidate)
        device.content_delete(self.uri)
        for i in rng.permutation(len(rows)):
            device.content_insert(self.uri, rows[int(i)])
        self.baseline(device)

    # --- judging ------------------------------------------------------------------------------

    @abc.abstractmethod
    def expect(self, rows: list[Row]) -> Reading:
        """The answer the device's rows give, and what the oracle reads it from."""

    def baseline(self, device: Device) -> None:
        self._reading = self.expect(device.content_query(self.uri))

    def progress(self, device: Device, answer: str | None = None) -> float:
        return score_answer(answer, self._reading.expected)

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        return ReadingOracle(self.package, self.app_label, Reading(**{**self._reading.__dict__}))


def day_range_ms(first: date, last: date) -> tuple[int, int]:
    """Milliseconds from the start of ``first`` to the end of ``last`` (half-open)."""
    start = int(datetime.combine(first, time(0), timezone.utc).timestamp()) * 1000
    return start, start + ((last - first).days + 1) * _DAY_MS
