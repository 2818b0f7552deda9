"""Markor's list sorted by date (newest first, each file dated) and the new-file dialog's type
choice (Markdown, plain text, or no extension)."""

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
    phone.start_app(PACKAGE)
    tap(phone, text="Skip")
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
    tap(phone, desc="Sort by")
    tap(phone, text="Date")
    assert listed(phone) == ["a_newest.md", "c_newer.txt", "b_old.md"]
    xml = phone.dump_xml()
    assert "Oct 15, 2023 22:14" in xml and "Oct 15, 2023 15:34" in xml  # dated rows
    tap(phone, desc="Sort by")
    tap(phone, text="Name")
    assert listed(phone) == ["a_newest.md", "b_old.md", "c_newer.txt"]


def test_a_new_note_takes_the_chosen_extension_or_none() -> None:
    phone = open_markor()
    for choice, typed, made in (
        (None, "plain", "plain.md"),
        ("Plain text (.txt)", "notes", "notes.txt"),
        ("No extension", "Ab12Cd34", "Ab12Cd34"),
        ("No extension", "kept.md", "kept.md"),
    ):
        tap(phone, desc="Create a new file or folder")
        if choice is not None:
            tap(phone, text=choice)
        phone.type_text(typed)
        tap(phone, text="OK")
        phone.press_key(4)  # back to the list (the editor saves the empty note)
        assert made in phone.list_dir(ROOT), phone.list_dir(ROOT)
