"""The task registry: every task by name, with its family and app.

Example:
    >>> import cerebellum_gym.tasks as tasks
    >>> cls = tasks.get_task_class("SystemWifiTurnOn")
    >>> cls.family, cls.max_steps()
    ('system', 11)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

import numpy as np

from cerebellum_gym.errors import ConfigError, UnknownTaskError
from cerebellum_gym.options import did_you_mean
from cerebellum_gym.tasks.base import Task

TASKS: dict[str, type[Task]] = {}

T = TypeVar("T", bound=type[Task])


def register_task(cls: T) -> T:
    """Class decorator adding a task to the registry under ``cls.name``."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no name")
    if cls.name in TASKS and TASKS[cls.name] is not cls:
        raise ValueError(f"task {cls.name!r} is registered twice")
    TASKS[cls.name] = cls
    return cls


def get_task_class(name: str) -> type[Task]:
    """The task class registered as ``name``.

    Raises:
        UnknownTaskError: with the closest names, when there is no such task.
    """
    try:
        return TASKS[name]
    except KeyError:
        import difflib

        close = difflib.get_close_matches(name, TASKS, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else "; `cerebellum-gym tasks` lists them"
        raise UnknownTaskError(f"no task named {name!r}{hint}") from None


def task_names(family: str | None = None, app: str | None = None) -> list[str]:
    """Registered names, sorted, optionally of one family or app."""
    return sorted(name for name, cls in TASKS.items() if (family is None or cls.family == family) and (app is None or cls.app == app))


def families() -> list[str]:
    return sorted({cls.family for cls in TASKS.values()})


def apps() -> list[str]:
    return sorted({cls.app for cls in TASKS.values()})


def resolve_family(name: str) -> str:
    """``name`` as a family, ignoring case.

    Raises:
        ConfigError: no such family (with the closest name and every family).
    """
    return _resolve(name, families(), "family")


def resolve_app(name: str) -> str:
    """``name`` as an app of the registry, ignoring case (``settings`` is ``Settings``).

    Raises:
        ConfigError: no such app (with the closest name and every app).
    """
    return _resolve(name, apps(), "app")


def _resolve(name: str, valid: list[str], what: str) -> str:
    for candidate in valid:
        if candidate.lower() == name.strip().lower():
            return candidate
    raise ConfigError(did_you_mean(name, valid, what=what, plural="families" if what == "family" else None))


def make_task(name: str, rng: np.random.Generator) -> Task:
    """An instance of task ``name`` with parameters drawn from ``rng``."""
    cls = get_task_class(name)
    return cls(cls.generate_params(rng))


def iter_tasks(names: Iterable[str] | None = None) -> list[type[Task]]:
    return [get_task_class(n) for n in (names if names is not None else task_names())]
