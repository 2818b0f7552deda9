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

import collections
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

import numpy as np
from gymnasium import spaces

from cerebellum_gym.core.actions import CODES, MAX_TEXT_CHARS
from cerebellum_gym.core.history import History, HistoryParts, frozen
from cerebellum_gym.core.som import DEFAULT_MAX_LABELS
from cerebellum_gym.core.spaces import LabelList, UnicodeText

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


#: How an entry is handed out: ``text`` (immutable: a str or a tuple of them, as it is), ``mask``
#: (a small read-only array: copied fresh, gathered into a batch's array), ``history`` (the
#: :class:`HistoryParts`), ``image`` (a screenshot or ``None`` without pixels: copied fresh, written
#: into a batch's row).
FieldKind = Literal["text", "mask", "history", "image"]


class Field(NamedTuple):
    """One observation entry: its key, how it is handed out, and its space (``None``: absent
    under this config, as the screenshot without pixels)."""

    key: str
    kind: FieldKind
    space: Callable[[ObservationConfig], spaces.Space[Any] | None]


# Module-level functions, not lambdas: an env (and its config) pickles.
def _goal_space(config: ObservationConfig) -> UnicodeText:
    return UnicodeText(MAX_GOAL_CHARS)


def _tree_space(config: ObservationConfig) -> UnicodeText:
    return UnicodeText(config.max_tree_chars)


def _labels_space(config: ObservationConfig) -> LabelList:
    return LabelList(config.max_labels)


def _action_mask_space(config: ObservationConfig) -> spaces.MultiBinary:
    return spaces.MultiBinary(len(CODES))


def _label_mask_space(config: ObservationConfig) -> spaces.MultiBinary:
    return spaces.MultiBinary(config.max_labels)


def _history_space(config: ObservationConfig) -> spaces.Dict:
    n = config.history_len
    history: dict[str, spaces.Space[Any]] = {
        "actions": spaces.Tuple([UnicodeText(MAX_ACTION_CHARS) for _ in range(n)]),
        "subtrees": spaces.Tuple([UnicodeText(MAX_SUBTREE_CHARS) for _ in range(n)]),
        "mask": spaces.MultiBinary(n),
    }
    shape = config.history_shape
    if shape is not None:
        history["screenshots"] = spaces.Box(0, 255, (n, *shape, 3), np.uint8)
    return spaces.Dict(history)


def _screenshot_space(config: ObservationConfig) -> spaces.Box | None:
    shape = config.screenshot_shape
    return None if shape is None else spaces.Box(0, 255, (*shape, 3), np.uint8)


#: The observation's key table, in the order of :class:`ObservationParts`: the space, the sinks
#: (:func:`fresh_observation`, :func:`source_observation`) and a batch's rows (``vector/native.py``)
#: are all derived from it. A new entry is a row here (or in a config's ``fields``) and its value
#: in the producer (``CerebellumEnv.observation_parts``).
FIELDS: Final[tuple[Field, ...]] = (
    Field("goal", "text", _goal_space),
    Field("tree", "text", _tree_space),
    Field("labels", "text", _labels_space),
    Field("action_mask", "mask", _action_mask_space),
    Field("label_mask", "mask", _label_mask_space),
    Field("history", "history", _history_space),
    Field("screenshot", "image", _screenshot_space),
)


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
        fields: the key table (:data:`FIELDS`, or it with entries added).

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
    fields: tuple[Field, ...] = FIELDS

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
        """The observation space: every field's that is present under this config."""
        entries = {field.key: field.space(self) for field in self.fields}
        return spaces.Dict({key: space for key, space in entries.items() if space is not None})

    @property
    def parts_type(self) -> type[tuple[Any, ...]]:
        """The type of this config's observation parts (:class:`ObservationParts` for :data:`FIELDS`)."""
        return parts_type(self.fields)

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


class _Encoders(NamedTuple):
    """A key table's layout and its two sinks, compiled from the table once (a step calls them)."""

    layout: tuple[tuple[str, FieldKind], ...]
    fresh: Callable[[tuple[Any, ...]], dict[str, Any]]
    source: Callable[[tuple[Any, ...]], dict[str, Any]]


def _compile(fields: tuple[Field, ...]) -> _Encoders:
    """The sinks of a key table as straight-line functions: generated from the table, so they
    cost what hand-written ones do (a loop over the table per step cost a microsecond more)."""
    fresh: list[str] = ["def fresh(p):", "    obs = {}"]
    source: list[str] = ["def source(p):", "    obs = {}"]
    for i, f in enumerate(fields):
        key = repr(f.key)
        if f.kind == "text":
            fresh.append(f"    obs[{key}] = p[{i}]")
            source.append(f"    obs[{key}] = p[{i}]")
        elif f.kind == "mask":
            fresh.append(f"    obs[{key}] = p[{i}].copy()")
            source.append(f"    obs[{key}] = p[{i}]")
        elif f.kind == "history":
            fresh += [
                f"    h = p[{i}]",
                "    past = {'actions': h.actions, 'subtrees': h.subtrees, 'mask': h.mask.copy()}",
                "    frames = h.frames",
                "    if frames:",
                "        stack = empty((len(frames), *frames[0].shape), uint8)",
                "        stack_frames(frames, stack)",
                "        past['screenshots'] = stack",
                f"    obs[{key}] = past",
            ]
            source += [
                f"    h = p[{i}]",
                "    past = {'actions': h.actions, 'subtrees': h.subtrees, 'mask': h.mask}",
                "    if h.frames:",
                "        past['screenshots'] = h.frames",
                f"    obs[{key}] = past",
            ]
        else:
            fresh += [f"    if p[{i}] is not None:", f"        obs[{key}] = array(p[{i}])"]
            source += [
                f"    shot = p[{i}]",
                "    if shot is not None:",
                f"        obs[{key}] = shot if frozen(shot) else array(shot)",
            ]
    namespace: dict[str, Any] = {"empty": np.empty, "array": np.array, "uint8": np.uint8, "stack_frames": stack_frames, "frozen": frozen}
    exec("\n".join([*fresh, "    return obs", *source, "    return obs"]), namespace)
    return _Encoders(tuple((f.key, f.kind) for f in fields), namespace["fresh"], namespace["source"])


_ENCODERS: dict[type, _Encoders] = {}
assert ObservationParts._fields == tuple(f.key for f in FIELDS), "ObservationParts follows the key table"


@functools.cache
def parts_type(fields: tuple[Field, ...]) -> type[tuple[Any, ...]]:
    """The parts type of a key table: :class:`ObservationParts` for :data:`FIELDS`, else a
    named tuple of the table's keys (a field added by a config)."""
    made = ObservationParts if fields == FIELDS else collections.namedtuple("ObservationParts", [f.key for f in fields])
    _ENCODERS[made] = _compile(fields)
    return made


def is_parts(obs: object) -> bool:
    """Whether ``obs`` is an observation's parts (of any key table), not an observation."""
    return type(obs) in _ENCODERS


def layout(parts: tuple[Any, ...]) -> tuple[tuple[str, FieldKind], ...]:
    """``(key, kind)`` of each of ``parts``' entries, in order."""
    return _ENCODERS[type(parts)].layout


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


def fresh_observation(parts: tuple[Any, ...]) -> dict[str, Any]:
    """The observation a step returns: every array new memory, the caller's to keep or change."""
    return _ENCODERS[type(parts)].fresh(parts)


def source_observation(parts: tuple[Any, ...]) -> dict[str, Any]:
    """The observation's entries with nothing copied, for a consumer that only reads them (the
    dataset recorder): the masks are the shared read-only ones, the history frames a tuple of
    read-only arrays, and an image the captured one (a copy when it is writable, which the
    device that captured it could change)."""
    return _ENCODERS[type(parts)].source(parts)


parts_type(FIELDS)  # ObservationParts' sinks, compiled at import


__all__ = [
    "DEFAULT_HISTORY_LEN",
    "DEFAULT_HISTORY_WIDTH",
    "DEFAULT_MAX_TREE_CHARS",
    "DEFAULT_SCREENSHOT_WIDTH",
    "FIELDS",
    "MAX_ACTION_CHARS",
    "MAX_GOAL_CHARS",
    "MAX_SUBTREE_CHARS",
    "MIN_IMAGE_WIDTH",
    "Field",
    "FieldKind",
    "HistoryParts",
    "ObservationConfig",
    "ObservationParts",
    "fresh_observation",
    "is_parts",
    "label_mask",
    "layout",
    "parts_type",
    "source_observation",
    "stack_frames",
]
