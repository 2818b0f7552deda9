"""Memory of the gallery showing a big picture: the pixels are decoded subsampled and only the
fitted copy is kept. Prints figures; asserts nothing.

Run: ``python benchmarks/perf/gallery_memory.py [--megapixels N] [--quality Q]``

Makes a noisy 48-megapixel JPEG (``--quality 95``: about 50 MB) and an 800 x 600 one in a child
process (so that making them does not count), then opens each from the simulator's DCIM in
Simple Gallery Pro's album and viewer with full-size screenshots, and prints the peak resident
memory growth for each (the small one first: what the screens' frames and tiles cost whatever
the picture) and what the thumbnail cache keeps.
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import resource
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

from cerebellum_gym.sim.images import THUMBNAILS
from cerebellum_gym.sim.phone import Phone

GALLERY = "com.simplemobiletools.gallery.pro"


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def make_picture(path: str, width: int, height: int, quality: int) -> None:
    rng = np.random.default_rng(0)
    out = io.BytesIO()
    Image.fromarray(rng.integers(0, 256, (height, width, 3), dtype=np.uint8)).save(out, "JPEG", quality=quality)
    Path(path).write_bytes(out.getvalue())


def show(data: bytes) -> tuple[float, bool]:
    """Open ``data`` (as DCIM/big.jpg) in the album and the viewer with full-size screenshots:
    the peak resident memory growth meanwhile, and whether the viewer showed it."""
    phone = Phone()
    phone.write_file("/sdcard/DCIM/big.jpg", data)
    phone.start_app(GALLERY)
    phone.screenshot()  # the album grid, no picture decoded yet
    before = peak_rss_mb()
    album = phone.ui_tree().find(text="DCIM")
    assert album is not None
    phone.tap(*album.center)
    phone.screenshot()
    tile = phone.ui_tree().find(text="big.jpg")
    assert tile is not None
    phone.tap(*tile.center)
    phone.screenshot()
    return peak_rss_mb() - before, phone.ui_tree().find(resource_id=f"{GALLERY}:id/photo_view") is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megapixels", type=float, default=48.0)
    parser.add_argument("--quality", type=int, default=85)
    args = parser.parse_args()
    width = int((args.megapixels * 1e6 * 4 / 3) ** 0.5)
    height = int(width * 3 / 4)
    with tempfile.TemporaryDirectory() as tmp:
        for name, (w, h) in (("small", (800, 600)), ("big", (width, height))):
            child = multiprocessing.get_context("spawn").Process(target=make_picture, args=(f"{tmp}/{name}.jpg", w, h, args.quality))
            child.start()
            child.join()
        small, data = Path(f"{tmp}/small.jpg").read_bytes(), Path(f"{tmp}/big.jpg").read_bytes()
    # The same screens with a small picture first: their frames and tiles, whatever the picture.
    control, _ = show(small)
    grown, shown = show(data)
    print(f"picture: {width} x {height} JPEG, {len(data) / 2**20:.1f} MB on storage, {width * height * 3 / 2**20:.0f} MB as full RGB")
    print(f"peak resident memory growth, album and viewer at 1080 px: {control:.1f} MB with an 800 x 600 picture (frames, tiles)")
    print(f"  then {grown:.1f} MB more with the big one (viewer shows it: {shown})")
    print(f"thumbnail cache keeps: {THUMBNAILS.nbytes / 2**20:.2f} MB (bounded at {THUMBNAILS.max_bytes / 2**20:.0f} MB)")


if __name__ == "__main__":
    main()
