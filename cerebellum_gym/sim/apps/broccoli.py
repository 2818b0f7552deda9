"""Broccoli (com.flauschcode.broccoli) as version 1.2.6 (versionCode 1020600, the APK AndroidWorld
installs) shows it, rebuilt on the Material toolkit from the app's own layouts at tag ``v1.2.6``.

- The main screen (``activity_main``/``fragment_recipes``): the activity's toolbar ("Open
  navigation drawer", the destination's title "Recipes"), the fragment's green toolbar with the
  category Spinner ("Categories": All recipes, Seasonal recipes, Recipes without category,
  Favorites, then the custom categories) and Search; the ``recycler_view`` of recipe cards
  (``recipe_item``: ``card_image`` "Recipe photo", ``card_text_view_title``,
  ``card_text_view_description``, ``card_text_view_source``), the empty state (``recipes_empty``)
  and the FAB ``fab_recipes`` ("New Recipe"). Search expands the SearchView in that toolbar
  ("Collapse", ``search_src_text`` with "Search in ALL RECIPES", "Clear query") and filters the
  same list as one types; back collapses it.
- The navigation drawer (``activity_main_drawer``): Recipes, Categories, Seasonal calendar,
  Support the app, Backup and restore, Settings, About the app; Categories (``fragment_categories``).
- A recipe's page (``activity_recipe_details``): "Navigate up", Mark as favorite / Remove from
  favorites, More options (Share, Share as file, Edit, Delete), the details (``details_*``, each
  ingredient split into ``ingredient_quantity``/``ingredient_text`` as IngredientBuilder does, each
  step ``direction_position``/``direction_text`` as DirectionBuilder does) and the Cook FAB.
  Delete asks "Delete this recipe?" (Cancel, Delete), then the page closes.
- The form (``activity_new_recipe``): "New Recipe" (also when editing: the layout's title),
  Save (``button_save_recipe``), the photo, then Title, Categories, Description, Source,
  Servings, Time, Ingredients, Directions (``new_*``). Saving needs a title ("Please add a
  title." toast); a new recipe's page opens after saving; closing with changes asks
  "Discard changes?" (Cancel, Discard).

Recipes live in ``content://com.flauschcode.broccoli/recipes``, whose rows carry the columns of the
app's ``recipes`` table under their database names (``title``, ``description``, ``servings``,
``preparationTime``, ``source``, ``ingredients``, ``directions``, ``favorite`` 0/1, ``imageName``;
``_id`` is ``recipeId``). That table is the app's database at its real path
(``/data/data/com.flauschcode.broccoli/databases/broccoli``, see :mod:`cerebellum_gym.sim.databases`),
which AndroidWorld reads and writes with sqlite.

What the app does follows the real one: the list is ordered by title, case-insensitively
(``ORDER BY title COLLATE NOCASE``), ties in insertion order; the search is the app's full-text
search (``recipes_fts``: title, description, source and ingredients, not directions), each word a
prefix, title hits first; a recipe is deleted from its page, one at a time (the real list has no
multi-select); an edit keeps the recipe's id, favourite flag and photo. Photos, sharing, the
seasonal calendar and the cooking mode are not simulated (no AndroidWorld task uses them): their
controls are there and do nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Hashable, Sequence
from typing import ClassVar, Final

from PIL import ImageDraw

from cerebellum_gym.appdata.recipes import split_directions as directions
from cerebellum_gym.appdata.recipes import split_ingredients as ingredients
from cerebellum_gym.core.tree import Bounds, UINode
from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import edit_field, field_key
from cerebellum_gym.sim.apps.registry import register_app
from cerebellum_gym.sim.databases import DATA_ROOT, AppDatabase, Table, declare, room_schema
from cerebellum_gym.sim.material import Theme, dp
from cerebellum_gym.sim.material.components import ActionMenuItem, Fab, MaterialIconButton, OverflowButton, TopAppBar
from cerebellum_gym.sim.render import draw_icon, font
from cerebellum_gym.sim.screen import SCREEN_WIDTH, ScreenSpec
from cerebellum_gym.sim.widgets import PAD, Button, Dialog, Text, TextField, Widget

#: The provider table the app's recipes live in.
BROCCOLI_RECIPES: Final = "broccoli_recipes"

#: The provider URI of the recipes (the app's ``recipes`` table).
RECIPES_URI = "content://com.flauschcode.broccoli/recipes"
PACKAGE = "com.flauschcode.broccoli"
RID: Final = f"{PACKAGE}:id/"
#: colors.xml: green_800 (colorPrimary, colorSecondary), green_500 (colorSecondaryToolbar), gray_600.
GREEN: Final = (46, 125, 50)
GREEN_500: Final = (76, 175, 80)
GRAY_600: Final = (117, 117, 117)
WHITE: Final = (255, 255, 255)
THEME: Final = Theme(primary=GREEN, on_primary=WHITE)
BAR_THEME: Final = Theme(primary=GREEN, on_primary=WHITE, surface=GREEN, on_surface=WHITE, on_surface_variant=(200, 230, 201))
SECOND_BAR_THEME: Final = Theme(primary=GREEN, on_primary=WHITE, surface=GREEN_500, on_surface=WHITE, on_surface_variant=(220, 237, 200))
#: The form's fields: (column, id suffix, hint, multi-line), in activity_new_recipe's order
#: (Categories, between Title and Description, is a chooser, not a column of ``recipes``).
FIELDS: tuple[tuple[str, str, str, bool], ...] = (
    ("title", "title", "Title", False),
    ("description", "description", "Description", True),
    ("source", "source", "Source", False),
    ("servings", "servings", "Servings", False),
    ("preparationTime", "preparation_time", "Time", False),
    ("ingredients", "ingredients", "Ingredients", True),
    ("directions", "directions", "Directions", True),
)
#: What the full-text index holds (``recipes_fts``), in its column order.
SEARCHED = ("title", "description", "source", "ingredients")
#: The Spinner's fixed entries (RecipeFragment.setUpSpinner), before the custom categories.
FILTERS: Final = ("All recipes", "Seasonal recipes", "Recipes without category", "Favorites")
#: The navigation drawer (menu/activity_main_drawer.xml), in order.
DRAWER_ITEMS: Final = ("Recipes", "Categories", "Seasonal calendar", "Support the app", "Backup and restore", "Settings", "About the app")
#: The details page's overflow menu (menu/details.xml: showAsAction never).
DETAILS_MENU: Final = ("Share", "Share as file", "Edit", "Delete")
SEARCH_KEY = f"{PACKAGE}.search"
_WORD = re.compile(r"[\w#]+")


def words(text: str) -> list[str]:
    """``text`` split as the index's ``unicode61`` tokenizer does (``#`` a word character), folded."""
    return [w.casefold() for w in _WORD.findall(text)]


def search(rows: list[dict[str, str]], query: str) -> list[dict[str, str]]:
    """The rows the app's search finds for ``query``: every word of it starts a word of the
    indexed columns (the app searches for prefixes); hits in the title first, then by title."""
    wanted = words(query)
    if not wanted:
        return []
    found = []
    for row in rows:
        tokens = [words(row.get(column, "")) for column in SEARCHED]
        every = [t for column in tokens for t in column]
        if all(any(t.startswith(w) for t in every) for w in wanted):
            first = next(i for i, column in enumerate(tokens) if any(t.startswith(w) for w in wanted for t in column))
            found.append((first, row))
    return [row for _, row in sorted(found, key=lambda hit: (hit[0], *ordering(hit[1])))]


def ordering(row: dict[str, str]) -> tuple[str, int]:
    """The list's order: title without case (``COLLATE NOCASE`` folds ASCII only), then insertion."""
    title = row.get("title", "")
    return title.translate(_ASCII_LOWER), int(row.get("_id", 0) or 0)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def lines(text: str) -> list[str]:
    """A multi-line field's non-empty lines."""
    return [line.strip() for line in text.splitlines() if line.strip()]


#: The most lines a wrapping text lays out: a screenful at body size (2,400 px of 49 px lines)
#: and a little more, so a text of megabytes costs what a page of it costs (issue 36); a longer
#: text shows its first lines only.
MAX_LAID_OUT_LINES = 60


def _words_to_lines(paragraphs: list[str], size: int, width: int, limit: int) -> list[str]:
    face = font(size)
    out: list[str] = []
    for paragraph in paragraphs:
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}" if line else word
            if line and face.getlength(trial) > width:
                out.append(line)
                if len(out) >= limit:
                    return out
                line = word
            else:
                line = trial
        out.append(line)
        if len(out) >= limit:
            return out
    return out


def _laid_out(text: str, width: int, limit: int) -> str:
    """As much of ``text`` as ``limit`` lines of ``width`` pixels can show (a glyph is at least a
    pixel wide), so splitting it costs a screenful whatever its size."""
    return text[: limit * (width + 1)]


@functools.lru_cache(maxsize=1024)
def wrap_text(text: str, size: int, width: int, max_lines: int = 0) -> tuple[str, ...]:
    """``text`` broken into lines at newlines and, by words, where wider than ``width`` pixels;
    its first ``max_lines`` (at most :data:`MAX_LAID_OUT_LINES`)."""
    limit = min(max_lines or MAX_LAID_OUT_LINES, MAX_LAID_OUT_LINES)
    return tuple(_words_to_lines(_laid_out(text, width, limit).split("\n"), size, width, limit))


@functools.lru_cache(maxsize=1024)
def wrapped(text: str, size: int, width: int) -> tuple[str, ...]:
    """``text`` broken into lines, by words, that fit ``width`` pixels at font ``size`` (its first
    :data:`MAX_LAID_OUT_LINES`)."""
    kept = _laid_out(text, width, MAX_LAID_OUT_LINES)
    return tuple(_words_to_lines([" ".join(kept.split())], size, width, MAX_LAID_OUT_LINES))


# --- widgets ---------------------------------------------------------------------------------


class Paragraph(Text):
    """A ``TextView`` that wraps, as tall as its lines at full size (its node holds the whole
    text); Joplin's note page uses it."""

    def __init__(self, text: str, *, size: int = 40, **kwargs: object) -> None:
        count = len(wrapped(text, size, SCREEN_WIDTH - 2 * PAD))
        super().__init__(text, size=size, height=count * round(size * 1.35) + 50, **kwargs)  # type: ignore[arg-type]

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(self.size * scale)
        pad = round(PAD * scale)
        line_h = round(size * 1.35)
        y = round(25 * scale)
        for line in wrapped(self.text, size, width - 2 * pad):
            if y + line_h > height:
                break
            draw.text((pad, y), line, font=font(size), fill=self.color)
            y += line_h


class Label(Widget):
    """A ``TextView`` that wraps its text over as many lines as it needs (or ``max_lines``)."""

    class_name = "android.widget.TextView"

    def __init__(self, text: str, *, size: int = dp(14), color: render.RGB = render.TEXT, weight: render.Weight = "regular",
                 width: int = 1080 - 2 * dp(16), max_lines: int = 0, pad: int = 0, **kwargs: object) -> None:  # fmt: skip
        self.size, self.color, self.weight, self.pad = size, color, weight, pad
        shown = wrap_text(text, size, width, max_lines) if text else ("",)
        self.shown = shown
        kwargs.setdefault("height", len(shown) * round(size * 1.33) + 2 * pad)
        super().__init__(text=text, **kwargs)  # type: ignore[arg-type]

    def render_key(self) -> Hashable:
        return (self.shown, self.size, self.color, self.weight, self.pad)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = max(4, round(self.size * scale))
        y = round(self.pad * scale)
        for line in self.shown:
            draw.text((0, y), line, font=font(size, self.weight), fill=self.color)
            y += round(size * 1.33)


class Icon(Widget):
    """An ``ImageView``: a Material icon, labelled by its content-desc (or not)."""

    class_name = "android.widget.ImageView"

    def __init__(self, icon: str, desc: str = "", *, color: render.RGB = GRAY_600, size: int = dp(24), **kwargs: object) -> None:
        kwargs.setdefault("height", size)
        super().__init__(desc=desc, **kwargs)  # type: ignore[arg-type]
        self.icon, self.color, self.size = icon, color, size

    def render_key(self) -> Hashable:
        return (self.icon, self.color, self.size)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        s = round(self.size * scale)
        draw_icon(draw, self.icon, ((width - s) / 2, (height - s) / 2, (width + s) / 2, (height + s) / 2), self.color)


class Group(Widget):
    """A layout holding children at fixed offsets (``(widget, (left, top, right, bottom))`` relative
    to its own box); it paints nothing of its own unless given a ``fill``."""

    class_name = "android.widget.LinearLayout"

    def __init__(self, parts: Sequence[tuple[Widget, Bounds]], *, class_name: str = "", fill: render.RGB | None = None,
                 **kwargs: object) -> None:  # fmt: skip
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.parts = list(parts)
        self.fill = fill
        if fill is not None:
            self.background = fill
            for widget, _ in self.parts:  # what it holds shows on its fill
                if isinstance(widget, (Label, Icon)) or (isinstance(widget, Group) and widget.fill is None):
                    widget.background = fill
        if class_name:
            self.cls = class_name
        else:
            self.cls = type(self).class_name

    @property
    def opaque(self) -> bool:  # type: ignore[override]
        return self.fill is not None

    def render_key(self) -> Hashable:
        return (self.fill,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        if self.fill is not None:
            draw.rectangle((0, 0, width, height), fill=self.fill)

    def tree_key(self) -> Hashable:
        return (super().tree_key(), self.cls, tuple((w.tree_key(), b) for w, b in self.parts))

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.class_name = self.cls
        return node

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        left, top, _, _ = bounds
        return [(w, (left + x0, top + y0, left + x1, top + y1)) for w, (x0, y0, x1, y1) in self.parts]


def column(items: Sequence[Widget], *, width: int = 1080, x: int = 0, gap: int = 0, **kwargs: object) -> Group:
    """``items`` stacked from the top, each as wide as ``width`` from ``x``."""
    parts: list[tuple[Widget, Bounds]] = []
    y = 0
    for item in items:
        parts.append((item, (x, y, x + width, y + item.height)))
        y += item.height + gap
    kwargs.setdefault("height", max(0, y - gap))
    return Group(parts, **kwargs)  # type: ignore[arg-type]


class PlainBar(TopAppBar):
    """The details page's toolbar: its title is drawn by the CollapsingToolbarLayout, not a node."""

    def children(self, bounds: Bounds) -> Sequence[tuple[Widget, Bounds]]:
        return [(w, b) for w, b in super().children(bounds) if w.class_name != "android.widget.TextView"]


class TextAction(MaterialIconButton):
    """A MaterialButton (text style) in a toolbar: the form's Save."""

    class_name = "android.widget.Button"

    def __init__(self, text: str, **kwargs: object) -> None:
        super().__init__("", "", theme=BAR_THEME, **kwargs)  # type: ignore[arg-type]
        self.text = text

    def render_key(self) -> Hashable:
        return (self.text,)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(dp(14) * scale)
        draw.text((width / 2, height / 2), self.text.upper(), font=font(size, "medium"), fill=WHITE, anchor="mm")


class RecipeCard(Group):
    """recipe_item: a 120 dp MaterialCardView (8 dp margins), the square photo, title (Large, two
    lines), description (two lines) and source (one line, in the primary colour)."""

    class_name = "android.widget.FrameLayout"

    def __init__(self, recipe: dict[str, str], on_tap: Callable[[], None]) -> None:
        side = dp(120)
        width = 1080 - 4 * dp(8)
        text_w = width - side - 2 * dp(8)
        title = Label(recipe.get("title", ""), size=dp(22), width=text_w, max_lines=2, rid=RID + "card_text_view_title")
        description = Label(recipe.get("description", ""), size=dp(14), color=render.TEXT_SECONDARY, width=text_w, max_lines=2,
                            rid=RID + "card_text_view_description")  # fmt: skip
        source = Label(recipe.get("source", ""), size=dp(14), color=GREEN, width=text_w, max_lines=1, rid=RID + "card_text_view_source")
        block = title.height + description.height + source.height
        y = max(0, (side - block) // 2)
        x = side + dp(8)
        parts: list[tuple[Widget, Bounds]] = [
            (Icon("restaurant", "Recipe photo", color=(189, 189, 189), size=dp(48), rid=RID + "card_image"), (0, 0, side, side))
        ]
        for label in (title, description, source):
            parts.append((label, (x, y, x + text_w, y + label.height)))
            y += label.height
        super().__init__(parts, height=side, on_tap=on_tap, fill=WHITE)


class DrawerItem(Widget):
    """A NavigationView entry (``NavigationMenuItemView``'s ``CheckedTextView``)."""

    class_name = "android.widget.CheckedTextView"
    default_height = dp(48)
    ICONS: ClassVar[dict[str, str]] = {
        "Recipes": "menu_book",
        "Categories": "label",
        "Seasonal calendar": "eco",
        "Support the app": "favorite",
        "Backup and restore": "import_export",
        "Settings": "settings",
        "About the app": "info",
    }

    def render_key(self) -> Hashable:
        return (self.text, self.selected)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        colour = GREEN if self.selected else (68, 68, 68)
        if self.selected:
            draw.rounded_rectangle(
                (round(dp(8) * scale), 2, width - round(dp(8) * scale), height - 2), radius=round(dp(4) * scale), fill=(225, 238, 226)
            )
        s = round(dp(24) * scale)
        draw_icon(
            draw,
            self.ICONS.get(self.text, "circle"),
            (round(dp(16) * scale), (height - s) / 2, round(dp(16) * scale) + s, (height + s) / 2),
            colour,
        )
        draw.text((round(dp(72) * scale), height / 2), self.text, font=font(round(dp(14) * scale), "medium"), fill=colour, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.checkable = True
        node.checked = self.selected
        return node


class MenuRow(Group):
    """A popup menu's row (AppCompat's ListMenuItemView, a clickable LinearLayout) with its
    ``title`` TextView."""

    def __init__(self, title: str, on_tap: Callable[[], None], *, width: int = dp(196)) -> None:
        label = Label(title, size=dp(16), width=width - dp(32), rid=RID + "title")
        super().__init__([(label, (dp(16), (dp(48) - label.height) // 2, width - dp(16), (dp(48) + label.height) // 2))],
                         height=dp(48), on_tap=on_tap, fill=WHITE)  # fmt: skip


class SpinnerItem(Widget):
    """A Spinner's drop-down entry (``simple_spinner_dropdown_item``: a CheckedTextView ``text1``)."""

    class_name = "android.widget.CheckedTextView"
    default_height = dp(48)

    def render_key(self) -> Hashable:
        return (self.text, self.selected)

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        draw.text((round(dp(16) * scale), height / 2), self.text, font=font(round(dp(16) * scale)), fill=render.TEXT, anchor="lm")

    def encode(self, bounds: Bounds, package: str) -> UINode:
        node = super().encode(bounds, package)
        node.resource_id = "android:id/text1"
        node.checkable = True
        node.checked = self.selected
        return node


@register_app
class BroccoliApp(App):
    package: ClassVar[str] = PACKAGE
    activity: ClassVar[str] = "com.flauschcode.broccoli.MainActivity"
    label: ClassVar[str] = "Broccoli"
    color: ClassVar[tuple[int, int, int]] = GREEN
    clock_dependent: ClassVar[bool] = False

    # --- the recipes ------------------------------------------------------------------------

    def recipes(self) -> list[dict[str, str]]:
        return sorted(self.phone.content_query(RECIPES_URI), key=ordering)

    def recipe(self, recipe_id: str) -> dict[str, str] | None:
        rows = self.phone.content_query(RECIPES_URI, where={"_id": recipe_id})
        return rows[0] if rows else None

    def _update(self, recipe_id: str, values: dict[str, str]) -> None:
        """Change a recipe in place (Room's ``@Update``: the id stays)."""
        for row in self.phone.state.content.setdefault(BROCCOLI_RECIPES, []):
            if row.get("_id") == recipe_id:
                row.update(values)
        self.phone.invalidate()

    def categories(self) -> list[str]:
        """The custom categories (the ``categories`` table), by name; none unless created."""
        return [str(c) for c in self.phone.state.app_data.get(PACKAGE, {}).get("categories", [])]

    # --- shared pieces -----------------------------------------------------------------------

    def _main_bar(self, title: str) -> TopAppBar:
        navigation = MaterialIconButton("Open navigation drawer", "menu", theme=BAR_THEME, on_tap=lambda: self.push("drawer"))
        return TopAppBar(title, navigation=navigation, theme=BAR_THEME, rid=RID + "toolbar")

    # --- the list -----------------------------------------------------------------------------

    def shown(self, route: Route) -> list[dict[str, str]]:
        """The recipes of the chosen category that the search (if any) finds."""
        chosen = route.get("filter", FILTERS[0])
        rows = self.recipes()
        if chosen == "Favorites":
            rows = [r for r in rows if r.get("favorite", "0") not in ("", "0")]
        elif chosen not in ("All recipes", "Recipes without category"):
            rows = []  # seasonal food and custom categories: no recipe has them here
        query = str(route.get("query", ""))
        return search(rows, query) if route.get("search") and query.strip() else rows

    def screen_main(self, route: Route) -> ScreenSpec:
        rows = self.shown(route)
        chosen = str(route.get("filter", FILTERS[0]))
        searching = bool(route.get("search"))
        query = str(route.get("query", ""))
        dialog = route.get("dialog")
        focused = self.phone.state.focus == SEARCH_KEY
        key = ("main", chosen, searching, query, focused, dialog, tuple(self.categories()),
               tuple((r["_id"], r.get("title", ""), r.get("description", ""), r.get("source", "")) for r in rows))  # fmt: skip
        return self.reused_spec(key, lambda: self._list_screen(rows, chosen, searching, query, focused, dialog))

    def _recipes_toolbar(self, chosen: str, searching: bool, query: str, focused: bool) -> Group:
        height = dp(56)
        parts: list[tuple[Widget, Bounds]] = []
        if searching:
            collapse = MaterialIconButton("Collapse", "arrow_back", theme=SECOND_BAR_THEME, on_tap=self._collapse)
            parts.append((collapse, (dp(4), dp(4), dp(52), dp(52))))
            field = TextField(SEARCH_KEY, query, hint=f"Search in {chosen.upper()}", on_change=self._query, focused=focused,
                              rid=RID + "search_src_text", height=dp(48))  # fmt: skip
            right = 1080 - dp(52) if query else 1080 - dp(8)
            parts.append((field, (dp(64), dp(4), right, dp(52))))
            if query:
                clear = MaterialIconButton(
                    "Clear query", "close", theme=SECOND_BAR_THEME, on_tap=lambda: self._query(""), rid=RID + "search_close_btn"
                )
                clear.class_name = "android.widget.ImageView"  # type: ignore[misc]
                parts.append((clear, (1080 - dp(52), dp(4), 1080 - dp(4), dp(52))))
        else:
            name = Label(chosen, size=dp(16), color=WHITE, width=1080 - dp(120), rid="android:id/text1", height=dp(24))
            spinner = Group([(name, (dp(8), dp(12), 1080 - dp(120), dp(36)))], class_name="android.widget.Spinner",
                            desc="Categories", rid=RID + "spinner", height=dp(48), on_tap=lambda: self.set_dialog("categories"),
                            fill=GREEN_500)  # fmt: skip
            parts.append((spinner, (dp(16), dp(4), 1080 - dp(56), dp(52))))
            parts.append((ActionMenuItem("Search", "search", theme=SECOND_BAR_THEME, on_tap=self._open_search, rid=RID + "action_search"),
                          (1080 - dp(52), dp(4), 1080 - dp(4), dp(52))))  # fmt: skip
        return Group(parts, class_name="android.view.ViewGroup", rid=RID + "toolbar_recipes", height=height, fill=GREEN_500)

    def _list_screen(self, rows: list[dict[str, str]], chosen: str, searching: bool, query: str, focused: bool,
                     dialog: str | None) -> ScreenSpec:  # fmt: skip
        body: list[Widget] = []
        for r in rows:  # each card 8 dp in from the sides and below the one before
            card = RecipeCard(r, functools.partial(self._open, r["_id"]))
            body.append(
                Group(
                    [(card, (dp(8), dp(8), 1080 - dp(8), dp(8) + card.height))],
                    class_name="android.widget.FrameLayout",
                    height=card.height + dp(8),
                )
            )
        if not rows:
            empty = [
                Label("No recipes found.", size=dp(22), width=dp(300), pad=dp(4)),
                Label("create a new recipe", size=dp(22), width=dp(300), pad=dp(4)),
                Label("import a recipe from a website", size=dp(22), width=dp(300), pad=dp(4)),
            ]
            body = [column(empty, x=dp(50), width=1080 - dp(100), rid=RID + "recipes_empty")]
        shown_dialog = None
        if dialog == "categories":
            options = [*FILTERS, *self.categories()]
            shown_dialog = Dialog(
                "", [], body=[SpinnerItem(text=o, selected=o == chosen, on_tap=functools.partial(self._pick, o)) for o in options]
            )
        app_bar = column([self._main_bar("Recipes"), self._recipes_toolbar(chosen, searching, query, focused)])
        fab = Fab("New Recipe", "add", theme=THEME, on_tap=self._new, rid=RID + "fab_recipes")
        return ScreenSpec(title=None, app_bar=app_bar, body=body, fab=fab, dialog=shown_dialog, list_id="recycler_view")

    def _pick(self, choice: str) -> None:
        self.route.update(filter=choice, scroll=0)
        self.set_dialog(None)

    def _open(self, recipe_id: str) -> None:
        self.push("details", recipe_id=recipe_id)

    # --- search -------------------------------------------------------------------------------

    def _open_search(self) -> None:
        # The SearchView expands in the toolbar, focused, the keyboard up.
        self.route.update(search=True, query="", scroll=0)
        self.phone.focus(SEARCH_KEY)

    def _query(self, text: str) -> None:
        self.route.update(query=text, scroll=0)
        self.phone.invalidate()

    def _collapse(self) -> None:
        self.route.update(search=False, query="", scroll=0)
        self.phone.focus(None)

    def back(self) -> bool:
        route = self.route
        if route["screen"] == "main" and route.get("search") and not route.get("dialog"):
            self._collapse()
            return True
        if route["screen"] == "edit" and not route.get("dialog") and self._changed(route):
            self.set_dialog("discard")
            return True
        return super().back()

    # --- the drawer and categories --------------------------------------------------------------

    def screen_drawer(self, route: Route) -> ScreenSpec:
        under = self.stack[-2]["screen"] if len(self.stack) > 1 else "main"
        current = "Categories" if under == "categories" else "Recipes"

        def go(item: str) -> None:
            if item == "Recipes":
                self.reset_to("main")
            elif item == "Categories":
                self.reset_to("main")
                self.push("categories")
            else:
                self.pop()  # the other destinations are not simulated: the drawer closes

        header = column(
            [Icon("eco", color=WHITE, size=dp(64), height=dp(72)), Label("Broccoli", size=dp(14), color=WHITE),
             Label("Free for everyone", size=dp(14), color=WHITE, rid=RID + "header_subtitle")],
            x=dp(16), width=dp(250), height=dp(176), fill=GREEN,
        )  # fmt: skip
        items: list[Widget] = [header, Text("", height=dp(8))]
        for n, item in enumerate(DRAWER_ITEMS):
            if n in (3, 4):
                items.append(Text("", height=dp(17)))  # the groups' dividers
            items.append(
                DrawerItem(text=item, selected=item == current, on_tap=functools.partial(go, item), rid=RID + "design_menu_item_text")
            )
        return ScreenSpec(title=None, body=items, list_id="design_navigation_view")

    def screen_categories(self, route: Route) -> ScreenSpec:
        names = self.categories()
        body: list[Widget] = [Label(n, size=dp(16), rid=RID + "card_text_view_category_name", pad=dp(16)) for n in names]
        if not names:
            body = [Label("Create custom categories to manage your recipes.", size=dp(16), pad=dp(16), rid=RID + "categories_empty")]
        dialog = None
        if route.get("dialog") == "add":
            dialog = Dialog(
                "Add category",
                [
                    Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)),
                    Button("Save", filled=False, on_tap=self._add_category),
                ],
                body=[edit_field(self, route, "category_name", hint="Name", rid=RID + "category_name")],
            )
        fab = Fab("Add category", "add", theme=THEME, on_tap=lambda: self.set_dialog("add", category_name=""), rid=RID + "fab_categories")
        return ScreenSpec(title=None, app_bar=self._main_bar("Categories"), body=body, fab=fab, dialog=dialog)

    def _add_category(self) -> None:
        name = str(self.route.get("category_name", "")).strip()
        if name:
            self.phone.state.app_data.setdefault(PACKAGE, {}).setdefault("categories", []).append(name)
        self.set_dialog(None)

    # --- a recipe's page ----------------------------------------------------------------------

    def screen_details(self, route: Route) -> ScreenSpec:
        recipe = self.recipe(route["recipe_id"])
        if recipe is None:
            self.pop()
            return self.build()
        width = 1080 - 2 * dp(16)
        body: list[Widget] = [Label(recipe.get("title", "").strip(), size=dp(22), width=width, pad=dp(16), rid=RID + "details_title")]

        def icon_row(icon: str, desc: str, name: str, value: str) -> Group:
            label = Label(value, size=dp(14), width=width - dp(40), rid=RID + f"details_{name}")
            h = max(dp(24), label.height)
            return Group([(Icon(icon, desc, rid=RID + f"details_icon_{name}"), (dp(16), 0, dp(40), dp(24))),
                          (label, (dp(56), (dp(24) - label.height) // 2 if label.height < dp(24) else 0, 1080 - dp(16), h))],
                         height=h + dp(8))  # fmt: skip

        if recipe.get("servings"):
            body.append(icon_row("person", "Servings", "servings", recipe["servings"]))
        if recipe.get("preparationTime"):
            body.append(icon_row("schedule", "Time", "preparation_time", recipe["preparationTime"]))
        if recipe.get("description"):
            body.append(
                column(
                    [Label(recipe["description"], size=dp(14), width=width, pad=dp(8), rid=RID + "details_description")],
                    x=dp(16),
                    width=width,
                )
            )
        if recipe.get("source"):
            body.append(icon_row("link", "Source", "source", recipe["source"]))
        if found := ingredients(recipe.get("ingredients", "")):
            body.append(column([Label("Ingredients", size=dp(18), color=GREEN, pad=dp(8))], x=dp(16), width=width))
            rows = []
            for quantity, text in found:
                q = Label(quantity, size=dp(14), width=dp(64), rid=RID + "ingredient_quantity")
                t = Label(text, size=dp(14), width=width - dp(80), rid=RID + "ingredient_text")
                h = max(q.height, t.height) + dp(8)
                rows.append(
                    Group([(q, (dp(16), dp(4), dp(80), dp(4) + q.height)), (t, (dp(88), dp(4), 1080 - dp(16), dp(4) + t.height))], height=h)
                )
            body.append(column(rows, rid=RID + "details_ingredients"))
        if steps := directions(recipe.get("directions", "")):
            body.append(column([Label("Directions", size=dp(18), color=GREEN, pad=dp(8))], x=dp(16), width=width))
            rows = []
            for n, text in enumerate(steps, 1):
                p = Label(str(n), size=dp(22), color=GREEN, width=dp(32), rid=RID + "direction_position")
                t = Label(text, size=dp(14), width=width - dp(56), rid=RID + "direction_text")
                h = max(p.height, t.height) + dp(12)
                rows.append(
                    Group([(p, (dp(16), dp(6), dp(56), dp(6) + p.height)), (t, (dp(64), dp(6), 1080 - dp(16), dp(6) + t.height))], height=h)
                )
            body.append(column(rows, rid=RID + "details_directions"))
        body.append(Text("", height=dp(88)))  # room under the FAB
        favourite = recipe.get("favorite", "0") not in ("", "0")

        def toggle() -> None:
            self._update(recipe["_id"], {"favorite": "0" if favourite else "1"})

        like = ActionMenuItem(
            "Remove from favorites" if favourite else "Mark as favorite",
            "favorite" if favourite else "favorite_border",
            theme=BAR_THEME,
            on_tap=toggle,
            rid=RID + ("action_details_unlike" if favourite else "action_details_like"),
        )
        more = OverflowButton(on_tap=lambda: self.set_dialog("menu"), theme=BAR_THEME)
        up = MaterialIconButton("Navigate up", "arrow_back", theme=BAR_THEME, on_tap=self.pop)
        bar = PlainBar(recipe.get("title", "").strip(), navigation=up, actions=[like, more], theme=BAR_THEME, rid=RID + "toolbar")
        dialog = None
        if route.get("dialog") == "menu":
            actions = {"Edit": lambda: self._edit(recipe), "Delete": lambda: self.set_dialog("delete")}
            dialog = Dialog("", [], body=[MenuRow(i, actions.get(i, lambda: self.set_dialog(None))) for i in DETAILS_MENU])
        elif route.get("dialog") == "delete":
            dialog = Dialog(
                "",
                [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)),
                 Button("Delete", filled=False, on_tap=lambda: self._delete(recipe["_id"]))],
                message="Delete this recipe?",
            )  # fmt: skip
        fab = Fab("Cook", "restaurant", theme=THEME, on_tap=lambda: None, rid=RID + "fab_cooking_assistant")
        return ScreenSpec(
            title=None, app_bar=bar, body=body, fab=fab, dialog=dialog, list_id="scroll_view", list_class="android.widget.ScrollView"
        )

    def _delete(self, recipe_id: str) -> None:
        self.set_dialog(None)
        self.phone.content_delete(RECIPES_URI, where={"_id": recipe_id})
        self.pop()

    # --- create and edit ----------------------------------------------------------------------

    def _new(self) -> None:
        self.push("edit", recipe_id=None, **{column: "" for column, _, _, _ in FIELDS})
        self.phone.focus(field_key(self, self.route, "title"))  # the first field takes the focus

    def _edit(self, recipe: dict[str, str]) -> None:
        self.set_dialog(None)
        self.push("edit", recipe_id=recipe["_id"], **{column: recipe.get(column, "") for column, _, _, _ in FIELDS})

    def _changed(self, route: Route) -> bool:
        old = self.recipe(route["recipe_id"]) if route.get("recipe_id") is not None else {}
        return any(str(route.get(c, "")) != (old or {}).get(c, "") for c, _, _, _ in FIELDS)

    def _save(self) -> None:
        route = self.route
        values = {column: str(route.get(column, "")) for column, _, _, _ in FIELDS}
        if not values["title"].strip():
            return  # a toast: "Please add a title."
        if route["recipe_id"] is None:
            self.phone.content_insert(RECIPES_URI, {**values, "favorite": "0", "imageName": ""})
            new_id = max((r["_id"] for r in self.phone.content_query(RECIPES_URI)), key=lambda i: int(i or 0))
            self.pop()
            self.route.update(search=False, query="", filter=FILTERS[0])  # the list resets its category
            self.push("details", recipe_id=new_id)  # and opens the new recipe
        else:
            self._update(route["recipe_id"], values)
            self.pop()

    def _close(self) -> None:
        if self._changed(self.route):
            self.set_dialog("discard")
        else:
            self.pop()

    def screen_edit(self, route: Route) -> ScreenSpec:
        camera = Icon("photo_camera", "Change photo", color=GRAY_600, size=dp(32))
        photo = Group([(camera, (1080 - dp(64), dp(160), 1080 - dp(16), dp(200)))],
                      class_name="android.widget.ImageView", desc="Recipe photo", rid=RID + "new_image", height=dp(220),
                      on_tap=lambda: None, fill=(238, 238, 238))  # fmt: skip
        body: list[Widget] = [photo]
        for column_name, suffix, hint, area in FIELDS:
            body.append(edit_field(self, route, column_name, hint=hint, area=area, rid=RID + f"new_{suffix}"))
            if column_name == "title":
                categories = TextField(
                    f"{PACKAGE}.categories", "", hint="Categories", on_change=lambda _v: None, rid=RID + "new_categories"
                )
                body.append(categories)
        dialog = None
        if route.get("dialog") == "discard":
            dialog = Dialog(
                "",
                [
                    Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None)),
                    Button("Discard", filled=False, on_tap=self._discard),
                ],
                message="Discard changes?",
            )
        up = MaterialIconButton("Navigate up", "close", theme=BAR_THEME, on_tap=self._close)
        save = TextAction("Save", on_tap=self._save, rid=RID + "button_save_recipe")
        bar = TopAppBar("New Recipe", navigation=up, actions=[save], theme=BAR_THEME, rid=RID + "toolbar")
        return ScreenSpec(title=None, app_bar=bar, body=body, dialog=dialog)

    def _discard(self) -> None:
        self.set_dialog(None)
        self.pop()


# --- the app's database: broccoli (Room) -------------------------------------------------------------------

_BROCCOLI_TEXT = ("imageName", "description", "servings", "preparationTime", "source", "ingredients", "directions")
_FTS_DELETE = "DELETE FROM `recipes_fts` WHERE `docid`=OLD.`rowid`"
_FTS_INSERT = (
    "INSERT INTO `recipes_fts`(`docid`, `title`, `description`, `source`, `ingredients`) "
    "VALUES (NEW.`rowid`, NEW.`title`, NEW.`description`, NEW.`source`, NEW.`ingredients`)"
)

BROCCOLI_DB: Final = declare(
    AppDatabase(
        path=f"{DATA_ROOT}/com.flauschcode.broccoli/databases/broccoli",
        # Room's schema of the app's database version 1 (Broccoli 1.2.6, the build AndroidWorld
        # installs: app/schemas/.../BroccoliDatabase/1.json), with the full-text index its search
        # reads and the triggers with which Room keeps that index in step.
        schema=room_schema(
            "1548e88f42d976a4b4915ca1cfa71e00",
            "CREATE TABLE `recipes` (`recipeId` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `title` TEXT, `imageName` TEXT, "
            "`description` TEXT, `servings` TEXT, `preparationTime` TEXT, `source` TEXT, `ingredients` TEXT, `directions` TEXT, "
            "`favorite` INTEGER NOT NULL)",
            "CREATE TABLE `categories` (`categoryId` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `name` TEXT)",
            "CREATE TABLE `recipes_with_categories` (`recipeId` INTEGER NOT NULL, `categoryId` INTEGER NOT NULL, "
            "PRIMARY KEY(`recipeId`, `categoryId`), FOREIGN KEY(`recipeId`) REFERENCES `recipes`(`recipeId`) "
            "ON UPDATE NO ACTION ON DELETE CASCADE , FOREIGN KEY(`categoryId`) REFERENCES `categories`(`categoryId`) "
            "ON UPDATE NO ACTION ON DELETE CASCADE )",
            "CREATE INDEX `index_recipes_with_categories_recipeId` ON `recipes_with_categories` (`recipeId`)",
            "CREATE INDEX `index_recipes_with_categories_categoryId` ON `recipes_with_categories` (`categoryId`)",
            "CREATE VIRTUAL TABLE `recipes_fts` USING FTS4(`title` TEXT, `description` TEXT, `source` TEXT, `ingredients` TEXT, "
            "tokenize=unicode61 `tokenchars=#`, content=`recipes`)",
            *(
                f"CREATE TRIGGER room_fts_content_sync_recipes_fts_{when}_{what} {when} {what} ON `recipes` BEGIN {body}; END"
                for when, what, body in (
                    ("BEFORE", "UPDATE", _FTS_DELETE),
                    ("BEFORE", "DELETE", _FTS_DELETE),
                    ("AFTER", "UPDATE", _FTS_INSERT),
                    ("AFTER", "INSERT", _FTS_INSERT),
                )
            ),
        ),
        # The app saves an empty field as an empty string, as AndroidWorld's rows do.
        tables=(
            Table(
                "recipes",
                BROCCOLI_RECIPES,
                defaults={
                    k: "" for k in ("imageName", "description", "servings", "preparationTime", "source", "ingredients", "directions")
                },
            ),
        ),
    )
)
