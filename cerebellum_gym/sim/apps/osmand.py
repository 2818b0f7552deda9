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

The map is a drawing, not tiles: the country's outline, the Rhine, and a dot per place, with
stars for favourites and flags for markers. A place is found with Search (its name, any word's
start; or "lat, lon"), not by tapping the drawing.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Hashable
from datetime import datetime, timezone
from typing import ClassVar, Final, NamedTuple

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


def search(query: str) -> list[Place]:
    """What the search finds for ``query``: a typed coordinate pair as a point of its own, else
    the places whose name and region words start with every word of the query."""
    numbers = _NUMBER.findall(query)
    if len(numbers) == 2 and not re.search(r"[^\d\s.,\-+°NSEW]", query):
        lat, lon = float(numbers[0]), float(numbers[1])
        if -90 <= lat <= 90 and -180 <= lon <= 180:
            return [Place(f"{lat}, {lon}", "Location", lat, lon)]
    wanted = [w.casefold() for w in _WORD.findall(query)]
    if not wanted:
        return []
    found = []
    for place in PLACES:
        words = [w.casefold() for w in _WORD.findall(f"{place.name} {place.region}")]
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
        **kwargs: object,
    ) -> None:
        super().__init__(desc="Map", rid=f"{PACKAGE}:id/map_view", **kwargs)  # type: ignore[arg-type]
        self.stars, self.flags, self.pin = stars, flags, pin

    def render_key(self) -> Hashable:
        return (self.stars, self.flags, self.pin)

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
        if self.pin is not None:
            x, y = xy(*self.pin)
            draw.ellipse((x - 3 * r, y - 7 * r, x + 3 * r, y - r), fill=GREEN, outline=render.SURFACE)
            draw.polygon(((x - 2 * r, y - 3 * r), (x + 2 * r, y - 3 * r), (x, y)), fill=GREEN)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.stars, self.flags, self.pin)


class OsmAndApp(App):
    package: ClassVar[str] = PACKAGE
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

    # --- screens -----------------------------------------------------------------------------

    def screen_main(self, route: Route) -> ScreenSpec:
        root = self.favorites_root()
        stars = tuple((lat, lon) for _, lat, lon in waypoints(root)) if root is not None else ()
        flags = tuple(c for c in (self._coords(r) for r in self.markers()) if c is not None)
        place = route.get("place")
        pin = (place[2], place[3]) if place else None
        buttons = Row(
            [
                IconButton("Search", "⌕", on_tap=self._open_search),
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

    def _open_search(self) -> None:
        self.push("search", query="")
        self.phone.focus(field_key(self, self.route, "query"))

    def screen_search(self, route: Route) -> ScreenSpec:
        body: list[Widget] = [edit_field(self, route, "query", hint="Search", rid=f"{PACKAGE}:id/searchEditText")]

        def choose(place: Place) -> None:
            self.pop()
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
