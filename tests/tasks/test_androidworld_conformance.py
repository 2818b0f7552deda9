"""Mirrored tasks match AndroidWorld's own source: goal templates, complexities and parameter pools.

AndroidWorld is read, not imported: its modules import absl, android_env, grpc and more at the
top, none of which the simulator needs. The source comes from the installed ``android_world``
package when there is one (found with ``importlib.util.find_spec``, which runs nothing), else
from the pinned wheel in ``../shared/third_party/``; each task class is found with ``ast`` and
its ``template`` and ``complexity`` resolved through its base classes, its ``goal`` property
evaluated where AndroidWorld builds the goal in code, and the two information-retrieval tasks
read from ``tasks.textproto``. Differences listed in the one table of deliberate differences in
``docs/tasks.md`` are skipped, and that table may only name real differences.
"""

from __future__ import annotations

import ast
import contextlib
import glob
import importlib.util
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cerebellum_gym.tasks import awdata
from cerebellum_gym.tasks.registry import TASKS

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs" / "tasks.md"
WHEELS = (REPO.parent / "shared" / "third_party", REPO.parents[1] / "shared" / "third_party", Path("/work/shared/third_party"))
MIRRORED = sorted(name for name, cls in TASKS.items() if cls.mirrors)


# --- reading AndroidWorld's source ---------------------------------------------------------------


def _source_reader() -> Callable[[str], str] | None:
    """A function from a path inside the package (``task_evals/single/sms.py``) to its text."""
    spec = importlib.util.find_spec("android_world")
    if spec is not None and spec.submodule_search_locations:
        root = Path(next(iter(spec.submodule_search_locations)))
        if (root / "task_evals").is_dir():
            return lambda rel: (root / rel).read_text(encoding="utf-8")
    for folder in WHEELS:
        wheels = sorted(glob.glob(str(folder / "android_world-*.whl")))
        if wheels:
            archive = zipfile.ZipFile(wheels[-1])
            return lambda rel: archive.read(f"android_world/{rel}").decode("utf-8")
    return None


READ = _source_reader()
pytestmark = pytest.mark.skipif(READ is None, reason="AndroidWorld's source (package or pinned wheel) is not available")

#: Modules whose classes can be mirrored tasks or their bases.
MODULES = (
    "task_evals/single/audio_recorder.py",
    "task_evals/single/browser.py",
    "task_evals/single/camera.py",
    "task_evals/single/clock.py",
    "task_evals/single/contacts.py",
    "task_evals/single/expense.py",
    "task_evals/single/files.py",
    "task_evals/single/markor.py",
    "task_evals/single/recipe.py",
    "task_evals/single/sms.py",
    "task_evals/single/system.py",
    "task_evals/single/calendar/calendar.py",
    "task_evals/composite/system.py",
    "task_evals/composite/markor_sms.py",
    "task_evals/single/simple_gallery_pro.py",
    "task_evals/single/simple_draw_pro.py",
    "task_evals/single/vlc.py",
    "task_evals/single/osmand.py",
    "task_evals/single/retro_music.py",
    "task_evals/common_validators/sms_validators.py",
    "task_evals/common_validators/contacts_validators.py",
    "task_evals/common_validators/sqlite_validators.py",
    "task_evals/common_validators/file_validators.py",
)


@dataclass
class AwClass:
    node: ast.ClassDef
    constants: dict[str, Any]  # the module's literal top-level names


def _literal_constants(tree: ast.Module) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            with contextlib.suppress(ValueError):
                out[node.targets[0].id] = ast.literal_eval(node.value)
    return out


def _classes() -> dict[str, AwClass]:
    assert READ is not None
    found: dict[str, AwClass] = {}
    for rel in MODULES:
        tree = ast.parse(READ(rel))
        constants = _literal_constants(tree)
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, AwClass(node, constants))
    return found


CLASSES = _classes() if READ is not None else {}


def _bases(name: str) -> Iterator[AwClass]:
    """The class and its ancestors that are in the modules read, in method resolution order."""
    seen: set[str] = set()
    queue = [name]
    while queue:
        current = queue.pop(0)
        if current in seen or current not in CLASSES:
            continue
        seen.add(current)
        cls = CLASSES[current]
        yield cls
        for base in cls.node.bases:
            queue.append(base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", ""))


def _attribute(name: str, attr: str) -> tuple[ast.expr | ast.FunctionDef, AwClass] | None:
    """The first definition of ``attr`` along ``name``'s bases: an assigned value or a property."""
    for cls in _bases(name):
        for stmt in cls.node.body:
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in stmt.targets):
                return stmt.value, cls
            if isinstance(stmt, ast.FunctionDef) and stmt.name == attr:
                return stmt, cls
    return None


def _render(expr: ast.expr, owner: str, cls: AwClass) -> str:
    """A goal expression as a template: literals kept, computed parts as ``{name}`` fields."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return _render(expr.left, owner, cls) + _render(expr.right, owner, cls)
    if isinstance(expr, ast.JoinedStr):
        return "".join(_render(part, owner, cls) for part in expr.values)
    if isinstance(expr, ast.FormattedValue):
        return (
            _render(expr.value, owner, cls)
            if isinstance(expr.value, ast.Name) and expr.value.id in cls.constants
            else ("{" + ast.unparse(expr.value) + "}")
        )
    if isinstance(expr, ast.Name) and isinstance(cls.constants.get(expr.id), str):
        return str(cls.constants[expr.id])
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self":
        found = _attribute(owner, expr.attr)
        assert found is not None and not isinstance(found[0], ast.FunctionDef), f"{owner}.{expr.attr}"
        return _render(found[0], owner, found[1])
    return "{" + ast.unparse(expr) + "}"


def _goal_template(name: str) -> str:
    """AndroidWorld's goal template for ``name``, as its ``androidworld_tasks.json`` writes it."""
    template = _attribute(name, "template")
    goal = _attribute(name, "goal")
    if template is not None and isinstance(template[0], ast.FunctionDef):  # MarkorEditNote: one per edit type
        variants = next(n for n in ast.walk(template[0]) if isinstance(n, ast.Dict))
        return " | ".join(_render(v, name, template[1]) for v in variants.values)
    if template is not None and not isinstance(template[0], ast.FunctionDef) and _render(template[0], name, template[1]):
        return _render(template[0], name, template[1])
    assert goal is not None and isinstance(goal[0], ast.FunctionDef), f"{name} has neither template nor goal"
    returned = next(n for n in ast.walk(goal[0]) if isinstance(n, ast.Return))
    assert returned.value is not None
    return _render(returned.value, name, goal[1])


def _complexity(name: str) -> float:
    found = _attribute(name, "complexity")
    assert found is not None and not isinstance(found[0], ast.FunctionDef), name
    return float(ast.literal_eval(found[0]))


def _textproto_task(name: str) -> tuple[str, float, dict[str, tuple[str, ...]]]:
    """Prompt, complexity and parameter values of an information-retrieval task."""
    assert READ is not None
    text = READ("task_evals/information_retrieval/proto/tasks.textproto")
    start = text.index(f'name: "{name}"')
    end = text.find("\ntasks {", start)
    block = text[start : end if end > 0 else None]
    prompt = re.search(r'prompt: "((?:[^"\\]|\\.)*)"', block)
    complexity = re.search(r"\n  complexity: ([\d.]+)", block)
    assert prompt is not None and complexity is not None
    params = {
        m.group(1): tuple(re.findall(r'possible_values: "((?:[^"\\]|\\.)*)"', m.group(2)))
        for m in re.finditer(r'task_params \{\s*(?:#[^\n]*\s*)*name: "(\w+)"(.*?)\n  \}', block, re.S)
    }
    return prompt.group(1), float(complexity.group(1)), params


def androidworld(name: str) -> tuple[str, float]:
    """AndroidWorld's goal template and complexity for task ``name``."""
    if name not in CLASSES:
        prompt, complexity, _ = _textproto_task(name)
        return prompt, complexity
    return _goal_template(name), _complexity(name)


# --- the deliberate differences, as docs/tasks.md lists them ------------------------------------


def deliberate_differences() -> dict[tuple[str, str], str]:
    """``(task, aspect) -> reason`` from the table under "Deliberate differences from AndroidWorld"."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Deliberate differences from AndroidWorld", 1)[1].split("\n## ", 1)[0]
    rows: dict[tuple[str, str], str] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            rows[(cells[0].strip("`"), cells[1])] = cells[3]
    return rows


DELIBERATE = deliberate_differences()
FIELD = re.compile(r"\{[^{}]*\}")


def _shape(template: str) -> str:
    """A template with its field names blanked, for goals AndroidWorld builds in code."""
    return FIELD.sub("{}", template)


# --- tests -----------------------------------------------------------------------------------------


def test_every_mirrored_task_is_found_in_androidworld() -> None:
    # 53, aw-db's 14, Broccoli's 12, Tasks.org's and OpenTracks' six questions each, the clipboard, gallery, draw and
    # browser tasks (8), the two gallery add tasks, Joplin's 4, VLC's 2, OsmAnd's 3, the contact draft and the video transcription: all 116
    assert len(MIRRORED) == 116
    for name in MIRRORED:
        template, complexity = androidworld(TASKS[name].mirrors or name)
        assert template and complexity > 0, name


def _is_class_template(name: str) -> bool:
    """Whether AndroidWorld writes the goal as a plain ``template`` string on the class."""
    if name not in CLASSES:
        return False
    found = _attribute(name, "template")
    return found is not None and not isinstance(found[0], ast.FunctionDef) and bool(_render(found[0], name, found[1]))


@pytest.mark.parametrize("name", MIRRORED)
def test_goal_template_matches_androidworld(name: str) -> None:
    cls = TASKS[name]
    if (name, "template") in DELIBERATE:
        pytest.skip(f"deliberate: {DELIBERATE[(name, 'template')]}")
    want, _ = androidworld(cls.mirrors or name)
    if _is_class_template(cls.mirrors or name):
        assert cls.template == want  # the same text and the same field names
    else:
        assert _shape(cls.template) == _shape(want)  # built in code: the same text around the fields


@pytest.mark.parametrize("name", MIRRORED)
def test_complexity_matches_androidworld(name: str) -> None:
    if (name, "complexity") in DELIBERATE:
        pytest.skip(f"deliberate: {DELIBERATE[(name, 'complexity')]}")
    _, want = androidworld(TASKS[name].mirrors or name)
    assert TASKS[name].complexity == want


def test_deliberate_differences_are_real_and_explained() -> None:
    """Every row names a mirrored task and gives a reason; a template or complexity row must differ."""
    assert DELIBERATE, "docs/tasks.md lost its table of deliberate differences"
    for (name, aspect), reason in DELIBERATE.items():
        assert name in MIRRORED, name
        assert len(reason.split()) >= 4, f"{name}: say why"
        template, complexity = androidworld(TASKS[name].mirrors or name)
        if aspect == "template":
            assert _shape(TASKS[name].template) != _shape(template), f"{name}'s template no longer differs"
        if aspect == "complexity":
            assert TASKS[name].complexity != complexity, f"{name}'s complexity no longer differs"


# --- the parameter pools -----------------------------------------------------------------------


def _module_literal(rel: str, name: str) -> Any:
    assert READ is not None
    return _literal_constants(ast.parse(READ(rel)))[name]


def _local_literal(rel: str, function: str, variable: str | None = None, cls: str | None = None) -> Any:
    """A list assigned to ``variable`` inside ``function`` (or passed to ``random.choice`` there)."""
    assert READ is not None
    tree = ast.parse(READ(rel))
    scope: ast.AST = tree
    if cls is not None:
        scope = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    fn = next(n for n in ast.walk(scope) if isinstance(n, ast.FunctionDef) and n.name == function)
    for node in ast.walk(fn):
        if variable and isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == variable for t in node.targets):
            return ast.literal_eval(node.value)
        if not variable and isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.List):
            return ast.literal_eval(node.args[0])
    raise LookupError(f"{function}: {variable}")


def _textproto_values(task: str, field: str) -> Callable[[], tuple[str, ...]]:
    return lambda: _textproto_task(task)[2][field]


UDG = "task_evals/utils/user_data_generation.py"
RECIPE = "task_evals/single/recipe.py"


def _recipes() -> list[tuple[str, str]]:
    """``recipe._RECIPES``: ``Recipe(title=..., directions=...)`` calls, as (title, directions)."""
    assert READ is not None
    tree = ast.parse(READ(RECIPE))
    value = next(
        n.value for n in tree.body if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_RECIPES" for t in n.targets)
    )
    assert isinstance(value, ast.List)
    out = []
    for call in value.elts:
        assert isinstance(call, ast.Call)
        fields = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
        out.append((fields["title"], fields["directions"]))
    return out


def _joplin_noise() -> dict[str, tuple[dict[str, str], ...]]:
    """``joplin_app_utils._FOLDERS``, each notebook's note list read from the source; a meeting
    note's ``"\\n".join(random.sample(_ATTENDEES, n))`` read as ``{attendees:n}`` (and the action
    items' as ``{action_items:n}``), as awdata keeps them."""
    assert READ is not None
    tree = ast.parse(READ(JOPLIN))
    pools = {"_ATTENDEES": "attendees", "_ACTION_ITEMS": "action_items"}

    def flat(node: ast.AST) -> str:
        if isinstance(node, ast.Constant):
            return str(node.value)
        if isinstance(node, ast.BinOp):
            return flat(node.left) + flat(node.right)
        assert isinstance(node, ast.Call) and isinstance(node.args[0], ast.Call), ast.dump(node)
        pool, count = node.args[0].args
        assert isinstance(pool, ast.Name) and isinstance(count, ast.Constant)
        return f"{{{pools[pool.id]}:{count.value}}}"

    lists = {
        t.id: [{flat(k): flat(v) for k, v in zip(d.keys, d.values, strict=True) if k is not None} for d in n.value.elts]  # type: ignore[attr-defined]
        for n in tree.body
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.List)
        for t in n.targets
        if isinstance(t, ast.Name) and n.value.elts and isinstance(n.value.elts[0], ast.Dict)
    }
    folders = next(n.value for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "_FOLDERS")
    assert isinstance(folders, ast.Dict)
    return {flat(k): tuple(lists[v.id]) for k, v in zip(folders.keys, folders.values, strict=True) if k and isinstance(v, ast.Name)}


def _unescaped(params: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """A textproto's parameter values with their ``\\n`` escapes read."""
    return {k: tuple(v.replace("\\n", "\n").replace('\\"', '"') for v in vals) for k, vals in params.items()}


EVENTS = "task_evals/single/calendar/events_generator.py"
JOPLIN = "task_evals/information_retrieval/joplin_app_utils.py"
POOLS: dict[str, Callable[[], Any]] = {
    "GIVEN_NAMES": lambda: _module_literal(UDG, "COMMON_GIVEN_NAMES"),
    "FAMILY_NAMES": lambda: _module_literal(UDG, "_COMMON_FAMILY_NAMES"),
    "SENTENCES": lambda: _module_literal(UDG, "RANDOM_SENTENCES"),
    "ADJECTIVES": lambda: _module_literal(UDG, "_ADJECTIVES"),
    "NOUNS": lambda: _module_literal(UDG, "_NOUNS"),
    "EMULATOR_DIRECTORIES": lambda: _module_literal(UDG, "EMULATOR_DIRECTORIES"),
    "ADDRESSES": lambda: _local_literal(UDG, "generate_random_address"),
    "NOTE_TITLES": lambda: _module_literal("task_evals/single/markor.py", "_NOTE_TITLES"),
    "MARKOR_SUBFOLDERS": lambda: _local_literal(
        "task_evals/single/markor.py", "generate_random_params", "subfolders", cls="MarkorMoveNote"
    ),
    "EXPENSE_NAMES": lambda: _module_literal("task_evals/single/expense.py", "_EXPENSE_NAMES"),
    "EXPENSE_NOTES": lambda: _module_literal("task_evals/single/expense.py", "_NOTES"),
    "RECIPES": _recipes,
    "RECIPE_DESCRIPTIONS": lambda: _local_literal(RECIPE, "_generate_random_recipe", "descriptions"),
    "RECIPE_DIRECTIONS_ADDITIONS": lambda: _local_literal(RECIPE, "_generate_random_recipe", "directions_additions"),
    "RECIPE_INGREDIENT_DESCRIPTORS": lambda: _local_literal(RECIPE, "_generate_random_recipe", "ingredient_descriptors"),
    "RECIPE_SERVINGS": lambda: _module_literal(RECIPE, "_SERVINGS_OPTIONS"),
    "RECIPE_PREP_TIMES": lambda: _module_literal(RECIPE, "_PREP_TIME_OPTIONS"),
    "RECIPE_INGREDIENTS": lambda: _module_literal(RECIPE, "_COMMON_INGREDIENTS"),
    "EVENT_TITLES_PREFIXES": lambda: _module_literal(EVENTS, "TITLES_PREFIXES"),
    "EVENT_NAMES": lambda: _module_literal(EVENTS, "NAMES"),
    "EVENT_SUBJECTS": lambda: _module_literal(EVENTS, "SUBJECTS"),
    "EVENT_ACTIONS": lambda: _module_literal(EVENTS, "ACTIONS"),
    "EVENT_SUBJECTS_DESCRIPTIONS": lambda: _module_literal(EVENTS, "SUBJECTS_DESCRIPTIONS"),
    "EVENT_ADDITIONAL_NOTES": lambda: _module_literal(EVENTS, "ADDITIONAL_NOTES"),
    "RECORDING_NAMES": lambda: _local_literal(
        "task_evals/single/audio_recorder.py", "generate_random_params", "name", cls="AudioRecorderRecordAudioWithFileName"
    ),
    **{
        f"{prefix}_{field.upper()}S": _textproto_values(task, field)
        for task, prefix in (("SimpleCalendarEventsOnDate", "EVENTS_ON_DATE"), ("SimpleCalendarLocationOfEvent", "LOCATION_OF_EVENT"))
        for field in ("title", "date", "time")
    },
    "EVENTS_ON_DATE_DURATIONS": lambda: _textproto_task("SimpleCalendarEventsOnDate")[2]["duration"],
    **{
        pool: _textproto_values(task, field)
        for pool, (task, field) in {
            "TASKS_DUE_ON_DATE_IMPORTANCES": ("TasksDueOnDate", "importance"),
            "TASKS_TITLES": ("TasksDueOnDate", "title"),
            "TASKS_NOTES": ("TasksDueOnDate", "notes"),
            "TASKS_NEXT_WEEK_DATES": ("TasksDueNextWeek", "due_date"),
            "TASKS_PAST_WEEK_DATES": ("TasksHighPriorityTasks", "hide_until_date"),
            "TASKS_HIGH_PRIORITY_TIMES": ("TasksHighPriorityTasksDueOnDate", "time"),
            "TASKS_HIGH_PRIORITY_TITLES": ("TasksHighPriorityTasksDueOnDate", "title"),
            "TASKS_MORE_TITLES": ("TasksDueNextWeek", "title"),
            "TASKS_MORE_NOTES": ("TasksDueNextWeek", "notes"),
            "TASKS_COMPLETED_FOR_DATES": ("TasksCompletedTasksForDate", "date"),
            "SPORTS_ON_DATE_DATES": ("SportsTrackerActivitiesOnDate", "date"),
            "SPORTS_CATEGORIES": ("SportsTrackerActivitiesOnDate", "category"),
            "SPORTS_DURATIONS": ("SportsTrackerActivitiesOnDate", "duration"),
            "SPORTS_DISTANCES": ("SportsTrackerActivitiesOnDate", "distance"),
            "SPORTS_START_TIMES": ("SportsTrackerActivitiesOnDate", "start_time"),
            "SPORTS_ELEVATIONS": ("SportsTrackerActivitiesOnDate", "elevation"),
            "SPORTS_NAMES": ("SportsTrackerActivitiesOnDate", "activity_name"),
            "SPORTS_DESCRIPTIONS": ("SportsTrackerActivitiesOnDate", "activity_description"),
            "SPORTS_WEEK_DATES": ("SportsTrackerActivitiesCountForWeek", "start_date"),
            "SPORTS_DURATION_DATES": ("SportsTrackerActivityDuration", "date"),
            "SPORTS_INTERVAL_STARTS": ("SportsTrackerTotalDistanceForCategoryOverInterval", "start_date"),
        }.items()
    },
    "TASK_NOISE": lambda: _module_literal("task_evals/information_retrieval/task_app_utils.py", "_TASKS"),
    "ACTIVITY_NAMES": lambda: _module_literal("task_evals/information_retrieval/activity_app_utils.py", "_CATEGORY_TO_ACTIVITY_NAMES"),
    "LOCATION_OF_EVENT_LOCATIONS": lambda: _textproto_task("SimpleCalendarLocationOfEvent")[2]["location"],
    "CALENDAR_QUESTION_PARAMS": lambda: {name: _textproto_task(name)[2] for name in awdata.CALENDAR_QUESTION_PARAMS},
    "JOPLIN_ATTENDEES": lambda: _module_literal(JOPLIN, "_ATTENDEES"),
    "JOPLIN_ACTION_ITEMS": lambda: _module_literal(JOPLIN, "_ACTION_ITEMS"),
    "JOPLIN_NOISE": _joplin_noise,
    "JOPLIN_QUESTION_PARAMS": lambda: {name: _unescaped(_textproto_task(name)[2]) for name in awdata.JOPLIN_QUESTION_PARAMS},
}


def _normalise(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _normalise(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return tuple(value)
    return value


@pytest.mark.parametrize("pool", sorted(POOLS))
def test_parameter_pool_is_androidworlds(pool: str) -> None:
    assert _normalise(getattr(awdata, pool)) == _normalise(POOLS[pool]())


def test_every_pool_in_awdata_is_checked() -> None:
    pools = {n for n, v in vars(awdata).items() if n.isupper() and isinstance(v, tuple | dict) and not n.startswith("_")}
    assert pools - {"DEVICE_TODAY"} == set(POOLS)


def test_storage_paths_are_androidworlds() -> None:
    """The simulator keeps app data where AndroidWorld's device_constants say (``/sdcard`` is
    ``/storage/emulated/0``, as on Android, where it is a link to it)."""
    from cerebellum_gym.sim.apps import camera, markor, recorder
    from cerebellum_gym.tasks import markor as markor_tasks
    from cerebellum_gym.tasks import media

    constants = _literal_constants(ast.parse(READ("env/device_constants.py") if READ else ""))

    def same(ours: str, theirs: str) -> bool:
        fold = lambda p: re.sub(r"^/storage/emulated/0", "/sdcard", p.rstrip("/"))  # noqa: E731
        return fold(ours) == fold(theirs)

    assert same(markor.ROOT, constants["MARKOR_DATA"]) and same(markor_tasks.ROOT, constants["MARKOR_DATA"])
    assert same(recorder.RECORDS_DIR, constants["AUDIORECORDER_DATA"]) and same(media.RECORDS_DIR, constants["AUDIORECORDER_DATA"])
    assert same(camera.PHOTOS_DIR, constants["PHOTOS_DATA"]) and same(camera.VIDEOS_DIR, constants["VIDEOS_DATA"])


def test_open_app_names_are_androidworlds() -> None:
    from cerebellum_gym.tasks.system import OPEN_APPS

    assert READ is not None
    tree = ast.parse(READ("task_evals/single/system.py"))
    call = next(
        n.value
        for n in tree.body
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_APP_NAME_TO_PACKAGE_NAME" for t in n.targets)
    )
    assert isinstance(call, ast.Call)
    want = ast.literal_eval(call.args[0])
    assert {name: package for name, (package, _) in OPEN_APPS.items()} == want
