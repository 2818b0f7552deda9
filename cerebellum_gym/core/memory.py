"""Keep freed frame buffers in the process instead of handing them back to the OS.

Every observation carries fresh multi-megabyte arrays (gymnasium's contract: callers may keep
what they are given). glibc serves blocks that large with ``mmap`` and returns them on free, so
every step pays hundreds of page faults to get zeroed pages again: measured here, two 1.4 MB
copies cost 1.4 ms that way and 0.17 ms with the memory reused. Raising glibc's mmap and trim
thresholds keeps those blocks on the heap for reuse; the process holds at most the trim
threshold of free memory in exchange. Other C libraries are left alone.

The setting is the whole process's, so it is an explicit opt-in, never a side effect of making
an env: call :func:`reuse_freed_frames` once (the ``cerebellum-gym`` CLI, the sharded vector
env's worker processes and the benchmarks do, in processes they own), or set
``CEREBELLUM_REUSE_FREED_FRAMES=1`` and every pixel env calls it when it is made.
``CEREBELLUM_KEEP_MALLOC=1`` leaves the allocator untouched whatever asks.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
import sys
from typing import Final

M_TRIM_THRESHOLD: Final = -1
M_MMAP_THRESHOLD: Final = -3
MMAP_THRESHOLD_BYTES: Final = 32 * 1024 * 1024
TRIM_THRESHOLD_BYTES: Final = 128 * 1024 * 1024


def reuse_requested() -> bool:
    """Whether the environment opts in (``CEREBELLUM_REUSE_FREED_FRAMES=1``): pixel envs then tune at once."""
    return os.environ.get("CEREBELLUM_REUSE_FREED_FRAMES") == "1"


@functools.cache
def reuse_freed_frames() -> bool:
    """Tune glibc once per process; returns whether the allocator was tuned."""
    if not sys.platform.startswith("linux") or os.environ.get("CEREBELLUM_KEEP_MALLOC") == "1":
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES))
