"""Summary and comparison figures, recomputed independently from the JSONL."""

from __future__ import annotations

import json
import math
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
from cerebellum_gym.evaluation.summary import paired_difference, wilson_interval

Z95 = 1.959963984540054


def _wilson_by_root_finding(k: int, n: int) -> tuple[float, float]:
    """The Wilson interval from its definition: the rates p whose score test does not reject,
    |k/n - p| <= z * sqrt(p(1-p)/n), found by bisection (not by the closed form under test)."""

    def outside(p: float) -> bool:
        return abs(k / n - p) > Z95 * math.sqrt(p * (1 - p) / n)

    def edge(inside: float, out: float) -> float:
        for _ in range(200):
            mid = (inside + out) / 2
            inside, out = (inside, mid) if outside(mid) else (mid, out)
        return inside

    centre = k / n
    lo = 0.0 if not outside(0.0) else edge(centre, 0.0)
    hi = 1.0 if not outside(1.0) else edge(centre, 1.0)
    return lo, hi


def _sign_test_p(gained: int, lost: int) -> float:
    """Exact two-sided sign test by enumerating every split of the discordant cases."""
    total = gained + lost
    probs = [math.comb(total, k) / 2**total for k in range(total + 1)]
    observed = probs[gained]
    return min(1.0, sum(p for p in probs if p <= observed * (1 + 1e-12)))


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
        "success_ci95": _wilson_by_root_finding(len(solved), len(ran)),
        "mean_return": sum(r["progress"] for r in ran) / len(ran),
        "mean_progress_gained": sum(r["progress"] - r["start_progress"] for r in ran) / len(ran),
        "mean_env_return": sum(r["return"] for r in ran) / len(ran),
        "partial": len([r for r in ran if not r["success"] and 0 < r["progress"] < 1]),
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
    for key in ("success_rate", "mean_return", "mean_progress_gained", "mean_env_return", "avg_steps"):
        assert overall[key] == pytest.approx(expected[key]), key
    assert overall["success_ci95"] == pytest.approx(expected["success_ci95"], abs=1e-9)
    # The default reward pays the success: the env's return is the success rate (no penalties here).
    assert overall["mean_env_return"] == pytest.approx(expected["success_rate"])
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
            assert summary[group][value]["success_ci95"] == pytest.approx(sub["success_ci95"], abs=1e-9)
    markdown = (mixed_run / "summary.md").read_text()
    assert f"| Success | {expected['solved']}/{expected['n']} = {100 * expected['success_rate']:.1f}% |" in markdown
    lo, hi = expected["success_ci95"]
    assert f"| Success 95% CI (Wilson) | {100 * lo:.1f}-{100 * hi:.1f}% |" in markdown
    assert f"| Mean return (mean final progress, as MobileGym) | {expected['mean_return']:.4f} |" in markdown
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
    # Paired by case (infra skips left out), recomputed from the two JSONL files.
    ref = {r["case"]: r for r in read_lines(mixed_run / "results.jsonl") if r["status"] != "infra_skip"}
    oth = {r["case"]: r for r in read_lines(oracle / "results.jsonl") if r["status"] != "infra_skip"}
    cases = [c for c in ref if c in oth]
    paired = diff["paired"]
    assert paired["n"] == len(cases) == 15
    gained = sum(1 for c in cases if oth[c]["success"] and not ref[c]["success"])
    lost = sum(1 for c in cases if ref[c]["success"] and not oth[c]["success"])
    assert (paired["success"]["gained"], paired["success"]["lost"]) == (gained, lost)
    assert paired["success"]["p_value"] == pytest.approx(_sign_test_p(gained, lost))
    d = [float(oth[c]["success"]) - float(ref[c]["success"]) for c in cases]
    half = Z95 * statistics.stdev(d) / math.sqrt(len(d))
    assert paired["success"]["ci95"] == pytest.approx([max(-1, statistics.fmean(d) - half), min(1, statistics.fmean(d) + half)])
    g = [oth[c]["progress"] - ref[c]["progress"] for c in cases]
    half = Z95 * statistics.stdev(g) / math.sqrt(len(g))
    assert paired["mean_return"]["difference"] == pytest.approx(statistics.fmean(g))
    assert paired["mean_return"]["ci95"] == pytest.approx([max(-1, statistics.fmean(g) - half), min(1, statistics.fmean(g) + half)])
    # The oracle solves every case the random agent misses: far beyond the noise at 15 cases.
    assert paired["success"]["beyond_noise"] is (_sign_test_p(gained, lost) < 0.05)
    verdict = "beyond the noise" if paired["success"]["beyond_noise"] else "within the noise"
    assert f"| oracle (privileged) | {len(cases)} |" in markdown and verdict in markdown


def test_paired_comparison_of_identical_runs_is_within_the_noise(mixed_run: Path) -> None:
    lines = read_lines(mixed_run / "results.jsonl")
    paired = paired_difference(lines, lines)
    assert paired["success"]["p_value"] == 1.0 and not paired["success"]["beyond_noise"]
    assert paired["mean_return"]["difference"] == 0.0 and not paired["mean_return"]["beyond_noise"]


@pytest.mark.parametrize(("k", "n"), [(0, 1), (0, 10), (1, 100), (50, 100), (99, 100), (100, 100), (3, 7)])
def test_wilson_interval_matches_its_definition(k: int, n: int) -> None:
    assert wilson_interval(k, n) == pytest.approx(_wilson_by_root_finding(k, n), abs=1e-9)
