"""Offline action evaluation: an agent's next action against the recorded one, on sampled steps.

The metrics and their layout follow the reference model card's held-out evaluation:

- **exact action string**: the predicted action equals the recorded one (both in the codec's
  canonical string form, so ``"T  UE"`` and ``"T UE"`` are one action);
- **action type**: the codes are equal;
- **tap/long-press element label**: on steps whose recorded action is ``T`` or ``P``, the
  prediction is a ``T``/``P`` with the same label;
- **per group**: exact accuracy within the recorded action's group: ``tp`` (tap / long press:
  ``T P``), ``k`` (type text: ``K``), ``scroll`` (``U D L R``), ``wait`` (``W``), ``system``
  (``B H F I``: navigation and episode ends);
- **scroll failures**: each missed scroll step is a *wrong direction* (another scroll code) or a
  *wrong action* (a code that does not scroll); the **scroll confusion** counts
  ``recorded->predicted`` codes of the misses.

Sampling: the candidate steps are every recorded step whose action was valid. ``n`` of them are
drawn with a seeded generator; the quota (``tp=5,k=2,scroll=2,wait=2,system=1``) weighs the
groups: each draw picks a group with probability proportional to its weight among groups with
steps left, then a step of that group uniformly without replacement. Without ``n`` every
candidate is scored.

Privileged agents (the oracle) read the scripted oracle of the live env: the evaluator replays
each needed episode from its seed and asks the oracle at every step, so the oracle is scored on
exactly the states recorded (episodes that are not replayable are skipped for them).
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from cerebellum_gym.agents.base import Agent
from cerebellum_gym.core.actions import parse_action
from cerebellum_gym.datasets.reader import Dataset, Episode, Step, open_dataset
from cerebellum_gym.errors import CerebellumError, InvalidActionError

#: Action groups of the card, and the codes each holds.
GROUPS: Final[dict[str, str]] = {"tp": "TP", "k": "K", "scroll": "UDLR", "wait": "W", "system": "BHFI"}
GROUP_TITLES: Final[dict[str, str]] = {"tp": "Tap / long press", "k": "Type text", "scroll": "Scroll", "wait": "Wait", "system": "System"}
DEFAULT_QUOTA: Final = "tp=5,k=2,scroll=2,wait=2,system=1"
SCROLL_CODES: Final = "UDLR"
#: The card's held-out protocol: its shards (of imported data: ``meta.shard``), n, seed, quota.
CARD_PROTOCOL: Final[dict[str, Any]] = {"shards": [18, 19], "n": 100, "seed": 44103, "quota": DEFAULT_QUOTA}


def group_of(code: str) -> str:
    """The group of an action code (``"T"`` -> ``"tp"``)."""
    for name, codes in GROUPS.items():
        if code in codes:
            return name
    raise ValueError(f"unknown action code {code!r}")


def parse_quota(text: str | Mapping[str, float] | None) -> dict[str, float]:
    """Group weights from ``"tp=5,k=2,scroll=2,wait=2,system=1"`` (missing groups weigh 0).

    Raises:
        CerebellumError: an unknown group or a bad weight.
    """
    if text is None:
        return {g: 1.0 for g in GROUPS}
    items = text.items() if isinstance(text, Mapping) else (part.partition("=")[::2] for part in text.split(",") if part.strip())
    quota = {g: 0.0 for g in GROUPS}
    for raw_key, value in items:
        key = str(raw_key).strip()
        if key not in GROUPS:
            raise CerebellumError(f"unknown quota group {key!r}; groups: {', '.join(GROUPS)}")
        try:
            weight = float(value)
        except ValueError:
            raise CerebellumError(f"quota weight of {key!r} is not a number: {value!r}") from None
        if weight < 0 or not math.isfinite(weight):
            raise CerebellumError(f"quota weight of {key!r} must be >= 0, got {value!r}")
        quota[key] = weight
    if not any(quota.values()):
        raise CerebellumError("the quota gives every group weight 0")
    return quota


def canonical(action: str) -> str:
    """The codec's string form of ``action`` (unparseable text stays as it is, stripped)."""
    try:
        return str(parse_action(action))
    except InvalidActionError:
        return action.strip()


def _code(action: str) -> str:
    try:
        return parse_action(action).code
    except InvalidActionError:
        return "?"


def episode_shard(episode: Episode) -> int | None:
    """The source shard an imported episode came from (``None`` for recorded ones)."""
    shard = episode.meta.get("shard", (episode.meta.get("meta") or {}).get("shard"))
    return shard if type(shard) is int else None


def candidate_steps(data: Dataset, *, recorded_by: str | None = None, shards: Sequence[int] | None = None) -> list[Step]:
    """Every step whose recorded action was valid (the ones an agent can be scored on), of
    episodes recorded from agent ``recorded_by`` when given, and of source ``shards`` when given."""
    out = []
    wanted = None if shards is None else set(shards)
    for step in data.steps(with_final=False):
        if recorded_by is not None and step.episode.meta.get("agent") != recorded_by:
            continue
        if wanted is not None and episode_shard(step.episode) not in wanted:
            continue
        info = step.info or {}
        if info.get("invalid_action") or info.get("infra_error"):
            continue
        assert step.action is not None
        if _code(step.action) == "?":
            continue
        out.append(step)
    return out


def sample_steps(steps: Sequence[Step], n: int | None, seed: int, quota: Mapping[str, float]) -> list[Step]:
    """Draw ``n`` steps by the quota (see the module docstring); ``None``: all of them, in order."""
    if n is None:
        return list(steps)
    rng = np.random.default_rng(seed)
    pools: dict[str, list[Step]] = {g: [] for g in GROUPS}
    for step in steps:
        assert step.action is not None
        pools[group_of(_code(step.action))].append(step)
    for pool in pools.values():
        rng.shuffle(pool)
    chosen: list[Step] = []
    while len(chosen) < n:
        live = [g for g in GROUPS if pools[g] and quota.get(g, 0.0) > 0]
        if not live:
            break
        weights = np.array([quota[g] for g in live], dtype=float)
        group = live[int(rng.choice(len(live), p=weights / weights.sum()))]
        chosen.append(pools[group].pop())
    return chosen


@dataclass
class Prediction:
    episode_id: str
    t: int
    task: str
    group: str
    recorded: str
    predicted: str
    latency_s: float

    @property
    def exact(self) -> bool:
        return canonical(self.predicted) == canonical(self.recorded)


class _OfflineTexts:
    """The task texts an agent may read (its ``K`` vocabulary), rebuilt from the recorded task."""

    def __init__(self, episode: Episode) -> None:
        self.episode = episode

    def oracle_actions(self) -> list[str]:
        raise CerebellumError("only privileged agents read the scripted oracle")

    def text_candidates(self) -> list[list[str]]:
        from cerebellum_gym.tasks.catalog import BUILTIN

        try:
            task = BUILTIN.get(str(self.episode.meta.get("task")))(self.episode.meta.get("task_params") or {})
        except Exception:
            return [[]]
        return [list(task.text_candidates())]


class _RecordedOracle(_OfflineTexts):
    def __init__(self, episode: Episode, action: str) -> None:
        super().__init__(episode)
        self.action = action

    def oracle_actions(self) -> list[str]:
        return [self.action]


def oracle_trace(episode: Episode) -> list[str] | None:
    """The scripted oracle's action at each step of a replay of ``episode``, up to where the replay
    departs from the record (``None`` when the episode is not replayable)."""
    from cerebellum_gym.datasets.replay import replay_episode

    actions: list[str] = []

    def ask(env: Any, t: int) -> None:
        actions.append(str(env.unwrapped.oracle_action()))

    result = replay_episode(episode, on_step=ask)
    # The oracle is asked only on states that matched the record, so what was collected holds.
    return None if result.status == "skipped" else actions


def evaluate_offline(
    agent: Agent,
    dataset: Dataset | str | os.PathLike[str],
    *,
    n: int | None = 100,
    seed: int = 0,
    quota: str | Mapping[str, float] | None = DEFAULT_QUOTA,
    agent_spec: str | None = None,
    recorded_by: str | None = None,
    shards: Sequence[int] | None = None,
    on_step: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Score ``agent`` on sampled steps of ``dataset`` (see the module docstring); with
    ``recorded_by``, only on episodes that agent recorded; with ``shards``, only on imported
    episodes of those source shards (the card's protocol: :data:`CARD_PROTOCOL`); ``on_step(i,
    n)`` is called after each of the ``n`` sampled steps (a trainer's progress bar shows it).

    Returns:
        The results (JSON-ready): every metric as ``{"correct", "total", "rate"}``, the per-group
        table, the scroll failures and confusion, latency, and every prediction.

    Raises:
        CerebellumError: a bad quota, or no step to score.
    """
    data = dataset if isinstance(dataset, Dataset) else open_dataset(dataset)
    weights = parse_quota(quota)
    sampled = sample_steps(candidate_steps(data, recorded_by=recorded_by, shards=shards), n, seed, weights)
    if not sampled:
        by = f" recorded by {recorded_by!r}" if recorded_by is not None else ""
        by += f" in shards {list(shards)}" if shards is not None else ""
        raise CerebellumError(f"no scorable step in {data.root}{by} (no valid recorded action)")
    agent.reset(seed=seed)
    traces: dict[str, list[str] | None] = {}
    predictions: list[Prediction] = []
    skipped: list[str] = []
    for number, step in enumerate(sampled, 1):
        if on_step is not None:
            on_step(number, len(sampled))
        episode = step.episode
        assert step.action is not None
        source: _OfflineTexts
        if agent.privileged:
            if episode.episode_id not in traces:
                traces[episode.episode_id] = oracle_trace(episode)
            trace = traces[episode.episode_id]
            if trace is None or step.t >= len(trace):
                skipped.append(f"{episode.episode_id}:{step.t}")
                continue
            source = _RecordedOracle(episode, trace[step.t])
        else:
            source = _OfflineTexts(episode)
        obs = step.observation(images=bool(getattr(agent, "needs_pixels", True)))
        # Steps taken so far: history frames are numbered absolutely (t=9 shows steps 6-9), as in
        # online play and the SFT/DPO exports, not from the window's start.
        obs["step"] = step.t
        agent.begin_episode(0)
        tick = time.perf_counter()
        answer = agent.act_batch([obs], source)
        latency = time.perf_counter() - tick
        predicted = str(answer[0]) if answer else ""
        predictions.append(
            Prediction(
                episode.episode_id, step.t, str(episode.meta.get("task", "")), group_of(_code(step.action)), step.action, predicted, latency
            )
        )
    results = score(predictions, agent=agent_spec or agent.name, dataset=str(data.root), n=n, seed=seed, quota=weights, skipped=skipped)
    if shards is not None:
        results["shards"] = list(shards)
    return results


def _ratio(correct: int, total: int) -> dict[str, Any]:
    return {"correct": correct, "total": total, "rate": (correct / total) if total else None}


def score(
    predictions: Sequence[Prediction],
    *,
    agent: str = "",
    dataset: str = "",
    n: int | None = None,
    seed: int = 0,
    quota: Mapping[str, float] | None = None,
    skipped: Sequence[str] = (),
) -> dict[str, Any]:
    """The card's metrics over ``predictions``."""
    exact = sum(p.exact for p in predictions)
    same_type = sum(_code(p.predicted) == _code(p.recorded) for p in predictions)
    tp = [p for p in predictions if p.group == "tp"]
    tp_label = sum(
        _code(p.predicted) in "TP" and parse_action(p.predicted).label == parse_action(p.recorded).label
        for p in tp
        if _code(p.predicted) != "?"
    )
    groups = {g: _ratio(sum(p.exact for p in predictions if p.group == g), sum(p.group == g for p in predictions)) for g in GROUPS}
    failures = {"wrong_action": 0, "wrong_direction": 0}
    confusion: dict[str, int] = {}
    for p in predictions:
        if p.group != "scroll" or p.exact:
            continue
        got = _code(p.predicted)
        failures["wrong_direction" if got in SCROLL_CODES else "wrong_action"] += 1
        key = f"{_code(p.recorded)}->{got}"
        confusion[key] = confusion.get(key, 0) + 1
    latencies = [p.latency_s for p in predictions]
    return {
        "agent": agent,
        "dataset": dataset,
        "n_requested": n,
        "seed": seed,
        "quota": dict(quota or {}),
        "n": len(predictions),
        "exact": _ratio(exact, len(predictions)),
        "action_type": _ratio(same_type, len(predictions)),
        "tap_label": _ratio(tp_label, len(tp)),
        "groups": groups,
        "scroll_failures": failures,
        "scroll_confusion": dict(sorted(confusion.items(), key=lambda kv: (-kv[1], kv[0]))),
        "latency_s": {
            "p50": statistics.median(latencies) if latencies else None,
            "avg": statistics.fmean(latencies) if latencies else None,
            "max": max(latencies) if latencies else None,
        },
        "skipped": list(skipped),
        "predictions": [
            {
                "episode_id": p.episode_id,
                "t": p.t,
                "task": p.task,
                "group": p.group,
                "recorded": p.recorded,
                "predicted": p.predicted,
                "exact": p.exact,
            }
            for p in predictions
        ],
    }


def _fmt(r: Mapping[str, Any]) -> str:
    total = r["total"]
    if not total:
        return "0/0 = n/a"
    return f"{r['correct']}/{total} = {100 * r['correct'] / total:.1f}%"


def _shards_text(results: Mapping[str, Any]) -> str:
    shards = results.get("shards")
    return f" shards {','.join(map(str, shards))}" if shards else ""


def offline_markdown(results: Mapping[str, Any]) -> str:
    """The results in the model card's layout."""
    quota = results.get("quota") or {}
    quota_text = ",".join(f"{g}={w:g}" for g, w in quota.items() if w) if quota else "all"
    lines = [
        f"# Offline action evaluation: {results.get('agent', '')}",
        "",
        f"Data: {results.get('dataset', '')}{_shards_text(results)}, n={results['n']}, seed {results.get('seed')}, quota {quota_text}",
        "",
        "| Metric | Result |",
        "|---|---|",
        f"| Exact action string | {_fmt(results['exact'])} |",
        f"| Action type | {_fmt(results['action_type'])} |",
        f"| Tap/long-press element label | {_fmt(results['tap_label'])} |",
        "",
        "Per group:",
        "",
        "| Group | Result |",
        "|---|---|",
    ]
    lines += [f"| {GROUP_TITLES[g]} | {_fmt(r)} |" for g, r in results["groups"].items()]
    lines += [
        "",
        f"scroll_failures: {dict(results['scroll_failures'])}",
        f"scroll_confusion: {dict(results['scroll_confusion'])}",
    ]
    lat = results.get("latency_s") or {}
    if lat.get("p50") is not None:
        lines += ["", f"Latency: p50={lat['p50']:.3g}s, avg={lat['avg']:.3g}s, max={lat['max']:.3g}s"]
    if results.get("skipped"):
        lines += ["", f"Skipped (episode not replayable for a privileged agent): {len(results['skipped'])}"]
    return "\n".join(lines) + "\n"


__all__ = [
    "CARD_PROTOCOL",
    "DEFAULT_QUOTA",
    "GROUPS",
    "GROUP_TITLES",
    "Prediction",
    "candidate_steps",
    "canonical",
    "episode_shard",
    "evaluate_offline",
    "group_of",
    "offline_markdown",
    "oracle_trace",
    "parse_quota",
    "sample_steps",
    "score",
]
