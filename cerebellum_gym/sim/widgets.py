"""Widgets of the simulated phone. Each owns its behaviour, its rendering and its encoding.

A widget is a short-lived description built by an app screen from the app's state: what to show
(``render_key``, ``paint``), how it appears in the accessibility tree (``encode``), and what a
touch does (``tap``, ``long_press``, ``drag``). Callbacks mutate app state; the phone rebuilds
the screen afterwards. Sizes are device pixels of the 1080x2400 logical screen.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, ClassVar

from PIL import ImageDraw

from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.render import RGB, font, layout_lines, text_fit

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

Callback = Callable[[], None]

ROW_HEIGHT = 189  # 72 dp at 2.625 px/dp: a two-line list item
SINGLE_ROW_HEIGHT = 147  # 56 dp
BODY_SIZE = 46
TITLE_SIZE = 58
SECONDARY_SIZE = 38
PAD = 63  # 24 dp
CENTERED_PAD = 10  # 4 dp: a centred label (a grid cell, a tab) uses its whole width
#: Roboto's line height over its size (ascent + descent: 1900 + 500 of 2048 units).
LINE_SPACING = 1.172
SELECTION = (200, 220, 252)


class Widget:
    """Base widget: a rectangle that may be tapped or long-pressed.

    Args:
        key: stable identity across rebuilds (text fields use it for focus).
        text, desc, rid: the ``text``, ``content-desc`` and ``resource-id`` it exposes.
        height: device pixels it takes in a vertical stack.
        on_tap, on_long_press: what a touch does; a widget with ``on_tap`` is clickable.
    """

    class_name: ClassVar[str] = "android.view.View"
    default_height: ClassVar[int] = SINGLE_ROW_HEIGHT
    background: RGB = render.SURFACE
    #: Whether the widget paints a tile of its own (pure containers do not).
    opaque: ClassVar[bool] = True

    def __init__(
        self,
        *,
        key: str = "",
        text: str = "",
        desc: str = "",
        rid: str = "",
        height: int | None = None,
        on_tap: Callback | None = None,
        on_long_press: Callback | None = None,
        enabled: bool = True,
        selected: bool = False,
        background: RGB | None = None,
    ) -> None:
        if background is not None:
            self.background = background
        self.key = key
        self.text = text
        self.desc = desc
        self.rid = rid
        self.height = height if height is not None else self.default_height
        self.on_tap = on_tap
        self.on_long_press = on_long_press
        self.enabled = enabled
        self.selected = selected

    # --- behaviour ---------------------------------------------------------------------------

    @property
    def clickable(self) -> bool:
        return self.on_tap is not None

    def tap(self, phone: Phone, x: int, y: int, bounds: Bounds) -> bool:
        """Handle a tap at ``(x, y)``; True when it did something."""
        if self.on_tap is not None and self.enabled:
            self.on_tap()
            return True
        return False

    def long_press(self, phone: Phone, x: int, y: int, bounds: Bounds) -> bool:
        if self.on_long_press is not None and self.enabled:
            self.on_long_press()
            return True
        return self.tap(phone, x, y, bounds)

    def drag(self, phone: Phone, x1: int, y1: int, x2: int, y2: int, bounds: Bounds) -> bool:
        """A swipe that starts on this widget; False lets the scroll container take it."""
        return False

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        """Child widgets placed inside ``bounds`` (hit-tested and painted after the parent)."""
        return ()

    # --- rendering ---------------------------------------------------------------------------

    def render_key(self) -> Hashable:
        """Everything that changes this widget's pixels (besides its size)."""
        return (self.text, self.desc, self.enabled, self.selected)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        """Draw onto a tile of ``width`` x ``height`` output pixels at ``scale``."""

    # --- encoding ----------------------------------------------------------------------------

    def tree_key(self) -> Hashable:
        """Everything :meth:`encode` and :meth:`children` read besides the bounds: two widgets
        with equal keys at equal bounds give equal nodes, so the screen's tree can be reused.
        Subclasses that read more attributes add them (a test replays random walks with every
        cached tree checked against a fresh one)."""
        return (
            type(self),
            self.text,
            self.desc,
            self.rid,
            self.on_tap is not None,
            self.on_long_press is not None,
            self.enabled,
            self.selected,
        )

    def encode(self, bounds: Bounds, package: str) -> UINode:
        """This widget as an accessibility node (children are added by the layout)."""
        return UINode(
            self.class_name,
            bounds,
            text=self.text,
            content_desc=self.desc,
            resource_id=self.rid,
            package=package,
            clickable=self.clickable,
            long_clickable=self.on_long_press is not None,
            focusable=self.clickable,
            enabled=self.enabled,
            selected=self.selected,
        )


def _draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: RGB, max_width: int) -> None:
    draw.text(xy, text_fit(draw, text, size, max_width), font=font(size), fill=fill)


class Text(Widget):
    """Text (``TextView``). As on Android it wraps onto as many lines as its height holds; with
    ``ellipsize`` it is one line ending in "…" when it does not fit (``singleLine`` with
    ``ellipsize="end"``). ``bold`` draws Roboto Medium."""

    class_name = "android.widget.TextView"
    default_height = 120

    def __init__(
        self,
        text: str,
        *,
        size: int = BODY_SIZE,
        color: RGB = render.TEXT,
        bold: bool = False,
        center: bool = False,
        ellipsize: bool = False,
        **kwargs: object,
    ) -> None:
        super().__init__(text=text, **kwargs)  # type: ignore[arg-type]
        self.size = size
        self.color = color
        self.bold = bold
        self.center = center
        self.ellipsize = ellipsize

    def render_key(self) -> Hashable:
        return (self.text, self.size, self.color, self.center, self.selected, self.background, self.bold, self.ellipsize)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(self.size * scale)
        pad = round((CENTERED_PAD if self.center else PAD) * scale)
        weight: render.Weight = "medium" if self.bold else "regular"
        line_h = max(1, round(size * LINE_SPACING))
        max_lines = 1 if self.ellipsize else max(1, height // line_h)
        lines = layout_lines(draw, self.text, size, max(1, width - 2 * pad), max_lines=max_lines, ellipsize=self.ellipsize, weight=weight)
        f = font(size, weight)
        top = (height - len(lines) * line_h) / 2
        for i, line in enumerate(lines):
            x = (width - draw.textlength(line, font=f)) / 2 if self.center else pad
            draw.text((x, top + (i + 0.5) * line_h), line, font=f, fill=self.color, anchor="lm")
        if self.selected:
            draw.rectangle((0, height - 4, width, height), fill=render.PRIMARY)


class Button(Widget):
    """A filled or text button."""

    class_name = "android.widget.Button"
    default_height = 147

    def __init__(self, text: str, *, filled: bool = True, **kwargs: object) -> None:
        super().__init__(text=text, **kwargs)  # type: ignore[arg-type]
        self.filled = filled

    def render_key(self) -> Hashable:
        return (self.text, self.filled, self.enabled)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        inset = max(1, round(16 * scale))
        color = render.PRIMARY if self.enabled else render.DISABLED
        if self.filled:
            draw.rounded_rectangle((inset, inset, width - inset, height - inset), radius=(height - 2 * inset) // 2, fill=color)
        size = round(BODY_SIZE * scale)
        ink = render.ON_PRIMARY if self.filled else color
        if self.text in render.LEGACY_GLYPHS:
            # A key whose text is a symbol Roboto lacks (Clock's "⌫"): its Material icon.
            icon = round(size * 1.4)
            box = ((width - icon) / 2, (height - icon) / 2, (width + icon) / 2, (height + icon) / 2)
            if render.draw_icon(draw, self.text, box, ink):
                return
        shown = text_fit(draw, self.text, size, width - 4 * inset)
        tw = draw.textlength(shown, font=font(size))
        draw.text(((width - tw) / 2, (height - size) / 2), shown, font=font(size), fill=ink)


class IconButton(Widget):
    """An image button drawn as a glyph; its name is in ``content-desc`` like a real one."""

    class_name = "android.widget.ImageButton"
    default_height = 147

    def __init__(self, desc: str, glyph: str, *, color: RGB = render.TEXT, round_fill: RGB | None = None, **kwargs: object) -> None:
        super().__init__(desc=desc, **kwargs)  # type: ignore[arg-type]
        self.glyph = glyph
        self.color = color
        self.round_fill = round_fill

    def render_key(self) -> Hashable:
        return (self.glyph, self.color, self.round_fill, self.enabled)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        if self.round_fill is not None:
            draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=min(width, height) // 3, fill=self.round_fill)
        size = round(64 * scale)
        box = ((width - size) / 2, (height - size) / 2, (width + size) / 2, (height + size) / 2)
        if not render.draw_icon(draw, self.glyph, box, self.color):
            tw = draw.textlength(self.glyph, font=font(size))
            draw.text(((width - tw) / 2, (height - size) / 2), self.glyph, font=font(size), fill=self.color)


class Switch(Widget):
    """A row with a label and an on/off switch (the row is the click target, like Settings)."""

    class_name = "android.widget.LinearLayout"
    default_height = ROW_HEIGHT

    def __init__(self, text: str, checked: bool, *, on_toggle: Callback, subtitle: str = "", **kwargs: object) -> None:
        super().__init__(text="", on_tap=on_toggle, **kwargs)  # type: ignore[arg-type]
        self.label = text
        self.checked = checked
        self.subtitle = subtitle

    def render_key(self) -> Hashable:
        return (self.label, self.subtitle, self.checked, self.enabled)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        pad = round(PAD * scale)
        size = round(BODY_SIZE * scale)
        track_w, track_h = round(130 * scale), round(70 * scale)
        right = width - pad
        top = (height - track_h) // 2
        on = self.checked and self.enabled
        draw.rounded_rectangle(
            (right - track_w, top, right, top + track_h), radius=track_h // 2, fill=render.PRIMARY if on else render.DISABLED
        )
        knob = max(1, track_h - 6)  # tiny screenshots (RL at 48 px) still draw a knob
        kx = right - knob - 3 if on else right - track_w + 3
        draw.ellipse((kx, top + 3, kx + knob, top + 3 + knob), fill=render.SURFACE)
        text_top = (height - size) / 2 if not self.subtitle else height / 2 - size - 2
        _draw_text(draw, (pad, text_top), self.label, size, render.TEXT if self.enabled else render.DISABLED, right - track_w - 2 * pad)
        if self.subtitle:
            _draw_text(
                draw, (pad, height / 2 + 4), self.subtitle, round(SECONDARY_SIZE * scale), render.TEXT_SECONDARY, right - track_w - 2 * pad
            )
        draw.line((0, height - 1, width, height - 1), fill=render.DIVIDER)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.label, self.subtitle, self.checked)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        row = super().encode(bounds, package)
        left, top, right, bottom = bounds
        mid = (top + bottom) // 2
        texts = [
            UINode(
                "android.widget.TextView",
                (left + PAD, top + 30, right - 230, mid if self.subtitle else bottom - 30),
                text=self.label,
                package=package,
                enabled=self.enabled,
                resource_id="android:id/title",
            )
        ]
        if self.subtitle:
            texts.append(
                UINode(
                    "android.widget.TextView",
                    (left + PAD, mid, right - 230, bottom - 30),
                    text=self.subtitle,
                    package=package,
                    resource_id="android:id/summary",
                )
            )
        switch = UINode(
            "android.widget.Switch",
            (right - PAD - 130, mid - 35, right - PAD, mid + 35),
            resource_id="android:id/switch_widget",
            package=package,
            checkable=True,
            checked=self.checked,
            enabled=self.enabled,
        )
        row.children = [*texts, switch]
        for i, child in enumerate(row.children):
            child.index = i
        return row


class ListItem(Widget):
    """A list row: optional avatar letter, a title, an optional subtitle and a chevron."""

    class_name = "android.widget.LinearLayout"
    default_height = ROW_HEIGHT

    def __init__(self, title: str, subtitle: str = "", *, avatar: str = "", avatar_color: RGB = render.PRIMARY, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.title = title
        self.subtitle = subtitle
        self.avatar = avatar
        self.avatar_color = avatar_color

    def render_key(self) -> Hashable:
        return (self.title, self.subtitle, self.avatar, self.avatar_color, self.selected, self.enabled)

    def _text_left(self) -> int:
        return PAD + (150 if self.avatar else 0)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        pad = round(PAD * scale)
        if self.selected:
            draw.rectangle((0, 0, width, height), fill=(222, 232, 252))
        if self.avatar:
            d = round(110 * scale)
            top = (height - d) // 2
            draw.ellipse((pad, top, pad + d, top + d), fill=self.avatar_color)
            asz = round(52 * scale)
            # Symbols Roboto lacks (a check, a folder mark) are Material icons.
            if self.avatar not in render.LEGACY_GLYPHS or not render.draw_icon(
                draw, self.avatar, (pad + (d - asz) / 2, top + (d - asz) / 2, pad + (d + asz) / 2, top + (d + asz) / 2), render.ON_PRIMARY
            ):
                draw.text((pad + d / 2, top + d / 2), self.avatar, font=font(asz), fill=render.ON_PRIMARY, anchor="mm")
        left = round(self._text_left() * scale)
        size = round(BODY_SIZE * scale)
        max_w = width - left - pad
        color = render.TEXT if self.enabled else render.DISABLED
        if self.subtitle:
            _draw_text(draw, (left, height / 2 - size - 2), self.title, size, color, max_w)
            _draw_text(draw, (left, height / 2 + 4), self.subtitle, round(SECONDARY_SIZE * scale), render.TEXT_SECONDARY, max_w)
        else:
            _draw_text(draw, (left, (height - size) / 2), self.title, size, color, max_w)
        draw.line((left, height - 1, width, height - 1), fill=render.DIVIDER)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.title, self.subtitle, bool(self.avatar))

    def encode(self, bounds: Bounds, package: str) -> UINode:
        row = super().encode(bounds, package)
        left, top, right, bottom = bounds
        text_left = left + self._text_left()
        mid = (top + bottom) // 2
        children = [
            UINode(
                "android.widget.TextView",
                (text_left, top + 30, right - PAD, mid if self.subtitle else bottom - 30),
                text=self.title,
                resource_id="android:id/title",
                package=package,
                enabled=self.enabled,
            )
        ]
        if self.subtitle:
            children.append(
                UINode(
                    "android.widget.TextView",
                    (text_left, mid, right - PAD, bottom - 30),
                    text=self.subtitle,
                    resource_id="android:id/summary",
                    package=package,
                    enabled=self.enabled,
                    index=1,
                )
            )
        row.children = children
        return row


class TextField(Widget):
    """An editable field (``EditText``). Focus follows the tap; typed text goes to ``on_change``.

    While empty it shows (and exposes as its text, like Android 8+) its hint.
    """

    class_name = "android.widget.EditText"
    default_height = 168

    def __init__(
        self,
        key: str,
        value: str,
        *,
        hint: str = "",
        on_change: Callable[[str], None],
        on_submit: Callback | None = None,
        focused: bool = False,
        password: bool = False,
        menu: Sequence[str] = (),
        on_menu: Callable[[str], None] | None = None,
        on_focus: Callback | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(key=key, text=value, **kwargs)  # type: ignore[arg-type]
        self.value = value
        self.hint = hint
        self.on_change = on_change
        self.on_submit = on_submit
        self.focused = focused
        self.password = password
        #: The floating text-selection toolbar's items on show over the field (``Cut``,
        #: ``Copy``, ``Paste``, ``Select all``; none: no toolbar), and what a tap on one does.
        self.menu = tuple(menu)
        self.on_menu = on_menu
        self.on_focus = on_focus

    @property
    def clickable(self) -> bool:
        return True

    def tap(self, phone: Phone, x: int, y: int, bounds: Bounds) -> bool:
        if self.on_focus is not None:
            self.on_focus()  # a tap in the field puts the cursor there: the toolbar goes
        phone.focus(self.key)
        return True

    def popup(self, bounds: Bounds, window: Bounds) -> tuple[Widget, Bounds] | None:
        """The selection toolbar as Android floats it: above the field when there is room in
        ``window`` (the app's window), else below it, kept inside the window; ``None`` when
        the field shows none."""
        if not self.menu or self.on_menu is None:
            return None
        width = min(window[2] - window[0], TextToolbar.item_width * len(self.menu))
        left = min(max(window[0], bounds[0] + PAD // 2), window[2] - width)
        height = TextToolbar.default_height
        top = bounds[1] - height - 8
        if top < window[1]:
            top = min(bounds[3] + 8, window[3] - height)
        top = max(window[1], top)
        return TextToolbar(self.menu, self.on_menu), (left, top, left + width, top + height)

    def render_key(self) -> Hashable:
        return (self.value, self.hint, self.focused, self.password, self.selected)

    def paint_frame(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> tuple[int, int]:
        """The field's outline (blue when focused) and selection highlight; returns (pad, inset)."""
        pad = round(PAD * scale)
        inset = round(14 * scale)
        border = render.PRIMARY if self.focused else render.DIVIDER
        draw.rounded_rectangle(
            (pad // 2, inset, width - pad // 2, height - inset),
            radius=round(16 * scale),
            outline=border,
            width=3 if self.focused else 2,
            fill=render.SURFACE,
        )
        if self.selected and self.value:  # all text selected: typing replaces it
            draw.rectangle((pad, inset * 2, width - pad, height - inset * 2), fill=SELECTION)
        return pad, inset

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        pad, _ = self.paint_frame(draw, width, height, scale)
        size = round(BODY_SIZE * scale)
        shown = ("•" * len(self.value) if self.password else self.value) or self.hint
        color = render.TEXT if self.value else render.TEXT_SECONDARY
        shown = shown.replace("\n", " ")
        fitted = text_fit(draw, shown, size, width - 3 * pad)
        draw.text((pad, (height - size) / 2), fitted, font=font(size), fill=color)
        if self.focused:
            cx = pad + (draw.textlength(fitted, font=font(size)) if self.value else 0) + 2
            draw.line((cx, (height - size) / 2, cx, (height + size) / 2), fill=render.PRIMARY, width=2)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.value, self.hint, self.focused, self.password, self.menu)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        return UINode(
            self.class_name,
            bounds,
            text=self.value or self.hint,
            resource_id=self.rid,
            content_desc=self.desc,
            package=package,
            clickable=True,
            long_clickable=True,
            focusable=True,
            focused=self.focused,
            password=self.password,
            enabled=self.enabled,
        )


class TextToolbar(Widget):
    """Android's floating text-selection toolbar: a card of text buttons (Cut, Copy, Paste,
    Select all) that :meth:`TextField.popup` floats over the field holding the selection."""

    class_name = "android.widget.LinearLayout"
    default_height = 126
    item_width = 240
    background = (250, 250, 252)

    def __init__(self, items: Sequence[str], on_item: Callable[[str], None]) -> None:
        super().__init__(rid="android:id/floating_toolbar_menu_item_container")
        self.items = [
            Button(
                item,
                filled=False,
                rid="android:id/floating_toolbar_menu_item_text",
                on_tap=lambda i=item: on_item(i),
                height=self.default_height,
                background=self.background,
            )
            for item in items
        ]

    def render_key(self) -> Hashable:
        return ()

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        draw.rectangle((0, 0, width - 1, height - 1), fill=self.background, outline=render.DIVIDER, width=2)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), tuple(b.text for b in self.items))

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        cell = (right - left) / max(1, len(self.items))
        return [(b, (round(left + i * cell), top, round(left + (i + 1) * cell), bottom)) for i, b in enumerate(self.items)]


class Slider(Widget):
    """A ``SeekBar``: a tap or a drag moves the thumb to the finger's x position."""

    class_name = "android.widget.SeekBar"
    default_height = 168
    inset = 90

    def __init__(self, value: int, maximum: int, *, on_change: Callable[[int], None], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.value = value
        self.maximum = maximum
        self.on_change = on_change

    @property
    def clickable(self) -> bool:
        return True

    def _value_at(self, x: int, bounds: Bounds) -> int:
        left, _, right, _ = bounds
        span = max(1, right - left - 2 * self.inset)
        fraction = min(1.0, max(0.0, (x - left - self.inset) / span))
        return round(fraction * self.maximum)

    def tap(self, phone: Phone, x: int, y: int, bounds: Bounds) -> bool:
        self.on_change(self._value_at(x, bounds))
        return True

    def drag(self, phone: Phone, x1: int, y1: int, x2: int, y2: int, bounds: Bounds) -> bool:
        self.on_change(self._value_at(x2, bounds))
        return True

    def render_key(self) -> Hashable:
        return (self.value, self.maximum, self.enabled)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        inset = round(self.inset * scale)
        mid = height // 2
        track = max(2, round(12 * scale))
        draw.rounded_rectangle((inset, mid - track, width - inset, mid + track), radius=track, fill=render.DIVIDER)
        x = inset + (width - 2 * inset) * self.value / max(1, self.maximum)
        draw.rounded_rectangle((inset, mid - track, x, mid + track), radius=track, fill=render.PRIMARY)
        r = round(30 * scale)
        draw.ellipse((x - r, mid - r, x + r, mid + r), fill=render.PRIMARY)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.value)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.text = f"{self.value}"
        node.clickable = True
        node.focusable = True
        return node


class Row(Widget):
    """Children side by side in equal widths (icon grids, button bars, tabs)."""

    class_name = "android.widget.LinearLayout"
    opaque = False

    def __init__(self, items: Sequence[Widget], *, columns: int | None = None, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.items = list(items)
        self.columns = columns or max(1, len(self.items))
        if "height" not in kwargs and self.items:
            self.height = max(item.height for item in self.items)

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        # The items are placed (and keyed) as children of their own; their number and the
        # columns decide where they go.
        return (super().tree_key(), len(self.items), self.columns)

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, bottom = bounds
        cell = (right - left) / self.columns
        return [(item, (round(left + i * cell), top, round(left + (i + 1) * cell), bottom)) for i, item in enumerate(self.items)]


class Column(Widget):
    """Children stacked top to bottom at their own heights inside one node (a ``RadioGroup``, a
    ``ScrollView``, a page's header); ``class_name`` names the node's view class."""

    class_name = "android.view.ViewGroup"
    opaque = False

    def __init__(self, items: Sequence[Widget], *, class_name: str | None = None, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.items = list(items)
        self.node_class = class_name or self.class_name
        if "height" not in kwargs:
            self.height = sum(item.height for item in self.items)

    def render_key(self) -> Hashable:
        return ()

    def tree_key(self) -> Hashable:
        # The items are keyed as children of their own; their heights decide where they go.
        return (super().tree_key(), self.node_class, tuple(item.height for item in self.items))

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.class_name = self.node_class
        return node

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, right, _ = bounds
        out: list[tuple[Widget, Bounds]] = []
        for item in self.items:
            out.append((item, (left, top, right, top + item.height)))
            top += item.height
        return out


class Divider(Widget):
    class_name = "android.view.View"
    default_height = 24

    def render_key(self) -> Hashable:
        return ()

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        draw.line((0, height // 2, width, height // 2), fill=render.DIVIDER, width=2)


class Dialog:
    """A modal dialog: a title, an optional message, optional body widgets and buttons.

    Only the dialog is in the accessibility tree while it shows, as with a real dialog window.
    """

    def __init__(self, title: str, buttons: Sequence[Button], *, message: str = "", body: Sequence[Widget] = ()) -> None:
        self.title = title
        self.message = message
        self.body = list(body)
        self.buttons = list(buttons)


class TextArea(TextField):
    """A multi-line ``EditText`` (a note's body): shows as many lines as fit, wrapped."""

    default_height = 900

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        pad, inset = self.paint_frame(draw, width, height, scale)
        size = round(BODY_SIZE * scale)
        line_h = round(size * 1.35)
        color = render.TEXT if self.value else render.TEXT_SECONDARY
        y = pad // 2 + inset
        rows = max(1, (height - inset - y) // line_h)
        for line in wrap_lines(draw, self.value or self.hint, size, width - 3 * pad, rows):
            if y + line_h > height - inset:
                break
            draw.text((pad, y), line, font=font(size), fill=color)
            y += line_h


def wrap_lines(draw: ImageDraw.ImageDraw, text: str, size: int, max_width: int, max_lines: int = 0) -> list[str]:
    """``text`` broken into lines at newlines and, by words, where it is wider than ``max_width``;
    with ``max_lines``, its first ``max_lines`` only, and only the text they can hold is read (a
    glyph is at least a pixel wide), so a huge text costs what the lines shown cost (issue 36)."""
    out: list[str] = []
    f = font(size)
    if max_lines:
        text = text[: max_lines * (max_width + 1)]
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}" if line else word
            if line and draw.textlength(trial, font=f) > max_width:
                out.append(line)
                if len(out) == max_lines:
                    return out
                line = word
            else:
                line = trial
        out.append(line)
        if len(out) == max_lines:
            return out
    return out


class Bubble(Widget):
    """A chat message: a rounded bubble on the right (sent) or left (received), with a caption."""

    class_name = "android.widget.TextView"
    default_height = 210

    def __init__(self, text: str, *, outgoing: bool, caption: str = "", **kwargs: object) -> None:
        super().__init__(text=text, **kwargs)  # type: ignore[arg-type]
        self.outgoing = outgoing
        self.caption = caption

    def render_key(self) -> Hashable:
        return (self.text, self.outgoing, self.caption, self.selected)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        pad = round(PAD * scale)
        size = round(BODY_SIZE * scale)
        shown = text_fit(draw, self.text, size, int(width * 0.7))
        tw = draw.textlength(shown, font=font(size))
        bw = tw + 2 * pad
        left = width - pad - bw if self.outgoing else pad
        fill = render.PRIMARY if self.outgoing else (232, 234, 240)
        if self.selected:
            draw.rectangle((0, 0, width, height), fill=SELECTION)
        top, bottom = round(16 * scale), height - round(60 * scale)
        draw.rounded_rectangle((left, top, left + bw, bottom), radius=round(40 * scale), fill=fill)
        draw.text((left + pad, (top + bottom - size) / 2), shown, font=font(size), fill=render.ON_PRIMARY if self.outgoing else render.TEXT)
        if self.caption:
            csz = round(30 * scale)
            cw = draw.textlength(self.caption, font=font(csz))
            draw.text(
                (width - pad - cw if self.outgoing else pad, bottom + round(8 * scale)),
                self.caption,
                font=font(csz),
                fill=render.TEXT_SECONDARY,
            )

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.caption)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.long_clickable = self.on_long_press is not None
        if self.caption:
            left, _, right, bottom = bounds
            node.children = [UINode("android.widget.TextView", (left, bottom - 60, right, bottom), text=self.caption, package=package)]
        return node


class Viewfinder(Widget):
    """A camera preview: a still scene (sky, hills, sun) with a red dot while recording."""

    class_name = "android.view.TextureView"
    default_height = 1500
    background = (20, 20, 24)

    def __init__(self, *, recording: bool = False, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.recording = recording

    def render_key(self) -> Hashable:
        return (self.recording, self.desc)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        horizon = int(height * 0.62)
        for y in range(0, horizon, max(1, horizon // 24)):
            shade = 150 + int(90 * y / max(1, horizon))
            draw.rectangle((0, y, width, y + horizon // 24 + 1), fill=(90, shade - 40, min(255, shade + 20)))
        draw.ellipse((int(width * 0.7), int(height * 0.12), int(width * 0.85), int(height * 0.12) + int(width * 0.15)), fill=(255, 214, 90))
        draw.polygon([(0, horizon), (width // 3, int(height * 0.45)), (2 * width // 3, horizon)], fill=(70, 120, 80))
        draw.polygon([(width // 3, horizon), (3 * width // 4, int(height * 0.5)), (width, horizon)], fill=(50, 100, 70))
        draw.rectangle((0, horizon, width, height), fill=(60, 90, 60))
        if self.recording:
            r = round(24 * scale)
            draw.ellipse((round(40 * scale), round(40 * scale), round(40 * scale) + 2 * r, round(40 * scale) + 2 * r), fill=(230, 40, 40))


class ImageView(Widget):
    """An ``ImageView`` showing a picture's real pixels, fitted inside it (aspect kept, centred).

    ``source`` names the picture's content (a path and its modification time): the pixels are
    decoded from ``load()`` only when a tile of this widget is painted, downscaled to the tile and
    cached (:mod:`cerebellum_gym.sim.images`), so an image costs nothing on screens without it.
    A picture that cannot be decoded paints the broken-image mark.
    """

    class_name = "android.widget.ImageView"
    default_height = 360
    background = (236, 236, 240)

    def __init__(self, source: Hashable, load: Callable[[], bytes], *, inset: int = 0, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.source = source
        self.load = load
        self.inset = inset

    def render_key(self) -> Hashable:
        return (self.source, self.inset, self.selected)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        from cerebellum_gym.sim.images import thumbnail

        inset = round(self.inset * scale)
        box = (max(1, width - 2 * inset), max(1, height - 2 * inset))
        picture = thumbnail(self.source, self.load(), box)
        if picture is None:
            broken_image_mark(draw, width / 2, height / 2, round(48 * scale))
        else:
            # The tile's own image under the drawing context (PIL keeps it as ``_image``).
            canvas = draw._image
            canvas.paste(picture, ((width - picture.width) // 2, (height - picture.height) // 2))
        if self.selected:
            r = round(30 * scale)
            draw.ellipse((width - 3 * r, r, width - r, 3 * r), fill=render.PRIMARY, outline=render.SURFACE, width=max(1, r // 5))

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.source)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.long_clickable = self.on_long_press is not None
        return node


def broken_image_mark(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: int) -> None:
    """The mark a gallery paints for a picture it cannot decode: a crossed-out frame."""
    draw.rectangle((cx - r, cy - r, cx + r, cy + r), outline=render.TEXT_SECONDARY, width=max(1, r // 8))
    render.draw_icon(draw, "✕", (cx - r * 0.7, cy - r * 0.7, cx + r * 0.7, cy + r * 0.7), render.TEXT_SECONDARY)


#: One stroke on a :class:`Canvas`: its colour and a line ``(x1, y1, x2, y2)`` in the drawing
#: area's own device pixels (a dot when both ends meet).
Stroke = tuple[RGB, tuple[int, int, int, int]]


class Canvas(Widget):
    """A drawing surface that strokes follow: a swipe that starts on it draws a line from where
    the finger went down to where it lifted, in the current colour; with ``tap_draws`` a tap
    draws a dot. The drawing area is ``area`` (width, height) centred in the widget.

    The action set has no free-form swipe, so the canvas says it is scrollable in the tree: the
    env's U/D/L/R swipes then run across it (and draw), as a finger across a canvas does.
    """

    class_name = "android.view.View"
    default_height = 1200

    def __init__(
        self,
        strokes: Sequence[Stroke],
        *,
        on_stroke: Callable[[Stroke], None],
        color: RGB,
        area: tuple[int, int] | None = None,
        line_width: int = 8,
        tap_draws: bool = True,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.strokes = tuple(strokes)
        self.on_stroke = on_stroke
        self.color = color
        self.area = area
        self.line_width = line_width
        self.tap_draws = tap_draws

    @property
    def clickable(self) -> bool:
        return True

    def _area(self, bounds: Bounds) -> Bounds:
        left, top, right, bottom = bounds
        if self.area is None:
            return bounds
        w, h = min(self.area[0], right - left), min(self.area[1], bottom - top)
        x0, y0 = left + (right - left - w) // 2, top + (bottom - top - h) // 2
        return (x0, y0, x0 + w, y0 + h)

    def _local(self, area: Bounds, x: int, y: int) -> tuple[int, int]:
        return min(max(x, area[0]), area[2] - 1) - area[0], min(max(y, area[1]), area[3] - 1) - area[1]

    def tap(self, phone: Phone, x: int, y: int, bounds: Bounds) -> bool:
        area = self._area(bounds)
        if not self.tap_draws or not (area[0] <= x < area[2] and area[1] <= y < area[3]):
            return False
        lx, ly = self._local(area, x, y)
        self.on_stroke((self.color, (lx, ly, lx, ly)))
        return True

    def drag(self, phone: Phone, x1: int, y1: int, x2: int, y2: int, bounds: Bounds) -> bool:
        area = self._area(bounds)
        if not (area[0] <= x1 < area[2] and area[1] <= y1 < area[3]):
            return False  # a swipe from outside the drawing scrolls the screen
        self.on_stroke((self.color, (*self._local(area, x1, y1), *self._local(area, x2, y2))))
        return True

    def render_key(self) -> Hashable:
        return (self.strokes, self.area, self.line_width)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        full_w, full_h = round(width / scale), round(height / scale)
        w, h = self.area if self.area is not None else (full_w, full_h)
        w, h = min(w, full_w), min(h, full_h)
        x0, y0 = round((full_w - w) // 2 * scale), round((full_h - h) // 2 * scale)
        draw.rectangle(
            (x0, y0, x0 + max(0, round(w * scale) - 1), y0 + max(0, round(h * scale) - 1)), fill=(255, 255, 255), outline=render.DIVIDER
        )
        lw = max(1, round(self.line_width * scale))
        for color, (a, b, c, d) in self.strokes:
            start, end = (x0 + a * scale, y0 + b * scale), (x0 + c * scale, y0 + d * scale)
            if (a, b) == (c, d):
                draw.ellipse((start[0] - lw / 2, start[1] - lw / 2, start[0] + lw / 2, start[1] + lw / 2), fill=color)
            else:
                draw.line((start, end), fill=color, width=lw)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.area)

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.bounds = self._area(bounds)
        node.clickable = True
        node.scrollable = True
        return node


class Swatch(Widget):
    """A colour button: a filled square (``selected`` rings it)."""

    class_name = "android.widget.Button"
    default_height = 126

    def __init__(self, color: RGB, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.color = color

    def render_key(self) -> Hashable:
        return (self.color, self.selected, self.background)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        side = max(1, min(width, height) - 2 * max(1, round(14 * scale)))  # a pixel even at RL's 48 px
        x0, y0 = (width - side) // 2, (height - side) // 2
        if self.selected:
            ring = max(2, round(8 * scale))
            draw.rectangle((x0 - ring, y0 - ring, x0 + side + ring, y0 + side + ring), fill=render.TEXT)
        draw.rectangle((x0, y0, x0 + side, y0 + side), fill=self.color)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.color)
