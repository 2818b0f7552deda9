"""Files (com.google.android.documentsui): browse shared storage, select, delete, move, and open
files with another app (an ``.html`` file opens in Chrome).

The storage root is ``/sdcard``, shown under the device's name as the real app does; the
standard folders always show, as Android creates them.
"""

from __future__ import annotations

import posixpath
from typing import ClassVar

from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import browser_rows, confirm_dialog
from cerebellum_gym.sim.apps.folders import FolderApp
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Dialog, IconButton, ListItem, Text, Widget

ROOT = "/sdcard"
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
BLUE = (26, 115, 232)
CHROME_PACKAGE = "com.android.chrome"


class FilesApp(FolderApp):
    package: ClassVar[str] = "com.google.android.documentsui"
    activity: ClassVar[str] = "com.android.documentsui.files.FilesActivity"
    label: ClassVar[str] = "Files"
    color: ClassVar[tuple[int, int, int]] = BLUE
    root: ClassVar[str] = ROOT

    def make_route(self, name: str, **params: object) -> Route:  # type: ignore[override]
        route = App.make_route(name, **params)
        if name == "main":
            route.setdefault("dir", ROOT)
            route.setdefault("selected", [])
        return route

    def entries(self, folder: str) -> tuple[list[str], list[str]]:
        names = set(self.phone.list_dir(folder))
        if folder == ROOT:
            names |= set(STANDARD_FOLDERS)
        folders = sorted(
            (n for n in names if (n in STANDARD_FOLDERS and folder == ROOT) or self.phone.is_dir(f"{folder}/{n}")), key=str.lower
        )
        files = sorted((n for n in names if n not in folders), key=str.lower)
        return folders, files

    def folder_title(self, folder: str) -> str:
        return STORAGE_NAME if folder == ROOT else posixpath.basename(folder)

    def is_folder(self, path: str) -> bool:
        # A standard folder shows before it exists on disk; moving it moves an empty folder.
        name = posixpath.basename(path)
        return self.phone.is_dir(path) or (posixpath.dirname(path) == ROOT and name in STANDARD_FOLDERS)

    def _open(self, route: Route, name: str, is_folder: bool) -> None:
        path = f"{route['dir']}/{name}"
        if route["selected"]:
            self.toggle_selected(route, name)
        elif is_folder:
            self.push("main", dir=path)
        elif name.lower().endswith((".html", ".htm")):
            self.set_dialog("open_with", path=path)
        else:
            self.set_dialog("no_app")

    def _open_in_chrome(self, path: str) -> None:
        self.set_dialog(None)
        chrome = self.phone.app(CHROME_PACKAGE)
        chrome.reset_to("page", url=f"file://{path}")
        self.phone.start_app(CHROME_PACKAGE)

    def _delete(self, route: Route) -> None:
        for name in route["selected"]:
            self.phone.remove_path(f"{route['dir']}/{name}")
        route["selected"] = []

    def back(self) -> bool:
        route = self.route
        if route["screen"] == "main" and route.get("selected") and not route.get("dialog"):
            route["selected"] = []
            return True
        return super().back()

    def screen_main(self, route: Route) -> ScreenSpec:
        folder = route["dir"]
        folders, files = self.entries(folder)
        selected: list[str] = route["selected"]
        if not selected and not route.get("dialog"):
            # A plain listing shows only the entries and their sizes, and its callbacks read
            # the shown route when they run.
            sizes = tuple((name, len(self.phone.read_file(f"{folder}/{name}"))) for name in files)
            key = ("main", folder, len(self.stack) > 1, tuple(folders), sizes)
            return self.reused_spec(key, lambda: self._listing(folder, folders, files))
        body = browser_rows(
            folders,
            files,
            selected,
            describe=lambda name: f"{len(self.phone.read_file(f'{folder}/{name}'))} B",
            file_color=BLUE,
            on_open=lambda name, is_folder: self._open(route, name, is_folder),
            on_toggle=lambda name: self.toggle_selected(route, name),
        )
        if not body:
            body = [Text("No items", size=44, center=True, height=300)]
        dialog = None
        kind = route.get("dialog")
        if kind == "delete":
            dialog = confirm_dialog(self, "Delete", f"Delete {len(selected)} item(s)?", "OK", lambda: self._delete(route))
        elif kind == "open_with":
            path = route["path"]
            dialog = Dialog(
                "Open with",
                [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None))],
                body=[ListItem("Chrome", avatar="C", avatar_color=(219, 68, 55), on_tap=lambda: self._open_in_chrome(path))],
            )
        elif kind == "no_app":
            dialog = Dialog(
                "Can't open file", [Button("OK", filled=False, on_tap=lambda: self.set_dialog(None))], message="No app can open this file."
            )
        if selected:
            actions: list[Widget] = [
                IconButton("Move to", "➜", on_tap=lambda: self.push("move", sources=[f"{folder}/{n}" for n in selected], dir=ROOT)),
                IconButton("Delete", "✕", on_tap=lambda: self.set_dialog("delete")),
            ]
            return ScreenSpec(
                title=f"{len(selected)} selected", up=lambda: route.update(selected=[]), body=body, actions=actions, dialog=dialog
            )
        up = self.pop if len(self.stack) > 1 else None
        return ScreenSpec(title=self.folder_title(folder), up=up, body=body, dialog=dialog, actions=[IconButton("Search", "⌕")])

    def _listing(self, folder: str, folders: list[str], files: list[str]) -> ScreenSpec:
        """:meth:`screen_main` with nothing selected and no dialog."""
        body = browser_rows(
            folders,
            files,
            [],
            describe=lambda name: f"{len(self.phone.read_file(f'{folder}/{name}'))} B",
            file_color=BLUE,
            on_open=lambda name, is_folder: self._open(self.route, name, is_folder),
            on_toggle=lambda name: self.toggle_selected(self.route, name),
        ) or [Text("No items", size=44, center=True, height=300)]
        up = self.pop if len(self.stack) > 1 else None
        return ScreenSpec(title=self.folder_title(folder), up=up, body=body, actions=[IconButton("Search", "⌕")])
