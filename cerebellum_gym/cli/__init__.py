"""The ``cerebellum-gym`` command line (also ``python -m cerebellum_gym``). Each sub-command
lives in its own module here and registers itself through ``register(subparsers)``."""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Iterator, Sequence
from typing import NoReturn

from cerebellum_gym.errors import CerebellumError

#: Modules of this package that define sub-commands, in the order help lists them.
COMMAND_MODULES: tuple[str, ...] = ("eval_cmd", "tasks_cmd", "serve_adb_cmd", "emulators_cmd", "datasets_cmd", "train_cmd")


class DefaultsHelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows each option's default once: not for required options, flags, ``None`` defaults or
    help that names its default already."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if action.required or action.default in (None, False, argparse.SUPPRESS) or "default" in text:
            return text
        return super()._get_help_string(action)


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: no usage block, and "did you mean" for a mistyped flag or
    choice (sub-commands' parsers are of this class too)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {_hinted(self, message)}; `{self.prog} --help` shows the usage\n")


def _option_strings(parser: argparse.ArgumentParser) -> Iterator[str]:
    for action in parser._actions:
        yield from (s for s in action.option_strings if s.startswith("--"))
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                yield from _option_strings(child)


def _hinted(parser: argparse.ArgumentParser, message: str) -> str:
    """``message`` with a suggestion for the first unknown flag or invalid choice in it."""
    from cerebellum_gym.options import did_you_mean

    unknown = re.match(r"unrecognized arguments: (.*)", message)
    if unknown:
        words = unknown.group(1).split()
        flag = next((w.split("=")[0] for w in words if w.startswith("-")), None)
        if flag is None:
            return f"unexpected argument(s) {unknown.group(1)!r}"
        return did_you_mean(flag, sorted(set(_option_strings(parser))), what="flag", listing="")[: -len("; ")]
    choice = re.search(r"invalid choice: '?([^'\s]*)'? \(choose from (.*)\)", message)
    if choice:
        valid = [c.strip(" '") for c in choice.group(2).split(",")]
        hint = did_you_mean(choice.group(1), valid, listing="")
        if "(did you mean" in hint:
            return f"{message} {hint[hint.index('(did you mean') : -len('; ')]}"
    return message.replace("\n", " ")


def _command_parser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[command]
    return parser


def build_parser() -> argparse.ArgumentParser:
    from cerebellum_gym import __version__

    parser = Parser(prog="cerebellum-gym", description="Gymnasium environments for Android UI agents.")
    parser.add_argument("--version", action="version", version=f"cerebellum-gym {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(f"cerebellum_gym.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # named by the sub-command's parser, which knows its own flags
        _command_parser(parser, args.command).error("unrecognized arguments: " + " ".join(extra))
    try:
        # The simulator's settings from the environment are checked on import: a bad one is
        # reported here, before any work, rather than from inside the first env built.
        import cerebellum_gym.sim.render  # noqa: F401

        code: int = args.handler(args)
        sys.stdout.flush()  # a closed pipe shows here, while we can still end quietly
    except CerebellumError as exc:
        print(f"cerebellum-gym {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"cerebellum-gym {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`cerebellum-gym tasks | head`): stop quietly, as a shell tool does.
        # Point stdout at /dev/null so the interpreter's final flush does not complain again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 141  # 128 + SIGPIPE, what a shell reports for a tool killed by the closed pipe
    return code


if __name__ == "__main__":
    sys.exit(main())
