"""Clock's screens in DeskClock's frame: the bottom navigation, the floating buttons the
stopwatch shows in each state (Reset/Pause/Lap, Reset/Start/Share), the timer keypad with its
description, and a running timer's card with Delete, Reset, "+ 1:00" and Add Timer."""

from __future__ import annotations

from test_vlc import node, tap, texts  # the same tree helpers

from cerebellum_gym.sim.phone import Phone

CLOCK = "com.google.android.deskclock"


def clock_tab(tab: str) -> Phone:
    phone = Phone()
    phone.start_app(CLOCK)
    tap(phone, content_desc=tab)
    return phone


def descs(phone: Phone) -> list[str]:
    return [n.content_desc for n in phone.ui_tree().iter() if n.content_desc]


def test_the_bottom_navigation_marks_the_tab_on_show() -> None:
    phone = clock_tab("Timer")
    nav = node(phone, resource_id=f"{CLOCK}:id/bottom_view")
    items = [n for n in nav.iter() if n.content_desc]
    assert [n.content_desc for n in items] == ["Alarm", "Clock", "Timer", "Stopwatch"]
    assert [n.selected for n in items] == [False, False, True, False]
    assert node(phone, content_desc="More options").class_name == "android.widget.ImageView"


def test_stopwatch_buttons_follow_its_state() -> None:
    phone = clock_tab("Stopwatch")
    assert "Reset" not in descs(phone) and node(phone, resource_id=f"{CLOCK}:id/fab").content_desc == "Start"
    tap(phone, content_desc="Start")
    phone.wait(3)
    assert [node(phone, resource_id=f"{CLOCK}:id/{b}").content_desc for b in ("left_button", "fab", "right_button")] == [
        "Reset",
        "Pause",
        "Lap",
    ]
    tap(phone, content_desc="Pause")
    assert [node(phone, resource_id=f"{CLOCK}:id/{b}").content_desc for b in ("left_button", "fab", "right_button")] == [
        "Reset",
        "Start",
        "Share",
    ]
    shown = node(phone, resource_id=f"{CLOCK}:id/stopwatch_time_text").text
    phone.wait(5)  # paused: the time stands still
    assert node(phone, resource_id=f"{CLOCK}:id/stopwatch_time_text").text == shown >= "00:03"
    tap(phone, content_desc="Reset")
    assert "Share" not in descs(phone) and node(phone, resource_id=f"{CLOCK}:id/stopwatch_time_text").text == "00:00"


def test_timer_keypad_and_its_description() -> None:
    phone = clock_tab("Timer")
    assert "Start" not in descs(phone)  # no fab until a duration is typed
    for key in ("1", "00", "5"):
        tap(phone, text=key)
    display = node(phone, resource_id=f"{CLOCK}:id/timer_setup_time")
    assert (display.text, display.content_desc) == ("00h 10m 05s", "0 hours, 10 minutes, 5 seconds")
    assert node(phone, resource_id=f"{CLOCK}:id/timer_setup_digit_00").class_name == "android.widget.Button"
    delete = node(phone, resource_id=f"{CLOCK}:id/timer_setup_delete")
    assert (delete.text, delete.content_desc) == ("⌫", "Backspace")
    tap(phone, resource_id=f"{CLOCK}:id/timer_setup_delete")
    assert node(phone, resource_id=f"{CLOCK}:id/timer_setup_time").text == "00h 01m 00s"


def test_a_running_timer_shows_its_card() -> None:
    phone = clock_tab("Timer")
    for key in "500":
        tap(phone, text=key)
    tap(phone, content_desc="Start")
    assert {"Delete", "Reset", "Add 1 Minute", "Start", "Add Timer"} <= set(descs(phone))
    left = node(phone, resource_id=f"{CLOCK}:id/timer_time_text").text
    assert "Label" in texts(phone) and left.startswith("04:")
    tap(phone, content_desc="Add 1 Minute")
    assert node(phone, resource_id=f"{CLOCK}:id/timer_time_text").text.startswith("05:")
    tap(phone, content_desc="Add Timer")  # back to the keypad, with Cancel to return
    assert "00h 00m 00s" in texts(phone) and "Cancel" in descs(phone)
    tap(phone, content_desc="Cancel")
    tap(phone, content_desc="Delete")
    assert "00h 00m 00s" in texts(phone) and "Cancel" not in descs(phone)


def test_an_alarm_row_as_deskclock_collapses_it() -> None:
    from cerebellum_gym.sim.providers import ALARMS_URI

    phone = Phone()
    phone.content_insert(ALARMS_URI, {"hour": "7", "minutes": "5", "enabled": "1", "label": "Gym"})
    phone.start_app(CLOCK)
    assert node(phone, resource_id=f"{CLOCK}:id/digital_clock").text == "07:05"
    assert node(phone, resource_id=f"{CLOCK}:id/label").text == "Gym"
    assert node(phone, resource_id=f"{CLOCK}:id/arrow").content_desc == "Expand alarm"
    assert node(phone, resource_id=f"{CLOCK}:id/days_of_week").text in ("Today", "Tomorrow")
    switch = node(phone, resource_id=f"{CLOCK}:id/onoff")
    assert (switch.class_name, switch.checkable, switch.checked) == ("android.widget.Switch", True, True)
    tap(phone, resource_id=f"{CLOCK}:id/onoff")
    assert not node(phone, resource_id=f"{CLOCK}:id/onoff").checked
    assert [r["enabled"] for r in phone.content_query(ALARMS_URI)] == ["0"]


def _alarms(phone: Phone) -> list[tuple[str, str]]:
    return sorted((r["hour"], r["minutes"]) for r in phone.content_query("content://com.google.android.deskclock/alarms"))


def test_a_new_alarm_is_set_on_the_platform_time_picker() -> None:
    """ "Add alarm" opens the platform's TimePickerDialog at the current time (15:34, 12-hour):
    the dial picks the hour then the minute; text mode takes typed values and AM/PM; an invalid
    hour keeps the dialog open; Cancel adds nothing, OK adds the alarm."""
    phone = clock_tab("Alarm")
    before = _alarms(phone)
    tap(phone, content_desc="Add alarm")
    assert node(phone, resource_id="android:id/hours").text == "3" and node(phone, resource_id="android:id/minutes").text == "34"
    assert node(phone, resource_id="android:id/pm_label").selected and phone.ui_tree().find(resource_id="android:id/alertTitle") is None
    tap(phone, text="Cancel")
    assert _alarms(phone) == before and phone.ui_tree().find(resource_id="android:id/toggle_mode") is None
    tap(phone, content_desc="Add alarm")
    tap(phone, resource_id="android:id/toggle_mode")  # to text mode: the hour field focused
    phone.type_text("13")
    tap(phone, text="OK")
    assert node(phone, text="Type in time") is not None and _alarms(phone) == before  # 13 is no 12-hour hour
    tap(phone, resource_id="android:id/input_hour")
    for _ in range(2):
        phone.press_key(67)  # delete
    phone.type_text("7")
    tap(phone, resource_id="android:id/input_minute")
    phone.type_text("05")
    tap(phone, resource_id="android:id/am_pm_spinner")  # PM -> AM
    tap(phone, text="OK")
    assert _alarms(phone) == sorted([*before, ("7", "5")])
