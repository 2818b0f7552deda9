"""Near misses of the VLC and OsmAnd tasks (merged into ``test_sim_near_misses.NEAR_MISSES``,
which runs them at three seeds). Each builds the state through the apps' content URIs, after
VLC has scanned the pushed videos, as the app itself would have written it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cerebellum_gym.sim.apps.osmand import TRACKS_DIR, parse_favorites, track_gpx, with_favorite
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks.base import Task
from cerebellum_gym.tasks.osmand import LOCATIONS, coords_of
from cerebellum_gym.tasks.vlc import MEDIA_URI, PLAYLISTS_URI, RELATIONS_URI, VLC_PACKAGE

Case = Callable[[Phone, Task], "str | None"]


def _playlist(phone: Phone, name: str, files: list[str]) -> None:
    """A playlist ``name`` holding ``files`` at positions 0, 1, ... (VLC scans first)."""
    phone.start_app(VLC_PACKAGE)
    ids = {r["filename"]: r["_id"] for r in phone.content_query(MEDIA_URI)}
    phone.content_insert(PLAYLISTS_URI, {"name": name, "creation_date": "0"})
    playlist = phone.content_query(PLAYLISTS_URI)[-1]["_id"]
    for position, file in enumerate(files):
        phone.content_insert(RELATIONS_URI, {"media_id": ids[file], "playlist_id": playlist, "position": str(position)})


def _swapped(files: list[str]) -> list[str]:
    return [files[1], files[0], *files[2:]]


def _both_second_swapped(phone: Phone, params: dict[str, Any]) -> None:
    _playlist(phone, params["playlist_name1"], params["files1"])
    _playlist(phone, params["playlist_name2"], _swapped(params["files2"]))


NEAR_MISSES: dict[str, list[tuple[str, Any]]] = {
    "VlcCreatePlaylist": [
        ("first two swapped", lambda p, t: _playlist(p, t.params["playlist_name"], _swapped(t.params["files"]))),
        ("last file left out", lambda p, t: _playlist(p, t.params["playlist_name"], t.params["files"][:-1])),
        ("a noise file added", lambda p, t: _playlist(p, t.params["playlist_name"], [*t.params["files"], t.params["noise_files"][0]])),
        ("another name", lambda p, t: _playlist(p, "Zzzz Qqqq", t.params["files"])),
    ],
    "VlcCreateTwoPlaylists": [
        ("the first playlist only", lambda p, t: _playlist(p, t.params["playlist_name1"], t.params["files1"])),
        ("both, the second one swapped", lambda p, t: _both_second_swapped(p, t.params)),
        ("one playlist of all files", lambda p, t: _playlist(p, t.params["playlist_name1"], [*t.params["files1"], *t.params["files2"]])),
    ],
}


# --- OsmAnd --------------------------------------------------------------------------------------

OSMAND = "net.osmand"
FAVORITES = "/sdcard/Android/data/net.osmand/files/favorites/favorites.gpx"
MARKERS = "content://net.osmand/map_markers"


def _other(location: str) -> tuple[str, float, float]:
    """A place of the map other than ``location`` (given by name or by coordinates)."""
    target = coords_of(location)
    name, (lat, lon) = next((n, c) for n, c in LOCATIONS.items() if c != target)
    return name.split(",")[0], lat, lon


def _at(location: str, by: float = 0.0) -> tuple[float, float]:
    """The location's coordinates, ``by`` degrees north."""
    target = coords_of(location)
    assert target is not None
    return target[0] + by, target[1]


def _favorite(phone: Phone, name: str, lat: float, lon: float) -> None:
    """A point added to the favourites file as the app writes it (the app makes the file)."""
    phone.start_app(OSMAND)
    root = parse_favorites(phone.read_file(FAVORITES))
    assert root is not None
    phone.write_file(FAVORITES, with_favorite(root, name, lat, lon, phone.state.clock))


def _marker(phone: Phone, title: str, lat: float, lon: float) -> None:
    phone.content_insert(MARKERS, {"marker_lat": repr(lat), "marker_lon": repr(lon), "title": title, "marker_active": "1"})


def _track(phone: Phone, waypoints: list[str], short: float = 0.0, name: str = "Track") -> None:
    """A track through ``waypoints`` in that order, saved as the app saves a planned route; with
    ``short``, its line ends that many degrees (the larger coordinate) before the last one."""
    points = [(w, *_at(w)) for w in waypoints]
    if short:
        (_, lat1, lon1), (last, lat2, lon2) = points[-2], points[-1]
        f = short / max(abs(lat2 - lat1), abs(lon2 - lon1))
        points[-1] = (last, lat2 + (lat1 - lat2) * f, lon2 + (lon1 - lon2) * f)
    phone.start_app(OSMAND)
    phone.write_file(f"{TRACKS_DIR}/{name}.gpx", track_gpx(name, points, phone.state.clock))


def _tracks_split(phone: Phone, waypoints: list[str]) -> None:
    """Two tracks that together hold every waypoint, neither all of them."""
    _track(phone, waypoints[:1] + waypoints[1:2], name="First")
    _track(phone, waypoints[1:], name="Rest") if len(waypoints) > 2 else _track(phone, waypoints[1:] + waypoints[:1], name="Rest")


NEAR_MISSES.update(
    {
        "OsmAndTrack": [
            ("the waypoints in reverse order", lambda p, t: _track(p, t.params["waypoints"][::-1])),
            ("the last waypoint left out", lambda p, t: _track(p, t.params["waypoints"][:-1])),
            ("ending 0.002° short of the last waypoint", lambda p, t: _track(p, t.params["waypoints"], short=0.002)),
            ("favourites instead of a track", lambda p, t: [_favorite(p, w, *_at(w)) for w in t.params["waypoints"]] and None),
            ("split over two tracks", lambda p, t: _tracks_split(p, t.params["waypoints"])),
        ],
        "OsmAndFavorite": [
            ("a favourite of another place", lambda p, t: _favorite(p, *_other(t.params["location"]))),
            ("a marker instead", lambda p, t: _marker(p, "Here", *_at(t.params["location"]))),
            ("a favourite 0.002° off, named otherwise", lambda p, t: _favorite(p, "Spot", *_at(t.params["location"], 0.002))),
        ],
        "OsmAndMarker": [
            ("a marker of another place", lambda p, t: _marker(p, *_other(t.params["location"]))),
            ("a favourite instead", lambda p, t: _favorite(p, t.params["location"], *_at(t.params["location"]))),
            ("a marker 0.002° off", lambda p, t: _marker(p, "Spot", *_at(t.params["location"], 0.002))),
        ],
    }
)
