"""``docs/androidworld_conformance.md`` is what ``benchmarks/androidworld/conformance.py`` writes.

The full matrix (every mirrored task at three seeds, two episodes each, and a set-up of each task
not mirrored) takes minutes, too long for CI's two cores. So this test regenerates a subset: one
task of each kind of row (a "Verify" system task, an open-app task and its launch near miss, a
clock, camera, audio, contacts, calendar, expense, Markor and browser task, a Broccoli task whose
seeds skip AndroidWorld's meaningless draws, a Tasks.org and an OpenTracks question, a Gallery, a
Draw, a clipboard, a Joplin, a VLC and an OsmAnd task), each at the last seed the document runs it
at, plus the first task not mirrored, on the real AndroidWorld code against the served simulator,
and checks those rows of the committed document cell for cell, reasons included (exact text). The
rest of the document is checked for consistency: every AndroidWorld task is listed once, each
mirrored task at its meaningful seeds, the headline count is the number of tasks passing at every
seed, the family table adds up, and README quotes the same headline. Rerun the script after
changing the simulator and commit the document.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("android_world", reason="AndroidWorld is not installed (scripts/dev.sh test installs it)")
pytest.importorskip("adbutils")

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "androidworld" / "conformance.py"
DOC = REPO / "docs" / "androidworld_conformance.md"
SUBSET = (
    "SystemWifiTurnOffVerify",
    "ClockTimerEntry",
    "CameraTakeVideo",
    "AudioRecorderRecordAudioWithFileName",
    "ContactsAddContact",
    "SimpleCalendarDeleteOneEvent",
    "ExpenseDeleteSingle",
    "MarkorEditNote",
    "BrowserMultiply",
    "OpenAppTaskEval",
    "RecipeDeleteMultipleRecipesWithConstraint",
    "TasksDueOnDate",
    "SportsTrackerActivityDuration",
    "SaveCopyOfReceiptTaskEval",
    "SimpleDrawProCreateDrawing",
    "SystemCopyToClipboard",
    "NotesIsTodo",
    "VlcCreatePlaylist",
    "OsmAndFavorite",
)


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("aw_conformance", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def conformance() -> ModuleType:
    return load()


def test_regenerated_rows_match_the_committed_document(conformance: ModuleType) -> None:
    text = DOC.read_text(encoding="utf-8")
    committed = conformance.parse_rows(text)
    others = conformance.parse_unmirrored(text)
    todo = [(name, max(seed for task, seed in committed if task == name)) for name in SUBSET]
    first_other = sorted(others)[:1]
    rows, probed = conformance.run(todo, first_other)
    fresh_text = conformance.render(rows, probed)
    fresh = conformance.parse_rows(fresh_text)
    assert sorted(fresh) == sorted(todo)
    for case in todo:
        assert fresh[case] == committed[case], f"{case}: rerun python benchmarks/androidworld/conformance.py"
    fresh_others = conformance.parse_unmirrored(fresh_text)
    for name in first_other:
        assert fresh_others[name] == others[name], f"{name}: rerun python benchmarks/androidworld/conformance.py"


def test_document_is_consistent_and_quoted_in_readme(conformance: ModuleType) -> None:
    text = DOC.read_text(encoding="utf-8")
    rows = conformance.parse_rows(text)
    others = conformance.parse_unmirrored(text)
    mirrored = conformance.mirrored()
    assert sorted({task for task, _ in rows}) == mirrored  # every mirrored task
    assert sorted([*mirrored, *others]) == sorted(conformance.all_tasks())  # every AndroidWorld task, once
    seeds = len([s for t, s in rows if t == mirrored[0]])
    assert seeds >= 3
    for name in mirrored:  # at its first meaningful seeds
        assert sorted(s for t, s in rows if t == name) == conformance.seeds_for(name, seeds), name
    headline = re.search(r"\*\*(\d+) of (\d+) AndroidWorld tasks pass end to end", text)
    assert headline is not None
    passing = {key for key, cells in rows.items() if cells[3] == "1" and cells[5] not in ("–", "1") and cells[7] == "yes"}
    tasks = {name for name in mirrored if all(key in passing for key in rows if key[0] == name)}
    assert int(headline.group(1)) == len(tasks) and int(headline.group(2)) == len(mirrored) + len(others) == 116
    families = re.findall(r"^\| (\w+) \| (\d+) / (\d+) \| (\d+) / (\d+) \|$", text, re.MULTILINE)
    assert sum(int(f[1]) for f in families) == len(tasks) and sum(int(f[2]) for f in families) == len(mirrored)
    assert sum(int(f[3]) for f in families) == len(passing) and sum(int(f[4]) for f in families) == len(rows)
    for key, cells in rows.items():  # a row passes, or says why not
        assert (cells[9] == "") == (key in passing), cells
    for cells in others.values():  # a task not mirrored says why
        assert cells[4], cells
    assert sorted(conformance.NOT_MIRRORED) == sorted(others)  # and no stale reason stays behind
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"{headline.group(1)} of {headline.group(2)} AndroidWorld tasks pass end to end with AndroidWorld's own code" in readme


def test_seeds_skip_androidworld_draws_that_make_no_task(conformance: ModuleType) -> None:
    """AndroidWorld's draw for RecipeDeleteMultipleRecipesWithConstraint at seeds 1 and 3 finds no
    recipe with the ingredient (nothing to delete); the seeds chosen skip them, deterministically."""
    assert conformance.seeds_for("RecipeDeleteMultipleRecipesWithConstraint", 3) == [0, 2, 4]
    assert conformance.seeds_for("ClockTimerEntry", 3) == [0, 1, 2]
    assert not conformance.meaningful({"row_objects": []})
    assert not conformance.meaningful({"app_name": "no such app"})
    assert conformance.meaningful({"app_name": "clock"})


def test_launch_cut_leaves_out_the_launch_and_the_dialog_after_it(conformance: ModuleType) -> None:
    fronts = ["launcher", "com.android.camera2", "com.android.camera2"]
    assert conformance.launch_cut(["T HB", "T LU"], fronts[1:]) == (0, "the launch (T HB) and what follows")
    assert conformance.launch_cut(["S", "T HB", "T LU"], fronts) == (1, "the launch (T HB) and what follows")


def test_near_miss_cut_leaves_out_the_last_effective_action(conformance: ModuleType) -> None:
    assert conformance.near_miss_cut(["T AB", "K hello", "T CD", "B", "F"]) == (2, "its last action (T CD)")
    assert conformance.near_miss_cut(["T AB", "F 42"]) == (1, "the answer withheld")
    assert conformance.near_miss_cut(["B", "F"]) == (0, "every action")
