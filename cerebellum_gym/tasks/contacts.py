"""Contacts tasks, judged on the contacts provider as AndroidWorld does."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.common import fuzzy_match
from cerebellum_gym.tasks.oracle import ScriptedOracle, by_id, find, label_for
from cerebellum_gym.tasks.registry import register_task

CONTACTS_PACKAGE = "com.google.android.contacts"
CONTACTS_URI = "content://com.android.contacts/data/phones"

GIVEN_NAMES = (
    "Alice", "Amara", "Bruno", "Chen", "Dalia", "Emeka", "Farah", "Gustavo", "Hana", "Ivan",
    "Jonas", "Kavya", "Leila", "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sven",
    "Tariq", "Uma", "Viktor", "Wen", "Yusuf", "Zoe",
)  # fmt: skip
FAMILY_NAMES = (
    "Abara", "Baptiste", "Castillo", "Dubois", "Eriksen", "Fujita", "Gallo", "Horvat", "Iyer",
    "Jansen", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov", "Quispe",
    "Rossi", "Schmidt", "Tanaka", "Ueda", "Varga", "Weber", "Xu", "Yilmaz", "Zhou",
)  # fmt: skip


def random_name(rng: np.random.Generator) -> tuple[str, str]:
    return str(rng.choice(GIVEN_NAMES)), str(rng.choice(FAMILY_NAMES))


def random_number(rng: np.random.Generator) -> str:
    return "+1" + "".join(str(d) for d in rng.integers(0, 10, size=10))


def digits(number: str) -> str:
    """Phone numbers compare on digits only (``+1 (555) 010-0134`` == ``15550100134``)."""
    return re.sub(r"\D", "", number)


def seed_contacts(device: Device, rng: np.random.Generator, count: int, avoid: set[str]) -> list[dict[str, str]]:
    """Clear the contacts provider and add ``count`` random contacts whose names avoid ``avoid``."""
    device.content_delete(CONTACTS_URI)
    added: list[dict[str, str]] = []
    while len(added) < count:
        first, last = random_name(rng)
        name = f"{first} {last}"
        if name in avoid or any(c["display_name"] == name for c in added):
            continue
        row = {"display_name": name, "number": random_number(rng)}
        device.content_insert(CONTACTS_URI, row)
        added.append(row)
    return added


class AddContactOracle(ScriptedOracle):
    def __init__(self, first: str, last: str, number: str) -> None:
        super().__init__()
        self.values = {"first": first, "last": last, "phone": number}
        self.hints = {"first": "First name", "last": "Last name", "phone": "Phone"}

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, CONTACTS_PACKAGE, "Contacts")
        if step is not None:
            return step
        if screen.root.find(text="Create contact") is not None:  # the form's title
            for name in ("first", "last", "phone"):
                hit = find(screen, by_id(f":id/{name}"))
                if hit is None:
                    continue
                label, node = hit
                if node.text == self.hints[name]:  # empty fields show their hint
                    return self.type_into(screen, node, label, self.values[name])
            save = label_for(screen, text="Save")
            return self.tap(save) if save else self.scroll_search(screen)
        full = f"{self.values['first']} {self.values['last']}"
        if screen.root.find(text=full) is not None and screen.root.find(text=self.values["phone"]) is not None:
            return "F"
        create = label_for(screen, desc="Create contact")
        if create is not None:
            return self.tap(create)
        return "B"


@register_task
class ContactsAddContact(Task):
    mirrors = "ContactsAddContact"
    app: ClassVar[str] = "Contacts"
    family: ClassVar[str] = "contacts"
    complexity: ClassVar[float] = 1.2
    template = "Create a new contact for {name}. Their number is {number}."
    judge = "The contacts provider has a contact with exactly that display name and (digit-normalised) number."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        name = awdata.random_person_name(rng)
        first, last = name.split(" ", 1)
        return {"first": first, "last": last, "name": name, "number": awdata.random_phone_number(rng)}

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        first, _, last = str(params["name"]).partition(" ")
        return {**params, "first": first, "last": last}

    def initialize(self, device: Device) -> None:
        device.content_delete(CONTACTS_URI)  # AndroidWorld starts from an empty address book

    def progress(self, device: Device, answer: str | None = None) -> float:
        want = digits(self.params["number"])
        for row in device.content_query(CONTACTS_URI, projection=("display_name", "number")):
            if row["display_name"] == self.params["name"] and digits(row["number"]) == want:
                return 1.0
        return 0.0

    def text_candidates(self) -> list[str]:
        return [self.params["first"], self.params["last"], self.params["number"]]

    def oracle(self) -> Oracle:
        return AddContactOracle(self.params["first"], self.params["last"], self.params["number"])


class LookupOracle(ScriptedOracle):
    """Open the contact's page and answer with the number it shows."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, CONTACTS_PACKAGE, "Contacts")
        if step is not None:
            return step
        title = screen.root.find(resource_id=f"{CONTACTS_PACKAGE}:id/large_title")
        if title is not None:
            if title.text != self.name:
                return "B"
            number = screen.root.find(resource_id=f"{CONTACTS_PACKAGE}:id/header")
            shown = [number.text] if number is not None and number.text else []
            return f"F {shown[0]}" if shown else "B"
        label = label_for(screen, text=self.name)
        return self.tap(label) if label else self.scroll_search(screen)


@register_task
class ContactsLookupNumber(Task):
    app: ClassVar[str] = "Contacts"
    family: ClassVar[str] = "contacts"
    complexity: ClassVar[float] = 1.0
    answer: ClassVar[bool] = True
    template = "What is the phone number of {name} in my contacts? Answer with the number only."
    judge = "The answer's digits equal the contact's number's digits (formatting ignored)."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        first, last = random_name(rng)
        return {"name": f"{first} {last}", "number": random_number(rng), "noise_seed": int(rng.integers(2**31))}

    def initialize(self, device: Device) -> None:
        seed_contacts(device, np.random.default_rng(self.params["noise_seed"]), 5, {self.params["name"]})
        device.content_insert(CONTACTS_URI, {"display_name": self.params["name"], "number": self.params["number"]})

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if answer is not None and digits(answer) == digits(self.params["number"]) else 0.0

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        return LookupOracle(self.params["name"])


#: AndroidWorld's draws for ``ContactsNewContactDraft`` (``generate_random_params``).
DRAFT_FIRST_NAMES = ("Alice", "Bob", "Charlie", "David", "Eva", "Frank", "Grace", "Hannah", "Ivan", "Jack")
DRAFT_LAST_NAMES = ("Johnson", "Smith", "Brown", "Taylor", "Adams", "Wilson", "Lee", "White", "Harris", "Clark")
DRAFT_PHONE_LABELS = ("Home", "Work")  # never "Mobile": the form's default, it shows before any choice


class DraftOracle(AddContactOracle):
    """Fill the new-contact form, choose the number's label, and stop without saving."""

    def __init__(self, first: str, last: str, number: str, label: str) -> None:
        super().__init__(first, last, number)
        self.label = label

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, CONTACTS_PACKAGE, "Contacts")
        if step is not None:
            return step
        if screen.root.find(resource_id="android:id/alertTitle", text="Label") is not None:  # the label menu
            choice = label_for(screen, text=self.label)
            return self.tap(choice) if choice else self.scroll_search(screen)
        if screen.root.find(text="Create contact") is None:
            create = label_for(screen, desc="Create contact")
            return self.tap(create) if create is not None else "B"
        for name in ("first", "last", "phone"):
            hit = find(screen, by_id(f":id/{name}"))
            if hit is not None and hit[1].text == self.hints[name]:  # still empty: shows its hint
                return self.type_into(screen, hit[1], hit[0], self.values[name])
        spinner = find(screen, by_id(":id/phone_type"))
        if spinner is None:
            return self.scroll_search(screen)
        if spinner[1].text != self.label:
            return self.tap(spinner[0])
        return "F"


@register_task
class ContactsNewContactDraft(Task):
    mirrors = "ContactsNewContactDraft"
    app: ClassVar[str] = "Contacts"
    family: ClassVar[str] = "contacts"
    complexity: ClassVar[float] = 1.2
    template = (
        "Go to the new contact screen and enter the following details: First Name: {first}, Last Name: {last},"
        " Phone: {phone}, Phone Label: {phone_label}. Do NOT hit save."
    )
    judge = (
        "The screen shows the new-contact form with the first and last name (fuzzy), the phone (digits) and"
        " the number's label, as AndroidWorld reads its accessibility forest; what is saved is not read."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        phone = f"{rng.integers(100, 1000)}-{rng.integers(100, 1000)}-{rng.integers(1000, 10000)}"
        return {
            "first": str(rng.choice(DRAFT_FIRST_NAMES)),
            "last": str(rng.choice(DRAFT_LAST_NAMES)),
            "phone": phone,
            "phone_label": str(rng.choice(DRAFT_PHONE_LABELS)),
        }

    def initialize(self, device: Device) -> None:
        device.content_delete(CONTACTS_URI)  # nothing to find or open: the form starts empty

    def progress(self, device: Device, answer: str | None = None) -> float:
        nodes = list(device.ui_tree().iter())
        if not any(n.text == "Create contact" for n in nodes):
            return 0.0  # not the form (a saved contact's page shows the same texts)
        texts = {n.resource_id.rpartition("/")[2]: n.text for n in nodes if n.resource_id}
        p = self.params
        label = p["phone_label"]
        filled = (
            fuzzy_match(texts.get("first", ""), p["first"])
            and fuzzy_match(texts.get("last", ""), p["last"])
            and digits(texts.get("phone", "")) == digits(p["phone"])
        )
        labelled = any(n.text == label and n.content_desc == f"{label} Phone" for n in nodes)
        return 1.0 if filled and labelled else 0.0

    def text_candidates(self) -> list[str]:
        return [self.params["first"], self.params["last"], self.params["phone"]]

    def oracle(self) -> Oracle:
        p = self.params
        return DraftOracle(p["first"], p["last"], p["phone"], p["phone_label"])
