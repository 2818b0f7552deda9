"""Tasks.org's and OpenTracks' questions on the simulator: seeded as AndroidWorld seeds them, dates
named as AndroidWorld names them, answers judged as AndroidWorld judges them, and rarely solved
by random play.

Real: the phone, its databases and, where installed, AndroidWorld's row dataclasses and its
rewording function (its ``random.choice`` is steered to each option in turn).
"""

from __future__ import annotations

import sqlite3
from datetime import date

import numpy as np
import pytest

from cerebellum_gym.sim import databases
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks import awdata, get_task_class, make_task, task_names
from cerebellum_gym.tasks.calendar import reworded_dates
from cerebellum_gym.tasks.opentracks import stored_distance
from cerebellum_gym.tasks.retrieval import ListQuestion, day_named, parse_day

QUESTIONS = [n for n in task_names() if n.startswith(("Tasks", "SportsTracker"))]
DB = {
    "content://org.tasks/tasks": ("/data/data/org.tasks/databases/database", "tasks", "Task"),
    "content://de.dennisguse.opentracks.content/tracks": (
        "/data/data/de.dennisguse.opentracks/databases/database.db",
        "tracks",
        "SportsActivity",
    ),
}


def seeded(name: str, seed: int) -> tuple[Phone, ListQuestion]:
    phone = Phone()
    task = make_task(name, np.random.default_rng(seed))
    assert isinstance(task, ListQuestion)
    task.initialize(phone)
    return phone, task


def test_there_are_six_questions_per_app() -> None:
    assert len([n for n in QUESTIONS if n.startswith("Tasks")]) == 6
    assert len([n for n in QUESTIONS if n.startswith("SportsTracker")]) == 6
    assert all(get_task_class(n).mirrors == n and get_task_class(n).answer for n in QUESTIONS)


@pytest.mark.parametrize("name", QUESTIONS)
def test_seeding_is_the_state_and_twenty_rows_past_the_exclusions(name: str) -> None:
    for seed in range(4):
        phone, task = seeded(name, seed)
        rows = phone.content_query(task.uri)
        state = task.state_rows(np.random.default_rng(task.params["noise_seed"]))
        assert len(rows) == len(state) + 20
        noise = [r for r in rows if not any(r.get("title", r.get("name")) == s.get("title", s.get("name")) for s in state)]
        # Noise titles come from AndroidWorld's other lists; none meets every exclusion condition.
        assert len(noise) >= 20 - len(state) and not any(task.excluded(r) for r in noise), (name, seed)
        reading = task._reading
        assert reading.answer and reading.expected.values, (name, seed)
        assert task.progress(phone, reading.answer) == 1.0


@pytest.mark.parametrize("name", QUESTIONS)
def test_goals_name_days_as_androidworld_rewords_them(name: str) -> None:
    cls = get_task_class(name)
    assert issubclass(cls, ListQuestion)
    for seed in range(6):
        task = make_task(name, np.random.default_rng(seed))
        assert isinstance(task, ListQuestion) and "{" not in task.goal
        for param in cls.dates:
            day = parse_day(task.params[f"{param}_day"])
            assert task.params[param] in reworded_dates(day)
            assert task.day(param) == day


def test_every_rewording_of_a_pool_reads_back() -> None:
    """AndroidWorld's ``_generate_nl_date_options`` for each day of each pool, read back. A bare
    weekday can name a day of last week or of this one (AndroidWorld offers "Tuesday" for both
    October 10 and 17): then the question is ambiguous in AndroidWorld too, and the task keeps the
    day it drew (``{param}_day``) rather than reading it back."""
    reword = pytest.importorskip("android_world.task_evals.information_retrieval.datetime_utils")
    for name in QUESTIONS:
        cls = get_task_class(name)
        for pool in cls.dates.values():  # type: ignore[attr-defined]
            for text in pool:
                options = reword._generate_nl_date_options(text)
                assert sorted(options) == sorted(reworded_dates(parse_day(text)))
                for option in options:
                    candidates = [parse_day(d) for d in pool if option in reworded_dates(parse_day(d))]
                    assert parse_day(text) in candidates and day_named(option, pool) == candidates[0], (name, option)
                    if len(candidates) > 1:
                        assert option in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
    with pytest.raises(ValueError):
        day_named("the Friday after next", awdata.SPORTS_ON_DATE_DATES)


@pytest.mark.parametrize("name", QUESTIONS)
def test_seeded_rows_read_back_as_androidworlds_row_dataclass(name: str) -> None:
    """The database AndroidWorld pulls holds the rows, and ``row_type(**row)`` of its ``SELECT *``
    works, with AndroidWorld's types (REAL distances, a 16-byte BLOB uuid)."""
    schema = pytest.importorskip("android_world.task_evals.utils.sqlite_schema_utils")
    phone, task = seeded(name, 0)
    path, table, row_type = DB[task.uri]
    con = sqlite3.connect(":memory:")
    con.deserialize(databases.read(phone, path) or b"")
    con.row_factory = sqlite3.Row
    rows = [getattr(schema, row_type)(**dict(r)) for r in con.execute(f"SELECT * FROM {table}")]
    assert len(rows) == len(phone.content_query(task.uri))
    if row_type == "SportsActivity":
        assert all(isinstance(r.totaldistance, float) and len(r.uuid) == 16 for r in rows)
        assert all(r.totaldistance == stored_distance(r.totaldistance) for r in rows)
    else:
        assert all(isinstance(r.dueDate, int) and r.title for r in rows)


def test_answers_are_judged_as_androidworld_judges_them() -> None:
    phone, task = seeded("TasksDueOnDate", 3)
    titles = task._reading.answer.split(", ")
    assert len(titles) == 3
    assert task.progress(phone, ", ".join(reversed(titles)).upper()) == 1.0
    assert task.progress(phone, ", ".join(titles[:2])) == 0.0
    assert task.progress(phone, None) == 0.0 and task.progress(phone, "") == 0.0
    phone, task = seeded("SportsTrackerLongestDistanceActivity", 1)
    metres = float(task._reading.answer)
    assert task.progress(phone, str(metres + 9)) == 1.0  # within AndroidWorld's 10 m
    assert task.progress(phone, str(metres + 11)) == 0.0
    assert task.progress(phone, f"{metres} m") == 0.0  # not a number: AndroidWorld's ValueError
    phone, task = seeded("TasksDueNextWeek", 0)
    assert task.progress(phone, "6") == 1.0 and task.progress(phone, "6.0") == 1.0 and task.progress(phone, "5") == 0.0


def test_this_week_and_next_week_start_on_monday() -> None:
    assert date(2023, 10, 15) == awdata.DEVICE_TODAY and awdata.DEVICE_TODAY.weekday() == 6  # a Sunday
    phone, task = seeded("SportsTrackerActivitiesCountForWeek", 2)
    in_week = [r for r in phone.content_query(task.uri) if task.of_category(r) and task.this_week(r)]  # type: ignore[attr-defined]
    assert task._reading.answer == "2" == str(len(in_week))
    assert get_task_class("TasksDueNextWeek").next_week() == (date(2023, 10, 16), date(2023, 10, 22))  # type: ignore[attr-defined]


def test_random_play_rarely_answers_right() -> None:
    """Uniform random play over the legal moves (tests/tasks/test_sim_suites.py's agent) on every
    question at three seeds: under 5% succeed."""
    from test_sim_suites import random_episode

    wins = [random_episode(name, seed) for name in QUESTIONS for seed in (0, 1, 2)]
    assert sum(wins) / len(wins) < 0.05
