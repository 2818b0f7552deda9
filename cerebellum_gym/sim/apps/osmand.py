"""OsmAnd (net.osmand): a schematic map of Liechtenstein (the offline map AndroidWorld installs)
under the map screen's real HUD (map_hud_top/bottom/controls: Configure map, Search, the main
menu, Route, My location, zoom), the quick search over the map's places and typed coordinates,
a place's context menu (map_context_menu_fragment: Add, Marker, Share, Actions; DETAILS,
DIRECTIONS), opened from a search result or by a long press on the map, the favourite editor
(point_editor_fragment_new: name, description, group; Cancel, Save), and from the main menu
My places (favourites) and Map markers.

Favourites live where the real app keeps them, in the GPX file
``/sdcard/Android/data/net.osmand/files/favorites/favorites.gpx`` (``/data/media/0/...`` as root
sees it): the file is the one source of truth, read when a screen shows it and rewritten when a
favourite is added (its other content kept). The app makes the file when it starts, if it is
missing. A file that is not GPX (damaged, too large at over :data:`MAX_GPX_BYTES`, or with a
DTD) shows "Could not read favorites" and is never overwritten.

Map markers are rows of the app's ``map_markers`` table (``databases/map_markers_db``, the columns
of AndroidWorld's ``OsmAndMapMarker``), through ``content://net.osmand/map_markers``.

Plan a route (the context menu's Actions: "Plan a route", starting a route at that place; or
the main menu's "Plan a route", empty): more points are added in order with "Add point", which opens
Search and adds the place chosen there (the real app adds the map's centre, which a search moves
to the place); "Undo" removes the last point, and
"Save" asks for the track's name (the date and time by default, as the real app names one) and
writes a GPX 1.1 file into ``/sdcard/Android/data/net.osmand/files/tracks`` (``/data/media/0/...``
as root sees it), as "Save as new track" does: the planned points as a route (``rte``/``rtept``,
with their names) and the line through them as a track (``trk``/``trkseg``/``trkpt``). The line
between consecutive points is straight, a point every :data:`TRACK_STEP_DEG` degrees (the real
app snaps it to roads when a routing profile is chosen; with none, "straight line", it is straight
too). No judge needs road routing: AndroidWorld's ``OsmAndTrack`` asks only that the track pass
within 0.001 degrees of every waypoint, in order. A track of that name already there is not
overwritten ("File already exists"). The app makes the tracks folder when it starts, if missing.

The map is a drawing, not tiles: the country's outline, the Rhine, and a dot per place, with
stars for favourites, flags for markers and the planned route's line. A place is found with
Search (its name, any word's start; or "lat, lon"), or by a long press on its dot (elsewhere a
long press opens the point's coordinates).
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Callable, Hashable, Sequence
from datetime import datetime, timezone
from typing import Any, ClassVar, Final, NamedTuple
from xml.sax.saxutils import escape

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.databases import DATA_ROOT, AppDatabase, Table, declare
from cerebellum_gym.sim.material import dp
from cerebellum_gym.sim.material.components import MaterialIconButton
from cerebellum_gym.sim.material.simple import MenuEntry, plain
from cerebellum_gym.sim.render import draw_icon, font
from cerebellum_gym.sim.screen import NAV_HEIGHT, SCREEN_HEIGHT, SCREEN_WIDTH, STATUS_HEIGHT, ScreenSpec
from cerebellum_gym.sim.widgets import Button, Callback, Dialog, ListItem, Row, Text, TextField, Widget

PACKAGE: Final = "net.osmand"
GREEN: Final = (16, 124, 94)
FAVORITES_PATH: Final = "/sdcard/Android/data/net.osmand/files/favorites/favorites.gpx"
GPX_NS: Final = "http://www.topografix.com/GPX/1/1"
#: A favourites file larger than this is not read (the app would run out of memory long before).
MAX_GPX_BYTES: Final = 2 * 2**20
MARKERS: Final = "osmand_map_markers"
MARKERS_URI: Final = "content://net.osmand/map_markers"
TRACKS_DIR: Final = "/sdcard/Android/data/net.osmand/files/tracks"
#: Degrees between the points of a planned route's straight line (about 50 m).
TRACK_STEP_DEG: Final = 0.0005
#: The map fills the window under the status bar; the HUD's buttons sit over it.
SCREEN_W: Final = SCREEN_WIDTH
MAP_TOP: Final = STATUS_HEIGHT
MAP_HEIGHT: Final = SCREEN_HEIGHT - STATUS_HEIGHT - NAV_HEIGHT
#: ``@dimen/map_button_size`` and ``map_small_button_size`` (dp), and the context menu's height.
MAP_BUTTON_DP: Final = 48
SMALL_BUTTON_DP: Final = 48
CONTEXT_MENU_DP: Final = 200
#: How near (device pixels) a long press must be to a place's dot to open that place.
PICK_RADIUS: Final = 60
#: A planned route holds at most this many points (a bound on what one screen keeps).
MAX_ROUTE_POINTS: Final = 100


class Place(NamedTuple):
    name: str  # as OsmAnd's search shows it
    region: str
    lat: float
    lon: float


#: The places of the offline map the tasks use (AndroidWorld's ``_PRELOADED_MAP_LOCATIONS``),
#: and the capital, which every map of the country shows.
PLACES: Final = (
    Place("Balzers", "Liechtenstein", 47.0688832, 9.5061564),
    Place("Bendern", "Liechtenstein", 47.2122151, 9.5062101),
    Place("Malbun", "Liechtenstein", 47.1026191, 9.6083057),
    Place("Nendeln", "Liechtenstein", 47.1973857, 9.5430636),
    Place("Oberplanken", "Liechtenstein", 47.1784977, 9.5450163),
    Place("Planken", "Liechtenstein", 47.1858882, 9.5452201),
    Place("Rotenboden", "Liechtenstein", 47.1275785, 9.5387131),
    Place("Ruggell", "Liechtenstein", 47.23976, 9.5262837),
    Place("Schaan", "Liechtenstein", 47.1663432, 9.5103085),
    Place("Schaanwald", "Liechtenstein", 47.2165476, 9.5699984),
    Place("Schönberg", "Liechtenstein", 47.1303814, 9.5930117),
    Place("Triesen", "Liechtenstein", 47.106997, 9.5274854),
    Place("Vaduz", "Liechtenstein", 47.1410303, 9.5209277),
)
_WORD = re.compile(r"\w+")
_NUMBER = re.compile(r"-?\d*\.?\d+")
#: The map's frame (south, north, west, east) and a rough outline of the country in it.
_FRAME = (47.04, 47.28, 9.45, 9.65)
_OUTLINE = (
    (47.271, 9.53), (47.24, 9.565), (47.21, 9.58), (47.175, 9.57), (47.15, 9.62), (47.085, 9.61), (47.055, 9.585),
    (47.05, 9.52), (47.09, 9.51), (47.14, 9.49), (47.2, 9.495), (47.24, 9.5),
)  # fmt: skip
_RHINE = ((47.05, 9.50), (47.1, 9.495), (47.15, 9.48), (47.2, 9.49), (47.24, 9.51), (47.275, 9.53))

MARKERS_DB: Final = declare(
    AppDatabase(
        path=f"{DATA_ROOT}/{PACKAGE}/databases/map_markers_db",
        # MapMarkersDbHelper's tables (OsmAnd 4.6), with the columns AndroidWorld reads.
        schema=(
            "CREATE TABLE android_metadata (locale TEXT);\n"
            "INSERT INTO android_metadata VALUES ('en_US');\n"
            "CREATE TABLE map_markers (marker_id TEXT PRIMARY KEY, marker_lat double, marker_lon double, "
            "marker_description TEXT, marker_active int, marker_added long, marker_visited long, group_name TEXT, "
            "group_key TEXT, marker_color int, marker_next_key TEXT, marker_disabled int, marker_selected int, "
            "marker_map_object_name TEXT, title TEXT);\n"
            "CREATE TABLE map_markers_groups (group_id TEXT PRIMARY KEY, group_name TEXT, group_type int, "
            "group_disabled int, categories TEXT, wpt_categories TEXT);\n"
        ),
        tables=(
            Table(
                "map_markers",
                MARKERS,
                defaults={
                    "marker_lat": 0.0,
                    "marker_lon": 0.0,
                    "marker_description": "",
                    "marker_active": 1,
                    "marker_added": 0,
                    "marker_visited": 0,
                    "group_name": "",
                    "group_key": "",
                    "marker_color": 0,
                    "marker_next_key": "",
                    "marker_disabled": 0,
                    "marker_selected": 0,
                    "marker_map_object_name": "",
                    "title": "",
                },
            ),
        ),
    )
)


# --- places and favourites ---------------------------------------------------------------------


def fold(word: str) -> str:
    """A word as the search compares it: case and accents ignored, as OsmAnd's search does
    ("schonberg" finds Schönberg; what ``adb shell input text`` can type finds every place)."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.casefold()) if not unicodedata.combining(c))


def search(query: str) -> list[Place]:
    """What the search finds for ``query``: a typed coordinate pair as a point of its own, else
    the places whose name and region words start with every word of the query (:func:`fold`)."""
    numbers = _NUMBER.findall(query)
    if len(numbers) == 2 and not re.search(r"[^\d\s.,\-+°NSEW]", query):
        lat, lon = float(numbers[0]), float(numbers[1])
        if -90 <= lat <= 90 and -180 <= lon <= 180:
            return [Place(f"{lat}, {lon}", "Location", lat, lon)]
    wanted = [fold(w) for w in _WORD.findall(query)]
    if not wanted:
        return []
    found = []
    for place in PLACES:
        words = [fold(w) for w in _WORD.findall(f"{place.name} {place.region}")]
        if all(any(w.startswith(q) for w in words) for q in wanted):
            found.append(place)
    return found


def empty_favorites() -> bytes:
    """The favourites file as the app first writes it: no points."""
    return (
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n"
        f'<gpx version="1.1" creator="OsmAnd~ 4.6.13" xmlns="{GPX_NS}">\n'
        "  <metadata>\n    <name>favorites</name>\n  </metadata>\n</gpx>\n"
    ).encode()


def parse_favorites(data: bytes) -> ET.Element | None:
    """The GPX file's root, or ``None`` when it is not a GPX file the app can read."""
    if len(data) > MAX_GPX_BYTES or b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        return None
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        return None
    return root if root.tag == f"{{{GPX_NS}}}gpx" else None


def waypoints(root: ET.Element) -> list[tuple[str, float, float]]:
    """The favourites (name, lat, lon) in the file's order; a point without numbers is skipped."""
    out = []
    for wpt in root.findall(f"{{{GPX_NS}}}wpt"):
        name = wpt.findtext(f"{{{GPX_NS}}}name") or ""
        try:
            out.append((name, float(wpt.get("lat", "")), float(wpt.get("lon", ""))))
        except ValueError:
            continue
    return out


def with_favorite(root: ET.Element, name: str, lat: float, lon: float, when: float) -> bytes:
    """The file with one more point (what it held before kept, in the GPX namespace)."""
    wpt = ET.SubElement(root, f"{{{GPX_NS}}}wpt", {"lat": f"{lat:.7f}", "lon": f"{lon:.7f}"})
    stamp = datetime.fromtimestamp(when, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    for tag, text in (("time", stamp), ("name", name), ("type", "Favorites")):
        ET.SubElement(wpt, f"{{{GPX_NS}}}{tag}").text = text
    try:
        body = ET.tostring(root, encoding="unicode", default_namespace=GPX_NS)
    except ValueError:  # an element outside the namespace: keep prefixes
        body = ET.tostring(root, encoding="unicode")
    return ("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n" + body + "\n").encode()


def route_line(points: Sequence[tuple[float, float]], step: float = TRACK_STEP_DEG) -> list[tuple[float, float]]:
    """The straight line through ``points`` in order: each point, and between two consecutive
    ones evenly spaced points at most ``step`` degrees apart (in both coordinates)."""
    line: list[tuple[float, float]] = list(points[:1])
    for (lat1, lon1), (lat2, lon2) in itertools.pairwise(points):
        parts = max(1, math.ceil(max(abs(lat2 - lat1), abs(lon2 - lon1)) / step))
        line += [(lat1 + (lat2 - lat1) * i / parts, lon1 + (lon2 - lon1) * i / parts) for i in range(1, parts + 1)]
    return line


def distance_km(points: Sequence[tuple[float, float]]) -> float:
    """The length of the line through ``points`` (haversine, on a sphere of 6371 km)."""
    total = 0.0
    for (lat1, lon1), (lat2, lon2) in itertools.pairwise(points):
        p1, p2, dl = math.radians(lat1), math.radians(lat2), math.radians(lon2 - lon1)
        a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
        total += 2 * 6371.0 * math.asin(math.sqrt(min(1.0, a)))
    return total


def track_gpx(name: str, points: Sequence[tuple[str, float, float]], when: float) -> bytes:
    """A planned route saved as a track: GPX 1.1 with the named points as a route and the
    straight line through them as a track segment."""
    stamp = datetime.fromtimestamp(when, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    lines = [
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>",
        f'<gpx version="1.1" creator="OsmAnd~ 4.6.13" xmlns="{GPX_NS}">',
        f"  <metadata>\n    <name>{escape(name)}</name>\n    <time>{stamp}</time>\n  </metadata>",
        f"  <trk>\n    <name>{escape(name)}</name>\n    <trkseg>",
    ]
    lines += [f'      <trkpt lat="{lat:.7f}" lon="{lon:.7f}"/>' for lat, lon in route_line([(la, lo) for _, la, lo in points])]
    lines += ["    </trkseg>\n  </trk>", f"  <rte>\n    <name>{escape(name)}</name>"]
    lines += [f'    <rtept lat="{lat:.7f}" lon="{lon:.7f}">\n      <name>{escape(n)}</name>\n    </rtept>' for n, lat, lon in points]
    lines += ["  </rte>", "</gpx>", ""]
    return "\n".join(lines).encode()


def default_track_name(when: float) -> str:
    """The name the save dialog offers: the date and time (``2023-10-15_14-30_Sun``)."""
    return datetime.fromtimestamp(when, timezone.utc).strftime("%Y-%m-%d_%H-%M_%a")


class MapView(Widget):
    """The schematic map: outline, river, places, and the favourites, markers and chosen point."""

    class_name = "android.view.View"
    default_height = 1500
    background = (242, 239, 233)

    def __init__(
        self,
        stars: tuple[tuple[float, float], ...],
        flags: tuple[tuple[float, float], ...],
        pin: tuple[float, float] | None,
        line: tuple[tuple[float, float], ...] = (),
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.stars, self.flags, self.pin = stars, flags, pin
        #: A planned route's points, drawn as a line through them with a dot at each.
        self.line = line

    def render_key(self) -> Hashable:
        return (self.stars, self.flags, self.pin, self.line)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        south, north, west, east = _FRAME

        def xy(lat: float, lon: float) -> tuple[float, float]:
            return (lon - west) / (east - west) * width, (north - lat) / (north - south) * height

        draw.polygon([xy(*p) for p in _OUTLINE], fill=(232, 240, 222), outline=(170, 120, 170))
        draw.line([xy(*p) for p in _RHINE], fill=(140, 180, 230), width=max(1, round(14 * scale)))
        size = round(32 * scale)
        r = max(1, round(9 * scale))
        for place in PLACES:
            x, y = xy(place.lat, place.lon)
            draw.ellipse((x - r, y - r, x + r, y + r), fill=(90, 90, 90))
            draw.text((x + 2 * r, y - size / 2), place.name, font=font(size), fill=render.TEXT)
        for lat, lon in self.stars:
            x, y = xy(lat, lon)
            draw.regular_polygon((x, y, 3 * r), 5, fill=(250, 190, 0), outline=(120, 80, 0))
        for lat, lon in self.flags:
            x, y = xy(lat, lon)
            draw.line((x, y, x, y - 6 * r), fill=(30, 30, 30), width=max(1, r // 3))
            draw.polygon(((x, y - 6 * r), (x + 4 * r, y - 5 * r), (x, y - 4 * r)), fill=(220, 40, 40))
        if len(self.line) > 1:
            draw.line([xy(*p) for p in self.line], fill=(230, 110, 0), width=max(1, round(10 * scale)))
        for i, (lat, lon) in enumerate(self.line):
            x, y = xy(lat, lon)
            draw.ellipse((x - 2 * r, y - 2 * r, x + 2 * r, y + 2 * r), fill=(230, 110, 0), outline=render.SURFACE)
            draw.text((x - r, y - 2 * r - size), str(i + 1), font=font(size), fill=(120, 50, 0))
        if self.pin is not None:
            x, y = xy(*self.pin)
            draw.ellipse((x - 3 * r, y - 7 * r, x + 3 * r, y - r), fill=GREEN, outline=render.SURFACE)
            draw.polygon(((x - 2 * r, y - 3 * r), (x + 2 * r, y - 3 * r), (x, y)), fill=GREEN)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.stars, self.flags, self.pin, self.line)


class HudButton(Widget):
    """A round map button (``ImageButton`` on ``btn_circle``) labelled by its content-desc."""

    class_name = "android.widget.ImageButton"
    background = (255, 255, 255)

    def __init__(self, desc: str, icon: str, **kwargs: Any) -> None:
        super().__init__(desc=desc, **kwargs)
        self.icon = icon

    def render_key(self) -> Hashable:
        return (self.icon,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        draw.rectangle((0, 0, width, height), fill=(242, 239, 233))
        draw.ellipse((0, 0, width - 1, height - 1), fill=render.SURFACE, outline=(200, 200, 200))
        size = round(min(width, height) * 0.5)
        draw_icon(draw, self.icon, ((width - size) / 2, (height - size) / 2, (width + size) / 2, (height + size) / 2), (80, 80, 80))


class HudIcon(HudButton):
    """A flat ``ImageButton`` (``selectableItemBackground``) labelled by its content-desc."""

    background = render.SURFACE

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(min(width, height) * 0.5)
        color = (80, 80, 80) if self.enabled else (190, 190, 190)
        draw_icon(draw, self.icon, ((width - size) / 2, (height - size) / 2, (width + size) / 2, (height + size) / 2), color)

    def render_key(self) -> Hashable:
        return (self.icon, self.enabled)


class Panel(Widget):
    """The context menu's sheet (a plain background)."""

    class_name = "android.widget.LinearLayout"

    def render_key(self) -> Hashable:
        return ()


class ContextAction(Widget):
    """One of the context menu's main actions: a clickable ``LinearLayout``
    (``<name>_view``) holding its icon and its ``TextViewEx`` (``<name>_text_view``)."""

    class_name = "android.widget.LinearLayout"

    def __init__(self, name: str, label: str, icon: str, *, on_tap: Callback) -> None:
        super().__init__(rid=f"{PACKAGE}:id/{name}_view", on_tap=on_tap)
        self.name, self.label, self.icon = name, label, icon

    def render_key(self) -> Hashable:
        return (self.label, self.icon)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(24) * scale)
        draw_icon(draw, self.icon, ((width - size) / 2, height * 0.12, (width + size) / 2, height * 0.12 + size), (110, 110, 110))
        draw.text((width / 2, height * 0.78), self.label, font=font(round(dp(14) * scale)), fill=(110, 110, 110), anchor="mm")

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.name, self.label)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        cx, text_top = (left + right) // 2, top + (bottom - top) * 6 // 10
        node.children.append(
            UINode(
                "android.widget.ImageView",
                (cx - dp(12), top + dp(8), cx + dp(12), top + dp(32)),
                resource_id=f"{package}:id/{self.name}_image_view",
                package=package,
            )
        )
        node.children.append(
            UINode(
                "android.widget.TextView",
                (left + dp(8), text_top, right - dp(8), bottom - dp(6)),
                text=self.label,
                resource_id=f"{package}:id/{self.name}_text_view",
                package=package,
            )
        )
        return node


class BottomTextButton(Widget):
    """A text button: the context menu's ``TextViewEx`` buttons (all caps), or with ``center``
    the editor's bottom buttons (``bottom_sheet_dialog_button``: a clickable frame around its
    ``button_text``)."""

    class_name = "android.widget.TextView"
    default_height = dp(48)

    def __init__(self, text: str, *, rid: str, on_tap: Callback, end: bool = False, center: bool = False, desc: str = "") -> None:
        super().__init__(text="" if center else text, rid=rid, on_tap=on_tap, desc=desc)
        self.label, self.end, self.center = text, end, center
        if center:
            self.class_name = "android.widget.FrameLayout"  # type: ignore[misc]

    def render_key(self) -> Hashable:
        return (self.label, self.end, self.center)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        f = font(round(dp(14) * scale), "medium")
        if self.center:
            pad = round(dp(6) * scale)
            filled = self.label == "Save"
            draw.rounded_rectangle(
                (pad, pad, width - pad, height - pad), radius=round(dp(4) * scale), fill=GREEN if filled else (235, 235, 235)
            )
            draw.text((width / 2, height / 2), self.label, font=f, fill=render.SURFACE if filled else render.TEXT, anchor="mm")
            return
        x = width - round(dp(16) * scale) if self.end else round(dp(16) * scale)
        draw.text((x, height / 2), self.label, font=f, fill=GREEN, anchor="rm" if self.end else "lm")

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.label, self.center)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        if self.center:
            left, top, right, bottom = bounds
            node.children.append(
                UINode(
                    "android.widget.TextView",
                    (left + dp(8), top + dp(8), right - dp(8), bottom - dp(8)),
                    text=self.label,
                    resource_id=f"{package}:id/button_text",
                    package=package,
                )
            )
        return node


class MapSurface(Widget):
    """The map's touch surface (``OsmAndMapSurfaceView``, which reads gestures itself: its node
    is neither clickable nor long-clickable). A long press opens the context menu there: of a
    place drawn within :data:`PICK_RADIUS` pixels, else of the point's coordinates."""

    class_name = "android.view.SurfaceView"
    opaque = False

    def __init__(self, on_point: Callable[[float, float, Place | None], None], on_tap_map: Callback | None = None) -> None:
        super().__init__(on_long_press=lambda: None)
        self.on_point, self.on_tap_map = on_point, on_tap_map

    def long_press(self, phone: Any, x: int, y: int, bounds: Bounds) -> bool:
        south, north, west, east = _FRAME
        left, top, right, bottom = bounds
        lat = north - (y - top) / max(1, bottom - top) * (north - south)
        lon = west + (x - left) / max(1, right - left) * (east - west)

        def where(place: Place) -> tuple[float, float]:
            return (
                left + (place.lon - west) / (east - west) * (right - left),
                top + (north - place.lat) / (north - south) * (bottom - top),
            )

        near = min(PLACES, key=lambda p: math.dist(where(p), (x, y)))
        self.on_point(lat, lon, near if math.dist(where(near), (x, y)) <= PICK_RADIUS else None)
        return True

    def tap(self, phone: Any, x: int, y: int, bounds: Bounds) -> bool:
        """A tap on an empty place of the map hides the context menu."""
        if self.on_tap_map is None:
            return False
        self.on_tap_map()
        return True

    def render_key(self) -> Hashable:
        return ()

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.long_clickable = False
        node.focusable = False
        return node


class SearchBar(Widget):
    """The search screen's ``Toolbar`` (``toolbar``): navigate up, the search field, and the
    field's clear button (``clearButton``, described @string/shared_string_close)."""

    class_name = "android.view.ViewGroup"
    default_height = dp(56)

    def __init__(self, field: TextField, *, on_up: Callback, on_clear: Callback) -> None:
        super().__init__(rid=f"{PACKAGE}:id/toolbar")
        self.field, self.on_up, self.on_clear = field, on_up, on_clear

    def render_key(self) -> Hashable:
        return ()

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        up = MaterialIconButton("Navigate up", "arrow_back", on_tap=self.on_up)
        clear = MaterialIconButton("Close", "close", rid=f"{PACKAGE}:id/clearButton", on_tap=self.on_clear)
        return [
            (up, (left, top, left + dp(56), bottom)),
            (self.field, (left + dp(56), top, right - dp(48), bottom)),
            (clear, (right - dp(48), top + dp(4), right, bottom - dp(4))),
        ]

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.field.tree_key())


class SearchRow(Widget):
    """A search result (search_list_item.xml): the row, its ``title`` and ``subtitle``."""

    class_name = "android.widget.LinearLayout"
    default_height = dp(60)

    def __init__(self, title: str, subtitle: str, *, on_tap: Callback) -> None:
        super().__init__(on_tap=on_tap)
        self.title, self.subtitle = title, subtitle

    def render_key(self) -> Hashable:
        return (self.title, self.subtitle)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        x = round(dp(56) * scale)
        draw_icon(
            draw,
            "location_city",
            (round(dp(16) * scale), height / 2 - dp(12) * scale, round(dp(40) * scale), height / 2 + dp(12) * scale),
            (110, 110, 110),
        )
        draw.text((x, height * 0.3), self.title, font=font(round(dp(16) * scale)), fill=render.TEXT, anchor="lm")
        draw.text((x, height * 0.7), self.subtitle, font=font(round(dp(14) * scale)), fill=render.TEXT_SECONDARY, anchor="lm")
        draw.line((0, height - 1, width, height - 1), fill=(224, 224, 224))

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title, self.subtitle)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        mid = (top + bottom) // 2
        node.children.append(
            UINode(
                "android.widget.TextView",
                (left + dp(56), top + dp(8), right - dp(16), mid),
                text=self.title,
                resource_id=f"{package}:id/title",
                package=package,
            )
        )
        node.children.append(
            UINode(
                "android.widget.TextView",
                (left + dp(56), mid, right - dp(16), bottom - dp(8)),
                text=self.subtitle,
                resource_id=f"{package}:id/subtitle",
                package=package,
            )
        )
        return node


class MapCanvas(MapView):
    """The whole map window: the drawing, its touch surface (:class:`MapSurface`), and the HUD
    (and the context menu) over it."""

    def __init__(
        self,
        stars: tuple[tuple[float, float], ...],
        flags: tuple[tuple[float, float], ...],
        pin: tuple[float, float] | None,
        hud: list[tuple[Widget, Bounds]],
        *,
        on_point: Callable[[float, float, Place | None], None],
        line: tuple[tuple[float, float], ...] = (),
        on_tap_map: Callback | None = None,
    ) -> None:
        super().__init__(stars, flags, pin, line, height=MAP_HEIGHT)
        self.hud, self.on_point, self.on_tap_map = hud, on_point, on_tap_map

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        dy = bounds[1] - MAP_TOP
        # The touch surface first: the buttons over it take their touches.
        return [(MapSurface(self.on_point, self.on_tap_map), bounds)] + [(w, (b[0], b[1] + dy, b[2], b[3] + dy)) for w, b in self.hud]

    def tree_key(self) -> Hashable:
        return (super().tree_key(), tuple((w.tree_key(), b) for w, b in self.hud))


@register_app
class OsmAndApp(App):
    package: ClassVar[str] = PACKAGE
    first_run_dirs: ClassVar[tuple[str, ...]] = (TRACKS_DIR,)
    activity: ClassVar[str] = "net.osmand.plus.activities.MapActivity"
    label: ClassVar[str] = "OsmAnd"
    color: ClassVar[tuple[int, int, int]] = GREEN
    clock_dependent: ClassVar[bool] = False

    # --- state -------------------------------------------------------------------------------

    def favorites_root(self) -> ET.Element | None:
        """The favourites file parsed, an empty one when there is none, ``None`` when unreadable."""
        files = self.phone.state.files
        if FAVORITES_PATH not in files:
            return parse_favorites(empty_favorites())
        return parse_favorites(files[FAVORITES_PATH])

    def markers(self) -> list[dict[str, str]]:
        return self.phone.content_query(MARKERS_URI)

    @staticmethod
    def _coords(row: dict[str, str]) -> tuple[float, float] | None:
        try:
            return float(row.get("marker_lat", "")), float(row.get("marker_lon", ""))
        except ValueError:
            return None

    def on_launch(self) -> None:
        super().on_launch()
        if FAVORITES_PATH not in self.phone.state.files:
            self.phone.write_file(FAVORITES_PATH, empty_favorites())
        if not self.phone.is_dir(TRACKS_DIR):
            self.phone.make_dir(TRACKS_DIR)

    # --- screens -----------------------------------------------------------------------------

    def screen_main(self, route: Route) -> ScreenSpec:
        root = self.favorites_root()
        stars = tuple((lat, lon) for _, lat, lon in waypoints(root)) if root is not None else ()
        flags = tuple(c for c in (self._coords(r) for r in self.markers()) if c is not None)
        place = route.get("place")
        pin = (place[2], place[3]) if place else None
        hud: list[tuple[Widget, Bounds]] = []
        top, bottom = MAP_TOP, MAP_TOP + MAP_HEIGHT
        size, small, margin, gap = dp(MAP_BUTTON_DP), dp(SMALL_BUTTON_DP), dp(12), dp(8)

        def button(name: str, desc: str, glyph: str, x: int, y: int, side: int, tap: Any = None) -> None:
            hud.append((HudButton(desc, glyph, rid=f"{PACKAGE}:id/{name}", on_tap=tap or (lambda: None)), (x, y, x + side, y + side)))

        # map_hud_top.xml: the layers button, then the search button beside it (the compass
        # under the layers button shows only while the map is rotated; this map is north-up).
        button("map_layers_button", "Configure map", "layers", margin, top + margin, small)
        button("map_search_button", "Search", "search", margin + small + gap, top + margin, small, self._open_search)
        if place:
            hud += self._context_menu(route, place)
        else:
            # map_hud_bottom.xml: menu and route buttons at the bottom left; map_hud_controls.xml:
            # my location, then zoom in over zoom out at the bottom right.
            y = bottom - margin - size
            button("map_menu_button", "Back to menu", "menu", margin, y, size, lambda: self.set_dialog("drawer"))
            button("map_route_info_button", "Route", "directions", margin + size + gap, y, size)
            right = SCREEN_W - margin - size
            button("map_my_location_button", "My location", "my_location", right - gap - size, y, size)
            button("map_zoom_in_button", "Zoom in", "add", right, y - gap - size, size)
            button("map_zoom_out_button", "Zoom out", "remove", right, y, size)
        close = (lambda: route.update(place=None)) if place else None
        canvas = MapCanvas(stars, flags, pin, hud, on_point=self._open_point, on_tap_map=close)
        return ScreenSpec(
            title=None, body=[canvas], dialog=self._drawer(route), list_id="map_hud_layout", list_class="android.widget.FrameLayout"
        )

    def _open_point(self, lat: float, lon: float, near: Place | None) -> None:
        """A long press on the map: the context menu of the place drawn there, else of the point."""
        if self.route.get("dialog"):
            return
        self.route.update(place=list(near) if near else [f"{lat:.5f}, {lon:.5f}", "Location", round(lat, 7), round(lon, 7)])

    def _context_menu(self, route: Route, place: list[Any]) -> list[tuple[Widget, Bounds]]:
        """map_context_menu_fragment.xml: the place's title and type, the four main actions
        (favourite, marker, share, actions) and the bottom buttons."""
        name, region, lat, lon = place
        bottom = MAP_TOP + MAP_HEIGHT
        panel_top = bottom - dp(CONTEXT_MENU_DP)
        out: list[tuple[Widget, Bounds]] = [(Panel(), (0, panel_top, SCREEN_W, bottom))]
        pad = dp(16)
        out.append(
            (
                Text(name, size=dp(20), height=dp(28), rid=f"{PACKAGE}:id/context_menu_line1", bold=True),
                (pad, panel_top + dp(12), SCREEN_W - pad, panel_top + dp(40)),
            )
        )
        out.append(
            (
                Text(
                    f"{region} · {lat:.5f}, {lon:.5f}",
                    size=dp(14),
                    height=dp(20),
                    color=render.TEXT_SECONDARY,
                    rid=f"{PACKAGE}:id/context_menu_line2",
                ),
                (pad, panel_top + dp(44), SCREEN_W - pad, panel_top + dp(64)),
            )
        )
        actions = (
            ("context_menu_fav", "Add", "star_border", lambda: self._open_favorite(route)),
            ("context_menu_route", "Marker", "flag", lambda: self._add_marker(route)),
            ("context_menu_share", "Share", "share", lambda: None),
            ("context_menu_more", "Actions", "more_horiz", lambda: self.set_dialog("actions")),
        )
        row_top, width = panel_top + dp(80), (SCREEN_W - 2 * dp(8)) // len(actions)
        for i, (name_, label, glyph, tap) in enumerate(actions):
            left = dp(8) + i * width
            out.append((ContextAction(name_, label, glyph, on_tap=tap), (left, row_top, left + width, row_top + dp(64))))
        buttons_top = row_top + dp(65)
        half = SCREEN_W // 2
        out.append(
            (
                BottomTextButton("DETAILS", rid=f"{PACKAGE}:id/context_menu_details_button", on_tap=lambda: None),
                (0, buttons_top, half, buttons_top + dp(48)),
            )
        )
        out.append(
            (
                BottomTextButton("DIRECTIONS", rid=f"{PACKAGE}:id/context_menu_directions_button", end=True, on_tap=lambda: None),
                (half, buttons_top, SCREEN_W, buttons_top + dp(48)),
            )
        )
        return out

    def _drawer(self, route: Route) -> Dialog | None:
        """The main menu (``map_menu_button``) as a list of its entries, and the context menu's
        Actions: each a list of rows (``android:id/title``)."""
        kind = route.get("dialog")
        if kind == "drawer":
            items = {
                "My places": lambda: self._go("places"),
                "Map markers": lambda: self._go("markers"),
                "Plan a route": lambda: self._go("plan", points=[]),
            }
        elif kind == "actions" and route.get("place"):
            items = {
                "Directions from": lambda: self.set_dialog(None),
                "Search nearby": lambda: self.set_dialog(None),
                "Plan a route": lambda: self._plan_from(route),
            }
        else:
            return None
        rows: list[Widget] = [MenuEntry(label, on_tap=tap) for label, tap in items.items()]
        return Dialog("", [], body=rows)

    def _go(self, screen: str, **state: Any) -> None:
        self.set_dialog(None)
        self.push(screen, **state)

    def back(self) -> bool:
        route = self.route
        if route["screen"] == "main" and route.get("place") and not route.get("dialog"):
            route.update(place=None)
            return True
        return super().back()

    def _open_search(self, purpose: str = "") -> None:
        self.push("search", query="", purpose=purpose)
        self.phone.focus(field_key(self, self.route, "query"))

    def screen_search(self, route: Route) -> ScreenSpec:
        """QuickSearchDialogFragment (search_dialog_fragment.xml): the toolbar holding the
        search field (search_text_layout.xml), and the results as search_list_item rows."""
        field = plain(edit_field(self, route, "query", hint="Type to search all", rid=f"{PACKAGE}:id/searchEditText"))

        def choose(place: Place) -> None:
            self.phone.focus(None)
            self.pop()
            if route.get("purpose") == "plan":  # Add point: the place joins the planned route
                if len(self.route["points"]) < MAX_ROUTE_POINTS:
                    self.route["points"].append([place.name, place.lat, place.lon])
                return
            self.route.update(place=list(place))

        def clear() -> None:
            route["query"] = ""

        def row(place: Place) -> Widget:
            return SearchRow(place.name, place.region, on_tap=lambda: choose(place))

        rows = [row(place) for place in search(str(route.get("query", "")))]
        return ScreenSpec(
            app_bar=SearchBar(field, on_up=self._leave_search, on_clear=clear),
            body=rows,
            list_id="list",
            list_class="android.widget.ListView",
        )

    def _leave_search(self) -> None:
        self.phone.focus(None)
        self.pop()

    # --- add a favourite (FavoritePointEditorFragment, point_editor_fragment_new.xml) ----------

    def _open_favorite(self, route: Route) -> None:
        place = route["place"]
        self.push("favorite", place=place, fav_name=place[0], fav_desc="", fav_error="")
        self.phone.focus(field_key(self, self.route, "fav_name"))

    def _leave_editor(self) -> None:
        self.phone.focus(None)
        self.pop()

    def screen_favorite(self, route: Route) -> ScreenSpec:
        def save() -> None:
            root = self.favorites_root()
            name = str(route.get("fav_name", "")).strip()
            if root is None:
                route["fav_error"] = "Could not read favorites"
                return
            if not name:
                route["fav_error"] = "Name is empty"
                return
            _, _, lat, lon = route["place"]
            self.phone.write_file(FAVORITES_PATH, with_favorite(root, name, lat, lon, self.phone.state.clock))
            self.phone.focus(None)
            self.pop()
            if self.route["screen"] == "main":
                self.route.update(place=None)

        body: list[Widget] = []
        if route.get("fav_error"):
            body.append(Text(route["fav_error"], size=40, color=(200, 30, 30)))
        body += [
            edit_field(self, route, "fav_name", hint="Name", rid=f"{PACKAGE}:id/name_edit"),
            edit_field(self, route, "fav_desc", hint="Description", rid=f"{PACKAGE}:id/description_edit"),
            Text("Select group", size=dp(14), height=dp(48), color=render.TEXT_SECONDARY),
            Text("List", size=dp(14), height=dp(40), color=GREEN, rid=f"{PACKAGE}:id/group_list_button_title"),
            ListItem("Favorites", "", avatar="★", avatar_color=(250, 190, 0), rid=f"{PACKAGE}:id/groupName"),
        ]
        bottom = [
            Row(
                [
                    BottomTextButton("Cancel", rid=f"{PACKAGE}:id/dismiss_button", center=True, on_tap=self._leave_editor),
                    BottomTextButton("Save", rid=f"{PACKAGE}:id/right_bottom_button", center=True, on_tap=save),
                ],
                height=dp(60),
            )
        ]
        return ScreenSpec(title="Add favorite", up=self._leave_editor, body=body, bottom=bottom)

    def _add_marker(self, route: Route) -> None:
        name, _, lat, lon = route["place"]
        values = {
            "marker_lat": repr(float(lat)),
            "marker_lon": repr(float(lon)),
            "marker_description": name,
            "marker_active": "1",
            "marker_added": str(int(self.phone.state.clock * 1000)),
            "marker_next_key": "tail",
            "title": name,
        }
        self.phone.content_insert(MARKERS_URI, values)
        route.update(place=None)

    # --- plan a route --------------------------------------------------------------------------

    def screen_plan(self, route: Route) -> ScreenSpec:
        """MeasurementToolFragment over the map: the map's top bar (map_hud_top.xml's
        widget_top_bar: title, close, SAVE) and the bottom panel (fragment_measurement_tool.xml:
        distance and points, Options, Undo, Redo, Add point)."""
        points: list[list[Any]] = route["points"]
        coords = [(float(lat), float(lon)) for _, lat, lon in points]
        top, bottom = MAP_TOP, MAP_TOP + MAP_HEIGHT
        bar = dp(56)
        hud: list[tuple[Widget, Bounds]] = [
            (Panel(), (0, top, SCREEN_W, top + bar)),
            (
                Text("Plan a route", size=dp(18), height=bar, rid=f"{PACKAGE}:id/widget_top_bar_title", ellipsize=True),
                (dp(16), top + dp(14), SCREEN_W - dp(160), top + bar - dp(14)),
            ),
            (
                HudIcon("Close", "close", rid=f"{PACKAGE}:id/widget_top_bar_close_button", on_tap=self.pop),
                (SCREEN_W - dp(144), top, SCREEN_W - dp(96), top + bar),
            ),
            (
                BottomTextButton("DONE", rid=f"{PACKAGE}:id/widget_top_bar_save", end=True, on_tap=lambda: self._done(route), desc="Save"),
                (SCREEN_W - dp(96), top, SCREEN_W, top + bar),
            ),
        ]
        panel_top = bottom - dp(120)
        hud.append((Panel(), (0, panel_top, SCREEN_W, bottom)))
        hud.append(
            (
                Text(
                    f"{distance_km(coords):.2f} km,",
                    size=dp(16),
                    height=dp(24),
                    rid=f"{PACKAGE}:id/measurement_distance_text_view",
                    bold=True,
                ),
                (dp(56), panel_top + dp(12), dp(200), panel_top + dp(36)),
            )
        )
        hud.append(
            (
                Text(f"points: {len(points)}", size=dp(16), height=dp(24), rid=f"{PACKAGE}:id/measurement_points_text_view", bold=True),
                (dp(200), panel_top + dp(12), SCREEN_W - dp(56), panel_top + dp(36)),
            )
        )
        row = panel_top + dp(60)
        hud += [
            (
                BottomTextButton("Options", rid=f"{PACKAGE}:id/options_button", on_tap=lambda: self.set_dialog("options")),
                (dp(8), row, dp(120), row + dp(52)),
            ),
            (
                HudIcon("Undo", "undo", rid=f"{PACKAGE}:id/undo_point_button", on_tap=lambda: self._undo(route), enabled=bool(points)),
                (SCREEN_W // 2 - dp(56), row + dp(4), SCREEN_W // 2 - dp(8), row + dp(52)),
            ),
            (
                HudIcon("Redo", "redo", rid=f"{PACKAGE}:id/redo_point_button", on_tap=lambda: None, enabled=False),
                (SCREEN_W // 2 + dp(8), row + dp(4), SCREEN_W // 2 + dp(56), row + dp(52)),
            ),
            (
                BottomTextButton("Add point", rid=f"{PACKAGE}:id/add_point_button", center=True, on_tap=lambda: self._open_search("plan")),
                (SCREEN_W - dp(150), row, SCREEN_W - dp(8), row + dp(52)),
            ),
        ]
        canvas = MapCanvas((), (), None, hud, on_point=lambda lat, lon, near: None, line=tuple(coords))
        dialog = self._options(route) if route.get("dialog") == "options" else self._save_dialog(route)
        return ScreenSpec(body=[canvas], dialog=dialog, list_id="map_hud_layout", list_class="android.widget.FrameLayout")

    def _plan_from(self, route: Route) -> None:
        """The context menu's Plan a route: a new route starting at the place shown."""
        name, _, lat, lon = route["place"]
        route.update(place=None, dialog=None)
        self.push("plan", points=[[name, lat, lon]])

    def _undo(self, route: Route) -> None:
        if route["points"]:
            route["points"].pop()

    def _done(self, route: Route) -> None:
        """The top bar's Done (a new route's quick save): the track named by the date and time
        (``_2``, ``_3``... when that name is taken), and the tool closes."""
        if not route["points"]:  # nothing to save yet
            return
        base = default_track_name(self.phone.state.clock)
        name = next(
            n
            for n in itertools.chain([base], (f"{base}_{i}" for i in itertools.count(2)))
            if f"{TRACKS_DIR}/{n}.gpx" not in self.phone.state.files
        )
        points = [(str(n), float(lat), float(lon)) for n, lat, lon in route["points"]]
        self.phone.write_file(f"{TRACKS_DIR}/{name}.gpx", track_gpx(name, points, self.phone.state.clock))
        self.pop()

    def _options(self, route: Route) -> Dialog:
        """The tool's Options: its entries as rows; Save as new track, Reverse route and Clear
        all act, the others close the sheet."""

        def close() -> None:
            self.set_dialog(None)

        def reverse() -> None:
            route["points"].reverse()
            close()

        def clear() -> None:
            route["points"].clear()
            close()

        items = {
            "Route between points": close,
            "Save as new track": lambda: self._open_save(route),
            "Add to a track": close,
            "Navigation": close,
            "Reverse route": reverse,
            "Clear all": clear,
        }
        return Dialog("", [], body=[MenuEntry(label, on_tap=tap) for label, tap in items.items()])

    def _open_save(self, route: Route) -> None:
        if not route["points"]:  # nothing to save yet
            self.set_dialog(None)
            return
        self.set_dialog("save", track_name=default_track_name(self.phone.state.clock), track_error="")
        self.phone.focus(field_key(self, self.route, "track_name"))

    def _save_dialog(self, route: Route) -> Dialog | None:
        if route.get("dialog") != "save":
            return None

        def save() -> None:
            name = str(route.get("track_name", "")).strip()
            path = f"{TRACKS_DIR}/{name}.gpx"
            if not name or "/" in name or name in (".", ".."):
                route["track_error"] = "Enter a name"
            elif path in self.phone.state.files:
                route["track_error"] = "File already exists"
            else:
                points = [(str(n), float(lat), float(lon)) for n, lat, lon in route["points"]]
                self.phone.write_file(path, track_gpx(name, points, self.phone.state.clock))
                self.set_dialog(None)
                self.pop()
                if self.route["screen"] == "main":
                    self.route.update(place=None)

        body: list[Widget] = []
        if route.get("track_error"):
            body.append(Text(route["track_error"], size=40, color=(200, 30, 30), rid=f"{PACKAGE}:id/error"))
        body.append(edit_field(self, route, "track_name", hint="Name", rid=f"{PACKAGE}:id/name_edit"))
        buttons = [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)), Button("Save", filled=False, on_tap=save)]
        return Dialog("Save as new track", buttons, body=body)

    def screen_places(self, route: Route) -> ScreenSpec:
        root = self.favorites_root()
        body: list[Widget] = []
        if root is None:
            body.append(Text("Could not read favorites", size=44, center=True, height=300, color=(200, 30, 30), rid=f"{PACKAGE}:id/error"))
        else:
            points = waypoints(root)
            body += [ListItem(n, f"{lat:.5f}, {lon:.5f}", avatar=n[:1].upper(), avatar_color=(250, 190, 0)) for n, lat, lon in points]
            if not points:
                body.append(Text("No favorites yet", size=44, center=True, height=300, color=render.TEXT_SECONDARY))
        return ScreenSpec(title="My places", up=self.pop, body=body)

    def screen_markers(self, route: Route) -> ScreenSpec:
        body: list[Widget] = []
        for row in self.markers():
            coords = self._coords(row)
            where = f"{coords[0]:.5f}, {coords[1]:.5f}" if coords else ""
            body.append(
                ListItem(row.get("title", "") or where, where, avatar=(row.get("title", "") or "M")[:1].upper(), avatar_color=(220, 40, 40))
            )
        if not body:
            body.append(Text("No map markers", size=44, center=True, height=300, color=render.TEXT_SECONDARY))
        return ScreenSpec(title="Map markers", up=self.pop, body=body)
