"""What every importer shares: source steps mapped to action codes, rows built as the
simulator's recorder writes them, one part per source shard written atomically, and the report.

An importer turns its source into :class:`SourceEpisode` values (screens as trees plus pixels,
actions as :class:`SourceAction`); :func:`import_shards` labels each screen (random set-of-mark
bigrams from a generator seeded by the episode id and step, so an import is reproducible),
resolves taps to the smallest labelled element holding the point, writes the steps, and counts.

Atomic per shard: a shard is written into ``OUT/.importing/<part>/`` and renamed to
``OUT/parts/<part>/`` once whole, with its report (``import.json``) inside. A killed import
leaves only the temporary folder, removed on the next run; shards whose part exists are skipped,
so a resumed import adds no duplicate.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
from PIL import Image

from cerebellum_gym.core.actions import CODES
from cerebellum_gym.core.observation import DEFAULT_HISTORY_LEN, DEFAULT_HISTORY_WIDTH, DEFAULT_MAX_TREE_CHARS, DEFAULT_SCREENSHOT_WIDTH
from cerebellum_gym.core.som import DEFAULT_MAX_LABELS, LabelledScreen, label_screen, outline
from cerebellum_gym.core.tree import UINode, compact_subtree
from cerebellum_gym.datasets.format import (
    PART_EPISODES,
    PART_IMAGES,
    PART_INDEX,
    PART_STEPS,
    PARTS_DIR,
    bits,
    dumps_line_bytes,
    encode_image,
    ensure_header,
    hash_function,
    image_id,
    stored_image_ids,
    write_json_atomic,
)

IMPORT_REPORT: Final = "import.json"
TMP_DIR: Final = ".importing"


@dataclass
class SourceAction:
    """One source action, before it is mapped to a code.

    Attributes:
        kind: ``tap``, ``long_press``, ``scroll``, ``type``, ``back``, ``home``, ``wait``,
            ``done``, ``impossible``, or the source's own name for anything else (dropped, and
            counted under that name).
        point: ``(x, y)`` in device pixels for taps and long presses.
        direction: ``U``/``D``/``L``/``R`` for scrolls (this project's code: ``D`` shows what is below).
        text: typed text.
        raw: the source's action as it was (kept in the step's info).
    """

    kind: str
    point: tuple[float, float] | None = None
    direction: str | None = None
    text: str | None = None
    raw: Any = None


@dataclass
class SourceStep:
    root: UINode
    pixels: np.ndarray | None
    action: SourceAction
    instruction: str | None = None


@dataclass
class SourceEpisode:
    """An episode of a source: its steps, and the screen after the last action (``None`` when
    the source has none: the final ``F`` then cannot be placed and is counted as dropped)."""

    episode_id: str
    goal: str
    steps: list[SourceStep]
    final_root: UINode | None = None
    final_pixels: np.ndarray | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    #: ``done`` is already the last action (AITW's status actions): no ``F`` is added.
    ends_itself: bool = False


@dataclass
class ImportReport:
    """Counts of one import (or one shard): steps kept, steps dropped by reason, damaged
    records by reason, action codes, and the label hit rate of taps and long presses."""

    source: str = ""
    shards: int = 0
    episodes: int = 0
    steps_seen: int = 0
    steps_kept: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    damaged: Counter[str] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    taps: int = 0
    tap_hits: int = 0
    seconds: float = 0.0

    def add(self, other: ImportReport) -> None:
        self.shards += other.shards
        self.episodes += other.episodes
        self.steps_seen += other.steps_seen
        self.steps_kept += other.steps_kept
        self.dropped.update(other.dropped)
        self.damaged.update(other.damaged)
        self.codes.update(other.codes)
        self.taps += other.taps
        self.tap_hits += other.tap_hits
        self.seconds += other.seconds

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "shards": self.shards,
            "episodes": self.episodes,
            "steps_seen": self.steps_seen,
            "steps_kept": self.steps_kept,
            "dropped": dict(sorted(self.dropped.items())),
            "damaged": dict(sorted(self.damaged.items())),
            "codes": {c: self.codes[c] for c in CODES if self.codes[c]},
            "taps": self.taps,
            "tap_hits": self.tap_hits,
            "label_hit_rate": self.tap_hits / self.taps if self.taps else None,
            "seconds": self.seconds,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ImportReport:
        return cls(
            source=str(data.get("source", "")),
            shards=int(data.get("shards", 0)),
            episodes=int(data.get("episodes", 0)),
            steps_seen=int(data.get("steps_seen", 0)),
            steps_kept=int(data.get("steps_kept", 0)),
            dropped=Counter(data.get("dropped", {})),
            damaged=Counter(data.get("damaged", {})),
            codes=Counter(data.get("codes", {})),
            taps=int(data.get("taps", 0)),
            tap_hits=int(data.get("tap_hits", 0)),
            seconds=float(data.get("seconds", 0.0)),
        )

    def markdown(self) -> str:
        rate = f"{self.tap_hits}/{self.taps} = {100 * self.tap_hits / self.taps:.1f}%" if self.taps else "n/a"
        lines = [
            f"# Import: {self.source}",
            "",
            f"{self.shards} shards, {self.episodes} episodes, {self.steps_seen} source steps: {self.steps_kept} kept, "
            f"{sum(self.dropped.values())} dropped",
            "",
            f"Label hit rate (taps and long presses on a labelled element): {rate}",
            "",
            "| Dropped because | Steps |",
            "|---|---|",
            *([f"| {reason} | {n} |" for reason, n in sorted(self.dropped.items())] or ["| (none) | 0 |"]),
            "",
            "| Damaged records | Count |",
            "|---|---|",
            *([f"| {reason} | {n} |" for reason, n in sorted(self.damaged.items())] or ["| (none) | 0 |"]),
            "",
            "| Action code | Steps |",
            "|---|---|",
            *[f"| {c} | {self.codes[c]} |" for c in CODES if self.codes[c]],
        ]
        return "\n".join(lines) + "\n"


# --- mapping ----------------------------------------------------------------------------------

_SIMPLE: Final = {"back": "B", "home": "H", "wait": "W", "done": "F", "impossible": "I"}


def element_at(screen: LabelledScreen, point: tuple[float, float]) -> tuple[str, UINode] | None:
    """The labelled element holding ``point`` with the smallest area (the innermost of nested
    bounds; ties go to the later one in document order, the one drawn on top), or ``None``."""
    x, y = point
    best: tuple[int, str, UINode] | None = None
    for label, node in zip(screen.labels, screen.nodes, strict=True):
        left, top, right, bottom = node.bounds
        if left <= x < right and top <= y < bottom:
            area = (right - left) * (bottom - top)
            if best is None or area <= best[0]:
                best = (area, label, node)
    return None if best is None else (best[1], best[2])


def map_action(action: SourceAction, screen: LabelledScreen) -> tuple[str | None, UINode | None, str]:
    """``(action string, node acted on, drop reason)``: the string is ``None`` when the step is
    dropped, the reason then says why (``""`` otherwise)."""
    if action.kind in ("tap", "long_press"):
        if action.point is None:
            return None, None, "tap_without_point"
        if not screen.labels:
            return None, None, "tap_on_empty_tree"
        found = element_at(screen, action.point)
        if found is None:
            return None, None, "tap_on_no_element"
        return f"{'T' if action.kind == 'tap' else 'P'} {found[0]}", found[1], ""
    if action.kind == "scroll":
        if action.direction not in ("U", "D", "L", "R"):
            return None, None, "scroll_without_direction"
        return action.direction, None, ""
    if action.kind == "type":
        text = (action.text or "").replace("\n", " ").strip()
        if not text:
            return None, None, "type_empty_text"
        return f"K {text}", None, ""
    if action.kind == "done" and action.text and action.text.strip():
        return f"F {action.text.replace(chr(10), ' ').strip()}", None, ""
    code = _SIMPLE.get(action.kind)
    if code is not None:
        return code, None, ""
    return None, None, action.kind


def describe(action: SourceAction) -> str:
    """A dropped step's history text (what the prompt shows as the action taken)."""
    if action.point is not None:
        return f"{action.kind} at ({action.point[0]:.0f}, {action.point[1]:.0f})"
    extra = action.text or action.direction or ""
    return f"{action.kind} {extra}".strip()


# --- writing ----------------------------------------------------------------------------------


class PartWriter:
    """Writes one shard's episodes into a temporary part folder; :meth:`commit` renames it into
    ``parts/`` (a reader never sees half a shard)."""

    def __init__(self, out: Path, name: str, known: set[str]) -> None:
        header = ensure_header(out)
        self.image_format = str(header["image_format"])
        self._digest = hash_function(str(header["image_hash"]))
        self.out, self.name = out, name
        self.tmp = out / TMP_DIR / name
        shutil.rmtree(self.tmp, ignore_errors=True)  # a killed run's leftovers
        self.tmp.mkdir(parents=True)
        self._known = known
        self._files = {key: open(self.tmp / key, "wb") for key in (PART_EPISODES, PART_STEPS, PART_IMAGES, PART_INDEX)}  # noqa: SIM115
        self._offset = 0

    def image(self, pixels: np.ndarray) -> str:
        ident = image_id(pixels, self._digest)
        if ident not in self._known:
            data = encode_image(pixels, self.image_format)
            self._files[PART_IMAGES].write(data)
            self._files[PART_INDEX].write(f"{ident} {self._offset} {len(data)}\n".encode())
            self._offset += len(data)
            self._known.add(ident)
        return ident

    def episode(self, meta: dict[str, Any], rows: list[dict[str, Any]]) -> None:
        for row in rows:
            self._files[PART_STEPS].write(dumps_line_bytes({"episode_id": meta["episode_id"], **row}))
        self._files[PART_EPISODES].write(dumps_line_bytes(meta))

    def commit(self, report: ImportReport) -> None:
        for f in self._files.values():
            f.flush()
            os.fsync(f.fileno())
            f.close()
        write_json_atomic(self.tmp / IMPORT_REPORT, report.to_json())
        (self.out / PARTS_DIR).mkdir(exist_ok=True)
        os.rename(self.tmp, self.out / PARTS_DIR / self.name)

    def abandon(self) -> None:
        for f in self._files.values():
            f.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


def _scaled(pixels: np.ndarray, width: int) -> np.ndarray:
    height = max(1, round(pixels.shape[0] * width / pixels.shape[1]))
    if pixels.shape[1] == width and pixels.shape[0] == height:
        return pixels
    if pixels.shape[1] == 2 * width:  # history frames: half the current one, a box filter (several times cheaper)
        return np.asarray(Image.fromarray(pixels).reduce(2))
    return np.asarray(Image.fromarray(pixels).resize((width, height), Image.Resampling.BILINEAR))


def _rng_seed(episode_id: str, t: int) -> int:
    return zlib.crc32(f"{episode_id}:{t}".encode())


@dataclass
class _Frame:
    root: UINode
    pixels: np.ndarray | None
    screen: LabelledScreen
    shot: str | None
    scale: float


def episode_rows(
    episode: SourceEpisode, writer: PartWriter, report: ImportReport, *, history_len: int = DEFAULT_HISTORY_LEN
) -> tuple[list[dict[str, Any]], int]:
    """The step rows of ``episode`` (kept steps numbered from 0, then the final observation) and
    how many were kept; counts go to ``report``."""
    rows: list[dict[str, Any]] = []
    hist_actions: list[str] = []
    hist_subtrees: list[str] = []
    hist_shots: list[str | None] = []
    steps: list[tuple[SourceStep | None, UINode, np.ndarray | None]] = [(s, s.root, s.pixels) for s in episode.steps]
    if not episode.ends_itself:
        if episode.final_root is not None:
            steps.append((None, episode.final_root, episode.final_pixels))  # the added F
        else:
            report.dropped["final_without_screen"] += 1
    last: _Frame | None = None
    for index, (step, root, pixels) in enumerate(steps):
        frame = _frame(episode.episode_id, index, root, pixels, writer)
        action = step.action if step is not None else SourceAction("done", raw={"added": "last step"})
        report.steps_seen += 1
        text, node, reason = map_action(action, frame.screen)
        if action.kind in ("tap", "long_press"):
            report.taps += 1
            report.tap_hits += text is not None
        history = _history(hist_actions, hist_subtrees, hist_shots, history_len)
        if text is None:
            report.dropped[reason] += 1
        else:
            report.codes[text[0]] += 1
            final = text[0] in "FI"
            rows.append(_row(frame, len(rows), text, history, final, success=text[0] == "F", info=_info(step, action, index, text)))
            last = frame
        # History: what was done on this screen, whether kept or not (the next prompt shows it).
        hist_actions.append(text if text is not None else describe(action))
        hist_subtrees.append(compact_subtree(node) if node is not None else "")
        hist_shots.append(_history_frame(frame, node, writer))
        if text is not None and text[0] in "FI":
            break
    if rows and last is not None:
        history = _history(hist_actions, hist_subtrees, hist_shots, history_len)
        end = _row(last, len(rows), None, history, True, success=rows[-1]["action"][0] == "F", info=None)
        end["reward"] = None
        rows.append(end)
    return rows, len(rows) - 1 if rows else 0


def _frame(episode_id: str, index: int, root: UINode, pixels: np.ndarray | None, writer: PartWriter) -> _Frame:
    screen = label_screen(root, np.random.default_rng(_rng_seed(episode_id, index)), DEFAULT_MAX_LABELS)
    shot = None
    scale = 1.0
    if pixels is not None:
        small = _scaled(pixels, DEFAULT_SCREENSHOT_WIDTH)
        # Bounds are device pixels (the root spans the screen); an importer may hand pixels pre-scaled.
        device_width = root.bounds[2] - root.bounds[0]
        scale = DEFAULT_SCREENSHOT_WIDTH / (device_width if device_width > 0 else pixels.shape[1])
        shot = writer.image(small)
        pixels = small
    return _Frame(root, pixels, screen, shot, scale)


def _history_frame(frame: _Frame, node: UINode | None, writer: PartWriter) -> str | None:
    if frame.pixels is None:
        return None
    small = _scaled(frame.pixels, DEFAULT_HISTORY_WIDTH)
    if node is not None:  # the element acted on, outlined, as the simulator's history frames show it
        small = small.copy()
        outline(small, node.bounds, frame.scale * DEFAULT_HISTORY_WIDTH / DEFAULT_SCREENSHOT_WIDTH)
    return writer.image(small)


def _history(actions: list[str], subtrees: list[str], shots: list[str | None], n: int) -> dict[str, Any]:
    pad = n - min(n, len(actions))
    have = [s for s in shots[-n:]]
    screenshots: list[str] | None = None
    if all(s is not None for s in have):
        first = have[0] if have else None
        screenshots = [str(first)] * pad + [str(s) for s in have] if first is not None else None
    return {
        "actions": [""] * pad + actions[-n:],
        "subtrees": [""] * pad + subtrees[-n:],
        "mask": "0" * pad + "1" * (n - pad),
        "screenshots": screenshots,
    }


def _info(step: SourceStep | None, action: SourceAction, index: int, text: str) -> dict[str, Any]:
    info: dict[str, Any] = {
        "action": text,
        "invalid_action": False,
        "error": "",
        "infra_error": "",
        "source_step": index,
        "source_action": action.raw,
    }
    if step is not None and step.instruction:
        info["step_instruction"] = step.instruction
    return info


def _row(
    frame: _Frame, t: int, action: str | None, history: dict[str, Any], terminated: bool, *, success: bool, info: Any
) -> dict[str, Any]:
    screen = frame.screen
    mask = ["1"] * len(CODES)
    if not screen.labels:
        mask[CODES.index("T")] = mask[CODES.index("P")] = "0"
    if info is not None:
        info["success"] = success and terminated
    return {
        "tree": screen.text(DEFAULT_MAX_TREE_CHARS),
        "labels": list(screen.labels),
        "action_mask": "".join(mask),
        "label_mask": bits(np.arange(DEFAULT_MAX_LABELS) < len(screen.labels)),
        "screenshot": frame.shot,
        "history": history,
        "t": t,
        "action": action,
        "reward": 1.0 if action == "F" else 0.0,
        "terminated": terminated,
        "truncated": False,
        "info": info,
    }


# --- shards -----------------------------------------------------------------------------------

Shard = tuple[str, int | None, Callable[[Counter[str]], Iterator[SourceEpisode]]]


def part_name(source: str, shard_name: str) -> str:
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in shard_name)
    return f"import-{source}-{safe}"


def import_shards(
    source: str,
    shards: Sequence[Shard],
    out: str | os.PathLike[str],
    *,
    progress: bool = True,
    limit: int | None = None,
) -> ImportReport:
    """Import ``shards`` (``(name, shard number, episodes(damage counter))``) into the dataset
    folder ``out``; shards already imported are skipped (their reports still count).

    Returns:
        The whole import's report (also written to ``OUT/import_report.json`` and ``.md``).
    """
    root = Path(out)
    ensure_header(root)
    shutil.rmtree(root / TMP_DIR, ignore_errors=True)
    total = ImportReport(source=source)
    known = stored_image_ids(root)
    bar = _Progress(len(shards), progress)
    for order, (name, number, episodes) in enumerate(shards):
        part = part_name(source, name)
        done = root / PARTS_DIR / part / IMPORT_REPORT
        if done.is_file():
            total.add(ImportReport.from_json(json.loads(done.read_text())))
            bar.update(0, skipped=True)
            continue
        report = _import_shard(source, root, part, number, order, episodes, known, bar, limit)
        total.add(report)
        bar.shard_done(name)
    bar.close()
    write_json_atomic(root / "import_report.json", total.to_json())
    (root / "import_report.md").write_text(total.markdown())
    return total


def _import_shard(
    source: str,
    root: Path,
    part: str,
    number: int | None,
    order: int,
    episodes: Callable[[Counter[str]], Iterator[SourceEpisode]],
    known: set[str],
    bar: _Progress,
    limit: int | None,
) -> ImportReport:
    tick = time.perf_counter()
    report = ImportReport(source=source, shards=1)
    writer = PartWriter(root, part, set(known))
    try:
        for index, episode in enumerate(episodes(report.damaged)):
            if limit is not None and index >= limit:
                break
            rows, kept = episode_rows(episode, writer, report)
            report.steps_kept += kept
            if not rows:
                report.dropped["episode_without_steps"] += 1
                continue
            report.episodes += 1
            writer.episode(_meta(source, episode, number, order, index, rows), rows)
            bar.update(len(episode.steps))
        report.seconds = time.perf_counter() - tick
        writer.commit(report)
    except BaseException:
        writer.abandon()
        raise
    known.update(writer._known)
    return report


def _meta(source: str, episode: SourceEpisode, shard: int | None, order: int, index: int, rows: list[dict[str, Any]]) -> dict[str, Any]:
    ends_with_f = rows[-2]["action"] == "F" if len(rows) > 1 else False
    return {
        "format_version": 2,
        "episode_id": f"{source}-{episode.episode_id}",
        "status": "complete",
        "complete": True,
        "task": source,
        "task_params": None,
        "goal": episode.goal,
        "observation_goal": episode.goal,
        "seed": None,
        "agent": "human",
        "env_id": None,
        "backend": f"import:{source}",
        "replayable": False,
        "not_replayable_because": f"imported from {source}: no simulator state to replay",
        # Recording order: shards in their order, episodes in theirs.
        "started_at": float(order * 1_000_000 + index),
        "meta": {"source": source, "shard": shard, "source_episode_id": episode.episode_id, **episode.meta},
        "shard": shard,
        "steps": len(rows) - 1,
        "rows": len(rows),
        "terminated": True,
        "truncated": False,
        # A demonstration that reached its end: success as the source recorded it (done = solved).
        "success": ends_with_f,
        "progress": 1.0 if ends_with_f else 0.0,
        "return": 1.0 if ends_with_f else 0.0,
    }


class _Progress:
    """tqdm's bar where installed (the ``eval`` extra), else a line per shard on stderr."""

    def __init__(self, shards: int, enabled: bool) -> None:
        self.enabled = enabled
        self.shards = shards
        self.done = 0
        self.steps = 0
        self._bar: Any = None
        if enabled:
            try:
                from tqdm import tqdm

                self._bar = tqdm(unit=" steps", desc="import", file=sys.stderr)
            except ImportError:
                self._bar = None

    def update(self, steps: int, *, skipped: bool = False) -> None:
        self.steps += steps
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.update(steps)
            self._bar.set_postfix_str("resumed: a shard already imported" if skipped else "", refresh=False)
        elif skipped:
            print("import: a shard already imported, skipped", file=sys.stderr)

    def shard_done(self, name: str) -> None:
        self.done += 1
        if self.enabled and self._bar is None:  # no tqdm: a line per shard
            print(f"import: {self.done}/{self.shards} shards ({name}), {self.steps} steps", file=sys.stderr)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def iter_shards(paths: Iterable[Path]) -> list[Path]:
    """The source files of ``paths`` (files as given, folders' files in name order)."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out.extend(sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith(".")))
        else:
            out.append(path)
    return out


def shard_number(name: str) -> int | None:
    """The shard number a file name carries (``android_control-00018-of-00020`` -> 18)."""
    import re

    match = re.search(r"(\d+)-of-\d+", name) or re.search(r"(\d+)(?!.*\d)", name)
    return int(match.group(1)) if match else None
