"""Training examples: recorded steps (a project dataset, or its SFT export) as observations with
their gold action, and the card's quota sampler over action groups.

An example is the observation the agent saw, the recorded action (canonical form) and the
absolute step number, so the trainer builds the prompt with the agent's own encoder (the card's
limits, the same cut and history numbering as inference) and the constraint of that prompt.

- A project dataset: every valid step of (by default) successful, complete episodes.
- An SFT export (``sft.jsonl``, from ``cerebellum-gym export sft``): each record's chat messages
  are read back into the observation they were built from (goal, history frames with their
  images, actions and subtrees, current screenshot and tree). An export keeps no action mask:
  every code counts as legal there, and the labels are those its tree shows.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cerebellum_gym.agents.qwen_prompt import observation_from_messages
from cerebellum_gym.core.actions import parse_action
from cerebellum_gym.datasets.offline import GROUPS, canonical, group_of, parse_quota
from cerebellum_gym.errors import CerebellumError, InvalidActionError

__all__ = ["Example", "QuotaSampler", "load_examples", "observation_from_messages"]


@dataclass
class Example:
    """One supervised step.

    Attributes:
        ident: ``episode_id:t``.
        task: the task name.
        action: the recorded action, canonical.
        step: the number of the step about to be taken (1 for an episode's first).
        history: history frames the step has (before the prompt's limits).
        group: the action's quota group (``tp``, ``k``, ``scroll``, ``wait``, ``system``).
        load: builds the observation (images decoded on demand, not kept).
    """

    ident: str
    task: str
    action: str
    step: int
    history: int
    group: str
    load: Callable[[], dict[str, Any]]

    def observation(self) -> dict[str, Any]:
        return self.load()


def _png(path: Path) -> np.ndarray:
    from PIL import Image

    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"))


def _from_export(path: Path, *, use_images: bool) -> list[Example]:
    out: list[Example] = []
    root = path.parent
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                messages = record["messages"]
                target = str(record.get("target") or messages[-1]["content"])
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                raise CerebellumError(f"{path}:{number}: not an SFT export record ({type(exc).__name__}: {exc})") from None
            image_paths = [root / p for p in record.get("images", [])]
            # The history count and step number need no images.
            probe = observation_from_messages(messages, [None] * len(image_paths))
            step = int(record["t"]) + 1 if "t" in record else int(probe["step"]) + 1

            def load(messages: Any = messages, image_paths: list[Path] = image_paths, step: int = step) -> dict[str, Any]:
                shots = [_png(p) for p in image_paths] if use_images else [None] * len(image_paths)
                obs = observation_from_messages(messages, shots)
                obs["step"] = step - 1
                return obs

            out.append(_example(str(record.get("id", f"{path.name}:{number}")), str(record.get("task", "")), target, step, probe, load))
    return out


def _example(ident: str, task: str, action: str, step: int, obs: Mapping[str, Any], load: Callable[[], dict[str, Any]]) -> Example:
    history = int(np.asarray((obs.get("history") or {}).get("mask", ())).sum())
    return Example(ident, task, canonical(action), step, history, group_of(parse_action(action).code), load)


def _from_dataset(root: Path, *, use_images: bool, only_success: bool) -> list[Example]:
    from cerebellum_gym.datasets.reader import open_dataset

    data = open_dataset(root)
    out: list[Example] = []
    for episode in data.episodes(complete_only=True):
        if only_success and not episode.meta.get("success"):
            continue
        for step in episode.steps():
            info = step.info or {}
            if step.action is None or info.get("invalid_action") or info.get("infra_error"):
                continue
            try:
                parse_action(step.action)
            except InvalidActionError:
                continue
            probe = step.observation(images=False)

            def load(step: Any = step) -> dict[str, Any]:
                obs = step.observation(images=use_images)
                obs["step"] = step.t
                return obs

            out.append(_example(f"{episode.episode_id}:{step.t}", str(episode.meta.get("task", "")), step.action, step.t + 1, probe, load))
    return out


def load_examples(
    source: str | os.PathLike[str], *, use_images: bool = True, only_success: bool = True, min_history: int = 0
) -> tuple[list[Example], dict[str, int]]:
    """The examples of ``source`` (a dataset folder, an SFT export folder or its ``sft.jsonl``)
    with at least ``min_history`` history frames, and counts (``steps``, ``kept``,
    ``short_history``).

    Raises:
        CerebellumError: the source is neither, or no step has enough history.
    """
    path = Path(source)
    export = path if path.is_file() else path / "sft.jsonl"
    if export.is_file():
        examples = _from_export(export, use_images=use_images)
    elif path.is_dir():
        examples = _from_dataset(path, use_images=use_images, only_success=only_success)
    else:
        raise CerebellumError(f"{source} is neither a dataset folder nor an SFT export (sft.jsonl)")
    kept = [e for e in examples if e.history >= min_history]
    counts = {"steps": len(examples), "kept": len(kept), "short_history": len(examples) - len(kept)}
    if not examples:
        raise CerebellumError(f"{source} has no trainable step (successful episodes with valid actions)")
    if not kept:
        most = max(e.history for e in examples)
        raise CerebellumError(
            f"no step of {source} has {min_history} history frames (--min-history; its steps have at most {most}): "
            f"record longer episodes or lower --min-history"
        )
    return kept, counts


class QuotaSampler:
    """Draws examples by the card's group quota: each draw picks a group with probability
    proportional to its weight (among groups that have examples), then an example of it
    uniformly, with replacement. Draws depend only on ``(seed, step, micro)``, so a resumed run
    draws what the killed one would have.

    Raises:
        CerebellumError: an unknown group, or a quota that weighs no group the data has.
    """

    def __init__(self, examples: Sequence[Example], quota: str | Mapping[str, float] | None, seed: int) -> None:
        self.weights = parse_quota(quota)
        self.seed = seed
        self.pools: dict[str, list[int]] = {g: [] for g in GROUPS}
        for i, example in enumerate(examples):
            self.pools[example.group].append(i)
        self.live = [g for g in GROUPS if self.pools[g] and self.weights.get(g, 0.0) > 0]
        if not self.live:
            have = ", ".join(f"{g}={len(p)}" for g, p in self.pools.items() if p)
            raise CerebellumError(f"the quota {quota!r} gives weight to no group the data has (it has {have})")
        w = np.array([self.weights[g] for g in self.live], float)
        self.p = w / w.sum()

    def draw(self, step: int, micro: int, size: int) -> list[int]:
        """``size`` example indices for micro-batch ``micro`` of optimizer step ``step``."""
        rng = np.random.default_rng([self.seed, step, micro])
        out = []
        for _ in range(size):
            pool = self.pools[self.live[int(rng.choice(len(self.live), p=self.p))]]
            out.append(pool[int(rng.integers(len(pool)))])
        return out
