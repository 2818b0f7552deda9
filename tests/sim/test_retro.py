"""Retro Music: the library is read from real MP3 files (pydub and ffmpeg, as AndroidWorld writes
them), the selection's actions land in ``playlist.db`` / ``music_playback_state.db`` where
AndroidWorld's queries read them, a playlist exports as ``.m3u``, and damaged, foreign or huge
files are skipped without harm."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from test_vlc import node, tap, texts  # the same tree helpers

from cerebellum_gym.sim import databases
from cerebellum_gym.sim.apps.retro import MAX_HEADER, PLAYLIST_DB, QUEUE_DB, probe
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks.retro import mp3

RETRO = "code.name.monkey.retromusic"
MUSIC = "/sdcard/Music"
#: AndroidWorld's ``_get_playlist_info_query``.
AW_QUERY = """
    SELECT pe.playlist_name, se.title, se.duration,
        ROW_NUMBER() OVER (PARTITION BY pe.playlist_name ORDER BY se.song_key) - 1
    FROM PlaylistEntity pe JOIN SongEntity se ON pe.playlist_id = se.playlist_creator_id
    ORDER BY pe.playlist_name, 4;
"""


def pydub_mp3(tmp_path: Path, title: str, artist: str, ms: int) -> bytes:
    """An MP3 as AndroidWorld's ``_create_test_mp3`` writes it (pydub's silence through ffmpeg)."""
    pydub = pytest.importorskip("pydub")
    if shutil.which("ffmpeg") is None:
        pytest.skip("ffmpeg is not installed (scripts/dev.sh test installs it)")
    path = tmp_path / "song.mp3"
    pydub.AudioSegment.silent(duration=ms).export(str(path), format="mp3", tags={"artist": artist, "title": title})
    return path.read_bytes()


def db(phone: Phone, path: str) -> sqlite3.Connection:
    image = databases.read(phone, path)
    assert image is not None
    con = sqlite3.connect(":memory:")
    con.deserialize(image)
    return con


def test_pydub_file_is_read_with_its_tags_and_length(tmp_path: Path) -> None:
    data = pydub_mp3(tmp_path, "Night Drive", "Alice", 200_000)
    tags, ms = probe(data) or ({}, -1)
    assert tags == {"title": "Night Drive", "artist": "Alice"}
    assert 200_000 <= ms < 200_300  # the encoder pads the last frame
    phone = Phone()
    phone.write_file(f"{MUSIC}/x.mp3", data)
    phone.start_app(RETRO)
    tap(phone, content_desc="Songs")  # the app opens on For you
    assert "Night Drive" in texts(phone) and "Alice" in texts(phone)  # item_list: the title, then the artist


def test_own_mp3_reads_back_as_written() -> None:
    tags, ms = probe(mp3("Moments", "Bob", 47_500)) or ({}, -1)
    assert tags == {"title": "Moments", "artist": "Bob"}
    assert 47_500 <= ms < 47_560


def test_damaged_foreign_and_huge_files_are_skipped_or_bounded() -> None:
    phone = Phone()
    phone.write_file(f"{MUSIC}/text.mp3", b"just some text, no audio frame here" * 10)
    phone.write_file(f"{MUSIC}/cut.mp3", b"ID3\x04\x00\x00\x7f\x7f\x7f\x7f" + b"\x00" * 40)
    phone.write_file(f"{MUSIC}/notes.txt", mp3("Not a song", "Bob", 1000))
    phone.write_file(f"{MUSIC}/.hidden/h.mp3", mp3("Hidden", "Bob", 1000))
    # A huge file: the tag and the first frame are read, the length from its frame count.
    phone.write_file(f"{MUSIC}/big.mp3", mp3("Big", "Bob", 60_000) + bytes(4 * MAX_HEADER))
    phone.write_file(f"{MUSIC}/ok.mp3", mp3("Fine", "Bob", 61_000))
    phone.start_app(RETRO)
    tap(phone, content_desc="Songs")  # the app opens on For you
    shown = texts(phone)
    assert "Fine" in shown and "Big" in shown
    assert not {"Not a song", "Hidden", "text", "cut"} & set(shown)


def test_selection_makes_a_playlist_and_queue_aw_reads_and_exports_m3u() -> None:
    phone = Phone()
    for title, ms in (("Moments", 180_000), ("Bright Lights", 200_000), ("Golden Days", 240_000)):
        phone.write_file(f"{MUSIC}/{title}.mp3", mp3(title, "Bob", ms))
    phone.start_app(RETRO)
    tap(phone, content_desc="Songs")  # the app opens on For you
    # Picked in an order other than the list's: the playlist keeps the picking order.
    phone.long_press(*node(phone, text="Moments").center)
    tap(phone, text="Bright Lights")
    assert "2 selected" in texts(phone)
    tap(phone, content_desc="Add to playlist")
    tap(phone, text="New playlist")  # AddToPlaylistDialog's first item
    phone.type_text("Road Trip 7")
    tap(phone, text="Create")
    rows = db(phone, PLAYLIST_DB.path).execute(AW_QUERY).fetchall()
    assert [(r[0], r[1], r[3]) for r in rows] == [("Road Trip 7", "Moments", 0), ("Road Trip 7", "Bright Lights", 1)]
    assert rows[0][2] >= 180_000
    # The queue: Golden Days, then Moments, as picked.
    phone.long_press(*node(phone, text="Golden Days").center)
    tap(phone, text="Moments")
    tap(phone, content_desc="Add to playing queue")
    queue = db(phone, QUEUE_DB.path).execute("SELECT title FROM playing_queue;").fetchall()
    assert [q[0] for q in queue] == ["Golden Days", "Moments"]
    # Export the playlist to Download.
    tap(phone, content_desc="Playlists")
    tap(phone, text="Road Trip 7")
    assert "2 Songs  •  06:20" in texts(phone)  # MusicUtil.getPlaylistInfoString
    tap(phone, content_desc="More options")
    tap(phone, text="Save as file")
    m3u = phone.read_file("/sdcard/Download/Road Trip 7.m3u").decode()
    assert m3u.startswith("#EXTM3U\n") and f"{MUSIC}/Moments.mp3" in m3u and "Golden Days" not in m3u
