"""The emulator console the served simulator offers beside its adbd, through the real adb binary
(``adb -s emulator-NNNN emu ...``, as AndroidWorld's ``text_emulator`` / ``call_emulator`` run
it) and byte by byte over a socket (the protocol's edges: authentication, refused lines)."""

from __future__ import annotations

import os
import socket
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from cerebellum_gym.devices.adb import PrivateAdbServer
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.sim import telephony
from cerebellum_gym.sim.adbd import AdbdServer
from cerebellum_gym.sim.console import TOKEN_FILE, EmulatorConsole, decode_sms_text
from cerebellum_gym.sim.phone import Phone

pytest.importorskip("adbutils")


@dataclass
class Emulated:
    server: AdbdServer
    serial: str
    adb: PrivateAdbServer

    def run(self, *args: str) -> tuple[int, str, str]:
        done = self.adb.run("-s", self.serial, *args)
        return done.returncode, done.stdout, done.stderr

    def shell(self, command: str) -> str:
        code, stdout, stderr = self.run("shell", command)
        assert code == 0, stderr
        return stdout


@pytest.fixture
def emulated(adb: PrivateAdbServer) -> Iterator[Emulated]:
    """The simulator served with its console, attached to the adb server as an emulator, the
    console's token being the one in the adb client's ``HOME``."""
    server = AdbdServer(Phone(), console=True, console_auth_token=Path(adb.home) / TOKEN_FILE).start()
    try:
        serial = server.announce(adb.port)
        yield Emulated(server, serial, adb)
    finally:
        server.stop()


def test_served_as_an_emulator_with_the_console_one_port_below(emulated: Emulated) -> None:
    host, port = emulated.server.address
    assert emulated.server.console is not None and emulated.server.console.address == ("127.0.0.1", port - 1)
    assert emulated.serial == f"emulator-{port - 1}"
    assert emulated.shell("echo ready") == "ready\n"


def test_adb_emu_sms_send_delivers_the_text_exactly(emulated: Emulated) -> None:
    """Spaces, quotes, shell syntax and non-ASCII text arrive as sent: the console is no shell."""
    text = 'Meet at 5; bring $HOME\'s `cake` & "tea" | café ☕'
    assert emulated.run("emu", "sms", "send", "+15551234", text) == (0, "OK\n", "")
    rows = emulated.server.phone.content_query("content://sms/inbox")
    assert [(r["address"], r["body"], r["read"]) for r in rows] == [("+15551234", text, "0")]
    # What AndroidWorld reads back: the provider through adb, and the notification a phone shows.
    assert f"address=+15551234, body={text}, " in emulated.shell("content query --uri content://sms/inbox")
    assert f"android.text=String ({text})" in emulated.shell("dumpsys notification")


def test_texts_arrive_in_order_newest_listed_first(emulated: Emulated) -> None:
    """AndroidWorld's reply task takes the first row of ``content://sms/inbox`` as the newest."""
    for n in range(3):
        assert emulated.run("emu", "sms", "send", f"555000{n}", f"text {n}")[1] == "OK\n"
    listed = emulated.shell("content query --uri content://sms/inbox --projection address:body")
    assert listed.splitlines() == [
        "Row: 0 address=5550002, body=text 2",
        "Row: 1 address=5550001, body=text 1",
        "Row: 2 address=5550000, body=text 0",
    ]
    oldest_first = emulated.shell("content query --uri content://sms/inbox --projection body --sort 'date ASC'")
    assert oldest_first.splitlines()[0] == "Row: 0 body=text 0"


def test_gsm_call_rings_until_the_call_ends_then_it_is_missed(emulated: Emulated) -> None:
    assert emulated.run("emu", "gsm", "call", "5550100") == (0, "OK\n", "")
    assert "mCallState=1" in emulated.shell("dumpsys telephony.registry")
    assert emulated.run("emu", "gsm", "list")[1] == "inbound from 5550100 : incoming\nOK\n"
    emulated.shell("input keyevent KEYCODE_ENDCALL")  # AndroidWorld's end_call_if_active
    assert "mCallState=0" in emulated.shell("dumpsys telephony.registry")
    assert "number=5550100" in emulated.shell("content query --uri content://call_log/calls") and "type=3" in emulated.shell(
        "content query --uri content://call_log/calls --projection type"
    )
    # The caller hanging up (gsm cancel) ends a ringing call too; cancelling no call is refused.
    assert emulated.run("emu", "gsm", "call", "5550101")[1] == "OK\n"
    assert emulated.run("emu", "gsm", "cancel", "5550101")[1] == "OK\n"
    assert emulated.run("emu", "gsm", "cancel", "5550101")[1] == "KO: could not cancel this number\n"
    assert telephony.call_state(emulated.server.phone) == telephony.CALL_STATE_IDLE


@pytest.mark.parametrize(
    ("args", "reply"),
    [
        (("bogus",), "KO: unknown command, try 'help'\n"),
        (("sms", "send", "abc", "hello"), "KO: bad phone number format, must be [+](0-9)*\n"),
        (("sms", "send", "5551234"), "KO: missing argument, try 'sms send <phonenumber> <text message>'\n"),
        (("sms", "send", "5551234", "bad \\q escape"), "KO: badly formatted text\n"),
        (("gsm", "call", "555-0100"), "KO: bad phone number format, use digits, # and + only\n"),
        (("gsm", "dial", "5550100"), "KO:  bad sub-command\n"),
        (("sms",), "KO: missing sub-command\n"),
    ],
)
def test_bad_commands_get_the_consoles_ko_and_change_nothing(emulated: Emulated, args: tuple[str, ...], reply: str) -> None:
    before = emulated.server.phone.snapshot()
    code, stdout, _ = emulated.run("emu", *args)
    assert code == 0 and stdout.endswith(reply)  # adb prints the console's answer and exits 0, as with an emulator
    assert emulated.server.phone.state == before
    assert emulated.shell("echo still here") == "still here\n"
    assert emulated.run("emu", "ping")[1] == "I am alive!\nOK\n"


def test_help_lists_the_commands(emulated: Emulated) -> None:
    listing = emulated.run("emu", "help")[1]
    assert listing.startswith("Android console commands:\n") and "    sms\n" in listing and listing.endswith("OK\n")
    assert emulated.run("emu", "help", "sms", "send")[1] == "send inbound SMS text message\nOK\n"
    assert emulated.run("emu", "avd", "name")[1] == "cerebellum_sim\nOK\n"


def test_adb_root_keeps_the_emulator_serial(emulated: Emulated) -> None:
    """adbd restarts as root and the device comes back under the same serial, as an emulator's does."""
    code, stdout, stderr = emulated.run("root")
    assert code == 0, stderr
    assert emulated.shell("id").startswith("uid=0(root)")
    assert emulated.run("emu", "sms", "send", "5551234", "after root")[1] == "OK\n"


def test_adb_emu_kill_stops_the_served_device(adb: PrivateAdbServer) -> None:
    server = AdbdServer(Phone(), console=True, console_auth_token=Path(adb.home) / TOKEN_FILE).start()
    try:
        serial = server.announce(adb.port)
        assert adb.run("-s", serial, "emu", "kill").stdout == "OK: killing emulator, bye bye\n"
        deadline = time.monotonic() + 10
        while serial in adb.run("devices").stdout and time.monotonic() < deadline:
            time.sleep(0.1)
        assert serial not in adb.run("devices").stdout and server.stopping
    finally:
        server.stop()


# --- the protocol over a socket ------------------------------------------------------------------


def talk(console: EmulatorConsole, data: bytes) -> bytes:
    """Send ``data``, half-close, and read until the console closes."""
    with socket.create_connection(console.address, timeout=5) as sock:
        sock.sendall(data)
        chunks = []
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            chunk = sock.recv(4096)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


@pytest.fixture
def token_path(tmp_path: Path) -> Path:
    return tmp_path / TOKEN_FILE


def test_a_missing_token_file_is_created_private_and_required(token_path: Path) -> None:
    phone = Phone()
    with EmulatorConsole(phone, auth_token_path=token_path) as console:
        token = token_path.read_text()
        assert token and stat.S_IMODE(os.stat(token_path).st_mode) == 0o600
        refused = talk(console, b"sms send 5551234 hi\r\nauth wrong\r\nquit\r\n").decode()
        assert refused.startswith("Android Console: Authentication required\r\n") and refused.count("\r\nOK\r\n") == 1
        assert "KO: unknown command, try 'help'\r\n" in refused
        assert refused.endswith("KO: authentication token does not match ~/.emulator_console_auth_token\r\n")
        accepted = talk(console, f"auth {token}\r\nsms send 5551234 hi\r\nquit\r\n".encode()).decode()
        assert accepted.endswith("OK\r\nAndroid Console: type 'help' for a list of commands\r\nOK\r\nOK\r\n")
    assert [r["body"] for r in phone.content_query("content://sms")] == ["hi"]


def test_an_empty_token_file_turns_authentication_off(token_path: Path) -> None:
    token_path.write_text("")
    with EmulatorConsole(Phone(), auth_token_path=token_path) as console:
        assert talk(console, b"ping\nquit\n") == b"Android Console: type 'help' for a list of commands\r\nOK\r\nI am alive!\r\nOK\r\n"


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        (b"\xff\xfe binary\n", b"KO: Forbidden binary request. Aborting\r\n"),
        (b"GET / HTTP/1.1\r\n", b"KO: Forbidden HTTP request. Aborting\r\n"),
    ],
)
def test_binary_and_http_lines_are_refused_and_the_connection_closed(line: bytes, reply: bytes) -> None:
    phone = Phone()
    with EmulatorConsole(phone, auth_token_path=None) as console:
        answer = talk(console, line + b"sms send 5551234 never\n")
        assert answer.endswith(reply)
        assert phone.content_query("content://sms") == []
        assert talk(console, b"ping\nquit\n").endswith(b"I am alive!\r\nOK\r\n")  # the console still serves


def test_an_overlong_line_wraps_as_the_emulators_buffer_does() -> None:
    phone = Phone()
    with EmulatorConsole(phone, auth_token_path=None) as console:
        answer = talk(console, b"x" * 5000 + b"\nquit\n")
        assert answer.endswith(b"KO: unknown command, try 'help'\r\n")


def test_sms_text_escapes_decode_as_the_emulator_decodes_them() -> None:
    assert decode_sms_text("a\\nb \\x41 \\u00e9 \\\\ end") == "a\nb A é \\ end"
    assert decode_sms_text("bad \\t") is None and decode_sms_text("short \\x4") is None


def test_the_console_binds_loopback_only_and_a_taken_port_fails() -> None:
    with pytest.raises(CerebellumError, match="loopback only"):
        EmulatorConsole(Phone(), host="0.0.0.0", auth_token_path=None)
    with EmulatorConsole(Phone(), auth_token_path=None) as console, pytest.raises(CerebellumError, match="cannot serve"):
        EmulatorConsole(Phone(), port=console.address[1], auth_token_path=None)


def test_without_a_console_there_is_no_emulator_serial() -> None:
    with AdbdServer(Phone()) as server, pytest.raises(CerebellumError, match="no emulator console"):
        _ = server.emulator_serial


def test_serve_adb_console_attaches_as_an_emulator(adb: PrivateAdbServer) -> None:
    """``cerebellum-gym serve-adb --console``: the emulator serial on the adb server it finds
    in the environment, the console with the token of the ``HOME`` it runs with."""
    import subprocess
    import sys

    env = {**os.environ, "ANDROID_ADB_SERVER_PORT": str(adb.port), "HOME": adb.home}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cerebellum_gym.cli", "serve-adb", "--port", "0", "--console"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "serving the simulator as an emulator" in line, line
        serial = line.rsplit(" ", 1)[1].strip()
        assert adb.run("-s", serial, "emu", "sms", "send", "5551234", "from the CLI").stdout == "OK\n"
        listed = adb.run("-s", serial, "shell", "content query --uri content://sms/inbox --projection body").stdout
        assert listed == "Row: 0 body=from the CLI\n"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert proc.returncode == 0


def test_a_console_restarts_on_its_port_right_after_serving_a_client() -> None:
    """The console closes first on ``quit`` (its side lingers in TIME_WAIT): serving again on the
    same port at once must work, as an emulator restarted on its ports does."""
    with EmulatorConsole(Phone(), auth_token_path=None) as console:
        port = console.address[1]
        assert talk(console, b"ping\nquit\n").endswith(b"I am alive!\r\nOK\r\n")
    with EmulatorConsole(Phone(), port=port, auth_token_path=None) as again:
        assert talk(again, b"ping\nquit\n").endswith(b"I am alive!\r\nOK\r\n")
