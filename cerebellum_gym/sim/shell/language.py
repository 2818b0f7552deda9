"""The served simulator's shell language: a small POSIX-style ``sh -c``.

Quoting, ``$VAR``, ``$(...)`` and backtick substitution, field splitting, globbing, ``;`` ``&&``
``||`` ``|`` and redirections, and the builtins of the language itself (``echo``, ``cd``,
``exit``, ``true``, ...). :class:`Interpreter` evaluates a parsed line over abstract file-system
hooks; :class:`~cerebellum_gym.sim.shell.host.ShellHost` fills them with the phone's files and
binds a table of Android commands (:mod:`~cerebellum_gym.sim.shell.table`).

Substitutions really run, on purpose: a client that forgets to quote typed text gets exactly
the damage a real shell would do, so the quoting tests of the ADB backend test real behaviour.

Example:
    >>> [type(t).__name__ for t in tokenize("echo 'a b' | grep a")]
    ['Word', 'Word', 'Op', 'Word', 'Word']
"""

from __future__ import annotations

import abc
import fnmatch
import io
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.sim.shell import arith

SH: Final = "/system/bin/sh"
_NAME_RE: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_GLOB_CHARS: Final = frozenset("*?[")
_ARITH_VAR_RE: Final = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[?#$])\}|([A-Za-z_][A-Za-z0-9_]*|[?#$]))")
_MAX_SUBST_DEPTH: Final = 8
#: The most bytes one simple command's expanded words may hold (Linux's ARG_MAX is about 2 MB;
#: the simulator allows more for long typed text, but bounds what substitutions can build).
MAX_ARGS_BYTES: Final = 16 * 1024 * 1024
#: The most bytes one command line may send back. A device streams its output; the simulator holds
#: a line's output until the line ends, so it stops a line whose output passes this, before the
#: output is built (two raw screenshots of 1080x2400 fit).
MAX_OUTPUT: Final = 32 * 1024 * 1024
#: Where a device keeps its binaries: ``/system/bin/input`` runs ``input``.
BIN_DIRS: Final = frozenset({"/system/bin", "/system/xbin", "/vendor/bin", "/product/bin", "/apex/com.android.runtime/bin", "/bin"})
#: How deep quotes and substitutions may nest inside one another when a line is tokenized.
_MAX_NESTING: Final = 32


@dataclass
class ShellResult:
    """What a command line wrote and how it exited."""

    stdout: bytes = b""
    stderr: bytes = b""
    code: int = 0


class ShellSyntaxError(Exception):
    """The command line does not parse (mksh prints these as ``syntax error``)."""


class OutputLimitError(Exception):
    """A command line's output passed :data:`MAX_OUTPUT` (the line stops there)."""


class _Exit(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


# --- lexing ------------------------------------------------------------------------------------

# A word is a list of parts: (kind, value, quoted) with kind "lit", "var", "cmd" or "arith".
Part = tuple[str, str, bool]


@dataclass
class Word:
    parts: list[Part]


@dataclass
class Op:
    text: str


Token = Word | Op
_OPERATOR_START: Final = frozenset(";&|<>()\n")
#: A run of characters with no special meaning outside quotes (``#`` only starts a comment at a word's start).
_PLAIN_RE: Final = re.compile(r"[^ \t#\\'\"$`;&|<>()\n]+")
#: A run of characters with no special meaning inside double quotes.
_DQUOTE_PLAIN_RE: Final = re.compile(r"[^\\$`]+|[\\$`]")
_DIGITS_RE: Final = re.compile(r"\d+")


def _find_closing_paren(s: str, i: int, nest: int = 0) -> int:
    """Index of the ``)`` closing the ``$(`` whose body starts at ``i``."""
    if nest > _MAX_NESTING:
        raise ShellSyntaxError("quotes and substitutions nested too deeply")
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
            i = _find_closing_dquote(s, i + 1, nest + 1) + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ShellSyntaxError("'(' unmatched")


def _find_closing_dquote(s: str, i: int, nest: int = 0) -> int:
    if nest > _MAX_NESTING:
        raise ShellSyntaxError("quotes and substitutions nested too deeply")
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            return i
        if c == "$" and s.startswith("$(", i):
            i = _find_closing_paren(s, i + 2, nest + 1) + 1
            continue
        if c == "`":
            end = s.find("`", i + 1)
            if end < 0:
                raise ShellSyntaxError("no closing quote")
            i = end + 1
            continue
        i += 1
    raise ShellSyntaxError("no closing quote")


def _find_arith_end(s: str, i: int) -> int | None:
    """Index of the ``))`` closing the ``$((`` whose body starts at ``i``, or None when the
    parentheses say it is a command substitution of a subshell (``$( (cmd) )``)."""
    depth = 0
    while i < len(s):
        c = s[i]
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return i if s.startswith("))", i) else None
            depth -= 1
        elif c in "'\"`":
            return None  # quoting inside arithmetic: not this shell's subset
        i += 1
    return None


def _dollar(s: str, i: int, quoted: bool) -> tuple[Part, int]:
    """Parse the expansion starting at ``s[i] == "$"``; return the part and the next index."""
    if s.startswith("$((", i):
        close = _find_arith_end(s, i + 3)
        if close is not None:
            return ("arith", s[i + 3 : close], quoted), close + 2
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
    """Split a command line into words and operators, keeping quoting for expansion.

    Linear in the line's length: runs of plain text are collected in lists and joined once.
    """
    tokens: list[Token] = []
    parts: list[Part] | None = None
    pending: list[str] = []  # the literal text run being collected
    pending_quoted = False
    i = 0

    def flush() -> None:
        nonlocal pending
        if pending:
            assert parts is not None
            parts.append(("lit", "".join(pending), pending_quoted))
            pending = []

    def lit(text: str, quoted: bool) -> None:
        nonlocal parts, pending_quoted
        if parts is None:
            parts = []
        if pending and pending_quoted != quoted:
            flush()
        pending_quoted = quoted
        pending.append(text)  # one part per run of plain text

    def add(part: Part) -> None:
        nonlocal parts
        if parts is None:
            parts = []
        flush()
        parts.append(part)

    def end_word() -> None:
        nonlocal parts
        if parts is not None:
            flush()
            tokens.append(Word(parts))
            parts = None

    n = len(s)
    while i < n:
        c = s[i]
        if c in " \t":
            end_word()
            i += 1
        elif c == "#" and parts is None:
            nl = s.find("\n", i)
            i = n if nl < 0 else nl
        elif c == "\\":
            if i + 1 < n and s[i + 1] == "\n":
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
            add(("lit", "", True))  # "" alone is still a (empty) word
            j = i + 1
            while j < end:
                d = s[j]
                if d == "\\" and j + 1 < end and s[j + 1] in '$`"\\\n':
                    if s[j + 1] != "\n":
                        lit(s[j + 1], True)
                    j += 2
                elif d == "$":
                    part, j = _dollar(s, j, True)
                    add(part)
                elif d == "`":
                    close = s.find("`", j + 1)
                    add(("cmd", s[j + 1 : close], True))
                    j = close + 1
                else:
                    match = _DQUOTE_PLAIN_RE.match(s, j, end)
                    assert match is not None
                    lit(match.group(), True)
                    j = match.end()
            i = end + 1
        elif c == "$":
            part, i = _dollar(s, i, False)
            add(part)
        elif c == "`":
            end = s.find("`", i + 1)
            if end < 0:
                raise ShellSyntaxError("no closing quote")
            add(("cmd", s[i + 1 : end], False))
            i = end + 1
        elif c in _OPERATOR_START:
            # "2>" and "2>&1": a digit-only unquoted word right before a redirection is its fd.
            fd = ""
            if c in "<>" and parts is not None:
                flush()
                if len(parts) == 1 and parts[0][0] == "lit" and not parts[0][2] and parts[0][1].isdigit():
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
                match = _DIGITS_RE.match(s, i)
                if match is None:
                    raise ShellSyntaxError("'>&' unexpected")
                text += match.group()
                i = match.end()
            tokens.append(Op(fd + text))
        else:
            match = _PLAIN_RE.match(s, i)
            if match is None:  # a "#" inside a word: literal
                lit(c, False)
                i += 1
            else:
                lit(match.group(), False)
                i = match.end()
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


# --- compound commands: if/then/elif/else/fi ----------------------------------------------------
# Kept apart from parse() (which reads plain lists and pipelines): a script is a list of nodes,
# each a run of plain items or one if-clause whose blocks are scripts again.

_IF_KEYWORDS: Final = frozenset({"if", "then", "elif", "else", "fi"})
_COMMAND_SEPARATORS: Final = frozenset({";", "\n", "&&", "||", "&", "|"})


@dataclass
class IfClause:
    """``if`` with its ``(condition, body)`` branches (``elif`` adds one) and its ``else`` body."""

    connector: str
    branches: list[tuple[list[Node], list[Node]]]
    orelse: list[Node] | None


@dataclass
class Subshell:
    """``( list )`` with the redirections after its ``)``: run with its own cwd."""

    connector: str
    body: list[Node]
    redirects: list[tuple[str, Word | None]]


Node = list[tuple[str, Pipeline]] | IfClause | Subshell


def _keyword(token: Token) -> str | None:
    if isinstance(token, Word) and len(token.parts) == 1 and token.parts[0][0] == "lit" and not token.parts[0][2]:
        text = token.parts[0][1]
        return text if text in _IF_KEYWORDS else None
    return None


def parse_script(tokens: list[Token]) -> list[Node]:
    """Parse a whole script: plain lists (as :func:`parse`) and ``if`` clauses, nested."""
    nodes, i = _parse_block(tokens, 0, frozenset())
    if i < len(tokens):
        raise ShellSyntaxError(f"'{_keyword(tokens[i])}' unexpected")
    return nodes


def _parse_block(tokens: list[Token], i: int, stop: frozenset[str]) -> tuple[list[Node], int]:
    """Nodes from ``tokens[i:]`` up to a keyword in ``stop`` at a command's start."""
    nodes: list[Node] = []
    start, connector, at_start = i, ";", True
    while i < len(tokens):
        word = _keyword(tokens[i]) if at_start else None
        if word in stop:
            break
        if word is not None and word != "if":
            raise ShellSyntaxError(f"'{word}' unexpected")
        token = tokens[i]
        compound = _parse_if if word == "if" else _parse_subshell if at_start and isinstance(token, Op) and token.text == "(" else None
        if compound is not None:
            # The plain commands before it, then the compound command joined by its connector.
            segment, inner = tokens[start:i], ";"
            last = segment[-1] if segment else None
            if isinstance(last, Op) and last.text in ("&&", "||"):
                inner, segment = last.text, segment[:-1]
            _add_plain(nodes, segment, connector)
            node, i = compound(tokens, i + 1, inner)
            nodes.append(node)
            connector, i = _after_compound(tokens, i)
            start, at_start = i, True
            continue
        at_start = isinstance(token, Op) and token.text in _COMMAND_SEPARATORS
        i += 1
    _add_plain(nodes, tokens[start:i], connector)
    return nodes, i


def _after_compound(tokens: list[Token], i: int) -> tuple[str, int]:
    """The connector after a compound command (``;`` when none) and the index past it."""
    if i < len(tokens) and isinstance(tokens[i], Op):
        op = tokens[i]
        assert isinstance(op, Op)
        if op.text in ("&&", "||"):
            return op.text, i + 1
        if op.text not in (";", "\n"):
            raise ShellSyntaxError(f"'{op.text}' unexpected")
        return ";", i + 1
    return ";", i


def _add_plain(nodes: list[Node], segment: list[Token], connector: str) -> None:
    if not segment:
        return
    items = parse(segment)
    if items:
        items[0] = (connector, items[0][1])
        nodes.append(items)


def _parse_subshell(tokens: list[Token], i: int, connector: str) -> tuple[Subshell, int]:
    """After ``(``: the subshell and the index just past its redirections."""
    depth, j = 1, i
    while j < len(tokens):
        token = tokens[j]
        if isinstance(token, Op) and token.text == "(":
            depth += 1
        elif isinstance(token, Op) and token.text == ")":
            depth -= 1
            if depth == 0:
                break
        j += 1
    else:
        raise ShellSyntaxError("missing ')'")
    body, end = _parse_block(tokens[:j], i, frozenset())
    if end != j or not body:
        raise ShellSyntaxError("')' unexpected")
    j += 1
    redirects: list[tuple[str, Word | None]] = []
    while j < len(tokens) and isinstance(tokens[j], Op) and _REDIRECT_RE.fullmatch(tokens[j].text):  # type: ignore[union-attr]
        op = tokens[j].text  # type: ignore[union-attr]
        if ">&" in op:
            redirects.append((op, None))
            j += 1
            continue
        if j + 1 >= len(tokens) or not isinstance(tokens[j + 1], Word):
            raise ShellSyntaxError(f"'{op}' unexpected")
        target = tokens[j + 1]
        assert isinstance(target, Word)
        redirects.append((op, target))
        j += 2
    return Subshell(connector, body, redirects), j


def _parse_if(tokens: list[Token], i: int, connector: str) -> tuple[IfClause, int]:
    """After ``if``: the clause and the index just past its ``fi``."""
    branches: list[tuple[list[Node], list[Node]]] = []
    orelse: list[Node] | None = None
    while True:
        condition, i = _parse_block(tokens, i, frozenset({"then"}))
        if i >= len(tokens) or not condition:
            raise ShellSyntaxError("'if' without 'then'" if condition else "'then' unexpected")
        body, i = _parse_block(tokens, i + 1, frozenset({"elif", "else", "fi"}))
        if i >= len(tokens) or not body:
            raise ShellSyntaxError("unexpected end of input" if i >= len(tokens) else f"'{_keyword(tokens[i])}' unexpected")
        branches.append((condition, body))
        word = _keyword(tokens[i])
        i += 1
        if word == "elif":
            continue
        if word == "else":
            orelse, i = _parse_block(tokens, i, frozenset({"fi"}))
            if i >= len(tokens) or not orelse:
                raise ShellSyntaxError("unexpected end of input" if i >= len(tokens) else "'fi' unexpected")
            i += 1
        return IfClause(connector, branches, orelse), i


@dataclass
class Program:
    """A parsed command line, with the command substitutions inside it parsed too (``subs``,
    by their text), so that running it parses nothing (see :func:`compile_script`)."""

    items: list[Node] | None
    error: str | None = None
    subs: dict[str, Program] = field(default_factory=dict)


def _words(nodes: list[Node]) -> list[Word]:
    """Every word of a script, compound commands included (where substitutions can hide)."""
    found: list[Word] = []
    for node in nodes:
        if isinstance(node, IfClause):
            for condition, body in node.branches:
                found += _words(condition) + _words(body)
            found += _words(node.orelse or [])
        elif isinstance(node, Subshell):
            found += _words(node.body) + [target for _, target in node.redirects if target is not None]
        else:
            for _, pipeline in node:
                for command in pipeline:
                    found += [*command.words, *(target for _, target in command.redirects if target is not None)]
    return found


def compile_script(script: str) -> Program:
    """Parse ``script`` and, to the substitution depth the shell allows, every ``$(...)`` and
    backtick body in it. Work is linear in the script's length times that (bounded) depth.
    A syntax error is kept in the program, answered when it runs, as ``sh -c`` does."""
    subs: dict[str, Program] = {}

    def build(text: str, depth: int) -> Program:
        try:
            nodes = parse_script(tokenize(text))
        except ShellSyntaxError as exc:
            return Program(None, str(exc), subs)
        except RecursionError:
            return Program(None, "nested too deeply", subs)
        if depth < _MAX_SUBST_DEPTH:
            for word in _words(nodes):
                for kind, value, _ in word.parts:
                    if kind == "cmd" and value not in subs:
                        subs[value] = build(value, depth + 1)
        return Program(nodes, None, subs)

    return build(script, 0)


def _joined(parts: list[bytes]) -> bytes:
    return parts[0] if len(parts) == 1 else b"".join(parts)


# --- the interpreter ---------------------------------------------------------------------------


def ok(text: str = "") -> ShellResult:
    """A command's success printing ``text``."""
    return ShellResult(text.encode("utf-8", "surrogateescape"))


def fail(text: str, code: int = 1) -> ShellResult:
    """A command's failure: ``text`` on stderr, exit status ``code``."""
    return ShellResult(b"", text.encode("utf-8", "surrogateescape"), code)


class Interpreter(abc.ABC):
    """Evaluates parsed command lines; subclasses supply the file system and more commands.

    ``commands`` maps a command name to ``handler(argv[1:], stdin) -> ShellResult``; this class
    registers the language's own builtins, subclasses add theirs.
    """

    def __init__(self) -> None:
        self.env: dict[str, str] = {"HOME": "/", "PATH": "/product/bin:/apex/com.android.runtime/bin:/system/bin", "USER": "shell"}
        self.cwd = "/"
        self.status = 0
        self._depth = 0
        self._subs: dict[str, Program] = {}
        self._expanded = 0  # bytes the current command's expansions produced (MAX_ARGS_BYTES)
        self.output_limit = MAX_OUTPUT
        self._written = 0  # bytes of output the running line holds (output_limit)
        self._to_file = False  # the running command's stdout goes to a file, not to the client
        self.commands: dict[str, Callable[[list[str], bytes], ShellResult]] = {
            "sh": self._sh,
            "echo": self._echo,
            "true": lambda a, i: ShellResult(),
            ":": lambda a, i: ShellResult(),
            "false": lambda a, i: ShellResult(code=1),
            "exit": self._exit,
            "cd": self._cd,
            "pwd": lambda a, i: ShellResult((self.cwd + "\n").encode()),
        }

    # --- the file system (subclasses) --------------------------------------------------------

    @abc.abstractmethod
    def path(self, name: str) -> str:
        """The canonical absolute path of ``name`` (relative to the working directory)."""

    @abc.abstractmethod
    def read(self, name: str) -> bytes | None:
        """A file's bytes, or None if there is no such file."""

    @abc.abstractmethod
    def write(self, name: str, data: bytes, *, invalidate: bool = True) -> None:
        """Create or replace a file."""

    @abc.abstractmethod
    def is_dir(self, name: str) -> bool:
        """Whether ``name`` is a directory."""

    @abc.abstractmethod
    def listdir(self, name: str) -> list[str]:
        """The names in a directory, sorted."""

    def exists(self, name: str) -> bool:
        return self.read(name) is not None or self.is_dir(name)

    # --- running -----------------------------------------------------------------------------

    def run(self, script: str, stdin: bytes = b"") -> ShellResult:
        """Run a command line as ``sh -c`` does; never raises for anything the script does."""
        return self.execute(compile_script(script), stdin)

    def execute(self, program: Program, stdin: bytes = b"", *, words_room: int | None = None) -> ShellResult:
        """Run a compiled command line (:func:`compile_script`); never raises for anything the
        script does: a command that fails in an unforeseen way is that command's error.

        ``words_room`` runs it as a command substitution: its output becomes words, so it may
        hold what the command's words have left (``MAX_ARGS_BYTES``), past which the command
        fails with "Argument list too long" (:class:`ShellSyntaxError`)."""
        if program.items is None:
            return ShellResult(b"", f"{SH}: syntax error: {program.error}\n".encode(), 1)
        # Parts joined once at the end; a single part passes through uncopied (a 10 MB screenshot).
        out: list[bytes] = []
        err: list[bytes] = []
        saved, self._subs = self._subs, program.subs
        written, self._written = self._written, 0  # a substitution's output is its own line's
        limit = self.output_limit
        if words_room is not None:
            self.output_limit = words_room
        stopped = False
        try:
            self._run_nodes(program.items, stdin, out, err)
        except _Exit as exc:
            self.status = exc.code
        except OutputLimitError:
            stopped = words_room is not None
            err.append(f"{SH}: output passed the device's limit of {self.output_limit} bytes: stopped\n".encode())
            self.status = 1
        except (RecursionError, MemoryError) as exc:
            # Whatever the line asked for, the session survives it, as a shell's parent would.
            err.append(f"{SH}: {type(exc).__name__}\n".encode())
            self.status = 2
        finally:
            self._subs = saved
            self._written = written
            self.output_limit = limit
        if stopped:
            raise ShellSyntaxError("Argument list too long")
        return ShellResult(_joined(out), _joined(err), self.status)

    def output_room(self) -> int:
        """How many more bytes the running command may produce: what is left under the line's
        output limit, or no bound when its output goes to a file (storage bounds that)."""
        return 1 << 62 if self._to_file else max(0, self.output_limit - self._written)

    def _emit(self, out: list[bytes], data: bytes) -> None:
        """Keep ``data`` as the line's output, or stop the line if it passes the limit."""
        if self._written + len(data) > self.output_limit:
            raise OutputLimitError
        self._written += len(data)
        out.append(data)

    def _run_nodes(self, nodes: list[Node], stdin: bytes, out: list[bytes], err: list[bytes]) -> None:
        for node in nodes:
            if isinstance(node, IfClause):
                self._run_if(node, stdin, out, err)
                continue
            if isinstance(node, Subshell):
                self._run_subshell(node, stdin, out, err)
                continue
            for connector, pipeline in node:
                if (connector == "&&" and self.status != 0) or (connector == "||" and self.status == 0):
                    continue
                result = self._pipeline(pipeline, stdin)
                if result.stdout:
                    self._emit(out, result.stdout)
                if result.stderr:
                    err.append(result.stderr)
                self.status = result.code

    def _run_subshell(self, sub: Subshell, stdin: bytes, out: list[bytes], err: list[bytes]) -> None:
        if (sub.connector == "&&" and self.status != 0) or (sub.connector == "||" and self.status == 0):
            return
        redirects: list[tuple[str, str | None]] = []
        for op, target in sub.redirects:
            names: list[str | None] = list(self.expand(target)) if target is not None else [None]
            if len(names) != 1:
                err.append(f"{SH}: {op}: bad redirection\n".encode())
                self.status = 1
                return
            redirects.append((op, names[0]))
        inner_out: list[bytes] = []
        inner_err: list[bytes] = []
        cwd = self.cwd
        try:
            self._run_nodes(sub.body, stdin, inner_out, inner_err)
        except _Exit as exc:  # exit leaves the subshell only
            self.status = exc.code
        finally:
            self.cwd = cwd
        result = self._redirect(ShellResult(_joined(inner_out), _joined(inner_err), self.status), redirects)
        if result.stdout:
            self._emit(out, result.stdout)
        if result.stderr:
            err.append(result.stderr)
        self.status = result.code

    def _run_if(self, clause: IfClause, stdin: bytes, out: list[bytes], err: list[bytes]) -> None:
        if (clause.connector == "&&" and self.status != 0) or (clause.connector == "||" and self.status == 0):
            return
        for condition, body in clause.branches:
            self._run_nodes(condition, stdin, out, err)
            if self.status == 0:
                self._run_nodes(body, stdin, out, err)
                return
        if clause.orelse is not None:
            self._run_nodes(clause.orelse, stdin, out, err)
        else:
            self.status = 0  # no branch ran: `if` exits 0

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
        name = "sh"
        self._expanded = 0
        try:
            argv = [f for word in command.words for f in self.expand(word)]
            redirects: list[tuple[str, str | None]] = []
            for op, target in command.redirects:
                if target is None:
                    redirects.append((op, None))
                    continue
                names = self.expand(target)
                if len(names) != 1:
                    return ShellResult(b"", f"{SH}: {''.join(names) or op}: bad redirection\n".encode(), 1)
                redirects.append((op, names[0]))
            for op, target_name in redirects:
                if op.endswith("<") and target_name is not None:
                    data = self.read(target_name)
                    if data is None:
                        return ShellResult(b"", f"{SH}: can't open {target_name}: No such file or directory\n".encode(), 1)
                    stdin = data
            if not argv:
                return self._redirect(ShellResult(), redirects)
            name = argv[0]
            handler = self.resolve(name)
            if handler is None:
                return ShellResult(b"", f"{SH}: {name}: inaccessible or not found\n".encode(), 127)
            self._to_file = any(not op.endswith("<") and ">&" not in op and op[0] in "1>" for op, _ in redirects)
            try:
                return self._redirect(handler(argv[1:], stdin), redirects)
            finally:
                self._to_file = False
        except (_Exit, OutputLimitError):
            raise
        except ShellSyntaxError as exc:
            return ShellResult(b"", f"{SH}: {exc}\n".encode(), 1)
        except CerebellumError as exc:
            return ShellResult(b"", f"{name}: {exc}\n".encode("utf-8", "surrogateescape"), 1)
        except (RecursionError, MemoryError):
            raise  # the whole line fails (execute answers it)
        except Exception as exc:
            # A command this shell cannot run with these arguments: an error and a non-zero
            # status, as a device answers, never an exception that ends the session.
            message = f"{name}: {type(exc).__name__}: {exc}"[:500]
            return ShellResult(b"", (message + "\n").encode("utf-8", "surrogateescape"), 255)

    def resolve(self, name: str) -> Callable[[list[str], bytes], ShellResult] | None:
        """The handler ``name`` runs: a command by name, or by its path in a binary directory
        (``/system/bin/screencap``, ``/system/bin/sh``)."""
        handler = self.commands.get(name)
        if handler is None and "/" in name:
            directory, base = posixpath.split(posixpath.normpath(posixpath.join(self.cwd, name)))
            if directory in BIN_DIRS:
                handler = self.commands.get(base)
        return handler

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

    def _arithmetic(self, expression: str) -> str:
        """``$((expression))``: ``$name`` and ``${name}`` read first, then 32-bit arithmetic."""
        if "$(" in expression or "`" in expression:
            raise ShellSyntaxError(f"{expression}: command substitution in arithmetic is not supported here")
        text = _ARITH_VAR_RE.sub(lambda m: self._variable(m.group(1) or m.group(2)), expression)
        try:
            return str(arith.evaluate(text, self.env.get))
        except arith.ArithError as exc:
            raise ShellSyntaxError(str(exc)) from None

    def _substitute(self, script: str) -> str:
        if self._depth >= _MAX_SUBST_DEPTH:
            raise ShellSyntaxError("command substitution nested too deeply")
        self._depth += 1
        expanded = self._expanded  # the substitution's own commands count their words afresh
        try:
            saved = self.status
            program = self._subs.get(script)
            room = max(0, MAX_ARGS_BYTES - expanded)
            result = self.execute(program if program is not None else compile_script(script), words_room=room)
            self.status = saved if result.code == 0 else result.code
        finally:
            self._depth -= 1
            self._expanded = expanded
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
            if kind == "arith":
                current += self._arithmetic(value)
                started = True
                continue
            text = self._variable(value) if kind == "var" else self._substitute(value)
            self._expanded += len(text)
            if self._expanded > MAX_ARGS_BYTES:
                raise ShellSyntaxError("Argument list too long")
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

    # --- simple commands ---------------------------------------------------------------------

    def _echo(self, args: list[str], stdin: bytes) -> ShellResult:
        newline = True
        while args and args[0] in ("-n", "-e", "-E", "-ne", "-en"):
            newline = newline and "n" not in args[0]
            args = args[1:]
        return ok(" ".join(args) + ("\n" if newline else ""))

    def _exit(self, args: list[str], stdin: bytes) -> ShellResult:
        raise _Exit(int(args[0]) & 0xFF if args and args[0].isdigit() else self.status)

    def _sh(self, args: list[str], stdin: bytes) -> ShellResult:
        """``sh -c SCRIPT``, ``sh FILE`` or ``sh`` reading its script from stdin: a child shell
        (its ``cd`` and ``exit`` stay inside it)."""
        if args[:1] == ["-c"]:
            if len(args) < 2:
                return fail(f"{SH}: -c: option requires an argument\n", 2)
            script, child_stdin = args[1], stdin
        elif args:
            data = self.read(args[0])
            if data is None:
                return fail(f"{SH}: {args[0]}: No such file or directory\n", 127)
            script, child_stdin = data.decode("utf-8", "surrogateescape"), stdin
        else:
            script, child_stdin = stdin.decode("utf-8", "surrogateescape"), b""
        if self._depth >= _MAX_SUBST_DEPTH:
            return fail(f"{SH}: shells nested too deeply\n", 2)
        saved = self.cwd, self.status, dict(self.env)
        self._depth += 1
        try:
            return self.run(script, child_stdin)
        finally:
            self._depth -= 1
            self.cwd, self.status, self.env = saved

    def _cd(self, args: list[str], stdin: bytes) -> ShellResult:
        target = self.path(args[0] if args else "/")
        if not self.is_dir(target):
            return fail(f"{SH}: cd: {target}: No such file or directory\n", 2)
        self.cwd = target
        return ShellResult()
