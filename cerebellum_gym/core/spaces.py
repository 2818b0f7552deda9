"""Gymnasium spaces for the observation and the structured action.

Screens carry any Unicode (names, messages, typed text), but :class:`gymnasium.spaces.Text`
only admits a fixed character set. :class:`UnicodeText` admits any string within its length
bounds and samples from a readable charset.
"""

from __future__ import annotations

import string
from typing import Any, Final

import numpy as np
from gymnasium import spaces

from cerebellum_gym.core.actions import CODES

SAMPLE_CHARSET: Final = string.ascii_letters + string.digits + " .,-'"
LABEL_CHARSET: Final = string.ascii_uppercase


class UnicodeText(spaces.Text):
    """A text space that contains every ``str`` of ``min_length..max_length`` characters.

    Example:
        >>> space = UnicodeText(max_length=16)
        >>> space.contains("Grüße, 世界"), space.contains("x" * 17)
        (True, False)
    """

    def __init__(self, max_length: int, *, min_length: int = 0, seed: int | np.random.Generator | None = None) -> None:
        super().__init__(max_length, min_length=min_length, charset=SAMPLE_CHARSET, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText({self.min_length}, {self.max_length})"


def observation_space(
    *,
    screenshot_shape: tuple[int, int] | None,
    history_shape: tuple[int, int] | None,
    history_len: int,
    max_tree_chars: int,
    max_labels: int,
    max_goal_chars: int,
    max_subtree_chars: int,
    max_action_chars: int,
) -> spaces.Dict:
    """The observation space; ``None`` shapes drop the pixel entries (tree-only mode).

    Shapes are ``(height, width)``.
    """
    history: dict[str, spaces.Space[Any]] = {
        "actions": spaces.Tuple([UnicodeText(max_action_chars) for _ in range(history_len)]),
        "subtrees": spaces.Tuple([UnicodeText(max_subtree_chars) for _ in range(history_len)]),
        "mask": spaces.MultiBinary(history_len),
    }
    if history_shape is not None:
        height, width = history_shape
        history["screenshots"] = spaces.Box(0, 255, (history_len, height, width, 3), np.uint8)
    entries: dict[str, spaces.Space[Any]] = {
        "goal": UnicodeText(max_goal_chars),
        "tree": UnicodeText(max_tree_chars),
        "labels": spaces.Sequence(spaces.Text(2, min_length=2, charset=LABEL_CHARSET), stack=False),
        "action_mask": spaces.MultiBinary(len(CODES)),
        "label_mask": spaces.MultiBinary(max_labels),
        "history": spaces.Dict(history),
    }
    if screenshot_shape is not None:
        height, width = screenshot_shape
        entries["screenshot"] = spaces.Box(0, 255, (height, width, 3), np.uint8)
    return spaces.Dict(entries)


def action_space(max_labels: int, max_text_chars: int) -> spaces.Dict:
    """The structured action: code index, label slot, and text (read by ``K`` and ``F``)."""
    return spaces.Dict(
        {
            "code": spaces.Discrete(len(CODES)),
            "label": spaces.Discrete(max_labels),
            "text": UnicodeText(max_text_chars),
        }
    )
