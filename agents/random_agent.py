"""A random agent: uniform over the actions legal on the current screen (it reads the masks)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cerebellum_gym.agents.base import Agent, Observation
from cerebellum_gym.core.actions import CODES

#: Texts the random agent types; short words keep it from flooding fields.
DEFAULT_WORDS: tuple[str, ...] = ("hello", "test", "Alice", "42", "note", "meeting at 5")


class RandomAgent(Agent):
    """Uniform over legal codes (``action_mask``), then uniform over visible labels.

    Args:
        seed: seeds the generator (``reset`` may reseed).
        words: candidate texts for ``K``.
        allow_terminal: whether ``F`` and ``I`` may be drawn (they end the episode at once).
    """

    name = "random"
    needs_pixels = False

    def __init__(self, seed: int | None = None, words: Sequence[str] = DEFAULT_WORDS, allow_terminal: bool = True) -> None:
        self.rng = np.random.default_rng(seed)
        self.words = tuple(words)
        self.allow_terminal = allow_terminal

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: Observation) -> str:
        mask = np.asarray(observation.get("action_mask", np.ones(len(CODES))), dtype=bool).copy()
        labels = tuple(observation.get("labels", ()))
        if not labels:
            mask[CODES.index("T")] = mask[CODES.index("P")] = False
        if not self.allow_terminal:
            mask[CODES.index("F")] = mask[CODES.index("I")] = False
        legal = [c for c, ok in zip(CODES, mask, strict=True) if ok] or ["W"]
        code = legal[int(self.rng.integers(len(legal)))]
        if code in "TP":
            return f"{code} {labels[int(self.rng.integers(len(labels)))]}"
        if code == "K":
            return f"K {self.words[int(self.rng.integers(len(self.words)))]}"
        return code
