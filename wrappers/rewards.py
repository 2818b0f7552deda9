"""Reward shaping for RL on cerebellum tasks.

The env's default reward pays progress as it is made and settles for success when the episode
ends (docs/rewards.md), so reaching the goal pays once, the ``F`` that makes it count pays what is
left to 1 (nothing once the goal paid in full), and a failing end takes the progress back.
:class:`ShapedReward` adds a
bonus on success (so saying done is learnt), a small cost per step (so shorter is better), and
optionally a novelty bonus for screens not yet seen this episode, scaled down by how often the
screen was seen before (``bonus / sqrt(visits)``, a count-based exploration bonus), so early
random policies are drawn towards the deep, rarely reached screens where tasks get done instead
of bouncing between home and the first menu.
"""

from __future__ import annotations

import math
import re
import zlib
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

_LABEL_RE = re.compile(r"\[[A-Z]{2}\] ")


def screen_signature(tree: str) -> int:
    """A hash of the tree text without its set-of-mark labels (labels are redrawn every step)."""
    return zlib.crc32(_LABEL_RE.sub("", tree).encode("utf-8"))


class ShapedReward(gym.Wrapper[Any, Any, Any, Any], gym.utils.RecordConstructorArgs):
    """Add a success bonus, a per-step cost and an episodic novelty bonus to the env's reward.

    It reads ``info["success"]`` and, for novelty, the raw observation's ``tree``: wrap it
    inside any observation encoder. ``info["env_reward"]`` keeps the env's own reward.

    Args:
        env: a cerebellum env (raw observation).
        success_bonus: added on the step where ``info["success"]`` turns true.
        step_cost: subtracted on every step.
        novelty_bonus: added the first time each distinct screen shows up in an episode, divided
            by the square root of how many episodes have shown it so far (through this wrapper).
    """

    def __init__(self, env: gym.Env[Any, Any], success_bonus: float = 1.0, step_cost: float = 0.01, novelty_bonus: float = 0.0) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, success_bonus=success_bonus, step_cost=step_cost, novelty_bonus=novelty_bonus)
        gym.Wrapper.__init__(self, env)
        self.success_bonus = float(success_bonus)
        self.step_cost = float(step_cost)
        self.novelty_bonus = float(novelty_bonus)
        self._seen: set[int] = set()
        self.visits: dict[int, int] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        self._seen = {screen_signature(str(obs.get("tree", "")))} if isinstance(obs, dict) else set()
        return obs, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        info = {**info, "env_reward": float(reward)}
        shaped = float(reward) - self.step_cost
        if info.get("success"):
            shaped += self.success_bonus
        if self.novelty_bonus and isinstance(obs, dict):
            signature = screen_signature(str(obs.get("tree", "")))
            if signature not in self._seen:
                self._seen.add(signature)
                count = self.visits[signature] = self.visits.get(signature, 0) + 1
                shaped += self.novelty_bonus / math.sqrt(count)
        return obs, shaped, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The inner :class:`~cerebellum_gym.wrappers.FlatActions`' masks (wrappers do not forward attributes)."""
        return np.asarray(self.env.get_wrapper_attr("action_masks")())
