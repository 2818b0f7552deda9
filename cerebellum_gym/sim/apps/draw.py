"""Simple Draw Pro (``com.simplemobiletools.draw.pro``): a canvas that strokes follow, a colour
row, Undo and Clear, and the save dialog of the real app: a file name, the format (PNG, SVG or
JPG; the app adds the extension) and the folder, picked in the folder picker.

The drawing lives in the app's data (it survives leaving the app, as the real app keeps its
canvas); saving renders it: PNG and JPG through PIL at the canvas's size, SVG as the strokes'
``<line>`` elements.
"""

from __future__ import annotations

import io
from typing import Any, ClassVar

from PIL import Image, ImageDraw

from cerebellum_gym.sim.apps import picker
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.render import RGB
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Canvas, Dialog, IconButton, ListItem, Row, Stroke, Swatch, Text, Widget

PACKAGE = "com.simplemobiletools.draw.pro"
CANVAS_HEIGHT = 1700
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


class SimpleDrawApp(App):
    package: ClassVar[str] = PACKAGE
    activity: ClassVar[str] = "com.simplemobiletools.draw.pro.activities.MainActivity"
    label: ClassVar[str] = "Simple Draw Pro"
    color: ClassVar[tuple[int, int, int]] = (0, 137, 123)
    clock_dependent: ClassVar[bool] = False

    def initial_data(self) -> dict[str, Any]:
        return {"strokes": [], "color": 0, "folder": picker.ROOT}

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
            rid=f"{PACKAGE}:id/my_canvas",
            desc="Canvas",
        )
        swatches: list[Widget] = [
            Swatch(rgb, desc=name, selected=i == int(data["color"]), on_tap=lambda i=i: data.update(color=i))
            for i, (name, rgb) in enumerate(COLORS)
        ]

        def undo() -> None:
            if data["strokes"]:
                data["strokes"].pop()

        actions: list[Widget] = [
            IconButton("Undo", "↺", on_tap=undo),
            IconButton("Clear", "✕", on_tap=lambda: data.update(strokes=[])),
            IconButton("Save", "✓", on_tap=lambda: self._open_save(route)),
        ]
        return ScreenSpec(title="Simple Draw Pro", body=[canvas, Row(swatches, height=147)], actions=actions, dialog=self._dialog(route))

    def _open_save(self, route: Route) -> None:
        route.update(dialog="save", file="", format=route.get("format", "png"), folder=self.data["folder"], error="")
        self.phone.focus(field_key(self, route, "file"))

    def _dialog(self, route: Route) -> Dialog | None:
        kind = route.get("dialog")
        if kind == "folder":
            return picker.folder_dialog(
                self, route, "folder", lambda here: route.update(dialog="save", folder=here), lambda: route.update(dialog="save")
            )
        if kind != "save":
            return None
        body: list[Widget] = [edit_field(self, route, "file", hint="Filename", rid=f"{PACKAGE}:id/save_image_filename")]
        for fmt in FORMATS:
            body.append(
                ListItem(
                    fmt.upper(),
                    height=130,
                    selected=route.get("format") == fmt,
                    rid=f"{PACKAGE}:id/save_image_radio_{fmt}",
                    on_tap=lambda f=fmt: route.update(format=f),
                )
            )
        body.append(
            ListItem(
                "Path",
                picker.shown_path(str(route["folder"])),
                rid=f"{PACKAGE}:id/save_image_path",
                on_tap=lambda: route.update(dialog="folder"),
            )
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
