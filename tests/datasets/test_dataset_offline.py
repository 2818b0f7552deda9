"""Offline action evaluation: the oracle scores 100% on oracle data, the random agent its analytic
expectation; the quota, the groups and the scroll failure split work as the card defines them."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from datasethelpers import remove_episode

from cerebellum_gym.agents import OracleAgent, RandomAgent
from cerebellum_gym.agents.random_agent import DEFAULT_WORDS
from cerebellum_gym.core.actions import CODES, parse_action
from cerebellum_gym.datasets import open_dataset
from cerebellum_gym.datasets.offline import (
    Prediction,
    candidate_steps,
    evaluate_offline,
    offline_markdown,
    parse_quota,
    sample_steps,
    score,
)
from cerebellum_gym.datasets.reader import Step
from cerebellum_gym.errors import CerebellumError


def oracle_only(data_dir: Path, tmp_path: Path) -> Path:
    """A copy of the dataset holding only the oracle's episodes."""
    import shutil

    target = tmp_path / "oracle-only"
    shutil.copytree(data_dir, target)
    for episode in open_dataset(target).episodes():
        if episode.meta["agent"] != "oracle":
            remove_episode(target, episode.episode_id)
    return target


def test_the_oracle_scores_every_step_of_oracle_data_exactly(oracle_random_data: Path, tmp_path: Path) -> None:
    folder = oracle_only(oracle_random_data, tmp_path)
    everything = evaluate_offline(OracleAgent(), folder, n=None)
    total = sum(len(e.actions) for e in open_dataset(folder).episodes())
    assert everything["n"] == total > 20
    assert everything["exact"] == {"correct": total, "total": total, "rate": 1.0}
    assert everything["action_type"]["rate"] == 1.0 and everything["tap_label"]["rate"] == 1.0
    sampled = evaluate_offline(OracleAgent(), folder, n=15, seed=3)
    assert sampled["n"] == 15 and sampled["exact"]["correct"] == 15 and not sampled["skipped"]
    # The same, picked out of the mixed dataset by who recorded it.
    mixed = evaluate_offline(OracleAgent(), oracle_random_data, n=None, recorded_by="oracle")
    assert mixed["exact"] == everything["exact"]


def test_on_random_data_the_oracle_is_scored_on_the_recorded_states(oracle_random_data: Path) -> None:
    # The oracle is asked on each replayed state of the random episodes: it mostly disagrees with them.
    results = evaluate_offline(OracleAgent(), oracle_random_data, n=None)
    random_steps = [p for p in results["predictions"] if p["episode_id"] in _episodes_of(oracle_random_data, "random")]
    assert random_steps and sum(p["exact"] for p in random_steps) < len(random_steps)


def _episodes_of(folder: Path, agent: str) -> set[str]:
    return {e.episode_id for e in open_dataset(folder).episodes() if e.meta["agent"] == agent}


def chance_of_exact(step: Step) -> float:
    """The probability that the random agent emits exactly the recorded action on this step:
    uniform over legal codes (the action mask, T/P only with labels), then uniform over labels or words."""
    obs = step.observation(images=False)
    labels = obs["labels"]
    legal = [c for c, ok in zip(CODES, obs["action_mask"].tolist(), strict=True) if ok and (c not in "TP" or labels)] or ["W"]
    assert step.action is not None
    recorded = parse_action(step.action)
    if recorded.code not in legal:
        return 0.0
    p = 1 / len(legal)
    if recorded.code in "TP":
        return p / len(labels)
    if recorded.code == "K":
        return p * DEFAULT_WORDS.count(recorded.text) / len(DEFAULT_WORDS)
    if recorded.code == "F":
        return p if not recorded.text else 0.0
    return p


def test_the_random_agent_scores_near_its_analytic_expectation(oracle_random_data: Path) -> None:
    steps = candidate_steps(open_dataset(oracle_random_data))
    chances = [chance_of_exact(s) for s in steps]
    seeds = range(8)
    hits = sum(evaluate_offline(RandomAgent(), oracle_random_data, n=None, seed=seed)["exact"]["correct"] for seed in seeds)
    expected = len(seeds) * sum(chances)
    sd = math.sqrt(len(seeds) * sum(p * (1 - p) for p in chances))
    assert expected > 10
    assert abs(hits - expected) < 4 * sd, (hits, expected, sd)


def test_the_quota_weighs_the_groups(oracle_random_data: Path) -> None:
    steps = candidate_steps(open_dataset(oracle_random_data))
    only_tp = sample_steps(steps, 10, 0, parse_quota("tp=1"))
    assert only_tp and all(parse_action(s.action or "").code in "TP" for s in only_tp)
    again = sample_steps(steps, 10, 0, parse_quota("tp=1"))
    assert [(s.episode_id, s.t) for s in again] == [(s.episode_id, s.t) for s in only_tp]
    # Asking for more than there is returns everything once.
    everything = sample_steps(steps, 10_000, 1, parse_quota("tp=5,k=2,scroll=2,wait=2,system=1"))
    assert len(everything) == len(steps) == len({(s.episode_id, s.t) for s in everything})
    with pytest.raises(CerebellumError, match="unknown quota group"):
        parse_quota("taps=1")
    with pytest.raises(CerebellumError, match="weight 0"):
        parse_quota("tp=0")


def test_metrics_follow_the_card() -> None:
    def p(recorded: str, predicted: str) -> Prediction:
        from cerebellum_gym.datasets.offline import group_of

        return Prediction("e", 0, "task", group_of(recorded.split(maxsplit=1)[0]), recorded, predicted, 0.1)

    predictions = [
        p("T UE", "T UE"),
        p("T UE", "P UE"),  # wrong type, right label
        p("P AB", "T CD"),
        p("K hello", "K hello"),
        p("K hello", "K hullo"),  # right type, wrong text
        p("D", "T UE"),  # scroll missed by a tap: wrong action
        p("D", "U"),  # wrong direction
        p("U", "W"),
        p("L", "L"),
        p("W", "W"),
        p("B", "H"),
    ]
    results = score(predictions)
    assert results["exact"] == {"correct": 4, "total": 11, "rate": 4 / 11}
    assert results["action_type"]["correct"] == 5
    assert results["tap_label"] == {"correct": 2, "total": 3, "rate": 2 / 3}
    assert results["groups"]["tp"]["correct"] == 1 and results["groups"]["scroll"] == {"correct": 1, "total": 4, "rate": 0.25}
    assert results["groups"]["system"] == {"correct": 0, "total": 1, "rate": 0.0}
    assert results["scroll_failures"] == {"wrong_action": 2, "wrong_direction": 1}
    assert results["scroll_confusion"] == {"D->T": 1, "D->U": 1, "U->W": 1}
    md = offline_markdown(results)
    assert "| Exact action string | 4/11 = 36.4% |" in md
    assert "| Tap/long-press element label | 2/3 = 66.7% |" in md
    assert "| Scroll | 1/4 = 25.0% |" in md
    assert "scroll_failures: {'wrong_action': 2, 'wrong_direction': 1}" in md
