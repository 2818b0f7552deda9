"""OsmAnd: search over the map's places and typed coordinates, favourites written to the GPX file
AndroidWorld reads (also as ``/data/media/0/...``), markers in ``map_markers_db``; a damaged,
huge or DTD-laden favourites file shows an error and is never overwritten."""

from __future__ import annotations

import sqlite3
import xml.etree.ElementTree as ET

import pytest
from test_vlc import node, tap, texts  # the same tree helpers

from cerebellum_gym.sim import databases
from cerebellum_gym.sim.apps.osmand import FAVORITES_PATH, MARKERS_DB, parse_favorites, search, waypoints
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell

OSMAND = "net.osmand"
ROOT_PATH = "/data/media/0/Android/data/net.osmand/files/favorites/favorites.gpx"
NS = {"gpx": "http://www.topografix.com/GPX/1/1"}


def open_place(phone: Phone, query: str) -> None:
    phone.start_app(OSMAND)
    tap(phone, content_desc="Search")
    phone.type_text(query)
    tap(phone, resource_id=f"{OSMAND}:id/title")


def test_search_finds_places_by_word_start_and_coordinates() -> None:
    assert [p.name for p in search("schaan")] == ["Schaan", "Schaanwald"]
    assert [p.name for p in search("Balzers, Liechtenstein")] == ["Balzers"]
    assert [p.name for p in search("Schönberg")] == ["Schönberg"]
    (point,) = search("47.1303814, 9.5930117")
    assert (point.lat, point.lon, point.region) == (47.1303814, 9.5930117, "Location")
    assert search("") == [] and search("Atlantis") == [] and search("95.0, 9.5") == []


def test_favourite_lands_in_the_gpx_androidworld_reads() -> None:
    phone = Phone()
    open_place(phone, "Triesen, Liechtenstein")
    assert "Triesen" in texts(phone)
    tap(phone, text="Add")
    assert node(phone, resource_id=f"{OSMAND}:id/name_edit").text == "Triesen"
    tap(phone, text="Save")
    sh = Shell(phone)
    sh.root = True
    done = sh.run(f"cat {ROOT_PATH}")
    assert done.code == 0
    root = ET.fromstring(done.stdout)
    (wpt,) = root.findall("gpx:wpt", NS)
    assert wpt.find("gpx:name", NS).text == "Triesen"  # type: ignore[union-attr]
    assert abs(float(wpt.attrib["lat"]) - 47.106997) < 1e-6 and abs(float(wpt.attrib["lon"]) - 9.5274854) < 1e-6
    tap(phone, content_desc="Back to menu")
    tap(phone, text="My places")
    assert "Triesen" in texts(phone)


def test_androidworlds_cleared_file_is_read_and_kept() -> None:
    """AndroidWorld empties the file with ElementTree (which writes ``ns0:`` prefixes); the app
    reads that, adds to it and keeps what else it holds."""
    phone = Phone()
    phone.start_app(OSMAND)
    tree = ET.ElementTree(ET.fromstring(phone.read_file(FAVORITES_PATH)))
    cleared = ET.tostring(tree.getroot())
    assert b"ns0:" in cleared
    phone.write_file(FAVORITES_PATH, cleared)
    phone.press_key(3)
    open_place(phone, "47.2165476, 9.5699984")
    tap(phone, text="Add")
    tap(phone, text="Save")
    root = parse_favorites(phone.read_file(FAVORITES_PATH))
    assert root is not None
    assert [(round(lat, 5), round(lon, 5)) for _, lat, lon in waypoints(root)] == [(47.21655, 9.57)]
    assert root.find("gpx:metadata/gpx:name", NS) is not None


@pytest.mark.parametrize(
    "data",
    [
        b"\x00\x01 not xml at all",
        b"<kml><Placemark/></kml>",  # XML, not GPX
        b'<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa">]><gpx xmlns="http://www.topografix.com/GPX/1/1">&a;</gpx>',
        b'<gpx xmlns="http://www.topografix.com/GPX/1/1">' + b"<!-- padding -->" * 200_000 + b"</gpx>",  # 3 MB
    ],
    ids=["binary", "kml", "dtd", "huge"],
)
def test_unreadable_favourites_show_an_error_and_stay(data: bytes) -> None:
    phone = Phone()
    phone.write_file(FAVORITES_PATH, data)
    open_place(phone, "Vaduz")
    tap(phone, text="Add")
    tap(phone, text="Save")
    assert "Could not read favorites" in texts(phone)
    assert phone.read_file(FAVORITES_PATH) == data
    phone.press_key(4)  # back: closes the editor
    phone.press_key(4)  # closes the place's context menu
    tap(phone, content_desc="Back to menu")
    tap(phone, text="My places")
    assert "Could not read favorites" in texts(phone)


def test_marker_is_a_map_markers_row_as_androidworld_reads_it() -> None:
    schema_utils = pytest.importorskip("android_world.task_evals.utils.sqlite_schema_utils")
    phone = Phone()
    open_place(phone, "Malbun")
    tap(phone, text="Marker")
    assert "Marker" not in texts(phone)  # the context menu closes on the map
    image = databases.read(phone, MARKERS_DB.path)
    assert image is not None
    con = sqlite3.connect(":memory:")
    con.deserialize(image)
    con.row_factory = sqlite3.Row
    (row,) = [schema_utils.OsmAndMapMarker(**dict(r)) for r in con.execute("SELECT * FROM map_markers")]
    assert (row.marker_lat, row.marker_lon, row.title, row.marker_active) == (47.1026191, 9.6083057, "Malbun", 1)
    tap(phone, content_desc="Back to menu")
    tap(phone, text="Map markers")
    assert "Malbun" in texts(phone)
