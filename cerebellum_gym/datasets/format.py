"""The on-disk dataset format (version 1): layout, image ids, encoding, and JSON helpers.

A recorded dataset is a folder::

    DIR/
      dataset.json                     {"format": "cerebellum-gym-dataset", "version": 1, ...}
      images/ab/<image id>.png         every distinct image once (content-addressed)
      episodes/<episode id>/
        episode.json                   task, parameters, goal, seed, agent, env, outcome, status
        steps.jsonl                    one line per observation, oldest first

Each file is written so that a process killed at any instant leaves every earlier episode intact:
images and ``episode.json`` are written to a temporary name and renamed into place (atomic on
POSIX), and ``steps.jsonl`` only grows by whole lines, written after the images they name. An
episode whose ``episode.json`` does not say ``"complete": true`` was interrupted; readers keep
its whole lines and mark it incomplete.

The image id is a 128-bit hash of the raw pixels (shape included), so identical screens are
stored once, a replay can compare screens without decoding anything, and an audit can check
that a stored file decodes to the pixels it claims. See ``docs/datasets.md`` for every field.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import os
import struct
import tempfile
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final, Protocol

import numpy as np

from cerebellum_gym.errors import CerebellumError

FORMAT_NAME: Final = "cerebellum-gym-dataset"
#: Bumped on any change a version-1 reader would misread.
FORMAT_VERSION: Final = 1
DATASET_FILE: Final = "dataset.json"
EPISODES_DIR: Final = "episodes"
IMAGES_DIR: Final = "images"
EPISODE_FILE: Final = "episode.json"
STEPS_FILE: Final = "steps.jsonl"
IMAGE_EXT: Final = ".png"
#: zlib level of stored PNGs: level 1 is several times faster than the default, and UI screens stay small.
PNG_LEVEL: Final = 1


class DatasetError(CerebellumError):
    """A folder that is not a dataset, a newer format version, or an unreadable record."""


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


def image_id(pixels: np.ndarray, new_hash: Callable[[], Hasher]) -> str:
    """The content id of an image: the hash of its shape and raw bytes, in hex."""
    array = np.ascontiguousarray(pixels, dtype=np.uint8)
    hasher = new_hash()
    hasher.update(("x".join(str(d) for d in array.shape) + ":").encode())
    hasher.update(memoryview(array).cast("B"))  # type: ignore[arg-type]  # no copy of the pixels
    return hasher.digest().hex()


def image_path(root: Path, ident: str) -> Path:
    """Where image ``ident`` lives under a dataset folder."""
    return root / IMAGES_DIR / ident[:2] / f"{ident}{IMAGE_EXT}"


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


def decode_image(data: bytes) -> np.ndarray:
    """An RGB ``uint8`` array from encoded image bytes."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        return np.asarray(image.convert("RGB"))


# --- files ------------------------------------------------------------------------------------


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so a reader sees the old file or the whole new one, never a part."""
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
    """``value`` as plain JSON types (numpy scalars and arrays become numbers and lists; anything
    else unknown becomes its ``repr``). Non-finite floats become ``None``."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, np.generic):
        return jsonable(value.item())
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str | int | bool) or value is None:
        return value
    return repr(value)


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


def bits(mask: np.ndarray | Any) -> str:
    """A 0/1 mask as a compact string (``"110010"``)."""
    flags = np.asarray(mask).reshape(-1) != 0
    return (flags.view(np.uint8) + ord("0")).tobytes().decode("ascii")


def unbits(text: str) -> np.ndarray:
    """The ``int8`` mask :func:`bits` wrote."""
    return np.frombuffer(text.encode("ascii"), dtype=np.uint8).astype(np.int8) - ord("0")


def dataset_header(hash_name: str) -> dict[str, Any]:
    return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "image_hash": hash_name, "image_format": "png"}


def read_header(root: Path) -> dict[str, Any]:
    """The ``dataset.json`` of a dataset folder, checked.

    Raises:
        DatasetError: not a dataset, or written by a newer format version.
    """
    path = root / DATASET_FILE
    try:
        header = json.loads(path.read_text())
    except FileNotFoundError:
        raise DatasetError(f"{root} is not a cerebellum-gym dataset (no {DATASET_FILE})") from None
    except ValueError as exc:
        raise DatasetError(f"{path} is not valid JSON: {exc}") from None
    if header.get("format") != FORMAT_NAME:
        raise DatasetError(f"{path} is not a cerebellum-gym dataset (format {header.get('format')!r})")
    version = header.get("version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise DatasetError(f"{root} has format version {version!r}; this cerebellum-gym reads up to {FORMAT_VERSION}")
    return dict(header)


def ensure_header(root: Path, hash_name: str | None = None) -> dict[str, Any]:
    """Create ``dataset.json`` in ``root`` if it is missing, and return it. Processes starting at
    once agree on one header: each writes a private file and hard-links it into place, and a
    link never replaces a file that exists."""
    root.mkdir(parents=True, exist_ok=True)
    path = root / DATASET_FILE
    if not path.exists():
        header = dataset_header(hash_name or default_hash_name())
        fd, tmp = tempfile.mkstemp(prefix=".dataset.", suffix=".tmp", dir=root)
        try:
            with os.fdopen(fd, "w") as f:
                f.write(json.dumps(header, indent=1, sort_keys=True) + "\n")
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
        finally:
            os.unlink(tmp)
    return read_header(root)
