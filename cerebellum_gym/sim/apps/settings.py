"""Settings, modelled on Android 13: network (Wi-Fi, airplane mode), Bluetooth, display brightness.

Toggles live in the system settings store (``settings get global wifi_on``), which is where a
judge reads them on a real device too.
"""

from __future__ import annotations

from typing import ClassVar

from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import IconButton, ListItem, Slider, Switch, Text, Widget

BRIGHTNESS_MAX = 255

_MAIN_ITEMS: tuple[tuple[str, str, str | None], ...] = (
    ("Network & internet", "Mobile, Wi-Fi, hotspot", "network"),
    ("Connected devices", "Bluetooth, pairing", "connected"),
    ("Apps", "Recent apps, default apps", None),
    ("Notifications", "Notification history, conversations", None),
    ("Battery", "100%", None),
    ("Storage", "34% used - 42.1 GB free", None),
    ("Sound & vibration", "Volume, haptics, Do Not Disturb", None),
    ("Display", "Dark theme, font size, brightness", "display"),
    ("Wallpaper & style", "Colors, themed icons, app grid", None),
    ("Accessibility", "Display, interaction, audio", None),
    ("Security & privacy", "App security, device lock, permissions", None),
    ("Location", "On - 3 apps have access to location", None),
    ("Safety & emergency", "Emergency SOS, medical info, alerts", None),
    ("Passwords & accounts", "Saved passwords, autofill, synced accounts", None),
    ("System", "Languages, gestures, time, backup", None),
    ("About phone", "sdk_gphone64_x86_64", None),
)


class SettingsApp(App):
    package: ClassVar[str] = "com.android.settings"
    activity: ClassVar[str] = ".Settings"
    label: ClassVar[str] = "Settings"
    color: ClassVar[tuple[int, int, int]] = (84, 110, 122)
    clock_dependent: ClassVar[bool] = False

    # --- helpers over the settings store -----------------------------------------------------

    def _on(self, namespace: str, key: str) -> bool:
        return self.phone.get_setting(namespace, key) == "1"

    def _toggle(self, namespace: str, key: str) -> None:
        self.phone.put_setting(namespace, key, "0" if self._on(namespace, key) else "1")

    def _up(self) -> None:
        self.pop()

    # --- screens -----------------------------------------------------------------------------

    def screen_main(self, route: Route) -> ScreenSpec:
        return self.reused_spec(("main",), self._main_screen)  # the same every time

    def _main_screen(self) -> ScreenSpec:
        body: list[Widget] = [Text("Search settings", size=42, height=168, color=(96, 94, 102))]
        for title, subtitle, target in _MAIN_ITEMS:
            on_tap = (lambda t=target: self.push(t)) if target else (lambda t=title: self.push("stub", title=t))
            body.append(ListItem(title, subtitle, on_tap=on_tap))
        return ScreenSpec(title="Settings", body=body)

    def screen_stub(self, route: Route) -> ScreenSpec:
        title = route["title"]
        return self.reused_spec(
            ("stub", title), lambda: ScreenSpec(title=title, up=self._up, body=[Text("Nothing to change here in the simulator.", size=40)])
        )

    def screen_network(self, route: Route) -> ScreenSpec:
        wifi = "AndroidWifi" if self._on("global", "wifi_on") else "Off"
        body: list[Widget] = [
            ListItem("Internet", wifi, on_tap=lambda: self.push("internet")),
            ListItem("Calls & SMS", "T-Mobile"),
            ListItem("SIMs", "T-Mobile"),
            Switch("Airplane mode", self._on("global", "airplane_mode_on"), on_toggle=lambda: self._toggle("global", "airplane_mode_on")),
            ListItem("Hotspot & tethering", "Off"),
            ListItem("Data Saver", "Off"),
            ListItem("VPN", "None"),
            ListItem("Private DNS", "Automatic"),
        ]
        return ScreenSpec(title="Network & internet", up=self._up, body=body)

    def screen_internet(self, route: Route) -> ScreenSpec:
        on = self._on("global", "wifi_on")
        body: list[Widget] = [Switch("Wi-Fi", on, on_toggle=lambda: self._toggle("global", "wifi_on"))]
        if on:
            body += [ListItem("AndroidWifi", "Connected", on_tap=None), ListItem("Add network"), ListItem("Saved networks", "1 network")]
        else:
            body.append(Text("To see available networks, turn Wi-Fi on", size=38, color=(96, 94, 102)))
        return ScreenSpec(title="Internet", up=self._up, body=body)

    def screen_connected(self, route: Route) -> ScreenSpec:
        body: list[Widget] = [
            ListItem("Pair new device", on_tap=None),
            ListItem("Connection preferences", "Bluetooth, Android Auto, NFC", on_tap=lambda: self.push("connection_prefs")),
        ]
        return ScreenSpec(title="Connected devices", up=self._up, body=body)

    def screen_connection_prefs(self, route: Route) -> ScreenSpec:
        bt = "On" if self._on("global", "bluetooth_on") else "Off"
        body: list[Widget] = [
            ListItem("Bluetooth", bt, on_tap=lambda: self.push("bluetooth")),
            ListItem("Cast"),
            ListItem("Printing", "1 print service on"),
            ListItem("Android Auto", "Use apps on your car display"),
        ]
        return ScreenSpec(title="Connection preferences", up=self._up, body=body)

    def screen_bluetooth(self, route: Route) -> ScreenSpec:
        on = self._on("global", "bluetooth_on")
        body: list[Widget] = [Switch("Use Bluetooth", on, on_toggle=lambda: self._toggle("global", "bluetooth_on"))]
        if on:
            body.append(ListItem("Pair new device"))
        return ScreenSpec(title="Bluetooth", up=self._up, body=body)

    def screen_display(self, route: Route) -> ScreenSpec:
        level = int(self.phone.get_setting("system", "screen_brightness") or 0)
        body: list[Widget] = [
            ListItem("Brightness level", f"{round(100 * level / BRIGHTNESS_MAX)}%", on_tap=lambda: self.push("brightness")),
            Switch(
                "Adaptive brightness",
                self._on("system", "screen_brightness_mode"),
                on_toggle=lambda: self._toggle("system", "screen_brightness_mode"),
            ),
            Switch("Dark theme", self._on("secure", "ui_night_mode"), on_toggle=lambda: self._toggle("secure", "ui_night_mode")),
            ListItem("Font size", "Default"),
            ListItem("Screen timeout", "After 30 seconds of inactivity"),
        ]
        return ScreenSpec(title="Display", up=self._up, body=body)

    def screen_brightness(self, route: Route) -> ScreenSpec:
        level = int(self.phone.get_setting("system", "screen_brightness") or 0)

        def set_level(value: int) -> None:
            self.phone.put_setting("system", "screen_brightness", str(max(1, min(BRIGHTNESS_MAX, value))))

        body: list[Widget] = [
            Text(f"Brightness level {round(100 * level / BRIGHTNESS_MAX)}%", size=46),
            Slider(level, BRIGHTNESS_MAX, on_change=set_level, desc="Brightness", rid="com.android.systemui:id/slider"),
            Text("Drag the slider, or scroll left and right on it.", size=36, color=(96, 94, 102)),
        ]
        return ScreenSpec(title="Brightness level", up=self._up, body=body, actions=[IconButton("Search", "⌕")])
