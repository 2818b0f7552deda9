"""The clipboard on the simulator's text fields: a long press selects and floats the Cut / Copy /
Paste toolbar; the clip is the one Clipper's broadcasts set and read, and the one the Device
interface reads (on the phone and, over ADB, through Clipper as AndroidWorld does)."""

from __future__ import annotations

import pytest

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.sim import telephony
from cerebellum_gym.sim.apps.common import text_menu
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell

SMS = "com.simplemobiletools.smsmessenger"
QUERY = f"{SMS}:id/new_conversation_address"
TOOLBAR_ITEM = "android:id/floating_toolbar_menu_item_text"


def centre(node: UINode) -> tuple[int, int]:
    left, top, right, bottom = node.bounds
    return (left + right) // 2, (top + bottom) // 2


def node(phone: Phone, **where: str) -> UINode:
    found = phone.ui_tree().find(**where)
    assert found is not None, where
    return found


def toolbar(phone: Phone) -> list[str]:
    return [n.text for n in phone.ui_tree().iter() if n.resource_id == TOOLBAR_ITEM]


@pytest.fixture
def compose() -> Phone:
    """Simple SMS Messenger's new-conversation screen, its field focused."""
    phone = Phone()
    phone.start_app(SMS)
    phone.tap(*centre(node(phone, resource_id=f"{SMS}:id/conversations_fab")))
    return phone


def test_long_press_selects_and_copy_sets_the_clip(compose: Phone) -> None:
    compose.type_text("Order No: A123456")
    assert toolbar(compose) == []
    compose.long_press(*centre(node(compose, resource_id=QUERY)))
    assert toolbar(compose) == ["Cut", "Copy"]
    compose.tap(*centre(node(compose, text="Copy")))
    assert telephony.clipboard(compose) == "Order No: A123456"
    assert compose.get_clipboard() == "Order No: A123456"
    assert toolbar(compose) == []  # the toolbar goes; the text stays
    assert node(compose, resource_id=QUERY).text == "Order No: A123456"
    # Clipper's screen is its usage page (it does not show the clip); the clip stays.
    compose.start_app("ca.zgrs.clipper")
    assert node(compose, resource_id="ca.zgrs.clipper:id/head").text == "Clipper service is started!"
    assert node(compose, resource_id="android:id/title").text == "Clipper"
    assert compose.get_clipboard() == "Order No: A123456"


def test_cut_empties_the_field(compose: Phone) -> None:
    compose.type_text("5551234")
    compose.long_press(*centre(node(compose, resource_id=QUERY)))
    compose.tap(*centre(node(compose, text="Cut")))
    assert compose.get_clipboard() == "5551234"
    assert node(compose, resource_id=QUERY).text == "Add Contact or Number…"  # the hint again


def test_empty_field_offers_paste_only_with_a_clip(compose: Phone) -> None:
    compose.long_press(*centre(node(compose, resource_id=QUERY)))
    assert toolbar(compose) == []  # nothing to cut, copy or paste
    compose.set_clipboard("Jane's Flower Shop")
    compose.long_press(*centre(node(compose, resource_id=QUERY)))
    assert toolbar(compose) == ["Paste"]
    compose.tap(*centre(node(compose, text="Paste")))
    assert node(compose, resource_id=QUERY).text == "Jane's Flower Shop"
    assert toolbar(compose) == []


def test_paste_replaces_the_selection_and_typing_dismisses_the_toolbar(compose: Phone) -> None:
    compose.set_clipboard("replacement")
    compose.type_text("old text")
    compose.long_press(*centre(node(compose, resource_id=QUERY)))
    assert toolbar(compose) == ["Cut", "Copy", "Paste"]
    compose.tap(*centre(node(compose, text="Paste")))
    assert node(compose, resource_id=QUERY).text == "replacement"
    compose.long_press(*centre(node(compose, resource_id=QUERY)))
    compose.type_text("typed")  # typing replaces the selection, as before, and hides the toolbar
    assert node(compose, resource_id=QUERY).text == "typed"
    assert toolbar(compose) == []


def test_tapping_the_field_dismisses_the_toolbar(compose: Phone) -> None:
    compose.type_text("abc")
    field = node(compose, resource_id=QUERY)
    compose.long_press(*centre(field))
    assert toolbar(compose)
    compose.tap(*centre(field))
    assert toolbar(compose) == []


def test_toolbar_floats_over_the_bottom_bar_field() -> None:
    """The compose box sits in the bottom bar: the toolbar floats above it and takes the taps."""
    phone = Phone()
    phone.start_app(SMS)
    phone.foreground_app.open_thread("5550100")  # type: ignore[attr-defined]
    phone.set_clipboard("from the clip")
    draft = node(phone, resource_id=f"{SMS}:id/thread_type_message")
    phone.long_press(*centre(draft))
    paste = node(phone, text="Paste")
    assert paste.bounds[3] <= draft.bounds[1]
    phone.tap(*centre(paste))
    assert node(phone, resource_id=f"{SMS}:id/thread_type_message").text == "from the clip"


def test_markor_share_puts_the_note_in_an_sms_draft() -> None:
    phone = Phone()
    phone.write_file("/sdcard/Documents/Markor/note.md", b"hello there")
    markor = phone.app("net.gsantner.markor")
    phone.start_app("net.gsantner.markor")
    markor.push("edit", path="/sdcard/Documents/Markor/note.md", text="hello there")
    phone.tap(*centre(node(phone, content_desc="More options")))  # the editor's overflow
    phone.tap(*centre(node(phone, text="Share")))
    phone.tap(*centre(node(phone, text="Plain Text")))
    phone.tap(*centre(node(phone, text="Simple SMS Messenger")))
    assert phone.foreground_package() == SMS
    phone.type_text("5550123")
    phone.tap(*centre(node(phone, resource_id=f"{SMS}:id/new_conversation_confirm")))
    assert node(phone, resource_id=f"{SMS}:id/thread_type_message").text == "hello there"


def test_text_menu_items() -> None:
    assert text_menu("abc", True, None) == ("Cut", "Copy")
    assert text_menu("abc", True, "x") == ("Cut", "Copy", "Paste")
    assert text_menu("", True, "x") == ("Paste",)
    assert text_menu("", False, None) == ()
    assert text_menu("abc", False, "x") == ("Paste", "Select all")


def test_clipper_broadcasts_share_the_clip() -> None:
    phone = Phone()
    shell = Shell(phone)
    phone.start_app("ca.zgrs.clipper")
    out = shell.run("am broadcast -a clipper.set -e text 'a b'").stdout.decode()
    assert "result=-1" in out
    assert phone.get_clipboard() == "a b"
    phone.set_clipboard('say "hi"')
    assert 'data="say "hi""' in shell.run("am broadcast -a clipper.get").stdout.decode()


def test_shell_device_clipboard_over_adb(adb: object) -> None:
    """AdbDevice (a ShellDevice) sets and reads the clip through Clipper and presses Back after,
    as AndroidWorld does (Clipper is not left in front)."""
    from cerebellum_gym.devices.adb import AdbDevice
    from cerebellum_gym.sim.adbd import AdbdServer

    server = AdbdServer(Phone(), port=0).start()
    try:
        device = AdbDevice(server.serial_for_adb, adb_port=adb.port, timeout=5.0, reconnect_timeout=5.0)  # type: ignore[attr-defined]
        try:
            server.phone.start_app(SMS)
            device.set_clipboard("it's 50% off")
            assert server.phone.get_clipboard() == "it's 50% off"
            assert device.get_clipboard() == "it's 50% off"
            assert server.phone.foreground_package() != "ca.zgrs.clipper"
        finally:
            device.close()
    finally:
        server.stop()
