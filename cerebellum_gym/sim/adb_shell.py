"""The served simulator's ``/system/bin/sh``: a small POSIX-style shell over a :class:`Phone`.

It runs what an adbd runs for ``shell:`` and ``exec:`` services: a command line with quoting,
``$VAR``, ``$(...)`` and backtick substitution, field splitting, globbing, ``;`` ``&&`` ``||``
``|`` and redirections, and the Android commands that the ADB backend and the tasks' judges use
(``input``, ``screencap``, ``uiautomator``, ``settings``, ``content``, ``am``, ``monkey``,
``dumpsys``, ``wm``, ``getprop``, ``ls``, ``cat``, ...), printing what a real device prints.

Substitutions really run, on purpose: a client that forgets to quote typed text gets exactly
the damage a real shell would do (a file appears, a setting changes), so the quoting tests of
the ADB backend are tests of real behaviour, not of a mock that ignores ``$(...)``.

Example:
    >>> from cerebellum_gym.sim.phone import Phone
    >>> sh = Shell(Phone())
    >>> sh.run("settings put global wifi_on 0 && settings get global wifi_on").stdout
    b'0\\n'
    >>> sh.run("echo 'a  b' $(echo c d)").stdout
    b'a  b c d\\n'
    >>> r = sh.run("frobnicate")
    >>> r.code, r.stderr
    (127, b'/system/bin/sh: frobnicate: inaccessible or not found\\n')
"""

from __future__ import annotations

import base64
import binascii
import fnmatch
import io
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

import numpy as np

from cerebellum_gym.errors import CerebellumError

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

SH: Final = "/system/bin/sh"
#: The ADB keyboard (github.com/senzhk/ADBKeyBoard): an IME that types text sent by broadcast.
ADB_KEYBOARD_IME: Final = "com.android.adbkeyboard/.AdbIME"
LATIN_IME: Final = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"
DEFAULT_DUMP_PATH: Final = "/sdcard/window_dump.xml"
#: Directories every Android device has; ``ls /`` shows them and globs match them.
ROOT_DIRS: Final = (
    "acct", "apex", "bin", "cache", "config", "d", "data", "data_mirror", "debug_ramdisk", "dev", "etc",
    "linkerconfig", "metadata", "mnt", "odm", "oem", "proc", "product", "sdcard", "storage", "sys", "system",
    "system_ext", "vendor",
)  # fmt: skip
#: Paths that name the same storage; the simulator keeps files under the first.
STORAGE_ALIASES: Final = ("/storage/emulated/0", "/storage/self/primary", "/mnt/sdcard")
KEYCODES: Final[dict[str, int]] = {
    "HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6, "DPAD_UP": 19, "DPAD_DOWN": 20, "DPAD_LEFT": 21,
    "DPAD_RIGHT": 22, "DPAD_CENTER": 23, "VOLUME_UP": 24, "VOLUME_DOWN": 25, "POWER": 26, "CAMERA": 27,
    "TAB": 61, "SPACE": 62, "ENTER": 66, "DEL": 67, "MENU": 82, "SEARCH": 84, "ESCAPE": 111,
    "FORWARD_DEL": 112, "MOVE_HOME": 122, "MOVE_END": 123, "APP_SWITCH": 187, "WAKEUP": 224,
}  # fmt: skip
PROPS: Final[dict[str, str]] = {
    "ro.product.name": "cerebellum_sim",
    "ro.product.model": "Cerebellum Sim",
    "ro.product.device": "cerebellum",
    "ro.product.manufacturer": "cerebellum-gym",
    "ro.product.brand": "cerebellum",
    "ro.build.version.release": "13",
    "ro.build.version.sdk": "33",
    "ro.build.type": "user",
    "ro.build.characteristics": "default",
    "ro.kernel.qemu": "0",
    "ro.sf.lcd_density": "420",
    "sys.boot_completed": "1",
    "persist.sys.timezone": "UTC",
}
DEFAULT_SDK: Final = int(PROPS["ro.build.version.sdk"])
#: ``screencap``'s raw header fields: PIXEL_FORMAT_RGBA_8888, and the sRGB colour space (API 28+).
PIXEL_FORMAT_RGBA_8888: Final = 1
COLORSPACE_SRGB: Final = 1
_NAME_RE: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_GLOB_CHARS: Final = frozenset("*?[")
_MAX_SUBST_DEPTH: Final = 8


@dataclass
class ShellResult:
    """What a command line wrote and how it exited."""

    stdout: bytes = b""
    stderr: bytes = b""
    code: int = 0


class ShellSyntaxError(Exception):
    """The command line does not parse (mksh prints these as ``syntax error``)."""


class _Exit(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


# --- lexing ------------------------------------------------------------------------------------

# A word is a list of parts: (kind, value, quoted) with kind "lit", "var" or "cmd".
Part = tuple[str, str, bool]


@dataclass
class Word:
    parts: list[Part]


@dataclass
class Op:
    text: str


Token = Word | Op
_OPERATOR_START: Final = frozenset(";&|<>()\n")


def _find_closing_paren(s: str, i: int) -> int:
    """Index of the ``)`` closing the ``$(`` whose body starts at ``i``."""
    depth = 1
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            end = s.find("'", i + 1)
            if end < 0:
                raise ShellSyntaxError("no closing quote")
            i = end + 1
            continue
        if c == '"':
            i = _find_closing_dquote(s, i + 1) + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ShellSyntaxError("'(' unmatched")


def _find_closing_dquote(s: str, i: int) -> int:
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            return i
        if c == "$" and s.startswith("$(", i):
            i = _find_closing_paren(s, i + 2) + 1
            continue
        if c == "`":
            end = s.find("`", i + 1)
            if end < 0:
                raise ShellSyntaxError("no closing quote")
            i = end + 1
            continue
        i += 1
    raise ShellSyntaxError("no closing quote")


def _dollar(s: str, i: int, quoted: bool) -> tuple[Part, int]:
    """Parse the expansion starting at ``s[i] == "$"``; return the part and the next index."""
    if s.startswith("$(", i):
        end = _find_closing_paren(s, i + 2)
        return ("cmd", s[i + 2 : end], quoted), end + 1
    if s.startswith("${", i):
        end = s.find("}", i + 2)
        if end < 0:
            raise ShellSyntaxError("missing '}'")
        return ("var", s[i + 2 : end], quoted), end + 1
    match = _NAME_RE.match(s, i + 1)
    if match is not None:
        return ("var", match.group(), quoted), match.end()
    if i + 1 < len(s) and (s[i + 1] in "?$#!@*" or s[i + 1].isdigit()):
        return ("var", s[i + 1], quoted), i + 2
    return ("lit", "$", quoted), i + 1


def tokenize(s: str) -> list[Token]:
    """Split a command line into words and operators, keeping quoting for expansion."""
    tokens: list[Token] = []
    parts: list[Part] | None = None
    i = 0

    def lit(text: str, quoted: bool) -> None:
        nonlocal parts
        if parts is None:
            parts = []
        if parts and parts[-1][0] == "lit" and parts[-1][2] == quoted:
            parts[-1] = ("lit", parts[-1][1] + text, quoted)  # one part per run of plain text
        else:
            parts.append(("lit", text, quoted))

    def end_word() -> None:
        nonlocal parts
        if parts is not None:
            tokens.append(Word(parts))
            parts = None

    while i < len(s):
        c = s[i]
        if c in " \t":
            end_word()
            i += 1
        elif c == "#" and parts is None:
            nl = s.find("\n", i)
            i = len(s) if nl < 0 else nl
        elif c == "\\":
            if i + 1 < len(s) and s[i + 1] == "\n":
                i += 2  # line continuation
            else:
                lit(s[i + 1 : i + 2], True)
                i += 2
        elif c == "'":
            end = s.find("'", i + 1)
            if end < 0:
                raise ShellSyntaxError("no closing quote")
            lit(s[i + 1 : end], True)
            i = end + 1
        elif c == '"':
            end = _find_closing_dquote(s, i + 1)
            if parts is None:
                parts = []
            parts.append(("lit", "", True))  # "" alone is still a (empty) word
            j = i + 1
            buf: list[str] = []
            while j < end:
                d = s[j]
                if d == "\\" and j + 1 < end and s[j + 1] in '$`"\\\n':
                    if s[j + 1] != "\n":
                        buf.append(s[j + 1])
                    j += 2
                elif d == "$":
                    part, j = _dollar(s, j, True)
                    if buf:
                        parts.append(("lit", "".join(buf), True))
                        buf = []
                    parts.append(part)
                elif d == "`":
                    close = s.find("`", j + 1)
                    if buf:
                        parts.append(("lit", "".join(buf), True))
                        buf = []
                    parts.append(("cmd", s[j + 1 : close], True))
                    j = close + 1
                else:
                    buf.append(d)
                    j += 1
            if buf:
                parts.append(("lit", "".join(buf), True))
            i = end + 1
        elif c == "$":
            part, i = _dollar(s, i, False)
            if parts is None:
                parts = []
            parts.append(part)
        elif c == "`":
            end = s.find("`", i + 1)
            if end < 0:
                raise ShellSyntaxError("no closing quote")
            if parts is None:
                parts = []
            parts.append(("cmd", s[i + 1 : end], False))
            i = end + 1
        elif c in _OPERATOR_START:
            # "2>" and "2>&1": a digit-only unquoted word right before a redirection is its fd.
            fd = ""
            if c in "<>" and parts is not None and len(parts) == 1 and parts[0][0] == "lit" and not parts[0][2] and parts[0][1].isdigit():
                fd = parts[0][1]
                parts = None
            end_word()
            for op in ("&&", "||", ">>", ">&", ";;"):
                if s.startswith(op, i):
                    text = op
                    break
            else:
                text = c
            i += len(text)
            if text == ">&":
                match = re.match(r"\d+", s[i:])
                if match is None:
                    raise ShellSyntaxError("'>&' unexpected")
                text += match.group()
                i += match.end()
            tokens.append(Op(fd + text))
        else:
            lit(c, False)
            i += 1
    end_word()
    return tokens


# --- parsing -----------------------------------------------------------------------------------


@dataclass
class Command:
    words: list[Word] = field(default_factory=list)
    redirects: list[tuple[str, Word | None]] = field(default_factory=list)


Pipeline = list[Command]
_REDIRECT_RE: Final = re.compile(r"(\d*)(>>|>&\d+|>|<)")


def parse(tokens: list[Token]) -> list[tuple[str, Pipeline]]:
    """Group tokens into ``(connector, pipeline)`` items; the connector is the operator before."""
    items: list[tuple[str, Pipeline]] = []
    connector = ";"
    pipeline: Pipeline = []
    command = Command()
    i = 0

    def finish_command(op: str) -> None:
        nonlocal command
        if not command.words and not command.redirects:
            raise ShellSyntaxError(f"'{op}' unexpected")
        pipeline.append(command)
        command = Command()

    while i < len(tokens):
        token = tokens[i]
        if isinstance(token, Word):
            command.words.append(token)
        elif _REDIRECT_RE.fullmatch(token.text):
            if ">&" in token.text:
                command.redirects.append((token.text, None))
            else:
                i += 1
                if i >= len(tokens) or not isinstance(tokens[i], Word):
                    raise ShellSyntaxError(f"'{token.text}' unexpected")
                target = tokens[i]
                assert isinstance(target, Word)
                command.redirects.append((token.text, target))
        elif token.text == "|":
            finish_command("|")
        elif token.text in (";", "\n", "&", "&&", "||"):
            if not command.words and not command.redirects and not pipeline:
                if token.text in ("\n",) or (token.text == ";" and not items and i == len(tokens) - 1):
                    i += 1
                    continue
                raise ShellSyntaxError(f"'{token.text}' unexpected")
            finish_command(token.text)
            items.append((connector, pipeline))
            pipeline = []
            connector = "&&" if token.text == "&&" else "||" if token.text == "||" else ";"
        else:
            raise ShellSyntaxError(f"'{token.text}' unexpected")
        i += 1
    if command.words or command.redirects:
        pipeline.append(command)
    if pipeline:
        items.append((connector, pipeline))
    elif connector in ("&&", "||"):
        raise ShellSyntaxError("unexpected end of input")
    return items


# --- the shell ---------------------------------------------------------------------------------


class Shell:
    """One shell session on a simulated phone (adbd starts one per ``shell:`` service).

    Args:
        phone: the device whose state the commands read and change.
        screencap_compression: zlib level of ``screencap -p`` PNGs (1 keeps loopback fast).
        provision: re-applied after ``cerebellum-sim factory-reset`` (what the device was set up
            with before serving, such as the ADB keyboard as input method).
        sdk: the Android API level the device reports (``ro.build.version.sdk``). It decides the
            raw ``screencap`` header, as on a device: 12 bytes below API 28, 16 from API 28 on.
    """

    def __init__(
        self,
        phone: Phone,
        *,
        screencap_compression: int = 1,
        provision: Callable[[Phone], None] | None = None,
        sdk: int = DEFAULT_SDK,
    ) -> None:
        self.phone = phone
        self.provision = provision
        self.sdk = int(sdk)
        self.props = {**PROPS, "ro.build.version.sdk": str(self.sdk), "ro.serialno": "CEREBELLUM0001"}
        self.env: dict[str, str] = {"HOME": "/", "PATH": "/product/bin:/apex/com.android.runtime/bin:/system/bin", "USER": "shell"}
        self.cwd = "/"
        self.status = 0
        self.screencap_compression = screencap_compression
        self._depth = 0
        self._png_cache: tuple[np.ndarray, bytes] | None = None
        self._raw_cache: tuple[np.ndarray, bytes] | None = None
        self.commands: dict[str, Callable[[list[str], bytes], ShellResult]] = {
            "echo": self._echo,
            "true": lambda a, i: ShellResult(),
            ":": lambda a, i: ShellResult(),
            "false": lambda a, i: ShellResult(code=1),
            "exit": self._exit,
            "cd": self._cd,
            "pwd": lambda a, i: ShellResult((self.cwd + "\n").encode()),
            "id": lambda a, i: ShellResult(b"uid=2000(shell) gid=2000(shell) groups=2000(shell) context=u:r:shell:s0\n"),
            "whoami": lambda a, i: ShellResult(b"shell\n"),
            "sleep": self._sleep,
            "cat": self._cat,
            "ls": self._ls,
            "rm": self._rm,
            "mkdir": self._mkdir,
            "touch": self._touch,
            "grep": self._grep,
            "date": self._date,
            "getprop": self._getprop,
            "wm": self._wm,
            "dumpsys": self._dumpsys,
            "settings": self._settings,
            "content": self._content,
            "am": self._am,
            "pm": self._pm,
            "ime": self._ime,
            "monkey": self._monkey,
            "input": self._input,
            "screencap": self._screencap,
            "uiautomator": self._uiautomator,
            "cerebellum-sim": self._cerebellum_sim,
        }

    # --- running -----------------------------------------------------------------------------

    def run(self, script: str, stdin: bytes = b"") -> ShellResult:
        """Run a command line as ``sh -c`` does; never raises for anything the script does."""
        out, err = io.BytesIO(), io.BytesIO()
        try:
            items = parse(tokenize(script))
        except ShellSyntaxError as exc:
            return ShellResult(b"", f"{SH}: syntax error: {exc}\n".encode(), 1)
        try:
            for connector, pipeline in items:
                if (connector == "&&" and self.status != 0) or (connector == "||" and self.status == 0):
                    continue
                result = self._pipeline(pipeline, stdin)
                out.write(result.stdout)
                err.write(result.stderr)
                self.status = result.code
        except _Exit as exc:
            self.status = exc.code
        return ShellResult(out.getvalue(), err.getvalue(), self.status)

    def _pipeline(self, pipeline: Pipeline, stdin: bytes) -> ShellResult:
        err = io.BytesIO()
        data = stdin
        result = ShellResult()
        for command in pipeline:
            result = self._command(command, data)
            err.write(result.stderr)
            data = result.stdout
        return ShellResult(data, err.getvalue(), result.code)

    def _command(self, command: Command, stdin: bytes) -> ShellResult:
        try:
            argv = [f for word in command.words for f in self.expand(word)]
        except ShellSyntaxError as exc:
            return ShellResult(b"", f"{SH}: {exc}\n".encode(), 1)
        redirects: list[tuple[str, str | None]] = []
        for op, target in command.redirects:
            if target is None:
                redirects.append((op, None))
                continue
            names = self.expand(target)
            if len(names) != 1:
                return ShellResult(b"", f"{SH}: {''.join(names) or op}: bad redirection\n".encode(), 1)
            redirects.append((op, names[0]))
        for op, name in redirects:
            if op.endswith("<") and name is not None:
                data = self.read(name)
                if data is None:
                    return ShellResult(b"", f"{SH}: can't open {name}: No such file or directory\n".encode(), 1)
                stdin = data
        if not argv:
            result = ShellResult()
        else:
            handler = self.commands.get(argv[0])
            if handler is None:
                result = ShellResult(b"", f"{SH}: {argv[0]}: inaccessible or not found\n".encode(), 127)
            else:
                try:
                    result = handler(argv[1:], stdin)
                except _Exit:
                    raise
                except CerebellumError as exc:
                    result = ShellResult(b"", f"{argv[0]}: {exc}\n".encode(), 1)
        return self._redirect(result, redirects)

    def _redirect(self, result: ShellResult, redirects: list[tuple[str, str | None]]) -> ShellResult:
        for op, name in redirects:
            fd = op[0] if op[0].isdigit() else ("0" if op.endswith("<") else "1")
            if op.endswith("<"):
                continue
            if ">&" in op:
                target = op.split(">&")[1]
                if fd == "2" and target == "1":
                    result = ShellResult(result.stdout + result.stderr, b"", result.code)
                elif fd == "1" and target == "2":
                    result = ShellResult(b"", result.stderr + result.stdout, result.code)
                continue
            assert name is not None
            data = result.stderr if fd == "2" else result.stdout
            if name != "/dev/null":
                old = (self.read(name) or b"") if op.endswith(">>") else b""
                self.write(name, old + data)
            result = ShellResult(result.stdout, b"", result.code) if fd == "2" else ShellResult(b"", result.stderr, result.code)
        return result

    # --- expansion ---------------------------------------------------------------------------

    def _variable(self, name: str) -> str:
        if name == "?":
            return str(self.status)
        if name == "$":
            return "4242"
        if name in ("#", "@", "*"):
            return "0" if name == "#" else ""
        return self.env.get(name, "")

    def _substitute(self, script: str) -> str:
        if self._depth >= _MAX_SUBST_DEPTH:
            raise ShellSyntaxError("command substitution nested too deeply")
        self._depth += 1
        try:
            saved = self.status
            result = self.run(script)
            self.status = saved if result.code == 0 else result.code
        finally:
            self._depth -= 1
        return result.stdout.decode("utf-8", "surrogateescape").rstrip("\n")

    def expand(self, word: Word) -> list[str]:
        """Expand one word into fields: substitutions, field splitting, then globbing."""
        fields: list[tuple[str, bool]] = []
        current = ""
        started = False
        globbable = False
        for kind, value, quoted in word.parts:
            if kind == "lit":
                current += value
                started = True
                globbable = globbable or (not quoted and any(c in _GLOB_CHARS for c in value))
                continue
            text = self._variable(value) if kind == "var" else self._substitute(value)
            if quoted:
                current += text
                started = True
                continue
            pieces = text.split()
            if not pieces:
                continue
            if text[0].isspace() and started:
                fields.append((current, globbable))
                current, globbable = "", False
            current += pieces[0]
            started = True
            for piece in pieces[1:]:
                fields.append((current, globbable))
                current, globbable = piece, False
            if text[-1].isspace():
                fields.append((current, globbable))
                current, started, globbable = "", False, False
        if started:
            fields.append((current, globbable))
        out: list[str] = []
        for field_text, glob in fields:
            text = field_text
            if text.startswith("~") and word.parts and word.parts[0][0] == "lit" and not word.parts[0][2]:
                text = "/" + text[1:].lstrip("/")
            matches = self.glob(text) if glob else []
            out.extend(matches or [text])
        return out

    def glob(self, pattern: str) -> list[str]:
        """Paths matching ``pattern`` (one level of wildcards per path component)."""
        absolute = pattern.startswith("/")
        components = [c for c in pattern.split("/") if c]
        bases = ["/" if absolute else self.cwd]
        for comp in components:
            nxt: list[str] = []
            for base in bases:
                if any(c in _GLOB_CHARS for c in comp):
                    nxt.extend(
                        posixpath.join(base, n) for n in self.listdir(base) if fnmatch.fnmatchcase(n, comp) and not n.startswith(".")
                    )
                else:
                    candidate = posixpath.join(base, comp)
                    if self.exists(candidate):
                        nxt.append(candidate)
            bases = nxt
        if not absolute:
            bases = [posixpath.relpath(b, self.cwd) for b in bases]
        return sorted(bases)

    # --- file system -------------------------------------------------------------------------

    def path(self, name: str) -> str:
        """The simulator's canonical path for ``name`` (storage aliases fold to ``/sdcard``)."""
        full = posixpath.normpath(posixpath.join(self.cwd, name))
        full = "/" + full.lstrip("/")
        for alias in STORAGE_ALIASES:
            if full == alias or full.startswith(alias + "/"):
                full = "/sdcard" + full[len(alias) :]
        return full

    def read(self, name: str) -> bytes | None:
        try:
            return self.phone.read_file(self.path(name))
        except FileNotFoundError:
            return None

    def write(self, name: str, data: bytes, *, invalidate: bool = True) -> None:
        if invalidate:
            self.phone.write_file(self.path(name), data)
        else:
            # Scratch files (a uiautomator dump) change nothing an app shows: keep the frame cache.
            self.phone.state.files[self.path(name)] = bytes(data)

    def is_dir(self, name: str) -> bool:
        full = self.path(name)
        if full == "/" or full in ("/sdcard", "/data/local/tmp", "/data/local", "/storage", "/storage/emulated"):
            return True
        if full.count("/") == 1 and full[1:] in ROOT_DIRS:
            return True
        return self.phone.is_dir(full)

    def exists(self, name: str) -> bool:
        return self.read(name) is not None or self.is_dir(name)

    def listdir(self, name: str) -> list[str]:
        full = self.path(name)
        names = set(self.phone.list_dir(full))
        if full == "/":
            names.update(ROOT_DIRS)
        return sorted(names)

    # --- simple commands ---------------------------------------------------------------------

    @staticmethod
    def _ok(text: str = "") -> ShellResult:
        return ShellResult(text.encode("utf-8", "surrogateescape"))

    @staticmethod
    def _fail(text: str, code: int = 1) -> ShellResult:
        return ShellResult(b"", text.encode("utf-8", "surrogateescape"), code)

    def _echo(self, args: list[str], stdin: bytes) -> ShellResult:
        newline = True
        while args and args[0] in ("-n", "-e", "-E", "-ne", "-en"):
            newline = newline and "n" not in args[0]
            args = args[1:]
        return self._ok(" ".join(args) + ("\n" if newline else ""))

    def _exit(self, args: list[str], stdin: bytes) -> ShellResult:
        raise _Exit(int(args[0]) & 0xFF if args and args[0].isdigit() else self.status)

    def _cd(self, args: list[str], stdin: bytes) -> ShellResult:
        target = self.path(args[0] if args else "/")
        if not self.is_dir(target):
            return self._fail(f"{SH}: cd: {target}: No such file or directory\n", 2)
        self.cwd = target
        return ShellResult()

    def _sleep(self, args: list[str], stdin: bytes) -> ShellResult:
        try:
            seconds = float(args[0])
        except (IndexError, ValueError):
            return self._fail("usage: sleep DURATION\n")
        # Simulated time: the clock advances at once instead of the session blocking.
        self.phone.wait(seconds)
        return ShellResult()

    def _cat(self, args: list[str], stdin: bytes) -> ShellResult:
        if not args:
            return ShellResult(stdin)
        out, err, code = io.BytesIO(), io.BytesIO(), 0
        for name in args:
            data = self.read(name)
            if data is None:
                err.write(f"cat: {name}: {'Is a directory' if self.is_dir(name) else 'No such file or directory'}\n".encode())
                code = 1
            else:
                out.write(data)
        return ShellResult(out.getvalue(), err.getvalue(), code)

    def _ls(self, args: list[str], stdin: bytes) -> ShellResult:
        flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
        names = [a for a in args if not (a.startswith("-") and len(a) > 1)] or ["."]
        out, err, code = [], [], 0
        for name in names:
            if self.read(name) is not None:
                out.append(name)
            elif self.is_dir(name):
                entries = self.listdir(name)
                if "a" in flags:
                    entries = [".", "..", *entries]
                if len(names) > 1:
                    out.append(f"{name}:")
                out.extend(entries)
            else:
                err.append(f"ls: {name}: No such file or directory")
                code = 1
        return ShellResult(
            "".join(line + "\n" for line in out).encode("utf-8", "surrogateescape"), "".join(e + "\n" for e in err).encode(), code
        )

    def _rm(self, args: list[str], stdin: bytes) -> ShellResult:
        flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
        err, code = [], 0
        for name in (a for a in args if not (a.startswith("-") and len(a) > 1)):
            if self.read(name) is None and not self.is_dir(name):
                if "f" not in flags:
                    err.append(f"rm: {name}: No such file or directory")
                    code = 1
                continue
            if self.read(name) is None and "r" not in flags and "R" not in flags:
                err.append(f"rm: {name}: Is a directory")
                code = 1
                continue
            self.phone.remove_path(self.path(name))
        return ShellResult(b"", "".join(e + "\n" for e in err).encode(), code)

    def _mkdir(self, args: list[str], stdin: bytes) -> ShellResult:
        parents = any(a.startswith("-") and "p" in a for a in args)
        err, code = [], 0
        for name in (a for a in args if not a.startswith("-")):
            if self.exists(name) and not parents:
                err.append(f"mkdir: '{name}': File exists")
                code = 1
            elif not self.exists(name):
                self.phone.make_dir(self.path(name))
        return ShellResult(b"", "".join(e + "\n" for e in err).encode(), code)

    def _touch(self, args: list[str], stdin: bytes) -> ShellResult:
        for name in (a for a in args if not a.startswith("-")):
            if self.read(name) is None:
                self.write(name, b"")
        return ShellResult()

    def _grep(self, args: list[str], stdin: bytes) -> ShellResult:
        flags, rest = "", list[str]()
        for a in args:
            if a.startswith("-") and len(a) > 1 and not rest:
                flags += a[1:]
            else:
                rest.append(a)
        if not rest:
            return self._fail("usage: grep [-EFivq] PATTERN [FILE...]\n", 2)
        pattern, files = rest[0], rest[1:]
        data = stdin if not files else b"".join(self.read(f) or b"" for f in files)
        regex = re.compile(re.escape(pattern) if "F" in flags else pattern, re.IGNORECASE if "i" in flags else 0)
        lines = [ln for ln in data.decode("utf-8", "surrogateescape").splitlines() if bool(regex.search(ln)) != ("v" in flags)]
        if "q" in flags:
            return ShellResult(code=0 if lines else 1)
        return ShellResult("".join(ln + "\n" for ln in lines).encode("utf-8", "surrogateescape"), b"", 0 if lines else 1)

    def _date(self, args: list[str], stdin: bytes) -> ShellResult:
        now = self.phone.now()
        fmts = [a[1:] for a in args if a.startswith("+")]
        fmt = fmts[0] if fmts else "%a %b %e %H:%M:%S %Z %Y"
        return self._ok(now.strftime(fmt) + "\n")

    def _getprop(self, args: list[str], stdin: bytes) -> ShellResult:
        props = self.props
        if args:
            return self._ok(props.get(args[0], args[1] if len(args) > 1 else "") + "\n")
        return self._ok("".join(f"[{k}]: [{v}]\n" for k, v in sorted(props.items())))

    def _wm(self, args: list[str], stdin: bytes) -> ShellResult:
        width, height = self.phone.screen_size
        if args[:1] == ["size"]:
            return self._ok(f"Physical size: {width}x{height}\n")
        if args[:1] == ["density"]:
            return self._ok(f"Physical density: {PROPS['ro.sf.lcd_density']}\n")
        return self._fail("usage: wm [size|density]\n", 255)

    # --- activities --------------------------------------------------------------------------

    def _activity(self, package: str) -> str:
        from cerebellum_gym.sim.phone import LAUNCHER_PACKAGE

        return f"{package}/.NexusLauncherActivity" if package == LAUNCHER_PACKAGE else f"{package}/.MainActivity"

    def _dumpsys(self, args: list[str], stdin: bytes) -> ShellResult:
        service = args[0] if args else ""
        component = self._activity(self.phone.foreground_package())
        if service == "window":
            width, height = self.phone.screen_size
            return self._ok(
                "WINDOW MANAGER WINDOWS (dumpsys window windows)\n"
                f"  Window #0 Window{{5e1a2c0 u0 {component}}}:\n"
                f"    mDisplayId=0 rootTaskId=1 mSession=Session{{8c3f1d0 4242:u0a10123}} mClient=android.os.BinderProxy@1f2e3d4\n"
                f"    mFrame=[0,0][{width},{height}]\n"
                "\n"
                f"  mCurrentFocus=Window{{5e1a2c0 u0 {component}}}\n"
                f"  mFocusedApp=ActivityRecord{{a0b1c2d u0 {component} t12}}\n"
            )
        if service == "activity":
            return self._ok(
                "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n"
                f"  mResumedActivity: ActivityRecord{{a0b1c2d u0 {component} t12}}\n"
            )
        if service == "input_method":
            return self._ok(f"  mCurMethodId={self._ime_current()}\n")
        return self._fail(f"Can't find service: {service}\n")

    def _start(self, package: str) -> None:
        self.phone.start_app(package)

    def _am(self, args: list[str], stdin: bytes) -> ShellResult:
        sub, rest = (args[0], args[1:]) if args else ("", [])
        if sub == "force-stop":
            for package in (a for a in rest if not a.startswith("-")):
                self.phone.force_stop(package)
            return ShellResult()
        if sub in ("start", "start-activity"):
            opts, positional = _options(rest, takes_value={"-n", "-a", "-c", "-d", "-t", "--user", "-f"}, extras=True)
            component = opts.get("-n") or (positional[0] if positional else "")
            if opts.get("-c") == "android.intent.category.HOME" or (
                opts.get("-a") == "android.intent.action.MAIN" and opts.get("-c") == "android.intent.category.HOME"
            ):
                self.phone.go_home()
                return self._ok("Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.HOME] }\n")
            package = component.split("/", 1)[0]
            if package not in self.phone.apps:
                return self._fail(f"Error: Activity not started, unable to resolve Intent {{ cmp={component} }}\n")
            if "-S" in opts:
                self.phone.force_stop(package)
            self._start(package)
            return self._ok(f"Starting: Intent {{ cmp={component} }}\n")
        if sub == "broadcast":
            return self._broadcast(rest)
        return self._fail(f"Unknown command: {sub}\n", 255 if sub else 1)

    def _broadcast(self, args: list[str]) -> ShellResult:
        opts, _ = _options(args, takes_value={"-a", "-n", "-c", "-d", "--user"}, extras=True)
        action = opts.get("-a", "")
        extras: dict[str, str] = {k[len("extra:") :]: v for k, v in opts.items() if k.startswith("extra:")}
        header = f"Broadcasting: Intent {{ act={action} flg=0x400000{' (has extras)' if extras else ''} }}\n"
        if action.startswith("ADB_") and self._ime_current() == ADB_KEYBOARD_IME:
            error = self._adb_keyboard(action, extras)
            if error:
                return self._fail(header + error)
        return self._ok(header + "Broadcast completed: result=0\n")

    def _adb_keyboard(self, action: str, extras: dict[str, str]) -> str:
        """The ADB keyboard's broadcast interface; returns an error text or ``""``."""
        if action == "ADB_INPUT_TEXT":
            self.phone.type_text(extras.get("msg", ""))
        elif action == "ADB_INPUT_B64":
            try:
                text = base64.b64decode(extras.get("msg", ""), validate=True).decode("utf-8")
            except (binascii.Error, UnicodeDecodeError) as exc:
                return f"java.lang.IllegalArgumentException: bad base64: {exc}\n"
            self.phone.type_text(text)
        elif action == "ADB_INPUT_CHARS":
            try:
                self.phone.type_text("".join(chr(int(c)) for c in extras.get("chars", "").split(",") if c))
            except ValueError as exc:
                return f"java.lang.NumberFormatException: {exc}\n"
        elif action == "ADB_INPUT_CODE":
            self.phone.press_key(int(extras.get("code", "-1")))
        elif action == "ADB_CLEAR_TEXT":
            self.phone.clear_focused_text()
        return ""

    def _pm(self, args: list[str], stdin: bytes) -> ShellResult:
        if args[:2] == ["list", "packages"]:
            wanted = args[2] if len(args) > 2 and not args[2].startswith("-") else ""
            packages = [*self.phone.apps, ADB_KEYBOARD_IME.split("/")[0], "com.android.systemui"]
            return self._ok("".join(f"package:{p}\n" for p in sorted(set(packages)) if wanted in p))
        if args[:1] == ["clear"] and len(args) > 1:
            package = args[-1]
            self.phone.force_stop(package)
            self.phone.state.app_data.pop(package, None)
            self.phone.invalidate()
            return self._ok("Success\n")
        return self._fail("usage: pm [list packages|clear PACKAGE]\n", 255)

    def _ime_current(self) -> str:
        return self.phone.state.settings.get("secure", {}).get("default_input_method", LATIN_IME)

    def _ime(self, args: list[str], stdin: bytes) -> ShellResult:
        if args[:1] == ["list"]:
            return self._ok(f"{LATIN_IME}\n{ADB_KEYBOARD_IME}\n")
        if args[:1] in (["set"], ["enable"]) and len(args) > 1:
            if args[1] not in (LATIN_IME, ADB_KEYBOARD_IME):
                return self._fail(f"Unknown input method {args[1]} cannot be selected for user #0\n")
            if args[0] == "set":
                self.phone.put_setting("secure", "default_input_method", args[1])
                return self._ok(f"Input method {args[1]} selected for user #0\n")
            return self._ok(f"Input method {args[1]}: already enabled for user #0\n")
        return self._fail("usage: ime [list|set ID|enable ID]\n", 255)

    def _monkey(self, args: list[str], stdin: bytes) -> ShellResult:
        opts, _ = _options(args, takes_value={"-p", "-c", "--throttle", "-s", "--pct-syskeys"})
        package = opts.get("-p", "")
        if package not in self.phone.apps or not self.phone.apps[package].launchable:
            return ShellResult(b"  bash arg: -p\n", b"** No activities found to run, monkey aborted.\n", 252)
        self._start(package)
        stats = "## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)"
        return self._ok(f"  bash arg: -p\n  bash arg: {package}\nEvents injected: 1\n{stats}\n")

    def _cerebellum_sim(self, args: list[str], stdin: bytes) -> ShellResult:
        """Simulator-only controls (no real device has this command)."""
        if args == ["factory-reset"]:
            self.phone.factory_reset()
            if self.provision is not None:
                self.provision(self.phone)
            return self._ok("factory reset done\n")
        if args == ["version"]:
            from cerebellum_gym import __version__

            return self._ok(f"cerebellum-gym {__version__}\n")
        return self._fail("usage: cerebellum-sim factory-reset|version\n", 2)

    # --- input and screen --------------------------------------------------------------------

    def _input(self, args: list[str], stdin: bytes) -> ShellResult:
        sources = {
            "touchscreen",
            "touchpad",
            "keyboard",
            "mouse",
            "stylus",
            "dpad",
            "gamepad",
            "trackball",
            "joystick",
            "touchnavigation",
            "rotaryencoder",
        }
        while args and (args[0] in sources or args[0] == "-d"):
            args = args[2:] if args[0] == "-d" else args[1:]
        sub, rest = (args[0], args[1:]) if args else ("", [])
        try:
            if sub == "tap" and len(rest) >= 2:
                self.phone.tap(_coord(rest[0]), _coord(rest[1]))
            elif sub in ("swipe", "draganddrop") and len(rest) >= 4:
                x1, y1, x2, y2 = (_coord(v) for v in rest[:4])
                duration = int(float(rest[4])) if len(rest) > 4 else 300
                if sub == "swipe" and abs(x2 - x1) <= 10 and abs(y2 - y1) <= 10 and duration >= 400:
                    self.phone.long_press(x1, y1, duration)  # how `input` is used for a long press
                else:
                    self.phone.swipe(x1, y1, x2, y2, duration)
            elif sub == "text" and rest:
                # `input text` types through the key map: printable ASCII only, "%s" is a space.
                text = rest[0].replace("%s", " ")
                bad = sorted({c for c in text if not " " <= c <= "~"})
                if bad:
                    return self._fail(f"input: cannot type {''.join(bad)!r}: no key in the virtual keyboard's character map\n")
                self.phone.type_text(text)
            elif sub == "keyevent" and rest:
                codes = [a for a in rest if not a.startswith("--")]
                for code in codes:
                    self.phone.press_key(_keycode(code))
            else:
                raise ValueError(sub)
        except ValueError:
            return self._fail(
                f"Error: Invalid arguments for command: {sub}\nUsage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n"
            )
        return ShellResult()

    def png(self) -> bytes:
        """The full-resolution screen as PNG, cached until the screen changes."""
        from PIL import Image

        # The phone hands back the same frame object while the screen is unchanged.
        frame = self.phone.screenshot()
        if self._png_cache is not None and self._png_cache[0] is frame:
            return self._png_cache[1]
        buf = io.BytesIO()
        Image.fromarray(np.ascontiguousarray(frame)).save(buf, "PNG", compress_level=self.screencap_compression)
        data = buf.getvalue()
        self._png_cache = (frame, data)
        return data

    def raw(self) -> bytes:
        """The full-resolution screen as ``screencap`` without ``-p`` writes it, cached until the
        screen changes: little-endian width, height, pixel format (RGBA_8888), from API 28 on a
        colour-space word (sRGB), then the RGBA pixels row by row, alpha 255."""
        from PIL import Image

        frame = self.phone.screenshot()
        if self._raw_cache is not None and self._raw_cache[0] is frame:
            return self._raw_cache[1]
        height, width = frame.shape[:2]
        fields = [width, height, PIXEL_FORMAT_RGBA_8888] + ([COLORSPACE_SRGB] if self.sdk >= 28 else [])
        # PIL's convert adds the alpha plane several times faster than numpy's strided writes.
        pixels = Image.fromarray(np.ascontiguousarray(frame)).convert("RGBA").tobytes()
        data = np.array(fields, "<u4").tobytes() + pixels
        self._raw_cache = (frame, data)
        return data

    def _screencap(self, args: list[str], stdin: bytes) -> ShellResult:
        png = "-p" in args
        files = [a for a in args if not a.startswith("-")]
        if files and files[0].endswith(".png"):
            png = True
        data = self.png() if png else self.raw()
        if files:
            self.write(files[0], data)
            return ShellResult()
        return ShellResult(data)

    def _uiautomator(self, args: list[str], stdin: bytes) -> ShellResult:
        if args[:1] != ["dump"]:
            return self._fail("Usage: uiautomator <subcommand> [options]\n", 1)
        files = [a for a in args[1:] if not a.startswith("--")]
        target = files[0] if files else DEFAULT_DUMP_PATH
        xml = self.phone.dump_xml().encode("utf-8")
        if target in ("/dev/tty", "/dev/stdout"):
            return ShellResult(xml + f"UI hierchary dumped to: {target}\n".encode())
        self.write(target, xml, invalidate=False)
        return self._ok(f"UI hierchary dumped to: {target}\n")

    # --- settings and content ----------------------------------------------------------------

    def _settings(self, args: list[str], stdin: bytes) -> ShellResult:
        while args and args[0] in ("--user", "--lineage"):
            args = args[2:] if args[0] == "--user" else args[1:]
        if len(args) < 2:
            return self._fail("usage:  settings [--user <USER_ID> | current] get namespace key\n", 255)
        verb, namespace, rest = args[0], args[1], args[2:]
        if namespace not in ("global", "system", "secure"):
            return self._fail(f"Invalid namespace '{namespace}'\n", 255)
        table = self.phone.state.settings.setdefault(namespace, {})
        if verb == "get" and rest:
            value = self.phone.get_setting(namespace, rest[0])
            return self._ok(("null" if value is None else value) + "\n")
        if verb == "put" and len(rest) >= 2:
            self.phone.put_setting(namespace, rest[0], rest[1])
            return ShellResult()
        if verb == "delete" and rest:
            existed = table.pop(rest[0], None) is not None
            self.phone.invalidate()
            return self._ok(f"Deleted {int(existed)} rows\n")
        if verb == "list":
            return self._ok("".join(f"{k}={v}\n" for k, v in sorted(table.items())))
        return self._fail(f"Invalid command: {verb}\n", 255)

    def _content(self, args: list[str], stdin: bytes) -> ShellResult:
        sub, rest = (args[0], args[1:]) if args else ("", [])
        opts: dict[str, str] = {}
        binds: dict[str, str] = {}
        i = 0
        while i < len(rest):
            flag = rest[i]
            if i + 1 >= len(rest):
                return self._fail(f"Error: No value for argument: {flag}\n")
            value = rest[i + 1]
            if flag == "--bind":
                column, _, typed = value.partition(":")
                kind, _, bound = typed.partition(":")
                if not column or kind not in ("s", "i", "l", "f", "d", "b", "n"):
                    return self._fail(f"Error: Invalid binding: {value}\n")
                binds[column] = "NULL" if kind == "n" else bound
            else:
                opts[flag] = value
            i += 2
        uri = opts.get("--uri")
        if uri is None:
            return self._fail("Error: Content provider URI not specified\n")
        try:
            where = parse_where(opts.get("--where", ""))
            if sub == "query":
                projection = [c for c in opts["--projection"].split(":") if c] if "--projection" in opts else None
                rows = self.phone.content_query(uri, projection, where)
                if not rows:
                    return self._ok("No result found.\n")
                return self._ok("".join(f"Row: {n} " + ", ".join(f"{k}={v}" for k, v in row.items()) + "\n" for n, row in enumerate(rows)))
            if sub == "insert":
                self.phone.content_insert(uri, binds)
                return ShellResult()
            if sub == "delete":
                self.phone.content_delete(uri, where)
                return ShellResult()
        except (CerebellumError, ValueError) as exc:
            return self._fail(f"Error while accessing provider:{uri}\njava.lang.IllegalArgumentException: {exc}\n")
        return self._fail(f"Error: Unsupported operation: {sub}\n")


# --- helpers -----------------------------------------------------------------------------------


def _coord(value: str) -> int:
    return int(float(value))


def _keycode(value: str) -> int:
    if value.isdigit():
        return int(value)
    name = value.upper().removeprefix("KEYCODE_")
    if name not in KEYCODES:
        raise ValueError(value)
    return KEYCODES[name]


def _options(args: list[str], takes_value: set[str], extras: bool = False) -> tuple[dict[str, str], list[str]]:
    """Parse ``am``/``monkey`` style options; intent extras are returned as ``extra:NAME``."""
    opts: dict[str, str] = {}
    positional: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if extras and a in ("--es", "--ei", "--el", "--ez", "--ef", "--eia", "--esa", "--eu"):
            if i + 1 < len(args):
                opts[f"extra:{args[i + 1]}"] = args[i + 2] if i + 2 < len(args) else ""
            i += 3
        elif a in takes_value:
            opts[a] = args[i + 1] if i + 1 < len(args) else ""
            i += 2
        elif a.startswith("-"):
            opts[a] = ""
            i += 1
        else:
            positional.append(a)
            i += 1
    return opts, positional


_WHERE_TERM: Final = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*('(?:[^']|'')*'|[^\s']+)\s*")


def parse_where(clause: str) -> dict[str, str]:
    """Parse the SQL subset judges use: ``col = 'value' AND col2 = 3`` (``''`` escapes a quote).

    Raises:
        ValueError: anything else (a real provider would answer with an SQL error).
    """
    out: dict[str, str] = {}
    rest = clause.strip()
    while rest:
        match = _WHERE_TERM.match(rest)
        if match is None:
            raise ValueError(f"unsupported where clause: {clause!r}")
        column, literal = match.groups()
        out[column] = literal[1:-1].replace("''", "'") if literal.startswith("'") else literal
        rest = rest[match.end() :]
        if rest:
            conj = re.match(r"(?i)AND\s+", rest)
            if conj is None:
                raise ValueError(f"unsupported where clause: {clause!r}")
            rest = rest[conj.end() :]
    return out
