"""``cerebellum-gym train rl``: on-policy GRPO over the project's vector envs, with a curriculum.

Each update:

1. draws ``groups`` (task, seed) pairs from the curriculum (:mod:`cerebellum_gym.training.curriculum`);
2. runs a group of ``group_size`` episodes of each pair at once over one vector env of
   ``groups x group_size`` sub-envs (the native batched ``Cerebellum-Sim-v0`` by default; sync,
   async or Ray sub-envs, and ``Cerebellum-AndroidWorld-v0``, alike): every env step is one
   batched :meth:`~cerebellum_gym.training.rl_policy.RLPolicy.sample` call over the live
   sub-envs, constrained, and every action is checked legal on its screen before the env sees it;
3. scores each episode: the env's return (shaped: success, plus the invalid-action penalty),
   minus ``wrong_tap_penalty`` for each tap that left the screen and the progress unchanged,
   with the shortest-path adjustment (a success ``k`` steps longer than the group's shortest
   earns ``shortest_path * k / length`` less);
4. takes group-relative advantages (return minus the group's mean, over its standard deviation);
5. optimises the clipped objective over the action tokens of every step, with a KL penalty (the
   k3 estimator) to the frozen starting policy, for ``epochs`` passes.

Options of the MobileRL recipe, each off with a flag: positive replay (a group of a task whose
recent success is below ``replay_below`` gives one of its slots to a stored success of that
task, replayed action for action from its own seed, so an all-fail group still has a signal),
failure-curriculum filtering (the curriculum's ``fail_window``; by default on only when the
policy starts from a checkpoint) and the shortest-path reward. Off by default, branching
(``branch_failures``): a group whose episodes all failed hands its task's next group a start
where the furthest of them last made progress (an episode state, ``docs/episode_state.md``).

Every ``gate_every`` updates the held-out checks run: the online suite (held-out seeds, greedy
constrained actions) and, given ``gate_dataset``, ``eval-offline`` on a held-out dataset; the
best checkpoint by each metric is kept under ``OUTPUT/best/<metric>``.

Outputs under ``OUTPUT``: ``config.json``, ``log.jsonl`` (one line per update), ``curves.png``,
``reference/`` (the starting weights, the KL reference), ``last/`` (the latest checkpoint:
weights, optimizer, curriculum, replay store; replaced atomically), ``best/``, ``gates/``.
``--resume`` continues from ``last/``: the log is cut back to the updates that checkpoint holds,
so no update is counted twice, and the curriculum and replay store are restored.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import shutil
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np

from cerebellum_gym.agents.base import Agent, Observation, OracleSource
from cerebellum_gym.core.spaces import split_observations
from cerebellum_gym.errors import CerebellumError, ConfigError, InvalidActionError
from cerebellum_gym.training.common import _load_optimizer, _optimizer_tensors, prepare_out
from cerebellum_gym.training.curriculum import Curriculum, CurriculumConfig, load_curriculum
from cerebellum_gym.training.rl_policy import RLPolicy, StepSample, TinySlotPolicy, legal_action
from cerebellum_gym.wrappers.actions import FlatActionLayout
from cerebellum_gym.wrappers.rewards import screen_signature

LOG: Final = "log.jsonl"
STATE: Final = "state.json"
OPTIMIZER: Final = "optimizer.safetensors"
#: The action a finished sub-env is sent while its group's other episodes run (its step is an autoreset).
IDLE_ACTION: Final = "W"


@dataclass
class RLConfig:
    """Settings of one RL run (``cerebellum-gym train rl --help`` lists them as flags)."""

    output: str
    policy: str = "tiny"
    env_id: str = "Cerebellum-Sim-v0"
    vectorization: str = "auto"
    ray_address: str | None = None
    curriculum: str = "default"
    updates: int = 100
    groups: int = 4
    group_size: int = 8
    max_steps: int | None = None
    temperature: float = 1.0
    lr: float | None = None
    clip: float = 0.2
    kl: float = 0.02
    epochs: int = 2
    minibatches: int = 1
    micro_batch: int = 0
    std_normalize: bool = False
    invalid_penalty: float = -0.1
    wrong_tap_penalty: float = 0.01
    early_done_penalty: float = 0.1
    shortest_path: float = 0.2
    progress_credit: float = 0.3
    positive_replay: bool = True
    replay_below: float = 0.5
    replay_keep: int = 4
    #: ``None``: on when the policy starts from a checkpoint, off from scratch (see :meth:`RLTrainer.failure_filtering`).
    failure_filter: bool | None = None
    #: A group whose episodes all failed hands its task's next group a start: the moment after
    #: which its furthest episode never made progress again (an episode state, issue 37), so the
    #: group explores from where the failure began instead of from the start (in-process envs).
    branch_failures: bool = False
    gate_every: int = 10
    gate_suite: str | None = "rl-short-heldout"
    gate_dataset: str | None = None
    gate_offline_n: int = 100
    gate_num_envs: int = 8
    gate_temperature: float = 0.0
    seed: int = 0
    max_minutes: float | None = None
    progress: str = "auto"
    codes: str = "TKUDLRBHF"
    max_labels: int = 24
    env_kwargs: dict[str, Any] = field(default_factory=dict)

    def check(self) -> None:
        """Raise :class:`ConfigError` for settings that cannot run."""
        for name in ("updates", "groups", "group_size", "epochs", "minibatches", "replay_keep", "gate_num_envs", "max_labels"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.group_size < 2:
            raise ConfigError("group_size must be at least 2: advantages are relative to the group")
        if self.lr is not None and not self.lr > 0:
            raise ConfigError(f"lr must be positive, got {self.lr}")
        for name in ("temperature",):
            if not getattr(self, name) > 0:
                raise ConfigError(f"{name} must be positive, got {getattr(self, name)}")
        if not 0 < self.clip < 1:
            raise ConfigError(f"clip must be within (0, 1), got {self.clip}")
        if min(self.kl, self.shortest_path, self.wrong_tap_penalty, self.progress_credit, self.early_done_penalty) < 0:
            raise ConfigError("kl, shortest_path, wrong_tap_penalty, early_done_penalty and progress_credit must be >= 0")
        if not 0 <= self.replay_below <= 1:
            raise ConfigError(f"replay_below must be within [0, 1], got {self.replay_below}")
        if self.gate_temperature < 0:
            raise ConfigError(f"gate_temperature must be >= 0, got {self.gate_temperature}")
        if self.gate_every < 0:
            raise ConfigError(f"gate_every must be >= 0 (0: no gates), got {self.gate_every}")
        if self.max_steps is not None and self.max_steps < 1:
            raise ConfigError(f"max_steps must be at least 1, got {self.max_steps}")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


# --- episodes ----------------------------------------------------------------------------------


@dataclass
class Episode:
    """One episode of a group, as the update sees it."""

    task: str
    seed: int
    group: int
    steps: list[StepSample] = field(default_factory=list)
    #: Actions taken before the episode's first sampled step: the branch it started from (none
    #: from a reset). They are the env's, not the policy's: no step of them is trained on.
    prefix: list[str] = field(default_factory=list)
    #: How many of :attr:`actions` had been taken when progress last rose (0: it never did).
    progress_at: int = 0
    best_progress: float = 0.0
    actions: list[str] = field(default_factory=list)
    env_return: float = 0.0
    wrong_taps: int = 0
    early_done: bool = False
    final_progress: float = 0.0
    success: bool = False
    done: bool = False
    replayed: bool = False
    last_progress: float = 0.0
    score: float = 0.0
    advantage: float = 0.0

    @property
    def length(self) -> int:
        return len(self.actions)


@dataclass
class BranchStore:
    """Per task, where a failed group's furthest episode last made progress: its seed and the
    actions up to that moment (its own prefix included). The task's next group starts there,
    once (``branch_failures``)."""

    items: dict[str, tuple[int, list[str]]] = field(default_factory=dict)

    def record(self, group: Sequence[Episode]) -> None:
        """Remember a branch point if every episode of ``group`` failed and one made progress."""
        if not group or any(e.success for e in group):
            if group:
                self.items.pop(group[0].task, None)  # solved now: no more help needed
            return
        furthest = max(group, key=lambda e: (e.best_progress, -e.length))
        if furthest.progress_at > 0 and furthest.best_progress > 0:
            self.items[furthest.task] = (furthest.seed, [*furthest.prefix, *furthest.actions[: furthest.progress_at]])

    def take(self, task: str) -> tuple[int, list[str]] | None:
        return self.items.pop(task, None)

    def state_dict(self) -> dict[str, Any]:
        return {task: [seed, actions] for task, (seed, actions) in self.items.items()}

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        self.items = {task: (int(seed), list(actions)) for task, (seed, actions) in state.items()}


@dataclass
class ReplayStore:
    """Successful episodes per task, shortest first, as (seed, actions): replayed from their
    seed on the deterministic simulator, they give back the same screens and the same records."""

    keep: int = 4
    items: dict[str, list[tuple[int, list[str]]]] = field(default_factory=dict)

    def add(self, task: str, seed: int, actions: Sequence[str]) -> None:
        held = self.items.setdefault(task, [])
        if any(s == seed and a == list(actions) for s, a in held):
            return
        held.append((seed, list(actions)))
        held.sort(key=lambda item: (len(item[1]), item[0]))
        del held[self.keep :]

    def pick(self, task: str, update: int) -> tuple[int, list[str]] | None:
        held = self.items.get(task)
        return held[update % len(held)] if held else None

    def state_dict(self) -> dict[str, Any]:
        return {task: [[seed, actions] for seed, actions in held] for task, held in self.items.items()}

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        self.items = {task: [(int(s), list(a)) for s, a in held] for task, held in state.items()}


def column(values: Sequence[float], like: Any) -> Any:
    """``values`` as a ``[n, 1]`` tensor on ``like``'s device and dtype (advantages beside the
    policy's log-probabilities, wherever the policy runs)."""
    import torch

    return torch.tensor(list(values), dtype=like.dtype, device=like.device).unsqueeze(1)


def group_advantages(scores: Sequence[float], *, std_normalize: bool = True, eps: float = 1e-6) -> list[float]:
    """GRPO's group-relative advantages: each score minus the group's mean, over its standard
    deviation (unless ``std_normalize`` is off). A group with no spread gets zeros.

    Example:
        >>> group_advantages([1.0, 0.0, 0.0, 1.0])
        [1.0, -1.0, -1.0, 1.0]
    """
    values = np.asarray(scores, np.float64)
    centred = values - values.mean()
    spread = float(values.std())
    if spread < eps:
        return [0.0] * len(values)
    return (centred / spread if std_normalize else centred).tolist()


def adjusted_scores(
    episodes: Sequence[Episode],
    *,
    shortest_path: float,
    wrong_tap_penalty: float,
    progress_credit: float = 0.0,
    early_done_penalty: float = 0.0,
) -> list[float]:
    """Each episode's score: its env return, less the wrong-tap penalties and, for an ``F``
    declared before the goal held, ``early_done_penalty`` (giving up early is no safe choice), plus for a failure
    ``progress_credit`` times the progress it ended with (the goal reached but not declared done
    with ``F`` earns something), and for a success ``shortest_path * (length - shortest) / length``
    less, ``shortest`` the group's shortest success.

    Example:
        >>> a = Episode("t", 0, 0, actions=["T AB", "F"], env_return=1.0, success=True)
        >>> b = Episode("t", 0, 0, actions=["B", "T AB", "F"], env_return=1.0, success=True)
        >>> [round(s, 3) for s in adjusted_scores([a, b], shortest_path=0.3, wrong_tap_penalty=0.0)]
        [1.0, 0.9]
    """
    lengths = [e.length for e in episodes if e.success]
    shortest = min(lengths) if lengths else 0
    out = []
    for e in episodes:
        score = e.env_return - wrong_tap_penalty * e.wrong_taps - early_done_penalty * e.early_done
        if e.success and shortest_path and e.length > 0:
            score -= shortest_path * (e.length - shortest) / e.length
        elif not e.success:
            score += progress_credit * e.final_progress
        out.append(score)
    return out


# --- the trainer -------------------------------------------------------------------------------


class RLTrainer:
    """GRPO with a curriculum (see the module docstring); :meth:`run` trains to the end."""

    def __init__(self, config: RLConfig, policy: RLPolicy | None = None, *, resume: bool = False) -> None:
        import torch

        config.check()
        self.config = config
        self.out = Path(config.output)
        self.catalog = _catalog(config.env_id, config.env_kwargs)
        self.curriculum_config: CurriculumConfig = load_curriculum(config.curriculum, self.catalog)
        if not self.failure_filtering():
            self.curriculum_config = dataclasses.replace(self.curriculum_config, fail_window=0)
        self.curriculum = Curriculum(self.curriculum_config, seed=config.seed)
        self.replay = ReplayStore(config.replay_keep)
        self.branches = BranchStore()
        self._branch_env: Any = None
        self.policy: RLPolicy = policy if policy is not None else build_policy(config)
        self.optimizer = torch.optim.AdamW(self.policy.parameters(), lr=self.learning_rate(), weight_decay=0.0)
        self.completed = 0
        self.best: dict[str, dict[str, Any]] = {}
        self.env_steps = 0
        self._envs: Any = None
        self._started = time.perf_counter()
        if resume:
            self._resume()
        else:
            self._start()

    def failure_filtering(self) -> bool:
        """``failure_filter``, or by default: on when the policy starts from a checkpoint
        (MobileRL's setting: a trained start that never solves a task wastes its groups), off
        from scratch, where no task is solved yet and setting the unsolved ones aside starves
        them (measured in ``docs/rl.md``: the toggles were never drawn enough to be solved)."""
        if self.config.failure_filter is not None:
            return self.config.failure_filter
        return _start_adapter(self.config.policy) is not None

    def learning_rate(self) -> float:
        """``lr``, or the policy's default: 3e-3 for the small policy, 2e-5 for a LoRA."""
        if self.config.lr is not None:
            return self.config.lr
        return 2e-5 if self.config.policy.startswith("qwen:") else 3e-3

    # --- set-up and resume ---------------------------------------------------------------

    def _start(self) -> None:
        prepare_out(self.out, _start_adapter(self.config.policy), resume=True)  # never the adapter it starts from
        if (self.out / LOG).exists() or (self.out / "last").exists():
            raise CerebellumError(f"{self.out} already holds an RL run: pass --resume to continue it, or choose another --out")
        # The reference first, then the config: a run with a config.json always has its reference.
        _replace_dir(self.out / "reference", self.policy.save)
        self.policy.freeze_reference()
        (self.out / "config.json").write_text(
            json.dumps({"config": self.config.to_dict(), "curriculum": self.curriculum_config.to_dict()}, indent=2)
        )

    def _resume(self) -> None:
        saved = self.out / "config.json"
        if not saved.is_file():
            raise CerebellumError(f"--resume: {self.out} holds no RL run (no config.json)")
        # A setting the saved run predates had its default; the failure filter compares as resolved.
        defaults = RLConfig(output="").to_dict()
        before = {**defaults, **json.loads(saved.read_text())["config"]}
        now = self.config.to_dict()
        for settings in (before, now):
            if settings["failure_filter"] is None:
                settings["failure_filter"] = _start_adapter(str(settings["policy"])) is not None
        changed = [k for k in now if k not in ("updates", "max_minutes", "progress", "output") and before.get(k) != now[k]]
        if changed:
            raise CerebellumError(
                f"--resume: the run in {self.out} was started with other settings ({', '.join(changed)}); resume it with the same ones"
            )
        self.policy.freeze_reference(self.out / "reference")
        last = self.out / "last"
        if not (last / STATE).is_file():
            # Killed before its first checkpoint: start over from the reference, log cut to nothing.
            self.policy.load(self.out / "reference")
            _cut_log(self.out / LOG, 0)
            return
        state = json.loads((last / STATE).read_text())
        self.policy.load(last)
        _load_saved_optimizer(self.optimizer, last / OPTIMIZER, state["optimizer"])
        self.curriculum.load_state_dict(state["curriculum"])
        self.replay.load_state_dict(state["replay"])
        self.branches.load_state_dict(state.get("branches", {}))
        self.completed = int(state["completed"])
        self.best = dict(state["best"])
        self.env_steps = int(state["env_steps"])
        _cut_log(self.out / LOG, self.completed)

    # --- the loop ------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        """Train until ``updates`` (or ``max_minutes``); returns a summary."""
        cfg = self.config
        bar = _bar(cfg.updates, self.completed, cfg.progress)
        deadline = self._started + cfg.max_minutes * 60 if cfg.max_minutes else None
        try:
            while self.completed < cfg.updates:
                if deadline is not None and time.perf_counter() >= deadline:
                    break
                record = self.update()
                if bar is not None:
                    bar.update(1)
                    bar.set_postfix_str(f"stage {record['stage']} success {record['success']:.2f} kl {record['kl']:.3f}", refresh=False)
                elif cfg.progress != "off":
                    print(_line(record), file=sys.stderr, flush=True)
        finally:
            if bar is not None:
                bar.close()
            self.close()
        write_curves(self.out / LOG, self.out / "curves.png")
        return {"output": str(self.out), "completed": self.completed, "best": self.best, "stage": self.curriculum.stage.name}

    def close(self) -> None:
        if self._branch_env is not None:
            self._branch_env.close()
            self._branch_env = None
        if self._envs is not None:
            self._envs.close()
            self._envs = None

    def update(self) -> dict[str, Any]:
        """One update: draw, roll out, score, optimise, log, checkpoint (and gate)."""
        cfg = self.config
        number = self.completed + 1
        draws = self.curriculum.draw(number, cfg.groups)
        tick = time.perf_counter()
        episodes, timing = self.rollout(draws, number)
        rollout_s = time.perf_counter() - tick
        self.assign_advantages(episodes)
        tick = time.perf_counter()
        stats = self.optimise(episodes, number)
        update_s = time.perf_counter() - tick
        events: list[str] = []
        for g, (task, _seed) in enumerate(draws):
            sampled = [e for e in episodes if e.group == g and not e.replayed]
            events += self.curriculum.record(number, task, float(np.mean([e.success for e in sampled])) if sampled else 0.0)
        for e in episodes:
            if e.success and not e.replayed and not e.prefix:
                self.replay.add(e.task, e.seed, e.actions)
        if cfg.branch_failures:
            for g in range(len(draws)):
                self.branches.record([e for e in episodes if e.group == g and not e.replayed])
        sampled = [e for e in episodes if not e.replayed]
        families: dict[str, list[float]] = {}
        by_task: dict[str, list[float]] = {}
        for e in sampled:
            families.setdefault(self._family(e.task), []).append(float(e.success))
            by_task.setdefault(e.task, []).append(float(e.success))
        steps = sum(e.length for e in episodes)
        self.env_steps += steps
        record: dict[str, Any] = {
            "update": number,
            "stage": self.curriculum.stage.name,
            "tasks": [t for t, _ in draws],
            "seeds": [s for _, s in draws],
            "success": float(np.mean([e.success for e in sampled])) if sampled else 0.0,
            "success_by_family": {k: float(np.mean(v)) for k, v in sorted(families.items())},
            "success_by_task": {k: float(np.mean(v)) for k, v in sorted(by_task.items())},
            "return": float(np.mean([e.env_return for e in sampled])) if sampled else 0.0,
            "score": float(np.mean([e.score for e in sampled])) if sampled else 0.0,
            "mean_length": float(np.mean([e.length for e in sampled])) if sampled else 0.0,
            "replayed": sum(e.replayed for e in episodes),
            **_advantage_stats(episodes),
            "wrong_taps": sum(e.wrong_taps for e in episodes),
            **stats,
            "env_steps": steps,
            "batch_steps": timing["batch_steps"],
            "total_env_steps": self.env_steps,
            "rollout_s": round(rollout_s, 4),
            "env_s": round(timing["env_s"], 4),
            "policy_s": round(timing["policy_s"], 4),
            "update_s": round(update_s, 4),
            "events": events,
        }
        self.completed = number
        if cfg.gate_every and number % cfg.gate_every == 0:
            record["gate"] = self.gate(number)
        # The line first, then the checkpoint: a kill between the two is cut back by --resume.
        with (self.out / LOG).open("a", encoding="utf-8") as log:
            log.write(json.dumps(record) + "\n")
        self.checkpoint()
        return record

    def _family(self, task: str) -> str:
        try:
            return str(self.catalog.get(task).family)
        except CerebellumError:
            return "unknown"

    def assign_advantages(self, episodes: Sequence[Episode]) -> None:
        """Each episode's adjusted score and its advantage within its group."""
        cfg = self.config
        for g in sorted({e.group for e in episodes}):
            members = [e for e in episodes if e.group == g]
            scores = adjusted_scores(
                members,
                shortest_path=cfg.shortest_path,
                wrong_tap_penalty=cfg.wrong_tap_penalty,
                progress_credit=cfg.progress_credit,
                early_done_penalty=cfg.early_done_penalty,
            )
            for e, s, a in zip(members, scores, group_advantages(scores, std_normalize=cfg.std_normalize), strict=True):
                e.score, e.advantage = s, a

    # --- rollouts ------------------------------------------------------------------------

    def envs(self) -> Any:
        """The vector env (built once: ``groups x group_size`` sub-envs)."""
        if self._envs is None:
            self._envs = make_rollout_envs(self.config, self.curriculum_config.tasks, pixels=bool(self.policy.needs_pixels))
            # One full reset first: the native env's batch cannot show a partial reset of sub-envs never reset.
            self._envs.reset(seed=self.config.seed)
        return self._envs

    def rollout(self, draws: Sequence[tuple[str, int]], update: int) -> tuple[list[Episode], dict[str, float]]:
        """Run every group of ``draws`` to its end; one policy call per env step for all live sub-envs."""
        import torch

        cfg = self.config
        envs = self.envs()
        n, size = envs.num_envs, cfg.group_size
        episodes: list[Episode] = []
        forced: dict[int, list[str]] = {}
        # Each group's sub-envs reset to its task and seed (a replay slot: the stored success's seed).
        observations: list[dict[str, Any]] = [{} for _ in range(n)]
        env_s = 0.0
        for g, (task, seed) in enumerate(draws):
            seeds: list[int | None] = [None] * n
            mask = np.zeros(n, np.bool_)
            branch = self.branches.take(task) if cfg.branch_failures else None
            state = self._branch_state(task, *branch) if branch is not None else None
            for k in range(size):
                i = g * size + k
                episode = Episode(task, seed, g)
                if state is not None and branch is not None:
                    # The whole group starts where the failed group's furthest episode stalled.
                    episode = Episode(task, branch[0], g, prefix=list(branch[1]))
                elif k == 0 and cfg.positive_replay:
                    recent = self.curriculum.recent_success(task)
                    stored = self.replay.pick(task, update)
                    if stored is not None and recent is not None and recent < cfg.replay_below:
                        episode = Episode(task, stored[0], g, replayed=True)
                        forced[i] = stored[1]
                episodes.append(episode)
                seeds[i] = episode.seed
                mask[i] = True
            tick = time.perf_counter()
            start: dict[str, Any] = {"task": task} if state is None else {"state": state}
            batch, infos = envs.reset(seed=seeds, options={**start, "reset_mask": mask})
            env_s += time.perf_counter() - tick
            for i, obs in enumerate(_kept_observations(batch)):
                if mask[i]:
                    observations[i] = obs
                    episodes[i].last_progress = _info(infos, "progress", i)
        texts = _task_texts(envs) if self.policy.needs_texts else [[] for _ in range(n)]
        generator = torch.Generator().manual_seed(int(np.random.default_rng([cfg.seed, update, 1]).integers(2**62)))
        policy_s = 0.0
        batch_steps = 0
        while True:
            live = [i for i in range(n) if not episodes[i].done]
            if not live:
                break
            batch_steps += 1
            prepared = {i: _prepared(observations[i], len(episodes[i].prefix) + episodes[i].length, texts[i]) for i in live}
            tick = time.perf_counter()
            sampled_slots = [i for i in live if i not in forced]
            samples = self.policy.sample([prepared[i] for i in sampled_slots], temperature=cfg.temperature, generator=generator)
            chosen: dict[int, StepSample] = dict(zip(sampled_slots, samples, strict=True))
            replay_slots = []
            for i in (i for i in live if i in forced):
                if legal_action(forced[i][episodes[i].length], prepared[i]):
                    replay_slots.append(i)
                else:
                    # The stored action does not fit the replayed screen (a backend that is not deterministic): dropped.
                    episodes[i].done, episodes[i].success = True, False
            for i in replay_slots:
                try:
                    chosen[i] = self.policy.force([prepared[i]], [forced[i][episodes[i].length]])[0]
                except (CerebellumError, InvalidActionError):
                    episodes[i].done, episodes[i].success = True, False  # the policy's own constraint refuses it
            policy_s += time.perf_counter() - tick
            live = [i for i in live if not episodes[i].done]
            actions = [IDLE_ACTION] * n
            allows = getattr(self.policy, "allows", None)
            for i in live:
                action = chosen[i].action
                if not legal_action(action, prepared[i]) or (allows is not None and not allows(chosen[i])):
                    # The trainer's promise: no rollout sends an action the constrained decoder could not produce.
                    raise CerebellumError(f"the policy chose {action!r}, which its constraint does not allow on this screen")
                actions[i] = action
            tick = time.perf_counter()
            batch, rewards, terminated, truncated, infos = envs.step(actions)
            env_s += time.perf_counter() - tick
            after = _kept_observations(batch)
            for i in live:
                e = episodes[i]
                e.steps.append(chosen[i])
                e.actions.append(actions[i])
                e.env_return += float(rewards[i])
                progress = _info(infos, "progress", i)
                if progress > e.best_progress:
                    e.best_progress, e.progress_at = progress, e.length
                if actions[i][0] in "TP" and progress <= e.last_progress and _same_screen(prepared[i], after[i]):
                    e.wrong_taps += 1
                elif actions[i][0] == "F" and not bool(_info(infos, "success", i)):
                    e.early_done = True
                e.last_progress = progress
                if terminated[i] or truncated[i]:
                    e.done = True
                    e.success = bool(_info(infos, "success", i))
                    e.final_progress = progress
                elif i in forced and e.length >= len(forced[i]):
                    e.done = True  # the stored actions ran out without an end: not a success
                observations[i] = after[i]
        kept = [e for e in episodes if not (e.replayed and not e.success)]
        return kept, {"env_s": env_s, "policy_s": policy_s, "batch_steps": batch_steps}

    def _branch_state(self, task: str, seed: int, actions: Sequence[str]) -> Any:
        """The episode state after ``actions`` from ``task`` reset at ``seed``, replayed on an
        env made with the rollout's options (so its state restores there); ``None`` when the
        replay does not reach it (the episode ended on the way, or the backend has no states)."""
        import gymnasium as gym

        from cerebellum_gym.errors import UnsupportedOperationError

        if self._branch_env is None:
            self._branch_env = gym.make(
                self.config.env_id, **rollout_env_kwargs(self.config, self.curriculum_config.tasks, pixels=bool(self.policy.needs_pixels))
            )
        env = self._branch_env
        env.reset(seed=seed, options={"task": task})
        for action in actions:
            _, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                return None
        try:
            return env.unwrapped.clone_state()
        except UnsupportedOperationError:
            return None

    # --- the update ----------------------------------------------------------------------

    def optimise(self, episodes: Sequence[Episode], update: int) -> dict[str, Any]:
        """The clipped objective with the KL penalty, over every action token of every step of
        every episode with a non-zero advantage, for ``epochs`` passes of ``minibatches``
        optimizer steps each (the steps shuffled once per update, from the seed and the update
        number; ``micro_batch`` steps per forward pass, gradients accumulated)."""
        import torch

        cfg = self.config
        steps: list[StepSample] = []
        advantages: list[float] = []
        for e in episodes:
            if e.advantage != 0.0:
                for s in e.steps:
                    if s.trainable:
                        steps.append(s)
                        advantages.append(e.advantage)
        if not steps:
            return {"loss": 0.0, "kl": 0.0, "clip_frac": 0.0, "trained_steps": 0, "grad_norm": 0.0, "scorer_gap": 0.0, "optimizer_steps": 0}
        if cfg.minibatches > 1:
            # Minibatches mix groups: one seeded shuffle per update keeps the update deterministic.
            order = np.random.default_rng([cfg.seed, update, 2]).permutation(len(steps))
            steps = [steps[j] for j in order]
            advantages = [advantages[j] for j in order]
        per_minibatch = math.ceil(len(steps) / min(cfg.minibatches, len(steps)))
        size = min(cfg.micro_batch or per_minibatch, per_minibatch)
        minibatches = [
            [range(a, min(a + size, b + per_minibatch, len(steps))) for a in range(b, min(b + per_minibatch, len(steps)), size)]
            for b in range(0, len(steps), per_minibatch)
        ]
        chunks = [c for mb in minibatches for c in mb]
        with torch.no_grad():
            refs = {c[0]: self.policy.token_logprobs([steps[j] for j in c], temperature=cfg.temperature, reference=True)[0] for c in chunks}
        olds: dict[int, Any] = {}
        if len(minibatches) > 1:
            # Later minibatches are scored after the first optimizer step: their old
            # log-probabilities must be taken before it.
            with torch.no_grad():
                olds = {c[0]: self.policy.token_logprobs([steps[j] for j in c], temperature=cfg.temperature)[0] for c in chunks}
        gap = 0.0
        loss_value = kl_value = clip_value = norm_value = 0.0
        for epoch in range(cfg.epochs):
            loss_sum = kl_sum = clipped_sum = 0.0
            tokens_sum = 0.0
            norms = []
            for mb in minibatches:
                self.optimizer.zero_grad(set_to_none=True)
                tokens = float(sum(len(steps[j].tokens) for c in mb for j in c))
                for chunk in mb:
                    logp, mask = self.policy.token_logprobs([steps[j] for j in chunk], temperature=cfg.temperature)
                    if chunk[0] not in olds:
                        # The policy has not moved since the rollout: the first pass's log-probabilities
                        # are the sampling policy's.
                        olds[chunk[0]] = logp.detach()
                    old = olds[chunk[0]]
                    for row, j in enumerate(chunk):
                        if not math.isnan(steps[j].logprob) and epoch == 0:
                            # The sampled totals are kept as a check on the scorer.
                            gap = max(gap, abs(float(old[row][mask[row]].sum()) - steps[j].logprob))
                    adv = column([advantages[j] for j in chunk], logp)
                    ratio = torch.exp(logp - old)
                    clipped = torch.clamp(ratio, 1 - cfg.clip, 1 + cfg.clip)
                    surrogate = -torch.minimum(ratio * adv, clipped * adv)
                    log_ref_ratio = refs[chunk[0]].to(logp.dtype) - logp
                    kl = torch.exp(log_ref_ratio) - log_ref_ratio - 1  # k3: unbiased, never negative
                    weight = mask.to(logp.dtype)
                    loss = ((surrogate + cfg.kl * kl) * weight).sum() / tokens
                    loss.backward()
                    loss_sum += float(loss.detach()) * tokens
                    kl_sum += float((kl.detach() * weight).sum())
                    clipped_sum += float((((ratio.detach() - 1).abs() > cfg.clip).to(weight.dtype) * weight).sum())
                tokens_sum += tokens
                norms.append(float(torch.nn.utils.clip_grad_norm_(self.policy.parameters(), 1.0)))
                self.optimizer.step()
            loss_value, kl_value, clip_value = loss_sum / tokens_sum, kl_sum / tokens_sum, clipped_sum / tokens_sum
            norm_value = float(np.mean(norms))
        return {
            "loss": loss_value,
            "kl": kl_value,
            "clip_frac": clip_value,
            "trained_steps": len(steps),
            "grad_norm": norm_value,
            "scorer_gap": gap,
            "optimizer_steps": cfg.epochs * len(minibatches),
        }

    # --- gates and checkpoints -----------------------------------------------------------

    def gate(self, update: int) -> dict[str, Any]:
        """The held-out checks: the online suite and, with a dataset, ``eval-offline``; the best
        checkpoint of each metric is copied to ``best/<metric>``."""
        cfg = self.config
        results: dict[str, Any] = {}
        own = getattr(self.policy, "eval_agent", None)
        agent = own(cfg.gate_temperature) if own is not None else PolicyAgent(self.policy, temperature=cfg.gate_temperature)
        if cfg.gate_suite:
            results["online"] = online_success(agent, cfg.gate_suite, self.out / "gates" / f"update-{update:05d}", cfg)
        if cfg.gate_dataset:
            from cerebellum_gym.datasets.offline import evaluate_offline

            offline = evaluate_offline(agent, cfg.gate_dataset, n=cfg.gate_offline_n or None, seed=cfg.seed)
            results["offline_exact"] = offline["exact"]["rate"]
        for metric, value in results.items():
            if value is None:
                continue
            best = self.best.get(metric)
            # A tie goes to the later checkpoint: the gate is small, and the later one has trained more.
            if best is None or value >= best["value"]:
                self.best[metric] = {"value": value, "update": update}
                _replace_dir(self.out / "best" / metric, self.policy.save)
        return results

    def checkpoint(self) -> None:
        """Write ``last/`` atomically: weights, optimizer, curriculum, replay store, counts."""

        def write(folder: Path) -> None:
            self.policy.save(folder)
            meta = _save_optimizer(self.optimizer, folder / OPTIMIZER)
            state = {
                "completed": self.completed,
                "curriculum": self.curriculum.state_dict(),
                "replay": self.replay.state_dict(),
                "branches": self.branches.state_dict(),
                "best": self.best,
                "env_steps": self.env_steps,
                "optimizer": meta,
            }
            (folder / STATE).write_text(json.dumps(state))

        _replace_dir(self.out / "last", write)


class PolicyAgent(Agent):
    """An :class:`RLPolicy` as an evaluation agent (gates, ``eval``): greedy constrained actions,
    or with ``temperature`` > 0 sampled ones (from a generator :meth:`reset` seeds)."""

    def __init__(self, policy: RLPolicy, *, temperature: float = 0.0) -> None:
        import torch

        self.policy = policy
        self.name = policy.name if not temperature else f"{policy.name}@t{temperature:g}"
        self.needs_pixels = bool(policy.needs_pixels)
        self.temperature = temperature
        self.generator = torch.Generator().manual_seed(0)

    def reset(self, seed: int | None = None) -> None:
        self.generator.manual_seed(int(seed or 0))

    def act(self, observation: Observation) -> str:
        return self.act_batch([observation])[0]

    def act_batch(self, observations: Sequence[Observation], oracle: OracleSource | None = None) -> list[str]:
        texts: list[list[str]] = [[] for _ in observations]
        if self.policy.needs_texts and oracle is not None and hasattr(oracle, "text_candidates"):
            texts = [list(t) for t in oracle.text_candidates()]
        prepared = [{**obs, "text_candidates": tuple(t)} for obs, t in zip(observations, texts, strict=True)]
        if self.temperature > 0:
            return [s.action for s in self.policy.sample(prepared, temperature=self.temperature, generator=self.generator)]
        return self.policy.greedy(prepared)


def online_success(agent: Agent, suite_spec: str, run_dir: Path, config: RLConfig) -> float:
    """The agent's success rate on a suite (the eval harness, fresh run folder)."""
    from cerebellum_gym.evaluation.runner import EvalConfig, run_suite
    from cerebellum_gym.evaluation.suites import load_suite

    suite = load_suite(suite_spec)
    if run_dir.exists():
        shutil.rmtree(run_dir)  # a gate re-run after a resume replaces the one the kill cut short
    env_id = config.env_id
    vectorization = "sync" if config.vectorization in ("native", "auto") else config.vectorization
    eval_config = EvalConfig(
        env_id=env_id, num_envs=config.gate_num_envs, seed=config.seed, vectorization=vectorization, ray_address=config.ray_address,
        env_kwargs=dict(config.env_kwargs), progress="off",
    )  # fmt: skip
    result = run_suite(agent, suite, run_dir, eval_config)
    return float(np.mean([bool(r.get("success")) for r in result.records])) if result.records else 0.0


# --- building ----------------------------------------------------------------------------------


def build_policy(config: RLConfig) -> RLPolicy:
    """The policy ``config.policy`` names: ``tiny`` (a new small policy), ``tiny:FOLDER`` (one
    saved by a run: its ``last``, ``best/...`` or ``reference``) or ``qwen:BASE[,ADAPTER]``."""
    spec = config.policy
    if spec == "tiny":
        layout = FlatActionLayout(
            max_labels=config.max_labels, max_texts=4 if "K" in config.codes else 0, codes=config.codes, answer_texts=False
        )
        return TinySlotPolicy(layout, seed=config.seed)
    if spec.startswith("tiny:"):
        return TinySlotPolicy.from_folder(Path(spec[5:]))
    if spec.startswith("qwen:"):
        from cerebellum_gym.training import rl_qwen

        return rl_qwen.build(spec[5:], seed=config.seed)
    raise ConfigError(f"unknown policy {spec!r}: use tiny, tiny:FOLDER or qwen:BASE[,ADAPTER]")


def _start_adapter(spec: str) -> str | None:
    """The folder a policy spec starts from (a run never writes into it)."""
    if spec.startswith("tiny:"):
        return spec[5:]
    if spec.startswith("qwen:"):
        body = spec[5:].partition("?")[0]
        return body.partition(",")[2] or None
    return None


def rollout_env_kwargs(config: RLConfig, tasks: Sequence[str], *, pixels: bool) -> dict[str, Any]:
    """``gym.make``'s options of every rollout sub-env (and of the env that replays branches)."""
    kwargs: dict[str, Any] = {
        "task": list(tasks),
        "pixels": pixels,
        "invalid_action": "penalize",
        "invalid_action_penalty": config.invalid_penalty,
        **config.env_kwargs,
    }
    if config.max_steps is not None:
        kwargs["max_steps"] = config.max_steps
    return kwargs


def make_rollout_envs(config: RLConfig, tasks: Sequence[str], *, pixels: bool) -> Any:
    """The rollout vector env: ``groups x group_size`` sub-envs, invalid actions penalised
    (never ending the episode), autoreset on the next step (a finished sub-env idles)."""
    from gymnasium.vector import AutoresetMode

    import cerebellum_gym  # noqa: F401  (registers the ids)
    from cerebellum_gym.vector import choose_vectorization, make_vec

    n = config.groups * config.group_size
    kwargs = rollout_env_kwargs(config, tasks, pixels=pixels)
    mode = choose_vectorization(config.env_id, n, config.vectorization, kwargs)  # the project's one auto rule
    return make_vec(config.env_id, n, mode, autoreset_mode=AutoresetMode.NEXT_STEP, ray_address=config.ray_address, **kwargs)


def _catalog(env_id: str, env_kwargs: Mapping[str, Any] | None = None) -> Any:
    """The task catalogue the env id's sub-envs resolve names in (AndroidWorld's own tasks first)."""
    import cerebellum_gym  # noqa: F401  (registers the ids)
    from cerebellum_gym.loader import env_backend, make_catalog

    kwargs = dict(env_kwargs or {})
    record = env_backend(env_id, kwargs)
    return make_catalog(record.name if record is not None else "sim", kwargs.get("device_options"))


def _advantage_stats(episodes: Sequence[Episode]) -> dict[str, float]:
    """What the update learns from: the share of groups with no spread (no gradient), the mean
    absolute advantage, and the sampling policy's entropy per step (the mean negative
    log-probability of the sampled actions: an unbiased estimate)."""
    groups: dict[int, list[float]] = {}
    for e in episodes:
        groups.setdefault(e.group, []).append(e.advantage)
    logps = [s.logprob for e in episodes if not e.replayed for s in e.steps if not math.isnan(s.logprob)]
    return {
        "flat_groups": float(np.mean([all(a == 0.0 for a in g) for g in groups.values()])) if groups else 0.0,
        "advantage_abs": float(np.mean([abs(e.advantage) for e in episodes])) if episodes else 0.0,
        "entropy": float(-np.mean(logps)) if logps else 0.0,
    }


def _task_texts(envs: Any) -> list[list[str]]:
    tasks = envs.get_attr("task")
    return [[str(t) for t in (task.text_candidates() if hasattr(task, "text_candidates") else []) if str(t)] for task in tasks]


def _prepared(obs: Mapping[str, Any], taken: int, texts: Sequence[str]) -> dict[str, Any]:
    # "step": steps taken so far (the prompt numbers history frames absolutely from it).
    return {**obs, "step": taken, "text_candidates": tuple(texts)}


def _info(infos: Mapping[str, Any], key: str, i: int) -> float:
    value = infos.get(key)
    return float(value[i]) if value is not None else 0.0


def _kept_observations(batch: Any) -> list[dict[str, Any]]:
    """One observation per sub-env, copied: a vector env's batch is its own storage, overwritten
    in place by the next step (the native env's default), and the rollout keeps each observation
    past that step (to judge a tap wrong by comparing screens, to prompt the next step)."""
    return split_observations(batch, copy=True)  # the rows' arrays copied; texts are immutable


def _same_screen(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    return screen_signature(str(before.get("tree", ""))) == screen_signature(str(after.get("tree", "")))


# --- files -------------------------------------------------------------------------------------


def _replace_dir(target: Path, write: Any) -> None:
    """Write a folder beside ``target`` and swap it in, so a kill leaves the old or the new one whole."""
    fresh = target.with_name(target.name + ".new")
    if fresh.exists():
        shutil.rmtree(fresh)
    fresh.mkdir(parents=True)
    write(fresh)
    old = target.with_name(target.name + ".old")
    if old.exists():
        shutil.rmtree(old)
    if target.exists():
        target.rename(old)
    fresh.rename(target)
    if old.exists():
        shutil.rmtree(old)


def _save_optimizer(optimizer: Any, path: Path) -> dict[str, Any]:
    """The optimizer's tensors as safetensors (no pickle); returns the rest, JSON-ready."""
    from safetensors.torch import save_file

    tensors, meta = _optimizer_tensors(optimizer)
    save_file(tensors, str(path))
    return meta


def _load_saved_optimizer(optimizer: Any, path: Path, meta: Mapping[str, Any]) -> None:
    from safetensors.torch import load_file

    _load_optimizer(optimizer, load_file(str(path)) if path.is_file() else {}, meta)


def _cut_log(path: Path, completed: int) -> None:
    """Keep the log lines of updates up to ``completed`` (a kill after a line, before its checkpoint)."""
    if not path.exists():
        return
    kept = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            if int(json.loads(line)["update"]) <= completed:
                kept.append(line)
        except (ValueError, KeyError, TypeError):
            break  # a torn last line
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(line + "\n" for line in kept), encoding="utf-8")
    os.replace(tmp, path)


def read_log(path: Path) -> list[dict[str, Any]]:
    """The log's records (a torn last line is left out)."""
    out = []
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                break
    return out


def write_curves(log: Path, png: Path) -> Path | None:
    """Success per family, score and return, KL, and loss over updates, as one PNG."""
    records = read_log(log)
    if not records:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [r["update"] for r in records]
    fig, axes = plt.subplots(2, 2, figsize=(10, 6.5))
    ax = axes[0][0]
    families = sorted({f for r in records for f in r.get("success_by_family", {})})
    for f in families:
        points = [(r["update"], r["success_by_family"][f]) for r in records if f in r.get("success_by_family", {})]
        ax.plot([p[0] for p in points], [p[1] for p in points], marker=".", lw=1, label=f)
    gates = [(r["update"], r["gate"]["online"]) for r in records if "online" in r.get("gate", {})]
    if gates:
        ax.plot([g[0] for g in gates], [g[1] for g in gates], "k--o", lw=1.5, label="held-out gate")
    ax.set_title("success per family (training groups)")
    ax.set_ylim(-0.02, 1.05)
    ax.legend(fontsize=7)
    ax = axes[0][1]
    ax.plot(xs, [r["return"] for r in records], label="env return")
    ax.plot(xs, [r["score"] for r in records], label="adjusted score")
    ax.set_title("return")
    ax.legend(fontsize=7)
    axes[1][0].plot(xs, [r["kl"] for r in records])
    axes[1][0].set_title("KL to the starting policy")
    axes[1][1].plot(xs, [r["loss"] for r in records])
    axes[1][1].set_title("loss")
    for row in axes:
        for a in row:
            a.set_xlabel("update")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return png


def _bar(total: int, done: int, mode: str) -> Any:
    if mode == "off" or (mode == "auto" and not sys.stderr.isatty()) or mode == "lines":
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, initial=done, desc="rl", unit="update", file=sys.stderr, dynamic_ncols=True)


def _line(record: Mapping[str, Any]) -> str:
    gate = f" gate {record['gate']}" if "gate" in record else ""
    events = f" ({'; '.join(record['events'])})" if record.get("events") else ""
    return (
        f"update {record['update']} stage {record['stage']}: success {record['success']:.2f} return {record['return']:.2f} "
        f"kl {record['kl']:.4f} loss {record['loss']:.4f}{gate}{events}"
    )


# --- the command line --------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``train rl`` flags (one per :class:`RLConfig` field)."""
    d = RLConfig(output="")
    p = parser.add_argument
    p("--out", dest="output", required=True, metavar="DIR", help="the run folder (log, curves, checkpoints)")
    p("--policy", default=d.policy, help="tiny | tiny:FOLDER | qwen:BASE[,ADAPTER][?device=cuda&dtype=bfloat16]")
    p("--env", dest="env_id", default=d.env_id, help="Cerebellum-Sim-v0, Cerebellum-AndroidWorld-v0, ...")
    p("--vectorization", default=d.vectorization, choices=("auto", "native", "sync", "async", "ray"), help="auto: native for the simulator")
    p("--ray-address", default=None, help="with --vectorization ray: the cluster")
    p("--curriculum", default=d.curriculum, help="'default' or a curriculum JSON file")
    p("--updates", type=int, default=d.updates, help="policy updates (each: --groups x --group-size episodes)")
    p("--groups", type=int, default=d.groups, help="task+seed groups per update")
    p("--group-size", type=int, default=d.group_size, help="episodes per group (G)")
    p("--max-steps", type=int, default=None, help="step budget per episode (default: each task's)")
    p("--temperature", type=float, default=d.temperature, help="sampling temperature of the rollouts")
    p("--lr", type=float, default=None, help="learning rate (default: 3e-3 for tiny, 2e-5 for a LoRA)")
    p("--clip", type=float, default=d.clip, help="the clipped objective's ratio range (1 +- clip)")
    p("--kl", type=float, default=d.kl, help="KL penalty weight (to the starting policy)")
    p("--epochs", type=int, default=d.epochs, help="optimisation passes per update")
    p("--minibatches", type=int, default=d.minibatches, help="optimizer steps per pass (the update's steps split, shuffled)")
    p("--micro-batch", type=int, default=d.micro_batch, help="steps per forward pass in the update (0: all at once)")
    p("--std-normalize", action="store_true", help="advantages over the group's standard deviation too (default: minus the mean only)")
    p("--invalid-penalty", type=float, default=d.invalid_penalty, help="the env's invalid_action_penalty")
    p("--wrong-tap-penalty", type=float, default=d.wrong_tap_penalty, help="per tap that changed nothing")
    p("--early-done-penalty", type=float, default=d.early_done_penalty, help="for an F said before the goal holds")
    p("--shortest-path", type=float, default=d.shortest_path, help="shortest-path reward weight (0: off)")
    p("--progress-credit", type=float, default=d.progress_credit, help="score credit for the task progress an episode ends with")
    p("--no-positive-replay", dest="positive_replay", action="store_false", help="do not replay stored successes into failing groups")
    p("--replay-below", type=float, default=d.replay_below, help="replay into groups of tasks with recent success below this")
    p("--replay-keep", type=int, default=d.replay_keep, help="successes stored per task")
    p(
        "--failure-filter",
        dest="failure_filter",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="set never-solved tasks aside for a while (default: on from a checkpoint, off from scratch)",
    )
    p(
        "--branch-failures",
        action="store_true",
        help="start a task's next group where its all-failed group's furthest episode last made progress "
        "(an episode state; in-process envs)",
    )
    p("--gate-every", type=int, default=d.gate_every, help="held-out checks every K updates (0: none)")
    p("--gate-suite", default=d.gate_suite, help="the online held-out suite ('' for none)")
    p("--gate-dataset", default=None, help="a held-out dataset for eval-offline at each gate")
    p("--gate-offline-n", type=int, default=d.gate_offline_n, help="steps eval-offline samples (0: all)")
    p("--gate-num-envs", type=int, default=d.gate_num_envs, help="envs the online gate runs at once")
    p("--gate-temperature", type=float, default=d.gate_temperature, help="the gates' decoding: 0 greedy, > 0 sampled")
    p("--seed", type=int, default=d.seed, help="seed of the curriculum, sampling and a new adapter")
    p("--max-minutes", type=float, default=None, help="stop after this much wall time (resume continues)")
    p("--progress", default=d.progress, choices=("auto", "bar", "lines", "off"), help="auto: a bar on a terminal, lines otherwise")
    p("--codes", default=d.codes, help="tiny policy: action codes offered")
    p("--max-labels", type=int, default=d.max_labels, help="tiny policy: label slots")
    p("--env-kwargs", default="{}", help="extra gym.make options as JSON")
    p("--resume", action="store_true", help="continue the run in --out")


def config_from_args(args: argparse.Namespace) -> RLConfig:
    try:
        extra = json.loads(args.env_kwargs)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"--env-kwargs is not JSON: {exc}") from None
    if not isinstance(extra, dict):
        raise ConfigError("--env-kwargs must be a JSON object")
    values = {f.name: getattr(args, f.name) for f in dataclasses.fields(RLConfig) if f.name != "env_kwargs" and hasattr(args, f.name)}
    values["gate_suite"] = values.get("gate_suite") or None
    return RLConfig(**values, env_kwargs=extra)


def run_command(args: argparse.Namespace) -> int:
    """``cerebellum-gym train rl``."""
    trainer = RLTrainer(config_from_args(args), resume=bool(args.resume))
    summary = trainer.run()
    print(json.dumps(summary, indent=2))
    return 0
