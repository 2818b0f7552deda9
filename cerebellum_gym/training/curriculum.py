"""The RL curriculum: stages of tasks, short ones first, promotion on recent success, and
failure filtering.

A curriculum is a list of stages. Each stage names tasks (``tasks``) and whole families
(``families``, less any ``exclude``), a promotion ``threshold`` and a ``window``: once the stage is
mastered, the next stage opens. Mastered (``promotion: "every_task"``, the default): each of
the stage's tasks has at least ``window`` recent groups and its last ``window`` succeed at a rate
of at least ``threshold`` (a task set aside, or solved by chance less often, holds the stage
open); ``"pooled"``: the last ``window`` groups of the stage's tasks together reach it (easy
tasks can then carry a stage whose hard ones were never solved). Draws then come from the newest stage, with a share ``review`` from the
earlier ones (so what was learnt is kept). Failure filtering (``fail_window`` > 0): a task whose
last ``fail_window`` groups had no success at all is set aside for ``retry_after`` updates, then
drawn again (tasks never solved in recent groups waste a whole group per draw).

Training seeds are drawn from ``[0, TRAIN_SEED_LIMIT)``; the held-out suites
(``cerebellum_gym/suites/rl-*.json``) use seeds at or above :data:`HELDOUT_SEED_BASE`.

The curriculum file is JSON::

    {"stages": [{"name": "short", "tasks": ["SystemWifiTurnOn"], "families": [], "threshold": 0.8, "window": 8}],
     "review": 0.25, "fail_window": 16, "retry_after": 20, "promotion": "every_task"}

Example:
    >>> c = Curriculum(load_curriculum("default"), seed=0)
    >>> c.stage.name, len(c.draw(update=1, groups=3))
    ('toggles', 3)
    >>> load_curriculum({"stages": [{"name": "x", "tasks": ["SystemWifiTurnOn"], "threshold": 1.5}]})
    Traceback (most recent call last):
    ...
    cerebellum_gym.training.curriculum.CurriculumError: stage 'x': threshold must be within [0, 1], got 1.5
"""

from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np

from cerebellum_gym.errors import ConfigError, UnknownTaskError
from cerebellum_gym.tasks.catalog import BUILTIN, TaskCatalog

#: Training seeds are drawn below this; held-out suites use seeds from HELDOUT_SEED_BASE on.
TRAIN_SEED_LIMIT: Final = 100_000
HELDOUT_SEED_BASE: Final = 900_000

#: The default curriculum: the card's short families first (system toggles and opening apps,
#: then contacts and the clock), then longer tasks of the same apps. Held out of every stage
#: (the unseen-template split, ``rl-unseen-templates``): SystemBluetoothTurnOff,
#: SystemBrightnessMin, ContactsLookupNumber, ClockTimerEntry, SimpleSmsResend, MarkorCreateNote.
#: Camera, Audio Recorder and Simple Calendar Pro are never trained on (``rl-unseen-apps``).
DEFAULT_CURRICULUM: Final[dict[str, Any]] = {
    "stages": [
        {
            "name": "toggles",
            "tasks": ["SystemWifiTurnOn", "SystemWifiTurnOff", "SystemBluetoothTurnOn", "SystemBrightnessMax", "OpenAppTaskEval"],
            "threshold": 0.8,
            "window": 8,
        },
        {
            "name": "contacts-clock",
            "tasks": ["ContactsAddContact", "ClockAddAlarm", "ClockStopWatchRunning"],
            "threshold": 0.6,
            "window": 8,
        },
        {
            "name": "longer",
            "tasks": [
                "TurnOnWifiAndOpenApp",
                "TurnOffWifiAndTurnOnBluetooth",
                "SimpleSmsSend",
                "MarkorCreateFolder",
                "ExpenseDeleteSingle",
            ],
            "threshold": 0.5,
            "window": 8,
        },
    ],
    "review": 0.25,
    "fail_window": 16,
    "retry_after": 20,
    "promotion": "every_task",
}

#: How a stage is judged mastered (see the module docstring).
PROMOTION_RULES: Final = ("every_task", "pooled")


class CurriculumError(ConfigError):
    """A curriculum that cannot run: an unknown task, an empty family or stage, a bad number."""


@dataclass(frozen=True)
class Stage:
    """One stage: its tasks (families expanded), promotion threshold and window."""

    name: str
    tasks: tuple[str, ...]
    threshold: float = 0.8
    window: int = 8


@dataclass(frozen=True)
class CurriculumConfig:
    """A checked curriculum (see the module docstring)."""

    stages: tuple[Stage, ...]
    review: float = 0.25
    fail_window: int = 16
    retry_after: int = 20
    promotion: str = "every_task"
    source: str = field(default="mapping", compare=False)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("source")
        return data

    @property
    def tasks(self) -> list[str]:
        """Every task of every stage, in stage order, once."""
        return list(dict.fromkeys(t for s in self.stages for t in s.tasks))


def load_curriculum(spec: str | os.PathLike[str] | Mapping[str, Any], catalog: TaskCatalog = BUILTIN) -> CurriculumConfig:
    """A curriculum from ``"default"``, a JSON file, or a mapping, checked against ``catalog``.

    Raises:
        CurriculumError: unreadable JSON, an unknown key or task, an empty family or stage, a
            threshold or review share outside [0, 1], a window below 1, an unknown promotion rule.
    """
    source = "mapping"
    if isinstance(spec, Mapping):
        data: Any = spec
    elif str(spec) == "default":
        data, source = DEFAULT_CURRICULUM, "default"
    else:
        path = Path(spec)
        source = str(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CurriculumError(f"cannot read curriculum {path}: {exc}") from exc
        except json.JSONDecodeError as exc:
            raise CurriculumError(f"curriculum {path} is not valid JSON: {exc}") from exc
    if not isinstance(data, Mapping):
        raise CurriculumError(f"{source}: a curriculum is a JSON object with a 'stages' list")
    unknown = sorted(set(data) - {"stages", "review", "fail_window", "retry_after", "promotion"})
    if unknown:
        raise CurriculumError(
            f"{source}: unknown key(s) {', '.join(unknown)}; a curriculum has stages, review, fail_window, retry_after, promotion"
        )
    raw_stages = data.get("stages")
    if not isinstance(raw_stages, list) or not raw_stages:
        raise CurriculumError(f"{source}: 'stages' must be a non-empty list")
    stages = [_stage(raw, i, catalog) for i, raw in enumerate(raw_stages)]
    names = [s.name for s in stages]
    if len(set(names)) != len(names):
        raise CurriculumError(f"{source}: stage names must be unique, got {names}")
    review = _share(data.get("review", 0.25), "review", source)
    fail_window = _count(data.get("fail_window", 16), "fail_window", source, minimum=0)
    retry_after = _count(data.get("retry_after", 20), "retry_after", source, minimum=1)
    promotion = data.get("promotion", "every_task")
    if promotion not in PROMOTION_RULES:
        raise CurriculumError(f"{source}: promotion must be one of {', '.join(PROMOTION_RULES)}, got {promotion!r}")
    return CurriculumConfig(tuple(stages), review, fail_window, retry_after, str(promotion), source)


def _stage(raw: Any, index: int, catalog: TaskCatalog) -> Stage:
    if not isinstance(raw, Mapping):
        raise CurriculumError(f"stage #{index} must be an object with name, tasks and/or families")
    name = raw.get("name", f"stage-{index}")
    where = f"stage {name!r}"
    unknown = sorted(set(raw) - {"name", "tasks", "families", "exclude", "threshold", "window"})
    if unknown:
        raise CurriculumError(f"{where}: unknown key(s) {', '.join(unknown)}")
    tasks: list[str] = []
    for task in _strings(raw.get("tasks", []), "tasks", where):
        try:
            catalog.get(task)
        except UnknownTaskError as exc:
            raise CurriculumError(f"{where}: {exc}") from None
        tasks.append(task)
    for family in _strings(raw.get("families", []), "families", where):
        members = [n for n in catalog.names() if catalog.get(n).family == family]
        if not members:
            known = sorted({catalog.get(n).family for n in catalog.names()})
            raise CurriculumError(f"{where}: family {family!r} has no tasks (families: {', '.join(known)})")
        tasks.extend(members)
    exclude = set(_strings(raw.get("exclude", []), "exclude", where))
    chosen = tuple(t for t in dict.fromkeys(tasks) if t not in exclude)
    if not chosen:
        raise CurriculumError(f"{where} has no tasks (give 'tasks' or 'families'; 'exclude' may have removed them all)")
    threshold = _share(raw.get("threshold", 0.8), "threshold", where)
    window = _count(raw.get("window", 8), "window", where, minimum=1)
    return Stage(str(name), chosen, threshold, window)


def _strings(value: Any, key: str, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise CurriculumError(f"{where}: {key!r} must be a list of names")
    return list(value)


def _share(value: Any, key: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= float(value) <= 1.0:
        raise CurriculumError(f"{where}: {key} must be within [0, 1], got {value!r}")
    return float(value)


def _count(value: Any, key: str, where: str, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise CurriculumError(f"{where}: {key} must be an integer of at least {minimum}, got {value!r}")
    return value


class Curriculum:
    """The curriculum's state: the open stage, recent group results, tasks set aside.

    Draws are a function of ``(seed, update)`` and the state, so a resumed run draws what the
    uninterrupted one would have.
    """

    def __init__(self, config: CurriculumConfig, seed: int = 0) -> None:
        self.config = config
        self.seed = seed
        self.stage_index = 0
        #: Success rate of each recent group of the open stage's own tasks.
        self.stage_recent: deque[float] = deque(maxlen=config.stages[0].window)
        #: Per task: success rates of its recent groups (for failure filtering and replay).
        self.task_recent: dict[str, deque[float]] = {}
        #: Task -> the update from which it is drawn again.
        self.set_aside: dict[str, int] = {}
        self.promotions: list[dict[str, Any]] = []

    @property
    def stage(self) -> Stage:
        return self.config.stages[self.stage_index]

    def open_tasks(self) -> list[str]:
        """The tasks of every stage opened so far."""
        return list(dict.fromkeys(t for s in self.config.stages[: self.stage_index + 1] for t in s.tasks))

    def draw(self, update: int, groups: int) -> list[tuple[str, int]]:
        """``groups`` (task, seed) pairs for ``update``: the open stage's tasks, a ``review``
        share from earlier stages, none of those set aside (unless nothing else is left)."""
        rng = np.random.default_rng([self.seed, update])
        current = [t for t in self.stage.tasks if self.set_aside.get(t, 0) <= update]
        earlier = [t for t in self.open_tasks() if t not in self.stage.tasks and self.set_aside.get(t, 0) <= update]
        if not current and not earlier:
            current = list(self.stage.tasks)  # everything set aside: draw anyway rather than stall
        out: list[tuple[str, int]] = []
        for _ in range(groups):
            pool = earlier if earlier and (not current or rng.random() < self.config.review) else current
            task = pool[int(rng.integers(len(pool)))]
            out.append((task, int(rng.integers(TRAIN_SEED_LIMIT))))
        return out

    def recent_success(self, task: str) -> float | None:
        """The mean success of the task's recent groups (``None`` before its first)."""
        recent = self.task_recent.get(task)
        return float(np.mean(recent)) if recent else None

    def record(self, update: int, task: str, success_rate: float) -> list[str]:
        """Note one group's success rate; returns what changed (promotion, a task set aside)."""
        events: list[str] = []
        recent = self.task_recent.setdefault(task, deque(maxlen=self._task_window))
        recent.append(float(success_rate))
        if task in self.stage.tasks:
            self.stage_recent.append(float(success_rate))
        fw = self.config.fail_window
        if fw and len(recent) >= fw and not any(list(recent)[-fw:]):
            self.set_aside[task] = update + self.config.retry_after
            recent.clear()  # retried with a clean slate
            events.append(f"set aside {task} until update {update + self.config.retry_after}")
        stage = self.stage
        if self.stage_index + 1 < len(self.config.stages) and self.mastered():
            self.promotions.append({"update": update, "from": stage.name, "success": float(np.mean(self.stage_recent))})
            self.stage_index += 1
            self.stage_recent = deque(maxlen=self.stage.window)
            events.append(f"promoted to stage {self.stage.name!r}")
        return events

    @property
    def _task_window(self) -> int:
        # Long enough for failure filtering and for every stage's promotion window.
        return max(self.config.fail_window, 8, *(s.window for s in self.config.stages))

    def mastered(self) -> bool:
        """Whether the open stage passes its promotion rule (see the module docstring)."""
        stage = self.stage
        if self.config.promotion == "pooled":
            return len(self.stage_recent) >= stage.window and float(np.mean(self.stage_recent)) >= stage.threshold
        for task in stage.tasks:
            # A task set aside starts again with no recent groups: it holds the stage open.
            recent = list(self.task_recent.get(task, ()))[-stage.window :]
            if len(recent) < stage.window or float(np.mean(recent)) < stage.threshold:
                return False
        return True

    def state_dict(self) -> dict[str, Any]:
        return {
            "stage_index": self.stage_index,
            "stage_recent": list(self.stage_recent),
            "task_recent": {k: list(v) for k, v in self.task_recent.items()},
            "set_aside": dict(self.set_aside),
            "promotions": list(self.promotions),
        }

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        index = int(state["stage_index"])
        if not 0 <= index < len(self.config.stages):
            raise CurriculumError(f"the saved curriculum state is at stage {index}, but this curriculum has {len(self.config.stages)}")
        self.stage_index = index
        self.stage_recent = deque(state["stage_recent"], maxlen=self.stage.window)
        self.task_recent = {k: deque(v, maxlen=self._task_window) for k, v in state["task_recent"].items()}
        self.set_aside = {k: int(v) for k, v in state["set_aside"].items()}
        self.promotions = list(state["promotions"])


def stage_of(config: CurriculumConfig, task: str) -> str:
    """The name of the first stage that holds ``task``."""
    for stage in config.stages:
        if task in stage.tasks:
            return stage.name
    raise KeyError(task)


__all__: Sequence[str] = [
    "DEFAULT_CURRICULUM",
    "HELDOUT_SEED_BASE",
    "PROMOTION_RULES",
    "TRAIN_SEED_LIMIT",
    "Curriculum",
    "CurriculumConfig",
    "CurriculumError",
    "Stage",
    "load_curriculum",
    "stage_of",
]
