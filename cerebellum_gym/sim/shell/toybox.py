"""The toybox utilities of the served shell (``ls``, ``cat``, ``grep``, ``stat``, ...) and the
commands every Android device has (``getprop``, ``date``, ``sleep``), registered into
:data:`TOYBOX`.

Example:
    >>> from cerebellum_gym.sim.phone import Phone
    >>> from cerebellum_gym.sim.shell.host import ShellHost
    >>> sh = ShellHost(Phone(), commands=TOYBOX)
    >>> sh.run("touch /sdcard/a && ls /sdcard | grep '^a$'; getprop ro.build.version.sdk").stdout
    b'a\\n33\\n'
"""

from __future__ import annotations

import functools
import io
import posixpath
import re
from collections.abc import Callable
from typing import Final

from cerebellum_gym.sim.shell.host import MAX_STORAGE, ShellHost
from cerebellum_gym.sim.shell.language import OutputLimitError, ShellResult, fail, ok
from cerebellum_gym.sim.shell.table import CommandTable

#: The longest ``sleep`` the simulator runs (simulated seconds: one year), so the clock stays a date.
MAX_SLEEP: Final = 366 * 24 * 3600.0
#: The latest time the simulated clock may reach (9999-12-31T23:59:59Z, the last date ``date`` prints).
MAX_CLOCK: Final = 253402300799.0

TOYBOX: Final = CommandTable[ShellHost]("toybox")


def _stat_field(fields: dict[str, str], match: re.Match[str]) -> str:
    """One ``%x`` of a ``stat -c`` format (unknown ones print as given, as toybox prints them)."""
    return fields.get(match.group(1), match.group(0))


@TOYBOX.command("sleep")
def sleep(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    try:
        seconds = float(args[0])
    except (IndexError, ValueError):
        return fail("usage: sleep DURATION\n")
    if not 0 <= seconds <= MAX_SLEEP or sh.phone.state.clock + seconds > MAX_CLOCK:  # also NaN and inf
        # Simulated time: a sleep past any date the clock can print would break `date`
        # and sync for good, so the simulator refuses it.
        return fail(f"sleep: invalid duration '{args[0]}' (the simulator sleeps 0 to {MAX_SLEEP:g} s)\n")
    # Simulated time: the clock advances at once instead of the session blocking.
    sh.phone.wait(seconds)
    return ShellResult()


@TOYBOX.command("cat")
def cat(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    if not args:
        return ShellResult(stdin)
    # The files' bytes are joined once at the end, and not at all past the room the line's output
    # has left (the shell then stops the line) or the device's storage.
    parts: list[bytes] = []
    size, err, code = 0, io.BytesIO(), 0
    room = sh.output_room()
    for name in args:
        data = sh.read(name)
        if data is None:
            err.write(f"cat: {name}: {'Is a directory' if sh.is_dir(name) else 'No such file or directory'}\n".encode())
            code = 1
        elif size + len(data) > room:
            raise OutputLimitError
        elif size + len(data) > MAX_STORAGE:
            err.write(f"cat: {name}: output too large\n".encode())
            return ShellResult(b"".join(parts), err.getvalue(), 1)
        else:
            parts.append(data)
            size += len(data)
    return ShellResult(parts[0] if len(parts) == 1 else b"".join(parts), err.getvalue(), code)


@TOYBOX.command("ls")
def ls(sh: ShellHost, args: list[str], stdin: bytes, long: Callable[[str, str], str] | None = None) -> ShellResult:
    """``ls``; ``long(path, shown)`` formats each line of a long listing (``ls -l``), which
    also opens each folder's entries with their ``total`` of blocks."""
    flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
    names = [a for a in args if not (a.startswith("-") and len(a) > 1)] or ["."]
    out, err, code = [], [], 0
    for name in names:
        if sh.read(name) is not None:
            out.append(name if long is None else long(name, name))
        elif sh.is_dir(name):
            entries = sh.listdir(name)
            if "a" in flags:
                entries = [".", "..", *entries]
            if len(names) > 1:
                out.append(f"{name}:")
            if long is not None:
                entries = [long(posixpath.join(name, entry), entry) for entry in entries]
                out.append(f"total {sum(4 if line.startswith('d') else 8 for line in entries)}")
            out.extend(entries)
        else:
            err.append(f"ls: {name}: No such file or directory")
            code = 1
    return ShellResult(
        "".join(line + "\n" for line in out).encode("utf-8", "surrogateescape"), "".join(e + "\n" for e in err).encode(), code
    )


@TOYBOX.command("rm")
def rm(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
    err, code = [], 0
    for name in (a for a in args if not (a.startswith("-") and len(a) > 1)):
        if sh.read(name) is None and not sh.is_dir(name):
            if "f" not in flags:
                err.append(f"rm: {name}: No such file or directory")
                code = 1
            continue
        if sh.read(name) is None and "r" not in flags and "R" not in flags:
            err.append(f"rm: {name}: Is a directory")
            code = 1
            continue
        sh.remove(name)
    return ShellResult(b"", "".join(e + "\n" for e in err).encode(), code)


@TOYBOX.command("mkdir")
def mkdir(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    parents = any(a.startswith("-") and "p" in a for a in args)
    err, code = [], 0
    for name in (a for a in args if not a.startswith("-")):
        if sh.exists(name) and not parents:
            err.append(f"mkdir: '{name}': File exists")
            code = 1
        elif not sh.exists(name):
            sh.phone.make_dir(sh.path(name))
    return ShellResult(b"", "".join(e + "\n" for e in err).encode(), code)


@TOYBOX.command("touch")
def touch(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    for name in (a for a in args if not a.startswith("-")):
        if sh.read(name) is None:
            sh.write(name, b"")
    return ShellResult()


@TOYBOX.command("stat")
def stat(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    """toybox ``stat -c FORMAT FILE...``: ``%n`` name, ``%s`` size, ``%Y`` change time
    (seconds), ``%F`` type, ``%%``; one line per file, status 1 if any is missing."""
    if len(args) < 3 or args[0] != "-c":
        return fail("usage: stat -c FORMAT FILE...\n")
    fmt, out, err = args[1], [], []
    for name in args[2:]:
        data = sh.read(name)
        if data is None and not sh.is_dir(name):
            err.append(f"stat: '{name}': No such file or directory\n")
            continue
        full = sh.path(name)
        fields = {
            "n": name,
            "s": str(len(data) if data is not None else 4096),
            "Y": str(int(sh.phone.file_mtime(full))),
            "F": "regular file" if data is not None else "directory",
            "%": "%",
        }
        out.append(re.sub(r"%(.)", functools.partial(_stat_field, fields), fmt) + "\n")
    return ShellResult("".join(out).encode("utf-8", "surrogateescape"), "".join(err).encode(), 1 if err else 0)


@TOYBOX.command("grep")
def grep(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    flags, rest = "", list[str]()
    for a in args:
        if a.startswith("-") and len(a) > 1 and not rest:
            flags += a[1:]
        else:
            rest.append(a)
    if not rest:
        return fail("usage: grep [-EFivq] PATTERN [FILE...]\n", 2)
    pattern, files = rest[0], rest[1:]
    data = stdin if not files else b"".join(sh.read(f) or b"" for f in files)
    try:
        regex = re.compile(re.escape(pattern) if "F" in flags else pattern, re.IGNORECASE if "i" in flags else 0)
    except (re.error, OverflowError, RecursionError) as exc:
        return fail(f"grep: bad regex '{pattern}': {exc}\n", 2)
    lines = [ln for ln in data.decode("utf-8", "surrogateescape").splitlines() if bool(regex.search(ln)) != ("v" in flags)]
    if "q" in flags:
        return ShellResult(code=0 if lines else 1)
    return ShellResult("".join(ln + "\n" for ln in lines).encode("utf-8", "surrogateescape"), b"", 0 if lines else 1)


@TOYBOX.command("date")
def date(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    now = sh.phone.now()
    fmts = [a[1:] for a in args if a.startswith("+")]
    fmt = fmts[0] if fmts else "%a %b %e %H:%M:%S %Z %Y"
    return ok(now.strftime(fmt) + "\n")


@TOYBOX.command("getprop")
def getprop(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    props = sh.props
    if args:
        return ok(props.get(args[0], args[1] if len(args) > 1 else "") + "\n")
    return ok("".join(f"[{k}]: [{v}]\n" for k, v in sorted(props.items())))
