"""Regenerate the simulator's suite files from the task registry, deterministically.

Usage::

    python benchmarks/suites/make_suites.py          # write the files into cerebellum_gym/suites/
    python benchmarks/suites/make_suites.py --check  # exit 1 if any file is out of date
    python benchmarks/suites/make_suites.py --suites 'androidworld-*'  # only the AndroidWorld ones

The files ship inside the package (``cerebellum_gym/suites/``, package data), so a wheel, an
editable install and a checkout all find them the same way.

Suites (format: docs/suites.md):

- ``sim-smoke``: one case per family, seed 0.
- ``sim-mixed100``: 100 cases spread evenly over the families (and within a family over its
  tasks), each with its own seed, like a mixed live evaluation. Both cover every family.
- ``sim-family-<family>``: every task of the family, seeds 0, 1 and 2.

AndroidWorld's (``Cerebellum-AndroidWorld-v0``; built from AndroidWorld's own registry, so
AndroidWorld must be installed; its families are :func:`cerebellum_gym.tasks.androidworld.app_family`):

- ``androidworld-mixed100``: 100 cases spread evenly over AndroidWorld's families (and within a
  family over its tasks), each with its own seed, in the shape of the reference model card's
  live eval (100 mixed cases); every case starts on the home screen, as AndroidWorld's protocol;
- ``androidworld-mixed100-preopened``: the same cases with the target app pre-opened, as the
  card's live eval ran (``env_kwargs``: ``device_options.open_target_app``);
- ``androidworld-family-<family>``: every task of the family, seeds 0, 1 and 2.

On the embedded simulator, cases of tasks it does not mirror are listed as not available there.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: Where the suite files live: package data of ``cerebellum_gym``.
SUITES_DIR = HERE.parents[1] / "cerebellum_gym" / "suites"
ENV_ID = "Cerebellum-Sim-v0"
AW_ENV_ID = "Cerebellum-AndroidWorld-v0"
MIXED_CASES = 100
MIXED_SEED_BASE = 1000
AW_MIXED_SEED_BASE = 2000
FAMILY_SEEDS = (0, 1, 2)
#: What the card's live eval ran with: the target app open when the episode starts.
PREOPENED = {"device_options": {"open_target_app": True}}


def _case(task: str, seed: int) -> dict[str, Any]:
    return {"id": f"{task}-{seed}", "task": task, "seed": seed}


def mixed(by_family: dict[str, list[str]], seed_base: int) -> list[dict[str, Any]]:
    """:data:`MIXED_CASES` cases round-robin over the families, and within a family over its
    tasks, so every family gets (almost) the same share and every task of a family is visited
    before any repeats; case ``i`` has seed ``seed_base + i``."""
    fams = sorted(by_family)
    cases = []
    turns = dict.fromkeys(fams, 0)
    for i in range(MIXED_CASES):
        family = fams[i % len(fams)]
        names = by_family[family]
        cases.append(_case(names[turns[family] % len(names)], seed_base + i))
        turns[family] += 1
    return cases


def build_androidworld() -> dict[str, dict[str, Any]]:
    """AndroidWorld's suites by name (AndroidWorld must be importable)."""
    from cerebellum_gym.tasks.androidworld import task_classes

    by_family: dict[str, list[str]] = {}
    for name, cls in sorted(task_classes().items()):
        by_family.setdefault(cls.family, []).append(name)
    cases = mixed(by_family, AW_MIXED_SEED_BASE)
    shape = (
        f"{MIXED_CASES} seeded cases spread evenly over AndroidWorld's {len(by_family)} task families, "
        "the shape of the model card's live eval"
    )
    suites: dict[str, dict[str, Any]] = {
        "androidworld-mixed100": {
            "name": "androidworld-mixed100",
            "description": f"{shape}; each case starts on the home screen (AndroidWorld's protocol).",
            "env": AW_ENV_ID,
            "cases": cases,
        },
        "androidworld-mixed100-preopened": {
            "name": "androidworld-mixed100-preopened",
            "description": f"{shape}, with the target app pre-opened as the card ran it.",
            "env": AW_ENV_ID,
            "env_kwargs": PREOPENED,
            "cases": cases,
        },
    }
    for family, names in sorted(by_family.items()):
        name = f"androidworld-family-{family}"
        suites[name] = {
            "name": name,
            "description": f"Every AndroidWorld {family} task, seeds {', '.join(map(str, FAMILY_SEEDS))}.",
            "env": AW_ENV_ID,
            "cases": [_case(task, seed) for task in names for seed in FAMILY_SEEDS],
        }
    return suites


def build() -> dict[str, dict[str, Any]]:
    """Every suite by name (AndroidWorld's too when it is installed)."""
    from cerebellum_gym.errors import CerebellumError
    from cerebellum_gym.tasks import families, task_names

    every = families()
    by_family = {f: task_names(family=f) for f in every}
    fams = list(every)
    suites: dict[str, dict[str, Any]] = {}
    suites["sim-smoke"] = {
        "name": "sim-smoke",
        "description": "One quick case per task family (seed 0).",
        "env": ENV_ID,
        "cases": [_case(by_family[f][0], 0) for f in fams],
    }
    cases = mixed({f: by_family[f] for f in fams}, MIXED_SEED_BASE)
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
    try:
        suites.update(build_androidworld())
    except CerebellumError as exc:  # AndroidWorld is not installed: its suites stay as they are
        print(f"AndroidWorld suites skipped: {str(exc).splitlines()[0]}", file=sys.stderr)
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
    parser.add_argument("--suites", default="*", help="only the suites whose names match this glob (default: all)")
    args = parser.parse_args(argv)
    stale = []
    for name, suite in build().items():
        if not fnmatch.fnmatchcase(name, args.suites):
            continue
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
