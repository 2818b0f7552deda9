"""Simple Calendar's information-retrieval questions set up as AndroidWorld sets them: parameters
from its lists, values drawn without replacement differing from the drawn ones, dates reworded
(and read back), random events clear of the answer, and the answer judged as AndroidWorld's."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import numpy as np
import pytest

from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks import awdata, make_task
from cerebellum_gym.tasks.calendar import CALENDAR_URI, TODAY, _CalendarQuestion, day_from_words, reworded_dates

QUESTIONS = sorted(awdata.CALENDAR_QUESTION_PARAMS)


def question(name: str, seed: int) -> _CalendarQuestion:
    task = make_task(name, np.random.default_rng(seed))
    assert isinstance(task, _CalendarQuestion)
    return task


def test_every_rewording_of_a_question_date_reads_back() -> None:
    for offset in range(15):
        day = TODAY + timedelta(days=offset)
        for text in reworded_dates(day):
            assert day_from_words(text) == day, text
    with pytest.raises(ValueError, match="no day"):
        day_from_words("someday")


@pytest.mark.parametrize("name", QUESTIONS)
def test_parameters_come_from_androidworlds_lists(name: str) -> None:
    spec = awdata.CALENDAR_QUESTION_PARAMS[name]
    for seed in range(20):
        params = make_task(name, np.random.default_rng(seed)).params
        for key, values in spec.items():
            value = params[key]
            if key == "date":
                assert day_from_words(value).strftime("%B %d %Y") in values
            else:
                assert value in {v.format(**params) for v in values}, (key, value)
        drawn = {k: params[k] for k in spec}
        for event in params["events"]:
            # Values drawn without replacement never repeat the drawn parameter.
            if name == "SimpleCalendarAnyEventsOnDate":
                assert event[1] != drawn["time"] and event[3] != drawn["title"]
        if name == "SimpleCalendarAnyEventsOnDate":
            assert len({e[3] for e in params["events"]}) == 3


@pytest.mark.parametrize("name", QUESTIONS)
def test_random_events_stay_clear_of_the_answer(name: str) -> None:
    for seed in range(5):
        phone = Phone()
        task = question(name, seed)
        task.initialize(phone)
        rows = phone.content_query(CALENDAR_URI)
        assert len(rows) == 75 + len(task.params["events"])
        chosen = [r for r in rows if task.relevant(r)]
        assert len(chosen) == len(task.params["events"]), name
        # The set-up's own answer is right and a wrong one is not.
        answer = ", ".join(task.answer_text())
        assert task.progress(phone, answer) == 1.0
        assert task.progress(phone, answer + ", Extra") == 0.0
        assert task.progress(phone, None) == 0.0


def test_the_next_event_has_nothing_before_it_today() -> None:
    for seed in range(10):
        phone = Phone()
        task = question("SimpleCalendarNextEvent", seed)
        task.initialize(phone)
        start = task.event_start()
        now = int(datetime(2023, 10, 15, 15, 30, tzinfo=timezone.utc).timestamp())
        between = [r for r in phone.content_query(CALENDAR_URI) if now <= int(r["start_ts"]) < start and not task.relevant(r)]
        assert between == []


def test_the_meeting_is_answered_as_a_date_and_time() -> None:
    task = question("SimpleCalendarNextMeetingWithPerson", 4)
    phone = Phone()
    task.initialize(phone)
    (row,) = [r for r in phone.content_query(CALENDAR_URI) if task.relevant(r)]
    start = datetime.fromtimestamp(int(row["start_ts"]), timezone.utc)
    assert task.progress(phone, f"{start:%B %d %Y %H:%M}") == 1.0
    assert task.progress(phone, f"{start + timedelta(minutes=1):%B %d %Y %H:%M}") == 0.0
    assert start.date() >= date(2023, 10, 15)
