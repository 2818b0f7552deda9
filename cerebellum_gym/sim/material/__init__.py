"""The Material toolkit the simulator's apps are drawn with: Roboto and the Material Icons font
(vendored under ``fonts/`` with their Apache-2.0 licences), Material Components for Android's
metrics in dp, and a small per-app :class:`Theme`.

This module is light (no widget imports) so :mod:`cerebellum_gym.sim.render` can read the fonts
from it; the components live in :mod:`cerebellum_gym.sim.material.components`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

FONTS: Final = Path(__file__).resolve().parent / "fonts"
ROBOTO: Final = {"regular": FONTS / "Roboto-Regular.ttf", "medium": FONTS / "Roboto-Medium.ttf"}
MATERIAL_ICONS: Final = FONTS / "MaterialIcons-Regular.ttf"

#: Device pixels per dp on a Pixel 6 (420 dpi: 1080 px wide is 411 dp). sp is the same at font scale 1.0.
DENSITY: Final = 2.625


def dp(value: float) -> int:
    """``value`` dp in device pixels of the 1080x2400 screen."""
    return round(value * DENSITY)


sp = dp  # font scale 1.0


@lru_cache(maxsize=1)
def icon_codepoints() -> dict[str, str]:
    """Material icon names (``arrow_back``, ``more_vert``) -> the glyph's character in the icon font."""
    table: dict[str, str] = {}
    for line in (FONTS / "MaterialIcons-codepoints.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, code = line.split()
            table[name] = chr(int(code, 16))
    return table


RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Theme:
    """An app's colours as Material names them; ``dark`` for apps whose real UI is dark."""

    primary: RGB = (26, 115, 232)
    on_primary: RGB = (255, 255, 255)
    surface: RGB = (255, 255, 255)
    on_surface: RGB = (28, 27, 31)
    on_surface_variant: RGB = (96, 94, 102)
    outline: RGB = (121, 116, 126)
    divider: RGB = (224, 224, 230)
    dark: bool = False

    @classmethod
    def dark_theme(cls, primary: RGB = (208, 188, 255), on_primary: RGB = (56, 30, 114)) -> Theme:
        """Material's dark baseline (surface #121212) with ``primary``."""
        return cls(
            primary=primary,
            on_primary=on_primary,
            surface=(18, 18, 18),
            on_surface=(230, 225, 229),
            on_surface_variant=(202, 196, 208),
            outline=(147, 143, 153),
            divider=(60, 60, 64),
            dark=True,
        )


LIGHT: Final = Theme()
