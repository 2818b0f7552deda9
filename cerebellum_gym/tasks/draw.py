"""Drawing tasks: Simple Draw Pro's drawing saved under a given name in ``Pictures``, judged on the
files as AndroidWorld judges it, and the browser's Color Challenge page (BrowserDraw), judged on
the "Success!" its Submit prints, as AndroidWorld's browser judges are.

The app's save dialog takes a name, a format (PNG, SVG, JPG; the app appends the extension) and a
folder; AndroidWorld's file name already carries one of those extensions, so the name typed is
the file name without it, and the format is the one it names.
"""

from __future__ import annotations

import posixpath
from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.appdata.browser_pages import DRAW_COLORS, androidworld_draw_colors
from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.common import find_under
from cerebellum_gym.tasks.files import BrowserOracle, _BrowserTask
from cerebellum_gym.tasks.gallery import picker_step
from cerebellum_gym.tasks.oracle import ScriptedOracle, find, label_for
from cerebellum_gym.tasks.registry import register_task

DRAW_PACKAGE = "com.simplemobiletools.draw.pro"
PICTURES = "/sdcard/Pictures"
#: ``SimpleDrawProCreateDrawing.generate_random_params``'s pools.
DRAWING_WORDS: tuple[str, ...] = ("lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit")
DRAWING_EXTENSIONS: tuple[str, ...] = (".png", ".svg", ".jpg")


class SaveDrawingOracle(ScriptedOracle):
    """Draw a stroke, Save, type the name, pick the format and the folder, OK."""

    def __init__(self, file_name: str, folder: str) -> None:
        super().__init__()
        self.base, ext = posixpath.splitext(file_name)
        self.format = ext[1:].upper()
        self.folder = folder
        self.drawn = self.saved = self.selected = False

    def act(self, screen: LabelledScreen) -> str:
        if self.saved:
            return "F"
        step = self.open_app(screen, DRAW_PACKAGE, "Simple Draw Pro")
        if step is not None:
            return step
        picked = picker_step(self, screen, self.folder)
        if picked is not None:
            return picked[0]
        title = screen.root.find(resource_id="android:id/alertTitle")
        if title is not None and title.text == "Save as":
            name = find(screen, lambda n: n.resource_id.endswith(":id/save_image_filename"))
            if name is not None and name[1].text != self.base:
                if not self.selected and name[1].text:
                    self.selected = True
                    return f"P {name[0]}"  # the app's own name selected, typing replaces it
                return self.type_into(screen, name[1], name[0], self.base)
            fmt = find(screen, lambda n: n.resource_id.endswith(f":id/save_image_radio_{self.format.lower()}"))
            if fmt is not None and not fmt[1].checked:
                return self.tap(fmt[0])
            path = find(screen, lambda n: n.resource_id.endswith(":id/folder_value"))
            if path is not None and not any(n.text.endswith("/" + self.folder) for n in path[1].iter()):
                return self.tap(path[0])
            self.saved = True
            return self.tap(label_for(screen, text="OK") or "")
        if not self.drawn:
            self.drawn = True
            return "D"  # a stroke down the canvas
        save = find(screen, lambda n: n.resource_id == f"{DRAW_PACKAGE}:id/menu_save")
        return self.tap(save[0]) if save else "B"


@register_task
class SimpleDrawProCreateDrawing(Task):
    mirrors = "SimpleDrawProCreateDrawing"
    app: ClassVar[str] = "Simple Draw Pro"
    family: ClassVar[str] = "draw"
    complexity: ClassVar[float] = 1.8
    template = (
        "Create a new drawing in Simple Draw Pro. Name it {file_name}. Save it in the Pictures folder within the sdk_gphone_x86_64 "
        "storage area."
    )
    judge = "A file or folder <file_name> exists below /sdcard/Pictures (AndroidWorld's check_file_or_folder_exists)."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        name = f"{awdata.pick(rng, DRAWING_WORDS)}_{awdata.random_file_name(rng)}{awdata.pick(rng, DRAWING_EXTENSIONS)}"
        return {"file_name": name, "text": ""}

    def initialize(self, device: Device) -> None:
        # AndroidWorld: clear_device_storage (the shared folders emptied).
        for name in device.list_dir(PICTURES):
            device.remove_path(f"{PICTURES}/{name}")

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if find_under(device, PICTURES, self.params["file_name"]) else 0.0

    def text_candidates(self) -> list[str]:
        return [posixpath.splitext(self.params["file_name"])[0]]

    def oracle(self) -> Oracle:
        return SaveDrawingOracle(self.params["file_name"], "Pictures")


class DrawPageOracle(BrowserOracle):
    """:class:`BrowserOracle` on the Color Challenge page: for each of the page's three colours,
    its palette button, then a stroke (D, U, R, L: four different strokes from the canvas's
    centre); then Submit."""

    def __init__(self, seed: int) -> None:
        super().__init__("draw", seed)
        self.colors = androidworld_draw_colors(seed)
        self.drawn = 0
        self.picked = False

    def on_page(self, screen: LabelledScreen) -> str:
        if self.drawn < len(self.colors):
            if not self.picked:
                index = DRAW_COLORS.index(self.colors[self.drawn])
                rows = [n for n in screen.root.iter() if n.resource_id == "colorPalette"]
                label = screen.label_of(rows[index // 8].children[index % 8]) if len(rows) > index // 8 else None
                if label is None:
                    return self.scroll_search(screen)
                self.picked = True
                return self.tap(label)
            self.picked = False
            self.drawn += 1
            return "DURL"[self.drawn - 1]
        return self.tap(label_for(screen, text="Submit") or "")


@register_task
class BrowserDraw(_BrowserTask):
    mirrors = "BrowserDraw"
    complexity: ClassVar[float] = 2.0
    kind = "draw"
    template = (
        "Open the file task.html in Downloads in the file manager; when prompted open it with Chrome. "
        "Then create a drawing using the three colors shown at the top and hit submit."
    )

    def oracle(self) -> Oracle:
        return DrawPageOracle(self.params["browser_task_seed"])
