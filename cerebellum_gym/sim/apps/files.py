"""Files (com.google.android.documentsui): AOSP DocumentsUI as Android 13 shows it.

A launch lands in Downloads ("Files in Downloads"); "Show roots" lists Recent, Images, Videos,
Audio, Documents, Downloads and the device's storage, shown under its name
(``sdk_gphone64_x86_64``) with the standard folders Android creates. A tap opens a folder, or a
file with another app (an ``.html`` file in Chrome); a long press selects ("1 selected", Cancel,
Share, Delete, More options: Open with, Sort by..., Select all, Copy to…, Move to…, Compress,
Rename, Get info). Delete asks "Delete “name”?"; Move to… opens the picker in the current folder
(CANCEL, MOVE), which browses through its own "Show roots". Ids are AOSP's (``toolbar``,
``dir_list``, ``item_root``, ``roots_list``, ``option_menu_search``, ``action_menu_share``,
``action_menu_delete``) under Google's package name; titles are ``android:id/title``.
"""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Callable, Hashable, Sequence
from typing import ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.folders import FolderApp
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.material import dp
from cerebellum_gym.sim.material.components import ActionMenuItem, MaterialIconButton, OverflowButton, TopAppBar
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Dialog, Text, Widget

ROOT = "/sdcard"
DOWNLOADS = f"{ROOT}/Download"
STORAGE_NAME = "sdk_gphone64_x86_64"
STANDARD_FOLDERS = (
    "Alarms",
    "Audiobooks",
    "DCIM",
    "Documents",
    "Download",
    "Movies",
    "Music",
    "Notifications",
    "Pictures",
    "Podcasts",
    "Recordings",
    "Ringtones",
)
#: The roots drawer, top to bottom.
ROOTS: Final = ("Recent", "Images", "Videos", "Audio", "Documents", "Downloads", STORAGE_NAME)
#: A selection's overflow menu (DocumentsUI's action mode, one file selected).
SELECTION_MENU: Final = ("Open with", "Sort by...", "Select all", "Copy to…", "Move to…", "Compress", "Rename", "Get info")
BLUE = (26, 115, 232)
CHROME_PACKAGE = "com.android.chrome"
PKG = "com.google.android.documentsui"
#: A folder's listing: its subfolders, and its files with their sizes in bytes.
Contents = tuple[tuple[str, ...], tuple[tuple[str, int], ...]]


class _Item(Widget):
    """A document in the list (``item_root``): icon, name (``android:id/title``), details."""

    class_name = "android.widget.LinearLayout"
    default_height = dp(72)

    def __init__(self, name: str, detail: str, folder: bool, **kwargs: object) -> None:
        super().__init__(rid=f"{PKG}:id/item_root", **kwargs)  # type: ignore[arg-type]
        self.name, self.detail, self.folder = name, detail, folder

    def render_key(self) -> Hashable:
        return (self.name, self.detail, self.folder, self.selected)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.name, self.detail, self.folder)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        if self.selected:
            draw.rectangle((0, 0, width, height), fill=(211, 227, 253))
        size = round(dp(24) * scale)
        left = round(dp(20) * scale)
        icon = "check_circle" if self.selected else "folder" if self.folder else "insert_drive_file"
        render.draw_icon(
            draw, icon, (left, (height - size) / 2, left + size, (height + size) / 2), BLUE if self.selected else (95, 99, 104)
        )
        x = round(dp(72) * scale)
        big, small = round(dp(16) * scale), round(dp(13) * scale)
        draw.text(
            (x, height * 0.36), render.text_fit(draw, self.name, big, width - x - 8), font=render.font(big), fill=render.TEXT, anchor="lm"
        )
        draw.text((x, height * 0.68), self.detail, font=render.font(small), fill=render.TEXT_SECONDARY, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        mid = (top + bottom) // 2
        node.children = [
            UINode(
                "android.widget.TextView",
                (left + dp(72), top + dp(12), right - dp(16), mid),
                text=self.name,
                resource_id="android:id/title",
                package=package,
            ),
            UINode(
                "android.widget.TextView",
                (left + dp(72), mid, right - dp(16), bottom - dp(12)),
                text=self.detail,
                resource_id=f"{package}:id/details",
                index=1,
                package=package,
            ),
        ]
        return node


class _MenuItem(Widget):
    """A popup menu's entry (its ``title`` TextView)."""

    class_name = "android.widget.TextView"
    default_height = dp(48)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(16) * scale)
        draw.text((round(dp(16) * scale), height / 2), self.text, font=render.font(size), fill=render.TEXT, anchor="lm")


@register_app
class FilesApp(FolderApp):
    package: ClassVar[str] = PKG
    activity: ClassVar[str] = "com.android.documentsui.files.FilesActivity"
    label: ClassVar[str] = "Files"
    color: ClassVar[tuple[int, int, int]] = BLUE
    root: ClassVar[str] = ROOT

    def make_route(self, name: str, **params: object) -> Route:  # type: ignore[override]
        route = App.make_route(name, **params)
        if name == "main":
            if "dir" not in route:  # a launch shows the Downloads root
                route.update(dir=DOWNLOADS, root_title="Downloads")
            route.setdefault("selected", [])
        return route

    # --- the file system as DocumentsUI lists it -------------------------------------------

    def entries(self, folder: str) -> tuple[list[str], list[str]]:
        if not folder.startswith(ROOT):
            return [], []  # a category root (Recent, Images, ...): not simulated, empty
        names = set(self.phone.list_dir(folder))
        if folder == ROOT:
            names |= set(STANDARD_FOLDERS)
        folders = sorted(
            (n for n in names if (n in STANDARD_FOLDERS and folder == ROOT) or self.phone.is_dir(f"{folder}/{n}")), key=str.lower
        )
        files = sorted((n for n in names if n not in folders), key=str.lower)
        return folders, files

    def folder_title(self, folder: str) -> str:
        if folder == ROOT:
            return STORAGE_NAME
        if folder.startswith("root:"):
            return folder[5:]
        return posixpath.basename(folder)

    def _title(self, route: Route) -> str:
        """The folder's name, or the root's ("Downloads") where the folder was opened as a root."""
        return str(route.get("root_title") or self.folder_title(route["dir"]))

    def _header(self, route: Route) -> str:
        return f"Files on {STORAGE_NAME}" if route["dir"] == ROOT else f"Files in {self._title(route)}"

    def is_folder(self, path: str) -> bool:
        # A standard folder shows before it exists on disk; moving it moves an empty folder.
        name = posixpath.basename(path)
        return self.phone.is_dir(path) or (posixpath.dirname(path) == ROOT and name in STANDARD_FOLDERS)

    # --- actions ---------------------------------------------------------------------------

    def _open(self, name: str, is_folder: bool) -> None:
        route = self.route
        path = f"{route['dir']}/{name}"
        if route["selected"]:
            self.toggle_selected(route, name)
        elif is_folder:
            self.push("main", dir=path)
        elif name.lower().endswith((".html", ".htm")):
            self.set_dialog("open_with", path=path)
        else:
            self.set_dialog("no_app")

    def _toggle(self, name: str) -> None:
        self.toggle_selected(self.route, name)

    def _open_in_chrome(self, path: str) -> None:
        self.set_dialog(None)
        self.route.pop("chosen", None)
        chrome = self.phone.app(CHROME_PACKAGE)
        chrome.reset_to("page", url=f"file://{path}")
        self.phone.start_app(CHROME_PACKAGE)

    def _delete(self) -> None:
        route = self.route
        for name in route["selected"]:
            self.phone.remove_path(f"{route['dir']}/{name}")
        route["selected"] = []
        self.set_dialog(None)

    def _go_root(self, root: str) -> None:
        """A roots drawer entry: its folder, as the only screen of the app's stack."""
        target = {"Downloads": DOWNLOADS, STORAGE_NAME: ROOT}.get(root, f"root:{root}")
        title = root if root != STORAGE_NAME else None
        under = self.stack[-2] if len(self.stack) > 1 else None
        if under is not None and under["screen"] == "pick":
            self.pop()
            self.route.update(dir=target, root_title=title, scroll=0)
            return
        self.reset_to("main", dir=target, root_title=title)

    def _menu_choice(self, item: str) -> None:
        route = self.route
        self.set_dialog(None)
        if item == "Move to…" and route["selected"]:
            folder = route["dir"]
            self.push("pick", sources=[f"{folder}/{n}" for n in route["selected"]], dir=folder, root_title=route.get("root_title"))
        elif item == "Select all":
            folders, files = self.entries(route["dir"])
            route["selected"] = [*folders, *files]
        elif item == "Open with" and len(route["selected"]) == 1:
            self.set_dialog("open_with", path=f"{route['dir']}/{route['selected'][0]}")

    # --- screens ---------------------------------------------------------------------------

    def _bar(self, title: str, actions: Sequence[MaterialIconButton], *, cancel: Callable[[], None] | None = None) -> TopAppBar:
        if cancel is not None:
            navigation = MaterialIconButton("Cancel", "close", on_tap=cancel)
        else:
            navigation = MaterialIconButton("Show roots", "menu", on_tap=lambda: self.push("roots"))
        return TopAppBar(title, navigation=navigation, actions=actions, rid=f"{PKG}:id/toolbar")

    def _contents(self, folder: str) -> Contents:
        """The folder's subfolders and its files with their sizes, as the list shows them."""
        folders, files = self.entries(folder)
        return tuple(folders), tuple((name, len(self.phone.read_file(f"{folder}/{name}"))) for name in files)

    def _rows(
        self, route: Route, contents: Contents, selected: Sequence[str], *, picking: bool = False, hidden: Sequence[str] = ()
    ) -> list[Widget]:
        folder = route["dir"]
        folders, files = contents
        rows: list[Widget] = [Text(self._header(route), size=dp(14), color=render.TEXT_SECONDARY, height=dp(48))]
        for name in folders:
            if f"{folder}/{name}" in hidden:
                continue
            if picking:
                rows.append(_Item(name, "Folder", True, on_tap=functools.partial(self._pick_into, name)))
            else:
                rows.append(
                    _Item(
                        name,
                        "Folder",
                        True,
                        selected=name in selected,
                        on_tap=functools.partial(self._open, name, True),
                        on_long_press=functools.partial(self._toggle, name),
                    )
                )
        for name, size in files:
            detail = f"{size} B"
            if picking:
                rows.append(_Item(name, detail, False, enabled=False))
            else:
                rows.append(
                    _Item(
                        name,
                        detail,
                        False,
                        selected=name in selected,
                        on_tap=functools.partial(self._open, name, False),
                        on_long_press=functools.partial(self._toggle, name),
                    )
                )
        if len(rows) == 1:
            rows.append(Text("No items", center=True, color=render.TEXT_SECONDARY, height=dp(120)))
        return rows

    def screen_main(self, route: Route) -> ScreenSpec:
        contents = self._contents(route["dir"])
        selected: list[str] = list(route["selected"])
        if not selected and not route.get("dialog"):
            # A plain listing is made once per folder and contents (its callbacks read the shown
            # route when they run), so the phone reuses its layout.
            key = ("main", route["dir"], route.get("root_title"), contents)
            return self.reused_spec(key, lambda: self._main_screen(route, contents, selected))
        return self._main_screen(route, contents, selected)

    def _main_screen(self, route: Route, contents: Contents, selected: list[str]) -> ScreenSpec:
        body = self._rows(route, contents, selected)
        dialog = None
        kind = route.get("dialog")
        if kind == "delete":
            what = f"“{selected[0]}”" if len(selected) == 1 else f"{len(selected)} items"
            dialog = Dialog(
                f"Delete {what}?",
                [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)), Button("OK", filled=False, on_tap=self._delete)],
            )
        elif kind == "open_with":
            # Android's chooser: pick the app, then Just once or Always (both wait for a pick).
            path = route["path"]
            chosen = bool(route.get("chosen"))
            open_it = functools.partial(self._open_in_chrome, path)
            dialog = Dialog(
                "Open with",
                [
                    Button("Just once", filled=False, enabled=chosen, on_tap=open_it, rid="android:id/button_once"),
                    Button("Always", filled=False, enabled=chosen, on_tap=open_it, rid="android:id/button_always"),
                ],
                body=[_MenuItem(text="Chrome", selected=chosen, on_tap=lambda: self.route.update(chosen=True))],
            )
        elif kind == "no_app":
            dialog = Dialog(
                "Can't open file", [Button("OK", filled=False, on_tap=lambda: self.set_dialog(None))], message="No app can open this file."
            )
        elif kind == "menu":
            items = SELECTION_MENU if selected else ("Sort by...", "Select all")
            dialog = Dialog(
                "", [], body=[_MenuItem(text=i, rid=f"{PKG}:id/title", on_tap=functools.partial(self._menu_choice, i)) for i in items]
            )
        more = OverflowButton(on_tap=lambda: self.set_dialog("menu"))
        if selected:
            actions: list[MaterialIconButton] = [
                ActionMenuItem("Share", "share", on_tap=lambda: None, rid=f"{PKG}:id/action_menu_share"),
                ActionMenuItem("Delete", "delete", on_tap=lambda: self.set_dialog("delete"), rid=f"{PKG}:id/action_menu_delete"),
                more,
            ]
            bar = self._bar(f"{len(selected)} selected", actions, cancel=lambda: self.route.update(selected=[]))
        else:
            bar = self._bar(
                self._title(route), [ActionMenuItem("Search", "search", on_tap=lambda: None, rid=f"{PKG}:id/option_menu_search"), more]
            )
        return ScreenSpec(title=None, app_bar=bar, body=body, dialog=dialog, list_id="dir_list")

    def screen_roots(self, route: Route) -> ScreenSpec:
        body: list[Widget] = [Text("Files", size=dp(20), bold=True, height=dp(64))]
        icons = {
            "Recent": "schedule",
            "Images": "image",
            "Videos": "videocam",
            "Audio": "audiotrack",
            "Documents": "description",
            "Downloads": "download",
        }
        for root in ROOTS:
            body.append(_Root(root, icons.get(root, "phone_android"), on_tap=functools.partial(self._go_root, root)))
        return ScreenSpec(title=None, body=body, list_id="roots_list", list_class="android.widget.ListView")

    def _pick_into(self, name: str) -> None:
        route = self.route
        route.update(dir=f"{route['dir']}/{name}", root_title=None, scroll=0)

    def screen_pick(self, route: Route) -> ScreenSpec:
        """Move to…: DocumentsUI's picker, in the current folder; MOVE moves the selection here."""
        folder = route["dir"]
        sources: list[str] = route["sources"]

        def move_here() -> None:
            self.move_sources(sources, folder)

        bar = self._bar(self._title(route), [OverflowButton(on_tap=lambda: None)])
        bottom: list[Widget] = [
            Button("CANCEL", filled=False, on_tap=self.pop),
            Button("MOVE", filled=False, on_tap=move_here, enabled=folder.startswith(ROOT)),
        ]
        return ScreenSpec(
            title=None,
            app_bar=bar,
            body=self._rows(route, self._contents(folder), [], picking=True, hidden=sources),
            bottom=bottom,
            list_id="dir_list",
        )

    def back(self) -> bool:
        route = self.route
        if route["screen"] == "main" and route.get("selected") and not route.get("dialog"):
            route["selected"] = []
            return True
        if (
            route["screen"] == "pick"
            and not route.get("dialog")
            and route["dir"] not in (ROOT, DOWNLOADS)
            and route["dir"].startswith(ROOT)
        ):
            route.update(dir=posixpath.dirname(route["dir"]), root_title=None, scroll=0)
            return True
        return App.back(self)


class _Root(Widget):
    """A roots drawer entry (its name in ``android:id/title``)."""

    class_name = "android.widget.LinearLayout"
    default_height = dp(48)

    def __init__(self, name: str, icon: str, *, on_tap: Callable[[], None]) -> None:
        super().__init__(on_tap=on_tap)
        self.name, self.icon = name, icon

    def render_key(self) -> Hashable:
        return (self.name, self.icon)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.name)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(24) * scale)
        left = round(dp(24) * scale)
        render.draw_icon(draw, self.icon, (left, (height - size) / 2, left + size, (height + size) / 2), (95, 99, 104))
        draw.text(
            (round(dp(72) * scale), height / 2), self.name, font=render.font(round(dp(14) * scale), "medium"), fill=render.TEXT, anchor="lm"
        )

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        node.children = [
            UINode(
                "android.widget.TextView",
                (left + dp(72), top, right, bottom),
                text=self.name,
                resource_id="android:id/title",
                package=package,
            )
        ]
        return node


__all__ = ["ROOT", "STANDARD_FOLDERS", "STORAGE_NAME", "FilesApp"]
