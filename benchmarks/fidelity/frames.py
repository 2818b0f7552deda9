"""Real frames for the ``frame`` measure, derived when the benchmark runs and never stored.

A reference screen's ``frame`` names a moment of one of AndroidWorld's recorded runs (its
``assets/videos/*.mp4``, 1080x2400 screen recordings of its emulator): ``video`` (the file's name)
and ``at`` (seconds). The scorer decodes that one frame from a local copy of the video with
``ffmpeg`` and reduces it to a coarse luminance grid, which it compares with the simulator's
screenshot at the same grid (structural similarity). Nothing of the frame is written anywhere.
Where the video (or ``ffmpeg``) is not there, the measure is skipped with a note saying so: the
benchmark then scores the tree-only measures, as before.

The videos are in the history of AndroidWorld's repository (commit ``9dc7b4c``); a local copy is
a folder of them, given with ``score.py --videos DIR`` or ``$CEREBELLUM_FIDELITY_VIDEOS``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import numpy as np

#: Where the scorer looks for the videos when ``--videos`` is not given.
VIDEOS_ENV: Final = "CEREBELLUM_FIDELITY_VIDEOS"
#: Rows and columns of the grid a video frame is reduced to (a reference may say otherwise).
DEFAULT_GRID: Final = (24, 12)
#: The width frames are decoded at before the grid is taken (the simulator's screenshot too).
DECODE_WIDTH: Final = 216
SCREEN: Final = (1080, 2400)


class FrameUnavailable(Exception):
    """The reference's frame cannot be had here (no video, no ffmpeg, a failed decode)."""


def videos_dir(given: Path | None) -> Path | None:
    if given is not None:
        return given
    env = os.environ.get(VIDEOS_ENV)
    return Path(env) if env else None


def grid_shape(frame: Mapping[str, Any]) -> tuple[int, int]:
    """The grid a reference's frame is compared at: its stored grid's, else its ``size``."""
    if "grid" in frame:
        grid = frame["grid"]
        return len(grid), len(grid[0])
    rows, cols = frame.get("size", DEFAULT_GRID)
    return int(rows), int(cols)


def decode(video: Path, at: float, width: int = DECODE_WIDTH) -> np.ndarray:
    """The frame of ``video`` at ``at`` seconds as RGB (height, ``width``, 3), kept in memory.

    Raises:
        FrameUnavailable: no ``ffmpeg``, or it could not decode that frame.
    """
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        raise FrameUnavailable("ffmpeg is not installed")
    height = round(width * SCREEN[1] / SCREEN[0])
    command = [ffmpeg, "-loglevel", "error", "-ss", f"{at:.3f}", "-i", str(video), "-frames:v", "1"]
    command += ["-vf", f"scale={width}:{height}", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
    done = subprocess.run(command, capture_output=True, check=False, timeout=60)
    expected = width * height * 3
    if done.returncode != 0 or len(done.stdout) != expected:
        raise FrameUnavailable(f"ffmpeg could not decode {video.name} at {at} s: {done.stderr.decode(errors='replace').strip()[:200]}")
    return np.frombuffer(done.stdout, dtype=np.uint8).reshape(height, width, 3)


def real_frame(frame: Mapping[str, Any], videos: Path | None) -> np.ndarray:
    """The real frame a reference's ``frame`` names, decoded from the local copy of its video.

    Raises:
        FrameUnavailable: with what is missing.
    """
    if videos is None:
        raise FrameUnavailable(f"no videos folder (--videos or ${VIDEOS_ENV}) for {frame['video']}")
    path = videos / str(frame["video"])
    if not path.is_file():
        raise FrameUnavailable(f"{frame['video']} is not in {videos}")
    return decode(path, float(frame["at"]))
