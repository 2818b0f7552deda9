"""System settings tasks: Wi-Fi, Bluetooth and brightness, as in AndroidWorld's system family."""

from __future__ import annotations

from typing import Any, ClassVar

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.oracle import LAUNCHER_PACKAGE, ScriptedOracle, find, label_for, package_of, switch_state
from cerebellum_gym.tasks.registry import register_task

SETTINGS_PACKAGE = "com.android.settings"
BRIGHTNESS_MAX = 255
BRIGHTNESS_MIN = 1


class ToggleOracle(ScriptedOracle):
    """Open Settings, walk to the switch, set it, and say done."""

    def __init__(self, path: tuple[str, ...], switch_text: str, want_on: bool) -> None:
        super().__init__()
        self.path = path
        self.switch_text = switch_text
        self.want_on = want_on

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, SETTINGS_PACKAGE, "Settings")
        if step is not None:
            return step
        hit = find(screen, lambda n: n.text == self.switch_text)
        if hit is not None and switch_state(hit[1]) is not None:
            label, node = hit
            return "F" if switch_state(node) == self.want_on else self.tap(label)
        return self.walk(screen, self.path)


class _Toggle(Task):
    app: ClassVar[str] = "Settings"
    family: ClassVar[str] = "system"
    complexity: ClassVar[float] = 1.0
    namespace: ClassVar[str] = "global"
    key: ClassVar[str] = ""
    want_on: ClassVar[bool] = True
    path: ClassVar[tuple[str, ...]] = ()
    switch_text: ClassVar[str] = ""

    #: Values that count as on: AndroidWorld takes wifi_on 2 ("on, airplane mode") as on, but
    #: only bluetooth_on 1.
    on_values: ClassVar[tuple[str, ...]] = ("1",)

    @classmethod
    def generate_params(cls, rng: Any) -> dict[str, Any]:
        # AndroidWorld's template has the field; each task fixes its value.
        return {"on_or_off": "on" if cls.want_on else "off"}

    def initialize(self, device: Device) -> None:
        device.put_setting(self.namespace, self.key, "0" if self.want_on else "1")

    def progress(self, device: Device, answer: str | None = None) -> float:
        on = device.get_setting(self.namespace, self.key) in self.on_values
        return 1.0 if on == self.want_on else 0.0

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        return ToggleOracle(self.path, self.switch_text, self.want_on)


_WIFI_PATH = ("Network & internet", "Internet")
#: The Wi-Fi switch's label as AOSP Settings spells it (a non-breaking hyphen, U+2011).
WIFI = "Wi\u2011Fi"
_BT_PATH = ("Connected devices", "Connection preferences", "Bluetooth")


@register_task
class SystemWifiTurnOn(_Toggle):
    mirrors = "SystemWifiTurnOn"
    template = "Turn wifi {on_or_off}."
    judge = "settings global wifi_on is 1 (or 2); starts at 0."
    key = "wifi_on"
    on_values = ("1", "2")
    path = _WIFI_PATH
    switch_text = WIFI


@register_task
class SystemWifiTurnOff(SystemWifiTurnOn):
    mirrors = "SystemWifiTurnOff"
    judge = "settings global wifi_on is 0; starts at 1."
    want_on = False


@register_task
class SystemBluetoothTurnOn(_Toggle):
    mirrors = "SystemBluetoothTurnOn"
    template = "Turn bluetooth {on_or_off}."
    judge = "settings global bluetooth_on is 1; starts at 0."
    key = "bluetooth_on"
    path = _BT_PATH
    switch_text = "Use Bluetooth"


@register_task
class SystemBluetoothTurnOff(SystemBluetoothTurnOn):
    mirrors = "SystemBluetoothTurnOff"
    judge = "settings global bluetooth_on is 0; starts at 1."
    want_on = False


class BrightnessOracle(ScriptedOracle):
    def __init__(self, target: int) -> None:
        super().__init__()
        self.target = target

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, SETTINGS_PACKAGE, "Settings")
        if step is not None:
            return step
        slider = find(screen, lambda n: n.is_slider)
        if slider is not None:
            value = int(slider[1].text or 0)
            if value == self.target:
                return "F"
            self._moved()
            return "R" if self.target > value else "L"
        return self.walk(screen, ("Display", "Brightness level"))


class _Brightness(Task):
    app: ClassVar[str] = "Settings"
    family: ClassVar[str] = "system"
    complexity: ClassVar[float] = 1.0
    target: ClassVar[int] = BRIGHTNESS_MAX
    template = "Turn brightness to the {max_or_min} value."

    def initialize(self, device: Device) -> None:
        start = BRIGHTNESS_MIN if self.target == BRIGHTNESS_MAX else BRIGHTNESS_MAX
        device.put_setting("system", "screen_brightness", str(start))

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if device.get_setting("system", "screen_brightness") == str(self.target) else 0.0

    def oracle(self) -> Oracle:
        return BrightnessOracle(self.target)

    @classmethod
    def generate_params(cls, rng: Any) -> dict[str, Any]:
        # AndroidWorld's template has the field; each task fixes its value.
        return {"max_or_min": "max" if cls.target == BRIGHTNESS_MAX else "min"}

    def text_candidates(self) -> list[str]:
        return []


@register_task
class SystemBrightnessMax(_Brightness):
    mirrors = "SystemBrightnessMax"
    judge = "settings system screen_brightness is 255; starts at 1."
    target = BRIGHTNESS_MAX


@register_task
class SystemBrightnessMin(_Brightness):
    mirrors = "SystemBrightnessMin"
    judge = "settings system screen_brightness is 1; starts at 255."
    target = BRIGHTNESS_MIN


# --- "Verify" variants: AndroidWorld starts these already in the goal state -----------------------


@register_task
class SystemWifiTurnOnVerify(SystemWifiTurnOn):
    mirrors = "SystemWifiTurnOnVerify"
    judge = "settings global wifi_on is 1 (or 2); starts already on (the agent must check, not toggle)."

    def initialize(self, device: Device) -> None:
        device.put_setting(self.namespace, self.key, "1")


@register_task
class SystemWifiTurnOffVerify(SystemWifiTurnOff):
    mirrors = "SystemWifiTurnOffVerify"
    judge = "settings global wifi_on is 0; starts already off."

    def initialize(self, device: Device) -> None:
        device.put_setting(self.namespace, self.key, "0")


@register_task
class SystemBluetoothTurnOnVerify(SystemBluetoothTurnOn):
    mirrors = "SystemBluetoothTurnOnVerify"
    judge = "settings global bluetooth_on is 1; starts already on."

    def initialize(self, device: Device) -> None:
        device.put_setting(self.namespace, self.key, "1")


@register_task
class SystemBluetoothTurnOffVerify(SystemBluetoothTurnOff):
    mirrors = "SystemBluetoothTurnOffVerify"
    judge = "settings global bluetooth_on is 0; starts already off."

    def initialize(self, device: Device) -> None:
        device.put_setting(self.namespace, self.key, "0")


@register_task
class SystemBrightnessMaxVerify(SystemBrightnessMax):
    mirrors = "SystemBrightnessMaxVerify"
    judge = "settings system screen_brightness is 255; starts already at 255."

    def initialize(self, device: Device) -> None:
        device.put_setting("system", "screen_brightness", str(BRIGHTNESS_MAX))


@register_task
class SystemBrightnessMinVerify(SystemBrightnessMin):
    mirrors = "SystemBrightnessMinVerify"
    judge = "settings system screen_brightness is 1; starts already at 1."

    def initialize(self, device: Device) -> None:
        device.put_setting("system", "screen_brightness", str(BRIGHTNESS_MIN))


# --- composite tasks: partial credit, as AndroidWorld averages their two checks ------------------


class SequenceOracle(Oracle):
    """Run oracles one after another; each hands over when it would say ``F``."""

    def __init__(self, *parts: Oracle) -> None:
        self.parts = list(parts)

    def act(self, screen: LabelledScreen) -> str:
        while self.parts:
            action = self.parts[0].act(screen)
            if action != "F" or len(self.parts) == 1:
                return action
            self.parts.pop(0)
        return "F"


class OpenAppOracle(ScriptedOracle):
    """Bring an app to the front (from wherever), clear its first-run prompt, done."""

    def __init__(self, package: str, label: str) -> None:
        super().__init__()
        self.package, self.label = package, label

    def act(self, screen: LabelledScreen) -> str:
        if package_of(screen) == self.package:
            for prompt in ("While using the app", "Next", "Skip", "Accept & continue", "No thanks"):
                hit = label_for(screen, text=prompt)
                if hit is not None:
                    return self.tap(hit)
            return "F"
        if package_of(screen) != LAUNCHER_PACKAGE:
            return "H"
        hit = label_for(screen, text=self.label)
        return self.tap(hit) if hit else self.scroll_search(screen)


#: AndroidWorld's app names for the open-app tasks: package and launcher label.
OPEN_APPS = {
    "camera": ("com.android.camera2", "Camera"),
    "clock": ("com.google.android.deskclock", "Clock"),
    "contacts": ("com.google.android.contacts", "Contacts"),
    "settings": (SETTINGS_PACKAGE, "Settings"),
    "dialer": ("com.google.android.dialer", "Phone"),
}


@register_task
class TurnOffWifiAndTurnOnBluetooth(Task):
    mirrors = "TurnOffWifiAndTurnOnBluetooth"
    app: ClassVar[str] = "Settings"
    family: ClassVar[str] = "system"
    complexity: ClassVar[float] = 2.0
    template = "Turn off WiFi, then enable bluetooth"
    judge = "Average of two checks: wifi_on is 0, bluetooth_on is 1 (0, 0.5 or 1, as in AndroidWorld)."

    def initialize(self, device: Device) -> None:
        device.put_setting("global", "wifi_on", "1")
        device.put_setting("global", "bluetooth_on", "0")

    def progress(self, device: Device, answer: str | None = None) -> float:
        return (float(device.get_setting("global", "wifi_on") == "0") + float(device.get_setting("global", "bluetooth_on") == "1")) / 2

    def oracle(self) -> Oracle:
        return SequenceOracle(ToggleOracle(_WIFI_PATH, WIFI, False), ToggleOracle(_BT_PATH, "Use Bluetooth", True))


@register_task
class TurnOnWifiAndOpenApp(Task):
    mirrors = "TurnOnWifiAndOpenApp"
    app: ClassVar[str] = "Settings"
    family: ClassVar[str] = "system"
    complexity: ClassVar[float] = 2.0
    template = "Turn on Wifi, then open the {app_name} app"
    judge = "Average of two checks: wifi_on is 1 (or 2), and the named app is in the foreground."

    @classmethod
    def generate_params(cls, rng: Any) -> dict[str, Any]:
        return {"app_name": str(rng.choice(sorted(OPEN_APPS)))}

    def initialize(self, device: Device) -> None:
        device.put_setting("global", "wifi_on", "0")

    def progress(self, device: Device, answer: str | None = None) -> float:
        wifi = device.get_setting("global", "wifi_on") in ("1", "2")
        front = device.foreground_package() == OPEN_APPS[self.params["app_name"]][0]
        return (float(wifi) + float(front)) / 2

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        return SequenceOracle(ToggleOracle(_WIFI_PATH, WIFI, True), OpenAppOracle(*OPEN_APPS[self.params["app_name"]]))


@register_task
class OpenAppTaskEval(Task):
    mirrors = "OpenAppTaskEval"
    app: ClassVar[str] = "Launcher"
    family: ClassVar[str] = "system"
    complexity: ClassVar[float] = 1.0
    template = "Open the {app_name} app. Clear any pop-ups that may appear by granting all permissions that are required."
    judge = "The named app's package is in the foreground."

    @classmethod
    def generate_params(cls, rng: Any) -> dict[str, Any]:
        return {"app_name": str(rng.choice(sorted(OPEN_APPS)))}

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if device.foreground_package() == OPEN_APPS[self.params["app_name"]][0] else 0.0

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        return OpenAppOracle(*OPEN_APPS[self.params["app_name"]])
