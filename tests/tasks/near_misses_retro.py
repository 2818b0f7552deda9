"""Near misses of the Retro Music tasks (merged into ``test_sim_near_misses.NEAR_MISSES``, which
runs them at three seeds). Each builds the state as the app itself writes it: playlists through
its ``add_to_playlist`` over the songs its scanner read, the queue through ``save_queue``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cerebellum_gym.sim.apps.retro import RetroMusicApp
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks.base import Task
from cerebellum_gym.tasks.retro import RETRO_PACKAGE, title

Case = Callable[[Phone, Task], "str | None"]


def _app(phone: Phone) -> RetroMusicApp:
    phone.start_app(RETRO_PACKAGE)
    app = phone.apps[RETRO_PACKAGE]
    assert isinstance(app, RetroMusicApp)
    return app


def _songs(app: RetroMusicApp, files: list[str]) -> list[dict[str, str]]:
    by_title = {s["title"]: s for s in app.songs()}
    return [by_title[title(f)] for f in files]


def _playlist(phone: Phone, name: str, files: list[str]) -> None:
    """A playlist ``name`` holding ``files`` in order, as the app's Add to playlist writes it."""
    app = _app(phone)
    playlist = app.create_playlist(name)
    for song in _songs(app, files):
        app.add_to_playlist(playlist, song)


def _queue(phone: Phone, files: list[str]) -> None:
    app = _app(phone)
    app.save_queue(_songs(app, files))


def _swapped(files: list[str]) -> list[str]:
    return [files[1], files[0], *files[2:]]


def _exported_wrong(phone: Phone, task: Task) -> None:
    """The playlist made, but saved under another name."""
    p = task.params
    _playlist(phone, p["playlist_name"], p["files"])
    app = _app(phone)
    app.export(app.playlists()[-1]["_id"], p["playlist_name"] + " copy")


def _duration_off(phone: Phone, task: Task) -> None:
    """The answer's songs and one noise song (3-5 more minutes: over 50)."""
    p = task.params
    _playlist(phone, p["playlist_name"], [*p["files"], *p["noise_files"][:1]])


def _duration_second_playlist(phone: Phone, task: Task) -> None:
    """The right songs, and another playlist besides (AndroidWorld's judge then fails)."""
    p = task.params
    _playlist(phone, p["playlist_name"], p["files"])
    _playlist(phone, "Zzzz Qqqq", p["noise_files"][:1])


NEAR_MISSES: dict[str, list[tuple[str, Any]]] = {
    "RetroCreatePlaylist": [
        ("first two swapped", lambda p, t: _playlist(p, t.params["playlist_name"], _swapped(t.params["files"]))),
        ("last song left out", lambda p, t: _playlist(p, t.params["playlist_name"], t.params["files"][:-1])),
        ("a noise song added", lambda p, t: _playlist(p, t.params["playlist_name"], [*t.params["files"], t.params["noise_files"][0]])),
        ("another name", lambda p, t: _playlist(p, "Zzzz Qqqq", t.params["files"])),
    ],
    "RetroPlayingQueue": [
        ("first two swapped", lambda p, t: _queue(p, _swapped(t.params["files"]))),
        ("last song left out", lambda p, t: _queue(p, t.params["files"][:-1])),
        ("a noise song first", lambda p, t: _queue(p, [t.params["noise_files"][0], *t.params["files"]])),
        ("a playlist instead", lambda p, t: _playlist(p, "Queue", t.params["files"])),
    ],
    "RetroSavePlaylist": [
        ("exported under another name", _exported_wrong),
        ("first two swapped", lambda p, t: _playlist(p, t.params["playlist_name"], _swapped(t.params["files"]))),
    ],
    "RetroPlaylistDuration": [
        ("a noise song added", _duration_off),
        ("a second playlist", _duration_second_playlist),
        ("another name", lambda p, t: _playlist(p, t.params["playlist_name"] + " 2", t.params["files"])),
    ],
}
