"""Simple Gallery Pro (``com.simplemobiletools.gallery.pro``): the pictures on shared storage as
an album grid, each album's pictures as a grid, a viewer that shows the picture's own pixels,
and copy / move to a folder picked in a folder picker.

Like the real app it lists what the media scanner files as images (by extension, anywhere under
``/sdcard`` outside hidden folders), an album per folder, newest first inside one. Pixels are
decoded only where a picture is painted, downscaled to the view and cached
(:mod:`cerebellum_gym.sim.images`); a damaged, foreign or too-large file shows the broken-image
mark in the grid and the app's error in the viewer. File names show under the thumbnails (the
app's "Show file names" option, on here so an agent reading the tree can tell pictures apart).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Hashable
from typing import ClassVar

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import images, render
from cerebellum_gym.sim.apps import picker
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.render import font, text_fit
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Dialog, IconButton, ImageView, Row, Text, Widget, broken_image_mark

ROOT = "/sdcard"
PACKAGE = "com.simplemobiletools.gallery.pro"
COLUMNS = 3
TILE_HEIGHT = 420
VIEWER_HEIGHT = 2085  # the body of a screen with a toolbar: 2400 - status - toolbar - nav
ORANGE = (243, 112, 33)


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
        left, _, right, bottom = bounds
        names = [
            UINode(
                "android.widget.TextView",
                (left + 8, bottom - 96, right - 8, bottom - (48 if self.count else 8)),
                text=self.name,
                resource_id=f"{PACKAGE}:id/{'dir_name' if self.count else 'medium_name'}",
                package=package,
            )
        ]
        if self.count:
            names.append(
                UINode(
                    "android.widget.TextView",
                    (left + 8, bottom - 48, right - 8, bottom - 8),
                    text=self.count,
                    resource_id=f"{PACKAGE}:id/dir_media_count",
                    package=package,
                    index=1,
                )
            )
        node.children = names
        return node


class SimpleGalleryApp(App):
    package: ClassVar[str] = PACKAGE
    activity: ClassVar[str] = "com.simplemobiletools.gallery.pro.activities.MainActivity"
    label: ClassVar[str] = "Simple Gallery Pro"
    color: ClassVar[tuple[int, int, int]] = ORANGE
    clock_dependent: ClassVar[bool] = False

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
        body = self._grid(tiles) or [Text("No media files found", size=44, center=True, height=300, color=render.TEXT_SECONDARY)]
        return ScreenSpec(title="Simple Gallery Pro", body=body, actions=[IconButton("Search", "⌕")])

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

        tiles: list[Widget] = [
            self._tile(
                p,
                posixpath.basename(p),
                selected=p in selected,
                on_tap=lambda p=p: open_or_toggle(p),
                on_long_press=lambda p=p: toggle(p),
            )
            for p in paths
        ]
        if not paths:
            self.pop()  # the album's last picture went: back to the albums, as the app does
            return self.build()
        actions: list[Widget] = []
        title = posixpath.basename(folder)
        if selected:
            title = f"{len(selected)} selected"
            actions = [
                IconButton("Copy to", "+", on_tap=lambda: self._pick(route, "copy", list(route["selected"]))),
                IconButton("Move to", "➜", on_tap=lambda: self._pick(route, "move", list(route["selected"]))),
            ]
        return ScreenSpec(title=title, up=self.pop, body=self._grid(tiles), actions=actions, dialog=self._picker(route))

    def screen_viewer(self, route: Route) -> ScreenSpec:
        path = route["path"]
        if path not in self.phone.state.files:
            self.pop()
            return self.build()
        source, load = self._source(path)
        body: list[Widget]
        if images.thumbnail(source, load(), (64, 64)) is None:
            body = [Text("Invalid image", size=44, center=True, height=300, color=render.TEXT_SECONDARY, rid=f"{PACKAGE}:id/error")]
        else:
            body = [ImageView(source, load, height=VIEWER_HEIGHT, rid=f"{PACKAGE}:id/photo_view", background=(0, 0, 0))]
        actions: list[Widget] = [
            IconButton("Copy to", "+", on_tap=lambda: self._pick(route, "copy", [path])),
            IconButton("Move to", "➜", on_tap=lambda: self._pick(route, "move", [path])),
        ]
        return ScreenSpec(title=posixpath.basename(path), up=self.pop, body=body, actions=actions, dialog=self._picker(route))

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
