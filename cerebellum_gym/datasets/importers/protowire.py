"""Protocol buffers by their wire format: ``tf.train.Example`` and android_env's
``AndroidAccessibilityForest``, decoded (and, for tests and benchmarks, encoded) without
TensorFlow, android_env or generated classes.

Only the fields the importers read are decoded (writers for tests and benchmarks are in
:mod:`.synthetic`, on the simulator's own protobuf writer); unknown fields are skipped as the wire format
allows. Damaged bytes raise :class:`WireError` (the importer skips the record and counts it).
Field numbers are those of TensorFlow's ``example.proto`` / ``feature.proto`` and android_env's
``android_accessibility_forest.proto`` (and its window, tree and node messages), the same the
simulator writes in :mod:`cerebellum_gym.sim.a11y`.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from cerebellum_gym.errors import CerebellumError


class WireError(CerebellumError):
    """Bytes that are not the protocol buffer expected (cut short, a bad tag, a bad length)."""


_VARINT: Final = 0
_I64: Final = 1
_LEN: Final = 2
_I32: Final = 5


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    end = len(data)
    while True:
        if pos >= end or shift > 63:
            raise WireError("a varint runs past the end of the message")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def fields(data: bytes) -> Iterator[tuple[int, int, Any]]:
    """``(field number, wire type, value)`` of each field: an int for varints and fixed
    widths, a ``memoryview`` slice for length-delimited ones.

    Raises:
        WireError: the bytes do not parse.
    """
    view = memoryview(data)
    pos, end = 0, len(data)
    while pos < end:
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise WireError("field number 0")
        value: Any
        if wire == _VARINT:
            value, pos = _varint(data, pos)
        elif wire == _LEN:
            size, pos = _varint(data, pos)
            if pos + size > end:
                raise WireError("a length-delimited field runs past the end of the message")
            value, pos = view[pos : pos + size], pos + size
        elif wire == _I64:
            if pos + 8 > end:
                raise WireError("a fixed64 runs past the end")
            value, pos = int.from_bytes(data[pos : pos + 8], "little"), pos + 8
        elif wire == _I32:
            if pos + 4 > end:
                raise WireError("a fixed32 runs past the end")
            value, pos = int.from_bytes(data[pos : pos + 4], "little"), pos + 4
        else:
            raise WireError(f"unsupported wire type {wire}")
        yield number, wire, value


def _signed(value: int) -> int:
    """An int32/int64 varint as the signed number it encodes (negatives are 10-byte two's complement)."""
    return value - (1 << 64) if value >= 1 << 63 else value


def _packed_varints(value: Any) -> list[int]:
    data = bytes(value)
    out, pos = [], 0
    while pos < len(data):
        item, pos = _varint(data, pos)
        out.append(_signed(item))
    return out


# --- tf.train.Example -------------------------------------------------------------------------

Feature = list[bytes] | list[int] | list[float]


def parse_example(data: bytes) -> dict[str, Feature]:
    """A ``tf.train.Example`` as ``{name: values}`` (bytes, int64 or float lists).

    Raises:
        WireError: not an Example.
    """
    out: dict[str, Feature] = {}
    for number, wire, value in fields(data):
        if number != 1 or wire != _LEN:  # Example.features
            continue
        for fnum, fwire, entry in fields(value):
            if fnum != 1 or fwire != _LEN:  # Features.feature (a map entry)
                continue
            name, feature = "", b""
            for enum, ewire, item in fields(entry):
                if enum == 1 and ewire == _LEN:
                    name = bytes(item).decode("utf-8", "replace")
                elif enum == 2 and ewire == _LEN:
                    feature = item
            out[name] = _feature(feature)
    return out


def _feature(data: Any) -> Feature:
    for kind, wire, inner in fields(data):
        if wire != _LEN:
            continue
        if kind == 1:  # BytesList
            return [bytes(v) for n, w, v in fields(inner) if n == 1 and w == _LEN]
        if kind == 2:  # FloatList: packed or not
            floats: list[float] = []
            for n, w, v in fields(inner):
                if n != 1:
                    continue
                if w == _LEN:
                    raw = bytes(v)
                    if len(raw) % 4:
                        raise WireError("a packed float list of odd length")
                    floats.extend(struct.unpack(f"<{len(raw) // 4}f", raw))
                elif w == _I32:
                    floats.append(struct.unpack("<f", v.to_bytes(4, "little"))[0])
            return floats
        if kind == 3:  # Int64List: packed or not
            ints: list[int] = []
            for n, w, v in fields(inner):
                if n == 1:
                    ints.extend(_packed_varints(v) if w == _LEN else [_signed(v)])
            return ints
    return []


# --- AndroidAccessibilityForest ---------------------------------------------------------------


@dataclass
class Rect:
    left: int = 0
    top: int = 0
    right: int = 0
    bottom: int = 0


@dataclass
class Node:
    """The fields of ``AndroidAccessibilityNodeInfo`` the importers read (names as android_env's)."""

    unique_id: int = 0
    bounds_in_screen: Rect = field(default_factory=Rect)
    class_name: str = ""
    content_description: str = ""
    hint_text: str = ""
    package_name: str = ""
    text: str = ""
    view_id_resource_name: str = ""
    is_checkable: bool = False
    is_checked: bool = False
    is_clickable: bool = False
    is_editable: bool = False
    is_enabled: bool = False
    is_focusable: bool = False
    is_focused: bool = False
    is_long_clickable: bool = False
    is_password: bool = False
    is_scrollable: bool = False
    is_selected: bool = False
    is_visible_to_user: bool = False
    child_ids: list[int] = field(default_factory=list)
    depth: int = 0


@dataclass
class Tree:
    nodes: list[Node] = field(default_factory=list)


@dataclass
class Window:
    bounds_in_screen: Rect = field(default_factory=Rect)
    id: int = 0
    layer: int = 0
    title: str = ""
    window_type: int = 0
    is_active: bool = False
    is_focused: bool = False
    tree: Tree = field(default_factory=Tree)


@dataclass
class Forest:
    windows: list[Window] = field(default_factory=list)


_NODE_TEXT: Final = {3: "class_name", 4: "content_description", 5: "hint_text", 6: "package_name", 7: "text", 10: "view_id_resource_name"}
_NODE_FLAGS: Final = {
    12: "is_checkable",
    13: "is_checked",
    14: "is_clickable",
    15: "is_editable",
    16: "is_enabled",
    17: "is_focusable",
    18: "is_focused",
    19: "is_long_clickable",
    20: "is_password",
    21: "is_scrollable",
    22: "is_selected",
    23: "is_visible_to_user",
}


def _rect(data: Any) -> Rect:
    rect = Rect()
    for number, wire, value in fields(data):
        if wire == _VARINT and 1 <= number <= 4:
            setattr(rect, ("left", "top", "right", "bottom")[number - 1], _signed(value))
    return rect


def _text(value: Any) -> str:
    return bytes(value).decode("utf-8", "replace")


def _node(data: Any) -> Node:
    node = Node()
    for number, wire, value in fields(data):
        if number == 1 and wire == _VARINT:
            node.unique_id = _signed(value)
        elif number == 2 and wire == _LEN:
            node.bounds_in_screen = _rect(value)
        elif number in _NODE_TEXT and wire == _LEN:
            setattr(node, _NODE_TEXT[number], _text(value))
        elif number in _NODE_FLAGS and wire == _VARINT:
            setattr(node, _NODE_FLAGS[number], bool(value))
        elif number == 25:  # child_ids: packed (proto3's default) or one per field
            node.child_ids.extend(_packed_varints(value) if wire == _LEN else [_signed(value)])
        elif number == 27 and wire == _VARINT:
            node.depth = _signed(value)
    return node


def _window(data: Any) -> Window:
    window = Window()
    for number, wire, value in fields(data):
        if number == 1 and wire == _LEN:
            window.bounds_in_screen = _rect(value)
        elif number == 3 and wire == _VARINT:
            window.id = _signed(value)
        elif number == 4 and wire == _VARINT:
            window.layer = _signed(value)
        elif number == 5 and wire == _LEN:
            window.title = _text(value)
        elif number == 6 and wire == _VARINT:
            window.window_type = value
        elif number == 8 and wire == _VARINT:
            window.is_active = bool(value)
        elif number == 9 and wire == _VARINT:
            window.is_focused = bool(value)
        elif number == 11 and wire == _LEN:
            window.tree = Tree([_node(v) for n, w, v in fields(value) if n == 1 and w == _LEN])
    return window


def parse_forest(data: bytes) -> Forest:
    """An ``AndroidAccessibilityForest`` from its bytes (the shape android_env's class has, so
    :func:`cerebellum_gym.devices.androidworld.tree.forest_to_tree` reads it).

    Raises:
        WireError: the bytes are not a forest.
    """
    return Forest([_window(v) for n, w, v in fields(data) if n == 1 and w == _LEN])


__all__ = ["Forest", "Node", "Rect", "Tree", "Window", "WireError", "fields", "parse_example", "parse_forest"]
