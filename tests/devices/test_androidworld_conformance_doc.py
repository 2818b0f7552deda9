"""``docs/androidworld_conformance.md`` is what ``benchmarks/androidworld/conformance.py`` writes.

The full matrix (53 tasks, two episodes each, some set-ups waiting on adb time-outs) takes minutes,
too long for CI's two cores. So this test regenerates a subset, one task of each kind of row (a
"Verify" system task, a clock, camera, audio and contacts task; a set-up that fails in
AndroidWorld's code), on the real AndroidWorld code against the served simulator, and checks
those rows of the committed document cell for cell, reasons included (exact text). The rest of
the document is checked for consistency: the headline count is the number of passing rows, the
family table adds up, and README quotes the same headline. Rerun the script after changing the
simulator and commit the document.
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
    committed = conformance.parse_rows(DOC.read_text(encoding="utf-8"))
    fresh = conformance.parse_rows(conformance.render(conformance.run(list(SUBSET))))
    assert set(fresh) == set(SUBSET)
    for name in SUBSET:
        assert fresh[name] == committed[name], f"{name}: rerun python benchmarks/androidworld/conformance.py"


def test_document_is_consistent_and_quoted_in_readme(conformance: ModuleType) -> None:
    text = DOC.read_text(encoding="utf-8")
    rows = conformance.parse_rows(text)
    assert sorted(rows) == conformance.mirrored()  # every mirrored task, once
    headline = re.search(r"\*\*(\d+) of (\d+) mirrored tasks pass", text)
    assert headline is not None
    passing = [cells for cells in rows.values() if cells[3] == "1" and cells[5] not in ("–", "1")]
    assert int(headline.group(1)) == len(passing) and int(headline.group(2)) == len(rows)
    families = dict(re.findall(r"^\| (\w+) \| (\d+ / \d+) \|$", text, re.MULTILINE))
    assert sum(int(v.split(" / ")[0]) for v in families.values()) == len(passing)
    assert sum(int(v.split(" / ")[1]) for v in families.values()) == len(rows)
    for cells in rows.values():  # a row passes, or says why not
        assert (cells[9] == "") == (cells in passing), cells
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"{headline.group(1)} of {headline.group(2)} mirrored tasks pass end to end with AndroidWorld's own code" in readme


def test_near_miss_cut_leaves_out_the_last_effective_action(conformance: ModuleType) -> None:
    assert conformance.near_miss_cut(["T AB", "K hello", "T CD", "B", "F"]) == (2, "its last action (T CD)")
    assert conformance.near_miss_cut(["T AB", "F 42"]) == (1, "the answer withheld")
    assert conformance.near_miss_cut(["B", "F"]) == (0, "every action")
