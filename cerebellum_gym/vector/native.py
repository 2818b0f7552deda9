"""Native batched vector envs for in-process devices (the simulator): no per-env dicts, no copies.

:class:`NativeVectorEnv` steps N envs in one process. Each sub-env writes its observation straight
into preallocated batch arrays (its rows of ``screenshot``, ``history.screenshots``, the masks)
instead of assembling a dict of fresh arrays that a vector env would then copy again; the text
parts are gathered into the batch's tuples. Same seeds give the same observations, rewards and
infos as gymnasium's ``SyncVectorEnv`` over the same envs, bit for bit (a test holds them
together), and autoreset follows gymnasium's modes (``NEXT_STEP``, ``SAME_STEP``, ``DISABLED``).

:class:`ShardedVectorEnv` spreads the N envs over K shards so that every core works: shard 0 is a
:class:`NativeVectorEnv` in this process and every other one is in a worker process that writes
into shared-memory batch arrays (one message each way per batch step: actions in; text parts,
rewards, ends and info entries out), or, with ``workers="ray"``, every shard is in a Ray actor
(its arrays travel through Ray's object store, so shards may live on other machines).

``gym.make_vec("Cerebellum-Sim-v0", num_envs=N)`` builds these (the id's ``vector_entry_point``,
gymnasium's default mode when an id has one); ``shards=K`` asks for the sharded form.

Example:
    >>> import gymnasium as gym
    >>> import cerebellum_gym
    >>> envs = gym.make_vec("Cerebellum-Sim-v0", num_envs=2, task="SystemWifiTurnOn", pixels=False)
    >>> type(envs).__name__, envs.num_envs
    ('NativeVectorEnv', 2)
    >>> obs, info = envs.reset(seed=0)
    >>> obs["goal"], obs["action_mask"].shape
    (('Turn wifi on.', 'Turn wifi on.'), (2, 12))
    >>> obs, reward, terminated, truncated, info = envs.step(["W", "H"])
    >>> list(info["action"])
    ['W', 'H']
    >>> envs.close()
"""

from __future__ import annotations

import contextlib
import copy as copy_module
import functools
import multiprocessing
import os
import select
import traceback
import weakref
from collections.abc import Callable, Mapping, Sequence
from multiprocessing.connection import Connection
from typing import Any, Final, NamedTuple

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array

from cerebellum_gym.core.actions import CODES, LABELLED_CODES, Action
from cerebellum_gym.core.observation import ObservationParts, fresh_observation, keep_parts, stack_frames
from cerebellum_gym.env import CerebellumEnv
from cerebellum_gym.errors import CerebellumError, ConfigError, DeviceLostError
from cerebellum_gym.vector.ray import check_reset_mask, portable_exception

#: The observation entries the batch writes from a sub-env's :class:`ObservationParts`; an
#: observation space with any other entry (a sub-env wrapper that grew a field) makes the batch
#: fall back to per-env dicts and gymnasium's concatenation.
_NATIVE_KEYS: Final = frozenset({"goal", "tree", "labels", "action_mask", "label_mask", "history", "screenshot"})
_NATIVE_HISTORY_KEYS: Final = frozenset({"actions", "subtrees", "mask", "screenshots"})

Path = tuple[str, ...]
#: A hook that wraps each sub-env as it is built (``wrap_env=``): recording, observation wrappers, ...
WrapEnv = Callable[[gym.Env[Any, Any]], gym.Env[Any, Any]]


def numeric_leaves(space: spaces.Space[Any], path: Path = ()) -> list[tuple[Path, tuple[int, ...], np.dtype[Any]]]:
    """The array entries of an observation space (``Box``, ``MultiBinary``, ...): path, shape, dtype.

    Text entries (``Text``, ``Sequence``, ``Tuple`` of texts) are not arrays and are left out.
    """
    if isinstance(space, spaces.Dict):
        out: list[tuple[Path, tuple[int, ...], np.dtype[Any]]] = []
        for key, sub in space.spaces.items():
            out.extend(numeric_leaves(sub, (*path, key)))
        return out
    if isinstance(space, spaces.Box | spaces.MultiBinary | spaces.MultiDiscrete | spaces.Discrete):
        return [(path, tuple(space.shape or ()), np.dtype(space.dtype))]
    return []


def allocate(space: spaces.Space[Any], num_envs: int) -> dict[Path, np.ndarray]:
    """Zeroed batch arrays for every array entry of ``space`` (keyed by path)."""
    return {path: np.zeros((num_envs, *shape), dtype) for path, shape, dtype in numeric_leaves(space)}


class _Batch:
    """A batch's observation storage: arrays (possibly in shared memory) and per-env text parts."""

    def __init__(self, space: spaces.Dict, num_envs: int, arrays: Mapping[Path, np.ndarray]) -> None:
        self.space = space
        self.arrays = dict(arrays)
        self.goal: list[str] = [""] * num_envs
        self.tree: list[str] = [""] * num_envs
        self.labels: list[tuple[str, ...]] = [()] * num_envs
        self.history_actions: list[tuple[str, ...]] = [()] * num_envs
        self.history_subtrees: list[tuple[str, ...]] = [()] * num_envs
        get = self.arrays.get
        self.action_mask = self.arrays[("action_mask",)]
        self.label_mask = self.arrays[("label_mask",)]
        self.history_mask = self.arrays[("history", "mask")]
        self.history_screens = get(("history", "screenshots"))
        self.screenshot = get(("screenshot",))
        # Row n: the label mask of a screen with n labels; row f of the history's: f frames held.
        width = self.label_mask.shape[1]
        self.label_rows = np.tril(np.ones((width + 1, width), self.label_mask.dtype), -1)
        length = self.history_mask.shape[1]
        self.history_rows = np.tril(np.ones((length + 1, length), self.history_mask.dtype), -1)[:, ::-1].copy()
        # The small masks are gathered per env and written for the whole batch at once by
        # flush() (three NumPy calls instead of three row writes per env): each env's action
        # mask (the screen's shared one), its number of labels and of history frames.
        self.action_masks: list[np.ndarray] = [np.zeros_like(self.action_mask[0])] * num_envs
        self.label_counts: list[int] = [0] * num_envs
        self.history_filled: list[int] = [0] * num_envs
        self._flat_action_mask = self.action_mask.reshape(-1) if self.action_mask.flags.c_contiguous else None

    def write(self, i: int, parts: ObservationParts) -> None:
        """Env ``i``'s observation into its rows (the small masks are gathered for :meth:`flush`)."""
        self.goal[i] = parts.goal
        self.tree[i] = parts.tree
        labels = self.labels[i] = parts.labels
        self.action_masks[i] = parts.action_mask
        self.label_counts[i] = len(labels)
        past = parts.history
        self.history_filled[i] = past.filled
        self.history_actions[i], self.history_subtrees[i] = past.actions, past.subtrees
        screens = self.history_screens
        if screens is not None:
            stack_frames(past.frames, screens[i])
        if self.screenshot is not None:
            self.screenshot[i] = parts.screenshot

    def flush(self) -> None:
        """Write the gathered masks into the batch arrays (after the envs wrote their parts)."""
        flat = self._flat_action_mask
        if flat is not None:
            np.concatenate(self.action_masks, out=flat)
        else:
            for i, mask in enumerate(self.action_masks):
                self.action_mask[i] = mask
        # The ndarray methods: np.take's Python-level dispatch costs more than the copy here.
        self.label_rows.take(self.label_counts, axis=0, out=self.label_mask)
        self.history_rows.take(self.history_filled, axis=0, out=self.history_mask)

    def observation(self) -> dict[str, Any]:
        """The batched observation, in the space's key order (the arrays are the storage itself)."""
        history_len = self.history_mask.shape[1]
        history: dict[str, Any] = {}
        for key in self.space["history"].spaces:  # type: ignore[attr-defined]
            if key == "actions":
                history[key] = tuple(zip(*self.history_actions, strict=True)) if history_len else ()
            elif key == "subtrees":
                history[key] = tuple(zip(*self.history_subtrees, strict=True)) if history_len else ()
            else:
                history[key] = self.arrays[("history", key)]
        values = {
            "goal": tuple(self.goal),
            "tree": tuple(self.tree),
            "labels": tuple(self.labels),
            "history": history,
        }
        return {key: values[key] if key in values else self.arrays[(key,)] for key in self.space.spaces}


def _close_all(envs: Sequence[Any]) -> None:
    """Close every env (or recorder), even when one fails; the first failure is raised after."""
    failure: BaseException | None = None
    for env in envs:
        try:
            env.close()
        except Exception as exc:
            failure = failure or exc
    if failure is not None:
        raise failure


def _build_env(env_kwargs: Mapping[str, Any]) -> CerebellumEnv:
    from cerebellum_gym.loader import make_env

    kwargs = dict(env_kwargs)
    kwargs.setdefault("backend", "sim")
    return make_env(**kwargs)


def sub_env_wrapper(
    wrap_env: WrapEnv | None,
    record: str | os.PathLike[str] | None,
    record_agent: str | None,
    record_metadata: Mapping[str, Any] | None,
    env_id: str | None,
    env_kwargs: Mapping[str, Any],
) -> WrapEnv | None:
    """The one sub-env hook of ``wrap_env=`` and the ``record=`` aliases: the dataset recorder
    (:class:`~cerebellum_gym.datasets.RecordEpisodes`, replayable as ``env_id`` with
    ``env_kwargs``) right around each sub-env, then ``wrap_env`` around that."""
    if record is None:
        return wrap_env
    from cerebellum_gym.datasets.recorder import RecordEpisodes

    recording = functools.partial(
        RecordEpisodes,
        directory=os.fspath(record),
        agent=record_agent,
        metadata=record_metadata,
        env_id=env_id,
        env_kwargs=dict(env_kwargs),
    )
    return recording if wrap_env is None else functools.partial(_wrapped_twice, wrap_env, recording)


def _wrapped_twice(outer: WrapEnv, inner: WrapEnv, env: gym.Env[Any, Any]) -> gym.Env[Any, Any]:
    return outer(inner(env))


def _seeds(seed: int | Sequence[int | None] | None, num_envs: int) -> list[int | None]:
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, int | np.integer):
        return [int(seed) + i for i in range(num_envs)]
    seeds = list(seed)
    if len(seeds) != num_envs:
        raise ValueError(f"If seeds are passed as a list the length must match num_envs={num_envs} but got length={len(seeds)}.")
    return seeds


def _reset_mask(options: dict[str, Any] | None, num_envs: int) -> np.ndarray | None:
    """Pop and check ``options["reset_mask"]`` as gymnasium's vector envs do."""
    if options is None or "reset_mask" not in options:
        return None
    return check_reset_mask(options.pop("reset_mask"), num_envs)


def split_actions(actions: Any, num_envs: int) -> Sequence[Any]:
    """One action per env from the batched structured form (``{"code", "label", "text"}`` of
    length-N entries) or from a sequence of N actions (strings, :class:`Action`, mappings)."""
    if isinstance(actions, Mapping):
        codes, labels, texts = actions["code"], actions["label"], actions["text"]
        if not (len(codes) == len(labels) == len(texts) == num_envs):
            raise ValueError(f"a batched action needs {num_envs} entries in code, label and text")
        return [{"code": codes[i], "label": labels[i], "text": texts[i]} for i in range(num_envs)]
    if isinstance(actions, str) or len(actions) != num_envs:
        raise ValueError(f"expected {num_envs} actions, got {actions!r}")
    return actions


#: Decoded structured actions that no screen can refuse, by code index: keys, wait, ``I`` and
#: ``F`` without an answer (``from_structured`` gives these same actions).
_PLAIN_ACTIONS: Final[dict[int, Action]] = {
    CODES.index(code): Action(code) for code in CODES if code not in LABELLED_CODES and code not in "KUDLR"
}
_LABELLED_INDEXES: Final = frozenset(CODES.index(code) for code in LABELLED_CODES)
#: ``T``/``P`` actions by (code index, label): labels come from a fixed pool, so this stays small.
_labelled_actions: dict[tuple[int, str], Action] = {}


def decode_actions(actions: Any, envs: Sequence[CerebellumEnv]) -> Sequence[Any]:
    """One action per env, as :func:`split_actions` gives them, with the batched structured form's
    actions that cannot be refused already decoded (cached :class:`Action` objects).

    A ``T``/``P`` of a filled label slot, a key, a wait, ``I`` and an answerless ``F`` decode
    against the env's current labels exactly as the env's ``from_structured`` would, and the
    env carries them out whatever the screen; everything else (typing, scrolls, anything
    malformed or illegal) stays a per-env mapping for the env to decode, check and refuse
    itself, so that its infos are exactly those of a plain env.
    """
    if not isinstance(actions, Mapping):
        return split_actions(actions, len(envs))
    codes, slots, texts = actions["code"], actions["label"], actions["text"]
    n = len(envs)
    if not (
        type(codes) is np.ndarray
        and type(slots) is np.ndarray
        and codes.dtype.kind in "iu"
        and slots.dtype.kind in "iu"
        and codes.shape == slots.shape == (n,)
        and len(texts) == n
    ):
        return split_actions(actions, n)
    plain, labelled, cache = _PLAIN_ACTIONS, _LABELLED_INDEXES, _labelled_actions
    out: list[Any] = []
    for i, (code, slot, text, env) in enumerate(zip(codes.tolist(), slots.tolist(), texts, envs, strict=True)):
        action: Any = None
        if type(text) is str:
            if code in labelled:
                screen = env.screen
                if screen is not None and 0 <= slot < len(screen.labels):
                    key = (code, screen.labels[slot])
                    action = cache.get(key)
                    if action is None:
                        action = cache[key] = Action(CODES[code], label=key[1])
            elif code in plain and (not text or text.isspace() or CODES[code] != "F"):
                action = plain[code]
        out.append(action if action is not None else {"code": codes[i], "label": slots[i], "text": text})
    return out


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


class NativeVectorEnv(VectorEnv[Any, Any, Any]):
    """N envs stepped in this process, observations written into preallocated batch arrays.

    Args:
        num_envs: how many sub-envs.
        autoreset_mode: gymnasium's autoreset mode.
        copy: return copies of the batched observation; by default the arrays returned are the
            batch's own storage, overwritten by the next ``reset``/``step`` (copy what you keep).
        arrays: the batch arrays to write into (keyed by path, as :func:`allocate` makes them):
            a shard of :class:`ShardedVectorEnv` passes views of shared memory.
        env_fn: builds one sub-env (a :class:`~cerebellum_gym.env.CerebellumEnv`) from
            ``env_kwargs`` (default: the loader).
        wrap_env: wraps each sub-env as it is built (the sub-env hook). While the wrapped
            env's observation space is the env's own, the batch writes its rows from the env's
            :class:`~cerebellum_gym.core.observation.ObservationParts`, which is then the
            observation every wrapper sees (immutable; the dataset recorder reads it as it is);
            a wrapper that changes the space gets the env's usual dicts, and the batch
            concatenates what it returns.
        record: a dataset folder: every sub-env's episodes are recorded there as they happen.
            An alias (kept: ``docs/datasets.md`` shows it) of a ``wrap_env`` hook of
            :class:`~cerebellum_gym.datasets.RecordEpisodes`, replayable as ``Cerebellum-Sim-v0``
            with ``env_kwargs`` (:func:`sub_env_wrapper`); the recorder sits right around the
            env, inside ``wrap_env``.
        record_agent: who acts, stored with each recorded episode.
        record_metadata: extra JSON fields stored with each recorded episode.
        **env_kwargs: ``gym.make``'s options for every sub-env (``task``, ``pixels``, ...).

    ``step`` takes the batched structured action (``{"code", "label", "text"}``, as
    :func:`~cerebellum_gym.core.actions.batch_actions` builds it) or a sequence of N actions in any
    form a single env takes (``["T UE", "W", ...]``).
    """

    def __init__(
        self,
        num_envs: int = 1,
        *,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        copy: bool = False,
        arrays: Mapping[Path, np.ndarray] | None = None,
        env_fn: Callable[[Mapping[str, Any]], CerebellumEnv] = _build_env,
        wrap_env: WrapEnv | None = None,
        record: str | os.PathLike[str] | None = None,
        record_agent: str | None = None,
        record_metadata: Mapping[str, Any] | None = None,
        **env_kwargs: Any,
    ) -> None:
        if num_envs < 1:
            raise ConfigError(f"num_envs must be at least 1, got {num_envs}")
        self.autoreset_mode = autoreset_mode if isinstance(autoreset_mode, AutoresetMode) else AutoresetMode(autoreset_mode)
        self.copy = copy
        self.num_envs = num_envs
        #: The sub-envs themselves (each a CerebellumEnv).
        self.envs: list[CerebellumEnv] = []
        #: What reset and step are called on: the sub-envs, or the sub-envs as ``wrap_env`` wrapped them.
        self._steppers: list[Any] = self.envs
        # Replayable as the id whose sub-envs these are (with another env_fn, unknown).
        env_id = "Cerebellum-Sim-v0" if env_fn is _build_env else None
        wrap = sub_env_wrapper(wrap_env, record, record_agent, record_metadata, env_id, env_kwargs)
        wrapped: list[Any] = []
        try:
            for _ in range(num_envs):
                self.envs.append(env_fn(env_kwargs))
            if wrap is not None:
                for env in self.envs:
                    wrapped.append(wrap(env))
                self._steppers = wrapped
                # Dropped without close(): a recorder's open episodes are still ended and its writer let go.
                weakref.finalize(self, _close_all, wrapped)
        except BaseException:
            with contextlib.suppress(Exception):  # the error that stopped the build is the one to raise
                _close_all([*wrapped, *self.envs[len(wrapped) :]])  # a wrapper closes its env
            raise
        first = self._steppers[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = {**first.metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = first.render_mode
        space = self.single_observation_space
        assert isinstance(space, spaces.Dict)
        if arrays is None:
            arrays = allocate(space, num_envs)
        self._arrays = dict(arrays)
        # The batch writes its rows from the sub-envs' observation parts; an observation it
        # does not know falls back to per-env dicts and gymnasium's concatenation (slower, still correct).
        self.native = _native_space(space) and all(isinstance(env.unwrapped, CerebellumEnv) for env in self.envs)
        if self.native:
            self._batch: _Batch | None = _Batch(space, num_envs, self._arrays)
            for env in self.envs:
                sub: Any = env.unwrapped
                sub.observation_sink = keep_parts
        else:
            self._batch = None
            self._env_obs: list[Any] = [None] * num_envs
            self._out = self._generic_storage(space)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminations = np.zeros(num_envs, np.bool_)
        self._truncations = np.zeros(num_envs, np.bool_)
        self._autoreset_envs = np.zeros(num_envs, np.bool_)

    # --- gymnasium API -----------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        entries = self.reset_entries(_seeds(seed, self.num_envs), options)
        return self._observation(), self._infos(entries)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        entries = self.step_entries(actions)
        return self._observation(), self._rewards.copy(), self._terminations.copy(), self._truncations.copy(), self._infos(entries)

    # --- the batch step without the batch's infos (a shard answers with these) ----------------

    def reset_entries(self, seeds: Sequence[int | None], options: dict[str, Any] | None) -> list[tuple[int, dict[str, Any]]]:
        """Reset the envs (those of ``options["reset_mask"]``, or all) into the batch arrays;
        returns each reset env's ``(index, info)`` in env order."""
        mask = _reset_mask(options, self.num_envs)
        if mask is None:
            mask = np.ones(self.num_envs, np.bool_)
        self._terminations[mask] = False
        self._truncations[mask] = False
        self._autoreset_envs[mask] = False
        entries: list[tuple[int, dict[str, Any]]] = []
        for i, env in enumerate(self._steppers):
            if mask[i]:
                obs, info = env.reset(seed=seeds[i], options=options)
                self._keep(i, obs)
                entries.append((i, info))
        if self._batch is not None:
            self._batch.flush()
        return entries

    def step_entries(self, actions: Any) -> list[tuple[int, dict[str, Any]]]:
        """Step every env into the batch arrays and ``self._rewards``/``_terminations``/
        ``_truncations``; returns the ``(index, info)`` entries that make the batch's infos."""
        per_env = decode_actions(actions, self.envs)
        mode = self.autoreset_mode
        next_step, same_step = mode == AutoresetMode.NEXT_STEP, mode == AutoresetMode.SAME_STEP
        disabled = mode == AutoresetMode.DISABLED
        keep = self._keep
        entries: list[tuple[int, dict[str, Any]]] = []
        # Python scalars, not NumPy ones, in the per-env loop; the arrays are written once after it.
        pending = self._autoreset_envs.tolist()
        rewards: list[Any] = [0.0] * self.num_envs
        terminations: list[Any] = [False] * self.num_envs
        truncations: list[Any] = [False] * self.num_envs
        for i, env in enumerate(self._steppers):
            if next_step and pending[i]:
                obs, info = env.reset()
            else:
                if disabled:
                    assert not pending[i], f"{self._autoreset_envs=}"
                obs, reward, terminated, truncated, info = env.step(per_env[i])
                rewards[i], terminations[i], truncations[i] = reward, terminated, truncated
                if same_step and (terminated or truncated):
                    final = fresh_observation(obs) if type(obs) is ObservationParts else obs
                    entries.append((i, {"final_obs": final, "final_info": info}))
                    obs, info = env.reset()
            keep(i, obs)
            entries.append((i, info))
        self._rewards[:] = rewards
        self._terminations[:] = terminations
        self._truncations[:] = truncations
        np.logical_or(self._terminations, self._truncations, out=self._autoreset_envs)
        if self._batch is not None:
            self._batch.flush()
        return entries

    def text_parts(self) -> tuple[list[str], list[str], list[tuple[str, ...]], list[tuple[str, ...]], list[tuple[str, ...]]]:
        """The batch's text parts, per env: goals, trees, labels, history actions and subtrees
        (the batch's own lists; the native form only)."""
        batch = self._batch
        assert batch is not None
        return batch.goal, batch.tree, batch.labels, batch.history_actions, batch.history_subtrees

    def render(self) -> tuple[Any, ...]:
        return tuple(env.render() for env in self.envs)

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        results = []
        for env in self.envs:
            attr = env.get_wrapper_attr(name)
            results.append(attr(*args, **kwargs) if callable(attr) else attr)
        return tuple(results)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        return self.call(name)

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | object) -> None:
        values = per_env_values(values, self.num_envs)
        for env, value in zip(self.envs, values, strict=True):
            env.set_wrapper_attr(name, value)

    def close_extras(self, **kwargs: Any) -> None:
        _close_all(self._steppers)  # a recorder closes its env after its last episode

    # --- internals ---------------------------------------------------------------------------

    def _infos(self, entries: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
        return batch_infos(self, entries)

    def _keep(self, i: int, obs: Any) -> None:
        """Env ``i``'s observation into the batch: its rows written from its parts, or (the
        generic form) the env's own observation kept for concatenation."""
        batch = self._batch
        if batch is None:
            self._env_obs[i] = obs
        elif type(obs) is ObservationParts:
            batch.write(i, obs)
        else:
            raise CerebellumError(
                f"sub-env {i} returned a {type(obs).__name__} where the batch expects its ObservationParts: "
                "a sub-env wrapper that changes observations must declare the observation_space it returns"
            )

    def _observation(self) -> Any:
        obs: Any
        if self._batch is not None:
            obs = self._batch.observation()
        else:
            obs = concatenate(self.single_observation_space, self._env_obs, self._out)
            self._out = obs
        return copy_module.deepcopy(obs) if self.copy else obs

    def _generic_storage(self, space: spaces.Dict) -> Any:
        """gymnasium's empty batch with its array entries replaced by this env's arrays."""
        out = create_empty_array(space, self.num_envs)

        def swap(node: Any, path: Path) -> Any:
            if isinstance(node, dict):
                return {key: swap(value, (*path, key)) for key, value in node.items()}
            return self._arrays.get(path, node)

        return swap(out, ())


# --- shards ----------------------------------------------------------------------------------------

#: A shard's observation as it travels: the native form's text parts (see
#: :meth:`NativeVectorEnv.text_parts`) or a generic observation without its arrays, and the
#: shard's arrays themselves when they are not in shared memory (Ray).
Payload = tuple[Any, dict[Path, np.ndarray] | None]


class _Packed(NamedTuple):
    """A numeric array as raw bytes (pickles ~10x faster than the array; same dtype when unpacked)."""

    dtype: str
    shape: tuple[int, ...]
    data: bytes


def _pack(value: Any) -> Any:
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
        return _Packed(value.dtype.str, value.shape, value.tobytes())
    return value


def _unpack(value: Any) -> Any:
    if isinstance(value, _Packed):
        return np.frombuffer(value.data, np.dtype(value.dtype)).reshape(value.shape)
    return value


def _strip_arrays(obs: Any) -> Any:
    """The observation without its arrays (they are in shared memory): text parts only."""
    if isinstance(obs, dict):
        return {key: _strip_arrays(value) for key, value in obs.items()}
    return None if isinstance(obs, np.ndarray) else obs


def _native_space(space: spaces.Space[Any]) -> bool:
    """Whether the batch writes rows for this observation space from the sub-envs' :class:`ObservationParts`."""
    if not isinstance(space, spaces.Dict):
        return False
    history = space.spaces.get("history")
    return set(space.spaces) <= _NATIVE_KEYS and isinstance(history, spaces.Dict) and set(history.spaces) <= _NATIVE_HISTORY_KEYS


class ShardHost:
    """One shard: a :class:`NativeVectorEnv` answering ``reset``/``step`` with plain data.

    It runs in a worker process (arrays in shared memory, ``with_arrays=False``) or as a Ray actor
    (``ray.remote(ShardHost)``; the arrays travel with the answer). Answers carry the shard's text
    parts and its per-env ``(index, info)`` entries; the caller builds the batch's infos from all
    shards' entries at once, exactly as a single-process env builds them.
    """

    def __init__(
        self,
        num_envs: int,
        autoreset_mode: str,
        env_kwargs: Mapping[str, Any],
        arrays: Mapping[Path, np.ndarray] | None = None,
        with_arrays: bool = True,
    ) -> None:
        self.env = NativeVectorEnv(num_envs, autoreset_mode=autoreset_mode, arrays=arrays, **dict(env_kwargs))
        self.with_arrays = with_arrays

    def describe(self) -> tuple[Any, Any, dict[str, Any], str | None]:
        env = self.env
        return env.single_observation_space, env.single_action_space, dict(env.metadata), env.render_mode

    def reset(self, seeds: list[int | None], options: dict[str, Any] | None) -> tuple[Payload, list[tuple[int, dict[str, Any]]]]:
        entries = self.env.reset_entries(seeds, options)
        return self._payload(), entries

    def step(self, actions: Any) -> tuple[Payload, list[float], list[bool], list[bool], list[tuple[int, dict[str, Any]]]]:
        env = self.env
        if isinstance(actions, Mapping):
            actions = {key: _unpack(value) for key, value in actions.items()}
        entries = env.step_entries(actions)
        # Lists, not arrays: three small arrays took more time to pickle and unpickle (~50 us)
        # than the rest of the answer; floats and bools come back into the batch's arrays exactly.
        return self._payload(), env._rewards.tolist(), env._terminations.tolist(), env._truncations.tolist(), entries

    def call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        return self.env.call(name, *args, **kwargs)

    def set_attr(self, name: str, values: list[Any]) -> None:
        self.env.set_attr(name, values)

    def close(self) -> None:
        self.env.close()

    def _payload(self) -> Payload:
        env = self.env
        return _texts(env)[0], (env._arrays if self.with_arrays else None)


def _texts(env: NativeVectorEnv) -> Payload:
    """A shard's payload without arrays: its text parts (native form) or its stripped observation."""
    return (env.text_parts() if env.native else _strip_arrays(env._observation())), None


def _shard_worker(
    conn: Connection,
    num_envs: int,
    autoreset_mode: str,
    env_kwargs: Mapping[str, Any],
    shared: Mapping[Path, tuple[Any, tuple[int, ...], str, int]],
    bell: int | None = None,
) -> None:
    """A worker process's loop: a :class:`ShardHost` over views of the shared arrays.

    One message in and one out per batch step; the arrays are already in shared memory when the
    answer (text parts, rewards, ends, info entries: a few KB) is sent.
    """
    arrays = {
        path: np.frombuffer(raw, dtype=np.dtype(dtype), count=int(np.prod(shape)) * num_envs, offset=offset).reshape(num_envs, *shape)
        for path, (raw, shape, dtype, offset) in shared.items()
    }
    host: ShardHost | None = None
    try:
        host = ShardHost(num_envs, autoreset_mode, env_kwargs, arrays, with_arrays=False)
        conn.send((True, host.describe()))
    except Exception as exc:
        conn.send((False, (portable_exception(exc), traceback.format_exc(limit=12))))
        conn.close()
        return
    parent = os.getppid()
    try:
        while True:
            if bell is not None:
                _wait_for_bell(bell, conn, parent)
            command, payload = conn.recv()
            if command == "close":
                host.close()
                conn.send((True, None))
                break
            try:
                result = getattr(host, command)(*payload)
                conn.send((True, result))
            except Exception as exc:
                conn.send((False, (portable_exception(exc), traceback.format_exc(limit=12))))
    except (EOFError, KeyboardInterrupt, BrokenPipeError):
        pass
    finally:
        with contextlib.suppress(Exception):
            host.close()
        conn.close()
        if bell is not None:
            with contextlib.suppress(OSError):
                os.close(bell)


def _wait_for_bell(bell: int, conn: Connection, parent: int | None = None) -> None:
    """Block until the parent rings ``bell`` (an eventfd) after sending a request down ``conn``.

    Why not just block in ``conn.recv()``: a pipe's writer wakes its reader as a *sync* wakeup, a
    hint that the writer is about to sleep, so Linux queues the worker on the parent's core, and
    there it waits until the parent blocks, while the other core idles. The parent does not
    sleep; it steps its own shard. An eventfd's wakeup carries no such hint and the worker starts
    on an idle core at once.

    Checked every second: a message that came without its bell, the pipe at EOF, or a parent
    process (pid ``parent``) that is gone; a pipe's end that another forked worker inherited
    would otherwise keep a worker of a killed parent waiting forever.

    Raises:
        EOFError: the parent process is gone.
    """
    poller = select.poll()
    poller.register(bell, select.POLLIN)
    while not poller.poll(1000):
        if conn.poll(0):  # a message without its bell yet, or EOF: conn.recv() takes it from here
            return
        if parent is not None and os.getppid() != parent:
            raise EOFError("the parent process is gone")
    with contextlib.suppress(BlockingIOError):
        os.eventfd_read(bell)


def _new_bell(context: str) -> int | None:
    """An eventfd the parent rings after each request (see :func:`_wait_for_bell`), where a
    forked worker can inherit it; ``None`` elsewhere (the worker then waits in ``conn.recv()``)."""
    if context != "fork" or not hasattr(os, "eventfd"):
        return None
    return os.eventfd(0, os.EFD_CLOEXEC | os.EFD_NONBLOCK)


def per_env_values(values: list[Any] | tuple[Any, ...] | object, num_envs: int) -> list[Any]:
    """``set_attr``'s values, one per env (a single value is given to every env), as gymnasium's
    vector envs take them."""
    if not isinstance(values, list | tuple):
        return [values] * num_envs
    if len(values) != num_envs:
        raise ValueError(
            f"Values must be a list or tuple with length equal to the number of environments. "
            f"Got {len(values)} values for {num_envs} environments."
        )
    return list(values)


def shard_sizes(num_envs: int, num_shards: int) -> list[int]:
    """``num_envs`` split into ``num_shards`` contiguous shards as even as can be (larger first)."""
    base, extra = divmod(num_envs, num_shards)
    return [base + (1 if k < extra else 0) for k in range(num_shards)]


def _check_batch(actions: Any, num_envs: int) -> None:
    """Refuse a malformed batch of actions before any shard acts (as :func:`split_actions` would)."""
    if isinstance(actions, Mapping):
        codes, labels, texts = actions["code"], actions["label"], actions["text"]
        if not (len(codes) == len(labels) == len(texts) == num_envs):
            raise ValueError(f"a batched action needs {num_envs} entries in code, label and text")
    elif isinstance(actions, str) or len(actions) != num_envs:
        raise ValueError(f"expected {num_envs} actions, got {actions!r}")


class ShardedVectorEnv(VectorEnv[Any, Any, Any]):
    """N envs spread over K shards, each a :class:`NativeVectorEnv`, stepped at the same time.

    With ``workers="process"`` this process steps shard 0 itself (``local_shard``: its time would
    otherwise go to waiting) while K-1 worker processes step the others, writing their rows of the
    batch arrays into shared memory; each batch step is one message to each worker and one answer
    back (text parts, rewards, ends and the per-env info entries, a few KB). The batch's infos are
    built here from all shards' entries, as a single-process env builds them.

    Args:
        num_envs: how many sub-envs in all.
        num_shards: how many shards (default: one per core, at most ``num_envs``).
        workers: ``"process"`` (worker processes on this machine, shared-memory batch arrays) or
            ``"ray"`` (Ray actors, on this machine or a cluster).
        autoreset_mode: gymnasium's autoreset mode.
        copy: return copies of the batched observation (see :class:`NativeVectorEnv`).
        local_shard: with ``"process"``, step shard 0 in this process (K-1 workers) rather than in
            a worker of its own (K workers; this process then only waits, free for other threads).
        context: the multiprocessing start method for ``"process"`` (default: the platform's).
        ray_address: the Ray cluster for ``"ray"`` (``None``: this process's Ray, or a local one).
        actor_options: Ray options for each actor (``num_cpus``, ``scheduling_strategy``, ...).
        wrap_env: the sub-env hook (see :class:`NativeVectorEnv`), run in each shard (so it
            pickles with ``workers="process"`` under ``spawn``, and with Ray).
        record, record_agent, record_metadata: record every sub-env's episodes into a dataset
            folder (see :class:`NativeVectorEnv`); each shard's process writes its own part.
        **env_kwargs: ``gym.make``'s options for every sub-env.

    Results equal a single-process :class:`NativeVectorEnv`'s with the same seeds (a test holds
    them together): env ``i`` of shard ``k`` is env ``offset_k + i`` of the batch.
    """

    def __init__(
        self,
        num_envs: int = 1,
        *,
        num_shards: int | None = None,
        workers: str = "process",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        copy: bool = False,
        local_shard: bool = True,
        context: str | None = None,
        ray_address: str | None = None,
        actor_options: Mapping[str, Any] | None = None,
        wrap_env: WrapEnv | None = None,
        record: str | os.PathLike[str] | None = None,
        record_agent: str | None = None,
        record_metadata: Mapping[str, Any] | None = None,
        **env_kwargs: Any,
    ) -> None:
        if num_envs < 1:
            raise ConfigError(f"num_envs must be at least 1, got {num_envs}")
        if workers not in ("process", "ray"):
            raise ConfigError(f"workers must be 'process' or 'ray', got {workers!r}")
        shards = (
            num_shards
            if num_shards is not None
            else min(num_envs, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
        )
        if not 1 <= shards <= num_envs:
            raise ConfigError(f"num_shards must be between 1 and num_envs={num_envs}, got {shards}")
        self.autoreset_mode = autoreset_mode if isinstance(autoreset_mode, AutoresetMode) else AutoresetMode(autoreset_mode)
        self.copy = copy
        self.num_envs = num_envs
        self.workers = workers
        self.sizes = shard_sizes(num_envs, shards)
        self.offsets = [sum(self.sizes[:k]) for k in range(shards)]
        self._closed_workers = False
        #: Shard k's pipe and process (worker shards only; shard 0 is absent when it is local).
        self._conns: dict[int, Connection] = {}
        #: Shard k's doorbell (an eventfd rung after each request; see :func:`_wait_for_bell`).
        self._bells: dict[int, int] = {}
        self._shard_processes: dict[int, Any] = {}
        #: The worker processes, in shard order.
        self._processes: list[Any] = []
        self._actors: list[Any] = []
        self._local: NativeVectorEnv | None = None
        # The spaces come from one env built here (cheap: a phone is a few MB and ~1 ms).
        # (Wrapped as the shards wrap theirs: a wrapper may change the observation space.)
        probe: gym.Env[Any, Any] = _build_env(env_kwargs)
        if wrap_env is not None:
            probe = wrap_env(probe)
        space = probe.observation_space
        self.single_observation_space = space
        self.single_action_space = probe.action_space
        self.metadata = {**probe.metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = probe.render_mode
        probe.close()
        self.observation_space = batch_space(space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        assert isinstance(space, spaces.Dict)
        leaves = numeric_leaves(space)
        # The shards' options: the sub-envs' and, when recording, the recorders' (a folder as a
        # plain string, so that it pickles the same everywhere).
        shard_kwargs = dict(env_kwargs)
        if wrap_env is not None:
            shard_kwargs["wrap_env"] = wrap_env
        if record is not None:
            shard_kwargs.update(record=os.fspath(record), record_agent=record_agent, record_metadata=record_metadata)
        try:
            if workers == "process":
                self._arrays = self._start_processes(leaves, context, shard_kwargs, local_shard)
            else:
                self._arrays = allocate(space, num_envs)
                self._start_actors(ray_address, actor_options, shard_kwargs)
        except BaseException:
            self._shutdown(terminate=True)
            raise
        self.native = _native_space(space)
        # The native form's text parts land in one batch over the whole arrays, as in a
        # single-process env; other observations are merged from the shards' stripped ones.
        self._batch = _Batch(space, num_envs, self._arrays) if self.native else None
        self._texts: list[Any] = [None] * shards
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminations = np.zeros(num_envs, np.bool_)
        self._truncations = np.zeros(num_envs, np.bool_)

    # --- gymnasium API -----------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        seeds = _seeds(seed, self.num_envs)
        mask = _reset_mask(options, self.num_envs)
        requests: dict[int, tuple[str, tuple[Any, ...]]] = {}
        for k, (offset, size) in enumerate(zip(self.offsets, self.sizes, strict=True)):
            shard_options = options
            if mask is not None:
                part = mask[offset : offset + size]
                if not part.any():
                    continue
                shard_options = {**(options or {}), "reset_mask": part.copy()}
            requests[k] = ("reset", (seeds[offset : offset + size], shard_options))
        answers = self._run(requests)
        entries: list[tuple[int, dict[str, Any]]] = []
        for k in sorted(answers):
            payload, shard_entries = answers[k]
            self._take(k, payload)
            offset = self.offsets[k]
            entries.extend((offset + i, info) for i, info in shard_entries)
        return self._observation(), batch_infos(self, entries)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        _check_batch(actions, self.num_envs)
        parts: list[Any]
        if isinstance(actions, Mapping):
            # Slices of the batched arrays pickle far smaller than one dict per env.
            parts = [
                {key: actions[key][o : o + n] for key in ("code", "label", "text")} for o, n in zip(self.offsets, self.sizes, strict=True)
            ]
            # A worker's part travels as raw bytes: NumPy arrays pickle ~10x slower.
            local = self._local is not None
            parts = [part if k == 0 and local else {key: _pack(v) for key, v in part.items()} for k, part in enumerate(parts)]
        else:
            parts = [list(actions[o : o + n]) for o, n in zip(self.offsets, self.sizes, strict=True)]
        answers = self._run({k: ("step", (part,)) for k, part in enumerate(parts)})
        entries: list[tuple[int, dict[str, Any]]] = []
        for k in range(len(self.sizes)):
            payload, rewards, terminations, truncations, shard_entries = answers[k]
            self._take(k, payload)
            offset, size = self.offsets[k], self.sizes[k]
            self._rewards[offset : offset + size] = rewards
            self._terminations[offset : offset + size] = terminations
            self._truncations[offset : offset + size] = truncations
            entries.extend((offset + i, info) for i, info in shard_entries)
        return (
            self._observation(),
            self._rewards.copy(),
            self._terminations.copy(),
            self._truncations.copy(),
            batch_infos(self, entries),
        )

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        answers = self._run({k: ("call", (name, args, kwargs)) for k in range(len(self.sizes))})
        return tuple(value for k in range(len(self.sizes)) for value in answers[k])

    def get_attr(self, name: str) -> tuple[Any, ...]:
        return self.call(name)

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | object) -> None:
        values = per_env_values(values, self.num_envs)
        self._run({k: ("set_attr", (name, values[o : o + n])) for k, (o, n) in enumerate(zip(self.offsets, self.sizes, strict=True))})

    def close_extras(self, terminate: bool = False, **kwargs: Any) -> None:
        self._shutdown(terminate=terminate)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._shutdown(terminate=True)

    # --- workers -----------------------------------------------------------------------------

    def _start_processes(
        self,
        leaves: list[tuple[Path, tuple[int, ...], np.dtype[Any]]],
        context: str | None,
        env_kwargs: Mapping[str, Any],
        local_shard: bool,
    ) -> dict[Path, np.ndarray]:
        ctx = multiprocessing.get_context(context)
        raws: dict[Path, Any] = {}
        arrays: dict[Path, np.ndarray] = {}
        for path, shape, dtype in leaves:
            per_env = int(np.prod(shape)) * dtype.itemsize
            raw = ctx.RawArray("B", max(1, per_env * self.num_envs))
            raws[path] = raw
            arrays[path] = np.frombuffer(raw, dtype=dtype, count=int(np.prod(shape)) * self.num_envs).reshape(self.num_envs, *shape)
        for k, (offset, size) in enumerate(zip(self.offsets, self.sizes, strict=True)):
            if k == 0 and local_shard:
                continue
            shared = {path: (raws[path], shape, dtype.str, offset * int(np.prod(shape)) * dtype.itemsize) for path, shape, dtype in leaves}
            parent, child = ctx.Pipe()
            bell = _new_bell(ctx.get_start_method())
            if bell is not None:
                self._bells[k] = bell
            process = ctx.Process(  # type: ignore[attr-defined]
                target=_shard_worker,
                args=(child, size, self.autoreset_mode.value, dict(env_kwargs), shared, bell),
                daemon=True,
                name=f"cerebellum-shard-{k}",
            )
            process.start()
            child.close()
            self._conns[k] = parent
            self._shard_processes[k] = process
            self._processes.append(process)
        if local_shard:
            # Built while the workers build theirs; it writes straight into its rows of the batch.
            size = self.sizes[0]
            self._local = NativeVectorEnv(
                size, autoreset_mode=self.autoreset_mode, arrays={path: array[:size] for path, array in arrays.items()}, **env_kwargs
            )
        for k, conn in self._conns.items():
            ok, value = conn.recv()
            if not ok:
                raise self._remote_error(k, value)
        return arrays

    def _start_actors(self, address: str | None, actor_options: Mapping[str, Any] | None, env_kwargs: Mapping[str, Any]) -> None:
        from cerebellum_gym.vector.ray import import_ray

        ray = import_ray()
        if not ray.is_initialized():
            ray.init(address=address, include_dashboard=False)
        remote = ray.remote(ShardHost)
        options = {"num_cpus": 1, **dict(actor_options or {})}
        self._actors = [remote.options(**options).remote(size, self.autoreset_mode.value, dict(env_kwargs)) for size in self.sizes]
        ray.get([actor.describe.remote() for actor in self._actors])

    def _run(self, requests: Mapping[int, tuple[str, tuple[Any, ...]]]) -> dict[int, Any]:
        """Each shard's answer to its request; the workers work while the local shard does."""
        if self._closed_workers:
            raise CerebellumError("the vector env is closed")
        if self.workers == "ray":
            from cerebellum_gym.vector.ray import import_ray

            ray = import_ray()
            refs = {k: getattr(self._actors[k], command).remote(*payload) for k, (command, payload) in requests.items()}
            return dict(zip(refs, ray.get(list(refs.values())), strict=True))
        answers: dict[int, Any] = {}
        error: BaseException | None = None
        sent: list[int] = []
        for k, request in requests.items():
            conn = self._conns.get(k)
            if conn is None:
                continue
            try:
                conn.send(request)
                bell = self._bells.get(k)
                if bell is not None:
                    os.eventfd_write(bell, 1)
            except OSError as exc:  # BrokenPipeError: the worker is gone
                error = error or self._lost(k, exc)
                break
            sent.append(k)
        local = self._local
        if local is not None and 0 in requests and error is None:
            command, payload = requests[0]
            try:
                answers[0] = self._local_answer(local, command, payload)
            except Exception as exc:
                error = exc
        # Every sent request is answered before anything is raised, so that the pipes stay in step.
        for k in sent:
            try:
                ok, value = self._conns[k].recv()
            except (EOFError, OSError) as exc:
                error = error or self._lost(k, exc)
                continue
            if ok:
                answers[k] = value
            elif error is None:
                error = self._remote_error(k, value)
        if error is not None:
            raise error
        return answers

    @staticmethod
    def _local_answer(env: NativeVectorEnv, command: str, payload: tuple[Any, ...]) -> Any:
        """The local shard's answer, in the form a worker's :class:`ShardHost` gives it."""
        if command == "step":
            entries = env.step_entries(payload[0])
            return _texts(env), env._rewards, env._terminations, env._truncations, entries
        if command == "reset":
            entries = env.reset_entries(*payload)
            return _texts(env), entries
        if command == "call":
            name, args, kwargs = payload
            return env.call(name, *args, **kwargs)
        if command == "set_attr":
            return env.set_attr(*payload)
        raise ValueError(f"unknown shard command {command!r}")

    def _lost(self, k: int, exc: BaseException) -> DeviceLostError:
        error = DeviceLostError(f"shard {k}'s worker process died (exit code {self._shard_processes[k].exitcode})")
        error.__cause__ = exc
        return error

    @staticmethod
    def _remote_error(k: int, value: tuple[BaseException, str]) -> BaseException:
        exc, trace = value
        exc.add_note(f"in shard {k}:\n{trace}")
        return exc

    def _shutdown(self, terminate: bool) -> None:
        if self._closed_workers:
            return
        self._closed_workers = True
        for k, conn in self._conns.items():
            with contextlib.suppress(Exception):
                conn.send(("close", ()))
            with contextlib.suppress(Exception):
                os.eventfd_write(self._bells[k], 1)
        if self._local is not None:
            with contextlib.suppress(Exception):
                self._local.close()
        for conn in self._conns.values():
            with contextlib.suppress(Exception):
                if conn.poll(5.0):
                    conn.recv()
            with contextlib.suppress(Exception):
                conn.close()
        for process in self._processes:
            process.join(timeout=5.0)
            if process.is_alive():
                process.terminate()
                process.join(timeout=1.0)
        for bell in self._bells.values():
            with contextlib.suppress(OSError):
                os.close(bell)
        if self._actors:
            from cerebellum_gym.vector.ray import import_ray

            ray = import_ray()
            for actor in self._actors:
                with contextlib.suppress(Exception):
                    ray.get(actor.close.remote(), timeout=5.0)
                with contextlib.suppress(Exception):
                    ray.kill(actor)

    # --- merging -----------------------------------------------------------------------------

    def _take(self, k: int, payload: Payload) -> None:
        """Keep shard ``k``'s text parts; arrays that came with them (Ray) go into the batch arrays."""
        texts, arrays = payload
        offset, size = self.offsets[k], self.sizes[k]
        if arrays is not None:
            for path, array in self._arrays.items():
                array[offset : offset + size] = arrays[path]
        batch = self._batch
        if batch is None:
            self._texts[k] = texts
            return
        end = offset + size
        goal, tree, labels, history_actions, history_subtrees = texts
        batch.goal[offset:end] = goal
        batch.tree[offset:end] = tree
        batch.labels[offset:end] = labels
        batch.history_actions[offset:end] = history_actions
        batch.history_subtrees[offset:end] = history_subtrees

    def _observation(self) -> Any:
        batch = self._batch
        obs = batch.observation() if batch is not None else self._merge(self.single_observation_space, list(self._texts), ())
        return copy_module.deepcopy(obs) if self.copy else obs

    def _merge(self, space: spaces.Space[Any], parts: list[Any], path: Path) -> Any:
        if isinstance(space, spaces.Dict):
            return {key: self._merge(sub, [p[key] for p in parts], (*path, key)) for key, sub in space.spaces.items()}
        if path in self._arrays:
            return self._arrays[path]
        if isinstance(space, spaces.Tuple):
            return tuple(self._merge(sub, [p[j] for p in parts], (*path, str(j))) for j, sub in enumerate(space.spaces))
        merged: list[Any] = []
        for part in parts:
            merged.extend(part)
        return tuple(merged)


def make_native_vec(
    num_envs: int = 1,
    *,
    shards: int = 1,
    workers: str = "process",
    autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
    copy: bool = False,
    local_shard: bool = True,
    **env_kwargs: Any,
) -> VectorEnv[Any, Any, Any]:
    """The ``vector_entry_point`` of ``Cerebellum-Sim-v0``: a :class:`NativeVectorEnv`, or with
    ``shards > 1`` (or ``workers="ray"``) a :class:`ShardedVectorEnv` of that many shards
    (``local_shard``: see there)."""
    if shards == 1 and workers == "process":
        return NativeVectorEnv(num_envs, autoreset_mode=autoreset_mode, copy=copy, **env_kwargs)
    return ShardedVectorEnv(
        num_envs, num_shards=shards, workers=workers, autoreset_mode=autoreset_mode, copy=copy, local_shard=local_shard, **env_kwargs
    )


__all__ = [
    "NativeVectorEnv",
    "ShardHost",
    "ShardedVectorEnv",
    "allocate",
    "make_native_vec",
    "numeric_leaves",
    "shard_sizes",
    "split_actions",
    "sub_env_wrapper",
]
