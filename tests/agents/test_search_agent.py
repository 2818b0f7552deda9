"""The search baseline (issue 37): a best-first search on the env's own episode states."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import gymnasium as gym
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents import SearchAgent, load_agent
from cerebellum_gym.errors import CerebellumError, ConfigError
from cerebellum_gym.evaluation.runner import EvalConfig, run_suite
from cerebellum_gym.evaluation.suites import load_suite
from cerebellum_gym.search import _words, plan

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "perf"))

from clone_state import same_step


def test_a_plan_reaches_the_goal_and_leaves_the_env_as_it_was() -> None:
    """After the search the episode goes on exactly as one that never searched (an env reset at
    the same seed): the plan's own steps give the same observations, rewards and infos."""
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOff", pixels=False)
    untouched = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOff", pixels=False)
    env.reset(seed=4)
    untouched.reset(seed=4)
    found = plan(env.unwrapped, budget=400)
    actions = found.actions
    assert found.solved and actions[-1] == "F" and len(actions) <= env.unwrapped.max_steps
    for action in actions:
        step = env.step(action)
        assert same_step(step, untouched.step(action))
    assert step[2] and step[4]["success"]
    env.close()
    untouched.close()


def test_with_no_budget_left_it_hands_back_the_most_promising_way() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOff", pixels=False)
    env.reset(seed=4)
    first = plan(env.unwrapped, budget=3)
    assert not first.solved and len(first.actions) <= 1 and all(a[0] in "TPDUBK" for a in first.actions)
    env.close()


def test_goal_words_ignore_case_and_hyphens() -> None:
    assert _words("Turn Wi\u2011Fi off in settings") == {"turn", "wifi", "off", "settings"}


def test_specs_and_their_errors() -> None:
    agent = load_agent("search:budget=50")
    assert isinstance(agent, SearchAgent) and agent.budget == 50 and agent.privileged
    assert load_agent("search").budget == 500  # type: ignore[attr-defined]
    for bad in ("search:budget=x", "search:depth=3", "search:budget"):
        with pytest.raises(ValueError, match="budget=N"):
            load_agent(bad)
    with pytest.raises(ConfigError, match="at least 1"):
        SearchAgent(budget=0)
    with pytest.raises(CerebellumError, match="reads the env"):
        agent.act({})


def test_the_harness_runs_it_and_labels_it_privileged(tmp_path: Path) -> None:
    cases = [{"id": f"{t}-{s}", "task": t, "seed": s} for t in ("SystemWifiTurnOff", "OpenAppTaskEval") for s in (0, 1)]
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps({"name": "tiny", "description": "test", "env": "Cerebellum-Sim-v0", "cases": cases}))
    result = run_suite(load_agent("search:budget=400"), load_suite(str(path)), tmp_path / "run", EvalConfig(progress="off", num_envs=2))
    assert [r["success"] for r in result.records] == [True] * 4
    assert result.meta["privileged"]
