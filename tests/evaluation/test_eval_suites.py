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


def test_shipped_suites_are_found_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Package data: the same lookup from a checkout, an editable install and a wheel
    # (tests/test_packaging.py runs it from an installed wheel).
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CEREBELLUM_SUITES", raising=False)
    assert {"sim-smoke", "sim-mixed100"} <= set(available_suites())
    assert len(load_suite("sim-mixed100").cases) == 100
    mine = write_suite(tmp_path, "sim-smoke", 1)  # a folder in $CEREBELLUM_SUITES comes first
    monkeypatch.setenv("CEREBELLUM_SUITES", str(mine.parent))
    assert load_suite("sim-smoke").source == str(mine)


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
    assert "'seed' must be a non-negative integer" in _bad(tmp_path, {"cases": [{"id": "a", "task": "SystemWifiTurnOn", "seed": "x"}]})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # Each of these passed validation before, and ran (or failed) case by case.
        ({"cases": [{"task": "SystemWifiTurnOn", "seed": -5}]}, "'seed' must be a non-negative integer, got -5"),
        ({"cases": [{"task": "SystemWifiTurnOn", "seed": True}]}, "'seed' must be a non-negative integer, got True"),
        ({"cases": [{"task": "SystemWifiTurnOn", "seed": 1.5}]}, "'seed' must be a non-negative integer, got 1.5"),
        ({"cases": [{"task": "SystemWifiTurnOn", "seeds": 3}]}, "unknown key(s) 'seeds'"),
        ({"cases": [{"task": "SystemWifiTurnOn"}], "max_step": 5}, "unknown key(s) 'max_step'"),
        ({"cases": [{"task": "SystemWifiTurnOn"}], "max_steps": 0}, "'max_steps' (the step budget) must be a positive integer, got 0"),
        ({"cases": [{"task": "SystemWifiTurnOn"}], "max_steps": "5"}, "'max_steps' (the step budget) must be a positive integer"),
        ({"cases": [{"task": "SystemWifiTurnOn"}], "name": 7}, "'name' must be a string"),
        ({"cases": [{"task": "SystemWifiTurnOn"}], "env": ""}, "'env' must be a gymnasium env id"),
        ({"cases": [{"task": "SystemWifiTurnOn", "id": " "}]}, "'id' must be a non-empty string"),
        ({"cases": [{"task": "NoSuchTask", "seed": 0}]}, "NoSuchTask"),
    ],
)
def test_every_field_is_validated(tmp_path: Path, data: dict, message: str) -> None:
    assert message in _bad(tmp_path, data)


def test_a_suite_budget_reaches_the_env_and_the_digest(tmp_path: Path) -> None:
    from cerebellum_gym.agents import load_agent
    from cerebellum_gym.evaluation.runner import EvalConfig, run_suite

    base = {"name": "b", "cases": [{"id": "w", "task": "SystemWifiTurnOn", "seed": 0}]}
    (tmp_path / "plain.json").write_text(json.dumps(base))
    (tmp_path / "budget.json").write_text(json.dumps({**base, "max_steps": 3}))
    plain, budget = load_suite(str(tmp_path / "plain.json")), load_suite(str(tmp_path / "budget.json"))
    assert budget.max_steps == 3 and plain.digest != budget.digest
    always_wait = load_agent(lambda obs: "W")
    result = run_suite(always_wait, budget, tmp_path / "run", EvalConfig(progress="off"), agent_spec="wait")
    assert [(r["steps"], r["max_steps"], r["truncated"]) for r in result.records] == [(3, 3, True)]
