"""OpenTracks (de.dennisguse.opentracks) as versionCode 5705 (tag v4.11.3) shows it: the track
list (toolbar with Search, Markers and More options; ``track_list_item`` rows newest first; the
bottom app bar with its Record FAB) and a track's page (the Stats, Intervals, By time and By
distance tabs; ``statistics_recorded``'s values; the bottom app bar's Show on map, Share and
overflow with Delete and its confirmation).

Tracks live in ``content://de.dennisguse.opentracks.content/tracks``: rows keyed by the columns
of the app's ``tracks`` table in ``databases/database.db`` (``name``, ``category``,
``starttime``, ``stoptime``, ``totaltime`` and ``movingtime`` in ms, ``totaldistance`` in
metres, speeds in m/s, elevations in metres), which AndroidWorld seeds and reads with sqlite.
The phone uses imperial units, as AndroidWorld's device does: miles with two decimals (feet under
half a mile), feet, and miles per hour or a pace in min/mi by activity type. Speeds are worked out
from distance over time, as the app recalculates them when the stored ones do not agree. Times
are shown as the app does, ``45:00`` or ``1:05:00``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence
from datetime import date, datetime, timezone
from typing import ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.databases import DATA_ROOT, AppDatabase, Table, declare
from cerebellum_gym.sim.material import Theme, dp, sp
from cerebellum_gym.sim.material.bottom_app_bar import BottomAppBar, PopupMenuItem
from cerebellum_gym.sim.material.components import (
    ICON_BUTTON,
    TOOLBAR_HEIGHT_M3,
    ActionMenuItem,
    Fab,
    MaterialIconButton,
    OverflowButton,
    TopAppBar,
)
from cerebellum_gym.sim.providers import TRACKS_URI
from cerebellum_gym.sim.render import draw_icon, font, text_fit
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Callback, Dialog, Row, Text, Widget

BLUE = (25, 118, 210)
#: The Material 3 day theme the app's screens use (surface, on-surface, outline variant).
SURFACE = (255, 251, 254)
ON_SURFACE = (28, 27, 31)
MUTED = (73, 69, 79)
BAR = (243, 237, 247)  # BottomAppBar: surface with elevation 3's tint
THEME = Theme(primary=BLUE, surface=SURFACE, on_surface=ON_SURFACE, on_surface_variant=MUTED)
BAR_THEME = Theme(primary=BLUE, surface=BAR, on_surface=ON_SURFACE, on_surface_variant=MUTED)
#: Activity types whose statistics show a pace, not a speed (ActivityType's showSpeedPreferred false).
PACE_TYPES = frozenset({"running", "walking", "hiking", "swimming", "street running", "trail running", "track running", "speed walking"})
#: The overflow menus: the track list's toolbar (menu/track_list.xml past Search and Markers) and the
#: track page's bottom app bar (menu/track_detail.xml past Show on map and Share).
LIST_OVERFLOW = ("Settings", "Help")
DETAIL_OVERFLOW = ("Markers", "Edit", "Delete", "Resume track", "Settings")
TABS = ("Stats", "Intervals", "By time", "By distance")
#: Metres in a mile and in a foot (the app's unit conversions).
METRES_PER_MILE = 1609.344
METRES_PER_FOOT = 0.3048


def number(row: dict[str, str], column: str) -> float:
    """A numeric column (0 when unset or unreadable)."""
    try:
        return float(row.get(column) or 0)
    except ValueError:
        return 0.0


def elapsed(ms: float) -> str:
    """A duration as the app writes it: ``45:00``, ``1:05:00``."""
    seconds = max(0, round(ms / 1000))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def miles(metres: float) -> str:
    return " ".join(distance_parts(metres))


def distance_parts(metres: float, decimals: int = 2, threshold: float = 0.5) -> tuple[str, str]:
    """DistanceFormatter's parts in imperial units: miles over ``threshold`` miles, else feet,
    with ``decimals`` places and grouping (``6.21``, ``mi``; ``1,234.00``, ``ft``)."""
    mi = metres / METRES_PER_MILE
    if mi > threshold:
        return f"{mi:,.{decimals}f}", "mi"
    return f"{metres / METRES_PER_FOOT:,.{decimals}f}", "ft"


def speed_parts(metres_per_second: float, pace: bool) -> tuple[str, str]:
    """SpeedFormatter's parts: ``12.3`` ``mph``, or a pace ``8:03`` ``min/mi``."""
    if not pace:
        return f"{metres_per_second * 3600 / METRES_PER_MILE:,.1f}", "mph"
    seconds = int(METRES_PER_MILE / metres_per_second) if metres_per_second > 0 else 0
    return f"{seconds // 60}:{seconds % 60:02d}", "min/mi"


def list_date(row: dict[str, str], today: date) -> str:
    """``StringUtils.formatDateTodayRelative``: Today, Yesterday, the weekday within a week,
    else ``12 Oct`` (``12 Oct 2022`` in another year)."""
    day = datetime.fromtimestamp(number(row, "starttime") / 1000, timezone.utc).date()
    between = (today - day).days
    if between == 0:
        return "Today"
    if between == 1:
        return "Yesterday"
    if between < 7:
        return f"{day:%A}"
    return f"{day.day} {day:%b}" + (f" {day.year}" if day.year != today.year else "")


def list_time(row: dict[str, str]) -> str:
    """``HH:mm`` of the start."""
    return f"{datetime.fromtimestamp(number(row, 'starttime') / 1000, timezone.utc):%H:%M}"


def started(row: dict[str, str]) -> str:
    """The start as ``formatDateTimeWithOffsetIfDifferent`` writes it (MEDIUM): ``Oct 12, 2023, 8:00:00 AM``."""
    when = datetime.fromtimestamp(number(row, "starttime") / 1000, timezone.utc)
    return f"{when:%b} {when.day}, {when.year}, {when:%-I:%M:%S %p}"


def average_speed(row: dict[str, str], time_column: str) -> float:
    """Distance over ``time_column`` in m/s (0 for no time)."""
    ms = number(row, time_column)
    return number(row, "totaldistance") / (ms / 1000) if ms > 0 else 0.0


class TrackItem(Widget):
    """One track of the list (``track_list_item.xml``): the activity's icon ("Track"), the name,
    the start day at the end, the total time and distance below the name and the start's
    ``HH:mm`` at the end, and the description (when there is one) under them."""

    class_name = "android.view.ViewGroup"
    default_height = dp(62)

    def __init__(self, row: dict[str, str], today: date, *, on_tap: Callback) -> None:
        self.name = row.get("name", "")
        self.category = row.get("category", "")
        self.day, self.time = list_date(row, today), list_time(row)
        self.time_distance = f"{elapsed(number(row, 'totaltime'))} ‧ {miles(number(row, 'totaldistance'))}"
        self.description = row.get("description") or ""
        super().__init__(on_tap=on_tap, height=dp(80) if self.description else dp(62))
        self.background = SURFACE

    def render_key(self) -> Hashable:
        return (self.name, self.category, self.day, self.time, self.time_distance, self.description)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.render_key())

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        pad = round(dp(8) * scale)
        icon = round(dp(24) * scale)
        glyph = {
            "running": "directions_run",
            "walking": "directions_walk",
            "hiking": "hiking",
            "biking": "directions_bike",
            "cycling": "directions_bike",
            "swimming": "pool",
        }.get(self.category.lower(), "help_outline")
        draw_icon(draw, glyph, (pad, pad, pad + icon, pad + icon), ON_SURFACE)
        left = pad + icon + pad
        body, small = round(sp(16) * scale), round(sp(12) * scale)
        day_w = round(draw.textlength(self.day, font=font(small)))
        draw.text((width - pad, pad), self.day, font=font(small), fill=MUTED, anchor="ra")
        draw.text((left, pad), text_fit(draw, self.name, body, max(1, width - left - day_w - 2 * pad)), font=font(body), fill=ON_SURFACE)
        y = pad + round(sp(24) * scale)
        draw.text((left, y), self.time_distance, font=font(small), fill=MUTED)
        draw.text((width - pad, y), self.time, font=font(small), fill=MUTED, anchor="ra")
        if self.description:
            y += round(sp(18) * scale)
            draw.text((left, y), text_fit(draw, self.description, small, max(1, width - left - pad)), font=font(small), fill=MUTED)
        draw.line((0, height - 1, width, height - 1), fill=(202, 196, 208))

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        pid = f"{package}:id/"
        text_left = left + dp(40)
        line2 = top + dp(32)
        children = [
            UINode(
                "android.widget.ImageView",
                (left + dp(8), top + dp(8), left + dp(32), top + dp(32)),
                content_desc="Track",
                resource_id=pid + "track_list_item_icon",
                package=package,
            ),
            UINode(
                "android.widget.TextView",
                (text_left, top + dp(8), right - dp(80), line2),
                text=self.name,
                resource_id=pid + "track_list_item_name",
                package=package,
            ),
            UINode(
                "android.widget.TextView",
                (right - dp(80), top + dp(8), right - dp(8), top + dp(24)),
                text=self.day,
                resource_id=pid + "track_list_item_date",
                package=package,
            ),
            UINode(
                "android.widget.TextView",
                (text_left, line2, right - dp(56), line2 + dp(16)),
                text=self.time_distance,
                resource_id=pid + "track_list_item_time_distance",
                package=package,
            ),
            UINode(
                "android.widget.TextView",
                (right - dp(48), line2, right - dp(8), line2 + dp(16)),
                text=self.time,
                resource_id=pid + "track_list_item_time",
                package=package,
            ),
        ]
        if self.description:
            children.append(
                UINode(
                    "android.widget.TextView",
                    (text_left, line2 + dp(16), right - dp(8), bottom - dp(8)),
                    text=self.description,
                    resource_id=pid + "track_list_item_category_description",
                    package=package,
                )
            )
        for i, child in enumerate(children):
            child.index = i
        node.children = children
        return node


class _BarButton(MaterialIconButton):
    """An icon-only ``MaterialButton`` in the bottom app bar (no description)."""

    class_name = "android.widget.Button"


class _SearchButton(MaterialIconButton):
    """A collapsed ``SearchView``'s ``search_button``: an ImageView described "Search"."""

    class_name = "android.widget.ImageView"


class _SearchToolbar(Widget):
    """The track list's toolbar with its SearchView expanded: the logo, the query field
    (``search_src_text``, hint "Search"), Clear query and Submit query (submit is enabled), then
    the other actions."""

    class_name = "android.view.ViewGroup"

    def __init__(self, navigation: Widget, field: Widget, actions: list[Widget], **kwargs: object) -> None:
        super().__init__(height=TOOLBAR_HEIGHT_M3, **kwargs)  # type: ignore[arg-type]
        self.navigation, self.field, self.actions = navigation, field, actions
        self.background = SURFACE

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), len(self.actions))

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        mid, half = (top + bottom) // 2, ICON_BUTTON // 2
        placed: list[tuple[Widget, Bounds]] = [(self.navigation, (left + dp(4), mid - half, left + dp(4) + ICON_BUTTON, mid + half))]
        x = right - dp(4) - ICON_BUTTON * len(self.actions)
        placed.append((self.field, (left + dp(56), mid - dp(24), x, mid + dp(24))))
        for action in self.actions:
            placed.append((action, (x, mid - half, x + ICON_BUTTON, mid + half)))
            x += ICON_BUTTON
        return placed


class StatCell(Widget):
    """One statistic of ``statistics_recorded.xml``: its label over its value and unit (the
    ``stats_<name>_label``, ``_value`` and ``_unit`` TextViews)."""

    class_name = "android.view.View"
    opaque = True

    def __init__(self, name: str, label: str, value: str, unit: str = "") -> None:
        super().__init__(height=dp(64))
        self.name, self.label, self.value, self.unit = name, label, value, unit
        self.background = SURFACE

    def render_key(self) -> Hashable:
        return (self.name, self.label, self.value, self.unit)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.render_key())

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        pad = round(dp(16) * scale)
        small, big = round(sp(14) * scale), round(sp(28) * scale)
        draw.text((pad, round(dp(6) * scale)), self.label, font=font(small), fill=MUTED)
        y = round(dp(26) * scale)
        draw.text((pad, y), self.value, font=font(big), fill=ON_SURFACE)
        if self.unit:
            x = pad + draw.textlength(self.value, font=font(big)) + round(dp(4) * scale)
            draw.text((x, y + big - small), self.unit, font=font(small), fill=MUTED)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        left, top, right, bottom = bounds
        pid = f"{package}:id/stats_{self.name}_"
        mid = top + dp(24)
        value_right = right - dp(56) if self.unit else right - dp(16)
        children = [
            UINode(
                "android.widget.TextView",
                (left + dp(16), top + dp(4), right - dp(16), mid),
                text=self.label,
                resource_id=pid + "label",
                package=package,
            ),
            UINode(
                "android.widget.TextView",
                (left + dp(16), mid, value_right, bottom - dp(4)),
                text=self.value,
                resource_id=pid + "value",
                package=package,
            ),
        ]
        if self.unit:
            children.append(
                UINode(
                    "android.widget.TextView",
                    (value_right, mid + dp(12), right - dp(8), bottom - dp(4)),
                    text=self.unit,
                    resource_id=pid + "unit",
                    package=package,
                )
            )
        for i, child in enumerate(children):
            child.index = i
        return UINode("android.view.View", bounds, package=package, children=children)


class _TabBar(Widget):
    """The track page's ``TabLayout``: Stats, Intervals, By time, By distance (Stats selected)."""

    class_name = "android.widget.HorizontalScrollView"
    default_height = dp(48)

    def __init__(self, package: str) -> None:
        super().__init__(rid=f"{package}:id/track_detail_activity_tablayout")
        self.background = SURFACE

    def render_key(self) -> Hashable:
        return ()

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        cell = width / len(TABS)
        size = round(sp(14) * scale)
        for i, tab in enumerate(TABS):
            color = BLUE if i == 0 else MUTED
            draw.text(((i + 0.5) * cell, height / 2), tab, font=font(size, "medium"), fill=color, anchor="mm")
        draw.rectangle((0, height - round(dp(3) * scale), cell, height), fill=BLUE)
        draw.line((0, height - 1, width, height - 1), fill=(202, 196, 208))

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        cell = (right - left) // len(TABS)
        tabs = UINode("android.widget.LinearLayout", bounds, package=package, index=0)
        tabs.children = [
            UINode(
                "android.widget.LinearLayout",
                (left + i * cell, top, left + (i + 1) * cell, bottom),
                package=package,
                clickable=True,
                focusable=True,
                selected=i == 0,
                index=i,
                children=[
                    UINode(
                        "android.widget.TextView",
                        (left + i * cell + dp(12), top + dp(14), left + (i + 1) * cell - dp(12), bottom - dp(14)),
                        text=tab,
                        package=package,
                        index=1,
                    )
                ],
            )
            for i, tab in enumerate(TABS)
        ]
        node.children = [tabs]
        return node


@register_app
class OpenTracksApp(App):
    package: ClassVar[str] = "de.dennisguse.opentracks"
    activity: ClassVar[str] = "de.dennisguse.opentracks.TrackListActivity"
    label: ClassVar[str] = "OpenTracks"
    color: ClassVar[tuple[int, int, int]] = BLUE
    clock_dependent: ClassVar[bool] = False

    def tracks(self, query: str | None = None) -> list[dict[str, str]]:
        """The tracks newest first; with a search ``query``, those whose name, description or
        category holds it (``ContentProviderUtils.searchTracks``: LIKE, case-insensitive)."""
        rows = self.phone.content_query(TRACKS_URI)
        if query is not None:
            needle = query.lower()
            rows = [r for r in rows if any(needle in (r.get(c) or "").lower() for c in ("name", "description", "category"))]
        return sorted(rows, key=lambda r: (-number(r, "starttime"), -int(r.get("_id") or 0)))

    def _open_search(self) -> None:
        route = self.route
        route["search_open"] = True
        self.phone.focus(field_key(self, route, "search_text"))

    def _submit_search(self) -> None:
        """The SearchView's submit: the activity gets ACTION_SEARCH and lists what matches, its
        toolbar titled with the query; the SearchView stays open with the text."""
        route = self.route
        route["query"] = str(route.get("search_text", ""))
        route["scroll"] = 0
        self.phone.focus(None)

    def back(self) -> bool:
        # TrackListActivity.onBackPressed: close the SearchView and drop the search in one press.
        route = self.route
        if route["screen"] == "main" and not route.get("dialog") and (route.get("search_open") or route.get("query") is not None):
            route.update(search_open=False, query=None, search_text="")
            self.phone.focus(None)
            return True
        return super().back()

    def _opener(self, track_id: str) -> Callback:
        return lambda: self.push("track", track_id=track_id)

    def _menu(self, items: tuple[str, ...], on_choice: Callable[[str], None]) -> Dialog:
        return Dialog("", [], body=[PopupMenuItem(i, theme=THEME, on_tap=functools.partial(on_choice, i)) for i in items])

    def screen_main(self, route: Route) -> ScreenSpec:
        today = self.phone.now().date()
        pid = f"{self.package}:id/"
        query = route.get("query")
        rows = self.tracks(query)
        body: list[Widget] = [TrackItem(row, today, on_tap=self._opener(row["_id"])) for row in rows]
        if not body:
            body.append(Text("Start recording your next adventure here", size=sp(16), center=True, height=dp(120), color=MUTED))
        logo = MaterialIconButton("", "explore", theme=THEME, color=BLUE, on_tap=lambda: None)
        bar: Widget = TopAppBar(
            str(query) if query is not None else "OpenTracks",
            navigation=logo,
            actions=[
                _SearchButton("Search", "search", theme=THEME, on_tap=self._open_search, rid=pid + "search_button"),
                ActionMenuItem("Markers", "place", theme=THEME, on_tap=lambda: None, rid=pid + "track_list_markers"),
                OverflowButton(on_tap=lambda: self.set_dialog("menu"), theme=THEME),
            ],
            theme=THEME,
            m3=True,
            rid=pid + "track_list_toolbar",
        )
        bottom = BottomAppBar(
            navigation=None,
            actions=[],
            leading=[
                _BarButton("", "query_stats", theme=BAR_THEME, on_tap=lambda: None, rid=pid + "aggregated_stats_button"),
                _BarButton("", "gps_off", theme=BAR_THEME, on_tap=lambda: None, rid=pid + "sensor_start_button"),
            ],
            fab=Fab(
                "Record",
                "fiber_manual_record",
                theme=THEME,
                m3=True,
                background=BAR,
                on_tap=lambda: None,
                rid=pid + "track_list_fab_action",
            ),
            fab_end=True,
            bar_height=dp(80),
            color=BAR,
            rid=pid + "bottom_app_bar",
        )
        if route.get("search_open"):
            field = edit_field(self, route, "search_text", hint="Search", rid=pid + "search_src_text")
            field.on_submit = self._submit_search
            bar = _SearchToolbar(
                logo,
                field,
                [
                    _SearchButton(
                        "Clear query", "close", theme=THEME, on_tap=lambda: route.update(search_text=""), rid=pid + "search_close_btn"
                    ),
                    _SearchButton("Submit query", "arrow_forward", theme=THEME, on_tap=self._submit_search, rid=pid + "search_go_btn"),
                    ActionMenuItem("Markers", "place", theme=THEME, on_tap=lambda: None, rid=pid + "track_list_markers"),
                    OverflowButton(on_tap=lambda: self.set_dialog("menu"), theme=THEME),
                ],
                rid=pid + "track_list_toolbar",
            )
        dialog = self._menu(LIST_OVERFLOW, lambda _item: self.set_dialog(None)) if route.get("dialog") == "menu" else None
        return ScreenSpec(title=None, app_bar=bar, body=body, bottom=[bottom], dialog=dialog, background=SURFACE, list_id="track_list")

    def screen_track(self, route: Route) -> ScreenSpec:
        rows = self.phone.content_query(TRACKS_URI, where={"_id": route["track_id"]})
        if not rows:
            return ScreenSpec(title=None, body=[Text("Track not found", size=44)], background=SURFACE)
        row = rows[0]
        pid = f"{self.package}:id/"
        pace = row.get("category", "").lower() in PACE_TYPES
        dist_value, dist_unit = distance_parts(number(row, "totaldistance"))
        gain = distance_parts(number(row, "elevationgain"), decimals=0, threshold=float("inf"))
        loss = distance_parts(number(row, "elevationloss"), decimals=0, threshold=float("inf"))
        body: list[Widget] = [
            Text(row.get("name", ""), size=sp(22), height=dp(40), rid=pid + "stats_name_value", background=SURFACE),
            Text(
                row.get("description") or "",
                size=sp(14),
                height=dp(24),
                rid=pid + "stats_description_value",
                color=MUTED,
                background=SURFACE,
            ),
            Text(started(row), size=sp(14), height=dp(24), rid=pid + "stats_start_datetime_value", color=MUTED, background=SURFACE),
            StatCell("distance", "Distance", dist_value, dist_unit),
            Row(
                [
                    StatCell("moving_time", "Moving time", elapsed(number(row, "movingtime"))),
                    StatCell("total_time", "Total time", elapsed(number(row, "totaltime"))),
                ]
            ),
            StatCell("max_speed", "Fastest pace" if pace else "Max speed", *speed_parts(number(row, "maxspeed"), pace)),
            Row(
                [
                    StatCell(
                        "moving_speed",
                        "Avg moving pace" if pace else "Avg moving speed",
                        *speed_parts(average_speed(row, "movingtime"), pace),
                    ),
                    StatCell("average_speed", "Avg pace" if pace else "Avg speed", *speed_parts(average_speed(row, "totaltime"), pace)),
                ]
            ),
            Row([StatCell("altitude_gain", "Gain", *gain), StatCell("altitude_loss", "Loss", *loss)]),
        ]

        def choose(item: str) -> None:
            self.set_dialog("delete" if item == "Delete" else None)

        def delete() -> None:
            self.phone.content_delete(TRACKS_URI, where={"_id": row["_id"]})
            self.pop()

        kind = route.get("dialog")
        dialog = None
        if kind == "menu":
            dialog = self._menu(DETAIL_OVERFLOW, choose)
        elif kind == "delete":
            dialog = Dialog(
                "Delete track?",
                [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)), Button("OK", filled=False, on_tap=delete)],
                message="The track and its markers will be permanently deleted from the device.",
            )
        bottom = BottomAppBar(
            navigation=MaterialIconButton("", "arrow_back", theme=BAR_THEME, on_tap=self.pop),
            actions=[
                ActionMenuItem("Show on map", "map", theme=BAR_THEME, on_tap=lambda: None, rid=pid + "track_detail_menu_show_on_map"),
                ActionMenuItem("Share", "share", theme=BAR_THEME, on_tap=lambda: None, rid=pid + "track_detail_share"),
                OverflowButton(on_tap=lambda: self.set_dialog("menu"), theme=BAR_THEME),
            ],
            fab=None,
            bar_height=dp(80),
            color=BAR,
            rid=pid + "bottom_app_bar",
        )
        return ScreenSpec(
            title=None,
            app_bar=_TabBar(self.package),
            body=body,
            bottom=[bottom],
            dialog=dialog,
            background=SURFACE,
            list_id="track_detail_activity_view_pager",
            list_class="androidx.viewpager.widget.ViewPager",
        )


#: The provider table the app's tracks live in.
OPENTRACKS_TRACKS: Final = "opentracks_tracks"

# --- the app's database: database.db (SQLiteOpenHelper) -------------------------------------------------------

OPENTRACKS_DB: Final = declare(
    AppDatabase(
        path=f"{DATA_ROOT}/de.dennisguse.opentracks/databases/database.db",
        schema=(
            "CREATE TABLE android_metadata (locale TEXT);\n"
            "INSERT INTO android_metadata VALUES ('en_US');\n"
            "CREATE TABLE tracks (_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, description TEXT, category TEXT, "
            "starttime INTEGER, stoptime INTEGER, numpoints INTEGER, totaldistance FLOAT, totaltime INTEGER, "
            "movingtime INTEGER, avgspeed FLOAT, avgmovingspeed FLOAT, maxspeed FLOAT, minelevation FLOAT, "
            "maxelevation FLOAT, elevationgain FLOAT, icon TEXT, uuid BLOB, elevationloss FLOAT, "
            "starttime_offset INTEGER, activity_type TEXT);\n"
            "CREATE UNIQUE INDEX track_uuid_index ON tracks(uuid);\n"
            "CREATE TABLE trackpoints (_id INTEGER PRIMARY KEY AUTOINCREMENT, trackid INTEGER NOT NULL, longitude INTEGER, "
            "latitude INTEGER, time INTEGER, elevation FLOAT, accuracy FLOAT, speed FLOAT, bearing FLOAT, "
            "sensor_heartrate FLOAT, sensor_cadence FLOAT, sensor_power FLOAT, elevation_gain FLOAT, elevation_loss FLOAT, "
            "type TEXT, sensor_distance FLOAT, accuracy_vertical FLOAT, "
            "FOREIGN KEY (trackid) REFERENCES tracks(_id) ON UPDATE CASCADE ON DELETE CASCADE);\n"
            "CREATE INDEX trackpoints_trackid_index ON trackpoints(trackid);\n"
            "CREATE TABLE markers (_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, description TEXT, category TEXT, "
            "icon TEXT, trackid INTEGER NOT NULL, length FLOAT, duration INTEGER, longitude INTEGER, latitude INTEGER, "
            "time INTEGER, elevation FLOAT, accuracy FLOAT, bearing FLOAT, photoUrl TEXT, "
            "FOREIGN KEY (trackid) REFERENCES tracks(_id) ON UPDATE CASCADE ON DELETE CASCADE);\n"
            "CREATE INDEX markers_trackid_index ON markers(trackid);\n"
        ),
        tables=(
            Table(
                "tracks",
                OPENTRACKS_TRACKS,
                # What the app writes for a track, where the schema allows NULL (only the icon
                # and the uuid may stay NULL).
                defaults={
                    "name": "",
                    "description": "",
                    "category": "",
                    "activity_type": "",
                    "starttime": 0,
                    "stoptime": 0,
                    "numpoints": 0,
                    "totaldistance": 0.0,
                    "totaltime": 0,
                    "movingtime": 0,
                    "avgspeed": 0.0,
                    "avgmovingspeed": 0.0,
                    "maxspeed": 0.0,
                    "minelevation": 0.0,
                    "maxelevation": 0.0,
                    "elevationgain": 0.0,
                    "elevationloss": 0.0,
                    "starttime_offset": 0,
                },
            ),
        ),
    )
)
