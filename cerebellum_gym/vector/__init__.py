"""Vector envs: the one place where sync, async and Ray vectorization is chosen.

:func:`vectorize` turns env functions into a vector env; :func:`make_vec` does it for a
registered id. The evaluation harness, the benchmarks and users call these, so every part of the
project means the same thing by ``vectorization="async"``.

- ``sync``: every sub-env in this process (gymnasium's ``SyncVectorEnv``).
- ``async``: a process per sub-env (gymnasium's ``AsyncVectorEnv`` with ``shared_memory=False``:
  observations travel pickled).
- ``ray``: sub-envs in Ray actors, on this machine or a cluster (:class:`RayVectorEnv`).
- ``native`` (:func:`make_vec` only, for the simulator): the native batched env of
  :mod:`cerebellum_gym.vector.native` (also ``gym.make_vec``'s default for ``Cerebellum-Sim-v0``);
  ``shards=K`` spreads it over K processes (this one steps a shard, K-1 workers the rest).
- emulators: ``Cerebellum-Adb-v0`` and ``Cerebellum-AndroidWorld-v0`` with ``emulators=`` (pool
  options) or ``pool=`` give each sub-env its own emulator, checked and restarted between
  episodes, in any of sync, async and ray (:mod:`cerebellum_gym.vector.emulators`, their
  ``vector_entry_point``).
- ``auto``: ``sync`` for one env, and for in-process envs (the simulator) on a machine of two
  cores or fewer, where pipes to worker processes cost more than a sub-millisecond step; ``async``
  otherwise (devices with I/O latency gain from processes). ``auto`` never picks Ray: it starts or
  joins a cluster, which is no default to impose.

Example:
    >>> from cerebellum_gym.vector import make_vec
    >>> envs = make_vec("Cerebellum-Sim-v0", 2, vectorization="sync", task="SystemWifiTurnOn", pixels=False)
    >>> envs.num_envs, type(envs).__name__
    (2, 'SyncVectorEnv')
    >>> envs.close()
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Final

import gymnasium as gym
from gymnasium.vector import AutoresetMode, VectorEnv

from cerebellum_gym.errors import ConfigError
from cerebellum_gym.loader import backend_name, env_backend
from cerebellum_gym.vector.ray import LostEnvHandler, RayEnvLostError, RayVectorEnv, truncate_lost_env

#: The vectorization modes :func:`vectorize` accepts.
VECTORIZATION_MODES: Final = ("auto", "sync", "async", "ray")

EnvFn = Callable[[], gym.Env[Any, Any]]


def resolve_vectorization(vectorization: str, num_envs: int, *, in_process: bool = False) -> str:
    """The concrete mode ``auto`` stands for (other modes are returned as they are).

    Args:
        vectorization: a mode of :data:`VECTORIZATION_MODES`.
        num_envs: how many sub-envs.
        in_process: the sub-envs step in this process with no I/O (the simulator).

    Raises:
        ConfigError: an unknown mode.
    """
    if vectorization not in VECTORIZATION_MODES:
        raise ConfigError(f"vectorization must be one of {', '.join(VECTORIZATION_MODES)}, got {vectorization!r}")
    if vectorization != "auto":
        return vectorization
    if num_envs == 1 or (in_process and (os.cpu_count() or 1) <= 2):
        return "sync"
    return "async"


def choose_vectorization(
    env_id: str, num_envs: int, vectorization: str = "auto", env_kwargs: Mapping[str, Any] | None = None, *, native: bool = True
) -> str:
    """The one ``auto`` rule, for an env id: the native batched env where the id's backend has
    one (``native``: the caller takes it), else :func:`resolve_vectorization` with the backend's
    ``in_process`` (the backend asked of :func:`~cerebellum_gym.loader.env_backend`). Other
    modes are checked and returned as they are.

    Example:
        >>> choose_vectorization("Cerebellum-Sim-v0", 4), choose_vectorization("Cerebellum-Sim-v0", 1, native=False)
        ('native', 'sync')

    Raises:
        ConfigError: an unknown mode.
    """
    if vectorization == "native":
        return vectorization
    record = env_backend(env_id, env_kwargs)
    if vectorization == "auto" and native and record is not None and record.in_process and record.vector_entry_point:
        return "native"
    return resolve_vectorization(vectorization, num_envs, in_process=record is not None and record.in_process)


def vectorize(
    env_fns: Sequence[EnvFn],
    vectorization: str = "auto",
    *,
    in_process: bool = False,
    autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
    ray_address: str | None = None,
    on_env_lost: str | LostEnvHandler = "raise",
) -> VectorEnv[Any, Any, Any]:
    """A vector env over ``env_fns`` in the given mode.

    Args:
        env_fns: functions that build the sub-envs (module-level or ``functools.partial`` of
            them, so that ``async`` and ``ray`` can pickle them).
        vectorization: ``auto``, ``sync``, ``async`` or ``ray`` (see the module docstring).
        in_process: the sub-envs are in-process simulators (a hint for ``auto``).
        autoreset_mode: gymnasium's autoreset mode (``DISABLED`` for harnesses that reset slots themselves).
        ray_address: the Ray cluster for ``ray`` (``None``: this process's Ray, or a local one).
        on_env_lost: for ``ray``, what a lost actor's envs return (see :class:`RayVectorEnv`).

    Raises:
        ConfigError: an unknown mode or no env functions.
    """
    if not env_fns:
        raise ConfigError("vectorize needs at least one env function")
    mode = resolve_vectorization(vectorization, len(env_fns), in_process=in_process)
    if mode == "ray":
        return RayVectorEnv(env_fns, address=ray_address, autoreset_mode=autoreset_mode, on_env_lost=on_env_lost)
    if mode == "sync":
        return gym.vector.SyncVectorEnv(env_fns, autoreset_mode=autoreset_mode)
    return gym.vector.AsyncVectorEnv(env_fns, shared_memory=False, autoreset_mode=autoreset_mode)


def make_vec(
    env_id: str,
    num_envs: int,
    vectorization: str = "auto",
    *,
    autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
    ray_address: str | None = None,
    **env_kwargs: Any,
) -> VectorEnv[Any, Any, Any]:
    """``num_envs`` copies of ``gym.make(env_id, **env_kwargs)`` vectorized by :func:`vectorize`,
    or with ``vectorization="native"`` the id's native batched env (``env_kwargs`` may then carry
    ``shards``)."""
    if num_envs < 1:
        raise ConfigError(f"num_envs must be at least 1, got {num_envs}")
    if vectorization == "native":
        # Only an in-process device has a native batched env (the device ids' entry point gives
        # each sub-env an emulator).
        record = env_backend(env_id)
        if record is None or not record.in_process:
            raise ConfigError(f"{env_id} has no native vector env; use sync, async or ray")
        envs: VectorEnv[Any, Any, Any] = gym.make_vec(
            env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", autoreset_mode=autoreset_mode, **env_kwargs
        )
        return envs
    if env_kwargs.get("emulators") is not None or env_kwargs.get("pool") is not None:
        # One emulator per sub-env, from a pool (cerebellum_gym.vector.emulators).
        from cerebellum_gym.vector.emulators import make_emulator_vec

        backend = backend_name(env_id, env_kwargs) or ""
        env_kwargs.pop("backend", None)
        return make_emulator_vec(
            num_envs, backend=backend, vectorization=vectorization, autoreset_mode=autoreset_mode, ray_address=ray_address, **env_kwargs
        )
    fns = [partial(gym.make, env_id, **env_kwargs) for _ in range(num_envs)]
    record = env_backend(env_id, env_kwargs)
    in_process = record is not None and record.in_process
    return vectorize(fns, vectorization, in_process=in_process, autoreset_mode=autoreset_mode, ray_address=ray_address)


__all__ = [
    "VECTORIZATION_MODES",
    "EnvFn",
    "LostEnvHandler",
    "RayEnvLostError",
    "RayVectorEnv",
    "choose_vectorization",
    "make_vec",
    "resolve_vectorization",
    "truncate_lost_env",
    "vectorize",
]
