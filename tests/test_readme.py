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
    assert len(README.encode()) < 12_000  # issue 41: a guide; the history lives in docs/perf.md


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


def test_the_fidelity_figures_are_the_reports() -> None:
    """docs/fidelity.md's summary row (checked against the scorer by tests/test_fidelity_benchmark.py)."""
    fidelity = (ROOT / "docs" / "fidelity.md").read_text()
    row = re.search(r"^\| \*\*all\*\* \(mean over screens\) \| (\d+) \| [^|]+\| ([\d.]+) \| ([\d.]+) \|", fidelity, re.MULTILINE)
    assert row is not None, "docs/fidelity.md lost its summary row"
    screens, before, now = row.groups()
    assert f"On {screens} reference screens the simulator scores {now}, from {before} before" in " ".join(README.split())


def test_the_suites_named_exist() -> None:
    from cerebellum_gym.evaluation.suites import available_suites

    named = set(re.findall(r"`((?:sim|androidworld)-[a-z0-9-]+)`", README)) | {"androidworld-mixed100"}
    found = set(available_suites())
    assert named <= found, named - found
    assert {f"sim-family-{family}" for family in families()} <= found  # the README's sim-family-<family>


def test_the_bad_input_count_is_the_scripts() -> None:
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("bad_inputs", ROOT / "benchmarks" / "firsthour" / "bad_inputs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bad_inputs"] = module
    spec.loader.exec_module(module)
    assert _number(r"bad_inputs\.py` tries (\d+)") == len(module.BAD)


def test_ci_runs_the_readmes_test_command() -> None:
    """The two set-up commands come first, and CI runs the second as written."""
    first = re.search(r"```bash\n(.*?)```", README, re.S)
    assert first is not None
    commands = [line.split("#")[0].strip() for line in first.group(1).splitlines()]
    assert commands == ["bash scripts/dev.sh eval", "bash scripts/dev.sh test"]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "bash scripts/dev.sh test" in ci.splitlines()
