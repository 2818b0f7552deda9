"""The served simulator's ``/system/bin/sh``: the shell language
(:mod:`~cerebellum_gym.sim.shell.language`: tokenizer, parser, evaluator), a session over the
phone (:mod:`~cerebellum_gym.sim.shell.host`) and the Android commands it runs, printing what a
device prints: families of commands (:mod:`~cerebellum_gym.sim.shell.toybox`,
:mod:`~cerebellum_gym.sim.shell.framework`, :mod:`~cerebellum_gym.sim.shell.androidworld`)
register into tables (:mod:`~cerebellum_gym.sim.shell.table`) that
:mod:`~cerebellum_gym.sim.shell.android` combines into the shell's.

Example:
    >>> from cerebellum_gym.sim.phone import Phone
    >>> Shell(Phone()).run("echo $(getprop ro.product.name)").stdout
    b'cerebellum_sim\\n'
"""

from __future__ import annotations

from cerebellum_gym.sim.shell.android import COMMANDS, Shell
from cerebellum_gym.sim.shell.framework import DEFAULT_DUMP_PATH, KEYCODES, LATIN_IME, parse_where
from cerebellum_gym.sim.shell.host import DEFAULT_SDK, PROPS, ShellHost
from cerebellum_gym.sim.shell.language import SH, Interpreter, ShellResult, ShellSyntaxError, parse, tokenize
from cerebellum_gym.sim.shell.table import Command, CommandTable

__all__ = [
    "COMMANDS",
    "DEFAULT_DUMP_PATH",
    "DEFAULT_SDK",
    "KEYCODES",
    "LATIN_IME",
    "PROPS",
    "SH",
    "Command",
    "CommandTable",
    "Interpreter",
    "Shell",
    "ShellHost",
    "ShellResult",
    "ShellSyntaxError",
    "parse",
    "parse_where",
    "tokenize",
]
