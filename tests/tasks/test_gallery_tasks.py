"""The tasks that read what they must enter off a gallery picture (ExpenseAddMultipleFromGallery,
RecipeAddMultipleRecipesFromImage): the pictures hold AndroidWorld's text, only in their pixels,
the gallery shows them, and AndroidWorld's own parameters give its goal."""

from __future__ import annotations

import io
import random

import numpy as np
import pytest
from PIL import Image
from test_recipe_tasks import tasks_from_androidworld

from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks import make_task
from cerebellum_gym.tasks.base import Task
from cerebellum_gym.tasks.expense import EXPENSES_URI, from_aw_row, render_expenses
from cerebellum_gym.tasks.gallery import text_picture, wrapped

DCIM = "/sdcard/DCIM"
TASKS = ("ExpenseAddMultipleFromGallery", "RecipeAddMultipleRecipesFromImage")


def _setup(name: str, seed: int) -> tuple[Phone, Task]:
    phone = Phone()
    task = make_task(name, np.random.default_rng(seed))
    task.initialize(phone)
    return phone, task


def _ink_rows(data: bytes) -> int:
    """How many pixel rows of the picture hold dark ink (the text's lines, glyph by glyph)."""
    with Image.open(io.BytesIO(data)) as image:
        grey = np.asarray(image.convert("L"))
    return int((grey < 128).any(axis=1).sum())


def test_wrapped_is_textwraps_lines() -> None:
    assert wrapped("a b c", None) == "a b c"
    assert wrapped("alpha beta gamma", 10) == "alpha beta\ngamma"
    assert wrapped("", 60) == ""


def test_expense_rendering_matches_androidworld_wrapped_at_60() -> None:
    aw = pytest.importorskip("android_world.task_evals.single.expense")
    random.seed(3)
    params = aw.ExpenseAddMultipleFromGallery.generate_random_params()
    for key in ("row_objects", "noise_row_objects"):
        rows = [from_aw_row(r) for r in params[key]]
        assert render_expenses(rows, False, 60) == aw._get_expense_rows_as_text(params[key], "text_block", wrap_width=60)


def test_expense_pictures_are_the_targets_and_ten_old_ones() -> None:
    phone, task = _setup("ExpenseAddMultipleFromGallery", 2)
    names = sorted(phone.list_dir(DCIM))
    assert names == sorted(["expenses.jpg", *(f"old_expenses_{i}.jpg" for i in range(10))])
    data = phone.read_file(f"{DCIM}/expenses.jpg")
    assert data == text_picture(render_expenses(task.params["rows"], False, 60))
    old = phone.read_file(f"{DCIM}/old_expenses_0.jpg")
    assert old == text_picture(render_expenses(task.params["noise"], False, 60)) != data
    # The ten older expenses are in the app already; the three pictured ones are not.
    held = {r["name"] for r in phone.content_query(EXPENSES_URI)}
    assert held == {r["name"] for r in task.params["noise"]} and not held & {r["name"] for r in task.params["rows"]}
    assert task.progress(phone) == 0.0


def test_text_picture_draws_every_line_and_accents() -> None:
    """Each line of text is drawn (more lines, more inked rows), a blank line only spaces them, and
    an accented letter is inked above its base letter rather than drawn as the font's box."""
    one, three = text_picture("Recipe: Soup"), text_picture("Recipe: Soup\n\n servings: 2\n directions: Stir.")
    assert _ink_rows(three) > 2 * _ink_rows(one)
    with Image.open(io.BytesIO(three)) as image:
        assert image.format == "JPEG" and np.asarray(image.convert("L"))[2, 2] > 240
    with Image.open(io.BytesIO(text_picture("e"))) as plain, Image.open(io.BytesIO(text_picture("é"))) as accented:
        assert accented.size == plain.size
        ink = np.asarray(accented.convert("L")) < 128
        base = np.asarray(plain.convert("L")) < 128
        above = np.argmax(base.any(axis=1))  # the first inked row of the plain letter
        assert ink[:above].any() and not base[:above].any()


@pytest.mark.parametrize("name", TASKS)
def test_the_gallery_viewer_paints_the_picture(name: str) -> None:
    """Opened in Simple Gallery Pro, the picture fills the viewer with its text (dark ink on white),
    and the screen's tree names the file but holds none of the text to enter."""
    phone, task = _setup(name, 1)
    picture = "expenses.jpg" if name.startswith("Expense") else "recipes.jpg"
    gallery = phone.app("com.simplemobiletools.gallery.pro")
    phone.start_app(gallery.package)
    gallery.push("viewer", path=f"{DCIM}/{picture}")
    phone.invalidate()
    tree = phone.ui_tree()
    view = tree.find(resource_id=f"{gallery.package}:id/gestures_view")
    assert view is not None and tree.find(text=picture) is not None
    first = task.params["rows"][0]
    assert (first.get("name") or first["title"]) not in " ".join(n.text for n in tree.iter())
    left, top, right, bottom = view.bounds
    shot = np.asarray(phone.screenshot())[top:bottom, left:right]
    white = (shot > 240).all(axis=2).mean()
    dark = (shot < 80).all(axis=2).mean()
    assert white > 0.2 and dark > 0.01


@pytest.mark.parametrize("name", TASKS)
def test_androidworld_parameters_give_androidworlds_goal(name: str) -> None:
    for task in tasks_from_androidworld("expense" if name.startswith("Expense") else "recipe", name):
        assert len(task.params["rows"]) == 3 and len(task.params["noise"]) == 10
