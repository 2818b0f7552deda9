"""The served device under hostile and heavy requests: every command answers like a shell
(an error and a status, never a dropped transport), incoming sizes are checked, unread output is
not buffered without bound, long lines are parsed outside the server's lock in linear time, and
a client's CLSE is answered with CLSE."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Iterator

import pytest
from adbhost import RawHost, shell_v2_output

from cerebellum_gym.devices.adb import PrivateAdbServer
from cerebellum_gym.sim.adbd import A_CLSE, A_OKAY, A_OPEN, A_WRTE, HEADER, MAX_BUFFERED, MAX_PAYLOAD, AdbdServer
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell.language import compile_script


def rss_bytes() -> int:
    """This process's resident memory (Linux)."""
    with open("/proc/self/statm", encoding="ascii") as f:
        return int(f.read().split()[1]) * 4096


@pytest.fixture
def server() -> Iterator[AdbdServer]:
    with AdbdServer(Phone()) as s:
        yield s


BAD_COMMANDS = [
    ("echo hi | grep '('", 2, b"bad regex"),
    ("input tap 1e400 5", 1, b"Invalid arguments"),
    ("input tap nan 5", 1, b"Invalid arguments"),
    ("input swipe 1 2 3 4 1e99", 1, b"Invalid arguments"),
    ("am broadcast -a ADB_INPUT_CODE --ei code abc", 255, b"NumberFormatException"),
    ("am broadcast -a X --ez flag maybe", 255, b"Invalid boolean"),
    ("sleep inf", 1, b"invalid duration"),
    ("sleep 1e300", 1, b"invalid duration"),
    ("echo $((1/0))", 1, b"division by zero"),
    ("echo " + '"$(' * 100 + "x" + ')"' * 100, 1, b"nested too deeply"),
]


@pytest.mark.parametrize(("line", "code", "message"), BAD_COMMANDS)
def test_a_command_that_cannot_run_answers_an_error_and_the_transport_lives(
    server: AdbdServer, line: str, code: int, message: bytes
) -> None:
    host = RawHost(server.address[1])
    host.recv()  # CNXN
    stdout, stderr, status = shell_v2_output(host.run(f"shell,v2,raw:{line}", local_id=5))
    assert status == code and message in stderr, (stdout, stderr, status)
    # The same transport answers the next command; time still reads as a date.
    stdout, _, status = shell_v2_output(host.run("shell,v2,raw:date +%Y", local_id=6))
    assert status == 0 and stdout.strip().isdigit()
    host.close()


def test_the_real_adb_server_keeps_the_device_online_through_bad_commands(server: AdbdServer) -> None:
    with PrivateAdbServer() as adb:
        serial = server.serial_for_adb
        assert "connected" in adb.run("connect", serial).stdout
        for line, code, message in BAD_COMMANDS[:7]:
            result = adb.run("-s", serial, "shell", line)
            assert result.returncode == code and message.decode() in result.stderr, (line, result)
        assert adb.run("-s", serial, "get-state").stdout.strip() == "device"
        assert adb.run("-s", serial, "shell", "date +%s").stdout.strip().isdigit()
        adb.run("disconnect", serial)


def test_an_exception_inside_any_command_is_that_commands_error(server: AdbdServer) -> None:
    def broken(args: list[str], stdin: bytes) -> object:
        raise RuntimeError("simulated bug")

    host = RawHost(server.address[1])
    host.recv()
    # The connection's own shell: patch one command to fail the way a bug would.
    connection = next(iter(server._connections))
    connection.shell.commands["wm"] = broken  # type: ignore[assignment]
    _, stderr, status = shell_v2_output(host.run("shell,v2,raw:wm size", local_id=3))
    assert status == 255 and b"RuntimeError: simulated bug" in stderr
    stdout, _, status = shell_v2_output(host.run("shell,v2,raw:echo fine", local_id=4))
    assert (stdout, status) == (b"fine\n", 0)


def test_a_packet_longer_than_the_maximum_payload_closes_that_connection_only(server: AdbdServer) -> None:
    host = RawHost(server.address[1])
    host.recv()
    before = rss_bytes()
    # An OPEN announcing 2**31 bytes, then 8 MB of it: the device must not buffer any of it.
    host.sock.sendall(HEADER.pack(A_OPEN, 1, 0, 1 << 31, 0, A_OPEN ^ 0xFFFFFFFF))
    closed = False
    try:
        for _ in range(128):
            host.sock.sendall(b"x" * 65536)
    except OSError:
        closed = True
    if not closed:
        host.sock.settimeout(2)
        try:
            closed = host.sock.recv(1) == b""
        except ConnectionResetError:
            closed = True
    assert closed, "the device kept reading an oversized packet"
    assert rss_bytes() - before < 32 << 20
    other = RawHost(server.address[1])
    other.recv()
    assert shell_v2_output(other.run("shell,v2,raw:echo ok"))[0] == b"ok\n"


def test_a_clients_clse_is_answered_with_clse(server: AdbdServer) -> None:
    server.phone.write_file("/sdcard/big", b"z" * 100_000)
    host = RawHost(server.address[1])
    host.recv()
    host.send(A_OPEN, 7, 0, b"exec:cat /sdcard/big\0")
    command, local, _, _ = host.recv()
    assert command == A_OKAY
    command, _, _, _ = host.recv()
    assert command == A_WRTE  # the first chunk; not acknowledged
    host.send(A_CLSE, 7, local)
    command, arg0, arg1, _ = host.recv()
    assert (command, arg0, arg1) == (A_CLSE, local, 7)
    assert shell_v2_output(host.run("shell,v2,raw:echo ok", local_id=8))[0] == b"ok\n"


def unread_screencaps(server: AdbdServer, count: int, change_every: int = 0) -> list[tuple[RawHost, bytes]]:
    """``count`` clients each ask for a raw screenshot (10 MB) and read only its first WRTE."""
    hosts = []
    for i in range(count):
        host = RawHost(server.address[1])
        host.recv()
        host.send(A_OPEN, 1, 0, b"exec:screencap\0")
        command, _, _, _ = host.recv()
        assert command == A_OKAY
        _, _, _, first = host.recv()  # never acknowledged
        hosts.append((host, first))
        if change_every and i % change_every == 0:  # a changing screen: distinct frames
            with server.lock:
                server.phone.wait(60)
                server.phone.swipe(540, 1800, 540, 600)
    return hosts


def test_unread_output_is_not_copied_per_client(server: AdbdServer) -> None:
    """Forty unread answers of one screen hold one copy of it (they held two copies each)."""
    server.phone.screenshot()
    before = rss_bytes()
    hosts = unread_screencaps(server, 40)
    grown = rss_bytes() - before
    assert grown < 100 << 20, f"{grown / 1e6:.0f} MB for 40 unread copies of one screenshot"
    for host, _ in hosts:
        host.close()


def test_unread_output_is_bounded_and_a_plain_command_still_answers(server: AdbdServer) -> None:
    hosts = unread_screencaps(server, 40, change_every=2)
    assert server.budget.total <= MAX_BUFFERED
    refused = [first for _, first in hosts if first.startswith(b"adbd: ")]
    assert refused and b"not read earlier output" in refused[0]
    probe = RawHost(server.address[1])
    probe.recv()
    assert shell_v2_output(probe.run("shell,v2,raw:echo ok"))[0] == b"ok\n"
    for host, _ in hosts:
        host.close()
    deadline = time.monotonic() + 5
    while server.budget.total and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.budget.total == 0, "closed streams still hold output"


def test_parse_time_is_linear_in_the_line(server: AdbdServer) -> None:
    """Ratios side by side (linear: about 10x for 10x the text; the old tokenizer was quadratic)."""
    pieces = ["echo " + "a" * 100_000, "echo " + "'a'" * 33_000, "echo " + '"$x"' * 25_000, "echo " + "\\a" * 50_000]

    def seconds(line: str) -> float:
        # This thread's CPU time: a wall clock counts whatever else the machine ran meanwhile.
        start = time.thread_time()
        compile_script(line)
        return time.thread_time() - start

    for piece in pieces:
        small = min(seconds(piece) for _ in range(5))
        large = min(seconds(piece[:5] + piece[5:] * 10) for _ in range(3))
        assert large / max(small, 1e-4) < 30, f"{piece[:12]!r}: {large / small:.0f}x for 10x the text"


def test_a_megabyte_command_does_not_hold_up_other_clients(server: AdbdServer) -> None:
    line = "echo " + "a" * (MAX_PAYLOAD - 64)  # one long word: the old tokenizer copied it per character
    worst: list[float] = []
    done = threading.Event()

    def probe() -> None:
        host = RawHost(server.address[1], timeout=10)
        host.recv()
        i = 10
        while not done.is_set():
            start = time.monotonic()
            try:
                answered = shell_v2_output(host.run("shell,v2,raw:echo ok", local_id=i, timeout=10))[0] == b"ok\n"
            except (OSError, AssertionError):
                answered = False
            worst.append(time.monotonic() - start if answered else float("inf"))
            if not answered:
                return
            i += 1
            time.sleep(0.02)

    thread = threading.Thread(target=probe)
    thread.start()
    try:
        big = RawHost(server.address[1], max_payload=MAX_PAYLOAD, timeout=30)
        big.recv()
        start = time.monotonic()
        stdout, _, status = shell_v2_output(big.run(f"shell,v2,raw:{line}", timeout=30))
        took = time.monotonic() - start
    finally:
        done.set()
        thread.join()
    assert status == 0 and len(stdout) == MAX_PAYLOAD - 64 + 1
    assert took < 10
    assert worst and max(worst) < 2.0, f"a plain command waited {max(worst):.1f} s behind a long one"


def test_too_many_streams_or_an_unknown_stream_are_refused_politely(server: AdbdServer) -> None:
    host = RawHost(server.address[1])
    host.recv()
    host.send(A_WRTE, 3, 999, b"nobody")  # a write to no stream: CLSE
    command, _, arg1, _ = host.recv()
    assert (command, arg1) == (A_CLSE, 3)
    host.send(A_CLSE, 3, 999)  # closing no stream: ignored
    host.sock.sendall(struct.pack("<6I", 0x12345678, 0, 0, 0, 0, 0x12345678 ^ 0xFFFFFFFF))  # unknown command
    assert shell_v2_output(host.run("shell,v2,raw:echo ok", local_id=4))[0] == b"ok\n"
    with socket.create_connection(server.address) as s:
        s.sendall(b"\x00" * 24)  # bad magic: this connection closes
        s.settimeout(2)
        assert s.recv(1) == b""
