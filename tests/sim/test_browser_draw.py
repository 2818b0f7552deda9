"""AndroidWorld's Color Challenge page (BrowserDraw) in the simulated Chrome: its three colours
come from its own generator (checked against its script run by Node.js where installed), swipes
draw on its canvas in the colour picked, a later stroke covers an earlier one where they cross,
taps draw nothing, and Submit says "Success!" only when all three colours are on the canvas.
The env's U/D/L/R make four different strokes on a drawing surface (centre to edge)."""

from __future__ import annotations

import shutil
from typing import Any

import gymnasium as gym
import pytest
from test_browser_androidworld_pages import PAGES, SEEDS, node, open_page, run_page_script, tap

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.appdata.browser_pages import DRAW_COLORS, androidworld_draw_colors, hex_rgb
from cerebellum_gym.sim.apps.browser import canvas_colors
from cerebellum_gym.sim.phone import Phone

pytestmark = pytest.mark.skipif(not PAGES, reason="AndroidWorld's source (package or pinned wheel) is not available")
CHROME = "com.android.chrome"


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("seed", SEEDS)
def test_the_pages_script_asks_for_the_colours_the_simulator_shows(seed: int) -> None:
    assert run_page_script("BrowserDraw", seed, "console.log(JSON.stringify(taskColors))") == androidworld_draw_colors(seed)


def palette(phone: Phone, color: str) -> None:
    """Tap the palette's button of ``color`` (its place in the page's ``availableColors``)."""
    index = DRAW_COLORS.index(color)
    rows = [n for n in phone.ui_tree().iter() if n.resource_id == "colorPalette"]
    phone.tap(*rows[index // 8].children[index % 8].center)


def canvas_centre(phone: Phone) -> tuple[tuple[int, int], tuple[int, int, int, int]]:
    canvas = node(phone, rid="canvas")
    assert canvas is not None and canvas.scrollable
    return canvas.center, canvas.bounds


def test_submit_succeeds_only_with_all_three_colours() -> None:
    phone = open_page("BrowserDraw", 7)
    wanted = androidworld_draw_colors(7)
    (x, y), (left, top, right, bottom) = canvas_centre(phone)
    palette(phone, wanted[0])
    phone.swipe(x, y, x, top)
    palette(phone, wanted[1])
    phone.swipe(x, y, x, bottom - 1)
    tap(phone, text="Submit")
    assert node(phone, text="Success!") is None
    palette(phone, wanted[2])
    phone.tap(x - 100, y - 100)  # a touch with no move draws nothing
    tap(phone, text="Submit")
    assert node(phone, text="Success!") is None
    phone.swipe(x, y, left, y)
    tap(phone, text="Submit")
    assert node(phone, text="Success!") is not None
    assert phone.foreground_package() == CHROME
    # The canvas shows the strokes in their colours.
    frame = phone.screenshot()
    assert tuple(frame[(top + y) // 2, x]) == hex_rgb(wanted[0])


def test_a_stroke_drawn_over_another_hides_it() -> None:
    line = (100, 100, 600, 100)
    assert canvas_colors([((255, 0, 0), line)], 787) == {"#000000", "#ff0000"}
    assert canvas_colors([((255, 0, 0), line), ((0, 0, 255), line)], 787) == {"#000000", "#0000ff"}
    assert canvas_colors([((255, 0, 0), (5, 5, 5, 5))], 787) == {"#000000"}  # no move, no line


def test_clear_empties_the_canvas() -> None:
    phone = open_page("BrowserDraw", 1)
    (x, y), (_, top, _, _) = canvas_centre(phone)
    for color in androidworld_draw_colors(1):
        palette(phone, color)
        phone.swipe(x, y, x, top)
    tap(phone, text="Clear")
    tap(phone, text="Submit")
    assert node(phone, text="Success!") is None


def test_env_swipes_on_a_drawing_surface_make_four_strokes() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="BrowserDraw", pixels=False)
    env.reset(seed=3)
    oracle_env: Any = env.unwrapped
    while oracle_env.device.ui_tree().find(resource_id="canvas") is None:
        env.step(oracle_env.oracle_action())
    for code in "DURL":
        env.step(code)
    route = oracle_env.device.app(CHROME).route
    ends = {stroke[1][2:] for stroke in route["strokes"]}
    starts = {stroke[1][:2] for stroke in route["strokes"]}
    assert len(route["strokes"]) == 4 and len(starts) == 1 and len(ends) == 4  # from the centre to each edge
    env.close()
