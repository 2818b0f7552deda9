"""Joplin's four information-retrieval questions (AndroidWorld's ``Notes*``), seeded and judged
through ``content://net.cozic.joplin/folders`` and ``.../notes``, the stand-ins for the app's
``folders`` and ``notes`` tables that AndroidWorld fills with sqlite.

Each question's relevant state is AndroidWorld's (``tasks.textproto``): the notes that answer it
after a hundred random notes (``joplin_app_utils._generate_random_notes``: a notebook, one of the
question's own 30% of the time, a note of that notebook's list, a to-do half the time, completed
half the time, even when not a to-do, as AndroidWorld's code does), those its exclusion conditions
let through, shuffled; a notebook is made the first time a note needs it. The answer is worked out
from the notes on the device and scored as AndroidWorld's ``check_agent_answer`` scores it.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device, Row
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.answers import Expected, score_answer
from cerebellum_gym.tasks.base import Oracle
from cerebellum_gym.tasks.oracle import ScriptedOracle, label_for
from cerebellum_gym.tasks.registry import register_task
from cerebellum_gym.tasks.retrieval import NOW, ListQuestion, Reading, draw_distinct, number

FOLDERS_URI = "content://net.cozic.joplin/folders"
NOTES_URI = "content://net.cozic.joplin/notes"
JOPLIN_PACKAGE = "net.cozic.joplin"
#: AndroidWorld's random notes per question.
NOISE_NOTES = 100
#: ``sqlite_schema_utils._YESTERDAY`` in ms: the times AndroidWorld's rows get.
YESTERDAY_MS = str(int((NOW - timedelta(days=1)).timestamp() * 1000))


def folder_row(rng: np.random.Generator, title: str) -> dict[str, str]:
    """A ``folders`` row as ``JoplinFolder(title)`` makes it."""
    return {
        "_id": rng.bytes(16).hex(),
        "title": title,
        **dict.fromkeys(("created_time", "updated_time", "user_created_time", "user_updated_time"), YESTERDAY_MS),
        "deleted_time": "0",
        "encryption_cipher_text": "",
        "encryption_applied": "0",
        "parent_id": "",
        "is_shared": "0",
        "share_id": "",
        "master_key_id": "",
        "icon": "",
        "user_data": "",
    }


def note_row(rng: np.random.Generator, folder_id: str, title: str, body: str, *, todo: bool, completed: bool) -> dict[str, str]:
    """A ``notes`` row as ``JoplinNote(parent_id, title, body, is_todo, todo_completed)`` makes it."""
    row = {
        "_id": rng.bytes(16).hex(),
        "parent_id": folder_id,
        "title": title,
        "body": body,
        **dict.fromkeys(("created_time", "updated_time", "user_created_time", "user_updated_time"), YESTERDAY_MS),
        "is_todo": str(int(todo)),
        "todo_completed": str(int(completed)),
    }
    for column in ("is_conflict", "todo_due", "encryption_applied", "is_shared"):
        row[column] = "0"
    for column in ("latitude", "longitude", "altitude", "order"):
        row[column] = "0.0"
    for column in ("author", "source_url", "source", "source_application", "application_data", "encryption_cipher_text"):
        row[column] = ""
    for column in ("share_id", "conflict_original_id", "master_key_id", "user_data"):
        row[column] = ""
    row["markup_language"] = "1"
    return row


_SAMPLED = re.compile(r"\{(attendees|action_items):(\d+)\}")


def noise_body(rng: np.random.Generator, template: str) -> str:
    """A noise note's body, with the people and action items a meeting note lists drawn
    (``random.sample``: distinct, in drawn order)."""

    def sample(found: re.Match[str]) -> str:
        pool = awdata.JOPLIN_ATTENDEES if found.group(1) == "attendees" else awdata.JOPLIN_ACTION_ITEMS
        return "\n".join(draw_distinct(rng, pool, int(found.group(2))))

    return _SAMPLED.sub(sample, template)


class NotesQuestion(ListQuestion):
    """A Joplin question (family ``joplin``): AndroidWorld's seeding of notebooks and notes."""

    app: ClassVar[str] = "Joplin"
    family: ClassVar[str] = "joplin"
    complexity: ClassVar[float] = 1.0
    uri: ClassVar[str] = NOTES_URI
    package: ClassVar[str] = JOPLIN_PACKAGE
    app_label: ClassVar[str] = "Joplin"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(params)
        self._folder = ""

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        params: dict[str, Any] = {name: awdata.pick(rng, pool) for name, pool in awdata.JOPLIN_QUESTION_PARAMS[cls.name].items()}
        params["noise_seed"] = int(rng.integers(2**31))
        return params

    def relevant(self, rng: np.random.Generator) -> list[tuple[str, str, str, bool]]:
        """The relevant notes: ``(notebook, title, body, is_todo)``."""
        raise NotImplementedError

    def excluded_note(self, folder: str, title: str, todo: bool) -> bool:
        """Whether a random note meets every exclusion condition (and so is not seeded)."""
        return False

    def state_rows(self, rng: np.random.Generator) -> list[dict[str, str]]:
        return []  # the notes come with their notebooks (initialize)

    def noise_row(self, rng: np.random.Generator) -> dict[str, str]:
        return {}

    def initialize(self, device: Device) -> None:
        rng = np.random.default_rng(int(self.params.get("noise_seed", 0)))
        relevant = self.relevant(rng)
        own = [folder for folder, *_ in relevant]
        folders: dict[str, dict[str, str]] = {}

        def folder_id(name: str) -> str:
            if name not in folders:
                folders[name] = folder_row(rng, name)
            return folders[name]["_id"]

        notes: list[dict[str, str]] = []
        names = tuple(awdata.JOPLIN_NOISE)
        while len(notes) < NOISE_NOTES:
            folder = awdata.pick(rng, own) if rng.random() < 0.3 else awdata.pick(rng, names)
            todo, completed = bool(rng.integers(2)), bool(rng.integers(2))
            noise = awdata.JOPLIN_NOISE[folder][int(rng.integers(len(awdata.JOPLIN_NOISE[folder])))]
            fid = folder_id(folder)
            if not self.excluded_note(folder, noise["title"], todo):
                notes.append(note_row(rng, fid, noise["title"], noise_body(rng, noise["body"]), todo=todo, completed=completed))
        for folder, title, body, todo in relevant:
            notes.append(note_row(rng, folder_id(folder), title, body, todo=todo, completed=False))
        device.content_delete(NOTES_URI)
        device.content_delete(FOLDERS_URI)
        for row in folders.values():
            device.content_insert(FOLDERS_URI, row)
        for i in rng.permutation(len(notes)):
            device.content_insert(NOTES_URI, notes[int(i)])
        self.baseline(device)

    # --- judging ------------------------------------------------------------------------------

    def baseline(self, device: Device) -> None:
        folders = {r.get("_id", ""): r.get("title", "") for r in device.content_query(FOLDERS_URI)}
        notes = [{**r, "folder": folders.get(r.get("parent_id", ""), "")} for r in device.content_query(NOTES_URI)]
        self._reading = self.expect(notes)

    def titled(self, rows: list[Row]) -> list[Row]:
        """The notes titled as the question says (the first, when AndroidWorld's set-up left more)."""
        want = str(self.params["title"])
        return [r for r in rows if r.get("title", "") == want]

    def progress(self, device: Device, answer: str | None = None) -> float:
        return score_answer(answer, self._reading.expected)

    def oracle(self) -> Oracle:
        return NotesOracle(self._folder, Reading(**{**self._reading.__dict__}))


class NotesOracle(ScriptedOracle):
    """Open Joplin, open the side menu and the notebook, then either open the note the answer is
    in or look through the list until every note the answer counts has been on screen, and say
    the answer."""

    def __init__(self, folder: str, reading: Reading) -> None:
        super().__init__()
        self.folder, self.reading = folder, reading
        self.in_folder = self.menu_open = False
        self.unseen = set(reading.texts)
        self.opened = False

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, JOPLIN_PACKAGE, "Joplin")
        if step is not None:
            return step
        if self.opened:
            return f"F {self.reading.answer}"
        if self.menu_open:
            label = label_for(screen, text=self.folder)
            if label is None:
                return self.scroll_search(screen)
            self.menu_open, self.in_folder = False, True
            return self.tap(label)
        if not self.in_folder:
            label = label_for(screen, desc="Sidebar")
            self.menu_open = label is not None
            return self.tap(label) if label else "B"
        self.unseen -= {n.text for n in screen.root.iter() if n.text}
        target = self.reading.open_text
        if target is not None:
            label = label_for(screen, text=target)
            if label is not None:
                self.opened = True
                return self.tap(label)
            action = self.scroll_search(screen)
            return action if action != "B" else f"F {self.reading.answer}"
        if self.unseen:
            action = self.scroll_search(screen)
            if action != "B":
                return action
        return f"F {self.reading.answer}"


_TODO_PARAMS = awdata.JOPLIN_QUESTION_PARAMS["NotesTodoItemCount"]


@register_task
class NotesRecipeIngredientCount(NotesQuestion):
    mirrors = "NotesRecipeIngredientCount"
    template = (
        "What quantity of {ingredient} do I need for the recipe '{title}' in the Joplin app? Express your answer in the format "
        "<amount> <unit> where both the amount and unit exactly match the format in the recipe."
    )
    judge = (
        "The answer is the recipe note's quantity of the ingredient, '<amount> <unit>' (fuzzy 0.9), as AndroidWorld's check_agent_answer."
    )

    def relevant(self, rng: np.random.Generator) -> list[tuple[str, str, str, bool]]:
        p = self.params
        body = str(p["body"]).replace("{ingredient_quantity}", str(p["ingredient_quantity"])).replace("{ingredient}", str(p["ingredient"]))
        return [("Recipes", str(p["title"]), body, False)]

    def excluded_note(self, folder: str, title: str, todo: bool) -> bool:
        return str(self.params["title"]).lower() in title.lower()

    def expect(self, rows: list[Row]) -> Reading:
        ingredient = str(self.params["ingredient"])
        quantity = ""
        notes = self.titled(rows)
        for note in notes:
            for line in note.get("body", "").splitlines():
                found = re.fullmatch(rf"\s*[-*+]?\s*(.+?)\s+{re.escape(ingredient)}\s*", line)
                if found:
                    quantity = found.group(1)
                    break
            if quantity:
                break
        self._folder = notes[0].get("folder", "") if notes else "Recipes"
        return Reading(quantity, open_text=str(self.params["title"]), expected=Expected.text([quantity]))


@register_task
class NotesMeetingAttendeeCount(NotesQuestion):
    mirrors = "NotesMeetingAttendeeCount"
    template = (
        "How many attendees were present in the meeting titled '{title}' in the Joplin app? Express your answer as just a single number."
    )
    judge = "The answer is the number of attendees the meeting note gives, as AndroidWorld's check_agent_answer."

    def relevant(self, rng: np.random.Generator) -> list[tuple[str, str, str, bool]]:
        p = self.params
        return [("Meeting Notes", str(p["title"]), str(p["body"]).replace("{attendee_count}", str(p["attendee_count"])), False)]

    def excluded_note(self, folder: str, title: str, todo: bool) -> bool:
        return str(self.params["title"]).lower() in title.lower()

    def expect(self, rows: list[Row]) -> Reading:
        notes = self.titled(rows)
        count = ""
        if notes:
            numbers = re.findall(r"\d+", notes[0].get("body", ""))
            count = numbers[-1] if numbers else ""
        self._folder = notes[0].get("folder", "") if notes else "Meeting Notes"
        expected = Expected.number([int(count)]) if count else Expected.text([""])
        return Reading(count, open_text=str(self.params["title"]), expected=expected)


@register_task
class NotesIsTodo(NotesQuestion):
    mirrors = "NotesIsTodo"
    template = (
        "Is the note titled '{title}' in the Joplin app marked as a todo item? Respond with either 'True' if it is a todo "
        "or 'False' if not."
    )
    judge = "The answer is 'True' when the note is a to-do and 'False' when not (fuzzy 0.9), as AndroidWorld's check_agent_answer."

    def relevant(self, rng: np.random.Generator) -> list[tuple[str, str, str, bool]]:
        p = self.params
        return [(str(p["folder"]), str(p["title"]), str(p["body"]), str(p["is_todo"]).lower() == "true")]

    def excluded_note(self, folder: str, title: str, todo: bool) -> bool:
        return title.lower() == str(self.params["title"]).lower()

    def expect(self, rows: list[Row]) -> Reading:
        notes = self.titled(rows)
        answer = str(bool(number(notes[0], "is_todo"))) if notes else ""
        self._folder = notes[0].get("folder", "") if notes else str(self.params.get("folder", ""))
        return Reading(answer, texts=(str(self.params["title"]),), expected=Expected.text([answer]))


@register_task
class NotesTodoItemCount(NotesQuestion):
    mirrors = "NotesTodoItemCount"
    template = "How many to-dos do I have in the '{folder}' folder in the Joplin app? Express your answer as just a single number."
    judge = "The answer is the number of to-dos in that notebook (three), as AndroidWorld's check_agent_answer."

    def relevant(self, rng: np.random.Generator) -> list[tuple[str, str, str, bool]]:
        # ``{title_without_replacement}`` and ``{body_without_replacement}``: three of each.
        titles = draw_distinct(rng, _TODO_PARAMS["title"], 3)
        bodies = draw_distinct(rng, _TODO_PARAMS["body"], 3)
        return [(str(self.params["folder"]), titles[i], bodies[i], True) for i in range(3)]

    def excluded_note(self, folder: str, title: str, todo: bool) -> bool:
        return todo and folder.lower() == str(self.params["folder"]).lower()

    def expect(self, rows: list[Row]) -> Reading:
        folder = str(self.params["folder"])
        todos = [r for r in rows if r.get("folder", "") == folder and number(r, "is_todo")]
        self._folder = folder
        return Reading(str(len(todos)), tuple(r.get("title", "") for r in todos), expected=Expected.number([len(todos)]))
