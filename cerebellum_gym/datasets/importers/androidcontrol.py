"""AndroidControl: GZIP TFRecords of ``tf.train.Example`` episodes.

Features read (AndroidControl's documented layout): ``episode_id`` (int64), ``goal`` (bytes),
``screenshots`` (PNG bytes, one per screen: one more than the actions, the last being the
screen after the last action), ``screenshot_widths`` / ``screenshot_heights`` (int64),
``accessibility_trees`` (android_env ``AndroidAccessibilityForest`` bytes, one per screen),
``actions`` (JSON, one per action) and ``step_instructions`` (bytes, one per action).

Action mapping: ``click`` / ``long_press`` at ``(x, y)`` (screen pixels) -> ``T`` / ``P`` of the
smallest labelled element holding the point (else dropped: ``tap_on_no_element``);
``scroll`` with ``direction`` up/down/left/right -> ``U``/``D``/``L``/``R`` as named: AndroidControl
and AndroidWorld name the direction the view moves to (``down`` shows what is below), the meaning
of this project's ``D``; ``input_text`` -> ``K``; ``navigate_back`` / ``navigate_home`` -> ``B`` /
``H``; ``wait`` -> ``W``; ``open_app`` -> dropped (counted as ``open_app``): the card's action set
has no code for it, so its trainer cannot have a target for it either; the episode goes on, and
the next step's history says which app was opened. A last step ``F`` is added on the final
screen.
"""

from __future__ import annotations

import functools
import io
import json
import os
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from cerebellum_gym.core.observation import DEFAULT_SCREENSHOT_WIDTH
from cerebellum_gym.core.tree import UINode
from cerebellum_gym.datasets.importers.common import SourceAction, SourceEpisode, SourceStep
from cerebellum_gym.datasets.importers.protowire import WireError, parse_example, parse_forest
from cerebellum_gym.datasets.importers.tfrecord import read_records
from cerebellum_gym.devices.androidworld.tree import forest_to_tree

_SCROLLS = {"up": "U", "down": "D", "left": "L", "right": "R"}
_SIMPLE = {"navigate_back": "back", "navigate_home": "home", "wait": "wait"}


def map_source_action(raw: dict[str, Any]) -> SourceAction:
    """An AndroidControl action (its JSON object) as a :class:`SourceAction`."""
    kind = str(raw.get("action_type", ""))
    if kind in ("click", "long_press"):
        x, y = raw.get("x"), raw.get("y")
        point = (float(x), float(y)) if isinstance(x, int | float) and isinstance(y, int | float) else None
        return SourceAction("tap" if kind == "click" else "long_press", point=point, raw=raw)
    if kind == "scroll":
        return SourceAction("scroll", direction=_SCROLLS.get(str(raw.get("direction", "")).lower()), raw=raw)
    if kind == "input_text":
        return SourceAction("type", text=str(raw.get("text", "")), raw=raw)
    if kind in _SIMPLE:
        return SourceAction(_SIMPLE[kind], raw=raw)
    if kind == "open_app":
        return SourceAction("open_app", text=str(raw.get("app_name", "")), raw=raw)
    return SourceAction(kind or "unknown_action", raw=raw)


def decode_png(data: bytes, width: int = DEFAULT_SCREENSHOT_WIDTH) -> np.ndarray:
    """The screenshot, scaled to the observation's ``width`` while still a Pillow image: a box
    reduce by a whole factor first (a full-size array and a full-size bilinear resize cost
    about 50 ms a screen on 1080x2400, most of the import)."""
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        small = image if image.mode == "RGB" else image.convert("RGB")
        if small.width >= 2 * width:
            small = small.reduce(small.width // width)  # a box filter: every source pixel counts
        if small.width != width:
            # What is left is a ratio under 2: nearest after the box filter (a bilinear pass here
            # cost 3 times the rest of a step on the 2-CPU machine of docs/datasets.md).
            small = small.resize((width, max(1, round(small.height * width / small.width))), Image.Resampling.NEAREST)
        return np.asarray(small)


@functools.cache
def _decoders() -> ThreadPoolExecutor:
    # Pillow releases the GIL while it inflates and reduces: an episode's screens decode in parallel.
    return ThreadPoolExecutor(max_workers=max(1, min(8, os.cpu_count() or 1)), thread_name_prefix="androidcontrol-png")


def _decoded(feats: dict[str, Any]) -> list[np.ndarray]:
    shots = feats.get("screenshots", [])
    return list(_decoders().map(decode_png, shots)) if len(shots) > 1 else [decode_png(s) for s in shots]


def _screen(feats: dict[str, Any], i: int, decoded: list[np.ndarray]) -> tuple[UINode, np.ndarray | None, tuple[int, int]]:
    widths, heights = feats.get("screenshot_widths", []), feats.get("screenshot_heights", [])
    pixels = decoded[i] if i < len(decoded) else None
    if i < len(widths) and i < len(heights):
        size = (int(widths[i]), int(heights[i]))
    elif pixels is not None:
        size = (pixels.shape[1], pixels.shape[0])
    else:
        raise ValueError("no screen size")
    forest = parse_forest(feats["accessibility_trees"][i])
    return forest_to_tree(forest, size), pixels, size


def episode_from_example(feats: dict[str, Any]) -> SourceEpisode:
    """One AndroidControl episode from its Example's features.

    Raises:
        WireError, ValueError, KeyError, OSError: a damaged or wrong record (the caller counts it).
    """
    ids = feats.get("episode_id") or []
    if not ids:
        raise ValueError("no episode_id")
    goal = (feats.get("goal") or [b""])[0]
    actions = [json.loads(a) for a in feats.get("actions", [])]
    instructions = [s.decode("utf-8", "replace") for s in feats.get("step_instructions", [])]
    trees = feats.get("accessibility_trees", [])
    decoded = _decoded(feats)
    steps = []
    for i, raw in enumerate(actions):
        if i >= len(trees):
            raise ValueError(f"{len(actions)} actions but {len(trees)} accessibility trees")
        root, pixels, _ = _screen(feats, i, decoded)
        steps.append(SourceStep(root, pixels, map_source_action(raw), instructions[i] if i < len(instructions) else None))
    final_root = final_pixels = None
    if len(trees) > len(actions):
        final_root, final_pixels, _ = _screen(feats, len(actions), decoded)
    return SourceEpisode(
        str(ids[0]), goal.decode("utf-8", "replace") if isinstance(goal, bytes) else str(goal), steps, final_root, final_pixels
    )


def episodes(path: Path, damage: Counter[str]) -> Iterator[SourceEpisode]:
    """The episodes of one AndroidControl TFRecord file; damaged records are counted in
    ``damage`` (``bad_crc``, ``truncated``, ``wrong_proto``) and skipped."""
    for record in read_records(path, damage):
        try:
            feats = parse_example(record)
            if "actions" not in feats or "accessibility_trees" not in feats:
                raise ValueError("not an AndroidControl episode (no actions or accessibility_trees)")
            yield episode_from_example(feats)
        except (WireError, ValueError, KeyError, OSError, UnicodeDecodeError):
            damage["wrong_proto"] += 1


__all__ = ["decode_png", "episode_from_example", "episodes", "map_source_action"]
