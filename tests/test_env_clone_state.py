"""Episode state as a value (issue 37): clone mid-episode, restore anywhere, continue bit for bit."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import cerebellum_gym
from cerebellum_gym.core.state import EpisodeState
from cerebellum_gym.errors import ConfigError, StateError
from cerebellum_gym.tasks.registry import task_names

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "perf"))

from clone_state import explore, same_step

TASKS = task_names()


@pytest.mark.parametrize("case", range(48))
def test_a_restored_episode_continues_bit_for_bit(case: int) -> None:
    rng = random.Random(case)
    task = TASKS[case * 7 % len(TASKS)]
    pixels = case % 4 == 0
    env = gym.make("Cerebellum-Sim-v0", task=task, pixels=pixels, screenshot_width=96, history_width=48)
    other = gym.make("Cerebellum-Sim-v0", task=task, pixels=pixels, screenshot_width=96, history_width=48)
    env.reset(seed=1000 + case)
    for _ in range(rng.randrange(0, 8)):
        ended = env.step(explore(env, rng))
        if ended[2] or ended[3]:  # the prefix ended the episode: the clone is taken at its start
            env.reset(seed=1000 + case)
            break
    state = env.unwrapped.clone_state()
    actions = [explore(env, random.Random(case * 31 + i)) for i in range(6)]
    first = []
    for action in actions:
        first.append(env.step(action))
        if first[-1][2] or first[-1][3]:
            break
    # into another env (made with the same options), through bytes, twice
    for target in (other, env):
        copy = EpisodeState.from_bytes(state.to_bytes())
        if target is other:  # a fresh env: reset from the state (gymnasium's wrappers need a reset first)
            target.reset(options={"state": copy})
        else:
            target.unwrapped.restore_state(copy)
        for action, expected in zip(actions, first, strict=False):
            assert same_step(target.step(action), expected), (task, case, action)
    env.close()
    other.close()


def test_forks_share_nothing() -> None:
    """Mutating one episode after a fork leaves the state and every other fork as they were."""
    envs = [gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", pixels=True, screenshot_width=96) for _ in range(3)]
    envs[0].reset(seed=5)
    for _ in range(4):
        envs[0].step(envs[0].unwrapped.oracle_action())
    state = envs[0].unwrapped.clone_state()
    before = state.to_bytes()
    outs = [env.reset(options={"state": state}) for env in envs[1:]]
    for _ in range(5):
        envs[1].step(envs[1].unwrapped.oracle_action())
    envs[0].step("H")
    outs[0][0]["screenshot"][:] = 0  # the caller owns what it was handed
    assert state.to_bytes() == before
    again, _ = envs[2].reset(options={"state": state})
    assert again["tree"] == outs[1][0]["tree"] and np.array_equal(again["screenshot"], outs[1][0]["screenshot"])
    assert envs[1].unwrapped.device.state is not envs[2].unwrapped.device.state
    for env in envs:
        env.close()


def test_a_state_from_other_options_is_refused() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOff", pixels=False)
    env.reset(seed=0)
    state = env.unwrapped.clone_state()
    for kwargs, named in [
        ({"task": "SystemWifiTurnOff", "pixels": True}, "pixels"),
        ({"task": "SystemWifiTurnOn", "pixels": False}, "tasks"),
        ({"task": "SystemWifiTurnOff", "pixels": False, "history_len": 2}, "history_len"),
    ]:
        other = gym.make("Cerebellum-Sim-v0", **kwargs)
        other.reset(seed=0)
        with pytest.raises(StateError, match=named):
            other.unwrapped.restore_state(state)
        other.close()
    with pytest.raises(StateError, match="EpisodeState"):
        env.unwrapped.restore_state(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="exclude each other"):
        env.reset(options={"state": state, "task": "SystemWifiTurnOff"})
    env.close()


def test_clone_needs_an_episode() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOff", pixels=False)
    with pytest.raises(cerebellum_gym.errors.CerebellumError, match="reset"):
        env.unwrapped.clone_state()
    env.close()


@pytest.mark.parametrize("mode", ["vector_entry_point", "sync"])
def test_vector_envs_start_a_group_from_one_state(mode: str) -> None:
    env = gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", pixels=False)
    env.reset(seed=3)
    for _ in range(3):
        env.step(env.unwrapped.oracle_action())
    state = env.unwrapped.clone_state()
    venv = gym.make_vec("Cerebellum-Sim-v0", num_envs=3, vectorization_mode=mode, task="ContactsAddContact", pixels=False)
    venv.reset(seed=0)
    obs, info = venv.reset(options={"state": state})
    assert list(info["step"]) == [3, 3, 3] and len(set(obs["tree"])) == 1
    if mode == "vector_entry_point":
        obs, info = venv.reset(seed=9, options={"state": [None, state, None]})
        assert list(info["step"]) == [0, 3, 0]
        with pytest.raises(ValueError, match="a list of 3"):
            venv.reset(options={"state": [state]})
    else:
        with pytest.raises(StateError, match="vector envs"):
            venv.reset(options={"state": [state, state, state]})
    venv.close()
    env.close()
