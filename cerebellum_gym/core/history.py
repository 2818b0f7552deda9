"""Recent history: the last few screens the agent acted on, what it did, and to what.

Each frame keeps a small screenshot with the acted element outlined, the action text, and a
compact subtree of the element, the three things the reference agent reads for each past step.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np
from PIL import Image

from cerebellum_gym.core.som import outline
from cerebellum_gym.core.tree import Bounds


@dataclass(frozen=True)
class HistoryFrame:
    screenshot: np.ndarray | None
    action: str
    subtree: str


def shrink(screenshot: np.ndarray, width: int, height: int) -> np.ndarray:
    """Downscale ``screenshot`` to ``(height, width)``; halving takes a fast strided path."""
    src_h, src_w = screenshot.shape[:2]
    if src_w == 2 * width and (src_h + 1) // 2 == height:
        return np.ascontiguousarray(screenshot[::2, ::2])
    return np.asarray(Image.fromarray(screenshot).resize((width, height), Image.Resampling.BILINEAR))


class History:
    """A ring of the last ``length`` frames, oldest first.

    Args:
        length: frames kept.
        size: ``(width, height)`` of history screenshots, or ``None`` to keep no pixels.
        screen_width: logical device width, to map element bounds onto the small image.
    """

    def __init__(self, length: int, size: tuple[int, int] | None, screen_width: int) -> None:
        self.length = length
        self.size = size
        self.screen_width = screen_width
        self.frames: deque[HistoryFrame] = deque(maxlen=length)

    def clear(self) -> None:
        self.frames.clear()

    def push(self, screenshot: np.ndarray | None, action: str, subtree: str, acted: Bounds | None) -> None:
        small = None
        if self.size is not None and screenshot is not None:
            width, height = self.size
            small = shrink(screenshot, width, height)
            if acted is not None:
                small = small.copy() if not small.flags.writeable else small
                outline(small, acted, width / self.screen_width)
        self.frames.append(HistoryFrame(small, action, subtree))

    def observation(self) -> dict[str, object]:
        """Fixed-shape arrays for the observation space (padding at the front)."""
        pad = self.length - len(self.frames)
        frames = list(self.frames)
        obs: dict[str, object] = {
            "actions": tuple([""] * pad + [f.action for f in frames]),
            "subtrees": tuple([""] * pad + [f.subtree for f in frames]),
            "mask": np.array([0] * pad + [1] * len(frames), dtype=np.int8),
        }
        if self.size is not None:
            width, height = self.size
            stack = np.zeros((self.length, height, width, 3), np.uint8)
            for i, frame in enumerate(frames):
                if frame.screenshot is not None:
                    stack[pad + i] = frame.screenshot
            obs["screenshots"] = stack
        return obs
