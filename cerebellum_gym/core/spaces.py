"""Gymnasium spaces for the observation and the structured action, and their vector forms.

Screens carry any Unicode (names, messages, typed text), but :class:`gymnasium.spaces.Text`
only admits a fixed character set. :class:`UnicodeText` admits any string within its length
bounds and samples from a readable charset.

Vector envs work with gymnasium's defaults (``gym.make_vec`` in every mode): this module
registers the spaces with gymnasium's vector utilities (its documented ``singledispatch``
extension points), so that

- ``AsyncVectorEnv``'s shared memory (on by default) holds the text and label entries too:
  :class:`UnicodeText` as code points, :class:`LabelList` as letters, both with a length. Gymnasium
  reads its buffer once; text cannot be a view of it, so those entries read as
  :class:`SharedTexts`, sequences that decode the buffer when indexed (and deep-copy, as the
  vector env does by default, into plain tuples);
- a vector env's ``step`` takes a list of action strings (or :class:`Action` objects, or
  structured mappings), one per env, as well as the batched structured dict:
  :class:`ActionSpace` batches into :class:`BatchedActionSpace`, whose ``iterate`` accepts both.

Example:
    >>> import gymnasium as gym, cerebellum_gym
    >>> envs = gym.make_vec("Cerebellum-Sim-v0", 2, vectorization_mode="sync", task="SystemWifiTurnOn", pixels=False)
    >>> obs, _ = envs.reset(seed=0)
    >>> obs, reward, terminated, truncated, info = envs.step(["W", f"T {obs['labels'][1][0]}"])
    >>> info["action"].tolist(), info["invalid_action"].tolist()
    (['W', 'T ...'], [False, False])
    >>> envs.close()
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping
from collections.abc import Sequence as PySequence
from multiprocessing.sharedctypes import SynchronizedArray
from types import ModuleType
from typing import Any, Final, overload

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space, create_shared_memory, iterate, read_from_shared_memory, write_to_shared_memory

from cerebellum_gym.core.actions import CODES
from cerebellum_gym.errors import InvalidActionError

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


class LabelList(spaces.Sequence):
    """The labels on screen: a tuple of at most ``max_length`` two-letter uppercase labels.

    Example:
        >>> space = LabelList(3)
        >>> space.contains(("AB", "CD")), space.contains(("AB",) * 4), space.contains(("ab",))
        (True, False, False)
    """

    def __init__(self, max_length: int, *, seed: int | np.random.Generator | None = None) -> None:
        super().__init__(spaces.Text(2, min_length=2, charset=LABEL_CHARSET), stack=False, seed=seed)
        self.max_length = max_length

    def sample(self, mask: Any = None, probability: Any = None) -> tuple[Any, ...]:
        if mask is None and probability is None:
            length = int(self.np_random.integers(0, self.max_length + 1))
            return super().sample(mask=(length, None))
        return super().sample(mask=mask, probability=probability)

    def contains(self, x: Any) -> bool:
        return isinstance(x, tuple) and len(x) <= self.max_length and super().contains(x)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LabelList) and other.max_length == self.max_length and super().__eq__(other)

    def __hash__(self) -> int:
        return hash(("LabelList", self.max_length))

    def __repr__(self) -> str:
        return f"LabelList({self.max_length})"


class ActionSpace(spaces.Dict):
    """The structured action space; batched (:func:`gymnasium.vector.utils.batch_space`) it
    becomes a :class:`BatchedActionSpace`."""


class BatchedActionSpace(spaces.Dict):
    """The batched structured action of a vector env; its ``iterate`` also takes one action per
    env as a list (strings such as ``"T UE"``, :class:`Action` objects or structured mappings)."""


@batch_space.register(ActionSpace)
def _batch_action_space(space: ActionSpace, n: int = 1) -> BatchedActionSpace:
    batched = batch_space.dispatch(spaces.Dict)(space, n)
    return BatchedActionSpace(batched.spaces, seed=space.np_random)  # type: ignore[attr-defined]


@iterate.register(BatchedActionSpace)
def _iterate_actions(space: BatchedActionSpace, items: Any) -> Iterator[Any]:  # type: ignore[misc]
    n = len(next(iter(space.spaces.values())))  # type: ignore[arg-type]
    if isinstance(items, Mapping):
        if set(items) != set(space.spaces):
            raise InvalidActionError(items, f"a batched structured action has the keys {', '.join(space.spaces)}")
        try:
            per_env = list(iterate.dispatch(spaces.Dict)(space, items))
        except (TypeError, ValueError) as err:
            raise InvalidActionError(items, f"a batched structured action holds {n} values per key ({err})") from None
        if len(per_env) != n:
            raise InvalidActionError(items, f"{len(per_env)} actions for {n} envs")
        return iter(per_env)
    if isinstance(items, str | bytes) or not isinstance(items, PySequence | np.ndarray):
        raise InvalidActionError(items, "a vector env takes one action per env (a list) or the batched structured dict")
    if len(items) != n:
        raise InvalidActionError(items, f"{len(items)} actions for {n} envs")
    # Each env's own step validates its action: a malformed one takes its invalid-action path there.
    return iter(list(items))


# --- shared memory for AsyncVectorEnv ------------------------------------------------------------


class SharedTexts(PySequence[Any]):
    """One text (or label list) entry of every env, decoded from shared memory when indexed.

    Deep copies (what a vector env returns by default) are plain tuples; equality compares as a tuple.
    """

    def __init__(self, space: UnicodeText | LabelList, memory: SynchronizedArray[Any], n: int) -> None:
        self._space = space
        self._memory = memory
        self._n = n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Any, ...]: ...
    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._n)))
        if not -self._n <= index < self._n:
            raise IndexError(index)
        return _decode(self._space, self._memory, index % self._n)

    def __eq__(self, other: object) -> bool:
        return tuple(self) == (tuple(other) if isinstance(other, PySequence) else other)

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[Any, ...]:
        return tuple(self)

    def __reduce__(self) -> tuple[type[tuple[Any, ...]], tuple[tuple[Any, ...]]]:
        return tuple, (tuple(self),)

    def __repr__(self) -> str:
        return repr(tuple(self))


def _slot_size(space: UnicodeText | LabelList) -> int:
    # One int32 for the length, then the code points (two letters per label).
    return 1 + (space.max_length if isinstance(space, UnicodeText) else 2 * space.max_length)


@create_shared_memory.register(UnicodeText)
@create_shared_memory.register(LabelList)
def _create_text_memory(space: UnicodeText | LabelList, n: int = 1, ctx: ModuleType | Any = None) -> SynchronizedArray[Any]:
    import multiprocessing

    return (ctx or multiprocessing).Array(np.dtype(np.int32).char, n * _slot_size(space))


@read_from_shared_memory.register(UnicodeText)
@read_from_shared_memory.register(LabelList)
def _read_text_memory(space: UnicodeText | LabelList, shared_memory: SynchronizedArray[Any], n: int = 1) -> SharedTexts:
    return SharedTexts(space, shared_memory, n)


@write_to_shared_memory.register(UnicodeText)
@write_to_shared_memory.register(LabelList)
def _write_text_memory(space: UnicodeText | LabelList, index: int, value: Any, shared_memory: SynchronizedArray[Any]) -> None:
    size = _slot_size(space)
    text = value if isinstance(space, UnicodeText) else "".join(value)
    if len(text) > size - 1:
        raise ValueError(f"{len(text)} characters do not fit {space}")
    # surrogatepass: shared memory carries any str, even one no device could type.
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    slot = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)[index * size : (index + 1) * size]  # type: ignore[call-overload]
    slot[0] = len(points) if isinstance(space, UnicodeText) else len(value)
    slot[1 : 1 + len(points)] = points


def _decode(space: UnicodeText | LabelList, shared_memory: SynchronizedArray[Any], index: int) -> Any:
    size = _slot_size(space)
    slot = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)[index * size : (index + 1) * size]  # type: ignore[call-overload]
    if isinstance(space, UnicodeText):
        return slot[1 : 1 + slot[0]].astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")
    letters = slot[1 : 1 + 2 * slot[0]].astype("<u4").tobytes().decode("utf-32-le")
    return tuple(letters[i : i + 2] for i in range(0, len(letters), 2))


def action_space(max_labels: int, max_text_chars: int) -> ActionSpace:
    """The structured action: code index, label slot, and text (read by ``K`` and ``F``)."""
    return ActionSpace(
        {
            "code": spaces.Discrete(len(CODES)),
            "label": spaces.Discrete(max_labels),
            "text": UnicodeText(max_text_chars),
        }
    )


# --- batched observations -------------------------------------------------------------------------

#: Entries batched as a ``Tuple`` space: a tuple over history frames, each holding every env's value.
_PER_FRAME_KEYS: Final = frozenset((("history", "actions"), ("history", "subtrees")))


def split_observations(batch: Mapping[str, Any] | PySequence[Mapping[str, Any]], *, copy: bool = False) -> list[dict[str, Any]]:
    """One observation per env from a vector env's batched observation (a list passes through).

    Args:
        batch: the dict a vector env returns (arrays with the env on the first axis, tuples of
            texts per env, and the history's per-frame tuples), or already a list of observations.
        copy: copy each row's arrays (to keep them past the next step of a vector env that
            returns its own storage, the native one); by default they are views of the batch.

    Example:
        >>> import gymnasium as gym, cerebellum_gym
        >>> envs = gym.make_vec("Cerebellum-Sim-v0", 2, vectorization_mode="sync", task="SystemWifiTurnOn", pixels=False)
        >>> obs, _ = envs.reset(seed=0)
        >>> first, second = split_observations(obs)
        >>> first["goal"], first["labels"] == obs["labels"][0], second["history"]["actions"]
        ('Turn wifi on.', True, ('', '', '', ''))
        >>> envs.close()
    """
    if not isinstance(batch, Mapping):
        return [dict(obs) for obs in batch]
    return list(ObservationRows(batch, copy=copy))


class ObservationRows(PySequence[dict[str, Any]]):
    """A vector env's batched observation read as one observation per env, each row built when
    first read (its arrays views of the batch's, or copies with ``copy=True``): what agents'
    ``act_batch`` receives, so an agent reads only the rows and entries it uses.

    Example:
        >>> rows = ObservationRows({"goal": ("a", "b"), "action_mask": np.eye(2, dtype=np.int8)})
        >>> len(rows), rows[1]["goal"], rows[1]["action_mask"].base is not None
        (2, 'b', True)
    """

    def __init__(self, batch: Mapping[str, Any], *, copy: bool = False) -> None:
        self.batch = batch
        self.copy = copy
        self._len = len(batch["goal"]) if "goal" in batch else len(next(iter(batch.values())))
        self._rows: dict[int, dict[str, Any]] = {}

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        i = index + self._len if index < 0 else index
        if not 0 <= i < self._len:
            raise IndexError(f"row {index} of a batch of {self._len}")
        row = self._rows.get(i)
        if row is None:
            row = self._rows[i] = _pick(self.batch, i, (), self.copy)
        return row


def _pick(value: Any, i: int, path: tuple[str, ...], copy: bool = False) -> Any:
    if isinstance(value, Mapping):
        return {key: _pick(item, i, (*path, str(key)), copy) for key, item in value.items()}
    if path in _PER_FRAME_KEYS:
        return tuple(frame[i] for frame in value)
    row = value[i]
    return row.copy() if copy and isinstance(row, np.ndarray) else row
