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

import functools
import posixpath
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.databases import DATA_ROOT, AppDatabase, Table, declare
from cerebellum_gym.sim.material import Theme, dp
from cerebellum_gym.sim.material.components import ActionMenuItem, Fab, MaterialIconButton, OverflowButton, TopAppBar
from cerebellum_gym.sim.render import draw_icon, font, text_fit
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Dialog, Row, Text, Widget

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

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
RID: Final = f"{PACKAGE}:id/"
THEME: Final = Theme(primary=ACCENT, on_primary=(255, 255, 255))
PAGE: Final = (255, 255, 255)
#: The bottom navigation (menu/bottom_navigation_main.xml): label, item id, icon.
NAV_ITEMS: Final = (
    ("For you", "action_home", "home"),
    ("Songs", "action_song", "music_note"),
    ("Albums", "action_album", "album"),
    ("Artists", "action_artist", "person"),
    ("Playlists", "action_playlist", "queue_music"),
)
#: A song's popup menu (menu/menu_item_song.xml).
SONG_MENU: Final = (
    "Play next", "Add to playing queue", "Add to playlist", "Go to album", "Go to artist", "Share", "Tag editor", "Details",
    "Set as ringtone", "Add to Blacklist", "Delete from device",
)  # fmt: skip
#: A playlist's menu (menu/menu_playlist_detail.xml, the items not shown as actions).
PLAYLIST_MENU: Final = ("Play", "Play next", "Add to playing queue", "Add to playlist", "Rename", "Delete", "Save as file")
#: The library toolbar's overflow (menu/menu_main.xml).
MAIN_MENU: Final = ("Grid size", "Grid style", "Sort order", "Settings")
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


@register_app
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

    def screen_main(self, route: Route) -> ScreenSpec:
        # The first visible library category (Home, "For you") opens first (MainActivity.setupNavigationController).
        tab = str(route.get("tab", "For you"))
        if tab == "For you":
            return self._home()
        if tab == "Playlists":
            return self._playlists_tab(route)
        if tab != "Songs":
            return self._empty_tab(tab)
        return self._songs_tab(route)

    def _bottom(self, current: str) -> list[Widget]:
        return [BottomNav(current, lambda tab: self.reset_to("main", tab=tab, selected=[]))]

    def _mini_player(self) -> list[Widget]:
        queue = self.queue()
        if not queue:
            return []
        now = queue[0]
        return [MiniPlayer(f"{now.get('title', '')}  •  {now.get('artist', '')}", on_tap=self._open_player)]

    def _open_player(self) -> None:
        queue = self.queue()
        if queue:
            self.push("player", title=queue[0].get("title", ""), duration=queue[0].get("duration", "0"))

    def _bar(self, title: str, actions: list[MaterialIconButton] | None = None) -> TopAppBar:
        # simple_appbar_layout: a search icon as the navigation button (no description), the title centred.
        search = MaterialIconButton("", "search", theme=THEME, on_tap=lambda: None)
        return CenteredBar(
            title,
            navigation=search,
            actions=actions or [OverflowButton(on_tap=lambda: self.set_dialog("main_menu"), theme=THEME)],
            theme=THEME,
            rid=RID + "toolbar",
        )

    def _songs_tab(self, route: Route) -> ScreenSpec:
        songs = self.songs()
        paths = [song["data"] for song in songs]
        selected = [p for p in route.get("selected", []) if p in paths]
        route["selected"] = selected

        def toggle(path: str) -> None:
            chosen = self.route["selected"]
            if path in chosen:
                chosen.remove(path)
            else:
                chosen.append(path)
            self.phone.invalidate()

        def tap(index: int) -> None:
            if self.route["selected"]:
                toggle(songs[index]["data"])
                return
            self.save_queue(songs[index:] + songs[:index])  # the list plays from the tapped song
            self.push("player", title=songs[index]["title"], duration=songs[index]["duration"])

        body: list[Widget] = [
            SongRow(
                song["title"],
                song["artist"],
                selected=song["data"] in selected,
                on_tap=functools.partial(tap, n),
                on_long_press=functools.partial(toggle, song["data"]),
                on_menu=functools.partial(self.set_dialog, "song_menu", menu_song=dict(song)),
            )
            for n, song in enumerate(songs)
        ]
        if not body:
            body = [Text("You have no songs", size=dp(16), center=True, height=dp(120), rid=RID + "emptyText")]
        by_path = {song["data"]: song for song in songs}
        if selected:
            chosen = [by_path[p] for p in selected]  # in the order they were picked

            def done() -> None:
                self.route["selected"] = []

            actions: list[MaterialIconButton] = [
                ActionMenuItem(
                    "Play next",
                    "playlist_play",
                    theme=THEME,
                    on_tap=functools.partial(self._selection_done, self._play_next, chosen),
                    rid=RID + "action_play_next",
                ),
                ActionMenuItem(
                    "Add to playing queue",
                    "queue_music",
                    theme=THEME,
                    on_tap=functools.partial(self._selection_done, self._enqueue, chosen),
                    rid=RID + "action_add_to_current_playing",
                ),
                ActionMenuItem(
                    "Add to playlist",
                    "playlist_add",
                    theme=THEME,
                    on_tap=lambda: self._to_playlist(chosen),
                    rid=RID + "action_add_to_playlist",
                ),
                OverflowButton(on_tap=lambda: self.set_dialog("selection_menu"), theme=THEME),
            ]
            # The framework's action mode (AbsMultiSelectAdapter): "Done", the NumberRollView, three
            # of menu_media_selection's ifRoom items at this width, the rest in the overflow.
            close = MaterialIconButton("Done", "check", theme=THEME, on_tap=done, rid="android:id/action_mode_close_button")
            bar: TopAppBar = ActionModeBar(
                f"{len(selected)} selected", navigation=close, actions=actions, theme=THEME, rid="android:id/action_mode_bar"
            )
        else:
            bar = self._bar("Songs")
        fab = (
            Fab("Shuffle", "shuffle", theme=THEME, background=PAGE, on_tap=lambda: self._shuffle(songs), rid=RID + "shuffle_button")
            if songs
            else None
        )
        return ScreenSpec(
            title=None,
            app_bar=bar,
            body=body,
            fab=fab,
            bottom=[*self._mini_player(), *self._bottom("Songs")],
            dialog=self._dialog(route),
            list_id="recycler_view",
            background=PAGE,
        )

    def _shuffle(self, songs: list[dict[str, str]]) -> None:
        if songs:
            self.save_queue(list(songs))
            self.push("player", title=songs[0]["title"], duration=songs[0]["duration"])

    def _selection_done(self, action: Callable[[list[dict[str, str]]], None], chosen: list[dict[str, str]]) -> None:
        """``action`` on the chosen songs, then the selection and any menu close."""
        action(chosen)
        self.route["selected"] = []
        self.set_dialog(None)

    def _enqueue(self, chosen: list[dict[str, str]]) -> None:
        self.save_queue([*self.queued_songs(), *chosen])

    def _play_next(self, chosen: list[dict[str, str]]) -> None:
        queue = self.queued_songs()
        self.save_queue([*queue[:1], *chosen, *queue[1:]])

    def _to_playlist(self, chosen: list[dict[str, str]]) -> None:
        self.set_dialog("add", adding=[dict(song) for song in chosen], new_name="")

    def _dialog(self, route: Route) -> Dialog | None:
        kind = route.get("dialog")
        if kind == "song_menu":
            song = dict(route.get("menu_song") or {})
            acts = {
                "Play next": functools.partial(self._selection_done, self._play_next, [song]),
                "Add to playing queue": functools.partial(self._selection_done, self._enqueue, [song]),
                "Add to playlist": functools.partial(self._to_playlist, [song]),
            }
            return Dialog("", [], body=[MenuRow(i, acts.get(i, lambda: self.set_dialog(None))) for i in SONG_MENU])
        if kind == "selection_menu":
            return Dialog("", [], body=[MenuRow(i, lambda: self.set_dialog(None)) for i in ("Share", "Delete from device", "Select all")])
        if kind == "main_menu":
            return Dialog("", [], body=[MenuRow(i, lambda: self.set_dialog(None)) for i in MAIN_MENU])
        if kind == "add":
            adding = [dict(song) for song in route.get("adding", [])]

            def pick(playlist_id: str) -> None:
                for song in adding:
                    self.add_to_playlist(playlist_id, song)
                self.route["selected"] = []
                self.set_dialog(None)

            items: list[Widget] = [DialogItem(text="New playlist", on_tap=self._new_playlist_dialog)]
            items += [DialogItem(text=p.get("playlist_name", ""), on_tap=functools.partial(pick, p["_id"])) for p in self._table(PLAYLISTS)]
            # The sheet's one button is AlertDialog's negative one (setNegativeButton): button2.
            cancel = Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None), rid="android:id/button2")
            return Dialog("Add to playlist", [cancel], body=items)
        if kind == "new":
            adding = [dict(song) for song in route.get("adding", [])]

            def create() -> None:
                name = str(self.route.get("new_name", ""))
                self.set_dialog(None)
                if name.strip():
                    found = [p["_id"] for p in self._table(PLAYLISTS) if p.get("playlist_name") == name]
                    playlist_id = found[0] if found else self.create_playlist(name)
                    for song in adding:
                        self.add_to_playlist(playlist_id, song)
                self.route["selected"] = []

            field = edit_field(self, route, "new_name", hint="Playlist name", rid=RID + "actionNewPlaylist")
            return Dialog(
                "New playlist",
                [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)), Button("Create", filled=False, on_tap=create)],
                body=[field],
            )
        return None

    def _new_playlist_dialog(self) -> None:
        self.set_dialog("new", new_name="")
        self.phone.focus(field_key(self, self.route, "new_name"))

    def _home(self) -> ScreenSpec:
        # fragment_home: "Retro Music" (HomeFragment.setupTitle) and abs_playlists' four buttons;
        # the suggestions and the recent albums/artists below them need a play history (none here).
        buttons: list[Widget] = [
            Button("History", filled=False, on_tap=_noop, rid=RID + "history"),
            Button("Last added", filled=False, on_tap=_noop, rid=RID + "lastAdded"),
            Button("Most played", filled=False, on_tap=_noop, rid=RID + "topPlayed"),
            Button("Shuffle", filled=False, on_tap=lambda: self._shuffle(self.songs()), rid=RID + "actionShuffle"),
        ]
        body: list[Widget] = [Row(buttons[:2], height=dp(64)), Row(buttons[2:], height=dp(64))]
        return ScreenSpec(
            title=None, app_bar=self._bar("Retro Music"), body=body, bottom=[*self._mini_player(), *self._bottom("For you")],
            list_id="container", list_class="android.widget.ScrollView", background=PAGE,
        )  # fmt: skip

    def _empty_tab(self, tab: str) -> ScreenSpec:
        # Albums and Artists are not simulated (no task goes there): their bars and the navigation.
        return ScreenSpec(title=None, app_bar=self._bar(tab), body=[], bottom=[*self._mini_player(), *self._bottom(tab)], background=PAGE)

    def _playlists_tab(self, route: Route) -> ScreenSpec:
        # Two columns by default (default_grid_columns): item_grid cards.
        cells: list[Widget] = [
            PlaylistCell(
                p.get("playlist_name", ""),
                info_string(self.entries(p["_id"])),
                on_tap=functools.partial(self.push, "playlist", playlist_id=p["_id"]),
            )
            for p in self.playlists()
        ]
        body: list[Widget] = [Row(cells[i : i + 2], columns=2, height=cells[i].height) for i in range(0, len(cells), 2)]
        if not body:
            body = [Text("You have no playlists", size=dp(16), center=True, height=dp(120), rid=RID + "emptyText")]
        return ScreenSpec(
            title=None,
            app_bar=self._bar("Playlists"),
            body=body,
            bottom=[*self._mini_player(), *self._bottom("Playlists")],
            list_id="recycler_view",
            background=PAGE,
            dialog=self._dialog(route),
        )

    def screen_playlist(self, route: Route) -> ScreenSpec:
        found = [p for p in self._table(PLAYLISTS) if p["_id"] == route["playlist_id"]]
        if not found:
            self.pop()
            return self.build()
        name = found[0].get("playlist_name", "")
        entries = self.entries(route["playlist_id"])
        body: list[Widget] = [
            Text(name, size=dp(24), bold=True, center=True, height=dp(40), rid=RID + "title"),
            Text(info_string(entries), size=dp(14), center=True, height=dp(28), rid=RID + "subtitle", color=render.TEXT_SECONDARY),
            Row(
                [
                    MaterialIconButton(
                        "", "play_arrow", theme=THEME, on_tap=lambda: self._shuffle(self._as_songs(entries)), rid=RID + "play_button"
                    ),
                    MaterialIconButton(
                        "", "shuffle", theme=THEME, on_tap=lambda: self._shuffle(self._as_songs(entries)), rid=RID + "shuffle_button"
                    ),
                ],
                height=dp(56),
            ),
        ]
        body += [SongRow(r.get("title", ""), r.get("artist_name", ""), on_tap=lambda: None, on_menu=lambda: None) for r in entries]
        if not entries:
            body.append(Text("You have no songs", size=dp(16), center=True, height=dp(120), rid=RID + "emptyText"))

        def save() -> None:
            self.set_dialog(None)
            self.export(route["playlist_id"], name)

        dialog = None
        if route.get("dialog") == "playlist_menu":
            dialog = Dialog(
                "", [], body=[MenuRow(i, save if i == "Save as file" else lambda: self.set_dialog(None)) for i in PLAYLIST_MENU]
            )
        up = MaterialIconButton("Navigate up", "arrow_back", theme=THEME, on_tap=self.pop)
        more = OverflowButton(on_tap=lambda: self.set_dialog("playlist_menu"), theme=THEME)
        bar = TopAppBar("", navigation=up, actions=[more], theme=THEME, rid=RID + "toolbar")
        return ScreenSpec(
            title=None, app_bar=bar, body=body, dialog=dialog, bottom=self._mini_player(), list_id="recyclerView", background=PAGE
        )

    def _as_songs(self, entries: list[dict[str, str]]) -> list[dict[str, str]]:
        return [
            {"title": r.get("title", ""), "duration": r.get("duration", "0"), "data": r.get("data", ""), "artist": r.get("artist_name", "")}
            for r in entries
        ]

    def back(self) -> bool:
        # Back ends a selection first, as the app's action mode does.
        if self.route["screen"] == "main" and self.route.get("selected") and not self.route.get("dialog"):
            self.route["selected"] = []
            return True
        return super().back()

    def screen_player(self, route: Route) -> ScreenSpec:
        queue = self.queue()
        now = queue[0] if queue else {}
        body: list[Widget] = [
            Text("", height=dp(320)),  # the album art
            Text(str(route.get("title", "")), size=dp(22), bold=True, height=dp(40), rid=RID + "title"),
            Text(now.get("artist", ""), size=dp(16), height=dp(32), rid=RID + "text", color=render.TEXT_SECONDARY),
            Row(
                [
                    Text("00:00", size=dp(12), rid=RID + "songCurrentProgress"),
                    Text(duration_text(int(route.get("duration", "0") or 0)), size=dp(12), rid=RID + "songTotalTime"),
                ],
                height=dp(32),
            ),
        ]
        actions: list[MaterialIconButton] = [
            ActionMenuItem("Playing Queue", "queue_music", theme=THEME, on_tap=lambda: self.push("queue"), rid=RID + "now_playing"),
        ]
        up = MaterialIconButton("", "expand_more", theme=THEME, on_tap=self.pop)
        bar = TopAppBar("", navigation=up, actions=actions, theme=THEME, rid=RID + "playerToolbar")
        return ScreenSpec(title=None, app_bar=bar, body=body, background=PAGE)

    def screen_queue(self, route: Route) -> ScreenSpec:
        body: list[Widget] = [
            SongRow(r.get("title", ""), r.get("artist", ""), on_tap=lambda: None, on_menu=lambda: None) for r in self.queue()
        ]
        up = MaterialIconButton("Navigate up", "arrow_back", theme=THEME, on_tap=self.pop)
        bar = TopAppBar("Playing Queue", navigation=up, theme=THEME, rid=RID + "toolbar")
        return ScreenSpec(title=None, app_bar=bar, body=body, list_id="recycler_view", background=PAGE)


def duration_text(ms: int) -> str:
    """MusicUtil.getReadableDurationString: ``04:00`` (two-digit minutes), ``1:02:03`` past an hour."""
    seconds = max(ms, 0) // 1000
    minutes, rest = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes:02d}:{rest:02d}"
    return f"{minutes // 60}:{minutes % 60:02d}:{rest:02d}"


def info_string(entries: list[dict[str, str]]) -> str:
    """MusicUtil.getPlaylistInfoString: "N Songs  •  mm:ss" ("1 Song")."""
    total = sum(int(r.get("duration", "0") or 0) for r in entries)
    count = f"{len(entries)} {'Song' if len(entries) == 1 else 'Songs'}"
    return f"{count}  •  {duration_text(total)}"


class CenteredBar(TopAppBar):
    """simple_appbar_layout's MaterialToolbar: ``titleCentered``."""

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(20) * scale)
        shown = text_fit(draw, self.title, size, max(1, width - round(dp(112) * scale)), "medium")
        draw.text((width / 2, height / 2), shown, font=font(size, "medium"), fill=self.theme.on_surface, anchor="mm")


class ActionModeBar(TopAppBar):
    """The action mode's bar: its count is NumberRollView's ``up`` TextView."""

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        placed = list(super().children(bounds))
        for widget, _ in placed:
            if widget.class_name == "android.widget.TextView":
                widget.rid = RID + "up"
        return placed


class SongRow(Widget):
    """item_list: a clickable row (ConstraintLayout) with the cover ``image``, ``title``, ``text``
    (the artist) and the ``menu`` button (its popup menu)."""

    class_name = "android.view.ViewGroup"
    default_height = dp(64)  # minHeight ?attr/listPreferredItemHeight

    def __init__(
        self,
        title: str,
        text: str,
        *,
        on_tap: Callable[[], None],
        on_menu: Callable[[], None],
        on_long_press: Callable[[], None] | None = None,
        selected: bool = False,
    ) -> None:
        super().__init__(on_tap=on_tap, on_long_press=on_long_press, selected=selected, background=PAGE)
        self.title, self.sub, self.on_menu = title, text, on_menu

    def render_key(self) -> Hashable:
        return (self.title, self.sub, self.selected)

    def tap(self, phone: Phone, x: int, y: int, bounds: Bounds) -> bool:
        # The row takes the touches its children do not: the menu button opens its popup.
        if x >= bounds[2] - dp(48):
            self.on_menu()
            return True
        return super().tap(phone, x, y, bounds)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        if self.selected:
            draw.rectangle((0, 0, width, height), fill=(255, 224, 214))
        s = round(dp(45) * scale)
        x0, y0 = round(dp(16) * scale), (height - s) // 2
        draw.rounded_rectangle((x0, y0, x0 + s, y0 + s), radius=round(dp(8) * scale), fill=(224, 224, 224))
        draw_icon(draw, "music_note", (x0 + s / 4, y0 + s / 4, x0 + 3 * s / 4, y0 + 3 * s / 4), (150, 150, 150))
        left = x0 + s + round(dp(16) * scale)
        avail = max(1, width - left - round(dp(56) * scale))
        draw.text(
            (left, height * 0.36),
            text_fit(draw, self.title, round(dp(16) * scale), avail),
            font=font(round(dp(16) * scale)),
            fill=render.TEXT,
            anchor="lm",
        )
        draw.text(
            (left, height * 0.66),
            text_fit(draw, self.sub, round(dp(14) * scale), avail),
            font=font(round(dp(14) * scale)),
            fill=render.TEXT_SECONDARY,
            anchor="lm",
        )

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title, self.sub)

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, _ = bounds
        x = left + dp(80)
        return [
            (_Node("android.widget.ImageView", rid=RID + "image"), (left + dp(16), top + dp(10), left + dp(61), top + dp(55))),
            (_Node("android.widget.TextView", text=self.title, rid=RID + "title"), (x, top + dp(10), right - dp(56), top + dp(32))),
            (_Node("android.widget.TextView", text=self.sub, rid=RID + "text"), (x, top + dp(34), right - dp(56), top + dp(54))),
            (
                _Node("android.widget.ImageView", rid=RID + "menu", on_tap=self.on_menu, icon="more_vert"),
                (right - dp(56), top + dp(8), right - dp(8), top + dp(56)),
            ),
        ]


def _noop() -> None:
    """A control whose effect is not simulated (playback)."""


class PlaylistCell(Widget):
    """item_grid: a clickable card cell (2 dp margin, 4 dp padding) with the square cover
    (``imageContainer``/``image``), ``title`` and ``text`` under it and the ``menu`` button."""

    class_name = "android.view.ViewGroup"
    default_height = 540 - dp(12) + dp(72)

    def __init__(self, title: str, text: str, *, on_tap: Callable[[], None]) -> None:
        super().__init__(on_tap=on_tap, background=PAGE)
        self.title, self.sub = title, text

    def render_key(self) -> Hashable:
        return (self.title, self.sub)

    def tap(self, phone: Phone, x: int, y: int, bounds: Bounds) -> bool:
        if x >= bounds[2] - dp(48) and y >= bounds[3] - dp(72):
            return True  # the card's menu (play, rename, ...): not simulated
        return super().tap(phone, x, y, bounds)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        m = round(dp(6) * scale)
        side = width - 2 * m
        draw.rounded_rectangle((m, m, m + side, m + side), radius=round(dp(8) * scale), fill=(224, 224, 224))
        s = side // 3
        draw_icon(draw, "queue_music", (m + s, m + s, m + 2 * s, m + 2 * s), (150, 150, 150))
        left = m + round(dp(12) * scale)
        avail = max(1, width - left - round(dp(48) * scale))
        y = m + side + round(dp(12) * scale)
        draw.text((left, y), text_fit(draw, self.title, round(dp(16) * scale), avail), font=font(round(dp(16) * scale)), fill=render.TEXT)
        y += round(dp(24) * scale)
        draw.text(
            (left, y), text_fit(draw, self.sub, round(dp(14) * scale), avail), font=font(round(dp(14) * scale)), fill=render.TEXT_SECONDARY
        )

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title, self.sub)

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, _ = bounds
        side = right - left - dp(12)
        y = top + dp(6) + side
        return [
            (_Node("android.widget.FrameLayout", rid=RID + "imageContainer"), (left + dp(6), top + dp(6), right - dp(6), y)),
            (_Node("android.widget.ImageView", rid=RID + "image"), (left + dp(6), top + dp(6), right - dp(6), y)),
            (_Node("android.widget.TextView", text=self.title, rid=RID + "title"), (left + dp(18), y + dp(12), right - dp(48), y + dp(36))),
            (_Node("android.widget.TextView", text=self.sub, rid=RID + "text"), (left + dp(18), y + dp(40), right - dp(48), y + dp(60))),
            (
                _Node("android.widget.ImageView", rid=RID + "menu", on_tap=_noop, icon="more_vert"),
                (right - dp(48), y + dp(12), right - dp(4), y + dp(60)),
            ),
        ]


class _Node(Widget):
    """A plain node of a composite row (its parent paints it), or an icon button."""

    def __init__(self, cls: str, *, icon: str = "", **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.cls, self.icon = cls, icon

    @property
    def opaque(self) -> bool:  # type: ignore[override]
        return bool(self.icon)

    def render_key(self) -> Hashable:
        return (self.icon,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        s = round(dp(24) * scale)
        draw_icon(draw, self.icon, ((width - s) / 2, (height - s) / 2, (width + s) / 2, (height + s) / 2), render.TEXT_SECONDARY)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.cls, self.icon)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.class_name = self.cls
        return node


class MenuRow(Widget):
    """A popup menu's row (AppCompat's ListMenuItemView: a clickable LinearLayout) with its ``title``."""

    class_name = "android.widget.LinearLayout"
    default_height = dp(48)

    def __init__(self, title: str, on_tap: Callable[[], None]) -> None:
        super().__init__(on_tap=on_tap)
        self.title = title

    def render_key(self) -> Hashable:
        return (self.title,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        draw.text((round(dp(16) * scale), height / 2), self.title, font=font(round(dp(16) * scale)), fill=render.TEXT, anchor="lm")

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title)

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        return [
            (
                _Node("android.widget.TextView", text=self.title, rid=RID + "title"),
                (left + dp(16), top + dp(12), right - dp(16), bottom - dp(12)),
            )
        ]


class DialogItem(Widget):
    """An AlertDialog list item (``select_dialog_item_material``: a TextView ``text1``)."""

    class_name = "android.widget.TextView"
    default_height = dp(48)

    def render_key(self) -> Hashable:
        return (self.text,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        draw.text((round(dp(24) * scale), height / 2), self.text, font=font(round(dp(16) * scale)), fill=render.TEXT, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.resource_id = "android:id/text1"
        return node


class MiniPlayer(Widget):
    """fragment_mini_player: the cover, ``miniPlayerTitle``, previous, play/pause and next."""

    class_name = "android.widget.LinearLayout"
    default_height = dp(56)  # mini_player_height

    def __init__(self, title: str, *, on_tap: Callable[[], None]) -> None:
        super().__init__(on_tap=on_tap, background=PAGE)
        self.title = title

    def render_key(self) -> Hashable:
        return (self.title,)

    def tap(self, phone: Phone, x: int, y: int, bounds: Bounds) -> bool:
        if x >= bounds[2] - dp(150):
            return True  # previous, play/pause, next: playback is not simulated
        return super().tap(phone, x, y, bounds)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        draw.rectangle((0, 0, width, height), fill=(245, 245, 245))
        s = round(dp(40) * scale)
        draw.rounded_rectangle(
            (round(dp(12) * scale), (height - s) // 2, round(dp(12) * scale) + s, (height + s) // 2),
            radius=round(dp(6) * scale),
            fill=(224, 224, 224),
        )
        left = round(dp(64) * scale)
        avail = max(1, width - left - round(dp(150) * scale))
        draw.text(
            (left, height / 2),
            text_fit(draw, self.title, round(dp(14) * scale), avail),
            font=font(round(dp(14) * scale)),
            fill=render.TEXT,
            anchor="lm",
        )

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title)

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        mid = (top + bottom) // 2
        return [
            (_Node("android.widget.ImageView", rid=RID + "image"), (left + dp(12), mid - dp(20), left + dp(52), mid + dp(20))),
            (
                _Node("android.widget.TextView", text=self.title, rid=RID + "miniPlayerTitle"),
                (left + dp(64), mid - dp(12), right - dp(150), mid + dp(12)),
            ),
            (
                _Node("android.widget.ImageView", rid=RID + "actionPrevious", on_tap=_noop, icon="skip_previous"),
                (right - dp(144), mid - dp(20), right - dp(104), mid + dp(20)),
            ),
            (
                _Node("android.widget.ImageView", rid=RID + "miniPlayerPlayPauseButton", on_tap=_noop, icon="pause"),
                (right - dp(96), mid - dp(20), right - dp(56), mid + dp(20)),
            ),
            (
                _Node("android.widget.ImageView", rid=RID + "actionNext", on_tap=_noop, icon="skip_next"),
                (right - dp(48), mid - dp(20), right - dp(8), mid + dp(20)),
            ),
        ]


class BottomNav(Widget):
    """The TintedBottomNavigationView ``navigationView`` (menu bottom_navigation_main): one
    FrameLayout per item, its id the item's, its description the title."""

    class_name = "android.widget.FrameLayout"
    default_height = dp(80)

    def __init__(self, current: str, go: Callable[[str], None]) -> None:
        super().__init__(rid=RID + "navigationView", background=PAGE)
        self.current, self.go = current, go

    def render_key(self) -> Hashable:
        return (self.current,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        draw.rectangle((0, 0, width, height), fill=(250, 250, 250))
        slot = width / len(NAV_ITEMS)
        for n, (label, _, icon) in enumerate(NAV_ITEMS):
            colour = ACCENT if label == self.current else render.TEXT_SECONDARY
            cx = slot * n + slot / 2
            s = round(dp(24) * scale)
            draw_icon(draw, icon, (cx - s / 2, height * 0.22, cx + s / 2, height * 0.22 + s), colour)
            draw.text((cx, height * 0.72), label, font=font(round(dp(12) * scale)), fill=colour, anchor="mm")

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.current)

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        slot = (right - left) // len(NAV_ITEMS)
        return [
            (
                _Node(
                    "android.widget.FrameLayout",
                    desc=label,
                    rid=RID + rid,
                    on_tap=functools.partial(self.go, label),
                    selected=label == self.current,
                ),
                (left + n * slot, top, left + (n + 1) * slot, bottom),
            )
            for n, (label, rid, _) in enumerate(NAV_ITEMS)
        ]
