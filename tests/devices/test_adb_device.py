"""AdbDevice against the simulator served over the real ADB protocol, through the real adb server."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from cerebellum_gym.devices.adb import AdbDevice
from cerebellum_gym.devices.base import KEYCODE_BACK, KEYCODE_HOME
from cerebellum_gym.devices.shell import input_text_chunks, parse_content_rows, where_clause
from cerebellum_gym.errors import CerebellumError, DeviceLostError, DeviceProtocolError
from cerebellum_gym.sim.phone import LAUNCHER_PACKAGE, Phone
from cerebellum_gym.sim.shell.androidworld import STANDARD_FOLDERS

SETTINGS = "com.android.settings"
CONTACTS = "com.google.android.contacts"
CONTACTS_URI = "content://com.android.contacts/data/phones"


def test_screen_matches_the_simulator_pixel_for_pixel_and_node_for_node(served: Any) -> None:
    device, phone = served.device, served.phone
    assert device.screen_size == phone.screen_size == (1080, 2400)
    device.start_app(SETTINGS)
    # screencap -p is lossless: full width is the simulator's frame exactly.
    assert np.array_equal(device.screenshot(), phone.screenshot())
    small = device.screenshot(464)
    assert small.shape == phone.screenshot(464).shape == (1031, 464, 3)
    assert small.dtype == np.uint8
    # Scaled frames differ only by resampling.
    assert np.abs(small.astype(int) - phone.screenshot(464).astype(int)).mean() < 12
    tree = device.ui_tree()
    ours = [(n.class_name, n.text, n.content_desc, n.bounds, n.checked, n.clickable) for n in tree.iter() if n.class_name != "hierarchy"]
    theirs = [(n.class_name, n.text, n.content_desc, n.bounds, n.checked, n.clickable) for n in phone.ui_tree().iter()]
    assert ours == theirs
    assert device.foreground_package() == SETTINGS


def test_input_primitives_act_as_on_the_simulator_itself(served: Any) -> None:
    device, phone = served.device, served.phone
    reference = Phone()
    reference.put_setting("secure", "default_input_method", phone.get_setting("secure", "default_input_method") or "")

    def both(action: str, *args: int) -> None:
        getattr(device, action)(*args)
        getattr(reference, action)(*args)
        assert phone.dump_xml() == reference.dump_xml(), f"diverged after {action}{args}"

    both("swipe", 540, 1800, 540, 600, 300)  # the app drawer
    node = phone.ui_tree().find(text="Settings")
    assert node is not None
    both("tap", *node.center)
    assert phone.foreground_package() == SETTINGS
    both("swipe", 540, 1800, 540, 600, 300)
    both("long_press", 540, 1200, 800)
    both("press_key", KEYCODE_BACK)
    both("press_key", KEYCODE_HOME)
    assert device.foreground_package() == LAUNCHER_PACKAGE


def test_settings_round_trip_and_missing_is_none(served: Any) -> None:
    device, phone = served.device, served.phone
    device.put_setting("global", "wifi_on", "0")
    assert phone.get_setting("global", "wifi_on") == "0"
    assert device.get_setting("global", "wifi_on") == "0"
    assert device.get_setting("global", "no_such_setting") is None
    device.put_setting("system", "odd", "a b; $(touch /x) 'q'")
    assert phone.get_setting("system", "odd") == "a b; $(touch /x) 'q'"
    with pytest.raises(FileNotFoundError):
        phone.read_file("/x")  # the value was data, not a command substitution


def test_content_provider_round_trip_with_hostile_values(served: Any) -> None:
    device, phone = served.device, served.phone
    device.content_delete(CONTACTS_URI)
    assert device.content_query(CONTACTS_URI) == []
    nasty = 'O\'Brien, Jr. = "boss" $(reboot) `id` ; | &'
    device.content_insert(CONTACTS_URI, {"display_name": nasty, "number": "+1 (555) 010-0134"})
    device.content_insert(CONTACTS_URI, {"display_name": "Plain Name", "number": "+15550100"})
    rows = device.content_query(CONTACTS_URI, projection=("display_name", "number"))
    assert rows == [{"display_name": nasty, "number": "+1 (555) 010-0134"}, {"display_name": "Plain Name", "number": "+15550100"}]
    assert rows == phone.content_query(CONTACTS_URI, projection=("display_name", "number"))
    assert device.content_query(CONTACTS_URI, ("number",), {"display_name": nasty}) == [{"number": "+1 (555) 010-0134"}]
    full = device.content_query(CONTACTS_URI, where={"display_name": "Plain Name"})
    assert full == phone.content_query(CONTACTS_URI, where={"display_name": "Plain Name"})
    device.content_delete(CONTACTS_URI, {"display_name": nasty})
    assert [r["display_name"] for r in phone.content_query(CONTACTS_URI)] == ["Plain Name"]
    with pytest.raises(CerebellumError, match="content query"):
        device.content_query("content://no.such.provider/x")
    with pytest.raises(ValueError, match="column"):
        device.content_query(CONTACTS_URI, where={"x=1 OR 1": "y"})


def test_files_over_sync_and_shell(served: Any) -> None:
    device, phone = served.device, served.phone
    payload = bytes(range(256)) * 1000  # binary, larger than one sync chunk
    device.write_file("/sdcard/Download/blob.bin", payload)
    assert phone.read_file("/sdcard/Download/blob.bin") == payload
    assert device.read_file("/sdcard/Download/blob.bin") == payload
    device.write_file("/sdcard/Download/it's a file.txt", b"x")
    assert device.list_dir("/sdcard/Download") == ["blob.bin", "it's a file.txt"]
    assert device.list_dir("/sdcard/nowhere") == []
    with pytest.raises(FileNotFoundError):
        device.read_file("/sdcard/Download/missing.txt")
    device.remove_path("/sdcard/Download")
    # The served device has the standard shared-storage folders, as a device does.
    assert phone.list_dir("/sdcard") == sorted({*STANDARD_FOLDERS, "Android"} - {"Download"})  # Android/: apps' folders


def test_clock_wait_and_apps(served: Any) -> None:
    device, phone = served.device, served.phone
    before = device.now()
    assert before == phone.now().replace(microsecond=0)
    started = time.monotonic()
    device.wait(30)  # `sleep` on the simulator advances its clock instead of blocking
    assert time.monotonic() - started < 2
    assert (device.now() - before).total_seconds() >= 30
    device.start_app(CONTACTS)
    assert phone.foreground_package() == CONTACTS == device.foreground_package()
    with pytest.raises(CerebellumError, match="cannot start"):
        device.start_app("com.example.not.installed")


def test_factory_reset_restores_the_start_state(served: Any) -> None:
    device, phone = served.device, served.phone
    device.start_app(SETTINGS)
    device.put_setting("global", "wifi_on", "0")
    device.write_file("/sdcard/left.txt", b"over")
    device.factory_reset()
    assert phone.foreground_package() == LAUNCHER_PACKAGE
    assert phone.get_setting("global", "wifi_on") == "1"
    assert phone.list_dir("/sdcard") == sorted({*STANDARD_FOLDERS, "Android"})  # left.txt gone, the folders back
    # The served device keeps its provisioning (the ADB keyboard) across resets.
    assert device.has_adb_keyboard()


def test_soft_reset_force_stops_apps_seen_on_screen(served: Any, adb_server: Any) -> None:
    soft = AdbDevice(served.serial, adb_port=adb_server.port, timeout=5, reset_command=None)
    soft.start_app(SETTINGS)
    node = soft.ui_tree().find(text="Network & internet")
    assert node is not None
    soft.tap(*node.center)
    assert served.phone.state.stacks[SETTINGS][-1]["screen"] != "main"
    soft.put_setting("global", "wifi_on", "0")
    soft.factory_reset()
    assert served.phone.foreground_package() == LAUNCHER_PACKAGE
    assert SETTINGS not in served.phone.state.stacks  # force-stopped: next launch starts at the root
    assert served.phone.get_setting("global", "wifi_on") == "0"  # data is not wiped without a reset command


def test_unknown_serial_is_an_infra_error(adb_server: Any) -> None:
    with pytest.raises(DeviceLostError):
        AdbDevice("no-such-serial", adb_port=adb_server.port, timeout=2)
    with pytest.raises(DeviceLostError):
        AdbDevice("127.0.0.1:1", adb_port=adb_server.port, timeout=2, reconnect_timeout=1)


def test_input_text_chunks_never_leave_a_literal_percent_s() -> None:
    for text in ["a b", "%s", "%%s", "100% sure", "%", "s%", "%s%s", " % s "]:
        chunks = input_text_chunks(text)
        assert "".join(c.replace("%s", " ") for c in chunks) == text
        assert all(" " not in c for c in chunks)


def test_content_row_parsing_edge_cases() -> None:
    assert parse_content_rows("No result found.\n") == []
    out = "Row: 0 a=x, y=z, b=2\nRow: 1 a=line1\nline2, b=\n"
    assert parse_content_rows(out, ["a", "b"]) == [{"a": "x, y=z", "b": "2"}, {"a": "line1\nline2", "b": ""}]
    with pytest.raises(DeviceProtocolError):
        parse_content_rows("Row: 0 q=1\n", ["a"])
    assert where_clause({"name": "it's"}) == "name='it''s'"
