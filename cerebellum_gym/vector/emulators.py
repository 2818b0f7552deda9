"""Vector envs over an emulator pool: each sub-env its own emulator, checked between episodes.

``gym.make_vec("Cerebellum-AndroidWorld-v0", num_envs=N, emulators={...})`` (and the same for
``Cerebellum-Adb-v0``) calls :func:`make_emulator_vec`, the ``vector_entry_point`` of both ids:

- ``emulators={"avd": NAME, ...}``: :class:`~cerebellum_gym.devices.emulators.EmulatorPool`
  options (``avd``, ``sdk``, ``snapshot``, ``recycle_after``, ``boot_timeout``, ...; not ``num``,
  which is one emulator per sub-env). The vector env starts the pool and closes it with itself.
  Where the pool lives follows ``vectorization``:

  - ``sync`` (the default): one pool of N emulators in this process;
  - ``async``: each worker process starts the pool of its one emulator (console ports spread from
    ``base_port``: worker ``i`` from ``base_port + 2 i``); the machine's capacity for N is checked
    here first;
  - ``ray``: each Ray actor starts a pool of the emulators of its sub-envs (``envs_per_actor``)
    on the machine Ray placed it, and closes it with itself (actor ``a`` takes console ports from
    ``base_port + 2 * envs_per_actor * a``, so actors sharing a machine do not collide). Give the
    actors the resources their emulators take (``actor_options={"num_cpus": K, "memory": K * 2 *
    1024**3}``) so that Ray puts on a node only as many as it holds.

- ``pool=EmulatorPool(...)``: a pool the caller made (and keeps, and closes); ``sync`` only, since
  its emulators' processes belong to this process.

- neither: what ``gym.make_vec`` did before this entry point existed, a ``SyncVectorEnv`` of
  ``gym.make`` copies (``vectorization="async"`` or ``"ray"`` also work, as in
  :func:`cerebellum_gym.vector.vectorize`).

Each sub-env is a :class:`PooledEnv`, a wrapper that keeps its emulator healthy: before every
reset after an episode it calls the pool's
:meth:`~cerebellum_gym.devices.emulators.EmulatorPool.between_episodes` (health check, restart,
recycling). An emulator that dies mid-episode is an infra fault: the env ends that episode
truncated with ``info["infra_error"]`` (as :class:`~cerebellum_gym.env.CerebellumEnv` does for any
device fault), the next reset restarts the emulator on the same ports, builds the sub-env afresh
over it and starts the episode there. Reset infos carry ``info["emulator"]`` (the serial) and,
after a restart, ``info["emulator_restart"]`` (why). ``envs.call("emulator")`` gives each
sub-env's emulator report (ports, state, restarts, faults).

The tests drive ``Cerebellum-Adb-v0`` over stand-in emulators (no emulator runs on the test
machines); ``Cerebellum-AndroidWorld-v0`` takes the same path with AndroidWorld's launcher in each
sub-env, which talks gRPC to a real emulator (the stand-in serves none). See ``docs/androidworld.md``.
"""

from __future__ import annotations

import contextlib
import threading
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final

import gymnasium as gym
from gymnasium.vector import AutoresetMode, VectorEnv

from cerebellum_gym.devices.emulators import (
    DEFAULT_CONSOLE_PORT,
    DEFAULT_GRPC_PORT,
    EMULATOR_CORES,
    EMULATOR_MEMORY_MB,
    EmulatorBackend,
    EmulatorCapacityError,
    EmulatorPool,
    capacity_problems,
)
from cerebellum_gym.errors import CerebellumError, ConfigError, InfraError
from cerebellum_gym.loader import BACKENDS

#: The env id of each backend that runs on emulators (from the loader's backend records).
EMULATOR_ENV_IDS: Final[dict[str, str]] = {name: record.env_id for name, record in BACKENDS.items() if record.emulators}

BuildEnv = Callable[[dict[str, Any]], gym.Env[Any, Any]]
"""Builds a sub-env from its emulator's ``device_options``."""


# --- pools by process ------------------------------------------------------------------------------
# A sub-env finds its pool here by key, in whatever process it was built (this one, an async worker,
# a Ray actor): the sub-envs of one group share the pool the first of them started.


@dataclass(frozen=True)
class PoolLease:
    """Which pool a sub-env uses (it pickles: it travels to async workers and Ray actors).

    Attributes:
        key: the pool's name in its process.
        options: :class:`EmulatorPool` options to start it with where it is not there yet;
            ``None`` for a pool the caller registered in this process (:func:`register_pool`).
        size: how many emulators it has.
    """

    key: str
    options: Mapping[str, Any] | None
    size: int


@dataclass
class _Entry:
    pool: EmulatorPool
    owned: bool
    refs: int = 0
    #: emulator index -> whether its last episode met a device fault (present: not checked since).
    ran: dict[int, bool] = field(default_factory=dict)


_POOLS: dict[str, _Entry] = {}
_POOLS_LOCK = threading.RLock()


def register_pool(pool: EmulatorPool) -> PoolLease:
    """Make a caller's pool (started here if it is not yet) findable by sub-envs built in this
    process; the caller keeps it and closes it."""
    pool.start()
    key = f"given-{uuid.uuid4().hex}"
    with _POOLS_LOCK:
        _POOLS[key] = _Entry(pool, owned=False)
    return PoolLease(key, None, len(pool))


def unregister_pool(lease: PoolLease) -> None:
    """Forget a pool of :func:`register_pool` that no sub-env holds (an aborted construction)."""
    with _POOLS_LOCK:
        entry = _POOLS.get(lease.key)
        if entry is not None and entry.refs == 0 and not entry.owned:
            del _POOLS[lease.key]


def acquire(lease: PoolLease) -> EmulatorPool:
    """The pool of ``lease`` in this process, started on first use; hold it until :func:`release`."""
    with _POOLS_LOCK:
        entry = _POOLS.get(lease.key)
        if entry is None:
            if lease.options is None:
                raise CerebellumError(
                    "this sub-env's emulator pool lives in another process: a ready EmulatorPool works only with "
                    "vectorization='sync'; pass emulators={...options...} so that each worker starts its own"
                )
            pool = EmulatorPool(lease.size, **dict(lease.options))
            pool.start()
            entry = _Entry(pool, owned=True)
            _POOLS[lease.key] = entry
        entry.refs += 1
        return entry.pool


def release(lease: PoolLease) -> None:
    """Let go of a pool; the last holder of a pool started here shuts its emulators down."""
    with _POOLS_LOCK:
        entry = _POOLS.get(lease.key)
        if entry is None:
            return
        entry.refs -= 1
        if entry.refs > 0:
            return
        del _POOLS[lease.key]
    if entry.owned:
        entry.pool.close()


def _entry(lease: PoolLease) -> _Entry:
    with _POOLS_LOCK:
        entry = _POOLS.get(lease.key)
    if entry is None:
        raise CerebellumError(f"emulator pool {lease.key} is closed")
    return entry


# --- one sub-env -----------------------------------------------------------------------------------


class PooledEnv(gym.Wrapper[Any, Any, Any, Any]):
    """A sub-env on emulator ``index`` of a pool, checked (and restarted) between episodes.

    Args:
        lease: the pool (see :class:`PoolLease`).
        index: the emulator of the pool this env drives.
        backend: ``"adb"`` or ``"androidworld"``: which ``device_options`` the pool hands out.
        build: builds the env from the emulator's ``device_options``; called again after the
            emulator was restarted (the old connection is dead).
        hold: this env holds the pool (releases it when closed); ``False`` when a
            :class:`PooledFactory` holds it for a series of envs.
    """

    def __init__(self, lease: PoolLease, index: int, backend: EmulatorBackend, build: BuildEnv, *, hold: bool = True) -> None:
        if not 0 <= index < lease.size:
            raise CerebellumError(f"emulator {index} of a pool of {lease.size}")
        pool = acquire(lease) if hold else _entry(lease).pool
        self.lease = lease
        self.index = index
        self.backend = backend
        self._build = build
        self._hold = hold
        self._closed = False
        try:
            # A fresh env on an emulator whose last episode has not been checked (the evaluation
            # harness rebuilds its env after a fault): check it first, not after building on a corpse.
            self._restart = self._check(_entry(lease))
            env = self._build_env(pool)
        except BaseException:
            if hold:
                release(lease)
            raise
        super().__init__(env)

    @property
    def pool(self) -> EmulatorPool:
        """The pool (in this process)."""
        return _entry(self.lease).pool

    def emulator(self) -> dict[str, Any]:
        """This env's emulator: serial, ports, state, episodes, restarts and fault reasons."""
        return self.pool.report()[self.index]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Check the emulator after the last episode (restart it if it is dead, wedged or due
        for recycling), then reset the env; a reset that meets a device fault gets one more try
        on a restarted emulator."""
        entry = _entry(self.lease)
        pool = entry.pool
        restart, self._restart = self._restart, None
        checked = self._check(entry)
        if checked is not None:
            restart = checked
            self._rebuild(pool)
        try:
            obs, info = self.env.reset(seed=seed, options=options)
        except InfraError as exc:
            # The emulator died between episodes or while the task was set up.
            restart = self._restart_now(pool, exc)
            self._rebuild(pool)
            obs, info = self.env.reset(seed=seed, options=options)
        if self._restart:  # a rebuild above had to restart the emulator first
            restart, self._restart = self._restart, None
        entry.ran[self.index] = False
        info = dict(info)
        info["emulator"] = pool.emulators[self.index].serial
        if restart:
            info["emulator_restart"] = restart
        return obs, info

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        entry = _entry(self.lease)
        try:
            obs, reward, terminated, truncated, info = self.env.step(action)
        except InfraError:
            entry.ran[self.index] = True
            raise
        if info.get("infra_error"):
            entry.ran[self.index] = True
        return obs, reward, terminated, truncated, info

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            super().close()
        finally:
            if self._hold:
                release(self.lease)

    def _check(self, entry: _Entry) -> str | None:
        """After an episode on this env's emulator: the pool's check (restart, recycling); what
        was done, or ``""`` after a fault that needed nothing (the env is rebuilt all the same),
        or ``None`` when there is nothing to rebuild for."""
        fault = entry.ran.pop(self.index, None)
        if fault is None:
            return None
        done = entry.pool.between_episodes(self.index, fault)
        if done is not None:
            return done
        return "" if fault else None

    def _build_env(self, pool: EmulatorPool) -> gym.Env[Any, Any]:
        try:
            return self._build(pool.device_options(self.index, self.backend))
        except InfraError as exc:
            # The emulator is gone (the env could not even connect): restart it and build once more.
            self._restart = self._restart_now(pool, exc)
            return self._build(pool.device_options(self.index, self.backend))

    def _restart_now(self, pool: EmulatorPool, exc: BaseException) -> str:
        health = pool.health(self.index)
        reason = health.reason if not health.ok else f"{type(exc).__name__}: {exc}"
        pool.restart(self.index, reason=reason, graceful=not health.wedged)
        return f"restarted: {reason}"

    def _rebuild(self, pool: EmulatorPool) -> None:
        old = self.env
        with contextlib.suppress(Exception):
            old.close()
        self.env = self._build_env(pool)


class PooledFactory:
    """Builds :class:`PooledEnv` s on one emulator, holding the pool across them (the evaluation
    harness builds a fresh env after each device fault); :meth:`close` lets the pool go."""

    def __init__(self, lease: PoolLease, index: int, backend: EmulatorBackend, build: BuildEnv) -> None:
        self.lease = lease
        self.index = index
        self.backend = backend
        self.build = build
        self._held = False

    def __call__(self) -> PooledEnv:
        if not self._held:
            acquire(self.lease)
            self._held = True
        return PooledEnv(self.lease, self.index, self.backend, self.build, hold=False)

    def close(self) -> None:
        if self._held:
            self._held = False
            release(self.lease)

    def __getstate__(self) -> dict[str, Any]:
        # A copy in another process holds nothing there yet.
        return {**self.__dict__, "_held": False}


def make_with_options(env_id: str, env_kwargs: Mapping[str, Any], device_options: dict[str, Any]) -> gym.Env[Any, Any]:
    """``gym.make(env_id, **env_kwargs)`` with ``device_options`` merged over the given ones."""
    import cerebellum_gym  # noqa: F401  (registers the ids in a fresh worker)

    kwargs = dict(env_kwargs)
    kwargs["device_options"] = {**dict(kwargs.get("device_options") or {}), **device_options}
    return gym.make(env_id, **kwargs)


# --- groups: where each pool lives -----------------------------------------------------------------


def group_leases(options: Mapping[str, Any], sizes: list[int], *, prefix: str | None = None) -> list[PoolLease]:
    """One :class:`PoolLease` per group of sub-envs (a process: an async worker, a Ray actor),
    with console, gRPC ports and state files spread so that groups on one machine never collide."""
    if "num" in options:
        raise ConfigError("emulator pool options take no 'num': there is one emulator per sub-env")
    prefix = prefix or f"pool-{uuid.uuid4().hex}"
    base = int(options.get("base_port", DEFAULT_CONSOLE_PORT))
    base_grpc = int(options.get("base_grpc_port", DEFAULT_GRPC_PORT))
    leases: list[PoolLease] = []
    offset = 0
    for g, size in enumerate(sizes):
        own = dict(options)
        if len(sizes) > 1:
            own["base_port"] = base + 2 * offset
            own["base_grpc_port"] = base_grpc + offset
            if own.get("state_file"):
                own["state_file"] = f"{own['state_file']}.{g}"
            if "read_only" not in own:
                own["read_only"] = True  # several processes' emulators share the AVD
        leases.append(PoolLease(f"{prefix}-{g}", own, size))
        offset += size
    return leases


def _check_capacity(options: Mapping[str, Any], num: int) -> None:
    if options.get("force"):
        return
    problems = capacity_problems(
        num, memory_mb=int(options.get("memory_mb", EMULATOR_MEMORY_MB)), cores=float(options.get("cores", EMULATOR_CORES))
    )
    if problems:
        raise EmulatorCapacityError(f"refusing to launch {num} emulators: " + "; ".join(problems) + ". Launch fewer, or pass force=True.")


def make_emulator_vec(
    num_envs: int = 1,
    *,
    backend: str,
    emulators: Mapping[str, Any] | None = None,
    pool: EmulatorPool | None = None,
    vectorization: str = "sync",
    autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
    ray_address: str | None = None,
    envs_per_actor: int = 1,
    actor_options: Mapping[str, Any] | None = None,
    on_env_lost: Any = "raise",
    **env_kwargs: Any,
) -> VectorEnv[Any, Any, Any]:
    """The ``vector_entry_point`` of ``Cerebellum-Adb-v0`` and ``Cerebellum-AndroidWorld-v0``
    (see the module docstring).

    Args:
        num_envs: sub-envs, one emulator each.
        backend: ``"adb"`` or ``"androidworld"`` (from the env id's registration).
        emulators: :class:`EmulatorPool` options; the vector env starts the pool(s) and closes them.
        pool: a caller's pool instead (``sync`` only; the caller closes it).
        vectorization: ``sync``, ``async`` or ``ray`` (``auto`` means ``sync`` here).
        autoreset_mode: gymnasium's autoreset mode.
        ray_address, envs_per_actor, actor_options, on_env_lost: for ``ray`` (:class:`RayVectorEnv`).
        **env_kwargs: ``gym.make`` options of every sub-env (``task``, ``device_options``, ...).

    Raises:
        ConfigError: both ``emulators`` and ``pool``, a ready pool with ``async``/``ray``, a pool
            smaller than ``num_envs``, or an unknown mode.
        EmulatorCapacityError: the machine cannot hold ``num_envs`` emulators (unless ``force``).
    """
    from cerebellum_gym.vector import resolve_vectorization, vectorize
    from cerebellum_gym.vector.ray import RayVectorEnv, make_registered_env

    if backend not in EMULATOR_ENV_IDS:
        raise ConfigError(f"emulator vector envs are for the adb and androidworld backends, not {backend!r}")
    env_id = EMULATOR_ENV_IDS[backend]
    if num_envs < 1:
        raise ConfigError(f"num_envs must be at least 1, got {num_envs}")
    mode = "sync" if vectorization == "auto" else resolve_vectorization(vectorization, num_envs)
    if emulators is None and pool is None:
        # As before this entry point: copies of gym.make (a SyncVectorEnv by default).
        fns = [partial(make_registered_env, env_id, dict(env_kwargs)) for _ in range(num_envs)]
        return vectorize(fns, mode, autoreset_mode=autoreset_mode, ray_address=ray_address, on_env_lost=on_env_lost)
    if emulators is not None and pool is not None:
        raise ConfigError("pass emulators= (pool options) or pool= (a ready pool), not both")
    build = partial(make_with_options, env_id, dict(env_kwargs))
    be: EmulatorBackend = "adb" if backend == "adb" else "androidworld"
    if pool is not None:
        if mode != "sync":
            raise ConfigError(
                f"a ready EmulatorPool works with vectorization='sync' only (its emulators belong to this process); "
                f"for {mode!r} pass emulators={{...options...}} and each worker starts its own"
            )
        lease = register_pool(pool)
        if len(pool) < num_envs:
            unregister_pool(lease)
            raise ConfigError(f"{num_envs} envs but the pool has {len(pool)} emulators (one per env)")
        try:
            return gym.vector.SyncVectorEnv(
                [partial(PooledEnv, lease, i, be, build) for i in range(num_envs)], autoreset_mode=autoreset_mode
            )
        finally:
            unregister_pool(lease)  # a no-op once the sub-envs hold it
    assert emulators is not None
    if not isinstance(emulators, Mapping):
        raise ConfigError(f"emulators must be a mapping of EmulatorPool options, got {type(emulators).__name__}")
    if mode == "sync":
        (lease,) = group_leases(emulators, [num_envs])
        return gym.vector.SyncVectorEnv([partial(PooledEnv, lease, i, be, build) for i in range(num_envs)], autoreset_mode=autoreset_mode)
    if mode == "async":
        _check_capacity(emulators, num_envs)
        leases = group_leases(emulators, [1] * num_envs)
        worker_fns: list[Callable[[], gym.Env[Any, Any]]] = [partial(PooledEnv, leases[i], 0, be, build) for i in range(num_envs)]
        return vectorize(worker_fns, "async", autoreset_mode=autoreset_mode)
    if envs_per_actor < 1:
        raise ConfigError(f"envs_per_actor must be at least 1, got {envs_per_actor}")
    sizes = [min(envs_per_actor, num_envs - a) for a in range(0, num_envs, envs_per_actor)]
    leases = group_leases(emulators, sizes)
    ray_fns: list[Callable[[], gym.Env[Any, Any]]] = [
        partial(PooledEnv, leases[i // envs_per_actor], i % envs_per_actor, be, build) for i in range(num_envs)
    ]
    return RayVectorEnv(
        ray_fns,
        envs_per_actor=envs_per_actor,
        address=ray_address,
        actor_options=actor_options,
        autoreset_mode=autoreset_mode,
        on_env_lost=on_env_lost,
    )


__all__ = [
    "EMULATOR_ENV_IDS",
    "BuildEnv",
    "PoolLease",
    "PooledEnv",
    "PooledFactory",
    "acquire",
    "group_leases",
    "make_emulator_vec",
    "make_with_options",
    "register_pool",
    "release",
    "unregister_pool",
]
