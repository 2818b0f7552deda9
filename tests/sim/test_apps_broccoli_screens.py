"""Broccoli's screens as v1.2.6 lays them out: the search expanding in the list's toolbar, the
details page's menu and delete dialog, the form's ids, the drawer and Categories."""

from __future__ import annotations

import pytest

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.sim.apps.broccoli import PACKAGE, RECIPES_URI, directions, ingredients
from cerebellum_gym.sim.phone import KEYCODE_BACK, Phone

RID = f"{PACKAGE}:id/"


def find(phone: Phone, **want: str) -> UINode | None:
    for n in phone.ui_tree().iter():
        if all(getattr(n, key) == value for key, value in want.items()):
            return n
    return None


def tap(phone: Phone, **want: str) -> None:
    hit = find(phone, **want)
    assert hit is not None, want
    phone.tap(*hit.center)


@pytest.fixture
def phone() -> Phone:
    phone = Phone()
    base = {c: "" for c in ("description", "servings", "preparationTime", "source", "ingredients", "directions", "imageName")}
    phone.content_insert(
        RECIPES_URI, {**base, "title": "Soup", "ingredients": "2 carrots\n- salt", "directions": "1. Boil.\nServe.", "favorite": "0"}
    )
    phone.content_insert(RECIPES_URI, {**base, "title": "Toast", "favorite": "0"})
    phone.start_app(PACKAGE)
    return phone


def test_search_expands_in_the_toolbar_and_back_collapses_it(phone: Phone) -> None:
    assert find(phone, resource_id=RID + "spinner", content_desc="Categories") is not None
    tap(phone, content_desc="Search")
    field = find(phone, resource_id=RID + "search_src_text")
    assert field is not None and field.text == "Search in ALL RECIPES"
    assert find(phone, content_desc="Collapse") is not None and find(phone, resource_id=RID + "spinner") is None
    phone.type_text("toa")
    titles = [n.text for n in phone.ui_tree().iter() if n.resource_id == RID + "card_text_view_title"]
    assert titles == ["Toast"]
    assert find(phone, content_desc="Clear query") is not None
    phone.press_key(KEYCODE_BACK)
    assert find(phone, resource_id=RID + "search_src_text") is None
    assert [n.text for n in phone.ui_tree().iter() if n.resource_id == RID + "card_text_view_title"] == ["Soup", "Toast"]


def test_details_menu_and_delete_dialog(phone: Phone) -> None:
    tap(phone, resource_id=RID + "card_text_view_title", text="Soup")
    assert find(phone, resource_id=RID + "fab_cooking_assistant", content_desc="Cook") is not None
    quantities = [n.text for n in phone.ui_tree().iter() if n.resource_id == RID + "ingredient_quantity"]
    assert quantities == ["2", ""]
    tap(phone, content_desc="More options")
    assert [n.text for n in phone.ui_tree().iter() if n.resource_id == RID + "title"] == ["Share", "Share as file", "Edit", "Delete"]
    tap(phone, resource_id=RID + "title", text="Delete")
    assert find(phone, resource_id="android:id/message", text="Delete this recipe?") is not None
    tap(phone, resource_id="android:id/button1", text="Delete")
    assert [r["title"] for r in phone.content_query(RECIPES_URI)] == ["Toast"]
    assert find(phone, resource_id=RID + "fab_recipes") is not None  # the page closed


def test_builders_split_as_the_app_does() -> None:
    assert ingredients("2 carrots\n- salt\n\n1/2 cup milk") == [("2", " carrots"), ("", "salt"), ("1/2", " cup milk")]
    assert directions("1. Boil.\n  \nServe.") == ["Boil.", "Serve."]


def test_drawer_reaches_categories(phone: Phone) -> None:
    tap(phone, content_desc="Open navigation drawer")
    items = [n.text for n in phone.ui_tree().iter() if n.resource_id == RID + "design_menu_item_text"]
    assert items == ["Recipes", "Categories", "Seasonal calendar", "Support the app", "Backup and restore", "Settings", "About the app"]
    tap(phone, text="Categories")
    assert find(phone, resource_id=RID + "categories_empty") is not None
    tap(phone, content_desc="Add category")
    assert find(phone, resource_id=RID + "category_name") is not None
