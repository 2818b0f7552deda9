"""Simple Mobile Tools' shared widgets (the Simple-Commons library): the top search bar
``MySearchMenu`` (``commons/src/main/res/layout/menu_search.xml``), the ``MaterialToolbar`` its
activities set up with a "Back" arrow (``NavigationIcon.Arrow``), the ``MyFloatingActionButton``
and the popup menus' entries. Simple SMS Messenger, Simple Gallery Pro and Simple Draw Pro use them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.material import Theme, dp
from cerebellum_gym.sim.material.components import ICON_BUTTON, Fab, MaterialIconButton, TopAppBar
from cerebellum_gym.sim.widgets import Callback, TextField, Widget

#: Simple Mobile Tools' default colours (commons ``colors.xml``: ``color_primary`` #F57C00,
#: ``default_background_color`` white with ``default_text_color`` #333333 on the light theme).
SIMPLE_THEME = Theme(
    primary=(245, 124, 0),
    on_primary=(255, 255, 255),
    surface=(255, 255, 255),
    on_surface=(51, 51, 51),
    on_surface_variant=(119, 119, 119),
    outline=(160, 160, 160),
    divider=(221, 221, 221),
)
#: The search bar's pill (commons ``search_menu_background``: the text colour at low alpha).
SEARCH_FILL = (238, 238, 238)


class SimpleToolbar(TopAppBar):
    """An activity's ``MaterialToolbar`` as Simple-Commons sets it up: a "Back" arrow, the title,
    action items; ``rid`` names the toolbar (``thread_toolbar``, ``new_conversation_toolbar``)."""

    def __init__(self, title: str, *, back: Callback | None, actions: Sequence[MaterialIconButton] = (), **kwargs: object) -> None:
        navigation = MaterialIconButton("Back", "arrow_back", theme=SIMPLE_THEME, on_tap=back) if back is not None else None
        super().__init__(title, navigation=navigation, actions=actions, theme=SIMPLE_THEME, **kwargs)  # type: ignore[arg-type]


class SearchMenu(Widget):
    """``MySearchMenu``: the ``top_app_bar_layout`` (56 dp, 16 dp in from the sides) holding a
    rounded bar 8 dp in from its top and bottom: the search icon, the ``top_toolbar_search``
    field (hint "Search" unless the app sets another) and the ``top_toolbar`` with the app's
    menu items."""

    class_name = "android.widget.LinearLayout"

    def __init__(self, field: TextField, actions: Sequence[MaterialIconButton], *, package: str, back: Callback | None = None) -> None:
        super().__init__(height=dp(56), rid=f"{package}:id/top_app_bar_layout")
        self.field = field
        #: ``toggleForceArrowBackIcon``: the search icon turns into a "Back" arrow.
        self.back = back
        self.actions = list(actions)
        self.package = package
        self.background = SIMPLE_THEME.surface
        for action in self.actions:
            action.background = SEARCH_FILL
        field.background = SEARCH_FILL
        plain(field)

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        return (super().tree_key(), len(self.actions), self.back is not None)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        node.bounds = (left + dp(16), top, right - dp(16), bottom)  # its 16 dp side margins
        return node

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        m, top = round(dp(16) * scale), round(dp(8) * scale)
        draw.rounded_rectangle((m, top, width - m, height - top), radius=(height - 2 * top) // 2, fill=SEARCH_FILL)

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        left, right, top, bottom = left + dp(16), right - dp(16), top + dp(8), bottom - dp(8)
        toolbar_left = right - dp(4) - ICON_BUTTON * len(self.actions)
        icon = _SearchIcon(rid=f"{self.package}:id/top_toolbar_search_icon", desc="Back" if self.back else "", on_tap=self.back)
        icon.icon = "arrow_back" if self.back else "search"
        placed: list[tuple[Widget, Bounds]] = [
            (icon, (left, top, left + dp(40), bottom)),
            (self.field, (left + dp(40), top, toolbar_left, bottom)),
        ]
        mid = (top + bottom) // 2
        x = toolbar_left
        for action in self.actions:
            placed.append((action, (x, mid - ICON_BUTTON // 2, x + ICON_BUTTON, mid + ICON_BUTTON // 2)))
            x += ICON_BUTTON
        return placed


class _SearchIcon(Widget):
    class_name = "android.widget.ImageView"
    background = SEARCH_FILL
    icon = "search"

    def render_key(self) -> Hashable:
        return (self.icon,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(24) * scale)
        x0 = round(dp(16) * scale)
        render.draw_icon(draw, self.icon, (x0, (height - size) / 2, x0 + size, (height + size) / 2), SIMPLE_THEME.on_surface)


class SimpleFab(Fab):
    """``MyFloatingActionButton``: a round FAB in the app's primary colour, no description."""

    def __init__(self, icon: str, *, rid: str, on_tap: Callback, theme: Theme = SIMPLE_THEME) -> None:
        super().__init__("", icon, theme=theme, rid=rid, on_tap=on_tap, background=theme.surface)


class MenuEntry(Widget):
    """A popup menu's entry (the ``android:id/title`` TextView of its row)."""

    class_name = "android.widget.TextView"
    default_height = dp(48)

    def __init__(self, text: str, *, on_tap: Callback) -> None:
        super().__init__(text=text, rid="android:id/title", on_tap=on_tap)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(16) * scale)
        draw.text((round(dp(16) * scale), height / 2), self.text, font=render.font(size), fill=render.TEXT, anchor="lm")


def child(package: str, cls: str, bounds: Bounds, name: str = "", text: str = "", desc: str = "") -> UINode:
    """A plain node inside a row's own node (its ids in ``package``)."""
    return UINode(cls, bounds, text=text, content_desc=desc, resource_id=f"{package}:id/{name}" if name else "", package=package)


class InputLayout(Widget):
    """``MyTextInputLayout`` (a ``TextInputLayout``: a ``LinearLayout``) around its field."""

    class_name = "android.widget.LinearLayout"
    opaque = False

    def __init__(self, field: Widget, *, rid: str) -> None:
        super().__init__(height=field.height + dp(16), rid=rid)
        self.field = field

    def render_key(self) -> Hashable:
        return ()

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        return [(self.field, (left, top + dp(8), right, bottom - dp(8)))]


class Radio(Widget):
    """``MyCompatRadioButton``: a ``RadioButton``, checkable, its circle filled when checked."""

    class_name = "android.widget.RadioButton"
    default_height = dp(48)

    def __init__(self, text: str, checked: bool, **kwargs: object) -> None:
        super().__init__(text=text, **kwargs)  # type: ignore[arg-type]
        self.checked = checked

    def render_key(self) -> Hashable:
        return (self.text, self.checked)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.checked)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        r = round(dp(10) * scale)
        cx, cy = round(dp(16) * scale) + r, height / 2
        color = SIMPLE_THEME.primary if self.checked else SIMPLE_THEME.on_surface_variant
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=color, width=max(1, round(dp(2) * scale)))
        if self.checked:
            s = r // 2
            draw.ellipse((cx - s, cy - s, cx + s, cy + s), fill=color)
        size = round(dp(16) * scale)
        draw.text((cx + r + round(dp(16) * scale), cy), self.text, font=render.font(size), fill=SIMPLE_THEME.on_surface, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.checkable, node.checked = True, self.checked
        return node


class _PlainField(TextField):
    """An ``EditText`` with a transparent background (the search bar's, the compose box)."""

    def paint_frame(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> tuple[int, int]:
        pad = round(dp(12) * scale)
        draw.rectangle((0, 0, width, height), fill=self.background)
        if self.selected and self.value:
            draw.rectangle((pad, height // 4, width - pad, height - height // 4), fill=(255, 224, 178))
        return pad, 0


def plain(field: TextField) -> TextField:
    """``field`` drawn without the outlined box (its background shows through)."""
    if type(field) is TextField:
        field.__class__ = _PlainField
    return field
