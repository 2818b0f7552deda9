"""Retro Music (code.name.monkey.retromusic): the MP3 files on shared storage as a song library,
the playing queue, and playlists (create one, add songs to it, export it as an ``.m3u`` file).

The library is what the media scanner reads of each ``.mp3`` file under ``/sdcard`` (outside
hidden folders): the title and artist from its ID3v2 tag (the file name when it has no title)
and the length from its first MPEG audio frame (the frame count of a Xing/Info header, else the
constant bit rate over the file's size). Only the tag and the first frame are read, at most
:data:`MAX_HEADER` bytes, so a huge file costs nothing; a file with no MPEG frame there (damaged,
or not what its name says) is skipped, as the scanner drops a file it cannot parse.

The app's two databases sit at their real paths (see :mod:`cerebellum_gym.sim.databases`):
``databases/playlist.db`` with Room's ``PlaylistEntity`` (``playlist_id``, ``playlist_name``)
and ``SongEntity`` (one row per playlist entry: ``playlist_creator_id``, the song's columns;
AndroidWorld orders a playlist by ``song_key``), and ``databases/music_playback_state.db`` with
``playing_queue`` (the queue in order, rewritten whole on each change as the app saves it; the
simulator's table has an ``_id`` key of its own).

Long-press on a song starts a selection (a tap then adds or drops a song); its actions, Play
next, Add to playing queue and Add to playlist (a picker of the playlists, or a new one from a
typed name), take the songs in the order they were picked. Tapping a song outside a selection
plays the list from there, as the real app replaces the queue with it. A playlist's page shows its total length and saves it to
``Download/<name>.m3u``.
"""

from __future__ import annotations

import posixpath
from typing import ClassVar, Final

from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import add_to_playlist_dialog, field_key
from cerebellum_gym.sim.databases import DATA_ROOT, AppDatabase, Table, declare
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Dialog, IconButton, ListItem, Row, Text, Widget

PACKAGE: Final = "code.name.monkey.retromusic"
ROOT: Final = "/sdcard"
EXPORT_DIR: Final = "/sdcard/Download"
ACCENT: Final = (216, 67, 21)
#: The provider tables (and URIs) of the app's database tables.
PLAYLISTS: Final = "retro_playlists"
SONGS: Final = "retro_playlist_songs"
QUEUE: Final = "retro_queue"
PLAYLISTS_URI: Final = "content://code.name.monkey.retromusic/playlists"
SONGS_URI: Final = "content://code.name.monkey.retromusic/playlist_songs"
QUEUE_URI: Final = "content://code.name.monkey.retromusic/playing_queue"
TABS: Final = ("Songs", "Playlists", "Queue")
#: The most bytes read of a file: its ID3v2 tag (up to this) and the first audio frame.
MAX_HEADER: Final = 256 * 1024

_SONG_COLUMNS = (
    "id INTEGER NOT NULL, title TEXT NOT NULL, track_number INTEGER NOT NULL, year INTEGER NOT NULL, "
    "duration INTEGER NOT NULL, data TEXT NOT NULL, date_modified INTEGER NOT NULL, album_id INTEGER NOT NULL, "
    "album_name TEXT NOT NULL, artist_id INTEGER NOT NULL, artist_name TEXT NOT NULL, composer TEXT, album_artist TEXT"
)
_SONG_DEFAULTS = {
    "id": 0, "title": "", "track_number": 0, "year": 0, "duration": 0, "data": "", "date_modified": 0, "album_id": 0,
    "album_name": "", "artist_id": 0, "artist_name": "",
}  # fmt: skip

PLAYLIST_DB: Final = declare(
    AppDatabase(
        path=f"{DATA_ROOT}/{PACKAGE}/databases/playlist.db",
        # Room's tables for playlists (the app's history, lyrics and play-count tables are not simulated).
        schema=(
            "CREATE TABLE PlaylistEntity(playlist_id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, playlist_name TEXT NOT NULL);\n"
            "CREATE TABLE SongEntity(song_key INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "
            f"playlist_creator_id INTEGER NOT NULL, {_SONG_COLUMNS});\n"
        ),
        tables=(
            Table("PlaylistEntity", PLAYLISTS, defaults={"playlist_name": ""}),
            Table("SongEntity", SONGS, defaults={"playlist_creator_id": 0, **_SONG_DEFAULTS}),
        ),
    )
)

QUEUE_DB: Final = declare(
    AppDatabase(
        path=f"{DATA_ROOT}/{PACKAGE}/databases/music_playback_state.db",
        schema=(
            "CREATE TABLE playing_queue(_id INTEGER PRIMARY KEY, title TEXT NOT NULL, track INT NOT NULL, year INT NOT NULL, "
            "duration LONG NOT NULL, _data TEXT NOT NULL, date_modified LONG NOT NULL, album_id INT NOT NULL, "
            "album TEXT NOT NULL, artist_id INT NOT NULL, artist TEXT NOT NULL, composer TEXT, album_artist TEXT);\n"
        ),
        tables=(
            Table(
                "playing_queue",
                QUEUE,
                defaults={"title": "", "track": 0, "year": 0, "duration": 0, "_data": "", "date_modified": 0, "album_id": 0}
                | {"album": "", "artist_id": 0, "artist": ""},
            ),
        ),
    )
)


# --- the MP3 probe ----------------------------------------------------------------------------

_SAMPLE_RATES: Final = {3: (44100, 48000, 32000), 2: (22050, 24000, 16000), 0: (11025, 12000, 8000)}
_BITRATES_V1: Final = (0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320)
_BITRATES_V2: Final = (0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160)
_TEXT_FRAMES: Final = {b"TIT2": "title", b"TPE1": "artist", b"TT2": "title", b"TP1": "artist"}


def _syncsafe(data: bytes) -> int:
    value = 0
    for byte in data:
        value = (value << 7) | (byte & 0x7F)
    return value


def _text(frame: bytes) -> str:
    """An ID3v2 text frame's first string (encodings 0 Latin-1, 1 UTF-16 with BOM, 2 UTF-16BE, 3 UTF-8)."""
    if not frame:
        return ""
    encoding, body = frame[0], frame[1:]
    codec = {0: "latin-1", 1: "utf-16", 2: "utf-16-be", 3: "utf-8"}.get(encoding, "latin-1")
    text = body.decode(codec, errors="replace")
    return text.split("\x00", 1)[0].strip()


def _id3(data: bytes) -> tuple[dict[str, str], int]:
    """The title and artist of an ID3v2 tag at the start of ``data``, and where the audio starts."""
    if len(data) < 10 or data[:3] != b"ID3" or data[3] not in (2, 3, 4):
        return {}, 0
    version, flags = data[3], data[5]
    end = 10 + _syncsafe(data[6:10]) + (10 if flags & 0x10 else 0)
    tags: dict[str, str] = {}
    at, limit = 10, min(end, len(data))
    id_len, head = (3, 6) if version == 2 else (4, 10)
    while at + head <= limit:
        frame_id = data[at : at + id_len]
        if not frame_id.strip(b"\x00") or not frame_id.isalnum():
            break  # padding, or a damaged tag: what was read so far stands
        raw = data[at + id_len : at + id_len + (3 if version == 2 else 4)]
        size = _syncsafe(raw) if version == 4 else int.from_bytes(raw, "big")
        body = data[at + head : at + head + size]
        if frame_id in _TEXT_FRAMES and _TEXT_FRAMES[frame_id] not in tags:
            tags[_TEXT_FRAMES[frame_id]] = _text(body)
        at += head + size
    return tags, end


def probe(data: bytes, size: int | None = None) -> tuple[dict[str, str], int] | None:
    """What the media scanner reads of an MP3 file: its tags and length in ms, or ``None`` when
    no MPEG audio frame follows the tag within :data:`MAX_HEADER` bytes.

    Args:
        data: the file's first bytes (at least the tag and the first frame).
        size: the whole file's size (for a constant-bit-rate length); ``len(data)`` if omitted.
    """
    total = len(data) if size is None else size
    tags, start = _id3(data[:MAX_HEADER])
    window = data[start : start + MAX_HEADER]
    at = 0
    while True:
        at = window.find(b"\xff", at)
        if at < 0 or at + 4 > len(window):
            return None
        b1, b2, b3 = window[at + 1], window[at + 2], window[at + 3]
        version, layer, rate_index, sr_index = (b1 >> 3) & 3, (b1 >> 1) & 3, b2 >> 4, (b2 >> 2) & 3
        if (b1 & 0xE0) == 0xE0 and version != 1 and layer == 1 and 0 < rate_index < 15 and sr_index < 3:
            break  # a Layer III frame header
        at += 1
    sample_rate = _SAMPLE_RATES[version][sr_index]
    bitrate = (_BITRATES_V1 if version == 3 else _BITRATES_V2)[rate_index]
    samples = 1152 if version == 3 else 576
    mono = (b3 >> 6) == 3
    side = (17 if mono else 32) if version == 3 else (9 if mono else 17)
    xing = window[at + 4 + side : at + 4 + side + 12]
    if xing[:4] in (b"Xing", b"Info") and len(xing) == 12 and xing[7] & 1:
        frames = int.from_bytes(xing[8:12], "big")
        duration = frames * samples * 1000 // sample_rate
    else:
        duration = max(0, total - start - at) * 8 // bitrate
    return tags, duration


def clock(ms: int) -> str:
    """A length as the app prints it (``3:05``, ``1:02:03``)."""
    seconds = max(ms, 0) // 1000
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class RetroMusicApp(App):
    package: ClassVar[str] = PACKAGE
    activity: ClassVar[str] = "code.name.monkey.retromusic.activities.MainActivity"
    label: ClassVar[str] = "Retro Music"
    color: ClassVar[tuple[int, int, int]] = ACCENT
    clock_dependent: ClassVar[bool] = False

    # --- the library ---------------------------------------------------------------------------

    def _table(self, name: str) -> list[dict[str, str]]:
        return self.phone.state.content.setdefault(name, [])

    def songs(self) -> list[dict[str, str]]:
        """The library, by title as the app sorts it by default (case folded); each song a dict
        of ``id``, ``title``, ``artist``, ``duration`` (ms) and ``data`` (its path)."""
        files = self.phone.state.files
        out: list[dict[str, str]] = []
        for number, path in enumerate(sorted(files), start=1):
            if not path.startswith(ROOT + "/") or posixpath.splitext(path)[1].lower() != ".mp3":
                continue
            if any(part.startswith(".") for part in path[len(ROOT) + 1 :].split("/")[:-1]):
                continue
            blob = files[path]
            found = probe(blob[: 2 * MAX_HEADER], len(blob))
            if found is None:
                continue
            tags, duration = found
            title = tags.get("title") or posixpath.splitext(posixpath.basename(path))[0]
            artist = tags.get("artist") or "<unknown>"
            out.append({"id": str(number), "title": title, "artist": artist, "duration": str(duration), "data": path})
        return sorted(out, key=lambda s: (s["title"].casefold(), s["data"]))

    def playlists(self) -> list[dict[str, str]]:
        return sorted(self._table(PLAYLISTS), key=lambda r: (r.get("playlist_name", "").casefold(), int(r["_id"])))

    def entries(self, playlist_id: str) -> list[dict[str, str]]:
        """A playlist's songs, by ``song_key`` (the order AndroidWorld reads)."""
        rows = [r for r in self._table(SONGS) if r.get("playlist_creator_id") == playlist_id]
        return sorted(rows, key=lambda r: int(r["_id"]))

    def create_playlist(self, name: str) -> str:
        self.phone.content_insert(PLAYLISTS_URI, {"playlist_name": name})
        return self._table(PLAYLISTS)[-1]["_id"]

    def add_to_playlist(self, playlist_id: str, song: dict[str, str]) -> None:
        values = {
            "playlist_creator_id": playlist_id, "id": song["id"], "title": song["title"], "duration": song["duration"],
            "data": song["data"], "artist_name": song["artist"], "album_name": "", "track_number": "0", "year": "0",
            "date_modified": "0", "album_id": "0", "artist_id": "0",
        }  # fmt: skip
        self.phone.content_insert(SONGS_URI, values)

    def queue(self) -> list[dict[str, str]]:
        return sorted(self._table(QUEUE), key=lambda r: int(r["_id"]))

    def queued_songs(self) -> list[dict[str, str]]:
        """The queue as songs (the keys :meth:`songs` gives)."""
        return [
            {"title": r.get("title", ""), "duration": r.get("duration", "0"), "data": r.get("_data", ""), "artist": r.get("artist", "")}
            for r in self.queue()
        ]

    def save_queue(self, songs: list[dict[str, str]]) -> None:
        """Rewrite ``playing_queue`` whole, in order, as the app saves its queue."""
        self.phone.content_delete(QUEUE_URI)
        for song in songs:
            values = {"title": song["title"], "duration": song["duration"], "_data": song["data"], "artist": song["artist"]}
            self.phone.content_insert(QUEUE_URI, values)
        self.phone.invalidate()

    def export(self, playlist_id: str, name: str) -> None:
        """Write the playlist as ``Download/<name>.m3u`` (extended M3U, one entry per song)."""
        lines = ["#EXTM3U"]
        for row in self.entries(playlist_id):
            lines += [f"#EXTINF:{int(row.get('duration', '0') or 0) // 1000},{row.get('title', '')}", row.get("data", "")]
        safe = name.replace("/", "_")
        self.phone.write_file(f"{EXPORT_DIR}/{safe}.m3u", ("\n".join(lines) + "\n").encode())

    # --- screens -------------------------------------------------------------------------------

    def _tabs(self, current: str) -> list[Widget]:
        def go(tab: str) -> None:
            self.reset_to("main", tab=tab)

        items: list[Widget] = [
            Button(tab, filled=tab == current, on_tap=lambda t=tab: go(t), rid=f"{PACKAGE}:id/nav_{tab.lower()}") for tab in TABS
        ]
        return [Row(items, height=160)]

    def screen_main(self, route: Route) -> ScreenSpec:
        tab = route.get("tab", "Songs")
        if tab == "Playlists":
            return self._playlists_tab()
        if tab == "Queue":
            return self._queue_tab()
        songs = self.songs()
        paths = [song["data"] for song in songs]
        selected = [p for p in route.get("selected", []) if p in paths]
        route["selected"] = selected

        def toggle(path: str) -> None:
            chosen = route["selected"]
            if path in chosen:
                chosen.remove(path)
            else:
                chosen.append(path)

        def tap(index: int) -> None:
            if route["selected"]:
                toggle(songs[index]["data"])
                return
            self.save_queue(songs[index:] + songs[:index])  # the list plays from the tapped song
            self.push("player", title=songs[index]["title"], duration=songs[index]["duration"])

        body: list[Widget] = [
            ListItem(
                song["title"],
                f"{song['artist']} • {clock(int(song['duration']))}",
                avatar=song["title"][:1].upper(),
                avatar_color=ACCENT,
                selected=song["data"] in selected,
                on_tap=lambda i=n: tap(i),
                on_long_press=lambda p=song["data"]: toggle(p),
                rid=f"{PACKAGE}:id/song_item",
            )
            for n, song in enumerate(songs)
        ]
        if not body:
            body = [Text("No songs", size=44, center=True, height=300, color=render.TEXT_SECONDARY)]
        title = "Songs"
        actions: list[Widget] = [IconButton("Search", "⌕")]
        if selected:
            by_path = {song["data"]: song for song in songs}
            chosen = [by_path[p] for p in selected]  # in the order they were picked

            def enqueue() -> None:
                self.save_queue([*self.queued_songs(), *chosen])
                route["selected"] = []

            def play_next() -> None:
                queue = self.queued_songs()
                self.save_queue([*queue[:1], *chosen, *queue[1:]])
                route["selected"] = []

            def to_playlist() -> None:
                self.set_dialog("add", adding=chosen, new_name="")
                self.phone.focus(field_key(self, route, "new_name"))

            title = f"{len(selected)} selected"
            actions = [
                IconButton("Play next", "⤵", on_tap=play_next),
                IconButton("Add to playing queue", "≡", on_tap=enqueue),
                IconButton("Add to playlist", "+", on_tap=to_playlist),
            ]
        return ScreenSpec(title=title, body=body, actions=actions, bottom=self._tabs("Songs"), dialog=self._add_dialog(route))

    def _add_dialog(self, route: Route) -> Dialog | None:
        adding = [dict(song) for song in route.get("adding", [])]

        def add(playlist_id: str) -> None:
            for song in adding:
                self.add_to_playlist(playlist_id, song)

        return add_to_playlist_dialog(
            self,
            route,
            lambda: [(p["_id"], p.get("playlist_name", ""), f"{len(self.entries(p['_id']))} songs") for p in self.playlists()],
            add,
            self.create_playlist,
            f"{PACKAGE}:id/playlist_name",
        )

    def _playlists_tab(self) -> ScreenSpec:
        body: list[Widget] = [
            ListItem(
                p.get("playlist_name", ""),
                f"{len(self.entries(p['_id']))} songs",
                avatar=p.get("playlist_name", "")[:1].upper(),
                avatar_color=ACCENT,
                on_tap=lambda i=p["_id"]: self.push("playlist", playlist_id=i),
                rid=f"{PACKAGE}:id/playlist_item",
            )
            for p in self.playlists()
        ]
        if not body:
            body = [Text("No playlists", size=44, center=True, height=300, color=render.TEXT_SECONDARY)]
        return ScreenSpec(title="Playlists", body=body, bottom=self._tabs("Playlists"))

    def _queue_tab(self) -> ScreenSpec:
        queue = self.queue()
        body: list[Widget] = [
            ListItem(
                r.get("title", ""),
                clock(int(r.get("duration", "0") or 0)),
                avatar=str(n + 1),
                avatar_color=ACCENT,
                rid=f"{PACKAGE}:id/queue_item",
            )
            for n, r in enumerate(queue)
        ]
        if not body:
            body = [Text("The queue is empty", size=44, center=True, height=300, color=render.TEXT_SECONDARY)]
        actions: list[Widget] = [IconButton("Clear queue", "✕", on_tap=lambda: self.save_queue([]))] if queue else []
        return ScreenSpec(title="Playing queue", body=body, actions=actions, bottom=self._tabs("Queue"))

    def screen_playlist(self, route: Route) -> ScreenSpec:
        found = [p for p in self._table(PLAYLISTS) if p["_id"] == route["playlist_id"]]
        if not found:
            self.pop()
            return self.build()
        name = found[0].get("playlist_name", "")
        entries = self.entries(route["playlist_id"])
        total = sum(int(r.get("duration", "0") or 0) for r in entries)
        body: list[Widget] = [Text(f"{len(entries)} songs • {clock(total)}", size=40, height=120, rid=f"{PACKAGE}:id/playlist_info")]
        body += [
            ListItem(
                r.get("title", ""),
                clock(int(r.get("duration", "0") or 0)),
                avatar=str(n + 1),
                avatar_color=ACCENT,
                rid=f"{PACKAGE}:id/song_item",
            )
            for n, r in enumerate(entries)
        ]
        if not entries:
            body.append(Text("This playlist is empty", size=44, center=True, height=300, color=render.TEXT_SECONDARY))

        def save() -> None:
            self.export(route["playlist_id"], name)

        actions: list[Widget] = [IconButton("Save as file", "⇩", on_tap=save)]
        return ScreenSpec(title=name, up=self.pop, body=body, actions=actions)

    def back(self) -> bool:
        # Back ends a selection first, as the app's action mode does.
        if self.route["screen"] == "main" and self.route.get("selected") and not self.route.get("dialog"):
            self.route["selected"] = []
            return True
        return super().back()

    def screen_player(self, route: Route) -> ScreenSpec:
        body: list[Widget] = [
            Text(str(route.get("title", "")), size=56, height=200, rid=f"{PACKAGE}:id/title"),
            Text(f"0:00 / {clock(int(route.get('duration', '0') or 0))}", size=44, height=140, rid=f"{PACKAGE}:id/songTotalTime"),
        ]
        return ScreenSpec(title=None, up=self.pop, body=body)
