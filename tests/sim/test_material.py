"""The Material toolkit: its vendored fonts and icons, text laid out as a TextView lays it out,
and the components' nodes, sizes and tiles."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from PIL import Image, ImageDraw

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.calendar import SimpleCalendarApp
from cerebellum_gym.sim.material import FONTS, LIGHT, MATERIAL_ICONS, ROBOTO, Theme, dp, icon_codepoints
from cerebellum_gym.sim.material import components as m
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.render import draw_icon, font, layout_lines
from cerebellum_gym.sim.widgets import Text, Widget

DRAW = ImageDraw.Draw(Image.new("RGB", (1, 1)))
DARK = Theme.dark_theme()


def test_fonts_and_licences_are_vendored() -> None:
    assert font(40).getname() == ("Roboto", "Regular")
    assert font(40, "medium").getname() == ("Roboto", "Medium")
    assert MATERIAL_ICONS.is_file() and all(p.is_file() for p in ROBOTO.values())
    for name in ("LICENSE-Apache-2.0.txt", "COPYRIGHT-Roboto.txt", "COPYRIGHT-MaterialIcons.txt"):
        assert "Apache" in (FONTS / name).read_text()
    icons = icon_codepoints()
    assert len(icons) > 2000 and icons["arrow_back"] == "\ue5c4" and icons["more_vert"] == "\ue5d4"


def _ink(paint: object, size: int = 64) -> np.ndarray:
    image = Image.new("RGB", (size, size), (0, 0, 0))
    assert paint(ImageDraw.Draw(image), (0, 0, size, size))  # type: ignore[operator]
    return np.asarray(image)[..., 0]


@pytest.mark.parametrize("glyph", ["arrow_back", "search", "more_vert", "←", "✓", "+", "❚❚", "●"])
def test_icons_draw_by_name_and_old_symbols_map_to_them(glyph: str) -> None:
    ink = _ink(lambda d, box: draw_icon(d, glyph, box, (255, 255, 255)))
    ys, xs = np.nonzero(ink > 128)
    assert len(xs) > 40
    # Centred in the box (within a few pixels at 64 px).
    assert abs((xs.min() + xs.max()) / 2 - 32) < 5 and abs((ys.min() + ys.max()) / 2 - 32) < 5


def test_legacy_symbols_draw_the_same_icon_as_their_names() -> None:
    for glyph, name in render.LEGACY_GLYPHS.items():
        assert np.array_equal(
            _ink(lambda d, box, g=glyph: draw_icon(d, g, box, (255, 255, 255))),
            _ink(lambda d, box, n=name: draw_icon(d, n, box, (255, 255, 255))),
        ), glyph


def test_an_unknown_icon_is_left_to_the_caller() -> None:
    assert not draw_icon(DRAW, "no_such_icon", (0, 0, 10, 10), (0, 0, 0))
    assert not draw_icon(DRAW, "+1", (0, 0, 10, 10), (0, 0, 0))


def test_text_wraps_between_words_and_breaks_only_words_wider_than_a_line() -> None:
    text = "Buy milk and eggs at the corner shop"
    width = round(DRAW.textlength("Buy milk and eggs", font=font(40))) + 1
    lines = layout_lines(DRAW, text, 40, width, max_lines=9)
    assert lines[0] == "Buy milk and eggs" and " ".join(lines) == text
    assert all(DRAW.textlength(line, font=font(40)) <= width for line in lines)
    long_word = layout_lines(DRAW, "Supercalifragilistic", 40, 120, max_lines=9)
    assert "".join(long_word) == "Supercalifragilistic" and len(long_word) > 1
    assert layout_lines(DRAW, "one\ntwo", 40, 900, max_lines=9) == ["one", "two"]


def test_cut_text_ends_in_an_ellipsis_only_when_ellipsized() -> None:
    text = "Buy milk and eggs at the corner shop before it closes"
    cut = layout_lines(DRAW, text, 40, 300, max_lines=2)
    dotted = layout_lines(DRAW, text, 40, 300, max_lines=2, ellipsize=True)
    assert len(cut) == len(dotted) == 2 and not cut[-1].endswith("…") and dotted[-1].endswith("…")
    assert dotted[0] == cut[0] and DRAW.textlength(dotted[-1], font=font(40)) <= 300
    assert layout_lines(DRAW, "short", 40, 300, max_lines=1, ellipsize=True) == ["short"]


def test_layout_cost_does_not_grow_with_the_text() -> None:
    lines = layout_lines(DRAW, "word " * 200_000, 40, 600, max_lines=3, ellipsize=True)
    assert len(lines) == 3 and lines[-1].endswith("…")


@pytest.fixture
def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string drawn while painting, from freshly painted tiles."""
    seen: list[str] = []
    original = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: object, text: str, *args: object, **kwargs: object) -> None:
        seen.append(text)
        original(self, xy, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    render.TILES.clear()
    render.FRAMES.clear()
    yield seen
    render.TILES.clear()
    render.FRAMES.clear()


def test_the_calendar_month_shows_every_day_number_and_weekday(drawn_texts: list[str]) -> None:
    phone = Phone()
    phone.start_app(SimpleCalendarApp.package)
    phone.screenshot(1080)
    assert {str(d) for d in range(1, 32)} <= set(drawn_texts)
    assert {"M", "T", "W", "F", "S"} <= set(drawn_texts)
    assert not any("…" in t for t in drawn_texts)


def test_a_text_view_wraps_where_its_height_allows(drawn_texts: list[str]) -> None:
    text = "A note that is much too long for one line of a phone's screen"
    _paint(Text(text, height=300), 1080)
    assert len(drawn_texts) > 1 and " ".join(drawn_texts) == text
    drawn_texts.clear()
    _paint(Text(text, ellipsize=True, height=300), 1080)
    assert len(drawn_texts) == 1 and drawn_texts[0].endswith("…")


def _paint(widget: Widget, width: int, scale: float = 1.0) -> np.ndarray:
    size = (round(width * scale), round(widget.height * scale))
    return render.TILES.get(
        (type(widget).__name__, widget.render_key(), *size), size, lambda d, w, h: widget.paint(d, w, h, scale), widget.background
    )


def _colours(tile: np.ndarray) -> int:
    return len(np.unique(tile.reshape(-1, 3), axis=0))


def _components(theme: Theme) -> list[Widget]:
    return [
        m.TopAppBar(
            "Inbox",
            navigation=m.MaterialIconButton("Navigate up", "arrow_back", theme=theme),
            actions=[m.MaterialIconButton("Search", "search", theme=theme)],
            theme=theme,
        ),
        m.Fab("Add", theme=theme),
        m.Chip("Work", checked=True, theme=theme),
        m.Card([Text("Totals")], theme=theme),
        m.BottomNavigation([m.NavItem("Alarm", "alarm"), m.NavItem("Clock", "schedule")], 0, theme=theme, m3=True),
        m.OutlinedTextField("name", "", label="Name", on_change=lambda _: None, theme=theme),
        m.Checkbox("Done", True, on_toggle=lambda: None, theme=theme),
        m.MaterialSwitch("Wi-Fi", True, on_toggle=lambda: None, theme=theme, m3=True),
        m.MaterialListItem("Alice", "555-0101", icon="person", theme=theme),
    ]


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
@pytest.mark.parametrize("scale", [1.0, 0.43, 0.05])
def test_every_component_paints_in_either_theme_at_any_scale(theme: Theme, scale: float) -> None:
    for widget in _components(theme):
        tile = _paint(widget, 1080, scale)
        if scale > 0.1:  # containers paint their frame; their children paint the rest
            assert _colours(tile) >= (2 if isinstance(widget, m.Card | m.BottomNavigation) else 3), type(widget).__name__


def test_a_component_s_tile_follows_its_theme_and_is_reused() -> None:
    light, dark = _components(LIGHT), _components(DARK)
    for a, b, again in zip(light, dark, _components(LIGHT), strict=True):
        assert a.render_key() != b.render_key() and a.render_key() == again.render_key()
    misses = render.TILES.misses
    _paint(light[1], 1080)
    _paint(_components(LIGHT)[1], 1080)
    assert render.TILES.misses <= misses + 1


def test_sizes_are_material_components_dp_at_the_pixel_6_density() -> None:
    assert dp(56) == 147 and dp(72) == 189 and dp(16) == 42
    assert m.TopAppBar("x").height == dp(56) and m.TopAppBar("x", m3=True).height == dp(64)
    assert m.Fab("Add").height == dp(56) and m.fab_bounds((0, 0, 1080, 2400)) == (1080 - 42 - 147, 2400 - 42 - 147, 1080 - 42, 2400 - 42)
    assert m.BottomNavigation([], 0).height == dp(56) and m.BottomNavigation([], 0, m3=True).height == dp(80)
    assert m.Chip("a").height == dp(32)
    assert m.MaterialListItem("a").height == dp(56) and m.MaterialListItem("a", "b").height == dp(72)


def test_top_app_bar_nodes() -> None:
    bar = m.TopAppBar(
        "Inbox", navigation=m.MaterialIconButton("Navigate up", "arrow_back"), actions=[m.MaterialIconButton("Search", "search")]
    )
    bounds = (0, 100, 1080, 100 + bar.height)
    node = bar.encode(bounds, "p")
    assert node.text == "" and not node.children
    placed = bar.children(bounds)
    # In the tree's order: the navigation button, the title, the actions (as a Toolbar lists them).
    assert [(w.desc, w.text) for w, _ in placed] == [("Navigate up", ""), ("", "Inbox"), ("Search", "")]
    title = placed[1]
    assert title[0].class_name == "android.widget.TextView" and title[1][0] == dp(72)
    buttons = [placed[0], placed[2]]
    assert all(b[3] - b[1] == dp(48) and b[2] - b[0] == dp(48) for _, b in buttons)
    assert placed[2][1][2] == 1080 - dp(4) and all(w.clickable is False for w, _ in placed)


def test_toggles_report_checkable_and_checked() -> None:
    box = m.Checkbox("Done", True, on_toggle=lambda: None).encode((0, 0, 1080, 126), "p")
    assert (box.class_name, box.checkable, box.checked, box.clickable, box.text) == ("android.widget.CheckBox", True, True, True, "Done")
    row = m.MaterialSwitch("Wi-Fi", False, on_toggle=lambda: None).encode((0, 0, 1080, 147), "p")
    switch = row.children[1]
    assert row.clickable and switch.class_name == "android.widget.Switch" and switch.checkable and not switch.checked
    chip = m.Chip("Work", checked=False).encode((0, 0, 300, 84), "p")
    assert chip.class_name == "android.widget.CompoundButton" and chip.checkable and not chip.checked
    assert m.Chip("Work", on_tap=lambda: None).encode((0, 0, 300, 84), "p").class_name == "android.widget.Button"


def test_bottom_navigation_items_carry_their_labels() -> None:
    nav = m.BottomNavigation([m.NavItem("Alarm", "alarm", lambda: None), m.NavItem("Clock", "schedule", lambda: None)], 1)
    placed = nav.children((0, 2000, 1080, 2000 + nav.height))
    nodes: list[UINode] = [w.encode(b, "p") for w, b in placed]
    assert [n.content_desc for n in nodes] == ["Alarm", "Clock"] and [n.selected for n in nodes] == [False, True]
    assert [n.children[0].text for n in nodes] == ["Alarm", "Clock"] and all(n.clickable for n in nodes)


def test_outlined_text_field_shows_its_label_as_the_hint_when_empty() -> None:
    empty = m.OutlinedTextField("name", "", label="Name", on_change=lambda _: None).encode((0, 0, 1080, 189), "p")
    filled = m.OutlinedTextField("name", "Ann", label="Name", on_change=lambda _: None).encode((0, 0, 1080, 189), "p")
    assert (empty.class_name, empty.text, filled.text) == ("android.widget.EditText", "Name", "Ann")


def test_setup_cfg_ships_every_font_file_as_package_data() -> None:
    """The wheel carries the fonts and their licences (tests/test_packaging.py builds and runs it)."""
    import configparser
    from fnmatch import fnmatch
    from pathlib import Path

    cfg = configparser.ConfigParser()
    cfg.read(Path(__file__).resolve().parents[2] / "setup.cfg")
    patterns = [p.strip() for p in cfg["options.package_data"]["cerebellum_gym.sim.material"].split(",")]
    files = [p.relative_to(FONTS.parent).as_posix() for p in FONTS.iterdir()]
    assert len(files) == 7 and all(any(fnmatch(f, pattern) for pattern in patterns) for f in files)
