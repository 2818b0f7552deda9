"""Summary and comparison figures, recomputed independently from the JSONL."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import pytest
from evalhelpers import read_lines

from cerebellum_gym.agents import load_agent
from cerebellum_gym.evaluation.faults import ALWAYS, FaultPlan
from cerebellum_gym.evaluation.outputs import finalize_run, write_comparison
from cerebellum_gym.evaluation.runner import EvalConfig, run_suite
from cerebellum_gym.evaluation.suites import load_suite


def _recompute(lines: list[dict[str, Any]]) -> dict[str, Any]:
    # Written from the definitions in docs/evaluation.md, not from the module under test.
    ran = [r for r in lines if r["status"] != "infra_skip"]
    solved = [r for r in ran if r["success"]]
    latencies = [x for r in ran for x in r["latency_s"]]
    return {
        "cases": len(lines),
        "n": len(ran),
        "solved": len(solved),
        "success_rate": len(solved) / len(ran),
        "mean_return": sum(r["return"] for r in ran) / len(ran),
        "mean_progress": sum(r["progress"] for r in ran) / len(ran),
        "partial": len([r for r in ran if not r["success"] and r["progress"] > 0]),
        "avg_steps": sum(r["steps"] for r in ran) / len(ran),
        "infra_skips": len(lines) - len(ran),
        "errors": len([r for r in ran if r["status"] == "error"]),
        "p50": statistics.median(latencies),
        "max": max(latencies),
    }


@pytest.fixture
def mixed_run(tmp_path: Path) -> Path:
    """A run with successes, failures and an infra skip: random agent, one case always faulty."""
    out = tmp_path / "run"
    suite = load_suite("tasks:SystemWifiTurnOn,SystemBluetoothTurnOn,ContactsAddContact,SystemBrightnessMax:4")
    plan = FaultPlan(cases={"ContactsAddContact-2": ALWAYS}, at_call=0)
    config = EvalConfig(num_envs=3, vectorization="sync", max_retries=1, fault_plan=plan, progress="off")
    run_suite(load_agent("random", seed=3), suite, out, config, agent_spec="random")
    return out


def test_summary_matches_the_jsonl(mixed_run: Path) -> None:
    finalize_run(mixed_run)
    lines = read_lines(mixed_run / "results.jsonl")
    summary = json.loads((mixed_run / "summary.json").read_text())
    expected = _recompute(lines)
    overall = summary["overall"]
    for key in ("cases", "n", "solved", "partial", "infra_skips", "errors"):
        assert overall[key] == expected[key], key
    for key in ("success_rate", "mean_return", "mean_progress", "avg_steps"):
        assert overall[key] == pytest.approx(expected[key]), key
    assert overall["latency_s"]["p50"] == pytest.approx(expected["p50"])
    assert overall["latency_s"]["max"] == pytest.approx(expected["max"])
    assert overall["infra_skips"] == 1
    for group, key in (("by_family", "family"), ("by_app", "app")):
        values = sorted({r[key] for r in lines})
        assert sorted(summary[group]) == values
        for value in values:
            sub = (
                _recompute([r for r in lines if r[key] == value])
                if any(r[key] == value and r["status"] != "infra_skip" for r in lines)
                else None
            )
            if sub is None:
                continue
            assert summary[group][value]["solved"] == sub["solved"]
            assert summary[group][value]["n"] == sub["n"]
            assert summary[group][value]["mean_return"] == pytest.approx(sub["mean_return"])
    markdown = (mixed_run / "summary.md").read_text()
    assert f"| Success | {expected['solved']}/{expected['n']} = {100 * expected['success_rate']:.1f}% |" in markdown
    assert "| Infra skips | 1 |" in markdown
    assert (mixed_run / "success_by_family.png").read_bytes().startswith(b"\x89PNG")


def test_compare_counts_solved_case_differences(mixed_run: Path, tmp_path: Path) -> None:
    oracle = tmp_path / "oracle"
    suite = load_suite("tasks:SystemWifiTurnOn,SystemBluetoothTurnOn,ContactsAddContact,SystemBrightnessMax:4")
    run_suite(load_agent("oracle"), suite, oracle, EvalConfig(num_envs=2, vectorization="sync", progress="off"), agent_spec="oracle")
    markdown, data, report = write_comparison([mixed_run, oracle], tmp_path / "cmp")
    random_solved = {r["case"] for r in read_lines(mixed_run / "results.jsonl") if r["success"]}
    diff = data["diffs"][0]
    assert diff["reference"] == "random" and diff["label"] == "oracle (privileged)"
    assert set(diff["gained"]) == {c.id for c in suite.cases} - random_solved
    assert diff["lost"] == [] and diff["solved_delta"] == 16 - len(random_solved)
    assert f"| oracle (privileged) | {diff['solved_delta']:+d} |" in markdown
    assert "| Success | " in markdown and "upper bound" in markdown
    assert report.exists() and (tmp_path / "cmp" / "compare.json").exists()
