"""Helpers for the dataset tests (a module of its own: conftest names collide across test folders)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym


def play(
    env: gym.Env[Any, Any], policy: Callable[[Any], str], *, seed: int | None, options: dict[str, Any] | None = None
) -> list[tuple[Any, ...]]:
    """One episode; every (obs, info) and step result as the env returned them."""
    obs, info = env.reset(seed=seed, options=options)
    trace: list[tuple[Any, ...]] = [("reset", obs, info)]
    done = False
    while not done:
        action = policy(obs)
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append(("step", action, obs, reward, terminated, truncated, info))
        done = terminated or truncated
    return trace
