"""The Pixel launcher as Android 13 shows it on AndroidWorld's emulator (a Pixel 6).

The home screen holds the "At a glance" date at the top, the favourites tray (hotseat) above the
search bar at the bottom, and no other app: every app sits in the app drawer, which a swipe up
opens (an overscroll of the workspace), alphabetical, four to a row, under its "Search apps" field.
Back, home, or a pull down at the drawer's top go back to the home screen.

What is real here, and from where: the strings and ids of Launcher3 (AOSP, Android 13: ``Home``,
``Search apps``, ``Apps list``, ``No apps found matching "…"``, ``workspace``, ``hotseat``,
``apps_list_view``, ``search_container_all_apps``), the element list of the home screen recorded on
AndroidWorld's emulator (the date as "Sun, Oct 15", clickable; the search bar "Search" with
"Google app", "Voice search" and "Google Lens"; Phone, Messages, Chrome and Gmail in the tray and
Gmail, Photos and YouTube on the page above it), and Launcher3's search, which matches the start of
any word of an app's name.

Messages, Gmail, Photos and YouTube are Google apps of the emulator's image that no AndroidWorld
task uses and the simulator does not have. Their icons are shown where the real home screen shows
them, as clickable as there, but a tap on one leaves the home screen as it is: the simulator draws
no screen of an app it does not have rather than one that exists nowhere (docs/fidelity.md).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Hashable, Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.material import dp
from cerebellum_gym.sim.screen import NAV_HEIGHT, SCREEN_HEIGHT, SCREEN_WIDTH, STATUS_HEIGHT, ScreenSpec
from cerebellum_gym.sim.widgets import Row, Text, TextField, Widget

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

#: Icons to a row, in the tray and in the drawer (the hotseat AndroidWorld's home lists has four).
COLUMNS: Final = 4
#: The favourites tray as AndroidWorld's emulator shows it: (cell, package, label).
HOTSEAT: Final = (
    (0, "com.google.android.dialer", "Phone"),
    (1, "com.google.android.apps.messaging", "Messages"),
    (2, "com.android.chrome", "Chrome"),
    (3, "com.google.android.gm", "Gmail"),
)
#: The page's row above the tray, at the cells AndroidWorld's recorded runs show (the image's
#: default first page, right-aligned): (cell, package, label).
FIRST_PAGE: Final = (
    (1, "com.google.android.gm", "Gmail"),
    (2, "com.google.android.apps.photos", "Photos"),
    (3, "com.google.android.youtube", "YouTube"),
)
#: Tile colours of the image's Google apps the simulator does not have (their brand colours).
ABSENT_COLORS: Final[dict[str, render.RGB]] = {
    "com.google.android.apps.messaging": (26, 115, 232),
    "com.google.android.gm": (234, 67, 53),
    "com.google.android.apps.photos": (251, 188, 4),
    "com.google.android.youtube": (255, 0, 0),
}
WALLPAPER: Final = (32, 48, 66)
DRAWER_BACKGROUND: Final = (242, 241, 246)
ON_WALLPAPER: Final = (255, 255, 255)
SEARCH_PILL: Final = (233, 238, 246)
#: Height of the workspace: the window between the status bar and the gesture handle.
PAGE_HEIGHT: Final = SCREEN_HEIGHT - STATUS_HEIGHT - NAV_HEIGHT
ICON_CELL: Final = dp(112)
SEARCH_KEY: Final = "launcher_search"
#: A swipe moves at least this far (device pixels) to open or close the drawer.
FLING: Final = 100


@functools.lru_cache(maxsize=256)
def _date_line(minute: int) -> str:
    """ "At a glance"'s date for the clock's minute (the phone's ``now()``, UTC): ``Sun, Oct 15``."""
    return datetime.fromtimestamp(minute * 60, timezone.utc).strftime("%a, %b %-d")


def matches(label: str, query: str) -> bool:
    """Launcher3's app search: the query starts a word of the name (case and spaces aside)."""
    query = query.strip().lower()
    if not query:
        return True
    name = label.lower()
    starts = [0, *(m.end() for m in re.finditer(r"[\s\-_.]+", name))]
    return any(name.startswith(query, i) for i in starts)


class LauncherIcon(Widget):
    """An app's icon: a round tile with its initial, the name below (a ``BubbleTextView``)."""

    class_name = "android.widget.TextView"
    default_height = ICON_CELL

    def __init__(self, label: str, color: render.RGB, *, on_tap: Callable[[], None], on_wallpaper: bool, **kwargs: Any) -> None:
        kwargs.setdefault("background", WALLPAPER if on_wallpaper else DRAWER_BACKGROUND)
        super().__init__(text=label, desc=label, on_tap=on_tap, **kwargs)
        self.color = color
        self.on_wallpaper = on_wallpaper

    def render_key(self) -> Hashable:
        return (self.text, self.color, self.on_wallpaper)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        d = round(dp(56) * scale)
        left, top = (width - d) // 2, round(dp(10) * scale)
        draw.ellipse((left, top, left + d, top + d), fill=self.color)
        size = round(dp(24) * scale)
        initial = self.text[:1].upper()
        iw = draw.textlength(initial, font=render.font(size, "medium"))
        draw.text((left + (d - iw) / 2, top + (d - size) / 2 - size * 0.1), initial, font=render.font(size, "medium"), fill=(255, 255, 255))
        lsz = round(dp(13) * scale)
        shown = render.text_fit(draw, self.text, lsz, width - round(dp(8) * scale))
        lw = draw.textlength(shown, font=render.font(lsz))
        fill = ON_WALLPAPER if self.on_wallpaper else (31, 31, 31)
        draw.text(((width - lw) / 2, top + d + round(dp(8) * scale)), shown, font=render.font(lsz), fill=fill)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.long_clickable = True
        return node


class _Glyph(Widget):
    """One of the search bar's buttons (an ``ImageView`` with its description)."""

    class_name = "android.widget.ImageView"
    background = SEARCH_PILL

    def __init__(self, desc: str, icon: str, *, on_tap: Callable[[], None]) -> None:
        super().__init__(desc=desc, on_tap=on_tap)
        self.icon = icon

    def render_key(self) -> Hashable:
        return (self.icon,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(24) * scale)
        box = ((width - size) / 2, (height - size) / 2, (width + size) / 2, (height + size) / 2)
        if self.icon == "G":
            f = render.font(size, "medium")
            draw.text(((width - draw.textlength("G", font=f)) / 2, (height - size) / 2 - size * 0.1), "G", font=f, fill=(66, 133, 244))
        else:
            render.draw_icon(draw, self.icon, box, (68, 71, 70))


class SearchBar(Widget):
    """The home screen's search bar: a pill with the Google button, voice search and Lens."""

    class_name = "android.widget.FrameLayout"
    background = WALLPAPER

    def __init__(self, *, on_tap: Callable[[], None], rid: str) -> None:
        super().__init__(desc="Search", rid=rid, on_tap=on_tap)

    def render_key(self) -> Hashable:
        return ()

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=height // 2, fill=SEARCH_PILL)

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        side = bottom - top
        inset = side // 8  # the buttons stay inside the pill's rounded ends
        assert self.on_tap is not None
        lens = right - side // 2 - side + inset
        return (
            (
                _Glyph("Google app", "G", on_tap=self.on_tap),
                (left + side // 4, top + inset, left + side // 4 + side - 2 * inset, bottom - inset),
            ),
            (_Glyph("Voice search", "mic", on_tap=self.on_tap), (lens - side + 2 * inset, top + inset, lens, bottom - inset)),
            (_Glyph("Google Lens", "center_focus_weak", on_tap=self.on_tap), (lens, top + inset, lens + side - 2 * inset, bottom - inset)),
        )


class Workspace(Widget):
    """The home screen's page (``Home``): the date, the tray and the search bar at their places."""

    class_name = "android.view.View"
    opaque = False

    def __init__(
        self, date: Widget, tray: Sequence[tuple[int, Widget]], page: Sequence[tuple[int, Widget]], search: Widget, rid: str
    ) -> None:
        super().__init__(desc="Home", rid=rid, height=PAGE_HEIGHT)
        self.date = date
        self.tray = list(tray)
        self.page = list(page)
        self.search = search

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), tuple(cell for cell, _ in self.tray), tuple(cell for cell, _ in self.page))

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        # In the order uiautomator lists them on the real home screen: the tray, the search bar,
        # the date, the page's icons.
        left, top, right, bottom = bounds
        margin = dp(16)
        search_top = bottom - dp(24) - dp(56)
        tray_top = search_top - dp(16) - ICON_CELL
        page_top = tray_top - dp(24) - ICON_CELL
        cell = (right - left - 2 * margin) // COLUMNS
        placed: list[tuple[Widget, Bounds]] = []
        for index, icon in self.tray:
            x = left + margin + index * cell
            placed.append((icon, (x, tray_top, x + cell, tray_top + ICON_CELL)))
        placed.append((self.search, (left + margin, search_top, right - margin, search_top + dp(56))))
        placed.append((self.date, (left + margin, top + dp(40), left + SCREEN_WIDTH * 2 // 3, top + dp(90))))
        for index, icon in self.page:
            x = left + margin + index * cell
            placed.append((icon, (x, page_top, x + cell, page_top + ICON_CELL)))
        return placed


class Launcher(App):
    package: ClassVar[str] = "com.google.android.apps.nexuslauncher"
    activity: ClassVar[str] = ".NexusLauncherActivity"
    label: ClassVar[str] = "Home"
    launchable: ClassVar[bool] = False
    clock_dependent: ClassVar[bool] = False

    # --- navigation --------------------------------------------------------------------------

    def back(self) -> bool:
        if self.route["screen"] == "drawer":
            self.reset_to("main")
        return True  # back on the home screen stays home

    def overscroll(self, dy: int) -> bool:
        """A swipe up on the home screen opens the drawer; a pull down at its top closes it."""
        screen = self.route["screen"]
        if screen == "main" and dy >= FLING:
            self.open_drawer()
            return True
        if screen == "drawer" and dy <= -FLING and not self.route.get("scroll"):
            self.reset_to("main")
            return True
        return False

    def open_drawer(self, search: bool = False) -> None:
        self.reset_to("drawer", query="")
        if search:
            self.phone.focus(SEARCH_KEY)

    def _start(self, package: str) -> Callable[[], None]:
        def start() -> None:
            self.reset_to("main")  # the launcher is on its home screen when it comes back
            self.phone.start_app(package)

        return start

    # --- screens -----------------------------------------------------------------------------

    def screen_main(self, route: Route) -> ScreenSpec:
        # The home screen depends only on the date line (the installed apps are fixed): made once
        # per date and handed back as the same spec, which lets the phone reuse its layout.
        date = _date_line(int(self.phone.state.clock // 60))
        return self.reused_spec(("main", date), lambda: self._home(date))

    def _home(self, date: str) -> ScreenSpec:
        rid = f"{self.package}:id/"
        glance = Text(date, size=dp(22), color=ON_WALLPAPER, on_tap=lambda: None, background=WALLPAPER)
        search = SearchBar(on_tap=lambda: self.open_drawer(search=True), rid=rid + "search_container_hotseat")
        page = Workspace(glance, self._icons(HOTSEAT), self._icons(FIRST_PAGE), search, rid + "workspace")
        return ScreenSpec(
            title=None,
            body=[page],
            background=WALLPAPER,
            list_id="drag_layer",
            list_class="android.widget.FrameLayout",
            always_scrollable=True,
        )

    def _icons(self, cells: Sequence[tuple[int, str, str]]) -> list[tuple[int, Widget]]:
        """The home screen's icons at their cells; one of an app the simulator lacks does nothing."""
        icons: list[tuple[int, Widget]] = []
        for cell, package, label in cells:
            app = self.phone.apps.get(package)
            if app is not None:
                icon = LauncherIcon(app.label, app.color, on_tap=self._start(package), on_wallpaper=True)
            else:
                icon = LauncherIcon(label, ABSENT_COLORS[package], on_tap=lambda: None, on_wallpaper=True)
            icons.append((cell, icon))
        return icons

    def screen_drawer(self, route: Route) -> ScreenSpec:
        query = str(route.get("query", ""))
        focused = self.phone.state.focus == SEARCH_KEY
        return self.reused_spec(("drawer", query, focused), lambda: self._drawer(query, focused))

    def _drawer(self, query: str, focused: bool) -> ScreenSpec:
        apps = self._found(query)
        field = TextField(
            SEARCH_KEY,
            query,
            hint="Search apps",
            on_change=self._set_query,
            on_submit=self._launch_first,
            focused=focused,
            rid=f"{self.package}:id/search_container_all_apps",
            background=DRAWER_BACKGROUND,
        )
        body: list[Widget] = [field]
        icons = [LauncherIcon(app.label, app.color, on_tap=self._start(app.package), on_wallpaper=False) for app in apps]
        for i in range(0, len(icons), COLUMNS):
            body.append(Row(icons[i : i + COLUMNS], columns=COLUMNS, height=ICON_CELL + dp(8)))
        if not icons:
            body.append(Text(f'No apps found matching "{query}"', center=True, background=DRAWER_BACKGROUND))
        return ScreenSpec(title=None, body=body, background=DRAWER_BACKGROUND, list_id="apps_list_view", always_scrollable=True)

    def _found(self, query: str) -> list[App]:
        """The apps the drawer lists for ``query``, alphabetical."""
        return [app for app in self.phone.launchable_apps() if matches(app.label, query)]

    def _set_query(self, value: str) -> None:
        self.route["query"] = value

    def _launch_first(self) -> None:
        # The keyboard's search key opens the first app found, as Launcher3's does.
        query = str(self.route.get("query", ""))
        found = self._found(query)
        if found and query.strip():
            self._start(found[0].package)()


def open_drawer(phone: Phone) -> None:
    """Show the app drawer (what a swipe up on the home screen does)."""
    phone.go_home()
    launcher = phone.apps[Launcher.package]
    assert isinstance(launcher, Launcher)
    launcher.open_drawer()
    phone.invalidate()
