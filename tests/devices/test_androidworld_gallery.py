"""AndroidWorld's own gallery tasks on the served simulator: the pictures its ``initialize_task``
pushes to ``DCIM`` (``write_to_gallery``'s text pictures, ``create_receipt``'s receipts) arrive
whole and decode at every seed, the gallery paints them, and the two tasks that read expenses and
recipes off a picture pass AndroidWorld's judge (its near miss does not), the project's judge
agreeing.

Real: AndroidWorld (``initialize_task``, ``is_successful``), android_env's adb controller, a
private adb server and the simulator's adbd (``benchmarks/androidworld/conformance.py``'s world);
nothing is replaced.
"""

from __future__ import annotations

import io
from types import ModuleType
from typing import Any

import numpy as np
import pytest

pytest.importorskip("android_world", reason="AndroidWorld is not installed (scripts/dev.sh test installs it)")
pytest.importorskip("adbutils")

import test_androidworld_questions as questions
from PIL import Image

from cerebellum_gym.loader import make_env
from cerebellum_gym.sim import images
from cerebellum_gym.tasks.androidworld import task_class

#: The questions' fixtures: the benchmark script as a module, and its served world (one per module).
conformance, world = questions.conformance, questions.world
DCIM = "/sdcard/DCIM/"
#: What each task pushes to DCIM (None: a name AndroidWorld draws).
PUSHED: dict[str, set[str] | None] = {
    "ExpenseAddMultipleFromGallery": {"expenses.jpg", *(f"old_expenses_{i}.jpg" for i in range(10))},
    "RecipeAddMultipleRecipesFromImage": {"recipes.jpg"},
    "MarkorTranscribeReceipt": {"receipt.png"},
    "SaveCopyOfReceiptTaskEval": None,
}


def pushed(world: Any, name: str, seed: int) -> dict[str, bytes]:
    """The files in DCIM right after AndroidWorld's set-up of ``name`` at ``seed``."""
    world.restore()
    env = make_env(task_class(name), backend="androidworld", device=world.device(), pixels=False)
    try:
        env.reset(seed=seed)
        files = world.server.phone.state.files
        return {path[len(DCIM) :]: bytes(files[path]) for path in files if path.startswith(DCIM) and "/" not in path[len(DCIM) :]}
    finally:
        env.close()


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", sorted(PUSHED))
def test_androidworlds_pictures_arrive_whole_and_decode(world: Any, name: str, seed: int) -> None:
    got = pushed(world, name, seed)
    want = PUSHED[name]
    if want is None:  # one receipt under a drawn name
        assert len(got) == 1 and next(iter(got)).endswith(".jpg"), sorted(got)
    else:
        assert set(got) == want, sorted(got)
    for file, data in got.items():
        with Image.open(io.BytesIO(data)) as image:
            image.load()  # the whole picture, every byte of it there
            assert image.format == ("PNG" if file.endswith(".png") else "JPEG")
            full = np.asarray(image.convert("L"))
        # Text on white: mostly white, with ink.
        assert (full > 200).mean() > 0.5 and (full < 100).mean() > 0.005, file
        shown = images.thumbnail((name, seed, file), data, (1080, 2085))
        assert shown is not None and max(shown.size) <= 2085
        small = np.asarray(shown.convert("L"))
        assert (small < 100).mean() > 0.002, f"{file}: the downscaled picture lost its text"


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", ["ExpenseAddMultipleFromGallery", "RecipeAddMultipleRecipesFromImage"])
def test_the_oracle_passes_androidworlds_judge_and_its_near_miss_does_not(
    conformance: ModuleType, world: Any, name: str, seed: int
) -> None:
    """The conformance matrix's row of the task at three seeds (AndroidWorld draws other rows at each)."""
    row = conformance.run_task(world, name, seed)
    assert row.initialize == "ok" and row.reason == "", row
    assert (row.aw_oracle, row.own_oracle, row.aw_near) == (1.0, 1.0, 0.0)
    assert row.own_near is not None and row.own_near < 1.0  # two of three rows saved: partial credit
