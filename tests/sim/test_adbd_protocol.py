"""The served simulator's adbd: the ADB wire protocol, seen raw and through the real adb client."""

from __future__ import annotations

import os
import re
import socket
import struct
import subprocess
import sys
from collections.abc import Iterator

import pytest
from adbhost import RawHost

from cerebellum_gym.devices.adb import PrivateAdbServer, free_port
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.sim.adbd import A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_VERSION, A_WRTE, AdbdServer, is_loopback
from cerebellum_gym.sim.phone import Phone

pytest.importorskip("adbutils")


@pytest.fixture
def connected(adb: PrivateAdbServer) -> Iterator[tuple[AdbdServer, str]]:
    server = AdbdServer(Phone()).start()
    serial = server.serial_for_adb
    result = adb.run("connect", serial)
    assert f"connected to {serial}" in result.stdout
    try:
        yield server, serial
    finally:
        adb.run("disconnect", serial)
        server.stop()


# --- raw protocol ------------------------------------------------------------------------------


def test_handshake_answers_cnxn_without_auth_and_a_banner() -> None:
    with AdbdServer(Phone()) as server:
        host = RawHost(server.address[1])
        command, version, max_payload, banner = host.recv()
        assert command == A_CNXN and version == A_VERSION and max_payload >= 4096
        assert banner.startswith(b"device::ro.product.name=cerebellum_sim;ro.product.model=")
        assert banner.endswith(b"features=shell_v2,cmd")


def test_one_unacknowledged_write_per_stream_and_shell_v2_exit_code() -> None:
    with AdbdServer(Phone()) as server:
        server.phone.write_file("/sdcard/big", b"z" * 20000)
        host = RawHost(server.address[1], max_payload=4096)
        host.recv()  # CNXN
        host.send(A_OPEN, 7, 0, b"shell,v2,raw:cat /sdcard/big; exit 3\0")
        command, local, remote, _ = host.recv()
        assert (command, remote) == (A_OKAY, 7)
        data = b""
        while True:
            command, arg0, arg1, payload = host.recv()
            if command == A_CLSE:
                break
            assert command == A_WRTE and (arg0, arg1) == (local, 7) and len(payload) <= 4096
            data += payload
            # No second WRTE may arrive before we acknowledge this one.
            with pytest.raises(socket.timeout):
                host.recv(timeout=0.05)
            host.send(A_OKAY, 7, local)
        stdout = b""
        while data:
            kind, length = struct.unpack("<BI", data[:5])
            body, data = data[5 : 5 + length], data[5 + length :]
            if kind == 1:
                stdout += body
            elif kind == 3:
                assert body == bytes([3])
        assert stdout == b"z" * 20000


def test_unknown_services_are_refused_with_clse() -> None:
    with AdbdServer(Phone()) as server:
        host = RawHost(server.address[1])
        host.recv()
        host.send(A_OPEN, 9, 0, b"jdwp:1234\0")
        command, _, remote, _ = host.recv()
        assert (command, remote) == (A_CLSE, 9)


def test_binding_beyond_loopback_needs_explicit_consent() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("10.1.2.3") and not is_loopback("no-such-host.invalid")
    with pytest.raises(CerebellumError, match="refusing"):
        AdbdServer(Phone(), host="0.0.0.0")
    with pytest.raises(CerebellumError, match="refusing"):
        AdbdServer(Phone(), host="10.1.2.3")


def test_cli_refuses_non_loopback_without_allow_remote() -> None:
    from cerebellum_gym.cli import main

    assert main(["serve-adb", "--host", "0.0.0.0", "--port", str(free_port())]) == 2


# --- through the real adb client ---------------------------------------------------------------


def test_adb_client_lists_and_runs_shell_commands(adb: PrivateAdbServer, connected: tuple[AdbdServer, str]) -> None:
    server, serial = connected
    listing = adb.run("devices", "-l").stdout
    assert serial in listing and "model:Cerebellum_Sim" in listing
    result = adb.run("-s", serial, "shell", "settings put global wifi_on 0 && settings get global wifi_on; getprop ro.build.version.sdk")
    assert (result.returncode, result.stdout) == (0, "0\n33\n")
    assert server.phone.get_setting("global", "wifi_on") == "0"
    result = adb.run("-s", serial, "shell", "frobnicate --now")
    assert result.returncode == 127
    assert "frobnicate: inaccessible or not found" in result.stderr
    result = adb.run("-s", serial, "shell", "wm size; dumpsys window | grep mCurrentFocus")
    assert result.stdout.startswith("Physical size: 1080x2400\n  mCurrentFocus=Window{")


def test_adb_exec_out_screencap_pull_and_push(adb: PrivateAdbServer, connected: tuple[AdbdServer, str], tmp_path: object) -> None:
    from io import BytesIO

    import numpy as np
    from PIL import Image

    server, serial = connected
    shot = subprocess.run(
        [adb.adb, "-P", str(adb.port), "-s", serial, "exec-out", "screencap -p"], env=adb.env, capture_output=True, timeout=20, check=False
    )
    assert shot.returncode == 0
    assert np.array_equal(np.asarray(Image.open(BytesIO(shot.stdout)).convert("RGB")), server.phone.screenshot())
    assert adb.run("-s", serial, "shell", "uiautomator dump").stdout == "UI hierchary dumped to: /sdcard/window_dump.xml\n"
    local = os.path.join(str(tmp_path), "dump.xml")
    assert adb.run("-s", serial, "pull", "/sdcard/window_dump.xml", local).returncode == 0
    with open(local, encoding="utf-8") as f:
        assert f.read() == server.phone.dump_xml()
    source = os.path.join(str(tmp_path), "note.txt")
    with open(source, "wb") as f:
        f.write(b"pushed \xe2\x9c\x93")
    assert adb.run("-s", serial, "push", source, "/sdcard/Notes/note.txt").returncode == 0
    assert server.phone.read_file("/sdcard/Notes/note.txt") == b"pushed \xe2\x9c\x93"
    assert adb.run("-s", serial, "shell", "ls /sdcard/Notes").stdout == "note.txt\n"


def test_serve_adb_command_serves_a_task_until_terminated(adb: PrivateAdbServer) -> None:
    # Port 0: the server binds a free port itself and prints it (a port picked here could be
    # taken by another test process before the server starts).
    proc = subprocess.Popen(
        [sys.executable, "-m", "cerebellum_gym.cli", "serve-adb", "--port", "0", "--task", "SystemWifiTurnOn", "--seed", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first == "task SystemWifiTurnOn: Turn wifi on.\n"
        match = re.search(r"127\.0\.0\.1:(\d+)", proc.stdout.readline())
        assert match is not None and int(match.group(1)) > 0
        serial = match.group(0)
        assert "connected" in adb.run("connect", serial).stdout
        # The task's initial state is in place: wifi starts off.
        assert adb.run("-s", serial, "shell", "settings get global wifi_on").stdout == "0\n"
        adb.run("disconnect", serial)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert proc.returncode == 0
