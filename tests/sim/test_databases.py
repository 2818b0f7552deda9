"""The apps' SQLite databases at their real paths, kept in step with the app state both ways:
through the shell (``sqlite3``, ``ls``, ``rm``, ``pm clear``) and, end to end, through the real
adb server (``adb pull`` / ``adb push`` of the image, edited with Python's sqlite3)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from cerebellum_gym.devices.adb import PrivateAdbServer
from cerebellum_gym.sim import databases
from cerebellum_gym.sim.adbd import AdbdServer
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell

EXPENSES = "content://com.arduia.expense/expenses"
EVENTS = "content://com.simplemobiletools.calendar.pro/events"
ACCOUNTING = databases.EXPENSE_DB.path
EVENTS_DB = databases.CALENDAR_DB.path
MMSSMS = databases.SMS_DB.path
EXPENSE_PKG = "com.arduia.expense"


def expense(name: str, cents: int, category: str = "Food", note: str = "") -> dict[str, str]:
    return {"name": name, "amount": str(cents), "category": category, "note": note, "created_at": "1697000000000"}


@pytest.fixture
def sh() -> Shell:
    shell = Shell(Phone())
    shell.root = True  # AndroidWorld reads app databases as root
    return shell


def names_on_screen(phone: Phone, package: str) -> str:
    phone.start_app(package)
    return phone.dump_xml()


def test_app_rows_read_as_the_real_schema(sh: Shell) -> None:
    sh.phone.content_insert(EXPENSES, expense("Coffee", 450, "Food", "oat milk"))
    result = sh.run(f'sqlite3 {ACCOUNTING} "SELECT name, amount, category, note FROM expense;"')
    assert (result.stdout, result.code) == (b"Coffee|450|3|oat milk\n", 0)
    columns = sh.run(f"sqlite3 {ACCOUNTING} 'PRAGMA table_info(expense);'").stdout.decode()
    assert [line.split("|")[1] for line in columns.splitlines()] == [
        "expense_id", "name", "amount", "category", "note", "created_date", "modified_date",
    ]  # fmt: skip
    events = sh.run(f"sqlite3 {EVENTS_DB} 'SELECT COUNT(*) FROM events; SELECT title FROM event_types;'")
    assert events.stdout == b"0\nRegular event\n"
    assert sh.run(f"sqlite3 {ACCOUNTING} .tables").stdout == b"android_metadata\nexpense\nroom_master_table\n"
    assert sh.run(f"sqlite3 {ACCOUNTING} '.schema expense'").stdout.startswith(b"CREATE TABLE `expense` (`expense_id` INTEGER")


def test_a_sqlite3_write_changes_what_the_app_shows(sh: Shell) -> None:
    sh.phone.content_insert(EXPENSES, expense("Coffee", 450))
    assert "Coffee" in names_on_screen(sh.phone, EXPENSE_PKG)
    sql = (
        "UPDATE expense SET name = 'Espresso'; INSERT INTO expense (name, amount, category, note, created_date, modified_date) "
        "VALUES ('Rent', 120000, 4, '', 0, 0);"
    )
    assert sh.run(f'sqlite3 {ACCOUNTING} "{sql}"').code == 0
    rows = sorted((r["name"], r["amount"], r["category"]) for r in sh.phone.content_query(EXPENSES))
    assert rows == [("Espresso", "450", "Food"), ("Rent", "120000", "Housing")]
    screen = sh.phone.dump_xml()
    assert "Espresso" in screen and "Rent" in screen and "Coffee" not in screen
    # SQL on stdin, as `sqlite3 DB < file` runs it.
    assert sh.run(f"echo 'SELECT COUNT(*) FROM expense;' | sqlite3 {ACCOUNTING}").stdout == b"2\n"


def test_the_sms_table_is_the_sms_provider(sh: Shell) -> None:
    sh.phone.content_insert("content://sms/inbox", {"address": "+15550001", "body": "hi", "date": "1000", "read": "1"})
    sh.phone.content_insert("content://sms/sent", {"address": "+15550001", "body": "yo", "date": "2000", "read": "1"})
    out = sh.run(f"sqlite3 {MMSSMS} 'SELECT thread_id, address, body, type FROM sms; SELECT message_count, snippet FROM threads;'")
    assert out.stdout == b"1|+15550001|hi|1\n1|+15550001|yo|2\n2|yo\n"
    # AndroidWorld's clear_sms_and_threads.
    assert sh.run(f'sqlite3 {MMSSMS} "DELETE FROM sms;"').code == 0
    assert sh.run(f'sqlite3 {MMSSMS} "DELETE FROM threads;"').code == 0
    assert sh.phone.content_query("content://sms") == []


def test_malformed_sql_is_an_error_and_changes_nothing(sh: Shell) -> None:
    sh.phone.content_insert(EXPENSES, expense("Coffee", 450))
    before = sh.phone.content_query(EXPENSES)
    bad = sh.run(f'sqlite3 {ACCOUNTING} "DELET FROM expense;"')
    assert (bad.code, bad.stdout, bad.stderr) == (1, b"", b'Error: near "DELET": syntax error\n')
    missing = sh.run(f'sqlite3 {ACCOUNTING} "SELECT * FROM nope;"')
    assert (missing.code, missing.stderr) == (1, b"Error: no such table: nope\n")
    # A statement that fails part way keeps the ones before it, as the sqlite3 shell does.
    partial = sh.run(f"sqlite3 {ACCOUNTING} \"UPDATE expense SET note = 'x'; SELEC 1; DELETE FROM expense;\"")
    assert partial.code == 1
    assert [(r["name"], r["note"]) for r in sh.phone.content_query(EXPENSES)] == [("Coffee", "x")]
    assert len(before) == 1


def test_a_corrupt_push_leaves_the_app_intact_and_reads_as_corrupt(sh: Shell) -> None:
    sh.phone.content_insert(EVENTS, {"title": "Standup", "start_ts": "1697360400", "end_ts": "1697362200"})
    before = sh.phone.content_query(EVENTS)
    sh.write(EVENTS_DB, b"\x00not a database" * 100)
    assert sh.phone.content_query(EVENTS) == before
    broken = sh.run(f'sqlite3 {EVENTS_DB} "SELECT * FROM events;"')
    assert broken.code == 1 and broken.stderr.startswith(b"Error: file is not a database")
    assert sh.read(EVENTS_DB) == b"\x00not a database" * 100  # the file holds what was pushed
    sh.phone.start_app(databases.CALENDAR_DB.package)
    cells = [n for n in sh.phone.ui_tree().iter() if n.resource_id.endswith(":id/month_view_background")]
    left, top, right, bottom = cells[14].bounds  # October 15 (October 1, 2023 is a Sunday)
    sh.phone.tap((left + right) // 2, (top + bottom) // 2)
    assert 'text="Standup"' in sh.phone.dump_xml()  # the app still shows its event
    # A valid database pushed over it takes its place.
    good = databases.build(databases.CALENDAR_DB, {databases.CALENDAR_EVENTS: before})
    sh.write(EVENTS_DB, good)
    assert sh.run(f"sqlite3 {EVENTS_DB} 'SELECT title FROM events;'").stdout == b"Standup\n"


def test_wrong_types_in_a_push_read_as_the_apps_defaults(sh: Shell) -> None:
    con = sqlite3.connect(":memory:")
    con.deserialize(databases.read(sh.phone, EVENTS_DB) or b"")
    con.execute("INSERT INTO events (start_ts, end_ts, title, location, description, reminder_1_minutes, reminder_2_minutes, "
                "reminder_3_minutes, reminder_1_type, reminder_2_type, reminder_3_type, repeat_interval, repeat_rule, repeat_limit, "
                "repetition_exceptions, attendees, import_id, time_zone, flags, event_type, parent_id, last_updated, source, "
                "availability, color, type) VALUES ('soon', 1e400, 'Odd', '', '', -1, -1, -1, 0, 0, 0, 0, 0, 0, '[]', '', '', "
                "'UTC', 0, 1, 0, 0, 'x', 0, 0, 0)")  # fmt: skip
    con.commit()
    sh.write(EVENTS_DB, con.serialize())
    (row,) = sh.phone.content_query(EVENTS)
    assert (row["title"], row["start_ts"], row["end_ts"]) == ("Odd", "0", "0")
    sh.phone.start_app(databases.CALENDAR_DB.package)
    assert 'text="October"' in sh.phone.dump_xml()  # the app draws its month, the odd event at the epoch


def test_pushed_ids_are_not_reused_by_the_app(sh: Shell) -> None:
    sh.run(f"sqlite3 {ACCOUNTING} \"INSERT INTO expense VALUES (500, 'Big', 100, 1, '', 0, 0);\"")
    sh.phone.content_insert(EXPENSES, expense("Next", 200))
    ids = sorted(int(r["_id"]) for r in sh.phone.content_query(EXPENSES))
    assert ids[0] == 500 and ids[1] > 500


def test_the_image_is_cached_until_the_rows_change(sh: Shell) -> None:
    first = databases.read(sh.phone, ACCOUNTING)
    assert databases.read(sh.phone, ACCOUNTING) is first
    sh.phone.content_insert(EXPENSES, expense("Coffee", 450))
    assert databases.read(sh.phone, ACCOUNTING) is not first


def _outcome(phone: Phone) -> str | None:
    node = phone.ui_tree().find(resource_id=f"{EXPENSE_PKG}:id/tv_outcome_value")
    return node.text if node is not None else None


def test_pm_clear_drops_the_database_until_the_app_runs_its_first_start(sh: Shell) -> None:
    sh.phone.content_insert(EXPENSES, expense("Coffee", 450))
    assert sh.run(f"ls /data/data/{EXPENSE_PKG}/databases").stdout == b"accounting.db\n"
    assert sh.run(f"pm clear {EXPENSE_PKG}").stdout == b"Success\n"
    assert sh.run(f"[ -d /data/data/{EXPENSE_PKG}/databases ]").code == 1
    assert sh.phone.content_query(EXPENSES) == []
    # The first start after a clear: onboarding (NEXT, then CONTINUE), and an empty database.
    sh.run(f"am start -n {EXPENSE_PKG}/.ui.MainActivity")
    assert sh.run(f"sqlite3 {ACCOUNTING} 'SELECT COUNT(*) FROM expense;'").stdout == b"0\n"
    for button in ("NEXT", "CONTINUE"):
        node = sh.phone.ui_tree().find(text=button)
        assert node is not None, sh.phone.dump_xml()
        (left, top), (right, bottom) = node.bounds[:2], node.bounds[2:]
        sh.phone.tap((left + right) // 2, (top + bottom) // 2)
    assert _outcome(sh.phone) == "0"  # the home screen's Totals, with nothing spent
    # Onboarding is done once: the next start goes straight to the list.
    sh.run(f"am force-stop {EXPENSE_PKG}")
    sh.run(f"am start -n {EXPENSE_PKG}/.ui.MainActivity")
    assert _outcome(sh.phone) == "0"  # the home screen's Totals, with nothing spent


def test_rm_of_the_database_empties_the_app_and_keeps_the_folder(sh: Shell) -> None:
    sh.phone.content_insert(EXPENSES, expense("Coffee", 450))
    folder = f"/data/data/{EXPENSE_PKG}/databases"
    assert sh.run(f"ls -1 {folder}").stdout == b"accounting.db\n"
    assert sh.run(f"rm -r {folder}/*").code == 0  # AndroidWorld's clear_directory before a push
    assert sh.run(f"ls -1 {folder}").stdout == b"" and sh.run(f"[ -d {folder} ]").code == 0
    assert sh.phone.content_query(EXPENSES) == []


def test_private_databases_need_root(sh: Shell) -> None:
    sh.root = False
    denied = sh.run(f"sqlite3 {ACCOUNTING} 'SELECT 1;'")
    assert denied.code == 1 and b"unable to open database" in denied.stderr


# --- end to end through the real adb server ----------------------------------------------------------


@pytest.fixture
def served(adb: PrivateAdbServer) -> Iterator[tuple[AdbdServer, str]]:
    server = AdbdServer(Phone()).start()
    serial = server.serial_for_adb
    assert f"connected to {serial}" in adb.run("connect", serial).stdout
    # AndroidWorld roots adbd before it reads app databases (set_root_if_needed).
    assert "restarting adbd as root" in adb.run("-s", serial, "root").stdout
    adb.run("-s", serial, "wait-for-device", timeout=30)
    assert adb.run("-s", serial, "shell", "whoami").stdout.strip() == "root"
    try:
        yield server, serial
    finally:
        adb.run("disconnect", serial)
        server.stop()


def test_pull_edit_push_round_trip_through_adb(adb: PrivateAdbServer, served: tuple[AdbdServer, str], tmp_path: Path) -> None:
    """AndroidWorld's way: ``ls -l`` the folder, pull the file, edit it with sqlite3, push it
    back; the app shows the edit, and the app's own change shows in the next pull."""
    server, serial = served
    phone = server.phone
    phone.content_insert(EXPENSES, expense("Coffee", 450))
    listing = adb.run("-s", serial, "shell", f"ls /data/data/{EXPENSE_PKG}/databases -ll -au").stdout
    (line,) = [ln for ln in listing.splitlines() if ln.startswith("-")]
    assert line.split(None, 8)[8] == "accounting.db"
    local = tmp_path / "accounting.db"
    assert adb.run("-s", serial, "pull", ACCOUNTING, str(local)).returncode == 0
    assert local.stat().st_size == int(line.split()[4])
    con = sqlite3.connect(local)
    con.execute("UPDATE expense SET amount = 999")
    con.execute("INSERT INTO expense (name, amount, category, note, created_date, modified_date) VALUES ('Taxi', 2500, 7, 'late', 1, 1)")
    con.commit()
    con.close()
    assert adb.run("-s", serial, "push", str(local), ACCOUNTING).returncode == 0
    rows = sorted((r["name"], r["amount"], r["category"], r.get("note")) for r in phone.content_query(EXPENSES))
    assert rows == [("Coffee", "999", "Food", ""), ("Taxi", "2500", "Transportation", "late")]
    screen = adb.run(
        "-s", serial, "shell", f"am start -n {EXPENSE_PKG}/.ui.MainActivity && uiautomator dump /sdcard/d.xml && cat /sdcard/d.xml"
    ).stdout
    assert 'text="Taxi"' in screen and 'text="25"' in screen  # a Recent row: the name, the amount
    # The app's own change (it deletes Coffee) is in the next pull.
    coffee = next(r for r in phone.content_query(EXPENSES) if r["name"] == "Coffee")
    phone.content_delete(EXPENSES, where={"_id": coffee["_id"]})
    again = tmp_path / "again.db"
    assert adb.run("-s", serial, "pull", ACCOUNTING, str(again)).returncode == 0
    with sqlite3.connect(again) as con:
        assert con.execute("SELECT name, category FROM expense").fetchall() == [("Taxi", 7)]


def test_bad_input_through_adb_is_an_error_never_a_lost_device(
    adb: PrivateAdbServer, served: tuple[AdbdServer, str], tmp_path: Path
) -> None:
    server, serial = served
    server.phone.content_insert(EXPENSES, expense("Coffee", 450))
    before = server.phone.content_query(EXPENSES)
    bad = adb.run("-s", serial, "shell", f'sqlite3 {ACCOUNTING} "SELEC name FROM expense;"')
    assert bad.returncode == 1 and 'Error: near "SELEC": syntax error' in bad.stderr
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    assert adb.run("-s", serial, "push", str(junk), ACCOUNTING).returncode == 0  # bytes, as on a device
    assert server.phone.content_query(EXPENSES) == before
    broken = adb.run("-s", serial, "shell", f'sqlite3 {ACCOUNTING} "SELECT * FROM expense;"')
    assert broken.returncode == 1 and broken.stderr.startswith("Error: ")
    assert adb.run("-s", serial, "get-state").stdout.strip() == "device"
    out = adb.run("-s", serial, "shell", f"sqlite3 {MMSSMS} 'SELECT COUNT(*) FROM sms;'")
    assert (out.returncode, out.stdout) == (0, "0\n")
