"""Clients no one on the project wrote, run against the served simulator: the ``adb-shell``
library (which speaks the device protocol to adbd directly, over TCP), ``pure-python-adb``
(which goes through the real adb server), and the real adb binary. Each runs its ordinary
operations: shell, exec-out screencap decoded, push/pull/stat/list, uiautomator dump, input,
settings."""

from __future__ import annotations

import io
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from cerebellum_gym.devices.adb import PrivateAdbServer
from cerebellum_gym.sim.adbd import AdbdServer
from cerebellum_gym.sim.phone import Phone

SETTINGS = "com.android.settings"


def png_pixels(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


def center(bounds: tuple[int, int, int, int]) -> tuple[int, int]:
    left, top, right, bottom = bounds
    return (left + right) // 2, (top + bottom) // 2


@pytest.fixture
def server() -> Iterator[AdbdServer]:
    with AdbdServer(Phone()) as s:
        yield s


# --- adb-shell: the device protocol straight to adbd -------------------------------------------


@pytest.fixture
def adb_shell_device(server: AdbdServer) -> Iterator[Any]:
    adb_device = pytest.importorskip("adb_shell.adb_device")
    device = adb_device.AdbDeviceTcp("127.0.0.1", server.address[1], default_transport_timeout_s=5)
    assert device.connect(rsa_keys=None, auth_timeout_s=1, read_timeout_s=5)
    try:
        yield device
    finally:
        device.close()


def test_adb_shell_library_shell_settings_input_and_exit_codes(server: AdbdServer, adb_shell_device: Any) -> None:
    device = adb_shell_device
    assert device.shell("settings put global wifi_on 0 && settings get global wifi_on", read_timeout_s=5) == "0\n"
    assert server.phone.get_setting("global", "wifi_on") == "0"
    assert device.shell("getprop ro.product.model") == "Cerebellum Sim\n"
    # Shell v1 (what adb-shell opens): stdout and stderr in one stream, as on a device.
    assert device.shell("echo $((6*7)); nosuch") == "42\n/system/bin/sh: nosuch: inaccessible or not found\n"
    # input: open the app drawer (a swipe up) and Settings by tapping its icon, found in a dump.
    device.shell("input swipe 540 1800 540 600 300")
    assert device.shell("uiautomator dump") == "UI hierchary dumped to: /sdcard/window_dump.xml\n"
    node = server.phone.ui_tree().find(text="Settings")
    assert node is not None
    device.shell(f"input tap {center(node.bounds)[0]} {center(node.bounds)[1]}")
    assert server.phone.foreground_package() == SETTINGS


def test_adb_shell_library_exec_out_screencap_decodes(server: AdbdServer, adb_shell_device: Any) -> None:
    png = adb_shell_device.exec_out("screencap -p", decode=False)
    assert np.array_equal(png_pixels(png), server.phone.screenshot())
    raw = adb_shell_device.exec_out("/system/bin/screencap", decode=False)
    width, height = server.phone.screen_size
    assert len(raw) == 16 + width * height * 4


def test_adb_shell_library_push_pull_stat_list(server: AdbdServer, adb_shell_device: Any, tmp_path: Path) -> None:
    device = adb_shell_device
    source = tmp_path / "note.txt"
    source.write_bytes(b"pushed \xe2\x9c\x93" * 5000)  # several sync DATA chunks
    device.push(str(source), "/sdcard/Notes/note.txt", read_timeout_s=5)
    assert server.phone.read_file("/sdcard/Notes/note.txt") == source.read_bytes()
    mode, size, _mtime = device.stat("/sdcard/Notes/note.txt", read_timeout_s=5)
    assert size == source.stat().st_size and mode & 0o170000 == 0o100000
    names = {bytes(entry.filename).decode() for entry in device.list("/sdcard/Notes")}
    assert "note.txt" in names
    target = tmp_path / "back.txt"
    device.pull("/sdcard/Notes/note.txt", str(target), read_timeout_s=5)
    assert target.read_bytes() == source.read_bytes()
    # The session is still usable after the sync operations (each ended with CLSE both ways).
    assert device.shell("echo still here") == "still here\n"


# --- pure-python-adb: through the real adb server ----------------------------------------------


@pytest.fixture
def ppadb_device(adb_server: PrivateAdbServer, server: AdbdServer) -> Iterator[Any]:
    client_module = pytest.importorskip("ppadb.client")
    client = client_module.Client(host="127.0.0.1", port=adb_server.port)
    host, port = server.address
    assert client.remote_connect(host, port)
    device = client.device(server.serial_for_adb)
    assert device is not None
    try:
        yield device
    finally:
        client.remote_disconnect(host, port)


def test_pure_python_adb_shell_screencap_input_settings(server: AdbdServer, ppadb_device: Any) -> None:
    device = ppadb_device
    assert device.shell("settings put global wifi_on 0; settings get global wifi_on") == "0\n"
    # ppadb asks for `/system/bin/screencap -p` by its absolute path.
    assert np.array_equal(png_pixels(device.screencap()), server.phone.screenshot())
    device.input_swipe(540, 1800, 540, 600, 300)  # the app drawer
    node = server.phone.ui_tree().find(text="Settings")
    assert node is not None
    device.input_tap(*center(node.bounds))
    assert server.phone.foreground_package() == SETTINGS
    device.input_keyevent(4)  # BACK
    assert device.shell("dumpsys window | grep mCurrentFocus").strip().startswith("mCurrentFocus=Window{")
    assert "package:com.android.settings" in device.shell("pm list packages settings")
    assert device.shell("pm path com.android.settings").startswith("package:/data/app/")
    assert "UI hierchary dumped to" in device.shell("uiautomator dump /sdcard/ui.xml")


def test_pure_python_adb_push_and_pull(server: AdbdServer, ppadb_device: Any, tmp_path: Path) -> None:
    source = tmp_path / "photo.bin"
    source.write_bytes(os.urandom(200_000))
    ppadb_device.push(str(source), "/sdcard/DCIM/photo.bin")
    assert server.phone.read_file("/sdcard/DCIM/photo.bin") == source.read_bytes()
    target = tmp_path / "copy.bin"
    ppadb_device.pull("/sdcard/DCIM/photo.bin", str(target))
    assert target.read_bytes() == source.read_bytes()


# --- the real adb binary ------------------------------------------------------------------------


def test_adb_binary_ordinary_operations(adb_server: PrivateAdbServer, server: AdbdServer, tmp_path: Path) -> None:
    serial = server.serial_for_adb
    assert f"connected to {serial}" in adb_server.run("connect", serial).stdout
    try:

        def adb(*args: str) -> subprocess.CompletedProcess[str]:
            return adb_server.run("-s", serial, *args)

        shot = subprocess.run(
            [adb_server.adb, "-P", str(adb_server.port), "-s", serial, "exec-out", "/system/bin/screencap -p"],
            env=adb_server.env,
            capture_output=True,
            timeout=20,
            check=False,
        )
        assert np.array_equal(png_pixels(shot.stdout), server.phone.screenshot())
        assert adb("shell", "settings", "put", "secure", "x_test", "1").returncode == 0
        assert adb("shell", "settings get secure x_test").stdout == "1\n"
        assert adb("shell", "uiautomator dump /sdcard/ui.xml").stdout == "UI hierchary dumped to: /sdcard/ui.xml\n"
        local = tmp_path / "ui.xml"
        assert adb("pull", "/sdcard/ui.xml", str(local)).returncode == 0
        assert local.read_text(encoding="utf-8") == server.phone.dump_xml()
        source = tmp_path / "a.txt"
        source.write_text("hello")
        assert adb("push", str(source), "/sdcard/Download/a.txt").returncode == 0
        assert adb("shell", "ls /sdcard/Download").stdout == "a.txt\n"
        # `adb ls` lists over sync LIST; `adb shell stat`-like checks use sync STAT through push/pull.
        listing = adb("ls", "/sdcard/Download")
        assert listing.returncode == 0 and "a.txt" in listing.stdout
        assert adb("shell", "input swipe 540 1800 540 600").returncode == 0  # the app drawer
        node = server.phone.ui_tree().find(text="Settings")
        assert node is not None
        x, y = center(node.bounds)
        assert adb("shell", f"input tap {x} {y}").returncode == 0
        assert server.phone.foreground_package() == SETTINGS
        # Errors are a shell's errors: a message and a status, and the device stays online.
        bad = adb("shell", "echo hi | grep '('")
        assert bad.returncode == 2 and "bad regex" in bad.stderr
        assert adb("get-state").stdout.strip() == "device"
    finally:
        adb_server.run("disconnect", serial)
