"""Reading datasets back: episodes, steps, and observations exactly as the env returned them.

Example:
    >>> from cerebellum_gym.datasets import open_dataset
    >>> data = open_dataset("runs/oracle-data")  # doctest: +SKIP
    >>> for episode in data.episodes():  # doctest: +SKIP
    ...     print(episode.meta["task"], episode.meta["success"], episode.actions)
    >>> for step in data.steps():  # doctest: +SKIP
    ...     obs = step.observation()          # screenshot and history frames decoded
    ...     step.action, step.reward
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from cerebellum_gym.core.actions import CODES
from cerebellum_gym.datasets.format import (
    EPISODE_FILE,
    EPISODES_DIR,
    MAX_IMAGE_BYTES,
    PART_EPISODES,
    PART_STEPS,
    PNG_MAGIC,
    STEPS_FILE,
    DatasetError,
    check_episode_id,
    check_image_id,
    check_png_header,
    contained,
    decode_image,
    encode_png,
    hash_function,
    image_id,
    image_path,
    loads_strict,
    part_folders,
    read_file_bytes,
    read_header,
    read_image_index,
    read_lines,
    shown_value,
    stored_image_ids,
    unbits,
)


@dataclass
class Step:
    """One recorded observation and what was done on it.

    Attributes:
        episode_id: the episode.
        t: the index in the episode (0: the reset observation).
        row: the stored fields (images as ids).
        action: the action sent on this observation (``None`` on an episode's final observation).
        reward: the reward the action earned (``None`` on the final observation).
        terminated: the action ended the episode.
        truncated: the step budget (or a device fault) ended the episode.
        info: the env's ``info`` after the action (``None`` on the final observation).
    """

    dataset: Dataset = field(repr=False)
    episode: Episode = field(repr=False)
    t: int
    row: dict[str, Any] = field(repr=False)

    @property
    def episode_id(self) -> str:
        return self.episode.episode_id

    @property
    def action(self) -> str | None:
        value = self.row.get("action")
        return None if value is None else str(value)

    @property
    def reward(self) -> float | None:
        value = self.row.get("reward")
        return None if value is None else float(value)

    @property
    def terminated(self) -> bool:
        return bool(self.row.get("terminated", False))

    @property
    def truncated(self) -> bool:
        return bool(self.row.get("truncated", False))

    @property
    def is_last(self) -> bool:
        return self.row.get("action") is None

    @property
    def info(self) -> dict[str, Any] | None:
        info = self.row.get("info")
        if info is None:
            return None
        return {"task": self.episode.meta.get("task", ""), "goal": self.episode.meta.get("goal", ""), **info}

    @property
    def image_ids(self) -> list[str]:
        """The ids of every image of this observation (screenshot first, then history frames)."""
        ids = [self.row["screenshot"]] if self.row.get("screenshot") else []
        return ids + list(self.row.get("history", {}).get("screenshots") or [])

    def observation(self, *, images: bool = True) -> dict[str, Any]:
        """The observation as the env returned it (images decoded), or with ``images=False`` the
        image ids in place of the arrays."""
        try:
            return self._observation(images)
        except DatasetError as exc:  # name the step as well as the image
            raise DatasetError(f"episode {self.episode_id} step {self.t}: {exc}") from None

    def _frames(self, ids: list[str]) -> np.ndarray:
        frames = [self.dataset.image(i) for i in ids]
        shapes = sorted({frame.shape for frame in frames})
        if len(shapes) > 1:  # np.stack's own error would name neither the step nor the images
            raise DatasetError(f"history frames of different shapes {', '.join(map(str, shapes))}")
        return np.stack(frames) if frames else np.zeros((0, 0, 0, 3), np.uint8)

    def _observation(self, images: bool) -> dict[str, Any]:
        row = self.row
        history = row.get("history", {})
        obs: dict[str, Any] = {
            "goal": row.get("goal", self.episode.meta.get("observation_goal", "")),
            "tree": row.get("tree", ""),
            "labels": tuple(row.get("labels", ())),
            "action_mask": unbits(row.get("action_mask", "")),
            "label_mask": unbits(row.get("label_mask", "")),
            "history": {
                "actions": tuple(history.get("actions", ())),
                "subtrees": tuple(history.get("subtrees", ())),
                "mask": unbits(history.get("mask", "")),
            },
        }
        shots = history.get("screenshots")
        if shots is not None:
            obs["history"]["screenshots"] = self._frames(shots) if images else list(shots)
        if row.get("screenshot") is not None:
            obs["screenshot"] = self.dataset.image(row["screenshot"]) if images else row["screenshot"]
        return obs


@dataclass
class Episode:
    """One recorded episode.

    Attributes:
        meta: ``episode.json`` (task, parameters, goal, seed, agent, env, outcome, status).
        rows: the stored step rows, oldest first.
        torn: the last line of ``steps.jsonl`` was cut short (the process was killed mid-write).
    """

    dataset: Dataset = field(repr=False)
    episode_id: str
    meta: dict[str, Any]
    rows: list[dict[str, Any]] = field(repr=False)
    torn: bool = False

    @property
    def complete(self) -> bool:
        """Finished normally (terminated or truncated) and fully written."""
        return bool(self.meta.get("complete")) and not self.torn

    @property
    def status(self) -> str:
        """``complete``, or why not: ``incomplete`` (the writer stopped mid-episode), ``reset``
        (reset before the end), ``closed`` (closed before the end)."""
        if self.complete:
            return "complete"
        status = str(self.meta.get("status", "running"))
        return "incomplete" if status in ("running", "complete") else status

    @property
    def actions(self) -> list[str]:
        return [str(r["action"]) for r in self.rows if r.get("action") is not None]

    @property
    def rewards(self) -> list[float]:
        return [float(r["reward"]) for r in self.rows if r.get("reward") is not None]

    def steps(self) -> Iterator[Step]:
        for t, row in enumerate(self.rows):
            yield Step(self.dataset, self, t, row)

    def __len__(self) -> int:
        return len(self.rows)


#: How a steps line of a part starts (the recorder writes the episode id first).
_EPISODE_PREFIX = re.compile(rb'\{"episode_id":"([^"\\]+)"')


@dataclass
class _PartEpisode:
    meta: dict[str, Any] | None = None
    rows: list[dict[str, Any]] = field(default_factory=list)
    torn: bool = False
    part: Path | None = None


def _entry(found: dict[str, _PartEpisode], episode_id: str, part: Path) -> _PartEpisode:
    """The episode ``episode_id`` of ``part``.

    Raises:
        DatasetError: another part has it too (a writer only writes its own ids: a part copied
            twice when datasets were merged, for instance, would double every episode).
    """
    entry = found.setdefault(episode_id, _PartEpisode(part=part))
    if entry.part != part:
        raise DatasetError(f"episode {episode_id} is in two parts, {entry.part} and {part} (a part copied twice?)")
    return entry


class Dataset:
    """A recorded dataset folder (see :mod:`cerebellum_gym.datasets.format`).

    Args:
        root: the folder.
        cache_images: decoded images kept in memory (screens repeat a lot).

    Raises:
        DatasetError: not a dataset, or a newer format.
    """

    def __init__(self, root: str | os.PathLike[str], *, cache_images: int = 256) -> None:
        self.root = Path(root)
        self.header = read_header(self.root)
        self.version = int(self.header["version"])
        self.hash_name = str(self.header.get("image_hash", "blake2b_128"))
        self.image_format = str(self.header["image_format"])
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_images
        self._png_cache: OrderedDict[str, bytes] = OrderedDict()
        self._parts: dict[str, _PartEpisode] | None = None
        self._index: dict[str, tuple[Path, int, int]] | None = None
        self._blobs_checked: set[Path] = set()

    def _part_episodes(self) -> dict[str, _PartEpisode]:
        """The episodes of the version-2 parts, read once (a snapshot: open the dataset again to
        see what a running writer added since)."""
        if self._parts is None:
            found: dict[str, _PartEpisode] = {}
            for part in part_folders(self.root):
                self._read_part(part, found)
            self._parts = found
        return self._parts

    def _read_part(self, part: Path, found: dict[str, _PartEpisode]) -> None:
        path = part / PART_EPISODES
        lines, _ = read_lines(path, self.root)
        for number, meta in _json_records(path, lines):
            _check_record(path, number, meta, _META_TYPES)
            entry = _entry(found, meta["episode_id"], part)
            entry.meta = meta  # the episode's last record counts
        path = part / PART_STEPS
        lines, tail = read_lines(path, self.root)
        for number, row in _json_records(path, lines):
            _check_record(path, number, row, _PART_ROW_TYPES)
            _entry(found, row.pop("episode_id"), part).rows.append(row)
        if tail:  # a line cut short: its episode (named first on the line) was being written
            match = _EPISODE_PREFIX.match(tail)
            if match is not None:
                _entry(found, match.group(1).decode(errors="replace"), part).torn = True

    def episode_ids(self) -> list[str]:
        """Episode ids in recording order."""
        found = [(float(e.meta.get("started_at", 0.0)), i) for i, e in self._part_episodes().items() if e.meta is not None]
        folder = self.root / EPISODES_DIR  # version 1: a folder per episode
        if folder.is_dir():
            for path in contained(self.root, folder).iterdir():
                meta_path = folder / path.name / EPISODE_FILE
                if meta_path.is_file():
                    # Opening the episode checks its name, its record and that it lies inside the dataset.
                    meta = self._folder_episode(path.name, rows=False).meta
                    found.append((float(meta.get("started_at", 0.0)), path.name))
        return [name for _, name in sorted(found)]

    def episode(self, episode_id: str) -> Episode:
        """One episode.

        Raises:
            DatasetError: no such episode (or not an episode id), or an unreadable record.
        """
        check_episode_id(episode_id)
        entry = self._part_episodes().get(episode_id)
        if entry is not None and entry.meta is not None:
            episode = Episode(self, episode_id, entry.meta, entry.rows, entry.torn)
        else:
            episode = self._folder_episode(episode_id)
        numbers = [row.get("t", t) for t, row in enumerate(episode.rows)]
        if numbers != list(range(len(numbers))):  # observation t is row t: offline evaluation and prompts rely on it
            shown = _shown_list(numbers)
            raise DatasetError(f"episode {episode_id}: its steps are numbered {shown}, not 0, 1, 2, ... (lines lost or repeated)")
        expected = episode.meta.get("rows")  # in an ended episode's record: the step lines written before it
        if isinstance(expected, int) and expected != len(episode.rows) and not episode.torn:  # torn: incomplete already
            raise DatasetError(f"episode {episode_id}: its record counts {expected} step lines, {len(episode.rows)} are there (lines lost)")
        return episode

    def _folder_episode(self, episode_id: str, *, rows: bool = True) -> Episode:
        check_episode_id(episode_id)  # it names a folder: never a path
        folder = self.root / EPISODES_DIR / episode_id
        meta_path = folder / EPISODE_FILE
        try:
            meta = loads_strict(read_file_bytes(meta_path, self.root))
        except FileNotFoundError:
            raise DatasetError(f"no episode {episode_id!r} in {self.root}") from None
        except (ValueError, RecursionError) as exc:
            raise DatasetError(f"{meta_path} is not valid JSON: {exc}") from None
        _check_record(meta_path, None, meta, _META_TYPES, episode_id=False)
        steps: list[dict[str, Any]] = []
        torn = False
        path = folder / STEPS_FILE
        lines, tail = read_lines(path, self.root) if rows else ([], b"")
        for number, line in enumerate(lines, 1):
            try:
                row = loads_strict(line)
            except (ValueError, RecursionError):
                if number == len(lines) and not tail:
                    torn = True  # version 1 wrote a line then its newline: the last may be cut short
                    break
                raise DatasetError(f"{path}: line {number} is not valid JSON") from None
            _check_record(path, number, row, _ROW_TYPES)
            steps.append(row)
        if tail:
            torn = True  # the last line has no newline: it was being written
        return Episode(self, episode_id, meta, steps, torn)

    def episodes(self, *, complete_only: bool = False) -> Iterator[Episode]:
        """Every episode in recording order (``complete_only``: skip interrupted ones)."""
        for episode_id in self.episode_ids():
            episode = self.episode(episode_id)
            if episode.complete or not complete_only:
                yield episode

    def steps(self, *, complete_only: bool = False, with_final: bool = True) -> Iterator[Step]:
        """Every step of every episode (``with_final=False``: only observations an action was taken on)."""
        for episode in self.episodes(complete_only=complete_only):
            for step in episode.steps():
                if with_final or not step.is_last:
                    yield step

    def image_bytes(self, ident: str) -> bytes:
        """The stored (encoded) bytes of image ``ident``.

        Raises:
            DatasetError: the image is missing, or its index entry or file is bad (outside the
                dataset, past the end of its file, over :data:`MAX_IMAGE_BYTES`).
        """
        check_image_id(ident)
        if self._index is None:
            self._index = read_image_index(self.root)
        where = self._index.get(ident)
        try:
            if where is None:  # version 1: a file per image
                return read_file_bytes(image_path(self.root, ident, self.image_format), self.root, limit=MAX_IMAGE_BYTES)
            blob, offset, size = where
            if blob not in self._blobs_checked:  # once per file: resolving a path costs a syscall per component
                contained(self.root, blob)
                self._blobs_checked.add(blob)
            with open(blob, "rb") as f:
                end = os.fstat(f.fileno()).st_size
                if offset + size > end:  # checked before reading: a bad entry must not allocate its size
                    raise DatasetError(f"image {ident} is cut short in {blob} (bytes {offset}..{offset + size} of {end})")
                f.seek(offset)
                data = f.read(size)
            if len(data) != size:
                raise DatasetError(f"image {ident} is cut short in {blob}")
            return data
        except FileNotFoundError:
            raise DatasetError(f"image {ident} is missing from {self.root}") from None
        except OSError as exc:
            raise DatasetError(f"cannot read image {ident} from {self.root}: {exc.strerror or exc}") from None

    def image_file(self, ident: str) -> Path | None:
        """The file holding image ``ident`` alone, if it has one (a version-1 PNG inside the
        dataset; ``None`` otherwise), for exports that link instead of copying."""
        if self.image_format != "png" or (self._index is not None and ident in self._index):
            return None
        path = image_path(self.root, ident)
        try:
            contained(self.root, path)
            with open(path, "rb") as f:
                check_png_header(f.read(24))  # what the link hands on must be a PNG of sane size
        except (DatasetError, OSError):
            return None  # the caller copies it through png_bytes, which says what is wrong
        return path if path.is_file() and not path.is_symlink() else None

    def image_ids(self) -> set[str]:
        """The ids of every image stored in the dataset."""
        return stored_image_ids(self.root)

    def png_bytes(self, ident: str) -> bytes:
        """Image ``ident`` as PNG bytes, whatever the stored format (what exports hand to tools).

        Raises:
            DatasetError: the image is missing.
        """
        if self.image_format == "png":
            return self._png(ident)
        # Converted once per image: exports ask for the same screens over and over.
        cached = self._png_cache.get(ident)
        if cached is None:
            cached = self._png_cache[ident] = self._png(ident)
            if len(self._png_cache) > self._cache_size * 4:
                self._png_cache.popitem(last=False)
        else:
            self._png_cache.move_to_end(ident)
        return cached

    def _png(self, ident: str) -> bytes:
        data = self.image_bytes(ident)
        if data[:8] != PNG_MAGIC:
            return encode_png(self._decode(ident, data))
        try:
            check_png_header(data)  # handed on undecoded: its declared size at least is checked
        except DatasetError as exc:
            raise DatasetError(f"image {ident}: {exc}") from None
        return data

    def image(self, ident: str) -> np.ndarray:
        """Image ``ident`` decoded (cached; treat it as read-only)."""
        cached = self._cache.get(ident)
        if cached is not None:
            self._cache.move_to_end(ident)
            return cached
        pixels = self._decode(ident)
        pixels.setflags(write=False)
        self._cache[ident] = pixels
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return pixels

    def _decode(self, ident: str, data: bytes | None = None) -> np.ndarray:
        data = self.image_bytes(ident) if data is None else data
        try:
            return decode_image(data)
        except DatasetError as exc:  # say which image, and where it is stored
            where = self._index.get(ident) if self._index is not None else None
            stored = f"{where[0]} at byte {where[1]}" if where is not None else str(image_path(self.root, ident, self.image_format))
            raise DatasetError(f"image {ident} ({stored}): {exc}") from None

    def verify_image(self, ident: str) -> str | None:
        """``None`` if image ``ident`` decodes to the pixels its id names, else what is wrong."""
        try:
            pixels = self._decode(ident)
        except DatasetError as exc:
            return str(exc)
        actual = image_id(pixels, hash_function(self.hash_name))
        return None if actual == ident else f"image {ident} decodes to different pixels (content hash {actual})"

    def __len__(self) -> int:
        return len(self.episode_ids())

    def __repr__(self) -> str:
        return f"Dataset({str(self.root)!r}, version={self.version})"


def _shown_list(values: list[Any], limit: int = 12) -> str:
    return ", ".join(map(str, values[:limit])) + (", ..." if len(values) > limit else "")


def open_dataset(root: str | os.PathLike[str]) -> Dataset:
    """Open a recorded dataset folder."""
    return Dataset(root)


def _json_records(path: Path, lines: Iterable[str | bytes]) -> Iterator[tuple[int, Any]]:
    """The line numbers and JSON values of a part file's complete lines.

    Raises:
        DatasetError: a line is not valid JSON (named by its number).
    """
    for number, line in enumerate(lines, 1):
        try:
            yield number, loads_strict(line)
        except (ValueError, RecursionError):  # RecursionError: nesting deeper than json reads
            raise DatasetError(f"{path}: line {number} is not valid JSON") from None


# What each field of a record may hold (JSON types; a missing field takes the reader's default).
_NUMBER = (int, float)
_NONE = type(None)
_META_TYPES: dict[str, tuple[type, ...]] = {
    "episode_id": (str,),
    "status": (str,),
    "complete": (bool,),
    "task": (str,),
    "task_params": (dict, _NONE),
    "goal": (str,),
    "observation_goal": (str,),
    "seed": (int, _NONE),
    "rng_state": (dict, _NONE),
    "options": (dict, _NONE),
    "agent": (str, _NONE),
    "env_id": (str, _NONE),
    "env_kwargs": (dict, _NONE),
    "replayable": (bool,),
    "reset_info": (dict, _NONE),
    "started_at": _NUMBER,
    "rows": (int,),
    "steps": (int,),
    "meta": (dict, _NONE),
    "success": (bool,),
    "progress": (*_NUMBER, _NONE),
    "return": (*_NUMBER, _NONE),
}
_ROW_TYPES: dict[str, tuple[type, ...]] = {
    "t": (int,),
    "tree": (str,),
    "goal": (str,),
    "labels": (list,),
    "action_mask": (str,),
    "label_mask": (str,),
    "screenshot": (str, _NONE),
    "history": (dict,),
    "action": (str, _NONE),
    "action_input": (dict, _NONE),
    "reward": (*_NUMBER, _NONE),
    "terminated": (bool,),
    "truncated": (bool,),
    "info": (dict, _NONE),
}
#: The fields of an ``info`` (and a reset's) that readers and exports convert.
_INFO_TYPES: dict[str, tuple[type, ...]] = {
    "progress": (*_NUMBER, _NONE),
    "success": (bool,),
    "invalid_action": (bool,),
    "error": (str, _NONE),
    "infra_error": (str, _NONE),
    "action": (str, _NONE),
}
_PART_ROW_TYPES = {"episode_id": (str,), **_ROW_TYPES}
_HISTORY_TYPES: dict[str, tuple[type, ...]] = {"actions": (list,), "subtrees": (list,), "mask": (str,), "screenshots": (list, _NONE)}
_ROW_REQUIRED = ("tree", "labels", "action_mask", "label_mask", "history")
_BITS = re.compile(r"[01]*")


def _check_record(path: Path, number: int | None, record: Any, types: dict[str, tuple[type, ...]], *, episode_id: bool = True) -> None:
    """Check a record's fields against ``types`` (and the values readers turn into paths,
    masks and arrays), so a damaged or hostile file fails here, named, not deep in a reader.

    Raises:
        DatasetError: naming the file, the line and the field.
    """
    where = f"{path}: line {number}" if number is not None else str(path)
    problem = _record_problem(record, types, episode_id)
    if problem is not None:
        raise DatasetError(f"{where}: {problem}")


def _record_problem(record: Any, types: dict[str, tuple[type, ...]], episode_id: bool) -> str | None:
    if not isinstance(record, dict):
        return f"expected a JSON object, not {type(record).__name__}"
    if episode_id and "episode_id" in types and "episode_id" not in record:
        return "no episode_id"
    if "tree" in types:  # a step: the observation's fields the recorder always writes
        missing = [key for key in _ROW_REQUIRED if key not in record]
        if missing:
            return f"no {', '.join(missing)}"
    for key, allowed in types.items():
        if key in record and not isinstance(record[key], allowed):
            return f"field {key!r} must be {_type_names(allowed)}, not {type(record[key]).__name__}"
        # JSON integers have no bound; Parquet's and numpy's have (an export would overflow).
        if type(record.get(key)) is int and not -(2**63) <= record[key] < 2**63:
            return f"field {key!r} is out of the 64-bit range: {shown_value(record[key])}"
    try:
        if "episode_id" in record:
            check_episode_id(record["episode_id"])
        if record.get("screenshot") is not None:
            check_image_id(record["screenshot"])
    except DatasetError as exc:
        return str(exc)
    sent = record.get("action_input")
    if sent is not None and (
        set(sent) - {"code", "label", "text"}
        or any(type(sent.get(key, 0)) is not int or not -(2**63) <= sent.get(key, 0) < 2**63 for key in ("code", "label"))
        or not isinstance(sent.get("text", ""), str)
    ):
        return "field 'action_input' must hold only an integer code and label and a text"
    for key in ("action_mask", "label_mask"):
        if key in record and _BITS.fullmatch(record[key]) is None:
            return f"field {key!r} must be a string of 0 and 1"
    if any(not isinstance(label, str) for label in record.get("labels", ())):
        return "field 'labels' must be a list of strings"
    # The observation space's shapes: agents index the masks by action code and by label.
    if "action_mask" in record and len(record["action_mask"]) != len(CODES):
        return f"field 'action_mask' must have {len(CODES)} entries (one per action code), not {len(record['action_mask'])}"
    if "label_mask" in record and len(record["label_mask"]) < len(record.get("labels", ())):
        return f"field 'label_mask' has {len(record['label_mask'])} entries, fewer than the {len(record['labels'])} labels"
    for key in _FREE_FORM:
        if key in record and _nesting(record[key]) > MAX_NESTING:
            return f"field {key!r} nests deeper than {MAX_NESTING} levels"
    for key in ("info", "reset_info"):
        info = record.get(key)
        if info is not None:
            for name, allowed in _INFO_TYPES.items():
                if name in info and not isinstance(info[name], allowed):
                    return f"field '{key}.{name}' must be {_type_names(allowed)}, not {type(info[name]).__name__}"
    history = record.get("history")
    if history is not None:
        return _history_problem(history)
    return None


#: Fields whose values are free-form JSON, and how deep they may nest: exports and replays walk
#: them recursively (json reads about 1,000 levels; a walk from inside an export, fewer).
_FREE_FORM = ("info", "reset_info", "task_params", "options", "env_kwargs", "meta", "rng_state")
MAX_NESTING = 64


def _nesting(value: Any) -> int:
    """How deep ``value`` nests (a scalar: 0), counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, depth)
            if deepest > MAX_NESTING:
                break
            stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return deepest


def _type_names(allowed: tuple[type, ...]) -> str:
    return " or ".join("null" if t is _NONE else t.__name__ for t in allowed)


def _history_problem(history: dict[str, Any]) -> str | None:
    for key, allowed in _HISTORY_TYPES.items():
        if key in history and not isinstance(history[key], allowed):
            return f"field 'history.{key}' has the wrong type ({type(history[key]).__name__})"
    for key in ("actions", "subtrees"):
        if any(not isinstance(item, str) for item in history.get(key, ())):
            return f"field 'history.{key}' must be a list of strings"
    if "mask" in history and _BITS.fullmatch(history["mask"]) is None:
        return "field 'history.mask' must be a string of 0 and 1"
    # One entry per history slot in each (the observation space's shape; prompt builders index them together).
    lengths = {key: len(history[key]) for key in ("actions", "subtrees", "mask", "screenshots") if history.get(key) is not None}
    if len(set(lengths.values())) > 1:
        return f"the history's fields differ in length ({', '.join(f'{k} {n}' for k, n in lengths.items())})"
    try:
        for ident in history.get("screenshots") or ():
            check_image_id(ident)
    except DatasetError as exc:
        return f"history.screenshots: {exc}"
    return None
