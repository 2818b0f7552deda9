"""RandomAgent's draws: the legal codes are worked out once per mask, and the actions drawn are
exactly those of the plain per-step computation (same generator calls in the same order), so
seeded runs replay as they did."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cerebellum_gym.agents import RandomAgent
from cerebellum_gym.core.actions import CODES


def _reference_act(rng: np.random.Generator, observation: dict[str, Any], allow_terminal: bool, words: tuple[str, ...]) -> str:
    """The per-step computation the agent's cache must reproduce."""
    mask = np.asarray(observation.get("action_mask", np.ones(len(CODES))), dtype=bool).copy()
    labels: tuple[str, ...] = tuple(observation.get("labels", ()))
    if not labels:
        mask[CODES.index("T")] = mask[CODES.index("P")] = False
    if not allow_terminal:
        mask[CODES.index("F")] = mask[CODES.index("I")] = False
    legal = [c for c, ok in zip(CODES, mask, strict=True) if ok] or ["W"]
    code = legal[int(rng.integers(len(legal)))]
    if code in "TP":
        return f"{code} {labels[int(rng.integers(len(labels)))]}"
    if code == "K":
        return f"K {words[int(rng.integers(len(words)))]}"
    return code


@pytest.mark.parametrize("allow_terminal", [True, False])
def test_cached_legal_codes_draw_what_the_plain_computation_draws(allow_terminal: bool) -> None:
    source = np.random.default_rng(11)
    masks = [source.integers(0, 2, len(CODES)).astype(np.int8) for _ in range(6)] + [np.zeros(len(CODES), np.int8)]
    for seed in range(20):
        agent = RandomAgent(seed=seed, allow_terminal=allow_terminal)
        reference = np.random.default_rng(seed)
        for _ in range(300):
            observation: dict[str, Any] = {"labels": tuple(f"L{i}" for i in range(int(source.integers(0, 4))))}
            pick = int(source.integers(len(masks) + 2))
            if pick < len(masks):
                observation["action_mask"] = masks[pick]
            elif pick == len(masks):
                observation["action_mask"] = masks[0].astype(bool)  # another dtype: not cached, same draw
            want = _reference_act(reference, observation, allow_terminal, agent.words)
            assert agent.act(observation) == want
        assert agent.rng.bit_generator.state == reference.bit_generator.state
