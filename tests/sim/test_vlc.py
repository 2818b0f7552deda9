"""VLC: the media library re-scans the pushed videos on launch (real OpenCV MP4s, as AndroidWorld
writes them), playlists made through the UI land in ``vlc_media.db`` where AndroidWorld's join
reads them, and damaged, foreign or huge files are skipped without harm."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.sim import databases
from cerebellum_gym.sim.apps.vlc import MEDIA_URI, VLC_DB, probe
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell
from cerebellum_gym.tasks.vlc import mp4

VLC = "org.videolan.vlc"
VIDEOS = "/sdcard/VLCVideos"
#: AndroidWorld's ``_get_playlist_info_query``.
AW_QUERY = """
    SELECT Playlist.name AS playlist_name, Media.filename AS media_file_name, PlaylistMediaRelation.position AS order_in_playlist
    FROM PlaylistMediaRelation
    INNER JOIN Playlist ON Playlist.id_playlist = PlaylistMediaRelation.playlist_id
    INNER JOIN Media ON Media.id_media = PlaylistMediaRelation.media_id
    ORDER BY Playlist.name, PlaylistMediaRelation.position;
"""


def opencv_mp4(tmp_path: Path, seconds: int) -> bytes:
    """An MP4 as AndroidWorld's ``_create_mpeg_with_messages`` writes it (OpenCV, mp4v, 1 fps)."""
    cv2 = pytest.importorskip("cv2")
    path = str(tmp_path / "v.mp4")
    out = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"mp4v"), 1, (320, 240))
    for _ in range(seconds):
        out.write(np.zeros((240, 320, 3), np.uint8))
    out.release()
    return Path(path).read_bytes()


def texts(phone: Phone) -> list[str]:
    return [n.text for n in phone.ui_tree().iter() if n.text]


def node(phone: Phone, **query: str) -> UINode:
    found = phone.ui_tree().find(**query)
    assert found is not None, (query, texts(phone))
    return found


def tap(phone: Phone, **query: str) -> None:
    phone.tap(*node(phone, **query).center)


def aw_rows(phone: Phone) -> list[tuple[str, str, int]]:
    image = databases.read(phone, VLC_DB.path)
    assert image is not None
    con = sqlite3.connect(":memory:")
    con.deserialize(image)
    return con.execute(AW_QUERY).fetchall()


def test_opencv_video_is_scanned_with_its_length(tmp_path: Path) -> None:
    data = opencv_mp4(tmp_path, 42)
    assert probe("a.mp4", data) == 42_000
    phone = Phone()
    phone.write_file(f"{VIDEOS}/clip_1_HD.mp4", data)
    phone.start_app(VLC)
    assert "clip_1_HD" in texts(phone) and "0:42" in texts(phone)
    (row,) = phone.content_query(MEDIA_URI)
    assert (row["filename"], row["title"], row["duration"]) == ("clip_1_HD.mp4", "clip_1_HD", "42000")


def test_damaged_foreign_huge_and_hidden_files_are_skipped(tmp_path: Path) -> None:
    phone = Phone()
    good = mp4(30)
    phone.write_file(f"{VIDEOS}/good.mp4", good)
    phone.write_file(f"{VIDEOS}/text.mp4", b"this is a text file, not a video")
    phone.write_file(f"{VIDEOS}/cut.mp4", good[:40])  # a box that runs off the end
    phone.write_file(f"{VIDEOS}/fake.mkv", b"RIFF....AVI ")
    phone.write_file(f"{VIDEOS}/.hidden/secret.mp4", good)
    phone.write_file(f"{VIDEOS}/huge.mp4", good + bytes(40 * 2**20))  # 40 MB of padding, read only by box headers
    phone.start_app(VLC)
    assert sorted(r["filename"] for r in phone.content_query(MEDIA_URI)) == ["good.mp4", "huge.mp4"]
    assert "text" not in texts(phone) and "cut" not in texts(phone)


def test_playlist_made_in_the_ui_is_what_androidworld_reads() -> None:
    phone = Phone()
    for name in ("b_clip.mp4", "a_clip.mp4", "c_clip.mp4"):
        phone.write_file(f"{VIDEOS}/{name}", mp4(25))
    phone.start_app(VLC)
    assert [t for t in texts(phone) if t.endswith("_clip")] == ["a_clip", "b_clip", "c_clip"]  # by title
    for title in ("c_clip", "a_clip"):
        phone.long_press(*node(phone, text=title).center)
        assert "1 selected" in texts(phone)
        tap(phone, content_desc="More options")  # the action mode's overflow
        tap(phone, text="Add to playlist")
        if "Road Trips" in texts(phone):
            tap(phone, text="Road Trips")
        else:
            assert "No playlist found." in texts(phone)
            tap(phone, class_name="android.widget.EditText")
            phone.type_text("Road Trips")
            tap(phone, text="Add")
    assert aw_rows(phone) == [("Road Trips", "c_clip.mp4", 0), ("Road Trips", "a_clip.mp4", 1)]
    tap(phone, text="Playlists")
    tap(phone, text="Road Trips")
    assert [t for t in texts(phone) if t.endswith("_clip")] == ["c_clip", "a_clip"]


def test_selection_adds_in_list_order_and_a_gone_file_leaves_its_playlist() -> None:
    phone = Phone()
    for name in ("x.mp4", "y.mp4", "z.mp4"):
        phone.write_file(f"{VIDEOS}/{name}", mp4(25))
    phone.start_app(VLC)
    for title in ("z", "x"):
        phone.long_press(*node(phone, text=title).center)
    assert "2 selected" in texts(phone) and "0:50" in texts(phone)  # the selection's length
    tap(phone, content_desc="More options")
    tap(phone, text="Add to playlist")
    assert texts(phone).count("2 media") == 2
    tap(phone, class_name="android.widget.EditText")
    phone.type_text("Mix")
    tap(phone, text="Add")
    assert aw_rows(phone) == [("Mix", "x.mp4", 0), ("Mix", "z.mp4", 1)]
    # A name in use is refused, as SavePlaylistDialog does; the existing playlist takes a tap.
    phone.long_press(*node(phone, text="y").center)
    tap(phone, content_desc="More options")
    tap(phone, text="Add to playlist")
    tap(phone, class_name="android.widget.EditText")
    phone.type_text("Mix")
    tap(phone, text="Add")
    assert "Playlist Mix already exists" in texts(phone)
    tap(phone, resource_id=f"{VLC}:id/textView16", text="Mix")
    assert aw_rows(phone) == [("Mix", "x.mp4", 0), ("Mix", "z.mp4", 1), ("Mix", "y.mp4", 2)]
    phone.remove_path(f"{VIDEOS}/x.mp4")
    phone.press_key(3)  # home
    phone.start_app(VLC)  # re-scans
    assert aw_rows(phone) == [("Mix", "z.mp4", 1), ("Mix", "y.mp4", 2)]


def test_androidworld_clear_and_push_then_rescan() -> None:
    """AndroidWorld's set-up: pull the database, delete every row of the three tables, push it
    back, push the videos; the app's next start finds them."""
    phone = Phone()
    phone.write_file(f"{VIDEOS}/old.mp4", mp4(20))
    phone.start_app(VLC)
    sh = Shell(phone)
    sh.root = True
    for table in ("Playlist", "Media", "PlaylistMediaRelation"):
        assert sh.run(f"sqlite3 {VLC_DB.path} 'DELETE FROM {table};'").code == 0
    assert phone.content_query(MEDIA_URI) == []
    phone.remove_path(f"{VIDEOS}/old.mp4")
    phone.write_file(f"{VIDEOS}/new.mp4", mp4(20))
    phone.press_key(3)
    phone.start_app(VLC)
    assert [r["filename"] for r in phone.content_query(MEDIA_URI)] == ["new.mp4"]
    # A damaged push of the database leaves the library as it was.
    databases.write(phone, VLC_DB.path, b"SQLite format 3\x00 garbage")
    phone.invalidate()
    assert "new" in texts(phone)
