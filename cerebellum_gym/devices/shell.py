"""What every backend that reaches the device through a shell shares: its command output, typing
text safely with ``input text``, and settings, content providers, listing, removal and the clock
as ``settings``, ``content``, ``ls``, ``rm`` and ``date`` print them on Android.

:class:`ShellDevice` implements those Device methods over one abstract :meth:`ShellDevice.shell`;
the ADB and AndroidWorld backends differ only in how a command line reaches the device.
"""

from __future__ import annotations

import abc
import re
import shlex
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import Final

from cerebellum_gym.devices.base import Device, Row
from cerebellum_gym.errors import CerebellumError, DeviceProtocolError

_IDENT_RE: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: What a Clipper broadcast answers: ``Broadcast completed: result=-1, data="..."``.
_CLIPPER_DATA: Final = re.compile(r'result=-1, data="(.*)"\s*\Z', re.DOTALL)


def is_printable_ascii(text: str) -> bool:
    return all(" " <= c <= "~" for c in text)


def input_text_chunks(text: str) -> list[str]:
    """Split printable-ASCII ``text`` into ``input text`` arguments that type exactly it.

    Spaces become ``%s``. ``input`` turns every ``%s`` into a space and has no escape, so a
    literal ``%`` followed by ``s`` ends one chunk and the ``s`` starts the next.

    Example:
        >>> input_text_chunks("50%s off, 100% sure")
        ['50%', 's%soff,%s100%%ssure']
    """
    chunks: list[str] = []
    current: list[str] = []
    previous = ""
    for c in text:
        if c == "s" and previous == "%" and current:
            chunks.append("".join(current))
            current = []
        current.append("%s" if c == " " else c)
        previous = c
    if current:
        chunks.append("".join(current))
    return chunks


def _quoted_cost(unit: str) -> int:
    """Bytes ``unit`` adds inside a single-quoted shell argument (``'`` becomes ``'"'"'``)."""
    return 5 if unit == "'" else len(unit)


def input_text_lines(text: str, max_bytes: int) -> list[str]:
    """Shell lines that type printable-ASCII ``text`` with ``input text``, each line at most
    ``max_bytes`` long, whatever the text holds (quotes cost five bytes each once quoted).

    Every ``input text`` argument is one quoted word (nothing in it is shell syntax); a chunk
    of :func:`input_text_chunks` too long for one line is cut between characters, never inside
    the ``%s`` that stands for a space. Lines join their commands with ``&&``.

    Example:
        >>> print(input_text_lines("it's 50%s off", 60)[0])
        input text 'it'"'"'s%s50%' && input text s%soff
        >>> input_text_lines("abcdefghijklmn", 21)
        ['input text abcdefgh', 'input text ijklmn']

    Raises:
        ValueError: ``max_bytes`` leaves no room for one character.
    """
    prefix = "input text "
    room = max_bytes - len(prefix) - 2  # the argument's surrounding quotes
    if room < 5:
        raise ValueError(f"max_bytes={max_bytes} is too small for one `input text` command")
    commands: list[str] = []
    for chunk in input_text_chunks(text):
        units = re.findall(r"%s|.", chunk, re.DOTALL)
        piece: list[str] = []
        cost = 0
        for unit in units:
            if piece and cost + _quoted_cost(unit) > room:
                commands.append(shlex.join(["input", "text", "".join(piece)]))
                piece, cost = [], 0
            piece.append(unit)
            cost += _quoted_cost(unit)
        if piece:
            commands.append(shlex.join(["input", "text", "".join(piece)]))
    lines: list[str] = []
    current = ""
    for command in commands:
        if current and len(current) + 4 + len(command) <= max_bytes:
            current += " && " + command
        else:
            if current:
                lines.append(current)
            current = command
    if current:
        lines.append(current)
    return lines


def utf8_pieces(text: str, max_bytes: int) -> list[str]:
    """``text`` cut between code points into pieces of at most ``max_bytes`` UTF-8 bytes.

    Example:
        >>> utf8_pieces("aé東🙂", 4)
        ['aé', '東', '🙂']
    """
    pieces: list[str] = []
    start = size = 0
    for i, c in enumerate(text):
        n = len(c.encode("utf-8", "surrogatepass"))
        if size + n > max_bytes and i > start:
            pieces.append(text[start:i])
            start, size = i, 0
        size += n
    if start < len(text):
        pieces.append(text[start:])
    return pieces


def sql_literal(value: str) -> str:
    """``value`` as an SQL string literal (``'`` doubled)."""
    return "'" + value.replace("'", "''") + "'"


def where_clause(where: Mapping[str, str]) -> str:
    """``{"a": "x", "b": "y"}`` as ``a='x' AND b='y'`` (column names must be identifiers)."""
    check_columns(list(where))
    return " AND ".join(f"{k}={sql_literal(str(v))}" for k, v in where.items())


def parse_content_rows(output: str, projection: Sequence[str] | None = None) -> list[Row]:
    """Parse ``content query`` output (``Row: 0 a=1, b=x``) into rows.

    With a projection, values may contain ``, `` and newlines: each column ends where the next
    projected column's ``, name=`` starts. Without one, a value ends before the next
    ``, identifier=``, which is as much as the format allows.
    """
    if output.strip() in ("", "No result found."):
        return []
    records: list[str] = []
    for line in output.removesuffix("\n").split("\n"):
        match = re.match(r"Row: \d+ ", line)
        if match:
            records.append(line[match.end() :])
        elif records:
            records[-1] += "\n" + line  # a value with a newline continues the row
    rows: list[Row] = []
    for record in records:
        row: Row = {}
        if projection:
            rest = record
            for i, column in enumerate(projection):
                prefix = f"{column}="
                if not rest.startswith(prefix):
                    raise DeviceProtocolError(f"content query row does not start with {prefix!r}: {record[:120]!r}")
                rest = rest[len(prefix) :]
                if i + 1 < len(projection):
                    marker = f", {projection[i + 1]}="
                    end = rest.find(marker)
                    if end < 0:
                        raise DeviceProtocolError(f"content query row lacks column {projection[i + 1]!r}: {record[:120]!r}")
                    row[column], rest = rest[:end], rest[end + 2 :]
                else:
                    row[column] = rest
        else:
            for part in re.split(r", (?=[A-Za-z_][A-Za-z0-9_]*=)", record):
                key, sep, value = part.partition("=")
                if not sep:
                    raise DeviceProtocolError(f"cannot parse content query row: {record[:120]!r}")
                row[key] = value
        rows.append(row)
    return rows


def check_columns(columns: Sequence[str]) -> None:
    """Refuse column names that are not identifiers (they are spliced into ``content`` arguments).

    Raises:
        ValueError: a name is not an identifier.
    """
    for column in columns:
        if not _IDENT_RE.fullmatch(column):
            raise ValueError(f"not a column name: {column!r}")


class ShellOutput:
    """Output and exit code of one device shell command."""

    __slots__ = ("code", "stderr", "stdout")

    def __init__(self, stdout: bytes, stderr: bytes, code: int) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.code = code

    @property
    def text(self) -> str:
        """Stdout as text. Devices print UTF-8; anything else means the answer is garbled.

        Raises:
            DeviceProtocolError: stdout is not UTF-8.
        """
        try:
            return self.stdout.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DeviceProtocolError(f"device printed non-UTF-8 output ({len(self.stdout)} bytes: {self.stdout[:24]!r})") from exc


class ShellDevice(Device):
    """A device whose state queries run as shell commands (see the module docstring)."""

    @abc.abstractmethod
    def shell(
        self, command: str | Sequence[str], *, timeout: float | None = None, check: bool = True, readonly: bool = False
    ) -> ShellOutput:
        """Run ``command`` on the device. A sequence is quoted argument by argument; a string
        reaches the device's shell as is (constant, trusted lines only). ``readonly`` says the
        command changes nothing on the device (backends may keep cached reads across it).

        Raises:
            DeviceProtocolError: ``check`` and it exited non-zero.
        """

    def _clipper(self, *extras: str) -> str:
        """One Clipper broadcast (``clipper.get``/``clipper.set``) with Clipper in front, as
        Android 10+ lets only the focused app use the clipboard; back afterwards, as AndroidWorld
        does. The broadcast's ``data``.

        Raises:
            DeviceProtocolError: Clipper did not answer (not installed, or not in front).
        """
        self.shell(["am", "start", "-n", "ca.zgrs.clipper/ca.zgrs.clipper.Main"])
        try:
            out = self.shell(["am", "broadcast", "-a", *extras]).text
        finally:
            self.shell(["input", "keyevent", "4"])
        found = _CLIPPER_DATA.search(out)
        if found is None:
            raise DeviceProtocolError(f"Clipper did not answer {extras[0]}: {out.strip()!r}")
        return found.group(1)

    def get_clipboard(self) -> str | None:
        return self._clipper("clipper.get") or None

    def set_clipboard(self, text: str) -> None:
        self._clipper("clipper.set", "-e", "text", str(text))

    def get_setting(self, namespace: str, key: str) -> str | None:
        value = self.shell(["settings", "get", namespace, key], readonly=True).text
        value = value[:-1] if value.endswith("\n") else value
        return None if value == "null" else value

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        self.shell(["settings", "put", namespace, key, str(value)])

    def _content(self, args: list[str], readonly: bool = False) -> str:
        out = self.shell(["content", *args], check=False, readonly=readonly)
        text = out.text
        stderr = out.stderr.decode("utf-8", "replace")
        if out.code != 0 or text.startswith("Error") or "Exception" in stderr:
            detail = (stderr or text).strip()
            raise CerebellumError(f"content {args[0]} {args[2] if len(args) > 2 else ''} failed: {detail[:300]}")
        return text

    def content_query(self, uri: str, projection: Sequence[str] | None = None, where: Mapping[str, str] | None = None) -> list[Row]:
        args = ["query", "--uri", uri]
        if projection:
            check_columns(projection)
            args += ["--projection", ":".join(projection)]
        if where:
            args += ["--where", where_clause(where)]
        return parse_content_rows(self._content(args, readonly=True), list(projection) if projection else None)

    def content_insert(self, uri: str, values: Mapping[str, str]) -> None:
        check_columns(list(values))
        args = ["insert", "--uri", uri]
        for column, value in values.items():
            args += ["--bind", f"{column}:s:{value}"]
        self._content(args)

    def content_delete(self, uri: str, where: Mapping[str, str] | None = None) -> None:
        args = ["delete", "--uri", uri]
        if where:
            args += ["--where", where_clause(where)]
        self._content(args)

    def list_dir(self, path: str) -> list[str]:
        out = self.shell(["ls", "-1", path], check=False, readonly=True)
        if out.code != 0:
            return []
        return sorted(line for line in out.text.splitlines() if line and line not in (".", ".."))

    def remove_path(self, path: str) -> None:
        self.shell(["rm", "-rf", path])

    def make_dir(self, path: str) -> None:
        self.shell(["mkdir", "-p", path])

    def file_mtime(self, path: str) -> float:
        out = self.shell(["stat", "-c", "%Y", path], check=False, readonly=True)
        if out.code != 0:
            raise FileNotFoundError(path)
        try:
            return float(out.text.strip())
        except ValueError as exc:
            raise DeviceProtocolError(f"`stat -c %Y` printed {out.text[:40]!r}") from exc

    def now(self) -> datetime:
        text = self.shell(["date", "+%s"], readonly=True).text.strip()
        try:
            return datetime.fromtimestamp(int(text), timezone.utc)
        except ValueError as exc:
            raise DeviceProtocolError(f"`date +%s` printed {text[:40]!r}") from exc
