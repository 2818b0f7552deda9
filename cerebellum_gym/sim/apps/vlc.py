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

import functools
import posixpath
import struct
from collections.abc import Callable, Hashable, Sequence
from typing import ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render, video
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.databases import DATA_ROOT, AppDatabase, Table, declare
from cerebellum_gym.sim.material import Theme, dp
from cerebellum_gym.sim.material.components import ActionMenuItem, BottomNavigation, MaterialIconButton, NavItem, OverflowButton
from cerebellum_gym.sim.render import font, text_fit
from cerebellum_gym.sim.screen import ScreenSpec
from cerebellum_gym.sim.widgets import Button, Callback, Dialog, IconButton, ListItem, Row, Text, Widget, wrap_lines

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


#: VLC's light theme: orange (``@color/orange500`` #FF8800) on white.
THEME: Final = Theme(primary=ORANGE, on_primary=(255, 255, 255), on_surface=(33, 33, 33), on_surface_variant=(117, 117, 117))
#: The bottom navigation's menu item ids (``menu/bottom_navigation.xml``) and icons.
NAV_IDS: Final = ("nav_video", "nav_audio", "nav_directories", "nav_playlists", "nav_more")
NAV_ICONS: Final = ("movie", "music_note", "folder", "playlist_play", "more_horiz")
#: ``@string/nomedia``: the empty state of the media lists.
NOMEDIA: Final = "No media files found, please transfer some files to your device or adjust your preferences."


class HBox(Widget):
    """Children side by side: each at its width, a width of 0 taking what is left."""

    class_name = "android.view.ViewGroup"

    def __init__(self, items: list[tuple[Widget, int]], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.items = items
        self.background = THEME.surface

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), tuple(w for _, w in self.items))

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        fixed = sum(w for _, w in self.items)
        flex = max(0, right - left - fixed)
        out: list[tuple[Widget, Bounds]] = []
        x = left
        for widget, width in self.items:
            w = width or flex
            out.append((widget, (x, top, x + w, bottom)))
            x += w
        return out


class Column2(Widget):
    """Two widgets stacked in the middle of a bar (the action mode's title and subtitle)."""

    class_name = "android.widget.LinearLayout"
    opaque = False

    def __init__(self, first: Widget, second: Widget) -> None:
        super().__init__()
        self.first, self.second = first, second

    def render_key(self) -> Hashable:
        return ()

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        h = self.first.height + self.second.height
        y = top + max(0, (bottom - top - h) // 2)
        return [(self.first, (left, y, right, y + self.first.height)), (self.second, (left, y + self.first.height, right, y + h))]


class ImageLike(Widget):
    """An ``ImageView`` drawn as a Material icon (or VLC's cone)."""

    class_name = "android.widget.ImageView"

    def __init__(self, *, glyph: str, color: render.RGB = ORANGE, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.glyph, self.color = glyph, color
        self.background = THEME.surface

    def render_key(self) -> Hashable:
        return (self.glyph, self.color, self.background)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(24) * scale)
        cx, cy = width / 2, height / 2
        if self.glyph == "cone":  # the traffic cone
            draw.polygon([(cx - size * 0.45, cy + size * 0.5), (cx + size * 0.45, cy + size * 0.5), (cx, cy - size * 0.55)], fill=ORANGE)
            draw.line(
                (cx - size * 0.3, cy + size * 0.1, cx + size * 0.3, cy + size * 0.1), fill=(255, 255, 255), width=max(1, round(3 * scale))
            )
            return
        render.draw_icon(draw, self.glyph, (cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2), self.color)


class MenuEntry(Widget):
    """A popup menu's entry (its ``title`` TextView)."""

    class_name = "android.widget.TextView"
    default_height = dp(48)

    def __init__(self, text: str, **kwargs: object) -> None:
        super().__init__(text=text, **kwargs)  # type: ignore[arg-type]

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(16) * scale)
        draw.text((round(dp(16) * scale), height / 2), self.text, font=font(size), fill=THEME.on_surface, anchor="lm")


class EmptyState(Text):
    """``EmptyLoadingStateView`` when a list is empty: its ``emptyTextView``."""

    def __init__(self, text: str) -> None:
        super().__init__(text, size=42, center=True, height=400, color=THEME.on_surface_variant, rid=f"{PACKAGE}:id/emptyTextView")


class Grid(Widget):
    """A row of the two-column card grid (``AutoFitRecyclerView``)."""

    class_name = "android.widget.LinearLayout"
    opaque = False

    def __init__(self, cards: Sequence[Widget]) -> None:
        super().__init__(height=max(c.height for c in cards))
        self.cards = list(cards)

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), len(self.cards))

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.class_name = "android.widget.FrameLayout"
        return node

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, _bottom = bounds
        half = (right - left) // 2
        return [(c, (left + i * half, top, left + (i + 1) * half, top + c.height)) for i, c in enumerate(self.cards)]


class VideoCard(Widget):
    """``video_grid_card``: a touchable card (``container``, tap plays, long press selects) with
    the thumbnail and More Actions, the title and the length below it."""

    class_name = "android.view.ViewGroup"
    default_height = dp(168)

    def __init__(self, title: str, time: str, *, selected: bool, in_selection: bool, on_tap: Callback, on_long_press: Callback) -> None:
        super().__init__(on_tap=on_tap, on_long_press=on_long_press)
        self.title, self.time, self.chosen, self.in_selection = title, time, selected, in_selection
        self.background = THEME.surface

    def render_key(self) -> Hashable:
        return (self.title, self.time, self.chosen, self.in_selection)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title, self.time, self.chosen, self.in_selection)

    def _thumb(self, width: int, scale: float) -> tuple[int, int, int, int]:
        m = round(dp(8) * scale)
        w = width - 2 * m
        return (m, m, m + w, m + round(w * 9 / 16))

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        x0, y0, x1, y1 = self._thumb(width, scale)
        draw.rounded_rectangle((x0, y0, x1, y1), radius=round(dp(4) * scale), fill=(60, 60, 60))
        icon = round(dp(24) * scale)
        if self.chosen:
            draw.rounded_rectangle((x0, y0, x1, y1), radius=round(dp(4) * scale), fill=(255, 180, 100))
            render.draw_icon(
                draw, "check_circle", ((x0 + x1 - icon) / 2, (y0 + y1 - icon) / 2, (x0 + x1 + icon) / 2, (y0 + y1 + icon) / 2), ORANGE
            )
        elif not self.in_selection:
            render.draw_icon(draw, "more_vert", (x1 - icon - 4, y0 + 4, x1 - 4, y0 + 4 + icon), (255, 255, 255))
        size = round(dp(16) * scale)
        draw.text((x0, y1 + round(dp(4) * scale)), text_fit(draw, self.title, size, x1 - x0), font=font(size), fill=THEME.on_surface)
        small = round(dp(12) * scale)
        draw.text((x0, y1 + round(dp(26) * scale)), self.time, font=font(small), fill=THEME.on_surface_variant)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, _bottom = bounds
        x0, y0, x1, y1 = self._thumb(right - left, 1.0)
        x0, x1, y0, y1 = left + x0, left + x1, top + y0, top + y1
        card = UINode(
            "android.widget.FrameLayout",
            (x0, y0, x1, y1),
            resource_id=f"{package}:id/container",
            package=package,
            clickable=True,
            long_clickable=True,
            focusable=True,
            selected=self.chosen,
        )
        inner = [UINode("android.widget.ImageView", (x0, y0, x1, y1), resource_id=f"{package}:id/ml_item_thumbnail", package=package)]
        if self.chosen:
            inner.append(UINode("android.widget.ImageView", (x0, y0, x1, y1), resource_id=f"{package}:id/selected_check", package=package))
        elif not self.in_selection:
            inner.append(
                UINode(
                    "android.widget.ImageView",
                    (x1 - 126, y0, x1, y0 + 126),
                    resource_id=f"{package}:id/item_more",
                    content_desc="More Actions",
                    package=package,
                    clickable=True,
                    focusable=True,
                )
            )
        for i, child in enumerate(inner):
            child.index = i
        card.children = inner
        texts = [
            UINode(
                "android.widget.TextView",
                (x0, y1, x1, y1 + 60),
                text=self.title,
                resource_id=f"{package}:id/ml_item_title",
                package=package,
            ),
        ]
        if self.time:
            texts.append(
                UINode(
                    "android.widget.TextView",
                    (x0, y1 + 60, x1, y1 + 100),
                    text=self.time,
                    resource_id=f"{package}:id/ml_item_time",
                    package=package,
                )
            )
        node.children = [card, *texts]
        for i, child in enumerate(node.children):
            child.index = i
        return node


class PlaylistCard(Widget):
    """``audio_browser_card_item`` for a playlist: the touchable ``container`` with the cover and
    Play all, the title, "N media" and More Actions."""

    class_name = "android.view.ViewGroup"
    default_height = dp(236)

    def __init__(self, title: str, subtitle: str, *, on_tap: Callback) -> None:
        super().__init__(on_tap=on_tap, on_long_press=lambda: None, rid=f"{PACKAGE}:id/container")
        self.title, self.subtitle = title, subtitle
        self.background = THEME.surface

    def render_key(self) -> Hashable:
        return (self.title, self.subtitle)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title, self.subtitle)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        m = round(dp(8) * scale)
        side = width - 2 * m
        draw.rounded_rectangle((m, m, m + side, m + round(side * 0.75)), radius=round(dp(4) * scale), fill=(235, 235, 235))
        icon = round(dp(48) * scale)
        cx, cy = width / 2, m + side * 0.375
        render.draw_icon(draw, "playlist_play", (cx - icon / 2, cy - icon / 2, cx + icon / 2, cy + icon / 2), ORANGE)
        y = m + round(side * 0.75) + round(dp(4) * scale)
        size = round(dp(16) * scale)
        draw.text((m, y), text_fit(draw, self.title, size, side - round(dp(24) * scale)), font=font(size, "medium"), fill=THEME.on_surface)
        draw.text((m, y + round(dp(22) * scale)), self.subtitle, font=font(round(dp(12) * scale)), fill=THEME.on_surface_variant)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, _bottom = bounds
        m = dp(8)
        side = right - left - 2 * m
        cover = (left + m, top + m, right - m, top + m + side * 3 // 4)
        y = cover[3]
        node.children = [
            UINode(
                "android.widget.FrameLayout",
                cover,
                resource_id=f"{package}:id/media_cover_container",
                package=package,
                children=[
                    UINode("android.widget.ImageView", cover, resource_id=f"{package}:id/media_cover", package=package, index=0),
                    UINode(
                        "android.widget.ImageView",
                        (cover[2] - 147, cover[3] - 147, cover[2], cover[3]),
                        resource_id=f"{package}:id/mainActionButton",
                        content_desc="Play all",
                        package=package,
                        clickable=True,
                        focusable=True,
                        index=1,
                    ),
                ],
            ),
            UINode(
                "android.widget.TextView",
                (left + m, y, right - 120, y + 60),
                text=self.title,
                resource_id=f"{package}:id/title",
                package=package,
            ),
            UINode(
                "android.widget.TextView",
                (left + m, y + 60, right - 120, y + 100),
                text=self.subtitle,
                resource_id=f"{package}:id/subtitle",
                package=package,
            ),
            UINode(
                "android.widget.ImageView",
                (right - 120, y, right - m, y + 100),
                resource_id=f"{package}:id/item_more",
                content_desc="More Actions",
                package=package,
                clickable=True,
                focusable=True,
            ),
        ]
        for i, child in enumerate(node.children):
            child.index = i
        return node


class InputLayout(Widget):
    """A ``TextInputLayout`` (its id) around its ``EditText``, with the error below when set."""

    class_name = "android.widget.LinearLayout"
    opaque = False

    def __init__(self, field: Widget, error: str, *, rid: str) -> None:
        super().__init__(rid=rid, height=field.height + (dp(24) if error else 0))
        self.field, self.error = field, error
        self.error_text = Text(error, size=34, color=(211, 47, 47), rid=f"{PACKAGE}:id/textinput_error", height=dp(24))

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.field.height, self.error)

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        out: list[tuple[Widget, Bounds]] = [(self.field, (left, top, right, top + self.field.height))]
        if self.error:
            out.append((self.error_text, (left, top + self.field.height, right, bottom)))
        return out


class PlaylistRow(Widget):
    """``simple_item``: a playlist in the dialog, a touchable row with its title and "N media"."""

    class_name = "android.view.ViewGroup"
    default_height = dp(56)

    def __init__(self, title: str, subtitle: str, *, on_tap: Callback) -> None:
        super().__init__(on_tap=on_tap)
        self.title, self.subtitle = title, subtitle
        self.background = THEME.surface

    def render_key(self) -> Hashable:
        return (self.title, self.subtitle)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title, self.subtitle)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        icon = round(dp(24) * scale)
        x = round(dp(16) * scale)
        render.draw_icon(draw, "playlist_play", (x, (height - icon) / 2, x + icon, (height + icon) / 2), THEME.on_surface_variant)
        tx = x + icon + round(dp(16) * scale)
        draw.text(
            (tx, height * 0.35),
            text_fit(draw, self.title, round(dp(16) * scale), width - tx),
            font=font(round(dp(16) * scale)),
            fill=THEME.on_surface,
            anchor="lm",
        )
        draw.text((tx, height * 0.72), self.subtitle, font=font(round(dp(12) * scale)), fill=THEME.on_surface_variant, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        mid = (top + bottom) // 2
        node.children = [
            UINode(
                "android.widget.ImageView",
                (left + 42, mid - 32, left + 105, mid + 32),
                resource_id=f"{package}:id/imageView8",
                package=package,
                index=0,
            ),
            UINode(
                "android.widget.TextView",
                (left + 147, top, right, mid),
                text=self.title,
                resource_id=f"{package}:id/textView16",
                package=package,
                index=1,
            ),
            UINode(
                "android.widget.TextView",
                (left + 147, mid, right, bottom),
                text=self.subtitle,
                resource_id=f"{package}:id/subtitle",
                package=package,
                index=2,
            ),
        ]
        return node


@register_app
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

    # --- the main screen: toolbar, tabs, video grid, playlists ------------------------------------

    def _nav(self, current: str) -> BottomNavigation:
        """The ``BottomNavigationView`` (``navigation``): Video, Audio, Browse, Playlists, More,
        each item a ``FrameLayout`` with the menu item's id and its title as description."""

        def go(tab: str) -> None:
            self.reset_to("main", tab=tab, selected=[])

        items = [NavItem(tab, icon, functools.partial(go, tab)) for tab, icon in zip(TABS, NAV_ICONS, strict=True)]
        nav = BottomNavigation(items, TABS.index(current), theme=THEME, rid=f"{PACKAGE}:id/navigation")
        for button, item_id in zip(nav.items, NAV_IDS, strict=True):
            button.rid = f"{PACKAGE}:id/{item_id}"
        return nav

    def _toolbar(self, actions: list[Widget]) -> Widget:
        """``main_toolbar`` as the main screen shows it: the cone and "VLC", then the menu."""
        return HBox(
            [
                (ImageLike(rid=f"{PACKAGE}:id/toolbar_icon", glyph="cone"), dp(40)),
                (Text("VLC", size=56, bold=True, color=ORANGE, rid=f"{PACKAGE}:id/toolbar_vlc_title", background=THEME.surface), 0),
                *((a, dp(48)) for a in actions),
            ],
            rid=f"{PACKAGE}:id/main_toolbar",
            height=dp(56),
        )

    def _selection_bar(self, count: int, length_ms: int) -> Widget:
        """The action mode's bar: Done, "N selected" over the selection's length, then Information
        (one item), Play and More options (the rest of ``action_mode_video``, in its overflow)."""
        close = MaterialIconButton("Done", "close", theme=THEME, on_tap=self._end_selection, rid=f"{PACKAGE}:id/action_mode_close_button")
        close.class_name = "android.widget.ImageView"  # type: ignore[misc]
        actions: list[Widget] = []
        if count == 1:
            actions.append(ActionMenuItem("Information", "info", theme=THEME, on_tap=lambda: None, rid=f"{PACKAGE}:id/action_video_info"))
        actions.append(
            ActionMenuItem("Play", "play_arrow", theme=THEME, on_tap=self._play_selection, rid=f"{PACKAGE}:id/action_video_play")
        )
        if count > 1:
            actions.append(ActionMenuItem("Share", "share", theme=THEME, on_tap=lambda: None, rid=f"{PACKAGE}:id/action_video_share"))
        actions.append(OverflowButton(on_tap=lambda: self.set_dialog("selection_menu"), theme=THEME))
        titles = Column2(
            Text(f"{count} selected", size=50, bold=True, rid=f"{PACKAGE}:id/action_bar_title", background=THEME.surface, height=dp(30)),
            Text(
                clock(length_ms),
                size=36,
                color=THEME.on_surface_variant,
                rid=f"{PACKAGE}:id/action_bar_subtitle",
                background=THEME.surface,
                height=dp(26),
            ),
        )
        return HBox([(close, dp(56)), (titles, 0), *((a, dp(48)) for a in actions)], rid=f"{PACKAGE}:id/action_mode_bar", height=dp(56))

    def _end_selection(self) -> None:
        self.route["selected"] = []

    def _play_selection(self) -> None:
        chosen = list(self.route.get("selected", []))
        self.route["selected"] = []
        if chosen:
            self.push("player", media_id=chosen[0], playing=True)

    def _selection_menu(self, route: Route, count: int) -> Dialog:
        """The action mode's overflow: the ``action_mode_video`` items that did not fit."""
        items = ["Play as audio", "Add to playlist", "Delete", "Download subtitles"]
        if count == 1:
            items = ["Share", *items, "Go to folder"]

        def choose(item: str) -> None:
            if item == "Add to playlist":
                ids = [row["_id"] for row in self.videos()]
                self._open_add(route, [i for i in ids if i in route.get("selected", [])])
            else:
                self.set_dialog(None)

        return Dialog("", [], body=[MenuEntry(i, rid=f"{PACKAGE}:id/title", on_tap=functools.partial(choose, i)) for i in items])

    def screen_main(self, route: Route) -> ScreenSpec:
        tab = route.get("tab", "Video")
        if tab == "Playlists":
            return self._playlists_tab(route)
        menu: list[Widget] = [
            ActionMenuItem("Search…", "search", theme=THEME, on_tap=lambda: None, rid=f"{PACKAGE}:id/ml_menu_filter"),
            OverflowButton(on_tap=lambda: None, theme=THEME),
        ]
        if tab != "Video":
            body: list[Widget] = [EmptyState(NOMEDIA)]
            return ScreenSpec(title=None, app_bar=self._toolbar(menu), body=body, bottom=[self._nav(tab)], background=THEME.surface)
        videos = self.videos()
        ids = [row["_id"] for row in videos]
        selected = [i for i in route.get("selected", []) if i in ids]
        route["selected"] = selected

        def toggle(media_id: str) -> None:
            chosen = self.route["selected"]
            if media_id in chosen:
                chosen.remove(media_id)
            else:
                chosen.append(media_id)

        def tap(media_id: str) -> None:
            if self.route["selected"]:
                toggle(media_id)
            else:
                self.push("player", media_id=media_id, playing=True)

        cards = [
            VideoCard(
                row.get("title", ""),
                clock(int(row.get("duration", "-1") or -1)),
                selected=row["_id"] in selected,
                in_selection=bool(selected),
                on_tap=functools.partial(tap, row["_id"]),
                on_long_press=functools.partial(toggle, row["_id"]),
            )
            for row in videos
        ]
        body = [Grid(cards[i : i + 2]) for i in range(0, len(cards), 2)]
        if not body:
            body = [EmptyState(NOMEDIA)]
        menu.insert(
            1, ActionMenuItem("Display in list", "view_list", theme=THEME, on_tap=lambda: None, rid=f"{PACKAGE}:id/ml_menu_display_list")
        )
        bar = self._toolbar(menu)
        if selected:
            length = sum(max(0, int(r.get("duration", "0") or 0)) for r in videos if r["_id"] in selected)
            bar = self._selection_bar(len(selected), length)
        dialog = self._add_dialog(route)
        if route.get("dialog") == "selection_menu" and selected:
            dialog = self._selection_menu(route, len(selected))
        return ScreenSpec(
            title=None,
            app_bar=bar,
            body=body,
            bottom=[self._nav("Video")],
            dialog=dialog,
            background=THEME.surface,
            list_id="video_grid",
        )

    def _open_add(self, route: Route, media_ids: list[str]) -> None:
        self.set_dialog("add", adding=media_ids, new_name="", name_error="")
        self.phone.focus(None)

    def _add_dialog(self, route: Route) -> Dialog | None:
        """``SavePlaylistDialog``: "Add to new playlist" with the name field, "Add to existing
        playlist" with the playlists (a tap adds there), and the Add button, which makes a new
        playlist of the typed name (a name in use is refused with an error, as the app does)."""
        if route.get("dialog") != "add":
            return None
        adding = list(route.get("adding", []))
        files = f"{len(adding)} media"

        def done() -> None:
            route["selected"] = []
            self.set_dialog(None)
            self.phone.focus(None)

        def add_to(playlist_id: str) -> None:
            self.add_to_playlist(playlist_id, adding)
            done()

        def add_new() -> None:
            name = str(route.get("new_name", "")).strip()
            if any(p.get("name", "") == name for p in self.playlists()):
                route["name_error"] = f"Playlist {name} already exists"
                return
            done()
            if name:
                self.add_to_playlist(self.create_playlist(name), adding)

        field = edit_field(self, route, "new_name", hint="Playlist name")
        field.rid = ""
        body: list[Widget] = [
            Text("Add to new playlist", size=44, bold=True, rid=f"{PACKAGE}:id/textView9", height=dp(40)),
            Text(files, size=32, color=THEME.on_surface_variant, rid=f"{PACKAGE}:id/medias2", height=dp(24)),
            InputLayout(field, str(route.get("name_error", "")), rid=f"{PACKAGE}:id/dialog_playlist_name"),
            Text("Add to existing playlist", size=44, bold=True, rid=f"{PACKAGE}:id/textView8", height=dp(40)),
            Text(files, size=32, color=THEME.on_surface_variant, rid=f"{PACKAGE}:id/medias", height=dp(24)),
        ]
        playlists = self.playlists()
        if playlists:
            body += [
                PlaylistRow(p.get("name", ""), f"{len(self.entries(p['_id']))} media", on_tap=functools.partial(add_to, p["_id"]))
                for p in playlists
            ]
        else:
            body.append(Text("No playlist found.", size=40, color=THEME.on_surface_variant, rid="android:id/empty", height=dp(40)))
        body.append(Button("Add", filled=True, rid=f"{PACKAGE}:id/dialog_playlist_save", on_tap=add_new))
        return Dialog("", [], body=body)

    def _playlists_tab(self, route: Route) -> ScreenSpec:
        """The Playlists tab (``PlaylistFragment``): the playlists as cards (cover, Play all,
        title, "N media", More Actions), or the empty state."""
        self.rescan()
        cards = [
            PlaylistCard(
                p.get("name", ""),
                f"{len(self.entries(p['_id']))} media",
                on_tap=functools.partial(self.push, "playlist", playlist_id=p["_id"]),
            )
            for p in self.playlists()
        ]
        body: list[Widget] = [Grid(cards[i : i + 2]) for i in range(0, len(cards), 2)]
        if not body:
            body = [EmptyState(NOMEDIA)]
        menu: list[Widget] = [
            ActionMenuItem("Search…", "search", theme=THEME, on_tap=lambda: None, rid=f"{PACKAGE}:id/ml_menu_filter"),
            OverflowButton(on_tap=lambda: None, theme=THEME),
        ]
        return ScreenSpec(
            title=None,
            app_bar=self._toolbar(menu),
            body=body,
            bottom=[self._nav("Playlists")],
            background=THEME.surface,
            list_id="playlist_list",
        )

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
