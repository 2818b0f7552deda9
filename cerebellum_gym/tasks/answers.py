"""Scoring a question's ``F {answer}`` the way AndroidWorld's information-retrieval judge does.

AndroidWorld's ``proto_utils.check_agent_answer`` splits the agent's text at every comma, strips
each item, casts the items to the expectation's type and then asks that every item match *some*
expected value, with as many items as expected values (it does not pair them off: ``"a, a"``
passes against ``["a", "b"]``). Text matches fuzzily (case-insensitive ``difflib`` ratio at least
0.9, the agent's item first), numbers exactly or within a tolerance (``|x - y| < tolerance``),
dates as ``"%B %d %Y"`` (``October 15 2023``), times as ``"%H:%M"``, and date-times as both
separated by a space. An item that does not parse fails the whole answer (AndroidWorld's
``ValueError``, scored 0.0), as does an empty answer.

The project's judges describe what they expect with :class:`Expected` and call
:func:`check_answer`::

    >>> check_answer("Buy milk, walk the dog", Expected.text(["walk the dog", "buy milk"]))
    True
    >>> check_answer("12.34", Expected.number([12.3], tolerance=0.1))
    True
    >>> check_answer("October 5 2023", Expected.date(["October 05 2023"]))
    True

A value AndroidWorld holds as one string (an ``expected_value``) is one expected value even when
it contains commas; build :class:`Expected` from the same values AndroidWorld builds its list
from (the relevant state's field values, a sum as one number, a count as one integer).
"""

from __future__ import annotations

import datetime as dt
import difflib
import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from cerebellum_gym.core.state import register_state_type

#: AndroidWorld's date format for information-retrieval answers (``datetime_utils.DATE_FORMAT``).
DATE_FORMAT = "%B %d %Y"
#: The format of an answered time, and of a date-time after the date.
TIME_FORMAT = "%H:%M"
#: Fuzzy text match threshold (AndroidWorld's ``fuzzy_match_lib``).
TEXT_THRESHOLD = 0.9

AnswerKind = Literal["text", "number", "date", "time", "datetime"]
Value = str | float | dt.date | dt.time | dt.datetime

#: Time formats an *expected* time may be written in (AndroidWorld's ``parse_time``); an agent's
#: time must be ``%H:%M``.
_EXPECTED_TIME_FORMATS = ("%H:%M", "%I:%M%p", "%I%p")


def _float32(value: float) -> float:
    """``value`` as a 32-bit float: AndroidWorld's proto holds the tolerance as ``float``, so a
    tolerance of 0.1 compares as 0.100000001490116..."""
    return float(struct.unpack("<f", struct.pack("<f", value))[0])


def parse_date(text: str) -> dt.date:
    """A date written ``"%B %d %Y"`` (``"October 15 2023"``, day with or without its zero).

    Raises:
        ValueError: ``text`` is not such a date.
    """
    return dt.datetime.strptime(text, DATE_FORMAT).date()


def parse_expected_time(text: str) -> dt.time:
    """An expected time in any of AndroidWorld's forms: ``15:00``, ``3:00pm``, ``3pm``.

    Raises:
        ValueError: none of the forms reads ``text``.
    """
    for fmt in _EXPECTED_TIME_FORMATS:
        try:
            parsed = dt.datetime.strptime(text, fmt)
        except ValueError:
            continue
        return dt.time(parsed.hour, parsed.minute)
    raise ValueError(f"not a time: {text!r}")


def format_date(day: dt.date) -> str:
    """``day`` as an answer: ``"October 15 2023"``."""
    return day.strftime(DATE_FORMAT)


def _parse_item(kind: AnswerKind, item: str) -> Value:
    """One stripped answer item as ``kind``; ``ValueError`` when it does not read as one."""
    if kind == "text":
        return item
    if kind == "number":
        return float(item)
    if kind == "date":
        return parse_date(item)
    if kind == "time":
        return dt.datetime.strptime(item, TIME_FORMAT).time()
    if kind == "datetime":
        return dt.datetime.strptime(item, f"{DATE_FORMAT} {TIME_FORMAT}")
    raise ValueError(f"unknown answer kind {kind!r}")


def _as_value(kind: AnswerKind, value: Value | int) -> Value:
    """An expected value as ``kind``; strings are parsed as AndroidWorld parses expected fields."""
    if kind == "text":
        return str(value)
    if kind == "number":
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return float(value)
    elif isinstance(value, str):
        if kind == "date":
            return parse_date(value)
        if kind == "time":
            return parse_expected_time(value)
        return dt.datetime.strptime(value, f"{DATE_FORMAT} {TIME_FORMAT}")
    elif kind == "datetime" and isinstance(value, dt.datetime):
        return value.replace(second=0, microsecond=0)
    elif kind == "date" and isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    elif kind == "time" and isinstance(value, dt.time):
        return value.replace(second=0, microsecond=0)
    raise TypeError(f"{value!r} is not a {kind} value")


def text_matches(got: str, want: str) -> bool:
    """AndroidWorld's fuzzy text match: case-insensitive similarity ratio at least 0.9 (the
    agent's text first: ``difflib``'s ratio is not symmetric on long texts)."""
    return difflib.SequenceMatcher(None, got.lower(), want.lower()).ratio() >= TEXT_THRESHOLD


@register_state_type
@dataclass(frozen=True)
class Expected:
    """What a question's answer must be: its kind, the expected values and, for numbers, a
    tolerance.

    Build it with :meth:`text`, :meth:`number`, :meth:`date`, :meth:`time` or
    :meth:`datetime`, which accept typed values or AndroidWorld's strings.

    Attributes:
        kind: how items are read and compared.
        values: the expected values, typed (``str``, ``float``, ``date``, ``time``, ``datetime``).
        tolerance: for numbers, the open bound on ``|answer - expected|``; ``None`` compares
            exactly. Held as a 32-bit float, as AndroidWorld's proto holds it.
    """

    kind: AnswerKind
    values: tuple[Value, ...]
    tolerance: float | None = None

    def __post_init__(self) -> None:
        if self.tolerance is not None:
            if self.kind != "number":
                raise ValueError("a tolerance applies to numbers only")
            object.__setattr__(self, "tolerance", _float32(float(self.tolerance)))
        object.__setattr__(self, "values", tuple(_as_value(self.kind, v) for v in self.values))

    @classmethod
    def text(cls, values: Iterable[str]) -> Expected:
        """Texts, matched fuzzily."""
        return cls("text", tuple(values))

    @classmethod
    def number(cls, values: Iterable[float | int | str], tolerance: float | None = None) -> Expected:
        """Numbers, equal or within ``tolerance`` (a sum or a count is one value)."""
        return cls("number", tuple(values), tolerance)

    @classmethod
    def date(cls, values: Iterable[dt.date | str]) -> Expected:
        """Dates (``date`` objects or ``"October 15 2023"`` strings)."""
        return cls("date", tuple(values))

    @classmethod
    def time(cls, values: Iterable[dt.time | str]) -> Expected:
        """Times of day (``time`` objects or ``"15:00"``, ``"3:00pm"``, ``"3pm"``)."""
        return cls("time", tuple(values))

    @classmethod
    def datetime(cls, values: Iterable[dt.datetime | str]) -> Expected:
        """Date-times to the minute (``datetime`` objects or ``"October 15 2023 15:00"``)."""
        return cls("datetime", tuple(values))

    def _comparator(self) -> Callable[[Value, Value], bool]:
        if self.kind == "text":
            return lambda got, want: text_matches(str(got), str(want))
        tolerance = self.tolerance
        if tolerance is not None:
            return lambda got, want: abs(float(got) - float(want)) < tolerance  # type: ignore[arg-type]
        return lambda got, want: got == want


def parse_answer(answer: str, kind: AnswerKind) -> list[Value]:
    """The items of ``answer`` (split at commas, stripped), each read as ``kind``.

    Raises:
        ValueError: an item does not read as ``kind``.
    """
    return [_parse_item(kind, item.strip()) for item in answer.split(",")]


def check_answer(answer: str | None, expected: Expected) -> bool:
    """Whether the agent's ``F`` text answers as ``expected``, by AndroidWorld's rules: as many
    comma-separated items as expected values, each matching one of them; ``None``, an empty
    answer or an item that does not parse is wrong."""
    if not answer:
        return False
    try:
        items = parse_answer(answer, expected.kind)
    except ValueError:
        return False
    if len(items) != len(expected.values):
        return False
    same = expected._comparator()
    return all(any(same(item, want) for want in expected.values) for item in items)


def score_answer(answer: str | None, expected: Expected) -> float:
    """:func:`check_answer` as a judge's score: 1.0 or 0.0."""
    return 1.0 if check_answer(answer, expected) else 0.0


__all__ = [
    "DATE_FORMAT",
    "TEXT_THRESHOLD",
    "TIME_FORMAT",
    "AnswerKind",
    "Expected",
    "Value",
    "check_answer",
    "format_date",
    "parse_answer",
    "parse_date",
    "parse_expected_time",
    "score_answer",
    "text_matches",
]
