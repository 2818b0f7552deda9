"""The ``cerebellum-gym`` command line. Each sub-command lives in its own module here and
registers itself through ``register(subparsers)``."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from cerebellum_gym.errors import CerebellumError

#: Modules of this package that define sub-commands, in the order help lists them.
COMMAND_MODULES: tuple[str, ...] = ("eval_cmd", "tasks_cmd", "serve_adb_cmd", "emulators_cmd", "datasets_cmd")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cerebellum-gym", description="Gymnasium environments for Android UI agents.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(f"cerebellum_gym.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
    except CerebellumError as exc:
        print(f"cerebellum-gym {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"cerebellum-gym {args.command}: interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
