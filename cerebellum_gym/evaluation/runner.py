"""The rollout loop: every case of a suite on N parallel envs, the agent acting on batches.

Design:

- gymnasium's vector envs (``SyncVectorEnv``, ``AsyncVectorEnv`` with one process per env, or
  :class:`~cerebellum_gym.vector.RayVectorEnv` with one Ray actor per env) with autoreset
  disabled. Each sub-env is an :class:`~cerebellum_gym.evaluation.slot.EpisodeSlot` which reads
  its own case from the reset options, so a masked ``reset`` starts new cases only in the slots
  that finished, each with its case's seed. A lost Ray actor reports a device fault for its slot.
- The agent gets the observations of the running slots as one batch (``act_batch``) and a source
  of the tasks' texts (:class:`TaskTexts`); only privileged agents can read the scripted oracle
  through it (:class:`VectorOracle`).
- A finished case is written to ``results.jsonl`` at once (and its screens to ``frames/``), so a
  killed run keeps everything finished; ``resume`` skips recorded cases.
- Screens for the report follow a :class:`~cerebellum_gym.evaluation.frames.ScreenPolicy`:
  recorded live, or on the in-process simulator by replaying the chosen episodes at the end.
- What the agent answers is its own affair: an action that is not a string reaches the env as
  an invalid action (recorded as such), and any string, lone surrogates included, is recorded.
- A device fault voids the attempt: the case is queued again, up to ``max_retries`` times, then
  recorded as an ``infra_skip``. Nothing is dropped.
- A case whose task the env cannot run at all (an AndroidWorld task the embedded simulator does
  not mirror, :func:`unavailable_cases`) is recorded as ``unavailable``, with why, and not run.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, cast

import gymnasium as gym
import numpy as np
from gymnasium.vector.utils import iterate

from cerebellum_gym.agents.base import Agent
from cerebellum_gym.core.actions import Action
from cerebellum_gym.errors import CerebellumError, InfraError
from cerebellum_gym.evaluation.faults import FaultPlan
from cerebellum_gym.evaluation.frames import ScreenPolicy, case_slug, replay_frame_sets, spread, write_frame_set
from cerebellum_gym.evaluation.progress import Progress
from cerebellum_gym.evaluation.results import ResultsWriter
from cerebellum_gym.evaluation.slot import DEFAULT_FRAME_WIDTH, INFO_KEY, EpisodeSlot, Job, SlotReport, make_env
from cerebellum_gym.evaluation.suites import Case, Suite
from cerebellum_gym.loader import backend_name, env_backend
from cerebellum_gym.options import did_you_mean
from cerebellum_gym.vector import RayVectorEnv, vectorize  # Ray is imported only when one is built

if TYPE_CHECKING:
    from cerebellum_gym.devices.emulators import EmulatorBackend

__all__ = ["AgentContractError", "EvalConfig", "RunResult", "agent_output", "case_slug", "check_env_id", "recorded_cases", "run_suite"]


class AgentContractError(CerebellumError):
    """The agent answered a batch with the wrong number or kind of actions."""


@dataclass
class EvalConfig:
    """How to run a suite.

    Attributes:
        env_id: the gymnasium id; ``None`` takes the suite's.
        num_envs: parallel envs (capped at the number of cases to run).
        seed: seeds the agent (``agent.reset(seed)``); cases carry their own env seeds.
        max_retries: extra attempts for a case that met a device fault, before it is an infra skip.
        vectorization: ``sync`` (one process), ``async`` (a process per env), ``ray`` (a Ray
            actor per env, on a cluster or a local Ray) or ``auto`` (async when ``num_envs > 1``;
            never ray).
        ray_address: with ``ray``: the cluster to connect to (``None``: this process's Ray, or a
            local one).
        pixels: put screenshots in observations; ``None`` decides from the agent
            (:func:`agent_reads_pixels`).
        env_kwargs: extra keyword options for ``gym.make``.
        screens: which episodes get their screens (with the set-of-mark overlay) and trees
            recorded for the report: ``"auto"`` (every unsuccessful one, a spread of successes,
            all in a small run), ``"all"`` or ``-1``, ``"none"`` or ``0``, or a number of cases
            spread over families (see :class:`~cerebellum_gym.evaluation.frames.ScreenPolicy`).
        frame_width: width of recorded screens in pixels (``None``: the env's screenshot width).
        fault_plan: inject device faults (testing the infra path).
        progress: progress display mode (see :class:`Progress`).
        env_kwargs_per_env: extra ``gym.make`` options of each sub-env, by index, over
            ``env_kwargs`` (``device_options`` merged key by key): each sub-env's own device,
            such as an emulator of a pool (:meth:`EmulatorPool.device_options`).
        between_episodes: called as ``between_episodes(slot, fault)`` after each attempt ends
            in a slot (``fault``: it ended with a device fault) and before the slot's next case:
            where an emulator pool checks, restarts or recycles that slot's emulator
            (:meth:`EmulatorPool.between_episodes`). It runs in this process.
        record_dir: record every episode (observations, actions, outcomes) into this dataset
            folder (:mod:`cerebellum_gym.datasets`).
        emulators: with ``ray``: :class:`~cerebellum_gym.devices.emulators.EmulatorPool` options
            (``avd``, ``sdk``, ...); each Ray actor starts a pool of its slots' emulators on its
            machine, checks them between episodes there and closes it with itself
            (:mod:`cerebellum_gym.vector.emulators`). ``between_episodes`` is then not used.
        envs_per_actor: with ``ray``: slots (and so emulators) per Ray actor.
    """

    env_id: str | None = None
    num_envs: int = 1
    seed: int = 0
    max_retries: int = 2
    vectorization: str = "auto"
    ray_address: str | None = None
    pixels: bool | None = None
    env_kwargs: dict[str, Any] = field(default_factory=dict)
    screens: int | str = 0
    frame_width: int | None = DEFAULT_FRAME_WIDTH
    fault_plan: FaultPlan | None = None
    progress: str = "auto"
    env_kwargs_per_env: Sequence[Mapping[str, Any]] | None = None
    between_episodes: Callable[[int, bool], object] | None = None
    record_dir: str | None = None
    emulators: Mapping[str, Any] | None = None
    envs_per_actor: int = 1


@dataclass
class RunResult:
    """What :func:`run_suite` did."""

    run_dir: Path
    records: list[dict[str, Any]]
    ran: int
    wall_s: float
    meta: dict[str, Any]


class TaskTexts:
    """What every agent may read besides its observations: each running slot's task texts (the
    ``K`` vocabulary of agents with discrete actions). The oracle's actions are not offered."""

    def __init__(self, envs: gym.vector.VectorEnv[Any, Any, Any], slots: Sequence[int]) -> None:
        self.envs = envs
        self.slots = list(slots)

    def oracle_actions(self) -> list[str]:
        raise CerebellumError("only privileged agents read the scripted oracle")

    def text_candidates(self) -> list[list[str]]:
        """Each running slot's task texts for agents with a discrete typing vocabulary."""
        everyone = self.envs.call("text_candidates")  # type: ignore[attr-defined]
        # A slot whose Ray actor was just lost answers None; its next step reports the fault.
        return [list(everyone[i] or ()) for i in self.slots]


class VectorOracle(TaskTexts):
    """An :class:`~cerebellum_gym.agents.base.OracleSource` over the running slots of a vector env,
    for privileged agents only."""

    def oracle_actions(self) -> list[str]:
        everyone = self.envs.call("oracle_action")  # type: ignore[attr-defined]
        return [str(everyone[i] or "") for i in self.slots]

    def search_actions(self, budget: int) -> list[str]:
        """Each running slot's next action of a best-first search on its env's own episode
        states (``CerebellumEnv.search_action``, ``budget`` steps per decision)."""
        everyone = self.envs.call("search_action", budget)  # type: ignore[attr-defined]
        return [str(everyone[i] or "") for i in self.slots]


def agent_reads_pixels(agent: Agent) -> bool:
    """Whether ``agent`` needs screenshots (its ``needs_pixels``; agents that are not
    :class:`Agent` subclasses are assumed to read the screen)."""
    return bool(getattr(agent, "needs_pixels", True))


def check_env_id(env_id: str) -> None:
    """Raise a clear :class:`CerebellumError` when ``env_id`` is not a registered gymnasium id."""
    import cerebellum_gym  # noqa: F401  (registers the ids)

    if env_id not in gym.registry:
        ours = sorted(k for k in gym.registry if k.startswith("Cerebellum-"))
        raise CerebellumError(did_you_mean(env_id, ours, what="env", listing="cerebellum-gym registers " + ", ".join(ours)))


def recorded_cases(suite: Suite, count: int) -> set[str]:
    """The ids of ``count`` cases to record screens for: round-robin over families in suite
    order, so every family shows up, and the same cases for every agent (``-1``: all)."""
    if count < 0:
        return {c.id for c in suite.cases}
    return spread(suite.cases, count)


#: Why a case of an AndroidWorld task the embedded simulator does not mirror is not run there.
NOT_MIRRORED: Final = (
    "not available on the embedded simulator: it does not mirror this AndroidWorld task "
    "(it runs on an emulator: --emulators N, or device_options naming one)"
)


def unavailable_cases(env_id: str, env_kwargs: Mapping[str, Any], config: EvalConfig, cases: Sequence[Case]) -> dict[str, str]:
    """The cases (by id) that cannot run on this env at all, each with why.

    Only ``Cerebellum-AndroidWorld-v0`` on its embedded simulator (no emulator named, no pool)
    has such cases: AndroidWorld's tasks that the simulator does not mirror. Everywhere else every
    case runs (and fails on its own, if it must).
    """
    if backend_name(env_id) != "androidworld":
        return {}
    if config.env_kwargs_per_env is not None or config.emulators is not None:
        return {}  # one emulator per env
    import dataclasses

    from cerebellum_gym.loader import AndroidWorldConfig

    known = {f.name for f in dataclasses.fields(AndroidWorldConfig)}
    options = {k: v for k, v in dict(env_kwargs.get("device_options") or {}).items() if k in known}
    if not AndroidWorldConfig(**options).wants_simulator():
        return {}
    from cerebellum_gym.tasks.androidworld import mirrored_tasks

    mirrored = set(mirrored_tasks())
    return {c.id: NOT_MIRRORED for c in cases if c.task not in mirrored}


def _case_fields(case: Case) -> dict[str, Any]:
    """The case's part of its results line."""
    return {"case": case.id, "task": case.task, "family": case.family, "app": case.app, "seed": case.seed}


def _unavailable_record(case: Case, why: str) -> dict[str, Any]:
    """The results line of a case that was not run: it is listed, with why, and counts nowhere."""
    return {
        **_case_fields(case),
        "status": "unavailable",
        "success": False,
        "start_progress": 0.0,
        "progress": 0.0,
        "return": 0.0,
        "steps": 0,
        "terminated": False,
        "truncated": False,
        "invalid_actions": 0,
        "attempts": 0,
        "infra_errors": [],
        "error": why,
        "error_detail": "",
        "goal": "",
        "max_steps": 0,
        "actions": [],
        "rewards": [],
        "progress_trace": [],
        "latency_s": [],
        "frames": [],
        "wall_s": 0.0,
    }


def replayable(env_id: str) -> bool:
    """Whether episodes of ``env_id`` are a pure function of seed and actions (the in-process simulator)."""
    record = env_backend(env_id)
    return record is not None and record.replayable


def _make_slot(
    env_id: str,
    env_kwargs: Mapping[str, Any],
    fault_plan: FaultPlan | None,
    frame_width: int | None,
    slot: int,
    record: Recording | None = None,
) -> EpisodeSlot:
    # Module level (not a closure) so AsyncVectorEnv can pickle it to its workers.
    factory: Any = partial(make_env, env_id, env_kwargs, fault_plan)
    if record is not None:
        from cerebellum_gym.datasets.recorder import recorded_env

        factory = partial(recorded_env, factory, record.directory, record.agent, record.metadata)
    return EpisodeSlot(factory, slot, frame_width)


@dataclass(frozen=True)
class Recording:
    """Where and as whom the slots record their episodes (``eval --record``)."""

    directory: str
    agent: str
    metadata: dict[str, Any]


def _env_kwargs(shared: Mapping[str, Any], own: Mapping[str, Any]) -> dict[str, Any]:
    """``shared`` updated by ``own``, with ``device_options`` merged key by key."""
    merged = {**shared, **own}
    if "device_options" in shared and "device_options" in own:
        merged["device_options"] = {**shared["device_options"], **own["device_options"]}
    return merged


def _lost_slot(index: int, error: InfraError, last_observation: Any) -> tuple[Any, dict[str, Any]]:
    # A Ray actor (or its node) lost: the slot reports a device fault, so the case is retried like any other.
    return last_observation, {INFO_KEY: SlotReport(status="infra", message=f"{type(error).__name__}: {error}")}


def make_vector_env(
    env_id: str,
    num_envs: int,
    *,
    env_kwargs: Mapping[str, Any],
    fault_plan: FaultPlan | None,
    frame_width: int | None,
    vectorization: str,
    ray_address: str | None = None,
    per_env_kwargs: Sequence[Mapping[str, Any]] | None = None,
    record: Recording | None = None,
    emulators: Mapping[str, Any] | None = None,
    envs_per_actor: int = 1,
) -> gym.vector.VectorEnv[Any, Any, Any]:
    """A vector env of :class:`EpisodeSlot` sub-envs with autoreset disabled (sub-env ``i``
    built with ``env_kwargs`` updated by ``per_env_kwargs[i]``; recording when asked; with
    ``emulators`` and ``ray``, on an emulator of its Ray actor's own pool)."""
    if per_env_kwargs is not None and len(per_env_kwargs) < num_envs:
        raise CerebellumError(f"{num_envs} envs but options for only {len(per_env_kwargs)} of them (one emulator per env)")
    kwargs = [_env_kwargs(env_kwargs, per_env_kwargs[i] if per_env_kwargs is not None else {}) for i in range(num_envs)]
    if emulators is not None:
        return _pooled_ray_slots(
            env_id, num_envs, kwargs, fault_plan, frame_width, vectorization, ray_address, record, emulators, envs_per_actor
        )
    fns = [partial(_make_slot, env_id, kwargs[i], fault_plan, frame_width, i, record) for i in range(num_envs)]
    return vectorize(fns, vectorization, autoreset_mode=gym.vector.AutoresetMode.DISABLED, ray_address=ray_address, on_env_lost=_lost_slot)


def _pooled_ray_slots(
    env_id: str,
    num_envs: int,
    kwargs: Sequence[Mapping[str, Any]],
    fault_plan: FaultPlan | None,
    frame_width: int | None,
    vectorization: str,
    ray_address: str | None,
    record: Recording | None,
    emulators: Mapping[str, Any],
    envs_per_actor: int,
) -> gym.vector.VectorEnv[Any, Any, Any]:
    # Each actor's slots share a pool started in that actor (on its machine); a slot's factory holds
    # the pool across the envs it rebuilds after device faults, and lets it go when the slot closes.
    from cerebellum_gym.vector.emulators import PooledFactory, group_leases

    if vectorization != "ray":
        raise CerebellumError(f"emulator pools per worker are for vectorization='ray', not {vectorization!r}")
    found = env_backend(env_id)
    if found is None or not found.emulators:
        raise CerebellumError(f"{env_id} does not run on emulators (its backend is {backend_name(env_id)!r})")
    backend = cast("EmulatorBackend", found.name)  # the records that run on emulators are these
    if envs_per_actor < 1:
        raise CerebellumError(f"envs_per_actor must be at least 1, got {envs_per_actor}")
    sizes = [min(envs_per_actor, num_envs - a) for a in range(0, num_envs, envs_per_actor)]
    leases = group_leases(emulators, sizes)
    fns: list[Callable[[], gym.Env[Any, Any]]] = []
    for i in range(num_envs):
        build = partial(_pooled_slot_env, env_id, kwargs[i], fault_plan, record)
        factory = PooledFactory(leases[i // envs_per_actor], i % envs_per_actor, backend, build)
        fns.append(partial(EpisodeSlot, factory, i, frame_width))
    return RayVectorEnv(
        fns, envs_per_actor=envs_per_actor, address=ray_address, autoreset_mode=gym.vector.AutoresetMode.DISABLED, on_env_lost=_lost_slot
    )


def _pooled_slot_env(
    env_id: str, env_kwargs: Mapping[str, Any], fault_plan: FaultPlan | None, record: Recording | None, device_options: dict[str, Any]
) -> gym.Env[Any, Any]:
    """A slot's env on the emulator whose ``device_options`` its pool handed out (module level: it pickles)."""
    merged = _env_kwargs(env_kwargs, {"device_options": device_options})
    factory: Any = partial(make_env, env_id, merged, fault_plan)
    if record is not None:
        from cerebellum_gym.datasets.recorder import recorded_env

        return recorded_env(factory, record.directory, record.agent, record.metadata)
    return factory()


@dataclass
class _Episode:
    job: Job
    case: Case
    start: float
    goal: str
    max_steps: int
    progress: float
    actions: list[str] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)
    progress_trace: list[float] = field(default_factory=list)
    latency: list[float] = field(default_factory=list)
    frames: list[bytes | None] = field(default_factory=list)
    trees: list[str | None] = field(default_factory=list)
    invalid: int = 0
    ret: float = 0.0
    last: SlotReport | None = None
    start_progress: float = field(init=False)

    def __post_init__(self) -> None:
        self.start_progress = self.progress  # the judge's verdict at reset (1.0 on Verify tasks)


def run_suite(
    agent: Agent, suite: Suite, run_dir: str | os.PathLike[str], config: EvalConfig, *, resume: bool = False, agent_spec: str | None = None
) -> RunResult:
    """Run every case of ``suite`` not yet recorded in ``run_dir`` with ``agent``.

    Args:
        agent: the agent (``load_agent`` builds one from a spec).
        suite: the cases.
        run_dir: the run folder (``results.jsonl``, ``run.json``, ``frames/``).
        config: how to run.
        resume: continue the run already in ``run_dir``.
        agent_spec: how the agent was named on the command line (saved, and checked on resume).

    Returns:
        The run folder, every record (old and new), how many cases ran now, and the wall time.

    Raises:
        CerebellumError: bad configuration, an agent that breaks the batch contract, or a run
            folder that cannot be resumed. Finished cases are on disk whatever happens.
    """
    env_id = config.env_id or suite.env
    check_env_id(env_id)
    if config.num_envs < 1:
        raise CerebellumError(f"--num-envs must be at least 1, got {config.num_envs}")
    if config.max_retries < 0:
        raise CerebellumError(f"--max-retries must be >= 0, got {config.max_retries}")
    pixels = agent_reads_pixels(agent) if config.pixels is None else config.pixels
    _check_env_kwargs(config.env_kwargs)
    budget = {"max_steps": suite.max_steps} if suite.max_steps is not None else {}
    # The suite's own options (an AndroidWorld suite's pre-opened app), under the caller's.
    env_kwargs = _env_kwargs({"pixels": pixels, **budget, **suite.env_kwargs}, config.env_kwargs)
    if config.fault_plan is not None:
        config.fault_plan.check_cases([c.id for c in suite.cases])
    try:
        screens = ScreenPolicy.parse(config.screens)
    except ValueError as exc:
        raise CerebellumError(str(exc)) from None
    meta: dict[str, Any] = {
        "agent": agent_spec or agent.name,
        "agent_name": agent.name,
        "privileged": bool(agent.privileged),
        "suite": suite.name,
        "suite_source": suite.source,
        "suite_digest": suite.digest,
        "cases": len(suite.cases),
        "env": env_id,
        "env_kwargs": _jsonable(env_kwargs),
        "seed": config.seed,
        "num_envs": config.num_envs,
        "max_retries": config.max_retries,
        "fault_plan": None
        if config.fault_plan is None
        else {
            "rate": config.fault_plan.rate,
            "seed": config.fault_plan.seed,
            "cases": dict(config.fault_plan.cases),
            "at_call": config.fault_plan.at_call,
        },
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    from cerebellum_gym import __version__

    meta["version"] = __version__
    writer = ResultsWriter(run_dir, meta, resume=resume)
    start = time.perf_counter()
    can_replay = replayable(env_id)
    try:
        unavailable = unavailable_cases(env_id, env_kwargs, config, suite.cases)
        for case in suite.cases:
            if case.id in unavailable and case.id not in writer.done:
                writer.write(_unavailable_record(case, unavailable[case.id]))
        todo = [c for c in suite.cases if c.id not in writer.done]
        ran = 0
        if todo:
            live = screens.live(suite, replayable=can_replay)
            record = Recording(config.record_dir, str(meta["agent"]), {"run": str(run_dir)}) if config.record_dir else None
            ran = _rollout(
                agent, todo, writer, env_id, env_kwargs, config, live, lambda r: screens.keep(suite, r), len(suite.cases), record
            )
        if can_replay:
            wanted = [r for r in writer.records if screens.keep(suite, r)]
            try:
                replay_frame_sets(env_id, {**env_kwargs, "pixels": False}, writer.run_dir, wanted, config.frame_width)
            except OSError as exc:
                raise writer.unwritable(exc) from None
    finally:
        writer.close()
    by_id = {r["case"]: r for r in writer.records}
    ordered = [by_id[c.id] for c in suite.cases if c.id in by_id]
    return RunResult(Path(run_dir), ordered, ran, time.perf_counter() - start, meta)


def _rollout(
    agent: Agent,
    todo: list[Case],
    writer: ResultsWriter,
    env_id: str,
    env_kwargs: dict[str, Any],
    config: EvalConfig,
    record_ids: set[str],
    keep: Callable[[Mapping[str, Any]], bool],
    total: int,
    record: Recording | None = None,
) -> int:
    cases = {c.id: c for c in todo}
    queue: deque[Job] = deque(Job(c.id, c.task, c.seed, 0, c.id in record_ids) for c in todo)
    errors: dict[str, list[str]] = {}
    n = min(config.num_envs, len(todo))
    envs = make_vector_env(
        env_id,
        n,
        env_kwargs=env_kwargs,
        fault_plan=config.fault_plan,
        frame_width=config.frame_width,
        vectorization=config.vectorization,
        ray_address=config.ray_address,
        per_env_kwargs=config.env_kwargs_per_env,
        record=record,
        emulators=config.emulators,
        envs_per_actor=config.envs_per_actor,
    )
    # The bar starts after the workers fork (tqdm runs a monitor thread).
    solved_before = sum(1 for r in writer.records if r.get("success"))
    progress = Progress(total, done=len(writer.done), solved=solved_before, label=agent.name, mode=config.progress)
    episodes: list[_Episode | None] = [None] * n
    free = [True] * n  # needs a reset before the next step (the vector env forbids stepping a finished slot)
    observations: list[Any] = [None] * n
    finished = 0

    def finish(slot: int, report: SlotReport) -> None:
        nonlocal finished
        episode = episodes[slot]
        assert episode is not None
        episodes[slot] = None
        free[slot] = True
        job = episode.job
        if config.between_episodes is not None:
            # Before the slot's next case: the device behind it is checked (and restarted if dead).
            config.between_episodes(slot, report.status == "infra")
        if report.status == "infra":
            errors.setdefault(job.case_id, []).append(report.message)
            if job.attempt < config.max_retries:
                queue.append(Job(job.case_id, job.task, job.seed, job.attempt + 1, job.record))
                return
        record = _record(episode, cases[job.case_id], report, errors.get(job.case_id, []))
        if any(f is not None for f in episode.frames) and keep(record):
            try:
                record["frames"] = write_frame_set(writer.run_dir, job.case_id, episode.frames, episode.trees, episode.actions)
            except OSError as exc:
                raise writer.unwritable(exc) from None
        writer.write(record)
        finished += 1
        if record["status"] == "infra_skip":
            progress.write(f"infra skip: {job.case_id} after {job.attempt + 1} attempts ({report.message})")
        elif record["status"] == "error":
            progress.write(f"error: {job.case_id}: {report.message}")
        progress.update(success=bool(record["success"]), skipped=record["status"] == "infra_skip")

    agent.reset(seed=config.seed)
    clean = False
    try:
        while True:
            running = [i for i in range(n) if episodes[i] is not None]
            if not queue and not running:
                break
            to_reset = [i for i in range(n) if free[i] and episodes[i] is None]
            if to_reset and (queue or running):
                jobs = {i: (queue.popleft() if queue else None) for i in to_reset}
                seeds: list[int | None] = [None] * n
                for i, job in jobs.items():
                    seeds[i] = job.seed if job is not None else None
                mask = np.array([i in jobs for i in range(n)], dtype=np.bool_)
                batch, infos = envs.reset(seed=seeds, options={"reset_mask": mask, "jobs": jobs})  # type: ignore[arg-type]
                observations = list(iterate(envs.observation_space, batch))
                for i, job in jobs.items():
                    free[i] = False
                    if job is None:
                        continue
                    report: SlotReport = infos[INFO_KEY][i]
                    episode = _Episode(job, cases[job.case_id], time.perf_counter(), report.goal, report.max_steps, report.progress)
                    episode.frames.append(report.frame)
                    episode.trees.append(report.tree)
                    episodes[i] = episode
                    if report.status != "ok":
                        finish(i, report)
                    else:
                        agent.begin_episode(i)
                if any(free):
                    continue  # resets that failed: give those slots their next case first
                running = [i for i in range(n) if episodes[i] is not None]
                if not running:
                    continue
            actions, latency = _act(agent, envs, [observations[i] for i in running], running)
            latency = round(latency, 6)
            batch_actions = [""] * n
            for i, action in zip(running, actions, strict=True):
                batch_actions[i] = action
            batch, _, _, _, infos = envs.step(tuple(batch_actions))
            observations = list(iterate(envs.observation_space, batch))
            for i in running:
                report = infos[INFO_KEY][i]
                live = episodes[i]
                assert live is not None
                if report.status == "ok":
                    live.actions.append(report.action)
                    live.rewards.append(round(report.reward, 6))
                    live.ret += report.reward
                    live.progress = report.progress
                    live.progress_trace.append(round(report.progress, 6))
                    live.latency.append(latency)
                    live.invalid += int(report.invalid_action)
                    live.frames.append(report.frame)
                    live.trees.append(report.tree)
                elif report.status == "infra":
                    live.actions.append(batch_actions[i])
                    live.latency.append(latency)
                if report.done:
                    finish(i, report)
        clean = True
    finally:
        progress.close()
        _close(envs, clean)
    return finished


def _close(envs: gym.vector.VectorEnv[Any, Any, Any], clean: bool) -> None:
    # After an interrupt or an error, async workers (or Ray actors) may be dead or busy: terminate, do not wait on them.
    if not clean and isinstance(envs, gym.vector.AsyncVectorEnv | RayVectorEnv):
        envs.close(terminate=True)
    else:
        envs.close()


def _act(agent: Agent, envs: gym.vector.VectorEnv[Any, Any, Any], observations: list[Any], running: list[int]) -> tuple[list[str], float]:
    """The agent's actions for the running slots, checked, and how long the agent took."""
    oracle = VectorOracle(envs, running) if agent.privileged else TaskTexts(envs, running)
    tick = time.perf_counter()
    actions = agent.act_batch(observations, oracle)
    # Each env of the batch waited this long for its action: that is its latency.
    latency = time.perf_counter() - tick
    if len(actions) != len(observations):
        raise AgentContractError(f"agent {agent.name!r} returned {len(actions)} actions for {len(observations)} observations")
    return [agent_output(given) for given in actions], latency


#: What an action that is not a string reaches the env as: no action code starts with "<", so
#: the env rejects it as the invalid action it is, and the record shows what the agent returned.
_NOT_A_STRING = "<not an action string: {kind} {value}>"


def agent_output(given: Any) -> str:
    """An agent's answer as the action string sent to its slot.

    Whatever the agent returned becomes a string the env judges: an :class:`Action` its text,
    anything else that is not a string a marked text the env rejects as invalid (so the case
    counts it against the agent, and the run goes on), the empty string a blank (which would
    otherwise idle the slot).

    Example:
        >>> agent_output("T UE"), agent_output(""), agent_output(None)
        ('T UE', ' ', '<not an action string: NoneType None>')
    """
    if isinstance(given, Action):
        return str(given)
    if not isinstance(given, str):
        try:
            value = repr(given)
        except Exception:  # a repr that raises is still the agent's bad answer, not a crash
            value = "?"
        return _NOT_A_STRING.format(kind=type(given).__name__, value=value[:200])
    return given if given else " "


def _check_env_kwargs(env_kwargs: Mapping[str, Any]) -> None:
    budget = env_kwargs.get("max_steps")
    if budget is not None and (not isinstance(budget, int) or isinstance(budget, bool) or budget < 1):
        raise CerebellumError(f"max_steps (the step budget) must be a positive integer, got {budget!r}")


def _record(episode: _Episode, case: Case, report: SlotReport, infra_errors: list[str]) -> dict[str, Any]:
    status = {"infra": "infra_skip", "error": "error"}.get(report.status, "ok")
    frames: list[str | None] = []
    ok = status == "ok"
    return {
        **_case_fields(case),
        "status": status,
        "success": bool(ok and report.success),
        "start_progress": round(episode.start_progress, 6) if status != "infra_skip" else 0.0,
        "progress": round(episode.progress, 6) if status != "infra_skip" else 0.0,
        "return": round(episode.ret, 6) if status != "infra_skip" else 0.0,
        "steps": len(episode.actions),
        "terminated": bool(report.terminated),
        "truncated": bool(report.truncated),
        "invalid_actions": episode.invalid,
        "attempts": episode.job.attempt + 1,
        "infra_errors": list(infra_errors),
        "error": report.message if status == "error" else "",
        "error_detail": report.detail if status == "error" else "",
        "goal": episode.goal,
        "max_steps": episode.max_steps,
        "actions": episode.actions,
        "rewards": episode.rewards,
        "progress_trace": episode.progress_trace,
        "latency_s": episode.latency,
        "frames": frames,
        "wall_s": round(time.perf_counter() - episode.start, 4),
    }


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return repr(value)
