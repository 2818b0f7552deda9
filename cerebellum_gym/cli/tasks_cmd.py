"""``cerebellum-gym tasks``: list the registered tasks, the suite files, or the task reference."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "tasks", help="list the registered tasks", description="List the registered tasks with app, family, complexity and step budget."
    )
    parser.add_argument("--family", help="only this family")
    parser.add_argument("--app", help="only this app")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--suites", action="store_true", help="list the suites (shipped ones and those in $CEREBELLUM_SUITES) instead")
    parser.add_argument("--markdown", action="store_true", help="print the task reference (docs/tasks.md's table) as Markdown")
    parser.set_defaults(handler=run)


def _rows(family: str | None, app: str | None) -> list[dict[str, Any]]:
    from cerebellum_gym.tasks import get_task_class, resolve_app, resolve_family, task_names

    # Names as typed (any case); an unknown one is a one-line error with the closest name.
    family = resolve_family(family) if family is not None else None
    app = resolve_app(app) if app is not None else None
    rows = []
    for name in task_names(family=family, app=app):
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
                "judge": cls.judge,
            }
        )
    return rows


def _table(rows: list[dict[str, Any]], cols: tuple[str, ...]) -> list[str]:
    widths = {c: max(len(c), *(len(str(r[c])) for r in rows)) for c in cols}
    lines = ["  ".join(c.ljust(widths[c]) for c in cols).rstrip()]
    lines += ["  ".join(str(r[c]).ljust(widths[c]) for c in cols).rstrip() for r in rows]
    return lines


def suites(folder: Path | None = None) -> list[dict[str, Any]]:
    """Name, case count, families and description of each suite file in ``folder`` (default:
    every suite :func:`~cerebellum_gym.evaluation.suites.available_suites` finds)."""
    from cerebellum_gym.evaluation.suites import available_suites
    from cerebellum_gym.tasks import TASKS

    paths = sorted(folder.glob("*.json")) if folder is not None else [p for _, p in sorted(available_suites().items())]
    out = []
    for path in paths:
        data = json.loads(path.read_text())
        fams = sorted({TASKS[c["task"]].family for c in data.get("cases", []) if c.get("task") in TASKS})
        out.append(
            {
                "name": data.get("name", path.stem),
                "cases": len(data.get("cases", [])),
                "families": ",".join(fams),
                "description": data.get("description", ""),
            }
        )
    return out


def markdown(rows: list[dict[str, Any]]) -> str:
    """The task reference: per family, a table of tasks with goal template and judge."""

    def cell(text: str) -> str:
        return str(text).replace("|", "\\|").replace("\n", "<br>")

    parts = []
    for family in sorted({r["family"] for r in rows}):
        parts.append(f"### {family}\n")
        parts.append("| Task | App | Cx | Budget | Mirrors AndroidWorld | Goal template | Judge |")
        parts.append("|---|---|---|---|---|---|---|")
        for r in (r for r in rows if r["family"] == family):
            name = f"`{r['name']}`" + (" (question)" if r["answer"] else "")
            mirrors = "yes" if r["mirrors"] else "no (sim only)"
            parts.append(
                f"| {name} | {r['app']} | {r['complexity']:g} | {r['budget']} | {mirrors} | {cell(r['template'])} | {cell(r['judge'])} |"
            )
        parts.append("")
    return "\n".join(parts)


def run(args: argparse.Namespace) -> int:
    if args.suites:
        found = suites()
        if args.json:
            print(json.dumps(found, indent=2))
            return 0
        if not found:
            from cerebellum_gym.evaluation.suites import search_dirs

            print("no suite files in " + (", ".join(map(str, search_dirs())) or "any suite folder"))
            return 1
        print("\n".join(_table(found, ("name", "cases", "families"))))
        return 0
    rows = _rows(args.family, args.app)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows:
        print("no tasks match")
        return 1
    if args.markdown:
        print(markdown(rows))
        return 0
    print("\n".join(_table(rows, ("name", "app", "family", "complexity", "budget"))))
    print(f"{len(rows)} tasks")
    return 0
