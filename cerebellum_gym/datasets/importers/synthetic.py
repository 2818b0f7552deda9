"""Small source files in the documented layouts, for tests and the import benchmark (nothing is
downloaded: the files are built here). Forests are written by the simulator's own
``AndroidAccessibilityForest`` writer (:mod:`cerebellum_gym.sim.a11y`)."""

from __future__ import annotations

import json
import struct
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

import cerebellum_gym.sim.shell  # noqa: F401  # first: sim.a11y is imported through the shell (a cycle otherwise)
from cerebellum_gym.core.tree import UINode
from cerebellum_gym.datasets.format import encode_png
from cerebellum_gym.sim import a11y


def encode_example(features: Mapping[str, Sequence[bytes] | Sequence[int] | Sequence[float]]) -> bytes:
    """A ``tf.train.Example`` of ``features``: lists of bytes go to a BytesList, of ints to an
    Int64List (packed), of floats to a FloatList (packed); written with the simulator's protobuf
    writer (``Example.features`` 1 -> ``Features.feature`` map entries 1 of key 1 and value 2)."""
    features_msg = a11y._Message()
    for name, values in features.items():
        kind = a11y._Message()
        items = list(values)
        if items and all(isinstance(v, bytes) for v in items):
            for v in items:
                kind.blob(1, v)  # type: ignore[arg-type]
            number = 1
        elif all(isinstance(v, int) for v in items):
            kind.packed(1, items)  # type: ignore[arg-type]
            number = 3
        else:
            kind.blob(1, struct.pack(f"<{len(items)}f", *items))
            number = 2
        feature = a11y._Message()
        feature.blob(number, bytes(kind.out))
        entry = a11y._Message()
        entry.text(1, name)
        entry.blob(2, bytes(feature.out))
        features_msg.blob(1, bytes(entry.out))
    example = a11y._Message()
    example.blob(1, bytes(features_msg.out))
    return bytes(example.out)


def forest_of(root: UINode) -> bytes:
    """``root`` as a serialised forest of one active application window."""
    app = a11y._window(root, a11y._nodes(root, {}), window_id=1, layer=1, title="app", kind=a11y.TYPE_APPLICATION, active=True)
    forest = a11y._Message()
    forest.blob(1, app)
    return bytes(forest.out)


def screen(width: int = 1080, height: int = 2400, seed: int = 0) -> np.ndarray:
    """A flat-coloured UI-like screenshot (bands of colour, as app screens are)."""
    rng = np.random.default_rng(seed)
    pixels = np.empty((height, width, 3), np.uint8)
    bands = rng.integers(0, 256, (12, 3), dtype=np.uint8)
    for i, colour in enumerate(bands):
        pixels[i * height // 12 : (i + 1) * height // 12] = colour
    return pixels


def androidcontrol_example(
    episode_id: int,
    goal: str,
    roots: Sequence[UINode],
    actions: Sequence[dict[str, Any]],
    *,
    size: tuple[int, int] = (1080, 2400),
    shots: Sequence[bytes] | None = None,
    instructions: Sequence[str] | None = None,
) -> bytes:
    """One AndroidControl episode record: a screen per root (one more than the actions, the
    last being the final screen)."""
    pngs = list(shots) if shots is not None else [encode_png(screen(*size, seed=i)) for i in range(len(roots))]
    return encode_example(
        {
            "episode_id": [episode_id],
            "goal": [goal.encode()],
            "screenshots": pngs,
            "screenshot_widths": [size[0]] * len(roots),
            "screenshot_heights": [size[1]] * len(roots),
            "accessibility_trees": [forest_of(r) for r in roots],
            "actions": [json.dumps(a).encode() for a in actions],
            "step_instructions": [s.encode() for s in (instructions or [f"step {i}" for i in range(len(actions))])],
        }
    )


def aitw_example(
    episode_id: str,
    step_id: int,
    pixels: np.ndarray,
    boxes: Sequence[tuple[float, float, float, float]],
    texts: Sequence[str],
    action_type: int,
    touch: tuple[float, float] = (-1.0, -1.0),
    lift: tuple[float, float] = (-1.0, -1.0),
    typed: str = "",
    goal: str = "goal",
) -> bytes:
    """One AITW step record (boxes as normalised ``(y, x, height, width)``)."""
    height, width = pixels.shape[:2]
    return encode_example(
        {
            "episode_id": [episode_id.encode()],
            "goal_info": [goal.encode()],
            "step_id": [step_id],
            "image/encoded": [pixels.tobytes()],
            "image/height": [height],
            "image/width": [width],
            "image/channels": [3],
            "image/ui_annotations_positions": [float(v) for box in boxes for v in box] or [0.0],
            "image/ui_annotations_text": [t.encode() for t in texts] or [b""],
            "image/ui_annotations_ui_types": [b"TEXT"] * len(texts) or [b""],
            "results/action_type": [action_type],
            "results/yx_touch": [float(touch[0]), float(touch[1])],
            "results/yx_lift": [float(lift[0]), float(lift[1])],
            "results/type_action": [typed.encode()],
        }
    )
