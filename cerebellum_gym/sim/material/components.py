"""Material components as the simulator's widgets, drawn with the metrics of Material Components
for Android 1.x (``lib/java/com/google/android/material/*/res/values/dimens.xml`` and ``styles.xml``
at tag 1.6.0; M3 where ``m3=True``), in device pixels of the 1080x2400 screen (:func:`dp`).

Each is a :class:`~cerebellum_gym.sim.widgets.Widget`: the layout places it, ``encode`` gives its
accessibility node (the class name uiautomator reports for the real component), ``paint`` draws
its tile, and ``render_key`` holds everything its pixels depend on, theme included, so tiles stay
cached across frames and phones. Class names are distinct from :mod:`widgets`' (the tile cache
keys on them).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.material import LIGHT, Theme, dp, sp
from cerebellum_gym.sim.render import draw_icon, font, text_fit
from cerebellum_gym.sim.widgets import Callback, TextField, Widget

# Material Components for Android 1.6.0, by the resource each figure comes from.
TOOLBAR_HEIGHT: Final = dp(56)  # abc_action_bar_default_height_material (?attr/actionBarSize)
TOOLBAR_HEIGHT_M3: Final = dp(64)  # m3_appbar_size_compact
TOOLBAR_TITLE_SP: Final = 20  # TextAppearance.MaterialComponents.Headline6 (medium)
TOOLBAR_TITLE_SP_M3: Final = 22  # TextAppearance.Material3.TitleLarge (regular)
TOOLBAR_INSET: Final = dp(16)  # contentInsetStart
TOOLBAR_INSET_WITH_NAV: Final = dp(72)  # contentInsetStartWithNavigation
ICON_BUTTON: Final = dp(48)  # Widget.AppCompat.Toolbar.Button.Navigation min width
ICON: Final = dp(24)
FAB_SIZE: Final = dp(56)  # design_fab_size_normal
FAB_MARGIN: Final = dp(16)
CHIP_HEIGHT: Final = dp(32)  # chipMinHeight
CHIP_TEXT_SP: Final = 14  # mtrl_chip_text_size
BOTTOM_NAV_HEIGHT: Final = dp(56)  # design_bottom_navigation_height
BOTTOM_NAV_HEIGHT_M3: Final = dp(80)  # m3_bottom_nav_min_height
TEXT_FIELD_HEIGHT: Final = dp(56)  # outlined box, 16sp input
TEXT_FIELD_CORNER: Final = dp(4)  # mtrl_textinput_box_corner_radius_medium
LIST_ONE_LINE: Final = dp(56)
LIST_TWO_LINE: Final = dp(72)
CHECKBOX_BOX: Final = dp(18)
MIN_TOUCH: Final = dp(48)


@dataclass(frozen=True)
class DialogMetrics:
    """An AlertDialog's box (MaterialAlertDialogBuilder): insets from the screen's edges, corner,
    padding and type sizes, M2 or M3."""

    inset_x: int = dp(24)  # mtrl_alert_dialog_background_inset_start/end
    inset_y: int = dp(80)  # mtrl_alert_dialog_background_inset_top/bottom
    corner: int = dp(4)  # M2 medium component shape; M3: m3_alert_dialog_corner_size 28dp
    padding: int = dp(24)
    title_sp: int = 20  # Headline6; M3 HeadlineSmall 24sp
    message_sp: int = 16  # Body1; M3 BodyMedium 14sp
    button_sp: int = 14  # Button (medium, caps in M2)
    button_bar: int = dp(52)  # 8dp padding around 36dp buttons

    @classmethod
    def m3(cls) -> DialogMetrics:
        return cls(corner=dp(28), title_sp=24, message_sp=14)


def _sp(value: float, scale: float) -> int:
    return max(1, round(sp(value) * scale))


def _center_text(draw: ImageDraw.ImageDraw, cx: float, cy: float, text: str, size: int, weight: render.Weight, fill: render.RGB) -> None:
    draw.text((cx, cy), text, font=font(size, weight), fill=fill, anchor="mm")


class MaterialIconButton(Widget):
    """An ``ImageButton`` showing a Material icon by name, labelled by its ``content-desc``."""

    class_name = "android.widget.ImageButton"
    default_height = ICON_BUTTON

    def __init__(self, desc: str, icon: str, *, theme: Theme = LIGHT, color: render.RGB | None = None, **kwargs: object) -> None:
        super().__init__(desc=desc, **kwargs)  # type: ignore[arg-type]
        self.icon = icon
        self.theme = theme
        self.color = color if color is not None else theme.on_surface
        self.background = theme.surface if "background" not in kwargs else self.background

    def render_key(self) -> Hashable:
        return (self.icon, self.color, self.background, self.enabled)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = max(4, round(ICON * scale))
        box = ((width - size) / 2, (height - size) / 2, (width + size) / 2, (height + size) / 2)
        draw_icon(draw, self.icon, box, self.color if self.enabled else self.theme.on_surface_variant)


class ActionMenuItem(MaterialIconButton):
    """A toolbar menu item shown as its icon (``ActionMenuItemView``: a Button whose
    content-desc is the item's title)."""

    class_name = "android.widget.Button"


class OverflowButton(MaterialIconButton):
    """A toolbar's "More options": an ``ImageView`` (``OverflowMenuButton``) with its description."""

    class_name = "android.widget.ImageView"

    def __init__(self, *, on_tap: Callback, theme: Theme = LIGHT) -> None:
        super().__init__("More options", "more_vert", theme=theme, on_tap=on_tap)


class TopAppBar(Widget):
    """A ``Toolbar``: the navigation button, the title, and action buttons at the end."""

    class_name = "android.view.ViewGroup"

    def __init__(
        self,
        title: str,
        *,
        navigation: MaterialIconButton | None = None,
        actions: Sequence[MaterialIconButton] = (),
        theme: Theme = LIGHT,
        m3: bool = False,
        **kwargs: object,
    ) -> None:
        kwargs.setdefault("height", TOOLBAR_HEIGHT_M3 if m3 else TOOLBAR_HEIGHT)
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.title = title
        self.navigation = navigation
        self.actions = list(actions)
        self.theme = theme
        self.m3 = m3
        self.background = theme.surface

    def render_key(self) -> Hashable:
        return (self.title, self.navigation is not None, len(self.actions), self.theme, self.m3)

    def _title_left(self) -> int:
        return TOOLBAR_INSET_WITH_NAV if self.navigation is not None else TOOLBAR_INSET

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = _sp(TOOLBAR_TITLE_SP_M3 if self.m3 else TOOLBAR_TITLE_SP, scale)
        weight: render.Weight = "regular" if self.m3 else "medium"
        left = round(self._title_left() * scale)
        right = width - round((dp(4) + ICON_BUTTON * len(self.actions)) * scale)
        shown = text_fit(draw, self.title, size, max(1, right - left), weight)
        draw.text((left, height / 2), shown, font=font(size, weight), fill=self.theme.on_surface, anchor="lm")

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title, self.navigation is not None, len(self.actions))

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.text = ""  # the title is a TextView of its own, after the navigation button
        return node

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        mid = (top + bottom) // 2
        half = ICON_BUTTON // 2
        placed: list[tuple[Widget, Bounds]] = []
        if self.navigation is not None:
            placed.append((self.navigation, (left + dp(4), mid - half, left + dp(4) + ICON_BUTTON, mid + half)))
        end = right - dp(4) - ICON_BUTTON * len(self.actions)
        placed.append((_BarTitle(self.title), (left + self._title_left(), top, end, bottom)))
        x = right - dp(4) - ICON_BUTTON * len(self.actions)
        for action in self.actions:
            placed.append((action, (x, mid - half, x + ICON_BUTTON, mid + half)))
            x += ICON_BUTTON
        return placed


class _BarTitle(Widget):
    """The toolbar's title as the tree shows it (the bar paints it)."""

    class_name = "android.widget.TextView"
    opaque = False

    def __init__(self, title: str) -> None:
        super().__init__(text=title)


class Fab(Widget):
    """A ``FloatingActionButton``: 56 dp, round (M2) or a 16 dp rounded square (M3), a 24 dp icon.
    :func:`fab_bounds` places it 16 dp from the screen's bottom-right corner."""

    class_name = "android.widget.ImageButton"
    default_height = FAB_SIZE

    def __init__(self, desc: str, icon: str = "add", *, theme: Theme = LIGHT, m3: bool = False, **kwargs: object) -> None:
        super().__init__(desc=desc, **kwargs)  # type: ignore[arg-type]
        self.icon = icon
        self.theme = theme
        self.m3 = m3
        if "background" not in kwargs:
            self.background = _page(theme)  # the corners show the window behind the button

    def render_key(self) -> Hashable:
        return (self.icon, self.theme, self.m3, self.background)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        side = min(width, height)
        x0, y0 = (width - side) // 2, (height - side) // 2
        radius = round(dp(16) * scale) if self.m3 else side // 2
        draw.rounded_rectangle((x0, y0, x0 + side - 1, y0 + side - 1), radius=radius, fill=self.theme.primary)
        size = max(4, round(ICON * scale))
        box = ((width - size) / 2, (height - size) / 2, (width + size) / 2, (height + size) / 2)
        draw_icon(draw, self.icon, box, self.theme.on_primary)


def fab_bounds(screen: Bounds) -> Bounds:
    """Where a FAB sits in ``screen`` (the app's window): 16 dp from its right and bottom edges."""
    _, _, right, bottom = screen
    return (right - FAB_MARGIN - FAB_SIZE, bottom - FAB_MARGIN - FAB_SIZE, right - FAB_MARGIN, bottom - FAB_MARGIN)


class Chip(Widget):
    """A ``Chip``: 32 dp high, 14 sp text, a check icon when ``checked``; checkable chips report
    ``CompoundButton`` as their class, the others ``Button`` (``Chip.getAccessibilityClassName``)."""

    default_height = CHIP_HEIGHT

    def __init__(self, text: str, *, checked: bool | None = None, theme: Theme = LIGHT, m3: bool = False, **kwargs: object) -> None:
        super().__init__(text=text, **kwargs)  # type: ignore[arg-type]
        self.checked = checked
        self.theme = theme
        self.m3 = m3

    @property
    def class_name(self) -> str:  # type: ignore[override]
        return "android.widget.CompoundButton" if self.checked is not None else "android.widget.Button"

    def render_key(self) -> Hashable:
        return (self.text, self.checked, self.theme, self.m3, self.background)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        h = min(height, round(CHIP_HEIGHT * scale))
        top = (height - h) // 2
        radius = round(dp(8) * scale) if self.m3 else h // 2
        on = bool(self.checked)
        fill = _mix(self.theme.primary, self.theme.surface, 0.24) if on else _mix(self.theme.on_surface, self.theme.surface, 0.12)
        draw.rounded_rectangle((0, top, width - 1, top + h - 1), radius=radius, fill=fill)
        size = _sp(CHIP_TEXT_SP, scale)
        left = round(dp(12) * scale)
        if on:
            icon = round(dp(18) * scale)
            draw_icon(
                draw,
                "check",
                (left - round(dp(4) * scale), (height - icon) / 2, left - round(dp(4) * scale) + icon, (height + icon) / 2),
                self.theme.on_surface,
            )
            left += icon + round(dp(4) * scale)
        shown = text_fit(draw, self.text, size, max(1, width - left - round(dp(12) * scale)))
        draw.text((left, height / 2), shown, font=font(size), fill=self.theme.on_surface, anchor="lm")

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.checked)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.class_name = self.class_name
        if self.checked is not None:
            node.checkable, node.checked = True, self.checked
        return node


class Card(Widget):
    """A ``MaterialCardView`` (a ``FrameLayout``) holding ``items`` stacked, 16 dp in from its
    edges; corners 4 dp (M2) or 12 dp (M3), a 1 dp outline standing for its elevation."""

    class_name = "android.widget.FrameLayout"

    def __init__(self, items: Sequence[Widget], *, theme: Theme = LIGHT, m3: bool = False, margin: int = dp(8), **kwargs: object) -> None:
        self.items = list(items)
        self.margin = margin
        kwargs.setdefault("height", sum(item.height for item in self.items) + 2 * margin + 2 * dp(8))
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.theme = theme
        self.m3 = m3
        self.background = _page(theme)

    def render_key(self) -> Hashable:
        return (self.theme, self.m3)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        m = round(self.margin * scale)
        inset = round(dp(8) * scale)
        radius = round(dp(12 if self.m3 else 4) * scale)
        draw.rounded_rectangle(
            (inset, m, width - 1 - inset, height - 1 - m),
            radius=radius,
            fill=_card_fill(self.theme),
            outline=self.theme.divider,
            width=max(1, round(dp(1) * scale)),
        )

    def tree_key(self) -> Hashable:
        return (super().tree_key(), len(self.items), tuple(item.height for item in self.items))

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, _ = bounds
        y = top + self.margin + dp(8)
        placed: list[tuple[Widget, Bounds]] = []
        for item in self.items:
            item.background = _card_fill(self.theme)
            placed.append((item, (left + dp(16), y, right - dp(16), y + item.height)))
            y += item.height
        return placed


@dataclass(frozen=True)
class NavItem:
    label: str
    icon: str
    on_tap: Callback | None = None


class BottomNavigation(Widget):
    """A ``BottomNavigationView``: 56 dp (M2) or 80 dp (M3), one ``FrameLayout`` item per
    destination with its label as ``content-desc`` and a ``TextView`` child; the selected one is
    ``selected``."""

    class_name = "android.widget.FrameLayout"

    def __init__(self, items: Sequence[NavItem], selected: int, *, theme: Theme = LIGHT, m3: bool = False, **kwargs: object) -> None:
        kwargs.setdefault("height", BOTTOM_NAV_HEIGHT_M3 if m3 else BOTTOM_NAV_HEIGHT)
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.theme = theme
        self.m3 = m3
        self.background = theme.surface
        self.items = [_NavButton(item, i == selected, theme, m3) for i, item in enumerate(items)]

    def render_key(self) -> Hashable:
        return (self.theme,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        draw.line((0, 0, width, 0), fill=self.theme.divider, width=max(1, round(dp(1) * scale)))

    def tree_key(self) -> Hashable:
        return (super().tree_key(), len(self.items))

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        cell = (right - left) / max(1, len(self.items))
        return [(b, (round(left + i * cell), top + 1, round(left + (i + 1) * cell), bottom)) for i, b in enumerate(self.items)]


class _NavButton(Widget):
    class_name = "android.widget.FrameLayout"

    def __init__(self, item: NavItem, selected: bool, theme: Theme, m3: bool) -> None:
        super().__init__(desc=item.label, on_tap=item.on_tap, selected=selected, background=theme.surface)
        self.icon = item.icon
        self.theme = theme
        self.m3 = m3

    def render_key(self) -> Hashable:
        return (self.desc, self.icon, self.selected, self.theme, self.m3)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        color = self.theme.primary if self.selected else self.theme.on_surface_variant
        icon = max(4, round(ICON * scale))
        cy = height * (0.38 if self.m3 else 0.36)
        if self.m3 and self.selected:  # the active indicator: a 64 x 32 dp pill behind the icon
            w, h = round(dp(64) * scale), round(dp(32) * scale)
            draw.rounded_rectangle(
                ((width - w) / 2, cy - h / 2, (width + w) / 2, cy + h / 2),
                radius=h // 2,
                fill=_mix(self.theme.primary, self.theme.surface, 0.24),
            )
            color = self.theme.on_surface
        draw_icon(draw, self.icon, ((width - icon) / 2, cy - icon / 2, (width + icon) / 2, cy + icon / 2), color)
        size = _sp(14 if self.selected and not self.m3 else 12, scale)
        label = text_fit(draw, self.desc, size, width - 2, "medium")
        _center_text(draw, width / 2, height * 0.76, label, size, "medium", color)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        left, top, right, bottom = bounds
        mid = top + (bottom - top) * 3 // 5
        node.children = [
            UINode("android.widget.TextView", (left, mid, right, bottom - dp(8)), text=self.desc, package=package, selected=self.selected)
        ]
        return node


class OutlinedTextField(TextField):
    """A ``TextInputLayout`` in its outlined style around an ``EditText``: a 56 dp box, a 1 dp
    outline (2 dp in the primary colour when focused), and the label inside the box while the
    field is empty and unfocused, floating on the outline (12 sp) otherwise."""

    default_height = TEXT_FIELD_HEIGHT + dp(16)

    def __init__(
        self, key: str, value: str, *, label: str, on_change: Callable[[str], None], theme: Theme = LIGHT, **kwargs: object
    ) -> None:
        super().__init__(key, value, hint=label, on_change=on_change, **kwargs)  # type: ignore[arg-type]
        self.theme = theme
        self.background = _page(theme)

    def render_key(self) -> Hashable:
        return (super().render_key(), self.theme)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        t = self.theme
        side = round(dp(16) * scale)
        box_h = round(TEXT_FIELD_HEIGHT * scale)
        top = (height - box_h) // 2
        stroke = max(1, round(dp(2 if self.focused else 1) * scale))
        color = t.primary if self.focused else t.outline
        draw.rounded_rectangle((side, top, width - side, top + box_h), radius=round(TEXT_FIELD_CORNER * scale), outline=color, width=stroke)
        inner = side + round(dp(16) * scale)
        body = _sp(16, scale)
        floating = self.focused or bool(self.value)
        if self.hint and floating:
            small = _sp(12, scale)
            shown = text_fit(draw, self.hint, small, width - 2 * inner)
            lw = draw.textlength(shown, font=font(small))
            cut = round(dp(4) * scale)  # mtrl_textinput_box_label_cutout_padding
            draw.rectangle((inner - cut, top - stroke, inner + lw + cut, top + stroke), fill=self.background)
            draw.text((inner, top), shown, font=font(small), fill=color if self.focused else t.on_surface_variant, anchor="lm")
        text = ("•" * len(self.value) if self.password else self.value).replace("\n", " ")
        if not floating:
            text = self.hint
        shown = text_fit(draw, text, body, max(1, width - 2 * inner))
        draw.text((inner, top + box_h / 2), shown, font=font(body), fill=t.on_surface if self.value else t.on_surface_variant, anchor="lm")
        if self.focused:
            cx = inner + (draw.textlength(shown, font=font(body)) if self.value else 0) + 1
            draw.line((cx, top + box_h / 2 - body / 2, cx, top + box_h / 2 + body / 2), fill=t.primary, width=max(1, stroke))


class Checkbox(Widget):
    """A ``CheckBox`` with its label: an 18 dp box (2 dp stroke, filled with a check when
    checked) in a 48 dp touch target, the label in 16 sp after it."""

    class_name = "android.widget.CheckBox"
    default_height = MIN_TOUCH

    def __init__(self, text: str, checked: bool, *, on_toggle: Callback, theme: Theme = LIGHT, **kwargs: object) -> None:
        super().__init__(text=text, on_tap=on_toggle, **kwargs)  # type: ignore[arg-type]
        self.checked = checked
        self.theme = theme
        self.background = _page(theme)

    def render_key(self) -> Hashable:
        return (self.text, self.checked, self.enabled, self.theme)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        t = self.theme
        box = max(3, round(CHECKBOX_BOX * scale))
        x0 = round((dp(16) + (MIN_TOUCH - CHECKBOX_BOX) / 2 - dp(12)) * scale)
        y0 = (height - box) // 2
        color = t.primary if self.checked else t.on_surface_variant
        radius = max(0, round(dp(2) * scale))
        if self.checked:
            draw.rounded_rectangle((x0, y0, x0 + box, y0 + box), radius=radius, fill=color)
            draw_icon(draw, "check", (x0, y0, x0 + box, y0 + box), t.on_primary)
        else:
            draw.rounded_rectangle((x0, y0, x0 + box, y0 + box), radius=radius, outline=color, width=max(1, round(dp(2) * scale)))
        left = x0 + box + round(dp(16) * scale)
        size = _sp(16, scale)
        shown = text_fit(draw, self.text, size, max(1, width - left - round(dp(16) * scale)))
        draw.text((left, height / 2), shown, font=font(size), fill=t.on_surface if self.enabled else t.on_surface_variant, anchor="lm")

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.checked)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.checkable, node.checked = True, self.checked
        return node


class MaterialSwitch(Widget):
    """A settings row with a ``Switch`` at its end: M2's ``SwitchMaterial`` (a 34 x 14 dp track,
    a 20 dp thumb) or M3's ``MaterialSwitch`` (a 52 x 32 dp track, a 24 dp thumb when on, 16 dp
    off). The row is the click target; the switch node is ``checkable``."""

    class_name = "android.widget.LinearLayout"
    default_height = LIST_ONE_LINE

    def __init__(self, text: str, checked: bool, *, on_toggle: Callback, theme: Theme = LIGHT, m3: bool = False, **kwargs: object) -> None:
        super().__init__(on_tap=on_toggle, **kwargs)  # type: ignore[arg-type]
        self.label = text
        self.checked = checked
        self.theme = theme
        self.m3 = m3
        self.background = theme.surface

    def _track(self) -> tuple[int, int]:
        return (dp(52), dp(32)) if self.m3 else (dp(34), dp(14))

    def render_key(self) -> Hashable:
        return (self.label, self.checked, self.enabled, self.theme, self.m3)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        t = self.theme
        tw, th = (max(2, round(v * scale)) for v in self._track())
        right = width - round(dp(16) * scale)
        top = (height - th) // 2
        on = self.checked and self.enabled
        if self.m3:
            fill = t.primary if on else t.surface
            draw.rounded_rectangle(
                (right - tw, top, right, top + th),
                radius=th // 2,
                fill=fill,
                outline=None if on else t.outline,
                width=max(1, round(dp(2) * scale)),
            )
            knob = max(1, round(dp(24 if on else 16) * scale))
            kx = right - th / 2 - knob / 2 if on else right - tw + th / 2 - knob / 2
            draw.ellipse((kx, height / 2 - knob / 2, kx + knob, height / 2 + knob / 2), fill=t.on_primary if on else t.outline)
        else:
            draw.rounded_rectangle(
                (right - tw, top, right, top + th), radius=th // 2, fill=_mix(t.primary, t.surface, 0.5) if on else (189, 189, 189)
            )
            knob = max(1, round(dp(20) * scale))
            kx = right - knob if on else right - tw
            draw.ellipse(
                (kx, height / 2 - knob / 2, kx + knob, height / 2 + knob / 2), fill=t.primary if on else (236, 236, 236), outline=t.divider
            )
        left = round(dp(16) * scale)
        size = _sp(16, scale)
        shown = text_fit(draw, self.label, size, max(1, right - tw - 2 * left))
        draw.text((left, height / 2), shown, font=font(size), fill=t.on_surface if self.enabled else t.on_surface_variant, anchor="lm")

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.label, self.checked, self.m3)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        row = super().encode(bounds, package)
        left, top, right, bottom = bounds
        tw, _ = self._track()
        end = right - dp(16)
        mid = (top + bottom) // 2
        switch_w = max(tw, MIN_TOUCH)
        row.children = [
            UINode(
                "android.widget.TextView",
                (left + dp(16), top, end - switch_w - dp(16), bottom),
                text=self.label,
                package=package,
                enabled=self.enabled,
            ),
            UINode(
                "android.widget.Switch",
                (end - switch_w, mid - MIN_TOUCH // 2, end, mid + MIN_TOUCH // 2),
                package=package,
                checkable=True,
                checked=self.checked,
                enabled=self.enabled,
                index=1,
            ),
        ]
        return row


class MaterialListItem(Widget):
    """A list item: one line (56 dp) or two (72 dp), 16 sp title and 14 sp secondary text, 16 dp
    padding, an optional leading icon (a 24 dp Material icon; the text then starts at 72 dp)."""

    class_name = "android.widget.LinearLayout"
    lines: ClassVar[tuple[int, int]] = (LIST_ONE_LINE, LIST_TWO_LINE)

    def __init__(self, title: str, secondary: str = "", *, icon: str = "", theme: Theme = LIGHT, **kwargs: object) -> None:
        kwargs.setdefault("height", LIST_TWO_LINE if secondary else LIST_ONE_LINE)
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.title = title
        self.secondary = secondary
        self.icon = icon
        self.theme = theme
        self.background = theme.surface

    def _text_left(self) -> int:
        return dp(72) if self.icon else dp(16)

    def render_key(self) -> Hashable:
        return (self.title, self.secondary, self.icon, self.selected, self.enabled, self.theme)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        t = self.theme
        if self.selected:
            draw.rectangle((0, 0, width, height), fill=_mix(t.primary, t.surface, 0.12))
        if self.icon:
            icon = max(4, round(ICON * scale))
            x = round(dp(16) * scale)
            draw_icon(draw, self.icon, (x, (height - icon) / 2, x + icon, (height + icon) / 2), t.on_surface_variant)
        left = round(self._text_left() * scale)
        max_w = max(1, width - left - round(dp(16) * scale))
        title_size, second_size = _sp(16, scale), _sp(14, scale)
        color = t.on_surface if self.enabled else t.on_surface_variant
        if self.secondary:
            draw.text(
                (left, height / 2 - round(dp(10) * scale)),
                text_fit(draw, self.title, title_size, max_w),
                font=font(title_size),
                fill=color,
                anchor="lm",
            )
            draw.text(
                (left, height / 2 + round(dp(12) * scale)),
                text_fit(draw, self.secondary, second_size, max_w),
                font=font(second_size),
                fill=t.on_surface_variant,
                anchor="lm",
            )
        else:
            draw.text((left, height / 2), text_fit(draw, self.title, title_size, max_w), font=font(title_size), fill=color, anchor="lm")

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title, self.secondary, bool(self.icon))

    def encode(self, bounds: Bounds, package: str) -> UINode:
        row = super().encode(bounds, package)
        left, top, right, bottom = bounds
        text_left, mid = left + self._text_left(), (top + bottom) // 2
        end = right - dp(16)
        title_box = (text_left, top + dp(8), end, mid if self.secondary else bottom - dp(8))
        row.children = [
            UINode(
                "android.widget.TextView", title_box, text=self.title, resource_id="android:id/title", package=package, enabled=self.enabled
            )
        ]
        if self.secondary:
            row.children.append(
                UINode(
                    "android.widget.TextView",
                    (text_left, mid, end, bottom - dp(8)),
                    text=self.secondary,
                    resource_id="android:id/summary",
                    package=package,
                    index=1,
                )
            )
        return row


def _mix(a: render.RGB, b: render.RGB, amount: float) -> render.RGB:
    """``a`` laid over ``b`` at ``amount`` opacity (Material's state and container tints)."""
    return (
        round(a[0] * amount + b[0] * (1 - amount)),
        round(a[1] * amount + b[1] * (1 - amount)),
        round(a[2] * amount + b[2] * (1 - amount)),
    )


def _page(theme: Theme) -> render.RGB:
    """The window background behind components: the theme's surface, a shade off it."""
    return theme.surface if theme.dark else (250, 250, 252)


def _card_fill(theme: Theme) -> render.RGB:
    """A card's colour: the surface, lifted by a 5% white overlay in a dark theme (elevation 1 dp)."""
    return _mix((255, 255, 255), theme.surface, 0.05) if theme.dark else theme.surface
