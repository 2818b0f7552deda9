"""The simulator's local web pages, as data: what the simulated Chrome shows and what the browser
tasks write to the device and judge by.

A page is an HTML file whose ``<meta name="sim-page">`` tag names one of AndroidWorld's page
kinds (``maze``, ``multiply`` or ``draw``) and its seed; the simulated Chrome shows AndroidWorld's
page of that kind, generated from that seed. Both the simulator (``sim.apps.browser``) and the tasks
(``tasks.files``) read this module, so tasks never import the simulator.

Example:
    >>> maze_path(set())
    ['Down', 'Down', 'Down', 'Right', 'Right', 'Right']
"""

from __future__ import annotations

import math
import re
from collections import deque

MAZE_SIZE = 4


def page_html(kind: str, seed: int, title: str) -> str:
    """An HTML file the simulated Chrome can show."""
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><meta name="sim-page" content="{kind}" data-seed="{seed}">'
        f"<title>{title}</title></head>\n<body><h1>{title}</h1><p>Open this page in Chrome.</p></body></html>\n"
    )


def maze_path(walls: set[tuple[int, int]], start: tuple[int, int] = (0, 0)) -> list[str] | None:
    """The shortest sequence of moves (Up/Down/Left/Right) from ``start`` to the goal, or ``None``."""
    goal = (MAZE_SIZE - 1, MAZE_SIZE - 1)
    moves = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1)}
    seen: dict[tuple[int, int], list[str]] = {start: []}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            return seen[cell]
        for name, (dr, dc) in moves.items():
            nxt = (cell[0] + dr, cell[1] + dc)
            if 0 <= nxt[0] < MAZE_SIZE and 0 <= nxt[1] < MAZE_SIZE and nxt not in walls and nxt not in seen:
                seen[nxt] = [*seen[cell], name]
                queue.append(nxt)
    return None


# --- AndroidWorld's pages ------------------------------------------------------------------------
#
# AndroidWorld's browser tasks write their own HTML with JavaScript (``task.html``): the page draws
# its numbers or its maze from a linear congruential generator seeded by a literal in the script
# (``new SeededRNG(<seed>)``). The simulated Chrome recognises these pages by their script and
# runs the same generator on the seed it reads from the file, so it shows what Chrome would.

#: A marker each of AndroidWorld's pages' scripts carries (its page functions), by page kind.
ANDROIDWORLD_MARKERS: dict[str, tuple[str, ...]] = {
    "aw-maze": ("function generateMaze()", "function moveCharacter(direction)", "function checkGoalReached()"),
    "aw-multiply": ("function handleButtonClick()", "function checkAnswer()", "function generateNumber()"),
    "aw-draw": ("function generateRandomColors(count)", "function createColorPalette()", "function evaluateTask()"),
}
_SEEDED_RNG = re.compile(r"new SeededRNG\((\d+)\)")


def androidworld_page(html: str) -> tuple[str, int] | None:
    """``(kind, seed)`` of one of AndroidWorld's browser pages (``aw-maze``, ``aw-multiply``,
    ``aw-draw``) read
    from the file's own script, or ``None`` when the HTML is not one of them.

    Example:
        >>> androidworld_page("<script>rng = new SeededRNG(7); function generateMaze() {} "
        ...                   "function moveCharacter(direction) {} function checkGoalReached() {}</script>")
        ('aw-maze', 7)
    """
    seed = _SEEDED_RNG.search(html)
    if seed is None:
        return None
    for kind, markers in ANDROIDWORLD_MARKERS.items():
        if all(marker in html for marker in markers):
            return kind, int(seed.group(1))
    return None


class SeededLcg:
    """The pages' ``SeededRNG``: ``seed = (1664525 * seed + 1013904223) % 2**32``, ``seed / 2**32``.

    JavaScript computes it in doubles, exactly (the product stays below 2**53 for a seed below
    2**32), so integers here give the same sequence.
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def random(self) -> float:
        self.seed = (1664525 * self.seed + 1013904223) % 2**32
        return self.seed / 2**32


def androidworld_multiply_numbers(seed: int) -> list[int]:
    """The five numbers AndroidWorld's multiply page shows: one at load, one per click of the
    first four (``Math.floor(rng.random() * 10) + 1``).

    Example:
        >>> androidworld_multiply_numbers(0)
        [3, 3, 9, 7, 4]
    """
    rng = SeededLcg(seed)
    return [math.floor(rng.random() * 10) + 1 for _ in range(5)]


def androidworld_maze_walls(seed: int) -> set[tuple[int, int]]:
    """Wall cells of AndroidWorld's 4x4 maze: its script's depth-first carve from the top-left,
    which stops on reaching the bottom-right (the shuffled direction order carries over from cell
    to cell, as in the script)."""
    open_cells: set[tuple[int, int]] = set()
    stack = [(0, 0)]
    directions = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    rng = SeededLcg(seed)
    goal = (MAZE_SIZE - 1, MAZE_SIZE - 1)
    while stack:
        cell = stack.pop()
        open_cells.add(cell)
        if cell == goal:
            break
        for i in range(len(directions) - 1, 0, -1):
            j = math.floor(rng.random() * (i + 1))
            directions[i], directions[j] = directions[j], directions[i]
        for dr, dc in directions:
            nxt = (cell[0] + dr, cell[1] + dc)
            if 0 <= nxt[0] < MAZE_SIZE and 0 <= nxt[1] < MAZE_SIZE and nxt not in open_cells:
                stack.append(nxt)
    open_cells |= {(0, 0), goal}
    return {(r, c) for r in range(MAZE_SIZE) for c in range(MAZE_SIZE)} - open_cells


#: The draw page's ``availableColors``, in its order (the palette's buttons).
DRAW_COLORS: tuple[str, ...] = (
    "#ff0000", "#00ff00", "#0000ff", "#ffff00", "#ff00ff", "#00ffff",
    "#800000", "#008000", "#000080", "#808000", "#800080", "#008080",
    "#ffa500", "#ff1493", "#9932cc", "#20b2aa", "#4b0082", "#00ff7f",
    "#ff6347", "#00ced1", "#9400d3", "#f0e68c", "#ff8c00", "#228b22",
)  # fmt: skip


def androidworld_draw_colors(seed: int) -> list[str]:
    """The three colours AndroidWorld's draw page asks for (``generateRandomColors(3)``: each a
    ``Math.floor(rng.random() * remaining.length)`` pick from the palette, without repeats).

    Example:
        >>> androidworld_draw_colors(0)
        ['#00ffff', '#008000', '#9400d3']
    """
    rng = SeededLcg(seed)
    remaining = list(DRAW_COLORS)
    return [remaining.pop(math.floor(rng.random() * len(remaining))) for _ in range(3)]


def hex_rgb(color: str) -> tuple[int, int, int]:
    """``#rrggbb`` as an RGB triple."""
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def rgb_hex(rgb: tuple[int, int, int]) -> str:
    """An RGB triple as the page's ``rgbToHex`` writes it (``#rrggbb``, lower case)."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)
