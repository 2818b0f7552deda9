"""Native batched vector envs for in-process devices (the simulator): no per-env dicts, no copies.

:class:`NativeVectorEnv` steps N envs in one process. Each sub-env writes its observation straight
into preallocated batch arrays (its rows of ``screenshot``, ``history.screenshots``, the masks)
instead of assembling a dict of fresh arrays that a vector env would then copy again; the text
parts are gathered into the batch's tuples. Same seeds give the same observations, rewards and
infos as gymnasium's ``SyncVectorEnv`` over the same envs, bit for bit (a test holds them
together), and autoreset follows gymnasium's modes (``NEXT_STEP``, ``SAME_STEP``, ``DISABLED``).

The sharded form, over K shards in worker processes or Ray actors, is in
:mod:`cerebellum_gym.vector.shards`; ``gym.make_vec("Cerebellum-Sim-v0", num_envs=N)`` builds
either (the id's ``vector_entry_point``, gymnasium's default mode when an id has one);
``shards=K`` asks for the sharded form.

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
import os
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array

from cerebellum_gym.core.actions import decode_batch
from cerebellum_gym.core.observation import ObservationConfig, fresh_observation, is_parts, stack_frames
from cerebellum_gym.env import CerebellumEnv
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.vector.rules import autoreset_mode as as_autoreset_mode
from cerebellum_gym.vector.rules import batch_infos, check_num_envs, per_env_options, per_env_values, pop_reset_mask, seeds, split_actions

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
    """A batch's observation storage: arrays (possibly in shared memory) and per-env text parts,
    both laid out by the sub-envs' key table (:attr:`ObservationConfig.fields`).

    Args:
        config: the sub-envs' observation config (its key table, label slots, history length).
        space: their observation space (its key order is the batch's).
        num_envs: rows.
        arrays: the batch arrays, as :func:`allocate` makes them from ``space``.
    """

    def __init__(self, config: ObservationConfig, space: spaces.Dict, num_envs: int, arrays: Mapping[Path, np.ndarray]) -> None:
        self.space = space
        self.history_len = config.history_len
        self.arrays = dict(arrays)
        fields = [(position, field) for position, field in enumerate(config.fields) if field.key in space.spaces]
        #: Per text field (position in the parts, key): each env's value.
        self.texts: dict[str, list[Any]] = {f.key: [""] * num_envs for _, f in fields if f.kind == "text"}
        self._text_at = [(i, f.key) for i, f in fields if f.kind == "text"]
        # The masks are gathered per env and written for the whole batch at once by flush()
        # (one NumPy call per mask instead of one row write per env).
        self.masks: dict[str, list[np.ndarray]] = {}
        self._mask_out: list[tuple[list[np.ndarray], np.ndarray]] = []
        for _, f in fields:
            if f.kind == "mask":
                out = self.arrays[(f.key,)]
                gathered = self.masks[f.key] = [np.zeros_like(out[0])] * num_envs
                self._mask_out.append((gathered, out.reshape(-1) if out.flags.c_contiguous else out))
        self._mask_at = [(i, self.masks[f.key]) for i, f in fields if f.kind == "mask"]
        self._images = [(i, f.key, self.arrays.get((f.key,))) for i, f in fields if f.kind == "image"]
        self._history_at = [i for i, f in fields if f.kind == "history"]
        self.history_key = next((f.key for _, f in fields if f.kind == "history"), "history")
        self.history_actions: list[tuple[str, ...]] = [()] * num_envs
        self.history_subtrees: list[tuple[str, ...]] = [()] * num_envs
        self.history_mask = self.arrays.get((self.history_key, "mask"))
        self.history_screens = self.arrays.get((self.history_key, "screenshots"))
        # Row f: the history mask with f frames held (padding first).
        length = config.history_len
        self.history_rows = np.tril(np.ones((length + 1, length), np.int8), -1)[:, ::-1].copy()
        self.history_filled: list[int] = [0] * num_envs

    def write(self, i: int, parts: tuple[Any, ...]) -> None:
        """Env ``i``'s observation parts into its rows (the masks are gathered for :meth:`flush`)."""
        for position, key in self._text_at:
            self.texts[key][i] = parts[position]
        for position, gathered in self._mask_at:
            gathered[i] = parts[position]
        for position in self._history_at:
            past = parts[position]
            self.history_filled[i] = past.filled
            self.history_actions[i], self.history_subtrees[i] = past.actions, past.subtrees
            if self.history_screens is not None:
                stack_frames(past.frames, self.history_screens[i])
        for position, _, out in self._images:
            if out is not None:
                out[i] = parts[position]

    def write_observation(self, i: int, obs: Mapping[str, Any]) -> None:
        """Env ``i``'s observation dict (a sub-env wrapper's, of the env's own space) into its rows."""
        for _, key in self._text_at:
            self.texts[key][i] = obs[key]
        for key, gathered in self.masks.items():
            gathered[i] = obs[key]
        if self._history_at:
            past = obs[self.history_key]
            self.history_filled[i] = int(np.count_nonzero(past["mask"]))
            self.history_actions[i], self.history_subtrees[i] = tuple(past["actions"]), tuple(past["subtrees"])
            if self.history_screens is not None:
                self.history_screens[i] = past["screenshots"]
        for _, key, out in self._images:
            if out is not None:
                out[i] = obs[key]

    def flush(self) -> None:
        """Write the gathered masks into the batch arrays (after the envs wrote their parts)."""
        for gathered, out in self._mask_out:
            if out.ndim == 1:
                np.concatenate(gathered, out=out)
            else:
                for i, mask in enumerate(gathered):
                    out[i] = mask
        if self.history_mask is not None:
            # The ndarray method: np.take's Python-level dispatch costs more than the copy here.
            self.history_rows.take(self.history_filled, axis=0, out=self.history_mask)

    def text_parts(self) -> tuple[list[Any], ...]:
        """The batch's text parts, per env: each text field's (in table order), then the
        history's actions and subtrees (the batch's own lists)."""
        return (*self.texts.values(), self.history_actions, self.history_subtrees)

    def take_text_parts(self, start: int, end: int, parts: Sequence[list[Any]]) -> None:
        """Rows ``start:end``'s text parts, as another batch's :meth:`text_parts` gave them (a shard's)."""
        *texts, actions, subtrees = parts
        for values, got in zip(self.texts.values(), texts, strict=True):
            values[start:end] = got
        self.history_actions[start:end] = actions
        self.history_subtrees[start:end] = subtrees

    def observation(self) -> dict[str, Any]:
        """The batched observation, in the space's key order (the arrays are the storage itself)."""
        history_len = self.history_len
        values: dict[str, Any] = {key: tuple(texts) for key, texts in self.texts.items()}
        if self._history_at:
            history: dict[str, Any] = {}
            for key in self.space[self.history_key].spaces:  # type: ignore[attr-defined]
                if key == "actions":
                    history[key] = tuple(zip(*self.history_actions, strict=True)) if history_len else ()
                elif key == "subtrees":
                    history[key] = tuple(zip(*self.history_subtrees, strict=True)) if history_len else ()
                else:
                    history[key] = self.arrays[(self.history_key, key)]
            values[self.history_key] = history
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


def decode_actions(actions: Any, envs: Sequence[CerebellumEnv]) -> Sequence[Any]:
    """One action per env, as :func:`split_actions` gives them, with the batched structured form's
    actions that cannot be refused already decoded (:func:`~cerebellum_gym.core.actions.decode_batch`,
    the env's own decoder, cached).

    Everything else (typing, anything malformed or illegal) stays a per-env mapping for the env
    to decode, check and refuse itself, so that its infos are exactly those of a plain env.
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
    screens = [env.screen for env in envs]
    decoded = decode_batch(codes.tolist(), slots.tolist(), texts, [s.labels if s is not None else None for s in screens])
    return [action if action is not None else {"code": codes[i], "label": slots[i], "text": texts[i]} for i, action in enumerate(decoded)]


class StepEntries(NamedTuple):
    """A batch step's results, per env, without the batch's infos (what a shard answers with):
    rewards, terminations and truncations as Python values, and the ``(index, info)`` entries
    that make the batch's infos (:func:`~cerebellum_gym.vector.rules.batch_infos`)."""

    rewards: list[float]
    terminations: list[bool]
    truncations: list[bool]
    entries: list[tuple[int, dict[str, Any]]]


def speaks_parts(env: Any) -> bool:
    """Whether ``env`` (a sub-env, or a wrapper around one) has ``reset_parts``/``step_parts``:
    :class:`~cerebellum_gym.env.CerebellumEnv` and the dataset recorder do. Other wrappers are
    stepped through ``reset``/``step``, whose observations are elements of the env's space."""
    own = callable(getattr(env, "step_parts", None)) and callable(getattr(env, "reset_parts", None))
    # A wrapper that speaks parts asks the env it wraps for them: that one must speak them too.
    return own and (not isinstance(env, gym.Wrapper) or speaks_parts(env.env))


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
            env's observation space is the env's own, the batch writes its rows: from the env's
            :class:`~cerebellum_gym.core.observation.ObservationParts` when the outermost
            wrapper speaks parts (:func:`speaks_parts`: the env itself, the dataset recorder),
            else from the observation dicts the wrapper returns; a wrapper that changes the
            space makes the batch concatenate what it returns (gymnasium's ``concatenate``).
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
        check_num_envs(num_envs)
        self.autoreset_mode = as_autoreset_mode(autoreset_mode)
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
        #: The batch arrays by path (a shard's are views of shared memory).
        self.arrays: dict[Path, np.ndarray] = dict(arrays)
        # The batch writes its rows from the sub-envs' observation parts; an observation it
        # does not know falls back to per-env dicts and gymnasium's concatenation (slower, still correct).
        config = getattr(self.envs[0].unwrapped, "observation_config", None)
        self.native = isinstance(config, ObservationConfig) and native_space(space, config)
        if self.native:
            assert config is not None
            self._batch: _Batch | None = _Batch(config, space, num_envs, self.arrays)
        else:
            self._batch = None
            self._env_obs: list[Any] = [None] * num_envs
            self._out = self._generic_storage(space)
        # Each stepper's reset and step: the parts-speaking ones give the batch their parts
        # (no copies); the others, and every stepper of a batch that concatenates, their dicts.
        parts = self.native and all(speaks_parts(env) for env in self._steppers)
        self._resets: list[Callable[..., Any]] = [env.reset_parts if parts else env.reset for env in self._steppers]
        self._step_fns: list[Callable[[Any], Any]] = [env.step_parts if parts else env.step for env in self._steppers]
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminations = np.zeros(num_envs, np.bool_)
        self._truncations = np.zeros(num_envs, np.bool_)
        self._autoreset_envs = np.zeros(num_envs, np.bool_)

    # --- gymnasium API -----------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        entries = self.reset_entries(seeds(seed, self.num_envs), options)
        return self.batch_observation(), self._infos(entries)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        entries = self.step_entries(actions).entries
        return self.batch_observation(), self._rewards.copy(), self._terminations.copy(), self._truncations.copy(), self._infos(entries)

    # --- the batch step without the batch's infos (a shard answers with these) ----------------

    def reset_entries(self, seeds: Sequence[int | None], options: dict[str, Any] | None) -> list[tuple[int, dict[str, Any]]]:
        """Reset the envs (those of ``options["reset_mask"]``, or all) into the batch arrays;
        returns each reset env's ``(index, info)`` in env order."""
        mask = pop_reset_mask(options, self.num_envs)
        if mask is None:
            mask = np.ones(self.num_envs, np.bool_)
        self._terminations[mask] = False
        self._truncations[mask] = False
        self._autoreset_envs[mask] = False
        entries: list[tuple[int, dict[str, Any]]] = []
        per_env = per_env_options(options, self.num_envs)
        for i, reset in enumerate(self._resets):
            if mask[i]:
                obs, info = reset(seed=seeds[i], options=per_env[i])
                self._keep(i, obs)
                entries.append((i, info))
        if self._batch is not None:
            self._batch.flush()
        return entries

    def step_entries(self, actions: Any) -> StepEntries:
        """Step every env into the batch arrays; returns the step's per-env results."""
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
        resets = self._resets
        for i, step in enumerate(self._step_fns):
            if next_step and pending[i]:
                obs, info = resets[i]()
            else:
                if disabled:
                    assert not pending[i], f"{self._autoreset_envs=}"
                obs, reward, terminated, truncated, info = step(per_env[i])
                rewards[i], terminations[i], truncations[i] = reward, terminated, truncated
                if same_step and (terminated or truncated):
                    final = fresh_observation(obs) if is_parts(obs) else obs
                    entries.append((i, {"final_obs": final, "final_info": info}))
                    obs, info = resets[i]()
            keep(i, obs)
            entries.append((i, info))
        self._rewards[:] = rewards
        self._terminations[:] = terminations
        self._truncations[:] = truncations
        np.logical_or(self._terminations, self._truncations, out=self._autoreset_envs)
        if self._batch is not None:
            self._batch.flush()
        return StepEntries(rewards, terminations, truncations, entries)

    def text_parts(self) -> tuple[list[Any], ...]:
        """The batch's text parts, per env: each text field's (goals, trees, labels), then the
        history's actions and subtrees (the batch's own lists; the native form only)."""
        batch = self._batch
        assert batch is not None
        return batch.text_parts()

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
        elif is_parts(obs):
            batch.write(i, obs)
        elif isinstance(obs, Mapping):
            batch.write_observation(i, obs)
        else:
            raise CerebellumError(
                f"sub-env {i} returned a {type(obs).__name__}, not an element of its observation space: "
                "a sub-env wrapper that changes observations must declare the observation_space it returns"
            )

    def batch_observation(self) -> Any:
        """The batched observation of the last ``reset``/``step`` (the batch's storage unless ``copy``)."""
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
            return self.arrays.get(path, node)

        return swap(out, ())


def native_space(space: spaces.Space[Any], config: ObservationConfig) -> bool:
    """Whether the batch writes rows for this observation space from the sub-envs' parts: the
    space is the config's own (a sub-env wrapper that grew or changed a field makes the batch
    concatenate per-env dicts instead)."""
    return space == config.space()


__all__ = [
    "NativeVectorEnv",
    "WrapEnv",
    "allocate",
    "decode_actions",
    "native_space",
    "numeric_leaves",
    "speaks_parts",
    "sub_env_wrapper",
]
