"""Joplin's questions on the simulator: seeded as AndroidWorld seeds them (its notes, a hundred
random ones past its exclusion conditions, notebooks made as notes need them), answers judged as
AndroidWorld judges them, and rarely solved by random play.

Real: the phone, its Joplin database and, where installed, AndroidWorld's row dataclasses.
"""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from cerebellum_gym.sim import databases
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks import awdata, get_task_class, make_task, task_names
from cerebellum_gym.tasks.joplin import FOLDERS_URI, NOISE_NOTES, NOTES_URI, NotesQuestion, noise_body

QUESTIONS = [n for n in task_names() if n.startswith("Notes")]
DB = "/data/data/net.cozic.joplin/databases/joplin.sqlite"


def seeded(name: str, seed: int) -> tuple[Phone, NotesQuestion]:
    phone = Phone()
    task = make_task(name, np.random.default_rng(seed))
    assert isinstance(task, NotesQuestion)
    task.initialize(phone)
    return phone, task


def test_there_are_four_questions() -> None:
    assert QUESTIONS == ["NotesIsTodo", "NotesMeetingAttendeeCount", "NotesRecipeIngredientCount", "NotesTodoItemCount"]
    assert all(get_task_class(n).mirrors == n and get_task_class(n).answer for n in QUESTIONS)


@pytest.mark.parametrize("name", QUESTIONS)
def test_seeding_is_the_state_and_a_hundred_notes_past_the_exclusions(name: str) -> None:
    for seed in range(4):
        phone, task = seeded(name, seed)
        notes = phone.content_query(NOTES_URI)
        folders = {r["_id"]: r["title"] for r in phone.content_query(FOLDERS_URI)}
        relevant = task.relevant(np.random.default_rng(task.params["noise_seed"]))
        assert len(notes) == NOISE_NOTES + len(relevant)
        assert len(folders) == len(set(folders.values())) and set(folders.values()) <= set(awdata.JOPLIN_NOISE)
        assert all(n["parent_id"] in folders for n in notes)
        excluded = [n for n in notes if task.excluded_note(folders[n["parent_id"]], n["title"], n["is_todo"] == "1")]
        assert len(excluded) == len(relevant), (name, seed)  # only the relevant notes meet every condition
        assert not any("{" in n["body"] for n in notes if n["title"] not in {r[1] for r in relevant})
        reading = task._reading
        assert reading.answer, (name, seed)
        assert task.progress(phone, reading.answer) == 1.0
        assert task.progress(phone, None) == 0.0


def test_the_answers_are_the_seeded_parameters() -> None:
    phone, task = seeded("NotesRecipeIngredientCount", 5)
    assert task._reading.answer == task.params["ingredient_quantity"]
    assert task.progress(phone, task.params["ingredient_quantity"].upper()) == 1.0  # AndroidWorld's fuzzy match ignores case
    phone, task = seeded("NotesMeetingAttendeeCount", 5)
    assert task._reading.answer == task.params["attendee_count"]
    assert task.progress(phone, str(int(task.params["attendee_count"]) + 1)) == 0.0
    phone, task = seeded("NotesIsTodo", 5)
    assert task._reading.answer == task.params["is_todo"]
    phone, task = seeded("NotesTodoItemCount", 5)
    assert task._reading.answer == "3" and task.progress(phone, "3.0") == 1.0


def test_meeting_notes_list_distinct_people_and_action_items() -> None:
    template = next(n["body"] for n in awdata.JOPLIN_NOISE["Meeting Notes"] if n["title"] == "Project Kickoff")
    body = noise_body(np.random.default_rng(0), template).splitlines()
    people = body[1:4]
    assert len(set(people)) == 3 and set(people) <= set(awdata.JOPLIN_ATTENDEES)
    assert len(set(body[-3:])) == 3 and set(body[-3:]) <= set(awdata.JOPLIN_ACTION_ITEMS)


@pytest.mark.parametrize("name", QUESTIONS)
def test_seeded_rows_read_back_as_androidworlds_row_dataclasses(name: str) -> None:
    schema = pytest.importorskip("android_world.task_evals.utils.sqlite_schema_utils")
    phone, task = seeded(name, 0)
    con = sqlite3.connect(":memory:")
    con.deserialize(databases.read(phone, DB) or b"")
    con.row_factory = sqlite3.Row
    folders = [schema.JoplinFolder(**dict(r)) for r in con.execute("SELECT * FROM folders")]
    notes = [schema.JoplinNote(**dict(r)) for r in con.execute("SELECT * FROM notes")]
    normalized = [schema.JoplinNormalizedNote(**dict(r)) for r in con.execute("SELECT * FROM notes_normalized")]
    assert len(notes) == len(normalized) == NOISE_NOTES + len(task.relevant(np.random.default_rng(task.params["noise_seed"])))
    # NUMERIC columns (Joplin's latitude, longitude, altitude, order) read 0.0 back as 0, as on a device.
    assert all(isinstance(n.is_todo, int) and n.latitude == 0 and n.markup_language == 1 for n in notes)
    assert {n.parent_id for n in notes} <= {f.id for f in folders}
    assert sorted(n.title for n in normalized) == sorted(n.title.lower() for n in notes)


def test_random_play_rarely_answers_right() -> None:
    """Uniform random play over the legal moves (tests/tasks/test_sim_suites.py's agent) on every
    question at three seeds: under 5% succeed."""
    from test_sim_suites import random_episode

    wins = [random_episode(name, seed) for name in QUESTIONS for seed in range(5)]
    assert sum(wins) / len(wins) < 0.05
