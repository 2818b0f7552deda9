"""Building blocks for scripted oracles: find things on the labelled screen, open apps, walk
menus, and scroll to search, all from what the screen shows."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.core.tree import UINode
from cerebellum_gym.tasks.base import Oracle

LAUNCHER_PACKAGE = "com.google.android.apps.nexuslauncher"
#: The app drawer's list (on the home screen, apps other than the tray's sit in the drawer).
APPS_LIST_ID = f"{LAUNCHER_PACKAGE}:id/apps_list_view"

NodeTest = Callable[[UINode], bool]


def package_of(screen: LabelledScreen) -> str:
    """The package of the window on screen."""
    for node in screen.root.iter():
        if node.package:
            return node.package
    return ""


def _own_nodes(node: UINode) -> list[UINode]:
    """``node`` and its descendants that are not separately actionable (they share its label)."""
    out = [node]
    stack = list(node.children)
    while stack:
        child = stack.pop()
        if child.is_actionable:
            continue
        out.append(child)
        stack.extend(child.children)
    return out


def find(screen: LabelledScreen, test: NodeTest) -> tuple[str, UINode] | None:
    """The first labelled element that passes ``test`` itself or through its own texts."""
    for label, node in zip(screen.labels, screen.nodes, strict=True):
        if any(test(n) for n in _own_nodes(node)):
            return label, node
    return None


def by_text(text: str) -> NodeTest:
    return lambda n: n.text == text


def by_desc(desc: str) -> NodeTest:
    return lambda n: n.content_desc == desc


def by_id(suffix: str) -> NodeTest:
    return lambda n: n.resource_id.endswith(suffix)


def label_for(screen: LabelledScreen, *, text: str | None = None, desc: str | None = None, rid: str | None = None) -> str | None:
    test: NodeTest
    if text is not None:
        test = by_text(text)
    elif desc is not None:
        test = by_desc(desc)
    elif rid is not None:
        test = by_id(rid)
    else:
        raise ValueError("give text, desc or rid")
    hit = find(screen, test)
    return hit[0] if hit else None


def switch_state(node: UINode) -> bool | None:
    """The checked state of a switch row (or of a checkable node itself)."""
    for n in node.iter():
        if n.checkable:
            return n.checked
    return None


def shows_text(screen: LabelledScreen, text: str) -> bool:
    return screen.root.find(text=text) is not None


class ScriptedOracle(Oracle):
    """An oracle with helpers for the moves every task needs.

    Subclasses implement :meth:`act` and call :meth:`open_app` and :meth:`walk` when the target
    is not on screen yet.
    """

    def __init__(self) -> None:
        self._scroll = "D"
        self._last_signature: tuple[str, ...] | None = None

    @staticmethod
    def _signature(screen: LabelledScreen) -> tuple[str, ...]:
        return tuple(f"{n.text}|{n.content_desc}|{n.bounds}" for n in screen.root.iter())

    def scroll_search(self, screen: LabelledScreen) -> str:
        """Scroll down until the end, then up until the top, then give up with back."""
        signature = self._signature(screen)
        stuck = signature == self._last_signature
        self._last_signature = signature
        if screen.scrollable is None:
            return "B"
        if stuck:
            if self._scroll == "D":
                self._scroll = "U"
            else:
                self._scroll = "D"
                self._last_signature = None
                return "B"
        return self._scroll

    def _moved(self) -> None:
        self._scroll = "D"
        self._last_signature = None

    def tap(self, label: str) -> str:
        self._moved()
        return f"T {label}"

    def open_app(self, screen: LabelledScreen, package: str, app_label: str) -> str | None:
        """The next action toward having ``package`` in the foreground, or ``None`` if it is."""
        current = package_of(screen)
        if current == package:
            return None
        if current != LAUNCHER_PACKAGE:
            self._moved()
            return "H"
        label = label_for(screen, text=app_label)
        if label is not None:
            return self.tap(label)
        if screen.root.find(resource_id=APPS_LIST_ID) is None:
            self._moved()
            return "D"  # the home screen: a swipe up opens the app drawer
        return self.scroll_search(screen)

    def walk(self, screen: LabelledScreen, path: Sequence[str]) -> str:
        """Tap the deepest step of ``path`` (item texts from the app's root) visible now."""
        for step in reversed(path):
            label = label_for(screen, text=step)
            if label is not None:
                return self.tap(label)
        return self.scroll_search(screen)

    def type_into(self, screen: LabelledScreen, node: UINode, label: str, text: str) -> str:
        """Focus ``node`` if needed, then type ``text``."""
        if node.focused:
            self._moved()
            return f"K {text}"
        return self.tap(label)


#: The floating text toolbar's items (Cut, Copy, Paste) carry this id.
TOOLBAR_ITEM = "android:id/floating_toolbar_menu_item_text"


def toolbar_item(screen: LabelledScreen, name: str) -> str | None:
    """The label of the selection toolbar's ``name`` item (Cut, Copy, Paste), if it shows."""
    hit = find(screen, lambda n: n.resource_id == TOOLBAR_ITEM and n.text == name)
    return hit[0] if hit else None


def paste_step(oracle: ScriptedOracle, screen: LabelledScreen, label: str) -> str:
    """Paste into the field labelled ``label``: a long press brings the toolbar, then Paste."""
    paste = toolbar_item(screen, "Paste")
    return oracle.tap(paste) if paste else f"P {label}"


def time_picker_step(oracle: ScriptedOracle, screen: LabelledScreen, hour: int, minute: int) -> str:
    """The next move on the platform's time picker (``TimePickerDialog``, 12-hour): to its text
    mode, type the hour and the minute, AM / PM, then OK."""
    hour_field = find(screen, by_id("android:id/input_hour"))
    if hour_field is None:
        toggle = label_for(screen, rid="android:id/toggle_mode")
        return oracle.tap(toggle) if toggle else "B"
    shown = str(hour % 12 or 12)
    if hour_field[1].text != shown:
        return oracle.type_into(screen, hour_field[1], hour_field[0], shown)
    minute_field = find(screen, by_id("android:id/input_minute"))
    if minute_field is not None and minute_field[1].text != f"{minute:02d}":
        return oracle.type_into(screen, minute_field[1], minute_field[0], f"{minute:02d}")
    spinner = find(screen, by_id("android:id/am_pm_spinner"))
    if spinner is not None and spinner[1].text != ("PM" if hour >= 12 else "AM"):
        return oracle.tap(spinner[0])
    ok = label_for(screen, text="OK")
    return oracle.tap(ok) if ok else "B"
