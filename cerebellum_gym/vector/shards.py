"""The native env sharded: N simulators over K shards that step at the same time.

:class:`ShardedVectorEnv` spreads the N envs over K shards so that every core works. Each shard
is a :class:`~cerebellum_gym.vector.native.NativeVectorEnv` behind one transport interface,
:class:`ShardTransport`, in gymnasium's ``step_async``/``step_wait`` shape (a request, then its
answer), with three implementations: :class:`LocalTransport` (this process: shard 0 by default,
whose time would otherwise go to waiting), :class:`ProcessTransport` (a worker process writing
into shared-memory batch arrays; one message each way per batch step: actions in; text parts,
rewards, ends and info entries out) and :class:`RayTransport` (a Ray actor; its arrays travel
through Ray's object store, so shards may live on other machines). The sharded env loops over
its transports and never asks which kind it has. Its own ``step_async``/``step_wait`` let the
caller work (its policy for another batch, say) while the shards step: the pipelined loop of
``benchmarks/perf/vector.py``.

Example:
    >>> import gymnasium as gym
    >>> import cerebellum_gym
    >>> envs = gym.make_vec("Cerebellum-Sim-v0", num_envs=4, shards=2, task="SystemWifiTurnOn", pixels=False)
    >>> type(envs).__name__, envs.sizes, [type(t).__name__ for t in envs.transports]
    ('ShardedVectorEnv', [2, 2], ['LocalTransport', 'ProcessTransport'])
    >>> obs, info = envs.reset(seed=0)
    >>> envs.step_async(["W", "H", "W", "H"])
    >>> obs, reward, terminated, truncated, info = envs.step_wait()
    >>> list(info["action"])
    ['W', 'H', 'W', 'H']
    >>> envs.close()
"""

from __future__ import annotations

import abc
import contextlib
import copy as copy_module
import multiprocessing
import os
import select
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from multiprocessing.connection import Connection
from typing import Any, NamedTuple

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from cerebellum_gym.core.memory import reuse_freed_frames
from cerebellum_gym.errors import CerebellumError, ConfigError, DeviceLostError
from cerebellum_gym.vector.native import (
    NativeVectorEnv,
    Path,
    WrapEnv,
    _Batch,
    _build_env,
    allocate,
    native_space,
    numeric_leaves,
)
from cerebellum_gym.vector.rules import autoreset_mode as as_autoreset_mode
from cerebellum_gym.vector.rules import (
    batch_infos,
    check_actions,
    check_num_envs,
    per_env_values,
    pop_reset_mask,
    portable_exception,
    remote_error,
    seeds,
)

#: A shard's observation as it travels: the native form's text parts (see
#: :meth:`NativeVectorEnv.text_parts`) or a generic observation without its arrays, and the
#: shard's arrays themselves when they are not in shared memory (Ray).
Payload = tuple[Any, dict[Path, np.ndarray] | None]


#: How long each side of a worker's pipe busy-waits for the other before it blocks (seconds).
#: A blocked process is woken through the scheduler, and on this project's VMs each wake-up cost
#: about 0.1 ms, twice per batch step (the worker for the request, this process for the answer):
#: a tenth of a tree-only step of 16 envs. Spinning keeps both awake across the short gaps of a
#: lockstep loop; it yields the core at every turn, so other work on it still runs, and a gap
#: longer than this (a slow policy) ends in the usual blocking wait.
DEFAULT_SPIN_S = 0.002


def _spin(ready: Callable[[], bool], seconds: float) -> bool:
    """Poll ``ready`` for up to ``seconds``, yielding the core between polls; whether it became true."""
    if seconds <= 0:
        return False
    deadline = time.perf_counter() + seconds
    while True:
        if ready():
            return True
        if time.perf_counter() >= deadline:
            return False
        os.sched_yield()


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
        done = env.step_entries(actions)
        # Lists, not arrays: three small arrays took more time to pickle and unpickle (~50 us)
        # than the rest of the answer; floats and bools come back into the batch's arrays exactly.
        return self._payload(), done.rewards, done.terminations, done.truncations, done.entries

    def call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        return self.env.call(name, *args, **kwargs)

    def set_attr(self, name: str, values: list[Any]) -> None:
        self.env.set_attr(name, values)

    def close(self) -> None:
        self.env.close()

    def _payload(self) -> Payload:
        env = self.env
        return _texts(env)[0], (env.arrays if self.with_arrays else None)


def _texts(env: NativeVectorEnv) -> Payload:
    """A shard's payload without arrays: its text parts (native form) or its stripped observation."""
    return (env.text_parts() if env.native else _strip_arrays(env.batch_observation())), None


def _shard_worker(
    conn: Connection,
    num_envs: int,
    autoreset_mode: str,
    env_kwargs: Mapping[str, Any],
    shared: Mapping[Path, tuple[Any, tuple[int, ...], str, int]],
    bell: int | None = None,
    spin_s: float = DEFAULT_SPIN_S,
) -> None:
    """A worker process's loop: a :class:`ShardHost` over views of the shared arrays.

    One message in and one out per batch step; the arrays are already in shared memory when the
    answer (text parts, rewards, ends, info entries: a few KB) is sent. Between the two it waits
    for the next request, spinning ``spin_s`` seconds before it blocks (see :data:`DEFAULT_SPIN_S`).
    """
    arrays = {
        path: np.frombuffer(raw, dtype=np.dtype(dtype), count=int(np.prod(shape)) * num_envs, offset=offset).reshape(num_envs, *shape)
        for path, (raw, shape, dtype, offset) in shared.items()
    }
    reuse_freed_frames()  # a process of our own, stepping fresh frames: the allocator opt-in is ours to make
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
                _wait_for_bell(bell, conn, parent, spin_s)
            else:
                _spin(lambda: conn.poll(0), spin_s)
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


def _wait_for_bell(bell: int, conn: Connection, parent: int | None = None, spin_s: float = 0.0) -> None:
    """Block until the parent rings ``bell`` (an eventfd) after sending a request down ``conn``.

    Why not just block in ``conn.recv()``: a pipe's writer wakes its reader as a *sync* wakeup, a
    hint that the writer is about to sleep, so Linux queues the worker on the parent's core, and
    there it waits until the parent blocks, while the other core idles. The parent does not
    sleep; it steps its own shard. An eventfd's wakeup carries no such hint and the worker starts
    on an idle core at once.

    Checked every second: a message that came without its bell, the pipe at EOF, or a parent
    process (pid ``parent``) that is gone; a pipe's end that another forked worker inherited
    would otherwise keep a worker of a killed parent waiting forever. For the first ``spin_s``
    seconds it polls without blocking (see :data:`DEFAULT_SPIN_S`).

    Raises:
        EOFError: the parent process is gone.
    """
    poller = select.poll()
    poller.register(bell, select.POLLIN)
    if not _spin(lambda: bool(poller.poll(0)), spin_s):
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


def shard_sizes(num_envs: int, num_shards: int) -> list[int]:
    """``num_envs`` split into ``num_shards`` contiguous shards as even as can be (larger first)."""
    base, extra = divmod(num_envs, num_shards)
    return [base + (1 if k < extra else 0) for k in range(num_shards)]


# --- transports ------------------------------------------------------------------------------------


class ShardTransport(abc.ABC):
    """One shard behind a request and its answer (gymnasium's ``step_async``/``step_wait`` shape).

    A request names a :class:`ShardHost` method (``reset``, ``step``, ``call``, ``set_attr``) and
    its arguments; :meth:`answer` returns what that method returned, or raises what it raised
    (with a note saying which shard) or :class:`~cerebellum_gym.errors.DeviceLostError` when
    the shard is gone. Every request is answered before the next is made.
    """

    #: The request is carried out at once in this process (:meth:`request` returns when it is
    #: done): the sharded env makes such requests after every other shard's, so all overlap.
    eager: bool = False

    def ready(self) -> None:
        """Wait until the shard is built (its workers build at the same time); raise what failed."""

    @abc.abstractmethod
    def request(self, command: str, payload: tuple[Any, ...]) -> None:
        """Send ``command(*payload)`` to the shard."""

    @abc.abstractmethod
    def answer(self) -> Any:
        """The answer to the last request."""

    @abc.abstractmethod
    def begin_close(self) -> None:
        """Ask the shard to close (all shards are asked before any is waited for)."""

    def end_close(self) -> None:
        """Wait (a bounded time) until the shard has closed, then let its resources go."""


class LocalTransport(ShardTransport):
    """A shard in this process: its :class:`ShardHost` writes straight into its rows of the batch."""

    eager = True

    def __init__(self, host: ShardHost) -> None:
        self.host = host
        self._answer: tuple[bool, Any] = (True, None)

    def request(self, command: str, payload: tuple[Any, ...]) -> None:
        try:
            self._answer = (True, getattr(self.host, command)(*payload))
        except Exception as exc:
            self._answer = (False, exc)

    def answer(self) -> Any:
        ok, value = self._answer
        self._answer = (True, None)
        if not ok:
            raise value
        return value

    def begin_close(self) -> None:
        self.host.close()


def _packed_step(command: str, payload: tuple[Any, ...]) -> tuple[Any, ...]:
    """A step's batched structured action as raw bytes for the trip (NumPy arrays pickle ~10x slower)."""
    if command == "step" and isinstance(payload[0], Mapping):
        return ({key: _pack(value) for key, value in payload[0].items()},)
    return payload


class ProcessTransport(ShardTransport):
    """A shard in a worker process: a pipe for the messages, shared memory for the arrays, and
    an eventfd doorbell rung after each request (see :func:`_wait_for_bell`). Each side spins
    ``spin_s`` seconds for the other before it blocks (see :data:`DEFAULT_SPIN_S`)."""

    def __init__(
        self,
        k: int,
        ctx: Any,
        size: int,
        autoreset_mode: str,
        env_kwargs: Mapping[str, Any],
        shared: Mapping[Path, tuple[Any, tuple[int, ...], str, int]],
        spin_s: float = DEFAULT_SPIN_S,
    ) -> None:
        self.k = k
        self.spin_s = spin_s
        self.conn, child = ctx.Pipe()
        self.bell = _new_bell(ctx.get_start_method())
        self.process = ctx.Process(
            target=_shard_worker,
            args=(child, size, autoreset_mode, dict(env_kwargs), shared, self.bell, spin_s),
            daemon=True,
            name=f"cerebellum-shard-{k}",
        )
        self.process.start()
        child.close()

    def ready(self) -> None:
        self.answer()

    def request(self, command: str, payload: tuple[Any, ...]) -> None:
        try:
            self.conn.send((command, _packed_step(command, payload)))
            if self.bell is not None:
                os.eventfd_write(self.bell, 1)
        except OSError as exc:  # BrokenPipeError: the worker is gone
            raise self._lost(exc) from exc

    def answer(self) -> Any:
        conn = self.conn
        _spin(lambda: conn.poll(0), self.spin_s)
        try:
            ok, value = conn.recv()
        except (EOFError, OSError) as exc:
            raise self._lost(exc) from exc
        if not ok:
            raise remote_error(value, f"in shard {self.k}")
        return value

    def begin_close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.send(("close", ()))
        if self.bell is not None:
            with contextlib.suppress(Exception):
                os.eventfd_write(self.bell, 1)

    def end_close(self) -> None:
        with contextlib.suppress(Exception):
            if self.conn.poll(5.0):
                self.conn.recv()
        with contextlib.suppress(Exception):
            self.conn.close()
        self.process.join(timeout=5.0)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout=1.0)
        if self.bell is not None:
            with contextlib.suppress(OSError):
                os.close(self.bell)

    def _lost(self, exc: BaseException) -> DeviceLostError:
        error = DeviceLostError(f"shard {self.k}'s worker process died (exit code {self.process.exitcode})")
        error.__cause__ = exc
        return error


class RayTransport(ShardTransport):
    """A shard in a Ray actor (``ray.remote(ShardHost)``): its arrays come back with each answer."""

    def __init__(self, ray: Any, actor: Any) -> None:
        self.ray = ray
        self.actor = actor
        self._ref: Any = None

    def ready(self) -> None:
        self.ray.get(self.actor.describe.remote())

    def request(self, command: str, payload: tuple[Any, ...]) -> None:
        self._ref = getattr(self.actor, command).remote(*_packed_step(command, payload))

    def answer(self) -> Any:
        ref, self._ref = self._ref, None
        return self.ray.get(ref)

    def begin_close(self) -> None:
        with contextlib.suppress(Exception):
            self._ref = self.actor.close.remote()

    def end_close(self) -> None:
        with contextlib.suppress(Exception):
            self.ray.get(self._ref, timeout=5.0)
        with contextlib.suppress(Exception):
            self.ray.kill(self.actor)


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
        spin_s: with ``"process"``, how long this process and each worker busy-wait for the
            other's message before blocking (default :data:`DEFAULT_SPIN_S`; ``0``: block at
            once, for machines whose cores are all taken by other work).
        ray_address: the Ray cluster for ``"ray"`` (``None``: this process's Ray, or a local one).
        actor_options: Ray options for each actor (``num_cpus``, ``scheduling_strategy``, ...).
        wrap_env: the sub-env hook (see :class:`NativeVectorEnv`), run in each shard (so it
            pickles with ``workers="process"`` under ``spawn``, and with Ray).
        record, record_agent, record_metadata: record every sub-env's episodes into a dataset
            folder (see :class:`NativeVectorEnv`); each shard's process writes its own part.
        **env_kwargs: ``gym.make``'s options for every sub-env.

    Results equal a single-process :class:`NativeVectorEnv`'s with the same seeds (a test holds
    them together): env ``i`` of shard ``k`` is env ``offset_k + i`` of the batch. ``step`` is
    :meth:`step_async` then :meth:`step_wait`; between the two the shards step and the caller
    is free (all of it with ``local_shard=False``; with a local shard, once shard 0 has stepped).
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
        spin_s: float = DEFAULT_SPIN_S,
        ray_address: str | None = None,
        actor_options: Mapping[str, Any] | None = None,
        wrap_env: WrapEnv | None = None,
        record: str | os.PathLike[str] | None = None,
        record_agent: str | None = None,
        record_metadata: Mapping[str, Any] | None = None,
        **env_kwargs: Any,
    ) -> None:
        check_num_envs(num_envs)
        if workers not in ("process", "ray"):
            raise ConfigError(f"workers must be 'process' or 'ray', got {workers!r}")
        shards = (
            num_shards
            if num_shards is not None
            else min(num_envs, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
        )
        if not (isinstance(spin_s, (int, float)) and 0 <= spin_s < float("inf")):
            raise ConfigError(f"spin_s must be a finite number of seconds >= 0, got {spin_s!r}")
        self.spin_s = float(spin_s)
        if not 1 <= shards <= num_envs:
            raise ConfigError(f"num_shards must be between 1 and num_envs={num_envs}, got {shards}")
        self.autoreset_mode = as_autoreset_mode(autoreset_mode)
        self.copy = copy
        self.num_envs = num_envs
        self.workers = workers
        self.sizes = shard_sizes(num_envs, shards)
        self.offsets = [sum(self.sizes[:k]) for k in range(shards)]
        self._closed_workers = False
        #: Shard k's transport, in shard order.
        self.transports: list[ShardTransport] = []
        # The spaces come from one env built here (cheap: a phone is a few MB and ~1 ms),
        # wrapped as the shards wrap theirs: a wrapper may change the observation space.
        probe: gym.Env[Any, Any] = _build_env(env_kwargs)
        if wrap_env is not None:
            probe = wrap_env(probe)
        space = probe.observation_space
        config = probe.unwrapped.observation_config  # type: ignore[attr-defined]
        self.single_observation_space = space
        self.single_action_space = probe.action_space
        self.metadata = {**probe.metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = probe.render_mode
        probe.close()
        self.observation_space = batch_space(space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        assert isinstance(space, spaces.Dict)
        # The shards' options: the sub-envs' and their hook, and when recording the recorders'
        # (a folder as a plain string, so that it pickles the same everywhere).
        shard_kwargs = dict(env_kwargs)
        if wrap_env is not None:
            shard_kwargs["wrap_env"] = wrap_env
        if record is not None:
            shard_kwargs.update(record=os.fspath(record), record_agent=record_agent, record_metadata=record_metadata)
        try:
            if workers == "process":
                self._arrays = self._start_processes(numeric_leaves(space), context, shard_kwargs, local_shard)
            else:
                self._arrays = allocate(space, num_envs)
                self._start_actors(ray_address, actor_options, shard_kwargs)
            for transport in self.transports:
                transport.ready()
        except BaseException:
            self._shutdown()
            raise
        # Requests go to the shards that step elsewhere first, then to those that step here.
        self._order = sorted(range(shards), key=lambda k: self.transports[k].eager)
        self._pending: tuple[list[int], BaseException | None] | None = None
        self.native = native_space(space, config)
        # The native form's text parts land in one batch over the whole arrays, as in a
        # single-process env; other observations are merged from the shards' stripped ones.
        self._batch = _Batch(config, space, num_envs, self._arrays) if self.native else None
        self._texts: list[Any] = [None] * shards
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminations = np.zeros(num_envs, np.bool_)
        self._truncations = np.zeros(num_envs, np.bool_)

    # --- gymnasium API -----------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        per_env = seeds(seed, self.num_envs)
        mask = pop_reset_mask(options, self.num_envs)
        requests: dict[int, tuple[Any, ...]] = {}
        states = options.get("state") if options is not None else None
        if isinstance(states, list | tuple) and len(states) != self.num_envs:
            raise ValueError(
                f"reset option 'state' takes one state for every env or a list of {self.num_envs}, got a list of {len(states)}"
            )
        for k, (offset, size) in enumerate(zip(self.offsets, self.sizes, strict=True)):
            shard_options = options
            if isinstance(states, list | tuple):  # each shard gets its own envs' states
                shard_options = {**(options or {}), "state": list(states[offset : offset + size])}
            if mask is not None:
                part = mask[offset : offset + size]
                if not part.any():
                    continue
                shard_options = {**(shard_options or {}), "reset_mask": part.copy()}
            requests[k] = (per_env[offset : offset + size], shard_options)
        answers = self._run("reset", requests)
        entries: list[tuple[int, dict[str, Any]]] = []
        for k in sorted(answers):
            payload, shard_entries = answers[k]
            self._take(k, payload)
            offset = self.offsets[k]
            entries.extend((offset + i, info) for i, info in shard_entries)
        return self._observation(), batch_infos(self, entries)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        self.step_async(actions)
        return self.step_wait()

    def step_async(self, actions: Any) -> None:
        """Send each shard its part of ``actions`` and return: the shards step while the caller
        works; :meth:`step_wait` collects the batch."""
        if self._pending is not None:
            raise CerebellumError("step_async() again before step_wait()")
        check_actions(actions, self.num_envs)
        bounds = list(zip(self.offsets, self.sizes, strict=True))
        if isinstance(actions, Mapping):
            # Slices of the batched arrays pickle far smaller than one dict per env.
            parts: list[Any] = [{key: actions[key][o : o + n] for key in ("code", "label", "text")} for o, n in bounds]
        else:
            parts = [list(actions[o : o + n]) for o, n in bounds]
        self._pending = self._send("step", {k: (part,) for k, part in enumerate(parts)})

    def step_wait(self) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The batch that :meth:`step_async` started: observations, rewards, ends and infos."""
        if self._pending is None:
            raise CerebellumError("step_wait() without step_async()")
        pending, self._pending = self._pending, None
        answers = self._collect(*pending)
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
        answers = self._run("call", {k: (name, args, kwargs) for k in range(len(self.sizes))})
        return tuple(value for k in range(len(self.sizes)) for value in answers[k])

    def get_attr(self, name: str) -> tuple[Any, ...]:
        return self.call(name)

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | object) -> None:
        values = per_env_values(values, self.num_envs)
        self._run("set_attr", {k: (name, values[o : o + n]) for k, (o, n) in enumerate(zip(self.offsets, self.sizes, strict=True))})

    def close_extras(self, terminate: bool = False, **kwargs: Any) -> None:
        self._shutdown()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._shutdown()

    @property
    def _processes(self) -> list[Any]:
        """The worker processes, in shard order."""
        return [t.process for t in self.transports if isinstance(t, ProcessTransport)]

    # --- shards ------------------------------------------------------------------------------

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
        transports: dict[int, ShardTransport] = {}
        for k, (offset, size) in enumerate(zip(self.offsets, self.sizes, strict=True)):
            if k == 0 and local_shard:
                continue
            shared = {path: (raws[path], shape, dtype.str, offset * int(np.prod(shape)) * dtype.itemsize) for path, shape, dtype in leaves}
            transports[k] = ProcessTransport(k, ctx, size, self.autoreset_mode.value, env_kwargs, shared, self.spin_s)
            self.transports = [transports[j] for j in sorted(transports)]  # closed on failure from here on
        if local_shard:
            # Built while the workers build theirs; it writes straight into its rows of the batch.
            size = self.sizes[0]
            rows = {path: array[:size] for path, array in arrays.items()}
            transports[0] = LocalTransport(ShardHost(size, self.autoreset_mode.value, env_kwargs, rows, with_arrays=False))
        self.transports = [transports[k] for k in range(len(self.sizes))]
        return arrays

    def _start_actors(self, address: str | None, actor_options: Mapping[str, Any] | None, env_kwargs: Mapping[str, Any]) -> None:
        from cerebellum_gym.vector.ray import import_ray

        ray = import_ray()
        if not ray.is_initialized():
            ray.init(address=address, include_dashboard=False)
        remote = ray.remote(ShardHost)
        options = {"num_cpus": 1, **dict(actor_options or {})}
        for size in self.sizes:
            self.transports.append(RayTransport(ray, remote.options(**options).remote(size, self.autoreset_mode.value, dict(env_kwargs))))

    def _run(self, command: str, requests: Mapping[int, tuple[Any, ...]]) -> dict[int, Any]:
        """Each shard's answer to its request; the shards work at the same time."""
        return self._collect(*self._send(command, requests))

    def _send(self, command: str, requests: Mapping[int, tuple[Any, ...]]) -> tuple[list[int], BaseException | None]:
        """Make the requests (eager shards last): the shards that were sent one, and the first
        failure to send (nothing more is sent after it)."""
        if self._closed_workers:
            raise CerebellumError("the vector env is closed")
        if self._pending is not None:
            # Each transport answers its requests in order: another request now would be
            # answered with the step's answer.
            raise CerebellumError(f"{command}() while a step is in flight: call step_wait() first")
        sent: list[int] = []
        for k in self._order:
            if k in requests:
                try:
                    self.transports[k].request(command, requests[k])
                except Exception as exc:
                    return sent, exc
                sent.append(k)
        return sent, None

    def _collect(self, sent: list[int], error: BaseException | None) -> dict[int, Any]:
        """The answers of the shards in ``sent``. Every one is answered before anything is
        raised, so that each transport stays in step."""
        answers: dict[int, Any] = {}
        for k in sent:
            try:
                answers[k] = self.transports[k].answer()
            except Exception as exc:
                error = error or exc
        if error is not None:
            raise error
        return answers

    def _shutdown(self) -> None:
        if self._closed_workers:
            return
        self._closed_workers = True
        for transport in self.transports:
            with contextlib.suppress(Exception):
                transport.begin_close()
        for transport in self.transports:
            with contextlib.suppress(Exception):
                transport.end_close()

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
        batch.take_text_parts(offset, offset + size, texts)

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
    spin_s: float = DEFAULT_SPIN_S,
    **env_kwargs: Any,
) -> VectorEnv[Any, Any, Any]:
    """The ``vector_entry_point`` of ``Cerebellum-Sim-v0``: a :class:`NativeVectorEnv`, or with
    ``shards > 1`` (or ``workers="ray"``) a :class:`ShardedVectorEnv` of that many shards
    (``local_shard``, ``spin_s``: see there)."""
    if shards == 1 and workers == "process":
        return NativeVectorEnv(num_envs, autoreset_mode=autoreset_mode, copy=copy, **env_kwargs)
    return ShardedVectorEnv(
        num_envs,
        num_shards=shards,
        workers=workers,
        autoreset_mode=autoreset_mode,
        copy=copy,
        local_shard=local_shard,
        spin_s=spin_s,
        **env_kwargs,
    )


__all__ = [
    "DEFAULT_SPIN_S",
    "LocalTransport",
    "ProcessTransport",
    "RayTransport",
    "ShardHost",
    "ShardTransport",
    "ShardedVectorEnv",
    "make_native_vec",
    "shard_sizes",
]
