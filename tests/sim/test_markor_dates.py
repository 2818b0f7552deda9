"""Markor's list (each row dated, by name or by date, newest first) and the new-file dialog
(name + the extension its Type sets, as Markor 2.10.9 names the file)."""

from __future__ import annotations

from cerebellum_gym.sim.phone import Phone

ROOT = "/sdcard/Documents/Markor"
PACKAGE = "net.gsantner.markor"


def tap(phone: Phone, *, text: str | None = None, desc: str | None = None) -> None:
    node = phone.ui_tree().find(text=text) if text is not None else phone.ui_tree().find(content_desc=desc)
    assert node is not None, phone.dump_xml()
    left, top, right, bottom = node.bounds
    phone.tap((left + right) // 2, (top + bottom) // 2)


def open_markor() -> Phone:
    phone = Phone()
    phone.start_app(PACKAGE)  # AndroidWorld's set-up has passed the intro
    return phone


def listed(phone: Phone) -> list[str]:
    tree = phone.ui_tree()
    return [n.text for n in tree.iter() if n.text.endswith((".md", ".txt"))]


def test_sort_by_date_lists_the_newest_first_with_its_date() -> None:
    phone = open_markor()
    for name, minutes in (("b_old.md", 0), ("c_newer.txt", 300), ("a_newest.md", 100)):
        phone.wait(60 * minutes)
        phone.write_file(f"{ROOT}/{name}", b"text\n")
    # Written at +0, +300 and +400 minutes from the start (Oct 15, 2023 15:34 UTC).
    phone.invalidate()
    assert listed(phone) == ["a_newest.md", "b_old.md", "c_newer.txt"]  # by name
    xml = phone.dump_xml()
    assert "10/15/2023, 10:14 PM" in xml and "10/15/2023, 3:34 PM" in xml  # each row shows its change time
    tap(phone, desc="Sort by")
    tap(phone, text="Date")
    assert listed(phone) == ["a_newest.md", "c_newer.txt", "b_old.md"]
    tap(phone, desc="Sort by")
    tap(phone, text="Name")
    assert listed(phone) == ["a_newest.md", "b_old.md", "c_newer.txt"]


def test_a_new_note_is_named_name_plus_the_types_extension() -> None:
    # NewFileDialog: the file is the typed name + the extension field, which the Type sets.
    phone = open_markor()
    for choice, typed, made in (
        (None, "plain", "plain.md"),
        ("Plain Text", "notes", "notes.txt"),
        ("None", "Ab12Cd34", "Ab12Cd34"),
        ("Markdown", "kept.md", "kept.md.md"),  # the name is taken as typed
    ):
        tap(phone, desc="Create a new file or folder")
        if choice is not None:
            spinner = phone.ui_tree().find(resource_id=f"{PACKAGE}:id/new_file_dialog__type")
            assert spinner is not None
            left, top, right, bottom = spinner.bounds
            phone.tap((left + right) // 2, (top + bottom) // 2)  # the Type list drops down
            tap(phone, text=choice)
        phone.type_text(typed)
        tap(phone, text="OK")
        phone.press_key(4)  # back to the list (the editor saves the empty note)
        assert made in phone.list_dir(ROOT), phone.list_dir(ROOT)


def test_the_new_file_dialog_is_markors() -> None:
    phone = open_markor()
    tap(phone, desc="Create a new file or folder")
    tree = phone.ui_tree()
    ids = {n.resource_id for n in tree.iter()}
    for name in ("new_file_dialog__name", "new_file_dialog__ext", "new_file_dialog__type", "new_file_dialog__template"):
        assert f"{PACKAGE}:id/{name}" in ids
    buttons = [n.text for n in tree.iter() if n.resource_id in ("android:id/button1", "android:id/button2", "android:id/button3")]
    assert buttons == ["Folder", "Cancel", "OK"]
    ext = tree.find(resource_id=f"{PACKAGE}:id/new_file_dialog__ext")
    assert ext is not None and ext.text == ".md"
    tap(phone, text="Cancel")
    assert phone.ui_tree().find(resource_id=f"{PACKAGE}:id/new_file_dialog__name") is None
    assert phone.list_dir(ROOT) == []
