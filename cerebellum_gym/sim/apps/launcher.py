"""The home screen: a grid of app icons, four to a row."""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any, ClassVar

from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import AppIcon, Row, Text, Widget

COLUMNS = 4
WALLPAPER = (226, 236, 250)


@functools.lru_cache(maxsize=256)
def _date_line(minute: int) -> str:
    """The home screen's date line for the clock's minute (the phone's ``now()``, UTC)."""
    return datetime.fromtimestamp(minute * 60, timezone.utc).strftime("%A, %B %-d")


class Launcher(App):
    package: ClassVar[str] = "com.google.android.apps.nexuslauncher"
    activity: ClassVar[str] = ".NexusLauncherActivity"
    label: ClassVar[str] = "Home"
    launchable: ClassVar[bool] = False
    clock_dependent: ClassVar[bool] = False

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state.pop("_home", None)  # widgets with callbacks: made again on demand
        return state

    def back(self) -> bool:
        return True  # back on the home screen stays home

    def _launcher(self, package: str) -> Callable[[], None]:
        return lambda: self.phone.start_app(package)

    def screen_main(self, route: Route) -> ScreenSpec:
        # The home screen depends only on the installed apps (fixed) and the date line, so it is
        # made once per date line (its callbacks only start apps on this phone) and handed back
        # as the same spec, which lets the phone reuse its layout.
        date = _date_line(int(self.phone.state.clock // 60))
        cached = self.__dict__.get("_home")
        if cached is None or cached[0] != date:
            icons: list[Widget] = []
            for app in self.phone.launchable_apps():
                icons.append(AppIcon(app.label, app.color, on_tap=self._launcher(app.package), background=WALLPAPER))
            rows: list[Widget] = [Text(date, size=52, height=260, center=True, background=WALLPAPER)]
            for i in range(0, len(icons), COLUMNS):
                rows.append(Row(icons[i : i + COLUMNS], columns=COLUMNS))
            cached = self._home = (date, ScreenSpec(title=None, body=rows, background=WALLPAPER))
        return cached[1]
