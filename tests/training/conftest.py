"""Fixtures of the trainer tests: the tiny random Qwen3.5 built here (downloaded weights are the
boundary tests cannot reach) and small datasets recorded from real simulator rollouts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)

#: Small images keep the tiny model's steps fast (the card's widths are the trainers' defaults).
SMALL_ENV = {"screenshot_width": 232, "history_width": 116}


def record(folder: Path, tasks: dict[str, range], *, agent: str = "oracle", policy: str = "oracle", max_steps: int | None = None) -> Path:
    """Episodes of each task for each seed, played by the oracle (or a seeded random agent)."""
    from cerebellum_gym.agents import RandomAgent
    from cerebellum_gym.datasets import RecordEpisodes

    kwargs = dict(SMALL_ENV, **({"max_steps": max_steps} if max_steps else {}))
    env = RecordEpisodes(gym.make("Cerebellum-Sim-v0", **kwargs), folder, agent=agent)
    rand = RandomAgent(seed=3)
    try:
        for task, seeds in tasks.items():
            for seed in seeds:
                obs, _ = env.reset(seed=seed, options={"task": task})
                done = False
                while not done:
                    action = env.unwrapped.oracle_action() if policy == "oracle" else rand.act(obs)  # type: ignore[attr-defined]
                    obs, _, terminated, truncated, _ = env.step(action)
                    done = terminated or truncated
    finally:
        env.close()
    return folder


@pytest.fixture(autouse=True)
def _one_thread() -> None:
    """One torch thread: the machine is shared, and the tiny model gains nothing from more."""
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)


@pytest.fixture(scope="session")
def tiny_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("transformers")
    from cerebellum_gym.agents.qwen_tiny import build_tiny_qwen35

    return build_tiny_qwen35(tmp_path_factory.mktemp("tiny-base"), seed=0)


@pytest.fixture(scope="session")
def oracle_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Oracle episodes of two short tasks over two seeds (read-only)."""
    return record(tmp_path_factory.mktemp("data") / "oracle", {"SystemWifiTurnOn": range(2), "ContactsAddContact": range(1)})


@pytest.fixture(scope="session")
def short_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One oracle episode cut at three steps (unsuccessful; read-only)."""
    return record(tmp_path_factory.mktemp("data") / "short", {"SystemWifiTurnOn": range(1)}, max_steps=3)


@pytest.fixture(scope="session")
def record_episodes() -> Any:
    """:func:`record`, for tests that record their own episodes."""
    return record
