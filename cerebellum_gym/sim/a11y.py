"""The simulator's accessibility forest: what AndroidWorld's accessibility forwarder app sends.

On a real AndroidWorld set-up an accessibility service on the device (android_env's forwarder,
``com.google.androidenv.accessibilityforwarder``) walks every window's
``AccessibilityNodeInfo`` tree and sends it to the host as an ``AndroidAccessibilityForest``
protocol buffer (``android_env/proto/a11y/android_accessibility_forest.proto``); AndroidWorld's
judges read it from ``env.get_state().forest``. :func:`forest_bytes` builds the same message from
the simulator's screen, and the shell command ``cerebellum-a11y forest`` (:data:`A11Y`, the
served device's forwarder) prints it, so a host reaches it over ADB as it reaches everything else.

The message is written in protobuf's wire format here (varints and length-delimited fields, the
field numbers of android_env's ``.proto`` files), so the simulator needs no android_env; the host
parses it with android_env's own generated classes. What the nodes carry is what
``AccessibilityNodeInfo`` carries for the same views: the tree ``uiautomator dump`` prints (bounds,
text, content description, class, resource id, package, flags) plus what the dump leaves out,
the hint of an ``EditText`` (``hint_text``; an empty field's text is its hint, as
``TextView.getTextForAccessibility`` gives it), ``is_editable``, ``is_visible_to_user``, the
depth, and parent-to-child links by ``unique_id``.

Windows: the app's (or its dialog's), active and focused, and the status bar's (the system UI's
clock, Wi-Fi, mobile signal and battery, as AndroidWorld's element lists show them: "15:34",
"Phone signal full.", "Battery 100 percent."); the navigation bar and keyboard windows a device
also reports are left out (``forest_to_tree`` keeps only the active window). Every node is visible to the user,
since the simulator places no view outside the screen (a real ``ScrollView`` keeps its
off-screen children, reported with ``is_visible_to_user`` false).

Example:
    >>> from cerebellum_gym.sim.phone import Phone
    >>> data = forest_bytes(Phone())
    >>> data[:1]  # field 1 (windows), length-delimited
    b'\\n'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cerebellum_gym.core.tree import EDITABLE_CLASSES, Bounds, UINode
from cerebellum_gym.sim.shell.host import ShellHost
from cerebellum_gym.sim.shell.language import ShellResult, fail
from cerebellum_gym.sim.shell.table import CommandTable

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

#: ``AndroidAccessibilityWindowInfo.WindowType.TYPE_APPLICATION``.
TYPE_APPLICATION: Final = 1
#: ``AndroidAccessibilityWindowInfo.WindowType.TYPE_SYSTEM`` (the status bar's window).
TYPE_SYSTEM: Final = 3
#: The windows' ids and layers (any stable values; a device numbers its windows); the status bar
#: lies over the app.
WINDOW_ID: Final = 1
WINDOW_LAYER: Final = 1
STATUS_WINDOW_ID: Final = 2
STATUS_WINDOW_LAYER: Final = 2
#: The served device's forwarder command.
FOREST_COMMAND: Final = "cerebellum-a11y forest"

_VARINT: Final = 0
_BYTES: Final = 2


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # negative int32s go as ten-byte two's complement, as protobuf does
    out = bytearray()
    while True:
        bits = value & 0x7F
        value >>= 7
        if value:
            out.append(bits | 0x80)
        else:
            out.append(bits)
            return bytes(out)


def _key(field: int, wire: int) -> bytes:
    return _varint(field << 3 | wire)


class _Message:
    """A protobuf message being written, field by field (proto3: defaults are left out)."""

    __slots__ = ("out",)

    def __init__(self) -> None:
        self.out = bytearray()

    def number(self, field: int, value: int) -> None:
        if value:
            self.out += _key(field, _VARINT) + _varint(value)

    def flag(self, field: int, value: bool) -> None:
        if value:
            self.out += _key(field, _VARINT) + b"\x01"

    def blob(self, field: int, value: bytes) -> None:
        self.out += _key(field, _BYTES) + _varint(len(value)) + value

    def text(self, field: int, value: str) -> None:
        if value:
            self.blob(field, value.encode("utf-8"))

    def packed(self, field: int, values: list[int]) -> None:
        if values:
            self.blob(field, b"".join(_varint(v) for v in values))


def _rect(bounds: Bounds) -> bytes:
    rect = _Message()
    for field, value in enumerate(bounds, start=1):  # ProtoRect: left, top, right, bottom
        rect.number(field, value)
    return bytes(rect.out)


def _hints(phone: Phone) -> dict[Bounds, str]:
    """The hint of each text field on screen, by the bounds its node has (clipped to the view
    it scrolls in, as the tree clips it)."""
    hints: dict[Bounds, str] = {}
    for placed in phone.layout.fields.values():
        hint = getattr(placed.widget, "hint", "")
        if hint:
            (left, top, right, bottom), (cl, ct, cr, cb) = placed.bounds, placed.clip
            hints[(max(left, cl), max(top, ct), min(right, cr), min(bottom, cb))] = hint
    return hints


def _nodes(root: UINode, hints: dict[Bounds, str], window_id: int = 1) -> list[bytes]:
    """The tree's nodes as ``AndroidAccessibilityNodeInfo`` messages, parents before children
    (ids in that order from 1; the forwarder's ids are the framework's, any unique ints)."""
    order: list[tuple[UINode, int]] = []
    stack = [(root, 0)]
    while stack:  # pre-order, children in their order
        node, depth = stack.pop()
        order.append((node, depth))
        stack.extend((child, depth + 1) for child in reversed(node.children))
    ids = {id(node): i for i, (node, _) in enumerate(order, start=1)}
    out: list[bytes] = []
    for node, depth in order:
        msg = _Message()
        msg.number(1, ids[id(node)])
        msg.blob(2, _rect(node.bounds))
        msg.text(3, node.class_name)
        msg.text(4, node.content_desc)
        editable = node.class_name in EDITABLE_CLASSES
        msg.text(5, hints.get(node.bounds, "") if editable else "")
        msg.text(6, node.package)
        msg.text(7, node.text)
        msg.text(10, node.resource_id)
        msg.number(11, window_id)
        msg.flag(12, node.checkable)
        msg.flag(13, node.checked)
        msg.flag(14, node.clickable)
        msg.flag(15, editable)
        msg.flag(16, node.enabled)
        msg.flag(17, node.focusable)
        msg.flag(18, node.focused)
        msg.flag(19, node.long_clickable)
        msg.flag(20, node.password)
        msg.flag(21, node.scrollable)
        msg.flag(22, node.selected)
        msg.flag(23, True)  # is_visible_to_user: the simulator places nothing off screen
        msg.packed(25, [ids[id(child)] for child in node.children])
        msg.number(27, depth)
        out.append(bytes(msg.out))
    return out


def _window(root: UINode, nodes: list[bytes], *, window_id: int, layer: int, title: str, kind: int, active: bool) -> bytes:
    tree = _Message()
    for node in nodes:
        tree.blob(1, node)
    window = _Message()
    window.blob(1, _rect(root.bounds))
    window.number(3, window_id)
    window.number(4, layer)
    window.text(5, title)
    window.number(6, kind)
    window.flag(8, active)  # is_active
    window.flag(9, active)  # is_focused
    window.blob(11, bytes(tree.out))
    return bytes(window.out)


def forest_bytes(phone: Phone) -> bytes:
    """The phone's screen as a serialised ``AndroidAccessibilityForest``: the application
    window (active and focused) holding the tree ``uiautomator dump`` prints, with the fields the
    dump omits, then the status bar's window (the system UI's clock and icons)."""
    root = phone.ui_tree()
    app = _window(
        root,
        _nodes(root, _hints(phone)),
        window_id=WINDOW_ID,
        layer=WINDOW_LAYER,
        title=phone.foreground_app.label,
        kind=TYPE_APPLICATION,
        active=True,
    )
    bar = phone.status_bar_tree()
    status = _window(
        bar,
        _nodes(bar, {}, STATUS_WINDOW_ID),
        window_id=STATUS_WINDOW_ID,
        layer=STATUS_WINDOW_LAYER,
        title="",
        kind=TYPE_SYSTEM,
        active=False,
    )
    forest = _Message()
    forest.blob(1, app)
    forest.blob(1, status)
    return bytes(forest.out)


#: The served device's accessibility forwarder: ``cerebellum-a11y forest`` prints the forest.
A11Y: Final = CommandTable[ShellHost]("a11y")


@A11Y.command(FOREST_COMMAND.split()[0])
def cerebellum_a11y(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    """Simulator-only (a device runs the forwarder app instead): the screen's forest, as bytes."""
    if args == ["forest"]:
        return ShellResult(forest_bytes(sh.phone))
    return fail("usage: cerebellum-a11y forest\n", 2)


__all__ = ["A11Y", "FOREST_COMMAND", "forest_bytes"]
