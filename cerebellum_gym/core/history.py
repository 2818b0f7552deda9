"""Recent history: the last few screens the agent acted on, what it did, and to what.

Each frame keeps a small screenshot with the acted element outlined, the action text, and a
compact subtree of the element, the three things the reference agent reads for each past step.
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

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


def frozen(array: object) -> bool:
    """Whether nothing can write to ``array``'s memory: a read-only array down to a base that
    owns its memory (or an immutable ``bytes``). Such an array keeps its content as long as it
    lives, so its content can be known by its identity.

    Example:
        >>> a = np.zeros(3); b = a[:2]; b.flags.writeable = False
        >>> frozen(b), frozen(np.frombuffer(b"abc", np.uint8))
        (False, True)
    """
    while isinstance(array, np.ndarray):
        if array.flags.writeable:
            return False
        if array.base is None:
            return True
        array = array.base
    return isinstance(array, bytes)


class HistoryParts(NamedTuple):
    """What the history shows in one observation (:meth:`History.parts`), nothing writable.

    Texts and frames are padded at the front; the last ``filled`` entries are real.
    """

    actions: tuple[str, ...]
    subtrees: tuple[str, ...]
    #: The observation's mask (one shared read-only array per fill level).
    mask: np.ndarray
    filled: int
    #: One read-only array per slot (the padding is one shared black frame); ``()`` without pixels.
    frames: tuple[np.ndarray, ...]


class History:
    """The last ``length`` frames, oldest first, as fixed-shape observation entries.

    Each frame's screenshot is kept as its own read-only array (:meth:`frames`): a frame is the
    same array object for as long as it stays in the history, so a consumer that has seen it
    (the dataset recorder) can know it by identity. A frame is the pushed screenshot itself when
    that is read-only, already at history size and nothing is outlined on it.

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
        self._screens: deque[np.ndarray] = deque(maxlen=length)
        # The padding frame (and a frame pushed without a screenshot): one read-only black image.
        self._blank: np.ndarray | None = None
        if size is not None:
            self._blank = np.zeros((size[1], size[0], 3), np.uint8)
            self._blank.flags.writeable = False
        # Per number of frames held: the padding and the mask (observations get copies).
        self._pads = [("",) * (length - filled) for filled in range(length + 1)]
        self._masks = [np.array([0] * (length - filled) + [1] * filled, dtype=np.int8) for filled in range(length + 1)]
        for mask in self._masks:
            mask.flags.writeable = False  # shared by every observation's parts; observations get copies
        # parts() as of the last change (push, clear): most steps read it without pushing.
        self._parts: HistoryParts | None = None

    def __len__(self) -> int:
        return len(self.actions)

    def __setstate__(self, state: dict[str, object]) -> None:
        # A pickle brings arrays back writable. Each was read-only before pickling (a copy this
        # history made, or a frozen screen it kept as it was), and nothing else holds the
        # unpickled ones: frozen again, a consumer can know each by its identity, as before.
        self.__dict__.update(state)
        self._parts = None
        for array in (self._blank, *self._screens, *self._masks):
            if array is not None:
                array.flags.writeable = False

    def export(self) -> tuple[tuple[str, ...], tuple[str, ...], tuple[np.ndarray, ...]]:
        """What the history holds: its action texts, subtrees and frames (read-only arrays),
        for an episode state (:meth:`load` puts them back)."""
        return tuple(self.actions), tuple(self.subtrees), tuple(self._screens)

    def load(self, actions: tuple[str, ...], subtrees: tuple[str, ...], screens: tuple[np.ndarray, ...]) -> None:
        """Hold what :meth:`export` gave (frames must be read-only: they are shared, not copied)."""
        if any(frame.flags.writeable for frame in screens):
            raise ValueError("history frames must be read-only arrays")
        self._parts = None
        self.actions = deque(actions, maxlen=self.length)
        self.subtrees = deque(subtrees, maxlen=self.length)
        self._screens = deque(screens, maxlen=self.length)

    def clear(self) -> None:
        self._parts = None
        self.actions.clear()
        self.subtrees.clear()
        self._screens.clear()

    def push(self, screenshot: np.ndarray | None, action: str, subtree: str, acted: Bounds | None) -> None:
        """Add a frame. ``screenshot`` may be any size; it is fitted to the history size."""
        if self.length == 0:
            return
        self._parts = None
        # Cut here so that every observation stays inside its declared space.
        self.actions.append(action if self.max_action_chars is None else cut(action, self.max_action_chars))
        self.subtrees.append(subtree if self.max_subtree_chars is None else cut(subtree, self.max_subtree_chars))
        if self.size is None or self._blank is None:
            return
        if screenshot is None:
            self._screens.append(self._blank)
            return
        width, height = self.size
        fitted = screenshot.shape[:2] == (height, width)
        frame = screenshot if fitted else shrink(screenshot, width, height)
        if acted is not None or (frame is screenshot and not frozen(frame)):
            # Our own copy: the outline is drawn on it, or the caller may change theirs.
            frame = np.array(frame)
            if acted is not None:
                outline(frame, acted, width / self.screen_width)
        if frame.flags.writeable:
            frame.flags.writeable = False  # ours alone (a copy or a fresh resize): frozen from now on
        self._screens.append(frame)

    def frames(self) -> tuple[np.ndarray, ...]:
        """The history screenshots as read-only arrays, one per slot (padding at the front is
        one shared black frame); empty without pixels."""
        if self._blank is None:
            return ()
        return (self._blank,) * (self.length - len(self._screens)) + tuple(self._screens)

    def parts(self) -> HistoryParts:
        """Everything an observation shows of the history, as the history's own read-only
        values (the one read-out: an observation's sinks copy or write what they need)."""
        parts = self._parts
        if parts is None:
            filled = len(self.actions)
            padding = self._pads[filled]
            actions, subtrees = padding + tuple(self.actions), padding + tuple(self.subtrees)
            # tuple.__new__: a NamedTuple's own __new__ is a Python function, twice the cost per step.
            parts = self._parts = tuple.__new__(HistoryParts, (actions, subtrees, self._masks[filled], filled, self.frames()))
        return parts
