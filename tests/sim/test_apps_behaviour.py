"""Behaviour of the simulated apps that the tasks rely on, driven through taps and keys."""

from __future__ import annotations

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.devices.base import KEYCODE_BACK, KEYCODE_ENTER
from cerebellum_gym.sim.phone import Phone


def node(phone: Phone, *, text: str | None = None, desc: str | None = None, rid: str | None = None) -> UINode:
    for n in phone.ui_tree().iter():
        if (text is None or n.text == text) and (desc is None or n.content_desc == desc) and (rid is None or n.resource_id.endswith(rid)):
            return n
    raise AssertionError(f"nothing on screen with text={text!r} desc={desc!r} rid={rid!r}")


def tap(phone: Phone, **kwargs: str) -> None:
    phone.tap(*node(phone, **kwargs).center)


def open_in_markor(phone: Phone, name: str, content: bytes) -> UINode:
    """Write ``name`` into Markor's folder, open it there, and return the editor's node."""
    phone.write_file(f"/sdcard/Documents/Markor/{name}", content)
    phone.start_app("net.gsantner.markor")
    tap(phone, text=name)
    return node(phone, rid=":id/document__fragment__edit__highlighting_editor")


def test_stopwatch_runs_on_the_virtual_clock() -> None:
    phone = Phone()
    phone.start_app("com.google.android.deskclock")
    tap(phone, desc="Stopwatch")
    tap(phone, desc="Start")
    phone.wait(65)
    assert node(phone, rid=":id/stopwatch_time_text").text == "01:06"  # 65 s waited + 1 s for the tap
    tap(phone, desc="Pause")
    phone.wait(30)
    assert node(phone, rid=":id/stopwatch_time_text").text == "01:06"  # paused: time stands still
    assert node(phone, desc="Reset") is not None


def test_long_press_selects_all_so_typing_replaces() -> None:
    phone = Phone()
    editor = open_in_markor(phone, "a.md", b"old text")
    phone.tap(*editor.center)
    phone.type_text(" more")
    assert node(phone, rid=":id/document__fragment__edit__highlighting_editor").text == "old text more"
    phone.long_press(*editor.center)
    phone.type_text("new")
    phone.press_key(KEYCODE_BACK)  # Markor saves when the document is left
    assert phone.read_file("/sdcard/Documents/Markor/a.md") == b"new"


def test_enter_breaks_a_line_in_the_editor_but_not_in_a_one_line_field() -> None:
    # AndroidWorld's route types a newline as the Enter key (`input keyevent 66`); Markor's editor,
    # a multi-line EditText, takes it as a line break, also when it replaces a selection.
    phone = Phone()
    editor = open_in_markor(phone, "a.md", b"body\n")
    phone.long_press(*editor.center)
    phone.type_text("head")
    phone.press_key(KEYCODE_ENTER)
    phone.press_key(KEYCODE_ENTER)
    phone.type_text("body")
    phone.press_key(KEYCODE_ENTER)
    assert phone.focused_text() == "head\n\nbody\n"
    phone.long_press(*editor.center)
    phone.press_key(KEYCODE_ENTER)  # Enter over a selection replaces it
    assert phone.focused_text() == "\n"
    tap(phone, desc="Navigate up")  # leaving saves; Markor renames from the file list
    phone.long_press(*node(phone, text="a.md").center)
    tap(phone, desc="Rename")
    rename = node(phone, rid=":id/new_name")
    assert rename.text == "a.md"  # the dialog holds the old name
    phone.long_press(*rename.center)
    phone.type_text("b.md")
    phone.press_key(KEYCODE_ENTER)  # a one-line field keeps one line
    assert phone.focused_text() == "b.md"
    tap(phone, text="OK")
    assert phone.read_file("/sdcard/Documents/Markor/b.md") == b"\n"


def test_markor_creates_empty_folders_and_moves_notes() -> None:
    phone = Phone()
    phone.write_file("/sdcard/Documents/Markor/n.md", b"x")
    phone.start_app("net.gsantner.markor")
    tap(phone, desc="Create a new file or folder")
    phone.type_text("Inbox")  # the dialog opens with the keyboard up
    tap(phone, text="Folder")  # a folder takes no extension
    assert phone.list_dir("/sdcard/Documents/Markor") == ["Inbox", "n.md"] and phone.is_dir("/sdcard/Documents/Markor/Inbox")
    phone.long_press(*node(phone, text="n.md").center)
    tap(phone, desc="More options")
    tap(phone, text="Move")
    assert node(phone, rid=":id/ui__filesystem_dialog__title").text == "Move → Markor"
    tap(phone, text="Inbox")
    assert node(phone, rid=":id/ui__filesystem_dialog__title").text == "Move → Inbox"
    tap(phone, text="Select this folder")
    assert phone.list_dir("/sdcard/Documents/Markor/Inbox") == ["n.md"] and phone.read_file("/sdcard/Documents/Markor/Inbox/n.md") == b"x"
    phone.remove_path("/sdcard/Documents/Markor/Inbox")
    assert phone.list_dir("/sdcard/Documents/Markor") == []


def test_recorder_first_run_then_record_and_rename() -> None:
    # AndroidWorld's set-up grants the microphone and only opens the app: a first run follows.
    phone = Phone()
    phone.start_app("com.dimowner.audiorecorder")
    tap(phone, text="Get started")
    tap(phone, text="Apply")
    tap(phone, rid=":id/btn_record")
    assert node(phone, text="Recording…") is not None and node(phone, desc="Delete") is not None
    phone.wait(10)
    tap(phone, rid=":id/btn_record_stop")
    records = "/sdcard/Android/data/com.dimowner.audiorecorder/files/Music/records"
    assert phone.list_dir(records) == ["Record-1.m4a"]  # saved on stop, before any name
    field = node(phone, rid=":id/input_name")
    assert field.text == "Record-1" and node(phone, text="New name") is not None
    phone.long_press(*field.center)
    phone.type_text("memo")
    tap(phone, text="Save")
    assert phone.list_dir(records) == ["memo.m4a"] and len(phone.read_file(f"{records}/memo.m4a")) > 10_000
    assert node(phone, rid=":id/txt_name").text == "memo"


def test_calendar_moving_the_start_keeps_the_duration() -> None:
    phone = Phone()
    phone.start_app("com.simplemobiletools.calendar.pro")
    tap(phone, desc="New Event")
    tap(phone, text="Event")  # the FAB's chooser
    tap(phone, rid=":id/event_start_time")
    tap(phone, desc="Switch to text input mode for the time input.")  # the platform picker's keyboard mode
    phone.type_text("9")
    tap(phone, text="PM")  # the AM/PM spinner: 9 PM -> 9 AM
    tap(phone, text="OK")
    assert node(phone, text="09:00 AM") is not None and node(phone, text="10:00 AM") is not None
    tap(phone, desc="Save")
    assert node(phone, text="Title cannot be empty") is not None
    tap(phone, rid=":id/event_title")
    phone.type_text("Standup")
    tap(phone, desc="Save")
    rows = phone.content_query("content://com.simplemobiletools.calendar.pro/events")
    assert [(r["title"], int(r["end_ts"]) - int(r["start_ts"])) for r in rows] == [("Standup", 3600)]


def test_sms_send_writes_the_provider() -> None:
    phone = Phone()
    phone.start_app("com.simplemobiletools.smsmessenger")
    tap(phone, rid=":id/conversations_fab")
    phone.type_text("+15550001111")
    tap(phone, rid=":id/new_conversation_confirm")
    tap(phone, rid=":id/thread_type_message")
    phone.type_text("hi there")
    tap(phone, rid=":id/thread_send_message")
    sent = phone.content_query("content://sms/sent")
    assert [(r["address"], r["body"]) for r in sent] == [("+15550001111", "hi there")]
    assert int(sent[0]["date"]) == int(phone.now().timestamp() * 1000) - 1000  # stamped when Send was tapped


def test_dialer_opens_from_the_launcher_and_dials() -> None:
    """AndroidWorld's open-app tasks name "dialer" (com.google.android.dialer): it is on the home screen."""
    phone = Phone()
    tap(phone, text="Phone")
    assert phone.foreground_package() == "com.google.android.dialer"
    assert node(phone, text="Call your favorite contacts with just one tap") is not None  # Favorites
    tap(phone, desc="key pad")
    for key in "1234":
        tap(phone, text=key)
    assert node(phone, rid=":id/digits").text == "1234"
    tap(phone, desc="backspace")
    tap(phone, desc="dial")
    assert node(phone, text="123") is not None and node(phone, text="End call") is not None
    tap(phone, text="End call")
    phone.press_key(KEYCODE_BACK)
    tap(phone, desc="Recents")
    assert node(phone, text="123") is not None  # the call is in the recents list
    tap(phone, desc="Contacts")
    tap(phone, text="Create new contact")  # the Contacts app's new contact form
    assert phone.foreground_package() == "com.google.android.contacts" and node(phone, text="First name") is not None


def test_running_counters_move_with_the_clock_and_still_screens_stay_built() -> None:
    # A screen whose clock runs is rebuilt as time passes; one that shows nothing finer than the
    # minute keeps its layout (the phone reuses it) until an input changes something.
    phone = Phone()
    phone.start_app("com.dimowner.audiorecorder")
    tap(phone, text="Get started")
    tap(phone, text="Apply")
    idle = phone.layout
    phone.wait(5)  # the clock starts on a whole minute: still the same minute
    assert phone.layout is idle  # not recording: nothing on screen runs
    tap(phone, rid=":id/btn_record")
    phone.wait(7)
    assert node(phone, rid=":id/txt_progress").text == "00:08"  # 7 s waited + 1 s for the tap
    phone.wait(3)
    assert node(phone, rid=":id/txt_progress").text == "00:11"

    phone = Phone()
    phone.start_app("com.android.camera2")  # AndroidWorld's set-up answered the first-run prompt
    assert phone.ui_tree().find(text="No thanks") is None
    tap(phone, text="MODE LIST")
    tap(phone, text="Video")
    idle = phone.layout
    phone.wait(5)
    assert phone.layout is idle
    tap(phone, desc="Shutter")
    phone.wait(4)
    assert node(phone, text="00:05") is not None

    phone = Phone()
    phone.start_app("com.google.android.deskclock")
    tap(phone, desc="Timer")
    for digit in "15":
        tap(phone, text=digit)
    idle = phone.layout
    phone.wait(5)
    assert phone.layout is idle  # digits typed, timer not started
    tap(phone, desc="Start")
    phone.wait(5)
    assert node(phone, rid=":id/timer_time_text").text == "00:09"  # 15 s less 5 waited and 1 for the tap

    for package in ("com.android.chrome", "com.simplemobiletools.calendar.pro", "com.simplemobiletools.smsmessenger"):
        phone = Phone()
        phone.start_app(package)
        shown = phone.layout
        phone.wait(5)
        assert phone.layout is shown, package


def test_calendar_day_view_lists_each_days_events() -> None:
    from datetime import date

    from cerebellum_gym.sim.apps.calendar import SimpleCalendarApp, month_days, ts
    from cerebellum_gym.sim.providers import CALENDAR_URI

    phone = Phone()  # October 2023
    for title, start, end in (
        ("one day", ts(date(2023, 10, 3), 9, 0), ts(date(2023, 10, 3), 10, 0)),
        ("overnight", ts(date(2023, 10, 3), 23, 0), ts(date(2023, 10, 5), 1, 0)),
        ("instant", ts(date(2023, 10, 20), 0, 0), ts(date(2023, 10, 20), 0, 0)),
    ):
        phone.content_insert(CALENDAR_URI, {"title": title, "start_ts": str(start), "end_ts": str(end)})
    phone.start_app(SimpleCalendarApp.package)
    cells = month_days(2023, 10)
    assert cells[0] == date(2023, 10, 1) and len(cells) == 42  # weeks from Sunday, six of them

    def listed(day: int) -> list[str]:
        backgrounds = [n for n in phone.ui_tree().iter() if n.resource_id.endswith(":id/month_view_background")]
        phone.tap(*backgrounds[cells.index(date(2023, 10, day))].center)
        titles = [n.text for n in phone.ui_tree().iter() if n.resource_id.endswith(":id/event_item_title")]
        phone.press_key(KEYCODE_BACK)
        return titles

    assert listed(3) == ["one day", "overnight"] and listed(4) == ["overnight"] and listed(5) == ["overnight"]
    assert listed(6) == [] and listed(20) == ["instant"]
    phone.content_delete(CALENDAR_URI, {"title": "overnight"})
    assert listed(3) == ["one day"] and listed(4) == []


def test_calendar_month_screen_is_reused_and_its_buttons_act_on_the_shown_route() -> None:
    import pickle

    calendar = "com.simplemobiletools.calendar.pro"
    phone = Phone()
    phone.start_app(calendar)
    first = phone.layout
    phone.factory_reset()  # a new episode: fresh routes, same month and events
    phone.start_app(calendar)
    assert phone.layout is first
    tap(phone, rid=":id/top_right_arrow")
    assert node(phone, text="November") is not None
    tap(phone, rid=":id/top_left_arrow")
    tap(phone, rid=":id/top_left_arrow")
    assert node(phone, text="September") is not None
    copy = pickle.loads(pickle.dumps(phone))  # the cached screen holds callbacks: not pickled
    assert node(copy, text="September") is not None


def test_recorder_dont_ask_again_keeps_the_default_name() -> None:
    phone = Phone()
    phone.start_app("com.dimowner.audiorecorder")
    tap(phone, text="Get started")
    tap(phone, text="Apply")
    records = "/sdcard/Android/data/com.dimowner.audiorecorder/files/Music/records"
    tap(phone, rid=":id/btn_record")
    phone.wait(3)
    tap(phone, rid=":id/btn_record_stop")
    tap(phone, text="Don't ask again")
    tap(phone, text="Cancel")  # the record stays as it was saved
    assert phone.list_dir(records) == ["Record-1.m4a"]
    tap(phone, rid=":id/btn_record")
    phone.wait(3)
    tap(phone, rid=":id/btn_record_stop")
    assert phone.ui_tree().find(text="New name") is None  # not asked again
    assert phone.list_dir(records) == ["Record-1.m4a", "Record-2.m4a"]
    phone.press_key(3)
    phone.start_app("com.dimowner.audiorecorder")  # set up once: no first run any more
    assert phone.ui_tree().find(text="Get started") is None


def test_recorder_records_list_shows_the_apps_own_records() -> None:
    phone = Phone()
    records = "/sdcard/Android/data/com.dimowner.audiorecorder/files/Music/records"
    phone.write_file(f"{records}/Voice note 1.m4a", b"x")  # not made by the app: not in its list
    phone.start_app("com.dimowner.audiorecorder")
    tap(phone, text="Get started")
    tap(phone, text="Apply")
    tap(phone, rid=":id/btn_records_list")
    assert node(phone, text="Records is empty") is not None
    tap(phone, rid=":id/btn_back")
    tap(phone, rid=":id/btn_record")
    phone.wait(4)
    tap(phone, rid=":id/btn_record_stop")
    phone.long_press(*node(phone, rid=":id/input_name").center)
    phone.type_text("memo")
    tap(phone, text="Save")
    tap(phone, rid=":id/btn_records_list")
    assert node(phone, rid=":id/list_item_name").text == "memo"
    assert phone.ui_tree().find(text="Voice note 1") is None
