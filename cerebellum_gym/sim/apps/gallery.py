"""Simple Gallery Pro (``com.simplemobiletools.gallery.pro``, versionCode 396, tag 6.28.1): the
folders grid under the Simple-Commons search bar, a folder's media grid (its search bar with a
"Back" arrow), the selection mode, and the full-screen viewer with its bottom actions (toggle
favourite, edit, share, delete), its toolbar (rotate, properties) and overflow (rename, copy to,
move to...); copy and move go to a folder picked in the folder picker.

Like the real app it lists what the media scanner files as images (by extension, anywhere under
``/sdcard`` outside hidden folders), a folder per directory, newest first inside one. Pixels are
decoded only where a picture is painted, downscaled to the view and cached
(:mod:`cerebellum_gym.sim.images`); a damaged, foreign or too-large file shows the broken-image
mark in the grid and the app's error in the viewer. File names do not show under the thumbnails
until "Toggle filename visibility" turns them on (``Config.displayFileNames``, off by default).

Layouts ``activity_main.xml``, ``directory_item_grid_square.xml``, ``activity_media.xml``,
``photo_item_grid.xml``, ``activity_medium.xml``, ``bottom_actions.xml`` and
``pager_photo_item.xml``; menus ``menu_main.xml``, ``menu_media.xml``, ``cab_media.xml`` and
``menu_viewpager.xml`` with ``ViewPagerActivity.refreshMenuItems`` (default bottom actions).
"""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Callable, Hashable
from typing import ClassVar

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import images, render
from cerebellum_gym.sim.apps import picker
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.material import Theme, dp
from cerebellum_gym.sim.material.components import ActionMenuItem, MaterialIconButton, OverflowButton, TopAppBar
from cerebellum_gym.sim.material.simple import SIMPLE_THEME, MenuEntry, SearchMenu
from cerebellum_gym.sim.render import font, text_fit
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Callback, Dialog, ImageView, Row, Text, Widget, broken_image_mark

ROOT = "/sdcard"
PACKAGE = "com.simplemobiletools.gallery.pro"
COLUMNS = 3
TILE_HEIGHT = 420
VIEWER_HEIGHT = 2085  # the body of a screen with a toolbar: 2400 - status - toolbar - nav
ORANGE = (243, 112, 33)
ID = f"{PACKAGE}:id/"
#: The viewer's bars: white icons over the black page.
VIEWER = Theme(surface=(0, 0, 0), on_surface=(255, 255, 255), on_surface_variant=(200, 200, 200), primary=SIMPLE_THEME.primary)
#: Overflow menus at the default settings (the bottom actions take favourite, edit, share, delete).
MAIN_OVERFLOW = (
    "Sort by",
    "Filter media",
    "Change view type",
    "Temporarily show hidden",
    "Create new folder",
    "Column count",
    "Settings",
    "About",
)
MEDIA_OVERFLOW = (
    "Filter media",
    "Change view type",
    "Temporarily show hidden",
    "Group by",
    "Set as default folder",
    "Create new folder",
    "Column count",
    "Slideshow",
    "Settings",
)
VIEWER_OVERFLOW = (
    "Rename",
    "Copy to",
    "Move to",
    "Create shortcut",
    "Open with",
    "Set as",
    "Change orientation",
    "Print",
    "Resize",
    "Show on map",
    "Slideshow",
    "Settings",
)
CAB_OVERFLOW = (
    "Rotate",
    "Properties",
    "Rename",
    "Copy to",
    "Move to",
    "Create shortcut",
    "Open with",
    "Set as",
    "Resize",
    "Edit",
    "Add to favorites",
    "Select all",
)


class GalleryTile(ImageView):
    """A grid cell: the picture (or an album's cover) above its name and, for an album, its count."""

    class_name = "android.widget.RelativeLayout"

    def __init__(self, source: Hashable, load: Callable[[], bytes], name: str, count: str = "", **kwargs: object) -> None:
        super().__init__(source, load, height=TILE_HEIGHT, **kwargs)  # type: ignore[arg-type]
        self.name = name
        self.count = count

    def render_key(self) -> Hashable:
        return (super().render_key(), self.name, self.count)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        label = round(96 * scale)
        pad = max(1, round(8 * scale))
        # The picture in the part above the label (its own tile: the cache keys it by that box).
        from cerebellum_gym.sim.images import thumbnail

        box = (max(1, width - 2 * pad), max(1, height - label - 2 * pad))
        picture = thumbnail(self.source, self.load(), box)
        if picture is None:
            broken_image_mark(draw, width / 2, (height - label) / 2, round(48 * scale))
        else:
            canvas = draw._image
            canvas.paste(picture, ((width - picture.width) // 2, pad + (box[1] - picture.height) // 2))
        draw.rectangle((0, height - label, width, height), fill=render.SURFACE)
        size = round(34 * scale)
        shown = text_fit(draw, self.name, size, width - 2 * pad)
        draw.text((pad, height - label + pad), shown, font=font(size), fill=render.TEXT)
        if self.count:
            draw.text((pad, height - label + pad + size + 2), self.count, font=font(round(30 * scale)), fill=render.TEXT_SECONDARY)
        if self.selected:
            r = round(26 * scale)
            draw.ellipse((width - 3 * r, r, width - r, 3 * r), fill=render.PRIMARY, outline=render.SURFACE, width=max(1, r // 5))

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.name, self.count)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.long_clickable = True
        left, top, right, bottom = bounds
        album = bool(self.count)
        node.resource_id = ID + ("dir_holder" if album else "media_item_holder")
        kids = [
            UINode("android.widget.ImageView", bounds, resource_id=ID + ("dir_thumbnail" if album else "medium_thumbnail"), package=package)
        ]
        if album:
            kids.append(
                UINode(
                    "android.widget.TextView",
                    (left + 8, bottom - 96, right - 8, bottom - 48),
                    text=self.name,
                    resource_id=ID + "dir_name",
                    package=package,
                )
            )
            kids.append(
                UINode(
                    "android.widget.TextView",
                    (left + 8, bottom - 48, right - 8, bottom - 8),
                    text=self.count,
                    resource_id=ID + "photo_cnt",
                    package=package,
                )
            )
        elif self.name:
            kids.append(
                UINode(
                    "android.widget.TextView",
                    (left + 8, bottom - 96, right - 8, bottom - 8),
                    text=self.name,
                    resource_id=ID + "medium_name",
                    package=package,
                )
            )
        if self.selected:
            kids.append(
                UINode(
                    "android.widget.ImageView",
                    (right - dp(36), top + dp(8), right - dp(8), top + dp(36)),
                    resource_id=ID + ("dir_check" if album else "medium_check"),
                    package=package,
                )
            )
        for i, kid in enumerate(kids):
            kid.index = i
        node.children = kids
        return node


class _BottomActions(Widget):
    """``bottom_actions.xml`` with the default actions: toggle favourite, edit, share, delete."""

    class_name = "android.view.ViewGroup"
    opaque = False

    def __init__(self, actions: list[MaterialIconButton]) -> None:
        super().__init__(height=dp(56), rid=f"{ID}bottom_actions_wrapper")
        self.actions = actions

    def render_key(self) -> Hashable:
        return ()

    def children(self, bounds: Bounds) -> list[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        cell = (right - left) // max(1, len(self.actions))
        return [(a, (left + i * cell, top, left + (i + 1) * cell, bottom)) for i, a in enumerate(self.actions)]


class _Action(MaterialIconButton):
    """A viewer's bottom action: an ``ImageView`` with its description."""

    class_name = "android.widget.ImageView"


class _ActionModeBar(TopAppBar):
    """The selection mode's bar: "Done", the count, Delete and Share, the overflow."""

    def __init__(self, title: str, *, close: Callback, actions: list[MaterialIconButton]) -> None:
        navigation = _Action("Done", "close", theme=SIMPLE_THEME, on_tap=close, rid=f"{ID}action_mode_close_button")
        super().__init__(title, navigation=navigation, actions=actions, theme=SIMPLE_THEME, rid=f"{ID}action_mode_bar")


@register_app
class SimpleGalleryApp(App):
    package: ClassVar[str] = PACKAGE
    activity: ClassVar[str] = "com.simplemobiletools.gallery.pro.activities.MainActivity"
    label: ClassVar[str] = "Simple Gallery Pro"
    color: ClassVar[tuple[int, int, int]] = ORANGE
    clock_dependent: ClassVar[bool] = False

    def initial_data(self) -> dict[str, object]:
        return {"show_names": False}

    # --- media -------------------------------------------------------------------------------

    def pictures(self) -> dict[str, list[str]]:
        """Image files by folder (paths), as the media scanner finds them: newest first."""
        state = self.phone.state
        albums: dict[str, list[str]] = {}
        for path in state.files:
            if not path.startswith(ROOT + "/") or not images.is_image_name(path):
                continue
            folder = posixpath.dirname(path)
            if any(part.startswith(".") for part in folder[len(ROOT) :].split("/")):
                continue  # hidden folders (.thumbnails, .trash) are not albums
            albums.setdefault(folder, []).append(path)
        for paths in albums.values():
            paths.sort(key=lambda p: (-self.phone.file_mtime(p), p))
        return albums

    def _source(self, path: str) -> tuple[Hashable, Callable[[], bytes]]:
        """What names the file's content (path, write time, size) and how to read it."""
        data = self.phone.state.files.get(path, b"")
        return (path, self.phone.file_mtime(path), len(data)), lambda: self.phone.state.files.get(path, b"")

    def _tile(self, path: str, name: str, count: str = "", **kwargs: object) -> GalleryTile:
        source, load = self._source(path)
        return GalleryTile(source, load, name, count, **kwargs)

    @staticmethod
    def _grid(tiles: list[Widget]) -> list[Widget]:
        return [Row(tiles[i : i + COLUMNS], columns=COLUMNS, height=TILE_HEIGHT) for i in range(0, len(tiles), COLUMNS)]

    # --- screens -----------------------------------------------------------------------------

    def _menu(self, items: tuple[str, ...], route: Route) -> Dialog | None:
        if route.get("dialog") != "menu":
            return None
        return Dialog("", [], body=[MenuEntry(item, on_tap=functools.partial(self._menu_choice, route, item)) for item in items])

    def _menu_choice(self, route: Route, item: str) -> None:
        self.set_dialog(None)
        if item in ("Copy to", "Move to"):
            items = [route["path"]] if route["screen"] == "viewer" else list(route.get("selected", []))
            self._pick(route, "copy" if item == "Copy to" else "move", items)
        elif item == "Select all" and route["screen"] == "album":
            route["selected"] = list(self.pictures().get(route["folder"], []))

    def screen_main(self, route: Route) -> ScreenSpec:
        albums = self.pictures()
        tiles: list[Widget] = []
        for folder in sorted(albums, key=lambda f: posixpath.basename(f).lower()):
            paths = albums[folder]
            tiles.append(
                self._tile(
                    paths[0],
                    posixpath.basename(folder),
                    f"{len(paths)}",
                    on_tap=lambda f=folder: self.push("album", folder=f, selected=[]),
                )
            )
        body = self._grid(tiles) or [
            Text(
                "No media files have been found with the selected filters.",
                size=dp(18),
                center=True,
                height=dp(96),
                color=render.TEXT_SECONDARY,
                rid=f"{ID}directories_empty_placeholder",
            ),
            Text(
                "Change filters",
                size=dp(18),
                center=True,
                color=SIMPLE_THEME.primary,
                rid=f"{ID}directories_empty_placeholder_2",
                on_tap=lambda: None,
            ),
        ]
        search = edit_field(self, route, "search", hint="Search folders", rid=f"{ID}top_toolbar_search", height=dp(40))
        actions: list[MaterialIconButton] = [
            ActionMenuItem("Open camera", "photo_camera", theme=SIMPLE_THEME, rid=f"{ID}open_camera", on_tap=lambda: None),
            ActionMenuItem("Show all folders content", "folder_open", theme=SIMPLE_THEME, rid=f"{ID}show_all", on_tap=lambda: None),
            OverflowButton(on_tap=lambda: self.set_dialog("menu"), theme=SIMPLE_THEME),
        ]
        return ScreenSpec(
            title=None,
            app_bar=SearchMenu(search, actions, package=PACKAGE),
            body=body,
            dialog=self._menu(MAIN_OVERFLOW, route),
            background=SIMPLE_THEME.surface,
            list_id="directories_grid",
        )

    def screen_album(self, route: Route) -> ScreenSpec:
        folder = route["folder"]
        paths = self.pictures().get(folder, [])
        selected = [p for p in route.get("selected", []) if p in paths]
        route["selected"] = selected

        def toggle(path: str) -> None:
            chosen = route["selected"]
            if path in chosen:
                chosen.remove(path)
            else:
                chosen.append(path)

        def open_or_toggle(path: str) -> None:
            if route["selected"]:
                toggle(path)
            else:
                self.push("viewer", path=path)

        names = bool(self.data.get("show_names", False))
        tiles: list[Widget] = [
            self._tile(
                p,
                posixpath.basename(p) if names else "",
                selected=p in selected,
                on_tap=lambda p=p: open_or_toggle(p),
                on_long_press=lambda p=p: toggle(p),
            )
            for p in paths
        ]
        if not paths:
            self.pop()  # the folder's last picture went: back to the folders, as the app does
            return self.build()
        bar: Widget
        if selected:
            bar = _ActionModeBar(
                f"{len(selected)} / {len(paths)}",
                close=lambda: route.update(selected=[]),
                actions=[
                    ActionMenuItem("Delete", "delete", theme=SIMPLE_THEME, rid=f"{ID}cab_delete", on_tap=lambda: None),
                    ActionMenuItem("Share", "share", theme=SIMPLE_THEME, rid=f"{ID}cab_share", on_tap=lambda: None),
                    OverflowButton(on_tap=lambda: self.set_dialog("menu"), theme=SIMPLE_THEME),
                ],
            )
            dialog = self._menu(CAB_OVERFLOW, route)
        else:
            search = edit_field(
                self, route, "search", hint=f"Search in {posixpath.basename(folder)}", rid=f"{ID}top_toolbar_search", height=dp(40)
            )
            actions: list[MaterialIconButton] = [
                ActionMenuItem(
                    "Toggle filename visibility",
                    "text_fields",
                    theme=SIMPLE_THEME,
                    rid=f"{ID}toggle_filename",
                    on_tap=lambda: self.data.update(show_names=not names),
                ),
                ActionMenuItem("Sort by", "sort", theme=SIMPLE_THEME, rid=f"{ID}sort", on_tap=lambda: None),
                OverflowButton(on_tap=lambda: self.set_dialog("menu"), theme=SIMPLE_THEME),
            ]
            bar = SearchMenu(search, actions, package=PACKAGE, back=self.pop)
            dialog = self._menu(MEDIA_OVERFLOW, route)
        return ScreenSpec(
            title=None,
            app_bar=bar,
            body=self._grid(tiles),
            dialog=self._picker(route) or dialog,
            background=SIMPLE_THEME.surface,
            list_id="media_grid",
        )

    def screen_viewer(self, route: Route) -> ScreenSpec:
        path = route["path"]
        if path not in self.phone.state.files:
            self.pop()
            return self.build()
        source, load = self._source(path)
        body: list[Widget]
        if images.thumbnail(source, load(), (64, 64)) is None:
            body = [Text("Invalid image", size=44, center=True, height=300, color=render.TEXT_SECONDARY, rid=f"{ID}error")]
        else:
            body = [ImageView(source, load, height=VIEWER_HEIGHT - dp(56), rid=f"{ID}gestures_view", background=(0, 0, 0))]
        actions: list[MaterialIconButton] = [
            ActionMenuItem("Rotate", "rotate_right", theme=VIEWER, rid=f"{ID}menu_rotate", on_tap=lambda: None),
            ActionMenuItem("Properties", "info", theme=VIEWER, rid=f"{ID}menu_properties", on_tap=lambda: None),
            OverflowButton(on_tap=lambda: self.set_dialog("menu"), theme=VIEWER),
        ]
        # The arrow is set as a bare drawable here (``ViewPagerActivity``): no description.
        arrow = MaterialIconButton("", "arrow_back", theme=VIEWER, on_tap=self.pop)
        bar = TopAppBar(posixpath.basename(path), navigation=arrow, actions=actions, theme=VIEWER, rid=f"{ID}medium_viewer_toolbar")
        bottom = _BottomActions(
            [
                _Action("Toggle favorite", "star_border", theme=VIEWER, rid=f"{ID}bottom_favorite", on_tap=lambda: None),
                _Action("Edit", "edit", theme=VIEWER, rid=f"{ID}bottom_edit", on_tap=lambda: None),
                _Action("Share", "share", theme=VIEWER, rid=f"{ID}bottom_share", on_tap=lambda: None),
                _Action("Delete", "delete", theme=VIEWER, rid=f"{ID}bottom_delete", on_tap=lambda: None),
            ]
        )
        return ScreenSpec(
            title=None,
            app_bar=bar,
            body=body,
            bottom=[bottom],
            dialog=self._picker(route) or self._menu(VIEWER_OVERFLOW, route),
            background=(0, 0, 0),
            list_id="view_pager",
            list_class="androidx.viewpager.widget.ViewPager",
        )

    def back(self) -> bool:
        route = self.route
        if route["screen"] == "album" and route.get("selected") and not route.get("dialog"):
            route["selected"] = []
            return True
        return super().back()

    # --- copy and move -----------------------------------------------------------------------

    def _pick(self, route: Route, op: str, paths: list[str]) -> None:
        self.set_dialog("picker", picker=ROOT, op=op, items=paths)

    def _picker(self, route: Route) -> Dialog | None:
        if route.get("dialog") != "picker":
            return None
        return picker.folder_dialog(self, route, "picker", lambda _: self._transfer(route), lambda: self.set_dialog(None))

    def _transfer(self, route: Route) -> None:
        """Copy or move the chosen pictures into the picked folder (a name taken there is
        replaced, as the app's "Overwrite" does)."""
        target, op, items = route["picker"], route["op"], list(route.get("items", []))
        self.set_dialog(None)
        route["selected"] = []
        for path in items:
            if path not in self.phone.state.files:
                continue
            dest = f"{target}/{posixpath.basename(path)}"
            if dest == path:
                continue
            self.phone.write_file(dest, self.phone.read_file(path))
            if op == "move":
                self.phone.remove_path(path)
        if op == "move" and route["screen"] == "viewer":
            self.pop()
