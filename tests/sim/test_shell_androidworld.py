"""The served shell answers AndroidWorld's device queries as an Android 13 emulator does:
toybox ``ls -l`` (the listing AndroidWorld's file judges parse) and the real activity names
(``am stack list``, ``dumpsys window``), which AndroidWorld's clock judges read."""

from __future__ import annotations

from datetime import datetime

import pytest

from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell

RECORDS = "/sdcard/Android/data/com.dimowner.audiorecorder/files/Music/records"


@pytest.fixture
def sh() -> Shell:
    return Shell(Phone())


def test_ls_long_lists_files_with_size_and_write_time(sh: Shell) -> None:
    sh.phone.write_file(f"{RECORDS}/old.m4a", b"x" * 10)
    sh.phone.state.clock += 90
    sh.phone.write_file(f"{RECORDS}/new note.m4a", b"y" * 3)
    # Options after the operand, as AndroidWorld's get_file_list_with_metadata runs it.
    result = sh.run("ls /storage/emulated/0/Android/data/com.dimowner.audiorecorder/files/Music/records -ll -au")
    lines = result.stdout.decode().splitlines()
    assert result.code == 0 and lines[0].startswith("total ")
    assert [line.split(None, 8)[8] for line in lines[1:]] == [".", "..", "new note.m4a", "old.m4a"]
    files = [line.split(None, 8) for line in lines if line.startswith("-")]
    sizes = {parts[8]: int(parts[4]) for parts in files}
    times = {parts[8]: datetime.fromisoformat(" ".join(parts[5:7])[:-3]) for parts in files}
    assert sizes == {"new note.m4a": 3, "old.m4a": 10}
    assert (times["new note.m4a"] - times["old.m4a"]).total_seconds() == 90
    assert lines[1].startswith("drwxrws--- ")


def test_ls_long_short_time_and_errors(sh: Shell) -> None:
    sh.phone.write_file("/sdcard/Download/a.txt", b"abc")
    line = sh.run("ls -l /sdcard/Download/a.txt").stdout.decode().strip()
    assert line.split()[4:6] == ["3", "2023-10-15"] and len(line.split()[6]) == 5 and line.endswith(" /sdcard/Download/a.txt")
    missing = sh.run("ls -l /sdcard/nope")
    assert missing.code == 1 and missing.stderr == b"ls: /sdcard/nope: No such file or directory\n"
    assert sh.run("ls -1 /sdcard/Download").stdout == b"a.txt\n"  # plain listing unchanged


@pytest.mark.parametrize(
    ("package", "component"),
    [
        ("com.google.android.deskclock", "com.google.android.deskclock/com.android.deskclock.DeskClock"),
        ("com.android.camera2", "com.android.camera2/com.android.camera.CameraLauncher"),
        ("com.android.settings", "com.android.settings/com.android.settings.Settings"),
    ],
)
def test_activities_carry_the_real_apps_names(sh: Shell, package: str, component: str) -> None:
    sh.phone.start_app(package)
    stack = sh.run("am stack list").stdout.decode()
    assert f"topActivity=ComponentInfo{{{component}}}" in stack.split("RootTask id=1 ")[0]


def test_removing_a_folders_files_keeps_the_folder(sh: Shell) -> None:
    """``rm -r DIR/*`` (AndroidWorld's clear_directory) empties DIR but leaves it, as on a device."""
    sh.phone.write_file(f"{RECORDS}/a.m4a", b"1")
    sh.phone.write_file(f"{RECORDS}/b.m4a", b"2")
    assert sh.run(f"rm -r {RECORDS}/*").code == 0
    assert sh.run(f"ls -1 {RECORDS}").stdout == b"" and sh.run(f"[ -d {RECORDS} ]").code == 0
    assert sh.run(f"rm -r {RECORDS}").code == 0 and sh.run(f"[ -d {RECORDS} ]").code == 1
