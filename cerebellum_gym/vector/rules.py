"""Gymnasium's vector-env rules, written once for every vector env of the package.

Seeds per env, ``options["reset_mask"]``, the batch's infos (gymnasium's ``_add_info``),
``set_attr``'s values and the split of a batched action are what gymnasium's own vector envs do;
:class:`~cerebellum_gym.vector.native.NativeVectorEnv`, the sharded env and
:class:`~cerebellum_gym.vector.ray.RayVectorEnv` all take them from here, so they agree with
``SyncVectorEnv`` (and its error messages) in one place. Errors raised far away (in a worker
process or a Ray actor) travel and are named here too.

Example:
    >>> seeds(3, 2), seeds(None, 2), seeds([5, None], 2)
    ([3, 4], [None, None], [5, None])
    >>> per_env_values(0.5, 3)
    [0.5, 0.5, 0.5]
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Mapping, Sequence
from typing import Any, Final

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from cerebellum_gym.errors import ConfigError


def check_num_envs(num_envs: int) -> None:
    """Refuse a batch of no envs.

    Raises:
        ConfigError: fewer than one env.
    """
    if num_envs < 1:
        raise ConfigError(f"num_envs must be at least 1, got {num_envs}")


def autoreset_mode(mode: str | AutoresetMode) -> AutoresetMode:
    """Gymnasium's autoreset mode from its name or itself (``ValueError`` for another name)."""
    return mode if isinstance(mode, AutoresetMode) else AutoresetMode(mode)


def seeds(seed: int | Sequence[int | None] | None, num_envs: int) -> list[int | None]:
    """One seed per env: ``None`` for all, ``seed + i`` for env ``i``, or the list as given.

    Raises:
        ValueError: a list of the wrong length (gymnasium's message).
    """
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, int | np.integer):
        return [int(seed) + i for i in range(num_envs)]
    listed = list(seed)
    if len(listed) != num_envs:
        raise ValueError(f"If seeds are passed as a list the length must match num_envs={num_envs} but got length={len(listed)}.")
    return listed


def check_reset_mask(mask: Any, num_envs: int) -> np.ndarray:
    """``options["reset_mask"]``, checked as gymnasium's own vector envs check it (same messages).

    Raises:
        TypeError: not a boolean numpy array.
        ValueError: not of shape ``(num_envs,)``, or no env to reset.
    """
    if not isinstance(mask, np.ndarray):
        raise TypeError(f"`options['reset_mask']` must be a numpy array, got {type(mask)}")
    if mask.shape != (num_envs,):
        raise ValueError(f"`options['reset_mask']` must have shape `({num_envs},)`, got {mask.shape}")
    if mask.dtype != np.bool_:
        raise TypeError(f"`options['reset_mask']` must have `dtype=np.bool_`, got {mask.dtype}")
    if not np.any(mask):
        raise ValueError(f"`options['reset_mask']` must contain a boolean array with at least one True value, got reset_mask={mask}")
    return mask


def pop_reset_mask(options: dict[str, Any] | None, num_envs: int) -> np.ndarray | None:
    """Pop and check ``options["reset_mask"]`` (``None`` when there is none: every env resets)."""
    if options is None or "reset_mask" not in options:
        return None
    return check_reset_mask(options.pop("reset_mask"), num_envs)


def per_env_options(options: dict[str, Any] | None, num_envs: int) -> list[dict[str, Any] | None]:
    """Each env's reset options: ``options["state"]`` may be one episode state for every env (a
    group started from one state) or a list of them, one per env (``None`` resets that env
    afresh); every other option goes to every env.

    Raises:
        ValueError: a list of states of the wrong length.
    """
    if options is None or not isinstance(options.get("state"), list | tuple):
        return [options] * num_envs
    states = options["state"]
    if len(states) != num_envs:
        raise ValueError(f"reset option 'state' takes one state for every env or a list of {num_envs}, got a list of {len(states)}")
    rest = {k: v for k, v in options.items() if k != "state"}
    return [rest if state is None else {**rest, "state": state} for state in states]


def per_env_values(values: list[Any] | tuple[Any, ...] | object, num_envs: int) -> list[Any]:
    """``set_attr``'s values, one per env (a single value is given to every env), as gymnasium's
    vector envs take them.

    Raises:
        ValueError: a list or tuple of the wrong length (gymnasium's message).
    """
    if not isinstance(values, list | tuple):
        return [values] * num_envs
    if len(values) != num_envs:
        raise ValueError(
            f"Values must be a list or tuple with length equal to the number of environments. "
            f"Got {len(values)} values for {num_envs} environments."
        )
    return list(values)


def check_actions(actions: Any, num_envs: int) -> None:
    """Refuse a malformed batch of actions before any env acts.

    Raises:
        ValueError: a batched structured action without ``num_envs`` entries in each field, or a
            sequence of actions of another length (or a lone string).
    """
    if isinstance(actions, Mapping):
        codes, labels, texts = actions["code"], actions["label"], actions["text"]
        if not (len(codes) == len(labels) == len(texts) == num_envs):
            raise ValueError(f"a batched action needs {num_envs} entries in code, label and text")
    elif isinstance(actions, str) or len(actions) != num_envs:
        raise ValueError(f"expected {num_envs} actions, got {actions!r}")


def split_actions(actions: Any, num_envs: int) -> Sequence[Any]:
    """One action per env from the batched structured form (``{"code", "label", "text"}`` of
    length-N entries) or from a sequence of N actions (strings, ``Action``, mappings).

    Raises:
        ValueError: see :func:`check_actions`.
    """
    check_actions(actions, num_envs)
    if isinstance(actions, Mapping):
        codes, labels, texts = actions["code"], actions["label"], actions["text"]
        return [{"code": codes[i], "label": labels[i], "text": texts[i]} for i in range(num_envs)]
    return actions


_NUMERIC_INFO_TYPES: Final = (int, float, bool)
_STR_ONLY: Final = {str}


@functools.lru_cache(maxsize=64)
def _mask_keys(keys: tuple[str, ...]) -> tuple[str, ...]:
    """The batched infos' mask keys (``_key``) of ``keys``."""
    return tuple(f"_{key}" for key in keys)


def batch_infos(envs: VectorEnv[Any, Any, Any], entries: Sequence[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    """The batch's infos from ``(env index, info)`` entries in env order, exactly as gymnasium's
    ``_add_info`` builds them.

    The common case (every env one info, the same keys in the same order, plain numbers or
    strings) is built a column at a time instead of an env at a time; anything else goes
    through ``_add_info`` itself.
    """
    n = envs.num_envs
    if len(entries) == n and n:
        keys = tuple(entries[0][1])
        if all(tuple(info) == keys for _, info in entries):
            out: dict[str, Any] = {}
            # One mask row per key: separate rows of one allocation, not shared arrays.
            masks = np.ones((len(keys), n), np.bool_)
            columns = zip(*[info.values() for _, info in entries], strict=True)
            for key, mask_key, mask, column in zip(keys, _mask_keys(keys), masks, columns, strict=True):
                kind = type(column[0])
                try:
                    if kind in _NUMERIC_INFO_TYPES or issubclass(kind, np.number):
                        array = np.array(column, dtype=kind)
                    elif kind is str and set(map(type, column)) == _STR_ONLY:
                        array = np.empty(n, object)
                        array[:] = column
                    else:
                        break
                except (TypeError, ValueError):
                    break
                out[key] = array
                out[mask_key] = mask
            else:
                return out
    infos: dict[str, Any] = {}
    for i, info in entries:
        infos = envs._add_info(infos, info, i)
    return infos


def portable_exception(exc: BaseException) -> BaseException:
    """``exc``, or a RuntimeError saying what it was when it cannot be pickled (an answer that
    cannot be pickled would fail whole, and read as a lost worker or actor)."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


def remote_error(value: tuple[BaseException, str], where: str) -> BaseException:
    """The exception a worker or actor sent back (``(exception, its traceback)``), with a note
    saying where it was raised and its traceback there."""
    exc, trace = value
    exc.add_note(f"{where}:\n{trace}")
    return exc


__all__ = [
    "autoreset_mode",
    "batch_infos",
    "check_actions",
    "check_num_envs",
    "check_reset_mask",
    "per_env_values",
    "pop_reset_mask",
    "portable_exception",
    "remote_error",
    "seeds",
    "split_actions",
]
