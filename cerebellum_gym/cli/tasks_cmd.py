"""``cerebellum-gym tasks``: list the registered tasks."""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "tasks", help="list the registered tasks", description="List the registered tasks with app, family, complexity and step budget."
    )
    parser.add_argument("--family", help="only this family")
    parser.add_argument("--app", help="only this app")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from cerebellum_gym.tasks import get_task_class, task_names

    rows = []
    for name in task_names(family=args.family, app=args.app):
        cls = get_task_class(name)
        rows.append(
            {
                "name": name,
                "app": cls.app,
                "family": cls.family,
                "complexity": cls.complexity,
                "budget": cls.max_steps(),
                "answer": cls.answer,
                "mirrors": cls.mirrors or "",
                "template": cls.template,
            }
        )
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows:
        print("no tasks match")
        return 1
    cols = ("name", "app", "family", "complexity", "budget")
    widths = {c: max(len(c), *(len(str(r[c])) for r in rows)) for c in cols}
    print("  ".join(c.ljust(widths[c]) for c in cols))
    for r in rows:
        print("  ".join(str(r[c]).ljust(widths[c]) for c in cols))
    print(f"{len(rows)} tasks")
    return 0
