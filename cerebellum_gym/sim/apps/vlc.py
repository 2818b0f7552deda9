"""VLC (org.videolan.vlc): the videos on shared storage as the media library indexes them, a
player page, and playlists (create one, add videos to it, open it).

The media library is the app's database at its real path
(``/data/data/org.videolan.vlc/app_db/vlc_media.db``, see :mod:`cerebellum_gym.sim.databases`)
with the three tables AndroidWorld reads: ``Media`` (``filename``, ``title``, ``duration`` in ms,
...), ``Playlist`` (``name``, ``creation_date``, ...) and ``PlaylistMediaRelation`` (``media_id``,
``playlist_id``, 0-based ``position``), the column sets of VLC's medialibrary. The simulator's
``PlaylistMediaRelation`` has an ``id_relation`` key of its own, as every bound table needs one;
AndroidWorld reads only the three columns above.

Like the real app it re-scans the storage when it starts and whenever its lists show: a video
file (by extension, anywhere under ``/sdcard`` outside hidden folders) whose container it can
read gets a ``Media`` row (title = the name without its extension, duration from the MP4
``mvhd`` box), a row whose file went away goes with its playlist entries. A file that is not
what its extension says (no ``ftyp`` box, a damaged header) is skipped, as the medialibrary's
parser drops a file it cannot open; only box headers are read, never the whole file, so a huge
file costs nothing. Long-press starts a selection; "Add to playlist" adds the selected videos, in
the list's order, to a playlist picked in the dialog or made there from a typed name.

Tapping a video plays it: the player shows the video's real frames (decoded from the file with
OpenCV, :mod:`cerebellum_gym.sim.video`; without OpenCV it says so where the picture would be),
the frame at the playback position fitted to the screen's width. The position moves with the
phone's clock while playing (each action and wait lets time pass) and stops at the end, on the
last frame; Pause/Play, and "Rewind 10 seconds"/"Forward 10 seconds" jump within the video, as
VLC's player controls do. The picture is pixels only: a video's words are in no accessibility
node, as on a device.
"""

from __future__ import annotations

import posixpath
import struct
from collections.abc import Callable, Hashable
from typing import ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.sim import render, video
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import add_to_playlist_dialog, field_key
from cerebellum_gym.sim.databases import DATA_ROOT, AppDatabase, Table, declare
from cerebellum_gym.sim.render import font, text_fit
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Dialog, IconButton, ListItem, Row, Text, Widget, wrap_lines

PACKAGE: Final = "org.videolan.vlc"
ROOT: Final = "/sdcard"
ORANGE: Final = (255, 136, 0)
#: The provider tables (and URIs) of the media library's tables.
MEDIA: Final = "vlc_media"
PLAYLISTS: Final = "vlc_playlists"
RELATIONS: Final = "vlc_playlist_media"
MEDIA_URI: Final = "content://org.videolan.vlc/media"
PLAYLISTS_URI: Final = "content://org.videolan.vlc/playlists"
RELATIONS_URI: Final = "content://org.videolan.vlc/playlist_media"
#: Extensions the media library files as video, and the container each must open as.
VIDEO_EXTENSIONS: Final = {".mp4": "mp4", ".m4v": "mp4", ".mov": "mp4", ".3gp": "mp4", ".mkv": "ebml", ".webm": "ebml", ".avi": "riff"}
TABS: Final = ("Video", "Audio", "Browse", "Playlists", "More")
_MAX_BOXES: Final = 256
#: How far the player's jump buttons move (VLC's default jump delay).
JUMP_MS: Final = 10_000

VLC_DB: Final = declare(
    AppDatabase(
        path=f"{DATA_ROOT}/{PACKAGE}/app_db/vlc_media.db",
        # VLC's medialibrary tables that AndroidWorld reads (their columns as medialibrary 0.13
        # creates them; the library's other tables are not simulated).
        schema=(
            "CREATE TABLE Media(id_media INTEGER PRIMARY KEY AUTOINCREMENT, type INTEGER, subtype INTEGER NOT NULL DEFAULT 0, "
            "duration INTEGER DEFAULT -1, last_position REAL DEFAULT -1, last_time INTEGER DEFAULT -1, "
            "play_count UNSIGNED INTEGER, last_played_date UNSIGNED INTEGER, insertion_date UNSIGNED INTEGER, "
            "release_date UNSIGNED INTEGER, title TEXT COLLATE NOCASE, filename TEXT COLLATE NOCASE, "
            "is_favorite INTEGER NOT NULL DEFAULT 0, is_present INTEGER NOT NULL DEFAULT 1, device_id INTEGER, "
            "nb_playlists UNSIGNED INTEGER NOT NULL DEFAULT 0, folder_id UNSIGNED INTEGER, "
            "import_type UNSIGNED INTEGER NOT NULL DEFAULT 0, group_id UNSIGNED INTEGER, "
            "forced_title INTEGER NOT NULL DEFAULT 0);\n"
            "CREATE TABLE Playlist(id_playlist INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT COLLATE NOCASE, "
            "file_id UNSIGNED INT DEFAULT NULL, creation_date UNSIGNED INT NOT NULL DEFAULT 0, artwork_mrl TEXT, "
            "nb_video UNSIGNED INT NOT NULL DEFAULT 0, nb_audio UNSIGNED INT NOT NULL DEFAULT 0, "
            "nb_unknown UNSIGNED INT NOT NULL DEFAULT 0, duration UNSIGNED INT NOT NULL DEFAULT 0, "
            "is_read_only INTEGER NOT NULL DEFAULT 0, is_favorite INTEGER NOT NULL DEFAULT 0);\n"
            "CREATE TABLE PlaylistMediaRelation(id_relation INTEGER PRIMARY KEY AUTOINCREMENT, media_id INTEGER, mrl TEXT, "
            "playlist_id INTEGER, position INTEGER);\n"
            "CREATE INDEX playlist_media_pl_id_index ON PlaylistMediaRelation(playlist_id, position);\n"
        ),
        tables=(
            Table("Media", MEDIA, defaults={"type": 1, "title": "", "filename": ""}),
            Table("Playlist", PLAYLISTS, defaults={"name": ""}),
            Table("PlaylistMediaRelation", RELATIONS),
        ),
    )
)


# --- the container probe ----------------------------------------------------------------------


def _mp4_duration_ms(data: bytes) -> int | None:
    """An ISO media file's duration from its ``moov``/``mvhd`` box (-1 when it has none), or
    ``None`` when ``data`` does not start as one (no ``ftyp`` box, a box that runs off the end)."""
    view = memoryview(data)

    def boxes(start: int, end: int) -> list[tuple[bytes, int, int]]:
        out: list[tuple[bytes, int, int]] = []
        at = start
        while at + 8 <= end and len(out) < _MAX_BOXES:
            size, kind = struct.unpack_from(">I4s", view, at)
            head = 8
            if size == 1:
                if at + 16 > end:
                    break
                (size,) = struct.unpack_from(">Q", view, at + 8)
                head = 16
            elif size == 0:
                size = end - at
            if size < head or at + size > end:
                return [*out, (b"!bad", at, end)]
            out.append((bytes(kind), at + head, at + size))
            at += size
        return out

    top = boxes(0, len(view))
    if not top or top[0][0] != b"ftyp" or top[-1][0] == b"!bad":  # not ISO media, or cut short
        return None
    for kind, start, end in top:
        if kind == b"moov":
            for inner, s, e in boxes(start, end):
                if inner == b"mvhd" and e - s >= 20:
                    version = view[s]
                    if version == 1 and e - s >= 32:
                        scale, duration = struct.unpack_from(">IQ", view, s + 20)
                    else:
                        scale, duration = struct.unpack_from(">II", view, s + 12)
                    return round(duration * 1000 / scale) if scale else -1
    return -1  # a fragmented or still-being-written file: a video of unknown length


def probe(name: str, data: bytes) -> int | None:
    """What the media library reads of a file: its duration in ms (-1 unknown), or ``None`` when
    it is no video it can open (it is then skipped)."""
    container = VIDEO_EXTENSIONS.get(posixpath.splitext(name)[1].lower())
    if container == "mp4":
        return _mp4_duration_ms(data)
    if container == "ebml":
        return -1 if data[:4] == b"\x1a\x45\xdf\xa3" else None
    if container == "riff":
        return -1 if data[:4] == b"RIFF" and data[8:12] == b"AVI " else None
    return None


def clock(ms: int) -> str:
    """A duration as VLC prints it (``1:05``, ``1:02:03``; ``--:--`` when unknown)."""
    if ms < 0:
        return "--:--"
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class VideoSurface(Widget):
    """The player's picture: frame ``index`` of the video ``source`` (``load()`` gives its bytes),
    fitted and centred on black; the reason in words when there is no picture."""

    class_name = "android.view.SurfaceView"
    default_height = 900
    background = (0, 0, 0)

    def __init__(self, source: Hashable, load: Callable[[], bytes], index: int, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.source, self.load, self.index = source, load, index

    def render_key(self) -> Hashable:
        return (self.source, self.index)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        picture = video.frame(self.source, self.load(), self.index, (width, height)) if video.available() else None
        if picture is not None:
            draw._image.paste(picture, ((width - picture.width) // 2, (height - picture.height) // 2))
            return
        message = "Can't play this video" if video.available() else video.NO_DECODER
        size = round(40 * scale)
        lines = wrap_lines(draw, message, size, width - round(120 * scale))
        top = (height - len(lines) * size * 1.3) / 2
        for i, line in enumerate(lines):
            shown = text_fit(draw, line, size, width)
            x = (width - draw.textlength(shown, font=font(size))) / 2
            draw.text((x, top + i * size * 1.3), shown, font=font(size), fill=(230, 230, 230))

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.source)


class VlcApp(App):
    package: ClassVar[str] = PACKAGE
    activity: ClassVar[str] = "org.videolan.vlc.gui.MainActivity"
    label: ClassVar[str] = "VLC"
    color: ClassVar[tuple[int, int, int]] = ORANGE
    clock_dependent: ClassVar[bool] = False

    # --- the media library -------------------------------------------------------------------

    def _table(self, name: str) -> list[dict[str, str]]:
        return self.phone.state.content.setdefault(name, [])

    def rescan(self) -> None:
        """Bring ``Media`` in step with the video files on storage (one row per file name)."""
        files = self.phone.state.files
        found: dict[str, int] = {}
        for path in sorted(files):
            if not path.startswith(ROOT + "/") or posixpath.splitext(path)[1].lower() not in VIDEO_EXTENSIONS:
                continue
            if any(part.startswith(".") for part in path[len(ROOT) + 1 :].split("/")[:-1]):
                continue
            name = posixpath.basename(path)
            if name in found:
                continue
            duration = probe(name, files[path])
            if duration is not None:
                found[name] = duration
        media = self._table(MEDIA)
        known = {row.get("filename", "") for row in media}
        gone = {row["_id"] for row in media if row.get("filename", "") not in found}
        if gone:
            media[:] = [row for row in media if row["_id"] not in gone]
            relations = self._table(RELATIONS)
            relations[:] = [row for row in relations if row.get("media_id") not in gone]
            self.phone.invalidate()
        now = str(int(self.phone.state.clock))
        for name, duration in found.items():
            if name not in known:
                title = posixpath.splitext(name)[0]
                values = {"type": "1", "duration": str(duration), "title": title, "filename": name, "insertion_date": now}
                self.phone.content_insert(MEDIA_URI, values)

    def videos(self) -> list[dict[str, str]]:
        """The video list, by title as the app sorts it by default (case folded)."""
        self.rescan()
        return sorted(self._table(MEDIA), key=lambda r: (r.get("title", "").casefold(), int(r["_id"])))

    def playlists(self) -> list[dict[str, str]]:
        return sorted(self._table(PLAYLISTS), key=lambda r: (r.get("name", "").casefold(), int(r["_id"])))

    def entries(self, playlist_id: str) -> list[dict[str, str]]:
        """A playlist's media rows, in position order."""
        media = {row["_id"]: row for row in self._table(MEDIA)}
        rows = [r for r in self._table(RELATIONS) if r.get("playlist_id") == playlist_id and r.get("media_id") in media]
        rows.sort(key=lambda r: int(r.get("position", "0") or 0))
        return [media[r["media_id"]] for r in rows]

    def add_to_playlist(self, playlist_id: str, media_ids: list[str]) -> None:
        """Append ``media_ids`` to the playlist, after its last entry (positions from 0)."""
        current = [r for r in self._table(RELATIONS) if r.get("playlist_id") == playlist_id]
        position = 1 + max((int(r.get("position", "0") or 0) for r in current), default=-1)
        for media_id in media_ids:
            self.phone.content_insert(RELATIONS_URI, {"media_id": media_id, "playlist_id": playlist_id, "position": str(position)})
            position += 1
        for row in self._table(PLAYLISTS):
            if row["_id"] == playlist_id:
                row["nb_video"] = str(len(current) + len(media_ids))
        self.phone.invalidate()

    def create_playlist(self, name: str) -> str:
        self.phone.content_insert(PLAYLISTS_URI, {"name": name, "creation_date": str(int(self.phone.state.clock))})
        return self._table(PLAYLISTS)[-1]["_id"]

    # --- screens -----------------------------------------------------------------------------

    def on_launch(self) -> None:
        super().on_launch()
        self.rescan()

    def _tabs(self, current: str) -> list[Widget]:
        def go(tab: str) -> None:
            self.reset_to("main", tab=tab, selected=[])

        items: list[Widget] = [
            Button(tab, filled=tab == current, on_tap=lambda t=tab: go(t), rid=f"{PACKAGE}:id/nav_{tab.lower()}") for tab in TABS
        ]
        return [Row(items, height=160)]

    def screen_main(self, route: Route) -> ScreenSpec:
        tab = route.get("tab", "Video")
        if tab == "Playlists":
            return self._playlists_tab(route)
        if tab != "Video":
            body: list[Widget] = [Text(f"No {tab.lower()} items", size=44, center=True, height=300, color=render.TEXT_SECONDARY)]
            return ScreenSpec(title=tab, body=body, bottom=self._tabs(tab))
        videos = self.videos()
        ids = [row["_id"] for row in videos]
        selected = [i for i in route.get("selected", []) if i in ids]
        route["selected"] = selected

        def toggle(media_id: str) -> None:
            chosen = route["selected"]
            if media_id in chosen:
                chosen.remove(media_id)
            else:
                chosen.append(media_id)

        def tap(media_id: str) -> None:
            if route["selected"]:
                toggle(media_id)
            else:
                self.push("player", media_id=media_id, playing=True)

        body = [
            ListItem(
                row.get("title", ""),
                clock(int(row.get("duration", "-1") or -1)),
                avatar=row.get("title", "")[:1].upper(),
                avatar_color=ORANGE,
                selected=row["_id"] in selected,
                on_tap=lambda i=row["_id"]: tap(i),
                on_long_press=lambda i=row["_id"]: toggle(i),
                rid=f"{PACKAGE}:id/ml_item",
            )
            for row in videos
        ]
        if not body:
            body = [Text("No videos found", size=44, center=True, height=300, color=render.TEXT_SECONDARY)]
        title = "Video"
        actions: list[Widget] = [IconButton("Search", "⌕")]
        if selected:
            title = f"{len(selected)} selected"
            in_order = [i for i in ids if i in selected]  # the list's order
            actions = [IconButton("Add to playlist", "+", on_tap=lambda: self._open_add(route, in_order))]
        return ScreenSpec(title=title, body=body, actions=actions, bottom=self._tabs("Video"), dialog=self._add_dialog(route))

    def _open_add(self, route: Route, media_ids: list[str]) -> None:
        self.set_dialog("add", adding=media_ids, new_name="")
        self.phone.focus(field_key(self, route, "new_name"))

    def _add_dialog(self, route: Route) -> Dialog | None:
        adding = list(route.get("adding", []))

        def add(playlist_id: str) -> None:
            self.add_to_playlist(playlist_id, adding)

        return add_to_playlist_dialog(
            self,
            route,
            lambda: [(p["_id"], p.get("name", ""), f"{len(self.entries(p['_id']))} videos") for p in self.playlists()],
            add,
            self.create_playlist,
            f"{PACKAGE}:id/dialog_playlist_name",
        )

    def _playlists_tab(self, route: Route) -> ScreenSpec:
        self.rescan()
        body: list[Widget] = [
            ListItem(
                p.get("name", ""),
                f"{len(self.entries(p['_id']))} videos",
                avatar=p.get("name", "")[:1].upper(),
                avatar_color=ORANGE,
                on_tap=lambda i=p["_id"]: self.push("playlist", playlist_id=i),
                rid=f"{PACKAGE}:id/ml_item",
            )
            for p in self.playlists()
        ]
        if not body:
            body = [Text("No playlists", size=44, center=True, height=300, color=render.TEXT_SECONDARY)]
        return ScreenSpec(title="Playlists", body=body, bottom=self._tabs("Playlists"))

    def screen_playlist(self, route: Route) -> ScreenSpec:
        self.rescan()
        found = [p for p in self._table(PLAYLISTS) if p["_id"] == route["playlist_id"]]
        if not found:
            self.pop()
            return self.build()
        body: list[Widget] = [
            ListItem(
                row.get("title", ""),
                clock(int(row.get("duration", "-1") or -1)),
                avatar=str(n + 1),
                avatar_color=ORANGE,
                on_tap=lambda i=row["_id"]: self.push("player", media_id=i, playing=True),
                rid=f"{PACKAGE}:id/ml_item",
            )
            for n, row in enumerate(self.entries(route["playlist_id"]))
        ]
        if not body:
            body = [Text("This playlist is empty", size=44, center=True, height=300, color=render.TEXT_SECONDARY)]
        return ScreenSpec(title=found[0].get("name", ""), up=self.pop, body=body)

    def _video_path(self, filename: str) -> str | None:
        """The file a ``Media`` row stands for (the first of that name, as the scan files it)."""
        for path in sorted(self.phone.state.files):
            if path.startswith(ROOT + "/") and posixpath.basename(path) == filename:
                return path
        return None

    def position_ms(self, route: Route, duration_ms: int) -> int:
        """Where playback is now: where it was at ``since``, plus the time since while playing,
        stopped at the end (the player then pauses)."""
        position = float(route.get("position_ms", 0))
        if route.get("playing"):
            position += (self.phone.state.clock - float(route.get("since", self.phone.state.clock))) * 1000
        if duration_ms > 0 and position >= duration_ms:
            route.update(playing=False, position_ms=duration_ms)
            return duration_ms
        return max(0, int(position))

    def shows_running_clock(self) -> bool:
        route = self.route
        return route["screen"] == "player" and bool(route.get("playing"))

    def screen_player(self, route: Route) -> ScreenSpec:
        rows = [r for r in self._table(MEDIA) if r["_id"] == route["media_id"]]
        path = self._video_path(rows[0].get("filename", "")) if rows else None
        if path is None:
            self.pop()
            return self.build()
        row = rows[0]
        route.setdefault("since", self.phone.state.clock)
        data = self.phone.state.files[path]
        source = (path, self.phone.file_mtime(path), len(data))
        found = video.info(source, data) if video.available() else None
        duration = found.duration_ms if found is not None else int(row.get("duration", "-1") or -1)
        position = self.position_ms(route, duration)
        playing = bool(route.get("playing"))

        def seek(to_ms: float, play: bool) -> None:
            end = duration if duration > 0 else to_ms
            route.update(position_ms=max(0, min(end, int(to_ms))), since=self.phone.state.clock, playing=play)

        def toggle() -> None:
            now = self.position_ms(route, duration)
            restart = not playing and duration > 0 and now >= duration  # Play at the end starts over
            seek(0 if restart else now, not playing)

        index = found.index_at(position) if found is not None else 0
        body: list[Widget] = [
            Text(row.get("title", ""), size=56, height=200, rid=f"{PACKAGE}:id/player_overlay_title"),
            VideoSurface(source, lambda: data, index, rid=f"{PACKAGE}:id/player_surface"),
            Text(f"{clock(position)} / {clock(duration)}", size=44, height=140, rid=f"{PACKAGE}:id/player_overlay_time"),
            Row(
                [
                    IconButton("Rewind 10 seconds", "‹", on_tap=lambda: seek(self.position_ms(route, duration) - JUMP_MS, playing)),
                    IconButton(
                        "Pause" if playing else "Play", "❚❚" if playing else "▶", on_tap=toggle, rid=f"{PACKAGE}:id/player_overlay_play"
                    ),
                    IconButton("Forward 10 seconds", "›", on_tap=lambda: seek(self.position_ms(route, duration) + JUMP_MS, playing)),
                ],
                height=168,
            ),
        ]
        return ScreenSpec(title=None, up=self.pop, body=body, background=(0, 0, 0))

    def back(self) -> bool:
        # Back ends a selection first, as the app's action mode does.
        if self.route["screen"] == "main" and self.route.get("selected") and not self.route.get("dialog"):
            self.route["selected"] = []
            return True
        return super().back()
