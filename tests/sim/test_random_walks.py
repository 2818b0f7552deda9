"""Long random walks over every app: the simulator never raises, and every masked action is legal.

Short episodes miss bugs deep in an app (a crash moving a folder into another was found by RL
exploration after many steps); these walks go further than any task's budget.
"""

from __future__ import annotations

import zlib

import gymnasium as gym
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents import RandomAgent
from cerebellum_gym.tasks import task_names

STEPS = 200


@pytest.mark.parametrize("seed", [7, 8])
@pytest.mark.parametrize("task", task_names())
def test_random_walk_never_breaks_the_simulator(task: str, seed: int) -> None:
    env = gym.make("Cerebellum-Sim-v0", task=task, pixels=False, max_steps=STEPS, invalid_action="raise")
    agent = RandomAgent(seed=zlib.crc32(task.encode()) + seed, allow_terminal=False)
    obs, _ = env.reset(seed=seed)
    screens = set()
    for _ in range(STEPS):
        obs, _, terminated, truncated, info = env.step(agent.act(obs))
        screens.add(obs["tree"].split("\n", 1)[0])
        assert not info["infra_error"]
        if terminated or truncated:
            break
    assert len(screens) > 1  # the walk went somewhere
