"""Android in the Wild: TFRecords (GZIP or plain) of one ``tf.train.Example`` per step.

Features read (AITW's documented layout): ``episode_id``, ``goal_info``, ``step_id``,
``image/encoded`` (raw ``uint8`` pixels of ``image/height`` x ``image/width`` x
``image/channels``; PNG or JPEG bytes are accepted too), ``image/ui_annotations_positions``
(normalised ``y, x, height, width`` per element, flattened), ``image/ui_annotations_text``,
``image/ui_annotations_ui_types``, ``results/action_type``, ``results/yx_touch``,
``results/yx_lift`` (normalised ``y, x``) and ``results/type_action``.

Steps of an episode are consecutive records with the same ``episode_id``. The screen's tree is
its annotation boxes, each a clickable element (AITW records no clickability), so taps go to the
smallest box holding the touch point. Action types: 4 (dual point) is a tap when touch and lift
lie less than 0.04 apart (normalised distance, as AITW's own code tells taps from swipes), else
a scroll: the finger's main movement names the content revealed, so a finger moving up scrolls
``D`` (what is below comes into view) and one moving left scrolls ``R``; 3 -> ``K``; 5 / 6 ->
``B`` / ``H``; 7 (press enter) has no code and is dropped (``press_enter``); 10 / 11 -> ``F`` /
``I`` (the episode's own end: no ``F`` is added).
"""

from __future__ import annotations

import io
import math
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import numpy as np
from PIL import Image

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.datasets.importers.common import SourceAction, SourceEpisode, SourceStep
from cerebellum_gym.datasets.importers.protowire import WireError, parse_example
from cerebellum_gym.datasets.importers.tfrecord import read_records

#: Touch-to-lift distance under which a dual-point gesture is a tap (AITW's threshold).
TAP_DISTANCE: Final = 0.04
_TYPES: Final = {3: "type", 5: "back", 6: "home", 7: "press_enter", 10: "done", 11: "impossible"}


def swipe_direction(touch: tuple[float, float], lift: tuple[float, float]) -> str:
    """The scroll code of a swipe from ``touch`` to ``lift`` (normalised ``(y, x)``)."""
    dy, dx = lift[0] - touch[0], lift[1] - touch[1]
    if abs(dy) >= abs(dx):
        return "D" if dy < 0 else "U"
    return "R" if dx < 0 else "L"


def _pixels(feats: dict[str, Any]) -> np.ndarray:
    data = feats["image/encoded"][0]
    height, width = int(feats["image/height"][0]), int(feats["image/width"][0])
    channels = int((feats.get("image/channels") or [3])[0])
    if len(data) == height * width * channels:
        array = np.frombuffer(data, np.uint8).reshape(height, width, channels)
        return array[..., :3] if channels >= 3 else np.repeat(array[..., :1], 3, axis=2)
    with Image.open(io.BytesIO(data)) as image:
        return np.asarray(image.convert("RGB"))


def _tree(feats: dict[str, Any], width: int, height: int) -> UINode:
    positions = feats.get("image/ui_annotations_positions", [])
    texts = feats.get("image/ui_annotations_text", [])
    kinds = feats.get("image/ui_annotations_ui_types", [])
    root = UINode("android.widget.FrameLayout", (0, 0, width, height))
    for i in range(len(positions) // 4):
        y, x, h, w = positions[4 * i : 4 * i + 4]
        bounds = (round(x * width), round(y * height), round((x + w) * width), round((y + h) * height))
        kind = kinds[i].decode("utf-8", "replace") if i < len(kinds) else ""
        text = texts[i].decode("utf-8", "replace") if i < len(texts) else ""
        is_text = kind == "TEXT"
        root.children.append(
            UINode(
                "android.widget.TextView" if is_text else "android.widget.ImageView",
                bounds,
                text=text if is_text else "",
                content_desc="" if is_text else (text or kind.removeprefix("ICON_").lower()),
                clickable=True,
                index=i,
            )
        )
    return root


def step_action(feats: dict[str, Any], width: int, height: int) -> SourceAction:
    kind = int(feats["results/action_type"][0])
    raw: dict[str, Any] = {"action_type": kind}
    if kind == 4:
        touch = tuple(feats["results/yx_touch"][:2])
        lift = tuple(feats["results/yx_lift"][:2])
        raw.update(yx_touch=list(touch), yx_lift=list(lift))
        if math.dist(touch, lift) < TAP_DISTANCE:
            return SourceAction("tap", point=(touch[1] * width, touch[0] * height), raw=raw)
        return SourceAction("scroll", direction=swipe_direction(touch, lift), raw=raw)
    if kind == 3:
        text = (feats.get("results/type_action") or [b""])[0].decode("utf-8", "replace")
        raw["type_action"] = text
        return SourceAction("type", text=text, raw=raw)
    return SourceAction(_TYPES.get(kind, f"action_type_{kind}"), raw=raw)


def _step(feats: dict[str, Any]) -> tuple[str, str, SourceStep]:
    pixels = _pixels(feats)
    height, width = pixels.shape[:2]
    episode_id = feats["episode_id"][0].decode("utf-8", "replace")
    goal = (feats.get("goal_info") or [b""])[0].decode("utf-8", "replace")
    return episode_id, goal, SourceStep(_tree(feats, width, height), pixels, step_action(feats, width, height))


def episodes(path: Path, damage: Counter[str]) -> Iterator[SourceEpisode]:
    """The episodes of one AITW file (consecutive steps with one ``episode_id``)."""
    current: SourceEpisode | None = None
    for record in read_records(path, damage):
        try:
            episode_id, goal, step = _step(parse_example(record))
        except (WireError, ValueError, KeyError, IndexError, OSError, AttributeError):
            damage["wrong_proto"] += 1
            continue
        if current is not None and current.episode_id != episode_id:
            yield current
            current = None
        if current is None:
            current = SourceEpisode(episode_id, goal, [])
        current.steps.append(step)
        if step.action.kind in ("done", "impossible"):
            current.ends_itself = True
    if current is not None:
        yield current


__all__ = ["TAP_DISTANCE", "episodes", "step_action", "swipe_direction"]
