"""The shell's commands as a table: each command family registers its commands into a
:class:`CommandTable`, tables combine into the shell's, and a shell session binds the table to
itself (``name -> handler(args, stdin)``).

A command is a plain function of the session, its arguments and its stdin, so a family that
extends another's command (AndroidWorld's ``dumpsys input`` over ``dumpsys``) calls that
function and says so with ``replaces=True``; combining tables refuses a name registered twice
without it, or a replacement of nothing.

Example:
    >>> from cerebellum_gym.sim.shell.language import ShellResult
    >>> base = CommandTable[object]("base")
    >>> @base.command("hello")
    ... def hello(session: object, args: list[str], stdin: bytes) -> ShellResult:
    ...     return ShellResult(b"hello " + " ".join(args).encode() + b"\\n")
    >>> loud = CommandTable[object]("loud")
    >>> @loud.command("hello", replaces=True)
    ... def shout(session: object, args: list[str], stdin: bytes) -> ShellResult:
    ...     return ShellResult(hello(session, args, stdin).stdout.upper())
    >>> table = CommandTable.combine("shell", base, loud)
    >>> table["hello"].family, table.bind(object())["hello"](["you"], b"").stdout
    ('loud', b'HELLO YOU\\n')
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from cerebellum_gym.sim.shell.language import ShellResult

S = TypeVar("S")
F = TypeVar("F", bound=Callable[..., ShellResult])
#: A bound command, as the interpreter runs it: ``handler(args, stdin)``.
BoundHandler = Callable[[list[str], bytes], ShellResult]


@dataclass(frozen=True)
class Command(Generic[S]):
    """One command of the shell.

    Attributes:
        name: what the command line calls (``argv[0]``, or its base name under a binary folder).
        run: ``run(session, args, stdin)``: the command's result on that session.
        family: the table that registered it.
        replaces: whether it takes over a command of the same name from an earlier family.
    """

    name: str
    run: Callable[[S, list[str], bytes], ShellResult]
    family: str
    replaces: bool = False


class CommandTable(Generic[S]):
    """Commands by name, registered by one family or combined from several.

    Args:
        family: the family's name (``toybox``, ``activity``, ``androidworld``, ...).
    """

    def __init__(self, family: str) -> None:
        self.family = family
        self._commands: dict[str, Command[S]] = {}

    def command(self, name: str, *, replaces: bool = False) -> Callable[[F], F]:
        """Register the decorated function as the command ``name`` (the function is unchanged).

        Raises:
            ValueError: this family registers ``name`` twice.
        """

        def register(run: F) -> F:
            if name in self._commands:
                raise ValueError(f"the {self.family} family registers {name!r} twice")
            self._commands[name] = Command(name, run, self.family, replaces)
            return run

        return register

    @classmethod
    def combine(cls, family: str, *tables: CommandTable[S]) -> CommandTable[S]:
        """One table of ``tables``' commands, later tables over earlier ones.

        Raises:
            ValueError: a name two tables register where the later does not say ``replaces``,
                or a ``replaces`` with nothing earlier to replace.
        """
        out = cls(family)
        for table in tables:
            for name, command in table._commands.items():
                if command.replaces != (name in out._commands):
                    earlier = out._commands.get(name)
                    raise ValueError(
                        f"{table.family}'s {name!r} replaces nothing"
                        if earlier is None
                        else f"{table.family}'s {name!r} clashes with {earlier.family}'s (register it with replaces=True)"
                    )
                out._commands[name] = command
        return out

    def bind(self, session: S) -> dict[str, BoundHandler]:
        """``name -> handler(args, stdin)`` for one session (what :attr:`Interpreter.commands` holds)."""
        # Bound methods of the session, as the handlers were when they were the shell's methods
        # (cheaper to make than partials: a session is made per ADB connection).
        return {name: types.MethodType(command.run, session) for name, command in self._commands.items()}

    def __getitem__(self, name: str) -> Command[S]:
        return self._commands[name]

    def __contains__(self, name: object) -> bool:
        return name in self._commands

    def __iter__(self) -> Iterator[Command[S]]:
        return iter(self._commands.values())

    def __len__(self) -> int:
        return len(self._commands)
