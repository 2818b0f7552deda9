"""Retro Music tasks: playlists and the playing queue made from the songs AndroidWorld pushes to
``Music``, judged on the app's ``playlist.db`` / ``music_playback_state.db`` (read through its
content URIs) as AndroidWorld's ``verify_playlist`` and queue judges read them.

The songs are small MP3 files: an ID3v2.4 tag (title, artist) and one MPEG-2.5 Layer III frame
whose Info header gives the frame count of the length AndroidWorld draws. AndroidWorld's own
set-up writes real ones with pydub (ffmpeg), which the simulator's scanner reads the same way.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.common import fuzzy_match
from cerebellum_gym.tasks.oracle import ScriptedOracle, find, label_for
from cerebellum_gym.tasks.registry import register_task

RETRO_PACKAGE = "code.name.monkey.retromusic"
MUSIC = "/sdcard/Music"
DOWNLOAD = "/sdcard/Download"
PLAYLISTS_URI = "content://code.name.monkey.retromusic/playlists"
SONGS_URI = "content://code.name.monkey.retromusic/playlist_songs"
QUEUE_URI = "content://code.name.monkey.retromusic/playing_queue"
_SAMPLE_RATE = 11025
_FRAME_SAMPLES = 576
#: ``retro_music._SONGS``.
SONGS = (
    "My Heart is Yours", "Endless Summer", "Whispering Wind", "Lost in the Echo", "Chasing Shadows", "Night Drive",
    "Echoes of Silence", "Bright Lights", "Moments", "Forever Young", "Rising Sun", "Silent Dreams", "City of Stars",
    "Moonlight Sonata", "Through the Storm", "Return to Paradise", "Voices in the Hall", "Under the Sky", "Dreamer's Awake",
    "Serenity Now", "Falling Feathers", "Orbiting Stars", "Reflections", "Beyond the Horizon", "Golden Days",
    "Twilight Calling", "Heartbeat Away", "Mystic Journey", "Hidden Paths", "Distant Memories", "Path to Zenith",
    "Eternal Flame", "Shadows of Time", "Whispers of the Past", "Waves of Change",
)  # fmt: skip
#: ``retro_music._generate_playlist_name``'s themes.
THEMES = (
    "Chill Beats", "Morning Vibes", "Workout Energy", "Study Sessions", "Golden Oldies", "Indie Gems", "Rock Anthems",
    "Electronic Waves", "Jazz Classics", "Hip Hop Hits", "Country Roads", "Classical Moods", "Pop Essentials",
    "Latin Grooves", "Reggae Rhythms", "Soulful Sounds", "Blues Vibes", "Metal Mayhem", "Party Mix", "Tranquil Tunes",
    "R&B Favorites", "Folk Inspirations", "Disco Nights", "Global Beats", "Sleepytime Songs", "Acoustic Sessions",
    "Vintage Vinyl", "Instrumental Study", "Coffeehouse Jazz", "Rainy Day Relax", "Gym Pump Up", "Retro Pop Hits",
    "Indie Rock Roadtrip", "Electronic Chillout", "Classical Concentration", "Jazz Lounge", "Hip Hop Bangers",
    "Country Classics", "Classical Opera Highlights", "Pop Punk Power", "Latin Dance Party", "Reggae Sunsplash",
    "Soul Classics", "Blues Break", "Party Starters", "Tranquil Ambient", "R&B Grooves", "Folk Favourites", "Disco Fever",
    "World Music Tour",
)  # fmt: skip
_MIN_MS, _MAX_MS = 45 * 60 * 1000, 50 * 60 * 1000


def _syncsafe(n: int) -> bytes:
    return bytes(((n >> shift) & 0x7F) for shift in (21, 14, 7, 0))


def mp3(title: str, artist: str, milliseconds: int) -> bytes:
    """A minimal MP3 of ``milliseconds``: an ID3v2.4 tag with ``TIT2``/``TPE1`` (UTF-8), then one
    silent MPEG-2.5 Layer III mono frame (16 kbit/s, 11025 Hz) with an Info header giving the
    frame count, as ffmpeg's encoder writes it."""
    frames_body = b""
    for frame_id, text in ((b"TPE1", artist), (b"TIT2", title)):
        body = b"\x03" + text.encode() + b"\x00"
        frames_body += frame_id + _syncsafe(len(body)) + b"\x00\x00" + body
    tag = b"ID3\x04\x00\x00" + _syncsafe(len(frames_body)) + frames_body
    frames = -(-milliseconds * _SAMPLE_RATE // (1000 * _FRAME_SAMPLES))  # rounded up, as an encoder pads
    header = bytes((0xFF, 0xE3, 0x20, 0xC4))  # MPEG-2.5, Layer III, 16 kbit/s, 11025 Hz, mono
    info = b"Info" + (1).to_bytes(4, "big") + frames.to_bytes(4, "big")
    frame_len = 72 * 16000 // _SAMPLE_RATE  # 104 bytes
    frame = header + bytes(9) + info
    return tag + frame + bytes(frame_len - len(frame))


def playlist_name(rng: np.random.Generator) -> str:
    """``retro_music._generate_playlist_name``: a theme and a number from 1 to 999."""
    return f"{awdata.pick(rng, THEMES)} {int(rng.integers(1, 1000))}"


def list_with_sum(rng: np.random.Generator, total: int, count: int) -> list[int]:
    """``retro_music._generate_list_with_sum``: ``count`` non-negative integers summing to ``total``."""
    cuts = sorted(int(rng.integers(0, total + 1)) for _ in range(count - 1))
    bounds = [0, *cuts, total]
    return [bounds[i + 1] - bounds[i] for i in range(count)]


def song_params(rng: np.random.Generator, low: int, high: int) -> dict[str, Any]:
    """``RetroCreatePlaylist.generate_random_params`` (``low``..``high`` files of 15 distinct
    songs, the rest noise), with the artist and length set-up draws for each file."""
    chosen = [SONGS[i] for i in rng.choice(len(SONGS), size=15, replace=False)]
    count = int(rng.integers(low, high + 1))
    names = [f"{name}.mp3" for name in chosen]
    artists = [awdata.pick(rng, awdata.GIVEN_NAMES) for _ in names]
    durations = [int(rng.integers(3 * 60 * 1000, 5 * 60 * 1000 + 1)) for _ in names]
    return {
        "playlist_name": playlist_name(rng),
        "files": names[:count],
        "noise_files": names[count:],
        "artists": artists,
        "durations": durations,
    }


def title(name: str) -> str:
    """AndroidWorld's ``f.split('.')[0]``."""
    return name.split(".", maxsplit=1)[0]


def playlist_rows(device: Device) -> list[tuple[str, str, int, int]]:
    """AndroidWorld's join: (playlist name, song title, duration ms, 0-based order by song key)
    of every song entry whose playlist exists, by playlist name then order."""
    names = {r["_id"]: r.get("playlist_name", "") for r in device.content_query(PLAYLISTS_URI)}
    songs = [r for r in device.content_query(SONGS_URI) if r.get("playlist_creator_id", "") in names]
    songs.sort(key=lambda r: int(r["_id"]))
    seen: dict[str, int] = {}
    out = []
    for row in songs:
        name = names[row["playlist_creator_id"]]
        order = seen.get(name, 0)
        seen[name] = order + 1
        duration = row.get("duration", "0")
        out.append((name, row.get("title", ""), int(duration) if duration.lstrip("-").isdigit() else 0, order))
    return sorted(out, key=lambda r: (r[0], r[3]))


def playlist_matches(rows: list[tuple[str, str, int, int]], name: str, titles: list[str]) -> bool:
    """``sqlite_validators.verify_playlist``: exactly ``len(titles)`` entries in playlists whose
    name fuzzy-matches ``name``, and each title at its 0-based place there."""
    mine = [r for r in rows if fuzzy_match(r[0], name)]
    if len(mine) != len(titles):
        return False
    return all(any(fuzzy_match(r[1], t) and r[3] == i for r in mine) for i, t in enumerate(titles))


def reset_retro(device: Device, songs: list[tuple[str, str, int]]) -> None:
    """AndroidWorld's set-up: ``Music`` emptied, the playlist tables (and the queue) cleared, then
    ``songs`` (file name, artist, ms) pushed."""
    for name in device.list_dir(MUSIC):
        device.remove_path(f"{MUSIC}/{name}")
    for uri in (PLAYLISTS_URI, SONGS_URI, QUEUE_URI):
        device.content_delete(uri)
    device.make_dir(MUSIC)
    for name, artist, ms in songs:
        device.write_file(f"{MUSIC}/{name}", mp3(title(name), artist, ms))


class SongsOracle(ScriptedOracle):
    """Pick the songs in order in the Songs list (long-press the first, tap the others), then
    "Add to playing queue", or "Add to playlist" and the playlist (typed and created when new);
    then, for an export, open the playlist and Save as file."""

    def __init__(self, titles: list[str], playlist: str | None, export: bool = False) -> None:
        super().__init__()
        self.titles, self.playlist, self.export = list(titles), playlist, export
        self.picked = 0
        self.added = False
        self.saved = False

    def act(self, screen: LabelledScreen) -> str:
        if self.added and (not self.export or self.saved):
            return "F"
        step = self.open_app(screen, RETRO_PACKAGE, "Retro Music")
        if step is not None:
            return step
        if self.added:
            return self._export(screen)
        if screen.root.find(resource_id="android:id/alertTitle", text="Add to playlist") is not None:
            existing = find(screen, lambda n: n.resource_id == "android:id/text1" and n.text == self.playlist)
            if existing is not None:
                self.added = True
                return self.tap(existing[0])
            return self.tap(label_for(screen, text="New playlist") or "")
        if screen.root.find(resource_id="android:id/alertTitle", text="New playlist") is not None:
            field = find(screen, lambda n: n.resource_id.endswith(":id/actionNewPlaylist"))
            if field is not None and field[1].text != self.playlist:
                return self.type_into(screen, field[1], field[0], self.playlist or "")
            self.added = True
            return self.tap(label_for(screen, text="Create") or "")
        if self.picked >= len(self.titles):
            action = label_for(screen, desc="Add to playing queue" if self.playlist is None else "Add to playlist")
            if action is None:
                return "B"
            self.added = self.playlist is None
            return self.tap(action)
        songs_tab = label_for(screen, rid=":id/action_song")
        if songs_tab is None:
            return "B"
        shown = [n.text for n in screen.root.iter() if n.resource_id.endswith(":id/title")]
        on_songs = any(n.resource_id.endswith(":id/action_song") and n.selected for n in screen.root.iter())
        if not on_songs:
            return self.tap(songs_tab)
        target = self.titles[self.picked]
        hit = find(screen, lambda n: n.resource_id.endswith(":id/title") and n.text == target)
        if hit is not None:
            self._moved()
            self.picked += 1
            return f"P {hit[0]}" if self.picked == 1 else self.tap(hit[0])
        # The list is sorted by title: scroll toward the target.
        folded = [t.casefold() for t in shown]
        if folded and screen.scrollable is not None:
            if target.casefold() < min(folded):
                return "U"
            if target.casefold() > max(folded):
                return "D"
        return self.scroll_search(screen)

    def _export(self, screen: LabelledScreen) -> str:
        save = label_for(screen, text="Save as file")
        if save is not None:
            self.saved = True
            return self.tap(save)
        if screen.root.find(resource_id=f"{RETRO_PACKAGE}:id/subtitle") is not None:  # the playlist's page
            return self.tap(label_for(screen, desc="More options") or "")
        hit = find(screen, lambda n: n.resource_id.endswith(":id/title") and n.text == self.playlist)
        if hit is not None:
            return self.tap(hit[0])
        tab = label_for(screen, rid=":id/action_playlist")
        return self.tap(tab) if tab is not None else "B"


class _RetroTask(Task):
    app: ClassVar[str] = "Retro Music"
    family: ClassVar[str] = "music"
    low: ClassVar[int] = 2
    high: ClassVar[int] = 5

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return song_params(rng, cls.low, cls.high)

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        count = len(params["files"]) + len(params["noise_files"])
        return {**params, "artists": ["test_artist"] * count, "durations": [4 * 60 * 1000] * count}

    @property
    def titles(self) -> list[str]:
        return [title(f) for f in self.params["files"]]

    def text_candidates(self) -> list[str]:
        return [self.params["playlist_name"]]

    def songs(self) -> list[tuple[str, str, int]]:
        p = self.params
        names = [*p["files"], *p["noise_files"]]
        return list(zip(names, p["artists"], p["durations"], strict=True))

    def initialize(self, device: Device) -> None:
        reset_retro(device, self.songs())


@register_task
class RetroCreatePlaylist(_RetroTask):
    mirrors = "RetroCreatePlaylist"
    complexity: ClassVar[float] = 2.4
    template = 'Create a playlist in Retro Music titled "{playlist_name}" with the following songs, in order: {names}'
    judge = (
        "Retro Music's playlist.db holds exactly as many SongEntity rows in playlists named like <playlist_name> "
        "(fuzzy, no case) as there are songs, each title at its place by song_key (AndroidWorld's verify_playlist)."
    )

    @property
    def goal(self) -> str:
        return self.template.format(playlist_name=self.params["playlist_name"], names=", ".join(self.titles))

    def progress(self, device: Device, answer: str | None = None) -> float:
        return float(playlist_matches(playlist_rows(device), self.params["playlist_name"], self.titles))

    def oracle(self) -> Oracle:
        return SongsOracle(self.titles, self.params["playlist_name"])


@register_task
class RetroPlayingQueue(_RetroTask):
    mirrors = "RetroPlayingQueue"
    complexity: ClassVar[float] = 3.2
    template = "Add the following songs, in order, {names} to my playing queue in Retro music."
    judge = "The titles of music_playback_state.db's playing_queue, in row order, are exactly the songs in order."

    @property
    def goal(self) -> str:
        return self.template.format(names=", ".join(self.titles))

    def text_candidates(self) -> list[str]:
        return []

    def progress(self, device: Device, answer: str | None = None) -> float:
        queue = sorted(device.content_query(QUEUE_URI), key=lambda r: int(r["_id"]))
        return float([r.get("title", "") for r in queue] == self.titles)

    def oracle(self) -> Oracle:
        return SongsOracle(self.titles, None)


@register_task
class RetroSavePlaylist(_RetroTask):
    mirrors = "RetroSavePlaylist"
    complexity: ClassVar[float] = 5.0
    template = (
        'Create a playlist in Retro Music titled "{playlist_name}" with the following songs, in order: {names}. '
        "Then export the playlist to the Downloads directory on the device."
    )
    judge = "Half for the playlist as RetroCreatePlaylist judges it, half for Download/<playlist_name>.m3u existing."

    @property
    def goal(self) -> str:
        return self.template.format(playlist_name=self.params["playlist_name"], names=", ".join(self.titles))

    def initialize(self, device: Device) -> None:
        super().initialize(device)
        target = f"{self.params['playlist_name']}.m3u"
        if target in device.list_dir(DOWNLOAD):
            device.remove_path(f"{DOWNLOAD}/{target}")

    def progress(self, device: Device, answer: str | None = None) -> float:
        made = playlist_matches(playlist_rows(device), self.params["playlist_name"], self.titles)
        exported = f"{self.params['playlist_name']}.m3u" in device.list_dir(DOWNLOAD)
        return (float(made) + float(exported)) / 2

    def oracle(self) -> Oracle:
        return SongsOracle(self.titles, self.params["playlist_name"], export=True)


@register_task
class RetroPlaylistDuration(_RetroTask):
    mirrors = "RetroPlaylistDuration"
    complexity: ClassVar[float] = 3.0
    low: ClassVar[int] = 9
    high: ClassVar[int] = 11
    template = (
        'Create a playlist in Retro Music titled "{playlist_name}" with a duration between 45 and 50 minutes using the provided songs.'
    )
    judge = (
        "Every SongEntity row in a playlist is in one named exactly <playlist_name>, and their durations sum to 45-50 "
        "minutes (AndroidWorld's judge)."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        params = song_params(rng, cls.low, cls.high)
        count = len(params["files"])
        params["durations"][:count] = list_with_sum(rng, int(47.5 * 60 * 1000), count)
        return params

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        out = super().from_androidworld(params)
        count = len(params["files"])
        out["durations"][:count] = [int(47.5 * 60 * 1000) // count] * count
        return out

    @property
    def goal(self) -> str:
        return self.template.format(playlist_name=self.params["playlist_name"])

    def progress(self, device: Device, answer: str | None = None) -> float:
        rows = playlist_rows(device)
        if any(r[0] != self.params["playlist_name"] for r in rows):
            return 0.0
        return float(_MIN_MS <= sum(r[2] for r in rows) <= _MAX_MS)

    def oracle(self) -> Oracle:
        # The songs AndroidWorld names as the answer sum to 47.5 minutes.
        return SongsOracle(self.titles, self.params["playlist_name"])
