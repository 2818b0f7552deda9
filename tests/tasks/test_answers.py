"""The answer judge (``cerebellum_gym.tasks.answers``) against AndroidWorld's own
``proto_utils.check_agent_answer``: hand-picked cases, then generated answers and expectations
that both must score alike (AndroidWorld's real wheel, no fake)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cerebellum_gym.tasks.answers import (
    Expected,
    check_answer,
    format_date,
    parse_answer,
    parse_date,
    parse_expected_time,
    score_answer,
    text_matches,
)

task_pb2 = pytest.importorskip("android_world.task_evals.information_retrieval.proto.task_pb2")
proto_utils = pytest.importorskip("android_world.task_evals.information_retrieval.proto_utils")

_MATCH = {"text": "STRING_MATCH", "number": "NUMBER_MATCH", "date": "DATE_MATCH", "time": "TIME_MATCH"}
_FIELD = {"text": "title", "number": "importance", "date": "due_date", "time": "due_time"}


def aw_task(kind: str, values: list[str], *, tolerance: float | None = None, operation: str = "IDENTITY") -> Any:
    """An AndroidWorld Task proto whose expected answer is ``values`` (tasks-app rows' fields)."""
    task = task_pb2.Task()
    kinds = ["date", "time"] if kind == "datetime" else [kind]
    for row_values in values:
        row = task.relevant_state.state.tasks_app.tasks_app_tasks.add()
        parts = row_values.split(" @ ") if kind == "datetime" else [row_values]
        for part_kind, part in zip(kinds, parts, strict=True):
            setattr(row, _FIELD[part_kind], part)
    for part_kind in kinds:
        exp = task.success_criteria.expectations.add()
        exp.match_type = task_pb2.Expectation.MatchType.Value(_MATCH[part_kind])
        exp.field_transformation.operation = task_pb2.FieldTransformation.Operation.Value(operation)
        exp.field_transformation.field_name = _FIELD[part_kind]
        if tolerance is not None:
            exp.tolerance = tolerance
    return task


def aw_score(answer: str, task: Any) -> bool:
    """AndroidWorld's verdict as ``is_successful`` gives it (empty or unparsable: 0.0)."""
    if not answer:
        return False
    try:
        return bool(proto_utils.check_agent_answer(answer, task))
    except ValueError:
        return False


def ours(kind: str, values: list[str], tolerance: float | None = None, operation: str = "IDENTITY") -> Expected:
    """The same expectation as :func:`aw_task`, built the way a project judge builds it."""
    if operation == "SUM":
        return Expected.number([sum(float(v) for v in values)], tolerance)
    if operation == "COUNT":
        return Expected.number([len(values)], tolerance)
    if kind == "datetime":
        combined = [dt.datetime.combine(parse_date(d), parse_expected_time(t)) for d, t in (v.split(" @ ") for v in values)]
        return Expected.datetime(combined)
    if kind == "number":
        return Expected.number(values, tolerance)
    return Expected(kind, tuple(values))  # type: ignore[arg-type]


# -- hand-picked cases ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "want", "expected"),
    [
        ("Buy milk", ["buy milk"], True),
        ("  Buy milk  ", ["Buy milk"], True),
        ("Buy milkk", ["Buy milk"], True),  # ratio 0.94
        ("Buy silk", ["Buy milk"], False),  # 0.875
        ("Walk dog, Buy milk", ["Buy milk", "Walk dog"], True),
        ("Buy milk", ["Buy milk", "Walk dog"], False),  # too few
        ("Buy milk, Walk dog, Feed cat", ["Buy milk", "Walk dog"], False),  # too many
        ("Buy milk, Buy milk", ["Buy milk", "Walk dog"], True),  # AndroidWorld does not pair items off
        ("", ["Buy milk"], False),
        (None, ["Buy milk"], False),
    ],
)
def test_text_answers(answer: str | None, want: list[str], expected: bool) -> None:
    assert check_answer(answer, Expected.text(want)) is expected
    if answer:
        assert aw_score(answer, aw_task("text", want)) is expected


def test_numbers_exact_and_with_tolerance() -> None:
    assert check_answer("3", Expected.number([3]))
    assert check_answer("3.0", Expected.number(["3"]))
    assert not check_answer("3.01", Expected.number([3]))
    assert not check_answer("three", Expected.number([3]))
    # Tolerance is an open bound, as in AndroidWorld: 10 m either way, not 10 itself.
    assert check_answer("4995", Expected.number([5000], tolerance=10))
    assert not check_answer("4990", Expected.number([5000], tolerance=10))
    # A thousands separator is a comma, so "5,000" is two items.
    assert not check_answer("5,000", Expected.number([5000]))


def test_float32_tolerance_matches_androidworld() -> None:
    # 0.1 as a proto float is 0.10000000149..., so a difference of exactly 0.1 in doubles passes.
    expected = Expected.number([0.2], tolerance=0.1)
    assert expected.tolerance is not None and expected.tolerance > 0.1
    assert check_answer("0.3", expected) == aw_score("0.3", aw_task("number", ["0.2"], tolerance=0.1))


def test_dates_and_times() -> None:
    want = Expected.date(["October 15 2023"])
    assert check_answer("October 15 2023", want)
    assert check_answer("october 15 2023", want)
    assert not check_answer("Oct 15 2023", want)
    assert not check_answer("15 October 2023", want)
    assert not check_answer("October 16 2023", want)
    assert check_answer("October 5 2023", Expected.date([dt.date(2023, 10, 5)]))
    assert format_date(dt.date(2023, 10, 5)) == "October 05 2023"
    times = Expected.time(["3pm"])
    assert check_answer("15:00", times)
    assert not check_answer("3pm", times)  # an agent's time is %H:%M only
    both = Expected.datetime([dt.datetime(2023, 10, 15, 9, 30)])
    assert check_answer("October 15 2023 09:30", both)
    assert not check_answer("October 15 2023", both)


def test_bad_expectations_are_refused() -> None:
    with pytest.raises(ValueError, match="numbers only"):
        Expected.text(["a"]).__class__("text", ("a",), 1.0)
    with pytest.raises(TypeError):
        Expected.date([dt.time(3, 0)])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        Expected.date(["not a date"])
    with pytest.raises(ValueError):
        parse_expected_time("25 o'clock")
    with pytest.raises(ValueError):
        parse_answer("1, two", "number")


def test_score_and_text_match() -> None:
    assert score_answer("Walk dog", Expected.text(["walk dog"])) == 1.0
    assert score_answer("Walk cat", Expected.text(["walk dog"])) == 0.0
    assert text_matches("ABCDEFGHIJ", "abcdefghij")


# -- generated cases, judged by both ----------------------------------------------------------

_WORDS = st.text(alphabet="abcdeAB ,.-xy", min_size=0, max_size=14)
_DAYS = st.dates(min_value=dt.date(2020, 1, 1), max_value=dt.date(2026, 12, 31))
_TIMES = st.times().map(lambda t: t.replace(second=0, microsecond=0))
_DATE_FORMS = ["%B %d %Y", "%B %-d %Y", "%b %d %Y", "%d %B %Y", "%B %d, %Y", "%A"]
_TIME_FORMS = ["%H:%M", "%-H:%M", "%I:%M%p", "%I%p", "%H:%M:%S"]


def _mutate_text(draw: st.DrawFn, value: str) -> str:
    kind = draw(st.sampled_from(["same", "case", "typo", "drop", "other"]))
    if kind == "case":
        return value.swapcase()
    if kind == "typo" and value:
        i = draw(st.integers(0, len(value) - 1))
        return value[:i] + draw(st.sampled_from("zq")) + value[i + 1 :]
    if kind == "drop" and value:
        return value[1:]
    if kind == "other":
        return draw(_WORDS)
    return value


@st.composite
def text_cases(draw: st.DrawFn) -> tuple[list[str], str]:
    values = draw(st.lists(_WORDS.filter(lambda s: "," not in s), min_size=1, max_size=3))
    items = [_mutate_text(draw, v) for v in draw(st.permutations(values))]
    if draw(st.booleans()):
        items = draw(st.lists(st.sampled_from(items), min_size=1, max_size=4))
    sep = draw(st.sampled_from([",", ", ", " , "]))
    return values, sep.join(items)


@st.composite
def number_cases(draw: st.DrawFn) -> tuple[list[str], str, float | None, str]:
    numbers = draw(
        st.lists(st.integers(-50, 5000) | st.floats(-100, 100, allow_nan=False).map(lambda f: round(f, 2)), min_size=1, max_size=3)
    )
    values = [str(n) for n in numbers]
    tolerance = draw(st.sampled_from([None, 0.1, 0.5, 1.0, 10.0]))
    operation = draw(st.sampled_from(["IDENTITY", "SUM", "COUNT"]))
    sums: dict[str, list[float]] = {
        "IDENTITY": [float(n) for n in numbers],
        "SUM": [sum(float(v) for v in values)],
        "COUNT": [float(len(values))],
    }
    base = sums[operation]
    items = []
    for n in base:
        shift = draw(st.sampled_from([0, 0, 0.05, -0.1, 0.1, 0.5, 1, 9.99, 10, 10.01, 100]))
        form = draw(st.sampled_from(["{:g}", "{}", "{:.1f}", "{:.3f}", " {} ", "{}m", "1_{}"]))
        items.append(form.format(float(n) + shift))
    if draw(st.booleans()):
        items = items[:-1] or items + items
    return values, ", ".join(items), tolerance, operation


@st.composite
def date_cases(draw: st.DrawFn) -> tuple[list[str], str]:
    days = draw(st.lists(_DAYS, min_size=1, max_size=3, unique=True))
    values = [d.strftime("%B %d %Y") for d in days]
    items = []
    for d in draw(st.permutations(days)):
        shifted = d + dt.timedelta(days=draw(st.sampled_from([0, 0, 0, 1, -1, 365])))
        text = shifted.strftime(draw(st.sampled_from(_DATE_FORMS)))
        items.append(text.lower() if draw(st.booleans()) else text)
    return values, ", ".join(items)


@st.composite
def time_cases(draw: st.DrawFn) -> tuple[list[str], str]:
    times = draw(st.lists(_TIMES, min_size=1, max_size=2))
    values = [t.strftime(draw(st.sampled_from(["%H:%M", "%I:%M%p", "%I%p"])) if t.minute == 0 else "%H:%M") for t in times]
    items = [dt.datetime.combine(dt.date(2023, 1, 1), t).strftime(draw(st.sampled_from(_TIME_FORMS))) for t in draw(st.permutations(times))]
    return values, ", ".join(items)


@st.composite
def datetime_cases(draw: st.DrawFn) -> tuple[list[str], str]:
    pairs = draw(st.lists(st.tuples(_DAYS, _TIMES), min_size=1, max_size=2))
    values = [f"{d.strftime('%B %d %Y')} @ {t.strftime('%H:%M')}" for d, t in pairs]
    items = []
    for d, t in draw(st.permutations(pairs)):
        moment = dt.datetime.combine(d, t) + dt.timedelta(minutes=draw(st.sampled_from([0, 0, 1, 60])))
        items.append(moment.strftime(draw(st.sampled_from(["%B %d %Y %H:%M", "%B %d %Y %I:%M%p", "%B %d %Y"]))))
    return values, ", ".join(items)


_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


_CASES = {"text": text_cases(), "date": date_cases(), "time": time_cases(), "datetime": datetime_cases()}


@pytest.mark.parametrize("kind", sorted(_CASES))
@_SETTINGS
@given(data=st.data())
def test_typed_answers_agree_with_androidworld(kind: str, data: st.DataObject) -> None:
    values, answer = data.draw(_CASES[kind])
    assert check_answer(answer, ours(kind, values)) == aw_score(answer, aw_task(kind, values))


@_SETTINGS
@given(number_cases())
def test_numbers_agree_with_androidworld(case: tuple[list[str], str, float | None, str]) -> None:
    values, answer, tolerance, operation = case
    want = aw_score(answer, aw_task("number", values, tolerance=tolerance, operation=operation))
    assert check_answer(answer, ours("number", values, tolerance, operation)) == want


def test_generated_cases_cover_both_verdicts() -> None:
    """The generators reach passes and failures alike (else agreement proves little)."""
    verdicts: set[bool] = set()

    @settings(max_examples=200, deadline=None, database=None)
    @given(text_cases())
    def collect(case: tuple[list[str], str]) -> None:
        values, answer = case
        verdicts.add(aw_score(answer, aw_task("text", values)))

    collect()
    assert verdicts == {True, False}
