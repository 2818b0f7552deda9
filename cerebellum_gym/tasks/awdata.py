"""AndroidWorld's parameter pools and name generators, so mirrored tasks draw what AndroidWorld draws.

The lists are data read from AndroidWorld's source at the pinned commit (google-research/
android_world d9c569f, Apache-2.0), shipped as package data (``tasks/data/androidworld.json``,
loaded once at import, arrays as tuples); the module each comes from is named beside its name
here, and ``tests/tasks/test_androidworld_conformance.py`` checks every list against that source. The
generators follow AndroidWorld's documented behaviour with a numpy ``Generator`` in place of
Python's global ``random``, so a seed fixes an episode here (same pools and shapes, not the same
draws as AndroidWorld for a given seed).

Example:
    >>> import numpy as np
    >>> from cerebellum_gym.tasks import awdata
    >>> rng = np.random.default_rng(0)
    >>> awdata.random_phone_number(rng)[:2], len(awdata.random_phone_number(rng))
    ('+1', 12)
    >>> awdata.modified_file_name(np.random.default_rng(3), "memo.m4a").endswith(".m4a")
    True
"""

from __future__ import annotations

import json
import string
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Final

import numpy as np

#: AndroidWorld's "today" on the device (``device_constants.DT``), in UTC.
DEVICE_TODAY: Final = date(2023, 10, 15)
_ALNUM: Final = string.ascii_letters + string.digits
_FIXED_TAGS: Final = ("backup", "copy", "final", "edited")


def pick(rng: np.random.Generator, items: tuple[str, ...] | list[str]) -> str:
    """One item, uniformly (``random.choice``)."""
    return str(items[int(rng.integers(len(items)))])


def random_string(rng: np.random.Generator, length: int) -> str:
    """Letters and digits (``user_data_generation.generate_random_string``)."""
    return "".join(_ALNUM[int(i)] for i in rng.integers(0, len(_ALNUM), size=length))


def random_date_str(rng: np.random.Generator) -> str:
    """A day of 2023 before the device's today, as ``YYYY_MM_DD`` (``_generate_random_date_str``)."""
    start = date(2023, 1, 1)
    day = start + timedelta(days=int(rng.integers(0, (date(2023, 10, 14) - start).days + 1)))
    return day.strftime("%Y_%m_%d")


def modified_file_name(rng: np.random.Generator, base: str) -> str:
    """``base`` with a date, a 4-character code or a tag as prefix or suffix, before the extension
    (``user_data_generation.generate_modified_file_name``)."""
    kind = int(rng.integers(3))
    as_prefix = bool(rng.integers(2))
    stem, dot, ext = base.rpartition(".") if "." in base.lstrip(".") else (base, "", "")
    ext = dot + ext
    if kind == 0:
        mod = random_date_str(rng)
    elif kind == 1:
        mod = random_string(rng, 4)
    else:
        mod = pick(rng, _FIXED_TAGS)
    return f"{mod}_{stem}{ext}" if as_prefix else f"{stem}_{mod}{ext}"


def random_file_name(rng: np.random.Generator) -> str:
    """``adjective_noun``, modified, without an extension (``generate_random_file_name``)."""
    return modified_file_name(rng, f"{pick(rng, ADJECTIVES)}_{pick(rng, NOUNS)}")


def random_note_name(rng: np.random.Generator) -> str:
    """A note's file name: a random file name ending in ``.md`` or ``.txt`` (markor's ``_generate_random_note``)."""
    return random_file_name(rng) + pick(rng, (".md", ".txt"))


def random_person_name(rng: np.random.Generator, excluding: str = "") -> str:
    """``Given Family`` (``generate_random_name``), avoiding every word of ``excluding``.

    AndroidWorld's own exclusion passes its arguments to ``re.split`` the wrong way round and so
    excludes nothing; here it works.
    """
    avoid = set(excluding.replace(",", " ").split())
    family = pick(rng, [n for n in FAMILY_NAMES if n not in avoid])
    given = pick(rng, [n for n in GIVEN_NAMES if n not in avoid])
    return f"{given} {family}"


def random_phone_number(rng: np.random.Generator) -> str:
    """``+1`` and ten digits (``generate_random_number``)."""
    return "+1" + "".join(str(int(d)) for d in rng.integers(0, 10, size=10))


def noise_file_names(rng: np.random.Generator, base: str, variants: tuple[str, ...], n: int = 20) -> list[str]:
    """Decoy file names as ``generate_noise_files`` draws them: 1 to ``n`` distinct names, each a
    modified variant (85%) or a modified ``base`` (15%), given a variant's extension when it has none."""
    count = int(rng.integers(1, n + 1))
    names: list[str] = []
    while len(names) < count:
        name = modified_file_name(rng, pick(rng, variants) if rng.random() <= 0.85 else base)
        if "." not in name:
            variant = pick(rng, variants)
            name += variant[variant.rfind(".") :] if "." in variant else ""
        if name not in names:
            names.append(name)
    return names


# --- the lists ---------------------------------------------------------------------------------

#: The pools, as shipped beside this module.
DATA_FILE: Final = Path(__file__).with_name("data") / "androidworld.json"


def _tuples(value: Any) -> Any:
    """JSON's arrays as the tuples the pools are (objects stay dicts, in their order)."""
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    if isinstance(value, dict):
        return {key: _tuples(item) for key, item in value.items()}
    return value


_DATA: Final[dict[str, Any]] = _tuples(json.loads(DATA_FILE.read_text(encoding="utf-8")))

#: Given names (``user_data_generation.COMMON_GIVEN_NAMES``).
GIVEN_NAMES: Final[tuple[str, ...]] = _DATA["GIVEN_NAMES"]

#: Family names (``user_data_generation._COMMON_FAMILY_NAMES``).
FAMILY_NAMES: Final[tuple[str, ...]] = _DATA["FAMILY_NAMES"]

#: The sentence pool of notes and text messages (``user_data_generation.RANDOM_SENTENCES``).
SENTENCES: Final[tuple[str, ...]] = _DATA["SENTENCES"]

#: File-name adjectives (``user_data_generation._ADJECTIVES``).
ADJECTIVES: Final[tuple[str, ...]] = _DATA["ADJECTIVES"]

#: File-name nouns (``user_data_generation._NOUNS``).
NOUNS: Final[tuple[str, ...]] = _DATA["NOUNS"]

#: Shared-storage folders and typical file names in each (``user_data_generation.EMULATOR_DIRECTORIES``).
EMULATOR_DIRECTORIES: Final[dict[str, tuple[str, ...]]] = _DATA["EMULATOR_DIRECTORIES"]

#: Street addresses (``user_data_generation.generate_random_address``).
ADDRESSES: Final[tuple[str, ...]] = _DATA["ADDRESSES"]

#: Markor decoy note names (``markor._NOTE_TITLES``).
NOTE_TITLES: Final[tuple[str, ...]] = _DATA["NOTE_TITLES"]

#: Markor folders of the move task (``MarkorMoveNote.generate_random_params``).
MARKOR_SUBFOLDERS: Final[tuple[str, ...]] = _DATA["MARKOR_SUBFOLDERS"]

#: Expense names by category (``expense._EXPENSE_NAMES``).
EXPENSE_NAMES: Final[dict[str, tuple[str, ...]]] = _DATA["EXPENSE_NAMES"]

#: Expense notes (``expense._NOTES``).
EXPENSE_NOTES: Final[tuple[str, ...]] = _DATA["EXPENSE_NOTES"]

#: Calendar title prefixes (``events_generator.TITLES_PREFIXES``).
EVENT_TITLES_PREFIXES: Final[tuple[str, ...]] = _DATA["EVENT_TITLES_PREFIXES"]

#: Who a calendar event is with (``events_generator.NAMES``).
EVENT_NAMES: Final[tuple[str, ...]] = _DATA["EVENT_NAMES"]

#: What a calendar event is on (``events_generator.SUBJECTS``).
EVENT_SUBJECTS: Final[tuple[str, ...]] = _DATA["EVENT_SUBJECTS"]

#: Description verbs (``events_generator.ACTIONS``).
EVENT_ACTIONS: Final[tuple[str, ...]] = _DATA["EVENT_ACTIONS"]

#: Description subjects (``events_generator.SUBJECTS_DESCRIPTIONS``).
EVENT_SUBJECTS_DESCRIPTIONS: Final[tuple[str, ...]] = _DATA["EVENT_SUBJECTS_DESCRIPTIONS"]

#: Optional description endings (``events_generator.ADDITIONAL_NOTES``).
EVENT_ADDITIONAL_NOTES: Final[tuple[str, ...]] = _DATA["EVENT_ADDITIONAL_NOTES"]

#: Recording base names (``AudioRecorderRecordAudioWithFileName.generate_random_params``).
RECORDING_NAMES: Final[tuple[str, ...]] = _DATA["RECORDING_NAMES"]

#: ``time`` values of ``SimpleCalendarEventsOnDate`` (``information_retrieval/proto/tasks.textproto``).
EVENTS_ON_DATE_TIMES: Final[tuple[str, ...]] = _DATA["EVENTS_ON_DATE_TIMES"]

#: ``date`` values of ``SimpleCalendarEventsOnDate`` (``information_retrieval/proto/tasks.textproto``).
EVENTS_ON_DATE_DATES: Final[tuple[str, ...]] = _DATA["EVENTS_ON_DATE_DATES"]

#: ``duration`` values of ``SimpleCalendarEventsOnDate`` (``information_retrieval/proto/tasks.textproto``).
EVENTS_ON_DATE_DURATIONS: Final[tuple[str, ...]] = _DATA["EVENTS_ON_DATE_DURATIONS"]

#: ``title`` values of ``SimpleCalendarEventsOnDate`` (``information_retrieval/proto/tasks.textproto``).
EVENTS_ON_DATE_TITLES: Final[tuple[str, ...]] = _DATA["EVENTS_ON_DATE_TITLES"]

#: ``title`` values of ``SimpleCalendarLocationOfEvent`` (``information_retrieval/proto/tasks.textproto``).
LOCATION_OF_EVENT_TITLES: Final[tuple[str, ...]] = _DATA["LOCATION_OF_EVENT_TITLES"]

#: ``location`` values of ``SimpleCalendarLocationOfEvent`` (``information_retrieval/proto/tasks.textproto``).
LOCATION_OF_EVENT_LOCATIONS: Final[tuple[str, ...]] = _DATA["LOCATION_OF_EVENT_LOCATIONS"]

#: ``date`` values of ``SimpleCalendarLocationOfEvent`` (``information_retrieval/proto/tasks.textproto``).
LOCATION_OF_EVENT_DATES: Final[tuple[str, ...]] = _DATA["LOCATION_OF_EVENT_DATES"]

#: ``time`` values of ``SimpleCalendarLocationOfEvent`` (``information_retrieval/proto/tasks.textproto``).
LOCATION_OF_EVENT_TIMES: Final[tuple[str, ...]] = _DATA["LOCATION_OF_EVENT_TIMES"]

# --- Broccoli's recipes (``recipe.py``) ---------------------------------------------------------

#: The recipes' titles and directions (``recipe._RECIPES``; every other field is drawn).
RECIPES: Final[tuple[tuple[str, str], ...]] = _DATA["RECIPES"]
#: Descriptions (``descriptions`` in ``recipe._generate_random_recipe``).
RECIPE_DESCRIPTIONS: Final[tuple[str, ...]] = _DATA["RECIPE_DESCRIPTIONS"]
#: What is appended to the directions (``directions_additions`` there).
RECIPE_DIRECTIONS_ADDITIONS: Final[tuple[str, ...]] = _DATA["RECIPE_DIRECTIONS_ADDITIONS"]
#: The ingredients field's texts (``ingredient_descriptors`` there).
RECIPE_INGREDIENT_DESCRIPTORS: Final[tuple[str, ...]] = _DATA["RECIPE_INGREDIENT_DESCRIPTORS"]
#: Servings (``recipe._SERVINGS_OPTIONS``).
RECIPE_SERVINGS: Final[tuple[str, ...]] = _DATA["RECIPE_SERVINGS"]
#: Preparation times (``recipe._PREP_TIME_OPTIONS``).
RECIPE_PREP_TIMES: Final[tuple[str, ...]] = _DATA["RECIPE_PREP_TIMES"]
#: Ingredients a constrained deletion names (``recipe._COMMON_INGREDIENTS``, with its repeats).
RECIPE_INGREDIENTS: Final[tuple[str, ...]] = _DATA["RECIPE_INGREDIENTS"]

# --- Tasks.org and OpenTracks (information retrieval) -----------------------------------------
# The parameter values below are those of ``information_retrieval/proto/tasks.textproto``. Its Tasks
# questions also draw the fifteen days of ``EVENTS_ON_DATE_DATES`` and the twenty times of
# ``EVENTS_ON_DATE_TIMES`` (the same lists as the calendar question's).

#: ``importance`` of ``TasksDueOnDate``.
TASKS_DUE_ON_DATE_IMPORTANCES: Final[tuple[str, ...]] = _DATA["TASKS_DUE_ON_DATE_IMPORTANCES"]

#: ``title`` of ``TasksDueOnDate`` and ``task_title`` of ``TasksHighPriorityTasks``.
TASKS_TITLES: Final[tuple[str, ...]] = _DATA["TASKS_TITLES"]

#: ``notes`` of ``TasksDueOnDate`` and ``TasksHighPriorityTasks``.
TASKS_NOTES: Final[tuple[str, ...]] = _DATA["TASKS_NOTES"]

#: ``due_date`` of ``TasksHighPriorityTasks`` and ``TasksDueNextWeek``.
TASKS_NEXT_WEEK_DATES: Final[tuple[str, ...]] = _DATA["TASKS_NEXT_WEEK_DATES"]

#: ``hide_until_date`` of ``TasksHighPriorityTasks``, ``completed_date`` of ``TasksCompletedTasksForDate``,
#: ``end_date`` of ``SportsTrackerTotalDistanceForCategoryOverInterval``.
TASKS_PAST_WEEK_DATES: Final[tuple[str, ...]] = _DATA["TASKS_PAST_WEEK_DATES"]

#: ``time`` of ``TasksHighPriorityTasksDueOnDate``.
TASKS_HIGH_PRIORITY_TIMES: Final[tuple[str, ...]] = _DATA["TASKS_HIGH_PRIORITY_TIMES"]

#: ``title`` of ``TasksHighPriorityTasksDueOnDate``.
TASKS_HIGH_PRIORITY_TITLES: Final[tuple[str, ...]] = _DATA["TASKS_HIGH_PRIORITY_TITLES"]

#: ``title`` of ``TasksDueNextWeek``, ``TasksCompletedTasksForDate`` and ``TasksIncompleteTasksOnDate``: the twenty
#: above and five more.
TASKS_MORE_TITLES: Final[tuple[str, ...]] = _DATA["TASKS_MORE_TITLES"]

#: ``notes`` of ``TasksDueNextWeek``, ``TasksCompletedTasksForDate`` and ``TasksIncompleteTasksOnDate``.
TASKS_MORE_NOTES: Final[tuple[str, ...]] = _DATA["TASKS_MORE_NOTES"]

#: ``date`` of ``TasksCompletedTasksForDate``.
TASKS_COMPLETED_FOR_DATES: Final[tuple[str, ...]] = _DATA["TASKS_COMPLETED_FOR_DATES"]

#: ``date`` of ``SportsTrackerActivitiesOnDate``.
SPORTS_ON_DATE_DATES: Final[tuple[str, ...]] = _DATA["SPORTS_ON_DATE_DATES"]

#: ``category`` of every ``SportsTracker`` task.
SPORTS_CATEGORIES: Final[tuple[str, ...]] = _DATA["SPORTS_CATEGORIES"]

#: ``duration`` of every ``SportsTracker`` task.
SPORTS_DURATIONS: Final[tuple[str, ...]] = _DATA["SPORTS_DURATIONS"]

#: ``distance`` of every ``SportsTracker`` task.
SPORTS_DISTANCES: Final[tuple[str, ...]] = _DATA["SPORTS_DISTANCES"]

#: ``start_time`` of every ``SportsTracker`` task.
SPORTS_START_TIMES: Final[tuple[str, ...]] = _DATA["SPORTS_START_TIMES"]

#: ``elevation`` of every ``SportsTracker`` task.
SPORTS_ELEVATIONS: Final[tuple[str, ...]] = _DATA["SPORTS_ELEVATIONS"]

#: ``activity_name`` of every ``SportsTracker`` task.
SPORTS_NAMES: Final[tuple[str, ...]] = _DATA["SPORTS_NAMES"]

#: ``activity_description`` of every ``SportsTracker`` task.
SPORTS_DESCRIPTIONS: Final[tuple[str, ...]] = _DATA["SPORTS_DESCRIPTIONS"]

#: ``start_date`` of ``SportsTrackerActivitiesCountForWeek``, ``SportsTrackerLongestDistanceActivity`` and
#: ``SportsTrackerTotalDurationForCategoryThisWeek``.
SPORTS_WEEK_DATES: Final[tuple[str, ...]] = _DATA["SPORTS_WEEK_DATES"]

#: ``date`` of ``SportsTrackerActivityDuration``.
SPORTS_DURATION_DATES: Final[tuple[str, ...]] = _DATA["SPORTS_DURATION_DATES"]

#: ``start_date`` of ``SportsTrackerTotalDistanceForCategoryOverInterval``.
SPORTS_INTERVAL_STARTS: Final[tuple[str, ...]] = _DATA["SPORTS_INTERVAL_STARTS"]

#: The titles and notes of AndroidWorld's random tasks (``information_retrieval/task_app_utils._TASKS``).
TASK_NOISE: Final[dict[str, str]] = _DATA["TASK_NOISE"]

#: Names of AndroidWorld's random activities by category
#: (``information_retrieval/activity_app_utils._CATEGORY_TO_ACTIVITY_NAMES``).
ACTIVITY_NAMES: Final[dict[str, tuple[str, ...]]] = _DATA["ACTIVITY_NAMES"]

#: The task parameters of Simple Calendar's other information-retrieval questions (``tasks.textproto``:
#: each task's ``task_params``, in its order, drawn one value each).
CALENDAR_QUESTION_PARAMS: Final[dict[str, dict[str, tuple[str, ...]]]] = _DATA["CALENDAR_QUESTION_PARAMS"]

#: The people and action items the templated meeting notes draw from (``_ATTENDEES``, ``_ACTION_ITEMS``).
JOPLIN_ATTENDEES: Final[tuple[str, ...]] = _DATA["JOPLIN_ATTENDEES"]
JOPLIN_ACTION_ITEMS: Final[tuple[str, ...]] = _DATA["JOPLIN_ACTION_ITEMS"]

#: The notes AndroidWorld's random Joplin notes are drawn from, by notebook (``information_retrieval/
#: joplin_app_utils._FOLDERS``: each notebook's ``{title, body}`` list, in its order). Some meeting notes
#: list ``n`` people or action items that AndroidWorld samples (at import); their bodies hold
#: ``{attendees:n}`` and ``{action_items:n}`` where the sampled lines go.
JOPLIN_NOISE: Final[dict[str, tuple[dict[str, str], ...]]] = _DATA["JOPLIN_NOISE"]
#: The task parameters of the Joplin questions (``tasks.textproto``: each task's ``task_params``, in
#: its order, drawn one value each).
JOPLIN_QUESTION_PARAMS: Final[dict[str, dict[str, tuple[str, ...]]]] = _DATA["JOPLIN_QUESTION_PARAMS"]
