"""Videos the simulated VLC plays: frames decoded from the file on the phone's storage, fitted to
the player's view and cached, with bounded memory and work whatever the file holds.

Decoding uses OpenCV (``cv2``, its FFmpeg backend), which AndroidWorld itself needs (its wheel
depends on ``opencv-python-headless`` and writes its videos with ``cv2.VideoWriter``), so it is
there wherever AndroidWorld's video tasks run; without it :func:`available` is ``False`` and the
player says so on screen. OpenCV reads only from a path, so a video is written once to a private
temporary file while it is being decoded; at most :data:`MAX_DECODERS` videos are open at once
(the least recently used one is closed and its file removed). A decoder reads forward (a frame
later in the video skips the ones between without converting them) and starts over from the
first frame for an earlier one, so playing costs one decoded frame per frame shown. Frames are
kept fitted to the box they are shown in, in a byte-bounded LRU (:data:`CACHE_BYTES`) shared by
every phone in the process. A file that is too large (:data:`MAX_VIDEO_BYTES`), damaged or not a
video gives ``None``, never an exception.

Example (with OpenCV):
    >>> from cerebellum_gym.tasks.markor import message_video
    >>> data = message_video(["Ada"], fps=2, display_time=1, seed=0)
    >>> found = info(("doc", 1), data)
    >>> (found.frames, found.fps, found.width, found.height)
    (2, 2.0, 320, 240)
    >>> frame(("doc", 1), data, 1, (160, 160)).size
    (160, 120)
"""

from __future__ import annotations

import importlib
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from PIL import Image

from cerebellum_gym import leftovers

#: Files larger than this are not decoded (the player shows its error).
MAX_VIDEO_BYTES: Final = 64 * 2**20
#: Videos open for decoding at once.
MAX_DECODERS: Final = 2
#: Bytes of decoded, fitted frames kept.
CACHE_BYTES: Final = 24 * 2**20
#: Frames a video may have (beyond it, the rest is not shown).
MAX_FRAMES: Final = 100_000
#: Why the player shows no picture when OpenCV is missing.
NO_DECODER: Final = "No video decoder: pip install 'cerebellum-gym[video]' (OpenCV; AndroidWorld depends on it)"

_cv2: Any
try:  # OpenCV comes with AndroidWorld; the simulator runs without it
    _cv2 = importlib.import_module("cv2")
except ImportError:  # pragma: no cover - exercised only without OpenCV
    _cv2 = None


def available() -> bool:
    """Whether videos can be decoded here (OpenCV is importable)."""
    return _cv2 is not None


@dataclass(frozen=True)
class VideoInfo:
    """What the decoder reads of a video's stream."""

    frames: int
    fps: float
    width: int
    height: int

    @property
    def duration_ms(self) -> int:
        return round(self.frames * 1000 / self.fps) if self.fps > 0 else 0

    def index_at(self, position_ms: float) -> int:
        """The frame on show ``position_ms`` into the video (the last one at its end)."""
        return max(0, min(self.frames - 1, int(position_ms * self.fps / 1000)))


class _Decoder:
    """One open video: its temporary file, OpenCV's capture and where it is in the stream."""

    def __init__(self, data: bytes) -> None:
        assert _cv2 is not None
        # OpenCV reads files only; the file goes with the decoder, or with the process however it ends.
        self.path = leftovers.owned_file("video", ".mp4")
        with open(self.path, "wb") as out:
            out.write(data)
        self.capture: Any = None
        self.next = 0
        self._open()
        capture: Any = self.capture
        frames = int(capture.get(_cv2.CAP_PROP_FRAME_COUNT) or 0)
        fps = float(capture.get(_cv2.CAP_PROP_FPS) or 0.0)
        width, height = int(capture.get(_cv2.CAP_PROP_FRAME_WIDTH) or 0), int(capture.get(_cv2.CAP_PROP_FRAME_HEIGHT) or 0)
        self.info = VideoInfo(min(frames, MAX_FRAMES), fps, width, height) if frames > 0 and fps > 0 and width and height else None

    def _open(self) -> None:
        assert _cv2 is not None
        if self.capture is not None:
            self.capture.release()
        self.capture = _cv2.VideoCapture(self.path)
        self.next = 0

    def read(self, index: int) -> np.ndarray | None:
        """Frame ``index`` as RGB, or ``None`` when the stream ends before it."""
        assert _cv2 is not None
        if index < self.next:
            self._open()
        while self.next < index:  # skip forward without converting
            if not self.capture.grab():
                return None
            self.next += 1
        ok, bgr = self.capture.read()
        if not ok or bgr is None:
            return None
        self.next += 1
        return np.ascontiguousarray(bgr[:, :, ::-1])

    def close(self) -> None:
        if self.capture is not None:
            self.capture.release()
            self.capture = None
        leftovers.remove(self.path)


_LOCK = threading.Lock()
_DECODERS: OrderedDict[Hashable, _Decoder] = OrderedDict()
_INFOS: OrderedDict[Hashable, VideoInfo | None] = OrderedDict()
_FRAMES: OrderedDict[Hashable, Image.Image | None] = OrderedDict()
#: Bytes the cached frames hold (one entry: the module's count, changed in place).
_FRAME_BYTES = [0]


def _decoder(source: Hashable, data: bytes) -> _Decoder | None:
    found = _DECODERS.get(source)
    if found is not None:
        _DECODERS.move_to_end(source)
        return found
    if _cv2 is None or len(data) > MAX_VIDEO_BYTES:
        return None
    try:
        decoder = _Decoder(data)
    except Exception:  # OpenCV refuses the file in ways of its own
        return None
    _DECODERS[source] = decoder
    while len(_DECODERS) > MAX_DECODERS:
        _, old = _DECODERS.popitem(last=False)
        old.close()
    return decoder


def info(source: Hashable, data: bytes) -> VideoInfo | None:
    """The video's frame count, rate and size, or ``None`` when it cannot be decoded.

    Args:
        source: what names this content (a path and its modification time): the caches' key.
        data: the file's bytes.
    """
    with _LOCK:
        if source in _INFOS:
            _INFOS.move_to_end(source)
            return _INFOS[source]
        decoder = _decoder(source, data)
        found = decoder.info if decoder is not None else None
        _INFOS[source] = found
        while len(_INFOS) > 256:
            _INFOS.popitem(last=False)
        return found


def _fit(rgb: np.ndarray, box: tuple[int, int]) -> Image.Image:
    picture = Image.fromarray(rgb)
    scale = min(box[0] / picture.width, box[1] / picture.height)
    size = (max(1, round(picture.width * scale)), max(1, round(picture.height * scale)))
    return picture.resize(size, Image.Resampling.BILINEAR)


def frame(source: Hashable, data: bytes, index: int, box: tuple[int, int]) -> Image.Image | None:
    """Frame ``index`` of the video, fitted inside ``box`` (aspect kept), or ``None`` when there
    is no such frame or the video cannot be decoded."""
    key = (source, index, box)
    with _LOCK:
        if key in _FRAMES:
            _FRAMES.move_to_end(key)
            return _FRAMES[key]
        decoder = _decoder(source, data)
        try:
            rgb = decoder.read(index) if decoder is not None and decoder.info is not None else None
        except Exception:
            rgb = None
        picture = _fit(rgb, box) if rgb is not None else None
        _FRAMES[key] = picture
        _FRAME_BYTES[0] += picture.width * picture.height * 3 if picture is not None else 0
        while _FRAME_BYTES[0] > CACHE_BYTES and _FRAMES:
            _, old = _FRAMES.popitem(last=False)
            _FRAME_BYTES[0] -= old.width * old.height * 3 if old is not None else 0
        return picture


def clear() -> None:
    """Forget every cached frame and close every decoder (their files go)."""
    with _LOCK:
        for decoder in _DECODERS.values():
            decoder.close()
        _DECODERS.clear()
        _INFOS.clear()
        _FRAMES.clear()
        _FRAME_BYTES[0] = 0


__all__ = ["CACHE_BYTES", "MAX_VIDEO_BYTES", "NO_DECODER", "VideoInfo", "available", "clear", "frame", "info"]
