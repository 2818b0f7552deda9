"""Random and oracle agents over every registered simulator task, and the ways agents plug in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents import Agent, FunctionAgent, OracleAgent, RandomAgent, load_agent
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.tasks import task_names

ALL_TASKS = task_names()


class EnvOracle:
    """The oracle source the evaluation harness passes: one action per env slot."""

    def __init__(self, envs: Sequence[gym.Env[Any, Any]]) -> None:
        self.envs = envs

    def oracle_actions(self) -> list[str]:
        return [env.unwrapped.oracle_action() for env in self.envs]  # type: ignore[attr-defined]


def run_episode(env: gym.Env[Any, Any], agent: Agent, seed: int) -> tuple[dict[str, Any], int]:
    obs, info = env.reset(seed=seed)
    agent.begin_episode(0)
    source = EnvOracle([env])
    steps, done = 0, False
    while not done:
        (action,) = agent.act_batch([obs], oracle=source)
        assert isinstance(action, str)
        obs, _, terminated, truncated, info = env.step(action)
        steps += 1
        done = terminated or truncated
        assert steps <= info["max_steps"], "the episode outran its step budget"
    return info, steps


@pytest.mark.parametrize("task", ALL_TASKS)
def test_random_agent_runs_full_episodes_with_only_legal_actions(task: str) -> None:
    env = gym.make("Cerebellum-Sim-v0", task=task, pixels=False)
    agent = RandomAgent(seed=0, allow_terminal=False)
    for seed in range(3):
        info, steps = run_episode(env, agent, seed)
        # Without F/I an episode ends by budget, unless success ends it early (never with F required).
        assert steps == info["max_steps"]
        assert not info["invalid_action"], info["error"]
    env.close()


@pytest.mark.parametrize("task", ALL_TASKS)
def test_oracle_agent_solves_every_task(task: str) -> None:
    env = gym.make("Cerebellum-Sim-v0", task=task, pixels=False)
    agent = load_agent("oracle")
    assert agent.privileged and "privileged" in agent.name
    for seed in range(2):
        info, steps = run_episode(env, agent, seed)
        assert info["success"], f"oracle failed {task} seed {seed}: {info}"
        assert steps < info["max_steps"]
    env.close()


def test_random_agent_masks_keep_every_action_legal() -> None:
    env = gym.make("Cerebellum-Sim-v0", task=ALL_TASKS, pixels=False)
    agent = RandomAgent(seed=1)
    invalid = 0
    for seed in range(20):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(agent.act(obs))
            invalid += info["invalid_action"]
            done = terminated or truncated
    assert invalid == 0
    env.close()


def test_random_agent_is_reproducible_from_its_seed() -> None:
    obs = {"labels": ("AB", "CD", "EF"), "action_mask": np.ones(12, np.int8)}
    first = [RandomAgent(seed=7).act(obs) for _ in range(3)]
    agent = RandomAgent(seed=0)
    agent.reset(seed=7)
    assert agent.act(obs) == first[0]


def test_oracle_agent_refuses_to_guess_without_the_env() -> None:
    with pytest.raises(CerebellumError, match="oracle"):
        OracleAgent().act({"labels": ()})
    with pytest.raises(CerebellumError):
        OracleAgent().act_batch([{}])


def test_oracle_act_env_reads_a_wrapped_env() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False)
    env.reset(seed=0)
    assert OracleAgent.act_env(env) == "D"  # Settings is in the app drawer
    env.step("D")
    action = OracleAgent.act_env(env)
    assert action.startswith("T ")
    assert env.unwrapped.screen.node_for(action[2:]).text == "Settings"  # type: ignore[attr-defined]


def wait_policy(observation: Any) -> str:
    return "W"


class CountingAgent(Agent):
    name = "counting"

    def __init__(self, code: str = "B") -> None:
        self.code = code

    def act(self, observation: Any) -> str:
        return self.code


counting_agent = CountingAgent("H")


def test_load_agent_specs() -> None:
    assert isinstance(load_agent("random", seed=3), RandomAgent)
    assert isinstance(load_agent("oracle"), OracleAgent)
    plain = load_agent(f"{__name__}:wait_policy")
    assert isinstance(plain, FunctionAgent) and plain.act({}) == "W"
    assert load_agent(f"{__name__}:counting_agent") is counting_agent
    built = load_agent(f"{__name__}:CountingAgent", code="D")
    assert isinstance(built, CountingAgent) and built.act_batch([{}, {}]) == ["D", "D"]
    assert load_agent(lambda obs: "B").act({}) == "B"
    for bad in ("nonsense", "no.such.module:x", f"{__name__}:missing"):
        with pytest.raises(ValueError):
            load_agent(bad)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_rollout_is_three_lines_on_a_vector_env_with_default_arguments(mode: str) -> None:
    """act_batch takes the vector env's batched dict, and the vector env takes the action strings."""
    envs = gym.make_vec("Cerebellum-Sim-v0", num_envs=3, vectorization_mode=mode, task=["SystemWifiTurnOn", "ContactsAddContact"])
    agent = RandomAgent(seed=0)
    try:
        obs, _ = envs.reset(seed=0)
        for _ in range(12):
            obs, reward, terminated, truncated, info = envs.step(agent.act_batch(obs))
            # The random agent reads the masks: every action it picks is legal on its own screen.
            assert not info["invalid_action"].any()
        assert obs["screenshot"].shape == (3, 1031, 464, 3)
    finally:
        envs.close()


def test_agent_subclasses_that_override_act_batch_also_take_the_batched_dict() -> None:
    seen: list[Any] = []

    class Counting(Agent):
        def act(self, observation: Any) -> str:
            return "W"

        def act_batch(self, observations: Sequence[Any], oracle: Any = None) -> list[str]:
            seen.append(observations)
            return ["H" for _ in observations]

    batch = {"goal": ("a", "b"), "labels": (("AB",), ()), "action_mask": np.ones((2, 12), np.int8)}
    assert Counting().act_batch(batch) == ["H", "H"]
    # The batch's rows, read as a sequence (no split up front): views of its arrays.
    assert isinstance(seen[0], Sequence) and len(seen[0]) == 2
    assert seen[0][1]["labels"] == () and seen[0][0]["action_mask"].shape == (12,)
    assert np.shares_memory(seen[0][0]["action_mask"], batch["action_mask"])
    assert Counting().act_batch([{"goal": "a"}]) == ["H"]
    assert FunctionAgent(lambda obs: obs["goal"]).act_batch(batch) == ["a", "b"]


def test_a_function_agent_can_say_it_reads_no_pixels() -> None:
    from cerebellum_gym.agents.base import FunctionAgent

    def tree_only(observation: dict) -> str:
        return "W"

    assert FunctionAgent(tree_only).needs_pixels is True
    assert FunctionAgent(tree_only, needs_pixels=False).needs_pixels is False
    tree_only.needs_pixels = False  # type: ignore[attr-defined]
    assert FunctionAgent(tree_only).needs_pixels is False
