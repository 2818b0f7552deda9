"""Contacts: a list, search, create (name, phone and the phone's label) and a contact's page.

Contacts live in the phone's contacts provider (``content://com.android.contacts/data/phones``,
columns ``display_name`` and ``number``), where a judge reads them on a real device too.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import lru_cache, partial
from typing import ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.material import dp
from cerebellum_gym.sim.material.components import (
    ActionMenuItem,
    BottomNavigation,
    Fab,
    MaterialIconButton,
    MaterialListItem,
    NavItem,
    OverflowButton,
    TopAppBar,
)
from cerebellum_gym.sim.providers import CONTACTS_URI
from cerebellum_gym.sim.render import font, text_fit
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import BODY_SIZE, PAD, Button, Dialog, IconButton, ListItem, Row, Text, TextField, Widget

_AVATAR_COLORS = ((26, 115, 232), (217, 48, 37), (24, 128, 56), (227, 116, 0), (161, 66, 244), (0, 137, 123))


#: The phone number labels the editor offers (``ContactsContract.CommonDataKinds.Phone`` types,
#: as the app names them), in its menu's order; a new number is a mobile one.
PHONE_LABELS: Final = ("Mobile", "Work", "Home", "Main", "Work Fax", "Home Fax", "Pager", "Other")


@lru_cache(maxsize=256)  # a name of megabytes is summed once, not on every paint
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


class _EmailLabel(LabelSpinner):
    """The email's label spinner (its description is not known, so it has none)."""

    def __init__(self, label: str, **kwargs: object) -> None:
        super().__init__(label, **kwargs)
        self.desc = ""


class _SaveAction(MaterialIconButton):
    """The form's Save: a text button in the app bar."""

    class_name = "android.widget.Button"

    def __init__(self, *, on_tap: Callable[[], None], rid: str = "") -> None:
        super().__init__("", "check", on_tap=on_tap, rid=rid)
        self.text = "Save"

    def render_key(self) -> Hashable:
        return (self.text,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(14) * scale)
        draw.rounded_rectangle((0, height * 0.2, width, height * 0.8), radius=round(height * 0.3), fill=render.PRIMARY)
        draw.text((width / 2, height / 2), self.text, font=font(size, "medium"), fill=render.ON_PRIMARY, anchor="mm")


class _SearchBar(Widget):
    """Material's ``SearchBar`` (``open_search_bar``): it reports itself as an ``EditText``
    whose text is its hint while empty, over its ``open_search_bar_text_view``."""

    class_name = "android.widget.EditText"
    default_height = dp(72)

    def __init__(self, hint: str, *, package: str, **kwargs: object) -> None:
        super().__init__(text=hint, rid=f"{package}:id/open_search_bar", **kwargs)  # type: ignore[arg-type]
        self.package = package

    def render_key(self) -> Hashable:
        return (self.text,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        pad = round(dp(16) * scale)
        top, bottom = round(dp(8) * scale), height - round(dp(8) * scale)
        draw.rounded_rectangle((pad, top, width - pad, bottom), radius=(bottom - top) // 2, fill=(233, 238, 246))
        size = round(dp(16) * scale)
        icon = round(dp(24) * scale)
        x = pad + round(dp(16) * scale)
        render.draw_icon(draw, "search", (x, (height - icon) / 2, x + icon, (height + icon) / 2), render.TEXT_SECONDARY)
        draw.text((x + icon + round(dp(16) * scale), height / 2), self.text, font=font(size), fill=render.TEXT_SECONDARY, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        node.children = [
            UINode(
                "android.widget.TextView",
                (left + dp(72), top + dp(16), right - dp(72), bottom - dp(16)),
                text=self.text,
                resource_id=f"{package}:id/open_search_bar_text_view",
                package=package,
            )
        ]
        return node


class _ContactRow(ListItem):
    """A row of the list: the avatar letter and the name (``cliv_name_textview``)."""

    def encode(self, bounds: Bounds, package: str) -> UINode:
        row = super().encode(bounds, package)
        row.children[0].resource_id = f"{package}:id/cliv_name_textview"
        return row


class _Avatar(Widget):
    """The contact's photo: its initial on a coloured disc, an image (no text for the tree)."""

    class_name = "android.widget.ImageView"
    opaque = True

    def __init__(self, name: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.name = name

    def render_key(self) -> Hashable:
        return (self.name,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        d = round(dp(96) * scale)
        x, y = (width - d) / 2, (height - d) / 2
        draw.ellipse((x, y, x + d, y + d), fill=avatar_color(self.name))
        draw.text((width / 2, height / 2), self.name[:1].upper() or "?", font=font(round(d * 0.5)), fill=render.ON_PRIMARY, anchor="mm")


class _NumberRow(Widget):
    """The number under Contact info: a row described "Call Mobile <number>" with the number
    (``header``) over its label."""

    class_name = "android.widget.LinearLayout"
    default_height = dp(72)

    def __init__(self, number: str, *, package: str, **kwargs: object) -> None:
        super().__init__(desc=f"Call Mobile {number}", **kwargs)  # type: ignore[arg-type]
        self.number = number
        self.package = package

    def render_key(self) -> Hashable:
        return (self.number,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        left = round(dp(72) * scale)
        icon = round(dp(24) * scale)
        x = round(dp(16) * scale)
        render.draw_icon(draw, "call", (x, (height - icon) / 2, x + icon, (height + icon) / 2), render.TEXT_SECONDARY)
        draw.text((left, height / 2 - round(dp(10) * scale)), self.number, font=font(round(dp(16) * scale)), fill=render.TEXT, anchor="lm")
        draw.text(
            (left, height / 2 + round(dp(12) * scale)), "Mobile", font=font(round(dp(14) * scale)), fill=render.TEXT_SECONDARY, anchor="lm"
        )

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        mid = (top + bottom) // 2
        node.children = [
            UINode(
                "android.widget.TextView",
                (left + dp(72), top + dp(8), right - dp(16), mid),
                text=self.number,
                resource_id=f"{package}:id/header",
                package=package,
            ),
            UINode(
                "android.widget.TextView", (left + dp(72), mid, right - dp(16), bottom - dp(8)), text="Mobile", package=package, index=1
            ),
        ]
        return node


#: The bottom navigation's destinations: (label, icon, id).
TABS: Final = (("Contacts", "person", "contacts"), ("Highlights", "star", "highlights"), ("Fix & manage", "build", "nav_manage"))
#: What the Fix & manage tab lists.
MANAGE_ITEMS: Final = ("Merge and fix", "Restore contacts", "Import from file", "Bin", "Settings", "Blocked numbers")


@register_app
class ContactsApp(App):
    package: ClassVar[str] = "com.google.android.contacts"
    activity: ClassVar[str] = "com.android.contacts.activities.PeopleActivity"
    label: ClassVar[str] = "Contacts"
    color: ClassVar[tuple[int, int, int]] = (26, 115, 232)
    clock_dependent: ClassVar[bool] = False

    def rid(self, name: str) -> str:
        return f"{self.package}:id/{name}"

    def initial_data(self) -> dict[str, object]:
        return {"tab": "Contacts"}

    def contacts(self) -> list[dict[str, str]]:
        rows = self.phone.content_query(CONTACTS_URI)
        return sorted(rows, key=lambda r: (r.get("display_name", "").lower(), r.get("_id", "")))

    def _row(self, contact: dict[str, str]) -> ListItem:
        name = contact.get("display_name", "")
        return _ContactRow(
            name,
            avatar=name[:1].upper() or "?",
            avatar_color=avatar_color(name),
            on_tap=lambda cid=contact["_id"]: self.push("view", contact_id=cid),
        )

    def _switch(self, tab: str) -> None:
        self.data["tab"] = tab
        self.reset_to("main")

    def _new_contact(self) -> None:
        self.push("create", first="", last="", phone="", label=PHONE_LABELS[0])

    def screen_main(self, route: Route) -> ScreenSpec:
        contacts = self.contacts()
        tab = str(self.data.get("tab", "Contacts"))
        # The list shows only the names (and opens contacts by id); its callbacks use no route.
        key = ("main", tab, tuple((c.get("_id", ""), c.get("display_name", "")) for c in contacts))
        return self.reused_spec(key, lambda: self._list_screen(tab, contacts))

    def _list_screen(self, tab: str, contacts: list[dict[str, str]]) -> ScreenSpec:
        body: list[Widget] = [_SearchBar("Search contacts", package=self.package, on_tap=lambda: self.push("search", query=""))]
        if tab == "Contacts":
            body += [self._row(c) for c in contacts]
            if not contacts:
                body.append(Text("No contacts yet", size=44, center=True, height=600, rid="android:id/text1"))
        elif tab == "Fix & manage":
            body += [MaterialListItem(item, on_tap=lambda: None) for item in MANAGE_ITEMS]
        nav = BottomNavigation(
            [NavItem(label, icon, on_tap=partial(self._switch, label)) for label, icon, _ in TABS],
            [t[0] for t in TABS].index(tab),
            m3=True,
        )
        for item, (_, _, name) in zip(nav.items, TABS, strict=True):
            item.rid = self.rid(name)
        fab = Fab("Create contact", "add", m3=True, on_tap=self._new_contact, rid=self.rid("floating_action_button"))
        return ScreenSpec(title=None, body=body, fab=fab if tab == "Contacts" else None, bottom=[nav], background=render.SURFACE)

    def screen_search(self, route: Route) -> ScreenSpec:
        """Material's ``SearchView`` over the list: Back, the query field, Clear text once
        something is typed, and the matches below (``search_result_list``)."""
        query = route["query"]
        key = "contacts.search"
        if self.phone.state.focus is None and not route.get("focused_once"):
            # The search box opens with the keyboard up, as the real app does.
            route["focused_once"] = True
            self.phone.state.focus = key
        field = TextField(
            key,
            query,
            hint="Search contacts",
            on_change=self.field_setter(route, "query"),
            focused=self.phone.state.focus == key,
            rid=self.rid("open_search_view_edit_text"),
        )
        actions: list[MaterialIconButton] = []
        if query:
            actions.append(
                MaterialIconButton(
                    "Clear text", "close", on_tap=lambda: route.update(query=""), rid=self.rid("open_search_view_clear_button")
                )
            )
        bar = TopAppBar(
            "",
            navigation=MaterialIconButton("Back", "arrow_back", on_tap=self.pop),
            actions=actions,
            rid=self.rid("open_search_view_toolbar"),
        )
        body: list[Widget] = [field]
        needle = query.strip().lower()
        if needle:
            matches = [c for c in self.contacts() if needle in c.get("display_name", "").lower() or needle in c.get("number", "")]
            body += [self._row(c) for c in matches] or [Text("No results", size=40)]
        return ScreenSpec(title=None, app_bar=bar, body=body, list_id="search_result_list")

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
            # The email's label, a spinner like the number's (AndroidWorld's runs list "Home" as
            # clickable); its menu is not modelled.
            Row([_EmailLabel("Home", on_tap=lambda: None), dropdown("Show dropdown menu", lambda: None)], height=147),
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
            "Edit contact" if route.get("contact_id") else "Create contact",
            navigation=MaterialIconButton("Cancel", "close", on_tap=self.pop),
            actions=[_SaveAction(on_tap=lambda: self._save(route), rid=self.rid("toolbar_button")), OverflowButton(on_tap=lambda: None)],
        )
        return ScreenSpec(
            title=None, app_bar=bar, body=body, dialog=dialog, list_id="contact_editor_scroller", list_class="android.widget.ScrollView"
        )

    def _set_label(self, route: Route, label: str) -> None:
        route["label"] = label
        self.set_dialog(None)

    def _save(self, route: Route) -> None:
        name = " ".join(part for part in (route["first"].strip(), route["last"].strip()) if part)
        number = route["phone"].strip()
        if not name and not number:
            self.pop()
            return
        if route.get("contact_id"):
            self.phone.content_delete(CONTACTS_URI, where={"_id": route["contact_id"]})
        self.phone.content_insert(CONTACTS_URI, {"display_name": name or number, "number": number})
        new_id = self.phone.content_query(CONTACTS_URI)[-1]["_id"]
        self.stack.pop()
        self.push("view", contact_id=new_id)

    def screen_view(self, route: Route) -> ScreenSpec:
        """A contact's page: back, favourite, Edit contact and More options in the app bar; the
        name (``large_title``), the Call / Text / Video verbs and the number under Contact info."""
        rows = self.phone.content_query(CONTACTS_URI, where={"_id": route["contact_id"]})
        if not rows:
            return ScreenSpec(title="", up=self.pop, body=[Text("Contact not found", size=44)])
        contact = rows[0]
        name = contact.get("display_name", "")
        number = contact.get("number", "")
        bar = TopAppBar(
            "",
            navigation=MaterialIconButton("Navigate up", "arrow_back", on_tap=self.pop, rid=self.rid("nav_back_icon")),
            actions=[
                ActionMenuItem("Add to favorites", "star_border", on_tap=lambda: None, rid=self.rid("menu_star")),
                ActionMenuItem("Edit contact", "edit", on_tap=lambda: self._edit(contact), rid=self.rid("menu_insert_or_edit")),
                OverflowButton(on_tap=lambda: None),
            ],
        )
        # The verbs are clickable TextViews (verb_call, verb_text, verb_video; video calling
        # offers "Set up" until Meet is set up).
        verbs = Row(
            [
                Text("Call", size=36, center=True, on_tap=lambda: None, height=dp(72), rid=self.rid("verb_call")),
                Text("Text", size=36, center=True, on_tap=lambda: None, height=dp(72), rid=self.rid("verb_text")),
                Text(
                    "Set up",
                    size=36,
                    center=True,
                    on_tap=lambda: None,
                    height=dp(72),
                    rid=self.rid("verb_video"),
                    desc="Set up Duo video calling",
                ),
            ],
            height=dp(72),
        )
        body: list[Widget] = [
            _Avatar(name, height=dp(120)),
            Text(name, size=72, center=True, height=dp(72), rid=self.rid("large_title")),
            verbs,
            Text("Contact info", size=44, bold=True, height=dp(56)),
            _NumberRow(number, on_tap=lambda: None, package=self.package),
        ]
        return ScreenSpec(title=None, app_bar=bar, body=body, background=render.SURFACE)

    def _edit(self, contact: dict[str, str]) -> None:
        first, _, last = contact.get("display_name", "").partition(" ")
        self.push("create", first=first, last=last, phone=contact.get("number", ""), label=PHONE_LABELS[0], contact_id=contact["_id"])
