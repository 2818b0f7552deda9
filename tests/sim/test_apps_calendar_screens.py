"""Simple Calendar Pro's screens as the real app (tag 6.22.2) shows them: the FAB's Event / Task
chooser, the platform's date and time pickers, and the delete confirmation with its repeat
choices, each checked through the screen and the events provider."""

from __future__ import annotations

from datetime import date

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.devices.base import KEYCODE_BACK
from cerebellum_gym.sim.apps.calendar import month_days, ts
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.providers import CALENDAR_URI

PKG = "com.simplemobiletools.calendar.pro"


def nodes(phone: Phone, rid: str) -> list[UINode]:
    full = rid if ":" in rid else f"{PKG}:id/{rid}"
    return [n for n in phone.ui_tree().iter() if n.resource_id == full]


def tap(phone: Phone, *, rid: str | None = None, text: str | None = None, desc: str | None = None, nth: int = 0) -> None:
    if rid is not None:
        hit = nodes(phone, rid)[nth]
    else:
        found = phone.ui_tree().find(text=text) if text is not None else phone.ui_tree().find(content_desc=desc)
        assert found is not None, phone.dump_xml()
        hit = found
    phone.tap(*hit.center)


def open_day(phone: Phone, day: date) -> None:
    tap(phone, rid="month_view_background", nth=month_days(day.year, day.month).index(day))


def test_the_fab_opens_the_event_task_chooser_and_back_folds_it() -> None:
    phone = Phone()
    phone.start_app(PKG)
    assert not nodes(phone, "fab_event_label")
    tap(phone, rid="calendar_fab")
    assert [n.text for n in nodes(phone, "fab_event_label") + nodes(phone, "fab_task_label")] == ["Event", "Task"]
    assert nodes(phone, "month_view_wrapper")  # the month stays underneath
    phone.press_key(KEYCODE_BACK)
    assert not nodes(phone, "fab_event_label") and phone.foreground_package() == PKG
    tap(phone, rid="calendar_fab")
    tap(phone, rid="calendar_fab")  # the FAB itself, now "Event", opens the editor
    assert phone.ui_tree().find(text="New Event") is not None and nodes(phone, "event_title")


def test_the_month_view_starts_on_sunday_and_names_other_years() -> None:
    phone = Phone()  # October 15, 2023
    phone.start_app(PKG)
    assert nodes(phone, "top_value")[0].text == "October"
    assert len(nodes(phone, "month_view_background")) == 42
    for _ in range(3):
        tap(phone, rid="top_right_arrow")
    assert nodes(phone, "top_value")[0].text == "January 2024"
    assert nodes(phone, "go_to_today")
    tap(phone, rid="go_to_today")
    assert nodes(phone, "top_value")[0].text == "October" and not nodes(phone, "go_to_today")


def test_the_clock_dial_and_the_text_mode_set_the_time() -> None:
    phone = Phone()
    phone.start_app(PKG)
    tap(phone, rid="calendar_fab")
    tap(phone, rid="fab_event_label")
    tap(phone, rid="event_start_time")
    assert nodes(phone, "android:id/radial_picker") and phone.ui_tree().find(resource_id="android:id/alertTitle") is None
    dial = nodes(phone, "android:id/radial_picker")[0]
    left, top, right, bottom = dial.bounds
    phone.tap((left + right) // 2 + (right - left) // 3, (top + bottom) // 2)  # 3 o'clock on the face
    assert nodes(phone, "android:id/hours")[0].text == "3"
    phone.tap((left + right) // 2, top + (bottom - top) // 6)  # then the minutes: 12 o'clock is :00
    tap(phone, rid="android:id/am_label")
    tap(phone, text="OK")
    assert nodes(phone, "event_start_time")[0].text == "03:00 AM"
    assert nodes(phone, "event_end_time")[0].text == "04:00 AM"  # the start carries the end along
    tap(phone, rid="event_end_time")
    tap(phone, desc="Switch to text input mode for the time input.")
    phone.type_text("11")
    tap(phone, rid="android:id/input_minute")
    phone.type_text("45")
    tap(phone, text="OK")
    assert nodes(phone, "event_end_time")[0].text == "11:45 AM"


def test_the_date_picker_pages_months_and_cancel_keeps_the_date() -> None:
    phone = Phone()
    phone.start_app(PKG)
    tap(phone, rid="calendar_fab")
    tap(phone, rid="fab_event_label")
    tap(phone, rid="event_start_date")
    assert nodes(phone, "android:id/date_picker_header_date")[0].text == "Sun, Oct 15"
    tap(phone, desc="Next month")
    tap(phone, desc="02 November 2023")
    tap(phone, text="Cancel")
    assert nodes(phone, "event_start_date")[0].text == "October 15 (Sun)"
    tap(phone, rid="event_start_date")
    tap(phone, desc="Next month")
    tap(phone, desc="02 November 2023")
    tap(phone, text="OK")
    assert nodes(phone, "event_start_date")[0].text == "November 2 (Thu)"


def test_deleting_asks_yes_or_no_and_a_repeating_event_offers_its_occurrences() -> None:
    phone = Phone()
    monday = ts(date(2023, 10, 16), 9, 0)
    phone.content_insert(CALENDAR_URI, {"title": "Once", "start_ts": str(monday), "end_ts": str(monday + 1800)})
    phone.content_insert(CALENDAR_URI, {"title": "Run", "start_ts": str(monday), "end_ts": str(monday + 1800), "repeat_interval": "86400"})
    phone.start_app(PKG)
    open_day(phone, date(2023, 10, 16))
    tap(phone, text="Once")
    tap(phone, desc="Delete")
    assert [n.text for n in nodes(phone, "android:id/button2") + nodes(phone, "android:id/button1")] == ["No", "Yes"]
    assert not nodes(phone, "delete_event_one_only")  # a plain event has no repeat choices
    tap(phone, text="No")
    tap(phone, desc="Delete")
    tap(phone, text="Yes")
    assert [r["title"] for r in phone.content_query(CALENDAR_URI)] == ["Run"]
    # The 18th's occurrence only: the 17th and 19th keep theirs.
    phone.press_key(KEYCODE_BACK)
    open_day(phone, date(2023, 10, 18))
    tap(phone, text="Run")
    tap(phone, desc="Delete")
    assert [n.checked for n in nodes(phone, "delete_event_one_only") + nodes(phone, "delete_event_all")] == [True, False]
    tap(phone, text="Yes")
    (row,) = phone.content_query(CALENDAR_URI)
    assert row["repetition_exceptions"] == "[20231018]"

    def shown(day: date) -> list[str]:
        phone.press_key(KEYCODE_BACK)
        open_day(phone, day)
        return [n.text for n in nodes(phone, "event_item_title")]

    assert shown(date(2023, 10, 18)) == [] and shown(date(2023, 10, 19)) == ["Run"]
    # This and the future ones: the repetition ends the day before.
    tap(phone, text="Run")
    tap(phone, desc="Delete")
    tap(phone, rid="delete_event_future")
    tap(phone, text="Yes")
    assert shown(date(2023, 10, 17)) == ["Run"] and shown(date(2023, 10, 19)) == [] and shown(date(2023, 10, 20)) == []


def test_search_lists_matching_events_under_month_and_day_sections() -> None:
    phone = Phone()
    for title, day in (("Dentist", date(2023, 10, 17)), ("Budget review", date(2023, 11, 2)), ("Dentist again", date(2023, 11, 2))):
        start = ts(day, 10, 0)
        phone.content_insert(CALENDAR_URI, {"title": title, "description": "", "start_ts": str(start), "end_ts": str(start + 3600)})
    phone.start_app(PKG)
    tap(phone, rid="top_toolbar_search")
    phone.type_text("d")
    assert [n.text for n in nodes(phone, "search_placeholder")] == ["No items found"]  # one character: no search yet
    phone.type_text("ent")
    sections = [n.text for n in nodes(phone, "event_section_title")]
    assert sections == ["October", "17 Tuesday", "November", "2 Thursday"]
    assert [n.text for n in nodes(phone, "event_item_title")] == ["Dentist", "Dentist again"]
    tap(phone, text="Dentist again")
    assert nodes(phone, "event_title")[0].text == "Dentist again"
    phone.press_key(KEYCODE_BACK)  # the editor, then the search closes
    phone.press_key(KEYCODE_BACK)
    assert nodes(phone, "month_view_wrapper") and not nodes(phone, "search_holder")


def test_saving_an_occurrence_asks_which_occurrences_to_update() -> None:
    phone = Phone()
    monday = ts(date(2023, 10, 16), 9, 0)
    phone.content_insert(CALENDAR_URI, {"title": "Run", "start_ts": str(monday), "end_ts": str(monday + 1800), "repeat_interval": "86400"})
    phone.start_app(PKG)
    open_day(phone, date(2023, 10, 18))
    tap(phone, text="Run")
    assert nodes(phone, "event_start_date")[0].text == "October 18 (Wed)"  # the occurrence opened
    tap(phone, rid="event_title")
    phone.type_text(" late")
    tap(phone, desc="Save")
    assert [n.text for n in phone.ui_tree().iter() if n.class_name == "android.widget.RadioButton"] == [
        "Update the selected occurrence only",
        "Update this and all future occurrences",
        "Update all occurrences",
    ]
    tap(phone, rid="edit_repeating_event_one_only")
    rows = sorted(phone.content_query(CALENDAR_URI), key=lambda r: r["title"])
    assert (rows[0]["title"], rows[0]["repeat_interval"], rows[0]["repetition_exceptions"]) == ("Run", "86400", "[20231018]")
    assert (rows[1]["title"], rows[1]["repeat_interval"], int(rows[1]["start_ts"])) == ("Run late", "0", monday + 2 * 86400)
    # All occurrences: the series keeps its first day, whichever occurrence was edited.
    assert [n.text for n in nodes(phone, "event_item_title")] == ["Run late"]  # back on the 18th
    phone.press_key(KEYCODE_BACK)
    open_day(phone, date(2023, 10, 19))
    tap(phone, text="Run")
    tap(phone, rid="event_title")
    phone.type_text("!")
    tap(phone, desc="Save")
    tap(phone, rid="edit_repeating_event_all_occurrences")
    series = [r for r in phone.content_query(CALENDAR_URI) if r["repeat_interval"] == "86400"]
    assert [(r["title"], int(r["start_ts"]), r["repetition_exceptions"]) for r in series] == [("Run!", monday, "[20231018]")]


def test_the_chooser_task_opens_the_task_editor_and_saves_a_task() -> None:
    phone = Phone()
    phone.start_app(PKG)
    tap(phone, rid="calendar_fab")
    tap(phone, rid="fab_task_label")
    assert phone.ui_tree().find(text="New Task") is not None
    assert nodes(phone, "task_title") and nodes(phone, "task_date") and nodes(phone, "task_time")
    assert not nodes(phone, "event_location") and not nodes(phone, "task_end_date")  # a task has no place or end
    assert nodes(phone, "task_color_text")[0].text == "Task color"
    tap(phone, rid="task_title")
    phone.type_text("Pay rent")
    tap(phone, desc="Save")
    (row,) = phone.content_query(CALENDAR_URI)
    assert (row["title"], row["type"], row["start_ts"] == row["end_ts"]) == ("Pay rent", "1", True)
    open_day(phone, date(2023, 10, 15))
    tap(phone, text="Pay rent")
    assert phone.ui_tree().find(text="Edit Task") is not None and nodes(phone, "toggle_mark_complete")


def test_go_to_today_on_a_day_view_opens_today() -> None:
    phone = Phone()
    phone.start_app(PKG)
    open_day(phone, date(2023, 10, 20))
    assert nodes(phone, "top_value")[0].text == "October 20 (Fri)"
    tap(phone, rid="go_to_today")
    assert nodes(phone, "top_value")[0].text == "October 15 (Sun)" and not nodes(phone, "go_to_today")
