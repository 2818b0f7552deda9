"""OsmAnd tasks: a favourite or a map marker for one of the places of the offline map AndroidWorld
installs (or for its coordinates), judged as AndroidWorld judges them: the favourites GPX file
(a point named with the location or within 0.001° of it), the ``map_markers`` rows (within
0.001°) and the saved tracks (some track's points pass within 0.001° of every waypoint, in
order), read through the device's files and content URIs.
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.oracle import ScriptedOracle, find, label_for
from cerebellum_gym.tasks.registry import register_task

OSMAND_PACKAGE = "net.osmand"
FAVORITES_PATH = "/sdcard/Android/data/net.osmand/files/favorites/favorites.gpx"
MARKERS_URI = "content://net.osmand/map_markers"
TRACKS_DIR = "/sdcard/Android/data/net.osmand/files/tracks"
#: A track file larger than this is not read (a bound on the judge's work).
MAX_TRACK_BYTES = 8 * 2**20
GPX = "{http://www.topografix.com/GPX/1/1}"
#: AndroidWorld's ``_PRELOADED_MAP_LOCATIONS``.
LOCATIONS: dict[str, tuple[float, float]] = {
    "Balzers, Liechtenstein": (47.0688832, 9.5061564),
    "Bendern, Liechtenstein": (47.2122151, 9.5062101),
    "Malbun, Liechtenstein": (47.1026191, 9.6083057),
    "Nendeln, Liechtenstein": (47.1973857, 9.5430636),
    "Oberplanken, Liechtenstein": (47.1784977, 9.5450163),
    "Planken, Liechtenstein": (47.1858882, 9.5452201),
    "Rotenboden, Liechtenstein": (47.1275785, 9.5387131),
    "Ruggell, Liechtenstein": (47.23976, 9.5262837),
    "Schaan, Liechtenstein": (47.1663432, 9.5103085),
    "Schaanwald, Liechtenstein": (47.2165476, 9.5699984),
    "Schönberg, Liechtenstein": (47.1303814, 9.5930117),
    "Triesen, Liechtenstein": (47.106997, 9.5274854),
}
EMPTY_FAVORITES = (
    b"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n"
    b'<gpx version="1.1" creator="OsmAnd~ 4.6.13" xmlns="http://www.topografix.com/GPX/1/1">\n'
    b"  <metadata>\n    <name>favorites</name>\n  </metadata>\n</gpx>\n"
)
DELTA = 0.001


def random_location(rng: np.random.Generator) -> str:
    """``_random_location_str()[0]``: a place's name, or half the time its coordinates."""
    name = awdata.pick(rng, list(LOCATIONS))
    if rng.integers(2):
        return name
    lat, lon = LOCATIONS[name]
    return f"{lat}, {lon}"


def coords_of(location: str) -> tuple[float, float] | None:
    """The location's coordinates: a known place's, or exactly two numbers in the text."""
    if location in LOCATIONS:
        return LOCATIONS[location]
    numbers = re.findall(r"-?\d*\.?\d+", location)
    return (float(numbers[0]), float(numbers[1])) if len(numbers) == 2 else None


def near(point: tuple[float, float], location: str) -> bool:
    target = coords_of(location)
    return target is not None and all(abs(a - b) < DELTA for a, b in zip(point, target, strict=True))


def favorites_hold(device: Device, location: str) -> bool:
    """AndroidWorld's ``_favorites_contains`` over the device's favourites file."""
    try:
        root = ET.fromstring(device.read_file(FAVORITES_PATH))
    except (FileNotFoundError, ET.ParseError):
        return False
    for wpt in root.findall(f"{GPX}wpt"):
        name = wpt.findtext(f"{GPX}name")
        if name is not None and location in name:
            return True
        try:
            if near((float(wpt.get("lat", "")), float(wpt.get("lon", ""))), location):
                return True
        except ValueError:
            continue
    return False


def markers_hold(device: Device, location: str) -> bool:
    """AndroidWorld's ``_marker_matches_location`` over every ``map_markers`` row."""
    for row in device.content_query(MARKERS_URI):
        try:
            point = (float(row.get("marker_lat", "")), float(row.get("marker_lon", "")))
        except ValueError:
            continue
        if near(point, location):
            return True
    return False


class PlaceOracle(ScriptedOracle):
    """Search for the location, open the first result, then tap ``button`` in its context menu
    (Add, the favourite's editor, or Marker), and Save in the favourite's editor."""

    def __init__(self, location: str, button: str) -> None:
        super().__init__()
        # Typed without accents (adb's input text types ASCII only); the search ignores them.
        self.location, self.button = ascii_fold(location), button
        self.done = False

    def act(self, screen: LabelledScreen) -> str:
        if self.done:
            return "F"
        step = self.open_app(screen, OSMAND_PACKAGE, "OsmAnd")
        if step is not None:
            return step
        if screen.root.find(resource_id=f"{OSMAND_PACKAGE}:id/right_bottom_button") is not None:  # the favourite's editor
            self.done = True
            return self.tap(label_for(screen, text="Save") or "")
        if screen.root.find(resource_id=f"{OSMAND_PACKAGE}:id/context_menu_line1") is not None:
            if self.button == "Marker":
                self.done = True
            return self.tap(label_for(screen, text=self.button) or "")
        field = find(screen, lambda n: n.resource_id.endswith(":id/searchEditText"))
        if field is not None:
            if field[1].text != self.location:
                return self.type_into(screen, field[1], field[0], self.location)
            result = label_for(screen, rid=f"{OSMAND_PACKAGE}:id/title")
            return self.tap(result) if result is not None else "B"
        search = label_for(screen, desc="Search")
        return self.tap(search) if search is not None else "B"


class _OsmAndTask(Task):
    app: ClassVar[str] = "OsmAnd"
    family: ClassVar[str] = "osmand"

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"location": random_location(rng)}


@register_task
class OsmAndFavorite(_OsmAndTask):
    mirrors = "OsmAndFavorite"
    complexity: ClassVar[float] = 1.3
    template = "Add a favorite location marker for {location} in the OsmAnd maps app."
    judge = (
        "OsmAnd's favourites file (Android/data/net.osmand/files/favorites/favorites.gpx) holds a point whose name contains "
        "<location> or that lies within 0.001° of it (AndroidWorld's _favorites_contains)."
    )

    def initialize(self, device: Device) -> None:
        # AndroidWorld's _clear_favorites: the app's file, emptied of its points.
        device.write_file(FAVORITES_PATH, EMPTY_FAVORITES)

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if favorites_hold(device, self.params["location"]) else 0.0

    def oracle(self) -> Oracle:
        return PlaceOracle(self.params["location"], "Add")


@register_task
class OsmAndMarker(_OsmAndTask):
    mirrors = "OsmAndMarker"
    complexity: ClassVar[float] = 2.0
    template = "Add a location marker for {location} in the OsmAnd maps app."
    judge = "A row of OsmAnd's map_markers table lies within 0.001° of <location> (AndroidWorld's _marker_matches_location)."

    def initialize(self, device: Device) -> None:
        device.content_delete(MARKERS_URI)  # AndroidWorld's SQLiteApp clears the table

    def progress(self, device: Device, answer: str | None = None) -> float:
        return 1.0 if markers_hold(device, self.params["location"]) else 0.0

    def oracle(self) -> Oracle:
        return PlaceOracle(self.params["location"], "Marker")


def track_points(data: bytes) -> list[tuple[float, float]]:
    """AndroidWorld's ``_track_points``: every ``trk/trkseg/trkpt`` of a GPX file, in order
    (none for a file that is not GPX, or too large to read)."""
    if len(data) > MAX_TRACK_BYTES or b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        return []
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        return []
    points = []
    for point in root.findall(f"{GPX}trk/{GPX}trkseg/{GPX}trkpt"):
        try:
            points.append((float(point.get("lat", "")), float(point.get("lon", ""))))
        except ValueError:
            continue
    return points


def track_matches(points: list[tuple[float, float]], targets: list[tuple[float, float]]) -> bool:
    """AndroidWorld's ``_track_matches``: the targets are met in order along the points (each
    within 0.001° in both coordinates; any points between them)."""
    remaining = iter(targets)
    target = next(remaining, None)
    for point in points:
        if target is not None and all(abs(a - b) < DELTA for a, b in zip(point, target, strict=True)):
            target = next(remaining, None)
            if target is None:
                return True
    return target is None


def ascii_fold(text: str) -> str:
    """``text`` without its accents ("Schönberg" -> "Schonberg")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


class TrackOracle(ScriptedOracle):
    """Plan a route from the main menu (Menu > Plan a route), then per waypoint Add point, search
    it and take the place (the panel counts the points); then Done, which saves the track under
    the date and time."""

    def __init__(self, waypoints: list[str]) -> None:
        super().__init__()
        # The search shows a place by its name alone ("Balzers, Liechtenstein" -> "Balzers").
        self.names = [w.split(",")[0].strip() for w in waypoints]
        # Typed without accents (adb's input text types ASCII only); the search ignores them.
        self.waypoints = [ascii_fold(w) for w in waypoints]
        self.saved = False

    def act(self, screen: LabelledScreen) -> str:
        if self.saved:
            return "F"
        step = self.open_app(screen, OSMAND_PACKAGE, "OsmAnd")
        if step is not None:
            return step
        if screen.root.find(resource_id="android:id/alertTitle", text="Save as new track") is not None:
            self.saved = True
            return self.tap(label_for(screen, text="Save") or "")
        field = find(screen, lambda n: n.resource_id.endswith(":id/searchEditText"))
        if field is not None:
            wanted = self.waypoints[self._added]
            if field[1].text != wanted:
                return self.type_into(screen, field[1], field[0], wanted)
            name = self.names[self._added]
            result = find(screen, lambda n: n.resource_id == f"{OSMAND_PACKAGE}:id/title" and n.text == name)
            return self.tap(result[0]) if result is not None else "B"
        count = screen.root.find(resource_id=f"{OSMAND_PACKAGE}:id/measurement_points_text_view")
        if count is not None:  # Plan a route: one point per waypoint (each the search's exact match)
            digits = "".join(c for c in count.text if c.isdigit())
            self._added = int(digits) if digits else 0
            if self._added > len(self.names):
                return self.tap(label_for(screen, desc="Undo") or "")
            if self._added < len(self.names):
                return self.tap(label_for(screen, text="Add point") or "")
            self.saved = True  # Done: saved under the date and time, the tool closes
            return self.tap(label_for(screen, rid=f"{OSMAND_PACKAGE}:id/widget_top_bar_save") or "")
        plan = label_for(screen, text="Plan a route")
        if plan is not None:  # the main menu
            return self.tap(plan)
        menu = label_for(screen, desc="Back to menu")
        return self.tap(menu) if menu is not None else "B"

    _added = 0


@register_task
class OsmAndTrack(_OsmAndTask):
    mirrors = "OsmAndTrack"
    complexity: ClassVar[float] = 12.0
    template = "Save a track with waypoints {waypoint_list} in the OsmAnd maps app in the same order as listed."
    judge = (
        "Some GPX file in OsmAnd's tracks folder (Android/data/net.osmand/files/tracks) has track points passing within "
        "0.001° of every waypoint in the listed order (AndroidWorld's _track_matches)."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        count = int(rng.integers(2, 5))
        waypoints = [str(w) for w in rng.choice(list(LOCATIONS), size=count, replace=False)]
        return cls.from_androidworld({"track_name": f"{waypoints[0]} to {waypoints[-1]}", "waypoints": waypoints})

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        waypoints = [str(w) for w in params["waypoints"]]
        return {**params, "waypoints": waypoints, "waypoint_list": ", ".join(waypoints)}

    def initialize(self, device: Device) -> None:
        for entry in device.list_dir(TRACKS_DIR):  # AndroidWorld's _clear_tracks: rm -rf tracks/*
            device.remove_path(f"{TRACKS_DIR}/{entry}")

    def progress(self, device: Device, answer: str | None = None) -> float:
        targets = [coords_of(w) for w in self.params["waypoints"]]
        wanted = [t for t in targets if t is not None]
        for entry in device.list_dir(TRACKS_DIR):
            try:
                data = device.read_file(f"{TRACKS_DIR}/{entry}")
            except (FileNotFoundError, IsADirectoryError):  # a folder in the folder
                continue
            if track_matches(track_points(data), wanted):
                return 1.0
        return 0.0

    def text_candidates(self) -> list[str]:
        return list(self.params["waypoints"])

    def oracle(self) -> Oracle:
        return TrackOracle(self.params["waypoints"])
