"""Broccoli recipe tasks (AndroidWorld's ``single/recipe.py``; the recipes of
``RecipeAddMultipleRecipesFromImage`` are only in a gallery picture's pixels), judged on the
recipes provider: the app's ``recipes`` table, which
AndroidWorld pulls with root sqlite, under its database column names.

Parameters are drawn as AndroidWorld draws them (``_generate_random_recipe`` and
``sqlite_schema_utils.get_random_items``, with a numpy generator in place of ``random``), and the
judges check what AndroidWorld's ``validate_rows_removal_integrity`` and
``validate_rows_addition_integrity`` check, with partial credit on the way.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np

from cerebellum_gym.appdata.recipes import split_directions, split_ingredients
from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.devices.base import Device, Row
from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.base import Oracle
from cerebellum_gym.tasks.common import fuzzy_match
from cerebellum_gym.tasks.gallery import DCIM, ReadPictureOracle, clear_gallery, text_picture, wrapped
from cerebellum_gym.tasks.markor import ROOT as MARKOR_ROOT
from cerebellum_gym.tasks.oracle import ScriptedOracle, by_id, find, label_for
from cerebellum_gym.tasks.registry import register_task
from cerebellum_gym.tasks.rowstore import AddRowsTask, DeleteDuplicateRowsTask, DeleteRowsTask, RowStoreTask

PACKAGE = "com.flauschcode.broccoli"
RECIPES_URI = "content://com.flauschcode.broccoli/recipes"
APP_LABEL = "Broccoli"
#: The fields AndroidWorld's goals list, in its order (``_get_rows_as_text``).
GOAL_FIELDS = ("title", "description", "servings", "preparationTime", "ingredients", "directions")
#: The fields an added recipe is compared on, and which of them fuzzily (AndroidWorld's
#: ``compare_fields`` and ``free_form_fields``).
COMPARED = ("title", "description", "servings", "preparationTime", "source", "ingredients", "directions", "favorite")
FREE_FORM = frozenset(COMPARED) - {"favorite"}
#: Every column of a recipe besides its id, with the value a new one gets.
COLUMNS = {c: "" for c in COMPARED} | {"favorite": "0", "imageName": ""}

Recipe = dict[str, str]
#: The form's text fields (activity_new_recipe.xml): column, id suffix (``new_<suffix>``).
FORM_FIELDS = (
    ("title", "title"),
    ("description", "description"),
    ("source", "source"),
    ("servings", "servings"),
    ("preparationTime", "preparation_time"),
    ("ingredients", "ingredients"),
    ("directions", "directions"),
)


def random_recipe(rng: np.random.Generator) -> Recipe:
    """One recipe as ``_generate_random_recipe`` draws it: a known title with its directions and
    one of three additions, and a drawn description, servings, time and ingredients text."""
    title, directions = awdata.RECIPES[int(rng.integers(len(awdata.RECIPES)))]
    return {
        **COLUMNS,
        "title": title,
        "description": awdata.pick(rng, awdata.RECIPE_DESCRIPTIONS),
        "servings": awdata.pick(rng, awdata.RECIPE_SERVINGS),
        "preparationTime": awdata.pick(rng, awdata.RECIPE_PREP_TIMES),
        "directions": f"{directions} {awdata.pick(rng, awdata.RECIPE_DIRECTIONS_ADDITIONS)}",
        "ingredients": awdata.pick(rng, awdata.RECIPE_INGREDIENT_DESCRIPTORS),
    }


def random_recipes(
    rng: np.random.Generator, n: int, keep: Callable[[Recipe], bool] = lambda r: True, *, replacement: bool = False
) -> list[Recipe]:
    """``n`` recipes that pass ``keep``, all different unless ``replacement`` (``get_random_items``).

    Raises:
        ValueError: 10,000 draws did not give ``n`` (AndroidWorld's limit, and its error).
    """
    out: list[Recipe] = []
    for _ in range(10_000):
        if len(out) >= n:
            break
        candidate = random_recipe(rng)
        if keep(candidate) and (replacement or candidate not in out):
            out.append(candidate)
    if len(out) < n:
        raise ValueError(f"generation exhausted: {len(out)} of {n} recipes")
    return out


def from_aw_row(recipe: Any) -> Recipe:
    """One of AndroidWorld's ``Recipe`` rows (a dataclass) as a provider row."""
    return {c: str(getattr(recipe, c, "") if c != "favorite" else int(getattr(recipe, c, 0) or 0)) for c in COLUMNS}


def render_recipes(rows: list[Recipe], csv: bool, wrap: int | None = None) -> str:
    """The goal's listing in AndroidWorld's two representations (``get_text_representation_of_rows``),
    a text block's values wrapped at ``wrap`` characters when given (as AndroidWorld pictures them)."""
    if csv:
        return "|".join(GOAL_FIELDS) + "\n" + "\n".join("|".join(r[f] for f in GOAL_FIELDS) for r in rows)
    blocks = [f"Recipe: {r['title']}\n" + "".join(f" {f}: {wrapped(r[f], wrap)}\n" for f in GOAL_FIELDS[1:]) for r in rows]
    return "\n".join(blocks)


def same_recipe(row: Row, want: Recipe) -> bool:
    """Equal in every column but the id (AndroidWorld's dataclass equality without ``recipeId``)."""
    return all(row.get(c, "") == want.get(c, "") for c in COLUMNS)


def typeable(text: str) -> str:
    """``text`` with its accents dropped (``Sauté`` -> ``Saute``): what an emulator's keyboard can
    type over adb, which still fuzzy-matches the original."""
    folded = unicodedata.normalize("NFKD", text)
    return "".join(c for c in folded if not unicodedata.combining(c)).encode("ascii", "ignore").decode("ascii")


def matches(row: Row, want: Recipe) -> bool:
    """An added row that counts as ``want``: equal favourite flag, fuzzy free-form fields."""
    return all(fuzzy_match(row.get(c, ""), want[c]) if c in FREE_FORM else row.get(c, "") == want[c] for c in COMPARED)


# --- oracles -------------------------------------------------------------------------------------


class AddRecipesOracle(ScriptedOracle):
    """New Recipe, every non-empty field typed in the form's order, Save; once per recipe."""

    def __init__(self, rows: list[Recipe]) -> None:
        super().__init__()
        self.rows = rows
        self.done = 0
        self.filled: set[str] = set()  # the current recipe's fields typed (some scroll away)

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, PACKAGE, APP_LABEL)
        if step is not None:
            return step
        if self.done >= len(self.rows):
            return "F"
        want = self.rows[self.done]
        if screen.root.find(resource_id=f"{PACKAGE}:id/button_save_recipe") is not None:  # the form
            for column, suffix in FORM_FIELDS:
                if not want[column] or column in self.filled:
                    continue
                hit = find(screen, by_id(f"{PACKAGE}:id/new_{suffix}"))
                if hit is None:  # the form is longer than the screen
                    return self.scroll_search(screen)
                text = typeable(want[column])
                if hit[1].text != text:
                    return self.type_into(screen, hit[1], hit[0], text)
                self.filled.add(column)
            self.done += 1
            self.filled = set()
            return self.tap(label_for(screen, text="Save") or "")
        if screen.root.find(resource_id=f"{PACKAGE}:id/details_title") is not None:
            return "B"
        return self.tap(label_for(screen, desc="New Recipe") or "")


def detail_texts(row: Recipe) -> dict[str, list[str]]:
    """What a recipe's page shows, by the resource id of each text (without the package): the
    details, each ingredient's quantity and text, each step's number and text."""
    shown: dict[str, list[str]] = {"details_title": [row["title"].strip()]}
    for column, rid in (
        ("servings", "details_servings"),
        ("preparationTime", "details_preparation_time"),
        ("description", "details_description"),
        ("source", "details_source"),
    ):
        if row[column]:
            shown[rid] = [row[column]]
    found = split_ingredients(row["ingredients"])
    if found:
        shown["ingredient_quantity"] = [q for q, _ in found]
        shown["ingredient_text"] = [t for _, t in found]
    steps = split_directions(row["directions"])
    if steps:
        shown["direction_position"] = [str(n) for n in range(1, len(steps) + 1)]
        shown["direction_text"] = steps
    return shown


PAGE_IDS = frozenset(
    f"{PACKAGE}:id/{rid}"
    for rid in ("details_title", "details_servings", "details_preparation_time", "details_description", "details_source",
                "ingredient_quantity", "ingredient_text", "direction_position", "direction_text")
)  # fmt: skip


def page_texts(screen: LabelledScreen) -> dict[str, list[str]]:
    shown: dict[str, list[str]] = {}
    for node in screen.root.iter():
        if node.resource_id in PAGE_IDS:
            shown.setdefault(node.resource_id.split(":id/")[1], []).append(node.text)
    return shown


class DeleteRecipesOracle(ScriptedOracle):
    """For each recipe to delete: search its title (unless every recipe is on screen), open the
    results with that title in turn, from the last, until the page shows exactly that recipe,
    then More options, Delete, Delete."""

    def __init__(self, rows: list[Recipe]) -> None:
        super().__init__()
        self.remaining = list(rows)
        self.tried: dict[str, int] = {}  # pages of this title opened and found to be another recipe
        self.pending: Recipe | None = None
        self._results: tuple[str, ...] | None = None  # the results screen last scrolled
        self.query: str | None = None  # what the search screen searches for

    def act(self, screen: LabelledScreen) -> str:
        step = self.open_app(screen, PACKAGE, APP_LABEL)
        if step is not None:
            return step
        if screen.root.find(text="Delete this recipe?") is not None:
            if self.pending in self.remaining:
                self.remaining.remove(self.pending)
            return self.tap(label_for(screen, text="Delete") or "")
        if screen.root.find(resource_id=f"{PACKAGE}:id/title", text="Delete") is not None:  # the More options menu
            return self.tap(label_for(screen, text="Delete") or "")
        if screen.root.find(resource_id=f"{PACKAGE}:id/details_title") is not None:
            shown = page_texts(screen)
            hit = next((r for r in self.remaining if detail_texts(r) == shown), None)
            if hit is not None:  # any recipe still to delete (several may share a title)
                self.pending = hit
                return self.tap(label_for(screen, desc="More options") or "")
            if self.remaining:
                title = self.remaining[0]["title"]
                self.tried[title] = self.tried.get(title, 0) + 1
            return "B"
        # The list, with the search expanded in its toolbar or not (an empty field shows its hint).
        field = find(screen, by_id(f"{PACKAGE}:id/search_src_text"))
        on_search = field is not None
        if field is None:
            self.query = None
        else:
            self.query = "" if field[1].text.startswith("Search in ") else field[1].text
        if not self.remaining:
            return "B" if on_search else "F"
        want = self.remaining[0]
        if not on_search and screen.scrollable is not None:
            # Not every recipe is on screen: search for it, so that every recipe of its title is.
            return self.tap(label_for(screen, desc="Search") or "")
        if on_search and self.query != want["title"]:
            if self.query or field is None:  # another recipe's query: start a new search
                return "B"
            return self.type_into(screen, field[1], field[0], want["title"])
        if screen.scrollable is not None:
            # The rows to delete were added last, so they list last among their title: go to the
            # end of the results and open them from the bottom up.
            signature = self._signature(screen)
            if signature != self._results:
                self._results = signature
                return "D"
        hits = [
            label
            for label, node in zip(screen.labels, screen.nodes, strict=True)
            if node.clickable
            and any(n.resource_id == f"{PACKAGE}:id/card_text_view_title" and n.text == want["title"] for n in node.iter())
        ]
        index = self.tried.get(want["title"], 0)
        if index < len(hits):
            return self.tap(hits[len(hits) - 1 - index])
        self.remaining.pop(0)  # no page shows it: leave it
        return "B"


class _Recipes(RowStoreTask):
    """Broccoli's recipes: the table every task of the family works on."""

    app: ClassVar[str] = "Broccoli"
    family: ClassVar[str] = "recipe"
    uri: ClassVar[str] = RECIPES_URI
    new_row: ClassVar[Mapping[str, str]] = COLUMNS


# --- deleting ------------------------------------------------------------------------------------


class _DeleteRecipes(_Recipes, DeleteRowsTask):
    template = "Delete the following recipes from Broccoli app: {titles}."
    judge = (
        "Every other recipe is unchanged and none was added (else 0); credit is the share of the target recipes deleted "
        "(AndroidWorld scores it 0/1)."
    )
    count: ClassVar[int] = 1
    noise: ClassVar[int] = 0

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        # Distinct titles across targets and noise; the noise is the first rows drawn.
        drawn: list[Recipe] = []
        while len(drawn) < cls.count + cls.noise:
            candidate = random_recipe(rng)
            if all(candidate["title"] != r["title"] for r in drawn):
                drawn.append(candidate)
        return cls._params(drawn[cls.noise :], drawn[: cls.noise])

    @classmethod
    def _params(cls, rows: list[Recipe], noise: list[Recipe]) -> dict[str, Any]:
        return {"rows": rows, "noise": noise, "titles": ", ".join(r["title"] for r in rows)}

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        rows = [from_aw_row(r) for r in params.get("row_objects", [])]
        noise = [from_aw_row(r) for r in params.get("noise_row_objects", [])]
        return {**cls._params(rows, noise), **{k: v for k, v in params.items() if k == "ingredient"}}

    def initialize(self, device: Device) -> None:
        self.clear(device)
        for row in [*self.params["noise"], *self.params["rows"]]:  # AndroidWorld adds the noise first
            self.insert(device, row)
        self.baseline(device)

    def target_ids(self, before: Mapping[str, Row]) -> set[str]:
        # The rows added last (as AndroidWorld picks them), one per target.
        ordered = sorted(before, key=int)
        return set(ordered[len(ordered) - len(self.params["rows"]) :]) if self.params["rows"] else set()

    def text_candidates(self) -> list[str]:
        return [r["title"] for r in self.params["rows"]]

    def oracle(self) -> Oracle:
        return DeleteRecipesOracle(self.params["rows"])


@register_task
class RecipeDeleteSingleRecipe(_DeleteRecipes):
    mirrors = "RecipeDeleteSingleRecipe"
    complexity: ClassVar[float] = 1.0


@register_task
class RecipeDeleteSingleWithRecipeWithNoise(_DeleteRecipes):
    mirrors = "RecipeDeleteSingleWithRecipeWithNoise"
    complexity: ClassVar[float] = 2.0
    noise = 29


@register_task
class RecipeDeleteMultipleRecipes(_DeleteRecipes):
    mirrors = "RecipeDeleteMultipleRecipes"
    complexity: ClassVar[float] = 2.4
    count = 3


@register_task
class RecipeDeleteMultipleRecipesWithNoise(_DeleteRecipes):
    mirrors = "RecipeDeleteMultipleRecipesWithNoise"
    complexity: ClassVar[float] = 3.4
    count = 3
    noise = 29


@register_task
class RecipeDeleteMultipleRecipesWithConstraint(_DeleteRecipes):
    mirrors = "RecipeDeleteMultipleRecipesWithConstraint"
    complexity: ClassVar[float] = 4.0
    template = "Delete the recipes from Broccoli app that use {ingredient} in the directions."
    count = 3
    noise = 29

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        # As AndroidWorld, the ingredient is matched against lower-cased directions as written.
        # Unlike AndroidWorld, only an ingredient some recipe's directions contain as written
        # (AndroidWorld's draw leaves nothing to delete a third of the time: the goal then holds
        # at the start, and an agent that says done at once succeeds).
        usable = [i for i in awdata.RECIPE_INGREDIENTS if _used(i)]
        ingredient = awdata.pick(rng, usable)
        noise = random_recipes(rng, cls.noise, lambda r: ingredient not in r["directions"].lower())
        targets = random_recipes(rng, cls.count, lambda r: ingredient in r["directions"].lower())
        return {**cls._params(targets, noise), "ingredient": ingredient}

    def text_candidates(self) -> list[str]:
        return [self.params["ingredient"], *super().text_candidates()]


def _used(ingredient: str) -> bool:
    """Whether some recipe's directions contain ``ingredient`` as AndroidWorld looks for it."""
    return any(ingredient in f"{d} {a}".lower() for _, d in awdata.RECIPES for a in awdata.RECIPE_DIRECTIONS_ADDITIONS)


# --- deleting duplicates ---------------------------------------------------------------------------


class _DeleteDuplicates(_DeleteRecipes, DeleteDuplicateRowsTask):
    template = (
        "Delete all but one of any recipes in the Broccoli app that are exact duplicates, "
        "ensuring at least one instance of each unique recipe remains"
    )
    judge = "Exactly one of the two identical recipes is deleted and every other recipe is unchanged (none added)."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        rows = random_recipes(rng, cls.noise + 1)
        target = rows.pop()
        return cls._params([target, target], rows)

    @classmethod
    def _variants(cls, rng: np.random.Generator, noise: list[Recipe], target: Recipe, keep: Callable[[Recipe], bool]) -> None:
        """Add recipes like the target but different in some field until the noise is complete."""
        while len(noise) < cls.noise:
            value = random_recipes(rng, 1, keep, replacement=True)[0]
            if value != target:
                noise.append(value)

    # The duplicates are the two rows added last (AndroidWorld's rows_to_delete).

    def oracle(self) -> Oracle:
        return DeleteRecipesOracle(self.params["rows"][:1])


@register_task
class RecipeDeleteDuplicateRecipes(_DeleteDuplicates):
    mirrors = "RecipeDeleteDuplicateRecipes"
    complexity: ClassVar[float] = 1.0
    noise = 5


@register_task
class RecipeDeleteDuplicateRecipes2(_DeleteDuplicates):
    mirrors = "RecipeDeleteDuplicateRecipes2"
    complexity: ClassVar[float] = 2.4
    noise = 10

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        noise = random_recipes(rng, 7)
        target = noise.pop()
        cls._variants(rng, noise, target, lambda r: r["title"] == target["title"])
        return cls._params([target, target], noise)


@register_task
class RecipeDeleteDuplicateRecipes3(_DeleteDuplicates):
    mirrors = "RecipeDeleteDuplicateRecipes3"
    complexity: ClassVar[float] = 3.4
    noise = 30

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        first = "Avocado Toast with Egg"
        noise = random_recipes(rng, 22, lambda r: r["title"] != first)
        target = noise.pop()
        noise += random_recipes(rng, 3, lambda r: r["title"] == first)  # at the top of the list
        cls._variants(rng, noise, target, lambda r: r["title"] == target["title"] and r["description"] == target["description"])
        return cls._params([target, target], noise)


# --- adding --------------------------------------------------------------------------------------


class _AddRecipes(_Recipes, AddRowsTask):
    template = "Add the following recipes into the Broccoli app:\n{recipes}"
    judge = (
        "Every earlier recipe is unchanged (else 0); each target must appear with fuzzy title, description, servings, time, "
        "source, ingredients and directions and not marked favourite; credit is matched targets over max(targets, rows added), "
        "so a missing or an extra row costs (AndroidWorld scores it 0/1)."
    )
    count: ClassVar[int] = 1
    noise: ClassVar[int] = 10

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        rows = random_recipes(rng, cls.count)
        # AndroidWorld's filter keeps a noise row whose title differs from any target's.
        noise = random_recipes(rng, cls.noise, lambda r: any(r["title"] != t["title"] for t in rows))
        return cls._params(rows, noise, bool(rng.random() < 0.5))

    @classmethod
    def _params(cls, rows: list[Recipe], noise: list[Recipe], csv: bool, **extra: Any) -> dict[str, Any]:
        return {"rows": rows, "noise": noise, "csv": csv, "recipes": render_recipes(rows, csv), **extra}

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        rows = [from_aw_row(r) for r in params["row_objects"]]
        noise = [from_aw_row(r) for r in params.get("noise_row_objects", [])]
        extra = {k: v for k, v in params.items() if k == "prep_time"}
        return cls._params(rows, noise, params.get("text_representation_type") == "csv", **extra)

    def initialize(self, device: Device) -> None:
        self.clear(device)
        for row in self.params["noise"]:
            self.insert(device, row)
        self.baseline(device)

    def matches(self, row: Row, want: Recipe) -> bool:
        return matches(row, want)

    def text_candidates(self) -> list[str]:
        return [r[c] for r in self.params["rows"] for c in GOAL_FIELDS if r[c]]

    def oracle(self) -> Oracle:
        return AddRecipesOracle(self.params["rows"])


@register_task
class RecipeAddSingleRecipe(_AddRecipes):
    mirrors = "RecipeAddSingleRecipe"
    complexity: ClassVar[float] = 2.4


@register_task
class RecipeAddMultipleRecipes(_AddRecipes):
    mirrors = "RecipeAddMultipleRecipes"
    complexity: ClassVar[float] = 6.0
    count = 3


class _AddFromMarkor(_AddRecipes):
    app: ClassVar[str] = "Broccoli"
    template = "Add the recipes from recipes.txt in Markor to the Broccoli recipe app."
    count = 3

    def file_rows(self) -> list[Recipe]:
        """The recipes written into ``recipes.txt``."""
        return list(self.params["rows"])

    def initialize(self, device: Device) -> None:
        device.remove_path(MARKOR_ROOT)  # AndroidWorld clears Markor's folder first
        device.make_dir(MARKOR_ROOT)
        text = render_recipes(self.file_rows(), self.params["csv"])
        device.write_file(f"{MARKOR_ROOT}/recipes.txt", text.encode("utf-8"))
        super().initialize(device)

    def tear_down(self, device: Device) -> None:
        device.remove_path(MARKOR_ROOT)


@register_task
class RecipeAddMultipleRecipesFromMarkor(_AddFromMarkor):
    mirrors = "RecipeAddMultipleRecipesFromMarkor"
    complexity: ClassVar[float] = 6.0


@register_task
class RecipeAddMultipleRecipesFromMarkor2(_AddFromMarkor):
    mirrors = "RecipeAddMultipleRecipesFromMarkor2"
    complexity: ClassVar[float] = 6.0
    template = "Add the recipes from recipes.txt in Markor that take {prep_time} to prepare into the Broccoli recipe app."
    noise = 40

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        prep_time = awdata.pick(rng, awdata.RECIPE_PREP_TIMES)
        rows = random_recipes(rng, cls.count, lambda r: r["preparationTime"] == prep_time)
        noise = random_recipes(rng, cls.noise, lambda r: r["preparationTime"] != prep_time)
        order = [int(i) for i in rng.permutation(len(rows) + len(noise))]
        return cls._params(rows, noise, bool(rng.random() < 0.5), prep_time=prep_time, order=order)

    def file_rows(self) -> list[Recipe]:
        # The file lists targets and noise shuffled (AndroidWorld shuffles them with `random`;
        # from its parameters the order is not known, so they are listed as drawn).
        every = [*self.params["rows"], *self.params["noise"]]
        order = self.params.get("order") or list(range(len(every)))
        return [every[i] for i in order]


@register_task
class RecipeAddMultipleRecipesFromImage(_AddRecipes):
    mirrors = "RecipeAddMultipleRecipesFromImage"
    complexity: ClassVar[float] = 6.0
    template = "Add the recipes from recipes.jpg in Simple Gallery Pro to the Broccoli recipe app."
    judge = (
        "As for adding recipes: the three recipes pictured in DCIM/recipes.jpg (text only in its pixels, values wrapped at 60 "
        "characters) are added with fuzzy title, description, servings, time, source, ingredients and directions and not marked "
        "favourite; every earlier recipe unchanged (AndroidWorld scores it 0/1)."
    )
    count = 3
    picture: ClassVar[str] = "recipes.jpg"
    #: AndroidWorld pictures values wrapped at this many characters.
    wrap: ClassVar[int] = 60

    def initialize(self, device: Device) -> None:
        # AndroidWorld: the table cleared, the storage cleared, the targets pictured as text blocks
        # in recipes.jpg; the noise recipes held in the app as the other add tasks hold them.
        clear_gallery(device)
        device.write_file(f"{DCIM}/{self.picture}", text_picture(render_recipes(self.params["rows"], False, self.wrap)))
        super().initialize(device)

    def tear_down(self, device: Device) -> None:
        clear_gallery(device)

    def oracle(self) -> Oracle:
        return ReadPictureOracle(self.picture, AddRecipesOracle(self.params["rows"]))
