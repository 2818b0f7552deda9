"""Raw framebuffer screenshots (``screencap`` without ``-p``), format choice, and the UI-tree
prefetch: always the tree of the screen as it is after the last input."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import pytest
from PIL import Image

from cerebellum_gym.devices.adb import (
    AdbDevice,
    UnreadablePixelFormatError,
    auto_screencap_format,
    parse_raw_screencap,
)
from cerebellum_gym.devices.adb.frames import scale_image
from cerebellum_gym.devices.base import KEYCODE_HOME
from cerebellum_gym.errors import DeviceProtocolError
from cerebellum_gym.sim.adbd import AdbdServer
from cerebellum_gym.sim.phone import LAUNCHER_PACKAGE, Phone

SETTINGS = "com.android.settings"


@pytest.mark.parametrize(("sdk", "header"), [(27, 12), (33, 16)])
def test_raw_screencap_header_variants_give_the_simulators_pixels(adb_server: Any, sdk: int, header: int) -> None:
    server = AdbdServer(Phone(), sdk=sdk).start()
    try:
        device = AdbDevice(server.serial_for_adb, adb_port=adb_server.port, timeout=5, screencap_format="raw")
        phone = server.phone
        device.start_app(SETTINGS)
        buf = bytearray(1080 * 2400 * 4 + 16)
        n = device.exec_raw(["screencap"], buf)
        frame = parse_raw_screencap(memoryview(buf)[:n])
        assert (n, frame.header_size, frame.width, frame.height, frame.pixel_format) == (1080 * 2400 * 4 + header, header, 1080, 2400, 1)
        assert np.array_equal(device.screenshot(), phone.screenshot())  # lossless, as PNG is
        reference = scale_image(Image.fromarray(phone.screenshot()), 464)
        for _ in range(2):  # the second frame is scaled while it arrives
            assert np.array_equal(device.screenshot(464), reference)
        device.screencap_format = "png"
        assert np.array_equal(device.screenshot(464), reference)  # both formats, the same pixels
        device.close()
    finally:
        adb_server.run("disconnect", server.serial_for_adb)
        server.stop()


def test_raw_header_fields_and_pixel_formats() -> None:
    pixels = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4)
    for header in (struct.pack("<3I", 3, 2, 1), struct.pack("<4I", 3, 2, 1, 1)):
        frame = parse_raw_screencap(header + pixels.tobytes())
        assert frame.header_size == len(header)
        assert np.array_equal(frame.rgb(), pixels[..., :3])
    bgra = parse_raw_screencap(struct.pack("<4I", 3, 2, 5, 1) + pixels.tobytes())
    assert np.array_equal(bgra.rgb(), pixels[..., 2::-1])
    rgb888 = parse_raw_screencap(struct.pack("<4I", 3, 2, 3, 1) + pixels[..., :3].tobytes())
    assert np.array_equal(rgb888.rgb(), pixels[..., :3])
    with pytest.raises(UnreadablePixelFormatError, match="pixel format 4"):  # RGB_565: real, not converted
        parse_raw_screencap(struct.pack("<4I", 3, 2, 4, 1) + bytes(3 * 2 * 2))
    for garbage in (b"", b"\x89PNG\r\n\x1a\n" + bytes(100), struct.pack("<4I", 3, 2, 1, 1) + bytes(5)):
        with pytest.raises(DeviceProtocolError) as info:
            parse_raw_screencap(garbage)
        assert not isinstance(info.value, UnreadablePixelFormatError)


def test_auto_picks_raw_where_the_bytes_stay_on_the_machine(served: Any, adb_server: Any) -> None:
    assert auto_screencap_format("emulator-5554") == "raw"
    assert auto_screencap_format("127.0.0.1:6520") == auto_screencap_format("localhost:6520") == "raw"
    assert auto_screencap_format("[::1]:6520") == "raw"
    assert auto_screencap_format("R58M12ABCDE") == "png"  # USB
    assert auto_screencap_format("192.168.1.7:5555") == "png"  # Wi-Fi
    assert auto_screencap_format("emulator-5554", adb_host="10.0.0.2") == "png"  # a remote adb server
    assert served.device.screencap_format == "auto" and served.device.screencap_mode == "raw"
    png = AdbDevice(served.serial, adb_port=adb_server.port, timeout=5, screencap_format="png")
    assert png.screencap_mode == "png"
    with pytest.raises(ValueError, match="screencap_format"):
        AdbDevice(served.serial, adb_port=adb_server.port, screencap_format="jpeg")  # type: ignore[arg-type]


def _tree_packages(root: Any) -> set[str]:
    return {n.package for n in root.iter() if n.package}


def _nodes(root: Any) -> list[tuple[str, str, tuple[int, int, int, int]]]:
    return [(n.class_name, n.text, n.bounds) for n in root.iter() if n.class_name != "hierarchy"]


def test_an_input_between_screenshot_and_tree_yields_the_fresh_tree(served: Any) -> None:
    device, phone = served.device, served.phone
    device.swipe(540, 1800, 540, 600)  # the app drawer
    icon = phone.ui_tree().find(text="Settings")
    assert icon is not None
    device.ui_tree()  # a tree read follows screenshots: prefetching is on
    device.screenshot(464)
    assert device._prefetch is not None
    device.tap(*icon.center)  # the home screen's prefetched tree is now stale
    assert device._prefetch is None
    assert SETTINGS in _tree_packages(device.ui_tree())
    # Every kind of change discards it: keys, text, settings, files, raw shell lines.
    for change in (
        lambda: device.press_key(KEYCODE_HOME),
        lambda: device.put_setting("global", "wifi_on", "0"),
        lambda: device.write_file("/sdcard/x.txt", b"x"),
        lambda: device.shell("input keyevent 3"),
        lambda: device.start_app(SETTINGS),
    ):
        device.ui_tree()
        device.screenshot(100)
        assert device._prefetch is not None
        change()
        assert device._prefetch is None
        assert _nodes(device.ui_tree()) == _nodes(phone.ui_tree())
    assert SETTINGS in _tree_packages(device.ui_tree())
    assert phone.foreground_package() == SETTINGS


def test_a_prefetched_tree_survives_reads_and_matches_the_screen(served: Any) -> None:
    device, phone = served.device, served.phone
    device.start_app(SETTINGS)
    device.ui_tree()
    device.screenshot(464)
    pending = device._prefetch
    assert pending is not None
    assert device.get_setting("global", "wifi_on") == "1"  # reads keep it
    device.foreground_package()
    device.content_query("content://com.android.contacts/data/phones")
    assert device._prefetch is pending
    tree = device.ui_tree()
    assert device._prefetch is None and pending.root is tree
    assert _nodes(tree) == _nodes(phone.ui_tree())


def test_prefetching_pauses_while_screenshots_come_without_trees(served: Any) -> None:
    device = served.device
    device.ui_tree()
    device.screenshot(100)
    device.press_key(KEYCODE_HOME)  # the prefetch went unclaimed
    device.screenshot(100)
    assert device._prefetch is None  # so the next screenshot does not dump the tree
    device.ui_tree()
    device.screenshot(100)
    assert device._prefetch is not None  # a tree read follows again: back on
    assert device.foreground_package() == LAUNCHER_PACKAGE
    off = AdbDevice(served.serial, adb_port=served.adb.port, timeout=5, prefetch_tree=False)
    off.ui_tree()
    off.screenshot(100)
    assert off._prefetch is None
