"""Broccoli (com.flauschcode.broccoli), the recipe app: a recipe list filtered by All recipes or
Favorites, a search over titles, descriptions, sources and ingredients, a recipe's page with its
favourite toggle and a More options menu (Share, Edit, Delete), and the create/edit form with
every field the app stores.

Recipes live in ``content://com.flauschcode.broccoli/recipes``, whose rows carry the columns of the
app's ``recipes`` table under their database names (``title``, ``description``, ``servings``,
``preparationTime``, ``source``, ``ingredients``, ``directions``, ``favorite`` 0/1, ``imageName``;
``_id`` is ``recipeId``). That table is the app's database at its real path
(``/data/data/com.flauschcode.broccoli/databases/broccoli``, see :mod:`cerebellum_gym.sim.databases`),
which AndroidWorld reads and writes with sqlite.

What the app does follows the real one (version 1.2.6, the build AndroidWorld installs): the list
is ordered by title, case-insensitively (``ORDER BY title COLLATE NOCASE``), ties in insertion
order; the search is the app's full-text search (``recipes_fts``: title, description, source and
ingredients, not directions), each word a prefix, title hits first; a recipe is deleted from its
page (More options, Delete, then "Delete this recipe?"), one at a time: the real list has no
multi-select (a tap opens a recipe, nothing else); saving needs a title ("Please add a title.");
an edit keeps the recipe's id, favourite flag and photo. Categories, photos, sharing and the
cooking mode are not simulated (no AndroidWorld task uses them).
"""

from __future__ import annotations

import functools
import re
from typing import ClassVar

from PIL import ImageDraw

from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps.base import App, Route
from cerebellum_gym.sim.apps.common import confirm_dialog, edit_field, field_key
from cerebellum_gym.sim.databases import BROCCOLI_RECIPES as RECIPES_TABLE
from cerebellum_gym.sim.render import font
from cerebellum_gym.sim.screen import SCREEN_WIDTH, ScreenSpec
from cerebellum_gym.sim.widgets import PAD, Button, Dialog, IconButton, ListItem, Text, TextField, Widget

#: The provider URI of the recipes (the app's ``recipes`` table).
RECIPES_URI = "content://com.flauschcode.broccoli/recipes"
PACKAGE = "com.flauschcode.broccoli"
GREEN = (76, 140, 44)
#: The form's fields: (column, hint, multi-line), in the form's order.
FIELDS: tuple[tuple[str, str, bool], ...] = (
    ("title", "Title", False),
    ("description", "Description", True),
    ("servings", "Servings", False),
    ("preparationTime", "Time", False),
    ("source", "Source", False),
    ("ingredients", "Ingredients", True),
    ("directions", "Directions", True),
)
#: What the full-text index holds (``recipes_fts``), in its column order.
SEARCHED = ("title", "description", "source", "ingredients")
FILTERS = ("All recipes", "Favorites")
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
    """A multi-line field's non-empty lines, as the recipe page lists ingredients and directions."""
    return [line.strip() for line in text.splitlines() if line.strip()]


@functools.lru_cache(maxsize=1024)
def wrapped(text: str, size: int, width: int) -> tuple[str, ...]:
    """``text`` broken into lines, by words, that fit ``width`` pixels at font ``size``."""
    face = font(size)
    out: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if line and face.getlength(trial) > width:
            out.append(line)
            line = word
        else:
            line = trial
    return (*out, line)


class Paragraph(Text):
    """A ``TextView`` that wraps, as the recipe page shows a description or a step: as tall as
    its lines at full size (its node holds the whole text)."""

    def __init__(self, text: str, *, size: int = 40, **kwargs: object) -> None:
        lines = len(wrapped(text, size, SCREEN_WIDTH - 2 * PAD))
        super().__init__(text, size=size, height=lines * round(size * 1.35) + 50, **kwargs)  # type: ignore[arg-type]

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


class ToolbarIcon(IconButton):
    """A toolbar action drawn as the app's own vector icon: a heart (``♥`` filled, ``♡`` outlined)
    or the overflow menu's three dots (``⋮``), which the bundled font lacks."""

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        cx, cy, r = width / 2, height / 2, 30 * scale
        if self.glyph == "⋮":
            for dy in (-1, 0, 1):
                y = cy + dy * r * 0.8
                draw.ellipse((cx - r * 0.17, y - r * 0.17, cx + r * 0.17, y + r * 0.17), fill=self.color)
            return
        # Two lobes and a point: the heart as a polygon through its outline.
        points = [(cx, cy + r * 0.95), (cx - r, cy - r * 0.05), (cx - r * 0.95, cy - r * 0.6), (cx - r * 0.55, cy - r * 0.9),
                  (cx, cy - r * 0.5), (cx + r * 0.55, cy - r * 0.9), (cx + r * 0.95, cy - r * 0.6), (cx + r, cy - r * 0.05)]  # fmt: skip
        if self.glyph == "♥":
            draw.polygon(points, fill=self.color)
        else:
            draw.polygon(points, outline=self.color, width=max(1, round(5 * scale)))


class ToolbarTextButton(Button):
    """A text action in the toolbar (the form's Save), sized to its slot."""

    def paint(self, draw: ImageDraw.ImageDraw, width: int, height: int, scale: float) -> None:
        size = round(42 * scale)
        tw = draw.textlength(self.text, font=font(size))
        draw.text(((width - tw) / 2, (height - size) / 2), self.text, font=font(size), fill=GREEN if self.enabled else render.DISABLED)


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
        for row in self.phone.state.content.setdefault(RECIPES_TABLE, []):
            if row.get("_id") == recipe_id:
                row.update(values)
        self.phone.invalidate()

    # --- the list -----------------------------------------------------------------------------

    def _row(self, recipe: dict[str, str]) -> ListItem:
        title = recipe.get("title", "")
        return ListItem(
            title,
            recipe.get("description", ""),
            avatar=(title[:1] or "?").upper(),
            avatar_color=GREEN,
            on_tap=lambda i=recipe["_id"]: self.push("details", recipe_id=i),
            rid=f"{PACKAGE}:id/card_view",
        )

    def screen_main(self, route: Route) -> ScreenSpec:
        shown = route.get("filter", FILTERS[0])
        rows = self.recipes()
        if shown == "Favorites":
            rows = [r for r in rows if r.get("favorite", "0") not in ("", "0")]
        dialog = route.get("dialog")
        # The list shows titles and descriptions and opens recipes by id; its callbacks read
        # self.route when they run, so the spec is reused while nothing shown changes.
        key = ("main", shown, dialog, tuple((r["_id"], r.get("title", ""), r.get("description", "")) for r in rows))
        return self.reused_spec(key, lambda: self._list_screen(rows, shown, dialog))

    def _list_screen(self, rows: list[dict[str, str]], shown: str, dialog: str | None) -> ScreenSpec:
        body: list[Widget] = [ListItem(shown, "Show", on_tap=lambda: self.set_dialog("filter"), rid=f"{PACKAGE}:id/spinner", height=150)]
        body += [self._row(r) for r in rows]
        if not rows:
            body.append(Text("No recipes found.", size=44, center=True, height=300, rid=f"{PACKAGE}:id/recipe_list_empty"))

        def pick(choice: str) -> None:
            self.route["filter"] = choice
            self.route["scroll"] = 0
            self.set_dialog(None)

        shown_dialog = None
        if dialog == "filter":
            shown_dialog = Dialog(
                "Show",
                [Button("Cancel", filled=False, on_tap=lambda: self.set_dialog(None))],
                body=[ListItem(f, on_tap=lambda f=f: pick(f), selected=f == shown, height=140) for f in FILTERS],
            )
        return ScreenSpec(
            title="Recipes",
            body=body,
            actions=[IconButton("Search", "⌕", on_tap=self._open_search, rid=f"{PACKAGE}:id/action_search")],
            fab=IconButton("New Recipe", "+", color=(255, 255, 255), round_fill=GREEN, on_tap=self._new, rid=f"{PACKAGE}:id/fab"),
            dialog=shown_dialog,
        )

    # --- search -------------------------------------------------------------------------------

    def _open_search(self) -> None:
        # The search view opens expanded, with the keyboard up.
        self.push("search", query="")
        self.phone.focus(SEARCH_KEY)

    def screen_search(self, route: Route) -> ScreenSpec:
        key = SEARCH_KEY
        query = str(route.get("query", ""))
        body: list[Widget] = [
            TextField(
                key,
                query,
                hint="Search",
                on_change=self.field_setter(route, "query"),
                focused=self.phone.state.focus == key,
                rid=f"{PACKAGE}:id/search_src_text",
            )
        ]
        if query.strip():
            body += [self._row(r) for r in search(self.recipes(), query)] or [Text("No recipes found.", size=40)]
        return ScreenSpec(title="Search", up=self.pop, body=body)

    # --- a recipe's page ----------------------------------------------------------------------

    def screen_details(self, route: Route) -> ScreenSpec:
        recipe = self.recipe(route["recipe_id"])
        if recipe is None:
            return ScreenSpec(title="Recipe", up=self.pop, body=[Text("The recipe has been deleted.", size=44)])
        rid = f"{PACKAGE}:id/details_"
        body: list[Widget] = [Text(recipe.get("title", ""), size=64, height=200, bold=True, rid=f"{rid}title")]
        for column, name in (("servings", "servings"), ("preparationTime", "preparation_time")):
            if recipe.get(column):
                body.append(Text(recipe[column], size=40, height=100, rid=rid + name, desc="Servings" if column == "servings" else "Time"))
        for column in ("description", "source"):
            if recipe.get(column):
                body.append(Paragraph(recipe[column], rid=rid + column))
        for column, heading, numbered in (("ingredients", "Ingredients", False), ("directions", "Directions", True)):
            if not recipe.get(column):
                continue
            body.append(Text(heading, size=50, height=130, bold=True))
            for n, line in enumerate(lines(recipe[column]), 1):
                body.append(Paragraph(f"{n}. {line}" if numbered else line, rid=rid + column))
        favourite = recipe.get("favorite", "0") not in ("", "0")

        def toggle() -> None:
            self._update(recipe["_id"], {"favorite": "0" if favourite else "1"})

        actions: list[Widget] = [
            ToolbarIcon(
                "Remove from favorites" if favourite else "Mark as favorite",
                "♥" if favourite else "♡",
                on_tap=toggle,
                rid=f"{PACKAGE}:id/action_details_{'unlike' if favourite else 'like'}",
            ),
            ToolbarIcon("More options", "⋮", on_tap=lambda: self.set_dialog("menu")),
        ]
        dialog = None
        if route.get("dialog") == "menu":
            dialog = Dialog(
                "",
                [],
                body=[
                    ListItem("Share", on_tap=lambda: self.set_dialog(None), height=140),
                    ListItem("Edit", on_tap=lambda: self._edit(recipe), height=140),
                    ListItem("Delete", on_tap=lambda: self.set_dialog("delete"), height=140),
                ],
            )
        elif route.get("dialog") == "delete":
            dialog = confirm_dialog(self, "Delete this recipe?", "", "Delete", lambda: self._delete(recipe["_id"]))
        return ScreenSpec(title="", up=self.pop, body=body, actions=actions, dialog=dialog)

    def _delete(self, recipe_id: str) -> None:
        self.phone.content_delete(RECIPES_URI, where={"_id": recipe_id})
        self.pop()

    # --- create and edit ----------------------------------------------------------------------

    def _new(self) -> None:
        self.push("edit", recipe_id=None, error="", **{column: "" for column, _, _ in FIELDS})
        self.phone.focus(field_key(self, self.route, "title"))

    def _edit(self, recipe: dict[str, str]) -> None:
        self.set_dialog(None)
        self.push("edit", recipe_id=recipe["_id"], error="", **{column: recipe.get(column, "") for column, _, _ in FIELDS})

    def _changed(self, route: Route) -> bool:
        old = self.recipe(route["recipe_id"]) if route.get("recipe_id") is not None else {}
        return any(str(route.get(c, "")) != (old or {}).get(c, "") for c, _, _ in FIELDS)

    def _save(self, route: Route) -> None:
        values = {column: str(route.get(column, "")).strip() for column, _, _ in FIELDS}
        if not values["title"]:
            route["error"] = "Please add a title."
            self.phone.invalidate()
            return
        if route["recipe_id"] is None:
            self.phone.content_insert(RECIPES_URI, {**values, "favorite": "0", "imageName": ""})
        else:
            self._update(route["recipe_id"], values)
        self.pop()

    def _close(self) -> None:
        if self._changed(self.route):
            self.set_dialog("discard")
        else:
            self.pop()

    def back(self) -> bool:
        route = self.route
        if route["screen"] == "edit" and not route.get("dialog") and self._changed(route):
            self.set_dialog("discard")
            return True
        return super().back()

    def screen_edit(self, route: Route) -> ScreenSpec:
        body: list[Widget] = []
        if route.get("error"):
            body.append(Text(route["error"], size=40, color=(200, 30, 30), rid=f"{PACKAGE}:id/snackbar_text"))
        for column, hint, area in FIELDS:
            body.append(
                edit_field(self, route, column, hint=hint, area=area, height=300 if area else None, rid=f"{PACKAGE}:id/new_{column}")
            )
        dialog = None
        if route.get("dialog") == "discard":
            dialog = confirm_dialog(self, "Discard changes?", "", "Discard", self.pop)
        title = "New Recipe" if route["recipe_id"] is None else "Edit"
        return ScreenSpec(
            title=title,
            up=self._close,
            body=body,
            actions=[ToolbarTextButton("Save", filled=False, on_tap=lambda: self._save(route), rid=f"{PACKAGE}:id/action_save")],
            dialog=dialog,
        )
