"""Pixels for the simulator: fonts (Roboto and Material Icons), a palette, text laid out as
Android lays it out, and a tile cache shared by every phone.

Widgets paint themselves into tiles; a tile depends only on what the widget shows and on its
size, so it is drawn once and reused on every frame (and by every phone in the process) that
shows the same thing. A step that changes one switch repaints one tile.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from functools import lru_cache
from typing import Final, Literal

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from cerebellum_gym.errors import ConfigError
from cerebellum_gym.sim.material import MATERIAL_ICONS, ROBOTO, icon_codepoints

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


Weight = Literal["regular", "medium"]


@lru_cache(maxsize=128)
def font(size: int, weight: Weight = "regular") -> ImageFont.FreeTypeFont:
    """Roboto (Android's system font) at ``size`` output pixels; ``medium`` is Roboto Medium, the
    weight of Material's titles and buttons. Basic layout (no HarfBuzz): the same glyph advances
    on every machine, whether or not Pillow was built with raqm, and faster."""
    return ImageFont.truetype(str(ROBOTO[weight]), max(6, size), layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=64)
def icon_font(size: int) -> ImageFont.FreeTypeFont:
    """The Material Icons font at ``size`` output pixels (an icon's em square is its box)."""
    return ImageFont.truetype(str(MATERIAL_ICONS), max(4, size), layout_engine=ImageFont.Layout.BASIC)


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


def text_fit(draw: ImageDraw.ImageDraw, text: str, size: int, max_width: int, weight: Weight = "regular") -> str:
    """``text`` shortened with an ellipsis to fit ``max_width`` pixels at font ``size``.

    The result is the longest prefix that fits with its ellipsis. Its cost grows with what can be
    shown, not with the length of ``text``: only prefixes that double in length are measured
    until one overflows, then a binary search finds the cut (measuring a whole long text, or
    dropping one character at a time, made typing cost quadratic). Line breaks show as spaces:
    the fitted text is one line (PIL cannot measure several).
    """
    f = font(size, weight)
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


def _longest_prefix(draw: ImageDraw.ImageDraw, text: str, f: ImageFont.FreeTypeFont, max_width: int) -> int:
    """How many leading characters of ``text`` fit ``max_width`` (at least one, as Android keeps
    one character per line however narrow the view)."""
    lo, hi = 1, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if draw.textlength(text[:mid], font=f) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return lo


def layout_lines(
    draw: ImageDraw.ImageDraw,
    text: str,
    size: int,
    max_width: int,
    *,
    max_lines: int,
    ellipsize: bool = False,
    weight: Weight = "regular",
) -> list[str]:
    """``text`` broken into at most ``max_lines`` lines of ``max_width`` pixels as a ``TextView``
    breaks it: at newlines, then between words, and inside a word only when the word alone is
    wider than a line. Lines past ``max_lines`` are cut off; with ``ellipsize`` (``ellipsize="end"``)
    the last line shown ends with "…" when text was cut. Costs grow with what is shown, not with
    the text's length."""
    f = font(size, weight)
    lines: list[str] = []
    # No line holds more characters than pixels: what follows cannot show (one more character
    # keeps the ellipsis of a cut text), so a text of megabytes is split a screenful at a time.
    rest = text[: max_lines * (max_width + 1) + 1]
    while rest and len(lines) < max_lines:
        para, newline, after = rest.partition("\n")
        line = ""
        words = para.split(" ")
        used = 0  # characters of ``para`` placed on finished lines or in ``line``
        for i, word in enumerate(words):
            trial = f"{line} {word}" if line else word
            if draw.textlength(trial, font=f) <= max_width:
                line = trial
                used += len(word) + (1 if i else 0)
                continue
            if line:
                break  # the word starts the next line
            # A word wider than a whole line: as much of it as fits.
            cut = _longest_prefix(draw, word, f, max_width)
            line, used = word[:cut], used + cut
            break
        lines.append(line)
        leftover = para[used:].lstrip(" ")
        rest = leftover + newline + after if leftover else after
        if not leftover and not newline:
            rest = ""
    if rest and ellipsize and lines:
        lines[-1] = text_fit(draw, lines[-1] + " " + rest.replace("\n", " "), size, max_width, weight)
    return lines


#: The glyphs apps used before the icon font, as the Material icons that draw them.
LEGACY_GLYPHS: Final = {
    "←": "arrow_back",
    "‹": "chevron_left",
    "›": "chevron_right",
    "➜": "arrow_forward",
    "⌕": "search",
    "✓": "check",
    "✕": "close",
    "+": "add",
    "▶": "play_arrow",
    "■": "stop",
    "❚❚": "pause",
    "☰": "menu",
    "↺": "replay",
    "⌫": "backspace",
    "✎": "edit",
    "✉": "chat",
    "✆": "phone",
    "⚑": "flag",
    "•••": "more_vert",
    "▸": "folder",  # the file browsers' folder mark
}


def draw_icon(draw: ImageDraw.ImageDraw, glyph: str, box: tuple[float, float, float, float], color: RGB) -> bool:
    """Draw the Material icon ``glyph`` (a name such as ``"arrow_back"``, or one of the symbols of
    :data:`LEGACY_GLYPHS`) filling ``box``; False when there is no such icon (callers then draw
    the text). A few marks with no icon of their own (the record dot, the shutter ring) are drawn
    as shapes."""
    name = LEGACY_GLYPHS.get(glyph, glyph)
    char = icon_codepoints().get(name)
    if char is None:
        return _draw_shape(draw, glyph, box, color)
    left, top, right, bottom = box
    size = max(4, round(min(right - left, bottom - top)))
    f = icon_font(size)
    # The icon font's em square is its ascent (descent 0): drawn from the top-left corner, the
    # em square lands on the box and the icon sits in it as designed.
    x = (left + right - size) / 2
    y = (top + bottom - size) / 2
    draw.text((x, y), char, font=f, fill=color)
    return True


def _draw_shape(draw: ImageDraw.ImageDraw, glyph: str, box: tuple[float, float, float, float], color: RGB) -> bool:
    left, top, right, bottom = box
    size = min(right - left, bottom - top)
    cx, cy = (left + right) / 2, (top + bottom) / 2
    r = size / 2
    w = max(2, round(size / 10))
    if glyph == "●":
        draw.ellipse((cx - 0.5 * r, cy - 0.5 * r, cx + 0.5 * r, cy + 0.5 * r), fill=(217, 48, 37))
    elif glyph == "◯":
        draw.ellipse((cx - 0.6 * r, cy - 0.6 * r, cx + 0.6 * r, cy + 0.6 * r), outline=color, width=w)
    else:
        return False
    return True
