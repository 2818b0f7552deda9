"""Apps showing huge content on ``Cerebellum-Sim-v0`` with pixels (issue 36): a Joplin note's
body, an SMS body, a file name in Files, a contact's name, a recipe's text and an expense's note,
each of 1,000,000 characters beside the same of 5,000 (about a screenful). For each, the step
that opens the app on its list, the tap that opens the item and a step after: text layout, list
building and tree building should cost a screenful, so the huge rows' steps should cost what the
screenful's cost.

    python benchmarks/perf/huge_content.py
    python benchmarks/perf/huge_content.py --size 3000000 --kinds sms,joplin
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.devices.base import Device
from cerebellum_gym.tasks import contacts, expense, joplin, recipe, sms

MARK = "HUGE"
#: Characters of the control: a page of text, about what one screen shows.
SCREENFUL = 5_000


def _joplin(device: Device, text: str) -> str:
    rng = np.random.default_rng(0)
    folder = joplin.folder_row(rng, "Work")
    device.content_insert(joplin.FOLDERS_URI, folder)
    device.content_insert(joplin.NOTES_URI, joplin.note_row(rng, folder["_id"], f"{MARK} note", text, todo=False, completed=False))
    return joplin.JOPLIN_PACKAGE


def _sms(device: Device, text: str) -> str:
    sms.add_sms(device, "+15550100", text, "1", 0)
    return sms.SMS_PACKAGE


def _files(device: Device, text: str) -> str:
    device.write_file(f"/sdcard/Download/{text}.txt", b"x")
    return "com.google.android.documentsui"


def _contact(device: Device, text: str) -> str:
    device.content_insert(contacts.CONTACTS_URI, {"display_name": text, "number": "+15550100"})
    return contacts.CONTACTS_PACKAGE


def _recipe(device: Device, text: str) -> str:
    recipe.insert(device, {"title": f"{MARK} soup", "description": text, "ingredients": text, "directions": text})
    return "com.flauschcode.broccoli"


def _expense(device: Device, text: str) -> str:
    row = expense.random_expense(np.random.default_rng(0), set()) | {"name": f"{MARK} lunch", "note": text}
    expense.insert(device, row)
    return expense.EXPENSE_PACKAGE


KINDS: dict[str, Callable[[Device, str], str]] = {
    "joplin": _joplin,
    "sms": _sms,
    "files": _files,
    "contact": _contact,
    "recipe": _recipe,
    "expense": _expense,
}


def _timed(env: gym.Env, action: str) -> float:
    start = time.perf_counter()
    env.step(action)
    return (time.perf_counter() - start) * 1e3


def measure(env: gym.Env, kind: str, size: int) -> tuple[float, float | None, float]:
    """Milliseconds of the list step, the opening tap (``None`` when no row shows the item) and
    a step after it."""
    u: Any = env.unwrapped
    env.reset(seed=0)
    text = (f"{MARK} " + "lorem ipsum " * (size // 12 + 1))[:size]
    u.device.start_app(KINDS[kind](u.device, text))
    listed = _timed(env, "W")
    label = next((lab for lab in u.screen.labels if any(MARK in n.text + n.content_desc for n in u.screen.node_for(lab).iter())), None)
    opened = _timed(env, f"T {label}") if label is not None else None
    return listed, opened, _timed(env, "W")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1_000_000, help="characters of the huge text")
    parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated, of: " + ", ".join(KINDS))
    args = parser.parse_args()
    env = gym.make("Cerebellum-Sim-v0", task="MarkorEditNote", pixels=True)
    print(f"{'kind':<8} {'chars':>10} {'list ms':>8} {'open ms':>8} {'next ms':>8}")
    for kind in args.kinds.split(","):
        for size in (SCREENFUL, args.size):
            listed, opened, after = measure(env, kind, size)
            shown = f"{opened:8.0f}" if opened is not None else f"{'-':>8}"
            print(f"{kind:<8} {size:>10,} {listed:8.0f} {shown} {after:8.0f}", flush=True)
    env.close()


if __name__ == "__main__":
    main()
