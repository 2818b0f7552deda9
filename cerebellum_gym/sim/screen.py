"""Screens: what an app shows (:class:`ScreenSpec`) and where it lands (:class:`Layout`).

An app describes a screen as a toolbar, a scrolling body of widgets, an optional floating
button, an optional bottom bar and an optional dialog. :func:`layout` places it on the
1080x2400 logical screen, giving paint order, hit-test order and the accessibility tree that
``uiautomator dump`` would print, with only the on-screen part of the list in it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode, to_uiautomator_xml
from cerebellum_gym.sim import render
from cerebellum_gym.sim.render import font, text_fit
from cerebellum_gym.sim.widgets import PAD, TITLE_SIZE, Button, Dialog, IconButton, Row, Text, Widget

#: Trees kept by the process-wide :class:`TreeCache` (a screen's tree is a few kB).
TREE_CACHE_ENTRIES: Final = 512
#: A dialog's buttons from the right: positive, negative, neutral (``AlertDialog``'s ids).
DIALOG_BUTTON_IDS: Final = ("android:id/button1", "android:id/button2", "android:id/button3")
SCREEN_WIDTH: Final = 1080
SCREEN_HEIGHT: Final = 2400
STATUS_HEIGHT: Final = 84
TOOLBAR_HEIGHT: Final = 168
NAV_HEIGHT: Final = 63  # gesture handle area at the bottom; not part of any app window
BOTTOM_BAR_HEIGHT: Final = 189
FAB_SIZE: Final = 168


@dataclass
class ScreenSpec:
    """One screen of an app, rebuilt from app state whenever the state changes.

    Attributes:
        title: toolbar title (no toolbar when ``None``).
        body: widgets stacked vertically in the scrolling area.
        up: the toolbar's navigate-up action, if it has one.
        actions: toolbar buttons on the right.
        fab: a floating action button at the bottom right.
        bottom: a fixed bar of widgets along the bottom (tabs, Save/Cancel).
        dialog: a modal dialog over everything.
        scroll: the scroll offset of the body, in device pixels (kept by the app's route).
    """

    title: str | None = None
    #: An app bar of the app's own drawing (a Material ``TopAppBar``) in place of the plain
    #: toolbar ``title`` makes; fixed above the scrolling body.
    app_bar: Widget | None = None
    body: Sequence[Widget] = ()
    up: Callable[[], None] | None = None
    actions: Sequence[Widget] = ()
    fab: Widget | None = None
    bottom: Sequence[Widget] = ()
    dialog: Dialog | None = None
    scroll: int = 0
    background: render.RGB = render.BACKGROUND
    #: The scrolling area's view: its id in the app's package (a full ``pkg:id/name`` as it
    #: is, for a view another package inflates), and its class.
    list_id: str = "list"
    list_class: str = "androidx.recyclerview.widget.RecyclerView"
    #: Whether the scrolling area reports itself scrollable also when all of it is on screen
    #: (a launcher's workspace takes a swipe up, to the app drawer).
    always_scrollable: bool = False
    #: ``(scroll, layout)`` of this very spec as the phone last laid it out: an app that hands
    #: back the same spec object (its screen cannot have changed) gets that layout back.
    laid_out: tuple[int, Layout] | None = field(default=None, repr=False, compare=False)


class Placed(NamedTuple):
    widget: Widget
    bounds: Bounds
    clip: Bounds


@dataclass
class Layout:
    """A screen placed on the display: paint list, hit-test list and accessibility tree."""

    placed: list[Placed]
    interactive: list[Placed]
    root: UINode
    viewport: Bounds
    content_height: int
    scroll: int
    modal: bool
    background: render.RGB
    fields: dict[str, Placed] = field(default_factory=dict)
    #: Index in ``placed`` where a dialog starts; everything before it is dimmed.
    overlay_index: int | None = None
    #: What the tree is made of (a placement-only layout's; see :class:`TreeCache`).
    signature: Hashable | None = None
    #: What its frames are made of, computed by the phone on first use.
    paint: Any = None

    @property
    def max_scroll(self) -> int:
        return max(0, self.content_height - (self.viewport[3] - self.viewport[1]))

    def hit(self, x: int, y: int) -> Placed | None:
        """The topmost interactive widget under ``(x, y)``."""
        for item in self.interactive:
            left, top, right, bottom = item.bounds
            cl, ct, cr, cb = item.clip
            if max(left, cl) <= x < min(right, cr) and max(top, ct) <= y < min(bottom, cb):
                return item
        return None


class Toolbar(Widget):
    """The app bar background and title."""

    class_name = "android.view.ViewGroup"
    background = render.TOOLBAR

    def __init__(self, title: str, indent: bool) -> None:
        super().__init__(text=title, height=TOOLBAR_HEIGHT)
        self.indent = indent

    def render_key(self) -> Hashable:
        return (self.text, self.indent)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(TITLE_SIZE * scale)
        left = round((180 if self.indent else PAD) * scale)
        shown = text_fit(draw, self.text, size, width - left - round(400 * scale))
        draw.text((left, (height - size) / 2), shown, font=font(size), fill=render.TEXT)


class DialogPanel(Widget):
    """The dialog's card with its title and message."""

    class_name = "android.widget.FrameLayout"

    def __init__(self, title: str, message: str, height: int) -> None:
        super().__init__(text=title, height=height)
        self.message = message

    def render_key(self) -> Hashable:
        return (self.text, self.message)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        draw.rectangle((0, 0, width, height), fill=render.SURFACE)
        pad = round(PAD * scale)
        size = round(TITLE_SIZE * scale)
        draw.text((pad, pad), text_fit(draw, self.text, size, width - 2 * pad), font=font(size), fill=render.TEXT)
        if self.message:
            msize = round(40 * scale)
            draw.text(
                (pad, pad + size + pad // 2),
                text_fit(draw, self.message, msize, width - 2 * pad),
                font=font(msize),
                fill=render.TEXT_SECONDARY,
            )


class _Walk:
    """One pass of :func:`layout` over a spec: the placement lists, and either the tree's nodes
    (``build``) or the screen's tree signature (what the tree is made of, to find it cached)."""

    __slots__ = ("build", "fields", "interactive", "package", "placed", "placeholder", "signature")

    def __init__(self, package: str, build: bool) -> None:
        self.package = package
        self.build = build
        self.placed: list[Placed] = []
        self.interactive: list[Placed] = []
        self.fields: dict[str, Placed] = {}
        self.signature: list[Hashable] = []
        #: Stands for every node a placement-only pass does not make.
        self.placeholder = UINode()


def _encode_tree(widget: Widget, bounds: Bounds, clip: Bounds, walk: _Walk, depth: int = 0) -> UINode:
    if not walk.build:
        return _place_tree(widget, bounds, clip, walk, depth)
    item = Placed(widget, bounds, clip)
    node = _clip_node(widget.encode(bounds, walk.package), clip)
    walk.placed.append(item)
    child_nodes = list(node.children)
    for child, child_bounds in widget.children(bounds):
        if _visible(child_bounds, clip):
            child_nodes.append(_encode_tree(child, child_bounds, clip, walk, depth + 1))
    for i, child_node in enumerate(child_nodes):
        child_node.index = i
    node.children = child_nodes
    if widget.clickable or widget.on_long_press is not None or type(widget).drag is not Widget.drag:
        walk.interactive.append(item)
    if widget.key and hasattr(widget, "on_change"):
        walk.fields[widget.key] = item
    return node


_new_tuple = tuple.__new__
_BASE_CHILDREN: Final = Widget.children
_BASE_DRAG: Final = Widget.drag


def _place_tree(widget: Widget, bounds: Bounds, clip: Bounds, walk: _Walk, depth: int) -> UINode:
    """:func:`_encode_tree` without nodes: the same placement lists, and the tree signature.
    It runs for every screen shown, so it is kept lean."""
    item: Placed = _new_tuple(Placed, (widget, bounds, clip))
    walk.placed.append(item)
    walk.signature.append((depth, widget.tree_key(), bounds, clip))
    kind = type(widget)
    if kind.children is not _BASE_CHILDREN:
        cl, ct, cr, cb = clip
        for child, (left, top, right, bottom) in widget.children(bounds):
            if right > cl and left < cr and bottom > ct and top < cb:
                _place_tree(child, (left, top, right, bottom), clip, walk, depth + 1)
    if widget.clickable or widget.on_long_press is not None or kind.drag is not _BASE_DRAG:
        walk.interactive.append(item)
    if widget.key and hasattr(widget, "on_change"):
        walk.fields[widget.key] = item
    return walk.placeholder


def widget_key(widget: Widget) -> Hashable:
    """Everything a widget's node can depend on (:meth:`Widget.tree_key`)."""
    return widget.tree_key()


def _clip_node(node: UINode, clip: Bounds) -> UINode:
    """Clip a widget's node and its synthesized children to what is on screen, dropping children
    scrolled out of view, as ``uiautomator dump`` reports only visible parts."""
    left, top, right, bottom = node.bounds
    if left >= clip[0] and top >= clip[1] and right <= clip[2] and bottom <= clip[3]:
        return node  # wholly on screen (the common case): children lie inside their parent
    node.bounds = _clip(node.bounds, clip)
    node.children = [_clip_node(child, clip) for child in node.children if _visible(child.bounds, clip)]
    return node


def _visible(bounds: Bounds, clip: Bounds) -> bool:
    return bounds[2] > clip[0] and bounds[0] < clip[2] and bounds[3] > clip[1] and bounds[1] < clip[3]


def _clip(bounds: Bounds, clip: Bounds) -> Bounds:
    return (max(bounds[0], clip[0]), max(bounds[1], clip[1]), min(bounds[2], clip[2]), min(bounds[3], clip[3]))


class HashedKey:
    """A big, nested cache key (a screen's tree signature, a frame's paint list) with its hash
    worked out once: a dictionary look-up and the LRU's move-to-end then cost no deep hashing
    (hashing a signature costs about as much as a lookup's equality test)."""

    __slots__ = ("_hash", "key")

    def __init__(self, key: Hashable) -> None:
        self.key = key
        self._hash = hash(key)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, HashedKey):
            return NotImplemented
        return self._hash == other._hash and self.key == other.key


class TreeCache:
    """Accessibility trees of screens seen before, by tree signature (least recently used go first).

    A screen that returns (the launcher after ``H``, a list after ``B``, a switch toggled back)
    gets its earlier tree back, with the compact-text plan and the set-of-mark scan already
    derived on it; only the placement lists are made afresh, as they hold the new widgets and
    their callbacks. Trees are never changed once made, so every phone in the process shares them.
    """

    def __init__(self, max_entries: int = TREE_CACHE_ENTRIES, *, check: bool = False) -> None:
        self.max_entries = max_entries
        #: Build every tree anyway and compare it with the cached one (tests; slow).
        self.check = check
        self._trees: OrderedDict[HashedKey, UINode] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def layout(self, spec: ScreenSpec, package: str) -> Layout:
        """``layout(spec, package)``, with the tree taken from the cache when it is there."""
        placement = layout(spec, package, build_tree=False)
        try:
            key = HashedKey(placement.signature)
        except TypeError:  # an attribute that cannot be hashed: no caching for this screen
            return layout(spec, package)
        root = self._trees.get(key)
        if root is not None:
            self._trees.move_to_end(key)
            self.hits += 1
            if self.check:
                _check_same_tree(root, layout(spec, package).root)
            placement.root = root
            placement.signature = None
            return placement
        self.misses += 1
        built = layout(spec, package)
        self._trees[key] = built.root
        if len(self._trees) > self.max_entries:
            self._trees.popitem(last=False)
        return built

    def clear(self) -> None:
        self._trees.clear()


def _check_same_tree(cached: UINode, fresh: UINode) -> None:
    want, got = to_uiautomator_xml(fresh), to_uiautomator_xml(cached)
    if want != got:
        raise AssertionError(f"cached tree differs from the screen's own:\n{got}\n!=\n{want}")


def layout(spec: ScreenSpec, package: str, *, build_tree: bool = True) -> Layout:
    """Place ``spec`` on the logical screen.

    With ``build_tree=False`` no node is made: the layout's ``root`` is a placeholder and its
    ``signature`` says what the tree would be made of (see :class:`TreeCache`).
    """
    width, height = SCREEN_WIDTH, SCREEN_HEIGHT
    full: Bounds = (0, 0, width, height)
    walk = _Walk(package, build_tree)
    placed, interactive, fields = walk.placed, walk.interactive, walk.fields
    root = (
        UINode("android.widget.FrameLayout", (0, STATUS_HEIGHT, width, height - NAV_HEIGHT), package=package)
        if build_tree
        else walk.placeholder
    )
    top_nodes: list[UINode] = []

    top = STATUS_HEIGHT
    if spec.title is not None:
        bar_bounds: Bounds = (0, top, width, top + TOOLBAR_HEIGHT)
        bar = _encode_tree(Toolbar(spec.title, spec.up is not None), bar_bounds, full, walk)
        bar.resource_id = f"{package}:id/toolbar"
        bar.text = ""
        bar.children = (
            [
                UINode(
                    "android.widget.TextView",
                    (180 if spec.up else PAD, top + 30, width - 400, top + TOOLBAR_HEIGHT - 30),
                    text=spec.title,
                    package=package,
                )
            ]
            if build_tree
            else []
        )
        if spec.up is not None:
            up = IconButton("Navigate up", "←", on_tap=spec.up, height=TOOLBAR_HEIGHT, background=render.TOOLBAR)
            bar.children.insert(0, _encode_tree(up, (0, top, 168, top + TOOLBAR_HEIGHT), full, walk))
        right = width
        for action in reversed(list(spec.actions)):
            action.background = render.TOOLBAR  # toolbar buttons sit on the bar's colour
            bar.children.append(_encode_tree(action, (right - 147, top + 10, right, top + TOOLBAR_HEIGHT - 10), full, walk))
            right -= 147
        for i, child in enumerate(bar.children):
            child.index = i
        top_nodes.append(bar)
        top += TOOLBAR_HEIGHT

    if spec.app_bar is not None:
        bar_height = spec.app_bar.height
        top_nodes.append(_encode_tree(spec.app_bar, (0, top, width, top + bar_height), full, walk))
        top += bar_height

    bottom_edge = height - NAV_HEIGHT
    bottom_items = list(spec.bottom)
    if bottom_items:
        bottom_edge -= BOTTOM_BAR_HEIGHT
    viewport: Bounds = (0, top, width, bottom_edge)
    content_height = sum(w.height for w in spec.body)
    max_scroll = max(0, content_height - (bottom_edge - top))
    scroll = min(max(0, spec.scroll), max_scroll)
    body_nodes: list[UINode] = []
    y = top - scroll
    for widget in spec.body:
        if y >= bottom_edge:
            break  # this row and every later one lie below the viewport
        bottom = y + widget.height
        if bottom > top:
            body_nodes.append(_encode_tree(widget, (0, y, width, bottom), viewport, walk))
        y = bottom
    list_node = (
        UINode(
            spec.list_class,
            viewport,
            resource_id=(spec.list_id if ":" in spec.list_id else f"{package}:id/{spec.list_id}") if spec.list_id else "",  # none: no id
            package=package,
            scrollable=max_scroll > 0 or spec.always_scrollable,
            focusable=True,
            children=body_nodes,
        )
        if build_tree
        else walk.placeholder
    )
    for i, child in enumerate(body_nodes):
        child.index = i
    top_nodes.append(list_node)

    if bottom_items:
        bar_row = Row(bottom_items, height=BOTTOM_BAR_HEIGHT)
        top_nodes.append(_encode_tree(bar_row, (0, bottom_edge, width, bottom_edge + BOTTOM_BAR_HEIGHT), full, walk))
    if spec.fab is not None:
        fab_bounds = (width - FAB_SIZE - PAD, bottom_edge - FAB_SIZE - PAD, width - PAD, bottom_edge - PAD)
        top_nodes.append(_encode_tree(spec.fab, fab_bounds, full, walk))

    modal = spec.dialog is not None
    overlay_index = len(placed) if modal else None
    if spec.dialog is not None:
        interactive.clear()
        fields.clear()
        top_nodes = [_dialog_node(spec.dialog, walk)]
        root.bounds = top_nodes[0].bounds
    # A field's floating selection toolbar (Cut, Copy, Paste) is a window of its own, over
    # everything else on screen, the dialog included.
    window: Bounds = (0, STATUS_HEIGHT, width, height - NAV_HEIGHT)
    for placed_field in list(fields.values()):
        popup = getattr(placed_field.widget, "popup", None)
        floating = popup(placed_field.bounds, window) if popup is not None else None
        if floating is not None:
            top_nodes.append(_encode_tree(floating[0], floating[1], window, walk))
    # Later widgets sit on top; children were appended after parents, so reverse for hit tests.
    interactive.reverse()
    root.children = top_nodes
    for i, child in enumerate(top_nodes):
        child.index = i
    signature = None
    if not build_tree:
        walk.placeholder.children = []  # no reference cycle through the placeholder
        dialog = (spec.dialog.title, spec.dialog.message) if spec.dialog is not None else None
        container = (spec.list_id, spec.list_class, max_scroll > 0 or spec.always_scrollable)
        signature = (package, spec.title, spec.up is not None, viewport, container, dialog, tuple(walk.signature))
    return Layout(placed, interactive, root, viewport, content_height, scroll, modal, spec.background, fields, overlay_index, signature)


def _dialog_node(dialog: Dialog, walk: _Walk) -> UINode:
    package = walk.package
    width = SCREEN_WIDTH - 2 * 90
    # An AlertDialog made without a title (a platform picker, a custom view: ``untitled``) hides
    # its title panel.
    untitled = getattr(dialog, "untitled", False) and not dialog.title
    header = 60 if untitled and not dialog.message else 150 + (110 if dialog.message else 0)
    body_height = sum(w.height for w in dialog.body)
    total = header + body_height + 168
    left, top = 90, (SCREEN_HEIGHT - total) // 2
    bounds: Bounds = (left, top, left + width, top + total)
    panel = DialogPanel(dialog.title, dialog.message, total)
    node = _encode_tree(panel, bounds, bounds, walk)
    node.text = ""
    node.resource_id = "android:id/parentPanel"
    children = (
        [
            UINode(
                "android.widget.TextView",
                (left + PAD, top + PAD, left + width - PAD, top + 130),
                text=dialog.title,
                resource_id="android:id/alertTitle",
                package=package,
            )
        ]
        if not untitled
        else []
    )
    if dialog.message:
        children.append(
            UINode(
                "android.widget.TextView",
                (left + PAD, top + 150, left + width - PAD, top + header),
                text=dialog.message,
                resource_id="android:id/message",
                package=package,
            )
        )
    y = top + header
    for widget in dialog.body:
        children.append(_encode_tree(widget, (left, y, left + width, y + widget.height), bounds, walk))
        y += widget.height
    if dialog.buttons:
        buttons = Row(dialog.buttons, height=168)
        panel_node = _encode_tree(buttons, (left, y, left + width, y + 168), bounds, walk)
        if walk.build:  # a placement-only pass has a shared placeholder, no nodes to name
            _name_dialog_buttons(panel_node)
        children.append(panel_node)
    for i, child in enumerate(children):
        child.index = i
    node.children = children
    return node


def _name_dialog_buttons(panel_node: UINode) -> None:
    """AlertDialog's ids: the button bar, and its buttons right to left, positive (button1),
    negative (button2), neutral (button3), as apps and AndroidWorld's tools find them; a button
    with an id of its own keeps it."""
    panel_node.resource_id = panel_node.resource_id or "android:id/buttonPanel"
    clickable = [n for n in panel_node.iter() if n.clickable]
    for node, rid in zip(reversed(clickable), DIALOG_BUTTON_IDS, strict=False):
        node.resource_id = node.resource_id or rid


TREES: Final = TreeCache()
"""The trees of every phone in the process."""

__all__ = [
    "BOTTOM_BAR_HEIGHT",
    "SCREEN_HEIGHT",
    "SCREEN_WIDTH",
    "STATUS_HEIGHT",
    "TOOLBAR_HEIGHT",
    "TREES",
    "Button",
    "Layout",
    "Placed",
    "ScreenSpec",
    "Text",
    "TreeCache",
    "layout",
    "widget_key",
]
