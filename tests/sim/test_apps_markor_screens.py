"""Markor 2.10.9's screens as AndroidWorld's tasks pass through them: the file browser (toolbar,
rows, FAB, bottom navigation), the selection mode, Confirm Delete, the folder picker, the editor
and its view mode, and the other tabs."""

from __future__ import annotations

import time

import numpy as np

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.devices.base import KEYCODE_BACK
from cerebellum_gym.sim.phone import Phone

PKG = "net.gsantner.markor"
ROOT = "/sdcard/Documents/Markor"


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


def find(phone: Phone, *, text: str | None = None, desc: str | None = None, resource_id: str | None = None) -> UINode | None:
    for n in phone.ui_tree().iter():
        if (
            (text is None or n.text == text)
            and (desc is None or n.content_desc == desc)
            and (resource_id is None or n.resource_id == resource_id)
        ):
            return n
    return None


def node(phone: Phone, **kwargs: str) -> UINode:
    found = find(phone, **kwargs)
    assert found is not None, (kwargs, phone.dump_xml())
    return found


def tap(phone: Phone, **kwargs: str) -> None:
    phone.tap(*node(phone, **kwargs).center)


def rows(phone: Phone) -> list[str]:
    return [n.content_desc for n in phone.ui_tree().iter() if n.resource_id == rid("opoc_filesystem_item__root")]


def markor(*files: str, folders: tuple[str, ...] = ()) -> Phone:
    phone = Phone()
    for folder in folders:
        phone.make_dir(f"{ROOT}/{folder}")
    for name in files:
        phone.write_file(f"{ROOT}/{name}", b"text\n")
    phone.start_app(PKG)
    return phone


def test_the_app_opens_on_the_notebook_with_markors_bars() -> None:
    phone = markor("a.md", "b.txt", folders=("Work",))
    assert node(phone, resource_id=rid("toolbar")) is not None
    assert find(phone, text="Markor") is not None
    for item, title in (("action_go_to", "Go to"), ("action_sort", "Sort by"), ("action_search", "Search")):
        assert node(phone, resource_id=rid(item)).content_desc == title
    assert node(phone, resource_id=rid("fab_add_new_item")).content_desc == "Create a new file or folder"
    tabs = [node(phone, resource_id=rid(i)).content_desc for i in ("nav_notebook", "nav_todo", "nav_quicknote", "nav_more")]
    assert tabs == ["Files", "To-Do", "QuickNote", "More"]
    listed = rows(phone)
    assert listed[0] == "Folder .. /storage/emulated/0/Documents"  # the parent first
    assert [d.split(" ")[:2] for d in listed[1:]] == [["Folder", "Work"], ["File", "a.md"], ["File", "b.txt"]]


def test_a_folder_opens_in_place_and_back_goes_up() -> None:
    phone = markor("x.md", folders=("Work",))
    tap(phone, text="Work")
    assert find(phone, text="> Work") is not None
    phone.press_key(KEYCODE_BACK)
    assert find(phone, text="Markor") is not None and phone.foreground_package() == PKG


def test_selection_mode_shows_the_selection_actions_and_delete_confirms() -> None:
    phone = markor("a.md", "b.md")
    phone.long_press(*node(phone, text="a.md").center)
    assert find(phone, resource_id=rid("action_sort")) is None  # Go to, Sort by, Search hide
    assert find(phone, text="Markor") is None  # the title empties
    for item in ("action_favourite", "action_rename_selected_item", "action_info_selected_item", "action_delete_selected_items"):
        assert find(phone, resource_id=rid(item)) is not None
    assert rows(phone)[1].startswith("Selected a.md ")
    tap(phone, text="b.md")  # a tap adds to the selection
    assert find(phone, resource_id=rid("action_rename_selected_item")) is None  # rename is for one
    tap(phone, desc="Delete")
    assert node(phone, resource_id="android:id/alertTitle").text == "Confirm Delete"
    message = node(phone, resource_id="android:id/message").text
    assert message.startswith("Do you really want to delete this Documents?")
    assert "/storage/emulated/0/Documents/Markor/a.md" in message
    tap(phone, text="Cancel")
    assert phone.list_dir(ROOT) == ["a.md", "b.md"]
    tap(phone, desc="Delete")
    tap(phone, text="OK")
    assert phone.list_dir(ROOT) == []
    assert find(phone, text="Markor") is not None  # the selection is gone


def test_back_in_a_folder_goes_up_and_drops_the_selection() -> None:
    phone = markor("W/a.md", folders=("W",))
    tap(phone, text="W")
    phone.long_press(*node(phone, text="a.md").center)
    phone.press_key(KEYCODE_BACK)
    assert find(phone, text="Markor") is not None and find(phone, resource_id=rid("action_sort")) is not None


def test_the_folder_picker_moves_into_the_folder_it_shows() -> None:
    phone = markor("n.md", folders=("A", "A/B"))
    phone.long_press(*node(phone, text="n.md").center)
    tap(phone, desc="More options")
    items = [n.text for n in phone.ui_tree().iter() if n.resource_id == "android:id/title"]
    assert items == ["Move", "Copy", "Create shortcut", "Share"]
    tap(phone, text="Move")
    assert node(phone, resource_id=rid("ui__filesystem_dialog__title")).text == "Move → Markor"
    tap(phone, text="A")
    tap(phone, text="B")
    assert node(phone, resource_id=rid("ui__filesystem_dialog__title")).text == "Move → B"
    tap(phone, text="..")
    assert node(phone, resource_id=rid("ui__filesystem_dialog__title")).text == "Move → A"
    tap(phone, resource_id=rid("ui__filesystem_dialog__button_ok"))
    assert phone.list_dir(f"{ROOT}/A") == ["B", "n.md"]
    assert find(phone, resource_id=rid("action_sort")) is not None  # back on the list, nothing selected


def test_the_editor_has_markors_toolbar_and_view_mode() -> None:
    phone = markor("a.md")
    tap(phone, text="a.md")
    assert node(phone, resource_id=rid("note__activity__text_note_title")).text == "a.md"
    shown = [n.content_desc for n in node(phone, resource_id=rid("toolbar")).iter() if n.content_desc]
    assert shown == ["Navigate up", "Undo", "Redo", "View mode", "Save", "Search", "More options"]
    editor = node(phone, resource_id=rid("document__fragment__edit__highlighting_editor"))
    phone.tap(*editor.center)
    phone.type_text("more")
    tap(phone, desc="View mode")  # saves, and shows the document
    assert find(phone, resource_id=rid("document__fragment__edit__highlighting_editor")) is None
    assert find(phone, desc="Edit mode") is not None
    assert phone.read_file(f"{ROOT}/a.md") == b"text\nmore"
    tap(phone, desc="Edit mode")
    tap(phone, desc="More options")
    assert [n.text for n in phone.ui_tree().iter() if n.resource_id == "android:id/title"] == [
        "File settings",
        "Share",
        "Tools",
        "Info",
        "Reload",
    ]
    phone.press_key(KEYCODE_BACK)
    tap(phone, desc="Navigate up")
    assert find(phone, text="Markor") is not None


def test_the_other_tabs() -> None:
    phone = markor()
    tap(phone, desc="QuickNote")
    assert find(phone, text="QuickNote") is not None
    assert find(phone, resource_id=rid("document__fragment__edit__highlighting_editor")) is not None
    assert find(phone, resource_id=rid("fab_add_new_item")) is None
    tap(phone, desc="More")
    assert find(phone, text="Rate this app") is not None
    tap(phone, desc="Files")
    assert find(phone, resource_id=rid("action_sort")) is not None
    assert phone.list_dir(ROOT) == []  # looking at QuickNote writes nothing


def test_a_huge_note_costs_a_screenful() -> None:
    # Issue 36: the editor lays out only what shows, so a 2 MB note is not 2 MB of text layout.
    phone = Phone()
    phone.write_file(f"{ROOT}/big.md", "\n".join(f"line {i} " + "lorem ipsum " * 8 for i in range(20000)).encode())
    phone.start_app(PKG)
    start = time.perf_counter()
    tap(phone, text="big.md")
    phone.screenshot()
    assert time.perf_counter() - start < 5.0


def test_a_million_character_line_is_drawn_broken_into_rows_down_the_editor() -> None:
    # Issue 36: a one-line note of 1,000,001 characters once raised in the text drawing; Android
    # breaks a word wider than the field between characters, so ink fills the editor downwards.
    phone = Phone()
    phone.write_file(f"{ROOT}/long.md", b"x" * 1_000_001)
    phone.start_app(PKG)
    tap(phone, text="long.md")
    left, top, right, bottom = node(phone, resource_id=rid("document__fragment__edit__highlighting_editor")).bounds
    editor = np.asarray(phone.screenshot())[top:bottom, left:right]
    inked = np.flatnonzero((editor.min(axis=2) < 128).any(axis=1))
    assert inked.size and inked.max() > (bottom - top) * 3 // 4, "only the first rows were drawn"


def test_quicknote_keeps_what_is_written_in_it() -> None:
    phone = markor()
    tap(phone, desc="QuickNote")
    phone.tap(*node(phone, resource_id=rid("document__fragment__edit__highlighting_editor")).center)
    phone.type_text("remember")
    tap(phone, desc="Files")  # leaving the tab saves the note
    assert phone.read_file(f"{ROOT}/QuickNote.md") == b"remember"
    assert any(d.startswith("File QuickNote.md ") for d in rows(phone))


def test_back_at_the_notebook_asks_before_leaving() -> None:
    # MainActivity.onBackPressed: a first Back shows a snackbar; a second within 2 s leaves.
    phone = markor("a.md")
    phone.long_press(*node(phone, text="a.md").center)
    phone.press_key(KEYCODE_BACK)
    assert phone.foreground_package() == PKG
    assert node(phone, resource_id=rid("snackbar_text")).text == "Press 'Back' again to exit"
    assert rows(phone)[1].startswith("Selected a.md ")  # the selection stays
    phone.wait(5)  # the snackbar goes; a Back now asks again
    assert find(phone, resource_id=rid("snackbar_text")) is None
    phone.press_key(KEYCODE_BACK)
    assert phone.foreground_package() == PKG
    phone.press_key(KEYCODE_BACK)
    assert phone.foreground_package() != PKG
