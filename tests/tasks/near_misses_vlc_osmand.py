"""Near misses of the VLC and OsmAnd tasks (merged into ``test_sim_near_misses.NEAR_MISSES``,
which runs them at three seeds). Each builds the state through the apps' content URIs, after
VLC has scanned the pushed videos, as the app itself would have written it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks.base import Task
from cerebellum_gym.tasks.vlc import MEDIA_URI, PLAYLISTS_URI, RELATIONS_URI, VLC_PACKAGE

Case = Callable[[Phone, Task], "str | None"]


def _playlist(phone: Phone, name: str, files: list[str]) -> None:
    """A playlist ``name`` holding ``files`` at positions 0, 1, ... (VLC scans first)."""
    phone.start_app(VLC_PACKAGE)
    ids = {r["filename"]: r["_id"] for r in phone.content_query(MEDIA_URI)}
    phone.content_insert(PLAYLISTS_URI, {"name": name, "creation_date": "0"})
    playlist = phone.content_query(PLAYLISTS_URI)[-1]["_id"]
    for position, file in enumerate(files):
        phone.content_insert(RELATIONS_URI, {"media_id": ids[file], "playlist_id": playlist, "position": str(position)})


def _swapped(files: list[str]) -> list[str]:
    return [files[1], files[0], *files[2:]]


def _both_second_swapped(phone: Phone, params: dict[str, Any]) -> None:
    _playlist(phone, params["playlist_name1"], params["files1"])
    _playlist(phone, params["playlist_name2"], _swapped(params["files2"]))


NEAR_MISSES: dict[str, list[tuple[str, Any]]] = {
    "VlcCreatePlaylist": [
        ("first two swapped", lambda p, t: _playlist(p, t.params["playlist_name"], _swapped(t.params["files"]))),
        ("last file left out", lambda p, t: _playlist(p, t.params["playlist_name"], t.params["files"][:-1])),
        ("a noise file added", lambda p, t: _playlist(p, t.params["playlist_name"], [*t.params["files"], t.params["noise_files"][0]])),
        ("another name", lambda p, t: _playlist(p, "Zzzz Qqqq", t.params["files"])),
    ],
    "VlcCreateTwoPlaylists": [
        ("the first playlist only", lambda p, t: _playlist(p, t.params["playlist_name1"], t.params["files1"])),
        ("both, the second one swapped", lambda p, t: _both_second_swapped(p, t.params)),
        ("one playlist of all files", lambda p, t: _playlist(p, t.params["playlist_name1"], [*t.params["files1"], *t.params["files2"]])),
    ],
}
