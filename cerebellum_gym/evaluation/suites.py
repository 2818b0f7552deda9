"""Suites: the list of cases an evaluation runs, loaded from JSON files or built in.

A suite file (format in ``docs/suites.md``) names cases by ``id``, ``task`` and ``seed``.
:func:`load_suite` takes a path or a name. A name is looked up, in order, in
``$CEREBELLUM_SUITES`` (``os.pathsep``-separated folders) and in the suites shipped inside the
package (``cerebellum_gym/suites/``, package data: the same files from a checkout, an editable
install or a wheel). Two names are built in and need no file:

- ``all-tasks`` (or ``all-tasks:K``): every registered task with seeds ``0..K-1`` (K = 3);
- ``tasks:NAME,NAME[:K]``: the named tasks, K seeds each (K = 1).

Example:
    >>> suite = load_suite("tasks:SystemWifiTurnOn,SystemWifiTurnOff:2")
    >>> [case.id for case in suite.cases]
    ['SystemWifiTurnOn-0', 'SystemWifiTurnOn-1', 'SystemWifiTurnOff-0', 'SystemWifiTurnOff-1']
    >>> suite.cases[0].family, suite.cases[0].app
    ('system', 'Settings')
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from cerebellum_gym.errors import CerebellumError, UnknownTaskError
from cerebellum_gym.options import did_you_mean

DEFAULT_ENV: Final = "Cerebellum-Sim-v0"
SUITES_ENV_VAR: Final = "CEREBELLUM_SUITES"
#: The suite the no-argument ``cerebellum-gym eval`` runs when it exists.
MIXED_SUITE: Final = "sim-mixed100"
ANDROIDWORLD_ENV: Final = "Cerebellum-AndroidWorld-v0"
#: The suite ``cerebellum-gym eval --env ENV`` runs when no suite is named (others: MIXED_SUITE).
DEFAULT_SUITES: Final = {DEFAULT_ENV: MIXED_SUITE, ANDROIDWORLD_ENV: "androidworld-mixed100"}


def default_suite(env_id: str | None) -> str:
    """The suite an evaluation of ``env_id`` runs when none is named."""
    return DEFAULT_SUITES.get(env_id or DEFAULT_ENV, MIXED_SUITE)


class SuiteError(CerebellumError):
    """A suite could not be found or is malformed."""


@dataclass(frozen=True)
class Case:
    """One episode to run: a task with a seed that fixes its parameters and labels.

    Attributes:
        id: unique within the suite; results and ``--resume`` key on it.
        task: registered task name.
        seed: passed to ``env.reset(seed=...)``.
        family: the task's family (result groups).
        app: the task's app (result groups).
    """

    id: str
    task: str
    seed: int
    family: str = ""
    app: str = ""


@dataclass(frozen=True)
class Suite:
    """A named, ordered list of cases.

    Attributes:
        name: the suite's name (file stem for files).
        cases: the cases in order.
        env: the env id the suite was written for (``--env`` overrides it).
        description: free text.
        source: where it came from (a path, or ``builtin``).
        max_steps: the step budget of every case (``None``: each task's own).
        env_kwargs: ``gym.make`` options every case runs with (an AndroidWorld suite's
            ``{"device_options": {"open_target_app": true}}``); the caller's options win,
            ``device_options`` merged key by key.
    """

    name: str
    cases: tuple[Case, ...]
    env: str = DEFAULT_ENV
    description: str = ""
    source: str = "builtin"
    max_steps: int | None = None
    _digest: str = field(default="", repr=False, compare=False)
    env_kwargs: Mapping[str, Any] = field(default_factory=dict)

    @property
    def digest(self) -> str:
        """A short hash of the cases (ids, tasks, seeds) and budget: ``--resume`` refuses a changed suite."""
        if self._digest:
            return self._digest
        cases: list[Any] = [[c.id, c.task, c.seed] for c in self.cases]
        if self.max_steps is not None:  # suites without a budget keep the digests they always had
            cases.append({"max_steps": self.max_steps})
        if self.env_kwargs:  # likewise suites without options
            cases.append({"env_kwargs": dict(self.env_kwargs)})
        blob = json.dumps(cases, separators=(",", ":")).encode()
        return hashlib.sha256(blob).hexdigest()[:16]


def packaged_suites_dir() -> Path:
    """The folder of the suites shipped with the package (``cerebellum_gym/suites``)."""
    return Path(__file__).resolve().parents[1] / "suites"


def search_dirs() -> list[Path]:
    """Folders searched for suite names, in order (existing ones only)."""
    dirs: list[Path] = [Path(p) for p in os.environ.get(SUITES_ENV_VAR, "").split(os.pathsep) if p]
    dirs.append(packaged_suites_dir())
    seen: list[Path] = []
    for d in dirs:
        if d.is_dir() and d.resolve() not in seen:
            seen.append(d.resolve())
    return seen


def available_suites() -> dict[str, Path]:
    """Suite names found in :func:`search_dirs` (earlier folders win), with their files."""
    found: dict[str, Path] = {}
    for d in search_dirs():
        for path in sorted(d.glob("*.json")):
            found.setdefault(path.stem, path)
    return found


def find_suite(name: str) -> Path | None:
    """The file of suite ``name``, or ``None`` when no search folder has it."""
    return available_suites().get(name)


def load_suite(spec: str | os.PathLike[str]) -> Suite:
    """A suite from a path, a name in the search folders, or a built-in name.

    Raises:
        SuiteError: nothing by that name, unreadable JSON, or a malformed case (with the file
            and the case's position in the message).
    """
    text = os.fspath(spec)
    path = Path(text).expanduser()
    if path.suffix == ".json" or os.sep in text or (os.altsep and os.altsep in text):
        if not path.is_file():
            raise SuiteError(f"suite file {text!r} does not exist")
        return _load_file(path)
    if text == "all-tasks" or text.startswith("all-tasks:"):
        return _builtin_all(text)
    if text.startswith("tasks:"):
        return _builtin_tasks(text)
    found = find_suite(text)
    if found is not None:
        return _load_file(found)
    if path.is_file():
        return _load_file(path)
    names = sorted(available_suites())
    where = ", ".join(str(d) for d in search_dirs()) or "no suite folders exist here"
    listing = (
        f"`cerebellum-gym eval --list-suites` lists the {len(names)} found in {where} (${SUITES_ENV_VAR} adds folders); "
        "built in: all-tasks[:K], tasks:NAME,NAME[:K]; or a path to a .json file"
    )
    raise SuiteError(did_you_mean(text, names, what="suite", listing=listing))


#: The keys a suite file and each of its cases may hold (a typo such as ``seeds`` is an error, not ignored).
SUITE_KEYS: Final = frozenset({"name", "description", "env", "max_steps", "env_kwargs", "cases"})
CASE_KEYS: Final = frozenset({"id", "task", "seed"})


def suite_from_mapping(data: Mapping[str, Any], *, name: str, source: str = "mapping") -> Suite:
    """A suite from already-parsed JSON (the file format of ``docs/suites.md``).

    Every field is checked: known keys only, ``cases`` a non-empty list, each case a registered
    ``task`` with a non-negative integer ``seed`` and a unique non-empty ``id``; ``name``,
    ``description`` and ``env`` strings; ``max_steps`` (the step budget of every case, optional)
    a positive integer; ``env_kwargs`` (optional) an object. A suite of
    ``Cerebellum-AndroidWorld-v0`` names AndroidWorld's tasks (its registry, when AndroidWorld is
    installed; otherwise they are taken as written).

    Raises:
        SuiteError: a missing, unknown or malformed field, a duplicate id, or an unknown task.
    """
    if not isinstance(data, Mapping):
        raise SuiteError(f"{source}: a suite is a JSON object with a 'cases' list, got {type(data).__name__}")
    unknown = sorted(set(data) - SUITE_KEYS)
    if unknown:
        raise SuiteError(f"{source}: unknown key(s) {', '.join(map(repr, unknown))}; a suite has {', '.join(sorted(SUITE_KEYS))}")
    raw_cases = data.get("cases")
    if not isinstance(raw_cases, list) or not raw_cases:
        raise SuiteError(f"{source}: 'cases' must be a non-empty list")
    env = data.get("env", DEFAULT_ENV)
    if not isinstance(env, str) or not env:
        raise SuiteError(f"{source}: 'env' must be a gymnasium env id (a string)")
    cases: list[Case] = []
    seen: set[str] = set()
    for index, raw in enumerate(raw_cases):
        where = f"{source}: case #{index}"
        if not isinstance(raw, Mapping):
            raise SuiteError(f"{where} must be an object with id, task and seed")
        unknown = sorted(set(raw) - CASE_KEYS)
        if unknown:
            raise SuiteError(f"{where}: unknown key(s) {', '.join(map(repr, unknown))}; a case has id, task and seed")
        task = raw.get("task")
        if not isinstance(task, str) or not task:
            raise SuiteError(f"{where} has no 'task' name")
        seed = raw.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise SuiteError(f"{where} ({task}): 'seed' must be a non-negative integer, got {seed!r}")
        case_id = raw.get("id", f"{task}-{seed}")
        if not isinstance(case_id, str) or not case_id.strip():
            raise SuiteError(f"{where} ({task}): 'id' must be a non-empty string")
        if case_id in seen:
            raise SuiteError(f"{where}: duplicate id {case_id!r} (ids must be unique: results key on them)")
        seen.add(case_id)
        cases.append(_case(case_id, task, seed, where, env))
    for key in ("name", "description"):
        if key in data and not isinstance(data[key], str):
            raise SuiteError(f"{source}: {key!r} must be a string, got {data[key]!r}")
    max_steps = data.get("max_steps")
    if max_steps is not None and (not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1):
        raise SuiteError(f"{source}: 'max_steps' (the step budget) must be a positive integer, got {max_steps!r}")
    env_kwargs = data.get("env_kwargs", {})
    if not isinstance(env_kwargs, Mapping):
        raise SuiteError(f"{source}: 'env_kwargs' must be an object of gym.make options, got {env_kwargs!r}")
    description = str(data.get("description", ""))
    return Suite(str(data.get("name", name)), tuple(cases), env, description, source, max_steps, env_kwargs=dict(env_kwargs))


def _case(case_id: str, task: str, seed: int, where: str, env: str = DEFAULT_ENV) -> Case:
    from cerebellum_gym.tasks import get_task_class

    if env == ANDROIDWORLD_ENV:
        return _androidworld_case(case_id, task, seed, where)
    try:
        cls = get_task_class(task)
    except UnknownTaskError as exc:
        raise SuiteError(f"{where}: {exc}") from None
    return Case(case_id, task, seed, cls.family, cls.app)


def _androidworld_case(case_id: str, task: str, seed: int, where: str) -> Case:
    """A case of AndroidWorld's task ``task``, labelled by AndroidWorld's adapter; without
    AndroidWorld installed, by the simulator's mirror (or ``androidworld``)."""
    from cerebellum_gym.tasks import TASKS

    try:
        from cerebellum_gym.tasks.androidworld import task_class

        cls: Any = task_class(task)
    except UnknownTaskError as exc:
        raise SuiteError(f"{where}: {exc}") from None
    except CerebellumError:  # AndroidWorld is not importable: running will say how to install it
        cls = TASKS.get(task)
        if cls is None:
            return Case(case_id, task, seed, "androidworld", "")
    return Case(case_id, task, seed, cls.family, cls.app)


def _load_file(path: Path) -> Suite:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SuiteError(f"cannot read suite {path}: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise SuiteError(f"suite {path} is not valid JSON: {exc}") from exc
    return suite_from_mapping(data, name=path.stem, source=str(path))


def _seeds(text: str, default: int, spec: str) -> int:
    try:
        k = int(text) if text else default
    except ValueError:
        raise SuiteError(f"suite {spec!r}: the seed count after ':' must be an integer") from None
    if k < 1:
        raise SuiteError(f"suite {spec!r}: the seed count must be at least 1")
    return k


def _builtin_all(spec: str) -> Suite:
    from cerebellum_gym.tasks import task_names

    k = _seeds(spec.partition(":")[2], 3, spec)
    names = task_names()
    # Seed-major order mixes the families, so a partial run already covers all of them.
    cases = tuple(_case(f"{n}-{s}", n, s, spec) for s in range(k) for n in names)
    return Suite(spec, cases, DEFAULT_ENV, f"every registered task, seeds 0..{k - 1}")


def _builtin_tasks(spec: str) -> Suite:
    body = spec[len("tasks:") :]
    names_part, _, count = body.partition(":")
    names = list(dict.fromkeys(n.strip() for n in names_part.split(",") if n.strip()))
    if not names:
        raise SuiteError(f"suite {spec!r} names no tasks")
    k = _seeds(count, 1, spec)
    cases = tuple(_case(f"{n}-{s}", n, s, spec) for n in names for s in range(k))
    return Suite(spec, cases, DEFAULT_ENV, f"{len(names)} tasks, seeds 0..{k - 1}")
