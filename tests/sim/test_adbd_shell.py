"""The served simulator's shell: POSIX quoting and expansion, and Android commands' output."""

from __future__ import annotations

import base64

import pytest

from cerebellum_gym.devices.android import ADB_KEYBOARD_IME
from cerebellum_gym.sim.phone import LAUNCHER_PACKAGE, Phone
from cerebellum_gym.sim.shell import Shell, parse_where

CONTACTS_URI = "content://com.android.contacts/data/phones"


@pytest.fixture
def sh() -> Shell:
    return Shell(Phone())


def out(sh: Shell, line: str) -> str:
    return sh.run(line).stdout.decode()


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("echo 'a  b' \"c  d\" e\\ f", "a  b c  d e f\n"),
        ("echo \"$(echo 'x y')\" $(echo 'x   y')", "x y x y\n"),
        ("echo `echo tick`", "tick\n"),
        ('echo "it\'s" \'say "hi"\'', 'it\'s say "hi"\n'),
        ("echo $NOPE-${HOME}", "-/\n"),
        ("false; echo $?", "1\n"),
        ("false && echo no || echo yes", "yes\n"),
        ("true && echo a; echo b", "a\nb\n"),
        ("echo a # comment", "a\n"),
        ("echo '#not' \\#not", "#not #not\n"),
        ("echo one\necho two", "one\ntwo\n"),
        ("echo hi | grep h", "hi\n"),
        ("echo /sys*", "/sys /system /system_ext\n"),
        ("echo '*'", "*\n"),
        ("echo -n x", "x"),
        ("echo ''", "\n"),
        ("exit 4; echo never", ""),
    ],
)
def test_quoting_expansion_and_operators(sh: Shell, line: str, expected: str) -> None:
    assert out(sh, line) == expected


def test_exit_codes_and_errors_read_like_mksh(sh: Shell) -> None:
    assert sh.run("exit 4").code == 4
    missing = sh.run("nosuchcmd arg")
    assert (missing.code, missing.stderr) == (127, b"/system/bin/sh: nosuchcmd: inaccessible or not found\n")
    assert sh.run("echo 'open").stderr == b"/system/bin/sh: syntax error: no closing quote\n"
    assert sh.run("echo a &&").code == 1
    assert sh.run("cat /nope 2>/dev/null").stderr == b""
    assert sh.run("cat /nope 2>&1").stdout == b"cat: /nope: No such file or directory\n"


def test_redirections_write_the_phone_files(sh: Shell) -> None:
    sh.run("echo first > /sdcard/f.txt; echo second >> /sdcard/f.txt")
    assert sh.phone.read_file("/sdcard/f.txt") == b"first\nsecond\n"
    assert out(sh, "cat < /sdcard/f.txt | grep sec") == "second\n"
    # Storage aliases name the same files (Android/ holds what apps made on their first start).
    assert out(sh, "ls /storage/emulated/0") == "Android\nf.txt\n"
    sh.run("mkdir -p /sdcard/Empty && rm /sdcard/f.txt")
    assert out(sh, "ls /sdcard") == "Android\nEmpty\n"


def test_settings_and_content_print_like_a_device(sh: Shell) -> None:
    assert out(sh, "settings get global wifi_on") == "1\n"
    assert out(sh, "settings get global nothing_here") == "null\n"
    assert sh.run("settings get bogus x").stderr == b"Invalid namespace 'bogus'\n"
    assert out(sh, f"content query --uri {CONTACTS_URI}") == "No result found.\n"
    sh.run(f"content insert --uri {CONTACTS_URI} --bind display_name:s:'Ana Lima' --bind number:s:+1555")
    sh.run(f'content insert --uri {CONTACTS_URI} --bind display_name:s:"O\'Neil" --bind number:s:+1666')
    assert out(sh, f"content query --uri {CONTACTS_URI} --projection display_name:number") == (
        "Row: 0 display_name=Ana Lima, number=+1555\nRow: 1 display_name=O'Neil, number=+1666\n"
    )
    assert out(sh, f"content query --uri {CONTACTS_URI} --projection number --where \"display_name='O''Neil'\"") == "Row: 0 number=+1666\n"
    sh.run(f"content delete --uri {CONTACTS_URI} --where \"display_name='Ana Lima'\"")
    assert [r["display_name"] for r in sh.phone.content_query(CONTACTS_URI)] == ["O'Neil"]
    bad = sh.run("content query --uri content://nope")
    assert bad.code == 1 and bad.stderr.startswith(b"Error while accessing provider:content://nope")
    assert parse_where("a = 'x' AND b=2") == {"a": "x", "b": "2"}
    with pytest.raises(ValueError):
        parse_where("a = 'x' OR 1=1")


def test_apps_windows_and_input(sh: Shell) -> None:
    phone = sh.phone
    assert "Events injected: 1" in out(sh, "monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
    assert "mCurrentFocus=Window{5e1a2c0 u0 com.android.settings/.Settings}" in out(sh, "dumpsys window")
    assert sh.run("monkey -p com.example.none 1").code == 252
    node = phone.ui_tree().find(text="Network & internet")
    assert node is not None
    sh.run(f"input tap {node.center[0]} {node.center[1]}")
    assert phone.state.stacks["com.android.settings"][-1]["screen"] != "main"
    sh.run("am force-stop com.android.settings")
    assert phone.foreground_package() == LAUNCHER_PACKAGE
    assert "com.android.settings" not in phone.state.stacks
    assert (
        out(sh, "am start -n com.google.android.contacts/com.android.contacts.activities.PeopleActivity")
        == "Starting: Intent { cmp=com.google.android.contacts/com.android.contacts.activities.PeopleActivity }\n"
    )
    sh.run("input keyevent KEYCODE_HOME")
    assert phone.foreground_package() == LAUNCHER_PACKAGE
    assert out(sh, "wm size") == "Physical size: 1080x2400\n"
    assert out(sh, "uiautomator dump") == "UI hierchary dumped to: /sdcard/window_dump.xml\n"
    assert phone.read_file("/sdcard/window_dump.xml").decode() == phone.dump_xml()
    assert sh.run("screencap -p").stdout.startswith(b"\x89PNG\r\n\x1a\n")
    assert sh.run("input tap x y").code == 1


def test_typing_routes(sh: Shell) -> None:
    phone = sh.phone
    sh.run("am start -n com.google.android.contacts/com.android.contacts.activities.PeopleActivity")
    create = phone.ui_tree().find(content_desc="Create contact")
    assert create is not None
    phone.tap(*create.center)
    first = phone.ui_tree().find(resource_id="com.google.android.contacts:id/first")
    assert first is not None
    phone.tap(*first.center)
    sh.run("input text 'a%sb%'")
    assert phone.focused_text() == "a b%"
    assert sh.run("input text 'é'").code == 1  # input's key map has no é, as on a device
    b64 = base64.b64encode("✓ ü".encode()).decode()
    sh.run(f"am broadcast -a ADB_INPUT_B64 --es msg {b64}")
    assert phone.focused_text() == "a b%"  # the ADB keyboard is not the input method yet
    assert "selected" in out(sh, f"ime set {ADB_KEYBOARD_IME}")
    assert "Broadcast completed: result=0" in out(sh, f"am broadcast -a ADB_INPUT_B64 --es msg {b64}")
    assert phone.focused_text() == "a b%✓ ü"
    sh.run("am broadcast -a ADB_CLEAR_TEXT")
    assert phone.focused_text() == ""


def test_sleep_advances_simulated_time_and_reset(sh: Shell) -> None:
    start = int(out(sh, "date +%s"))
    sh.run("sleep 90")
    assert int(out(sh, "date +%s")) >= start + 90
    sh.run("settings put global wifi_on 0; touch /sdcard/x")
    assert out(sh, "cerebellum-sim factory-reset") == "factory reset done\n"
    assert out(sh, "settings get global wifi_on; ls /sdcard") == "1\nAndroid\n"


@pytest.mark.parametrize(("sdk", "header"), [(27, b""), (28, (1).to_bytes(4, "little")), (33, (1).to_bytes(4, "little"))])
def test_raw_screencap_writes_the_device_header_then_rgba(sdk: int, header: bytes) -> None:
    import numpy as np

    sh = Shell(Phone(), sdk=sdk)
    data = sh.run("screencap").stdout
    # width, height, PIXEL_FORMAT_RGBA_8888, and from API 28 on the sRGB colour space.
    fields = (1080).to_bytes(4, "little") + (2400).to_bytes(4, "little") + (1).to_bytes(4, "little") + header
    assert data[: len(fields)] == fields and len(data) == len(fields) + 1080 * 2400 * 4
    rgba = np.frombuffer(data, np.uint8, offset=len(fields)).reshape(2400, 1080, 4)
    assert np.array_equal(rgba[..., :3], sh.phone.screenshot()) and (rgba[..., 3] == 255).all()
    assert sh.run("getprop ro.build.version.sdk").stdout == f"{sdk}\n".encode()
    sh.run("screencap /sdcard/shot.raw; screencap /sdcard/shot.png")
    assert sh.phone.read_file("/sdcard/shot.raw") == data
    assert sh.phone.read_file("/sdcard/shot.png").startswith(b"\x89PNG")


# --- hardening: arithmetic, binaries by path, pm path, bounded time and sizes -----------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("echo $((1+1))", "2\n"),
        ('echo "$((2*(3+4)))" $(( 7 / 2 )) $((-7 % 3))', "14 3 -1\n"),
        ("echo $((1 << 4 | 1)) $((2147483647 + 1))", "17 -2147483648\n"),
        ("false; echo $(($? + 1)) $((HOME_UNSET + 5))", "2 5\n"),
        ("echo a$((3>2 && 1))b", "a1b\n"),
    ],
)
def test_shell_arithmetic(sh: Shell, line: str, expected: str) -> None:
    assert out(sh, line) == expected


def test_binaries_run_by_their_absolute_paths(sh: Shell) -> None:
    assert out(sh, "/system/bin/echo hi") == "hi\n"
    assert sh.run("/system/bin/screencap -p").stdout.startswith(b"\x89PNG")
    assert out(sh, "/system/bin/sh -c 'cd /sdcard; echo $((40+2)); exit 3'; echo $? $(pwd)") == "42\n3 /\n"
    assert out(sh, "echo 'echo from stdin' | sh") == "from stdin\n"
    assert sh.run("/sdcard/echo hi").code == 127  # not a binary directory


def test_pm_path(sh: Shell) -> None:
    assert out(sh, "pm path com.android.settings") == "package:/data/app/~~cerebellum/com.android.settings-1/base.apk\n"
    assert sh.run("pm path no.such.package").code == 1


def test_sleep_is_bounded_and_the_clock_stays_a_date(sh: Shell) -> None:
    for duration in ("inf", "nan", "-1", "1e300"):
        assert sh.run(f"sleep {duration}").code == 1
    assert sh.run("sleep 60").code == 0
    assert out(sh, "date +%Y").strip().isdigit()


def test_storage_and_arguments_are_bounded(sh: Shell) -> None:
    sh.phone.write_file("/sdcard/f", b"x" * (8 << 20))
    # Doubling a file by redirection stops at the device's storage, with an error.
    results = [sh.run("cat /sdcard/f /sdcard/f > /sdcard/g && cat /sdcard/g /sdcard/g > /sdcard/f") for _ in range(6)]
    assert any(b"No space left on device" in r.stderr or b"output too large" in r.stderr for r in results)
    assert sum(len(v) for v in sh.phone.state.files.values()) <= 256 << 20
    big = sh.run("echo $(cat /sdcard/f) $(cat /sdcard/f) $(cat /sdcard/f)")
    assert big.code == 1 and b"Argument list too long" in big.stderr


def test_am_start_of_an_activity_the_package_does_not_declare_fails_as_am_does(sh: Shell) -> None:
    """A device's ``am`` resolves ``-n`` against the activities the package declares: an unknown
    one is START_CLASS_NOT_FOUND (error type 3, the class expanded as ComponentName does), status
    1, and nothing starts."""
    phone = sh.phone
    before = phone.foreground_package()
    waited = sh.run("am start -W -n com.google.android.contacts/.Nope")
    assert waited.code == 1 and waited.stderr == b""
    assert waited.stdout.decode() == (
        "Starting: Intent { cmp=com.google.android.contacts/.Nope }\n"
        "Error type 3\n"
        "Error: Activity class {com.google.android.contacts/com.google.android.contacts.Nope} does not exist.\n"
    )
    plain = sh.run("am start -n com.android.settings/com.android.settings.NoSuchSettings")
    assert plain.code == 1 and plain.stdout == b"Starting: Intent { cmp=com.android.settings/com.android.settings.NoSuchSettings }\n"
    assert b"Error: Activity class {com.android.settings/com.android.settings.NoSuchSettings} does not exist." in plain.stderr
    assert phone.foreground_package() == before and "com.google.android.contacts" not in phone.state.stacks
    assert sh.run("am start -n com.google.android.contacts").code == 255  # no activity at all: a bad component
    # The declared ones, relative (".Settings") or not, and another exported activity of an app.
    assert sh.run("am start -n com.android.settings/.Settings").code == 0
    assert phone.foreground_package() == "com.android.settings"
    assert sh.run("am start -W -n com.dimowner.audiorecorder/com.dimowner.audiorecorder.app.welcome.WelcomeActivity").code == 0
    assert phone.foreground_package() == "com.dimowner.audiorecorder"


def test_am_start_view_of_the_contacts_uri_opens_contacts(sh: Shell) -> None:
    """AndroidWorld's ``launch_app("contacts")``: ``am start -a VIEW -d content://contacts/people/``."""
    phone = sh.phone
    done = sh.run("am start -a android.intent.action.VIEW -d content://contacts/people/")
    assert done.code == 0, done
    assert done.stdout == b"Starting: Intent { act=android.intent.action.VIEW dat=content://contacts/people/ }\n"
    assert phone.foreground_package() == "com.google.android.contacts"
    assert phone.ui_tree().find(content_desc="Create contact") is not None  # its people list
    sh.run("input keyevent KEYCODE_HOME")
    unknown = sh.run("am start -a android.intent.action.VIEW -d content://nothing/here")
    assert unknown.code == 1 and b"unable to resolve Intent" in unknown.stderr
    assert phone.foreground_package() == LAUNCHER_PACKAGE
