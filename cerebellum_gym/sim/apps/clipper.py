"""Clipper (``ca.zgrs.clipper``): the clipboard helper AndroidWorld installs on its emulator.

AndroidWorld sets and reads the clipboard with Clipper's broadcasts (``am broadcast -a
clipper.set -e text ...``, ``clipper.get``) after bringing the app to the front, since Android
10 and later let only the focused app use the clipboard; the served shell answers those
broadcasts (:mod:`cerebellum_gym.sim.shell.androidworld`). The app's one screen shows the clip.
It has no launcher icon in the simulator (AndroidWorld starts it by its activity only), so the
home screen is the same with or without it.
"""

from __future__ import annotations

from typing import ClassVar

from cerebellum_gym.sim import telephony
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Text


class ClipperApp(App):
    package: ClassVar[str] = "ca.zgrs.clipper"
    activity: ClassVar[str] = "ca.zgrs.clipper.Main"
    label: ClassVar[str] = "Clipper"
    color: ClassVar[tuple[int, int, int]] = (96, 125, 139)
    launchable: ClassVar[bool] = False
    clock_dependent: ClassVar[bool] = False

    def screen_main(self, route: Route) -> ScreenSpec:
        clip = telephony.clipboard(self.phone)
        return ScreenSpec(
            title="Clipper",
            body=[
                Text("Clipboard", size=40, height=120, color=(96, 94, 102)),
                Text(clip if clip else "The clipboard is empty", size=44, rid=f"{self.package}:id/clip"),
            ],
        )
