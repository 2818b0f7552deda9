"""The default reward separates success from failure on every task (docs/rewards.md).

For every bundled task: the oracle's return is above the return of every failing episode (random
episodes over several seeds, ``F`` at step 1, ``I`` at step 1); the undiscounted return of the
default rule is exactly the final success; the other rules keep their definitions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import pytest
from test_env import absent_label

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym import CerebellumEnv
from cerebellum_gym.agents import RandomAgent
from cerebellum_gym.errors import DeviceLostError
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks.catalog import BUILTIN

SEEDS = (0, 1, 2)
Plan = Callable[[Any, dict[str, Any], dict[str, Any]], str]


def _play(task: str, seed: int, plan: Plan, **options: Any) -> dict[str, Any]:
    """One episode: its return, start and final progress, success, and per-step rewards."""
    env = gym.make("Cerebellum-Sim-v0", task=task, pixels=False, **options)
    obs, info = env.reset(seed=seed)
    start, rewards, done = info["progress"], [], False
    while not done:
        obs, reward, terminated, truncated, info = env.step(plan(env, obs, info))
        rewards.append(float(reward))
        done = terminated or truncated
    env.close()
    return {"return": sum(rewards), "rewards": rewards, "start": start, "progress": info["progress"], "success": info["success"]}


def _oracle(env: Any, obs: dict[str, Any], info: dict[str, Any]) -> str:
    return str(env.unwrapped.oracle_action())


def _random(seed: int, allow_terminal: bool = True) -> Plan:
    agent = RandomAgent(seed=seed, allow_terminal=allow_terminal)
    return lambda env, obs, info: agent.act(obs)


@pytest.mark.parametrize("task", BUILTIN.names())
def test_oracle_returns_more_than_any_failing_episode(task: str) -> None:
    best = _play(task, 0, _oracle)
    assert best["success"], f"{task}: the oracle failed"
    assert best["return"] == pytest.approx(1.0)
    failing = []
    for seed in SEEDS:
        failing.append(_play(task, seed, lambda env, obs, info: "F"))
        failing.append(_play(task, seed, lambda env, obs, info: "I"))
        failing.append(_play(task, seed, _random(seed)))
        failing.append(_play(task, seed, _random(seed, allow_terminal=False)))  # wanders until the budget
    failing = [e for e in failing if not e["success"]]
    assert failing  # I at step 1 never succeeds
    for episode in failing:
        assert episode["return"] < best["return"], f"{task}: a failing episode returned {episode['return']}"
        assert episode["return"] == pytest.approx(0.0)


@pytest.mark.parametrize("task", ["SystemBluetoothTurnOffVerify", "SystemWifiTurnOnVerify", "SystemBrightnessMaxVerify"])
def test_verify_tasks_pay_for_f_and_not_for_i(task: str) -> None:
    done = _play(task, 4, lambda env, obs, info: "F")
    give_up = _play(task, 4, lambda env, obs, info: "I")
    assert done["start"] == give_up["start"] == 1.0
    assert (done["success"], done["return"]) == (True, 1.0)
    assert (give_up["success"], give_up["return"]) == (False, 0.0)


def _halfway_then(last: str) -> Plan:
    """Follow the oracle until the goal partly holds, then act ``last``."""
    return lambda env, obs, info: last if 0.0 < info["progress"] < 1.0 else str(env.unwrapped.oracle_action())


@pytest.mark.parametrize("last", ["F", "I", "W"])
def test_shaping_pays_progress_on_the_way_and_takes_it_back_on_failure(last: str) -> None:
    episode = _play("TurnOffWifiAndTurnOnBluetooth", 0, _halfway_then(last))
    assert episode["progress"] == 0.5 and not episode["success"]
    assert max(episode["rewards"]) == pytest.approx(0.5)  # the first check paid when it held
    assert episode["rewards"][-1] == pytest.approx(-0.5)  # and the failing end took it back
    assert episode["return"] == pytest.approx(0.0)


def test_progress_delta_and_sparse_keep_their_definitions() -> None:
    for task, plan in (("TurnOffWifiAndTurnOnBluetooth", _halfway_then("I")), ("SystemWifiTurnOn", _oracle)):
        delta = _play(task, 0, plan, reward="progress_delta")
        assert delta["return"] == pytest.approx(delta["progress"] - delta["start"])
        sparse = _play(task, 0, plan, reward="sparse")
        assert sparse["return"] == float(sparse["success"]) and all(r == 0.0 for r in sparse["rewards"][:-1])


def test_invalid_action_penalty_adds_to_every_rule() -> None:
    for mode in ("shaped", "progress_delta", "sparse"):
        episode = _play(
            "SystemWifiTurnOn",
            0,
            lambda env, obs, info: f"T {absent_label(obs)}" if info.get("step", 0) < 2 else "I",
            reward=mode,
            invalid_action_penalty=-0.1,
        )
        assert episode["return"] == pytest.approx(-0.2), mode


class _DroppingPhone(Phone):
    """A simulator whose link drops on a tap once armed: fault injection at the Device boundary."""

    armed = False

    def tap(self, x: int, y: int) -> None:
        if self.armed:
            raise DeviceLostError("link dropped")
        super().tap(x, y)


def test_a_device_fault_ends_the_episode_with_the_shaping_taken_back() -> None:
    env = CerebellumEnv(task="TurnOffWifiAndTurnOnBluetooth", device=_DroppingPhone(), pixels=False)
    obs, info = env.reset(seed=0)
    total = 0.0
    while info["progress"] < 0.5:
        obs, reward, _, _, info = env.step(env.oracle_action())
        total += float(reward)
    assert total == pytest.approx(0.5)
    env.device.armed = True  # type: ignore[attr-defined]
    obs, reward, terminated, truncated, info = env.step(f"T {obs['labels'][0]}")
    assert truncated and not terminated and info["infra_error"] == "DeviceLostError: link dropped"
    assert total + float(reward) == pytest.approx(0.0)


def test_unknown_reward_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="reward must be one of shaped, progress_delta, sparse"):
        gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", reward="progress")
