"""The on-disk dataset format (version 2): layout, image ids, encoding, and JSON helpers.

A recorded dataset is a folder; each writer (one per recording process) owns a part of it and
only ever appends to the four files of its part::

    DIR/
      dataset.json              {"format": "cerebellum-gym-dataset", "version": 2, "image_hash": ..., "image_format": ...}
      parts/<writer id>/
        episodes.jsonl          an episode's record (task, parameters, seed, agent, outcome, status)
                                when it begins and again when it ends: the last one counts
        steps.jsonl             one line per observation, {"episode_id": ..., ...}, oldest first
        images.bin              the writer's new images, encoded, back to back
        images.idx              "<image id> <offset> <size>" per image, written after its bytes

Nothing is ever rewritten, and each file is made durable in an order that keeps every line
true when a process is killed at any instant: an image's bytes before its index line, the
index before a step line naming the image, a step line before its episode's final record. A
line cut short (no newline) is ignored; if it is a step line its episode is marked torn. An
episode whose last record does not say ``"complete": true`` was interrupted: readers keep its
whole lines and mark it incomplete. Recording creates no file per episode or per image (file
creations were about half of version 1's recording CPU on the 2-core machine it was measured on).

The image id is a 128-bit hash of the raw pixels (shape included), so identical screens are
stored once per dataset (two processes meeting a new screen at the same moment may each store
it; readers take either), a replay can compare screens without decoding anything, and an audit
can check that stored bytes decode to the pixels they claim. See ``docs/datasets.md`` for every
field.

Images are stored in the dataset's ``image_format``: ``"npy.zst"`` (version 2's default: two
standard Zstandard frames, a stored ``.npy`` header and the compressed pixels, so ``zstd -d``
gives back a ``.npy`` file; several times cheaper to write than PNG and smaller on UI screens;
it needs ``pyarrow``, the ``datasets`` extra) or ``"png"`` (version 1's only format, and
version 2's when ``pyarrow`` is missing). Exports hand tools PNG whatever the stored format
(:func:`png_bytes`).

Version 1 (read, and appended to, by this version): a folder per episode,
``episodes/<episode id>/{episode.json, steps.jsonl}`` (no ``episode_id`` in the lines), and a
PNG file per image, ``images/ab/<image id>.png``. A writer adding to a version-1 dataset marks
it version 2 and adds its part; the old episodes stay where they are.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import hashlib
import io
import json
import math
import os
import re
import stat
import struct
import tempfile
import uuid
import warnings
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final, Protocol

import numpy as np
from numpy.lib import format as npformat

from cerebellum_gym.errors import CerebellumError

try:  # ten times faster than json on a step's line; optional ('datasets' extra)
    import orjson as _orjson
except ImportError:  # pragma: no cover - depends on the install
    _orjson = None  # type: ignore[assignment]

FORMAT_NAME: Final = "cerebellum-gym-dataset"
#: Bumped on any change an older reader would misread (2: images may be ``npy.zst``).
FORMAT_VERSION: Final = 2
DATASET_FILE: Final = "dataset.json"
EPISODES_DIR: Final = "episodes"
IMAGES_DIR: Final = "images"
EPISODE_FILE: Final = "episode.json"
STEPS_FILE: Final = "steps.jsonl"
#: Version 2: one folder per writer (a recording process) holding four append-only files.
PARTS_DIR: Final = "parts"
PART_EPISODES: Final = "episodes.jsonl"
PART_STEPS: Final = "steps.jsonl"
PART_IMAGES: Final = "images.bin"
PART_INDEX: Final = "images.idx"
#: File name suffix of each image format.
IMAGE_EXTS: Final = {"png": ".png", "npy.zst": ".npy.zst"}
#: zlib level of stored PNGs: level 1 is several times faster than the default, and UI screens stay small.
PNG_LEVEL: Final = 1


class DatasetError(CerebellumError):
    """A folder that is not a dataset, a newer format version, or an unreadable record."""


# --- limits on what a dataset may claim (datasets are shared: a file may be hostile) ----------

#: The most pixels an image may have (Pillow's default decompression-bomb limit): a screen of a
#: few megapixels decodes; a header claiming gigapixels is refused before anything is allocated.
MAX_IMAGE_PIXELS: Final = 89_478_485
#: The most bytes a stored (encoded) image may take: an image at the pixel limit, stored raw.
MAX_IMAGE_BYTES: Final = 3 * MAX_IMAGE_PIXELS + 4096
#: What an image id looks like: the hex digest of a 64- to 512-bit hash (a file name, never a path).
IMAGE_ID_RE: Final = re.compile(r"[0-9a-f]{16,128}")
#: The longest episode id accepted (ids name folders in version 1).
MAX_EPISODE_ID: Final = 200


def check_image_id(ident: object) -> str:
    """``ident`` if it is a well-formed image id (hex digits only: never a path).

    Raises:
        DatasetError: anything else (a path, ``..``, a NUL, a very long string, not a string).
    """
    if not isinstance(ident, str) or IMAGE_ID_RE.fullmatch(ident) is None:
        raise DatasetError(f"bad image id {shown_value(ident)} (expected 16 to 128 lowercase hex digits)")
    return ident


def check_episode_id(episode_id: object) -> str:
    """``episode_id`` if it can name an episode (and, in version 1, its folder): a non-empty
    string of at most :data:`MAX_EPISODE_ID` printable characters, no path separator, not ``.``
    or ``..``.

    Raises:
        DatasetError: anything else.
    """
    if (
        not isinstance(episode_id, str)
        or not 0 < len(episode_id) <= MAX_EPISODE_ID
        or episode_id in (".", "..")
        or any(c in "/\\" or not c.isprintable() for c in episode_id)
    ):
        raise DatasetError(
            f"bad episode id {shown_value(episode_id)} (expected up to {MAX_EPISODE_ID} printable characters, no '/', '\\', '.' or '..')"
        )
    return episode_id


def shown_value(value: object, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit`` characters (a hostile record may hold megabytes)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def contained(root: Path, path: Path) -> Path:
    """``path``, checked to lie inside the dataset folder ``root`` once links are followed.

    Raises:
        DatasetError: a link (or ``..``) leads outside the dataset, or links form a loop.
    """
    try:
        real = path.resolve()
    except (RuntimeError, OSError) as exc:  # Python 3.11-3.12 raise RuntimeError on a link loop
        raise DatasetError(f"{path} cannot be resolved (a loop of symbolic links?): {exc}") from None
    if not real.is_relative_to(root.resolve()):
        raise DatasetError(f"{path} leads outside the dataset {root} (to {real}); refusing to read it")
    return real


def read_file_bytes(path: Path, root: Path | None = None, *, limit: int | None = None) -> bytes:
    """The bytes of a regular file of a dataset (inside ``root`` when given), refusing anything
    else: a FIFO or device would hang or never end, a link may lead outside the dataset.

    Raises:
        FileNotFoundError: the file is missing (callers decide what that means).
        DatasetError: not a regular file, outside ``root``, larger than ``limit``, or unreadable.
    """
    if root is not None:
        contained(root, path)
    try:
        with open(path, "rb", opener=_nonblocking) as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise DatasetError(f"{path} is not a regular file")
            if limit is not None and info.st_size > limit:
                raise DatasetError(f"{path} is {info.st_size} bytes, more than the {limit} allowed")
            return f.read()
    except FileNotFoundError:
        raise
    except (IsADirectoryError, NotADirectoryError):
        raise DatasetError(f"{path} is not a regular file") from None
    except OSError as exc:
        raise DatasetError(f"cannot read {path}: {exc.strerror or exc}") from None


def _nonblocking(path: str, flags: int) -> int:
    # Opening a FIFO for reading blocks until a writer comes; O_NONBLOCK lets fstat refuse it.
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


# --- image ids --------------------------------------------------------------------------------


class Hasher(Protocol):
    """A running hash (``hashlib``'s and ``xxhash``'s objects)."""

    def update(self, data: bytes | memoryview, /) -> None: ...

    def digest(self) -> bytes: ...


def _xxh3_128() -> Callable[[], Hasher] | None:
    try:
        import xxhash
    except ImportError:
        return None
    return xxhash.xxh3_128


def _blake2b_128() -> Callable[[], Hasher]:
    return lambda: hashlib.blake2b(digest_size=16)


#: Image hash algorithms by name. xxh3 (the ``datasets`` extra) hashes a 464-px screen in tens of
#: microseconds; blake2b, in the standard library, takes a few milliseconds.
HASHES: dict[str, Callable[[], Callable[[], Hasher] | None]] = {"xxh3_128": _xxh3_128, "blake2b_128": _blake2b_128}


def default_hash_name() -> str:
    """The fastest image hash available here."""
    return "xxh3_128" if _xxh3_128() is not None else "blake2b_128"


def hash_function(name: str) -> Callable[[], Hasher]:
    """A factory of running hashes of the algorithm called ``name``.

    Raises:
        DatasetError: unknown, or its package is not installed.
    """
    factory = HASHES.get(name)
    fn = factory() if factory is not None else None
    if fn is None:
        raise DatasetError(f"image hash {name!r} is not available (known: {', '.join(HASHES)}; xxh3_128 needs the 'xxhash' package)")
    return fn


@functools.lru_cache(maxsize=64)
def _shape_prefix(shape: tuple[int, ...]) -> bytes:
    return ("x".join(str(d) for d in shape) + ":").encode()


def image_id(pixels: np.ndarray, new_hash: Callable[[], Hasher]) -> str:
    """The content id of an image: the hash of its shape and raw bytes, in hex."""
    array = np.ascontiguousarray(pixels, dtype=np.uint8)
    hasher = new_hash()
    hasher.update(_shape_prefix(array.shape))
    hasher.update(memoryview(array).cast("B"))  # type: ignore[arg-type]  # no copy of the pixels
    return hasher.digest().hex()


def image_path(root: Path, ident: str, image_format: str = "png") -> Path:
    """Where image ``ident`` lives under a dataset folder whose images are in ``image_format``.

    Raises:
        DatasetError: ``ident`` is not an image id (a path, for instance).
    """
    check_image_id(ident)
    return root / IMAGES_DIR / ident[:2] / f"{ident}{IMAGE_EXTS[image_format]}"


def encode_png(pixels: np.ndarray) -> bytes:
    """Lossless PNG bytes of an RGB image: no row filter, zlib level 1.

    A standard PNG (any decoder reads it), written here because it takes about 2.5 times less
    CPU than Pillow's encoder at its fastest level, for a file of about the same size on UI
    screens (flat colours compress well without filtering).
    """
    array = np.ascontiguousarray(pixels, dtype=np.uint8)
    height, width = array.shape[:2]
    rows = np.empty((height, width * 3 + 1), np.uint8)
    rows[:, 0] = 0  # filter type 0 (none) on every row
    rows[:, 1:] = array.reshape(height, width * 3)
    compressor = zlib.compressobj(PNG_LEVEL)
    data = compressor.compress(memoryview(rows).cast("B")) + compressor.flush()  # type: ignore[arg-type]

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(body, zlib.crc32(kind)))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, deflate, no interlace
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


ZSTD_MAGIC: Final = b"\x28\xb5\x2f\xfd"
PNG_MAGIC: Final = b"\x89PNG\r\n\x1a\n"
#: Zstandard level of ``npy.zst`` images (1: the fastest positive level; UI screens still shrink ~100x).
ZSTD_LEVEL: Final = 1


@functools.cache
def _zstd_codec() -> Any:
    try:
        import pyarrow as pa
    except ImportError:
        return None
    return pa.Codec("zstd", compression_level=ZSTD_LEVEL) if pa.Codec.is_available("zstd") else None


def zstd_available() -> bool:
    """Whether ``npy.zst`` images can be written and read here (``pyarrow`` with Zstandard)."""
    return _zstd_codec() is not None


def default_image_format() -> str:
    """``npy.zst`` where Zstandard is available (``pyarrow``), else ``png``."""
    return "npy.zst" if zstd_available() else "png"


def _need_zstd() -> Any:
    codec = _zstd_codec()
    if codec is None:
        raise DatasetError("images in npy.zst need pyarrow with Zstandard (pip install 'cerebellum-gym[datasets]')")
    return codec


def _raw_zstd_frame(data: bytes) -> bytes:
    """``data`` as one uncompressed Zstandard frame (RFC 8878: a single Raw block, its size declared)."""
    descriptor = 0xA0  # 4-byte Frame_Content_Size, single segment, no checksum, no dictionary
    block_header = (len(data) << 3 | 1).to_bytes(3, "little")  # last block, type Raw
    return ZSTD_MAGIC + bytes([descriptor]) + len(data).to_bytes(4, "little") + block_header + data


def encode_npy_zst(pixels: np.ndarray) -> bytes:
    """A ``.npy`` file of ``pixels`` as Zstandard: two standard frames, the ``.npy`` header
    stored as is, then the pixels compressed straight from the array (no copy of them);
    ``zstd -d`` gives back the ``.npy`` file."""
    array = np.ascontiguousarray(pixels, dtype=np.uint8)
    header = io.BytesIO()
    npformat.write_array_header_1_0(header, npformat.header_data_from_array_1_0(array))
    return _raw_zstd_frame(header.getvalue()) + bytes(_need_zstd().compress(array, asbytes=True))


def decode_npy_zst(data: bytes) -> np.ndarray:
    """The array :func:`encode_npy_zst` wrote (read-only)."""
    size = int.from_bytes(data[5:9], "little")
    if data[:5] != ZSTD_MAGIC + b"\xa0" or data[9:12] != (size << 3 | 1).to_bytes(3, "little"):
        raise DatasetError("not an npy.zst image (its first frame is not a stored .npy header)")
    stream = io.BytesIO(data[12 : 12 + size])
    version = npformat.read_magic(stream)
    if version != (1, 0):
        raise DatasetError(f"unsupported .npy version {version} in an image")
    shape, fortran, dtype = npformat.read_array_header_1_0(stream)
    if fortran or dtype != np.uint8:
        raise DatasetError(f"an image must be a C-ordered uint8 array, not {dtype} (fortran={fortran})")
    _check_image_shape(shape)  # before decompressing: the header may claim gigabytes
    pixels = _need_zstd().decompress(data[12 + size :], decompressed_size=math.prod(shape), asbytes=True)
    return np.frombuffer(pixels, np.uint8).reshape(shape)


def _check_image_shape(shape: tuple[int, ...]) -> None:
    if len(shape) != 3 or shape[2] != 3 or not shape[0] > 0 < shape[1]:
        raise DatasetError(f"an image must be RGB, of shape (height, width, 3), not {shape}")
    if shape[0] * shape[1] > MAX_IMAGE_PIXELS:
        raise DatasetError(f"an image of {shape[1]}x{shape[0]} pixels is over the limit of {MAX_IMAGE_PIXELS} (a decompression bomb?)")


def encode_image(pixels: np.ndarray, image_format: str) -> bytes:
    """``pixels`` in a dataset's ``image_format`` (``npy.zst`` or ``png``)."""
    return encode_npy_zst(pixels) if image_format == "npy.zst" else encode_png(pixels)


def decode_image(data: bytes) -> np.ndarray:
    """An RGB ``uint8`` array from stored image bytes (PNG or ``npy.zst``, told by their magic).

    Raises:
        DatasetError: the bytes do not decode to an RGB image of at most :data:`MAX_IMAGE_PIXELS`.
    """
    try:
        if data[:4] == ZSTD_MAGIC:
            return decode_npy_zst(data)
        from PIL import Image

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # refused just below
            image = Image.open(io.BytesIO(data))
        with image:
            _check_image_shape((image.height, image.width, 3))  # Image.open reads only the header
            return np.asarray(image.convert("RGB"))
    except DatasetError:
        raise
    except Exception as exc:  # Pillow, pyarrow and numpy each raise their own on bad bytes
        raise DatasetError(f"image bytes do not decode: {type(exc).__name__}: {exc}") from None


def check_png_header(data: bytes) -> None:
    """Check the size a PNG's header declares (exports hand stored PNG bytes on undecoded).

    Raises:
        DatasetError: not a PNG header, or more than :data:`MAX_IMAGE_PIXELS` pixels.
    """
    if data[:8] != PNG_MAGIC or data[12:16] != b"IHDR" or len(data) < 24:
        raise DatasetError("not a PNG image (no PNG signature and IHDR header)")
    width, height = struct.unpack(">II", data[16:24])
    if width * height > MAX_IMAGE_PIXELS:
        raise DatasetError(f"an image of {width}x{height} pixels is over the limit of {MAX_IMAGE_PIXELS} (a decompression bomb?)")


def png_bytes(data: bytes) -> bytes:
    """Stored image bytes as PNG (what ``datasets``, trainers and browsers read)."""
    return data if data[:8] == PNG_MAGIC else encode_png(decode_image(data))


# --- files ------------------------------------------------------------------------------------


def atomic_write(path: Path, data: bytes, *, make_parent: bool = True) -> None:
    """Write ``data`` to ``path`` so a reader sees the old file or the whole new one, never a part
    (``make_parent=False``: the caller knows the folder exists)."""
    if make_parent:
        path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_json_atomic(path: Path, value: Any) -> None:
    atomic_write(path, (json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode())


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON types (numpy scalars and arrays become numbers and lists, an enum
    member its value, a UUID its string; anything else unknown becomes its ``repr``).
    Non-finite floats become ``None``."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, np.generic):
        return jsonable(value.item())
    # As orjson writes them, so that a line reads the same whichever encoder wrote it.
    if isinstance(value, enum.Enum):
        return jsonable(value.value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str | int | bool) or value is None:
        return value
    return repr(value)


def _json_default(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError  # anything else takes jsonable's path


# Built once: json.dumps with options builds a new encoder on every call.
_LINE_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=_json_default)
_PLAIN_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_ASCII_ENCODER = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"))


# Dates and dataclasses go the way the standard library's encoder sends them (to jsonable).
_ORJSON_OPTIONS: Final = (
    _orjson.OPT_APPEND_NEWLINE | _orjson.OPT_PASSTHROUGH_DATETIME | _orjson.OPT_PASSTHROUGH_DATACLASS if _orjson is not None else 0
)


def dumps_line(value: Any) -> str:
    """``jsonable(value)`` as one compact JSON line (UTF-8 text, ending in a newline)."""
    return dumps_line_bytes(value).decode()


def dumps_line_bytes(value: Any) -> bytes:
    """:func:`dumps_line` as UTF-8 bytes, without walking plain values in Python: ``orjson``
    (where installed) or the standard library's C encoder serialises them, and :func:`jsonable`
    runs only when something needs converting (non-string keys, non-finite floats, unknown
    objects, integers past 64 bits). Keys that are ``True``, ``False`` or ``None`` come out
    as JSON writes them (``"true"``), not as ``str`` does. Either encoder writes the same
    values; only the spelling of some floats differs (``1e-05`` or ``0.00001``)."""
    if _orjson is not None:
        try:
            # NaN and infinities come out as null there, as jsonable makes them.
            return _orjson.dumps(value, default=_json_default, option=_ORJSON_OPTIONS)
        except TypeError:  # orjson.JSONEncodeError: non-string keys, huge ints, unknown objects
            pass
    try:
        text = _LINE_ENCODER.encode(value)
    except (TypeError, ValueError):
        text = _PLAIN_ENCODER.encode(jsonable(value))
    try:
        return (text + "\n").encode()
    except UnicodeEncodeError:
        # A lone surrogate (text an agent typed, e.g. half an emoji) is not UTF-8: written as a
        # \ud800 escape it stays valid JSON and reads back exactly, so a replay sends the same text.
        return (_ASCII_ENCODER.encode(jsonable(value)) + "\n").encode()


_SURROGATES = re.compile("[\ud800-\udfff]")


def unicode_safe(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings (keys included) replaced by U+FFFD, for
    stores that hold only valid UTF-8 (Arrow: Parquet, Minari). Values without any come back as they are."""
    if isinstance(value, str):
        return _SURROGATES.sub("\ufffd", value) if _SURROGATES.search(value) else value
    if isinstance(value, Mapping):
        return {unicode_safe(k): unicode_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [unicode_safe(v) for v in value]
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# Built once: json.loads with an option builds a decoder per call (2.5 times slower on a step line).
_STRICT_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def loads_strict(data: str | bytes) -> Any:
    """``json.loads`` of UTF-8 text without Python's extensions: ``NaN`` and ``Infinity`` are
    refused (no writer of this format writes them, and a NaN reward would match any replayed
    reward).

    Raises:
        ValueError: not JSON (``UnicodeDecodeError`` for bytes that are not UTF-8).
    """
    return _STRICT_DECODER.decode(data.decode("utf-8") if isinstance(data, bytes) else data)


def is_plain_json(value: Any) -> bool:
    """Whether ``value`` survives a JSON round trip unchanged (so it can rebuild an env)."""
    if isinstance(value, Mapping):
        return all(isinstance(k, str) and is_plain_json(v) for k, v in value.items())
    if isinstance(value, list):
        return all(is_plain_json(v) for v in value)
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, str | int | bool) or value is None


def canonical_json(value: Any) -> str:
    """One string per value: sorted keys, no spaces (keys for grouping and hashing)."""
    return json.dumps(jsonable(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


#: Byte 0 -> "0", any other byte -> "1" (for :func:`bits` on one-byte masks).
_BITS_TABLE: Final = b"0" + b"1" * 255


def bits(mask: np.ndarray | Any) -> str:
    """A 0/1 mask as a compact string (``"110010"``): ``"1"`` for each nonzero entry."""
    array = np.asarray(mask)
    if array.dtype.itemsize == 1 and array.dtype.kind in "biu":  # the env's masks: one C call
        return array.tobytes().translate(_BITS_TABLE).decode("ascii")
    flags = array.reshape(-1) != 0
    return (flags.view(np.uint8) + ord("0")).tobytes().decode("ascii")


def unbits(text: str) -> np.ndarray:
    """The ``int8`` mask :func:`bits` wrote."""
    return np.frombuffer(text.encode("ascii"), dtype=np.uint8).astype(np.int8) - ord("0")


def dataset_header(hash_name: str, image_format: str | None = None) -> dict[str, Any]:
    image_format = image_format or default_image_format()
    return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "image_hash": hash_name, "image_format": image_format}


def read_header(root: Path) -> dict[str, Any]:
    """The ``dataset.json`` of a dataset folder, checked.

    Raises:
        DatasetError: not a dataset, or written by a newer format version.
    """
    path = root / DATASET_FILE
    if root.exists() and not root.is_dir():
        raise DatasetError(f"{root} is not a cerebellum-gym dataset (not a folder)")
    try:
        header = loads_strict(read_file_bytes(path, root, limit=1 << 20))
    except FileNotFoundError:
        raise DatasetError(f"{root} is not a cerebellum-gym dataset (no {DATASET_FILE})") from None
    except ValueError as exc:
        raise DatasetError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT_NAME:
        found = header.get("format") if isinstance(header, dict) else header
        raise DatasetError(f"{path} is not a cerebellum-gym dataset (format {shown_value(found)})")
    version = header.get("version")
    if type(version) is not int or not 1 <= version <= FORMAT_VERSION:  # not bool: true is no version
        raise DatasetError(f"{root} has format version {shown_value(version)}; this cerebellum-gym reads versions 1 to {FORMAT_VERSION}")
    header = dict(header)
    header.setdefault("image_format", "png")  # version 1 had no other
    if not isinstance(header["image_format"], str) or header["image_format"] not in IMAGE_EXTS:
        raise DatasetError(f"{path}: unknown image format {shown_value(header['image_format'])} (known: {', '.join(IMAGE_EXTS)})")
    hash_name = header.setdefault("image_hash", "blake2b_128")
    if not isinstance(hash_name, str) or hash_name not in HASHES:
        raise DatasetError(f"{path}: unknown image hash {shown_value(hash_name)} (known: {', '.join(HASHES)})")
    return header


def upgrade_header(root: Path, header: Mapping[str, Any]) -> dict[str, Any]:
    """Mark a version-1 dataset as version 2 (a writer is about to add version-2 parts to it;
    its images keep their format) and return the new header."""
    new = {**header, "version": FORMAT_VERSION}
    write_json_atomic(root / DATASET_FILE, new)
    return read_header(root)


def ensure_header(root: Path, hash_name: str | None = None, image_format: str | None = None) -> dict[str, Any]:
    """Create ``dataset.json`` in ``root`` if it is missing, and return it. Processes starting at
    once agree on one header: each writes a private file and hard-links it into place, and a
    link never replaces a file that exists."""
    try:
        root.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError) as exc:  # it, or a folder on its path, is a file
        blocker = next((p for p in (root, *root.parents) if p.exists() and not p.is_dir()), root)
        raise DatasetError(f"cannot record into {root}: {blocker} is a file, not a folder") from exc
    except OSError as exc:
        raise DatasetError(f"cannot record into {root}: {exc.strerror or exc}") from exc
    path = root / DATASET_FILE
    if not path.exists():
        header = dataset_header(hash_name or default_hash_name(), image_format)
        fd, tmp = tempfile.mkstemp(prefix=".dataset.", suffix=".tmp", dir=root)
        try:
            with os.fdopen(fd, "w") as f:
                f.write(json.dumps(header, indent=1, sort_keys=True) + "\n")
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
        finally:
            os.unlink(tmp)
    return read_header(root)


# --- version-2 parts --------------------------------------------------------------------------


def read_lines(path: Path, root: Path | None = None) -> tuple[list[bytes], bytes]:
    """The whole lines of an append-only file and what follows the last newline (a line cut short
    by a killed writer; empty if none). A missing file has no lines.

    Raises:
        DatasetError: not a regular file, or (with ``root``) a link to outside the dataset.
    """
    try:
        data = read_file_bytes(path, root)
    except FileNotFoundError:
        return [], b""
    end = data.rfind(b"\n") + 1
    return data[:end].splitlines(), data[end:]


def part_folders(root: Path) -> list[Path]:
    """The version-2 parts of a dataset (one per writer), in name order (their start time).

    Raises:
        DatasetError: a part is a link to outside the dataset.
    """
    folder = root / PARTS_DIR
    if not folder.is_dir():
        return []
    parts = sorted(p for p in contained(root, folder).iterdir() if p.is_dir())
    for part in parts:
        contained(root, part)
    return [folder / p.name for p in parts]


def _index_entry(fields: list[bytes]) -> tuple[str, int, int] | None:
    """``(id, offset, size)`` of an index line's fields, ``None`` if they are not one."""
    if len(fields) != 3 or not fields[1].isdigit() or not fields[2].isdigit():  # isdigit: no sign
        return None
    try:
        ident = check_image_id(fields[0].decode("ascii"))
    except (UnicodeDecodeError, DatasetError):
        return None
    offset, size = int(fields[1]), int(fields[2])
    return (ident, offset, size) if size <= MAX_IMAGE_BYTES else None


def read_image_index(root: Path) -> dict[str, tuple[Path, int, int]]:
    """Where each image of the dataset's parts lies: ``id -> (images.bin, offset, size)``. An
    image two writers stored at once is listed once (either copy will do).

    Raises:
        DatasetError: a line is not ``<image id> <offset> <size>`` (the file and line named), or
            a size is over :data:`MAX_IMAGE_BYTES`.
    """
    index: dict[str, tuple[Path, int, int]] = {}
    for part in part_folders(root):
        blob = part / PART_IMAGES
        path = part / PART_INDEX
        for number, line in enumerate(read_lines(path, root)[0], 1):
            entry = _index_entry(line.split())
            if entry is None:
                raise DatasetError(
                    f"{path}: line {number} is not '<image id> <offset> <size>' (a size at most {MAX_IMAGE_BYTES}): {shown_value(line)}"
                )
            index.setdefault(entry[0], (blob, entry[1], entry[2]))
    return index


def stored_image_ids(root: Path) -> set[str]:
    """The ids of every image stored in a dataset (parts and version-1 image files)."""
    ids = set(read_image_index(root))
    folder = root / IMAGES_DIR
    if folder.is_dir():
        names = (path.name.split(".", 1)[0] for path in folder.glob("*/*"))
        ids.update(name for name in names if IMAGE_ID_RE.fullmatch(name))  # not a temporary file, nor a stray one
    return ids
