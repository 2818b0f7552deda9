"""What AndroidWorld's task set-up and tear-down do to apps between tasks, on the served shell.

Every AndroidWorld task restores its apps' snapshots (``app_snapshot.restore_snapshot``:
``am force-stop``, the data folder cleared, ``cp -a`` of the snapshot folder back) when it
starts and ends, and its tear-down closes every recent task (``close_recents``: ``dumpsys
activity recents``, then ``am stack remove`` of each id). On an emulator these return an app to
what AndroidWorld's set-up left; on the simulator a long-lived env used to keep the previous
task's preferences and drafts (Tasks.org's "Show unstarted", a typed SMS recipient), and the
next task's oracle found another app than a fresh one. These tests run the shell commands as
AndroidWorld sends them, with no AndroidWorld needed.
"""

from __future__ import annotations

import re

import pytest

from cerebellum_gym.sim.databases import SNAPSHOT_ROOT, TASKS_ORG_TASKS
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell

TASKS = "org.tasks"
SMS = "com.simplemobiletools.smsmessenger"


@pytest.fixture
def sh() -> Shell:
    return Shell(Phone())


def restore_snapshot(sh: Shell, package: str) -> None:
    """AndroidWorld's ``restore_snapshot``, command for command (``file_utils`` on the shell)."""
    assert sh.run(f"am force-stop {package}").code == 0
    assert sh.run(f'if [ -d "{SNAPSHOT_ROOT}/{package}" ]; then echo Exists; fi').stdout == b"Exists\n"
    if sh.run(f"ls -1 /data/data/{package}").stdout.strip():
        assert sh.run(f"rm -r /data/data/{package}/*").code == 0
    assert sh.run(f"cp -a {SNAPSHOT_ROOT}/{package}/. /data/data/{package}/").code == 0
    assert sh.run(f"restorecon -RD /data/data/{package}").code == 0
    assert sh.run(f"chmod 777 -R /data/data/{package}").code == 0


def test_restoring_a_snapshot_gives_the_app_its_data_as_the_phone_started(sh: Shell) -> None:
    app = sh.phone.apps[TASKS]
    pristine = dict(app.data)
    app.data.update(show_unstarted=True, show_completed=True)  # what an agent toggled last task
    sh.phone.state.content[TASKS_ORG_TASKS] = [{"_id": "1", "title": "left over"}]
    sh.phone.write_file(f"/data/data/{TASKS}/files/extra.txt", b"x")
    restore_snapshot(sh, TASKS)
    assert {k: v for k, v in app.data.items() if k != "databases"} == {k: v for k, v in pristine.items() if k != "databases"}
    assert sh.phone.state.content.get(TASKS_ORG_TASKS, []) == []
    assert sh.run(f"ls /data/data/{TASKS}/files").stdout == b""
    # The database is there again, as the app made it (AndroidWorld's set-up then fills it).
    assert sh.run(f"ls /data/data/{TASKS}/databases").stdout.split() == [b"database"]


def test_a_saved_snapshot_is_what_a_restore_brings_back(sh: Shell) -> None:
    app = sh.phone.apps[TASKS]
    app.data.update(show_completed=True, show_unstarted=False)
    sh.phone.state.content[TASKS_ORG_TASKS] = [{"_id": "7", "title": "Kept", "importance": "0"}]
    assert sh.run(f"cp -a /data/data/{TASKS}/. {SNAPSHOT_ROOT}/{TASKS}/").code == 0  # save_snapshot
    app.data.update(show_completed=False, show_unstarted=True)
    sh.phone.state.content[TASKS_ORG_TASKS] = []
    restore_snapshot(sh, TASKS)
    assert app.data["show_completed"] is True and app.data["show_unstarted"] is False
    assert [row["title"] for row in sh.phone.state.content[TASKS_ORG_TASKS]] == ["Kept"]
    # Other apps keep what they have.
    assert sh.run(f"ls {SNAPSHOT_ROOT}").stdout.split().count(TASKS.encode()) == 1


def test_close_recents_ends_every_started_app_but_keeps_its_data(sh: Shell) -> None:
    sh.phone.start_app(SMS)
    sms = sh.phone.apps[SMS]
    sms.push("new")  # a screen of the app, as a draft leaves it
    sh.phone.start_app(TASKS)
    recents = sh.run("dumpsys activity recents")
    ids = re.findall(r"id=(\d+)", recents.stdout.decode())  # AndroidWorld's close_recents
    assert recents.code == 0 and len(ids) == 2
    assert SMS in recents.stdout.decode() and TASKS in recents.stdout.decode()
    rows_before = dict(sh.phone.state.content)
    for task_id in ids:
        assert sh.run(f"am stack remove {task_id}").code == 0
    assert sh.phone.foreground_package() == "com.google.android.apps.nexuslauncher"
    assert SMS not in sh.phone.state.stacks and TASKS not in sh.phone.state.stacks
    assert sh.phone.state.content == rows_before
    assert re.findall(r"id=(\d+)", sh.run("dumpsys activity recents").stdout.decode()) == []
    assert sh.run("am stack remove 999").code == 0  # an unknown task: nothing to remove


def test_cp_copies_files_and_folders(sh: Shell) -> None:
    sh.phone.write_file("/sdcard/Download/a.txt", b"one")
    sh.phone.write_file("/sdcard/Download/sub/b.txt", b"two")
    assert sh.run("cp /sdcard/Download/a.txt /sdcard/c.txt").code == 0
    assert sh.phone.read_file("/sdcard/c.txt") == b"one"
    refused = sh.run("cp /sdcard/Download /sdcard/Copy")
    assert refused.code == 1 and b"is a directory" in refused.stderr
    assert sh.run("cp -r /sdcard/Download /sdcard/Copy").code == 0
    assert sh.phone.read_file("/sdcard/Copy/sub/b.txt") == b"two"
    assert sh.run("mkdir /sdcard/Into && cp -a /sdcard/Download/. /sdcard/Into/").code == 0
    assert sorted(sh.phone.list_dir("/sdcard/Into")) == ["a.txt", "sub"]
    missing = sh.run("cp /sdcard/nope /sdcard/x")
    assert missing.code == 1 and b"No such file or directory" in missing.stderr
    assert sh.run("cp /sdcard/c.txt").code == 1
