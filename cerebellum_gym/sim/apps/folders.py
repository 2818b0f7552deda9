"""What apps that browse folders share (Files, Markor): rows that select on long press, moving
files and folders, and the "Move to" folder picker."""

from __future__ import annotations

import posixpath
from typing import ClassVar

from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import FOLDER_COLOR
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, ListItem, Text, Widget


class FolderApp(App):
    """An app over a folder tree rooted at :attr:`root`.

    Subclasses implement :meth:`entries` and may override :meth:`is_folder` (for folders that
    show before they exist on disk) and :meth:`folder_title`.
    """

    root: ClassVar[str] = "/sdcard"
    #: Its screens show no time finer than the minute (the phone rebuilds every screen on a new one).
    clock_dependent: ClassVar[bool] = False
    move_button: ClassVar[str] = "Move"

    def entries(self, folder: str) -> tuple[list[str], list[str]]:
        """Folder names and file names in ``folder``, as the app lists them."""
        raise NotImplementedError

    def is_folder(self, path: str) -> bool:
        return self.phone.is_dir(path)

    def folder_title(self, folder: str) -> str:
        return posixpath.basename(folder)

    def toggle_selected(self, route: Route, name: str) -> None:
        selected = list(route["selected"])
        route["selected"] = [n for n in selected if n != name] if name in selected else [*selected, name]

    def move_path(self, source: str, folder: str) -> None:
        """Move a file or a folder tree into ``folder``."""
        name = posixpath.basename(source)
        if self.is_folder(source):
            self.phone.make_dir(f"{folder}/{name}")
            for child in self.phone.list_dir(source):
                self.move_path(f"{source}/{child}", f"{folder}/{name}")
        else:
            self.phone.write_file(f"{folder}/{name}", self.phone.read_file(source))
        self.phone.remove_path(source)

    def move_sources(self, sources: list[str], folder: str) -> None:
        """The picker's Move: every source not already in ``folder`` moves there; back to the
        listing, its selection cleared."""
        for source in sources:
            if posixpath.dirname(source) != folder:
                self.move_path(source, folder)
        self.pop()
        self.route["selected"] = []

    def screen_move(self, route: Route) -> ScreenSpec:
        """Pick a destination folder for ``route["sources"]``; the sources themselves are hidden."""
        folder = route["dir"]
        sources: list[str] = route["sources"]
        folders, _ = self.entries(folder)
        body: list[Widget] = [
            ListItem(
                name, "Folder", avatar="▸", avatar_color=FOLDER_COLOR, on_tap=lambda n=name: route.update(dir=f"{folder}/{n}", scroll=0)
            )
            for name in folders
            if f"{folder}/{name}" not in sources
        ] or [Text("No folders here", size=40, center=True, height=240)]

        def up() -> None:
            if folder == self.root:
                self.pop()
            else:
                route.update(dir=posixpath.dirname(folder), scroll=0)

        def move_here() -> None:
            self.move_sources(sources, folder)

        bottom: list[Widget] = [Button("Cancel", filled=False, on_tap=self.pop), Button(self.move_button, filled=True, on_tap=move_here)]
        return ScreenSpec(title=f"Move to {self.folder_title(folder)}", up=up, body=body, bottom=bottom)
