"""Settings as Android 13 (AOSP) shows it: network (Wi‑Fi, airplane mode), Bluetooth, display.

The home page: the account avatar, "Settings", the "Search settings" bar and the top-level
preferences (``android:id/title`` and ``android:id/summary`` in ``recycler_view``); a sub-page's
title is the content-desc of SettingsLib's collapsing toolbar (``collapsing_toolbar``, with
``action_bar`` and its "Navigate up"), not a TextView. Switches are ``android:id/switch_widget``;
AOSP spells Wi‑Fi with a non-breaking hyphen (U+2011), as the real screens show it.

The home's "Search settings" card opens the search page, which on the real phone is another
package's activity (SettingsIntelligence, ``com.google.android.settings.intelligence`` on the
Pixel image): here it is a route of Settings' own stack, so its nodes' ``package`` stays
``com.android.settings`` while its resource-ids name SettingsIntelligence's package as the real
ones do (framework SearchView ids: ``android:id/search_src_text``, ``search_close_btn``).

Toggles live in the system settings store (``settings get global wifi_on``), which is where a
judge reads them on a real device too.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.material import dp
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import IconButton, Slider, Switch, Text, Widget

BRIGHTNESS_MAX = 255
#: AOSP's spelling (a non-breaking hyphen, U+2011).
WIFI: Final = "Wi\u2011Fi"
PKG: Final = "com.android.settings"
#: The package of the search page on the Pixel image (AOSP's SettingsIntelligence); the
#: simulator keeps the page in Settings' stack, so only its resource-ids carry this package.
SEARCH_PKG: Final = "com.google.android.settings.intelligence"

_MAIN_ITEMS: tuple[tuple[str, str, str | None], ...] = (
    ("Network & internet", f"Mobile, {WIFI}, hotspot", "network"),
    ("Connected devices", "Bluetooth, pairing", "connected"),
    ("Apps", "Assistant, recent apps, default apps", None),
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


class Pref(Widget):
    """A preference row: a clickable LinearLayout with ``android:id/title`` and, when it has one,
    ``android:id/summary``; a category header is a title alone, not clickable."""

    class_name = "android.widget.LinearLayout"
    default_height = dp(72)

    def __init__(self, title: str, summary: str = "", *, header: bool = False, **kwargs: object) -> None:
        kwargs.setdefault("height", dp(48) if header else dp(72) if summary else dp(56))
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.title, self.summary, self.header = title, summary, header

    def render_key(self) -> Hashable:
        return (self.title, self.summary, self.header)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title, self.summary, self.header)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        left = round(dp(16 if self.header else 72) * scale)
        if self.header:
            size = round(dp(14) * scale)
            draw.text((left, height * 0.62), self.title, font=render.font(size, "medium"), fill=render.PRIMARY, anchor="lm")
            return
        big, small = round(dp(18) * scale), round(dp(14) * scale)
        y = height / 2 if not self.summary else height * 0.36
        draw.text((left, y), render.text_fit(draw, self.title, big, width - left - 8), font=render.font(big), fill=render.TEXT, anchor="lm")
        if self.summary:
            shown = render.text_fit(draw, self.summary, small, width - left - 8)
            draw.text((left, height * 0.68), shown, font=render.font(small), fill=render.TEXT_SECONDARY, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        mid = (top + bottom) // 2
        x = left + dp(16 if self.header else 72)
        title = UINode("android.widget.TextView", (x, top + dp(8), right - dp(16), mid if self.summary else bottom - dp(8)))
        title.text, title.resource_id, title.package = self.title, "android:id/title", package
        node.children = [title]
        if self.summary:
            summary = UINode("android.widget.TextView", (x, mid, right - dp(16), bottom - dp(8)), index=1)
            summary.text, summary.resource_id, summary.package = self.summary, "android:id/summary", package
            node.children.append(summary)
        return node


class CollapsingBar(Widget):
    """SettingsLib's collapsing toolbar: the big title (the layout's content-desc) and the
    action bar with "Navigate up"."""

    class_name = "android.widget.FrameLayout"
    default_height = dp(150)

    def __init__(self, title: str, up: Callable[[], None]) -> None:
        super().__init__(desc=title, rid=f"{PKG}:id/collapsing_toolbar")
        self.up = up

    def render_key(self) -> Hashable:
        return (self.desc,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(36) * scale)
        left = round(dp(24) * scale)
        draw.text(
            (left, height - round(dp(28) * scale)),
            render.text_fit(draw, self.desc, size, width - 2 * left),
            font=render.font(size),
            fill=render.TEXT,
            anchor="ls",
        )

    def children(self, bounds: Bounds) -> list[tuple[Widget, Bounds]]:
        left, top, right, _ = bounds
        return [(_ActionBar(self.up), (left, top, right, top + dp(56)))]


class _ActionBar(Widget):
    class_name = "android.view.ViewGroup"
    opaque = False

    def __init__(self, up: Callable[[], None]) -> None:
        super().__init__(rid=f"{PKG}:id/action_bar")
        self.up = up

    def children(self, bounds: Bounds) -> list[tuple[Widget, Bounds]]:
        left, top, _, bottom = bounds
        return [(IconButton("Navigate up", "arrow_back", on_tap=self.up, background=render.BACKGROUND), (left, top, left + dp(56), bottom))]


class _SearchBar(Widget):
    """The home page's "Search settings" card (``search_bar``, ``search_action_bar``)."""

    class_name = "androidx.cardview.widget.CardView"
    default_height = dp(72)

    def __init__(self, on_tap: Callable[[], None]) -> None:
        super().__init__(rid=f"{PKG}:id/search_bar", on_tap=on_tap)

    def render_key(self) -> Hashable:
        return ()

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        inset = round(dp(12) * scale)
        draw.rounded_rectangle((inset, inset, width - inset, height - inset), radius=(height - 2 * inset) // 2, fill=(232, 236, 244))
        size = round(dp(16) * scale)
        draw.text((round(dp(64) * scale), height / 2), "Search settings", font=render.font(size), fill=render.TEXT_SECONDARY, anchor="lm")
        icon = round(dp(24) * scale)
        render.draw_icon(
            draw,
            "search",
            (round(dp(28) * scale), (height - icon) / 2, round(dp(28) * scale) + icon, (height + icon) / 2),
            render.TEXT_SECONDARY,
        )

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        # The card itself takes no click: the toolbar inside it does (SearchFeatureProvider's
        # listener is on search_action_bar); a tap anywhere on the card lands on the toolbar.
        node.clickable = node.focusable = False
        left, top, right, bottom = bounds
        bar = UINode(
            "android.view.ViewGroup", (left + dp(12), top + dp(12), right - dp(12), bottom - dp(12)), clickable=True, focusable=True
        )
        bar.resource_id, bar.package = f"{package}:id/search_action_bar", package
        title = UINode("android.widget.TextView", (left + dp(64), top + dp(12), right - dp(24), bottom - dp(12)))
        title.text, title.resource_id, title.package = "Search settings", f"{package}:id/search_action_bar_title", package
        bar.children = [title]
        node.children = [bar]
        return node


#: What the search finds: (title, summary, breadcrumbs, the page it opens). The titles and
#: breadcrumbs are the Settings pages the simulator has (AOSP's preference titles, the parent
#: pages' titles as SettingsIntelligence's index stores them); summaries only where static.
_SEARCH_INDEX: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("Network & internet", f"Mobile, {WIFI}, hotspot", (), "network"),
    ("Internet", "", ("Network & internet",), "internet"),
    (WIFI, "", ("Network & internet", "Internet"), "internet"),
    ("Airplane mode", "", ("Network & internet",), "network"),
    ("Connected devices", "Bluetooth, pairing", (), "connected"),
    ("Pair new device", "", ("Connected devices",), "connected"),
    ("Connection preferences", "Bluetooth, Android Auto, NFC", ("Connected devices",), "connection_prefs"),
    ("Bluetooth", "", ("Connected devices", "Connection preferences"), "bluetooth"),
    ("Display", "Dark theme, font size, brightness", (), "display"),
    ("Brightness level", "", ("Display",), "brightness"),
    ("Adaptive brightness", "", ("Display",), "display"),
    ("Dark theme", "", ("Display",), "display"),
    ("Screen timeout", "", ("Display",), "display"),
)


def search_results(query: str) -> list[tuple[str, str, tuple[str, ...], str]]:
    """The index rows whose title has a word starting with ``query`` (case-insensitive), the
    titles starting with it first, as SettingsIntelligence's DatabaseResultTask ranks them."""
    needle = query.strip().lower()
    if not needle:
        return []

    def words(title: str) -> list[str]:
        return title.lower().replace("\u2011", " ").replace("-", " ").replace("&", " ").split()

    first = [row for row in _SEARCH_INDEX if row[0].lower().startswith(needle)]
    later = [
        row for row in _SEARCH_INDEX if row not in first and (any(w.startswith(needle) for w in words(row[0])) or needle in row[0].lower())
    ]
    return first + later


#: SavedQueryLoader's MAX_PROPOSED_SUGGESTIONS.
_MAX_SAVED_QUERIES: Final = 5


class _SearchToolbar(Widget):
    """search_panel.xml's ``search_toolbar``: "Navigate up" and the SearchView's query field
    (``android:id/search_src_text``, hint "Search settings") with, once there is text, "Clear query"."""

    class_name = "android.widget.Toolbar"
    default_height = dp(84)

    def __init__(self, up: Callable[[], None], field: Widget, clear: Widget | None) -> None:
        super().__init__(rid=f"{SEARCH_PKG}:id/search_toolbar")
        self.up, self.field, self.clear = up, field, clear

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.clear is not None)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        inset = round(dp(16) * scale)
        draw.rounded_rectangle((inset, inset // 2, width - inset, height - inset // 2), radius=round(dp(28) * scale), fill=(232, 236, 244))

    def children(self, bounds: Bounds) -> list[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        mid = (top + bottom) // 2
        up = IconButton("Navigate up", "arrow_back", on_tap=self.up, background=(232, 236, 244))
        placed: list[tuple[Widget, Bounds]] = [(up, (left + dp(16), mid - dp(26), left + dp(72), mid + dp(26)))]
        end = right - dp(16) - (dp(48) if self.clear is not None else 0)
        placed.append((self.field, (left + dp(72), mid - dp(22), end, mid + dp(22))))
        if self.clear is not None:
            placed.append((self.clear, (end, mid - dp(24), end + dp(48), mid + dp(24))))
        return placed


class _ClearQuery(IconButton):
    """SearchView's close button: an ImageView (``android:id/search_close_btn``), "Clear query"."""

    class_name = "android.widget.ImageView"


class _SearchResult(Pref):
    """search_intent_item.xml: ``android:id/title``, ``android:id/summary`` (gone when empty)
    and the ``breadcrumb`` ("Display > ..."), in a clickable LinearLayout."""

    def __init__(self, title: str, summary: str, breadcrumbs: tuple[str, ...], **kwargs: object) -> None:
        lines = 1 + bool(summary) + bool(breadcrumbs)
        super().__init__(title, summary, height=dp(32 + 24 * lines), **kwargs)  # type: ignore[arg-type]
        self.breadcrumb = " > ".join(breadcrumbs)

    def render_key(self) -> Hashable:
        return (super().render_key(), self.breadcrumb)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.breadcrumb)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        left = round(dp(72) * scale)
        y = round(dp(16) * scale)
        line = round(dp(24) * scale)
        big, small = round(dp(16) * scale), round(dp(14) * scale)
        draw.text(
            (left, y + line / 2),
            render.text_fit(draw, self.title, big, width - left - 8),
            font=render.font(big),
            fill=render.TEXT,
            anchor="lm",
        )
        for text in (self.summary, self.breadcrumb):
            if text:
                y += line
                shown = render.text_fit(draw, text, small, width - left - 8)
                draw.text((left, y + line / 2), shown, font=render.font(small), fill=render.TEXT_SECONDARY, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = Widget.encode(self, bounds, package)
        left, top, right, _ = bounds
        x, y = left + dp(72), top + dp(16)
        node.children = []
        for text, rid in (
            (self.title, "android:id/title"),
            (self.summary, "android:id/summary"),
            (self.breadcrumb, f"{SEARCH_PKG}:id/breadcrumb"),
        ):
            if not text:
                continue
            child = UINode("android.widget.TextView", (x, y, right - dp(16), y + dp(24)), index=len(node.children))
            child.text, child.resource_id, child.package = text, rid, package
            node.children.append(child)
            y += dp(24)
        return node


class _Avatar(Widget):
    class_name = "android.widget.ImageView"

    def __init__(self) -> None:
        super().__init__(desc="Profile picture, double tap to open Google Account", on_tap=lambda: None)

    def render_key(self) -> Hashable:
        return ()

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        d = round(dp(40) * scale)
        x = width - d - round(dp(16) * scale)
        draw.ellipse((x, (height - d) // 2, x + d, (height + d) // 2), fill=(121, 134, 203))


@register_app
class SettingsApp(App):
    package: ClassVar[str] = PKG
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

    def _page(self, title: str, body: list[Widget], **extra: object) -> ScreenSpec:
        return ScreenSpec(title=None, app_bar=CollapsingBar(title, self._up), body=body, list_id="recycler_view", **extra)  # type: ignore[arg-type]

    # --- screens -----------------------------------------------------------------------------

    def screen_main(self, route: Route) -> ScreenSpec:
        return self.reused_spec(("main",), self._main_screen)  # the same every time

    def _main_screen(self) -> ScreenSpec:
        body: list[Widget] = [
            _Avatar(),
            Text("Settings", size=dp(36), height=dp(96)),
            _SearchBar(self._open_search),
        ]
        for title, summary, target in _MAIN_ITEMS:
            on_tap = functools.partial(self.push, target) if target else functools.partial(self.push, "stub", title=title)
            body.append(Pref(title, summary, on_tap=on_tap))
        return ScreenSpec(title=None, body=body, list_id="recycler_view")

    # --- search (SettingsIntelligence's SearchActivity) ---------------------------------------

    def _open_search(self) -> None:
        """The home card opens the search page, its SearchView focused (the keyboard up)."""
        self.push("search", query="")
        self.phone.focus(field_key(self, self.route, "query"))

    def _save_query(self, route: Route) -> None:
        """SavedQueryRecorder: the query goes to the top of the saved ones (once)."""
        query = str(route.get("query", ""))
        if query.strip():
            saved = [q for q in self.data.get("saved_queries", []) if q != query]
            self.data["saved_queries"] = [query, *saved]
        self.phone.focus(None)

    def _clear_query(self, route: Route) -> None:
        """SearchView's close button: the query emptied, the field focused (the keyboard up)."""
        route["query"] = ""
        self.phone.focus(field_key(self, route, "query"))

    def _open_result(self, route: Route, target: str) -> None:
        """onSearchResultClicked: the query is saved and the result's Settings page opens."""
        self._save_query(route)
        self.push(target)

    def screen_search(self, route: Route) -> ScreenSpec:
        query = str(route.get("query", ""))
        field = edit_field(self, route, "query", hint="Search settings", rid="android:id/search_src_text")
        field.on_submit = lambda: self._save_query(route)  # onQueryTextSubmit: saved, the keyboard hidden
        clear = None
        if query:
            clear = _ClearQuery("Clear query", "close", on_tap=lambda: self._clear_query(route), rid="android:id/search_close_btn")
        body: list[Widget] = []
        results = search_results(query)
        for title, summary, crumbs, target in results:
            body.append(_SearchResult(title, summary, crumbs, on_tap=functools.partial(self._open_result, route, target)))
        if not query:
            # An empty query lists the saved queries (search_saved_query_item.xml), newest first.
            for saved in self.data.get("saved_queries", [])[:_MAX_SAVED_QUERIES]:
                body.append(Pref(saved, on_tap=functools.partial(route.update, query=saved)))
        if query.strip() and not results:
            # no_results_layout: the empty-results picture and "No results" (18sp, centred).
            body.append(Text("No results", size=dp(18), center=True, height=dp(200)))
        return ScreenSpec(title=None, app_bar=_SearchToolbar(self._up, field, clear), body=body, list_id=f"{SEARCH_PKG}:id/list_results")

    def screen_stub(self, route: Route) -> ScreenSpec:
        title = route["title"]
        return self.reused_spec(("stub", title), lambda: self._page(title, [Text("Nothing to change here in the simulator.", size=40)]))

    def screen_network(self, route: Route) -> ScreenSpec:
        wifi = "AndroidWifi" if self._on("global", "wifi_on") else "Off"
        body: list[Widget] = [
            Pref("Internet", wifi, on_tap=lambda: self.push("internet")),
            Pref("Calls & SMS", "T-Mobile", on_tap=lambda: None),
            Pref("SIMs", "T-Mobile", on_tap=lambda: None),
            Switch("Airplane mode", self._on("global", "airplane_mode_on"), on_toggle=lambda: self._toggle("global", "airplane_mode_on")),
            Pref("Hotspot & tethering", "Off", on_tap=lambda: None),
            Pref("Data Saver", "Off", on_tap=lambda: None),
            Pref("VPN", "None", on_tap=lambda: None),
            Pref("Private DNS", "Automatic", on_tap=lambda: None),
        ]
        return self._page("Network & internet", body)

    def screen_internet(self, route: Route) -> ScreenSpec:
        on = self._on("global", "wifi_on")
        body: list[Widget] = [Switch(WIFI, on, on_toggle=lambda: self._toggle("global", "wifi_on"))]
        if on:
            body += [
                Pref("AndroidWifi", "Connected", on_tap=lambda: None),
                Pref("Add network", on_tap=lambda: None),
                Pref("Saved networks", "1 network", on_tap=lambda: None),
            ]
        else:
            body.append(Text(f"To see available networks, turn {WIFI} on", size=38, color=(96, 94, 102)))
        return self._page("Internet", body)

    def screen_connected(self, route: Route) -> ScreenSpec:
        body: list[Widget] = [
            Pref("Pair new device", on_tap=lambda: None),
            Pref("Connection preferences", "Bluetooth, Android Auto, NFC", on_tap=lambda: self.push("connection_prefs")),
        ]
        return self._page("Connected devices", body)

    def screen_connection_prefs(self, route: Route) -> ScreenSpec:
        bt = "On" if self._on("global", "bluetooth_on") else "Off"
        body: list[Widget] = [
            Pref("Bluetooth", bt, on_tap=lambda: self.push("bluetooth")),
            Pref("Cast", on_tap=lambda: None),
            Pref("Printing", "1 print service on", on_tap=lambda: None),
            Pref("Android Auto", "Use apps on your car display", on_tap=lambda: None),
        ]
        return self._page("Connection preferences", body)

    def screen_bluetooth(self, route: Route) -> ScreenSpec:
        on = self._on("global", "bluetooth_on")
        body: list[Widget] = [Switch("Use Bluetooth", on, on_toggle=lambda: self._toggle("global", "bluetooth_on"))]
        if on:
            body.append(Pref("Pair new device", on_tap=lambda: None))
        return self._page("Bluetooth", body)

    def screen_display(self, route: Route) -> ScreenSpec:
        level = int(self.phone.get_setting("system", "screen_brightness") or 0)
        dark = self._on("secure", "ui_night_mode")
        body: list[Widget] = [
            Pref("Brightness", header=True),
            Pref("Brightness level", f"{round(100 * level / BRIGHTNESS_MAX)}%", on_tap=lambda: self.push("brightness")),
            Switch(
                "Adaptive brightness",
                self._on("system", "screen_brightness_mode"),
                on_toggle=lambda: self._toggle("system", "screen_brightness_mode"),
            ),
            Pref("Lock display", header=True),
            Pref("Lock screen", on_tap=lambda: None),
            Pref("Screen timeout", "After 30 seconds of inactivity", on_tap=lambda: None),
            Pref("Appearance", header=True),
            _DarkTheme(dark, on_toggle=lambda: self._toggle("secure", "ui_night_mode")),
            Pref("Screen saver", "Off", on_tap=lambda: None),
            Pref("Display size and text", on_tap=lambda: None),
        ]
        return self._page("Display", body)

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


class _DarkTheme(Switch):
    """Display's "Dark theme": its summary, and the switch Settings names (``switchWidget``)."""

    def __init__(self, checked: bool, *, on_toggle: Callable[[], None]) -> None:
        summary = "Will turn off automatically" if checked else "Will never turn on automatically"
        super().__init__("Dark theme", checked, on_toggle=on_toggle, subtitle=summary)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        row = super().encode(bounds, package)
        switch = row.children[-1]
        switch.resource_id, switch.content_desc = f"{package}:id/switchWidget", "Dark theme"
        return row
