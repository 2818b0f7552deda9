"""Material's ``BottomAppBar`` with a docked ``FloatingActionButton`` (Material Components 1.x:
``Widget.MaterialComponents.BottomAppBar``, ?attr/actionBarSize high, the FAB centred on its top
edge, ``fabAlignmentMode="center"``), and an AppCompat popup menu's row (``abc_popup_menu_item_layout``:
a ``ListMenuItemView`` with its ``title`` and, for a checkable item, its ``checkbox``).

The screen layout gives a fixed bottom bar more height than the 56 dp bar; the bar sits at the
bottom of what it is given and reports its own 56 dp bounds.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim.material import LIGHT, Theme, dp
from cerebellum_gym.sim.material.components import FAB_SIZE, ICON_BUTTON, TOOLBAR_HEIGHT, Fab, MaterialIconButton
from cerebellum_gym.sim.render import draw_icon, font, text_fit
from cerebellum_gym.sim.widgets import Callback, Widget


class BottomAppBar(Widget):
    """The bar: its navigation button at the start, action items and overflow at the end, and
    the FAB docked in the middle of its top edge (placed as the bar's last child)."""

    class_name = "android.view.ViewGroup"
    opaque = False

    def __init__(
        self,
        *,
        navigation: MaterialIconButton | None,
        actions: Sequence[MaterialIconButton],
        fab: Fab | None,
        color: tuple[int, int, int],
        leading: Sequence[Widget] = (),
        fab_end: bool = False,
        bar_height: int = TOOLBAR_HEIGHT,
        **kwargs: object,
    ) -> None:
        """``leading``: views laid inside the bar at its start (after the navigation button);
        ``fab_end``: the FAB embedded at the bar's end (M3's ``fabAlignmentMode="end"``) rather
        than docked in the middle of its top edge; ``bar_height``: 56 dp (M2) or 80 dp (M3)."""
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.navigation, self.actions, self.fab, self.color = navigation, list(actions), fab, color
        self.leading, self.fab_end, self.bar_height = list(leading), fab_end, bar_height
        for button in [navigation, *self.actions, *self.leading]:
            if button is not None:
                button.background = color

    def _bar(self, bounds: Bounds) -> Bounds:
        left, _top, right, bottom = bounds
        return (left, bottom - self.bar_height, right, bottom)

    def render_key(self) -> Hashable:
        return (self.color,)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.navigation is not None, len(self.actions), len(self.leading), self.fab is not None, self.fab_end)

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = self._bar(bounds)
        mid = (top + bottom) // 2
        half = ICON_BUTTON // 2
        placed: list[tuple[Widget, Bounds]] = [(_BarFill(self.color), (left, top, right, bottom))]
        x = left + dp(4)
        if self.navigation is not None:
            placed.append((self.navigation, (x, mid - half, x + ICON_BUTTON, mid + half)))
            x += ICON_BUTTON
        for view in self.leading:
            placed.append((view, (x, mid - half, x + ICON_BUTTON, mid + half)))
            x += ICON_BUTTON
        end = right - dp(4)
        if self.fab is not None and self.fab_end:
            end = right - dp(16) - FAB_SIZE - dp(4)
        x = end - ICON_BUTTON * len(self.actions)
        for action in self.actions:
            placed.append((action, (x, mid - half, x + ICON_BUTTON, mid + half)))
            x += ICON_BUTTON
        if self.fab is not None:
            half_fab = FAB_SIZE // 2
            cx, cy = ((right - dp(16) - half_fab), mid) if self.fab_end else ((left + right) // 2, top)
            placed.append((self.fab, (cx - half_fab, cy - half_fab, cx + half_fab, cy + half_fab)))
        return placed

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(self._bar(bounds), package)
        node.text = ""
        return node


class _BarFill(Widget):
    """The bar's coloured surface (a layout-only view: not in the tree's labelled lines)."""

    class_name = "android.view.View"

    def __init__(self, color: tuple[int, int, int]) -> None:
        super().__init__()
        self.background = color

    def render_key(self) -> Hashable:
        return (self.background,)


class DockedFab(Fab):
    """The FAB over the bar's top edge: the page shows above the edge, the bar's colour below."""

    def __init__(self, desc: str, icon: str = "add", *, bar: tuple[int, int, int], theme: Theme = LIGHT, **kwargs: object) -> None:
        super().__init__(desc, icon, theme=theme, **kwargs)  # type: ignore[arg-type]
        self.bar = bar

    def render_key(self) -> Hashable:
        return (super().render_key(), self.bar)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        draw.rectangle((0, height // 2, width, height), fill=self.bar)
        super().paint(draw, width, height, scale)


class PopupMenuItem(Widget):
    """A row of an overflow menu: the item's title, and a check box when the item is checkable."""

    class_name = "android.widget.LinearLayout"
    default_height = dp(48)

    def __init__(self, title: str, *, checked: bool | None = None, on_tap: Callback, theme: Theme = LIGHT, **kwargs: object) -> None:
        super().__init__(on_tap=on_tap, **kwargs)  # type: ignore[arg-type]
        self.title, self.checked, self.theme = title, checked, theme

    def render_key(self) -> Hashable:
        return (self.title, self.checked, self.theme)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title, self.checked)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = max(1, round(dp(16) * scale))
        right = width - round(dp(16) * scale)
        if self.checked is not None:
            box = max(3, round(dp(18) * scale))
            x0, y0 = right - box, (height - box) // 2
            color = self.theme.primary if self.checked else self.theme.on_surface_variant
            if self.checked:
                draw.rounded_rectangle((x0, y0, x0 + box, y0 + box), radius=max(0, round(dp(2) * scale)), fill=color)
                draw_icon(draw, "check", (x0, y0, x0 + box, y0 + box), self.theme.on_primary)
            else:
                draw.rounded_rectangle((x0, y0, x0 + box, y0 + box), radius=max(0, round(dp(2) * scale)), outline=color, width=2)
            right = x0 - round(dp(16) * scale)
        left = round(dp(16) * scale)
        shown = text_fit(draw, self.title, size, max(1, right - left))
        draw.text((left, height / 2), shown, font=font(size), fill=self.theme.on_surface, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        end = right - (dp(56) if self.checked is not None else dp(16))
        node.children = [
            UINode(
                "android.widget.TextView",
                (left + dp(16), top + dp(14), end, bottom - dp(14)),
                text=self.title,
                resource_id=f"{package}:id/title",
                package=package,
                index=0,
            )
        ]
        if self.checked is not None:
            node.children.append(
                UINode(
                    "android.widget.CheckBox",
                    (right - dp(48), top, right - dp(8), bottom),
                    resource_id=f"{package}:id/checkbox",
                    package=package,
                    checkable=True,
                    checked=self.checked,
                    focusable=False,
                    index=1,
                )
            )
        return node
