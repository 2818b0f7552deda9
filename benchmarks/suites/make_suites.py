"""Regenerate the simulator's suite files from the task registry, deterministically.

Usage::

    python benchmarks/suites/make_suites.py          # write the files into cerebellum_gym/suites/
    python benchmarks/suites/make_suites.py --check  # exit 1 if any file is out of date

The files ship inside the package (``cerebellum_gym/suites/``, package data), so a wheel, an
editable install and a checkout all find them the same way.

Suites (format: docs/suites.md):

- ``sim-smoke``: one case per family, seed 0.
- ``sim-mixed100``: 100 cases spread evenly over the families (and within a family over its
  tasks), each with its own seed, like a mixed live evaluation. Both cover the families of
  ``MIXED_FAMILIES`` only.
- ``sim-family-<family>``: every task of the family, seeds 0, 1 and 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: Where the suite files live: package data of ``cerebellum_gym``.
SUITES_DIR = HERE.parents[1] / "cerebellum_gym" / "suites"
ENV_ID = "Cerebellum-Sim-v0"
MIXED_CASES = 100
MIXED_SEED_BASE = 1000
FAMILY_SEEDS = (0, 1, 2)
#: The families the mixed suites (``sim-smoke``, ``sim-mixed100``) spread over: the README's
#: executed evaluation ran those files, so a family added since gets its family suite only.
MIXED_FAMILIES = ("audio", "browser", "calendar", "camera", "clock", "contacts", "expense", "files", "markor", "sms", "system")


def _case(task: str, seed: int) -> dict[str, Any]:
    return {"id": f"{task}-{seed}", "task": task, "seed": seed}


def build() -> dict[str, dict[str, Any]]:
    """Every suite by name."""
    from cerebellum_gym.tasks import families, task_names

    every = families()
    by_family = {f: task_names(family=f) for f in every}
    fams = [f for f in every if f in MIXED_FAMILIES]
    suites: dict[str, dict[str, Any]] = {}
    suites["sim-smoke"] = {
        "name": "sim-smoke",
        "description": "One quick case per task family (seed 0).",
        "env": ENV_ID,
        "cases": [_case(by_family[f][0], 0) for f in fams],
    }
    # Round-robin over families, and within a family over its tasks, so every family gets
    # (almost) the same share and every task of a family is visited before any repeats.
    cases = []
    turns = dict.fromkeys(fams, 0)
    for i in range(MIXED_CASES):
        family = fams[i % len(fams)]
        names = by_family[family]
        cases.append(_case(names[turns[family] % len(names)], MIXED_SEED_BASE + i))
        turns[family] += 1
    suites["sim-mixed100"] = {
        "name": "sim-mixed100",
        "description": f"{MIXED_CASES} seeded cases spread evenly over the {len(fams)} task families, like a mixed live evaluation.",
        "env": ENV_ID,
        "cases": cases,
    }
    for family in every:
        name = f"sim-family-{family}"
        suites[name] = {
            "name": name,
            "description": f"Every {family} task, seeds {', '.join(map(str, FAMILY_SEEDS))}.",
            "env": ENV_ID,
            "cases": [_case(task, seed) for task in by_family[family] for seed in FAMILY_SEEDS],
        }
    return suites


def render(suite: dict[str, Any]) -> str:
    """JSON with one case per line, so diffs of a suite read case by case."""
    head = {k: v for k, v in suite.items() if k != "cases"}
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    cases = ",\n".join(f"    {json.dumps(c)}" for c in suite["cases"])
    return "{\n" + "\n".join(lines) + '\n  "cases": [\n' + cases + "\n  ]\n}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the files are up to date")
    parser.add_argument("--out", type=Path, default=SUITES_DIR, help="folder to write to")
    args = parser.parse_args(argv)
    stale = []
    for name, suite in build().items():
        path = args.out / f"{name}.json"
        text = render(suite)
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(path.name)
        else:
            path.write_text(text)
    if stale:
        print("out of date: " + ", ".join(stale) + " (run benchmarks/suites/make_suites.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
