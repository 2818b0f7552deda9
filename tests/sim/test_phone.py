"""The embedded phone: navigation, input, device state, snapshots and rendering."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cerebellum_gym.devices.base import KEYCODE_BACK, KEYCODE_DEL, KEYCODE_HOME
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.sim import Phone
from cerebellum_gym.sim.apps.launcher import open_drawer
from cerebellum_gym.sim.phone import LAUNCHER_PACKAGE
from cerebellum_gym.sim.render import TILES

SETTINGS = "com.android.settings"
CONTACTS = "com.google.android.contacts"
CONTACTS_URI = "content://com.android.contacts/data/phones"


def tap_text(phone: Phone, text: str) -> None:
    node = phone.ui_tree().find(text=text) or phone.ui_tree().find(content_desc=text)
    assert node is not None, f"{text!r} not on screen"
    phone.tap(*node.center)


def test_home_screen_launches_apps_and_keys_navigate() -> None:
    phone = Phone()
    assert phone.foreground_package() == LAUNCHER_PACKAGE
    open_drawer(phone)
    tap_text(phone, "Settings")
    assert phone.foreground_package() == SETTINGS
    tap_text(phone, "Network & internet")
    assert phone.ui_tree().find(text="Airplane mode") is not None
    phone.press_key(KEYCODE_BACK)
    assert phone.ui_tree().find(text="Connected devices") is not None
    phone.press_key(KEYCODE_BACK)
    assert phone.foreground_package() == LAUNCHER_PACKAGE  # back from an app's root goes home
    open_drawer(phone)
    tap_text(phone, "Settings")
    tap_text(phone, "Display")
    phone.press_key(KEYCODE_HOME)
    assert phone.foreground_package() == LAUNCHER_PACKAGE
    open_drawer(phone)
    tap_text(phone, "Settings")  # the app resumes where it was, as Android does
    assert phone.ui_tree().find(text="Brightness level") is not None


def test_switch_rows_toggle_the_system_setting() -> None:
    phone = Phone()
    phone.put_setting("global", "wifi_on", "0")
    phone.start_app(SETTINGS)
    tap_text(phone, "Network & internet")
    tap_text(phone, "Internet")
    switch = phone.ui_tree().find(class_name="android.widget.Switch")
    assert switch is not None and not switch.checked
    phone.tap(*switch.center)  # the switch is inside the row; the row handles the click
    assert phone.get_setting("global", "wifi_on") == "1"
    assert phone.ui_tree().find(class_name="android.widget.Switch").checked  # type: ignore[union-attr]


def test_scrolling_reveals_items_below_and_stops_at_the_end() -> None:
    phone = Phone()
    phone.start_app(SETTINGS)
    assert phone.ui_tree().find(text="About phone") is None
    for _ in range(6):
        phone.swipe(540, 1800, 540, 600)
    assert phone.ui_tree().find(text="About phone") is not None
    last = phone.ui_tree().find(text="About phone").bounds  # type: ignore[union-attr]
    phone.swipe(540, 1800, 540, 600)
    assert phone.ui_tree().find(text="About phone").bounds == last  # type: ignore[union-attr]
    for _ in range(8):
        phone.swipe(540, 600, 540, 1800)
    assert phone.ui_tree().find(text="Network & internet") is not None


def test_slider_moves_to_the_finger() -> None:
    phone = Phone()
    phone.start_app(SETTINGS)
    tap_text(phone, "Display")
    tap_text(phone, "Brightness level")
    slider = phone.ui_tree().find(class_name="android.widget.SeekBar")
    assert slider is not None
    left, top, right, bottom = slider.bounds
    phone.swipe(slider.center[0], slider.center[1], right - 1, slider.center[1])
    assert phone.get_setting("system", "screen_brightness") == "255"
    phone.swipe(slider.center[0], slider.center[1], left, slider.center[1])
    assert phone.get_setting("system", "screen_brightness") == "1"
    phone.tap(*slider.center)
    assert 120 <= int(phone.get_setting("system", "screen_brightness") or 0) <= 135


def _open_create_contact(phone: Phone) -> None:
    phone.start_app(CONTACTS)
    tap_text(phone, "Create contact")


@given(st.text(min_size=1, max_size=40))
def test_typed_text_arrives_exactly(text: str) -> None:
    phone = Phone()
    _open_create_contact(phone)
    first = phone.ui_tree().find(text="First name")
    assert first is not None
    phone.type_text("ignored")  # nothing focused yet: a real device drops it too
    assert phone.focused_text() is None
    phone.tap(*first.center)
    phone.type_text(text)
    assert phone.focused_text() == text


def test_delete_key_and_saving_a_contact_goes_to_the_provider() -> None:
    phone = Phone()
    _open_create_contact(phone)
    tap_text(phone, "First name")
    phone.type_text("Adaa")
    phone.press_key(KEYCODE_DEL)
    tap_text(phone, "Phone")
    phone.type_text("+15550100")
    tap_text(phone, "Save")
    rows = phone.content_query(CONTACTS_URI, projection=("display_name", "number"))
    assert rows == [{"display_name": "Ada", "number": "+15550100"}]
    assert phone.ui_tree().find(text="Ada") is not None  # the new contact's page


def test_content_provider_queries_filter_and_project() -> None:
    phone = Phone()
    phone.content_insert(CONTACTS_URI, {"display_name": "A", "number": "1"})
    phone.content_insert(CONTACTS_URI, {"display_name": "B", "number": "2"})
    assert phone.content_query(CONTACTS_URI, projection=["number"], where={"display_name": "B"}) == [{"number": "2"}]
    phone.content_delete(CONTACTS_URI, where={"display_name": "A"})
    assert [r["display_name"] for r in phone.content_query(CONTACTS_URI)] == ["B"]
    with pytest.raises(CerebellumError, match="Unknown URI"):
        phone.content_query("content://nope")


def test_files_api() -> None:
    phone = Phone()
    phone.write_file("/sdcard/Markor/a.md", b"x")
    phone.write_file("/sdcard/Markor/sub/b.md", b"y")
    assert phone.list_dir("/sdcard/Markor") == ["a.md", "sub"]
    assert phone.read_file("/sdcard/Markor/sub/b.md") == b"y"
    phone.remove_path("/sdcard/Markor/sub")
    assert phone.list_dir("/sdcard/Markor") == ["a.md"]
    with pytest.raises(FileNotFoundError):
        phone.read_file("/sdcard/nothing")


def test_snapshot_restore_and_factory_reset() -> None:
    phone = Phone()
    snap = phone.snapshot()
    phone.start_app(SETTINGS)
    phone.put_setting("global", "bluetooth_on", "1")
    phone.restore(snap)
    assert phone.foreground_package() == LAUNCHER_PACKAGE
    assert phone.get_setting("global", "bluetooth_on") == "0"
    phone.start_app(CONTACTS)
    phone.factory_reset()
    assert phone.foreground_package() == LAUNCHER_PACKAGE


def test_clock_advances_per_action_and_on_wait() -> None:
    phone = Phone()
    start = phone.now()
    phone.tap(1, 1)
    phone.wait(10)
    assert (phone.now() - start).total_seconds() == pytest.approx(11)


def test_screenshots_are_cached_until_the_screen_changes() -> None:
    phone = Phone()
    first = phone.screenshot(464)
    assert phone.screenshot(464) is first
    assert first.shape == (1031, 464, 3) and not first.flags.writeable
    phone.start_app(SETTINGS)
    second = phone.screenshot(464)
    assert second is not first and (second != first).any()
    full = phone.screenshot()
    assert full.shape == (2400, 1080, 3)


def test_a_small_change_repaints_few_tiles() -> None:
    phone = Phone()
    phone.start_app(SETTINGS)
    tap_text(phone, "Network & internet")
    phone.screenshot(464)
    misses = TILES.misses
    node = phone.ui_tree().find(text="Airplane mode")
    assert node is not None
    phone.tap(*node.center)
    phone.screenshot(464)
    # The toggled row and the status bar are new; every other tile is reused.
    assert TILES.misses - misses <= 3


def test_rendering_is_deterministic_across_phones() -> None:
    a, b = Phone(), Phone()
    for phone in (a, b):
        phone.start_app(SETTINGS)
    assert np.array_equal(a.screenshot(464), b.screenshot(464))


def test_factory_reset_copies_every_field_of_the_fresh_state() -> None:
    """The field-by-field copy behind factory_reset covers every PhoneState field and shares no
    container with the pristine state (a field added later must be copied there too)."""
    import dataclasses
    import pickle

    from cerebellum_gym.sim.phone import PhoneState, _copy_state

    phone = Phone()
    phone.state.settings["global"]["wifi_on"] = "0"
    phone.write_file("/sdcard/a.txt", b"x")
    phone.make_dir("/sdcard/d")
    phone.content_insert("content://sms", {"body": "A"})
    fresh = dataclasses.replace(phone.state, app_data={}, stacks={}, focus="k", clock=5.0, next_id=9, foreground="p")
    copied = _copy_state(fresh)
    assert copied is not None and copied == pickle.loads(pickle.dumps(fresh))
    for field in dataclasses.fields(PhoneState):
        value = getattr(fresh, field.name)
        assert getattr(copied, field.name) == value, field.name
        if isinstance(value, dict | list | set) and value:
            assert getattr(copied, field.name) is not value, f"{field.name} is shared"
    assert copied.settings["global"] is not fresh.settings["global"]
    phone.factory_reset()
    assert phone.get_setting("global", "wifi_on") == "1" and phone.list_dir("/sdcard") == ["Android"]
