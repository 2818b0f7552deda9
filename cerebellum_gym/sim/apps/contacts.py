"""Contacts: a list, search, create (name, phone and the phone's label) and a contact's page.

Contacts live in the phone's contacts provider (``content://com.android.contacts/data/phones``,
columns ``display_name`` and ``number``), where a judge reads them on a real device too.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.material import dp
from cerebellum_gym.sim.material.components import MaterialIconButton, OverflowButton, TopAppBar
from cerebellum_gym.sim.providers import CONTACTS_URI
from cerebellum_gym.sim.render import font, text_fit
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import BODY_SIZE, PAD, Button, Dialog, IconButton, ListItem, Row, Text, TextField, Widget

_AVATAR_COLORS = ((26, 115, 232), (217, 48, 37), (24, 128, 56), (227, 116, 0), (161, 66, 244), (0, 137, 123))


#: The phone number labels the editor offers (``ContactsContract.CommonDataKinds.Phone`` types,
#: as the app names them), in its menu's order; a new number is a mobile one.
PHONE_LABELS: Final = ("Mobile", "Work", "Home", "Main", "Work Fax", "Home Fax", "Pager", "Other")


def avatar_color(name: str) -> tuple[int, int, int]:
    return _AVATAR_COLORS[sum(map(ord, name)) % len(_AVATAR_COLORS)]


class LabelSpinner(Widget):
    """The phone number's label under the number (a ``Spinner`` showing the chosen label, named
    "<label> Phone" for accessibility, as the editor's type spinner is)."""

    class_name = "android.widget.Spinner"
    default_height = 147

    def __init__(self, label: str, **kwargs: object) -> None:
        super().__init__(text=label, desc=f"{label} Phone", **kwargs)  # type: ignore[arg-type]

    def render_key(self) -> Hashable:
        return (self.text,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        pad = round(PAD * scale)
        size = round(BODY_SIZE * scale)
        shown = text_fit(draw, self.text, size, width // 2)
        draw.text((pad, (height - size) / 2), shown, font=font(size), fill=render.TEXT)
        x = pad + draw.textlength(shown, font=font(size)) + pad // 2
        tip, half = round(height / 2 + 10 * scale), round(14 * scale)
        draw.polygon([(x, tip - half), (x + 2 * half, tip - half), (x + half, tip)], fill=render.TEXT_SECONDARY)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.focusable = True
        return node


class _SaveAction(MaterialIconButton):
    """The form's Save: a text button in the app bar."""

    class_name = "android.widget.Button"

    def __init__(self, *, on_tap: Callable[[], None]) -> None:
        super().__init__("", "check", on_tap=on_tap)
        self.text = "Save"

    def render_key(self) -> Hashable:
        return (self.text,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(14) * scale)
        draw.rounded_rectangle((0, height * 0.2, width, height * 0.8), radius=round(height * 0.3), fill=render.PRIMARY)
        draw.text((width / 2, height / 2), self.text, font=font(size, "medium"), fill=render.ON_PRIMARY, anchor="mm")


class ContactsApp(App):
    package: ClassVar[str] = "com.google.android.contacts"
    activity: ClassVar[str] = "com.android.contacts.activities.PeopleActivity"
    label: ClassVar[str] = "Contacts"
    color: ClassVar[tuple[int, int, int]] = (26, 115, 232)
    clock_dependent: ClassVar[bool] = False

    def contacts(self) -> list[dict[str, str]]:
        rows = self.phone.content_query(CONTACTS_URI)
        return sorted(rows, key=lambda r: (r.get("display_name", "").lower(), r.get("_id", "")))

    def _row(self, contact: dict[str, str]) -> ListItem:
        name = contact.get("display_name", "")
        return ListItem(
            name,
            avatar=name[:1].upper() or "?",
            avatar_color=avatar_color(name),
            on_tap=lambda cid=contact["_id"]: self.push("view", contact_id=cid),
        )

    def screen_main(self, route: Route) -> ScreenSpec:
        contacts = self.contacts()
        # The list shows only the names (and opens contacts by id); its callbacks use no route.
        key = ("main", tuple((c.get("_id", ""), c.get("display_name", "")) for c in contacts))
        return self.reused_spec(key, lambda: self._list_screen(contacts))

    def _list_screen(self, contacts: list[dict[str, str]]) -> ScreenSpec:
        body: list[Widget] = [self._row(c) for c in contacts]
        if not body:
            body = [Text("No contacts yet", size=44, center=True, height=300)]
        return ScreenSpec(
            title="Contacts",
            body=body,
            actions=[IconButton("Search contacts", "⌕", on_tap=lambda: self.push("search", query=""))],
            fab=IconButton(
                "Create contact",
                "+",
                color=(255, 255, 255),
                round_fill=(26, 115, 232),
                on_tap=lambda: self.push("create", first="", last="", phone="", label=PHONE_LABELS[0]),
            ),
        )

    def screen_search(self, route: Route) -> ScreenSpec:
        query = route["query"]
        key = "contacts.search"
        if self.phone.state.focus is None and not route.get("focused_once"):
            # The search box opens with the keyboard up, as the real app does.
            route["focused_once"] = True
            self.phone.state.focus = key
        body: list[Widget] = [
            TextField(
                key,
                query,
                hint="Search contacts",
                on_change=self.field_setter(route, "query"),
                focused=self.phone.state.focus == key,
                rid=f"{self.package}:id/search_view",
            )
        ]
        needle = query.strip().lower()
        if needle:
            matches = [c for c in self.contacts() if needle in c.get("display_name", "").lower() or needle in c.get("number", "")]
            body += [self._row(c) for c in matches] or [Text("No results", size=40)]
        return ScreenSpec(title="Search", up=self.pop, body=body)

    def screen_create(self, route: Route) -> ScreenSpec:
        focus = self.phone.state.focus

        def field(name: str, hint: str) -> TextField:
            key = f"contacts.create.{name}"
            return TextField(
                key,
                str(route.get(name, "")),
                hint=hint,
                on_change=self.field_setter(route, name),
                focused=focus == key,
                rid=f"{self.package}:id/{name}",
            )

        def dropdown(desc: str, on_tap: Callable[[], None]) -> IconButton:
            return IconButton(desc, "arrow_drop_down", on_tap=on_tap, height=147)

        label = route.get("label", PHONE_LABELS[0])
        pick_label = lambda: self.set_dialog("label")  # noqa: E731
        # Google Contacts' new-contact form as AndroidWorld's runs list it: the photo, the name
        # fields, Company, Phone with its label spinner, Email with its own, Significant date.
        body: list[Widget] = [
            Row([IconButton("Add contact photo", "account_circle", on_tap=lambda: None, height=dp(120))], height=dp(120)),
            Button("Add picture", filled=False, on_tap=lambda: None),
            field("first", "First name"),
            field("last", "Last name"),
            field("company", "Company"),
            field("phone", "Phone"),
            Row(
                [LabelSpinner(label, on_tap=pick_label, rid=f"{self.package}:id/phone_type"), dropdown("Show dropdown menu", pick_label)],
                height=147,
            ),
            field("email", "Email"),
            Row([Text("Home", height=147), dropdown("Show dropdown menu", lambda: None)], height=147),
            Row([field("date", "Significant date"), dropdown("Show date picker", lambda: None)], height=168),
            Button("Show more name fields", filled=False, on_tap=lambda: None),
        ]
        dialog = None
        if route.get("dialog") == "label":
            choices = [
                ListItem(name, on_tap=lambda name=name: self._set_label(route, name), selected=name == label) for name in PHONE_LABELS
            ]
            dialog = Dialog("Label", [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None))], body=choices)
        bar = TopAppBar(
            "Create contact",
            navigation=MaterialIconButton("Cancel", "close", on_tap=self.pop),
            actions=[_SaveAction(on_tap=lambda: self._save(route)), OverflowButton(on_tap=lambda: None)],
        )
        return ScreenSpec(title=None, app_bar=bar, body=body, dialog=dialog)

    def _set_label(self, route: Route, label: str) -> None:
        route["label"] = label
        self.set_dialog(None)

    def _save(self, route: Route) -> None:
        name = " ".join(part for part in (route["first"].strip(), route["last"].strip()) if part)
        number = route["phone"].strip()
        if not name and not number:
            self.pop()
            return
        self.phone.content_insert(CONTACTS_URI, {"display_name": name or number, "number": number})
        new_id = self.phone.content_query(CONTACTS_URI)[-1]["_id"]
        self.stack.pop()
        self.push("view", contact_id=new_id)

    def screen_view(self, route: Route) -> ScreenSpec:
        rows = self.phone.content_query(CONTACTS_URI, where={"_id": route["contact_id"]})
        if not rows:
            return ScreenSpec(title="", up=self.pop, body=[Text("Contact not found", size=44)])
        contact = rows[0]
        name = contact.get("display_name", "")
        body: list[Widget] = [
            Text(name, size=72, center=True, height=260, rid=f"{self.package}:id/large_title"),
            ListItem(contact.get("number", ""), "Mobile", on_tap=None, rid=f"{self.package}:id/phone"),
        ]
        return ScreenSpec(title="", up=self.pop, body=body)
