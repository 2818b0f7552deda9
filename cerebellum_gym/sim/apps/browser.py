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
"Success!" when the canvas holds every one of its three colours). HTML ids are the widgets' resource ids, bare (no package), as in
Chrome's accessibility tree (``setViewIdResourceName`` with the element's id).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Hashable, Sequence
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
    rgb_hex,
)
from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.material import dp
from cerebellum_gym.sim.material.components import Checkbox, MaterialIconButton
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


#: The omnibox's hint (IDS_SEARCH_OR_TYPE_URL) and the new tab page's search box's.
OMNIBOX_HINT = "Search or type URL"
#: The first run's terms line and its usage-statistics checkbox.
TERMS = "By using Chrome you agree to the Google Terms of Service and the Google Chrome and Chrome OS Additional Terms of Service."
STATS = "Help make Chrome better by sending usage statistics and crash reports to Google."
NTP_SEARCH_HINT = "Search or type web address"
TOOLBAR_HEIGHT = dp(56)


class _UrlBar(Widget):
    """The omnibox's ``url_bar``: an ``EditText`` showing the page's URL, or its hint."""

    class_name = "android.widget.EditText"

    def __init__(self, url: str, **kwargs: object) -> None:
        super().__init__(text=url or OMNIBOX_HINT, **kwargs)  # type: ignore[arg-type]
        self.url = url

    def render_key(self) -> Hashable:
        return (self.text, self.url)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        top, bottom = round(dp(8) * scale), height - round(dp(8) * scale)
        draw.rounded_rectangle((0, top, width - 1, bottom), radius=(bottom - top) // 2, fill=(241, 243, 244))
        size = round(dp(16) * scale)
        shown = render.text_fit(draw, self.text, size, max(1, width - round(dp(32) * scale)))
        color = render.TEXT if self.url else render.TEXT_SECONDARY
        draw.text((round(dp(16) * scale), height / 2), shown, font=render.font(size), fill=color, anchor="lm")


class _Logo(Widget):
    """The search provider's logo on the new tab page: an image, no text."""

    class_name = "android.widget.ImageView"

    def render_key(self) -> Hashable:
        return ()

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(110 * scale)
        draw.text((width / 2, height / 2), "Google", font=render.font(size), fill=(66, 133, 244), anchor="mm")


class _Maze(Widget):
    """AndroidWorld's maze (``div#maze``): ``MAZE_SIZE`` rows of square cells with a black
    border, walls filled black and the goal green; the character's cell holds the text "X",
    the only text of the grid."""

    class_name = "android.view.View"
    #: 110 CSS px plus the 1 px borders: the page sets no viewport, so Chrome lays it out
    #: 980 CSS px wide and shows it zoomed out to the screen's 1080 device px.
    CELL: ClassVar[int] = round(112 * 1080 / 980)

    def __init__(self, walls: frozenset[tuple[int, int]], pos: tuple[int, int], **kwargs: object) -> None:
        super().__init__(height=self.CELL * MAZE_SIZE + 8, **kwargs)  # type: ignore[arg-type]
        self.walls, self.pos = walls, pos

    def render_key(self) -> Hashable:
        return (self.walls, self.pos)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.pos)

    def _cell(self, left: int, top: int, r: int, c: int) -> Bounds:
        x, y = left + 8 + c * self.CELL, top + 4 + r * self.CELL
        return (x, y, x + self.CELL, y + self.CELL)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        cell = self.CELL * scale
        goal = (MAZE_SIZE - 1, MAZE_SIZE - 1)
        for r in range(MAZE_SIZE):
            for c in range(MAZE_SIZE):
                x, y = (8 + c * self.CELL) * scale, (4 + r * self.CELL) * scale
                fill = (0, 0, 0) if (r, c) in self.walls else (0, 128, 0) if (r, c) == goal and (r, c) != self.pos else (255, 255, 255)
                draw.rectangle((x, y, x + cell - 1, y + cell - 1), fill=fill, outline=(0, 0, 0), width=max(1, round(3 * scale)))
                if (r, c) == self.pos:
                    size = round(56 * 1080 / 980 * scale)  # font-size 56 CSS px
                    draw.text((x + cell / 2, y + cell / 2), "X", font=render.font(size), fill=(0, 0, 0), anchor="mm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.children = [UINode("android.widget.TextView", self._cell(bounds[0], bounds[1], *self.pos), text="X", package=package)]
        return node


class _SearchRow(Widget):
    """The new tab page's search box with the voice search button at its end."""

    class_name = "android.widget.LinearLayout"
    opaque = False
    default_height = dp(56)

    def __init__(self, box: Widget, mic: Widget) -> None:
        super().__init__()
        self.box, self.mic = box, mic

    def render_key(self) -> Hashable:
        return ()

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        end = right - dp(16) - dp(48)
        return [(self.box, (left + dp(16), top, end, bottom)), (self.mic, (end, top, end + dp(48), bottom))]


class _SearchBox(Text):
    """The new tab page's search box (``search_box_text``), an ``EditText`` showing its hint."""

    class_name = "android.widget.EditText"


class _ChromeToolbar(Widget):
    """Chrome's phone toolbar (``toolbar_phone.xml``): ``home_button``, the location bar with
    ``url_bar``, ``tab_switcher_button`` and ``menu_button``."""

    class_name = "android.widget.FrameLayout"
    default_height = TOOLBAR_HEIGHT

    def __init__(self, url: str | None, *, package: str, on_home: Callable[[], None]) -> None:
        super().__init__(rid=f"{package}:id/toolbar")
        rid = f"{package}:id/"
        # On the new tab page the location bar gives way to the page's own search box.
        bar: Widget = _UrlBar(url, on_tap=lambda: None, rid=rid + "url_bar") if url is not None else Widget(background=render.SURFACE)
        self.items: list[Widget] = [
            MaterialIconButton("Home", "home", on_tap=on_home, rid=rid + "home_button"),
            bar,
            MaterialIconButton("1 open tab, tap to switch tabs", "filter_1", on_tap=lambda: None, rid=rid + "tab_switcher_button"),
            MaterialIconButton("More options", "more_vert", on_tap=lambda: None, rid=rid + "menu_button"),
        ]

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.items[1].text)

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        button = dp(48)
        mid = (top + bottom) // 2
        half = button // 2
        return [
            (self.items[0], (left, mid - half, left + button, mid + half)),
            (self.items[1], (left + button, top, right - 2 * button, bottom)),
            (self.items[2], (right - 2 * button, mid - half, right - button, mid + half)),
            (self.items[3], (right - button, mid - half, right, mid + half)),
        ]


class _WebView(Widget):
    """The page's content as Chrome's accessibility tree shows it: an ``android.webkit.WebView``
    named by the page's title, holding the page's nodes."""

    class_name = "android.webkit.WebView"
    opaque = False

    def __init__(self, title: str, content: Sequence[Widget]) -> None:
        super().__init__(text=title, height=sum(w.height for w in content))
        self.content = list(content)

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.text, tuple(w.height for w in self.content))

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, _ = bounds
        placed: list[tuple[Widget, Bounds]] = []
        y = top
        for widget in self.content:
            placed.append((widget, (left, y, right, y + widget.height)))
            y += widget.height
        return placed

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.focusable = True
        return node


@register_app
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
            return self.reused_spec(("welcome", self.data.get("send_stats", True)), self._welcome)
        if not self.data["sync_asked"]:
            return self.reused_spec(("sync",), self._sync)  # never changes
        return super().build()

    def _welcome(self) -> ScreenSpec:
        """Welcome to Chrome: the terms, the usage-statistics checkbox (checked), Accept & continue."""
        stats = bool(self.data.get("send_stats", True))
        body: list[Widget] = [
            Text("Welcome to Chrome", size=72, center=True, height=420),
            Text(TERMS, size=36, center=True, color=(96, 94, 102), height=200),
            Checkbox(STATS, stats, on_toggle=lambda: self.data.update(send_stats=not stats), height=dp(72)),
        ]
        return ScreenSpec(
            title=None,
            body=body,
            bottom=[Button("Accept & continue", filled=True, on_tap=lambda: self.data.update(welcomed=True))],
            background=render.SURFACE,
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

    def _toolbar(self, url: str | None) -> _ChromeToolbar:
        return _ChromeToolbar(url, package=self.package, on_home=lambda: self.reset_to("tab"))

    def _new_tab(self) -> ScreenSpec:
        """The new tab page: the toolbar, the Google logo, the search box and voice search."""
        rid = f"{self.package}:id/"
        body: list[Widget] = [
            _Logo(height=dp(160), rid=rid + "search_provider_logo"),
            _SearchRow(
                _SearchBox(NTP_SEARCH_HINT, size=44, color=(96, 94, 102), on_tap=lambda: None, rid=rid + "search_box_text"),
                MaterialIconButton("Start voice search", "mic", on_tap=lambda: None, rid=rid + "voice_search_button"),
            ),
        ]
        return ScreenSpec(
            title=None,
            app_bar=self._toolbar(None),
            body=body,
            list_id="compositor_view_holder",
            list_class="android.widget.FrameLayout",
            background=render.SURFACE,
        )

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
        if page is None:
            return self._page_spec(url, url, [Text("This page can't be shown", size=48)])
        kind, seed, title = page
        kinds = {
            "multiply": self._aw_multiply,
            "maze": self._aw_maze,
            "draw": self._aw_draw,
            "aw-multiply": self._aw_multiply,
            "aw-maze": self._aw_maze,
            "aw-draw": self._aw_draw,
        }
        return self._page_spec(url, title, kinds.get(kind, self._aw_maze)(route, seed))

    def _page_spec(self, url: str, title: str, content: list[Widget]) -> ScreenSpec:
        """A page: the toolbar over the tab's content (``compositor_view_holder``)."""
        return ScreenSpec(
            title=None,
            app_bar=self._toolbar(url),
            body=[_WebView(title, content)],
            list_id="compositor_view_holder",
            list_class="android.widget.FrameLayout",
            background=render.SURFACE,
        )

    def _aw_multiply(self, route: Route, seed: int) -> list[Widget]:
        numbers = androidworld_multiply_numbers(seed)
        clicks = int(route.get("clicks", 0))
        body: list[Widget] = []
        if clicks < len(numbers):  # the fifth click hides the number and the button, shows the form
            body.append(Text(str(numbers[clicks]), size=96, center=True, height=200, rid="number"))
            body.append(Button("Click Me", filled=True, on_tap=lambda: route.update(clicks=clicks + 1), rid="button"))
        else:

            def check_answer() -> None:
                # parseInt(value) === product; a wrong answer empties the result (an empty <h2>).
                product = math.prod(numbers)
                answer = re.match(r"\s*([+-]?\d+)", str(route.get("answer", "")))
                route["result"] = "Success!" if answer is not None and int(answer.group(1)) == product else ""

            body.append(edit_field(self, route, "answer", hint="Enter the product", rid="answer"))
            body.append(Button("Submit", filled=False, on_tap=check_answer))
        if route.get("result"):
            body.append(Text(route["result"], size=64, center=True, height=160, rid="result"))
        return body

    def _aw_maze(self, route: Route, seed: int) -> list[Widget]:
        """The Maze Puzzle page: ``div#maze``, a grid of cells (walls black, the goal green) in
        which only the character's cell has text ("X"), then the Up / Down / Left / Right
        buttons; a move into a wall or off the board does nothing, and reaching the goal
        replaces the body with "Success!" (``checkGoalReached``)."""
        walls = androidworld_maze_walls(seed)
        pos = tuple(route.get("pos", (0, 0)))
        if pos == (MAZE_SIZE - 1, MAZE_SIZE - 1):
            return [Text("Success!", size=80, center=True, height=200)]

        def move(dr: int, dc: int) -> None:
            nxt = (pos[0] + dr, pos[1] + dc)
            if 0 <= nxt[0] < MAZE_SIZE and 0 <= nxt[1] < MAZE_SIZE and nxt not in walls:
                route["pos"] = nxt

        steps = (("Up", -1, 0), ("Down", 1, 0), ("Left", 0, -1), ("Right", 0, 1))
        return [
            _Maze(frozenset(walls), (pos[0], pos[1]), rid="maze"),
            Row([Button(name, filled=False, on_tap=lambda dr=dr, dc=dc: move(dr, dc)) for name, dr, dc in steps]),
        ]

    def _aw_draw(self, route: Route, seed: int) -> list[Widget]:
        """The Color Challenge page: the three task colours on top, a 300 x 300 CSS-pixel canvas
        (787 device pixels at 2.625 px/dp) that swipes draw on in the colour picked from the
        palette (black at first, the canvas's default ``strokeStyle``), Clear, and Submit, which
        reads the canvas's colours (``evaluateTask``) and shows "Success!" when all three are
        there (else an empty result)."""
        wanted = androidworld_draw_colors(seed)
        strokes: list[Stroke] = route.setdefault("strokes", [])
        pen = hex_rgb(str(route.get("pen", "#000000")))

        def submit() -> None:
            used = canvas_colors(route["strokes"], DRAW_CANVAS_PX)
            route["result"] = "Success!" if all(c in used for c in wanted) else ""

        body: list[Widget] = [
            Row([Swatch(hex_rgb(c)) for c in wanted], columns=7, height=150, rid="taskColors"),
            Canvas(
                strokes,
                on_stroke=lambda s: route["strokes"].append(s),  # noqa: PLW0108 - Clear swaps the list
                color=pen,
                area=(DRAW_CANVAS_PX, DRAW_CANVAS_PX),
                line_width=3,
                tap_draws=False,  # a touch with no move draws nothing (the script draws on touchmove)
                height=800,
                rid="canvas",
            ),
            Text("Available Colors:", size=38, center=True, height=90),
        ]
        for start in range(0, len(DRAW_COLORS), 8):
            body.append(
                Row(
                    [Swatch(hex_rgb(c), on_tap=lambda c=c: route.update(pen=c), height=110) for c in DRAW_COLORS[start : start + 8]],
                    columns=10,
                    height=110,
                    rid="colorPalette",
                )
            )
        body.append(
            Row(
                [
                    Button("Clear", filled=False, on_tap=lambda: route.update(strokes=[]), rid="clearButton"),
                    Button("Submit", filled=False, on_tap=submit, rid="submitButton"),
                ]
            )
        )
        if route.get("result"):
            body.append(Text(route["result"], size=56, center=True, height=160, rid="result"))
        return body
