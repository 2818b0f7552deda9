"""AndroidControl import: TFRecords built here in the documented layout (forests written by the
simulator's own forest writer), imported, and read back with the project's reader."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.datasets import open_dataset
from cerebellum_gym.datasets.importers import import_dataset
from cerebellum_gym.datasets.importers.synthetic import androidcontrol_example
from cerebellum_gym.datasets.importers.tfrecord import frame_record, write_records

SIZE = (1080, 2400)


def button(bounds: tuple[int, int, int, int], text: str, **kw: object) -> UINode:
    return UINode("android.widget.Button", bounds, text=text, clickable=True, **kw)  # type: ignore[arg-type]


def screen_tree() -> UINode:
    # An outer clickable card holding an inner button (nested bounds), an RTL label, a field.
    inner = button((100, 300, 500, 400), "Inner")
    card = UINode("android.widget.LinearLayout", (0, 200, 1080, 800), clickable=True, children=[inner])
    rtl = button((0, 900, 1080, 1000), "שלום עולם")
    field = UINode("android.widget.EditText", (0, 1100, 1080, 1200), text="", focused=True)
    return UINode("android.widget.FrameLayout", (0, 0, *SIZE), children=[card, rtl, field])


def label_of(row: dict, text: str) -> str:
    for line in row["tree"].splitlines():
        if text in line and line.strip().startswith("["):
            return line.strip()[1:3]
    raise AssertionError(f"{text!r} not labelled in {row['tree']}")


def rows_of(out: Path) -> list[dict]:
    data = open_dataset(out)
    return [step.row for ep in data.episodes() for step in ep.steps()]


def test_every_action_maps_and_last_step_is_f(tmp_path: Path) -> None:
    actions = [
        {"action_type": "click", "x": 300, "y": 350},  # inside Inner, inside the card: the smaller wins
        {"action_type": "click", "x": 900, "y": 700},  # only in the card
        {"action_type": "long_press", "x": 10, "y": 950},  # the RTL label
        {"action_type": "click", "x": 500, "y": 2000},  # on no element
        {"action_type": "scroll", "direction": "down"},
        {"action_type": "scroll", "direction": "up"},
        {"action_type": "scroll", "direction": "left"},
        {"action_type": "input_text", "text": "hello"},
        {"action_type": "navigate_back"},
        {"action_type": "navigate_home"},
        {"action_type": "wait"},
        {"action_type": "open_app", "app_name": "Clock"},
    ]
    roots = [screen_tree() for _ in range(len(actions) + 1)]
    src = tmp_path / "android_control-00018-of-00020"
    write_records(src, [androidcontrol_example(7, "do things", roots, actions, instructions=[f"i{i}" for i in range(len(actions))])])
    report = import_dataset("androidcontrol", src, tmp_path / "out")
    rows = rows_of(tmp_path / "out")
    got = [r["action"] for r in rows]
    assert got[0] == f"T {label_of(rows[0], 'Inner')}"
    assert got[1] == f"T {label_of(rows[1], 'LinearLayout')}"
    assert got[2] == f"P {label_of(rows[2], 'שלום עולם')}"
    assert got[3:] == ["D", "U", "L", "K hello", "B", "H", "W", "F", None]
    assert report.dropped == {"tap_on_no_element": 1, "open_app": 1}
    assert report.taps == 4 and report.tap_hits == 3
    assert report.codes["F"] == 1 and report.steps_kept == 11
    assert rows[0]["info"]["step_instruction"] == "i0"
    # The dropped tap stays in the next kept step's history, described.
    assert "tap at (500, 2000)" in rows[3]["history"]["actions"]
    episode = next(open_dataset(tmp_path / "out").episodes())
    assert episode.complete and episode.meta["success"] and episode.meta["shard"] == 18
    assert rows[0]["screenshot"] is not None
    assert open_dataset(tmp_path / "out").image(rows[0]["screenshot"]).shape[1] == 464


def test_empty_tree_taps_are_dropped(tmp_path: Path) -> None:
    empty = UINode("android.widget.FrameLayout", (0, 0, *SIZE))
    src = tmp_path / "a.tfrecord.gz"
    write_records(src, [androidcontrol_example(1, "g", [empty, empty], [{"action_type": "click", "x": 5, "y": 5}])])
    report = import_dataset("androidcontrol", src, tmp_path / "out")
    assert report.dropped["tap_on_empty_tree"] == 1
    assert [r["action"] for r in rows_of(tmp_path / "out")] == ["F", None]


def test_damaged_records_are_skipped_and_counted(tmp_path: Path) -> None:
    roots = [screen_tree(), screen_tree()]
    good = androidcontrol_example(1, "g", roots, [{"action_type": "wait"}])
    bad_crc = bytearray(frame_record(androidcontrol_example(2, "g", roots, [{"action_type": "wait"}])))
    bad_crc[20] ^= 0xFF  # a byte of the data: its CRC no longer matches
    wrong = frame_record(b"\x08\x01not an example")
    third = frame_record(androidcontrol_example(3, "g", roots, [{"action_type": "wait"}]))
    src = tmp_path / "d.gz"
    with gzip.open(src, "wb") as f:
        f.write(frame_record(good) + bytes(bad_crc) + wrong + third[: len(third) // 2])  # the last cut short
    report = import_dataset("androidcontrol", src, tmp_path / "out")
    assert report.damaged == {"bad_crc": 1, "wrong_proto": 1, "truncated": 1}
    assert report.episodes == 1


def test_truncated_gzip_stream(tmp_path: Path) -> None:
    roots = [screen_tree(), screen_tree()]
    src = tmp_path / "t.gz"
    write_records(src, [androidcontrol_example(i, "g", roots, [{"action_type": "wait"}]) for i in range(3)])
    data = src.read_bytes()
    src.write_bytes(data[: len(data) - 200])
    report = import_dataset("androidcontrol", src, tmp_path / "out")
    assert report.damaged["truncated"] == 1 and report.episodes == 2


def test_resume_skips_finished_shards_without_duplicates(tmp_path: Path) -> None:
    roots = [screen_tree(), screen_tree()]
    folder = tmp_path / "src"
    folder.mkdir()
    for shard in (18, 19):
        write_records(folder / f"ac-000{shard}-of-00020", [androidcontrol_example(shard, "g", roots, [{"action_type": "wait"}])])
    out = tmp_path / "out"
    # A killed import: the first shard committed, the second left half-written in the temporary folder.
    import_dataset("androidcontrol", folder / "ac-00018-of-00020", out)
    (out / ".importing" / "import-androidcontrol-ac-00019-of-00020").mkdir(parents=True)
    (out / ".importing" / "import-androidcontrol-ac-00019-of-00020" / "steps.jsonl").write_text('{"episode_id":"x"')
    report = import_dataset("androidcontrol", folder, out)
    assert report.episodes == 2 and report.shards == 2
    ids = open_dataset(out).episode_ids()
    assert sorted(ids) == ["androidcontrol-18", "androidcontrol-19"]
    assert not (out / ".importing").exists() or not any((out / ".importing").iterdir())
    assert json.loads((out / "import_report.json").read_text())["episodes"] == 2


def test_label_hit_rate_is_total_on_clicks_inside_elements(tmp_path: Path) -> None:
    import numpy as np

    rng = np.random.default_rng(3)
    boxes = [(int(x), int(y), int(x) + 200, int(y) + 100) for x, y in zip(rng.integers(0, 800, 20), rng.integers(0, 2200, 20), strict=True)]
    root = UINode("android.widget.FrameLayout", (0, 0, *SIZE), children=[button(b, f"b{i}") for i, b in enumerate(boxes)])
    actions = [{"action_type": "click", "x": b[0] + int(rng.integers(0, 200)), "y": b[1] + int(rng.integers(0, 100))} for b in boxes]
    src = tmp_path / "h.gz"
    write_records(src, [androidcontrol_example(1, "g", [root] * (len(actions) + 1), actions)])
    report = import_dataset("androidcontrol", src, tmp_path / "out")
    assert report.taps == 20 and report.tap_hits == 20 and not report.dropped
