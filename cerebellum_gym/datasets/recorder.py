"""Recording: every episode an env plays, written to a dataset folder as it happens.

:class:`RecordEpisodes` is a gymnasium wrapper (it works on any backend: it reads only the
observation, the step results and the task). For vector envs, wrap each sub-env
(:func:`recording_env_fns`, or ``wrappers=`` of ``gym.make_vec`` in its ``sync`` or ``async``
mode), or pass ``record=DIR`` to the simulator's native and sharded vector envs, which wrap
theirs: each sub-env, in this process, a worker process or a Ray actor, writes its own part of
the same folder, and an image already stored there is not stored again.

Writing is crash-safe (see :mod:`cerebellum_gym.datasets.format`) and cheap on the stepping
thread: a step only hands references to its observation, action and info to a background thread
(in batches). That thread hashes the images (xxh3, without the GIL), encodes the ones not seen
before (``npy.zst``: Zstandard, also without the GIL), serialises the step's line and appends it.
An episode's final record says ``"complete": true`` only once all its lines and images are on
disk.

The recorder keeps each observation's pixels until they are written (a few batches at most: the
queue is bounded), without copying them. From a cerebellum env it keeps the read-only frames the
observation's arrays were copied from (``env.unwrapped.observation_frames``), used only when every
wrapper in between hands the env's observations on as they are (gymnasium's checkers, time limit
and statistics): a read-only array (and its bases) cannot change, so a frame the writer has hashed
already is known by identity and not read again, and the caller's copies are its own to change
(where the env names no usable source, the recorder keeps a copy instead).
Otherwise it keeps the observation's own arrays, and a caller must not modify an observation in
place before the writer has stored it (a read-only array is still known by identity there).

Example:
    >>> import tempfile, gymnasium as gym, cerebellum_gym
    >>> from cerebellum_gym.datasets import RecordEpisodes, open_dataset
    >>> folder = tempfile.mkdtemp()
    >>> env = RecordEpisodes(gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn"), folder, agent="oracle")
    >>> obs, info = env.reset(seed=0)
    >>> done = False
    >>> while not done:
    ...     obs, reward, terminated, truncated, info = env.step(env.unwrapped.oracle_action())
    ...     done = terminated or truncated
    >>> env.close()
    >>> episode = next(open_dataset(folder).episodes())
    >>> episode.complete, episode.meta["task"], episode.meta["success"], episode.actions
    (True, 'SystemWifiTurnOn', True, ['D', 'T ...', 'F'])
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium.utils import RecordConstructorArgs
from gymnasium.wrappers import OrderEnforcing, PassiveEnvChecker, RecordEpisodeStatistics, TimeLimit

from cerebellum_gym.core.actions import plain_structured
from cerebellum_gym.core.history import frozen
from cerebellum_gym.core.observation import ObservationParts, is_parts, source_observation
from cerebellum_gym.datasets.format import (
    FORMAT_VERSION,
    PART_EPISODES,
    PART_IMAGES,
    PART_INDEX,
    PART_STEPS,
    PARTS_DIR,
    DatasetError,
    bits,
    dumps_line_bytes,
    encode_image,
    ensure_header,
    hash_function,
    image_id,
    is_plain_json,
    jsonable,
    stored_image_ids,
    upgrade_header,
    zstd_available,
)

#: Reset-option keys the recorder reads and removes before the env sees them.
META_OPTION = "record_meta"
#: Read-only arrays whose image ids a writer remembers by identity (weakly: it keeps none alive).
IDENTITY_CACHE = 4096
#: An observation's image ids: the screenshot's (or ``None``) and the history frames' (or ``None``).
ImageIds = tuple[str | None, list[str] | None]
_STOP = object()


class DatasetWriter:
    """Writes episodes into one dataset folder; the work is done on a background thread.

    Each writer owns one part (``parts/<writer id>/``): four files it only appends to, so that
    recording creates no file per episode or per image. One writer per process (sub-envs of a
    ``SyncVectorEnv`` share one). Work is queued in order, so a step's line lands after its
    images and an episode's final record after its lines.

    Args:
        root: the dataset folder (created, with ``dataset.json``, if missing).
        queue_size: batches queued before a step waits for the writer (bounds memory: a batch
            holds its steps' observation arrays).
        batch: steps handed to the writer at once (an episode's end or :meth:`flush` hands over the rest).
        threaded: ``False`` writes on the caller's thread (simplest to debug).
    """

    def __init__(self, root: str | os.PathLike[str], *, queue_size: int = 4, threaded: bool = True, batch: int = 8) -> None:
        self.root = Path(root)
        self.batch = max(1, batch)
        self._rows: list[tuple[str, _PendingRow]] = []
        header = ensure_header(self.root)
        if int(header["version"]) < FORMAT_VERSION:
            header = upgrade_header(self.root, header)  # its version-1 episodes stay readable
        self.header = header
        self.hash_name = str(header["image_hash"])
        self.image_format = str(header["image_format"])
        if self.image_format == "npy.zst" and not zstd_available():
            raise DatasetError(f"{self.root} stores images as npy.zst, which needs pyarrow (pip install 'cerebellum-gym[datasets]')")
        self.version = int(header["version"])
        self._digest = hash_function(self.hash_name)
        # Images already stored by earlier (or other running) writers are not stored again.
        self._known: set[str] = set(stored_image_ids(self.root))
        self._identity: dict[int, tuple[Any, Any]] = {}
        self.writer_id = f"{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:8]}"
        self.part = self.root / PARTS_DIR / self.writer_id
        self.part.mkdir(parents=True)
        # Unbuffered and appended to only: each write reaches the OS at once, in the order _do
        # makes them, and no buffered copy can be flushed twice (by a forked child, say).
        self._episodes = _Appender(self.part / PART_EPISODES)
        self._steps = _Appender(self.part / PART_STEPS)
        self._images = _Appender(self.part / PART_IMAGES)
        self._index = _Appender(self.part / PART_INDEX)
        self._offset = 0
        self._new_images: list[bytes] = []
        self._new_index: list[str] = []
        self._count = 0
        self._lock = threading.Lock()
        self._error: BaseException | None = None
        self._queue: queue.Queue[Any] | None = None
        self._thread: threading.Thread | None = None
        if threaded:
            self._queue = queue.Queue(maxsize=queue_size)
            self._thread = threading.Thread(target=self._work, name="cerebellum-dataset-writer", daemon=True)
            self._thread.start()
        self.images_written = 0

    # --- called by the recorder ---------------------------------------------------------------

    def new_episode_id(self) -> str:
        with self._lock:
            self._count += 1
            return f"{self.writer_id}-{self._count:06d}"

    def image(self, pixels: np.ndarray) -> str:
        """The id of ``pixels``; the first time this writer sees it, the image is stored (on the
        writer's thread, before the line that names it)."""
        ident = image_id(pixels, self._digest)
        if ident not in self._known:
            self._known.add(ident)
            self._store(ident, pixels)
        return ident

    def _store(self, ident: str, pixels: np.ndarray) -> None:
        # Kept until the batch is made durable (see _do): one write per file per batch.
        data = encode_image(pixels, self.image_format)
        self._new_images.append(data)
        self._new_index.append(f"{ident} {self._offset} {len(data)}\n")
        self._offset += len(data)
        self.images_written += 1

    def image_ids(self, obs: Mapping[str, Any]) -> ImageIds:
        """The ids of an observation's screenshot and history frames (storing new images).

        The history frames may be one stacked array or a sequence of arrays, one per frame (the
        read-only frames the recorder takes from the env, each known by identity once hashed).
        """
        shot = obs.get("screenshot")
        frames = (obs.get("history") or {}).get("screenshots")
        if frames is None:
            frame_ids = None
        elif isinstance(frames, np.ndarray):
            frame_ids = self._by_identity(frames, lambda: [self.image(frame) for frame in frames])
        else:
            frame_ids = [self._image_of(frame) for frame in frames]
        return None if shot is None else self._image_of(shot), frame_ids

    def _image_of(self, pixels: np.ndarray) -> str:
        """:meth:`image`, known by identity when ``pixels`` is frozen (the common case of
        :meth:`_by_identity`, without a closure: it runs for every image of every step)."""
        if not frozen(pixels):
            return self.image(pixels)
        identity = self._identity
        key = id(pixels)
        hit = identity.get(key)
        if hit is not None and hit[0]() is pixels and isinstance(hit[1], str):
            identity[key] = identity.pop(key)  # most recently used last: a frame seen every step stays
            return hit[1]
        ident = self.image(pixels)
        self._remember(pixels, ident)
        return ident

    def _by_identity(self, array: Any, compute: Callable[[], Any]) -> Any:
        # Only an array nothing can write to keeps its content with its identity. The cache
        # holds a weak reference: an id reused by a later array does not match a dead one, and
        # the frames the env's caches keep (the ones that come back) stay known.
        if not frozen(array):
            return compute()
        identity = self._identity
        key = id(array)
        hit = identity.get(key)
        if hit is not None and hit[0]() is array:
            identity[key] = identity.pop(key)
            return hit[1]
        value = compute()
        self._remember(array, value)
        return value

    def _remember(self, array: Any, value: Any) -> None:
        identity = self._identity
        # A dead array's id can come back: re-inserted, the entry moves to the newest end.
        identity.pop(id(array), None)
        identity[id(array)] = (weakref.ref(array), value)
        if len(identity) > IDENTITY_CACHE:  # the least recently used entry goes (often dead by then)
            del identity[next(iter(identity))]

    def begin(self, episode_id: str, meta: Mapping[str, Any]) -> None:
        self._send_rows()
        self._submit(("episode", episode_id, dict(meta)))

    def row(self, episode_id: str, pending: _PendingRow) -> None:
        """Queue one step; its line is built and written on the writer's thread."""
        # Rows go to the writer in small batches: one hand-over per batch, not per step, keeps the
        # stepping thread's share low. A killed process loses at most what is not yet written.
        self._rows.append((episode_id, pending))
        if len(self._rows) >= self.batch:
            self._send_rows()

    def end(self, episode_id: str, meta: Mapping[str, Any]) -> None:
        self._send_rows()
        self._submit(("episode", episode_id, dict(meta)))

    def flush(self) -> None:
        """Wait until everything submitted is on disk."""
        self._send_rows()
        if self._queue is not None:
            self._queue.join()
        self._raise()

    def close(self) -> None:
        """Finish writing and stop the thread (idempotent)."""
        self._send_rows()
        if self._queue is not None and self._thread is not None:
            self._queue.put(_STOP)
            self._thread.join()
            self._queue = None
            self._thread = None
        for f in (self._episodes, self._steps, self._images, self._index):
            f.close()
        self._raise()

    # --- internals ----------------------------------------------------------------------------

    def _send_rows(self) -> None:
        if self._rows:
            rows, self._rows = self._rows, []
            self._submit(("rows", "", rows))

    def _submit(self, item: Any) -> None:
        self._raise()
        if self._queue is None:
            self._do(item)
        else:
            self._queue.put(item)

    def _raise(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise RuntimeError(f"writing the dataset in {self.root} failed: {error}") from error

    def _work(self) -> None:
        assert self._queue is not None
        q = self._queue
        while True:
            item = q.get()
            try:
                if item is _STOP:
                    return
                if self._error is None:
                    self._do(item)
            except BaseException as exc:  # reported to the stepping thread on its next call
                self._error = exc
            finally:
                q.task_done()

    def _do(self, item: tuple[Any, ...]) -> None:
        if item[0] == "episode":
            self._episodes.write(dumps_line_bytes(item[2]))
            return
        lines = [pending.line(self, episode_id) for episode_id, pending in item[2]]
        # Durable in this order, so a killed process never leaves a line naming an image the
        # index does not have, nor an index entry pointing past the image bytes.
        if self._new_index:
            self._images.write(b"".join(self._new_images))
            self._index.write("".join(self._new_index).encode())
            self._new_images.clear()
            self._new_index.clear()
        self._steps.write(b"".join(lines))


# One writer per (process, folder): sub-envs of a sync vector env share its thread.
_WRITERS: dict[tuple[int, str], DatasetWriter] = {}
_WRITER_USERS: dict[tuple[int, str], int] = {}


@atexit.register
def _close_writers() -> None:
    # The writer thread is a daemon: drain what was handed over before the interpreter exits
    # (finished episodes must not stay marked as running because their last batch was queued).
    for (pid, _), writer in list(_WRITERS.items()):
        if pid == os.getpid():
            with contextlib.suppress(Exception):
                writer.close()


def _acquire_writer(root: str | os.PathLike[str]) -> DatasetWriter:
    key = (os.getpid(), str(Path(root).resolve()))
    writer = _WRITERS.get(key)
    if writer is None:
        writer = _WRITERS[key] = DatasetWriter(root)
    _WRITER_USERS[key] = _WRITER_USERS.get(key, 0) + 1
    return writer


def _release_writer(writer: DatasetWriter) -> None:
    key = (os.getpid(), str(writer.root.resolve()))
    left = _WRITER_USERS.get(key, 1) - 1
    if left > 0:
        _WRITER_USERS[key] = left
        writer.flush()
        return
    _WRITER_USERS.pop(key, None)
    _WRITERS.pop(key, None)
    writer.close()


class RecordEpisodes(gym.Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Record every episode of a cerebellum env into the dataset folder ``directory``.

    Per step it records the observation (screenshot and history frames as image ids, the compact
    tree, labels and masks), the action sent, the reward, the done flags and ``info``; per episode
    the task, its parameters and goal, the seed (or the RNG state an unseeded reset drew from),
    the reset options, the env id and options (to replay it), the agent and the outcome.

    Args:
        env: a cerebellum env (made by ``gym.make``, so its spec names how to rebuild it).
        directory: the dataset folder.
        agent: who acts (recorded per episode; ``reset(options={"record_meta": {"agent": ...}})``
            overrides it for one episode).
        metadata: extra JSON fields stored with every episode.
        env_id: the env id to replay with (default: the env's spec).
        env_kwargs: the ``gym.make`` options to replay with (default: the env's spec).
    """

    def __init__(
        self,
        env: gym.Env[Any, Any],
        directory: str | os.PathLike[str],
        *,
        agent: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        env_id: str | None = None,
        env_kwargs: Mapping[str, Any] | None = None,
    ) -> None:
        RecordConstructorArgs.__init__(self, directory=str(directory), agent=agent, metadata=metadata, env_id=env_id, env_kwargs=env_kwargs)
        gym.Wrapper.__init__(self, env)
        self.directory = Path(directory)
        self.agent = agent
        self.extra = dict(metadata or {})
        spec = env.spec
        self.env_id = env_id or (spec.id if spec is not None else None)
        kwargs = dict(env_kwargs) if env_kwargs is not None else dict(spec.kwargs) if spec is not None else {}
        self.env_kwargs = kwargs
        self._writer: DatasetWriter | None = _acquire_writer(self.directory)
        self._episode: dict[str, Any] | None = None
        self._obs: Any = None  # the last observation, as its row will record it (_row_observation)
        self._t = 0
        self._frame_sources = _frame_sources(env)

    @property
    def writer(self) -> DatasetWriter:
        if self._writer is None:
            raise RuntimeError("this recorder is closed")
        return self._writer

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        return self._reset(self.env.reset, seed, options)

    def reset_parts(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[ObservationParts, dict[str, Any]]:
        """:meth:`reset` over the env's ``reset_parts`` (a native batch's sub-env): recorded from
        the parts' read-only sources, handed on as they are."""
        return self._reset(self.env.reset_parts, seed, options)  # type: ignore[attr-defined]

    def _reset(
        self, reset: Callable[..., tuple[Any, dict[str, Any]]], seed: int | None, options: dict[str, Any] | None
    ) -> tuple[Any, dict[str, Any]]:
        if self._episode is not None:
            self._finish(status="reset", final_obs=False)
        options = dict(options or {})
        extra = dict(options.pop(META_OPTION, None) or {})
        unwrapped = self.env.unwrapped
        # An unseeded reset draws from the env's generator: its state makes the episode replayable.
        rng_state = jsonable(unwrapped.np_random.bit_generator.state) if seed is None else None
        obs, info = reset(seed=seed, options=options or None)
        row_obs = self._row_observation(obs)
        task = getattr(unwrapped, "task", None)
        device = getattr(unwrapped, "device", None)
        replayable, why = self._replayable(device)
        episode_id = self.writer.new_episode_id()
        meta: dict[str, Any] = {
            "format_version": self.writer.version,
            "episode_id": episode_id,
            "status": "running",
            "complete": False,
            "task": str(info.get("task", getattr(task, "name", ""))),
            "task_params": jsonable(getattr(task, "params", {})),
            "goal": str(info.get("goal", "")),
            "observation_goal": str(row_obs.get("goal", "")) if isinstance(row_obs, Mapping) else "",
            "seed": seed,
            "rng_state": rng_state,
            "options": jsonable(options),
            "agent": str(extra.pop("agent", self.agent) or ""),
            "env_id": self.env_id,
            "env_kwargs": jsonable(self.env_kwargs),
            "backend": str(getattr(device, "backend", "")),
            "replayable": replayable,
            "not_replayable_because": why,
            "max_steps": int(info.get("max_steps", 0)),
            "reset_info": jsonable({k: v for k, v in info.items() if k not in ("goal",)}),
            "started_at": time.time(),
            "meta": jsonable({**self.extra, **extra}),
        }
        self._episode = meta
        self._obs = row_obs
        self._t = 0
        self._return = 0.0
        self._invalid = 0
        self._last_info: dict[str, Any] = dict(info)
        self.writer.begin(episode_id, meta)
        return obs, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        return self._step(self.env.step, action)

    def step_parts(self, action: Any) -> tuple[ObservationParts, SupportsFloat, bool, bool, dict[str, Any]]:
        """:meth:`step` over the env's ``step_parts`` (see :meth:`reset_parts`)."""
        return self._step(self.env.step_parts, action)  # type: ignore[attr-defined]

    def _step(
        self, step: Callable[[Any], tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]], action: Any
    ) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = step(action)
        if self._episode is None:  # stepping without a recorded reset: nothing to attach it to
            return obs, reward, terminated, truncated, info
        self._write_row(self._obs, action=action, reward=float(reward), terminated=terminated, truncated=truncated, info=info)
        self._return += float(reward)
        self._invalid += int(bool(info.get("invalid_action", False)))
        self._last_info = dict(info)
        self._obs = self._row_observation(obs)
        if terminated or truncated:
            self._finish(status="complete", final_obs=True, terminated=bool(terminated), truncated=bool(truncated))
        return obs, reward, terminated, truncated, info

    def close(self) -> None:
        try:
            if self._episode is not None and self._writer is not None:
                self._finish(status="closed", final_obs=False)
        finally:
            if self._writer is not None:
                writer, self._writer = self._writer, None
                _release_writer(writer)
            super().close()

    def flush(self) -> None:
        """Wait until everything recorded so far is on disk."""
        self.writer.flush()

    # --- internals ----------------------------------------------------------------------------

    def _row_observation(self, obs: Any) -> Any:
        """``obs`` as the recorder keeps it until its row is written: its dicts copied (the
        caller may change them), and its pixel arrays replaced by the read-only frames the env
        copied them from, where the env names them (``observation_frames``). The writer then
        hashes only frames it has not seen, and the caller's copies are freed when the caller
        drops them."""
        if is_parts(obs):
            # reset_parts/step_parts (a native batch's sub-env): the batch writes its arrays from
            # these parts (and the next step overwrites them); the env's read-only sources stand for it.
            return source_observation(obs)
        kept = _shallow_observation(obs)
        if self._frame_sources is None or not isinstance(kept, dict):
            return kept
        sources = self._frame_sources(obs)
        if not isinstance(sources, Mapping):
            return kept
        shot, source = kept.get("screenshot"), sources.get("screenshot")
        if shot is not None and _stands_for(source, shot):
            kept["screenshot"] = source
        elif isinstance(shot, np.ndarray) and not frozen(shot):
            # The env gave no usable source (an env restored from a pickle has writable frames,
            # say): a copy keeps the promise that the caller's arrays are its own to change.
            kept["screenshot"] = np.array(shot)
        history = kept.get("history")
        frames = history.get("screenshots") if isinstance(history, dict) else None
        frame_sources = (sources.get("history") or {}).get("screenshots")
        if (
            isinstance(history, dict)
            and isinstance(frames, np.ndarray)
            and frame_sources is not None
            and len(frame_sources) == len(frames)
            and all(_stands_for(frame, frames[0]) for frame in frame_sources)
        ):
            history["screenshots"] = tuple(frame_sources)
        elif isinstance(history, dict) and isinstance(frames, np.ndarray) and not frozen(frames):
            history["screenshots"] = np.array(frames)
        return kept

    def _replayable(self, device: Any) -> tuple[bool, str]:
        if getattr(device, "backend", None) != "sim":
            return False, f"backend {getattr(device, 'backend', None)!r} is not the simulator"
        if self.env_id is None:
            return False, "no env id (the env was not made by gym.make; pass env_id=)"
        if not is_plain_json(self.env_kwargs):
            return False, "env options are not plain JSON (a device wrapper, a task object, ...)"
        return True, ""

    def _write_row(self, obs: Any, *, action: Any, reward: float | None, terminated: bool, truncated: bool, info: Any) -> None:
        assert self._episode is not None
        # Only references here (``obs`` is already as _row_observation keeps it): hashing,
        # encoding and serialising happen on the writer's thread.
        pending = _PendingRow(
            obs,
            str(self._episode.get("observation_goal", "")),
            self._t,
            # The string the agent sent; a structured action is stored as the env's string form of it.
            None if action is None else action if isinstance(action, str) else str((info or {}).get("action") or action),
            reward,
            bool(terminated),
            bool(truncated),
            None if info is None else dict(info),
        )
        if isinstance(action, Mapping) and info and info.get("invalid_action"):
            # Refused as sent: kept as sent too, so that replay can send it again.
            pending.action_input = _structured_input(action)
        self.writer.row(self._episode["episode_id"], pending)
        self._t += 1

    def _finish(self, *, status: str, final_obs: bool, terminated: bool = False, truncated: bool = False) -> None:
        meta = self._episode
        assert meta is not None
        if final_obs:
            self._write_row(self._obs, action=None, reward=None, terminated=terminated, truncated=truncated, info=None)
        info = self._last_info
        meta.update(
            status=status,
            complete=status == "complete",
            steps=self._t - (1 if final_obs else 0),
            rows=self._t,
            terminated=terminated,
            truncated=truncated,
            success=bool(info.get("success", False)),
            progress=float(info.get("progress", 0.0)),
            infra_error=str(info.get("infra_error", "")),
            invalid_actions=self._invalid,
            **{"return": self._return},
            ended_at=time.time(),
        )
        self.writer.end(meta["episode_id"], meta)
        self._episode = None


#: Wrappers that hand on the env's observation as it is (neither replaced nor changed in place).
OBSERVATION_PRESERVING_WRAPPERS: tuple[type[gym.Wrapper[Any, Any, Any, Any]], ...] = (
    OrderEnforcing,
    PassiveEnvChecker,
    TimeLimit,
    RecordEpisodeStatistics,
)


def _frame_sources(env: gym.Env[Any, Any]) -> Callable[[Any], Mapping[str, Any] | None] | None:
    """``env.unwrapped.observation_frames`` when the observations ``env`` returns are the
    unwrapped env's own: every wrapper in between is one of
    :data:`OBSERVATION_PRESERVING_WRAPPERS` (or a recorder). Another wrapper might change an
    observation in place, which its identity would not show; its observations are hashed."""
    layer: Any = env
    while isinstance(layer, gym.Wrapper):
        # Exact types: a subclass of an allowed wrapper may change observations.
        if type(layer) not in OBSERVATION_PRESERVING_WRAPPERS and not isinstance(layer, RecordEpisodes):
            return None
        layer = layer.env
    frames = getattr(layer, "observation_frames", None)
    return frames if callable(frames) else None


def _structured_input(action: Mapping[str, Any]) -> dict[str, Any] | None:
    """A structured action as plain JSON (``{"code", "label", "text"}``, NumPy scalars as
    numbers), or ``None`` when it holds anything else (it is then not replayed exactly)."""
    plain = plain_structured(action)
    for key, value in plain.items():
        number = key in ("code", "label") and type(value) is int and -(2**63) <= value < 2**63
        if not (number or (key == "text" and isinstance(value, str))):
            return None
    return plain


def _stands_for(source: Any, copy: Any) -> bool:
    """Whether ``source`` (what the env says ``copy`` was copied from) may be recorded in its
    place: an array of its shape and type that nothing can change."""
    return (
        isinstance(source, np.ndarray)
        and isinstance(copy, np.ndarray)
        and source.shape == copy.shape
        and source.dtype == copy.dtype
        and frozen(source)
    )


def _shallow_observation(obs: Any) -> Any:
    if not isinstance(obs, Mapping):
        return obs
    copy = dict(obs)
    if isinstance(copy.get("history"), Mapping):
        copy["history"] = dict(copy["history"])
    return copy


class _Appender:
    """An append-only file without a user-space buffer: :meth:`write` returns once the OS has
    all of ``data`` (a killed process keeps it; a power cut may not: nothing is fsynced)."""

    def __init__(self, path: Path) -> None:
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view) :]

    def close(self) -> None:
        if self._fd >= 0:
            fd, self._fd = self._fd, -1
            os.close(fd)


class _PendingRow:
    """One step as handed to the writer: references, turned into a JSON line on its thread."""

    __slots__ = ("action", "action_input", "goal", "info", "obs", "reward", "t", "terminated", "truncated")

    def __init__(
        self,
        obs: Any,
        goal: str,
        t: int,
        action: str | None,
        reward: float | None,
        terminated: bool,
        truncated: bool,
        info: dict[str, Any] | None,
    ) -> None:
        self.obs, self.goal, self.t, self.action = obs, goal, t, action
        self.reward, self.terminated, self.truncated, self.info = reward, terminated, truncated, info
        self.action_input: dict[str, Any] | None = None

    def line(self, writer: DatasetWriter, episode_id: str) -> bytes:
        """The step's ``steps.jsonl`` line (``writer`` stores the images it names, if new)."""
        row: dict[str, Any] = {"episode_id": episode_id}  # first: a line cut short still names its episode
        row.update(observation_row(self.obs, writer.image_ids(self.obs), self.goal))
        row["t"] = self.t
        row["action"] = self.action
        if self.action_input is not None:
            row["action_input"] = self.action_input
        row["reward"] = self.reward
        row["terminated"] = self.terminated
        row["truncated"] = self.truncated
        row["info"] = None if self.info is None else {k: v for k, v in self.info.items() if k not in ("goal", "task")}
        return dumps_line_bytes(row)


def observation_image_ids(obs: Mapping[str, Any], image: Callable[[np.ndarray], str]) -> ImageIds:
    """The ids ``image`` gives the screenshot and each history frame of ``obs``."""
    shot = obs.get("screenshot")
    frames = (obs.get("history") or {}).get("screenshots")
    return (image(shot) if shot is not None else None, [image(frame) for frame in frames] if frames is not None else None)


def observation_row(obs: Mapping[str, Any], ids: ImageIds, goal: str) -> dict[str, Any]:
    """The JSON fields of one cerebellum observation, its images as ``ids``
    (:func:`observation_image_ids`)."""
    history = obs.get("history") or {}
    row: dict[str, Any] = {
        "tree": obs.get("tree", ""),
        "labels": list(obs.get("labels", ())),
        "action_mask": bits(obs.get("action_mask", ())),
        "label_mask": bits(obs.get("label_mask", ())),
        "screenshot": ids[0],
        "history": {
            "actions": list(history.get("actions", ())),
            "subtrees": list(history.get("subtrees", ())),
            "mask": bits(history.get("mask", ())),
            "screenshots": ids[1],
        },
    }
    if obs.get("goal", "") != goal:
        row["goal"] = obs.get("goal", "")
    return row


def recorded_env(
    env_fn: Callable[[], gym.Env[Any, Any]], directory: str, agent: str | None = None, metadata: Mapping[str, Any] | None = None
) -> gym.Env[Any, Any]:
    """``env_fn()`` wrapped in :class:`RecordEpisodes` (module level, so partials of it pickle)."""
    return RecordEpisodes(env_fn(), directory, agent=agent, metadata=metadata)


def recording_env_fns(
    env_fns: Sequence[Callable[[], gym.Env[Any, Any]]],
    directory: str | os.PathLike[str],
    *,
    agent: str | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> list[Callable[[], gym.Env[Any, Any]]]:
    """``env_fns`` with each env wrapped in :class:`RecordEpisodes` (picklable when the given
    functions are, so ``async`` and ``ray`` vector envs work too).

    Example:
        >>> from functools import partial
        >>> import gymnasium as gym, tempfile, cerebellum_gym
        >>> from cerebellum_gym.vector import vectorize
        >>> fns = [partial(gym.make, "Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False)] * 2
        >>> envs = vectorize(recording_env_fns(fns, tempfile.mkdtemp(), agent="random"), "sync")
        >>> envs.num_envs
        2
        >>> envs.close()
    """
    return [partial(recorded_env, fn, str(directory), agent, dict(metadata) if metadata else None) for fn in env_fns]
