"""The served simulator's ``/system/bin/sh``: the shell language
(:mod:`~cerebellum_gym.sim.shell.language`: tokenizer, parser, evaluator) and the Android
commands it runs (:mod:`~cerebellum_gym.sim.shell.android`), printing what a device prints.

Example:
    >>> from cerebellum_gym.sim.phone import Phone
    >>> Shell(Phone()).run("echo $(getprop ro.product.name)").stdout
    b'cerebellum_sim\\n'
"""

from __future__ import annotations

from cerebellum_gym.sim.shell.android import DEFAULT_DUMP_PATH, DEFAULT_SDK, KEYCODES, LATIN_IME, PROPS, Shell, parse_where
from cerebellum_gym.sim.shell.language import SH, Interpreter, ShellResult, ShellSyntaxError, parse, tokenize

__all__ = [
    "DEFAULT_DUMP_PATH",
    "DEFAULT_SDK",
    "KEYCODES",
    "LATIN_IME",
    "PROPS",
    "SH",
    "Interpreter",
    "Shell",
    "ShellResult",
    "ShellSyntaxError",
    "parse",
    "parse_where",
    "tokenize",
]
