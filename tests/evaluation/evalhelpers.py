"""Helpers for the evaluation harness tests (imported by name: the tests folders are not packages)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: Tasks from the first commit, in two families: the harness tests do not depend on newer tasks.
TASKS = ("SystemWifiTurnOn", "SystemWifiTurnOff", "SystemBluetoothTurnOn", "ContactsAddContact")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def write_suite(folder: Path, name: str, seeds: int, tasks: tuple[str, ...] = TASKS) -> Path:
    """A suite file with ``seeds`` cases per task (seed-major, so families mix)."""
    cases = [{"id": f"{t}-{s}", "task": t, "seed": s} for s in range(seeds) for t in tasks]
    path = folder / f"{name}.json"
    path.write_text(json.dumps({"name": name, "description": "test suite", "env": "Cerebellum-Sim-v0", "cases": cases}))
    return path


def read_lines(path: Path) -> list[dict[str, Any]]:
    """Every line of a results file, parsed, duplicates kept (what the tests count)."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
