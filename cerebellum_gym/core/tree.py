"""Accessibility trees: typed nodes, the uiautomator XML format, and the compact text form.

A device's screen is a tree of :class:`UINode` with device-pixel bounds, the shape that
``uiautomator dump`` prints. The agent reads a *compact* text of it: one line per element worth
reading, indented by depth, with set-of-mark labels on the elements it can act on.

Example:
    >>> xml = ('<hierarchy rotation="0"><node index="0" text="Wi-Fi" resource-id="" '
    ...        'class="android.widget.Switch" package="com.android.settings" content-desc="" '
    ...        'checkable="true" checked="false" clickable="true" enabled="true" focusable="true" '
    ...        'focused="false" scrollable="false" long-clickable="false" password="false" '
    ...        'selected="false" bounds="[0,200][1080,340]" /></hierarchy>')
    >>> root = parse_uiautomator_xml(xml)
    >>> node = root.children[0]
    >>> node.text, node.bounds, node.center
    ('Wi-Fi', (0, 200, 1080, 340), (540, 270))
    >>> compact_tree(root, {id(node): "UE"})
    '[UE] Switch "Wi-Fi" off'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import Final, TypeVar
from xml.etree import ElementTree
from xml.sax.saxutils import quoteattr

from cerebellum_gym.core.state import register_state_type
from cerebellum_gym.errors import DeviceProtocolError

T = TypeVar("T")

Bounds = tuple[int, int, int, int]
"""Device-pixel rectangle ``(left, top, right, bottom)``, right and bottom exclusive."""

_BOUNDS_RE: Final = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
_BOOL_ATTRS: Final = (
    "checkable",
    "checked",
    "clickable",
    "enabled",
    "focusable",
    "focused",
    "scrollable",
    "long-clickable",
    "password",
    "selected",
)
#: Classes whose text the user can edit.
EDITABLE_CLASSES: Final = frozenset({"android.widget.EditText", "android.widget.AutoCompleteTextView"})
SLIDER_CLASSES: Final = frozenset({"android.widget.SeekBar"})


@register_state_type
class UINode:
    """One element of an accessibility tree, with the attributes ``uiautomator dump`` prints."""

    __slots__ = (
        "_derived",
        "_line",
        "bounds",
        "checkable",
        "checked",
        "children",
        "class_name",
        "clickable",
        "content_desc",
        "enabled",
        "focusable",
        "focused",
        "index",
        "long_clickable",
        "package",
        "password",
        "resource_id",
        "scrollable",
        "selected",
        "text",
    )

    def __init__(
        self,
        class_name: str = "android.widget.FrameLayout",
        bounds: Bounds = (0, 0, 0, 0),
        *,
        text: str = "",
        resource_id: str = "",
        package: str = "",
        content_desc: str = "",
        checkable: bool = False,
        checked: bool = False,
        clickable: bool = False,
        enabled: bool = True,
        focusable: bool = False,
        focused: bool = False,
        scrollable: bool = False,
        long_clickable: bool = False,
        password: bool = False,
        selected: bool = False,
        index: int = 0,
        children: list[UINode] | None = None,
    ) -> None:
        self.index = index
        self.text = text
        self.resource_id = resource_id
        self.class_name = class_name
        self.package = package
        self.content_desc = content_desc
        self.checkable = checkable
        self.checked = checked
        self.clickable = clickable
        self.enabled = enabled
        self.focusable = focusable
        self.focused = focused
        self.scrollable = scrollable
        self.long_clickable = long_clickable
        self.password = password
        self.selected = selected
        self.bounds = bounds
        self.children: list[UINode] = children if children is not None else []
        self._line: str | None = None
        # Per-tree results derived from a root (compact-text plan, actionable nodes), computed
        # once: a tree is not changed after the device hands it out.
        self._derived: dict[Hashable, object] | None = None

    def __repr__(self) -> str:
        return f"UINode({self.short_class!r}, {self.bounds}, text={self.text!r})"

    def __getstate__(self) -> tuple[None, dict[str, object]]:
        # What is derived (the compact line, per-tree results) is made again on demand: a copy
        # carries the node's attributes only, so equal trees pickle alike.
        state = {name: getattr(self, name) for name in self.__slots__ if name not in ("_derived", "_line")}
        return None, state

    def __setstate__(self, state: tuple[None, dict[str, object]]) -> None:
        for name, value in state[1].items():
            object.__setattr__(self, name, value)
        self._line = None
        self._derived = None

    @property
    def short_class(self) -> str:
        """The class name without its package: ``android.widget.Button`` -> ``Button``."""
        return self.class_name.rsplit(".", 1)[-1]

    @property
    def center(self) -> tuple[int, int]:
        """Centre of the bounds, where a tap on this element lands."""
        left, top, right, bottom = self.bounds
        return (left + right) // 2, (top + bottom) // 2

    @property
    def is_editable(self) -> bool:
        return self.class_name in EDITABLE_CLASSES

    @property
    def is_slider(self) -> bool:
        return self.class_name in SLIDER_CLASSES

    @property
    def is_actionable(self) -> bool:
        """Whether an agent can act on it, and so whether it gets a set-of-mark label."""
        return self.enabled and (self.clickable or self.long_clickable or self.checkable or self.is_editable or self.is_slider)

    def iter(self) -> Iterator[UINode]:
        """This node and its descendants, in document (pre-)order."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def find(
        self,
        *,
        text: str | None = None,
        resource_id: str | None = None,
        content_desc: str | None = None,
        class_name: str | None = None,
    ) -> UINode | None:
        """The first node (document order) matching every given attribute exactly."""
        for node in self.iter():
            if text is not None and node.text != text:
                continue
            if resource_id is not None and node.resource_id != resource_id:
                continue
            if content_desc is not None and node.content_desc != content_desc:
                continue
            if class_name is not None and node.class_name != class_name:
                continue
            return node
        return None

    def derived(self, key: Hashable, compute: Callable[[UINode], T]) -> T:
        """``compute(self)``, cached on this node under ``key`` (trees are immutable in use)."""
        cache = self._derived
        if cache is None:
            cache = self._derived = {}
        try:
            return cache[key]  # type: ignore[return-value]
        except KeyError:
            value = cache[key] = compute(self)
            return value

    def line(self) -> str:
        """This node's compact line without label or indent (cached: nodes are immutable in use)."""
        if self._line is None:
            self._line = _node_line(self)
        return self._line


def _node_line(node: UINode) -> str:
    parts = [one_line(node.short_class)]
    if node.text:
        shown = "•" * len(node.text) if node.password else node.text
        parts.append(quote_text(shown))
    if node.content_desc and node.content_desc != node.text:
        parts.append(f"desc={quote_text(node.content_desc)}")
    if node.checkable:
        parts.append("on" if node.checked else "off")
    if node.focused:
        parts.append("focused")
    if node.selected:
        parts.append("selected")
    if node.scrollable:
        parts.append("scrollable")
    if not node.enabled:
        parts.append("disabled")
    return " ".join(parts)


#: Every character ``str.splitlines`` breaks a line at, written as an escape, so that one element
#: stays one line of the compact tree whatever its text (a U+2028 in a file name included).
_LINE_BREAKS: Final = {
    **{ord(c): f"\\u{ord(c):04x}" if ord(c) > 0xFF else f"\\x{ord(c):02x}" for c in "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"},
    ord("\n"): "\\n",
    ord("\r"): "\\r",
}


def one_line(text: str) -> str:
    """``text`` with every line break escaped (backslashes first, so escapes stay unambiguous)."""
    return text.replace("\\", "\\\\").translate(_LINE_BREAKS)


def quote_text(text: str, limit: int = 80) -> str:
    """Double-quote ``text`` on one line, shortened to ``limit`` characters.

    Only the first ``limit + 1`` characters are escaped: every escape is at least as long as its
    character, so the shortened line is the same as the whole text's, at a cost that does not grow
    with the text (a 30 MB note in an editor's field)."""
    text = one_line(text[: limit + 1]).replace('"', '\\"')
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f'"{text}"'


def _is_worth_a_line(node: UINode, labelled: bool) -> bool:
    return labelled or bool(node.text or node.content_desc) or node.scrollable or node.is_actionable


def _has_actionable(node: UINode) -> bool:
    return any(n.is_actionable for n in node.iter())


def _texts(node: UINode) -> list[str]:
    return [n.text or n.content_desc for n in node.iter() if n.text or n.content_desc]


def _merged_line(node: UINode) -> tuple[str, list[UINode]]:
    """The line of an actionable container without text of its own: its children's texts join
    it (a list row reads ``LinearLayout "Wi-Fi" "Connected"``), and only children that can
    themselves be acted on keep lines of their own."""
    texts: list[str] = []
    kept: list[UINode] = []
    for child in node.children:
        if _has_actionable(child):
            kept.append(child)
        else:
            texts.extend(_texts(child))
    line = node.line()
    if texts:
        line += " " + " ".join(quote_text(t) for t in texts)
    return line, kept


def _plan(root: UINode) -> list[tuple[str, UINode, str]]:
    """The compact text's lines before labels: (indent, node, body) in document order."""
    plan: list[tuple[str, UINode, str]] = []
    stack: list[tuple[UINode, int]] = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        child_depth = depth
        children = node.children
        if _is_worth_a_line(node, False):
            if node.is_actionable and not (node.text or node.content_desc) and children:
                body, children = _merged_line(node)
            else:
                body = node.line()
            plan.append((" " * depth, node, body))
            child_depth = depth + 1
        stack.extend((child, child_depth) for child in reversed(children))
    return plan


def compact_tree(root: UINode, labels: Mapping[int, str], max_chars: int = 4000) -> str:
    """The compact text of ``root`` that the agent reads.

    Args:
        root: the screen's tree.
        labels: set-of-mark label per node, keyed by ``id(node)``; labelled nodes are always
            actionable, so they always have a line.
        max_chars: the text is cut at a line boundary to stay within this many characters; a
            final ``…`` line marks the cut.

    Layout containers with nothing to read are skipped and their children move up a level, so
    depth in the text reflects meaningful nesting only. An actionable container without text
    of its own takes its children's texts onto its line.
    """
    lines: list[str] = []
    used = 0
    for indent, node, body in root.derived("compact_plan", _plan):
        label = labels.get(id(node))
        line = f"{indent}[{label}] {body}" if label else indent + body
        if used + len(line) + 1 > max_chars:
            lines.append("…")
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines)


def compact_template(
    root: UINode, labelled: Sequence[UINode], max_chars: int = 4000, label_chars: int = 2
) -> tuple[str, int | tuple[int, ...]]:
    """:func:`compact_tree` prepared once for a screen whose labels change every step.

    Labels of ``label_chars`` characters each on ``labelled`` (in that order) make the same line
    lengths whatever they are, so the lines and the cut are fixed: the text is
    ``fmt % tuple(labels[i] for i in order)`` for the returned ``(fmt, order)``, where ``order``
    is a plain count ``n`` when it is the first ``n`` labels in their own order (the usual case).

    Example:
        >>> root = UINode(children=[UINode("android.widget.Button", text="100%", clickable=True)])
        >>> fmt, order = compact_template(root, [root.children[0]])
        >>> fmt % ("UE",), order
        ('[UE] Button "100%"', 1)
    """
    slots = {id(node): i for i, node in enumerate(labelled)}  # a node listed twice keeps its last label, as in a mapping
    parts: list[str] = []
    order: list[int] = []
    used = 0
    extra = label_chars + 3  # "[", "] " around the label
    for indent, node, body in root.derived("compact_plan", _plan):
        slot = slots.get(id(node))
        length = len(indent) + len(body) + (extra if slot is not None else 0)
        if used + length + 1 > max_chars:
            parts.append("…")
            break
        if slot is None:
            parts.append((indent + body).replace("%", "%%"))
        else:
            parts.append(f"{indent}[%s] {body.replace('%', '%%')}")
            order.append(slot)
        used += length + 1
    prefix = order == list(range(len(order)))
    return "\n".join(parts), len(order) if prefix else tuple(order)


def compact_subtree(node: UINode, max_chars: int = 300) -> str:
    """A short text of the element acted on and what it contains, for history frames (cached on
    the node: nodes are immutable in use, and a screen's tree is shared by its returns)."""
    return node.derived(("compact_subtree", max_chars), lambda n: compact_tree(n, {}, max_chars=max_chars))


# --- uiautomator XML ---------------------------------------------------------------------------


def parse_bounds(value: str) -> Bounds:
    """Parse ``"[l,t][r,b]"``.

    Raises:
        DeviceProtocolError: the text is not in that format.
    """
    match = _BOUNDS_RE.fullmatch(value.strip())
    if match is None:
        raise DeviceProtocolError(f"bad bounds {value!r}; expected '[l,t][r,b]'")
    left, top, right, bottom = (int(g) for g in match.groups())
    return left, top, right, bottom


def _node_from_element(element: ElementTree.Element) -> UINode:
    get = element.attrib.get
    flags = {name: get(name) == "true" for name in _BOOL_ATTRS}
    node = UINode(
        get("class", ""),
        parse_bounds(get("bounds", "[0,0][0,0]")),
        text=get("text", ""),
        resource_id=get("resource-id", ""),
        package=get("package", ""),
        content_desc=get("content-desc", ""),
        checkable=flags["checkable"],
        checked=flags["checked"],
        clickable=flags["clickable"],
        enabled=flags["enabled"] if "enabled" in element.attrib else True,
        focusable=flags["focusable"],
        focused=flags["focused"],
        scrollable=flags["scrollable"],
        long_clickable=flags["long-clickable"],
        password=flags["password"],
        selected=flags["selected"],
        index=int(get("index", "0") or 0),
    )
    node.children = [_node_from_element(child) for child in element if child.tag == "node"]
    return node


def parse_uiautomator_xml(xml: str | bytes) -> UINode:
    """Parse a ``uiautomator dump`` file into a tree.

    The returned root is a synthetic ``hierarchy`` node whose children are the windows' roots.

    Raises:
        DeviceProtocolError: the text is not a uiautomator dump.
    """
    if isinstance(xml, str):
        xml = xml.encode("utf-8")
    start = xml.find(b"<?xml")
    if start < 0:
        start = xml.find(b"<hierarchy")
    if start < 0:
        raise DeviceProtocolError(f"not a uiautomator dump: {xml[:80]!r}")
    try:
        element = ElementTree.fromstring(xml[start:])
    except ElementTree.ParseError as exc:
        raise DeviceProtocolError(f"malformed uiautomator dump: {exc}") from exc
    if element.tag != "hierarchy":
        raise DeviceProtocolError(f"expected <hierarchy> root, got <{element.tag}>")
    root = UINode("hierarchy", (0, 0, 0, 0))
    root.children = [_node_from_element(child) for child in element if child.tag == "node"]
    if root.children:
        lefts, tops, rights, bottoms = zip(*(c.bounds for c in root.children), strict=True)
        root.bounds = (min(lefts), min(tops), max(rights), max(bottoms))
    return root


_XML_INVALID: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _attr(value: str) -> str:
    # XML 1.0 cannot carry these characters at all; a real dump replaces them too.
    return quoteattr(_XML_INVALID.sub("\ufffd", value))


def _b(value: bool) -> str:
    return "true" if value else "false"


def to_uiautomator_xml(root: UINode, rotation: int = 0) -> str:
    """Serialise a tree exactly as ``uiautomator dump`` writes it (one line, no pretty printing).

    ``root`` may be the synthetic ``hierarchy`` node returned by :func:`parse_uiautomator_xml`
    or a window's root node.
    """
    out: list[str] = ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"]
    out.append(f'<hierarchy rotation="{rotation}">')
    tops = root.children if root.class_name == "hierarchy" else [root]
    for top in tops:
        _write_node(top, out)
    out.append("</hierarchy>")
    return "".join(out)


def _write_node(node: UINode, out: list[str]) -> None:
    left, top, right, bottom = node.bounds
    out.append(
        f'<node index="{node.index}" text={_attr(node.text)} '
        f"resource-id={_attr(node.resource_id)} class={_attr(node.class_name)} "
        f"package={_attr(node.package)} content-desc={_attr(node.content_desc)} "
        f'checkable="{_b(node.checkable)}" checked="{_b(node.checked)}" '
        f'clickable="{_b(node.clickable)}" enabled="{_b(node.enabled)}" '
        f'focusable="{_b(node.focusable)}" focused="{_b(node.focused)}" '
        f'scrollable="{_b(node.scrollable)}" long-clickable="{_b(node.long_clickable)}" '
        f'password="{_b(node.password)}" selected="{_b(node.selected)}" '
        f'bounds="[{left},{top}][{right},{bottom}]"'
    )
    if node.children:
        out.append(">")
        for child in node.children:
            _write_node(child, out)
        out.append("</node>")
    else:
        out.append(" />")
