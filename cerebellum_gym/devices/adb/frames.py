"""Raw ``screencap`` frames: reading the framebuffer's header and pixels, and scaling a frame to
the width an observation wants, band by band (so scaling can start while the frame arrives).

Screenshots come as PNG (``screencap -p``: small on the wire, but the device encodes and the host
decodes) or as the raw framebuffer (``screencap``: a 12- or 16-byte header and RGBA pixels,
10 MB at 1080x2400, nothing to encode or decode). This module reads the raw form and scales
either; :mod:`cerebellum_gym.devices.adb.device` decides which one to ask for.
"""

from __future__ import annotations

import contextlib
import itertools
import struct
import threading
from typing import Any, Final

import numpy as np

from cerebellum_gym.devices.android import (
    PIXEL_FORMAT_BGRA_8888,
    PIXEL_FORMAT_RGB_888,
    PIXEL_FORMAT_RGBA_8888,
    PIXEL_FORMAT_RGBX_8888,
)
from cerebellum_gym.errors import DeviceProtocolError

__all__ = [
    "PIXEL_FORMAT_BGRA_8888",
    "PIXEL_FORMAT_RGBA_8888",
    "PIXEL_FORMAT_RGBX_8888",
    "PIXEL_FORMAT_RGB_888",
    "SCALE_BANDS",
    "PipelinedScale",
    "RawFrame",
    "ScalePlan",
    "UnreadablePixelFormatError",
    "parse_raw_screencap",
    "scale_image",
]

#: Bytes per pixel of each raw format this reader converts.
_BYTES_PER_PIXEL: Final = {
    PIXEL_FORMAT_RGBA_8888: 4,
    PIXEL_FORMAT_RGBX_8888: 4,
    PIXEL_FORMAT_RGB_888: 3,
    PIXEL_FORMAT_BGRA_8888: 4,
}
#: PIL raw modes that read each format's pixels as RGB (the fourth byte ignored).
_PIL_RAWMODES: Final = {
    PIXEL_FORMAT_RGBA_8888: "RGBX",
    PIXEL_FORMAT_RGBX_8888: "RGBX",
    PIXEL_FORMAT_RGB_888: "RGB",
    PIXEL_FORMAT_BGRA_8888: "BGRX",
}


class RawFrame:
    """A raw ``screencap`` answer: the header's fields and a view of the pixels (no copy)."""

    __slots__ = ("header_size", "height", "pixel_format", "pixels", "width")

    def __init__(self, width: int, height: int, pixel_format: int, header_size: int, pixels: memoryview) -> None:
        self.width = width
        self.height = height
        self.pixel_format = pixel_format
        self.header_size = header_size
        self.pixels = pixels

    def image(self) -> Any:
        """The frame as an RGB-readable PIL image (RGBX where the buffer can be shared as is)."""
        from PIL import Image

        size, rawmode = (self.width, self.height), _PIL_RAWMODES[self.pixel_format]
        # PIL takes any buffer; its stubs name only bytes (hence the ignores).
        if rawmode == "RGBX":
            # PIL keeps RGB as 4 bytes a pixel: RGBA_8888 maps straight onto the buffer, no copy.
            return Image.frombuffer("RGBX", size, self.pixels, "raw", "RGBX", 0, 1)  # type: ignore[arg-type]
        return Image.frombytes("RGB", size, self.pixels, "raw", rawmode)

    def rgb(self) -> np.ndarray:
        """The frame as a fresh uint8 RGB ``(H, W, 3)`` array (one C pass drops the fourth byte)."""
        from PIL import Image

        size, rawmode = (self.width, self.height), _PIL_RAWMODES[self.pixel_format]
        return np.asarray(Image.frombytes("RGB", size, self.pixels, "raw", rawmode))


class UnreadablePixelFormatError(DeviceProtocolError):
    """A well-formed raw ``screencap`` in a pixel format this backend does not convert."""


def parse_raw_screencap(data: bytes | bytearray | memoryview) -> RawFrame:
    """Read what ``screencap`` (without ``-p``) writes: little-endian width, height and pixel
    format, on API 28+ a colour-space word, then the pixels.

    The header's length is not announced: it is whatever the data holds beyond
    ``width * height * bytes_per_pixel`` (12 or 16 bytes).

    Raises:
        DeviceProtocolError: not a raw screencap, or a pixel format this reader does not know.

    Example:
        >>> frame = parse_raw_screencap(struct.pack("<4I", 2, 1, 1, 1) + bytes([1, 2, 3, 255, 4, 5, 6, 255]))
        >>> frame.header_size, frame.rgb().tolist()
        (16, [[[1, 2, 3], [4, 5, 6]]])
    """
    view = memoryview(data).cast("B")
    if len(view) < 12:
        raise DeviceProtocolError(f"screencap returned {len(view)} bytes, less than a raw header: {bytes(view[:16])!r}")
    width, height, pixel_format = struct.unpack_from("<3I", view)
    bpp = _BYTES_PER_PIXEL.get(pixel_format)
    if bpp is None:
        area = width * height
        if (
            0 < width <= 1 << 14
            and 0 < height <= 1 << 14
            and any((len(view) - h) % area == 0 and (len(view) - h) // area in (1, 2, 4, 8) for h in (12, 16))
        ):
            # The header holds together (e.g. RGB_565 on an old device): a frame, just not one we convert.
            raise UnreadablePixelFormatError(
                f"raw screencap in pixel format {pixel_format} ({width}x{height}), not RGBA/RGBX/BGRA_8888 or RGB_888; "
                "use screencap_format='png'"
            )
        raise DeviceProtocolError(f"not a raw screencap (pixel format {pixel_format}?): {bytes(view[:16])!r}")
    header_size = len(view) - width * height * bpp
    if header_size not in (12, 16) or not 0 < width <= 1 << 14 or not 0 < height <= 1 << 14:
        raise DeviceProtocolError(
            f"raw screencap of {len(view)} bytes does not hold a {width}x{height} frame of {bpp}-byte pixels "
            f"after a 12- or 16-byte header: {bytes(view[:16])!r}"
        )
    return RawFrame(width, height, pixel_format, header_size, view[header_size:])


#: Output bands a downscale is cut into, so it can start before the whole frame has arrived.
SCALE_BANDS: Final = 8


class ScalePlan:
    """How a ``w x h`` frame is scaled to ``width``: a box ``reduce`` by an integer factor (a cheap
    filter that keeps the bilinear pass small), then a bilinear resize, both in output bands.

    Every screenshot is scaled band by band, whether or not the bands overlap a transfer, so a
    frame scales to the same pixels on every path.
    """

    def __init__(self, w: int, h: int, width: int) -> None:
        self.size = (w, h)
        self.out = (width, round(h * width / w))
        self.factor = max(1, w // width)
        self.reduced = (-(-w // self.factor), -(-h // self.factor))
        rh, oh = self.reduced[1], self.out[1]
        self.sy = rh / oh
        edges = [round(oh * i / SCALE_BANDS) for i in range(SCALE_BANDS + 1)]
        self.bands = [(o0, o1) for o0, o1 in itertools.pairwise(edges) if o1 > o0]
        # Reduced rows each band's bilinear pass reads: its box plus the filter's reach
        # (support 1 source row per unit of scale), plus a row for rounding.
        reach = max(self.sy, 1.0) + 2
        self.reduced_needed = [min(rh, int(o1 * self.sy + reach) + 1) for _, o1 in self.bands]

    def source_rows(self, band: int) -> int:
        """Full-resolution rows that must have arrived before ``band`` can be scaled."""
        return min(self.size[1], self.reduced_needed[band] * self.factor)

    def run(self, source: Any, ready: Any = None) -> np.ndarray:
        """Scale ``source`` (a PIL image) band by band; ``ready(rows)`` blocks until that many
        source rows hold data and returns False to give up (then this returns an empty array)."""
        from PIL import Image

        w, _ = self.size
        rw, rh = self.reduced
        reduced = source if self.factor == 1 else Image.new(source.mode, (rw, rh))
        done = 0  # reduced rows filled
        parts: list[np.ndarray] = []
        for band, (o0, o1) in enumerate(self.bands):
            if ready is not None and not ready(self.source_rows(band)):
                return np.empty((0, 0, 3), np.uint8)
            need = self.reduced_needed[band]
            if self.factor > 1 and need > done:
                box = (0, done * self.factor, w, min(self.size[1], need * self.factor))
                reduced.paste(source.reduce(self.factor, box=box), (0, done))
                done = need
            part = reduced.resize((self.out[0], o1 - o0), Image.Resampling.BILINEAR, box=(0, o0 * self.sy, rw, o1 * self.sy))
            parts.append(np.asarray(part if part.mode == "RGB" else part.convert("RGB")))
        return np.concatenate(parts)


def scale_image(image: Any, width: int | None) -> np.ndarray:
    """``image`` (PIL) as uint8 RGB, scaled to ``width`` pixels wide if given."""
    from PIL import Image

    if width is not None:
        width = int(width)
        if width <= 0:
            raise ValueError(f"screenshot width must be positive, got {width}")
        dev_w, dev_h = image.size
        if width < dev_w:
            return ScalePlan(dev_w, dev_h, width).run(image)
        if width > dev_w:
            image = image.resize((width, round(dev_h * width / dev_w)), Image.Resampling.BILINEAR)
    if image.mode != "RGB":
        image = image.convert("RGB")
    return np.asarray(image)


class PipelinedScale:
    """Scales a raw RGBA/RGBX frame on a worker thread while its bytes are still arriving.

    The receiving thread reports progress with :meth:`feed`; the worker scales each output band
    as soon as the rows it reads are in (PIL releases the GIL while it works), so on a device
    whose transfer takes longer than the scaling, only the last band is left after the last byte.
    """

    def __init__(self, buf: bytearray, header_size: int, w: int, h: int, width: int) -> None:
        from PIL import Image

        self.plan = ScalePlan(w, h, width)
        self.header_size = header_size
        self.row_bytes = w * 4
        self.expected = header_size + h * self.row_bytes
        # RGBX over the buffer being filled: no copy; the worker only reads rows already in.
        self.source = Image.frombuffer("RGBX", (w, h), memoryview(buf)[header_size : self.expected], "raw", "RGBX", 0, 1)  # type: ignore[arg-type]
        self.received = 0
        self.closed = False
        self.result: np.ndarray | None = None
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._run, name="adb-screencap-scale", daemon=True)
        self.thread.start()

    def _ready(self, rows: int) -> bool:
        need = self.header_size + rows * self.row_bytes
        with self.cond:
            while self.received < need and not self.closed:
                self.cond.wait()
            return self.received >= need and self.received <= self.expected

    def _run(self) -> None:
        with contextlib.suppress(Exception):  # any failure leaves result None: scaled afresh
            result = self.plan.run(self.source, self._ready)
            if result.size:
                self.result = result

    def feed(self, received: int) -> None:
        with self.cond:
            self.received = received
            self.cond.notify()

    def finish(self, total: int | None) -> np.ndarray | None:
        """Stop feeding (``total`` bytes arrived; ``None`` if the read failed); the scaled frame
        if the data was exactly the frame this pipeline expected, else None."""
        with self.cond:
            if total is not None:
                self.received = total
            self.closed = True
            self.cond.notify()
        self.thread.join()
        self.source.close()
        return self.result if total == self.expected else None
