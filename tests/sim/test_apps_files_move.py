"""Files: moving folders, including the standard folders that show before they exist on disk,
through DocumentsUI's own path: Show roots, the storage, a long press, More options, Move to…,
the picker (its own Show roots), MOVE."""

from __future__ import annotations

from cerebellum_gym.sim import Phone

FILES = "com.google.android.documentsui"


def _tap(phone: Phone, text: str, *, long: bool = False) -> None:
    node = phone.ui_tree().find(text=text) or phone.ui_tree().find(content_desc=text)
    assert node is not None, f"{text!r} not on screen"
    (phone.long_press if long else phone.tap)(*node.center)


def _storage(phone: Phone) -> None:
    _tap(phone, "Show roots")
    _tap(phone, "sdk_gphone64_x86_64")


def _move_selection(phone: Phone, into: str) -> None:
    _tap(phone, "More options")
    _tap(phone, "Move to…")
    _storage(phone)  # the picker starts in the current folder
    _tap(phone, into)
    _tap(phone, "MOVE")


def _move(phone: Phone, name: str, into: str) -> None:
    phone.start_app(FILES)
    _storage(phone)
    _tap(phone, name, long=True)
    _move_selection(phone, into)


def test_moving_a_standard_folder_that_is_not_on_disk_yet() -> None:
    """Found by RL exploration: this used to raise FileNotFoundError out of env.step."""
    phone = Phone()
    assert not phone.is_dir("/sdcard/Audiobooks")
    _move(phone, "Audiobooks", "Documents")
    assert phone.is_dir("/sdcard/Documents/Audiobooks")


def test_moving_a_folder_moves_its_contents() -> None:
    phone = Phone()
    phone.write_file("/sdcard/Download/trip/plan.txt", b"go")
    phone.start_app(FILES)  # Downloads
    assert phone.ui_tree().find(text="Files in Downloads") is not None
    _tap(phone, "trip", long=True)
    assert phone.ui_tree().find(text="1 selected") is not None
    _move_selection(phone, "Documents")
    assert phone.read_file("/sdcard/Documents/trip/plan.txt") == b"go"
    assert not phone.is_dir("/sdcard/Download/trip")


def test_delete_asks_and_the_roots_list_the_storage() -> None:
    phone = Phone()
    phone.write_file("/sdcard/Download/a.txt", b"a")
    phone.write_file("/sdcard/Download/b.txt", b"b")
    phone.start_app(FILES)
    _tap(phone, "a.txt", long=True)
    _tap(phone, "b.txt")  # a tap adds to a selection
    assert phone.ui_tree().find(text="2 selected") is not None
    _tap(phone, "b.txt")
    _tap(phone, "Delete")
    assert phone.ui_tree().find(text="Delete “a.txt”?") is not None
    _tap(phone, "OK")
    assert phone.list_dir("/sdcard/Download") == ["b.txt"]
    _tap(phone, "Show roots")
    roots = [n.text for n in phone.ui_tree().iter() if n.resource_id == "android:id/title"]
    assert roots == ["Recent", "Images", "Videos", "Audio", "Documents", "Downloads", "sdk_gphone64_x86_64"]
    _tap(phone, "sdk_gphone64_x86_64")
    assert phone.ui_tree().find(text="Files on sdk_gphone64_x86_64") is not None
    _tap(phone, "Download")  # the folder, by its own name
    tree = phone.ui_tree()
    assert tree.find(text="Files in Download") is not None and tree.find(text="b.txt") is not None
