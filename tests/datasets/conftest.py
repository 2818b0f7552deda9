"""Fixtures for the dataset tests: small datasets recorded from real simulator rollouts."""

from __future__ import annotations

import shutil
from pathlib import Path

import gymnasium as gym
import pytest
from datasethelpers import play

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents import RandomAgent
from cerebellum_gym.datasets import RecordEpisodes

#: Tasks with taps, typing, scrolling/sliders and system actions among them.
TASKS = ("SystemWifiTurnOn", "ContactsAddContact", "SystemBrightnessMax", "ClockStopWatchRunning")


def record_oracle_and_random(folder: Path, *, seeds: range, tasks: tuple[str, ...] = TASKS, pixels: bool = True) -> None:
    """Oracle and random episodes of ``tasks`` for each seed (random: unseeded resets too)."""
    oracle_env = RecordEpisodes(gym.make("Cerebellum-Sim-v0", pixels=pixels), folder, agent="oracle")
    random_env = RecordEpisodes(gym.make("Cerebellum-Sim-v0", pixels=pixels, max_steps=8), folder, agent="random")
    agent = RandomAgent(seed=7)
    try:
        for seed in seeds:
            for task in tasks:
                play(oracle_env, lambda obs: oracle_env.unwrapped.oracle_action(), seed=seed, options={"task": task})
                play(random_env, agent.act, seed=seed, options={"task": task})
    finally:
        oracle_env.close()
        random_env.close()


@pytest.fixture(scope="session")
def oracle_random_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Oracle and random episodes of four tasks over two seeds, with 464-px screenshots (read-only: copy to modify)."""
    folder = tmp_path_factory.mktemp("data") / "oracle-random"
    record_oracle_and_random(folder, seeds=range(2))
    return folder


@pytest.fixture
def data_copy(oracle_random_data: Path, tmp_path: Path) -> Path:
    """A private copy of :func:`oracle_random_data` to tamper with."""
    target = tmp_path / "copy"
    shutil.copytree(oracle_random_data, target)
    return target
