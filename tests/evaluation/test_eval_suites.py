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


# --- AndroidWorld's suites ------------------------------------------------------------------


def test_the_default_suite_follows_the_env() -> None:
    from cerebellum_gym.evaluation.suites import default_suite

    assert default_suite(None) == default_suite("Cerebellum-Sim-v0") == "sim-mixed100"
    assert default_suite("Cerebellum-AndroidWorld-v0") == "androidworld-mixed100"
    assert default_suite("Cerebellum-Adb-v0") == "sim-mixed100"


def test_androidworld_suites_are_the_cards_shape_over_androidworlds_families() -> None:
    pytest.importorskip("android_world", reason="AndroidWorld is not installed")
    import collections
    import importlib.util

    from cerebellum_gym.tasks.androidworld import task_classes

    aw = task_classes()
    mixed, preopened = load_suite("androidworld-mixed100"), load_suite("androidworld-mixed100-preopened")
    assert len(mixed.cases) == 100 and mixed.env == "Cerebellum-AndroidWorld-v0" and not mixed.env_kwargs
    assert [(c.id, c.task, c.seed) for c in mixed.cases] == [(c.id, c.task, c.seed) for c in preopened.cases]
    assert preopened.env_kwargs == {"device_options": {"open_target_app": True}} and preopened.digest != mixed.digest
    # Every case is an AndroidWorld task with its own seed, labelled by AndroidWorld's app family.
    assert all(c.task in aw and c.family == aw[c.task].family for c in mixed.cases)
    assert len({c.seed for c in mixed.cases}) == 100
    families = sorted({cls.family for cls in aw.values()})
    counts = collections.Counter(c.family for c in mixed.cases)
    assert sorted(counts) == families and max(counts.values()) - min(counts.values()) <= 1
    for family in families:
        suite = load_suite(f"androidworld-family-{family}")
        assert {c.task for c in suite.cases} == {n for n, cls in aw.items() if cls.family == family}
    # The shipped files are what make_suites.py writes.
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "suites" / "make_suites.py"
    spec = importlib.util.spec_from_file_location("make_suites", script)
    assert spec is not None and spec.loader is not None
    make_suites = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_suites)
    assert make_suites.main(["--check", "--suites", "androidworld-*"]) == 0


def test_a_suite_of_unknown_androidworld_tasks_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("android_world", reason="AndroidWorld is not installed")
    data = {"env": "Cerebellum-AndroidWorld-v0", "cases": [{"task": "ContactsAddContactt", "seed": 0}]}
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(SuiteError, match="ContactsAddContactt"):
        load_suite(str(tmp_path / "bad.json"))
    good = {**data, "cases": [{"task": "ContactsAddContact", "seed": 0}]}
    (tmp_path / "opts.json").write_text(json.dumps({**good, "env_kwargs": [1]}))
    with pytest.raises(SuiteError, match="env_kwargs"):
        load_suite(str(tmp_path / "opts.json"))


def test_on_the_embedded_simulator_unmirrored_cases_are_listed_not_available(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real embedded simulator (AndroidWorld's code over adb) with the oracle agent: mirrored
    cases run and are solved, the others are recorded as not available, with why, and counted
    apart; naming an emulator makes every case available again. The simulator mirrors every
    AndroidWorld task now, so one that lacks a mirror is stood in for: the catalogue of mirrors
    is narrowed by one task (``mirrored_tasks``, which the runner asks)."""
    pytest.importorskip("android_world", reason="AndroidWorld is not installed")
    pytest.importorskip("adbutils")
    from cerebellum_gym.agents import load_agent
    from cerebellum_gym.evaluation.runner import NOT_MIRRORED, EvalConfig, run_suite, unavailable_cases
    from cerebellum_gym.evaluation.summary import summarize, summary_markdown
    from cerebellum_gym.tasks import androidworld as aw_tasks
    from cerebellum_gym.tasks.androidworld import mirrored_tasks, task_classes

    mirrored = set(mirrored_tasks())
    unmirrored = sorted(set(task_classes()) - mirrored)
    other = unmirrored[0] if unmirrored else "ContactsNewContactDraft"
    if not unmirrored:
        monkeypatch.setattr(aw_tasks, "mirrored_tasks", lambda: sorted(mirrored - {other}))
    data = {
        "name": "aw-small",
        "env": "Cerebellum-AndroidWorld-v0",
        "env_kwargs": {"device_options": {"open_target_app": True}},
        "cases": [{"task": "SystemWifiTurnOn", "seed": 0}, {"task": other, "seed": 0}, {"task": "ContactsAddContact", "seed": 1}],
    }
    (tmp_path / "aw.json").write_text(json.dumps(data))
    suite = load_suite(str(tmp_path / "aw.json"))
    result = run_suite(load_agent("oracle"), suite, tmp_path / "run", EvalConfig(progress="off"), agent_spec="oracle")
    by_task = {r["task"]: r for r in result.records}
    assert [r["task"] for r in result.records] == ["SystemWifiTurnOn", other, "ContactsAddContact"]
    assert by_task[other]["status"] == "unavailable" and by_task[other]["error"] == NOT_MIRRORED
    assert by_task[other]["steps"] == 0 and not by_task[other]["success"]
    assert all(by_task[t]["status"] == "ok" and by_task[t]["success"] for t in ("SystemWifiTurnOn", "ContactsAddContact"))
    summary = summarize(result.records, result.meta)
    overall = summary["overall"]
    assert (overall["cases"], overall["n"], overall["solved"], overall["unavailable"], overall["infra_skips"]) == (3, 2, 2, 1, 0)
    assert summary["unavailable"] == {NOT_MIRRORED: [other]}
    text = summary_markdown(summary, result.meta)
    assert "Not available on this env (1 cases, not run)" in text and other in text
    # On an emulator every case is available (and an emulator pool likewise).
    cases = list(suite.cases)
    assert unavailable_cases("Cerebellum-AndroidWorld-v0", {}, EvalConfig(), cases) == {f"{other}-0": NOT_MIRRORED}
    named = {"device_options": {"console_port": 5554}}
    assert unavailable_cases("Cerebellum-AndroidWorld-v0", named, EvalConfig(), cases) == {}
    assert unavailable_cases("Cerebellum-AndroidWorld-v0", {}, EvalConfig(env_kwargs_per_env=[{}]), cases) == {}
    assert unavailable_cases("Cerebellum-Sim-v0", {}, EvalConfig(), cases) == {}
