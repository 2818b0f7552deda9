"""The row-store families (Pro Expense, Broccoli) on their shared base: the same judges for both
tables, AndroidWorld's ``sqlite_validators`` with partial credit, on a real simulated phone."""

from __future__ import annotations

import numpy as np
import pytest

from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks import make_task
from cerebellum_gym.tasks.base import Task
from cerebellum_gym.tasks.rowstore import AddRowsTask, DeleteDuplicateRowsTask, DeleteRowsTask, RowStoreTask


def _start(name: str, seed: int = 0) -> tuple[Phone, Task]:
    phone = Phone()
    task = make_task(name, np.random.default_rng(seed))
    task.start_episode(phone)
    return phone, task


def _replace(phone: Phone, task: RowStoreTask, row_id: str, **changes: str) -> None:
    """Edit a row in place: the same id, other values (as the app's edit screen saves it)."""
    (row,) = phone.content_query(task.uri, where={"_id": row_id})
    phone.content_delete(task.uri, where={"_id": row_id})
    phone.content_insert(task.uri, {**row, **changes})


@pytest.mark.parametrize(
    ("name", "base"),
    [
        ("ExpenseAddSingle", AddRowsTask),
        ("RecipeAddSingleRecipe", AddRowsTask),
        ("ExpenseDeleteMultiple", DeleteRowsTask),
        ("RecipeDeleteMultipleRecipes", DeleteRowsTask),
        ("ExpenseDeleteDuplicates", DeleteDuplicateRowsTask),
        ("RecipeDeleteDuplicateRecipes", DeleteDuplicateRowsTask),
    ],
)
def test_both_families_stand_on_the_shared_base(name: str, base: type[RowStoreTask]) -> None:
    _, task = _start(name)
    assert isinstance(task, base)


@pytest.mark.parametrize("name", ["ExpenseDeleteDuplicates", "RecipeDeleteDuplicateRecipes"])
def test_a_duplicate_left_but_edited_fails_and_left_as_it_was_passes(name: str) -> None:
    phone, task = _start(name)
    assert isinstance(task, DeleteDuplicateRowsTask)
    first, second = sorted(task._dupes, key=int)
    phone.content_delete(task.uri, where={"_id": first})
    assert task.progress(phone) == 1.0
    column = "note" if name.startswith("Expense") else "description"
    _replace(phone, task, second, **{column: "changed"})
    assert task.progress(phone) == 0.0  # AndroidWorld's judge finds a row that was not there before


@pytest.mark.parametrize("name", ["ExpenseDeleteMultiple", "RecipeDeleteMultipleRecipesWithNoise"])
def test_deleting_scores_the_share_of_targets_and_nothing_when_another_row_goes(name: str) -> None:
    phone, task = _start(name)
    assert isinstance(task, DeleteRowsTask)
    targets = sorted(task._targets, key=int)
    assert len(targets) == 3 and task.progress(phone) == 0.0
    phone.content_delete(task.uri, where={"_id": targets[0]})
    assert task.progress(phone) == pytest.approx(1 / 3)
    other = next(r["_id"] for r in phone.content_query(task.uri) if r["_id"] not in task._targets)
    phone.content_delete(task.uri, where={"_id": other})
    assert task.progress(phone) == 0.0


@pytest.mark.parametrize("name", ["ExpenseAddSingle", "RecipeAddSingleRecipe"])
def test_adding_the_target_passes_and_an_extra_row_costs(name: str) -> None:
    phone, task = _start(name)
    assert isinstance(task, AddRowsTask)
    (want,) = task.params["rows"]
    assert task.progress(phone) == 0.0
    task.insert(phone, want)
    assert task.progress(phone) == 1.0
    task.insert(phone, want)
    assert task.progress(phone) == 0.5
