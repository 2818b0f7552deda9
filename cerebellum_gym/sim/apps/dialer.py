"""Phone (com.google.android.dialer): the dialer AndroidWorld's open-app tasks name "dialer".

Recent calls and a dial pad. The simulator has no telephony, so a call rings out on screen and
ends; nothing is judged here beyond the app being in front (``OpenAppTaskEval``,
``TurnOnWifiAndOpenApp``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import ClassVar

from PIL import ImageDraw

from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.material import dp
from cerebellum_gym.sim.material.components import BottomNavigation, Fab, NavItem
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, IconButton, Row, Text, Widget

BLUE = (11, 87, 208)
KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "0", "#")
CONTACTS = "com.google.android.contacts"
#: The bottom bar's tabs: (route key, label, icon).
TABS = (("favorites", "Favorites", "star"), ("recents", "Recents", "schedule"), ("contacts", "Contacts", "people"))


class _Glyph(Widget):
    """An ``ImageView`` button of the search bar (voice search, more options)."""

    class_name = "android.widget.ImageView"
    background = (240, 244, 249)

    def __init__(self, desc: str, icon: str, on_tap: Callable[[], None] | None = None) -> None:
        super().__init__(desc=desc, on_tap=on_tap or (lambda: None))
        self.icon = icon

    def render_key(self) -> Hashable:
        return (self.icon,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(24) * scale)
        render.draw_icon(draw, self.icon, ((width - size) / 2, (height - size) / 2, (width + size) / 2, (height + size) / 2), (68, 71, 70))


class _Key(Widget):
    """A dial pad key: its digit as a TextView (the letters under it are not in the tree)."""

    class_name = "android.widget.TextView"
    default_height = dp(72)

    def __init__(self, digit: str, *, on_tap: Callable[[], None]) -> None:
        super().__init__(text=digit, on_tap=on_tap)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(32) * scale)
        draw.text((width / 2, height / 2), self.text, font=render.font(size), fill=render.TEXT, anchor="mm")


@register_app
class DialerApp(App):
    package: ClassVar[str] = "com.google.android.dialer"
    activity: ClassVar[str] = "com.google.android.dialer.extensions.GoogleDialtactsActivity"
    label: ClassVar[str] = "Phone"
    color: ClassVar[tuple[int, int, int]] = BLUE
    clock_dependent: ClassVar[bool] = False

    def initial_data(self) -> dict[str, object]:
        return {"recents": []}

    def screen_main(self, route: Route) -> ScreenSpec:
        tab = str(route.get("tab", "favorites"))
        recents = tuple(self.data["recents"])
        return self.reused_spec(("main", tab, recents), lambda: self._tab_screen(tab, recents))

    def _tab(self, tab: str) -> None:
        self.route["tab"] = tab

    def _new_contact(self) -> None:
        self.phone.start_app(CONTACTS)
        self.phone.app(CONTACTS).push("create", first="", last="", phone="", label="Mobile")

    def _tab_screen(self, tab: str, recents: tuple[str, ...]) -> ScreenSpec:
        """Google's Phone app: a search bar (voice search, more options) over the tab's page, the
        key pad button, and the Favorites / Recents / Contacts bar (the shown tab not clickable)."""
        top: list[Widget] = [
            Row(
                [
                    Text("Search contacts", size=dp(16), color=(96, 94, 102), background=(240, 244, 249)),
                    _Glyph("Start voice search", "mic"),
                    _Glyph("More options", "more_vert"),
                ],
                height=dp(56),
            )
        ]
        body: list[Widget]
        if tab == "favorites":
            body = [
                Text("Call your favorite contacts with just one tap", center=True, height=dp(120)),
                Button("Add a favorite", filled=False, on_tap=lambda: self._tab("contacts")),
            ]
        elif tab == "recents":
            body = [Text(number, size=48, height=140) for number in reversed(recents)] or [
                Text("No recent calls", size=44, center=True, height=300)
            ]
        else:
            body = [
                Text("Your contacts are just a tap away here", center=True, height=dp(120)),
                Button("Create new contact", filled=False, on_tap=self._new_contact),
            ]
        nav = BottomNavigation(
            [
                NavItem(label, icon, None if key == tab else functools.partial(self._tab, key))
                for key, label, icon in (
                    ("favorites", "Favorites", "star"),
                    ("recents", "Recents", "schedule"),
                    ("contacts", "Contacts", "people"),
                )
            ],
            selected=("favorites", "recents", "contacts").index(tab),
        )
        fab = Fab("key pad", "dialpad", on_tap=lambda: self.push("keypad", number=""))
        return ScreenSpec(title=None, body=[*top, *body], fab=fab, bottom=[nav])

    def _press(self, route: Route, key: str) -> None:
        route["number"] = str(route["number"]) + key

    def _call(self, route: Route) -> None:
        if route["number"]:
            self.data["recents"] = [*self.data["recents"], route["number"]][-20:]
            self.push("calling", number=route["number"])

    def screen_keypad(self, route: Route) -> ScreenSpec:
        shown = str(route["number"])

        def delete() -> None:
            route["number"] = shown[:-1]

        body: list[Widget] = [
            Row(
                [
                    Text(shown, size=64, center=True, height=220, rid=f"{self.package}:id/digits"),
                    IconButton("backspace", "⌫", on_tap=delete, height=220),
                ],
                height=220,
            )
        ]
        for i in range(0, len(KEYS), 3):
            body.append(Row([_Key(k, on_tap=functools.partial(self._press, route, k)) for k in KEYS[i : i + 3]], columns=3))
        body.append(
            Row(
                [
                    Text(""),
                    IconButton("dial", "call", color=(255, 255, 255), round_fill=(30, 142, 62), on_tap=lambda: self._call(route)),
                    Text(""),
                ]
            )
        )
        return ScreenSpec(title=None, body=body)

    def screen_calling(self, route: Route) -> ScreenSpec:
        body: list[Widget] = [
            Text(str(route["number"]), size=64, center=True, height=260),
            Text("No service: calls are not available on this device", size=40, center=True, height=200),
        ]
        return ScreenSpec(title="Call", body=body, bottom=[Button("End call", filled=True, on_tap=self.pop)])
