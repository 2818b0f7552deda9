"""The rollout loop on gymnasium vector envs: results, retries and infra skips, resume rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from evalhelpers import read_lines, write_suite

from cerebellum_gym.agents import Agent, load_agent
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.evaluation.faults import ALWAYS, FaultPlan
from cerebellum_gym.evaluation.results import ResultsError
from cerebellum_gym.evaluation.runner import EvalConfig, recorded_cases, run_suite
from cerebellum_gym.evaluation.suites import load_suite

QUIET = {"progress": "off"}


def _run(agent: Agent | str, suite_path: Path, out: Path, **config: Any) -> list[dict[str, Any]]:
    agent_obj = load_agent(agent) if isinstance(agent, str) else agent
    result = run_suite(
        agent_obj,
        load_suite(str(suite_path)),
        out,
        EvalConfig(**{**QUIET, **config}),
        agent_spec=agent if isinstance(agent, str) else agent.name,
    )
    return result.records


@pytest.mark.parametrize("vectorization", ["sync", "async"])
def test_oracle_solves_every_case_once_on_parallel_envs(small_suite: Path, tmp_path: Path, vectorization: str) -> None:
    out = tmp_path / "run"
    records = _run("oracle", small_suite, out, num_envs=3, vectorization=vectorization)
    lines = read_lines(out / "results.jsonl")
    assert sorted(r["case"] for r in lines) == sorted(c.id for c in load_suite(str(small_suite)).cases)
    assert all(r["status"] == "ok" and r["success"] and r["progress"] == 1.0 for r in lines)
    assert all(r["steps"] == len(r["actions"]) == len(r["latency_s"]) == len(r["progress_trace"]) > 0 for r in lines)
    assert all(r["actions"][-1].startswith("F") for r in lines)
    assert [r["case"] for r in records] == [c.id for c in load_suite(str(small_suite)).cases]  # suite order
    meta = json.loads((out / "run.json").read_text())
    assert meta["privileged"] is True and meta["num_envs"] == 3 and meta["suite"] == "small"


def test_each_case_gets_its_own_seed_and_task(small_suite: Path, tmp_path: Path) -> None:
    # The same cases give the same goals and oracle trajectories whatever the number of envs.
    one = {r["case"]: (r["goal"], r["actions"]) for r in _run("oracle", small_suite, tmp_path / "a", num_envs=1)}
    four = {r["case"]: (r["goal"], r["actions"]) for r in _run("oracle", small_suite, tmp_path / "b", num_envs=4, vectorization="sync")}
    assert one == four
    assert len({goal for goal, _ in one.values()}) >= 3


def test_batches_reach_the_agent(small_suite: Path, tmp_path: Path) -> None:
    sizes: list[int] = []

    class Counting(Agent):
        name = "counting"

        def act(self, observation: Any) -> str:
            return "I"

        def act_batch(self, observations: Any, oracle: Any = None) -> list[str]:
            sizes.append(len(observations))
            assert all("goal" in o and "labels" in o for o in observations)
            return ["I"] * len(observations)

    records = _run(Counting(), small_suite, tmp_path / "run", num_envs=4, vectorization="sync")
    assert max(sizes) == 4 and sum(sizes) == len(records) == 8
    assert all(r["steps"] == 1 and not r["success"] for r in records)


def test_the_oracle_source_offers_each_slots_task_texts(small_suite: Path, tmp_path: Path) -> None:
    seen: list[tuple[str, list[str]]] = []

    class Reading(Agent):
        name = "reading"
        needs_pixels = False

        def act(self, observation: Any) -> str:
            return "I"

        def act_batch(self, observations: Any, oracle: Any = None) -> list[str]:
            seen.extend(zip((o["goal"] for o in observations), oracle.text_candidates(), strict=True))
            return ["I"] * len(observations)

    _run(Reading(), small_suite, tmp_path / "run", num_envs=3, vectorization="async")
    assert len(seen) == 8
    for goal, texts in seen:
        assert all(t in goal for t in texts)  # each slot's texts belong to its own task
    assert any(texts for _, texts in seen)


def test_fault_in_reset_is_retried_then_an_infra_skip(small_suite: Path, tmp_path: Path) -> None:
    plan = FaultPlan(cases={"SystemWifiTurnOn-0": ALWAYS, "ContactsAddContact-1": 1}, at_call=0)
    records = _run("oracle", small_suite, tmp_path / "run", num_envs=2, max_retries=2, fault_plan=plan, vectorization="async")
    by_case = {r["case"]: r for r in read_lines(tmp_path / "run" / "results.jsonl")}
    assert len(by_case) == len(records) == 8
    dead = by_case["SystemWifiTurnOn-0"]
    assert dead["status"] == "infra_skip" and dead["attempts"] == 3 and not dead["success"]
    assert len(dead["infra_errors"]) == 3 and all("DeviceLostError" in e and "injected" in e for e in dead["infra_errors"])
    flaky = by_case["ContactsAddContact-1"]
    assert flaky["status"] == "ok" and flaky["success"] and flaky["attempts"] == 2 and len(flaky["infra_errors"]) == 1
    others = [r for c, r in by_case.items() if c not in ("SystemWifiTurnOn-0", "ContactsAddContact-1")]
    assert all(r["status"] == "ok" and r["success"] and r["attempts"] == 1 for r in others)


def test_fault_during_a_step_is_retried_then_an_infra_skip(small_suite: Path, tmp_path: Path) -> None:
    # Call 6 falls inside the episode's steps (the reset makes fewer calls), so env.step sees the drop.
    plan = FaultPlan(cases={"SystemBluetoothTurnOn-1": ALWAYS, "SystemWifiTurnOff-0": 2}, at_call=6)
    records = _run("oracle", small_suite, tmp_path / "run", num_envs=3, max_retries=1, fault_plan=plan, vectorization="sync")
    by_case = {r["case"]: r for r in records}
    dead = by_case["SystemBluetoothTurnOn-1"]
    assert dead["status"] == "infra_skip" and dead["attempts"] == 2 and dead["steps"] >= 1
    # Two attempts drop, but only one retry is allowed: an infra skip too, never a silent drop.
    assert by_case["SystemWifiTurnOff-0"]["status"] == "infra_skip"
    assert sum(r["status"] == "ok" and r["success"] for r in records) == 6


def test_random_faults_never_lose_a_case_and_do_not_depend_on_the_env_count(small_suite: Path, tmp_path: Path) -> None:
    plan = FaultPlan(rate=0.08, seed=5)
    outcomes = []
    for n, mode in ((1, "sync"), (3, "async")):
        records = _run("oracle", small_suite, tmp_path / f"run{n}", num_envs=n, max_retries=1, fault_plan=plan, vectorization=mode)
        lines = read_lines(tmp_path / f"run{n}" / "results.jsonl")
        assert len(lines) == len({r["case"] for r in lines}) == 8
        assert all(r["status"] in ("ok", "infra_skip") for r in lines)
        assert all((r["status"] == "infra_skip") == (len(r["infra_errors"]) == 2) for r in lines)
        outcomes.append({r["case"]: (r["status"], r["attempts"]) for r in records})
    assert outcomes[0] == outcomes[1]
    assert any(attempts > 1 for _, attempts in outcomes[0].values())


def test_a_crashing_task_is_an_error_record_not_a_dead_run(small_suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cerebellum_gym.tasks import get_task_class

    cls = get_task_class("SystemBluetoothTurnOn")

    def broken(self: Any, device: Any, answer: str | None = None) -> float:
        raise RuntimeError("judge bug")

    monkeypatch.setattr(cls, "progress", broken)
    records = _run("oracle", small_suite, tmp_path / "run", num_envs=2, vectorization="sync")
    errors = [r for r in records if r["status"] == "error"]
    assert {r["case"] for r in errors} == {"SystemBluetoothTurnOn-0", "SystemBluetoothTurnOn-1"}
    assert all("judge bug" in r["error"] and not r["success"] for r in errors)
    assert sum(r["success"] for r in records) == 6


def test_agent_breaking_the_batch_contract_stops_cleanly(small_suite: Path, tmp_path: Path) -> None:
    class Short(Agent):
        name = "short"

        def act(self, observation: Any) -> str:
            return "W"

        def act_batch(self, observations: Any, oracle: Any = None) -> list[str]:
            return ["W"]

    with pytest.raises(CerebellumError, match="returned 1 actions for 2 observations"):
        _run(Short(), small_suite, tmp_path / "run", num_envs=2, vectorization="sync")


def test_resume_rules(small_suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run("oracle", small_suite, out, num_envs=2, vectorization="sync")
    with pytest.raises(ResultsError, match="already holds results"):
        _run("oracle", small_suite, out)
    with pytest.raises(ResultsError, match="cannot resume"):
        run_suite(load_agent("random"), load_suite(str(small_suite)), out, EvalConfig(progress="off"), resume=True, agent_spec="random")
    bigger = write_suite(tmp_path, "small", 3)  # same name, more cases: a different suite
    with pytest.raises(ResultsError, match="suite_digest"):
        run_suite(load_agent("oracle"), load_suite(str(bigger)), out, EvalConfig(progress="off"), resume=True, agent_spec="oracle")


def test_resume_repairs_a_line_cut_short(small_suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run("oracle", small_suite, out, num_envs=2, vectorization="sync")
    path = out / "results.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:5]) + lines[5][: len(lines[5]) // 2])  # killed mid-write of the sixth line
    result = run_suite(
        load_agent("oracle"), load_suite(str(small_suite)), out, EvalConfig(progress="off"), resume=True, agent_spec="oracle"
    )
    assert result.ran == 3
    final = read_lines(path)
    assert len(final) == len({r["case"] for r in final}) == 8
    assert path.read_text().startswith("".join(lines[:5]))


def test_screens_are_recorded_for_a_bounded_spread_of_cases(small_suite: Path, tmp_path: Path) -> None:
    suite = load_suite(str(small_suite))
    chosen = recorded_cases(suite, 2)
    assert len(chosen) == 2 and {suite.cases[[c.id for c in suite.cases].index(i)].family for i in chosen} == {"system", "contacts"}
    records = _run("oracle", small_suite, tmp_path / "run", num_envs=2, screens=2, vectorization="sync")
    with_frames = [r for r in records if r["frames"]]
    assert {r["case"] for r in with_frames} == chosen
    for r in with_frames:
        assert len(r["frames"]) == r["steps"] + 1
        first = tmp_path / "run" / r["frames"][0]
        from PIL import Image

        with Image.open(first) as image:  # the size the agent's screenshots have
            assert image.format == "JPEG" and image.width == 464


def test_an_agent_crash_keeps_finished_cases_and_resume_completes(small_suite: Path, tmp_path: Path) -> None:
    calls = {"n": 0}

    class Crashy(Agent):
        name = "crashy"

        def act(self, observation: Any) -> str:
            calls["n"] += 1
            if calls["n"] == 7:
                raise RuntimeError("model fell over")
            return "I"

    out = tmp_path / "run"
    with pytest.raises(RuntimeError, match="model fell over"):
        _run(Crashy(), small_suite, out, num_envs=2, vectorization="async")
    kept = read_lines(out / "results.jsonl")
    assert 4 <= len(kept) < 8  # the cases finished before the crash are on disk
    result = run_suite(
        Crashy(), load_suite(str(small_suite)), out, EvalConfig(num_envs=2, progress="off"), resume=True, agent_spec="crashy"
    )
    assert result.ran == 8 - len(kept)
    assert sorted(r["case"] for r in read_lines(out / "results.jsonl")) == sorted(c.id for c in load_suite(str(small_suite)).cases)


def test_unprivileged_agents_cannot_read_the_oracle(small_suite: Path, tmp_path: Path) -> None:
    class Cheating(Agent):
        name = "cheating"
        needs_pixels = False

        def act(self, observation: Any) -> str:
            return "I"

        def act_batch(self, observations: Any, oracle: Any = None) -> list[str]:
            return list(oracle.oracle_actions())

    with pytest.raises(CerebellumError, match="only privileged agents read the scripted oracle"):
        _run(Cheating(), small_suite, tmp_path / "run", num_envs=2, vectorization="sync")
