"""How close one simulated screen is to its reference: the measures of the fidelity benchmark.

Each measure is in ``[0, 1]`` or ``None`` when the reference gives nothing to measure it by (no
resource-id, no bounds, ...). A screen's overall score is the mean of its measures that apply.
``docs/fidelity.md`` explains each one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
from reference import FLAGS

from cerebellum_gym.core.tree import UINode

MEASURES: Final = ("ids", "texts", "lines", "flags", "bounds", "navigation", "frame")

_FLAG_ATTRS: Final = {
    "clickable": "clickable",
    "long-clickable": "long_clickable",
    "scrollable": "scrollable",
    "checkable": "checkable",
    "checked": "checked",
}


def label(node: UINode) -> str:
    """What the compact tree shows of a node: its text, else its content-desc."""
    return node.text or node.content_desc


def _ref_label(element: Mapping[str, Any]) -> str | None:
    """The reference element's label, ``None`` when it depends on data (not scored)."""
    text, desc = element.get("text", ""), element.get("content-desc", "")
    if text:
        return str(text)
    if text is None:
        return None
    if desc:
        return str(desc)
    return None if desc is None else ""


def short(class_name: str) -> str:
    return class_name.rsplit(".", 1)[-1]


def matches(node: UINode, selector: Mapping[str, Any]) -> bool:
    """Whether ``node`` satisfies every key of ``selector`` (``nth`` is the caller's)."""
    for key, want in selector.items():
        if key == "nth":
            continue
        if key == "resource-id" and node.resource_id != want:
            return False
        if key == "text" and node.text != want:
            return False
        if key == "content-desc" and node.content_desc != want:
            return False
        if key == "class" and node.class_name != want:
            return False
        if key == "text_contains" and want not in node.text:
            return False
    return True


def select(nodes: Sequence[UINode], selector: Mapping[str, Any]) -> UINode | None:
    """The ``nth`` node (document order) that ``selector`` matches, or ``None``."""
    hits = [n for n in nodes if matches(n, selector)]
    nth = int(selector.get("nth", 0))
    return hits[nth] if nth < len(hits) else None


def _line_nodes(nodes: Sequence[UINode]) -> list[UINode]:
    """The nodes that make a (class, label) line: a label, or an action with none (an icon
    button, a list row whose texts are its children's)."""
    return [n for n in nodes if label(n) or n.clickable or n.long_clickable or n.checkable]


def _ref_lines(elements: Sequence[Mapping[str, Any]]) -> tuple[Counter[tuple[str, str]], Counter[str]]:
    """The reference's (class, label) lines, and per class how many data-dependent lines it has."""
    lines: Counter[tuple[str, str]] = Counter()
    unknown: Counter[str] = Counter()
    for element in elements:
        name = _ref_label(element)
        cls = short(element["class"])
        if name is None:
            unknown[cls] += 1
        elif name or element.get("clickable") or element.get("long-clickable") or element.get("checkable"):
            lines[(cls, name)] += 1
    return lines, unknown


def lines_f1(elements: Sequence[Mapping[str, Any]], nodes: Sequence[UINode]) -> float | None:
    """F1 of the (class, label) lines: what an agent reads. A data-dependent reference line (its
    label ``null``) is matched by any simulated line of the same class."""
    want, unknown = _ref_lines(elements)
    if not want and not unknown:
        return None
    got: Counter[tuple[str, str]] = Counter((n.short_class, label(n)) for n in _line_nodes(nodes))
    hit = sum((want & got).values())
    extra = got - want
    for cls, allowance in unknown.items():  # data lines the reference could not name
        left = allowance
        for key in [k for k in extra if k[0] == cls]:
            take = min(left, extra[key])
            extra[key] -= take
            left -= take
            hit += take
    predicted = hit + sum(v for v in extra.values() if v > 0)
    precision = hit / predicted if predicted else 0.0
    recall = hit / (sum(want.values()) + sum(unknown.values()))
    return 0.0 if hit == 0 else 2 * precision * recall / (precision + recall)


def recall(wanted: Iterable[str], present: Iterable[str]) -> float | None:
    want = {w for w in wanted if w}
    if not want:
        return None
    have = set(present)
    return len(want & have) / len(want)


def _pair_tests(element: Mapping[str, Any]) -> list[Callable[[UINode], bool]]:
    """The tests a simulated node may pass to stand for ``element``, best first."""
    name = _ref_label(element)
    rid = element.get("resource-id") or ""
    cls = short(element["class"])
    tests: list[Callable[[UINode], bool]] = []
    if rid and name:
        tests.append(lambda n: n.resource_id == rid and label(n) == name)
    if name:
        tests.append(lambda n: label(n) == name and n.short_class == cls)
    if rid:
        tests.append(lambda n: n.resource_id == rid)
    if name:
        tests.append(lambda n: label(n) == name)
    if name == "" and not rid:  # an unlabelled control: the next of its class with no label
        tests.append(lambda n: n.short_class == cls and not label(n) and not n.resource_id)
    return tests


def pair(elements: Sequence[Mapping[str, Any]], nodes: Sequence[UINode]) -> list[tuple[Mapping[str, Any], UINode]]:
    """Each reference element with the simulated node that stands for it, in document order: the
    same resource-id and label, else the same label and class, else the same resource-id, else
    the same label; an unlabelled one without an id, the next unlabelled node of its class.
    Data-dependent elements without an id pair with nothing."""
    used: set[int] = set()
    pairs = []
    for element in elements:
        for test in _pair_tests(element):
            hit = next((n for n in nodes if id(n) not in used and test(n)), None)
            if hit is not None:
                used.add(id(hit))
                pairs.append((element, hit))
                break
    return pairs


def flag_agreement(pairs: Sequence[tuple[Mapping[str, Any], UINode]]) -> float | None:
    total = agree = 0
    for element, node in pairs:
        for flag in FLAGS:
            if flag in element:
                total += 1
                agree += bool(getattr(node, _FLAG_ATTRS[flag])) == element[flag]
    return agree / total if total else None


def iou(a: Sequence[int], b: Sequence[int]) -> float:
    w = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def bounds_overlap(elements: Sequence[Mapping[str, Any]], pairs: Sequence[tuple[Mapping[str, Any], UINode]]) -> float | None:
    """Mean IoU over the reference elements with bounds; one the simulator lacks counts 0."""
    placed = {id(e): n for e, n in pairs}
    scores = [iou(e["bounds"], placed[id(e)].bounds) if id(e) in placed else 0.0 for e in elements if "bounds" in e]
    return sum(scores) / len(scores) if scores else None


def luminance_grid(rgb: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Mean luminance of ``rgb`` (H, W, 3) over a ``rows`` x ``cols`` grid of equal cells."""
    lum = rgb[..., :3].astype(np.float64) @ np.array([0.299, 0.587, 0.114])
    h, w = lum.shape
    ys = np.linspace(0, h, rows + 1).astype(int)
    xs = np.linspace(0, w, cols + 1).astype(int)
    return np.array([[lum[ys[r] : ys[r + 1], xs[c] : xs[c + 1]].mean() for c in range(cols)] for r in range(rows)])


def structural_similarity(a: np.ndarray, b: np.ndarray) -> float:
    """SSIM of two equal grids taken as one window (luminance, contrast and structure), in [0, 1]."""
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    ma, mb = a.mean(), b.mean()
    va, vb = a.var(), b.var()
    cov = ((a - ma) * (b - mb)).mean()
    ssim = ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma**2 + mb**2 + c1) * (va + vb + c2))
    return float(max(0.0, min(1.0, ssim)))


@dataclass
class ScreenScore:
    """One screen's measures (``None`` where the reference gives nothing to measure)."""

    screen: str
    reached: bool
    measures: dict[str, float | None] = field(default_factory=dict)
    why: str = ""
    #: What a measure could not be taken from here (a real frame whose video is not local).
    notes: list[str] = field(default_factory=list)

    @property
    def overall(self) -> float:
        if not self.reached:
            return 0.0
        values = [v for v in self.measures.values() if v is not None]
        return sum(values) / len(values) if values else 0.0


def score_dump(screen: Mapping[str, Any], root: UINode) -> dict[str, float | None]:
    """The measures that need only the dumped tree (navigation and frame are the scorer's)."""
    nodes = list(root.iter())
    elements = screen["elements"]
    pairs = pair(elements, nodes)
    return {
        "ids": recall((e.get("resource-id") or "" for e in elements), (n.resource_id for n in nodes)),
        "texts": recall((e.get("text") or "" for e in elements), (n.text for n in nodes)),
        "lines": lines_f1(elements, nodes),
        "flags": flag_agreement(pairs),
        "bounds": bounds_overlap(elements, pairs),
    }
