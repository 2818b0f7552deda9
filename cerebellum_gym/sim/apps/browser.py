"""Chrome, reduced to what the simulator's browser tasks need: the first-run screens, a new tab,
and local HTML pages opened from Files.

The simulator has no HTML engine. A page is an HTML file whose ``<meta name="sim-page">`` tag
names one of the interactive page kinds below and its seed; the browser renders that kind as
native widgets (``multiply``: press a button five times and submit the product of the numbers
shown; ``maze``: steer an X through a 4x4 maze). Pages say "Success!" when solved, which is
what AndroidWorld's browser judges look for on screen.

AndroidWorld's own pages (the ``task.html`` its BrowserMaze and BrowserMultiply write, HTML with
JavaScript) are recognised by their script and shown as the simulator's versions of those pages
(``aw-maze``, ``aw-multiply``, ``aw-draw``): the maze, the numbers or the colours come from the
page's own generator run on the seed written in the file, and the page follows its script's
rules (the body becomes "Success!" when the X reaches the goal; the product form appears after
the fifth click and says "Success!" when the product is right; the drawing page's Submit says
"Success!" when the canvas holds every one of its three colours). HTML ids are the widgets' resource ids, as in Chrome's
accessibility tree.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection
from typing import ClassVar

import numpy as np
from PIL import Image, ImageDraw

from cerebellum_gym.appdata.browser_pages import (
    DRAW_COLORS,
    MAZE_SIZE,
    androidworld_draw_colors,
    androidworld_maze_walls,
    androidworld_multiply_numbers,
    androidworld_page,
    hex_rgb,
    maze_walls,
    multiply_numbers,
    rgb_hex,
)
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Canvas, Row, Stroke, Swatch, Text, Widget

RED = (219, 68, 55)
#: The draw page's 300 x 300 CSS-pixel canvas on the screen (2.625 device pixels a CSS pixel).
DRAW_CANVAS_CSS = 300
DRAW_CANVAS_PX = 787


def canvas_colors(strokes: list[Stroke], shown_px: int) -> set[str]:
    """The colours ``evaluateTask`` reads off the draw page's canvas: every stroke drawn, in
    order, as a one-pixel line on the 300 x 300 bitmap (a later stroke covers an earlier one
    where they cross), each pixel as ``rgbToHex`` writes it; pixels never drawn are transparent
    black, ``#000000``. A stroke with no move draws nothing (the script draws on touchmove)."""
    bitmap = Image.new("RGB", (DRAW_CANVAS_CSS, DRAW_CANVAS_CSS), (0, 0, 0))
    draw = ImageDraw.Draw(bitmap)
    k = DRAW_CANVAS_CSS / shown_px
    for color, (a, b, c, d) in strokes:
        if (a, b) != (c, d):
            draw.line(((a * k, b * k), (c * k, d * k)), fill=color, width=1)
    pixels = np.asarray(bitmap).reshape(-1, 3)
    return {rgb_hex((int(r), int(g), int(b))) for r, g, b in np.unique(pixels, axis=0)}


class ChromeApp(App):
    package: ClassVar[str] = "com.android.chrome"
    #: Its screens show no time finer than the minute (the phone rebuilds every screen on a new one).
    clock_dependent: ClassVar[bool] = False
    activity: ClassVar[str] = "com.google.android.apps.chrome.Main"
    label: ClassVar[str] = "Chrome"
    color: ClassVar[tuple[int, int, int]] = RED
    root_screen: ClassVar[str] = "tab"

    def initial_data(self) -> dict[str, object]:
        return {"welcomed": False, "sync_asked": False}

    def build(self) -> ScreenSpec:
        # First-run screens come before any page, however Chrome was opened.
        if not self.data["welcomed"]:
            return self.reused_spec(("welcome",), self._welcome)  # first-run screens never change
        if not self.data["sync_asked"]:
            return self.reused_spec(("sync",), self._sync)
        return super().build()

    def _welcome(self) -> ScreenSpec:
        body: list[Widget] = [
            Text("Welcome to Chrome", size=72, center=True, height=420),
            Text("Chrome terms of service apply.", size=40, center=True, color=(96, 94, 102)),
            Text("Help make Chrome better by sending usage statistics", size=36, center=True, color=(96, 94, 102)),
        ]
        return ScreenSpec(
            title=None, body=body, bottom=[Button("Accept & continue", filled=True, on_tap=lambda: self.data.update(welcomed=True))]
        )

    def _sync(self) -> ScreenSpec:
        body: list[Widget] = [
            Text("Turn on sync?", size=64, center=True, height=360),
            Text("Get your bookmarks, passwords and more on all your devices", size=36, center=True),
        ]
        bottom: list[Widget] = [
            Button("No thanks", filled=False, on_tap=lambda: self.data.update(sync_asked=True)),
            Button("Yes, I'm in", filled=True, on_tap=lambda: self.data.update(sync_asked=True)),
        ]
        return ScreenSpec(title=None, body=body, bottom=bottom)

    def screen_tab(self, route: Route) -> ScreenSpec:
        return self.reused_spec(("tab",), self._new_tab)  # the same every time

    def _new_tab(self) -> ScreenSpec:
        body: list[Widget] = [
            Text("Google", size=110, center=True, height=400, color=(66, 133, 244)),
            Text("Search or type web address", size=44, center=True, color=(96, 94, 102)),
        ]
        return ScreenSpec(title="New tab", body=body)

    # --- pages -------------------------------------------------------------------------------

    def _page(self, url: str) -> tuple[str, int, str] | None:
        """(kind, seed, title) of a local page, or ``None`` when it cannot be read."""
        if not url.startswith("file://"):
            return None
        try:
            html = self.phone.read_file(url[len("file://") :]).decode("utf-8", "replace")
        except FileNotFoundError:
            return None
        meta = re.search(r'<meta name="sim-page" content="(\w+)" data-seed="(\d+)">', html)
        title = re.search(r"<title>(.*?)</title>", html)
        if meta is not None:
            return meta.group(1), int(meta.group(2)), title.group(1) if title else url
        page = androidworld_page(html)
        if page is None:
            return None
        return page[0], page[1], title.group(1) if title else url

    def screen_page(self, route: Route) -> ScreenSpec:
        url = route["url"]
        page = self._page(url)
        header: list[Widget] = [Text(url, size=34, color=(96, 94, 102), height=100, rid=f"{self.package}:id/url_bar")]
        if page is None:
            return ScreenSpec(title="Chrome", body=[*header, Text("This page can't be shown", size=48)])
        kind, seed, title = page
        kinds = {
            "multiply": self._multiply,
            "maze": self._maze,
            "draw": self._aw_draw,
            "aw-multiply": self._aw_multiply,
            "aw-maze": self._aw_maze,
            "aw-draw": self._aw_draw,
        }
        body = header + kinds.get(kind, self._maze)(route, seed)
        return ScreenSpec(title=title, body=body)

    def _multiply(self, route: Route, seed: int) -> list[Widget]:
        numbers = multiply_numbers(seed)
        clicks = int(route.get("clicks", 0))
        body: list[Widget] = [Text("Click the button 5 times and remember each number.", size=38)]
        if clicks < len(numbers):
            body.append(Button("Click me", filled=True, on_tap=lambda: route.update(clicks=clicks + 1)))
        if clicks:
            body.append(Text(f"Number {clicks}: {numbers[clicks - 1]}", size=56, height=160, rid=f"{self.package}:id/number"))
        body.append(edit_field(self, route, "product", hint="Product"))

        def submit() -> None:
            product = 1
            for n in numbers:
                product *= n
            route["result"] = (
                "Success!"
                if clicks >= len(numbers) and str(route.get("product", "")).strip() == str(product)
                else "Wrong answer, try again."
            )

        body.append(Button("Submit", filled=True, on_tap=submit))
        if route.get("result"):
            body.append(Text(route["result"], size=56, height=160))
        return body

    def _maze_grid(self, route: Route, walls: Collection[tuple[int, int]]) -> tuple[list[Widget], Callable[[int, int], None]]:
        """The maze's rows (X: the position in ``route``, #: a wall, G: the goal) and the move that
        steps the X by ``(dr, dc)`` unless a wall or the edge is in the way (both maze pages)."""
        pos, goal = tuple(route.get("pos", (0, 0))), (MAZE_SIZE - 1, MAZE_SIZE - 1)
        rows: list[Widget] = []
        for r in range(MAZE_SIZE):
            cells = ["X" if (r, c) == pos else "#" if (r, c) in walls else "G" if (r, c) == goal else "." for c in range(MAZE_SIZE)]
            rows.append(Text(" ".join(cells), size=72, center=True, height=150, rid=f"{self.package}:id/maze_row"))

        def move(dr: int, dc: int) -> None:
            nxt = (pos[0] + dr, pos[1] + dc)
            if 0 <= nxt[0] < MAZE_SIZE and 0 <= nxt[1] < MAZE_SIZE and nxt not in walls:
                route["pos"] = nxt

        return rows, move

    def _maze(self, route: Route, seed: int) -> list[Widget]:
        walls = maze_walls(seed)
        pos, goal = tuple(route.get("pos", (0, 0))), (MAZE_SIZE - 1, MAZE_SIZE - 1)
        body: list[Widget] = [Text("Move the X to the bottom-right cell (# is a wall).", size=38)]
        rows, move = self._maze_grid(route, walls)
        body += rows
        body.append(Row([Text(""), Button("Up", filled=False, on_tap=lambda: move(-1, 0)), Text("")]))
        body.append(
            Row(
                [
                    Button("Left", filled=False, on_tap=lambda: move(0, -1)),
                    Button("Down", filled=False, on_tap=lambda: move(1, 0)),
                    Button("Right", filled=False, on_tap=lambda: move(0, 1)),
                ]
            )
        )
        if pos == goal:
            body.append(Text("Success!", size=64, center=True, height=180))
        return body

    # --- AndroidWorld's pages (their scripts' behaviour) --------------------------------------

    def _aw_multiply(self, route: Route, seed: int) -> list[Widget]:
        numbers = androidworld_multiply_numbers(seed)
        clicks = int(route.get("clicks", 0))
        body: list[Widget] = []
        if clicks < len(numbers):  # the fifth click hides the number and the button, shows the form
            body.append(Text(str(numbers[clicks]), size=96, center=True, height=200, rid=f"{self.package}:id/number"))
            body.append(Button("Click Me", filled=True, on_tap=lambda: route.update(clicks=clicks + 1), rid=f"{self.package}:id/button"))
        else:

            def check_answer() -> None:
                # parseInt(value) === product; a wrong answer empties the result (an empty <h2>).
                product = math.prod(numbers)
                answer = re.match(r"\s*([+-]?\d+)", str(route.get("answer", "")))
                route["result"] = "Success!" if answer is not None and int(answer.group(1)) == product else ""

            body.append(edit_field(self, route, "answer", hint="Enter the product"))
            body.append(Button("Submit", filled=False, on_tap=check_answer))
        if route.get("result"):
            body.append(Text(route["result"], size=64, center=True, height=160, rid=f"{self.package}:id/result"))
        return body

    def _aw_maze(self, route: Route, seed: int) -> list[Widget]:
        walls = androidworld_maze_walls(seed)
        if tuple(route.get("pos", (0, 0))) == (MAZE_SIZE - 1, MAZE_SIZE - 1):
            # checkGoalReached: document.body.innerHTML = '<h1>Success!</h1>'
            return [Text("Success!", size=80, center=True, height=200)]
        body, move = self._maze_grid(route, walls)
        steps = (("Up", -1, 0), ("Down", 1, 0), ("Left", 0, -1), ("Right", 0, 1))
        body.append(Row([Button(name, filled=False, on_tap=lambda dr=dr, dc=dc: move(dr, dc)) for name, dr, dc in steps]))
        return body

    def _aw_draw(self, route: Route, seed: int) -> list[Widget]:
        """The Color Challenge page: the three task colours on top, a 300 x 300 CSS-pixel canvas
        (787 device pixels at 2.625 px/dp) that swipes draw on in the colour picked from the
        palette (black at first, the canvas's default ``strokeStyle``), Clear, and Submit, which
        reads the canvas's colours (``evaluateTask``) and shows "Success!" when all three are
        there (else an empty result)."""
        pkg = self.package
        wanted = androidworld_draw_colors(seed)
        strokes: list[Stroke] = route.setdefault("strokes", [])
        pen = hex_rgb(str(route.get("pen", "#000000")))

        def submit() -> None:
            used = canvas_colors(route["strokes"], DRAW_CANVAS_PX)
            route["result"] = "Success!" if all(c in used for c in wanted) else ""

        body: list[Widget] = [
            Row([Swatch(hex_rgb(c)) for c in wanted], columns=7, height=150, rid=f"{pkg}:id/taskColors"),
            Canvas(
                strokes,
                on_stroke=lambda s: route["strokes"].append(s),  # noqa: PLW0108 - Clear swaps the list
                color=pen,
                area=(DRAW_CANVAS_PX, DRAW_CANVAS_PX),
                line_width=3,
                tap_draws=False,  # a touch with no move draws nothing (the script draws on touchmove)
                height=800,
                rid=f"{pkg}:id/canvas",
            ),
            Text("Available Colors:", size=38, center=True, height=90),
        ]
        for start in range(0, len(DRAW_COLORS), 8):
            body.append(
                Row(
                    [Swatch(hex_rgb(c), on_tap=lambda c=c: route.update(pen=c), height=110) for c in DRAW_COLORS[start : start + 8]],
                    columns=10,
                    height=110,
                    rid=f"{pkg}:id/colorPalette",
                )
            )
        body.append(
            Row(
                [
                    Button("Clear", filled=False, on_tap=lambda: route.update(strokes=[]), rid=f"{pkg}:id/clearButton"),
                    Button("Submit", filled=False, on_tap=submit, rid=f"{pkg}:id/submitButton"),
                ]
            )
        )
        if route.get("result"):
            body.append(Text(route["result"], size=56, center=True, height=160, rid=f"{pkg}:id/result"))
        return body
