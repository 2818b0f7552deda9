"""VLC tasks: playlists made from the videos AndroidWorld pushes to ``VLCVideos``, judged on
VLC's media library (``Media``, ``Playlist``, ``PlaylistMediaRelation``, read through the
app's content URIs) as AndroidWorld's ``verify_playlist`` judges its database.

The videos are small MP4 files (an ``ftyp`` box and a ``moov`` box whose ``mvhd`` gives the
length AndroidWorld draws, 20 to 180 s at 1 frame/s); AndroidWorld's own set-up writes real
ones with OpenCV, which the simulator's media library reads the same way.
"""

from __future__ import annotations

import struct
from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.common import fuzzy_match
from cerebellum_gym.tasks.oracle import ScriptedOracle, find, label_for
from cerebellum_gym.tasks.registry import register_task

VLC_PACKAGE = "org.videolan.vlc"
VIDEOS = "/sdcard/VLCVideos"
MEDIA_URI = "content://org.videolan.vlc/media"
PLAYLISTS_URI = "content://org.videolan.vlc/playlists"
RELATIONS_URI = "content://org.videolan.vlc/playlist_media"
_PREFIXES = ("clip", "footage", "scene", "recording", "highlight", "moment", "episode")
_SUFFIXES = ("", "HD", "4K", "raw", "export")
_THEMES = (
    "Adventure", "Comedy", "Daily Routines", "Documentary Insights", "Epic Moments", "Family Gatherings", "Fitness Challenges",
    "Gaming Sessions", "How To", "Mystery and Thrills", "Recipe Collection", "Road Trips", "Summer Highlights", "Tech Reviews",
    "Travel Guide", "Ultimate Fails",
)  # fmt: skip
_QUALIFIERS = ("Essentials", "Favorites", "Marathon", "Playlist", "Series", "Specials", "Ultimate Collection")


def video_file_name(rng: np.random.Generator) -> str:
    """``vlc.generate_file_name``: ``prefix_num_suffix.mp4``, modified."""
    name = f"{awdata.pick(rng, _PREFIXES)}_{int(rng.integers(1, 100))}_{awdata.pick(rng, _SUFFIXES)}.mp4"
    return awdata.modified_file_name(rng, name)


def playlist_name(rng: np.random.Generator) -> str:
    """``vlc._generate_playlist_name``: a theme and a qualifier."""
    return f"{awdata.pick(rng, _THEMES)} {awdata.pick(rng, _QUALIFIERS)}"


def playlist_params(rng: np.random.Generator) -> dict[str, Any]:
    """``VlcCreatePlaylist.generate_random_params``: 2 to 5 files and as many noise files, each
    with the length ``setup_files`` draws for it."""
    count = int(rng.integers(2, 6))
    files = [video_file_name(rng) for _ in range(count)]
    noise = [video_file_name(rng) for _ in range(count)]
    seconds = [int(rng.integers(20, 181)) for _ in range(2 * count)]
    return {"playlist_name": playlist_name(rng), "files": files, "noise_files": noise, "seconds": seconds}


def mp4(seconds: int) -> bytes:
    """A minimal ISO media file of ``seconds``: ``ftyp``, then ``moov`` holding an ``mvhd`` (version
    0, time scale 1000) and nothing else; enough for a media scanner to file it as video."""
    ftyp = b"isom" + struct.pack(">I", 512) + b"isomiso2mp41"
    body = struct.pack(">B3xIIII", 0, 0, 0, 1000, seconds * 1000) + struct.pack(">IH10x", 0x00010000, 0x0100)
    body += struct.pack(">9I", 0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000) + bytes(24) + struct.pack(">I", 2)
    mvhd = struct.pack(">I", 8 + len(body)) + b"mvhd" + body
    return struct.pack(">I", 8 + len(ftyp)) + b"ftyp" + ftyp + struct.pack(">I", 8 + len(mvhd)) + b"moov" + mvhd


def playlist_rows(device: Device) -> list[tuple[str, str, int]]:
    """AndroidWorld's join: (playlist name, media file name, position) of every playlist entry
    whose playlist and media exist, by playlist name then position."""
    names = {r["_id"]: r.get("name", "") for r in device.content_query(PLAYLISTS_URI)}
    files = {r["_id"]: r.get("filename", "") for r in device.content_query(MEDIA_URI)}
    out = []
    for row in device.content_query(RELATIONS_URI):
        playlist, media = row.get("playlist_id", ""), row.get("media_id", "")
        if playlist in names and media in files:
            position = row.get("position", "")
            out.append((names[playlist], files[media], int(position) if position.lstrip("-").isdigit() else -1))
    return sorted(out, key=lambda r: (r[0].casefold(), r[2]))


def playlist_matches(rows: list[tuple[str, str, int]], name: str, files: list[str]) -> bool:
    """``sqlite_validators.verify_playlist``: exactly ``len(files)`` entries in playlists whose
    name fuzzy-matches ``name``, and each file at its 0-based position there."""
    mine = [r for r in rows if fuzzy_match(r[0], name)]
    if len(mine) != len(files):
        return False
    return all(any(r[1] == file and r[2] == i for r in mine) for i, file in enumerate(files))


def reset_vlc(device: Device, videos: dict[str, int]) -> None:
    """AndroidWorld's set-up: ``VLCVideos`` emptied, the library's three tables cleared, then
    ``videos`` (name -> seconds) pushed."""
    for name in device.list_dir(VIDEOS):
        device.remove_path(f"{VIDEOS}/{name}")
    for uri in (PLAYLISTS_URI, MEDIA_URI, RELATIONS_URI):
        device.content_delete(uri)
    device.make_dir(VIDEOS)
    for name, seconds in videos.items():
        device.write_file(f"{VIDEOS}/{name}", mp4(seconds))


def _title(name: str) -> str:
    return name.rsplit(".", 1)[0] if "." in name else name


def _runs(files: list[str]) -> list[list[str]]:
    """The files cut into runs that the video list shows in the same order (it sorts by title,
    case aside): VLC adds a selection in the list's order, so each run can go in one selection."""
    runs: list[list[str]] = []
    for name in files:
        if runs and _title(runs[-1][-1]).casefold() < _title(name).casefold():
            runs[-1].append(name)
        else:
            runs.append([name])
    return runs


class PlaylistOracle(ScriptedOracle):
    """Add the files in order, a run at a time (:func:`_runs`): long-press the run's first video,
    tap the others, More options, Add to playlist, then the playlist in the sheet (or type its
    name and Add the first time)."""

    def __init__(self, name: str, files: list[str]) -> None:
        super().__init__()
        self.name, self.files = name, list(files)
        self.runs = _runs(self.files)
        self.run = 0
        self.picked: set[str] = set()

    @property
    def added(self) -> int:
        return sum(len(r) for r in self.runs[: self.run])

    @property
    def done(self) -> bool:
        return self.run >= len(self.runs)

    def _finish_run(self) -> None:
        self.run += 1
        self.picked = set()

    def act(self, screen: LabelledScreen) -> str:
        if self.done:
            return "F"
        step = self.open_app(screen, VLC_PACKAGE, "VLC")
        if step is not None:
            return step
        if screen.root.find(resource_id=f"{VLC_PACKAGE}:id/dialog_playlist_save") is not None:
            # The "Add to playlist" sheet: the playlist if it is listed, else a new one by name.
            existing = find(screen, lambda n: n.text == self.name and n.resource_id.endswith(":id/textView16"))
            if existing is not None:
                self._finish_run()
                return self.tap(existing[0])
            field = find(screen, lambda n: n.class_name == "android.widget.EditText")
            if field is not None and field[1].text != self.name:
                return self.type_into(screen, field[1], field[0], self.name)
            self._finish_run()
            return self.tap(label_for(screen, rid=f"{VLC_PACKAGE}:id/dialog_playlist_save") or "")
        add = label_for(screen, text="Add to playlist")
        if add is not None:
            return self.tap(add)  # the selection's overflow menu
        selecting = screen.root.find(resource_id=f"{VLC_PACKAGE}:id/action_bar_title") is not None
        run = self.runs[self.run]
        if selecting and all(f in self.picked for f in run):
            return self.tap(label_for(screen, desc="More options") or "")
        if label_for(screen, rid=":id/nav_video") is None:
            return "B"
        if not selecting:
            self.picked = set()
        target_file = next(f for f in run if f not in self.picked)
        target = _title(target_file)
        hit = find(screen, lambda n: n.text == target and n.resource_id.endswith(":id/ml_item_title"))
        if hit is not None:
            self.picked.add(target_file)
            if selecting:
                return self.tap(hit[0])
            self._moved()
            return f"P {hit[0]}"
        # The list is sorted by title (case folded), and may hold videos of other apps (a
        # camera's recording): scroll toward the target instead of to the end and back.
        shown = [item.text.casefold() for item in screen.root.iter() if item.resource_id.endswith(":id/ml_item_title") and item.text]
        if shown and screen.scrollable is not None:
            if target.casefold() < min(shown):
                return "U"
            if target.casefold() > max(shown):
                return "D"
        return self.scroll_search(screen)


class TwoPlaylistsOracle(Oracle):
    def __init__(self, first: PlaylistOracle, second: PlaylistOracle) -> None:
        self.first, self.second = first, second

    def act(self, screen: LabelledScreen) -> str:
        return self.second.act(screen) if self.first.done else self.first.act(screen)


@register_task
class VlcCreatePlaylist(Task):
    mirrors = "VlcCreatePlaylist"
    app: ClassVar[str] = "VLC"
    family: ClassVar[str] = "vlc"
    complexity: ClassVar[float] = 2.8
    template = (
        'Create a playlist titled "{playlist_name}" with the following files in VLC (located in Internal Memory/VLCVideos), '
        "in order: {file_list}"
    )
    judge = (
        "VLC's media library holds exactly as many playlist entries in playlists named like <playlist_name> (fuzzy, no case) "
        "as there are files, each file at its 0-based position (AndroidWorld's verify_playlist)."
    )

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return playlist_params(rng)

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        return {**params, "seconds": [60] * (len(params["files"]) + len(params["noise_files"]))}

    @property
    def goal(self) -> str:
        return self.template.format(playlist_name=self.params["playlist_name"], file_list=", ".join(self.params["files"]))

    def text_candidates(self) -> list[str]:
        return [self.params["playlist_name"]]

    def videos(self) -> dict[str, int]:
        names = [*self.params["files"], *self.params["noise_files"]]
        return dict(zip(names, self.params["seconds"], strict=True))

    def initialize(self, device: Device) -> None:
        reset_vlc(device, self.videos())

    def progress(self, device: Device, answer: str | None = None) -> float:
        return float(playlist_matches(playlist_rows(device), self.params["playlist_name"], self.params["files"]))

    def oracle(self) -> Oracle:
        return PlaylistOracle(self.params["playlist_name"], self.params["files"])


@register_task
class VlcCreateTwoPlaylists(Task):
    mirrors = "VlcCreateTwoPlaylists"
    app: ClassVar[str] = "VLC"
    family: ClassVar[str] = "vlc"
    complexity: ClassVar[float] = 4.8
    #: AndroidWorld's goal: ``goal1`` is VlcCreatePlaylist's goal for the first playlist,
    #: ``goal2`` the second's, lower-cased at its start and without the storage hint.
    template = "{goal1}. And then, {goal2}."
    judge = "Each playlist as VlcCreatePlaylist judges it; the score is the mean of the two."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        first, second = playlist_params(rng), playlist_params(rng)
        return {
            **{f"{k}1": v for k, v in first.items()},
            **{f"{k}2": v for k, v in second.items()},
        }

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        out = dict(params)
        for n in "12":
            out[f"seconds{n}"] = [60] * (len(params[f"files{n}"]) + len(params[f"noise_files{n}"]))
        return out

    @property
    def goal(self) -> str:
        p = self.params
        goal1 = VlcCreatePlaylist.template.format(playlist_name=p["playlist_name1"], file_list=", ".join(p["files1"]))
        goal2 = f'create a playlist titled "{p["playlist_name2"]}" with the following files in VLC, in order: {", ".join(p["files2"])}'
        return self.template.format(goal1=goal1, goal2=goal2)

    def text_candidates(self) -> list[str]:
        return [self.params["playlist_name1"], self.params["playlist_name2"]]

    def initialize(self, device: Device) -> None:
        p = self.params
        videos: dict[str, int] = {}
        for n in "12":
            videos.update(zip([*p[f"files{n}"], *p[f"noise_files{n}"]], p[f"seconds{n}"], strict=True))
        reset_vlc(device, videos)

    def progress(self, device: Device, answer: str | None = None) -> float:
        rows = playlist_rows(device)
        p = self.params
        return sum(float(playlist_matches(rows, p[f"playlist_name{n}"], p[f"files{n}"])) for n in "12") / 2

    def oracle(self) -> Oracle:
        p = self.params
        return TwoPlaylistsOracle(PlaylistOracle(p["playlist_name1"], p["files1"]), PlaylistOracle(p["playlist_name2"], p["files2"]))
