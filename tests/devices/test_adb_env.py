"""Cerebellum-Adb-v0: full episodes over ADB, solved by the tasks' oracles, judged over ADB."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)


def run_oracle(env: gym.Env[Any, Any], seed: int) -> tuple[dict[str, Any], list[str], list[str]]:
    obs, info = env.reset(seed=seed)
    trees, actions = [obs["tree"]], []
    terminated = truncated = False
    while not (terminated or truncated):
        action = env.unwrapped.oracle_action()  # type: ignore[attr-defined]
        obs, _, terminated, truncated, info = env.step(action)
        actions.append(action)
        trees.append(obs["tree"])
        assert not info["infra_error"], info["infra_error"]
    return info, actions, trees


@pytest.mark.parametrize("task", ["SystemWifiTurnOn", "ContactsAddContact", "SystemBrightnessMin"])
def test_oracle_solves_tasks_over_adb_exactly_as_in_process(served: Any, task: str) -> None:
    adb_env = gym.make("Cerebellum-Adb-v0", task=task, pixels=False, device_options=served.options())
    sim_env = gym.make("Cerebellum-Sim-v0", task=task, pixels=False)
    try:
        adb_info, adb_actions, adb_trees = run_oracle(adb_env, seed=7)
        sim_info, sim_actions, sim_trees = run_oracle(sim_env, seed=7)
    finally:
        adb_env.close()
        sim_env.close()
    assert adb_info["success"] and adb_info["progress"] == 1.0
    # Same seed, same episode: the device behind the env changes nothing the agent sees.
    assert adb_actions == sim_actions
    assert adb_trees == sim_trees


def test_pixels_over_adb_pass_the_env_checker(served: Any) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gym.make("Cerebellum-Adb-v0", task="SystemWifiTurnOff", device_options=served.options())
    try:
        check_env(env.unwrapped, skip_render_check=True)
        obs, _ = env.reset(seed=1)
        assert obs["screenshot"].shape == (1031, 464, 3)
        assert obs["screenshot"].dtype == np.uint8
        info, _, _ = run_oracle(env, seed=1)
        assert info["success"]
    finally:
        env.close()


def test_episodes_start_clean_after_a_messy_one(served: Any) -> None:
    env = gym.make("Cerebellum-Adb-v0", task="SystemWifiTurnOn", pixels=False, device_options=served.options())
    try:
        env.reset(seed=0)
        for action in ("H", "W"):
            env.step(action)
        served.device.start_app("com.google.android.contacts")
        obs, info = env.reset(seed=0)
        assert served.phone.foreground_package() == "com.google.android.apps.nexuslauncher"
        assert info["progress"] == 0.0
    finally:
        env.close()
