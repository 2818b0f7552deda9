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

import json
import os
import re
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from cerebellum_gym.datasets.format import (
    EPISODE_FILE,
    EPISODES_DIR,
    PART_EPISODES,
    PART_STEPS,
    STEPS_FILE,
    DatasetError,
    decode_image,
    hash_function,
    image_id,
    image_path,
    part_folders,
    png_bytes,
    read_header,
    read_image_index,
    read_lines,
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
            obs["history"]["screenshots"] = np.stack([self.dataset.image(i) for i in shots]) if images else list(shots)
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
        lines, _ = read_lines(part / PART_EPISODES)
        for meta in _json_records(part / PART_EPISODES, lines):
            entry = found.setdefault(str(meta.get("episode_id")), _PartEpisode())
            entry.meta = meta  # the episode's last record counts
        lines, tail = read_lines(part / PART_STEPS)
        for row in _json_records(part / PART_STEPS, lines):
            found.setdefault(str(row.pop("episode_id", "")), _PartEpisode()).rows.append(row)
        if tail:  # a line cut short: its episode (named first on the line) was being written
            match = _EPISODE_PREFIX.match(tail)
            if match is not None:
                found.setdefault(match.group(1).decode(), _PartEpisode()).torn = True

    def episode_ids(self) -> list[str]:
        """Episode ids in recording order."""
        found = [(float(e.meta.get("started_at", 0.0)), i) for i, e in self._part_episodes().items() if e.meta is not None]
        folder = self.root / EPISODES_DIR  # version 1: a folder per episode
        if folder.is_dir():
            for path in folder.iterdir():
                meta_path = path / EPISODE_FILE
                if meta_path.is_file():
                    try:
                        started = float(json.loads(meta_path.read_text()).get("started_at", 0.0))
                    except (ValueError, OSError):
                        started = 0.0
                    found.append((started, path.name))
        return [name for _, name in sorted(found)]

    def episode(self, episode_id: str) -> Episode:
        """One episode.

        Raises:
            DatasetError: no such episode, or an unreadable record.
        """
        entry = self._part_episodes().get(episode_id)
        if entry is not None and entry.meta is not None:
            return Episode(self, episode_id, entry.meta, entry.rows, entry.torn)
        return self._folder_episode(episode_id)

    def _folder_episode(self, episode_id: str) -> Episode:
        folder = self.root / EPISODES_DIR / episode_id
        try:
            meta = json.loads((folder / EPISODE_FILE).read_text())
        except FileNotFoundError:
            raise DatasetError(f"no episode {episode_id!r} in {self.root}") from None
        except ValueError as exc:
            raise DatasetError(f"{folder / EPISODE_FILE} is not valid JSON: {exc}") from None
        rows: list[dict[str, Any]] = []
        torn = False
        try:
            text = (folder / STEPS_FILE).read_text(encoding="utf-8")
        except FileNotFoundError:
            text = ""
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        elif lines:
            torn = True  # the last line has no newline: it was being written
            lines.pop()
        for number, line in enumerate(lines, 1):
            try:
                rows.append(json.loads(line))
            except ValueError:
                if number == len(lines):
                    torn = True
                    break
                raise DatasetError(f"{folder / STEPS_FILE}: line {number} is not valid JSON") from None
        return Episode(self, episode_id, meta, rows, torn)

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
            DatasetError: the image is missing.
        """
        if self._index is None:
            self._index = read_image_index(self.root)
        where = self._index.get(ident)
        try:
            if where is None:  # version 1: a file per image
                return image_path(self.root, ident, self.image_format).read_bytes()
            blob, offset, size = where
            with open(blob, "rb") as f:
                f.seek(offset)
                data = f.read(size)
            if len(data) != size:
                raise DatasetError(f"image {ident} is cut short in {blob}")
            return data
        except FileNotFoundError:
            raise DatasetError(f"image {ident} is missing from {self.root}") from None

    def image_ids(self) -> set[str]:
        """The ids of every image stored in the dataset."""
        return stored_image_ids(self.root)

    def png_bytes(self, ident: str) -> bytes:
        """Image ``ident`` as PNG bytes, whatever the stored format (what exports hand to tools).

        Raises:
            DatasetError: the image is missing.
        """
        if self.image_format == "png":
            return png_bytes(self.image_bytes(ident))
        # Converted once per image: exports ask for the same screens over and over.
        cached = self._png_cache.get(ident)
        if cached is None:
            cached = self._png_cache[ident] = png_bytes(self.image_bytes(ident))
            if len(self._png_cache) > self._cache_size * 4:
                self._png_cache.popitem(last=False)
        else:
            self._png_cache.move_to_end(ident)
        return cached

    def image(self, ident: str) -> np.ndarray:
        """Image ``ident`` decoded (cached; treat it as read-only)."""
        cached = self._cache.get(ident)
        if cached is not None:
            self._cache.move_to_end(ident)
            return cached
        pixels = decode_image(self.image_bytes(ident))
        pixels.setflags(write=False)
        self._cache[ident] = pixels
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return pixels

    def verify_image(self, ident: str) -> str | None:
        """``None`` if image ``ident`` decodes to the pixels its id names, else what is wrong."""
        try:
            pixels = decode_image(self.image_bytes(ident))
        except DatasetError as exc:
            return str(exc)
        except Exception as exc:
            return f"image {ident} does not decode: {exc}"
        actual = image_id(pixels, hash_function(self.hash_name))
        return None if actual == ident else f"image {ident} decodes to different pixels (content hash {actual})"

    def __len__(self) -> int:
        return len(self.episode_ids())

    def __repr__(self) -> str:
        return f"Dataset({str(self.root)!r}, version={self.version})"


def open_dataset(root: str | os.PathLike[str]) -> Dataset:
    """Open a recorded dataset folder."""
    return Dataset(root)


def _json_records(path: Path, lines: Iterable[str | bytes]) -> Iterator[dict[str, Any]]:
    """The JSON records of a part file's complete lines.

    Raises:
        DatasetError: a line is not valid JSON (named by its number).
    """
    for number, line in enumerate(lines, 1):
        try:
            yield json.loads(line)
        except ValueError:
            raise DatasetError(f"{path}: line {number} is not valid JSON") from None
