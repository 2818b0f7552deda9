"""The ``cerebellum-gym`` command line (also ``python -m cerebellum_gym``). Each sub-command
lives in its own module here and registers itself through ``register(subparsers)``."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

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


def build_parser() -> argparse.ArgumentParser:
    from cerebellum_gym import __version__

    parser = argparse.ArgumentParser(prog="cerebellum-gym", description="Gymnasium environments for Android UI agents.")
    parser.add_argument("--version", action="version", version=f"cerebellum-gym {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(f"cerebellum_gym.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
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
