"""Simple Draw Pro (``com.simplemobiletools.draw.pro``, versionCode 79, tag 6.9.3): the canvas
under the toolbar (Save, Clear, Share, the overflow), the tool buttons over the canvas (bucket
fill, eraser, eyedropper, change colour; undo once something is drawn), the brush size bar, and
the "Save as" dialog: the path (picked in the folder picker), the file name and the extension
(.png, .svg or .jpg radio buttons; the app adds the extension).

Layouts ``activity_main.xml`` and ``dialog_save_image.xml``, menu ``menu.xml``,
``MainActivity.kt`` and ``dialogs/SaveImageDialog.kt`` at 6.9.3.

The drawing lives in the app's data (it survives leaving the app, as the real app keeps its
canvas); saving renders it: PNG and JPG through PIL at the canvas's size, SVG as the strokes'
``<line>`` elements.
"""

from __future__ import annotations

import io
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from PIL import Image, ImageDraw

from cerebellum_gym.core.tree import Bounds
from cerebellum_gym.sim.apps import picker
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.material import dp
from cerebellum_gym.sim.material.components import ActionMenuItem, MaterialIconButton, OverflowButton
from cerebellum_gym.sim.material.simple import SIMPLE_THEME, InputLayout, MenuEntry, Radio, SimpleToolbar
from cerebellum_gym.sim.render import RGB
from cerebellum_gym.sim.render import font as render_font
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Canvas, Dialog, Row, Stroke, Swatch, Text, Widget

PACKAGE = "com.simplemobiletools.draw.pro"
CANVAS_HEIGHT = 2106  # the window below the toolbar (231 to 2337 px)
LINE_WIDTH = 12
#: The colour row: name, colour.
COLORS: tuple[tuple[str, RGB], ...] = (
    ("Black", (0, 0, 0)),
    ("Red", (229, 57, 53)),
    ("Green", (67, 160, 71)),
    ("Blue", (30, 136, 229)),
    ("Yellow", (253, 216, 53)),
)
FORMATS = ("png", "svg", "jpg")


def render_drawing(strokes: list[Stroke], size: tuple[int, int], fmt: str) -> bytes:
    """The drawing as a file of format ``fmt`` (``png``, ``jpg`` or ``svg``)."""
    width, height = size
    if fmt == "svg":
        lines = "".join(
            f'<line x1="{a}" y1="{b}" x2="{c}" y2="{d}" stroke="#{r:02x}{g:02x}{bl:02x}" '
            f'stroke-width="{LINE_WIDTH}" stroke-linecap="round"/>'
            for (r, g, bl), (a, b, c, d) in strokes
        )
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
            f'<rect width="{width}" height="{height}" fill="#ffffff"/>{lines}</svg>\n'
        ).encode()
    image = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for color, (a, b, c, d) in strokes:
        draw.line(((a, b), (c, d)), fill=color, width=LINE_WIDTH)
    out = io.BytesIO()
    image.save(out, "PNG" if fmt == "png" else "JPEG")
    return out.getvalue()


ID = f"{PACKAGE}:id/"
#: Where a first drawing goes: ``internalStoragePath/Simple Draw`` (created on saving).
DEFAULT_FOLDER = f"{picker.ROOT}/Simple Draw"
#: The toolbar's overflow (``menu.xml``: the "ifRoom" items do not fit beside the three "always" ones).
OVERFLOW = ("Open file", "Change background color", "Print", "Settings", "About", "More apps from us")


class _Tool(MaterialIconButton):
    """A tool button over the canvas: an ``ImageView`` with its description."""

    class_name = "android.widget.ImageView"


class _SeekBar(Widget):
    """The brush size bar (``MySeekBar``)."""

    class_name = "android.widget.SeekBar"
    default_height = dp(48)

    def render_key(self) -> Hashable:
        return ()

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        m = round(dp(16) * scale)
        draw.line((m, height / 2, width - m, height / 2), fill=(200, 200, 200), width=max(1, round(dp(2) * scale)))
        x = m + (width - 2 * m) * 0.4
        r = round(dp(8) * scale)
        draw.ellipse((x - r, height / 2 - r, x + r, height / 2 + r), fill=SIMPLE_THEME.primary)


class _Holder(Widget):
    """``main_holder``: the canvas, the tool buttons stacked along its top right corner (undo
    below the colour) and the brush size bar along its bottom."""

    class_name = "android.widget.RelativeLayout"
    opaque = False

    def __init__(self, canvas: Canvas, tools: Sequence[Widget], undo: Widget | None, height: int) -> None:
        super().__init__(height=height, rid=f"{ID}main_holder")
        self.canvas, self.tools, self.undo = canvas, list(tools), undo

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), len(self.tools), self.undo is not None)

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        size = dp(48)
        placed: list[tuple[Widget, Bounds]] = [(self.canvas, bounds)]
        x = right - size * len(self.tools)
        for tool in self.tools:
            placed.append((tool, (x, top, x + size, top + size)))
            x += size
        if self.undo is not None:
            placed.append((self.undo, (right - size, top + size, right, top + 2 * size)))
        placed.append((_SeekBar(rid=f"{ID}stroke_width_bar"), (left + dp(48), bottom - dp(48), right, bottom)))
        return placed


@register_app
class SimpleDrawApp(App):
    package: ClassVar[str] = PACKAGE
    activity: ClassVar[str] = "com.simplemobiletools.draw.pro.activities.MainActivity"
    label: ClassVar[str] = "Simple Draw Pro"
    color: ClassVar[tuple[int, int, int]] = (0, 137, 123)
    clock_dependent: ClassVar[bool] = False

    def initial_data(self) -> dict[str, Any]:
        # No folder saved to yet: the dialog offers the app's own (``SaveImageDialog``).
        return {"strokes": [], "color": 0, "folder": DEFAULT_FOLDER}

    def screen_main(self, route: Route) -> ScreenSpec:
        data = self.data
        strokes: list[Stroke] = data["strokes"]
        color = COLORS[int(data["color"])][1]
        canvas = Canvas(
            strokes,
            on_stroke=lambda s: data["strokes"].append(s),  # noqa: PLW0108 - Clear swaps the list
            color=color,
            line_width=LINE_WIDTH,
            height=CANVAS_HEIGHT,
            rid=f"{ID}my_canvas",
        )

        def undo() -> None:
            if data["strokes"]:
                data["strokes"].pop()

        tools: list[Widget] = [
            _Tool("Bucket fill", "format_color_fill", theme=SIMPLE_THEME, rid=f"{ID}bucket_fill", on_tap=lambda: None),
            _Tool("Eraser", "auto_fix_normal", theme=SIMPLE_THEME, rid=f"{ID}eraser", on_tap=lambda: None),
            _Tool("Eyedropper", "colorize", theme=SIMPLE_THEME, rid=f"{ID}eye_dropper", on_tap=lambda: None),
            _Tool(
                "Change color", "circle", theme=SIMPLE_THEME, color=color, rid=f"{ID}color_picker", on_tap=lambda: self.set_dialog("color")
            ),
        ]
        # Undo shows once there is something to undo (``MainActivity.toggleUndoVisibility``).
        undo_button = _Tool("Undo", "undo", theme=SIMPLE_THEME, rid=f"{ID}undo", on_tap=undo) if strokes else None
        actions: list[MaterialIconButton] = [
            ActionMenuItem("Save", "save", theme=SIMPLE_THEME, rid=f"{ID}menu_save", on_tap=lambda: self._open_save(route)),
            ActionMenuItem("Clear", "clear", theme=SIMPLE_THEME, rid=f"{ID}clear", on_tap=lambda: data.update(strokes=[])),
            ActionMenuItem("Share", "share", theme=SIMPLE_THEME, rid=f"{ID}menu_share", on_tap=lambda: None),
            OverflowButton(on_tap=lambda: self.set_dialog("menu"), theme=SIMPLE_THEME),
        ]
        # The toolbar has no title: the layout gives it none and the activity sets none.
        bar = SimpleToolbar("", back=None, actions=actions, rid=f"{ID}main_toolbar")
        return ScreenSpec(
            title=None,
            app_bar=bar,
            body=[_Holder(canvas, tools, undo_button, CANVAS_HEIGHT)],
            dialog=self._dialog(route),
            background=SIMPLE_THEME.surface,
            list_id="main_scrollview",
            list_class="android.widget.ScrollView",
        )

    def _open_save(self, route: Route) -> None:
        # The name starts as "image_" and the time (``getInitialFilename``), the extension as last chosen.
        name = "image_" + self.phone.now().strftime("%Y%m%d_%H%M%S")
        route.update(dialog="save", file=name, format=route.get("format", "png"), folder=self.data["folder"], error="")
        self.phone.focus(field_key(self, route, "file"))

    def _dialog(self, route: Route) -> Dialog | None:
        kind = route.get("dialog")
        if kind == "menu":
            return Dialog("", [], body=[MenuEntry(item, on_tap=lambda: self.set_dialog(None)) for item in OVERFLOW])
        if kind == "color":
            swatches: list[Widget] = [
                Swatch(rgb, desc=name, selected=i == int(self.data["color"]), on_tap=lambda i=i: self.data.update(color=i))
                for i, (name, rgb) in enumerate(COLORS)
            ]
            return Dialog(
                "",
                [
                    Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)),
                    Button("OK", filled=False, on_tap=lambda: self.set_dialog(None)),
                ],
                body=[Row(swatches, height=147)],
            )
        if kind == "folder":
            return picker.folder_dialog(
                self,
                route,
                "folder",
                lambda here: route.update(dialog="save", folder=here),
                lambda: route.update(dialog="save", folder=route["chosen"]),
            )
        if kind != "save":
            return None
        path = _PathValue(humanize(str(route["folder"])), on_tap=lambda: self._pick_folder(route))
        name = edit_field(self, route, "file", hint="Filename", rid=f"{ID}save_image_filename")
        body: list[Widget] = [
            InputLayout(path, rid=f"{ID}folder_hint"),
            InputLayout(name, rid=f"{ID}save_image_filename_hint"),
        ]
        for fmt in FORMATS:
            body.append(
                Radio(f".{fmt}", route.get("format") == fmt, rid=f"{ID}save_image_radio_{fmt}", on_tap=lambda f=fmt: route.update(format=f))
            )
        if route.get("error"):
            body.append(Text(str(route["error"]), size=38, color=(198, 40, 40), height=110))
        return Dialog(
            "Save as",
            [
                Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)),
                Button("OK", filled=False, on_tap=lambda: self._save(route)),
            ],
            body=body,
        )

    def _pick_folder(self, route: Route) -> None:
        route["chosen"] = route["folder"]  # what Cancel keeps
        # The picker opens at the storage's root for a folder not made yet.
        if route["folder"] == DEFAULT_FOLDER and not self.phone.is_dir(DEFAULT_FOLDER):
            route["folder"] = picker.ROOT
        route["dialog"] = "folder"

    def _save(self, route: Route) -> None:
        name = str(route.get("file", "")).strip()
        if not name:
            route["error"] = "Filename cannot be empty"
            return
        if any(c in name for c in '/\\:*?"<>|'):
            route["error"] = "The filename contains invalid characters"
            return
        folder, fmt = str(route["folder"]), str(route.get("format", "png"))
        width = 1080
        self.phone.write_file(f"{folder}/{name}.{fmt}", render_drawing(list(self.data["strokes"]), (width, CANVAS_HEIGHT), fmt))
        self.data["folder"] = folder  # the next save starts there, as the app remembers it
        self.set_dialog(None)
        self.phone.focus(None)


def humanize(path: str) -> str:
    """Simple-Commons' ``humanizePath``: the storage's root shown as "Internal"."""
    return "Internal" + path[len(picker.ROOT) :] if path.startswith(picker.ROOT) else path


class _PathValue(Widget):
    """The ``folder_value`` field: the humanized path, tapped to pick a folder."""

    class_name = "android.widget.EditText"
    default_height = dp(56)

    def __init__(self, path: str, **kwargs: Any) -> None:
        super().__init__(text=path, rid=f"{ID}folder_value", **kwargs)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(16) * scale)
        draw.text((round(dp(12) * scale), height / 2), self.text, font=render_font(size), fill=SIMPLE_THEME.on_surface, anchor="lm")
