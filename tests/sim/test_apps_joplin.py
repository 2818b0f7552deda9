"""Joplin on the simulated phone: its database as AndroidWorld reads and writes it, what the
notebook list, note list and note page show, a to-do's box reaching the database, and the
activity AndroidWorld starts.

Real: the phone, its shell (``am``, ``sqlite3``), the app's SQLite database as AndroidWorld pulls
it and, where installed, AndroidWorld's own row dataclasses; nothing is replaced.
"""

from __future__ import annotations

import dataclasses
import sqlite3

import pytest
from screenhelpers import node, tap, texts

from cerebellum_gym.sim import databases
from cerebellum_gym.sim.apps.joplin import FOLDERS_URI, JOPLIN_DB, NOTES_URI, rendered_lines
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell

DB = "/data/data/net.cozic.joplin/databases/joplin.sqlite"


def listed(phone: Phone) -> list[str]:
    """The note list's rows, top to bottom: the title text of each touchable row of the list."""
    rows = [n for n in phone.ui_tree().iter() if n.class_name == "android.view.ViewGroup" and n.clickable and n.long_clickable]
    return [c.text for r in rows for c in r.children if c.class_name == "android.widget.TextView"]


def sql(sh: Shell, statement: str) -> str:
    done = sh.run(f'sqlite3 {DB} "{statement}"')
    assert done.code == 0, done.stderr
    return done.stdout.decode()


def table(phone: Phone, name: str) -> list[dict[str, object]]:
    con = sqlite3.connect(":memory:")
    con.deserialize(databases.read(phone, DB) or b"")
    con.row_factory = sqlite3.Row
    return [dict(r) for r in con.execute(f"SELECT * FROM {name}")]


def test_the_activity_androidworld_starts_resolves_and_the_tables_exist_from_first_boot(sh: Shell) -> None:
    for name in ("folders", "notes", "notes_normalized"):  # AndroidWorld's table_exists check
        assert sql(sh, f"SELECT name FROM sqlite_master WHERE type='table' AND name='{name}';") == f"{name}\n"
    done = sh.run("am start -W -n net.cozic.joplin/.MainActivity")
    assert done.code == 0, done.stderr
    assert sh.phone.foreground_package() == "net.cozic.joplin"
    assert "All notes" in texts(sh.phone)


def test_the_tables_have_androidworlds_columns_exactly() -> None:
    schema = pytest.importorskip("android_world.task_evals.utils.sqlite_schema_utils")
    con = sqlite3.connect(":memory:")
    con.executescript(JOPLIN_DB.schema)
    for name, row_type in (("folders", "JoplinFolder"), ("notes", "JoplinNote"), ("notes_normalized", "JoplinNormalizedNote")):
        columns = {r[1] for r in con.execute(f"PRAGMA table_info({name})")}
        assert columns == {f.name for f in dataclasses.fields(getattr(schema, row_type))}, name


def test_androidworlds_rows_read_back_and_show_in_the_app(sh: Shell) -> None:
    """Rows inserted as AndroidWorld inserts them (its dataclasses, its INSERT, ``deleted_time``
    left to the default) come back through ``SELECT *`` into the same dataclasses, and the app
    lists them; ``notes_normalized`` follows the notes whatever was written into it."""
    schema = pytest.importorskip("android_world.task_evals.utils.sqlite_schema_utils")
    phone = sh.phone
    folder = schema.JoplinFolder("Recipes")
    notes = [
        schema.JoplinNote(parent_id=folder.id, title="Pancake Recipe", body="Ingredients:\n- 1 cup milk\n- 2 cups **flour**"),
        schema.JoplinNote(parent_id=folder.id, title="Buy Eggs", body="", is_todo=1),
    ]
    con = sqlite3.connect(":memory:")
    con.deserialize(databases.read(phone, DB) or b"")
    for row, exclude, name in ((folder, "deleted_time", "folders"), *((n, None, "notes") for n in notes)):
        con.execute(*schema.insert_into_db(row, name, exclude))
    con.execute("INSERT INTO notes_normalized (id, title) VALUES ('stale', 'stale')")
    con.commit()
    databases.write(phone, DB, con.serialize())
    assert [schema.JoplinFolder(**r) for r in table(phone, "folders")] == [folder]
    assert sorted((schema.JoplinNote(**r) for r in table(phone, "notes")), key=lambda n: n.title) == sorted(notes, key=lambda n: n.title)
    assert sorted(str(r["title"]) for r in table(phone, "notes_normalized")) == ["buy eggs", "pancake recipe"]

    phone.start_app("net.cozic.joplin")
    assert listed(phone) == ["Buy Eggs", "Pancake Recipe"]  # an open to-do on top
    tap(phone, desc="Sidebar")
    assert {"All notes", "Notebooks", "Recipes", "New Notebook", "Configuration"} <= set(texts(phone))
    tap(phone, text="Recipes")
    tap(phone, text="Pancake Recipe")
    assert {"Pancake Recipe", "Ingredients:", "• 1 cup milk", "• 2 cups flour"} <= set(texts(phone))
    phone.press_key(4)
    box = node(phone, desc="to-do: Buy Eggs")
    assert box.checkable and not box.checked
    before = phone.state.clock
    tap(phone, desc="to-do: Buy Eggs")
    assert before * 1000 <= int(sql(sh, "SELECT todo_completed FROM notes WHERE title = 'Buy Eggs';")) <= phone.state.clock * 1000
    assert node(phone, desc="to-do: Buy Eggs").checked
    # A done to-do sorts with the notes, by time updated: completing it just now updated it.
    assert listed(phone) == ["Buy Eggs", "Pancake Recipe"]
    assert int(sql(sh, "SELECT user_updated_time FROM notes WHERE title = 'Buy Eggs';")) >= before * 1000


def test_a_damaged_push_leaves_the_notes_and_a_wrong_typed_row_shows_as_nothing(sh: Shell) -> None:
    phone = sh.phone
    phone.content_insert(FOLDERS_URI, {"_id": "f1", "title": "Work", "created_time": "0", "updated_time": "0"})
    phone.content_insert(
        NOTES_URI, {"_id": "n1", "parent_id": "f1", "title": "Plan", "is_todo": "yes", "created_time": "0", "updated_time": "0"}
    )
    databases.write(phone, DB, b"not a database")
    databases.remove(phone, DB)  # the app makes a new database; the bad bytes are gone
    phone.content_insert(NOTES_URI, {"_id": "n2", "title": "Plan", "is_todo": "yes", "created_time": "0", "updated_time": "0"})
    phone.start_app("net.cozic.joplin")
    assert "Plan" in texts(phone)
    assert all(n.class_name != "android.widget.CheckBox" for n in phone.ui_tree().iter())  # not a number: not a to-do


def test_markdown_renders_as_the_viewer_shows_it() -> None:
    assert rendered_lines("# Plan\n\n- [x] done it\n* **bold** item\n1. step one\n") == [
        ("Plan", True),
        ("☑ done it", False),
        ("• bold item", False),
        ("1. step one", False),
    ]


def test_search_finds_notes_by_title_or_body_and_opens_them() -> None:
    phone = Phone()
    for note_id, title, body in (("a", "Pancake Recipe", "- 1 cup milk"), ("b", "Team Sync", "10 people attended")):
        phone.content_insert(NOTES_URI, {"_id": note_id, "title": title, "body": body, "created_time": "0", "updated_time": "0"})
    phone.start_app("net.cozic.joplin")
    tap(phone, desc="Search")
    phone.type_text("MILK")
    assert listed(phone) == ["Pancake Recipe"]
    tap(phone, text="Pancake Recipe")
    assert "• 1 cup milk" in texts(phone)


def test_screens_are_joplins_react_native_views() -> None:
    """The note list's header (Sidebar, title, Search, Sort notes by) and "Add new"; a note opens
    with Back, the notebook picker, Actions, the title as an editable field and "Edit"; typing in
    the title renames the note."""
    phone = Phone()
    phone.content_insert(FOLDERS_URI, {"_id": "f1", "title": "Work", "created_time": "0", "updated_time": "0"})
    phone.content_insert(
        NOTES_URI, {"_id": "n1", "parent_id": "f1", "title": "Plan", "body": "# Goals\n- ship", "created_time": "0", "updated_time": "0"}
    )
    phone.start_app("net.cozic.joplin")
    for desc in ("Sidebar", "Search", "Sort notes by", "Add new"):
        assert node(phone, desc=desc).class_name == "android.widget.Button"
    row = next(n for n in phone.ui_tree().iter() if n.clickable and n.long_clickable)
    assert row.class_name == "android.view.ViewGroup" and [c.text for c in row.children] == ["Plan"]
    tap(phone, text="Plan")
    assert node(phone, desc="Back").clickable and node(phone, desc="Edit") is not None
    assert {"Work", "▼", "Goals", "• ship"} <= set(texts(phone))
    title = next(n for n in phone.ui_tree().iter() if n.class_name == "android.widget.EditText")
    assert title.text == "Plan"
    phone.tap(*title.center)
    phone.type_text(" B")
    assert phone.content_query(NOTES_URI)[0]["title"] == "Plan B"
    tap(phone, desc="Back")
    assert "Plan B" in texts(phone)
