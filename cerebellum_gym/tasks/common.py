"""Helpers the task modules share: word lists, random names, fuzzy matching, answer parsing and
screen checks, all over the Device interface."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

import numpy as np

from cerebellum_gym.devices.base import Device

ADJECTIVES = (
    "quick", "bright", "calm", "eager", "fancy", "gentle", "happy", "jolly", "kind", "lively",
    "nice", "proud", "silly", "witty", "brave", "clever", "cosmic", "dusty", "frozen", "golden",
)  # fmt: skip
NOUNS = (
    "apple", "river", "mountain", "ocean", "forest", "planet", "garden", "window", "pencil", "rocket",
    "violin", "lantern", "meadow", "harbor", "castle", "comet", "island", "falcon", "tiger", "butterfly",
)  # fmt: skip
SENTENCES = (
    "Remember to buy milk and eggs.",
    "The meeting moved to Thursday afternoon.",
    "Call the plumber about the kitchen sink.",
    "Pack the blue jacket for the trip.",
    "Finish reading chapter four tonight.",
    "Water the plants on the balcony.",
    "Book a table for two at eight.",
    "Send the slides to the whole team.",
    "Pick up the parcel from the post office.",
    "Try the new pasta recipe this weekend.",
    "Renew the library books before Friday.",
    "Practice the guitar for twenty minutes.",
)
MESSAGES = (
    "Running a few minutes late, see you soon.",
    "Can you send me the address?",
    "Happy birthday! Have a great day.",
    "Don't forget the meeting at 3pm.",
    "Thanks for dinner last night!",
    "Are we still on for tomorrow?",
    "I left the keys under the mat.",
    "Let me know when you land.",
    "The package arrived this morning.",
    "Call me when you get a chance.",
)
TAGS = ("final", "copy", "backup", "edited", "draft", "v2")


def random_file_stem(rng: np.random.Generator) -> str:
    """An ``adjective_noun`` name with a date, a short code or a tag, as AndroidWorld's file names."""
    stem = f"{rng.choice(ADJECTIVES)}_{rng.choice(NOUNS)}"
    kind = int(rng.integers(3))
    if kind == 0:
        return f"{2023}_{int(rng.integers(1, 13)):02d}_{int(rng.integers(1, 29)):02d}_{stem}"
    if kind == 1:
        code = "".join(str(rng.choice(list("abcdefghjkmnpqrstuvwxyz23456789"))) for _ in range(4))
        return f"{stem}_{code}"
    return f"{stem}_{rng.choice(TAGS)}"


def random_file_name(rng: np.random.Generator, extensions: tuple[str, ...] = (".md", ".txt")) -> str:
    return random_file_stem(rng) + str(rng.choice(list(extensions)))


def random_code(rng: np.random.Generator, length: int) -> str:
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789"
    return "".join(alphabet[int(i)] for i in rng.integers(0, len(alphabet), size=length))


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


def is_file(device: Device, path: str) -> bool:
    return file_text(device, path) is not None


def fraction(parts: Iterable[bool]) -> float:
    """Partial credit: the share of parts that hold."""
    items = list(parts)
    return sum(items) / len(items) if items else 0.0
