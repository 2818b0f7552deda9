"""Set-of-mark labels: random uppercase bigrams on the elements an agent can act on.

Labels are drawn afresh for every screen from a seeded generator, so a policy must read them
rather than memorise them, and the same seed replays the same labels bit for bit.

Example:
    >>> import numpy as np
    >>> from cerebellum_gym.core.tree import UINode
    >>> root = UINode(children=[UINode("android.widget.Button", (0, 0, 100, 50), clickable=True)])
    >>> screen = label_screen(root, np.random.default_rng(0))
    >>> screen.labels
    ('WD',)
    >>> screen.node_for("WD").short_class
    'Button'
"""

from __future__ import annotations

import string
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Final, TypeVar

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from cerebellum_gym.core.state import register_state_type
from cerebellum_gym.core.tree import Bounds, UINode, compact_template, compact_tree

T = TypeVar("T")

#: All 676 two-letter labels, in a fixed order that the generator permutes.
LABEL_POOL: Final[tuple[str, ...]] = tuple(a + b for a in string.ascii_uppercase for b in string.ascii_uppercase)
DEFAULT_MAX_LABELS: Final = 64


@register_state_type
@dataclass(frozen=True)
class LabelledScreen:
    """A screen's tree with labels assigned: what the agent may refer to right now.

    Attributes:
        root: the tree.
        labels: visible labels in document order (the structured action's label slots).
        nodes: the node behind each label, aligned with ``labels``.
        focused: the focused editable field, if any (``K`` needs one).
        scrollable: the main scrollable container, if any.
    """

    root: UINode
    labels: tuple[str, ...]
    nodes: tuple[UINode, ...]
    focused: UINode | None
    scrollable: UINode | None
    _by_label: dict[str, UINode] = field(repr=False, compare=False, default_factory=dict)
    #: Made by :func:`label_screen`: ``nodes`` are the root's first actionable nodes and every
    #: label is two letters, so what depends only on them is cached on the (shared) tree.
    _pooled: bool = field(repr=False, compare=False, default=False)

    def node_for(self, label: str) -> UINode | None:
        """The node carrying ``label``, or ``None`` when no element on screen has it."""
        return self._by_label.get(label)

    def label_of(self, node: UINode) -> str | None:
        """The label carried by ``node`` (by identity), or ``None``."""
        for label, candidate in zip(self.labels, self.nodes, strict=True):
            if candidate is node:
                return label
        return None

    def text(self, max_chars: int = 4000) -> str:
        """The compact tree text with labels, cut to ``max_chars``."""
        if not self._pooled:
            return compact_tree(self.root, {id(n): lab for lab, n in zip(self.labels, self.nodes, strict=True)}, max_chars)
        # The lines and the cut do not depend on which two-letter labels were drawn: they are
        # prepared once per screen, and each step only fills the labels in.
        nodes = self.nodes
        fmt, order = self.derived(("compact_text", max_chars), lambda root: compact_template(root, nodes, max_chars))
        labels = self.labels
        if isinstance(order, int):
            return fmt % (labels if order == len(labels) else labels[:order])
        return fmt % tuple([labels[i] for i in order])

    def derived(self, key: Hashable, compute: Callable[[UINode], T]) -> T:
        """``compute(self.root)`` for a result that depends only on the tree and which nodes are
        labelled (not on the labels drawn): cached on the tree for screens made by
        :func:`label_screen`, computed afresh for others."""
        if not self._pooled:
            return compute(self.root)
        return self.root.derived((key, len(self.nodes)), compute)


def _scan(root: UINode) -> tuple[tuple[UINode, ...], UINode | None, UINode | None]:
    actionable: list[UINode] = []
    focused: UINode | None = None
    scrollable: UINode | None = None
    for node in root.iter():
        if node.is_actionable:
            actionable.append(node)
        if node.focused and node.is_editable and focused is None:
            focused = node
        if node.scrollable and scrollable is None:
            scrollable = node
    return tuple(actionable), focused, scrollable


class _SampleSize(int):
    """A sample size for ``Generator.choice`` that states its own product.

    ``choice`` computes ``np.prod(size)``, which for a plain int is a generic array reduction
    costing more than drawing a screen's labels; numpy's reductions defer to an argument's own
    ``prod`` method, so this int answers at once. It is an int in every other respect, so the
    draws (and the generator's state after them) are exactly those for a plain int.
    """

    __slots__ = ()

    def prod(self, axis: object = None, dtype: object = None, out: object = None) -> int:
        return int(self)


_SAMPLE_SIZES: Final = tuple(_SampleSize(n) for n in range(len(LABEL_POOL) + 1))
_POOL_SIZE: Final = np.asarray(len(LABEL_POOL))


def label_screen(root: UINode, rng: np.random.Generator, max_labels: int = DEFAULT_MAX_LABELS) -> LabelledScreen:
    """Give every actionable element of ``root`` a distinct random label (first ``max_labels``)."""
    actionable, focused, scrollable = root.derived("som_scan", _scan)
    nodes = actionable[:max_labels]
    if nodes:
        n = len(nodes)
        size = _SAMPLE_SIZES[n] if n < len(_SAMPLE_SIZES) else n  # more labels than exist: choice raises, as before
        picks = rng.choice(_POOL_SIZE, size=size, replace=False).tolist()  # plain ints index faster
        labels = tuple(map(LABEL_POOL.__getitem__, picks))
    else:
        labels = ()
    # Made without the frozen dataclass's __init__ (one object.__setattr__ per field): a screen
    # is labelled on every step.
    screen = object.__new__(LabelledScreen)
    screen.__dict__.update(
        root=root,
        labels=labels,
        nodes=nodes,
        focused=focused,
        scrollable=scrollable,
        _by_label=dict(zip(labels, nodes, strict=True)),
        _pooled=True,
    )
    return screen


# --- overlay rendering -------------------------------------------------------------------------

_OVERLAY_COLOR: Final = (255, 64, 32)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size)


def scale_bounds(bounds: Bounds, scale: float) -> Bounds:
    left, top, right, bottom = bounds
    return int(left * scale), int(top * scale), int(right * scale), int(bottom * scale)


def outline(image: np.ndarray, bounds: Bounds, scale: float, thickness: int = 2, color: tuple[int, int, int] = _OVERLAY_COLOR) -> None:
    """Draw a rectangle outline in place on ``image`` (H, W, 3), bounds given in device pixels."""
    height, width = image.shape[:2]
    left, top, right, bottom = scale_bounds(bounds, scale)
    left, right = max(0, left), min(width, right)
    top, bottom = max(0, top), min(height, bottom)
    if right <= left or bottom <= top:
        return
    t = thickness
    image[top : top + t, left:right] = color
    image[max(top, bottom - t) : bottom, left:right] = color
    image[top:bottom, left : left + t] = color
    image[top:bottom, max(left, right - t) : right] = color


def draw_overlay(screenshot: np.ndarray, screen: LabelledScreen, scale: float) -> np.ndarray:
    """A copy of ``screenshot`` with every labelled element boxed and tagged with its label."""
    image = Image.fromarray(screenshot)
    draw = ImageDraw.Draw(image)
    size = max(10, round(36 * scale))
    font = _font(size)
    for label, node in zip(screen.labels, screen.nodes, strict=True):
        left, top, right, bottom = scale_bounds(node.bounds, scale)
        draw.rectangle((left, top, right - 1, bottom - 1), outline=_OVERLAY_COLOR, width=2)
        tag_w = int(draw.textlength(label, font=font)) + 6
        draw.rectangle((left, top, left + tag_w, top + size + 4), fill=_OVERLAY_COLOR)
        draw.text((left + 3, top + 1), label, fill=(255, 255, 255), font=font)
    return np.asarray(image)
