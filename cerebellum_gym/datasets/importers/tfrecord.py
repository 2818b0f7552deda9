"""TFRecord files without TensorFlow: framing, masked CRC32C checks, GZIP, damage counted.

A record is ``uint64 length | uint32 masked_crc(length) | data | uint32 masked_crc(data)``, all
little-endian; the CRC is CRC32C (Castagnoli), masked as TensorFlow masks it. A file may be GZIP
compressed (told by its magic bytes, not its name). A record whose CRC does not match is skipped
and counted; a file cut short ends the file (counted as ``truncated``), never the import.

CRC32C comes from ``google-crc32c`` (the ``datasets`` extra, C speed) when installed, else from
a table-driven pure-Python fallback (correct, about a hundred times slower).
"""

from __future__ import annotations

import gzip
import struct
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, Final

try:
    import google_crc32c as _gcrc

    def crc32c(data: bytes) -> int:
        """CRC32C (Castagnoli) of ``data``."""
        return int(_gcrc.value(bytes(data)))

except ImportError:  # pragma: no cover - depends on the install
    _gcrc = None  # type: ignore[assignment]

    def crc32c(data: bytes) -> int:
        return crc32c_python(data)


_POLY: Final = 0x82F63B78  # CRC32C, reflected
_TABLE: Final = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ _POLY if _c & 1 else _c >> 1
    _TABLE.append(_c)


def crc32c_python(data: bytes) -> int:
    """CRC32C in pure Python (the fallback; also checks the fast one in tests)."""
    crc = 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    """TensorFlow's masked CRC32C: rotated right by 15 bits plus a constant (a CRC of data that
    holds CRCs would otherwise be weak)."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


#: Most bytes one record may claim (a damaged length must not allocate gigabytes).
MAX_RECORD_BYTES: Final = 1 << 30
_GZIP_MAGIC: Final = b"\x1f\x8b"


def _open(path: Path) -> BinaryIO:
    raw = open(path, "rb")  # noqa: SIM115 - returned, closed by the caller
    magic = raw.read(2)
    raw.seek(0)
    if magic == _GZIP_MAGIC:
        return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]
    return raw


def read_records(path: str | Path, damage: Counter[str] | None = None) -> Iterator[bytes]:
    """The records of a TFRecord file (plain or GZIP), in order.

    Args:
        damage: counts what was skipped: ``bad_crc`` (a record whose data CRC fails),
            ``bad_length_crc`` (a length whose CRC fails: the rest of the file cannot be framed,
            so it ends), ``truncated`` (the file, or its GZIP stream, ends inside a record).
    """
    counts = damage if damage is not None else Counter()
    f = _open(Path(path))
    try:
        while True:
            try:
                header = f.read(12)
                if not header:
                    return
                if len(header) < 12:
                    counts["truncated"] += 1
                    return
                length_bytes = header[:8]
                if struct.unpack("<I", header[8:])[0] != masked_crc(length_bytes):
                    counts["bad_length_crc"] += 1
                    return
                (length,) = struct.unpack("<Q", length_bytes)
                if length > MAX_RECORD_BYTES:
                    counts["bad_length_crc"] += 1
                    return
                data = f.read(length)
                footer = f.read(4)
            except (EOFError, OSError, zlib.error):  # a GZIP stream cut short or corrupt
                counts["truncated"] += 1
                return
            if len(data) < length or len(footer) < 4:
                counts["truncated"] += 1
                return
            if struct.unpack("<I", footer)[0] != masked_crc(data):
                counts["bad_crc"] += 1
                continue
            yield data
    finally:
        f.close()


def frame_record(data: bytes) -> bytes:
    """One record, framed (for writers of test and benchmark files)."""
    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", masked_crc(length)) + data + struct.pack("<I", masked_crc(data))


def write_records(path: str | Path, records: list[bytes] | Iterator[bytes], *, compress: bool = True) -> None:
    """Write ``records`` as a TFRecord file (GZIP by default, as AndroidControl ships)."""
    opener = gzip.open if compress else open
    with opener(path, "wb") as f:
        for record in records:
            f.write(frame_record(record))


__all__ = ["crc32c", "crc32c_python", "frame_record", "masked_crc", "read_records", "write_records"]
