"""Simple SMS Messenger: conversations, a thread with a compose box, new conversations by
contact or number, and per-message actions (copy, resend, delete).

Messages live in the phone's SMS provider (``content://sms``; ``type`` 1 received, 2 sent,
``date`` in milliseconds), where AndroidWorld's SMS judges read them.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import ClassVar

from cerebellum_gym.sim import telephony
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.apps.contacts import avatar_color
from cerebellum_gym.sim.providers import CONTACTS_URI, SMS_URI
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Bubble, Button, Dialog, IconButton, ListItem, Text, Widget

BLUE = (21, 101, 192)


def digits(number: str) -> str:
    return re.sub(r"\D", "", number)


class SimpleSmsApp(App):
    package: ClassVar[str] = "com.simplemobiletools.smsmessenger"
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

    # --- screens -----------------------------------------------------------------------------

    def screen_main(self, route: Route) -> ScreenSpec:
        # The list shows the messages and the contacts' names; its callbacks use no route.
        fields = ("_id", "address", "date", "type", "body")
        key = (
            "main",
            tuple(tuple(row.get(f) for f in fields) for row in self.phone.content_query(SMS_URI)),
            tuple((row.get("number"), row.get("display_name")) for row in self.phone.content_query(CONTACTS_URI)),
        )
        return self.reused_spec(key, self._conversations_screen)

    def _conversations_screen(self) -> ScreenSpec:
        body: list[Widget] = []
        for row in self.conversations():
            address = row.get("address", "")
            name = self.contact_name(address) or address
            when = datetime.fromtimestamp(int(row.get("date", 0)) / 1000, timezone.utc).strftime("%b %-d")
            snippet = ("You: " if row.get("type") == "2" else "") + row.get("body", "")
            body.append(
                ListItem(
                    name,
                    f"{snippet}  ·  {when}",
                    avatar=name[:1].upper(),
                    avatar_color=avatar_color(name),
                    on_tap=lambda a=address: self.open_thread(a),
                )
            )
        if not body:
            body = [Text("No conversations yet", size=44, center=True, height=300)]

        def start() -> None:
            self.push("new", query="")
            self.phone.focus(field_key(self, self.route, "query"))

        fab = IconButton("Start a conversation", "✉", color=(255, 255, 255), round_fill=BLUE, on_tap=start)
        return ScreenSpec(title="Simple SMS Messenger", body=body, fab=fab, actions=[IconButton("Search", "⌕")])

    def screen_new(self, route: Route) -> ScreenSpec:
        query = str(route.get("query", "")).strip()
        body: list[Widget] = [edit_field(self, route, "query", hint="Add Contact or Number…")]
        if query:
            needle = query.lower()
            for row in sorted(self.phone.content_query(CONTACTS_URI), key=lambda r: r.get("display_name", "")):
                name, number = row.get("display_name", ""), row.get("number", "")
                if needle in name.lower() or (digits(query) and digits(query) in digits(number)):
                    body.append(
                        ListItem(
                            name,
                            number,
                            avatar=name[:1].upper(),
                            avatar_color=avatar_color(name),
                            on_tap=lambda n=number: self._open_thread(n),
                        )
                    )
            if len(digits(query)) >= 3 and not re.search(r"[A-Za-z]", query):
                body.append(ListItem(f"Send to {query}", "New number", avatar="#", on_tap=lambda q=query: self._open_thread(q)))
        return ScreenSpec(title="New conversation", up=self.pop, body=body)

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
        self.push("thread", address=address, draft=draft, scroll=10**6)
        telephony.dismiss_notification(self.phone, self.package, key=telephony.sms_notification_key(address))

    def _message_action(self, route: Route, action: str) -> None:
        rows = self.phone.content_query(SMS_URI, where={"_id": route["message_id"]})
        self.set_dialog(None)
        if not rows:
            return
        row = rows[0]
        if action == "resend":
            self._send(str(row.get("address", route["address"])), row.get("body", ""))
        elif action == "delete":
            self.phone.content_delete(SMS_URI, where={"_id": row["_id"]})
        elif action == "copy":
            route["draft"] = row.get("body", "")  # pasted into the compose box, the app's "copy to compose"

    def screen_thread(self, route: Route) -> ScreenSpec:
        address = route["address"]
        body: list[Widget] = []
        for row in self.messages(address):
            when = datetime.fromtimestamp(int(row.get("date", 0)) / 1000, timezone.utc).strftime("%b %-d, %H:%M")
            outgoing = row.get("type") == "2"
            body.append(
                Bubble(
                    row.get("body", ""),
                    outgoing=outgoing,
                    caption=("Sent " if outgoing else "") + when,
                    on_long_press=lambda i=row["_id"]: self.set_dialog("message", message_id=i),
                )
            )
        if not body:
            body = [Text("Start the conversation below", size=40, center=True, height=240, color=(96, 94, 102))]

        def send() -> None:
            text = str(route.get("draft", "")).strip()
            if text:
                self._send(address, text)
                route["draft"] = ""
                route["scroll"] = 10**6  # show the newest message

        dialog = None
        if route.get("dialog") == "message":
            dialog = Dialog(
                "Message",
                [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None))],
                body=[
                    ListItem("Copy to message box", on_tap=lambda: self._message_action(route, "copy")),
                    ListItem("Resend", on_tap=lambda: self._message_action(route, "resend")),
                    ListItem("Delete", on_tap=lambda: self._message_action(route, "delete")),
                ],
            )
        compose: list[Widget] = [
            edit_field(self, route, "draft", hint="Type a message…", rid=f"{self.package}:id/thread_type_message"),
            Button("SMS", desc="Send", filled=True, on_tap=send),
        ]
        name = self.contact_name(address)
        return ScreenSpec(title=name or address, up=self.pop, body=body, bottom=compose, dialog=dialog)
