"""The shell's command table: families register into tables, combining them refuses clashes,
and a session runs exactly the combined table's commands (no mocks: the real Shell and Phone)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import COMMANDS, Command, CommandTable, Shell, ShellHost, ShellResult
from cerebellum_gym.sim.shell.androidworld import ANDROIDWORLD
from cerebellum_gym.sim.shell.toybox import TOYBOX


def _say(text: bytes) -> Callable[[object, list[str], bytes], ShellResult]:
    """A handler that prints ``text``."""

    def run(session: object, args: list[str], stdin: bytes) -> ShellResult:
        return ShellResult(text)

    return run


def test_a_family_registering_a_name_twice_is_refused() -> None:
    table = CommandTable[object]("one")
    table.command("x")(_say(b"a"))
    with pytest.raises(ValueError, match="registers 'x' twice"):
        table.command("x")(_say(b"b"))


def test_combining_refuses_a_silent_clash_and_a_replacement_of_nothing() -> None:
    first, second, third = CommandTable[object]("first"), CommandTable[object]("second"), CommandTable[object]("third")
    first.command("x")(_say(b"a"))
    second.command("x")(_say(b"b"))
    third.command("y", replaces=True)(_say(b"c"))
    with pytest.raises(ValueError, match="clashes with first's"):
        CommandTable.combine("all", first, second)
    with pytest.raises(ValueError, match="replaces nothing"):
        CommandTable.combine("all", first, third)


def test_a_later_family_replaces_an_earlier_command() -> None:
    first, second = CommandTable[object]("first"), CommandTable[object]("second")
    first.command("x")(_say(b"a"))
    second.command("x", replaces=True)(_say(b"b"))
    table = CommandTable.combine("all", first, second)
    assert table["x"] == Command("x", table["x"].run, "second", True)
    assert table.bind(object())["x"]([], b"").stdout == b"b"


def test_the_shell_runs_the_combined_table_and_the_language_builtins() -> None:
    sh = Shell(Phone())
    builtins = {"sh", "echo", "true", ":", "false", "exit", "cd", "pwd"}
    assert set(sh.commands) == builtins | {command.name for command in COMMANDS}
    # AndroidWorld's dumpsys wraps the framework's: it answers `dumpsys input` and passes the rest on.
    assert COMMANDS["dumpsys"].family == "androidworld" and COMMANDS["dumpsys"].replaces
    assert b"logicalFrame" in sh.run("dumpsys input").stdout
    assert b"mCurrentFocus" in sh.run("dumpsys window").stdout
    assert {c.name for c in TOYBOX} | {c.name for c in ANDROIDWORLD} <= {c.name for c in COMMANDS}


def test_a_session_over_one_family_runs_only_that_family() -> None:
    sh = ShellHost(Phone(), commands=TOYBOX)
    assert sh.run("getprop ro.build.version.sdk").stdout == b"33\n"
    result = sh.run("dumpsys window")
    assert result.code == 127 and b"dumpsys: inaccessible or not found" in result.stderr
