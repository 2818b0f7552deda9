"""Clock tasks: stopwatch and timer judged on the screen (as AndroidWorld does), alarms on the
alarms provider."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.common import screen_shows
from cerebellum_gym.tasks.oracle import ScriptedOracle, label_for, time_picker_step
from cerebellum_gym.tasks.registry import register_task

CLOCK_PACKAGE = "com.google.android.deskclock"
ALARMS_URI = "content://com.google.android.deskclock/alarms"


class _ClockOracle(ScriptedOracle):
    tab = "Stopwatch"

    def in_tab(self, screen: LabelledScreen) -> str | None:
        """The next action toward the clock's ``tab``, or ``None`` once it shows."""
        step = self.open_app(screen, CLOCK_PACKAGE, "Clock")
        if step is not None:
            return step
        # The bottom navigation marks the tab on show as selected.
        if any(n.content_desc == self.tab and n.selected for n in screen.root.iter()):
            return None
        label = label_for(screen, desc=self.tab)
        return self.tap(label) if label else "B"


class StopwatchOracle(_ClockOracle):
    def __init__(self, want: str) -> None:
        super().__init__()
        self.want = want

    def act(self, screen: LabelledScreen) -> str:
        step = self.in_tab(screen)
        if step is not None:
            return step
        if screen.root.find(content_desc=self.want) is not None:
            return "F"
        label = label_for(screen, desc="Start" if self.want == "Pause" else "Pause")
        return self.tap(label) if label else "F"


@register_task
class ClockStopWatchRunning(Task):
    mirrors = "ClockStopWatchRunning"
    app: ClassVar[str] = "Clock"
    family: ClassVar[str] = "clock"
    complexity: ClassVar[float] = 1.0
    template = "Run the stopwatch."
    judge = "Clock is in the foreground and the screen shows both the Pause and the Lap buttons (the stopwatch runs)."

    def progress(self, device: Device, answer: str | None = None) -> float:
        ok = device.foreground_package() == CLOCK_PACKAGE and screen_shows(device, "Pause") and screen_shows(device, "Lap")
        return 1.0 if ok else 0.0

    def oracle(self) -> Oracle:
        return StopwatchOracle("Pause")


@register_task
class ClockStopWatchPausedVerify(Task):
    mirrors = "ClockStopWatchPausedVerify"
    app: ClassVar[str] = "Clock"
    family: ClassVar[str] = "clock"
    complexity: ClassVar[float] = 1.0
    template = "Pause the stopwatch."
    judge = "Clock is in the foreground on the Stopwatch tab with the Start button showing (the stopwatch is at rest)."

    def progress(self, device: Device, answer: str | None = None) -> float:
        ok = (
            device.foreground_package() == CLOCK_PACKAGE
            and screen_shows(device, "Start")
            and screen_shows(device, "Stopwatch")
            and not screen_shows(device, "Pause")
        )
        return 1.0 if ok else 0.0

    def oracle(self) -> Oracle:
        return StopwatchOracle("Start")


class TimerOracle(_ClockOracle):
    tab = "Timer"

    def __init__(self, digits: str) -> None:
        super().__init__()
        self.digits = digits.lstrip("0")

    def act(self, screen: LabelledScreen) -> str:
        step = self.in_tab(screen)
        if step is not None:
            return step
        display = screen.root.find(resource_id=f"{CLOCK_PACKAGE}:id/timer_setup_time")
        if display is None:  # a running timer: delete it to get back to the keypad
            label = label_for(screen, desc="Delete")
            return self.tap(label) if label else "B"
        current = "".join(c for c in display.text if c.isdigit()).lstrip("0")
        if current == self.digits:
            return "F"
        # Type the next digit while the display is a prefix of the target; otherwise delete one.
        if self.digits.startswith(current):
            label = label_for(screen, text=self.digits[len(current)])
        else:
            label = label_for(screen, rid=f"{CLOCK_PACKAGE}:id/timer_setup_delete")
        return self.tap(label) if label else "B"


@register_task
class ClockTimerEntry(Task):
    mirrors = "ClockTimerEntry"
    app: ClassVar[str] = "Clock"
    family: ClassVar[str] = "clock"
    complexity: ClassVar[float] = 1.0
    template = "Create a timer with {hours} hours, {minutes} minutes, and {seconds} seconds. Do not start the timer."
    judge = 'Clock is in the foreground and the timer keypad shows "HHh MMm SSs" with exactly those values (not started).'

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"hours": int(rng.integers(0, 24)), "minutes": int(rng.integers(0, 60)), "seconds": int(rng.integers(0, 60))}

    @property
    def display(self) -> str:
        p = self.params
        return f"{p['hours']:02d}h {p['minutes']:02d}m {p['seconds']:02d}s"

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if device.foreground_package() == CLOCK_PACKAGE and screen_shows(device, self.display) else 0.0

    def text_candidates(self) -> list[str]:
        return []

    def oracle(self) -> Oracle:
        p = self.params
        return TimerOracle(f"{p['hours']:02d}{p['minutes']:02d}{p['seconds']:02d}")


class AlarmOracle(_ClockOracle):
    tab = "Alarm"

    def __init__(self, hour: int, minute: int) -> None:
        super().__init__()
        self.hour, self.minute = hour, minute

    def act(self, screen: LabelledScreen) -> str:
        if screen.root.find(resource_id="android:id/toggle_mode") is not None:
            return time_picker_step(self, screen, self.hour, self.minute)
        step = self.in_tab(screen)
        if step is not None:
            return step
        if screen.root.find(text=f"{self.hour:02d}:{self.minute:02d}") is not None:
            return "F"
        label = label_for(screen, desc="Add alarm")
        return self.tap(label) if label else "B"


@register_task
class ClockAddAlarm(Task):
    app: ClassVar[str] = "Clock"
    family: ClassVar[str] = "clock"
    complexity: ClassVar[float] = 1.0
    template = "Set an alarm for {time} in the Clock app."
    judge = "The alarms provider has exactly one new enabled alarm, at that hour and minute; the existing alarms are unchanged."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        hour, minute = int(rng.integers(0, 24)), int(rng.choice([0, 5, 10, 15, 20, 30, 40, 45, 50]))
        return {"hour": hour, "minute": minute, "time": f"{hour:02d}:{minute:02d}"}

    def initialize(self, device: Device) -> None:
        device.content_delete(ALARMS_URI)
        # Two existing alarms that are never the target, so "some alarm exists" is not enough.
        for hour in ((self.params["hour"] + 5) % 24, (self.params["hour"] + 11) % 24):
            device.content_insert(ALARMS_URI, {"hour": str(hour), "minutes": "30", "enabled": "1", "label": "Alarm"})

    def progress(self, device: Device, answer: str | None = None) -> float:
        rows = device.content_query(ALARMS_URI)
        if len(rows) != 3:
            return 0.0
        hit = [
            r
            for r in rows
            if r.get("hour") == str(self.params["hour"]) and r.get("minutes") == str(self.params["minute"]) and r.get("enabled") == "1"
        ]
        return 1.0 if len(hit) == 1 else 0.0

    def text_candidates(self) -> list[str]:
        return [str(self.params["hour"]), str(self.params["minute"])]

    def oracle(self) -> Oracle:
        return AlarmOracle(self.params["hour"], self.params["minute"])
