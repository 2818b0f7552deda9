"""``Device.file_mtime`` in process and over ADB (``stat -c %Y`` on the served simulator) agree:
what a judge of "the newest note" orders by."""

from __future__ import annotations

from typing import Any

import pytest

from cerebellum_gym.sim.phone import Phone


def test_the_change_time_over_adb_is_the_phones(served: Any) -> None:
    phone = served.phone
    phone.write_file("/sdcard/Documents/Markor/old.md", b"old\n")
    phone.wait(3600)
    phone.write_file("/sdcard/Documents/Markor/new.md", b"new\n")
    old, new = (served.device.file_mtime(f"/sdcard/Documents/Markor/{n}.md") for n in ("old", "new"))
    assert new - old == 3600
    assert new == int(Phone.file_mtime(phone, "/sdcard/Documents/Markor/new.md"))
    with pytest.raises(FileNotFoundError):
        served.device.file_mtime("/sdcard/Documents/Markor/missing.md")
    out = served.device.shell(["stat", "-c", "%n %s %F", "/sdcard/Documents/Markor/old.md"]).text
    assert out == "/sdcard/Documents/Markor/old.md 4 regular file\n"
