"""The README stays a guide: short, and every count it states is the code's."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cerebellum_gym.tasks import TASKS, families

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _number(pattern: str, text: str = README) -> int:
    found = re.search(pattern, text)
    assert found is not None, f"the README no longer says {pattern!r}"
    return int(found.group(1).replace(",", ""))


def test_the_readme_is_short() -> None:
    assert len(README.encode()) < 12 * 1024


def test_task_counts_are_the_registrys() -> None:
    assert _number(r"(\d+) tasks in \d+ families") == len(TASKS)
    assert _number(r"\d+ tasks in (\d+) families") == len(families())
    assert _number(r"(\d+) of them mirror AndroidWorld") == sum(1 for cls in TASKS.values() if cls.mirrors)
    assert _number(r"(\d+) are questions") == sum(1 for cls in TASKS.values() if cls.answer)


def test_the_default_suite_is_as_described() -> None:
    suite = json.loads((ROOT / "cerebellum_gym" / "suites" / "sim-mixed100.json").read_text())
    per_family: dict[str, int] = {}
    for case in suite["cases"]:
        family = TASKS[case["task"]].family
        per_family[family] = per_family.get(family, 0) + 1
    assert _number(r"(\d+) seeded cases") == len(suite["cases"])
    assert _number(r"from each of the (\d+) task families") == len(per_family) == len(families())
    words = {"five": 5, "four": 4, "six": 6}
    said = re.search(r"(\w+) from each of the", README)
    assert said is not None and set(per_family.values()) == {words[said.group(1)]}


def test_the_conformance_count_is_the_matrixs() -> None:
    matrix = (ROOT / "docs" / "androidworld_conformance.md").read_text()
    passed = _number(r"\*\*(\d+) of \d+ AndroidWorld tasks pass", matrix)
    assert _number(r"(\d+) of \d+ AndroidWorld tasks pass end to end") == passed
    assert _number(r"(\d+) of them mirror AndroidWorld") == passed


def test_the_task_reference_states_the_registrys_count() -> None:
    reference = (ROOT / "docs" / "tasks.md").read_text()
    assert _number(r"ships (\d+) judged tasks", reference) == len(TASKS)
    assert _number(r"judged tasks in (\d+) families", reference) == len(families())
