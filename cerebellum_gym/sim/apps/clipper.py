"""Clipper (``ca.zgrs.clipper``): the clipboard helper AndroidWorld installs on its emulator.

AndroidWorld sets and reads the clipboard with Clipper's broadcasts (``am broadcast -a
clipper.set -e text ...``, ``clipper.get``) after bringing the app to the front, since Android
10 and later let only the focused app use the clipboard; the served shell answers those
broadcasts (:mod:`cerebellum_gym.sim.shell.androidworld`). AndroidWorld's set-up
(``ClipperApp.setup``) taps through Android's screens for an app built for an old Android
("Continue", "OK"), so the app opens on its one screen.

That screen is majido/clipper's ``Main`` activity (``src/main/res/layout/main.xml``): a plain
``Activity`` with no target SDK, so Android's legacy theme: the window's title bar
(``android:id/title``, the app's label) over a black window, then the ``head`` TextView "Clipper
service is started!" in bold and the ``sub`` TextView with the usage text
(``src/main/res/values/strings.xml``). It does not show the clip. It has no launcher icon in the
simulator (AndroidWorld starts it by its activity only), so the home screen is the same with or
without it.
"""

from __future__ import annotations

from typing import ClassVar, Final

from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.material import dp
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Text

PKG: Final = "ca.zgrs.clipper"
#: ``@string/started`` and ``@string/usage`` as Android's resource compiler makes them (runs of
#: white space folded to one, ``\n`` a line break, the ends trimmed).
STARTED: Final = "Clipper service is started!"
USAGE: Final = (
    "Usage: You can copy to or paste from clipboard from adb shell using the following commands:\n"
    " * am broadcast -a clipper.set -e text 'This may be pasted now' \n"
    " * am broadcast -a clipper.get"
)
BLACK: Final = (0, 0, 0)
TITLE_BAR: Final = (66, 66, 66)  # the legacy theme's grey window title bar
LIGHT_TEXT: Final = (255, 255, 255)


@register_app
class ClipperApp(App):
    package: ClassVar[str] = PKG
    activity: ClassVar[str] = "ca.zgrs.clipper.Main"
    label: ClassVar[str] = "Clipper"
    color: ClassVar[tuple[int, int, int]] = (96, 125, 139)
    launchable: ClassVar[bool] = False
    clock_dependent: ClassVar[bool] = False

    def screen_main(self, route: Route) -> ScreenSpec:
        return self.reused_spec(("main",), self._main)

    def _main(self) -> ScreenSpec:
        return ScreenSpec(
            title=None,
            body=[
                Text(self.label, size=dp(14), height=dp(25), color=LIGHT_TEXT, background=TITLE_BAR, rid="android:id/title"),
                Text(STARTED, size=dp(14), bold=True, height=dp(20), color=LIGHT_TEXT, background=BLACK, rid=f"{PKG}:id/head"),
                Text(USAGE, size=dp(14), height=dp(100), color=LIGHT_TEXT, background=BLACK, rid=f"{PKG}:id/sub"),
            ],
            background=BLACK,
            list_id="content",
            list_class="android.widget.LinearLayout",
        )
