"""AndroidWorld's accessibility forest as the tree ``uiautomator dump`` prints
(:func:`forest_to_tree`; the forest is what AndroidWorld's agents read on an emulator)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from cerebellum_gym.core.tree import UINode

#: AccessibilityWindowInfo types in android_env's forest proto.
WINDOW_TYPE_APPLICATION: Final = 1


def _visible(node: Any) -> bool:
    # A forest node (a proto) always has the field, False when unset, so an unset field hides the
    # node, as AndroidWorld's forest_to_ui_elements(exclude_invisible_elements=True) does; only
    # an object without the field at all counts as visible.
    return bool(getattr(node, "is_visible_to_user", True))


def _clip(rect: Any, screen: tuple[int, int]) -> tuple[int, int, int, int]:
    width, height = screen
    left = min(max(int(rect.left), 0), width)
    top = min(max(int(rect.top), 0), height)
    right = min(max(int(rect.right), left), width)
    bottom = min(max(int(rect.bottom), top), height)
    return left, top, right, bottom


def forest_to_tree(forest: Any, screen_size: tuple[int, int], *, all_windows: bool = False) -> UINode:
    """An AndroidWorld accessibility forest as the tree ``uiautomator dump`` would print.

    The forest (``android_env.proto.a11y.AndroidAccessibilityForest``) holds windows, each with a
    flat list of nodes linked by ``unique_id`` / ``child_ids``. Like ``uiautomator dump`` this
    keeps the active window (all application windows when none is marked active, or every
    window with ``all_windows``), drops nodes not visible to the user with their subtrees, clips
    bounds to the screen and numbers children by their place among visible siblings.

    Returns:
        A synthetic ``hierarchy`` root whose children are the chosen windows' roots.
    """
    windows = list(getattr(forest, "windows", ()) or ())
    if not all_windows:
        active = [w for w in windows if getattr(w, "is_active", False)]
        if not active:
            active = [w for w in windows if getattr(w, "window_type", 0) == WINDOW_TYPE_APPLICATION] or windows[-1:]
        windows = active
    # Draw order: lower layers first, as a dump of several windows lists them.
    windows.sort(key=lambda w: getattr(w, "layer", 0))
    root = UINode("hierarchy", (0, 0, screen_size[0], screen_size[1]))
    for window in windows:
        nodes = list(window.tree.nodes)
        by_id = {int(n.unique_id): n for n in nodes}
        child_ids = {int(c) for n in nodes for c in n.child_ids}
        tops = [n for n in nodes if int(n.unique_id) not in child_ids]
        for top in tops:
            built = _build(top, by_id, screen_size, 0, set())
            if built is not None:
                root.children.append(built)
    return root


def _build(node: Any, by_id: Mapping[int, Any], screen: tuple[int, int], index: int, seen: set[int]) -> UINode | None:
    uid = int(node.unique_id)
    if uid in seen:  # a malformed forest must not loop forever
        return None
    seen.add(uid)
    ui = UINode(
        node.class_name or "android.view.View",
        _clip(node.bounds_in_screen, screen),
        text=node.text or "",
        resource_id=node.view_id_resource_name or "",
        package=node.package_name or "",
        content_desc=node.content_description or "",
        checkable=bool(node.is_checkable),
        checked=bool(node.is_checked),
        clickable=bool(node.is_clickable),
        enabled=bool(node.is_enabled),
        focusable=bool(node.is_focusable),
        focused=bool(node.is_focused),
        scrollable=bool(node.is_scrollable),
        long_clickable=bool(node.is_long_clickable),
        password=bool(node.is_password),
        selected=bool(node.is_selected),
        index=index,
    )
    position = 0
    for cid in node.child_ids:
        child = by_id.get(int(cid))
        if child is None or not _visible(child):
            continue
        built = _build(child, by_id, screen, position, seen)
        if built is not None:
            ui.children.append(built)
            position += 1
    return ui


__all__ = ["WINDOW_TYPE_APPLICATION", "forest_to_tree"]
