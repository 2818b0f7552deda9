"""VLC's player plays a pushed video: the frame at the playback position shows in the screenshot
as pixels (decoded with OpenCV from the file AndroidWorld's own generator writes), the position
moves with the phone's clock while playing, pauses, jumps and stops at the end; no words reach the
accessibility tree; a damaged file or a missing decoder says so on screen; the frame cache stays
within its bytes.

The one boundary simulated: "OpenCV is not installed", by hiding the decoder module's handle on it
(``video._cv2 = None``), since it is installed here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from test_vlc import node, tap, texts  # the same tree helpers

from cerebellum_gym.sim import video
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks.markor import message_video

cv2 = pytest.importorskip("cv2")

VLC = "org.videolan.vlc"
PATH = "/sdcard/Download/clip_7_final.mp4"
MESSAGES = ["Ada", "Grace", "Linus"]


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    video.clear()
    yield
    video.clear()


def androidworld_video(tmp_path: Path, messages: list[str], display_time: int, fps: int = 30) -> bytes:
    """The video AndroidWorld's ``_create_mpeg_with_messages`` writes (its own code, run here)."""
    generation = pytest.importorskip("android_world.task_evals.utils.user_data_generation")
    path = str(tmp_path / "v.mp4")
    generation._create_mpeg_with_messages(path, messages, display_time=display_time, fps=fps)
    return Path(path).read_bytes()


def playing(data: bytes) -> Phone:
    phone = Phone()
    phone.write_file(PATH, data)
    phone.start_app(VLC)
    tap(phone, text="clip_7_final")
    return phone


def picture(phone: Phone) -> np.ndarray:
    """The player's picture as the screenshot shows it (full resolution)."""
    left, top, right, bottom = node(phone, resource_id=f"{VLC}:id/player_surface").bounds
    return phone.screenshot()[top:bottom, left:right]


def yellow(pixels: np.ndarray) -> int:
    """How many pixels are the words' yellow (OpenCV's (0, 255, 255) BGR), noise aside."""
    r, g, b = (pixels[..., i].astype(int) for i in range(3))
    return int(((r > 200) & (g > 200) & (b < 60)).sum())


def expected(data: bytes, index: int, box: tuple[int, int], tmp_path: Path) -> np.ndarray:
    """Frame ``index`` decoded here with OpenCV directly, fitted as the player fits it."""
    path = tmp_path / "expected.mp4"
    path.write_bytes(data)
    cap = cv2.VideoCapture(str(path))
    for _ in range(index):
        cap.grab()
    ok, bgr = cap.read()
    cap.release()
    assert ok
    image = Image.fromarray(bgr[:, :, ::-1].copy())
    scale = min(box[0] / image.width, box[1] / image.height)
    return np.asarray(image.resize((round(image.width * scale), round(image.height * scale)), Image.Resampling.BILINEAR))


def test_the_picture_is_the_frame_at_the_playback_position(tmp_path: Path) -> None:
    data = androidworld_video(tmp_path, MESSAGES, display_time=2, fps=5)  # 2 s a name, 30 frames
    phone = playing(data)
    assert "0:00 / 0:06" in texts(phone) and node(phone, content_desc="Pause").clickable
    first = picture(phone)
    assert yellow(first) > 200  # the name's pixels
    assert not any(name in " ".join(texts(phone)) for name in MESSAGES)  # words in pixels only
    phone.wait(2.5)  # the second name (frame 12 of 5 fps, at 2.5 s plus the tap's moment)
    assert "0:02 / 0:06" in texts(phone)
    second = picture(phone)
    surface = node(phone, resource_id=f"{VLC}:id/player_surface").bounds
    width, height = surface[2] - surface[0], surface[3] - surface[1]
    position = phone.app(VLC).position_ms(phone.app(VLC).route, 6000)
    want = expected(data, position * 5 // 1000, (width, height), tmp_path)
    top, left = (height - want.shape[0]) // 2, (width - want.shape[1]) // 2
    shown = second[top : top + want.shape[0], left : left + want.shape[1]]
    assert np.abs(shown.astype(int) - want.astype(int)).mean() < 1.0  # the very frame
    assert np.abs(first.astype(int) - second.astype(int)).mean() > 20  # another frame of noise


def seconds_shown(phone: Phone) -> int:
    (shown,) = [t for t in texts(phone) if " / " in t]
    minutes, seconds = shown.split(" / ")[0].split(":")
    return 60 * int(minutes) + int(seconds)


def test_pause_jumps_and_the_end(tmp_path: Path) -> None:
    data = androidworld_video(tmp_path, MESSAGES, display_time=8, fps=2)  # 24 s
    phone = playing(data)
    tap(phone, content_desc="Pause")
    paused = seconds_shown(phone)
    phone.wait(30)
    assert seconds_shown(phone) == paused and node(phone, content_desc="Play")
    tap(phone, content_desc="Forward 10 seconds")
    assert seconds_shown(phone) == paused + 10
    tap(phone, content_desc="Rewind 10 seconds")
    tap(phone, content_desc="Rewind 10 seconds")
    assert seconds_shown(phone) == 0
    tap(phone, content_desc="Play")
    phone.wait(60)  # past the end: stopped on the last frame
    assert "0:24 / 0:24" in texts(phone) and node(phone, content_desc="Play")
    assert yellow(picture(phone)) > 200
    tap(phone, content_desc="Play")  # Play at the end starts over
    assert seconds_shown(phone) <= 1 and node(phone, content_desc="Pause")  # (the tap's moment has passed)


def test_the_sim_tasks_video_matches_androidworlds(tmp_path: Path) -> None:
    """The task's own generator (used without AndroidWorld) writes what AndroidWorld's does:
    the same frame count, rate and size, the names in the same yellow."""
    ours = message_video(["Ada", "Grace"], 30, 1, seed=0)
    assert message_video(["Ada", "Grace"], 30, 1, seed=0) is ours  # encoded once
    assert message_video(["Ada", "Grace"], 30, 1, seed=1) != ours  # another draw of noise
    theirs = androidworld_video(tmp_path, ["Ada", "Grace"], display_time=1)
    assert video.info(("ours", 0), ours) == video.info(("theirs", 0), theirs) == video.VideoInfo(60, 30.0, 320, 240)
    a, b = video.frame(("ours", 0), ours, 45, (320, 240)), video.frame(("theirs", 0), theirs, 45, (320, 240))
    assert a is not None and b is not None and yellow(np.asarray(a)) > 200 and yellow(np.asarray(b)) > 200


def test_a_damaged_video_and_a_missing_decoder_say_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = androidworld_video(tmp_path, ["Ada"], display_time=1, fps=2)
    broken = data[:40] + b"\x00" * (len(data) - 40)
    phone = Phone()
    phone.write_file(PATH, broken)
    phone.write_file("/sdcard/Download/good.mp4", data)
    phone.start_app(VLC)
    if "clip_7_final" in texts(phone):  # the library skips what it cannot parse; else the player
        tap(phone, text="clip_7_final")
        assert yellow(picture(phone)) == 0  # shows "Can't play this video"
        phone.press_key(4)  # back to the list
    monkeypatch.setattr(video, "_cv2", None)
    video.clear()
    phone.start_app(VLC)
    tap(phone, text="good")
    assert not video.available() and yellow(picture(phone)) == 0
    assert "0:00" in " ".join(texts(phone))  # the player still runs its clock


def test_the_frame_cache_keeps_within_its_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = androidworld_video(tmp_path, ["Ada"], display_time=4, fps=5)  # 20 frames
    monkeypatch.setattr(video, "CACHE_BYTES", 3 * 320 * 240 * 3)
    for index in range(20):
        assert video.frame(("cache", 0), data, index, (320, 240)) is not None
        assert video._FRAME_BYTES[0] <= video.CACHE_BYTES
    assert len(video._FRAMES) == 3
    assert video.frame(("cache", 0), data, 2, (320, 240)) is not None  # an earlier frame: decoded again
    assert video.frame(("cache", 0), data, 99, (320, 240)) is None  # past the end
    assert video.frame(("junk", 0), b"not a video", 0, (320, 240)) is None
    assert video.info(("huge", 0), b"\x00" * (video.MAX_VIDEO_BYTES + 1)) is None


def test_the_task_writes_the_same_videos_for_the_same_seed() -> None:
    from cerebellum_gym.tasks import make_task
    from cerebellum_gym.tasks import markor as markor_tasks

    def download(seed: int) -> dict[str, bytes]:
        phone = Phone()
        make_task("MarkorTranscribeVideo", np.random.default_rng(seed)).initialize(phone)
        return {p: d for p, d in phone.state.files.items() if p.startswith("/sdcard/Download/")}

    first = download(3)
    markor_tasks._VIDEOS.clear()  # encoded afresh: the same bytes
    assert download(3) == first == download(3)  # and from the cache
    task = make_task("MarkorTranscribeVideo", np.random.default_rng(3))
    assert sorted(first) == sorted(f"/sdcard/Download/{n}" for n in [task.params["video_name"], *task.params["noise_files"]])
    assert download(4) != first
