"""AndroidWorld's own tasks as cerebellum :class:`~cerebellum_gym.tasks.base.Task` classes.

Each AndroidWorld ``TaskEval`` class (``registry.TaskRegistry().get_registry(family)[name]``)
gets an adapter class of the same name. The adapter keeps AndroidWorld's semantics:

- parameters come from the class's ``generate_random_params()`` under Python's ``random`` seeded
  from our generator, with the ``seed`` parameter added as ``suite_utils`` does, so one env seed
  gives one episode;
- the episode follows AndroidWorld's protocol (``suite_utils._run_task`` and
  ``episode_runner.run_episode``): :meth:`AndroidWorldTask.start_episode` builds a fresh ``TaskEval``
  from those parameters and runs ``initialize_task(env)`` (after tearing down the task that ran
  before on the same device), *then* goes home (``AsyncEnv.reset(go_home=start_on_home_screen)``,
  what AndroidWorld's agents do on reset);
- the task is judged once, when the episode ends (``judge_mode = "on_end"``):
  :meth:`AndroidWorldTask.progress` is ``is_successful(env)``, AndroidWorld's judge with its
  privileged access to the emulator (databases, files, settings). Some of those judges act on the
  device (``SystemCopyToClipboard`` opens Clipper and presses Back; the SMS judge sleeps 5 s;
  the SQLite judges pull whole databases), so judging after every step is allowed only for the
  judges listed in :data:`SIDE_EFFECT_FREE_JUDGES`, each read in AndroidWorld's source at the
  pinned commit and found to only read settings, files or the foreground activity. The answer
  of an ``F {answer}`` first goes through ``execute_action(JSONAction(action_type="answer",
  text=...))``, which is how information-retrieval tasks read it (``env.interaction_cache``);
- :meth:`AndroidWorldTask.tear_down` runs ``tear_down(env)`` once the episode is over;
- the step budget is AndroidWorld's, ``int(10 * complexity)`` of the live task;
- errors: an exception from AndroidWorld's task code is a
  :class:`~cerebellum_gym.errors.TaskError` (the case fails and says why; evaluation does not
  retry it), unless it is an adb, gRPC or emulator fault (android_env's errors, an RPC error, a
  time-out, a broken connection), or the device stops answering a probe right after the
  exception: those stay :class:`~cerebellum_gym.errors.InfraError`. An adb command the device
  ran and answered with an error (android_env's ``AdbControllerError`` from a non-zero exit
  status, such as the SMS set-up's failing ``sqlite3``) is the task's error: the device is
  there (:func:`~cerebellum_gym.devices.androidworld.device_answer`), and the TaskError quotes
  its answer.

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

import gymnasium as gym
import numpy as np

from cerebellum_gym.core.state import register_state_base, register_state_type
from cerebellum_gym.devices.base import Device
from cerebellum_gym.errors import CerebellumError, TaskError, UnknownTaskError
from cerebellum_gym.tasks.base import LAUNCH_STEPS, JudgeMode, Oracle, Task

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


def _call(what: str, task: str, fn: Any, *args: Any, device: AndroidWorldDevice | None = None) -> Any:
    """Run AndroidWorld task code, keeping its own errors apart from the device's.

    adb, gRPC and emulator faults (:func:`~cerebellum_gym.devices.androidworld.infra_error`)
    become InfraError: the episode ends with ``info["infra_error"]`` and evaluation retries it.
    Anything else the task code raises (``RuntimeError``, ``ValueError``, ``KeyError``, ...) is a
    TaskError, unless ``device`` no longer answers a probe right after, in which case the
    exception was a symptom of a lost device and is an InfraError too.
    """
    from cerebellum_gym.devices.androidworld import device_answer, infra_error

    try:
        if device is None:
            return fn(*args)
        with device.simulated_time():  # the embedded simulator's clock; real time elsewhere
            return fn(*args)
    except CerebellumError:
        raise
    except Exception as exc:
        where = f"AndroidWorld {task}.{what}"
        mapped = infra_error(exc, where)
        if mapped is not None:
            raise mapped from exc
        if device is not None:
            lost = device.probe()
            if lost is not None:
                raise lost from exc
        answered = device_answer(exc)
        said = ""
        if answered is not None:
            output = answered.output if isinstance(answered.output, bytes) else str(answered.output or "").encode()
            said = f" (the device answered status {answered.returncode}: {output.decode('utf-8', 'replace').strip()[:300]!r})"
        raise TaskError(f"{where} failed: {type(exc).__name__}: {exc}{said}") from exc


#: Result groups ("families") of AndroidWorld's tasks, by the first app a task names: the apps'
#: families as the simulator names its own, so a family reads the same on both.
APP_FAMILIES: Final = {
    "audio recorder": "audio",
    "broccoli app": "recipe",
    "camera": "camera",
    "chrome": "browser",
    "clipper": "system",
    "clock": "clock",
    "contacts": "contacts",
    "files": "files",
    "joplin": "joplin",
    "markor": "markor",
    "open tracks sports tracker": "opentracks",
    "osmand": "osmand",
    "pro expense": "expense",
    "retro music": "music",
    "settings": "system",
    "simple calendar pro": "calendar",
    "simple draw pro": "draw",
    "simple gallery pro": "gallery",
    "simple sms messenger": "sms",
    "tasks": "tasks",
    "vlc": "vlc",
}


def app_family(app: str) -> str:
    """The result group of an AndroidWorld task whose first app is ``app`` (:data:`APP_FAMILIES`;
    another app's name, lower case with underscores)."""
    key = app.strip().lower()
    return APP_FAMILIES.get(key) or (key.replace(" ", "_") or "androidworld")


def _complexity(value: Any) -> float:
    return float(value) if isinstance(value, int | float) else 1.0


def _first_app(source: Any) -> str:
    apps = getattr(source, "app_names", ())
    return str(apps[0]) if isinstance(apps, tuple | list) and apps else ""


#: AndroidWorld judges (by the class that defines ``is_successful``) that only read the device:
#: settings (``settings get``), the foreground activity (``am stack list``), the UI elements of a
#: state or a folder's listing (``ls``), with no key press, app start, sleep or database pull. Read in AndroidWorld's source
#: at d9c569f; only these may be judged after every step (``judge_every_step=True``).
SIDE_EFFECT_FREE_JUDGES: Final = frozenset(
    {
        "_SystemBrightnessToggle",  # settings get system screen_brightness
        "_SystemWifiToggle",  # settings get global wifi_on
        "_SystemBluetoothToggle",  # settings get global bluetooth_on
        "OpenAppTaskEval",  # the foreground activity
        "CameraTakePhoto",  # ls /sdcard/Pictures
        "CameraTakeVideo",  # ls /sdcard/Movies
        "ClockTimerEntry",  # get_state() UI elements and the foreground activity
        "ClockStopWatchPausedVerify",  # same
        "ClockStopWatchRunning",  # same
    }
)


def _judge_owner(aw_class: Any) -> str:
    """The name of the class in ``aw_class``'s MRO that defines ``is_successful``."""
    for cls in getattr(aw_class, "__mro__", ()):
        if "is_successful" in vars(cls):
            return str(cls.__name__)
    return ""


def mirror_class(name: str) -> type[Task] | None:
    """The simulator's task that mirrors AndroidWorld's task ``name`` (its ``mirrors``), or ``None``."""
    import cerebellum_gym.tasks  # noqa: F401  (registers the bundled tasks)
    from cerebellum_gym.tasks.registry import TASKS

    same_name = TASKS.get(name)
    if same_name is not None and same_name.mirrors == name:
        return same_name
    return next((cls for cls in TASKS.values() if cls.mirrors == name), None)


def mirrored_tasks() -> list[str]:
    """AndroidWorld's tasks the simulator mirrors: those with an oracle, and the ones that run,
    on the embedded simulator."""
    import cerebellum_gym.tasks  # noqa: F401  (registers the bundled tasks)
    from cerebellum_gym.tasks.registry import TASKS

    return sorted({cls.mirrors for cls in TASKS.values() if cls.mirrors})


#: Judges (by defining class) of tasks whose goal is to open an app: with ``open_target_app`` they
#: still start on the home screen, or pre-opening would solve them.
OPENS_AN_APP: Final = frozenset({"OpenAppTaskEval", "TurnOnWifiAndOpenApp"})


class AndroidWorldTask(Task):
    """An AndroidWorld ``TaskEval`` behind the cerebellum Task interface.

    Subclasses made by :func:`task_class` set :attr:`aw_class`; an instance holds one episode's
    parameters and, once initialized, the live ``TaskEval``.
    """

    family: ClassVar[str] = "androidworld"
    judge_mode: ClassVar[JudgeMode] = "on_end"
    judge_side_effect_free: ClassVar[bool] = False
    #: The AndroidWorld ``TaskEval`` class this adapts.
    aw_class: ClassVar[Any] = None
    #: The AndroidWorld registry family it came from.
    aw_family: ClassVar[str] = DEFAULT_FAMILY

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(params)
        self._live: Any = None  # the initialized TaskEval
        self._preview: Any = None  # an uninitialized one, for the goal before initialize
        self._device: AndroidWorldDevice | None = None  # where it was initialized (for the oracle)

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
        tasks set theirs from the proto when built), and the launcher's step (``LAUNCH_STEPS``)."""
        return max(1, int(round(10 * _complexity(getattr(self._instance(), "complexity", self.complexity)), 6))) + LAUNCH_STEPS

    def start_episode(self, device: Device) -> None:
        """AndroidWorld's order: ``initialize_task(env)``, then home (the agent's reset,
        ``AsyncEnv.reset(go_home=start_on_home_screen)``, which also clears the answer cache)."""
        self.initialize(device)
        aw_device = _aw_device(device, self.name)
        go_home = bool(getattr(self._live, "start_on_home_screen", True))
        aw_device.reset_env(go_home=go_home)
        if aw_device.open_target_app and self.app and _judge_owner(self.aw_class) not in OPENS_AN_APP:
            # The card's live eval: the target app pre-opened.
            aw_device.open_app(self.app)

    def initialize(self, device: Device) -> None:
        aw_device = _aw_device(device, self.name)
        tear_down_active(device)
        self._live = None
        self._device = aw_device
        live = self.aw_class(dict(self.params))  # fresh: a TaskEval initializes only once
        # Registered before it runs: a set-up that fails half-way is still torn down.
        _LIVE[device] = live
        self._live = live
        _call("initialize_task", self.name, live.initialize_task, aw_device.env, device=aw_device)

    def progress(self, device: Device, answer: str | None = None) -> float:
        aw_device = _aw_device(device, self.name)
        live = self._live
        if live is None or id(_LIVE.get(device)) != id(live):  # (id: keeps mypy from narrowing live to None)
            raise TaskError(f"{self.name}: initialize(device) first")
        if answer is not None:
            # AndroidWorld's agents answer with an "answer" action; the env keeps the text in
            # interaction_cache, where information-retrieval judges read it.
            aw_device.execute_json_action(action_type="answer", text=answer)
        try:
            score = _call("is_successful", self.name, live.is_successful, aw_device.env, device=aw_device)
        except TaskError as exc:
            # AndroidWorld's suite runner scores a judge that raises as a failed episode and logs
            # why (RetroPlayingQueue's reads a table its set-up deleted until the app starts
            # again, on its emulator as here): the episode fails, info["judge_error"] says why.
            self.judge_error = str(exc)
            gym.logger.warn(f"{self.name}: judged 0.0, AndroidWorld's judge raised: {exc}")
            return 0.0
        self.judge_error = ""
        return float(min(1.0, max(0.0, float(score))))

    def __reduce__(self) -> tuple[Any, ...]:
        # The adapter classes are made at run time: an episode state names the task by its
        # AndroidWorld name and family, and keeps the live TaskEval (plain data), not the device.
        # The TaskEval goes as its attributes: AndroidWorld makes its information-retrieval
        # classes at run time too (no module holds them by name).
        live = None if self._live is None else dict(vars(self._live))
        return (_restored_task, (self.name, self.aw_family, dict(self.params), live, self.judge_error))

    def resume(self, device: Device) -> None:
        """Back on ``device`` after a restore: the live TaskEval is the one its judge and
        tear-down find there again."""
        self._device = _aw_device(device, self.name)
        if self._live is not None:
            _LIVE[device] = self._live

    def tear_down(self, device: Device) -> None:
        """``tear_down(env)`` of this task if it is the one live on ``device``."""
        if self._live is not None and _LIVE.get(device) is self._live:
            tear_down_active(device)

    def oracle(self) -> Oracle:
        """The simulator's scripted oracle for the task it mirrors, on AndroidWorld's parameters
        for this episode, on the embedded simulator.

        The oracle reads the simulator's labelled screens and its task's record of the start
        state (taken here from the phone, after AndroidWorld's ``initialize_task``), so it
        exists only where the device is the simulator in this process.

        Raises:
            TaskError: not initialized; the device is an emulator (or an env of the caller's);
                the simulator does not mirror this task; or AndroidWorld's parameters do not
                map onto the mirror's.
        """
        device = self._device
        if device is None or self._live is None:
            raise TaskError(f"{self.name}: reset the env (initialize the task) before asking for its oracle")
        in_process = getattr(device, "in_process", None)
        if in_process is None:
            raise TaskError(
                f"AndroidWorld task {self.name!r} has no scripted oracle on this device ({device.device_backend}): "
                "the oracles are the simulator's own, acting on its screens and reading its start state, so they run "
                "only on the embedded simulator (Cerebellum-AndroidWorld-v0 with no emulator named), for the "
                f"{len(mirrored_tasks())} AndroidWorld tasks it mirrors"
            )
        mirror = mirror_class(self.name)
        if mirror is None:
            raise TaskError(
                f"AndroidWorld task {self.name!r} has no scripted oracle: the simulator does not mirror it "
                "(mirrored: cerebellum_gym.tasks.androidworld.mirrored_tasks())"
            )
        try:
            sim_task = mirror(mirror.from_androidworld(dict(self.params)))
        except Exception as exc:
            raise TaskError(
                f"{self.name}: AndroidWorld's parameters {self.params!r} do not map onto the simulator's {mirror.name}: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        with in_process.lock:
            sim_task.baseline(in_process.phone)
        return sim_task.oracle()

    def __repr__(self) -> str:
        return f"AndroidWorld:{self.name}({self.params!r})"


def tear_down_active(device: Device) -> None:
    """Tear down the AndroidWorld task live on ``device``, if any (its ``tear_down(env)``)."""
    live = _LIVE.pop(device, None)
    if live is not None:
        aw_device = _aw_device(device, type(live).__name__)
        _call("tear_down", type(live).__name__, live.tear_down, aw_device.env, device=aw_device)


def _registry(family: str) -> dict[str, Any]:
    from cerebellum_gym.devices.androidworld import import_android_world

    module = import_android_world("registry")
    _register_state_types()
    try:
        return dict(module.TaskRegistry().get_registry(family))
    except Exception as exc:
        raise TaskError(f"AndroidWorld has no task family {family!r}: {exc}") from exc


def _register_state_types() -> None:
    """AndroidWorld's TaskEvals (and their validators) and the rows and files they keep are plain
    data between their calls: an episode state may hold them (``core/state.py``). A build of
    AndroidWorld without one of these modules has nothing of it to keep."""
    import dataclasses

    from cerebellum_gym.devices.androidworld import import_android_world

    def module(name: str) -> Any:
        try:
            return import_android_world(name)
        except CerebellumError:
            return None

    if (evals := module("task_evals.task_eval")) is not None:
        register_state_base(evals.TaskEval)
    if (schema := module("task_evals.utils.sqlite_schema_utils")) is not None:
        for value in vars(schema).values():
            if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__ == schema.__name__:
                register_state_type(value)
    if (files := module("utils.file_utils")) is not None:
        register_state_type(files.FileWithMetadata)
    # an information-retrieval task's proto (a protobuf message pickles as its serialized bytes)
    if (proto := module("task_evals.information_retrieval.proto.task_pb2")) is not None:
        register_state_type(proto.Task)


def _sample(aw_class: Any) -> Any:
    """An uninitialized instance from seeded parameters: information-retrieval tasks and a few
    others set their apps, template and complexity per instance (from a proto, in ``__init__``)."""
    try:
        with contextlib.suppress(Exception):
            aw_class.set_device_time(None)
        with _seeded(0):
            params = dict(aw_class.generate_random_params())
        params["seed"] = 0
        return aw_class(params)
    except Exception:  # metadata only: fall back to the class attributes
        return aw_class


def _template(aw_class: Any, sample: Any) -> str:
    """The goal template; where AndroidWorld builds the goal in code (no template), the goal of
    the seed-0 instance stands in as an example."""
    for source in (sample, aw_class):
        template = getattr(source, "template", "")
        if isinstance(template, str) and template:
            return template
    with contextlib.suppress(Exception):
        return str(sample.goal)
    return ""


@functools.cache
def _adapter(aw_class: Any, family: str) -> type[AndroidWorldTask]:
    name = str(aw_class.__name__)
    sample = _sample(aw_class)
    owner = _judge_owner(aw_class)
    app = _first_app(sample) or _first_app(aw_class)
    attrs: dict[str, Any] = {
        "name": name,
        "aw_class": aw_class,
        "aw_family": family,
        "family": app_family(app),
        "app": app,
        "complexity": _complexity(getattr(sample, "complexity", getattr(aw_class, "complexity", 1.0))),
        "template": _template(aw_class, sample),
        "judge_side_effect_free": owner in SIDE_EFFECT_FREE_JUDGES,
        "judge": "AndroidWorld's is_successful(env), once at the end of the episode",
        "mirrors": name,
        "answer": any(getattr(c, "__name__", "") == "InformationRetrieval" for c in getattr(aw_class, "__mro__", ())),
        "__module__": __name__,
        "__doc__": f"AndroidWorld's {name}, judged by AndroidWorld.",
    }
    return cast("type[AndroidWorldTask]", type(name, (AndroidWorldTask,), attrs))


@register_state_type
def _restored_task(name: str, family: str, params: dict[str, Any], live: dict[str, Any] | None, judge_error: str) -> AndroidWorldTask:
    """An adapter of AndroidWorld's task ``name`` whose live TaskEval has the attributes ``live``
    (what an episode state keeps of it, see ``AndroidWorldTask.__reduce__``): it builds the
    task from data, and runs none of AndroidWorld's code."""
    task = task_class(str(name), str(family))(dict(params))
    if isinstance(live, dict):
        instance = task.aw_class.__new__(task.aw_class)
        instance.__dict__.update(live)
        task._live = instance
    task.judge_error = str(judge_error)
    return task


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


__all__ = [
    "APP_FAMILIES",
    "SIDE_EFFECT_FREE_JUDGES",
    "AndroidWorldTask",
    "app_family",
    "mirror_class",
    "mirrored_tasks",
    "task_class",
    "task_classes",
    "tear_down_active",
]
