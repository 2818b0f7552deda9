"""Helpers the task modules share: fuzzy matching, answer parsing, file and screen checks, all
over the Device interface (AndroidWorld's word lists and name generators are in ``awdata``)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from cerebellum_gym.devices.base import Device, Row

T = TypeVar("T")


def fuzzy_match(got: str, want: str, threshold: float = 0.9) -> bool:
    """AndroidWorld's fuzzy match: case- and edge-space-insensitive similarity ratio at least ``threshold``."""
    a, b = got.strip().lower(), want.strip().lower()
    return a == b or difflib.SequenceMatcher(None, a, b).ratio() >= threshold


def normalize_answer(text: str | None) -> str:
    """Lower case, trimmed, inner whitespace collapsed, trailing full stop dropped."""
    return re.sub(r"\s+", " ", (text or "").strip().lower()).rstrip(".").strip()


def answer_items(text: str | None) -> list[str]:
    """A comma-separated answer as normalised items (empty items dropped)."""
    return [item for item in (normalize_answer(part) for part in (text or "").split(",")) if item]


def same_items(answer: str | None, want: Iterable[str]) -> bool:
    """The answer lists exactly ``want`` (any order, fuzzy per item), as AndroidWorld's list answers."""
    got = answer_items(answer)
    expected = [normalize_answer(w) for w in want]
    if len(got) != len(expected):
        return False
    remaining = list(got)
    for item in expected:
        hit = next((g for g in remaining if fuzzy_match(g, item)), None)
        if hit is None:
            return False
        remaining.remove(hit)
    return True


def screen_shows(device: Device, text: str) -> bool:
    """Some node on screen has ``text`` as its text or content description."""
    return any(text in (n.text, n.content_desc) for n in device.ui_tree().iter())


def file_text(device: Device, path: str) -> str | None:
    """The UTF-8 text of ``path``, or ``None`` when there is no such file."""
    try:
        return device.read_file(path).decode("utf-8", "replace")
    except FileNotFoundError:
        return None


def find_under(device: Device, root: str, name: str) -> bool:
    """Whether a file or folder called ``name`` is anywhere below ``root`` (AndroidWorld's recursive
    ``check_file_or_folder_exists``)."""
    for entry in device.list_dir(root):
        path = f"{root}/{entry}"
        if entry == name or (file_text(device, path) is None and find_under(device, path, name)):
            return True
    return False


def is_file(device: Device, path: str) -> bool:
    return file_text(device, path) is not None


def fraction(parts: Iterable[bool]) -> float:
    """Partial credit: the share of parts that hold."""
    items = list(parts)
    return sum(items) / len(items) if items else 0.0


def added_share(before: Mapping[str, Row], after: Mapping[str, Row], wanted: list[T], match: Callable[[Row, T], bool]) -> float:
    """Credit for rows to add, by id: 0 if an earlier row changed or went, else the targets that
    each match a row of their own among the new ones over max(targets, rows added), so a missing
    or an extra row costs (AndroidWorld's ``validate_rows_addition_integrity``, graded)."""
    if any(after.get(i) != row for i, row in before.items()):
        return 0.0
    remaining = [r for i, r in after.items() if i not in before]
    added = len(remaining)
    matched = 0
    for want in wanted:
        hit = next((r for r in remaining if match(r, want)), None)
        if hit is not None:
            remaining.remove(hit)
            matched += 1
    return matched / max(len(wanted), added) if wanted or added else 1.0
