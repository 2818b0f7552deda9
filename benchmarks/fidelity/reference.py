"""Reference screens of the real apps: loading and checking the format of ``screens/*.json``.

The format is documented in ``docs/fidelity.md``. Everything here is plain data: a screen is a
dict as written in its file, checked once on load so that the scorer can trust its fields.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

SCREENS_DIR: Final = Path(__file__).resolve().parent / "screens"

SELECTOR_KEYS: Final = frozenset({"resource-id", "text", "content-desc", "class", "text_contains", "nth"})
FLAGS: Final = ("clickable", "long-clickable", "scrollable", "checkable", "checked")
ELEMENT_KEYS: Final = frozenset({"class", "resource-id", "text", "content-desc", "bounds", *FLAGS, "note"})
STEP_KINDS: Final = frozenset({"launch", "home", "tap", "long_press", "type", "key", "swipe", "wait"})
KEYS: Final = ("back", "home", "enter")
SWIPES: Final = ("up", "down", "left", "right")
SCREEN_KEYS: Final = frozenset({"id", "name", "sources", "reach", "identify", "elements", "transitions", "frame", "note"})


class ReferenceFormatError(ValueError):
    """A reference file does not follow the format of ``docs/fidelity.md``."""


def _fail(where: str, message: str) -> ReferenceFormatError:
    return ReferenceFormatError(f"{where}: {message}")


def check_selector(selector: Any, where: str) -> None:
    if not isinstance(selector, Mapping) or not selector:
        raise _fail(where, f"a selector is a non-empty object, got {selector!r}")
    unknown = set(selector) - SELECTOR_KEYS
    if unknown:
        raise _fail(where, f"unknown selector key(s) {sorted(unknown)}; valid: {sorted(SELECTOR_KEYS)}")
    if set(selector) == {"nth"}:
        raise _fail(where, "a selector needs a key besides nth")
    for key, value in selector.items():
        if key == "nth":
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise _fail(where, f"nth is a non-negative integer, got {value!r}")
        elif not isinstance(value, str):
            raise _fail(where, f"selector {key} is a string, got {value!r}")


def _check_step(step: Any, where: str) -> None:
    if not isinstance(step, Mapping) or len(step) != 1:
        raise _fail(where, f"a step is an object with one key of {sorted(STEP_KINDS)}, got {step!r}")
    ((kind, value),) = step.items()
    if kind not in STEP_KINDS:
        raise _fail(where, f"unknown step {kind!r}; valid: {sorted(STEP_KINDS)}")
    if kind in ("tap", "long_press"):
        check_selector(value, where)
    elif kind in ("launch", "type") and not isinstance(value, str):
        raise _fail(where, f"{kind} takes a string, got {value!r}")
    elif kind == "home" and value is not True:
        raise _fail(where, "home takes true")
    elif kind == "key" and value not in KEYS:
        raise _fail(where, f"key is one of {list(KEYS)}, got {value!r}")
    elif kind == "swipe" and value not in SWIPES:
        raise _fail(where, f"swipe is one of {list(SWIPES)}, got {value!r}")
    elif kind == "wait" and (not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 600):
        raise _fail(where, f"wait takes seconds in [0, 600], got {value!r}")


def _check_element(element: Any, where: str) -> None:
    if not isinstance(element, Mapping):
        raise _fail(where, f"an element is an object, got {element!r}")
    unknown = set(element) - ELEMENT_KEYS
    if unknown:
        raise _fail(where, f"unknown element key(s) {sorted(unknown)}; valid: {sorted(ELEMENT_KEYS)}")
    if not isinstance(element.get("class"), str) or not element["class"]:
        raise _fail(where, "an element needs its class")
    for key in ("resource-id", "text", "content-desc"):
        if key in element and element[key] is not None and not isinstance(element[key], str):
            raise _fail(where, f"{key} is a string or null, got {element[key]!r}")
    for flag in FLAGS:
        if flag in element and not isinstance(element[flag], bool):
            raise _fail(where, f"{flag} is true or false, got {element[flag]!r}")
    if "bounds" in element:
        b = element["bounds"]
        ok = isinstance(b, list) and len(b) == 4 and all(isinstance(v, int) and not isinstance(v, bool) for v in b)
        if not ok or not (0 <= b[0] < b[2] <= 1080 and 0 <= b[1] < b[3] <= 2400):
            raise _fail(where, f"bounds are [left, top, right, bottom] inside 1080x2400, got {b!r}")


def _check_frame(frame: Any, where: str) -> None:
    """A frame is a stored luminance ``grid``, or a moment of a recorded run (``video``, ``at``
    seconds, an optional grid ``size``) that the scorer derives when it runs."""
    if not isinstance(frame, Mapping) or not isinstance(frame.get("source"), str):
        raise _fail(where, "a frame is an object with its source, and a grid or a video")
    unknown = set(frame) - {"source", "grid", "video", "at", "size", "note"}
    if unknown:
        raise _fail(where, f"unknown frame key(s) {sorted(unknown)}")
    if "video" in frame:
        if not isinstance(frame["video"], str) or not frame["video"].endswith(".mp4") or "/" in frame["video"]:
            raise _fail(where, "a frame's video is the file name of a recorded run (.mp4)")
        at = frame.get("at")
        if not isinstance(at, (int, float)) or isinstance(at, bool) or at < 0:
            raise _fail(where, "a frame's at is the moment in the video, in seconds")
        size = frame.get("size", [24, 12])
        if not (isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) and v >= 3 for v in size)):
            raise _fail(where, "a frame's size is [rows, columns], each at least 3")
        return
    grid = frame.get("grid")
    if not isinstance(grid, list) or len(grid) < 4 or not all(isinstance(r, list) for r in grid):
        raise _fail(where, "a frame's grid is a list of at least 4 rows")
    width = len(grid[0])
    if width < 3 or any(len(r) != width for r in grid):
        raise _fail(where, "a frame's grid rows have one length, at least 3")
    if not all(isinstance(v, int) and 0 <= v <= 255 for r in grid for v in r):
        raise _fail(where, "a frame's grid holds luminance 0-255")


def check_screen(screen: Any, where: str) -> None:
    """Raise :class:`ReferenceFormatError` naming the first field of ``screen`` out of the format."""
    if not isinstance(screen, Mapping):
        raise _fail(where, "a screen is an object")
    unknown = set(screen) - SCREEN_KEYS
    if unknown:
        raise _fail(where, f"unknown screen key(s) {sorted(unknown)}; valid: {sorted(SCREEN_KEYS)}")
    for key in ("id", "name"):
        if not isinstance(screen.get(key), str) or not screen[key]:
            raise _fail(where, f"a screen needs its {key}")
    where = f"{where} ({screen['id']})"
    sources = screen.get("sources")
    if not isinstance(sources, list) or not sources or not all(isinstance(s, str) and s.strip() for s in sources):
        raise _fail(where, "a screen names at least one source anyone can check")
    reach = screen.get("reach")
    if not isinstance(reach, Mapping) or not isinstance(reach.get("task"), str):
        raise _fail(where, "reach names an AndroidWorld task")
    seed = reach.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise _fail(where, f"reach seed is a non-negative integer, got {seed!r}")
    if not isinstance(reach.get("steps", []), list):
        raise _fail(where, "reach steps are a list")
    for i, step in enumerate(reach.get("steps", [])):
        _check_step(step, f"{where} step {i}")
    identify = screen.get("identify", [])
    if not isinstance(identify, list):
        raise _fail(where, "identify is a list of selectors")
    for selector in identify:
        check_selector(selector, f"{where} identify")
    elements = screen.get("elements")
    if not isinstance(elements, list) or not elements:
        raise _fail(where, "a screen lists its elements")
    for i, element in enumerate(elements):
        _check_element(element, f"{where} element {i}")
    transitions = screen.get("transitions", [])
    if not isinstance(transitions, list):
        raise _fail(where, "transitions are a list")
    for t in transitions:
        if not isinstance(t, Mapping) or set(t) - {"via", "to", "note"} or not isinstance(t.get("to"), str):
            raise _fail(where, f"a transition is {{via, to}}, got {t!r}")
        check_selector(t.get("via"), f"{where} transition")
    if "frame" in screen:
        _check_frame(screen["frame"], f"{where} frame")


def load_app(path: Path) -> dict[str, Any]:
    """One app's reference file, checked."""
    where = path.name
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise _fail(where, f"not JSON: {exc}") from None
    if not isinstance(data, Mapping):
        raise _fail(where, "the file holds one object")
    for key in ("app", "package", "version"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise _fail(where, f"the file names its {key}")
    screens = data.get("screens")
    if not isinstance(screens, list) or not screens:
        raise _fail(where, "the file lists screens")
    for screen in screens:
        check_screen(screen, where)
        if not screen["id"].startswith(f"{path.stem}/"):
            raise _fail(where, f"screen id {screen['id']!r} starts with the file's key {path.stem + '/'!r}")
    return dict(data)


def load_all(paths: Iterable[Path] | None = None) -> dict[str, dict[str, Any]]:
    """Every app's reference (by app key, the file's stem), with ids unique and transitions resolved."""
    apps = {p.stem: load_app(p) for p in sorted(paths if paths is not None else SCREENS_DIR.glob("*.json"))}
    ids: dict[str, str] = {}
    for key, data in apps.items():
        for screen in data["screens"]:
            if screen["id"] in ids:
                raise ReferenceFormatError(f"{key}.json: screen id {screen['id']!r} repeats one in {ids[screen['id']]}.json")
            ids[screen["id"]] = key
    for key, data in apps.items():
        for screen in data["screens"]:
            for t in screen.get("transitions", []):
                if t["to"] not in ids:
                    raise ReferenceFormatError(f"{key}.json ({screen['id']}): transition to unknown screen {t['to']!r}")
    return apps
