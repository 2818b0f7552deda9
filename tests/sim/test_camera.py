"""Camera (Camera2 as AndroidWorld's image has it): the viewfinder's accessibility buttons and
shutter, the mode list, video recording, and the first-run prompt only after a data clear."""

from __future__ import annotations

from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell

CAMERA = "com.android.camera2"


def _tap(phone: Phone, **where: str) -> None:
    node = phone.ui_tree().find(**where)
    assert node is not None, where
    phone.tap(*node.center)


def test_the_viewfinder_shows_camera2s_controls() -> None:
    phone = Phone()
    phone.start_app(CAMERA)
    tree = phone.ui_tree()
    shutter = tree.find(resource_id=f"{CAMERA}:id/shutter_button")
    assert shutter is not None and shutter.content_desc == "Shutter" and shutter.class_name == "android.widget.ImageView"
    for text, desc in (("MODE LIST", "Toggle mode list"), ("FILMSTRIP", "Toggle filmstrip"), ("Z-", "Zoom out"), ("Z+", "Zoom in")):
        button = tree.find(text=text)
        assert button is not None and button.content_desc == desc and button.clickable
    assert tree.find(content_desc="Options") is not None
    assert tree.find(text="Video") is None  # the mode list is closed


def test_the_mode_list_picks_video_and_the_shutter_records() -> None:
    phone = Phone()
    phone.start_app(CAMERA)
    _tap(phone, text="MODE LIST")
    modes = [n.text for n in phone.ui_tree().iter() if n.resource_id == f"{CAMERA}:id/selector_text"]
    assert modes == ["Camera", "Video"]
    _tap(phone, text="Video")
    assert phone.ui_tree().find(text="Video") is None  # the list closes on a choice
    _tap(phone, content_desc="Shutter")
    phone.wait(3)
    assert phone.ui_tree().find(resource_id=f"{CAMERA}:id/recording_time") is not None
    _tap(phone, content_desc="Shutter")
    assert phone.ui_tree().find(resource_id=f"{CAMERA}:id/recording_time") is None
    assert [name for name in phone.list_dir("/sdcard/Movies") if name.endswith(".mp4")]


def test_back_closes_the_mode_list_before_leaving() -> None:
    phone = Phone()
    phone.start_app(CAMERA)
    _tap(phone, text="MODE LIST")
    phone.press_key(4)
    assert phone.foreground_package() == CAMERA and phone.ui_tree().find(text="Video") is None


def test_a_data_clear_brings_the_first_run_prompt_back() -> None:
    sh = Shell(Phone())
    sh.phone.start_app(CAMERA)
    assert sh.phone.ui_tree().find(text="No thanks") is None  # AndroidWorld's set-up answered it
    assert sh.run(f"pm clear {CAMERA}").code == 0
    sh.phone.start_app(CAMERA)
    assert sh.phone.ui_tree().find(text="Remember photo locations?") is not None
    _tap(sh.phone, text="No thanks")
    assert sh.phone.ui_tree().find(text="No thanks") is None
