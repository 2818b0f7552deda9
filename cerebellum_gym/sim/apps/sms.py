"""Simple SMS Messenger (versionCode 85, tag 5.19.3): the conversation list under the
Simple-Commons search bar, a new conversation, a thread with its compose bar, and the
message selection mode (copy, share, delete, forward...).

Messages live in the phone's SMS provider (``content://sms``; ``type`` 1 received, 2 sent,
``date`` in milliseconds), where AndroidWorld's SMS judges read them.

The screens follow the app's layouts at 5.19.3: ``activity_main.xml`` (``MySearchMenu``
``main_menu``, ``conversations_list`` of ``item_conversation.xml``, ``conversations_fab``),
``activity_new_conversation.xml`` and ``activity_thread.xml`` with
``layout_thread_send_message_holder.xml``; menus ``menu_main.xml``, ``menu_thread.xml`` and
``cab_thread.xml``; strings from ``res/values/strings.xml``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Hashable, Sequence
from datetime import datetime, timezone
from typing import ClassVar

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render, telephony
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.apps.contacts import avatar_color
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.material import dp
from cerebellum_gym.sim.material.components import ActionMenuItem, MaterialIconButton, OverflowButton, TopAppBar
from cerebellum_gym.sim.material.simple import SIMPLE_THEME, MenuEntry, SearchMenu, SimpleFab, SimpleToolbar, child, plain
from cerebellum_gym.sim.providers import CONTACTS_URI, SMS_URI
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Callback, Dialog, Text, Widget, wrap_lines

BLUE = (21, 101, 192)
PKG = "com.simplemobiletools.smsmessenger"
ID = f"{PKG}:id/"
TEXT = SIMPLE_THEME.on_surface
MUTED = (150, 150, 150)
#: The main screen's overflow (``menu_main.xml``: the recycle bin is off by default, archiving on).
MAIN_OVERFLOW = ("Show archived conversations", "More apps from us")
#: A one-person thread's overflow (``menu_thread.xml``, ``ThreadActivity.refreshMenuItems``;
#: the "ifRoom" items do not fit beside the three "always" ones on a 411 dp wide phone).
THREAD_OVERFLOW = ("Archive", "Conversation details", "Add number to contact", "Block number", "Mark as Unread")
#: The selection mode's overflow (``cab_thread.xml``, one message with text selected).
CAB_OVERFLOW = ("Properties", "Forward", "Select text", "Select all")


def digits(number: str) -> str:
    return re.sub(r"\D", "", number)


def when_text(ms: int, now: datetime) -> str:
    """``formatDateOrTime`` of Simple-Commons: today's time ("hh:mm a" on a 12-hour phone), or
    the date (default "dd.MM.yyyy", its year dropped in the current year)."""
    when = datetime.fromtimestamp(ms / 1000, timezone.utc)
    if when.date() == now.date():
        return when.strftime("%I:%M %p")
    return when.strftime("%d.%m" if when.year == now.year else "%d.%m.%Y")


def _avatar(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], name: str) -> None:
    draw.ellipse(box, fill=avatar_color(name))
    size = round((box[3] - box[1]) * 0.5)
    letter = (name[:1] or "#").upper() if not name[:1].isdigit() and not name.startswith("+") else "#"
    draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), letter, font=render.font(size), fill=(255, 255, 255), anchor="mm")


class ConversationRow(Widget):
    """``item_conversation.xml``: the ``conversation_frame`` holding the contact's image, the
    name or number, the last message and its date."""

    default_height = dp(80)

    def __init__(self, name: str, snippet: str, date: str, *, search: bool = False, **kwargs: object) -> None:
        super().__init__(rid=f"{ID}{'search_result_holder' if search else 'conversation_frame'}", **kwargs)  # type: ignore[arg-type]
        self.name, self.snippet, self.date = name, snippet, date
        #: A search result (``item_search_result.xml``): a ``RelativeLayout`` of its own ids.
        self.search = search

    @property
    def class_name(self) -> str:  # type: ignore[override]
        return "android.widget.RelativeLayout" if self.search else "android.widget.FrameLayout"

    def render_key(self) -> Hashable:
        return (self.name, self.snippet, self.date, self.selected)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.name, self.snippet, self.date, self.search)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        s = round(dp(48) * scale)
        x0 = round(dp(20) * scale)
        top = (height - s) // 2
        _avatar(draw, (x0, top, x0 + s, top + s), self.name)
        x = x0 + s + round(dp(12) * scale)
        w = width - x - round(dp(16) * scale)
        big, normal, small = round(dp(18) * scale), round(dp(14) * scale), round(dp(12) * scale)
        draw.text((x, height * 0.28), render.text_fit(draw, self.name, big, w), font=render.font(big), fill=TEXT, anchor="lm")
        draw.text((x, height * 0.53), render.text_fit(draw, self.snippet, normal, w), font=render.font(normal), fill=TEXT, anchor="lm")
        draw.text((x, height * 0.76), self.date, font=render.font(small), fill=MUTED, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        x = left + dp(76)
        third = (bottom - top - dp(32)) // 3
        y = top + dp(16)
        names = ("search_result_image", "search_result_title", "search_result_snippet", "search_result_date")
        if not self.search:
            node.long_clickable = True
            names = ("conversation_image", "conversation_address", "conversation_body_short", "conversation_date")
        kids = [
            child(package, "android.widget.ImageView", (left + dp(20), y, left + dp(68), bottom - dp(16)), names[0]),
            child(package, "android.widget.TextView", (x, y, right - dp(16), y + third), names[1], self.name),
            child(package, "android.widget.TextView", (x, y + third, right - dp(16), y + 2 * third), names[2], self.snippet),
            child(package, "android.widget.TextView", (x, y + 2 * third, right - dp(16), bottom - dp(16)), names[3], self.date),
        ]
        if self.search:
            node.children = kids
        else:
            holder = UINode(
                "android.widget.RelativeLayout", (left, top, right, bottom - dp(2)), resource_id=f"{ID}conversation_holder", package=package
            )
            holder.children = kids
            node.children = [holder]
        return node


class ContactRow(Widget):
    """Simple-Commons' ``item_contact_with_number.xml``: the contact's image, name and number."""

    class_name = "android.widget.FrameLayout"
    default_height = dp(72)

    def __init__(self, name: str, number: str, **kwargs: object) -> None:
        super().__init__(rid=f"{ID}item_contact_frame", **kwargs)  # type: ignore[arg-type]
        self.name, self.number = name, number

    def render_key(self) -> Hashable:
        return (self.name, self.number)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.name, self.number)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        s = round(dp(48) * scale)
        x0 = round(dp(16) * scale)
        top = (height - s) // 2
        _avatar(draw, (x0, top, x0 + s, top + s), self.name)
        x = x0 + s + round(dp(12) * scale)
        big, small = round(dp(18) * scale), round(dp(14) * scale)
        draw.text((x, height * 0.35), self.name, font=render.font(big), fill=TEXT, anchor="lm")
        draw.text((x, height * 0.68), self.number, font=render.font(small), fill=MUTED, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.long_clickable = True
        left, top, right, bottom = bounds
        mid = (top + bottom) // 2
        x = left + dp(76)
        node.children = [
            UINode(
                "android.widget.RelativeLayout",
                bounds,
                resource_id=f"{ID}item_contact_holder",
                package=package,
                children=[
                    child(
                        package,
                        "android.widget.ImageView",
                        (left + dp(16), top + dp(12), left + dp(64), bottom - dp(12)),
                        "item_contact_image",
                    ),
                    child(package, "android.widget.TextView", (x, top + dp(12), right - dp(16), mid), "item_contact_name", self.name),
                    child(
                        package, "android.widget.TextView", (x, mid, right - dp(16), bottom - dp(12)), "item_contact_number", self.number
                    ),
                ],
            )
        ]
        return node


class MessageRow(Widget):
    """``item_message.xml``: the ``thread_message_holder`` (clicked and long-clicked as a whole)
    with the ``thread_message_body`` bubble, sent ones on the right in the primary colour."""

    class_name = "android.view.ViewGroup"

    def __init__(self, body: str, *, outgoing: bool, **kwargs: object) -> None:
        lines = max(1, min(8, len(body) // 32 + 1))
        kwargs.setdefault("height", dp(24) + lines * dp(21) + dp(4))
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.rid = f"{ID}thread_message_holder"
        self.body, self.outgoing = body, outgoing

    def render_key(self) -> Hashable:
        return (self.body, self.outgoing, self.selected, self.height)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.body, self.outgoing)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        if self.selected:
            draw.rectangle((0, 0, width, height), fill=(255, 224, 178))
        pad = round(dp(12) * scale)
        size = round(dp(16) * scale)
        max_w = int(width * 0.72)
        top, bottom = round(dp(4) * scale), height - round(dp(4) * scale)
        rows = max(1, (bottom - top) // max(1, round(dp(21) * scale)))
        lines = wrap_lines(draw, self.body, size, max_w - 2 * pad, rows)  # the rows the bubble shows
        text_w = max((draw.textlength(line, font=render.font(size)) for line in lines), default=0)
        bw = min(max_w, int(text_w) + 2 * pad)
        margin = round(dp(12) * scale)
        left = width - margin - bw if self.outgoing else margin + round(dp(40) * scale)
        fill = SIMPLE_THEME.primary if self.outgoing else (238, 238, 238)
        draw.rounded_rectangle((left, top, left + bw, bottom), radius=round(dp(16) * scale), fill=fill)
        if not self.outgoing:
            s = round(dp(32) * scale)
            _avatar(draw, (margin, bottom - s, margin + s, bottom), "")
        color = (255, 255, 255) if self.outgoing else TEXT
        y = top + pad // 2
        for line in lines:
            draw.text((left + pad, y), line, font=render.font(size), fill=color)
            y += round(dp(21) * scale)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        width = right - left
        bw = min(int(width * 0.72), dp(24) + len(self.body) * dp(8))
        x = right - dp(12) - bw if self.outgoing else left + dp(52)
        wrapper = UINode(
            "android.widget.RelativeLayout",
            (x, top + dp(4), x + bw, bottom - dp(4)),
            resource_id=f"{ID}thread_message_wrapper",
            package=package,
        )
        children = []
        if not self.outgoing:
            children.append(
                child(
                    package,
                    "android.widget.ImageView",
                    (left + dp(12), bottom - dp(36), left + dp(44), bottom - dp(4)),
                    "thread_message_sender_photo",
                )
            )
        children.append(
            child(package, "android.widget.TextView", (x, top + dp(4), x + bw, bottom - dp(4)), "thread_message_body", self.body)
        )
        wrapper.children = children
        node.children = [wrapper]
        return node


@register_app
class SimpleSmsApp(App):
    package: ClassVar[str] = PKG
    #: Its screens show no time finer than the minute (the phone rebuilds every screen on a new one).
    clock_dependent: ClassVar[bool] = False
    activity: ClassVar[str] = "com.simplemobiletools.smsmessenger.activities.MainActivity"
    label: ClassVar[str] = "Simple SMS Messenger"
    color: ClassVar[tuple[int, int, int]] = BLUE

    # --- data --------------------------------------------------------------------------------

    def contact_name(self, number: str) -> str | None:
        want = digits(number)
        for row in self.phone.content_query(CONTACTS_URI):
            if want and digits(row.get("number", "")) == want:
                return row.get("display_name") or None
        return None

    def messages(self, address: str | None = None) -> list[dict[str, str]]:
        rows = self.phone.content_query(SMS_URI)
        if address is not None:
            rows = [r for r in rows if digits(r.get("address", "")) == digits(address)]
        return sorted(rows, key=lambda r: (int(r.get("date", 0)), int(r.get("_id", 0))))

    def conversations(self) -> list[dict[str, str]]:
        """The newest message of each address, newest conversation first."""
        latest: dict[str, dict[str, str]] = {}
        for row in self.messages():
            latest[digits(row.get("address", ""))] = row
        return sorted(latest.values(), key=lambda r: -int(r.get("date", 0)))

    def _now_ms(self) -> int:
        return int(self.phone.state.clock * 1000)

    def _send(self, address: str, body: str) -> None:
        self.phone.content_insert(SMS_URI, {"address": address, "body": body, "date": str(self._now_ms()), "type": "2", "read": "1"})

    # --- the conversation list ---------------------------------------------------------------

    def screen_main(self, route: Route) -> ScreenSpec:
        fields = ("_id", "address", "date", "type", "body")
        key = (
            "main",
            tuple(sorted((k, repr(v)) for k, v in route.items())),  # the search text, its selection and menu, the dialog
            self.phone.state.focus == field_key(self, route, "search"),
            telephony.clipboard(self.phone),  # the field's Paste
            self.phone.now().date(),
            tuple(tuple(row.get(f) for f in fields) for row in self.phone.content_query(SMS_URI)),
            tuple((row.get("number"), row.get("display_name")) for row in self.phone.content_query(CONTACTS_URI)),
        )
        return self.reused_spec(key, lambda: self._conversations_screen(route))

    def _start(self) -> None:
        self.push("new", query="")
        self.phone.focus(field_key(self, self.route, "query"))

    def _conversations_screen(self, route: Route) -> ScreenSpec:
        now = self.phone.now()
        query = str(route.get("search", ""))
        body: list[Widget] = []
        if query:
            # The search holder: messages whose text or sender matches, once two characters are in.
            if len(query) < 2:
                body = [
                    Text(
                        "Type at least 2 characters to start the search.",
                        size=dp(18),
                        center=True,
                        color=MUTED,
                        rid=f"{ID}search_placeholder_2",
                    )
                ]
            else:
                for row in reversed(self.messages()):
                    address = row.get("address", "")
                    name = self.contact_name(address) or address
                    if query.lower() in row.get("body", "").lower() or query.lower() in name.lower():
                        body.append(
                            ConversationRow(
                                name,
                                row.get("body", ""),
                                when_text(int(row.get("date", 0)), now),
                                search=True,
                                on_tap=functools.partial(self.open_thread, address),
                            )
                        )
                if not body:
                    body = [Text("No items found.", size=dp(18), center=True, color=MUTED, rid=f"{ID}search_placeholder")]
        else:
            for row in self.conversations():
                address = row.get("address", "")
                name = self.contact_name(address) or address
                body.append(
                    ConversationRow(
                        name,
                        row.get("body", ""),
                        when_text(int(row.get("date", 0)), now),
                        on_tap=functools.partial(self.open_thread, address),
                        on_long_press=lambda: None,
                    )
                )
            if not body:
                body = [
                    Text(
                        "No stored conversations have been found",
                        size=dp(20),
                        center=True,
                        color=MUTED,
                        height=dp(96),
                        rid=f"{ID}no_conversations_placeholder",
                    ),
                    Text(
                        "Start a conversation",
                        size=dp(20),
                        center=True,
                        color=SIMPLE_THEME.primary,
                        rid=f"{ID}no_conversations_placeholder_2",
                        on_tap=self._start,
                    ),
                ]
        search = edit_field(self, route, "search", hint="Search", rid=f"{ID}top_toolbar_search", height=dp(40))
        actions: list[MaterialIconButton] = [
            ActionMenuItem("Settings", "settings", theme=SIMPLE_THEME, rid=f"{ID}settings", on_tap=lambda: None),
            ActionMenuItem("About", "info", theme=SIMPLE_THEME, rid=f"{ID}about", on_tap=lambda: None),
            OverflowButton(on_tap=lambda: self.set_dialog("menu"), theme=SIMPLE_THEME),
        ]
        dialog = None
        if route.get("dialog") == "menu":
            dialog = Dialog("", [], body=[MenuEntry(item, on_tap=lambda: self.set_dialog(None)) for item in MAIN_OVERFLOW])
        fab = SimpleFab("add", rid=f"{ID}conversations_fab", on_tap=self._start)
        return ScreenSpec(
            title=None,
            app_bar=SearchMenu(search, actions, package=PKG),
            body=body,
            fab=None if query else fab,
            dialog=dialog,
            background=SIMPLE_THEME.surface,
            list_id="search_results_list" if query else "conversations_list",
        )

    # --- a new conversation ------------------------------------------------------------------

    def screen_new(self, route: Route) -> ScreenSpec:
        query = str(route.get("query", "")).strip()
        field = plain(edit_field(self, route, "query", hint="Add Contact or Number…", rid=f"{ID}new_conversation_address", height=dp(48)))
        top: list[Widget] = [field]
        if len(query) > 2:
            top = [
                _FieldWithConfirm(
                    field,
                    _ImageButton(
                        "", "check", theme=SIMPLE_THEME, rid=f"{ID}new_conversation_confirm", on_tap=lambda q=query: self._open_thread(q)
                    ),
                )
            ]
        contacts = sorted(self.phone.content_query(CONTACTS_URI), key=lambda r: r.get("display_name", "").lower())
        body: list[Widget] = list(top)
        needle = query.lower()
        # The newest senders that are saved contacts (``getSuggestedContacts``), at most five.
        suggestions: list[dict[str, str]] = []
        for row in reversed(self.messages()):
            match = [c for c in contacts if digits(c.get("number", "")) == digits(row.get("address", ""))]
            if match and match[0] not in suggestions and len(suggestions) < 5:
                suggestions.append(match[0])
        if suggestions:
            body.append(
                Text("Suggestions", size=dp(14), bold=True, color=SIMPLE_THEME.primary, rid=f"{ID}suggestions_label", height=dp(40))
            )
            body.append(
                _Suggestions([(r.get("display_name", ""), functools.partial(self._open_thread, r.get("number", ""))) for r in suggestions])
            )
        # The contacts whose name or number holds the text, names starting with it first.
        shown = [
            row
            for row in contacts
            if not needle
            or needle in row.get("display_name", "").lower()
            or query in row.get("number", "")
            or (digits(query) and digits(query) in digits(row.get("number", "")))
        ]
        shown.sort(key=lambda r: not r.get("display_name", "").lower().startswith(needle))
        for row in shown:
            name, number = row.get("display_name", ""), row.get("number", "")
            body.append(ContactRow(name, number, on_tap=functools.partial(self._open_thread, number), on_long_press=lambda: None))
        if not shown:
            body.append(Text("No contacts found", size=dp(18), center=True, color=MUTED, height=dp(64), rid=f"{ID}no_contacts_placeholder"))
        bar = SimpleToolbar("New conversation", back=self.pop, rid=f"{ID}new_conversation_toolbar")
        return ScreenSpec(title=None, app_bar=bar, body=body, background=SIMPLE_THEME.surface, list_id="contacts_list")

    def _open_thread(self, address: str) -> None:
        shared = str(self.route.get("shared", ""))
        self.stack.pop()
        self.open_thread(address, draft=shared)

    def share_text(self, text: str) -> None:
        """Another app's "Share" of plain text (``ACTION_SEND``): the app comes to the front at
        a new conversation, and the text waits in the compose box of the thread picked there."""
        self.phone.start_app(self.package)
        self.reset_to(self.root_screen)
        self.push("new", query="", shared=text)
        self.phone.focus(field_key(self, self.route, "query"))

    def open_thread(self, address: str, draft: str = "") -> None:
        """Show the conversation with ``address`` (its newest message in view, ``draft`` in the
        compose box); its text notifications go, as the app cancels them on opening it."""
        self.push("thread", address=address, draft=draft, scroll=10**6, selected=[])
        telephony.dismiss_notification(self.phone, self.package, key=telephony.sms_notification_key(address))

    # --- the thread --------------------------------------------------------------------------

    def _toggle(self, route: Route, message_id: str) -> None:
        selected = list(route.get("selected", []))
        if message_id in selected:
            selected.remove(message_id)
        else:
            selected.append(message_id)
        route["selected"] = selected
        route.pop("dialog", None)

    def _selection(self, route: Route) -> list[dict[str, str]]:
        wanted = set(route.get("selected", []))
        return [r for r in self.messages(route["address"]) if r["_id"] in wanted]

    def _copy(self, route: Route) -> None:
        rows = self._selection(route)
        if rows:
            telephony.set_clipboard(self.phone, rows[0].get("body", ""))
        route["selected"] = []

    def _delete(self, route: Route) -> None:
        for row in self._selection(route):
            self.phone.content_delete(SMS_URI, where={"_id": row["_id"]})
        route["selected"] = []
        self.set_dialog(None)

    def _cab_menu(self, route: Route, item: str) -> None:
        rows = self._selection(route)
        self.set_dialog(None)
        if item == "Select all":
            route["selected"] = [r["_id"] for r in self.messages(route["address"])]
        elif item == "Forward" and rows:
            # The app shares the text to itself: a new conversation with the text waiting.
            route["selected"] = []
            self.push("new", query="", shared=rows[0].get("body", ""))
            self.phone.focus(field_key(self, self.route, "query"))

    def screen_thread(self, route: Route) -> ScreenSpec:
        address = route["address"]
        selected = list(route.get("selected", []))
        body: list[Widget] = []
        last = 0
        now = self.phone.now()
        rows = self.messages(address)
        for row in rows:
            date = int(row.get("date", 0))
            # A date header once five minutes have passed since the last header (``MIN_DATE_TIME_DIFF_SECS``).
            if date - last > 5 * 60 * 1000:
                stamp = datetime.fromtimestamp(date / 1000, timezone.utc)
                text = stamp.strftime("%I:%M %p") if stamp.date() == now.date() else when_text(date, now) + stamp.strftime(", %I:%M %p")
                body.append(Text(text, size=dp(14), center=True, color=MUTED, height=dp(40), rid=f"{ID}thread_date_time"))
                last = date
            mid = row["_id"]
            toggle = functools.partial(self._toggle, route, mid)
            body.append(
                MessageRow(
                    row.get("body", ""),
                    outgoing=row.get("type") == "2",
                    selected=mid in selected,
                    on_tap=toggle if selected else (lambda: None),
                    on_long_press=toggle,
                )
            )
        if rows and rows[-1].get("type") == "2":  # the last message sent: its check (``item_thread_success.xml``)
            body.append(_SentCheck())

        def send() -> None:
            text = str(route.get("draft", "")).strip()
            if text:
                self._send(address, text)
                route["draft"] = ""
                route["scroll"] = 10**6  # show the newest message

        name = self.contact_name(address)
        dialog = None
        kind = route.get("dialog")
        if selected:
            count = len(selected)
            total = len(self.messages(address))
            bar: Widget = _ActionModeBar(
                f"{count} / {total}",
                close=lambda: route.update(selected=[]),
                actions=[
                    ActionMenuItem(
                        "Copy to clipboard",
                        "content_copy",
                        theme=SIMPLE_THEME,
                        rid=f"{ID}cab_copy_to_clipboard",
                        on_tap=lambda: self._copy(route),
                    ),
                    ActionMenuItem("Share", "share", theme=SIMPLE_THEME, rid=f"{ID}cab_share", on_tap=lambda: None),
                    ActionMenuItem("Delete", "delete", theme=SIMPLE_THEME, rid=f"{ID}cab_delete", on_tap=lambda: self.set_dialog("delete")),
                    OverflowButton(on_tap=lambda: self.set_dialog("cab_menu"), theme=SIMPLE_THEME),
                ],
            )
            if kind == "cab_menu":
                items = CAB_OVERFLOW if count == 1 else ("Select all",)
                dialog = Dialog("", [], body=[MenuEntry(i, on_tap=functools.partial(self._cab_menu, route, i)) for i in items])
            elif kind == "delete":
                dialog = Dialog(
                    "",
                    [
                        Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)),
                        Button("Yes", filled=False, on_tap=lambda: self._delete(route)),
                    ],
                    message="Are you sure you want to delete the selected item?"
                    if count == 1
                    else f"Are you sure you want to delete {count} items?",
                )
        else:
            bar = SimpleToolbar(
                name or address,
                back=self.pop,
                rid=f"{ID}thread_toolbar",
                actions=[
                    # Delete only once the thread has messages (``refreshMenuItems``).
                    *([ActionMenuItem("Delete", "delete", theme=SIMPLE_THEME, rid=f"{ID}delete", on_tap=lambda: None)] if rows else []),
                    ActionMenuItem("Dial number", "phone", theme=SIMPLE_THEME, rid=f"{ID}dial_number", on_tap=lambda: None),
                    ActionMenuItem("Add Person", "person_add", theme=SIMPLE_THEME, rid=f"{ID}manage_people", on_tap=lambda: None),
                    OverflowButton(on_tap=lambda: self.set_dialog("menu"), theme=SIMPLE_THEME),
                ],
            )
            if kind == "menu":
                # ``refreshMenuItems``: archive, details and unread need messages; an unsaved number
                # may be added to a contact.
                entries = tuple(
                    item for item, shown in zip(THREAD_OVERFLOW, (bool(rows), bool(rows), not name, True, bool(rows)), strict=True) if shown
                )
                dialog = Dialog("", [], body=[MenuEntry(i, on_tap=lambda: self.set_dialog(None)) for i in entries])
        compose = _ComposeBar(
            plain(edit_field(self, route, "draft", hint="Type a message…", rid=f"{ID}thread_type_message", height=dp(48))),
            on_send=send,
        )
        return ScreenSpec(
            title=None,
            app_bar=bar,
            body=body,
            bottom=[compose],
            dialog=dialog,
            background=SIMPLE_THEME.surface,
            list_id="thread_messages_list",
        )


class _FieldWithConfirm(Widget):
    """The address field with the check button the app shows once three characters are in."""

    class_name = "android.widget.RelativeLayout"
    opaque = False

    def __init__(self, field: Widget, confirm: Widget) -> None:
        super().__init__(height=field.height, rid=f"{ID}new_conversation_holder")
        self.field, self.confirm = field, confirm

    def render_key(self) -> Hashable:
        return ()

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        return [(self.field, (left + dp(16), top, right - dp(48), bottom)), (self.confirm, (right - dp(48), top, right, bottom))]


class _Suggestions(Widget):
    """The ``suggestions_holder`` row: up to five contacts, each an image over a name."""

    class_name = "android.widget.HorizontalScrollView"
    opaque = False

    def __init__(self, people: Sequence[tuple[str, Callback]]) -> None:
        super().__init__(height=dp(96), rid=f"{ID}suggestions_scrollview")
        self.people = list(people)

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), tuple(name for name, _ in self.people))

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, _, bottom = bounds
        placed: list[tuple[Widget, Bounds]] = []
        for i, (name, tap) in enumerate(self.people):
            x = left + dp(8) + i * dp(80)
            placed.append((_Suggestion(name, on_tap=tap), (x, top, x + dp(80), bottom)))
        return placed


class _Suggestion(Widget):
    class_name = "android.widget.RelativeLayout"

    def __init__(self, name: str, **kwargs: object) -> None:
        super().__init__(rid=f"{ID}suggested_contact_holder", **kwargs)  # type: ignore[arg-type]
        self.name = name
        self.background = SIMPLE_THEME.surface

    def render_key(self) -> Hashable:
        return (self.name,)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.name)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        s = round(dp(56) * scale)
        x0 = (width - s) // 2
        _avatar(draw, (x0, 0, x0 + s, s), self.name)
        size = round(dp(14) * scale)
        draw.text(
            (width / 2, s + round(dp(16) * scale)),
            render.text_fit(draw, self.name, size, width),
            font=render.font(size),
            fill=TEXT,
            anchor="mm",
        )

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        node.children = [
            child(package, "android.widget.ImageView", (left + dp(12), top, right - dp(12), top + dp(56)), "suggested_contact_image"),
            child(package, "android.widget.TextView", (left, top + dp(60), right, bottom), "suggested_contact_name", self.name),
        ]
        return node


class _ActionModeBar(TopAppBar):
    """The selection mode's bar over the toolbar: "Done" closes it, then the count and the
    ``cab_thread.xml`` items shown as icons."""

    def __init__(self, title: str, *, close: Callback, actions: Sequence[MaterialIconButton]) -> None:
        navigation = _ImageButton("Done", "close", theme=SIMPLE_THEME, on_tap=close, rid=f"{ID}action_mode_close_button")
        super().__init__(title, navigation=navigation, actions=actions, theme=SIMPLE_THEME, rid=f"{ID}action_mode_bar")


class _ComposeBar(Widget):
    """``layout_thread_send_message_holder.xml``: the attachment button, the message field and
    the "SMS" send button (described "OK")."""

    class_name = "android.view.ViewGroup"
    opaque = False

    def __init__(self, field: Widget, *, on_send: Callback) -> None:
        super().__init__(height=dp(64), rid=f"{ID}message_holder")
        self.field = field
        self.on_send = on_send

    def render_key(self) -> Hashable:
        return ()

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        mid = (top + bottom) // 2
        attach = _ImageButton("Attachment", "add", theme=SIMPLE_THEME, rid=f"{ID}thread_add_attachment", on_tap=lambda: None)
        send = _SendButton(on_tap=self.on_send)
        return [
            (attach, (left + dp(4), mid - dp(24), left + dp(52), mid + dp(24))),
            (self.field, (left + dp(52), mid - dp(24), right - dp(72), mid + dp(24))),
            (send, (right - dp(68), mid - dp(24), right - dp(4), mid + dp(24))),
        ]


class _SentCheck(Widget):
    """``item_thread_success.xml``: the check under the last sent message."""

    class_name = "android.widget.RelativeLayout"
    default_height = dp(24)

    def render_key(self) -> Hashable:
        return ()

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(16) * scale)
        right = width - round(dp(16) * scale)
        render.draw_icon(draw, "check", (right - size, (height - size) / 2, right, (height + size) / 2), MUTED)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        _, top, right, bottom = bounds
        node.children = [
            child(package, "android.widget.ImageView", (right - dp(32), top + dp(4), right - dp(16), bottom - dp(4)), "thread_success")
        ]
        return node


class _ImageButton(MaterialIconButton):
    """An ``ImageView`` used as a button (the attachment and confirm buttons)."""

    class_name = "android.widget.ImageView"


class _SendButton(Widget):
    class_name = "android.widget.Button"

    def __init__(self, **kwargs: object) -> None:
        super().__init__(text="SMS", desc="OK", rid=f"{ID}thread_send_message", **kwargs)  # type: ignore[arg-type]

    def render_key(self) -> Hashable:
        return (self.enabled,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(24) * scale)
        render.draw_icon(
            draw, "send", ((width - size) / 2, round(dp(2) * scale), (width + size) / 2, round(dp(2) * scale) + size), SIMPLE_THEME.primary
        )
        small = round(dp(10) * scale)
        draw.text((width / 2, height - round(dp(10) * scale)), "SMS", font=render.font(small), fill=SIMPLE_THEME.primary, anchor="mm")
