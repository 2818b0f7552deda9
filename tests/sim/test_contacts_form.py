"""The new-contact form: the number's label spinner under the phone field (Mobile by default),
its menu of labels, Back closing only the menu, and Save still saving name and number."""

from __future__ import annotations

from test_vlc import node, tap, texts  # the same tree helpers

from cerebellum_gym.devices.base import KEYCODE_BACK
from cerebellum_gym.sim.apps.contacts import PHONE_LABELS
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.providers import CONTACTS_URI

CONTACTS = "com.google.android.contacts"


def new_contact() -> Phone:
    phone = Phone()
    phone.start_app(CONTACTS)
    tap(phone, content_desc="Create contact")
    return phone


def test_the_label_sits_under_the_number_and_is_mobile_at_first() -> None:
    phone = new_contact()
    spinner = node(phone, resource_id=f"{CONTACTS}:id/phone_type")
    number = node(phone, resource_id=f"{CONTACTS}:id/phone")
    assert (spinner.class_name, spinner.text, spinner.content_desc) == ("android.widget.Spinner", "Mobile", "Mobile Phone")
    assert spinner.clickable and number.bounds[3] <= spinner.bounds[1] <= number.bounds[3] + (number.bounds[3] - number.bounds[1])


def test_choosing_a_label_from_its_menu() -> None:
    phone = new_contact()
    tap(phone, resource_id=f"{CONTACTS}:id/phone_type")
    assert node(phone, resource_id="android:id/alertTitle").text == "Label"
    assert [t for t in texts(phone) if t in PHONE_LABELS] == list(PHONE_LABELS)
    tap(phone, text="Work")
    spinner = node(phone, resource_id=f"{CONTACTS}:id/phone_type")
    assert (spinner.text, spinner.content_desc) == ("Work", "Work Phone")
    tap(phone, resource_id=f"{CONTACTS}:id/phone_type")
    phone.press_key(KEYCODE_BACK)  # closes the menu, not the form
    assert "Create contact" in texts(phone) and node(phone, resource_id=f"{CONTACTS}:id/phone_type").text == "Work"


def test_save_still_saves_the_name_and_number() -> None:
    phone = new_contact()
    for name, value in (("first", "Eva"), ("last", "Lee"), ("phone", "555-123-4567")):
        tap(phone, resource_id=f"{CONTACTS}:id/{name}")
        phone.type_text(value)
    tap(phone, resource_id=f"{CONTACTS}:id/phone_type")
    tap(phone, text="Home")
    tap(phone, text="Save")
    rows = phone.content_query(CONTACTS_URI)
    assert [(r["display_name"], r["number"]) for r in rows] == [("Eva Lee", "555-123-4567")]
