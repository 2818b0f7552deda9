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
        self._legal: dict[tuple[bytes, bool, bool], tuple[str, ...]] = {}

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: Observation) -> str:
        labels = tuple(observation.get("labels", ()))
        mask = observation.get("action_mask")
        # The legal codes depend only on the mask and on whether labels show: worked out once
        # per combination (an agent acts on every step, and most screens repeat).
        cacheable = isinstance(mask, np.ndarray) and mask.dtype == np.int8 and mask.ndim == 1
        key = (mask.tobytes() if cacheable else b"", bool(labels), self.allow_terminal)
        legal = self._legal.get(key) if cacheable else None
        if legal is None:
            legal = self._legal_codes(mask, bool(labels))
            if cacheable:
                self._legal[key] = legal
        code = legal[int(self.rng.integers(len(legal)))]
        if code in "TP":
            return f"{code} {labels[int(self.rng.integers(len(labels)))]}"
        if code == "K":
            return f"K {self.words[int(self.rng.integers(len(self.words)))]}"
        return code

    def _legal_codes(self, mask: object, has_labels: bool) -> tuple[str, ...]:
        """The codes to draw from: those ``mask`` allows (every code without one), less ``T``
        and ``P`` with no labels and ``F`` and ``I`` unless allowed; ``W`` when none is left."""
        flags = [True] * len(CODES) if mask is None else [bool(ok) for ok in np.asarray(mask, dtype=bool)]
        barred = ("" if has_labels else "TP") + ("" if self.allow_terminal else "FI")
        legal = tuple(c for c, ok in zip(CODES, flags, strict=True) if ok and c not in barred)
        return legal or ("W",)
