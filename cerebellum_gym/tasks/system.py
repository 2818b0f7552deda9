"""System settings tasks: Wi-Fi, Bluetooth and brightness, as in AndroidWorld's system family."""

from __future__ import annotations

from typing import Any, ClassVar

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.oracle import ScriptedOracle, find, switch_state
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

    def initialize(self, device: Device) -> None:
        device.put_setting(self.namespace, self.key, "0" if self.want_on else "1")

    def progress(self, device: Device, answer: str | None = None) -> float:
        value = device.get_setting(self.namespace, self.key)
        # AndroidWorld accepts wifi_on 2 ("on, airplane mode") as on.
        on = value in ("1", "2")
        return 1.0 if on == self.want_on else 0.0

    def oracle(self) -> Oracle:
        return ToggleOracle(self.path, self.switch_text, self.want_on)


_WIFI_PATH = ("Network & internet", "Internet")
_BT_PATH = ("Connected devices", "Connection preferences", "Bluetooth")


@register_task
class SystemWifiTurnOn(_Toggle):
    name = "SystemWifiTurnOn"
    mirrors = "SystemWifiTurnOn"
    template = "Turn wifi on."
    judge = "settings global wifi_on is 1 (or 2); starts at 0."
    key = "wifi_on"
    path = _WIFI_PATH
    switch_text = "Wi-Fi"


@register_task
class SystemWifiTurnOff(SystemWifiTurnOn):
    name = "SystemWifiTurnOff"
    mirrors = "SystemWifiTurnOff"
    template = "Turn wifi off."
    judge = "settings global wifi_on is 0; starts at 1."
    want_on = False


@register_task
class SystemBluetoothTurnOn(_Toggle):
    name = "SystemBluetoothTurnOn"
    mirrors = "SystemBluetoothTurnOn"
    template = "Turn bluetooth on."
    judge = "settings global bluetooth_on is 1; starts at 0."
    key = "bluetooth_on"
    path = _BT_PATH
    switch_text = "Use Bluetooth"


@register_task
class SystemBluetoothTurnOff(SystemBluetoothTurnOn):
    name = "SystemBluetoothTurnOff"
    mirrors = "SystemBluetoothTurnOff"
    template = "Turn bluetooth off."
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

    def initialize(self, device: Device) -> None:
        start = BRIGHTNESS_MIN if self.target == BRIGHTNESS_MAX else BRIGHTNESS_MAX
        device.put_setting("system", "screen_brightness", str(start))

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if device.get_setting("system", "screen_brightness") == str(self.target) else 0.0

    def oracle(self) -> Oracle:
        return BrightnessOracle(self.target)

    @classmethod
    def generate_params(cls, rng: Any) -> dict[str, Any]:
        return {}


@register_task
class SystemBrightnessMax(_Brightness):
    name = "SystemBrightnessMax"
    mirrors = "SystemBrightnessMax"
    template = "Turn brightness to the max value."
    judge = "settings system screen_brightness is 255; starts at 1."
    target = BRIGHTNESS_MAX


@register_task
class SystemBrightnessMin(_Brightness):
    name = "SystemBrightnessMin"
    mirrors = "SystemBrightnessMin"
    template = "Turn brightness to the min value."
    judge = "settings system screen_brightness is 1; starts at 255."
    target = BRIGHTNESS_MIN
