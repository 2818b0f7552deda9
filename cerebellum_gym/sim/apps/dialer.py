"""Phone (com.google.android.dialer): the dialer AndroidWorld's open-app tasks name "dialer".

Recent calls and a dial pad. The simulator has no telephony, so a call rings out on screen and
ends; nothing is judged here beyond the app being in front (``OpenAppTaskEval``,
``TurnOnWifiAndOpenApp``).
"""

from __future__ import annotations

from typing import ClassVar

from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, IconButton, Row, Text, Widget

BLUE = (11, 87, 208)
KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "0", "#")


class DialerApp(App):
    package: ClassVar[str] = "com.google.android.dialer"
    activity: ClassVar[str] = "com.google.android.dialer.extensions.GoogleDialtactsActivity"
    label: ClassVar[str] = "Phone"
    color: ClassVar[tuple[int, int, int]] = BLUE
    clock_dependent: ClassVar[bool] = False

    def initial_data(self) -> dict[str, object]:
        return {"recents": []}

    def screen_main(self, route: Route) -> ScreenSpec:
        recents = tuple(self.data["recents"])
        return self.reused_spec(("main", recents), lambda: self._recents_screen(recents))  # shows only the recents

    def _recents_screen(self, recents: tuple[str, ...]) -> ScreenSpec:
        body: list[Widget] = [Text("Recents", size=44, height=140, color=(96, 94, 102))]
        body += [Text(number, size=48, height=140) for number in reversed(recents)] or [
            Text("No recent calls", size=44, center=True, height=300)
        ]
        fab = IconButton("Dial pad", "✆", color=(255, 255, 255), round_fill=BLUE, on_tap=lambda: self.push("keypad", number=""))
        return ScreenSpec(title="Phone", body=body, fab=fab)

    def _press(self, route: Route, key: str) -> None:
        route["number"] = str(route["number"]) + key

    def _call(self, route: Route) -> None:
        if route["number"]:
            self.data["recents"] = [*self.data["recents"], route["number"]][-20:]
            self.push("calling", number=route["number"])

    def screen_keypad(self, route: Route) -> ScreenSpec:
        shown = str(route["number"])
        body: list[Widget] = [Text(shown or "Enter a number", size=64, center=True, height=220, rid=f"{self.package}:id/digits")]
        for i in range(0, len(KEYS), 3):
            body.append(Row([Button(k, filled=False, on_tap=lambda k=k: self._press(route, k)) for k in KEYS[i : i + 3]], columns=3))

        def delete() -> None:
            route["number"] = shown[:-1]

        actions: list[Widget] = [IconButton("Backspace", "⌫", on_tap=delete)]
        bottom: list[Widget] = [Button("Call", filled=True, on_tap=lambda: self._call(route))]
        return ScreenSpec(title="Dial pad", up=self.pop, body=body, actions=actions, bottom=bottom)

    def screen_calling(self, route: Route) -> ScreenSpec:
        body: list[Widget] = [
            Text(str(route["number"]), size=64, center=True, height=260),
            Text("No service: calls are not available on this device", size=40, center=True, height=200),
        ]
        return ScreenSpec(title="Call", body=body, bottom=[Button("End call", filled=True, on_tap=self.pop)])
