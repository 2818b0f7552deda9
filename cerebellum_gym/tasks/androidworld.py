"""AndroidWorld's own tasks as cerebellum :class:`~cerebellum_gym.tasks.base.Task` classes.

Each AndroidWorld ``TaskEval`` class (``registry.TaskRegistry().get_registry(family)[name]``)
gets an adapter class of the same name. The adapter keeps AndroidWorld's semantics:

- parameters come from the class's ``generate_random_params()`` under Python's ``random`` seeded
  from our generator, with the ``seed`` parameter added as ``suite_utils`` does, so one env seed
  gives one episode;
- :meth:`AndroidWorldTask.initialize` builds a fresh ``TaskEval`` from those parameters and runs
  ``initialize_task(env)`` (after tearing down the task that ran before on the same device);
- :meth:`AndroidWorldTask.progress` is ``is_successful(env)``, AndroidWorld's judge with its
  privileged access to the emulator (databases, files, settings); the answer of an ``F {answer}``
  first goes through ``execute_action(JSONAction(action_type="answer", text=...))``, which is how
  information-retrieval tasks read it (``env.interaction_cache``);
- the step budget is AndroidWorld's, ``int(10 * complexity)`` of the live task.

These tasks need the ``androidworld`` backend: their judges read AndroidWorld's env, not the
Device interface. They are not added to the shared registry (the simulator's tasks keep their
names); :meth:`cerebellum_gym.devices.androidworld.AndroidWorldDevice.task_classes` offers them.

Example (needs AndroidWorld and an emulator; see ``docs/androidworld.md``)::

    import gymnasium as gym, cerebellum_gym
    from cerebellum_gym.tasks.androidworld import task_class
    env = gym.make("Cerebellum-AndroidWorld-v0", task=task_class("ContactsAddContact"))
"""

from __future__ import annotations

import contextlib
import functools
import random
import string
import weakref
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar, Final, cast

import numpy as np

from cerebellum_gym.devices.base import Device
from cerebellum_gym.errors import CerebellumError, TaskError, UnknownTaskError
from cerebellum_gym.tasks.base import Oracle, Task

if TYPE_CHECKING:
    from cerebellum_gym.devices.androidworld import AndroidWorldDevice

DEFAULT_FAMILY: Final = "android_world"
#: The AndroidWorld task live on each device, torn down before the next one starts there.
_LIVE: weakref.WeakKeyDictionary[Device, Any] = weakref.WeakKeyDictionary()


@contextlib.contextmanager
def _seeded(seed: int) -> Iterator[None]:
    """Python's global ``random`` seeded with ``seed`` (AndroidWorld draws from it), restored after."""
    saved = random.getstate()
    random.seed(seed)
    try:
        yield
    finally:
        random.setstate(saved)


def _aw_device(device: Device, task: str) -> AndroidWorldDevice:
    from cerebellum_gym.devices.androidworld import AndroidWorldDevice

    if not isinstance(device, AndroidWorldDevice):
        raise TaskError(
            f"AndroidWorld task {task!r} is judged by AndroidWorld on its own env and needs the androidworld backend "
            f"(gym.make('Cerebellum-AndroidWorld-v0', ...)); this device is {device.backend!r}"
        )
    return device


def _call(what: str, task: str, fn: Any, *args: Any) -> Any:
    """Run AndroidWorld task code with the device's error mapping.

    Device and adb faults become InfraError (AndroidWorld's own runner skips a task whose setup or
    judge raises; here the episode ends with ``info["infra_error"]`` and evaluation may retry
    it); anything else is a TaskError.
    """
    from cerebellum_gym.devices.androidworld import map_error

    try:
        return fn(*args)
    except CerebellumError:
        raise
    except Exception as exc:
        mapped = map_error(exc, f"AndroidWorld {task}.{what}")
        if mapped is not None:
            raise mapped from exc
        raise TaskError(f"AndroidWorld {task}.{what} failed: {type(exc).__name__}: {exc}") from exc


def _complexity(value: Any) -> float:
    return float(value) if isinstance(value, int | float) else 1.0


def _first_app(aw_class: Any) -> str:
    apps = getattr(aw_class, "app_names", ())
    return str(apps[0]) if isinstance(apps, tuple | list) and apps else ""


class _NoOracle(Oracle):
    def act(self, screen: Any) -> str:
        raise TaskError("AndroidWorld tasks have no scripted oracle in cerebellum-gym")


class AndroidWorldTask(Task):
    """An AndroidWorld ``TaskEval`` behind the cerebellum Task interface.

    Subclasses made by :func:`task_class` set :attr:`aw_class`; an instance holds one episode's
    parameters and, once initialized, the live ``TaskEval``.
    """

    family: ClassVar[str] = "androidworld"
    #: The AndroidWorld ``TaskEval`` class this adapts.
    aw_class: ClassVar[Any] = None
    #: The AndroidWorld registry family it came from.
    aw_family: ClassVar[str] = DEFAULT_FAMILY

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(params)
        self._live: Any = None  # the initialized TaskEval
        self._preview: Any = None  # an uninitialized one, for the goal before initialize

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        seed = int(rng.integers(0, 2**31 - 1))
        with contextlib.suppress(Exception):  # upstream ignores env here; a fork might not
            cls.aw_class.set_device_time(None)
        with _seeded(seed):
            params = dict(cls.aw_class.generate_random_params())
        params["seed"] = seed
        return params

    def _instance(self) -> Any:
        """The live ``TaskEval``, or an uninitialized one for reading the goal before initialize."""
        if self._live is not None:
            return self._live
        if self._preview is None:
            self._preview = self.aw_class(dict(self.params))
        return self._preview

    @property
    def goal(self) -> str:
        # The TaskEval's own goal: information-retrieval tasks build theirs from a proto, and
        # initialize_task may rewrite date parameters into words.
        return str(self._instance().goal)

    def text_candidates(self) -> list[str]:
        live = self._instance()
        template = str(getattr(live, "template", "") or "")
        params = dict(getattr(live, "params", self.params))
        fields = [name for _, name, _, _ in string.Formatter().parse(template) if name]
        return [str(params[f]) for f in fields if isinstance(params.get(f), str)]

    def max_steps(self) -> int:  # type: ignore[override]  # the live task's complexity, as AndroidWorld budgets
        """AndroidWorld's budget, ``int(10 * complexity)`` of the live task (information-retrieval
        tasks set theirs from the proto when built)."""
        return max(1, int(round(10 * _complexity(getattr(self._instance(), "complexity", self.complexity)), 6)))

    def initialize(self, device: Device) -> None:
        aw_device = _aw_device(device, self.name)
        tear_down_active(device)
        self._live = None
        live = self.aw_class(dict(self.params))  # fresh: a TaskEval initializes only once
        _call("initialize_task", self.name, live.initialize_task, aw_device.env)
        self._live = live
        _LIVE[device] = live

    def progress(self, device: Device, answer: str | None = None) -> float:
        aw_device = _aw_device(device, self.name)
        live = self._live
        if live is None or id(_LIVE.get(device)) != id(live):  # (id: keeps mypy from narrowing live to None)
            raise TaskError(f"{self.name}: initialize(device) first")
        if answer is not None:
            # AndroidWorld's agents answer with an "answer" action; the env keeps the text in
            # interaction_cache, where information-retrieval judges read it.
            aw_device.execute_json_action(action_type="answer", text=answer)
        score = _call("is_successful", self.name, live.is_successful, aw_device.env)
        return float(min(1.0, max(0.0, float(score))))

    def tear_down(self, device: Device) -> None:
        """``tear_down(env)`` of this task if it is the one live on ``device``."""
        if self._live is not None and _LIVE.get(device) is self._live:
            tear_down_active(device)

    def oracle(self) -> Oracle:
        return _NoOracle()

    def __repr__(self) -> str:
        return f"AndroidWorld:{self.name}({self.params!r})"


def tear_down_active(device: Device) -> None:
    """Tear down the AndroidWorld task live on ``device``, if any (its ``tear_down(env)``)."""
    live = _LIVE.pop(device, None)
    if live is not None:
        _call("tear_down", type(live).__name__, live.tear_down, _aw_device(device, type(live).__name__).env)


def _registry(family: str) -> dict[str, Any]:
    from cerebellum_gym.devices.androidworld import import_android_world

    module = import_android_world("registry")
    try:
        return dict(module.TaskRegistry().get_registry(family))
    except Exception as exc:
        raise TaskError(f"AndroidWorld has no task family {family!r}: {exc}") from exc


@functools.cache
def _adapter(aw_class: Any, family: str) -> type[AndroidWorldTask]:
    name = str(aw_class.__name__)
    template = getattr(aw_class, "template", "")
    attrs: dict[str, Any] = {
        "name": name,
        "aw_class": aw_class,
        "aw_family": family,
        "app": _first_app(aw_class),
        "complexity": _complexity(getattr(aw_class, "complexity", 1.0)),
        "template": template if isinstance(template, str) else "",
        "judge": "AndroidWorld's is_successful(env)",
        "mirrors": name,
        "answer": any(getattr(c, "__name__", "") == "InformationRetrieval" for c in getattr(aw_class, "__mro__", ())),
        "__module__": __name__,
        "__doc__": f"AndroidWorld's {name}, judged by AndroidWorld.",
    }
    return cast("type[AndroidWorldTask]", type(name, (AndroidWorldTask,), attrs))


def task_classes(family: str = DEFAULT_FAMILY) -> dict[str, type[AndroidWorldTask]]:
    """Every AndroidWorld task of ``family`` (``"android_world"``: all 116), adapted, by name.

    Raises:
        CerebellumError: AndroidWorld is not importable.
    """
    return {name: _adapter(cls, family) for name, cls in sorted(_registry(family).items())}


def task_class(name: str, family: str = DEFAULT_FAMILY) -> type[AndroidWorldTask]:
    """The adapter of AndroidWorld's task ``name``.

    Raises:
        UnknownTaskError: AndroidWorld has no such task in ``family``.
    """
    registry = _registry(family)
    if name not in registry:
        import difflib

        close = difflib.get_close_matches(name, registry, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UnknownTaskError(f"AndroidWorld family {family!r} has no task {name!r}{hint}")
    return _adapter(registry[name], family)


__all__ = ["AndroidWorldTask", "task_class", "task_classes", "tear_down_active"]
