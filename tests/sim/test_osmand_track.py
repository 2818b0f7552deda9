"""OsmAnd's Plan a route: points added through Search, Undo, Options, Done (the quick save) and
Save as new track: a GPX 1.1 track in the tracks
folder AndroidWorld reads (``/data/media/0/...`` as root sees it), checked with AndroidWorld's own
track functions where it is installed; the save dialog's name rules."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from datetime import datetime, timezone

import pytest
from test_vlc import node, tap, texts  # the same tree helpers

from cerebellum_gym.sim.apps.osmand import TRACK_STEP_DEG, TRACKS_DIR, route_line, search, track_gpx
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell

OSMAND = "net.osmand"
NS = {"gpx": "http://www.topografix.com/GPX/1/1"}
ROOT_TRACKS = "/data/media/0/Android/data/net.osmand/files/tracks"


def add_point(phone: Phone, query: str, title: str) -> None:
    tap(phone, text="Add point")
    phone.type_text(query)  # the search field has the focus
    tap(phone, text=title, resource_id=f"{OSMAND}:id/title")


def planned(phone: Phone, *places: tuple[str, str]) -> None:
    """A route planned from the main menu (Menu > Plan a route), each place added with Add point."""
    phone.start_app(OSMAND)
    tap(phone, content_desc="Back to menu")
    tap(phone, text="Plan a route")
    for query, title in places:
        add_point(phone, query, title)


def point_count(phone: Phone) -> str:
    return node(phone, resource_id=f"{OSMAND}:id/measurement_points_text_view").text


def save_as_new_track(phone: Phone) -> None:
    tap(phone, text="Options")
    tap(phone, text="Save as new track")


def test_a_planned_route_is_saved_as_a_track_androidworld_accepts() -> None:
    phone = Phone()
    planned(phone)
    assert point_count(phone) == "points: 0"
    tap(phone, text="DONE")  # no point: nothing to save
    assert point_count(phone) == "points: 0" and phone.list_dir(TRACKS_DIR) == []
    add_point(phone, "Balzers, Liechtenstein", "Balzers")
    add_point(phone, "schonberg", "Schönberg")  # the search ignores accents, as OsmAnd's does
    add_point(phone, "Ruggell", "Ruggell")
    assert point_count(phone) == "points: 3"
    tap(phone, text="DONE")  # the quick save: named by the date and time, the tool closes
    default = datetime.fromtimestamp(phone.state.clock, timezone.utc).strftime("%Y-%m-%d_%H-%M_%a")
    assert "Plan a route" not in texts(phone)  # back on the map
    files = Shell(phone).run(f"ls {ROOT_TRACKS}").stdout.decode().split()
    assert files == [f"{default}.gpx"]
    root = ET.fromstring(phone.read_file(f"{TRACKS_DIR}/{default}.gpx"))
    assert root.tag == "{http://www.topografix.com/GPX/1/1}gpx" and root.get("version") == "1.1"
    assert [p.findtext("gpx:name", namespaces=NS) for p in root.findall("gpx:rte/gpx:rtept", NS)] == ["Balzers", "Schönberg", "Ruggell"]
    points = [(float(p.get("lat", "")), float(p.get("lon", ""))) for p in root.findall("gpx:trk/gpx:trkseg/gpx:trkpt", NS)]
    assert len(points) > 3
    aw = pytest.importorskip("android_world.task_evals.single.osmand")
    targets = aw._lookup_target_waypoints(["Balzers, Liechtenstein", "Schönberg, Liechtenstein", "Ruggell, Liechtenstein"])
    assert list(aw._track_points(root)) == points
    assert aw._track_matches(points, targets)
    assert not aw._track_matches(points, targets[::-1])


def test_done_twice_in_a_minute_numbers_the_second_track() -> None:
    phone = Phone()
    planned(phone, ("Vaduz", "Vaduz"))
    tap(phone, text="DONE")
    tap(phone, content_desc="Back to menu")
    tap(phone, text="Plan a route")
    add_point(phone, "Malbun", "Malbun")
    tap(phone, text="DONE")
    default = datetime.fromtimestamp(phone.state.clock, timezone.utc).strftime("%Y-%m-%d_%H-%M_%a")
    assert sorted(phone.list_dir(TRACKS_DIR)) == sorted([f"{default}.gpx", f"{default}_2.gpx"])


def test_undo_takes_the_last_point_back_and_options_reverse_and_clear() -> None:
    phone = Phone()
    planned(phone, ("Vaduz", "Vaduz"), ("Triesen", "Triesen"))
    assert "Plan a route" in texts(phone) and point_count(phone) == "points: 2"
    tap(phone, content_desc="Undo")
    assert point_count(phone) == "points: 1"
    tap(phone, content_desc="Undo")
    assert not node(phone, content_desc="Undo").enabled and point_count(phone) == "points: 0"
    add_point(phone, "Vaduz", "Vaduz")
    add_point(phone, "Triesen", "Triesen")
    tap(phone, text="Options")
    tap(phone, text="Reverse route")
    save_as_new_track(phone)
    phone.clear_focused_text()
    phone.type_text("back")
    tap(phone, text="Save", class_name="android.widget.Button")
    root = ET.fromstring(phone.read_file(f"{TRACKS_DIR}/back.gpx"))
    assert [p.findtext("gpx:name", namespaces=NS) for p in root.findall("gpx:rte/gpx:rtept", NS)] == ["Triesen", "Vaduz"]


def test_the_save_dialog_refuses_an_empty_name_and_an_existing_track() -> None:
    phone = Phone()
    phone.write_file(f"{TRACKS_DIR}/Mine.gpx", b"<gpx/>")
    planned(phone, ("Vaduz", "Vaduz"), ("Malbun", "Malbun"))
    save_as_new_track(phone)
    default = datetime.fromtimestamp(phone.state.clock, timezone.utc).strftime("%Y-%m-%d_%H-%M_%a")
    assert node(phone, resource_id=f"{OSMAND}:id/name_edit").text == default
    phone.clear_focused_text()
    tap(phone, text="Save", class_name="android.widget.Button")
    assert "Enter a name" in texts(phone)
    phone.type_text("Mine")
    tap(phone, text="Save", class_name="android.widget.Button")
    assert "File already exists" in texts(phone) and phone.read_file(f"{TRACKS_DIR}/Mine.gpx") == b"<gpx/>"
    phone.clear_focused_text()
    phone.type_text("Vaduz to Malbun")
    tap(phone, text="Save", class_name="android.widget.Button")
    assert sorted(phone.list_dir(TRACKS_DIR)) == ["Mine.gpx", "Vaduz to Malbun.gpx"]


def test_the_tracks_folder_is_there_from_the_start_and_androidworlds_clear_empties_it() -> None:
    """OsmAnd made it on the first start AndroidWorld's set-up gave it; its judge reads it on any
    fresh phone, and a start after it went makes it again."""
    phone = Phone()
    assert phone.is_dir(TRACKS_DIR) and phone.list_dir(TRACKS_DIR) == []
    assert Shell(phone).run(f"rm -rf {ROOT_TRACKS}").code == 0
    assert not phone.is_dir(TRACKS_DIR)
    phone.start_app(OSMAND)
    assert phone.is_dir(TRACKS_DIR) and phone.list_dir(TRACKS_DIR) == []
    phone.write_file(f"{TRACKS_DIR}/a.gpx", track_gpx("a", [("A", 47.1, 9.5), ("B", 47.2, 9.5)], 0.0))
    assert Shell(phone).run(f"rm -rf {ROOT_TRACKS}/*").code == 0  # AndroidWorld's _clear_tracks
    assert phone.list_dir(TRACKS_DIR) == [] and phone.is_dir(TRACKS_DIR)


def test_the_line_between_points_is_straight_and_dense() -> None:
    a, b, c = (47.0688832, 9.5061564), (47.23976, 9.5262837), (47.23976, 9.5262837 + 0.0001)
    line = route_line([a, b, c])
    assert line[0] == a and b in line and line[-1] == c
    for (lat1, lon1), (lat2, lon2) in itertools.pairwise(line):
        assert max(abs(lat2 - lat1), abs(lon2 - lon1)) <= TRACK_STEP_DEG + 1e-12
    assert route_line([a]) == [a] and route_line([]) == []
    assert [p.name for p in search("SCHÖNBERG")] == [p.name for p in search("schonberg")] == ["Schönberg"]


def test_names_with_markup_are_escaped_in_the_file() -> None:
    data = track_gpx("a < b & c", [("x <y>", 47.1, 9.5), ("z", 47.2, 9.5)], 0.0)
    root = ET.fromstring(data)
    assert root.findtext("gpx:trk/gpx:name", namespaces=NS) == "a < b & c"
    assert root.findtext("gpx:rte/gpx:rtept/gpx:name", namespaces=NS) == "x <y>"
