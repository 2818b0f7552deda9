"""Pixels for the simulator: fonts, a palette, and a tile cache shared by every phone.

Widgets paint themselves into tiles; a tile depends only on what the widget shows and on its
size, so it is drawn once and reused on every frame (and by every phone in the process) that
shows the same thing. A step that changes one switch repaints one tile.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from functools import lru_cache
from typing import Final

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from cerebellum_gym.errors import ConfigError

RGB = tuple[int, int, int]

BACKGROUND: Final[RGB] = (250, 250, 252)
SURFACE: Final[RGB] = (255, 255, 255)
TEXT: Final[RGB] = (28, 27, 31)
TEXT_SECONDARY: Final[RGB] = (96, 94, 102)
PRIMARY: Final[RGB] = (26, 115, 232)
ON_PRIMARY: Final[RGB] = (255, 255, 255)
DIVIDER: Final[RGB] = (224, 224, 230)
TOOLBAR: Final[RGB] = (240, 242, 250)
STATUS_BAR: Final[RGB] = (232, 234, 242)
DISABLED: Final[RGB] = (170, 170, 176)

#: Total bytes of tiles kept, shared by all phones in the process (least recently used go first).
TILE_CACHE_BYTES: Final = 96 * 1024 * 1024
#: The environment variable that sets :data:`FRAME_CACHE_BYTES` in megabytes (read at import, so
#: worker processes started with it set use it too).
FRAME_CACHE_ENV_VAR: Final = "CEREBELLUM_FRAME_CACHE_MB"
#: Default megabytes of whole frames kept: about 30 frames of 464 px and their 232-px history
#: versions. More is faster where many screens return, at that much more memory per process:
#: ``CEREBELLUM_FRAME_CACHE_MB=256 python benchmarks/perf/sim_step.py`` against the default, five
#: pairs of runs, pixels: 9-25% more steps per CPU-second in four, 3% fewer in one.
DEFAULT_FRAME_CACHE_MB: Final = 64


def frame_cache_bytes(environ: Mapping[str, str] = os.environ) -> int:
    """The frame cache's size in bytes: ``$CEREBELLUM_FRAME_CACHE_MB`` megabytes (0 keeps no frame), or the default.

    Raises:
        ConfigError: (a ``ValueError``) the variable is set to something other than a whole
            number of megabytes >= 0.

    Example:
        >>> frame_cache_bytes({}) // 2**20, frame_cache_bytes({"CEREBELLUM_FRAME_CACHE_MB": "256"}) // 2**20
        (64, 256)
    """
    raw = environ.get(FRAME_CACHE_ENV_VAR, "").strip()
    if not raw:
        return DEFAULT_FRAME_CACHE_MB * 1024 * 1024
    # ASCII digits only: int() would also take "1_0" and other scripts' digits.
    megabytes = int(raw) if raw.isascii() and raw.isdigit() else -1
    if megabytes < 0:
        raise ConfigError(f"{FRAME_CACHE_ENV_VAR} must be a whole number of megabytes (0 or more), got {raw!r}")
    return megabytes * 1024 * 1024


#: Total bytes of whole frames kept for screens that return (see :func:`frame_cache_bytes`).
FRAME_CACHE_BYTES: Final = frame_cache_bytes()


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at ``size`` output pixels."""
    return ImageFont.load_default(max(6, size))


class TileCache:
    """A byte-bounded LRU of rendered tiles keyed by what the widget shows."""

    def __init__(self, max_bytes: int = TILE_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self._tiles: OrderedDict[Hashable, np.ndarray] = OrderedDict()
        self._bytes = 0
        self.hits = 0
        self.misses = 0

    def lookup(self, key: Hashable) -> np.ndarray | None:
        """The tile under ``key`` if it is cached (counted as a hit), else ``None`` (not counted:
        the caller paints it with :meth:`get`)."""
        tile = self._tiles.get(key)
        if tile is not None:
            self._tiles.move_to_end(key)
            self.hits += 1
        return tile

    def get(
        self, key: Hashable, size: tuple[int, int], paint: Callable[[ImageDraw.ImageDraw, int, int], None], background: RGB
    ) -> np.ndarray:
        tile = self._tiles.get(key)
        if tile is not None:
            self._tiles.move_to_end(key)
            self.hits += 1
            return tile
        self.misses += 1
        width, height = size
        image = Image.new("RGB", (max(1, width), max(1, height)), background)
        paint(ImageDraw.Draw(image), width, height)
        tile = np.asarray(image)
        tile.flags.writeable = False
        self._tiles[key] = tile
        self._bytes += tile.nbytes
        while self._bytes > self.max_bytes and self._tiles:
            _, old = self._tiles.popitem(last=False)
            self._bytes -= old.nbytes
        return tile

    def clear(self) -> None:
        self._tiles.clear()
        self._bytes = 0

    @property
    def nbytes(self) -> int:
        return self._bytes


TILES: Final = TileCache()


class FrameCache:
    """A byte-bounded LRU of whole composed frames keyed by what they are made of (the tile keys
    and places, the status bar, the dimming), shared by every phone in the process: a screen that
    returns (home, back, a switch toggled back) is not composed again. Frames are read-only."""

    def __init__(self, max_bytes: int = FRAME_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self._frames: OrderedDict[Hashable, np.ndarray] = OrderedDict()
        self._bytes = 0
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> np.ndarray | None:
        frame = self._frames.get(key)
        if frame is None:
            self.misses += 1
            return None
        self._frames.move_to_end(key)
        self.hits += 1
        return frame

    def put(self, key: Hashable, frame: np.ndarray) -> None:
        if frame.nbytes > self.max_bytes:
            return
        old = self._frames.pop(key, None)
        if old is not None:
            self._bytes -= old.nbytes
        self._frames[key] = frame
        self._bytes += frame.nbytes
        self._evict()

    def resize(self, max_bytes: int) -> None:
        """Keep at most ``max_bytes`` from now on, dropping the least recently used frames now."""
        if max_bytes < 0:
            raise ValueError(f"max_bytes must be 0 or more, got {max_bytes}")
        self.max_bytes = max_bytes
        self._evict()

    def _evict(self) -> None:
        while self._bytes > self.max_bytes and self._frames:
            _, evicted = self._frames.popitem(last=False)
            self._bytes -= evicted.nbytes

    def clear(self) -> None:
        self._frames.clear()
        self._bytes = 0

    @property
    def nbytes(self) -> int:
        return self._bytes


FRAMES: Final = FrameCache()


def paste(canvas: np.ndarray, tile: np.ndarray, x: int, y: int, clip: tuple[int, int, int, int]) -> None:
    """Copy ``tile`` onto ``canvas`` at ``(x, y)``, keeping inside ``clip`` (l, t, r, b)."""
    cl, ct, cr, cb = clip
    th, tw = tile.shape[:2]
    left, top = max(x, cl), max(y, ct)
    right, bottom = min(x + tw, cr), min(y + th, cb)
    if right <= left or bottom <= top:
        return
    canvas[top:bottom, left:right] = tile[top - y : bottom - y, left - x : right - x]


def text_fit(draw: ImageDraw.ImageDraw, text: str, size: int, max_width: int) -> str:
    """``text`` shortened with an ellipsis to fit ``max_width`` pixels at font ``size``.

    The result is the longest prefix that fits with its ellipsis. Its cost grows with what can be
    shown, not with the length of ``text``: only prefixes that double in length are measured
    until one overflows, then a binary search finds the cut (measuring a whole long text, or
    dropping one character at a time, made typing cost quadratic). Line breaks show as spaces:
    the fitted text is one line (PIL cannot measure several).
    """
    f = font(size)
    text = text.replace("\n", " ")

    def fits(n: int) -> bool:
        return draw.textlength(text[:n] + "…", font=f) <= max_width

    # Find a prefix length that overflows, doubling from a screenful's worth of characters.
    probe = 64
    while probe < len(text) and draw.textlength(text[:probe], font=f) <= max_width:
        probe *= 2
    if probe >= len(text) and draw.textlength(text, font=f) <= max_width:
        return text
    # fits(lo) holds (the empty prefix always counts), fits(hi) does not; search between.
    lo, hi = 0, min(probe, len(text))
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return text[:lo] + "…"


def draw_icon(draw: ImageDraw.ImageDraw, glyph: str, box: tuple[float, float, float, float], color: RGB) -> bool:
    """Draw ``glyph`` as a vector icon inside ``box``; False when it has no drawing (callers then
    fall back to text). The bundled font has no arrows, checks or media symbols."""
    left, top, right, bottom = box
    size = min(right - left, bottom - top)
    cx, cy = (left + right) / 2, (top + bottom) / 2
    r = size / 2
    w = max(2, round(size / 10))

    def line(*points: tuple[float, float]) -> None:
        draw.line([(cx + x * r, cy + y * r) for x, y in points], fill=color, width=w, joint="curve")

    if glyph in ("←", "‹"):
        line((0.6, 0), (-0.6, 0)) if glyph == "←" else None
        line((-0.1 if glyph == "←" else 0.25, -0.55), (-0.6 if glyph == "←" else -0.25, 0), (-0.1 if glyph == "←" else 0.25, 0.55))
    elif glyph in ("›", "➜"):
        if glyph == "➜":
            line((-0.6, 0), (0.6, 0))
        line((0.1 if glyph == "➜" else -0.25, -0.55), (0.6 if glyph == "➜" else 0.25, 0), (0.1 if glyph == "➜" else -0.25, 0.55))
    elif glyph == "⌕":
        draw.ellipse((cx - 0.55 * r, cy - 0.55 * r, cx + 0.25 * r, cy + 0.25 * r), outline=color, width=w)
        line((0.2, 0.2), (0.65, 0.65))
    elif glyph == "✓":
        line((-0.6, 0.05), (-0.15, 0.5), (0.6, -0.45))
    elif glyph == "✕":
        line((-0.5, -0.5), (0.5, 0.5))
        line((-0.5, 0.5), (0.5, -0.5))
    elif glyph == "+":
        line((-0.6, 0), (0.6, 0))
        line((0, -0.6), (0, 0.6))
    elif glyph == "▶":
        draw.polygon([(cx - 0.4 * r, cy - 0.55 * r), (cx + 0.55 * r, cy), (cx - 0.4 * r, cy + 0.55 * r)], fill=color)
    elif glyph == "■":
        draw.rectangle((cx - 0.45 * r, cy - 0.45 * r, cx + 0.45 * r, cy + 0.45 * r), fill=color)
    elif glyph == "●":
        draw.ellipse((cx - 0.5 * r, cy - 0.5 * r, cx + 0.5 * r, cy + 0.5 * r), fill=(217, 48, 37))
    elif glyph == "◯":
        draw.ellipse((cx - 0.6 * r, cy - 0.6 * r, cx + 0.6 * r, cy + 0.6 * r), outline=color, width=w)
    elif glyph == "❚❚":
        for dx in (-0.3, 0.3):
            draw.rectangle((cx + (dx - 0.12) * r, cy - 0.5 * r, cx + (dx + 0.12) * r, cy + 0.5 * r), fill=color)
    elif glyph == "☰":
        for dy in (-0.4, 0, 0.4):
            line((-0.55, dy), (0.55, dy))
    elif glyph == "↺":
        draw.arc((cx - 0.5 * r, cy - 0.5 * r, cx + 0.5 * r, cy + 0.5 * r), 300, 250, fill=color, width=w)
        line((-0.55, -0.55), (-0.5, -0.15), (-0.1, -0.2))
    elif glyph == "⌫":
        draw.polygon(
            [
                (cx - 0.7 * r, cy),
                (cx - 0.3 * r, cy - 0.45 * r),
                (cx + 0.7 * r, cy - 0.45 * r),
                (cx + 0.7 * r, cy + 0.45 * r),
                (cx - 0.3 * r, cy + 0.45 * r),
            ],
            outline=color,
            width=w,
        )
        line((-0.05, -0.2), (0.4, 0.2))
        line((-0.05, 0.2), (0.4, -0.2))
    elif glyph == "✎":
        line((-0.5, 0.5), (0.45, -0.45))
        line((-0.55, 0.55), (-0.35, 0.55))
    elif glyph == "✉":
        draw.rectangle((cx - 0.6 * r, cy - 0.4 * r, cx + 0.6 * r, cy + 0.4 * r), outline=color, width=w)
        line((-0.6, -0.4), (0, 0.1), (0.6, -0.4))
    elif glyph == "✆":
        draw.rounded_rectangle((cx - 0.3 * r, cy - 0.6 * r, cx + 0.3 * r, cy + 0.6 * r), radius=0.1 * r, outline=color, width=w)
    elif glyph == "⚑":
        line((-0.4, 0.6), (-0.4, -0.6))
        draw.polygon([(cx - 0.4 * r, cy - 0.6 * r), (cx + 0.5 * r, cy - 0.35 * r), (cx - 0.4 * r, cy - 0.1 * r)], fill=color)
    else:
        return False
    return True
