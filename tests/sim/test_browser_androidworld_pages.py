"""The simulated Chrome shows AndroidWorld's own browser pages (BrowserMaze, BrowserMultiply,
BrowserDraw: tests/sim/test_browser_draw.py).

AndroidWorld's ``task.html`` is read from its source, as its ``initialize_task`` writes it (the
``%%SEED%%`` placeholder replaced), pushed to Download and opened from Files, then played
through taps and typing. Where Node.js is installed the page's own script runs too, and the
simulator's maze and numbers must be the ones the script draws.
"""

from __future__ import annotations

import ast
import glob
import importlib.util
import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from cerebellum_gym.appdata.browser_pages import (
    androidworld_maze_walls,
    androidworld_multiply_numbers,
    androidworld_page,
    maze_path,
    page_html,
)
from cerebellum_gym.core.tree import UINode
from cerebellum_gym.sim.phone import Phone

WHEELS = (Path(__file__).resolve().parents[3] / "shared" / "third_party", Path("/work/shared/third_party"))
SEEDS = (0, 1, 7, 12345, 3141592653, 2**32 - 1)


def _browser_source() -> str | None:
    """AndroidWorld's ``task_evals/single/browser.py``: the installed package, else the pinned wheel."""
    spec = importlib.util.find_spec("android_world")
    if spec is not None and spec.submodule_search_locations:
        path = Path(next(iter(spec.submodule_search_locations))) / "task_evals" / "single" / "browser.py"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    for folder in WHEELS:
        wheels = sorted(glob.glob(str(folder / "android_world-*.whl")))
        if wheels:
            return zipfile.ZipFile(wheels[-1]).read("android_world/task_evals/single/browser.py").decode("utf-8")
    return None


def _pages() -> dict[str, str]:
    """Each browser task class's ``HTML`` constant, read with ``ast`` (nothing is imported)."""
    source = _browser_source()
    if source is None:
        return {}
    pages = {}
    for cls in ast.parse(source).body:
        if isinstance(cls, ast.ClassDef):
            for stmt in cls.body:
                if not isinstance(stmt, ast.Assign) or not any(isinstance(t, ast.Name) and t.id == "HTML" for t in stmt.targets):
                    continue
                if isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str) and stmt.value.value:
                    pages[cls.name] = stmt.value.value
    return pages


PAGES = _pages()
pytestmark = pytest.mark.skipif(not PAGES, reason="AndroidWorld's source (package or pinned wheel) is not available")


def html(task: str, seed: int) -> str:
    return PAGES[task].replace("%%SEED%%", str(seed))


def node(phone: Phone, *, text: str | None = None, rid: str | None = None) -> UINode | None:
    for n in phone.ui_tree().iter():
        if (text is None or n.text == text) and (rid is None or n.resource_id.endswith(rid)):
            return n
    return None


def tap(phone: Phone, **kwargs: str) -> None:
    found = node(phone, **kwargs)
    assert found is not None, f"nothing on screen with {kwargs}"
    phone.tap(*found.center)


def open_page(task: str, seed: int) -> Phone:
    """AndroidWorld's page pushed to Download and opened as its goal says: Files, then Chrome."""
    phone = Phone()
    phone.write_file("/sdcard/Download/task.html", html(task, seed).encode())
    phone.start_app("com.google.android.documentsui")  # it opens on Downloads
    for text in ("task.html", "Chrome", "Just once", "Accept & continue", "No thanks"):
        tap(phone, text=text)
    assert phone.foreground_package() == "com.android.chrome"
    return phone


def test_pages_are_recognised_by_their_script() -> None:
    assert androidworld_page(html("BrowserMaze", 42)) == ("aw-maze", 42)
    assert androidworld_page(html("BrowserMultiply", 2**32 - 1)) == ("aw-multiply", 2**32 - 1)
    assert androidworld_page(html("BrowserDraw", 3)) == ("aw-draw", 3)
    # The simulator's own pages and plain HTML are not these pages.
    assert androidworld_page(page_html("maze", 3, "Task")) is None
    assert androidworld_page("<html><script>new SeededRNG(5)</script></html>") is None


#: Just enough of a DOM for the pages' scripts to run under Node.
DOM = (
    "const el={innerHTML:'',textContent:'',style:{},classList:{add(){}},appendChild(){},addEventListener(){},"
    "getContext:()=>({}),disabled:false};"
    "const document={getElementById:()=>el,createElement:()=>({style:{},classList:{add(){}},appendChild(){},"
    "addEventListener(){}}),body:{}};"
)


def run_page_script(task: str, seed: int, tail: str) -> object:
    """The page's own script run by Node, then ``tail``; what ``tail`` prints, as JSON."""
    script = re.search(r"<script>(.*)</script>", html(task, seed), re.S)
    assert script is not None
    done = subprocess.run(["node", "-e", DOM + script.group(1) + ";" + tail], capture_output=True, text=True, check=True, timeout=60)
    return json.loads(done.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("seed", SEEDS)
def test_the_pages_scripts_draw_what_the_simulator_shows(seed: int) -> None:
    def run(task: str, tail: str) -> object:
        return run_page_script(task, seed, tail)

    layout = run("BrowserMaze", "console.log(JSON.stringify(mazeLayout))")
    assert isinstance(layout, list)
    assert {(r, c) for r, row in enumerate(layout) for c, cell in enumerate(row) if cell == "#"} == androidworld_maze_walls(seed)
    numbers = run("BrowserMultiply", "for (let i = 0; i < 4; i++) handleButtonClick(); console.log(JSON.stringify(numbers))")
    assert numbers == androidworld_multiply_numbers(seed)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_maze_says_success_only_at_the_goal(seed: int) -> None:
    phone = open_page("BrowserMaze", seed)
    walls = androidworld_maze_walls(seed)
    maze = node(phone, rid="maze")
    assert maze is not None
    # Only the character's cell has text: the walls and the goal are colours.
    assert [n.text for n in maze.iter() if n.text] == ["X"]
    moves = maze_path(walls)
    assert moves is not None

    def x_cell() -> tuple[int, int]:
        grid = node(phone, rid="maze")
        assert grid is not None
        mark = next(n for n in grid.iter() if n.text == "X")
        size = mark.bounds[2] - mark.bounds[0]
        return (mark.bounds[1] - grid.bounds[1]) // size, (mark.bounds[0] - grid.bounds[0]) // size

    # Into a wall or off the board: the X stays where it is.
    assert x_cell() == (0, 0)
    tap(phone, text="Up")
    assert x_cell() == (0, 0)
    for move in moves[:-1]:
        tap(phone, text=move)
    assert node(phone, text="Success!") is None
    tap(phone, text=moves[-1])
    # checkGoalReached replaces the whole body with "Success!".
    assert node(phone, text="Success!") is not None
    assert node(phone, rid="maze") is None and node(phone, text="Up") is None


def test_multiply_shows_its_numbers_then_judges_the_product() -> None:
    seed = 12345
    numbers = androidworld_multiply_numbers(seed)
    phone = open_page("BrowserMultiply", seed)
    seen = []
    for _ in range(5):
        shown = node(phone, rid="number")
        assert shown is not None and node(phone, rid="answer") is None  # the form is hidden until the fifth click
        seen.append(int(shown.text))
        tap(phone, text="Click Me")
    assert seen == numbers
    assert node(phone, rid="number") is None and node(phone, text="Click Me") is None
    product = 1
    for n in numbers:
        product *= n
    answer = node(phone, rid="answer")
    assert answer is not None
    phone.tap(*answer.center)
    phone.type_text(str(product + 1))
    tap(phone, text="Submit")
    assert node(phone, text="Success!") is None
    answer = node(phone, rid="answer")
    assert answer is not None
    phone.long_press(*answer.center)  # selects all: typing replaces
    phone.type_text(str(product))
    tap(phone, text="Submit")
    assert node(phone, text="Success!") is not None
