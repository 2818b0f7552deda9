"""The fidelity benchmark (``benchmarks/fidelity``): its reference screens load, its measures mean
what ``docs/fidelity.md`` says, and no screen of the simulator scores below its recorded floor."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "benchmarks" / "fidelity"
sys.path.insert(0, str(BENCH))

import metrics  # noqa: E402
import reference  # noqa: E402
import score  # noqa: E402

pytestmark = pytest.mark.xdist_group("fidelity")


def _element(node: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"class": node.class_name, "bounds": list(node.bounds)}
    for key, value in (("resource-id", node.resource_id), ("text", node.text), ("content-desc", node.content_desc)):
        if value:
            out[key] = value
    out["clickable"] = node.clickable
    return out


def _self_reference(tmp_path: Path, *, drop: int = 0, rename: str | None = None) -> tuple[Path, dict[str, Any]]:
    """A reference of the simulator's own Pro Expense home screen (what a perfect app scores
    against), optionally with elements dropped from it or a text renamed."""
    reach = {"task": "ExpenseDeleteSingle", "seed": 0, "steps": [{"launch": "com.arduia.expense"}]}
    driver = score.Driver()
    try:
        root = score.dump(driver.reach(reach))
    finally:
        driver.close()
    nodes = [n for n in root.iter() if n.text or n.content_desc or n.resource_id or n.clickable]
    elements = [_element(n) for n in nodes]
    fab = next(e for e in elements if e.get("resource-id") == "com.arduia.expense:id/fb_main_add")
    if rename is not None:
        next(e for e in elements if e.get("text"))["text"] = rename
    elements = elements[drop:]
    data = {
        "app": "Pro Expense",
        "package": "com.arduia.expense",
        "version": "the simulator itself",
        "screens": [
            {
                "id": "expense/home",
                "name": "home",
                "sources": ["the simulator"],
                "reach": reach,
                "identify": [{"resource-id": "com.arduia.expense:id/tv_expense_in_out_title"}],
                "elements": elements,
                "transitions": [{"via": {"resource-id": fab["resource-id"]}, "to": "expense/editor"}],
            },
            {
                "id": "expense/editor",
                "name": "editor",
                "sources": ["the simulator"],
                "reach": {**reach, "steps": [*reach["steps"], {"tap": {"resource-id": "com.arduia.expense:id/fb_main_add"}}]},
                "identify": [{"class": "android.widget.EditText"}],
                "elements": [{"class": "android.widget.EditText", "resource-id": None, "text": None}],
            },
        ],
    }
    folder = tmp_path / "screens"
    folder.mkdir(exist_ok=True)
    path = folder / "expense.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, data


def test_a_screen_scores_one_against_itself_and_less_when_it_differs(tmp_path: Path) -> None:
    path, _ = _self_reference(tmp_path)
    results = score.score_all(reference.load_all([path]))
    home = results["expense"][0]
    assert home.reached
    assert {k: v for k, v in home.measures.items() if v is not None} == {
        "ids": 1.0,
        "texts": 1.0,
        "lines": 1.0,
        "flags": 1.0,
        "bounds": 1.0,
        "navigation": 1.0,
    }
    renamed, _ = _self_reference(tmp_path, rename="Not on the simulator")
    worse = score.score_all(reference.load_all([renamed]))["expense"][0]
    assert worse.measures["texts"] is not None and worse.measures["texts"] < 1.0
    assert worse.measures["lines"] is not None and worse.measures["lines"] < 1.0
    assert worse.overall < home.overall


def test_an_unreachable_screen_scores_zero_and_says_why(tmp_path: Path) -> None:
    path, data = _self_reference(tmp_path)
    data["screens"][1]["reach"]["steps"][-1] = {"tap": {"text": "No such button"}}
    path.write_text(json.dumps(data), encoding="utf-8")
    editor = score.score_all(reference.load_all([path]))["expense"][1]
    assert not editor.reached and editor.overall == 0.0
    assert "No such button" in editor.why


def test_lines_f1_counts_extra_lines_and_spares_data_dependent_ones() -> None:
    from cerebellum_gym.core.tree import UINode

    root = UINode("android.widget.FrameLayout", (0, 0, 1080, 2400))
    root.children = [
        UINode("android.widget.TextView", (0, 0, 10, 10), text="Home"),
        UINode("android.widget.TextView", (0, 0, 10, 10), text="Groceries"),
        UINode("android.widget.TextView", (0, 0, 10, 10), text="Only here"),
        UINode("android.widget.ImageButton", (0, 0, 10, 10), clickable=True),
    ]
    nodes = list(root.iter())
    elements = [
        {"class": "android.widget.TextView", "text": "Home"},
        {"class": "android.widget.TextView", "text": None},  # a row's name: depends on the data
        {"class": "android.widget.ImageButton", "clickable": True},  # unlabelled, as on the phone
    ]
    # Three of three reference lines are there; "Groceries" stands for the data line, "Only here"
    # is one line too many: precision 3/4, recall 1.
    assert metrics.lines_f1(elements, nodes) == pytest.approx(2 * 0.75 / 1.75)
    assert metrics.recall(["Home", "Away"], [n.text for n in nodes]) == 0.5


def test_frames_compare_structure_not_just_brightness() -> None:
    import numpy as np

    rng = np.random.default_rng(0)
    grid = rng.integers(0, 255, size=(20, 9)).astype(float)
    assert metrics.structural_similarity(grid, grid) == pytest.approx(1.0)
    assert metrics.structural_similarity(grid, grid[::-1]) < 0.5
    image = np.zeros((40, 18, 3), dtype=np.uint8)
    image[:20] = 255
    assert metrics.luminance_grid(image, 2, 1)[:, 0].round().tolist() == [255.0, 0.0]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s["reach"]["steps"].append({"tap": {"txt": "x"}}), "unknown selector key"),
        (lambda s: s.update(transitions=[{"via": {"text": "x"}, "to": "expense/none"}]), "unknown screen"),
        (lambda s: s["elements"].append({"class": "android.widget.TextView", "bounds": [0, 0, 2000, 10]}), "bounds"),
        (lambda s: s["elements"].append({"text": "no class"}), "needs its class"),
        (lambda s: s.update(sources=[]), "source"),
        (lambda s: s["reach"]["steps"].append({"swipe": "sideways"}), "swipe is one of"),
        (lambda s: s.update(frame={"source": "a run", "video": "run.avi", "at": 1.0}), "file name of a recorded run"),
        (lambda s: s.update(frame={"source": "a run", "video": "run.mp4"}), "moment in the video"),
    ],
)
def test_a_malformed_reference_names_its_file_screen_and_field(tmp_path: Path, edit: Any, message: str) -> None:
    path, data = _self_reference(tmp_path)
    edit(data["screens"][0])
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(reference.ReferenceFormatError, match=message) as info:
        reference.load_all([path])
    assert "expense.json" in str(info.value)


def test_the_shipped_references_load_and_hold_their_floors() -> None:
    """Every shipped reference screen is in the format, and the simulator scores at least the
    floor recorded for it (``score.py --write-floors`` after a change that raises scores)."""
    apps = reference.load_all()
    assert apps, "no reference screens shipped"
    floors = json.loads(score.FLOORS.read_text(encoding="utf-8"))
    ids = {s["id"] for data in apps.values() for s in data["screens"]}
    assert set(floors) == ids, "every screen has a floor and every floor a screen: rerun score.py --write-floors"
    results = score.score_all(apps)
    low = {r.screen: (round(r.overall, 3), floors[r.screen]) for rows in results.values() for r in rows if r.overall < floors[r.screen]}
    assert not low, f"screens below their floor (score, floor): {low}"


def test_the_cli_refuses_an_unknown_app_in_one_line() -> None:
    command = [sys.executable, str(BENCH / "score.py"), "--app", "nosuchapp"]
    done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "no reference file for app(s) ['nosuchapp']" in done.stderr


def _with_video_frame(tmp_path: Path) -> Path:
    path, data = _self_reference(tmp_path)
    data["screens"][0]["frame"] = {"source": "a recording of the simulator", "video": "self.mp4", "at": 0.0, "size": [24, 12]}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_real_frame_whose_video_is_not_here_is_skipped_with_a_note(tmp_path: Path) -> None:
    path = _with_video_frame(tmp_path)
    (home, *_) = score.score_all(reference.load_all([path]), videos=tmp_path / "no-videos")["expense"]
    assert home.measures["frame"] is None
    assert any("self.mp4 is not in" in note for note in home.notes)
    assert home.overall == pytest.approx(1.0)  # the tree-only measures, as without a frame


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg decodes the recorded runs")
def test_a_frame_is_decoded_from_the_local_video_when_the_benchmark_runs(tmp_path: Path) -> None:
    """A recording of the simulator's own screen scores SSIM ~1 against it, one of another
    screen (the launcher) far less: the frame measure reads the video, not a stored copy."""
    from PIL import Image

    from cerebellum_gym.sim.phone import Phone

    path = _with_video_frame(tmp_path)
    driver = score.Driver()
    try:
        own = driver.reach({"task": "ExpenseDeleteSingle", "seed": 0, "steps": [{"launch": "com.arduia.expense"}]}).screenshot()
    finally:
        driver.close()
    videos = tmp_path / "videos"
    videos.mkdir()
    scores = {}
    for name, frame in (("own", own), ("home", Phone().screenshot())):
        Image.fromarray(frame).save(tmp_path / "frame.png")
        command = ["ffmpeg", "-loglevel", "error", "-y", "-loop", "1", "-i", str(tmp_path / "frame.png"), "-t", "1"]
        subprocess.run([*command, "-pix_fmt", "yuv420p", str(videos / "self.mp4")], check=True, timeout=120)
        (home, *_) = score.score_all(reference.load_all([path]), videos=videos)["expense"]
        scores[name] = home.measures["frame"]
    assert scores["own"] is not None and scores["own"] > 0.95
    assert scores["home"] is not None and scores["home"] < scores["own"] - 0.3
