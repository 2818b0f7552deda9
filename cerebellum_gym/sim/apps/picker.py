"""The folder picker the Simple Mobile Tools apps share (Gallery's Copy to / Move to, Draw's save
path): a dialog listing the folders of one place on shared storage, ``..`` to go up, a tap to go
in, OK to choose the folder shown."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING

from cerebellum_gym.sim.apps.files import STANDARD_FOLDERS
from cerebellum_gym.sim.widgets import Button, Dialog, ListItem, Widget

if TYPE_CHECKING:
    from cerebellum_gym.sim.apps.base import App, Route

ROOT = "/sdcard"
STORAGE_LABEL = "Internal storage"
ROW_HEIGHT = 140
#: Rows that fit in the dialog on the screen.
MAX_ROWS = 12


def shown_path(path: str) -> str:
    """``path`` as the apps show it (``Internal storage/Pictures``)."""
    return STORAGE_LABEL + path[len(ROOT) :] if path.startswith(ROOT) else path


def folders(app: App, folder: str) -> list[str]:
    """The folders listed in ``folder`` (the standard ones show at the root even before they
    exist, as Android creates them; hidden ones do not)."""
    names = set(app.phone.list_dir(folder))
    standard = set(STANDARD_FOLDERS) if folder == ROOT else set()
    found = {n for n in names | standard if n in standard or app.phone.is_dir(f"{folder}/{n}")}
    return sorted((n for n in found if not n.startswith(".")), key=str.lower)


def folder_dialog(app: App, route: Route, key: str, on_ok: Callable[[str], None], on_cancel: Callable[[], None]) -> Dialog:
    """The picker over ``route[key]`` (the folder on show); OK hands it to ``on_ok``."""
    here = str(route[key])
    rows: list[Widget] = []
    if here != ROOT:
        rows.append(ListItem("..", avatar="↑", height=ROW_HEIGHT, on_tap=lambda: route.update({key: posixpath.dirname(here)})))
    for name in folders(app, here):
        rows.append(ListItem(name, avatar="▸", height=ROW_HEIGHT, on_tap=lambda n=name: route.update({key: f"{here}/{n}"})))
    return Dialog(
        "Select a folder",
        [Button("Cancel", filled=False, on_tap=on_cancel), Button("OK", filled=False, on_tap=lambda: on_ok(here))],
        message=shown_path(here),
        body=rows[:MAX_ROWS],
    )
