"""Task catalogues: where an env finds its tasks by name.

The simulator's tasks live in the bundled registry (:data:`~cerebellum_gym.tasks.registry.TASKS`);
a backend may bring its own (AndroidWorld's adapters). The loader picks the catalogue for the
backend and hands it to the env, which only asks it for names and classes.

Example:
    >>> from cerebellum_gym.tasks.catalog import BUILTIN
    >>> BUILTIN.get("SystemWifiTurnOn").family
    'system'
    >>> "NoSuchTask" in BUILTIN
    False
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping

from cerebellum_gym.errors import UnknownTaskError
from cerebellum_gym.tasks.base import Task
from cerebellum_gym.tasks.registry import get_task_class, task_names


class TaskCatalog(abc.ABC):
    """Task classes by name."""

    #: Short name of the catalogue, for messages and ``info``.
    source: str = "abstract"

    @abc.abstractmethod
    def names(self) -> list[str]:
        """Every task name, sorted: what an env with ``task=None`` draws from."""

    @abc.abstractmethod
    def get(self, name: str) -> type[Task]:
        """The class of task ``name``.

        Raises:
            UnknownTaskError: no such task (the message suggests close names).
        """

    def __contains__(self, name: object) -> bool:
        try:
            self.get(str(name))
        except UnknownTaskError:
            return False
        return True


class RegistryCatalog(TaskCatalog):
    """The bundled tasks, judged through the Device interface on any backend."""

    source = "builtin"

    def names(self) -> list[str]:
        return task_names()

    def get(self, name: str) -> type[Task]:
        return get_task_class(name)


class MappingCatalog(TaskCatalog):
    """Tasks from a mapping built on first use (a backend's own tasks, such as AndroidWorld's)."""

    def __init__(self, source: str, load: Callable[[], Mapping[str, type[Task]]]) -> None:
        self.source = source
        self._load = load
        self._tasks: Mapping[str, type[Task]] | None = None

    @property
    def tasks(self) -> Mapping[str, type[Task]]:
        if self._tasks is None:
            self._tasks = self._load()
        return self._tasks

    def names(self) -> list[str]:
        return sorted(self.tasks)

    def get(self, name: str) -> type[Task]:
        try:
            return self.tasks[name]
        except KeyError:
            import difflib

            close = difflib.get_close_matches(name, self.tasks, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise UnknownTaskError(f"no task named {name!r} in the {self.source} catalogue{hint}") from None


class ChainCatalog(TaskCatalog):
    """The first catalogue's tasks, falling back to the others for names it lacks.

    :meth:`names` lists the first catalogue only (what ``task=None`` draws from); :meth:`get`
    also finds the fallbacks' names. On AndroidWorld, ``task="ContactsAddContact"`` is then
    AndroidWorld's own task, and a name only the bundled registry has still resolves.
    """

    def __init__(self, first: TaskCatalog, *fallbacks: TaskCatalog) -> None:
        self.chain = (first, *fallbacks)
        self.source = "+".join(c.source for c in self.chain)

    def names(self) -> list[str]:
        return self.chain[0].names()

    def get(self, name: str) -> type[Task]:
        for catalog in self.chain[:-1]:
            if name in catalog:
                return catalog.get(name)
        return self.chain[-1].get(name)


#: The bundled tasks (the simulator's, and any device's through the Device interface).
BUILTIN: RegistryCatalog = RegistryCatalog()

__all__ = ["BUILTIN", "ChainCatalog", "MappingCatalog", "RegistryCatalog", "TaskCatalog"]
