"""Episode state as a value: what :meth:`CerebellumEnv.clone_state` returns and how it travels.

An :class:`EpisodeState` holds everything that decides what an episode does next (the phone,
the task and its parameters, the labels' random generator, the history, the step count and the
reward account) as immutable values: a byte string of the small mutable parts and the
history's frames as read-only arrays. It is cheap to take (no frame is copied), cheap to
restore (one unpickling), crosses processes and Ray as it is, and saves to bytes.

The byte string is read by :func:`loads_state`, an unpickler that builds only the types a
module has registered as state (:func:`register_state_type`, :func:`register_state_base`) and a
few plain-data types of the standard library and numpy, from modules already loaded: it imports
nothing and calls no other function, so loading a crafted file runs no code (the way ``torch.load(weights_only=True)``
reads weights).

Example:
    >>> from cerebellum_gym.core.tree import UINode
    >>> blob = dumps_state({"node": UINode(text="OK"), "seen": {1, 2}})
    >>> loads_state(blob)["node"].text, loads_state(blob)["seen"]
    ('OK', {1, 2})
    >>> import pickle, os
    >>> loads_state(pickle.dumps(os.system))
    Traceback (most recent call last):
    ...
    cerebellum_gym.errors.StateError: an episode state may hold only data: posix.system is not a state type
"""

from __future__ import annotations

import io
import json
import pickle
import struct
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

import numpy as np

from cerebellum_gym.errors import StateError

#: The format of :meth:`EpisodeState.to_bytes` and of the state's contents; a state of another
#: version is refused (its fields may mean something else).
STATE_FORMAT: Final = 1
_MAGIC: Final = b"CEREBELLUM-STATE\n"

#: Plain-data types of the standard library and numpy a state may hold (module, name).
_STDLIB_TYPES: Final = frozenset(
    {
        ("builtins", "set"),
        ("builtins", "frozenset"),
        ("builtins", "complex"),
        ("builtins", "bytearray"),
        ("builtins", "slice"),
        ("collections", "deque"),
        ("collections", "OrderedDict"),
        ("datetime", "date"),
        ("datetime", "datetime"),
        ("datetime", "time"),
        ("datetime", "timedelta"),
        ("datetime", "timezone"),
        ("numpy", "dtype"),
        # an image a task keeps (a receipt): built from its mode, size and raw bytes
        ("PIL.Image", "Image"),
        ("numpy", "ndarray"),
        # numpy's array reconstructors (protocol 5 and older), by the module each version names
        ("numpy._core.numeric", "_frombuffer"),
        ("numpy.core.numeric", "_frombuffer"),
        ("numpy._core.multiarray", "_reconstruct"),
        ("numpy.core.multiarray", "_reconstruct"),
        ("numpy._core.multiarray", "scalar"),
        ("numpy.core.multiarray", "scalar"),
    }
)

_STATE_TYPES: set[Any] = set()
_STATE_BASES: set[type] = set()

_T = TypeVar("_T")


def register_state_type(cls: _T) -> _T:
    """Allow ``cls`` (a class of plain data, or a function that only builds one from data) in an
    episode state; usable as a decorator."""
    _STATE_TYPES.add(cls)
    return cls


def register_state_base(cls: type) -> type:
    """Allow every subclass of ``cls`` in an episode state (tasks, oracles); a decorator."""
    _STATE_BASES.add(cls)
    return cls


def is_state_type(obj: object) -> bool:
    """Whether ``obj`` is registered as state (itself, or a class by a registered base)."""
    try:
        if obj in _STATE_TYPES:
            return True
    except TypeError:  # unhashable: no class, no function
        return False
    return isinstance(obj, type) and any(issubclass(obj, base) for base in _STATE_BASES)


class _StateUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _STDLIB_TYPES:
            return super().find_class(module, name)
        # Only what is loaded already: importing a module runs its code.
        loaded = sys.modules.get(module)
        obj = getattr(loaded, name, None) if loaded is not None and "." not in name else None
        if loaded is None or not is_state_type(obj):
            raise StateError(f"an episode state may hold only data: {module}.{name} is not a state type")
        return obj

    def persistent_load(self, pid: Any) -> Any:
        raise StateError("an episode state holds no persistent references")


def dumps_state(obj: object) -> bytes:
    """``obj`` as bytes that :func:`loads_state` reads back."""
    return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)


def loads_state(data: bytes) -> Any:
    """The value :func:`dumps_state` wrote, built from data only.

    Raises:
        StateError: the bytes name a type that is not state, or are not a state at all.
    """
    try:
        return _StateUnpickler(io.BytesIO(data)).load()
    except StateError:
        raise
    except Exception as exc:  # a truncated or foreign byte string
        raise StateError(f"not an episode state: {type(exc).__name__}: {exc}") from None


def _frozen_copy(array: np.ndarray) -> np.ndarray:
    copy = np.array(array)
    copy.flags.writeable = False
    return copy


@dataclass(frozen=True, eq=False)
class EpisodeState:
    """One moment of an episode, as a value: :meth:`CerebellumEnv.clone_state` makes it,
    :meth:`CerebellumEnv.restore_state` (or ``reset(options={"state": state})``) continues from it.

    Attributes:
        env_id: the env id it was taken from (``gym.make``'s), ``""`` for an env made directly.
        options: the env's options that shape an episode (task set, pixels, history, ...); a
            state is restored only into an env with the same.
        step: the episode's step count when it was taken.
        task: the task's name.
        blob: the small mutable parts (phone, task, oracle, labels, counters), for
            :func:`loads_state`.
        frames: the history's screenshots and the current one, read-only arrays shared by every
            copy (nothing writes them).
        version: :data:`STATE_FORMAT`.
    """

    env_id: str
    options: Mapping[str, Any]
    step: int
    task: str
    blob: bytes
    frames: tuple[np.ndarray, ...] = field(default=())
    version: int = STATE_FORMAT

    def __post_init__(self) -> None:
        for frame in self.frames:
            if frame.flags.writeable:
                raise StateError("an episode state's frames must be read-only arrays")

    @property
    def nbytes(self) -> int:
        """What the state holds, in bytes (its blob and its frames)."""
        return len(self.blob) + sum(int(f.nbytes) for f in self.frames)

    def __repr__(self) -> str:
        return f"EpisodeState(env_id={self.env_id!r}, task={self.task!r}, step={self.step}, nbytes={self.nbytes})"

    # --- bytes -------------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The state as bytes: a JSON header, the blob, the frames' raw pixels."""
        header = {
            "version": self.version,
            "env_id": self.env_id,
            "options": dict(self.options),
            "step": self.step,
            "task": self.task,
            "blob": len(self.blob),
            "frames": [[list(f.shape), f.dtype.str] for f in self.frames],
        }
        head = json.dumps(header, sort_keys=True).encode()
        parts = [_MAGIC, struct.pack("<I", len(head)), head, self.blob]
        parts.extend(np.ascontiguousarray(f).tobytes() for f in self.frames)
        return b"".join(parts)

    @classmethod
    def from_bytes(cls, data: bytes) -> EpisodeState:
        """A state :meth:`to_bytes` wrote. Only the header is parsed here (JSON); the blob is
        read by the restricted :func:`loads_state` when the state is restored.

        Raises:
            StateError: not a state, a truncated one, or one of another format version.
        """
        data = bytes(data)
        if not data.startswith(_MAGIC):
            raise StateError("not an episode state (no cerebellum-gym state header)")
        offset = len(_MAGIC)
        try:
            (length,) = struct.unpack_from("<I", data, offset)
            offset += 4
            header = json.loads(data[offset : offset + length])
            offset += length
            version = int(header["version"])
            if version != STATE_FORMAT:
                raise StateError(f"an episode state of format {version}; this cerebellum-gym reads format {STATE_FORMAT}")
            shapes = [tuple(int(n) for n in shape) for shape, _ in header["frames"]]
            if any(np.dtype(dtype) != np.uint8 for _, dtype in header["frames"]) or any(n < 0 for s in shapes for n in s):
                raise StateError("an episode state's frames are uint8 arrays")
            sizes = [int(np.prod(shape)) for shape in shapes]
            if offset + int(header["blob"]) + sum(sizes) != len(data):
                raise StateError("a truncated or padded episode state")
            blob = data[offset : offset + int(header["blob"])]
            offset += len(blob)
            frames = []
            for shape, count in zip(shapes, sizes, strict=True):
                frames.append(np.frombuffer(data, np.uint8, count, offset).reshape(shape))  # read-only: a view of bytes
                offset += count
            return cls(
                env_id=str(header["env_id"]),
                options=dict(header["options"]),
                step=int(header["step"]),
                task=str(header["task"]),
                blob=blob,
                frames=tuple(frames),
                version=version,
            )
        except StateError:
            raise
        except (ValueError, KeyError, TypeError, struct.error) as exc:
            raise StateError(f"not an episode state: {type(exc).__name__}: {exc}") from None

    def __reduce__(self) -> tuple[Any, ...]:
        # Across processes (multiprocessing, Ray) as its bytes: the frames stay read-only there.
        return (EpisodeState.from_bytes, (self.to_bytes(),))


__all__ = [
    "STATE_FORMAT",
    "EpisodeState",
    "dumps_state",
    "is_state_type",
    "loads_state",
    "register_state_base",
    "register_state_type",
]
