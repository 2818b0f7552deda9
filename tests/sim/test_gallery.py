"""Simple Gallery Pro: albums of the pictures on storage, a viewer that paints their real pixels,
copy and move through the folder picker; damaged, foreign and huge files never crash it, and
decoded pixels stay bounded."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.sim import images
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell

GALLERY = "com.simplemobiletools.gallery.pro"
ACTIVITY = f"{GALLERY}/{GALLERY}.activities.MainActivity"


def jpeg(size: tuple[int, int], color: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "JPEG")
    return out.getvalue()


def png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` and whose pixel data is missing."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))


def centre(node: UINode) -> tuple[int, int]:
    left, top, right, bottom = node.bounds
    return (left + right) // 2, (top + bottom) // 2


def texts(phone: Phone) -> list[str]:
    return [n.text for n in phone.ui_tree().iter() if n.text]


def tap_text(phone: Phone, text: str) -> None:
    if text in ("DCIM", "Pictures"):
        tap_folder(phone, text)
        return
    node = phone.ui_tree().find(text=text)
    assert node is not None, (text, texts(phone))
    phone.tap(*centre(node))


def tap_folder(phone: Phone, name: str) -> None:
    """Open the folder and have the grid show file names (off until toggled, as in the app)."""
    node = phone.ui_tree().find(text=name)
    assert node is not None, (name, texts(phone))
    phone.tap(*centre(node))
    if phone.ui_tree().find(resource_id=f"{GALLERY}:id/medium_name") is None:
        toggle = phone.ui_tree().find(resource_id=f"{GALLERY}:id/toggle_filename")
        if toggle is not None:  # not in the folder picker
            phone.tap(*centre(toggle))


@pytest.fixture
def phone() -> Phone:
    p = Phone()
    p.write_file("/sdcard/DCIM/red.jpg", jpeg((400, 300), (220, 20, 20)))
    p.write_file("/sdcard/DCIM/notes.txt", b"not a picture")
    p.write_file("/sdcard/DCIM/broken.jpg", b"\xff\xd8\xff garbage")
    p.write_file("/sdcard/Pictures/huge.png", png_header_only(60_000, 60_000))
    p.write_file("/sdcard/DCIM/.thumbnails/t.jpg", jpeg((10, 10), (0, 0, 0)))
    Shell(p).run(f"am start -n {ACTIVITY}")
    return p


def test_am_start_with_androidworlds_activity_opens_the_albums(phone: Phone) -> None:
    assert phone.foreground_package() == GALLERY
    shown = texts(phone)
    assert "DCIM" in shown and "Pictures" in shown and ".thumbnails" not in shown
    dcim = phone.ui_tree().find(text="DCIM")
    assert dcim is not None


def test_album_lists_pictures_only_and_the_viewer_paints_their_pixels(phone: Phone) -> None:
    tap_text(phone, "DCIM")
    shown = texts(phone)
    assert "red.jpg" in shown and "broken.jpg" in shown and "notes.txt" not in shown
    tap_text(phone, "red.jpg")
    view = phone.ui_tree().find(resource_id=f"{GALLERY}:id/gestures_view")
    assert view is not None
    frame = phone.screenshot()
    left, top, right, bottom = view.bounds
    middle = frame[(top + bottom) // 2, (left + right) // 2]
    assert middle[0] > 180 and middle[1] < 60 and middle[2] < 60  # the picture's own red


def test_damaged_and_huge_files_show_an_error_not_a_crash(phone: Phone) -> None:
    tap_text(phone, "DCIM")
    phone.screenshot()  # the grid paints the broken-image mark
    tap_text(phone, "broken.jpg")
    assert "Invalid image" in texts(phone)
    phone.press_key(4)
    phone.press_key(4)
    tap_text(phone, "Pictures")
    phone.screenshot()
    tap_text(phone, "huge.png")
    assert "Invalid image" in texts(phone)


def test_a_large_jpeg_is_never_decoded_at_full_size() -> None:
    data = jpeg((6000, 4000), (10, 200, 30))
    cache = images.ThumbnailCache(max_bytes=4 * 1024 * 1024)
    picture = cache.get("big", data, (300, 300))
    assert picture is not None and picture.size == (300, 200)
    assert cache.nbytes < 1_000_000
    # The cache keeps to its bound however many pictures pass through it.
    for i in range(40):
        cache.get(("big", i), data, (600, 600))
    assert cache.nbytes <= 4 * 1024 * 1024
    assert images.thumbnail("huge", png_header_only(60_000, 60_000), (100, 100)) is None


def test_copy_to_download_through_the_folder_picker(phone: Phone) -> None:
    tap_text(phone, "DCIM")
    tap_text(phone, "red.jpg")
    phone.tap(*centre(phone.ui_tree().find(content_desc="More options")))  # type: ignore[arg-type]
    tap_text(phone, "Copy to")
    assert "Select a folder" in texts(phone)
    tap_text(phone, "Download")
    assert "Internal storage/Download" in texts(phone)
    tap_text(phone, "OK")
    assert phone.read_file("/sdcard/Download/red.jpg") == phone.read_file("/sdcard/DCIM/red.jpg")


def test_move_from_a_selection_removes_the_original(phone: Phone) -> None:
    tap_text(phone, "DCIM")
    phone.long_press(*centre(phone.ui_tree().find(text="red.jpg")))  # type: ignore[arg-type]
    assert "1 / 2" in texts(phone)
    assert [n.content_desc for n in phone.ui_tree().iter() if n.resource_id.startswith(f"{GALLERY}:id/cab_")] == ["Delete", "Share"]
    phone.tap(*centre(phone.ui_tree().find(content_desc="More options")))  # type: ignore[arg-type]
    tap_text(phone, "Move to")
    tap_text(phone, "Pictures")
    tap_text(phone, "OK")
    assert "red.jpg" in phone.list_dir("/sdcard/Pictures")
    assert "red.jpg" not in phone.list_dir("/sdcard/DCIM")


def test_gallery_screens_leave_other_screens_alone() -> None:
    """The home screen and Settings lay out and paint the same with pictures on storage."""
    plain, with_pictures = Phone(), Phone()
    with_pictures.write_file("/sdcard/DCIM/a.jpg", jpeg((2000, 2000), (1, 2, 3)))
    for p in (plain, with_pictures):
        p.start_app("com.android.settings")
    assert np.array_equal(plain.screenshot(), with_pictures.screenshot())


def test_pictures_cut_short_misnamed_or_of_50_mb_show_an_error_or_a_bounded_picture() -> None:
    """As an adb push can leave them: a JPEG cut off half way shows the app's error; a PNG named
    ``.jpg`` shows its pixels (decoded by content, as Android does); a 50 MB picture shows, and
    what stays in memory of it is the screen-sized copy, not its 48 MB of pixels."""
    whole = io.BytesIO()
    Image.fromarray((np.arange(1200 * 900 * 3) % 251).astype(np.uint8).reshape(900, 1200, 3)).save(whole, "JPEG")
    misnamed = io.BytesIO()
    Image.new("RGB", (300, 200), (220, 20, 20)).save(misnamed, "PNG")
    pixels = np.zeros((4096, 4096, 3), np.uint8)
    pixels[..., 1] = 200
    big = io.BytesIO()
    Image.fromarray(pixels).save(big, "PNG", compress_level=0)
    assert len(big.getvalue()) > 50_000_000
    p = Phone()
    p.write_file("/sdcard/DCIM/cut.jpg", whole.getvalue()[: len(whole.getvalue()) // 2])
    p.write_file("/sdcard/DCIM/misnamed.jpg", misnamed.getvalue())
    p.write_file("/sdcard/DCIM/big.png", big.getvalue())
    images.THUMBNAILS.clear()
    Shell(p).run(f"am start -n {ACTIVITY}")
    tap_text(p, "DCIM")
    p.screenshot()  # the grid paints all three
    tap_text(p, "cut.jpg")
    assert "Invalid image" in texts(p)
    p.press_key(4)
    tap_text(p, "misnamed.jpg")
    view = p.ui_tree().find(resource_id=f"{GALLERY}:id/gestures_view")
    assert view is not None
    frame = p.screenshot()
    assert frame[centre(view)[1], centre(view)[0]][0] > 180  # the picture's red
    p.press_key(4)
    tap_text(p, "big.png")
    view = p.ui_tree().find(resource_id=f"{GALLERY}:id/gestures_view")
    assert view is not None
    frame = p.screenshot()
    assert frame[centre(view)[1], centre(view)[0]][1] > 150  # its green
    assert images.THUMBNAILS.nbytes < 4096 * 4096 * 3 // 3  # thumbnails and one screen-wide copy


def test_folders_grid_media_grid_and_viewer_are_the_apps(phone: Phone) -> None:
    tree = phone.ui_tree()
    assert tree.find(resource_id=f"{GALLERY}:id/top_toolbar_search", text="Search folders") is not None
    assert tree.find(resource_id=f"{GALLERY}:id/photo_cnt") is not None
    dcim = tree.find(text="DCIM")
    assert dcim is not None
    phone.tap(*centre(dcim))
    tree = phone.ui_tree()
    assert tree.find(resource_id=f"{GALLERY}:id/medium_name") is None  # file names are off by default
    assert tree.find(text="Search in DCIM") is not None and tree.find(content_desc="Back") is not None
    holder = tree.find(resource_id=f"{GALLERY}:id/media_item_holder")
    assert holder is not None and holder.long_clickable
    phone.tap(*centre(holder))
    tree = phone.ui_tree()
    bottom = [n.content_desc for n in tree.iter() if n.resource_id.startswith(f"{GALLERY}:id/bottom_") and n.content_desc]
    assert bottom == ["Toggle favorite", "Edit", "Share", "Delete"]
    assert [n.content_desc for n in tree.iter() if n.resource_id.startswith(f"{GALLERY}:id/menu_")] == ["Rotate", "Properties"]
