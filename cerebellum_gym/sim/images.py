"""Images the simulated apps show: decoded from the bytes on the phone's storage, downscaled to
the size they are shown at, and cached, with bounded memory whatever the file holds.

A gallery on a phone never holds a photo at full size: it decodes it subsampled to the view
(Android's ``inSampleSize``). Here JPEGs are decoded at 1/2, 1/4 or 1/8 scale straight from the
file (PIL's ``draft``), other formats only when their pixel count is within
:data:`MAX_DECODE_PIXELS`; the result is shrunk to the box it is shown in and kept in a
byte-bounded LRU shared by every phone in the process. A file that is damaged, not an image, or
too large to decode gives ``None`` (the app shows its error), never an exception.

Example:
    >>> import io
    >>> from PIL import Image
    >>> buf = io.BytesIO(); Image.new("RGB", (4000, 3000), (200, 10, 10)).save(buf, "JPEG")
    >>> thumbnail(("doc", 1), buf.getvalue(), (400, 400)).size
    (400, 300)
    >>> thumbnail(("doc", 1), buf.getvalue(), (1600, 1600)).size  # enlarged to fit
    (1600, 1200)
    >>> thumbnail(("junk", 1), b"not an image", (400, 400)) is None
    True
"""

from __future__ import annotations

import io
import warnings
from collections import OrderedDict
from collections.abc import Hashable
from typing import Final

from PIL import Image

#: Extensions the gallery lists as images (what Android's media scanner files as images).
IMAGE_EXTENSIONS: Final = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp")
#: The most pixels decoded at once from a format that cannot be subsampled while decoding
#: (about 100 MB of RGB); larger pictures show the app's error.
MAX_DECODE_PIXELS: Final = 32_000_000
#: Bytes of decoded thumbnails kept.
CACHE_BYTES: Final = 48 * 1024 * 1024


def is_image_name(name: str) -> bool:
    """Whether the gallery lists a file of this name."""
    return name.lower().endswith(IMAGE_EXTENSIONS)


def _decode(data: bytes, box: tuple[int, int]) -> Image.Image | None:
    width, height = max(1, box[0]), max(1, box[1])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PIL's DecompressionBombWarning: handled below
            with Image.open(io.BytesIO(data)) as image:
                if image.format == "JPEG":
                    # Decode subsampled (1/2 to 1/8) to the least that still covers the picture as
                    # fitted in the box, never at full size.
                    fit = min(width / image.width, height / image.height, 1.0)
                    image.draft("RGB", (max(1, round(image.width * fit)), max(1, round(image.height * fit))))
                if image.width * image.height > MAX_DECODE_PIXELS:
                    return None
                image.seek(0)
                image.thumbnail((width, height))
                picture = image.convert("RGB")
    except Exception:  # any damaged or foreign file: PIL raises many kinds
        return None
    # Fitted to the box (a small picture is enlarged, as a viewer shows it screen-wide).
    fit = min(width / picture.width, height / picture.height)
    if fit > 1.0:
        picture = picture.resize((max(1, round(picture.width * fit)), max(1, round(picture.height * fit))), Image.Resampling.BICUBIC)
    return picture


class ThumbnailCache:
    """Decoded, downscaled images by (source key, box), least recently used dropped first."""

    def __init__(self, max_bytes: int = CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[Hashable, Image.Image | None] = OrderedDict()
        self._bytes = 0

    def get(self, key: Hashable, data: bytes, box: tuple[int, int]) -> Image.Image | None:
        """The image of ``data`` fitted in ``box``; ``key`` names the file's content (a path
        and its modification time)."""
        full = (key, box)
        if full in self._items:
            self._items.move_to_end(full)
            return self._items[full]
        image = _decode(data, box)
        self._items[full] = image
        self._bytes += _size(image)
        while self._bytes > self.max_bytes and self._items:
            _, old = self._items.popitem(last=False)
            self._bytes -= _size(old)
        return image

    @property
    def nbytes(self) -> int:
        return self._bytes

    def clear(self) -> None:
        self._items.clear()
        self._bytes = 0


def _size(image: Image.Image | None) -> int:
    return 64 if image is None else image.width * image.height * 3


THUMBNAILS: Final = ThumbnailCache()


def thumbnail(key: Hashable, data: bytes, box: tuple[int, int]) -> Image.Image | None:
    """``data`` decoded and fitted in ``box`` (aspect kept), from the shared cache; ``None`` when
    it cannot be shown."""
    return THUMBNAILS.get(key, data, box)


__all__ = ["IMAGE_EXTENSIONS", "MAX_DECODE_PIXELS", "THUMBNAILS", "ThumbnailCache", "is_image_name", "thumbnail"]
