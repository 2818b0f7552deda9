"""Files: moving folders, including the standard folders that show before they exist on disk."""

from __future__ import annotations

from cerebellum_gym.sim import Phone

FILES = "com.google.android.documentsui"


def _tap(phone: Phone, text: str, *, long: bool = False) -> None:
    node = phone.ui_tree().find(text=text) or phone.ui_tree().find(content_desc=text)
    assert node is not None, f"{text!r} not on screen"
    (phone.long_press if long else phone.tap)(*node.center)


def _move(phone: Phone, name: str, into: str) -> None:
    phone.start_app(FILES)
    _tap(phone, name, long=True)
    _tap(phone, "Move to")
    _tap(phone, into)
    _tap(phone, "Move")


def test_moving_a_standard_folder_that_is_not_on_disk_yet() -> None:
    """Found by RL exploration: this used to raise FileNotFoundError out of env.step."""
    phone = Phone()
    assert not phone.is_dir("/sdcard/Audiobooks")
    _move(phone, "Audiobooks", "Documents")
    assert phone.is_dir("/sdcard/Documents/Audiobooks")


def test_moving_a_folder_moves_its_contents() -> None:
    phone = Phone()
    phone.write_file("/sdcard/Download/trip/plan.txt", b"go")
    phone.start_app(FILES)
    _tap(phone, "Download")
    _tap(phone, "trip", long=True)
    _tap(phone, "Move to")
    _tap(phone, "Documents")
    _tap(phone, "Move")
    assert phone.read_file("/sdcard/Documents/trip/plan.txt") == b"go"
    assert not phone.is_dir("/sdcard/Download/trip")
