"""The simulator's local web pages, as data: what the simulated Chrome shows and what the browser
tasks write to the device and judge by.

A page is an HTML file whose ``<meta name="sim-page">`` tag names an interactive page kind
(``multiply`` or ``maze``) and its seed. Both the simulator (``sim.apps.browser``) and the tasks
(``tasks.files``) read this module, so tasks never import the simulator.

Example:
    >>> maze_path(set())
    ['Down', 'Down', 'Down', 'Right', 'Right', 'Right']
"""

from __future__ import annotations

from collections import deque

import numpy as np

MAZE_SIZE = 4


def page_html(kind: str, seed: int, title: str) -> str:
    """An HTML file the simulated Chrome can show."""
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><meta name="sim-page" content="{kind}" data-seed="{seed}">'
        f"<title>{title}</title></head>\n<body><h1>{title}</h1><p>Open this page in Chrome.</p></body></html>\n"
    )


def multiply_numbers(seed: int) -> list[int]:
    return [int(x) for x in np.random.default_rng(seed).integers(1, 11, size=5)]


def maze_walls(seed: int) -> set[tuple[int, int]]:
    """Wall cells of a seeded 4x4 maze that always has a path from the top-left to the bottom-right."""
    rng = np.random.default_rng(seed)
    while True:
        walls = {(int(r), int(c)) for r, c in rng.integers(0, MAZE_SIZE, size=(4, 2))} - {(0, 0), (MAZE_SIZE - 1, MAZE_SIZE - 1)}
        if maze_path(walls) is not None:
            return walls


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
