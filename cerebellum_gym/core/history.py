"""Recent history: the last few screens the agent acted on, what it did, and to what.

Each frame keeps a small screenshot with the acted element outlined, the action text, and a
compact subtree of the element, the three things the reference agent reads for each past step.
"""

from __future__ import annotations

from collections import deque

import numpy as np
from PIL import Image

from cerebellum_gym.core.som import outline
from cerebellum_gym.core.tree import Bounds


def shrink(screenshot: np.ndarray, width: int, height: int) -> np.ndarray:
    """Downscale ``screenshot`` to ``(height, width)`` (nearest neighbour: sharp and fast)."""
    if screenshot.shape[:2] == (height, width):
        return np.array(screenshot)
    return np.asarray(Image.fromarray(screenshot).resize((width, height), Image.Resampling.NEAREST))


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, a final ``…`` marking a cut (as the tree is cut).

    Example:
        >>> cut("K hello world", 8), cut("K hi", 8)
        ('K hello…', 'K hi')
    """
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


class History:
    """A ring of the last ``length`` frames, oldest first, in fixed-shape arrays.

    Args:
        length: frames kept.
        size: ``(width, height)`` of history screenshots, or ``None`` to keep no pixels.
        screen_width: logical device width, to map element bounds onto the small image.
        max_action_chars: action texts are cut to this (the observation space's bound).
        max_subtree_chars: subtrees are cut to this.
    """

    def __init__(
        self,
        length: int,
        size: tuple[int, int] | None,
        screen_width: int,
        *,
        max_action_chars: int | None = None,
        max_subtree_chars: int | None = None,
    ) -> None:
        self.length = length
        self.max_action_chars = max_action_chars
        self.max_subtree_chars = max_subtree_chars
        self.size = size
        self.screen_width = screen_width
        self.actions: deque[str] = deque(maxlen=length)
        self.subtrees: deque[str] = deque(maxlen=length)
        # A ring of frames: a push writes one slot, an observation gathers them oldest first in
        # one copy (the observation must be a fresh array anyway).
        self._screens = np.zeros((length, size[1], size[0], 3), np.uint8) if size is not None else None
        self._next = 0
        # Per number of frames held: the padding and the mask (observations get copies).
        self._pads = [("",) * (length - filled) for filled in range(length + 1)]
        self._masks = [np.array([0] * (length - filled) + [1] * filled, dtype=np.int8) for filled in range(length + 1)]

    def __len__(self) -> int:
        return len(self.actions)

    def clear(self) -> None:
        self.actions.clear()
        self.subtrees.clear()
        self._next = 0

    def push(self, screenshot: np.ndarray | None, action: str, subtree: str, acted: Bounds | None) -> None:
        """Add a frame. ``screenshot`` may be any size; it is fitted to the history size."""
        if self.length == 0:
            return
        # Cut here so that every observation stays inside its declared space.
        self.actions.append(action if self.max_action_chars is None else cut(action, self.max_action_chars))
        self.subtrees.append(subtree if self.max_subtree_chars is None else cut(subtree, self.max_subtree_chars))
        if self._screens is not None and self.size is not None:
            width, height = self.size
            slot = self._screens[self._next]
            self._next = (self._next + 1) % self.length
            if screenshot is None:
                slot[:] = 0
                return
            slot[:] = shrink(screenshot, width, height) if screenshot.shape[:2] != (height, width) else screenshot
            if acted is not None:
                outline(slot, acted, width / self.screen_width)

    def write(self, mask: np.ndarray, screenshots: np.ndarray | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Write the observation's arrays into ``mask`` and ``screenshots`` (one env's rows of a
        batch) and return its ``(actions, subtrees)``: :meth:`observation` without new arrays."""
        filled = len(self.actions)
        pad = self.length - filled
        mask[:pad] = 0
        mask[pad:] = 1
        if screenshots is not None and self._screens is not None:
            screenshots[:pad] = 0
            for i in range(filled):
                screenshots[pad + i] = self._screens[(self._next - filled + i) % self.length]
        return ("",) * pad + tuple(self.actions), ("",) * pad + tuple(self.subtrees)

    def texts(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The observation's ``(actions, subtrees)``, padded at the front (the mask's ones are
        the last ``len(self)`` entries)."""
        padding = self._pads[len(self.actions)]
        return padding + tuple(self.actions), padding + tuple(self.subtrees)

    def observation(self) -> dict[str, object]:
        """Fixed-shape entries for the observation space (padding at the front)."""
        filled = len(self.actions)
        pad = self.length - filled
        padding = self._pads[filled]
        obs: dict[str, object] = {
            "actions": padding + tuple(self.actions),
            "subtrees": padding + tuple(self.subtrees),
            "mask": self._masks[filled].copy(),
        }
        if self._screens is not None:
            oldest_first = [(self._next - filled + i) % self.length for i in range(filled)]
            stack = np.empty_like(self._screens)
            stack[:pad] = 0
            for i, slot in enumerate(oldest_first):  # plain slice copies: np.take(out=) is far slower
                stack[pad + i] = self._screens[slot]
            obs["screenshots"] = stack
        return obs
