"""Suite loading: paths, names in search folders, built-in suites, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from evalhelpers import write_suite

from cerebellum_gym.evaluation.suites import SuiteError, available_suites, load_suite


def test_load_by_path_resolves_family_and_app(small_suite: Path) -> None:
    suite = load_suite(str(small_suite))
    assert suite.name == "small"
    assert len(suite.cases) == 8
    first = suite.cases[0]
    assert (first.id, first.task, first.seed, first.family, first.app) == (
        "SystemWifiTurnOn-0",
        "SystemWifiTurnOn",
        0,
        "system",
        "Settings",
    )
    assert {c.family for c in suite.cases} == {"system", "contacts"}


def test_load_by_name_from_env_var_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_suite(tmp_path, "mine", 1)
    monkeypatch.setenv("CEREBELLUM_SUITES", str(tmp_path))
    assert "mine" in available_suites()
    assert [c.id for c in load_suite("mine").cases][:2] == ["SystemWifiTurnOn-0", "SystemWifiTurnOff-0"]


def test_load_by_name_from_cwd_benchmarks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "benchmarks" / "suites"
    folder.mkdir(parents=True)
    write_suite(folder, "cwd-suite", 1)
    monkeypatch.chdir(tmp_path)
    assert len(load_suite("cwd-suite").cases) == 4


def test_builtin_suites() -> None:
    from cerebellum_gym.tasks import task_names

    everything = load_suite("all-tasks:2")
    assert len(everything.cases) == 2 * len(task_names())
    assert len({c.id for c in everything.cases}) == len(everything.cases)
    named = load_suite("tasks:SystemWifiTurnOn,SystemWifiTurnOn,ContactsAddContact:3")
    assert [c.id for c in named.cases] == [f"SystemWifiTurnOn-{s}" for s in range(3)] + [f"ContactsAddContact-{s}" for s in range(3)]


def test_digest_changes_with_cases(small_suite: Path, tmp_path: Path) -> None:
    other = write_suite(tmp_path, "other", 3)
    assert load_suite(str(small_suite)).digest == load_suite(str(small_suite)).digest
    assert load_suite(str(small_suite)).digest != load_suite(str(other)).digest


def _bad(tmp_path: Path, data: object, raw: str | None = None) -> str:
    path = tmp_path / "bad.json"
    path.write_text(raw if raw is not None else json.dumps(data))
    with pytest.raises(SuiteError) as info:
        load_suite(str(path))
    return str(info.value)


def test_errors_name_the_problem(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="unknown suite 'no-such-suite'"):
        load_suite("no-such-suite")
    with pytest.raises(SuiteError, match="does not exist"):
        load_suite(str(tmp_path / "missing.json"))
    assert "not valid JSON" in _bad(tmp_path, None, raw="{nope")
    assert "non-empty list" in _bad(tmp_path, {"cases": []})
    duplicate = {"cases": [{"id": "a", "task": "SystemWifiTurnOn", "seed": 0}, {"id": "a", "task": "SystemWifiTurnOff", "seed": 0}]}
    assert "duplicate id 'a'" in _bad(tmp_path, duplicate)
    unknown = _bad(tmp_path, {"cases": [{"id": "a", "task": "SystemWifiTurnOnn", "seed": 0}]})
    assert "case #0" in unknown and "did you mean SystemWifiTurnOn" in unknown
    assert "'seed' must be an integer" in _bad(tmp_path, {"cases": [{"id": "a", "task": "SystemWifiTurnOn", "seed": "x"}]})
