"""Simple Draw Pro: strokes follow the finger on the canvas, the colour row picks the pen, and the
save dialog writes the drawing with the name, format and folder chosen (the app adds the
extension); a bad name is refused with the app's message."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell

DRAW = "com.simplemobiletools.draw.pro"


def find(phone: Phone, **where: str) -> UINode:
    node = phone.ui_tree().find(**where)
    assert node is not None, where
    return node


def tap(phone: Phone, **where: str) -> None:
    phone.tap(*find(phone, **where).center)


@pytest.fixture
def phone() -> Phone:
    p = Phone()
    Shell(p).run(f"am start -n {DRAW}/{DRAW}.activities.MainActivity")
    assert p.foreground_package() == DRAW
    return p


def test_a_swipe_draws_a_stroke_in_the_pen_colour(phone: Phone) -> None:
    canvas = find(phone, resource_id=f"{DRAW}:id/my_canvas")
    assert canvas.scrollable  # the env's swipes run across it
    assert phone.ui_tree().find(resource_id=f"{DRAW}:id/undo") is None  # nothing to undo yet
    tap(phone, resource_id=f"{DRAW}:id/color_picker")
    tap(phone, content_desc="Red")
    tap(phone, text="OK")
    left, top, right, bottom = canvas.bounds
    x = (left + right) // 2
    phone.swipe(x, top + 100, x, bottom - 100)
    frame = phone.screenshot()
    pixel = frame[(top + bottom) // 2, x]
    assert pixel[0] > 200 and pixel[1] < 90  # red where the finger went
    assert tuple(frame[(top + bottom) // 2, left + 20]) == (255, 255, 255)  # white beside it
    tap(phone, resource_id=f"{DRAW}:id/undo")
    assert tuple(phone.screenshot()[(top + bottom) // 2, x]) == (255, 255, 255)


def save_as(phone: Phone, name: str, fmt: str, folder: str) -> None:
    tap(phone, resource_id=f"{DRAW}:id/menu_save")
    field = find(phone, resource_id=f"{DRAW}:id/save_image_filename")
    assert field.text.startswith("image_")  # the app's own name, selected by a long press
    phone.long_press(*field.center)
    phone.type_text(name)
    tap(phone, resource_id=f"{DRAW}:id/save_image_radio_{fmt}")
    tap(phone, resource_id=f"{DRAW}:id/folder_value")
    tap(phone, text=folder)
    tap(phone, text="OK")  # the folder
    assert find(phone, resource_id="android:id/alertTitle").text == "Save as"
    tap(phone, text="OK")  # the drawing


@pytest.mark.parametrize("fmt", ["png", "jpg", "svg"])
def test_save_writes_the_drawing_with_name_format_and_folder(phone: Phone, fmt: str) -> None:
    canvas = find(phone, resource_id=f"{DRAW}:id/my_canvas")
    phone.swipe(canvas.center[0] - 200, canvas.center[1], canvas.center[0] + 200, canvas.center[1])
    save_as(phone, "lorem_calm_cat", fmt, "Pictures")
    data = phone.read_file(f"/sdcard/Pictures/lorem_calm_cat.{fmt}")
    if fmt == "svg":
        assert data.startswith(b"<svg") and b"<line" in data
    else:
        picture = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
        assert picture.shape[1] == 1080 and picture.min() < 60  # white with a dark stroke


def test_ok_saves_under_the_apps_own_name(phone: Phone) -> None:
    tap(phone, resource_id=f"{DRAW}:id/menu_save")
    name = find(phone, resource_id=f"{DRAW}:id/save_image_filename").text
    assert name.startswith("image_" + phone.now().strftime("%Y%m%d_")) and len(name) == len("image_20231015_153400")
    tap(phone, text="OK")
    assert f"{name}.png" in phone.list_dir("/sdcard/Simple Draw")


def test_the_drawing_survives_leaving_the_app(phone: Phone) -> None:
    canvas = find(phone, resource_id=f"{DRAW}:id/my_canvas")
    phone.swipe(canvas.center[0], canvas.center[1] - 200, canvas.center[0], canvas.center[1] + 200)
    before = phone.screenshot().copy()
    phone.go_home()
    phone.start_app(DRAW)
    assert np.array_equal(phone.screenshot(), before)


def test_toolbar_tools_and_save_dialog_are_the_apps(phone: Phone) -> None:
    descs = [n.content_desc for n in phone.ui_tree().iter() if n.content_desc]
    assert descs == ["Save", "Clear", "Share", "More options", "Bucket fill", "Eraser", "Eyedropper", "Change color"]
    tap(phone, resource_id=f"{DRAW}:id/menu_save")
    radios = [n for n in phone.ui_tree().iter() if n.class_name == "android.widget.RadioButton"]
    assert [(n.text, n.checked) for n in radios] == [(".png", True), (".svg", False), (".jpg", False)]
    assert find(phone, resource_id=f"{DRAW}:id/folder_value").text == "Internal/Simple Draw"  # the app's own folder
    tap(phone, resource_id=f"{DRAW}:id/save_image_radio_jpg")
    radios = [n for n in phone.ui_tree().iter() if n.class_name == "android.widget.RadioButton"]
    assert [n.checked for n in radios] == [False, False, True]


def test_cancelling_the_folder_picker_keeps_the_apps_folder(phone: Phone) -> None:
    tap(phone, resource_id=f"{DRAW}:id/menu_save")
    tap(phone, resource_id=f"{DRAW}:id/folder_value")
    assert find(phone, resource_id="android:id/alertTitle").text == "Select a folder"
    tap(phone, text="Cancel")
    assert find(phone, resource_id=f"{DRAW}:id/folder_value").text == "Internal/Simple Draw"
