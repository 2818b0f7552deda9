"""The search baseline (issue 37): a best-first search on the env's own episode states."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents import SearchAgent, load_agent
from cerebellum_gym.errors import CerebellumError, ConfigError
from cerebellum_gym.evaluation.runner import EvalConfig, run_suite
from cerebellum_gym.evaluation.suites import load_suite
from cerebellum_gym.search import _words, goal_quotes, is_question, legal_actions, plan

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


def _solved_and_replayed(task: str, seed: int, budget: int) -> tuple[list[str], Any, list[str]]:
    """Plan at ``seed``, then play the plan on the env: it must end in the judge's success.
    Returns the plan, the screen ``F`` was given on, and the task's texts."""
    env = gym.make("Cerebellum-Sim-v0", task=task, pixels=False)
    env.reset(seed=seed)
    texts = env.unwrapped.text_candidates()
    found = plan(env.unwrapped, budget=budget)
    assert found.solved, found
    screen = None
    for action in found.actions:
        screen = env.unwrapped.screen
        step = env.step(action)
    assert step[2] and step[4]["success"]
    env.close()
    return found.actions, screen, texts


def test_a_form_is_filled_field_by_field_from_the_task_texts() -> None:
    """ContactsAddContact's judge gives nothing before Save: the texts typed into fields guide
    the search, one field and its text a move, the texts in the task's order."""
    actions, _, texts = _solved_and_replayed("ContactsAddContact", 1, 1000)
    assert [a[2:] for a in actions if a.startswith("K ")] == texts and len(texts) == 3


def test_a_screen_seen_before_is_searched_again_when_another_element_led_to_it() -> None:
    """The camera's video mode shows the photo mode's screen; deduplicating by screen alone
    never tried the shutter in video mode."""
    actions, _, _ = _solved_and_replayed("CameraTakeVideo", 1023, 1000)
    assert actions[-1] == "F" and len(actions) <= 11


def test_a_question_is_answered_with_a_text_the_screen_shows() -> None:
    actions, screen, _ = _solved_and_replayed("ContactsLookupNumber", 1025, 1000)
    answer = actions[-1].removeprefix("F ")
    assert actions[-1].startswith("F ") and answer in {n.text for n in screen.root.iter()}


def test_goal_quotes_and_questions() -> None:
    goal = "Is the note titled 'Travel Itinerary' marked? Respond with 'True' or 'False'. Let's \"Date, Item\""
    assert goal_quotes(goal) == ["Travel Itinerary", "True", "False", "Date, Item"]
    assert is_question(goal) and is_question("How many to-dos do I have")
    assert not is_question("Create a new contact for Dreamer's Awake.")


def test_moves_type_only_texts_not_yet_in_a_field() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", pixels=False)
    env.reset(seed=1)
    sim = env.unwrapped
    for _ in range(3):  # the oracle opens the new-contact form
        env.step(sim.oracle_action())
    screen = sim.screen
    fields = [label for label, node in zip(screen.labels, screen.nodes, strict=True) if node.is_editable]
    moves = legal_actions(screen, ["Leonardo", "Li"], ["42"])
    assert (f"T {fields[0]}", "K Leonardo") in moves and (f"T {fields[1]}", "K Li") in moves
    assert moves[-1] == ("F 42",)
    env.step(f"T {fields[0]}")
    env.step("K Leonardo")
    after = legal_actions(sim.screen, ["Leonardo", "Li"])
    assert not any(m[-1] == "K Leonardo" for m in after) and any(m[-1] == "K Li" for m in after)
    env.close()
