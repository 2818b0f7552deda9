"""OsmAnd (net.osmand): a schematic map of Liechtenstein (the offline map AndroidWorld installs)
with its places, a search over them and over typed coordinates, a place's context panel with
Favorite and Marker, and My places (favourites and map markers).

Favourites live where the real app keeps them, in the GPX file
``/sdcard/Android/data/net.osmand/files/favorites/favorites.gpx`` (``/data/media/0/...`` as root
sees it): the file is the one source of truth, read when a screen shows it and rewritten when a
favourite is added (its other content kept). The app makes the file when it starts, if it is
missing. A file that is not GPX (damaged, too large at over :data:`MAX_GPX_BYTES`, or with a
DTD) shows "Could not read favorites" and is never overwritten.

Map markers are rows of the app's ``map_markers`` table (``databases/map_markers_db``, the columns
of AndroidWorld's ``OsmAndMapMarker``), through ``content://net.osmand/map_markers``.

Plan a route (a place's context panel: "Plan route", the real app's context-menu action that
starts a route at that place): more points are added in order with "Add point", which opens
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
Search (its name, any word's start; or "lat, lon"), not by tapping the drawing.
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Hashable, Sequence
from datetime import datetime, timezone
from typing import Any, ClassVar, Final, NamedTuple
from xml.sax.saxutils import escape

from PIL import ImageDraw

from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.databases import DATA_ROOT, AppDatabase, Table, declare
from cerebellum_gym.sim.render import font
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Dialog, IconButton, ListItem, Row, Text, Widget

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
        super().__init__(desc="Map", rid=f"{PACKAGE}:id/map_view", **kwargs)  # type: ignore[arg-type]
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
        buttons = Row(
            [
                # The map's search button (``map_search_button``, described @string/map_widget_search).
                IconButton("Search", "⌕", on_tap=self._open_search, rid=f"{PACKAGE}:id/map_search_button"),
                IconButton("My places", "☰", on_tap=lambda: self.push("places")),
                IconButton("Map markers", "●", on_tap=lambda: self.push("markers")),
            ],
            height=147,
        )
        body: list[Widget] = [buttons, MapView(stars, flags, pin, height=1300 if place else 1700)]
        dialog = None
        if place:
            name, region, lat, lon = place
            body += [
                Text(name, size=56, height=130, rid=f"{PACKAGE}:id/context_menu_line1"),
                Text(
                    f"{region} · {lat:.5f}, {lon:.5f}",
                    size=38,
                    height=100,
                    color=render.TEXT_SECONDARY,
                    rid=f"{PACKAGE}:id/context_menu_line2",
                ),
            ]
            if route.get("note"):
                body.append(Text(route["note"], size=38, height=100, color=GREEN))
            body.append(
                Row(
                    [
                        Button("Favorite", filled=False, on_tap=lambda: self._open_favorite(route)),
                        Button("Marker", filled=False, on_tap=lambda: self._add_marker(route)),
                        Button("Plan route", filled=False, on_tap=lambda: self._plan_from(route)),
                        Button("Close", filled=False, on_tap=lambda: route.update(place=None, note="")),
                    ],
                    height=150,
                )
            )
            dialog = self._favorite_dialog(route)
        return ScreenSpec(title=None, body=body, dialog=dialog)

    def back(self) -> bool:
        route = self.route
        if route["screen"] == "main" and route.get("place") and not route.get("dialog"):
            route.update(place=None, note="")
            return True
        return super().back()

    def _open_search(self, purpose: str = "") -> None:
        self.push("search", query="", purpose=purpose)
        self.phone.focus(field_key(self, self.route, "query"))

    def screen_search(self, route: Route) -> ScreenSpec:
        body: list[Widget] = [edit_field(self, route, "query", hint="Search", rid=f"{PACKAGE}:id/searchEditText")]

        def choose(place: Place) -> None:
            self.pop()
            if route.get("purpose") == "plan":  # Add point: the place joins the planned route
                if len(self.route["points"]) < MAX_ROUTE_POINTS:
                    self.route["points"].append([place.name, place.lat, place.lon])
                return
            self.route.update(place=list(place), note="")

        for place in search(str(route.get("query", ""))):
            body.append(
                ListItem(
                    place.name,
                    place.region,
                    avatar=place.name[:1],
                    avatar_color=GREEN,
                    on_tap=lambda p=place: choose(p),
                    rid=f"{PACKAGE}:id/title",
                )
            )
        return ScreenSpec(title="Search", up=self.pop, body=body)

    def _open_favorite(self, route: Route) -> None:
        self.set_dialog("favorite", fav_name=route["place"][0], fav_error="")
        self.phone.focus(field_key(self, route, "fav_name"))

    def _favorite_dialog(self, route: Route) -> Dialog | None:
        if route.get("dialog") != "favorite":
            return None

        def save() -> None:
            root = self.favorites_root()
            name = str(route.get("fav_name", "")).strip()
            if root is None:
                route["fav_error"] = "Could not read favorites"
                return
            if not name:
                route["fav_error"] = "Enter a name"
                return
            _, _, lat, lon = route["place"]
            self.phone.write_file(FAVORITES_PATH, with_favorite(root, name, lat, lon, self.phone.state.clock))
            self.set_dialog(None)
            route["note"] = f"{name} added to Favorites"

        body: list[Widget] = []
        if route.get("fav_error"):
            body.append(Text(route["fav_error"], size=40, color=(200, 30, 30)))
        body += [edit_field(self, route, "fav_name", hint="Name", rid=f"{PACKAGE}:id/name_edit"), ListItem("Group", "Favorites")]
        buttons = [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)), Button("Save", filled=False, on_tap=save)]
        return Dialog("Add favorite", buttons, body=body)

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
        route["note"] = f"{name} added to Map markers"

    # --- plan a route --------------------------------------------------------------------------

    def screen_plan(self, route: Route) -> ScreenSpec:
        points: list[list[Any]] = route["points"]
        coords = [(float(lat), float(lon)) for _, lat, lon in points]
        body: list[Widget] = [
            MapView((), (), None, line=tuple(coords), height=1000),
            Text(
                f"{len(points)} points · {distance_km(coords):.2f} km" if points else "Add points to plan a route",
                size=40,
                height=110,
                color=render.TEXT_SECONDARY,
                rid=f"{PACKAGE}:id/route_summary",
            ),
        ]
        body += [
            ListItem(f"{i}. {name}", f"{lat:.5f}, {lon:.5f}", avatar=str(i), avatar_color=(230, 110, 0), rid=f"{PACKAGE}:id/point_title")
            for i, (name, lat, lon) in enumerate(points, start=1)
        ]
        bottom = [
            Button("Add point", filled=False, on_tap=lambda: self._open_search("plan")),
            Button("Undo", filled=False, enabled=bool(points), on_tap=lambda: self._undo(route)),
            Button("Save", filled=True, enabled=len(points) > 1, on_tap=self._open_save),
        ]
        return ScreenSpec(title="Plan a route", up=self.pop, body=body, bottom=bottom, dialog=self._save_dialog(route))

    def _plan_from(self, route: Route) -> None:
        """The context menu's Plan a route: a new route starting at the place shown."""
        name, _, lat, lon = route["place"]
        route.update(place=None, note="")
        self.push("plan", points=[[name, lat, lon]])

    def _undo(self, route: Route) -> None:
        if route["points"]:
            route["points"].pop()

    def _open_save(self) -> None:
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
                    self.route.update(place=None, note="")

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
