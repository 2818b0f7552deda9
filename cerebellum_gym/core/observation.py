"""One observation pipeline: a typed config, the immutable parts of a step's observation, and sinks.

The env builds one :class:`ObservationParts` per step: what the observation shows, as the env's
own read-only arrays (shared masks, the history's frames, the screen it captured) and text.
``CerebellumEnv.step_parts`` returns them (``step`` is built on it); small sinks turn the parts
into what a consumer wants, with no second way of building them:

- :func:`fresh_observation`: the observation ``step`` returns, every array new memory (gymnasium's
  ``check_env`` asserts no two observations share any);
- :func:`source_observation`: the same entries without copies, for a consumer that only reads
  them (the dataset recorder);
- a batch's rows (``vector/native.py``): the arrays written into preallocated batch storage.

:class:`ObservationConfig` is the observation's shape, held once: the observation space, the
:class:`~cerebellum_gym.core.history.History` and the batch arrays are all made from it.

Example:
    >>> config = ObservationConfig(screen_size=(1080, 2400), pixels=False, history_len=2)
    >>> sorted(config.space().spaces), config.screenshot_shape
    (['action_mask', 'goal', 'history', 'label_mask', 'labels', 'tree'], None)
    >>> ObservationConfig(screen_size=(1080, 2400)).screenshot_shape, ObservationConfig(screen_size=(1080, 2400)).history_shape
    ((1031, 464), (516, 232))
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

import numpy as np
from gymnasium import spaces

from cerebellum_gym.core.actions import MAX_TEXT_CHARS
from cerebellum_gym.core.history import History, HistoryParts, frozen
from cerebellum_gym.core.som import DEFAULT_MAX_LABELS
from cerebellum_gym.core.spaces import observation_space

DEFAULT_SCREENSHOT_WIDTH: Final = 464
DEFAULT_HISTORY_WIDTH: Final = 232
DEFAULT_HISTORY_LEN: Final = 4
#: Narrowest screenshot (current or history) the env renders.
MIN_IMAGE_WIDTH: Final = 32
DEFAULT_MAX_TREE_CHARS: Final = 4000
MAX_GOAL_CHARS: Final = 1000
MAX_SUBTREE_CHARS: Final = 300
#: Longest action text the history shows (a ``K`` action's text and its code).
MAX_ACTION_CHARS: Final = MAX_TEXT_CHARS + 4


@dataclass(frozen=True)
class ObservationConfig:
    """What an observation holds and how big each part is (checked when made).

    Attributes:
        screen_size: the device's logical ``(width, height)``: the screenshots keep its aspect.
        screenshot_width: width of the current screenshot (at least :data:`MIN_IMAGE_WIDTH`).
        pixels: ``False`` drops every image (tree-only mode).
        history_len: past frames kept (at least 1).
        history_width: width of history screenshots (at least :data:`MIN_IMAGE_WIDTH`).
        max_tree_chars: the compact tree is cut to this many characters.
        max_labels: label slots.

    Raises:
        ValueError: a value out of range, named.
    """

    screen_size: tuple[int, int]
    screenshot_width: int = DEFAULT_SCREENSHOT_WIDTH
    pixels: bool = True
    history_len: int = DEFAULT_HISTORY_LEN
    history_width: int = DEFAULT_HISTORY_WIDTH
    max_tree_chars: int = DEFAULT_MAX_TREE_CHARS
    max_labels: int = DEFAULT_MAX_LABELS

    def __post_init__(self) -> None:
        for name, value in (("screenshot_width", self.screenshot_width), ("history_width", self.history_width)):
            if value < MIN_IMAGE_WIDTH:
                # Narrower, a phone's widgets shrink below a pixel and cannot be drawn.
                raise ValueError(f"{name} must be at least {MIN_IMAGE_WIDTH} px, got {value}")
        for name, value in (("max_labels", self.max_labels), ("max_tree_chars", self.max_tree_chars)):
            if value <= 0:
                raise ValueError(f"{name} must be positive, got {value}")
        if self.history_len < 1:
            # The observation's history mask is a MultiBinary(history_len), which needs one slot.
            raise ValueError(f"history_len must be at least 1, got {self.history_len}")

    @property
    def screenshot_shape(self) -> tuple[int, int] | None:
        """``(height, width)`` of the current screenshot; ``None`` without pixels."""
        if not self.pixels:
            return None
        dev_w, dev_h = self.screen_size
        # The scale first, then the height (the env's rounding since its first release).
        return round(dev_h * (self.screenshot_width / dev_w)), self.screenshot_width

    @property
    def history_shape(self) -> tuple[int, int] | None:
        """``(height, width)`` of a history screenshot; ``None`` without pixels."""
        if not self.pixels:
            return None
        dev_w, dev_h = self.screen_size
        return round(dev_h * self.history_width / dev_w), self.history_width

    def space(self) -> spaces.Dict:
        """The observation space."""
        return observation_space(
            screenshot_shape=self.screenshot_shape,
            history_shape=self.history_shape,
            history_len=self.history_len,
            max_tree_chars=self.max_tree_chars,
            max_labels=self.max_labels,
            max_goal_chars=MAX_GOAL_CHARS,
            max_subtree_chars=MAX_SUBTREE_CHARS,
            max_action_chars=MAX_ACTION_CHARS,
        )

    def history(self) -> History:
        """An empty history of this shape."""
        shape = self.history_shape
        return History(
            self.history_len,
            (shape[1], shape[0]) if shape is not None else None,
            self.screen_size[0],
            max_action_chars=MAX_ACTION_CHARS,
            max_subtree_chars=MAX_SUBTREE_CHARS,
        )


class ObservationParts(NamedTuple):
    """One step's observation as the env holds it: nothing here may be written to.

    The arrays are the env's own read-only ones, which keep their content while they live (the
    masks are shared per screen or per count; each history frame is one array for as long as it
    stays in the history). ``screenshot`` is the captured screen as the device gave it; it is
    read-only when the device caches it (the simulator), and is then known by its identity.
    """

    goal: str
    tree: str
    labels: tuple[str, ...]
    action_mask: np.ndarray
    label_mask: np.ndarray
    history: HistoryParts
    screenshot: np.ndarray | None


@functools.cache
def label_mask(slots: int, filled: int) -> np.ndarray:
    """``slots`` flags, the first ``filled`` set (read-only and shared: observations get copies).

    Example:
        >>> label_mask(4, 2).tolist(), label_mask(4, 2) is label_mask(4, 2)
        ([1, 1, 0, 0], True)
    """
    mask = np.zeros(slots, np.int8)
    mask[:filled] = 1
    mask.flags.writeable = False
    return mask


def stack_frames(frames: tuple[np.ndarray, ...], out: np.ndarray) -> None:
    """Write ``frames`` into ``out`` (``(len(frames), H, W, 3)``: a fresh array or a batch's row)."""
    for i, frame in enumerate(frames):  # plain slice copies: np.stack(out=) is no faster
        out[i] = frame


def fresh_observation(parts: ObservationParts) -> dict[str, Any]:
    """The observation a step returns: every array new memory, the caller's to keep or change."""
    past = parts.history
    history: dict[str, Any] = {"actions": past.actions, "subtrees": past.subtrees, "mask": past.mask.copy()}
    frames = past.frames
    if frames:
        stack = np.empty((len(frames), *frames[0].shape), np.uint8)
        stack_frames(frames, stack)
        history["screenshots"] = stack
    obs: dict[str, Any] = {
        "goal": parts.goal,
        "tree": parts.tree,
        "labels": parts.labels,
        "action_mask": parts.action_mask.copy(),
        "label_mask": parts.label_mask.copy(),
        "history": history,
    }
    if parts.screenshot is not None:
        obs["screenshot"] = np.array(parts.screenshot)
    return obs


def source_observation(parts: ObservationParts) -> dict[str, Any]:
    """The observation's entries with nothing copied, for a consumer that only reads them (the
    dataset recorder): the masks are the shared read-only ones, the history frames a tuple of
    read-only arrays, and the screenshot the captured one (a copy when it is writable, which
    the device that captured it could change)."""
    past = parts.history
    history: dict[str, Any] = {"actions": past.actions, "subtrees": past.subtrees, "mask": past.mask}
    if past.frames:
        history["screenshots"] = past.frames
    obs: dict[str, Any] = {
        "goal": parts.goal,
        "tree": parts.tree,
        "labels": parts.labels,
        "action_mask": parts.action_mask,
        "label_mask": parts.label_mask,
        "history": history,
    }
    shot = parts.screenshot
    if shot is not None:
        obs["screenshot"] = shot if frozen(shot) else np.array(shot)
    return obs


__all__ = [
    "DEFAULT_HISTORY_LEN",
    "DEFAULT_HISTORY_WIDTH",
    "DEFAULT_MAX_TREE_CHARS",
    "DEFAULT_SCREENSHOT_WIDTH",
    "MAX_ACTION_CHARS",
    "MAX_GOAL_CHARS",
    "MAX_SUBTREE_CHARS",
    "MIN_IMAGE_WIDTH",
    "HistoryParts",
    "ObservationConfig",
    "ObservationParts",
    "fresh_observation",
    "label_mask",
    "source_observation",
    "stack_frames",
]
