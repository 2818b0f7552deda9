"""OsmAnd's screens as the app draws them: the map's HUD buttons (map_hud_top/bottom/controls),
the context menu a place opens (by search or a long press on the map), the favourite editor,
and the main menu's and Actions' entries."""

from __future__ import annotations

from test_vlc import node, tap, texts  # the same tree helpers

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.sim.apps.osmand import _FRAME, MAP_HEIGHT, MAP_TOP, PLACES
from cerebellum_gym.sim.phone import Phone

OSMAND = "net.osmand"


def ids(phone: Phone) -> list[str]:
    return [n.resource_id.split("/")[-1] for n in phone.ui_tree().iter() if n.resource_id.startswith(f"{OSMAND}:id/")]


def descs(phone: Phone) -> list[str]:
    return [n.content_desc for n in phone.ui_tree().iter() if n.content_desc]


def find(phone: Phone, rid: str) -> UINode | None:
    return next((n for n in phone.ui_tree().iter() if n.resource_id == f"{OSMAND}:id/{rid}"), None)


def open_place(phone: Phone, query: str) -> None:
    phone.start_app(OSMAND)
    tap(phone, content_desc="Search")
    phone.type_text(query)
    tap(phone, resource_id=f"{OSMAND}:id/title")


def test_map_shows_the_hud_buttons_in_layout_order() -> None:
    phone = Phone()
    phone.start_app(OSMAND)
    hud = ["map_layers_button", "map_search_button", "map_menu_button", "map_route_info_button"]
    hud += ["map_my_location_button", "map_zoom_in_button", "map_zoom_out_button"]
    assert [i for i in ids(phone) if i in hud] == hud
    assert descs(phone) == ["Configure map", "Search", "Back to menu", "Route", "My location", "Zoom in", "Zoom out"]
    assert "My places" not in descs(phone) and "Map markers" not in descs(phone)


def test_context_menu_has_the_four_actions_and_hides_the_bottom_buttons() -> None:
    phone = Phone()
    open_place(phone, "Vaduz")
    assert node(phone, resource_id=f"{OSMAND}:id/context_menu_line1").text == "Vaduz"
    labels = [find(phone, f"context_menu_{n}_text_view") for n in ("fav", "route", "share", "more")]
    assert [n.text for n in labels if n is not None] == ["Add", "Marker", "Share", "Actions"]
    assert all(
        view is not None and view.clickable for view in (find(phone, f"context_menu_{n}_view") for n in ("fav", "route", "share", "more"))
    )
    assert {"DETAILS", "DIRECTIONS"} <= set(texts(phone))
    assert find(phone, "map_menu_button") is None and find(phone, "map_search_button") is not None
    phone.press_key(4)  # back closes the menu
    assert find(phone, "context_menu_line1") is None and find(phone, "map_menu_button") is not None
    open_place(phone, "Vaduz")
    phone.tap(540, MAP_TOP + 600)  # an empty place of the map closes it too
    assert find(phone, "context_menu_line1") is None


def test_long_press_on_a_place_opens_its_context_menu_else_the_point() -> None:
    phone = Phone()
    phone.start_app(OSMAND)
    south, north, west, east = _FRAME
    vaduz = next(p for p in PLACES if p.name == "Vaduz")
    x = round((vaduz.lon - west) / (east - west) * 1080)
    y = MAP_TOP + round((north - vaduz.lat) / (north - south) * MAP_HEIGHT)
    phone.long_press(x, y)
    assert node(phone, resource_id=f"{OSMAND}:id/context_menu_line1").text == "Vaduz"
    phone.press_key(4)
    phone.long_press(60, MAP_TOP + MAP_HEIGHT // 2)  # west of the Rhine: no place there
    line2 = node(phone, resource_id=f"{OSMAND}:id/context_menu_line2").text
    assert line2.startswith("Location")


def test_add_opens_the_favourite_editor_and_cancel_adds_nothing() -> None:
    phone = Phone()
    open_place(phone, "Malbun")
    before = phone.read_file("/sdcard/Android/data/net.osmand/files/favorites/favorites.gpx")
    tap(phone, text="Add")
    assert "Add favorite" in texts(phone)
    assert node(phone, resource_id=f"{OSMAND}:id/name_edit").text == "Malbun"
    assert [n.text for n in phone.ui_tree().iter() if n.resource_id == f"{OSMAND}:id/button_text"] == ["Cancel", "Save"]
    tap(phone, text="Cancel")
    assert find(phone, "context_menu_line1") is not None  # back on the place
    assert phone.read_file("/sdcard/Android/data/net.osmand/files/favorites/favorites.gpx") == before


def test_actions_lead_to_plan_a_route_and_the_menu_to_my_places() -> None:
    phone = Phone()
    open_place(phone, "Vaduz")
    tap(phone, text="Actions")
    assert {"Directions from", "Search nearby", "Plan a route"} <= set(texts(phone))
    tap(phone, text="Plan a route")
    assert node(phone, resource_id=f"{OSMAND}:id/measurement_points_text_view").text == "points: 1"
    plan = ["widget_top_bar_title", "widget_top_bar_close_button", "widget_top_bar_save", "measurement_distance_text_view"]
    plan += ["measurement_points_text_view", "options_button", "undo_point_button", "redo_point_button", "add_point_button"]
    assert [i for i in ids(phone) if i in plan] == plan
    assert find(phone, "map_search_button") is None  # the map's own buttons give way
    phone.press_key(4)
    tap(phone, content_desc="Back to menu")
    tap(phone, text="My places")
    assert "My places" in texts(phone)
