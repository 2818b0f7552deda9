"""AITW and AndroidWorld imports, the TFRecord CRC, and the restricted unpickler."""

from __future__ import annotations

import gzip
import os
import pickle
from pathlib import Path

import numpy as np
import pytest

from cerebellum_gym.datasets import open_dataset
from cerebellum_gym.datasets.importers import import_dataset
from cerebellum_gym.datasets.importers.aitw import swipe_direction
from cerebellum_gym.datasets.importers.androidworld import UnsafePickleError, load_episodes
from cerebellum_gym.datasets.importers.synthetic import aitw_example
from cerebellum_gym.datasets.importers.tfrecord import crc32c, crc32c_python, write_records


def test_crc32c_matches_the_standard_check_value() -> None:
    # RFC 3720's check value for CRC32C of "123456789"; both implementations agree on random data.
    assert crc32c_python(b"123456789") == 0xE3069283
    data = os.urandom(1000)
    assert crc32c(data) == crc32c_python(data)


def test_aitw_taps_swipes_and_status(tmp_path: Path) -> None:
    pixels = np.full((200, 100, 3), 40, np.uint8)
    boxes = [(0.1, 0.1, 0.2, 0.8), (0.15, 0.2, 0.05, 0.2)]  # y, x, h, w: the second inside the first
    steps = [
        aitw_example("e1", 0, pixels, boxes, ["Outer", "Inner"], 4, touch=(0.17, 0.25), lift=(0.18, 0.26)),  # tap on Inner
        aitw_example("e1", 1, pixels, boxes, ["Outer", "Inner"], 4, touch=(0.8, 0.5), lift=(0.3, 0.5)),  # finger up: D
        aitw_example("e1", 2, pixels, boxes, ["Outer", "Inner"], 4, touch=(0.9, 0.9), lift=(0.9, 0.92)),  # tap on nothing
        aitw_example("e1", 3, pixels, boxes, ["Outer", "Inner"], 3, typed="coffee"),
        aitw_example("e1", 4, pixels, boxes, ["Outer", "Inner"], 7),
        aitw_example("e1", 5, pixels, boxes, ["Outer", "Inner"], 10),
    ]
    src = tmp_path / "aitw.tfrecord"
    write_records(src, steps, compress=False)
    report = import_dataset("aitw", src, tmp_path / "out")
    rows = [s.row for e in open_dataset(tmp_path / "out").episodes() for s in e.steps()]
    inner = next(line.strip()[1:3] for line in rows[0]["tree"].splitlines() if "Inner" in line)
    assert [r["action"] for r in rows] == [f"T {inner}", "D", "K coffee", "F", None]
    assert report.dropped == {"tap_on_no_element": 1, "press_enter": 1}
    assert "final_without_screen" not in report.dropped


def test_swipe_direction_convention() -> None:
    # The finger's movement reveals the content on the other side: up -> D, down -> U, left -> R, right -> L.
    assert swipe_direction((0.8, 0.5), (0.2, 0.5)) == "D"
    assert swipe_direction((0.2, 0.5), (0.8, 0.5)) == "U"
    assert swipe_direction((0.5, 0.8), (0.5, 0.2)) == "R"
    assert swipe_direction((0.5, 0.2), (0.5, 0.8)) == "L"


def _aw_pickle(last: dict[str, object] | None = None) -> bytes:
    """An AndroidWorld-like checkpoint: real module names on stand-in classes defined here."""
    import sys
    import types

    rep = types.ModuleType("android_world.env.representation_utils")
    act = types.ModuleType("android_world.env.json_action")

    class BoundingBox:
        def __init__(self, x_min: int, x_max: int, y_min: int, y_max: int) -> None:
            self.x_min, self.x_max, self.y_min, self.y_max = x_min, x_max, y_min, y_max

    class UIElement:
        def __init__(self, text: str, bbox_pixels: BoundingBox) -> None:
            self.text, self.bbox_pixels, self.is_clickable, self.is_visible = text, bbox_pixels, True, True

    class JSONAction:
        def __init__(self, **kw: object) -> None:
            self.__dict__.update(kw)

    for cls, mod in ((BoundingBox, rep), (UIElement, rep), (JSONAction, act)):
        cls.__module__ = mod.__name__
        cls.__qualname__ = cls.__name__
        setattr(mod, cls.__name__, cls)
    saved = {name: sys.modules.get(name) for name in (rep.__name__, act.__name__)}
    sys.modules[rep.__name__], sys.modules[act.__name__] = rep, act
    try:
        elements = [UIElement("OK", BoundingBox(10, 90, 10, 50))]
        shot = np.zeros((100, 100, 3), np.uint8)
        episode = {
            "goal": "press ok",
            "episode_data": {
                "raw_screenshot": [shot, shot, shot],
                "ui_elements": [elements, elements, elements],
                "action_output_json": [
                    JSONAction(action_type="click", index=0),
                    JSONAction(action_type="scroll", direction="down"),
                    JSONAction(**(last or {"action_type": "status", "goal_status": "complete"})),
                ],
            },
        }
        return gzip.compress(pickle.dumps([episode]))
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def test_androidworld_episodes_through_the_restricted_loader(tmp_path: Path) -> None:
    src = tmp_path / "run.pkl.gz"
    src.write_bytes(_aw_pickle())
    report = import_dataset("androidworld", src, tmp_path / "out")
    rows = [s.row for e in open_dataset(tmp_path / "out").episodes() for s in e.steps()]
    assert [r["action"] for r in rows] == [f"T {rows[0]['labels'][0]}", "D", "F", None]
    assert report.tap_hits == 1


def test_an_androidworld_answer_becomes_f_with_its_text(tmp_path: Path) -> None:
    """AndroidWorld's ``answer`` action (a question's reply) is this project's ``F <answer>``,
    one line, and ends the episode there."""
    src = tmp_path / "run.pkl.gz"
    src.write_bytes(_aw_pickle({"action_type": "answer", "text": "42 steps,\ntwo lines"}))
    import_dataset("androidworld", src, tmp_path / "out")
    rows = [s.row for e in open_dataset(tmp_path / "out").episodes() for s in e.steps()]
    assert [r["action"] for r in rows] == [f"T {rows[0]['labels'][0]}", "D", "F 42 steps, two lines", None]


def test_a_pickle_naming_code_is_refused(tmp_path: Path) -> None:
    class Evil:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.system, ("echo pwned",))

    src = tmp_path / "evil.pkl.gz"
    src.write_bytes(gzip.compress(pickle.dumps([Evil()])))
    with pytest.raises(UnsafePickleError, match="system"):
        load_episodes(src)
    report = import_dataset("androidworld", src, tmp_path / "out")
    assert report.damaged == {"unsafe_pickle": 1} and report.episodes == 0
