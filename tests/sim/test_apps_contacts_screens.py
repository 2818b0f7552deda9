"""Google Contacts' list, search and contact page: the search bar (an EditText showing its hint),
the empty state, the Create contact FAB and the three tabs; the search view with Back and Clear
text; a saved contact's page with Edit contact, the verbs and the number, and editing it."""

from __future__ import annotations

from test_vlc import node, tap, texts  # the same tree helpers

from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.providers import CONTACTS_URI

CONTACTS = "com.google.android.contacts"


def rid(name: str) -> str:
    return f"{CONTACTS}:id/{name}"


def descs(phone: Phone) -> list[str]:
    return [n.content_desc for n in phone.ui_tree().iter() if n.content_desc]


def test_empty_list_search_bar_fab_and_tabs() -> None:
    phone = Phone()
    phone.start_app(CONTACTS)
    bar = node(phone, resource_id=rid("open_search_bar"))
    assert (bar.class_name, bar.text, bar.clickable) == ("android.widget.EditText", "Search contacts", True)
    assert node(phone, resource_id="android:id/text1").text == "No contacts yet"
    fab = node(phone, resource_id=rid("floating_action_button"))
    assert (fab.class_name, fab.content_desc) == ("android.widget.ImageButton", "Create contact")
    tabs = [node(phone, resource_id=rid(n)) for n in ("contacts", "highlights", "nav_manage")]
    assert [t.content_desc for t in tabs] == ["Contacts", "Highlights", "Fix & manage"] and tabs[0].selected
    tap(phone, content_desc="Fix & manage")
    assert {"Merge and fix", "Import from file", "Bin"} <= set(texts(phone)) and "Create contact" not in descs(phone)


def test_rows_name_contacts_and_search_finds_them() -> None:
    phone = Phone()
    for name in ("Ana Lima", "Bo Chen"):
        phone.content_insert(CONTACTS_URI, {"display_name": name, "number": "555"})
    phone.start_app(CONTACTS)
    names = [n.text for n in phone.ui_tree().iter() if n.resource_id == rid("cliv_name_textview")]
    assert names == ["Ana Lima", "Bo Chen"] and "No contacts yet" not in texts(phone)
    tap(phone, resource_id=rid("open_search_bar"))
    field = node(phone, resource_id=rid("open_search_view_edit_text"))
    assert field.text == "Search contacts" and "Back" in descs(phone) and "Clear text" not in descs(phone)
    phone.type_text("bo")
    names = [n.text for n in phone.ui_tree().iter() if n.resource_id == rid("cliv_name_textview")]
    assert names == ["Bo Chen"] and "Clear text" in descs(phone)
    tap(phone, content_desc="Back")
    assert node(phone, resource_id=rid("open_search_bar")).text == "Search contacts"


def test_saved_contact_page_and_edit() -> None:
    phone = Phone()
    phone.start_app(CONTACTS)
    tap(phone, content_desc="Create contact")
    for hint, value in (("First name", "Hugo"), ("Last name", "Pereira"), ("Phone", "+13920741751")):
        tap(phone, text=hint)
        phone.type_text(value)
    tap(phone, resource_id=rid("toolbar_button"))
    assert node(phone, resource_id=rid("large_title")).text == "Hugo Pereira"
    assert node(phone, resource_id=rid("header")).text == "+13920741751"
    assert node(phone, resource_id=rid("verb_video")).content_desc == "Set up Duo video calling"
    assert "Call Mobile +13920741751" in descs(phone)
    tap(phone, content_desc="Edit contact")
    assert "Edit contact" in texts(phone) and node(phone, resource_id=rid("first")).text == "Hugo"
    tap(phone, resource_id=rid("last"))
    phone.type_text("s")
    tap(phone, resource_id=rid("toolbar_button"))
    assert node(phone, resource_id=rid("large_title")).text == "Hugo Pereiras"
    assert [r["display_name"] for r in phone.content_query(CONTACTS_URI)] == ["Hugo Pereiras"]
