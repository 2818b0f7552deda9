"""Broccoli, the recipe app, driven through taps and keys: the list, search, a recipe's page,
favourites, create, edit and delete, and its database kept in step with what it shows."""

from __future__ import annotations

import sqlite3

import pytest

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.devices.base import KEYCODE_BACK
from cerebellum_gym.sim import databases
from cerebellum_gym.sim.apps.broccoli import PACKAGE, RECIPES_URI, search
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell


def node(phone: Phone, *, text: str | None = None, desc: str | None = None, rid: str | None = None) -> UINode:
    for n in phone.ui_tree().iter():
        if (text is None or n.text == text) and (desc is None or n.content_desc == desc) and (rid is None or n.resource_id.endswith(rid)):
            return n
    raise AssertionError(f"nothing on screen with text={text!r} desc={desc!r} rid={rid!r}")


def texts(phone: Phone) -> list[str]:
    return [n.text for n in phone.ui_tree().iter() if n.text]


def tap(phone: Phone, **kwargs: str) -> None:
    phone.tap(*node(phone, **kwargs).center)


def recipe(title: str, **values: str) -> dict[str, str]:
    row = {
        "title": title,
        "description": "",
        "servings": "",
        "preparationTime": "",
        "source": "",
        "ingredients": "",
        "directions": "",
        "favorite": "0",
        "imageName": "",
    }
    return {**row, **values}


@pytest.fixture
def phone() -> Phone:
    phone = Phone()
    for row in (
        recipe("lentil Soup", description="Warming", ingredients="lentils\nonions", directions="Cook.\nServe."),
        recipe("Avocado Toast", description="Quick", directions="Toast bread, top with avocado."),
        recipe("Beef Stir Fry", description="Weeknight", source="grandma", ingredients="beef, broccoli"),
    ):
        phone.content_insert(RECIPES_URI, row)
    phone.start_app(PACKAGE)
    return phone


def test_list_is_ordered_by_title_without_case(phone: Phone) -> None:
    titles = [n.text for n in phone.ui_tree().iter() if n.resource_id.endswith(":id/card_text_view_title")]
    assert titles == ["Avocado Toast", "Beef Stir Fry", "lentil Soup"]


def test_search_covers_the_indexed_columns_by_word_prefix() -> None:
    rows = [
        {"_id": "1", **recipe("Lentil Soup", ingredients="onions")},
        {"_id": "2", **recipe("Toast", description="lentil side", directions="onions and more")},
        {"_id": "3", **recipe("Salad", source="lentilweb")},
    ]
    assert [r["_id"] for r in search(rows, "lent")] == ["1", "2", "3"]  # title hits first
    assert [r["_id"] for r in search(rows, "ONION")] == ["1"]  # directions are not indexed
    assert search(rows, "entil") == []  # prefixes, not substrings
    assert [r["_id"] for r in search(rows, "lentil soup")] == ["1"]  # every word must match
    assert search(rows, "  ") == []


def test_search_screen_finds_and_opens(phone: Phone) -> None:
    tap(phone, desc="Search")
    phone.type_text("beef")
    assert "Beef Stir Fry" in texts(phone) and "Avocado Toast" not in texts(phone)
    tap(phone, text="Beef Stir Fry")
    assert node(phone, rid=":id/details_source").text == "grandma"


def test_details_show_every_field_and_directions_numbered(phone: Phone) -> None:
    tap(phone, text="lentil Soup")
    shown = texts(phone)
    assert "lentil Soup" in shown and "Warming" in shown
    assert "lentils" in shown and "onions" in shown
    steps = [n.text for n in phone.ui_tree().iter() if n.resource_id.endswith((":id/direction_position", ":id/direction_text"))]
    assert steps == ["1", "Cook.", "2", "Serve."]


def test_favourite_toggles_and_filters(phone: Phone) -> None:
    tap(phone, text="Avocado Toast")
    tap(phone, desc="Mark as favorite")
    assert node(phone, desc="Remove from favorites")
    (row,) = [r for r in phone.content_query(RECIPES_URI) if r["title"] == "Avocado Toast"]
    assert row["favorite"] == "1"
    phone.press_key(KEYCODE_BACK)
    tap(phone, text="All recipes")
    tap(phone, text="Favorites")
    assert "Avocado Toast" in texts(phone) and "Beef Stir Fry" not in texts(phone)


def test_create_needs_a_title_then_saves_every_field(phone: Phone) -> None:
    tap(phone, desc="New Recipe")
    phone.type_text("  ")
    tap(phone, text="Save")
    assert node(phone, rid=":id/button_save_recipe")  # still the form (the app toasts "Please add a title.")
    assert len(phone.content_query(RECIPES_URI)) == 3
    field = node(phone, rid=":id/new_title")
    phone.long_press(*field.center)
    phone.type_text("Pesto Pasta")
    for rid, value in (("description", "Green"), ("servings", "2 servings"), ("preparation_time", "20 mins"), ("directions", "Boil.")):
        while not any(n.resource_id.endswith(f":id/new_{rid}") for n in phone.ui_tree().iter()):
            phone.swipe(540, 1700, 540, 1100)  # the form is longer than the screen
        tap(phone, rid=f":id/new_{rid}")
        phone.type_text(value)
    tap(phone, text="Save")
    (row,) = [r for r in phone.content_query(RECIPES_URI) if r["title"] == "Pesto Pasta"]
    assert (row["description"], row["servings"], row["preparationTime"], row["directions"]) == ("Green", "2 servings", "20 mins", "Boil.")
    assert (row["favorite"], row["source"], row["ingredients"], row["imageName"]) == ("0", "", "", "")
    assert node(phone, rid=":id/details_title").text == "Pesto Pasta"  # the new recipe's page opens
    phone.press_key(KEYCODE_BACK)
    assert "Pesto Pasta" in texts(phone)  # then the list


def test_leaving_a_changed_form_asks_to_discard(phone: Phone) -> None:
    tap(phone, desc="New Recipe")
    phone.type_text("Draft")
    phone.press_key(KEYCODE_BACK)
    assert node(phone, text="Discard changes?")
    tap(phone, text="Discard")
    assert len(phone.content_query(RECIPES_URI)) == 3 and "Avocado Toast" in texts(phone)


def test_edit_keeps_id_and_favourite(phone: Phone) -> None:
    (before,) = [r for r in phone.content_query(RECIPES_URI) if r["title"] == "Beef Stir Fry"]
    tap(phone, text="Beef Stir Fry")
    tap(phone, desc="Mark as favorite")
    tap(phone, desc="More options")
    tap(phone, text="Edit")
    field = node(phone, rid=":id/new_servings")
    phone.tap(*field.center)
    phone.type_text("4 servings")
    tap(phone, text="Save")
    (after,) = [r for r in phone.content_query(RECIPES_URI) if r["title"] == "Beef Stir Fry"]
    assert after["_id"] == before["_id"] and after["favorite"] == "1" and after["servings"] == "4 servings"
    assert node(phone, rid=":id/details_servings").text == "4 servings"  # back on its page


def test_delete_asks_first_and_cancel_keeps_it(phone: Phone) -> None:
    tap(phone, text="Avocado Toast")
    tap(phone, desc="More options")
    tap(phone, text="Delete")
    assert node(phone, text="Delete this recipe?")
    tap(phone, text="Cancel")
    assert len(phone.content_query(RECIPES_URI)) == 3
    tap(phone, desc="More options")
    tap(phone, text="Delete")
    tap(phone, text="Delete")
    assert sorted(r["title"] for r in phone.content_query(RECIPES_URI)) == ["Beef Stir Fry", "lentil Soup"]
    assert "Avocado Toast" not in texts(phone) and "Beef Stir Fry" in texts(phone)


def test_am_start_resolves_the_activity_androidworld_names() -> None:
    sh = Shell(Phone())
    result = sh.run("am start -W -n com.flauschcode.broccoli/com.flauschcode.broccoli.MainActivity")
    assert result.code == 0 and sh.phone.foreground_package() == PACKAGE
    assert "No recipes found." in texts(sh.phone)
    assert b"com.flauschcode.broccoli/com.flauschcode.broccoli.MainActivity" in sh.run("dumpsys activity activities").stdout
    assert sh.run("am force-stop com.flauschcode.broccoli").code == 0 and sh.phone.foreground_package() != PACKAGE


DB = "/data/data/com.flauschcode.broccoli/databases/broccoli"


def rows_in(image: bytes) -> list[dict[str, object]]:
    con = sqlite3.connect(":memory:")
    con.deserialize(image)
    con.row_factory = sqlite3.Row
    return [dict(r) for r in con.execute("SELECT * FROM recipes")]


def pull(phone: Phone) -> bytes:
    """The database file as ``adb pull`` reads it."""
    image = databases.read(phone, DB)
    assert image is not None
    return image


def test_database_exists_from_first_boot_with_the_real_schema() -> None:
    sh = Shell(Phone())
    sh.root = True  # AndroidWorld reads app databases as root
    assert rows_in(pull(sh.phone)) == []
    tables = sh.run(f"sqlite3 {DB} .tables").stdout.decode().split()
    assert {"recipes", "categories", "recipes_with_categories", "recipes_fts", "room_master_table"} <= set(tables)
    columns = sh.run(f"sqlite3 {DB} 'PRAGMA table_info(recipes);'").stdout.decode()
    assert [line.split("|")[1] for line in columns.splitlines()] == [
        "recipeId", "title", "imageName", "description", "servings", "preparationTime", "source", "ingredients", "directions", "favorite",
    ]  # fmt: skip


def test_a_sqlite3_write_changes_what_the_app_shows_and_bad_sql_changes_nothing(phone: Phone) -> None:
    sh = Shell(phone)
    sh.root = True
    done = sh.run(f"sqlite3 {DB} \"UPDATE recipes SET title = 'Avocado Toast Deluxe' WHERE title = 'Avocado Toast';\"")
    assert done.code == 0
    assert "Avocado Toast Deluxe" in texts(phone)
    bad = sh.run(f"sqlite3 {DB} 'DELETE FROM recipes WHERE;'")
    assert bad.code != 0 and b"Error" in bad.stderr
    assert len(phone.content_query(RECIPES_URI)) == 3 and "Beef Stir Fry" in texts(phone)


def test_app_edits_show_in_the_next_pull_and_a_push_changes_the_app(phone: Phone) -> None:
    tap(phone, text="Avocado Toast")
    tap(phone, desc="Mark as favorite")
    pulled = rows_in(pull(phone))
    (toast,) = [r for r in pulled if r["title"] == "Avocado Toast"]
    assert toast["favorite"] == 1 and isinstance(toast["recipeId"], int)
    con = sqlite3.connect(":memory:")
    con.deserialize(pull(phone))
    con.execute("DELETE FROM recipes WHERE title = 'Beef Stir Fry'")
    con.execute(
        "INSERT INTO recipes (title, description, servings, preparationTime, source, ingredients, directions, favorite, imageName) "
        "VALUES ('Pushed Pie', 'd', '1 serving', '10 mins', '', 'n/a', 'Bake.', 0, '')"
    )
    con.commit()
    databases.write(phone, DB, con.serialize())
    phone.press_key(KEYCODE_BACK)
    shown = texts(phone)
    assert "Pushed Pie" in shown and "Beef Stir Fry" not in shown
    # The app's search and the database's own full-text index both see the pushed row.
    tap(phone, desc="Search")
    phone.type_text("pushed")
    assert "Pushed Pie" in texts(phone)
    sh = Shell(phone)
    sh.root = True
    found = sh.run(f"sqlite3 {DB} \"SELECT title FROM recipes_fts WHERE recipes_fts MATCH 'push*';\"")
    assert (found.stdout, found.code) == (b"Pushed Pie\n", 0)
    assert sh.run(f"sqlite3 {DB} \"SELECT count(*) FROM recipes_fts WHERE recipes_fts MATCH 'beef';\"").stdout == b"0\n"


def test_a_push_that_is_not_a_database_leaves_the_recipes(phone: Phone) -> None:
    databases.write(phone, DB, b"not a database")
    assert len(phone.content_query(RECIPES_URI)) == 3
    assert "Avocado Toast" in texts(phone)


def test_a_wrong_typed_value_reads_as_the_app_defaults_it(phone: Phone) -> None:
    sh = Shell(phone)
    sh.root = True
    assert sh.run(f"sqlite3 {DB} \"UPDATE recipes SET favorite = 'yes' WHERE title = 'Avocado Toast';\"").code == 0
    tap(phone, text="Avocado Toast")
    assert node(phone, desc="Mark as favorite")  # not a favourite, and the page still opens
    assert sh.run(f"sqlite3 {DB} \"SELECT favorite FROM recipes WHERE title = 'Avocado Toast';\"").stdout == b"0\n"


def test_pm_clear_empties_the_app_until_it_starts_again(phone: Phone) -> None:
    sh = Shell(phone)
    sh.root = True
    assert sh.run(f"pm clear {PACKAGE}").code == 0
    assert phone.content_query(RECIPES_URI) == []
    assert sh.run(f"ls {DB}").code != 0
    phone.start_app(PACKAGE)
    assert "No recipes found." in texts(phone)
    assert sh.run(f"sqlite3 {DB} 'SELECT count(*) FROM recipes;'").stdout == b"0\n"
