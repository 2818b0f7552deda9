"""Simple Calendar Pro's repetition picker writes what the real app writes (``repeat_interval`` in
seconds, ``repeat_rule`` the weekday bits for a weekly event), seen through the app's database."""

from __future__ import annotations

from datetime import date

import pytest

from cerebellum_gym.devices.base import KEYCODE_BACK
from cerebellum_gym.sim import databases
from cerebellum_gym.sim.apps.calendar import SimpleCalendarApp
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell

PACKAGE = "com.simplemobiletools.calendar.pro"


def tap(phone: Phone, *, text: str | None = None, desc: str | None = None, rid: str | None = None, nth: int = 0) -> None:
    if rid is not None:
        hits = [n for n in phone.ui_tree().iter() if n.resource_id == (rid if ":" in rid else f"{PACKAGE}:id/{rid}")]
        node = hits[nth] if len(hits) > nth else None
    else:
        node = phone.ui_tree().find(text=text) if text is not None else phone.ui_tree().find(content_desc=desc)
    assert node is not None, phone.dump_xml()
    left, top, right, bottom = node.bounds
    phone.tap((left + right) // 2, (top + bottom) // 2)


def text_of(phone: Phone, rid: str) -> str:
    node = phone.ui_tree().find(resource_id=f"{PACKAGE}:id/{rid}")
    assert node is not None, phone.dump_xml()
    return node.text


@pytest.mark.parametrize(
    ("choice", "interval", "rule"),
    [("Daily", 86400, 0), ("Weekly", 604800, 1 << 0), ("Monthly", 2592000, 1), ("Yearly", 31536000, 1), ("No repetition", 0, 0)],
)
def test_the_picker_writes_the_real_apps_values(choice: str, interval: int, rule: int) -> None:
    shell = Shell(Phone())
    shell.root = True
    phone = shell.phone
    phone.start_app(PACKAGE)
    tap(phone, desc="New Event")  # the chooser: Event or Task
    tap(phone, text="Event")  # on today's month: October 15, 2023 (a Sunday)
    tap(phone, text="Title")
    phone.type_text("Standup")
    tap(phone, rid="event_start_date")
    tap(phone, desc="16 October 2023")  # the date picker's day cell: Monday the 16th
    header = phone.ui_tree().find(resource_id="android:id/date_picker_header_date")
    assert header is not None and header.text == "Mon, Oct 16"
    tap(phone, text="OK")
    assert text_of(phone, "event_start_date") == "October 16 (Mon)"
    tap(phone, rid="event_repetition")
    tap(phone, text=choice)
    assert text_of(phone, "event_repetition") == choice  # the row shows the choice
    tap(phone, desc="Save")
    out = shell.run(f"sqlite3 {databases.CALENDAR_DB.path} 'SELECT title, repeat_interval, repeat_rule FROM events;'")
    assert out.stdout.decode() == f"Standup|{interval}|{rule}\n"
    # Opened again (the 16th is the month view's 16th cell: October 1 is a Sunday), the editor shows it.
    tap(phone, rid="month_view_background", nth=15)
    tap(phone, text="Standup")
    assert text_of(phone, "event_repetition") == choice, phone.dump_xml()


def test_back_leaves_the_repetition_as_it_was() -> None:
    phone = Phone()
    phone.start_app(PACKAGE)
    tap(phone, desc="New Event")
    tap(phone, text="Event")
    tap(phone, rid="event_repetition")
    assert phone.ui_tree().find(text="Custom") is not None
    phone.press_key(KEYCODE_BACK)
    assert text_of(phone, "event_repetition") == "No repetition"


def test_a_repeating_event_shows_on_every_occurrence() -> None:
    phone = Phone()
    uri = "content://com.simplemobiletools.calendar.pro/events"
    monday = 1697441400  # Monday October 16, 2023, 07:30 UTC
    phone.content_insert(
        uri, {"title": "Run", "start_ts": str(monday), "end_ts": str(monday + 1800), "repeat_interval": "604800", "repeat_rule": "1"}
    )
    phone.content_insert(uri, {"title": "Pills", "start_ts": str(monday), "end_ts": str(monday + 900), "repeat_interval": "86400"})
    phone.content_insert(
        uri, {"title": "Rent", "start_ts": str(monday), "end_ts": str(monday + 900), "repeat_interval": "2592000", "repeat_rule": "1"}
    )
    app = phone.app(PACKAGE)
    assert isinstance(app, SimpleCalendarApp)

    def titles(day: date) -> list[str]:
        return [e["title"] for e in app.events_on(day)]

    assert titles(date(2023, 10, 15)) == []  # before the first occurrence
    assert sorted(titles(date(2023, 10, 16))) == ["Pills", "Rent", "Run"]
    assert titles(date(2023, 10, 17)) == ["Pills"]
    assert sorted(titles(date(2023, 10, 23))) == ["Pills", "Run"]  # a week on: Monday again
    assert sorted(titles(date(2023, 11, 16))) == ["Pills", "Rent"]  # the same day next month
    (run,) = [e for e in app.events_on(date(2023, 10, 30)) if e["title"] == "Run"]
    assert int(run["start_ts"]) == monday + 2 * 604800  # shown at its own time
    phone.start_app(PACKAGE)
    # The month view draws days on its canvas; the 23rd's cell opens the day with both events.
    tap(phone, rid="month_view_background", nth=22)
    assert text_of(phone, "top_value") == "October 23 (Mon)"
    shown = sorted(n.text for n in phone.ui_tree().iter() if n.resource_id.endswith("event_item_title"))
    assert shown == ["Pills", "Run"]
