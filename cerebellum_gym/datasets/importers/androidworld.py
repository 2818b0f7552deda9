"""AndroidWorld-format episodes: ``.pkl.gz`` checkpoints read by a restricted unpickler.

A pickle can run any code it names, so these files are never unpickled as they are: the loader
resolves only AndroidWorld's data classes (``UIElement``, ``BoundingBox``, ``JSONAction``, each
replaced by an inert stand-in holding its fields), numpy arrays and plain containers; anything
else (a function, ``os.system``, any other class) refuses the whole file with its name.

Layout read: a list of episodes (or ``{"episodes": [...]}``), each a dict with ``goal`` and
``episode_data``, a dict of per-step lists: the screenshot (``raw_screenshot``,
``before_screenshot`` or ``screenshot``: an RGB array), the elements (``ui_elements`` or
``before_element_list``: ``UIElement`` lists) and the action (``action_output_json``,
``json_action`` or ``action``: a ``JSONAction``, its dict, or its JSON text). Actions: ``click``
/ ``long_press`` at an element ``index`` (its centre) or at ``x, y``, ``scroll`` by its
``direction`` (as AndroidControl: ``down`` -> ``D``), ``input_text`` -> ``K``,
``navigate_back`` / ``navigate_home`` -> ``B`` / ``H``, ``wait`` -> ``W``, ``status``
``complete`` / ``infeasible`` -> ``F`` / ``I``, ``answer`` -> ``F <text>`` (the episode ends
there: the status that follows it in AndroidWorld's runs says nothing more); others are dropped
under their name.
"""

from __future__ import annotations

import gzip
import io
import json
import pickle
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.datasets.importers.common import SourceAction, SourceEpisode, SourceStep
from cerebellum_gym.errors import CerebellumError


class UnsafePickleError(CerebellumError):
    """A pickle names something the restricted loader does not load."""


class _Record:
    """An inert stand-in for one of AndroidWorld's data classes: it only holds fields."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.__dict__.update(kwargs)

    def __setstate__(self, state: Any) -> None:
        if isinstance(state, tuple) and len(state) == 2:  # (dict, slots) of a slotted dataclass
            state = {**(state[0] or {}), **(state[1] or {})}
        if isinstance(state, dict):
            self.__dict__.update(state)


class UIElement(_Record):
    pass


class BoundingBox(_Record):
    pass


class JSONAction(_Record):
    pass


_STANDINS = {
    ("android_world.env.representation_utils", "UIElement"): UIElement,
    ("android_world.env.representation_utils", "BoundingBox"): BoundingBox,
    ("android_world.env.json_action", "JSONAction"): JSONAction,
}
_NUMPY = {
    ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "scalar"),
    ("numpy._core.multiarray", "scalar"),
    ("numpy", "ndarray"),
    ("numpy", "dtype"),
}
_PLAIN = {
    ("builtins", n) for n in ("list", "dict", "tuple", "set", "frozenset", "bytes", "bytearray", "str", "int", "float", "bool", "object")
}
_PLAIN |= {("collections", "OrderedDict"), ("copyreg", "_reconstructor")}


class RestrictedUnpickler(pickle.Unpickler):
    """Loads only AndroidWorld's data classes (as stand-ins), numpy arrays and containers."""

    def find_class(self, module: str, name: str) -> Any:
        standin = _STANDINS.get((module, name))
        if standin is not None:
            return standin
        if (module, name) in _NUMPY or (module, name) in _PLAIN:
            return super().find_class(module, name)
        if module.startswith("numpy") and name.endswith("DType"):  # numpy 2's dtype classes
            return super().find_class(module, name)
        raise UnsafePickleError(
            f"refusing to load {module}.{name} from an episode file (only AndroidWorld's data classes, numpy arrays and containers)"
        )


def load_episodes(path: Path) -> list[Any]:
    """The episodes of a ``.pkl.gz`` (or plain ``.pkl``) file, loaded by :class:`RestrictedUnpickler`."""
    raw = path.read_bytes()
    data = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
    loaded = RestrictedUnpickler(io.BytesIO(data)).load()
    if isinstance(loaded, dict):
        loaded = loaded.get("episodes", [loaded])
    return list(loaded) if isinstance(loaded, list | tuple) else [loaded]


def _get(obj: Any, key: str, default: Any = None) -> Any:
    return obj.get(key, default) if isinstance(obj, dict) else getattr(obj, key, default)


def _bounds(element: Any) -> tuple[int, int, int, int]:
    box = _get(element, "bbox_pixels") or _get(element, "bbox")
    if box is None:
        return (0, 0, 0, 0)
    return (int(_get(box, "x_min", 0)), int(_get(box, "y_min", 0)), int(_get(box, "x_max", 0)), int(_get(box, "y_max", 0)))


def elements_tree(elements: list[Any], size: tuple[int, int]) -> UINode:
    """AndroidWorld's flat element list as a tree: a root holding each element in list order."""
    root = UINode("android.widget.FrameLayout", (0, 0, size[0], size[1]))
    for i, element in enumerate(elements):
        if _get(element, "is_visible") is False:
            continue
        editable = bool(_get(element, "is_editable"))
        root.children.append(
            UINode(
                "android.widget.EditText" if editable else str(_get(element, "class_name") or "android.view.View"),
                _bounds(element),
                text=str(_get(element, "text") or ""),
                content_desc=str(_get(element, "content_description") or ""),
                resource_id=str(_get(element, "resource_name") or ""),
                package=str(_get(element, "package_name") or ""),
                clickable=bool(_get(element, "is_clickable")),
                long_clickable=bool(_get(element, "is_long_clickable")),
                checkable=bool(_get(element, "is_checkable")),
                checked=bool(_get(element, "is_checked")),
                enabled=_get(element, "is_enabled") is not False,
                focused=bool(_get(element, "is_focused")),
                scrollable=bool(_get(element, "is_scrollable")),
                index=i,
            )
        )
    return root


_SCROLLS = {"up": "U", "down": "D", "left": "L", "right": "R"}
_SIMPLE = {"navigate_back": "back", "navigate_home": "home", "wait": "wait"}


def map_json_action(action: Any, elements: list[Any]) -> SourceAction:
    if isinstance(action, str):
        action = json.loads(action[action.find("{") :] if "{" in action else action)
    raw = {k: v for k, v in (action.items() if isinstance(action, dict) else vars(action).items()) if v is not None}
    kind = str(raw.get("action_type", ""))
    if kind in ("click", "long_press"):
        point: tuple[float, float] | None = None
        index = raw.get("index")
        if isinstance(index, int) and 0 <= index < len(elements):
            left, top, right, bottom = _bounds(elements[index])
            point = ((left + right) / 2, (top + bottom) / 2)
        elif isinstance(raw.get("x"), int | float) and isinstance(raw.get("y"), int | float):
            point = (float(raw["x"]), float(raw["y"]))
        return SourceAction("tap" if kind == "click" else "long_press", point=point, raw=raw)
    if kind == "scroll":
        return SourceAction("scroll", direction=_SCROLLS.get(str(raw.get("direction", "")).lower()), raw=raw)
    if kind == "input_text":
        return SourceAction("type", text=str(raw.get("text", "")), raw=raw)
    if kind == "answer":  # the agent's answer to a question: this project's ``F <answer>`` ends there
        return SourceAction("done", text=str(raw.get("text", "")), raw=raw)
    if kind == "status":
        return SourceAction("done" if raw.get("goal_status") == "complete" else "impossible", raw=raw)
    return SourceAction(_SIMPLE.get(kind, kind or "unknown_action"), raw=raw)


def _first(data: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        if data.get(key) is not None:
            return data[key]
    return None


def episode_from_record(record: Any, number: int) -> SourceEpisode:
    data = _get(record, "episode_data") or {}
    shots = _first(data, ("raw_screenshot", "before_screenshot", "screenshot")) or []
    lists = _first(data, ("ui_elements", "before_element_list")) or []
    actions = _first(data, ("action_output_json", "json_action", "action")) or []
    steps = []
    ends = False
    for i, action in enumerate(actions):
        if action is None:
            continue
        pixels = np.asarray(shots[i], np.uint8)[..., :3] if i < len(shots) and shots[i] is not None else None
        elements = list(lists[i]) if i < len(lists) and lists[i] is not None else []
        size = (pixels.shape[1], pixels.shape[0]) if pixels is not None else (1080, 2400)
        mapped = map_json_action(action, elements)
        steps.append(SourceStep(elements_tree(elements, size), pixels, mapped))
        if mapped.kind in ("done", "impossible"):
            ends = True
            break
    ident = str(_get(record, "episode_id") or _get(record, "task_template") or f"episode-{number}")
    return SourceEpisode(f"{ident}-{number}", str(_get(record, "goal") or ""), steps, ends_itself=ends)


def episodes(path: Path, damage: Counter[str]) -> Iterator[SourceEpisode]:
    """The episodes of one checkpoint file (a file that cannot be loaded safely is counted as
    ``unsafe_pickle`` or ``wrong_format`` and skipped whole)."""
    try:
        records = load_episodes(path)
    except UnsafePickleError:
        damage["unsafe_pickle"] += 1
        return
    except (pickle.UnpicklingError, EOFError, OSError, ValueError, TypeError, AttributeError, IndexError):
        damage["wrong_format"] += 1
        return
    for number, record in enumerate(records):
        try:
            yield episode_from_record(record, number)
        except (ValueError, TypeError, KeyError, AttributeError, IndexError):
            damage["wrong_format"] += 1


__all__ = ["RestrictedUnpickler", "UnsafePickleError", "episodes", "load_episodes", "map_json_action"]
