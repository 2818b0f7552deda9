"""Markor (net.gsantner.markor): notes as plain files under ``/sdcard/Documents/Markor``, in folders.

That is Markor's default notebook, ``/storage/emulated/0/Documents/Markor`` (AndroidWorld's
``MARKOR_DATA``; ``/sdcard`` is the same storage, and the served shell folds the aliases).

The file list browses folders, sorted by name or (Sort by) by date, newest first, each file
then dated; a long press starts a selection (delete, rename, move, select all); the + button
creates a note (Markdown ``.md`` unless another type, or none, is chosen) or a folder; the editor saves on Save, on back and on rename,
as Markor saves when the document is left. The first launch shows Markor's intro.
"""

from __future__ import annotations

import posixpath
from datetime import datetime, timezone
from typing import ClassVar

from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import browser_rows, confirm_dialog, edit_field, field_key
from cerebellum_gym.sim.apps.folders import FolderApp
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.telephony import SMS_PACKAGE
from cerebellum_gym.sim.widgets import Button, Dialog, IconButton, ListItem, Text, Widget

ROOT = "/sdcard/Documents/Markor"
GREEN = (27, 94, 32)
EXTENSIONS = (".md", ".txt", ".org", ".todo.txt")
#: The new-file dialog's extensions (Markor's file type choice), ``.md`` first as its default.
NEW_FILE_EXTENSIONS = ((".md", "Markdown (.md)"), (".txt", "Plain text (.txt)"), ("", "No extension"))
#: The file list's orders (Markor's "Sort by" menu): by name A-Z, or by date, newest first.
SORTS = ("Name", "Date")


class MarkorApp(FolderApp):
    package: ClassVar[str] = "net.gsantner.markor"
    activity: ClassVar[str] = "net.gsantner.markor.activity.MainActivity"
    label: ClassVar[str] = "Markor"
    root: ClassVar[str] = ROOT
    move_button: ClassVar[str] = "Move here"
    color: ClassVar[tuple[int, int, int]] = GREEN

    def initial_data(self) -> dict[str, object]:
        return {"intro_done": False}

    def on_launch(self) -> None:
        if not self.data["intro_done"]:
            self.reset_to("intro")
        super().on_launch()

    def make_route(self, name: str, **params: object) -> Route:  # type: ignore[override]
        route = App.make_route(name, **params)
        if name == "main":
            route.setdefault("dir", ROOT)
            route.setdefault("selected", [])
        return route

    # --- intro -------------------------------------------------------------------------------

    def _finish_intro(self) -> None:
        self.data["intro_done"] = True
        self.reset_to("main")

    def screen_intro(self, route: Route) -> ScreenSpec:
        body: list[Widget] = [
            Text("Welcome to Markor", size=72, center=True, height=400, color=GREEN),
            Text("Text editor and notes app.", size=44, center=True),
            Text("Markdown, todo.txt and plain text,", size=40, center=True, color=(96, 94, 102)),
            Text("stored as files on your device.", size=40, center=True, color=(96, 94, 102)),
        ]
        buttons: list[Widget] = [
            Button("Skip", filled=False, on_tap=self._finish_intro),
            Button("Next", filled=True, on_tap=self._finish_intro),
        ]
        return ScreenSpec(title=None, body=body, bottom=buttons)

    # --- files -------------------------------------------------------------------------------

    def entries(self, folder: str) -> tuple[list[str], list[str]]:
        """Folder and file names in ``folder``, each in the list's order (:data:`SORTS`)."""
        folders: list[str] = []
        files: list[str] = []
        for name in self.phone.list_dir(folder):
            (folders if self.phone.is_dir(f"{folder}/{name}") else files).append(name)
        files.sort(key=str.lower)
        if self.sort == "Date":
            files.sort(key=lambda name: -self.phone.file_mtime(f"{folder}/{name}"))
        return sorted(folders, key=str.lower), files

    @property
    def sort(self) -> str:
        return str(self.data.get("sort", "Name"))

    def _modified(self, path: str) -> str:
        """A file's change time as the list shows it when sorted by date."""
        return datetime.fromtimestamp(self.phone.file_mtime(path), timezone.utc).strftime("%b %d, %Y %H:%M")

    def _read(self, path: str) -> str:
        try:
            return self.phone.read_file(path).decode("utf-8", "replace")
        except FileNotFoundError:
            return ""

    def _open(self, route: Route, name: str) -> None:
        path = f"{route['dir']}/{name}"
        if self.phone.is_dir(path):
            self.push("main", dir=path)
        elif route["selected"]:
            self.toggle_selected(route, name)
        else:
            self.push("edit", path=path, text=self._read(path))

    def _delete_selected(self, route: Route) -> None:
        for name in route["selected"]:
            self.phone.remove_path(f"{route['dir']}/{name}")
        route["selected"] = []

    def _new(self, route: Route, folder: bool) -> None:
        name = str(route.get("file", "")).strip().strip("/")
        if not name:
            route["error"] = "Enter a name"
            return
        ext = str(route.get("ext", ".md"))
        # A name with a known extension keeps it; otherwise it gets the chosen one (or none).
        path = f"{route['dir']}/{name if folder or name.endswith(EXTENSIONS) else name + ext}"
        if path.rsplit("/", 1)[1] in self.phone.list_dir(route["dir"]):
            route["error"] = "A file with this name already exists"
            return
        self.set_dialog(None)
        self.phone.focus(None)
        if folder:
            self.phone.make_dir(path)
        else:
            self.phone.write_file(path, b"")
            self.push("edit", path=path, text="")

    def _rename(self, route: Route, path: str, text: str | None) -> None:
        """Rename ``path`` to the dialog's name (writing ``text`` first when renaming from the editor)."""
        new = str(route.get("file", "")).strip().strip("/")
        folder = posixpath.dirname(path)
        if not new or (new != posixpath.basename(path) and new in self.phone.list_dir(folder)):
            route["error"] = "Enter a new, unused name"
            return
        target = f"{folder}/{new}"
        if self.phone.is_dir(path):
            self.phone.make_dir(target)
            for child in self.phone.list_dir(path):
                self.move_path(f"{path}/{child}", target)
            self.phone.remove_path(path)
        else:
            data = text.encode() if text is not None else self.phone.read_file(path)
            self.phone.remove_path(path)
            self.phone.write_file(target, data)
        self.set_dialog(None)
        self.phone.focus(None)
        if route["screen"] == "edit":
            route["path"] = target
        else:
            route["selected"] = []

    def _open_dialog(self, route: Route, name: str, **params: object) -> None:
        if name == "new":
            params.setdefault("ext", ".md")
        self.set_dialog(name, file="", error="", **params)
        self.phone.focus(field_key(self, route, "file"))  # dialogs open with the keyboard up

    def screen_main(self, route: Route) -> ScreenSpec:
        folder = route["dir"]
        folders, files = self.entries(folder)
        selected: list[str] = route["selected"]
        body = browser_rows(
            folders,
            files,
            selected,
            describe=lambda name: (
                self._modified(f"{folder}/{name}")
                if self.sort == "Date"
                else self._read(f"{folder}/{name}").strip().replace("\n", " ")[:60] or "Empty"
            ),
            file_color=GREEN,
            on_open=lambda name, _is_folder: self._open(route, name),
            on_toggle=lambda name: self.toggle_selected(route, name),
        )
        if not body:
            body = [Text("This folder is empty", size=44, center=True, height=300)]
        dialog = None
        kind = route.get("dialog")
        if kind == "new":
            dialog = Dialog(
                route.get("error") or "New file",
                [
                    Button("Folder", filled=False, on_tap=lambda: self._new(route, True)),
                    Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)),
                    Button("OK", filled=False, on_tap=lambda: self._new(route, False)),
                ],
                message="Name (extension .md unless given)",
                body=[
                    edit_field(self, route, "file", hint="Name"),
                    *(
                        ListItem(label, selected=route.get("ext", ".md") == ext, on_tap=lambda e=ext: route.update(ext=e), height=110)
                        for ext, label in NEW_FILE_EXTENSIONS
                    ),
                ],
            )
        elif kind == "sort":

            def choose(order: str) -> None:
                self.data["sort"] = order
                self.set_dialog(None)

            dialog = Dialog(
                "Sort by",
                [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None))],
                body=[ListItem(order, selected=order == self.sort, on_tap=lambda o=order: choose(o), height=120) for order in SORTS],
            )
        elif kind == "delete":
            dialog = confirm_dialog(self, "Delete", f"Delete {len(selected)} selected item(s)?", "OK", lambda: self._delete_selected(route))
        elif kind == "rename" and selected:
            path = f"{folder}/{selected[0]}"
            dialog = Dialog(
                route.get("error") or "Rename",
                [
                    Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)),
                    Button("OK", filled=False, on_tap=lambda: self._rename(route, path, None)),
                ],
                body=[edit_field(self, route, "file", hint=selected[0])],
            )
        if selected:
            actions: list[Widget] = [
                IconButton("Select all", "☰", on_tap=lambda: route.update(selected=folders + files)),
                IconButton(
                    "Move",
                    "➜",
                    on_tap=lambda: self.push("move", sources=[f"{folder}/{n}" for n in selected], dir=ROOT, origin=len(self.stack)),
                ),
                IconButton("Delete", "✕", on_tap=lambda: self.set_dialog("delete")),
            ]
            if len(selected) == 1:
                actions.insert(1, IconButton("Rename", "✎", on_tap=lambda: self._open_dialog(route, "rename")))
            return ScreenSpec(
                title=f"{len(selected)} selected", up=lambda: route.update(selected=[]), body=body, actions=actions, dialog=dialog
            )
        title = "Markor" if folder == ROOT else posixpath.basename(folder)
        up = self.pop if len(self.stack) > 1 else None
        fab = IconButton(
            "Create a new file or folder", "+", color=(255, 255, 255), round_fill=GREEN, on_tap=lambda: self._open_dialog(route, "new")
        )
        actions = [IconButton("Sort by", "⇅", on_tap=lambda: self.set_dialog("sort")), IconButton("Search", "⌕")]
        return ScreenSpec(title=title, up=up, body=body, fab=fab, dialog=dialog, actions=actions)

    def back(self) -> bool:
        route = self.route
        if route["screen"] == "main" and route.get("selected") and not route.get("dialog"):
            route["selected"] = []
            return True
        if route["screen"] == "edit" and not route.get("dialog"):
            self._save(route)
        return super().back()

    # --- move --------------------------------------------------------------------------------

    def folder_title(self, folder: str) -> str:
        return "Markor" if folder == ROOT else posixpath.relpath(folder, ROOT)

    # --- editor ------------------------------------------------------------------------------

    def _save(self, route: Route) -> None:
        self.phone.write_file(route["path"], str(route.get("text", "")).encode())

    def _share(self, route: Route, package: str) -> None:
        """Share the note's text with ``package`` (saved first, as Markor does)."""
        self.set_dialog(None)
        self._save(route)
        self.phone.app(package).share_text(str(route.get("text", "")))  # type: ignore[attr-defined]

    def screen_edit(self, route: Route) -> ScreenSpec:
        path = route["path"]
        area = edit_field(
            self,
            route,
            "text",
            hint="Start writing…",
            area=True,
            height=1400,
            rid=f"{self.package}:id/document__fragment__edit__highlighting_editor",
        )
        dialog = None
        if route.get("dialog") == "rename":
            dialog = Dialog(
                route.get("error") or "Rename",
                [
                    Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)),
                    Button("OK", filled=False, on_tap=lambda: self._rename(route, path, str(route.get("text", "")))),
                ],
                body=[edit_field(self, route, "file", hint=posixpath.basename(path))],
            )

        elif route.get("dialog") == "share":  # Android's share sheet for the note's text
            dialog = Dialog(
                "Share with",
                [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None))],
                body=[ListItem("Simple SMS Messenger", on_tap=lambda: self._share(route, SMS_PACKAGE))],
            )

        def leave() -> None:
            self._save(route)
            self.pop()

        actions: list[Widget] = [
            IconButton("Share", "✉", on_tap=lambda: self.set_dialog("share")),
            IconButton("Rename", "✎", on_tap=lambda: self._open_dialog(route, "rename")),
            IconButton("Save", "✓", on_tap=lambda: self._save(route)),
        ]
        return ScreenSpec(title=posixpath.basename(path), up=leave, body=[area], actions=actions, dialog=dialog)
