"""Temporary files and folders that go with the process that made them, even after a SIGKILL.

Each one is named ``cerebellum-<kind>-<pid>-<random>``: removed when the process exits normally
(``atexit``) or when its owner asks, and swept by the next process that makes one of its kind
when the pid in its name no longer runs (a process killed with SIGKILL runs no handler).

Example:
    >>> import os
    >>> folder = owned_dir("doctest")
    >>> os.path.basename(folder).startswith(f"cerebellum-doctest-{os.getpid()}-")
    True
    >>> remove(folder); os.path.exists(folder)
    False
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shutil
import tempfile
from typing import Final

PREFIX: Final = "cerebellum-"
_NAME: Final = re.compile(r"^cerebellum-(?P<kind>[a-z0-9]+(?:-[a-z0-9]+)*?)-(?P<pid>\d+)-")
_swept: set[tuple[str, str]] = set()
#: What this process made, with the pid that made it (a forked child must not remove its parent's).
_owned: dict[str, int] = {}


def alive(pid: int) -> bool:
    """Whether a process with this pid runs (one of another user's counts as running)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie (exited, not yet reaped by its new parent) answers the signal but runs no more.
    with contextlib.suppress(OSError), open(f"/proc/{pid}/stat", "rb") as stat:
        return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    return True


def sweep(kind: str, folder: str | None = None) -> list[str]:
    """Remove what dead processes left of ``kind`` in ``folder`` (the temp folder by default);
    the paths removed. Once per kind and folder in a process is enough: later leftovers are the
    next process's to sweep."""
    where = folder or tempfile.gettempdir()
    removed = []
    with contextlib.suppress(OSError):
        for name in os.listdir(where):
            match = _NAME.match(name)
            if match is None or match["kind"] != kind or alive(int(match["pid"])):
                continue
            path = os.path.join(where, name)
            _remove(path)
            removed.append(path)
    _swept.add((kind, where))
    return removed


def _remove(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            os.remove(path)


def _prepare(kind: str, folder: str | None) -> str:
    if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", kind):
        raise ValueError(f"a leftover kind is lower-case words joined by '-', got {kind!r}")
    where = folder or tempfile.gettempdir()
    if (kind, where) not in _swept:
        sweep(kind, where)
    return f"{PREFIX}{kind}-{os.getpid()}-"


def owned_dir(kind: str, folder: str | None = None) -> str:
    """A new private folder (0700) that goes with this process."""
    path = tempfile.mkdtemp(prefix=_prepare(kind, folder), dir=folder)
    _owned[path] = os.getpid()
    return path


def owned_file(kind: str, suffix: str = "", folder: str | None = None) -> str:
    """A new empty private file (0600) that goes with this process."""
    handle, path = tempfile.mkstemp(prefix=_prepare(kind, folder), suffix=suffix, dir=folder)
    os.close(handle)
    _owned[path] = os.getpid()
    return path


def remove(path: str) -> None:
    """Remove an owned file or folder now (idempotent)."""
    _owned.pop(path, None)
    _remove(path)


@atexit.register
def _remove_all() -> None:
    me = os.getpid()
    for path, owner in list(_owned.items()):
        if owner == me:
            remove(path)


__all__ = ["alive", "owned_dir", "owned_file", "remove", "sweep"]
