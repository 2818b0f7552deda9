"""Trajectory-level DPO of the reference agent, as the sibling model card trains it.

Pairs come from ``cerebellum-gym export dpo`` (or straight from a dataset through the same
:func:`~cerebellum_gym.datasets.exports.dpo_pairs`): episodes of the same task and parameters,
the better one (success, then final progress) chosen, exact duplicates dropped by the content hash
of both action sequences. A side's log-probability is the sum over its steps of the constrained
decoder's log-probability of the action taken (:class:`~cerebellum_gym.agents.qwen_scorer.ActionScorer`);
the reference is the starting adapter, frozen: its log-probabilities are computed once, before
the first update, and kept in ``OUT/reference.json``. The loss of a pair is
``-log sigmoid(beta * ((c - c_ref) - (r - r_ref)))``.

Epochs default from where the rejected sides came from: 2 when every pair's rejected side was
recorded by the same agent as its chosen one (on-policy negatives), 1 otherwise (the sibling
card's rule of thumb). Each step logs the DPO loss, the share of its pairs that are saturated
(loss below ``saturated_below``) and the margins; after each epoch an optional evaluation runs
(held-out pair margins, ``eval-offline`` exact action, and an online suite's mean return and
success side by side), and the summary names the checkpoint each metric would pick: they can
disagree.

A trajectory is scored in chunks of ``batch_size`` steps, with gradients taken chunk by chunk
(the pair's loss gradient with respect to each side's summed log-probability is a scalar, known
after one pass without gradients), so memory is one chunk's whatever the trajectory's length.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from cerebellum_gym.agents.qwen_prompt import CARD_LIMITS, PromptLimits
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.training.common import (
    LoraSettings,
    Progress,
    RunLog,
    evaluating,
    latest_checkpoint,
    prepare_out,
    start_run,
    trainable_parameters,
    write_checkpoint,
    write_curves,
)
from cerebellum_gym.training.examples import _png, observation_from_messages
from cerebellum_gym.training.prompt_cache import ItemCache

__all__ = ["DPOConfig", "Pair", "Side", "default_epochs", "load_pairs", "online_eval", "train_dpo"]


@dataclass
class Side:
    """One trajectory of a pair: its steps as ``(load observation, action, step number)``."""

    episode_id: str
    agent: str
    success: bool
    progress: float
    steps: list[tuple[Callable[[], dict[str, Any]], str, int]]


@dataclass
class Pair:
    """A preference pair of trajectories of one task and parameters."""

    hash: str
    task: str
    same_agent: bool
    chosen: Side
    rejected: Side


def _side_from_export(side: dict[str, Any], root: Path, use_images: bool) -> Side:
    steps: list[tuple[Callable[[], dict[str, Any]], str, int]] = []
    if "steps" not in side:
        raise CerebellumError("the DPO export has no per-step prompts: export it again without --no-prompts")
    for index, example in enumerate(side["steps"]):
        paths = [root / p for p in example.get("images", [])]

        def load(messages: Any = example["messages"], paths: list[Path] = paths, step: int = index + 1) -> dict[str, Any]:
            obs = observation_from_messages(messages, [_png(p) for p in paths] if use_images else [None] * len(paths))
            obs["step"] = step - 1
            return obs

        steps.append((load, str(example["target"]), index + 1))
    return Side(str(side.get("episode_id")), str(side.get("agent")), bool(side.get("success")), float(side.get("progress", 0.0)), steps)


def _side_from_episode(episode: Any, use_images: bool) -> Side:
    from cerebellum_gym.datasets.offline import canonical

    steps: list[tuple[Callable[[], dict[str, Any]], str, int]] = []
    for step in episode.steps():
        if step.action is None:
            continue

        def load(step: Any = step) -> dict[str, Any]:
            obs = step.observation(images=use_images)
            obs["step"] = step.t
            return obs

        steps.append((load, canonical(step.action), step.t + 1))
    meta = episode.meta
    return Side(episode.episode_id, str(meta.get("agent")), bool(meta.get("success")), float(meta.get("progress", 0.0) or 0.0), steps)


def load_pairs(source: str | os.PathLike[str], *, use_images: bool = True) -> tuple[list[Pair], dict[str, Any]]:
    """The pairs of a DPO export (folder or ``dpo.jsonl``) or of a dataset folder, and counts.

    Raises:
        CerebellumError: neither, or no pair.
    """
    path = Path(source)
    export = path if path.is_file() else path / "dpo.jsonl"
    pairs: list[Pair] = []
    stats: dict[str, Any] = {}
    if export.is_file():
        with open(export, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                    chosen = _side_from_export(record["chosen"], export.parent, use_images)
                    rejected = _side_from_export(record["rejected"], export.parent, use_images)
                except (ValueError, KeyError, TypeError) as exc:
                    raise CerebellumError(f"{export}:{number}: not a DPO export record ({type(exc).__name__}: {exc})") from None
                pairs.append(Pair(str(record["hash"]), str(record.get("task", "")), bool(record.get("same_agent")), chosen, rejected))
        stats_file = export.parent / "dpo_stats.json"
        if stats_file.is_file():
            stats = json.loads(stats_file.read_text())
    elif path.is_dir():
        from cerebellum_gym.datasets.exports import dpo_pairs
        from cerebellum_gym.datasets.reader import open_dataset

        found, stats = dpo_pairs(open_dataset(path).episodes(complete_only=True))
        for p in found:
            same = p["chosen"].meta.get("agent") == p["rejected"].meta.get("agent")
            pairs.append(
                Pair(p["hash"], p["task"], same, _side_from_episode(p["chosen"], use_images), _side_from_episode(p["rejected"], use_images))
            )
    else:
        raise CerebellumError(f"{source} is neither a DPO export (dpo.jsonl) nor a dataset folder")
    if not pairs:
        raise CerebellumError(f"{source} holds no preference pair (episodes of one task and parameters with different outcomes)")
    stats = {**stats, "loaded": len(pairs), "same_agent": sum(p.same_agent for p in pairs)}
    return pairs, stats


def default_epochs(pairs: Sequence[Pair]) -> int:
    """2 when every rejected side is on-policy (recorded by the chosen side's agent), else 1."""
    return 2 if pairs and all(p.same_agent for p in pairs) else 1


@dataclass
class DPOConfig:
    """Every setting of ``cerebellum-gym train dpo``.

    Attributes:
        base, data, out, init_adapter: as for SFT; ``init_adapter`` is also the frozen reference.
        beta: DPO's temperature. epochs: ``None``: :func:`default_epochs`.
        batch_size: trajectory steps per forward pass. grad_accum: pairs per optimizer step.
        saturated_below: a pair whose loss is below this counts as saturated.
        sft_weight: weight of an NLL term on the chosen side (RPO's regulariser): each pair's
            loss gains ``sft_weight`` times the chosen trajectory's mean per-step negative
            log-likelihood, which keeps the policy's likelihood of good actions from falling
            while the margin grows. ``0`` (the default): plain DPO, as the sibling card trains.
        eval_pairs: held-out pairs (export or dataset) whose margin is measured after each epoch.
        eval_suite: a suite run online after each epoch (mean return and success).
        eval_data, eval_n, eval_seed: ``eval-offline`` after each epoch (exact action).
        eval_max_steps: step budget of the online suite's episodes (``None``: each task's).
        steps: optimizer steps at most (``None``: the epochs' steps).
        time_limit_s: end (with a check and a checkpoint) once this many seconds of training
            have passed.
        cache_mb: host memory the trajectory steps' prompts may hold (kept compressed).
        Others: as :class:`~cerebellum_gym.training.sft.SFTConfig`.
    """

    base: str
    data: str
    out: str
    init_adapter: str | None = None
    beta: float = 0.1
    epochs: int | None = None
    batch_size: int = 12
    grad_accum: int = 4
    lr: float = 5e-5
    weight_decay: float = 0.0
    max_grad_norm: float = 1.0
    optimizer: str = "auto"
    saturated_below: float = 0.01
    sft_weight: float = 0.0
    history_len: int = 4
    limits: PromptLimits = field(default_factory=lambda: CARD_LIMITS)
    lora: LoraSettings = field(default_factory=LoraSettings)
    use_images: bool = True
    eval_pairs: str | None = None
    eval_suite: str | None = None
    eval_data: str | None = None
    eval_n: int | None = 100
    eval_seed: int = 44103
    eval_max_steps: int | None = None
    eval_max_text_tokens: int | None = None
    save_every: int = 50
    seed: int = 0
    device: str = "auto"
    dtype: str = "auto"
    progress: bool = True
    gradient_checkpointing: bool = False
    cache_mb: float = 2048.0
    steps: int | None = None
    time_limit_s: float | None = None


class _TrajectoryScorer:
    """Summed log-probabilities of trajectories, in chunks; undecodable steps skipped and counted."""

    def __init__(self, scorer: Any, batch_size: int, budget: int) -> None:
        self.scorer = scorer
        self.batch_size = batch_size
        # Rows kept packed within ``budget`` bytes (--cache-mb); the rest are encoded again.
        self.items = ItemCache(scorer.agent.image_processor, budget)
        self.skipped: set[tuple[str, int]] = set()

    def rows(self, side: Side) -> list[Any]:
        from cerebellum_gym.agents.qwen_scorer import IllegalAnswer

        out = []
        for k, (load, action, step) in enumerate(side.steps):
            key = (side.episode_id, k)
            if key in self.skipped:
                continue
            item = self.items.get(key)
            if item is None:
                try:
                    item = self.scorer.item(load(), action, step=step)
                except IllegalAnswer:
                    self.skipped.add(key)
                    continue
                self.items.put(key, item)
            out.append(item)
        return out

    def logprob(self, side: Side) -> float:
        import torch

        rows = self.rows(side)
        total = 0.0
        with torch.no_grad():
            for start in range(0, len(rows), self.batch_size):
                total += float(self.scorer.score(rows[start : start + self.batch_size]).logprob.sum())
        return total

    def backward(self, side: Side, coefficient: float) -> None:
        """Accumulate ``coefficient * d(logprob(side))`` into the adapter's gradients."""
        rows = self.rows(side)
        for start in range(0, len(rows), self.batch_size):
            out = self.scorer.score(rows[start : start + self.batch_size])
            (coefficient * out.logprob.sum()).backward()


def _dpo_terms(beta: float, c: float, r: float, c_ref: float, r_ref: float) -> tuple[float, float, float]:
    """The pair's loss, ``z = beta * margin``, and ``dloss/dz``."""
    z = beta * ((c - c_ref) - (r - r_ref))
    loss = math.log1p(math.exp(-z)) if z > -30 else -z  # -log sigmoid(z), stable
    grad = -1.0 / (1.0 + math.exp(z)) if z > -30 else -1.0
    return loss, z, grad


def online_eval(agent: Any, suite: str, run_dir: Path, *, max_steps: int | None = None) -> dict[str, Any]:
    """Run ``suite`` (a name or file) with ``agent`` (greedy): mean return, success, and records."""
    from cerebellum_gym.evaluation.runner import EvalConfig, run_suite
    from cerebellum_gym.evaluation.suites import load_suite
    from cerebellum_gym.evaluation.summary import group_metrics

    loaded = load_suite(suite)
    if max_steps is not None:
        loaded = replace(loaded, max_steps=max_steps, _digest="")
    result = run_suite(agent, loaded, run_dir, EvalConfig(num_envs=1, vectorization="sync", progress="off", screens=0))
    metrics = group_metrics(result.records)
    return {
        "mean_return": metrics["mean_return"],
        "success": metrics["success_rate"],
        "solved": metrics["solved"],
        "n": metrics["n"],
        "records": result.records,
    }


def train_dpo(config: DPOConfig, *, resume: bool = False, stop_after: int | None = None) -> dict[str, Any]:
    """Run (or continue) trajectory-level DPO; returns the summary (also ``OUT/summary.json``).

    Raises:
        CerebellumError: bad settings or data, an adapter made for another base, a run folder
            that holds the starting adapter or (without ``resume``) another run.
    """
    import torch

    from cerebellum_gym.agents.qwen_scorer import ActionScorer

    if config.beta <= 0:
        raise CerebellumError(f"--beta must be > 0, got {config.beta}")
    if config.sft_weight < 0:
        raise CerebellumError(f"--sft-weight must be >= 0, got {config.sft_weight}")
    root = prepare_out(config.out, config.init_adapter, resume=resume)
    pairs, stats = load_pairs(config.data, use_images=config.use_images)
    heldout = load_pairs(config.eval_pairs, use_images=config.use_images)[0] if config.eval_pairs else []
    epochs = config.epochs or default_epochs(pairs)
    run = start_run(root, config, resume=resume)
    agent, model, optimizer, fingerprint, optimizer_name = run.agent, run.agent.model, run.optimizer, run.fingerprint, run.optimizer_name
    scorer = _TrajectoryScorer(ActionScorer(agent), config.batch_size, int(config.cache_mb * 2**20))
    steps_per_epoch = math.ceil(len(pairs) / config.grad_accum)
    total = epochs * steps_per_epoch if config.steps is None else min(epochs * steps_per_epoch, config.steps)
    start, checkpoint = run.start, run.checkpoint
    reference_file = root / "reference.json"
    if reference_file.is_file() and (checkpoint is not None or resume):
        reference = json.loads(reference_file.read_text())
    else:
        if checkpoint is not None:
            raise CerebellumError(f"{reference_file} is missing: the frozen reference cannot be recomputed after training began")
        # The starting adapter, before any update: the frozen reference.
        reference = {}
        scoring = Progress(len(pairs) + len(heldout), 0, "dpo reference", config.progress)
        try:
            for p in [*pairs, *heldout]:
                for which in ("chosen", "rejected"):
                    reference[f"{p.hash}:{which}"] = scorer.logprob(getattr(p, which))
                scoring.update()
        finally:
            scoring.close()
        tmp = reference_file.with_name(".reference.json.tmp")
        tmp.write_text(json.dumps(reference))
        os.replace(tmp, reference_file)
    run_info = {"kind": "dpo", "config": json.loads(json.dumps(asdict(config), default=str)), "pairs": stats, "epochs": epochs}
    run_info.update(optimizer=optimizer_name, base_fingerprint=fingerprint, steps=total)
    (root / "run.json").write_text(json.dumps(run_info, indent=1) + "\n")
    log = RunLog(root, resume_step=start if checkpoint is not None else None)
    params = trainable_parameters(model)
    progress = Progress(total, start, "dpo", config.progress)
    panels = [
        ("DPO loss", "train", ["loss"]),
        ("margins (beta-scaled)", "train", ["margin", "heldout_margin"]),
        ("evaluation", "eval", ["mean_return", "success", "exact", "saturated_steps"]),
    ]
    ran = 0
    began = time.perf_counter()

    def heldout_margin() -> float | None:
        if not heldout:
            return None
        zs = []
        for p in heldout:
            c, r = scorer.logprob(p.chosen), scorer.logprob(p.rejected)
            zs.append(_dpo_terms(config.beta, c, r, reference[f"{p.hash}:chosen"], reference[f"{p.hash}:rejected"])[1])
        return float(np.mean(zs))

    def evaluate(step: int, epoch: int) -> None:
        with evaluating(model):
            run_evaluation(step, epoch)

    def run_evaluation(step: int, epoch: int) -> None:
        # Step 0 is the starting adapter (the reference), never written as a checkpoint here.
        record: dict[str, Any] = {"kind": "eval", "step": step, "epoch": epoch, "checkpoint": f"step-{step:06d}" if step else "start"}
        record["heldout_margin"] = heldout_margin()
        epoch_steps = [r for r in log.records if r.get("kind") == "train" and r.get("epoch") == epoch]
        if epoch_steps:
            record["saturated_steps"] = float(np.mean([r["loss"] < config.saturated_below for r in epoch_steps]))
            record["median_loss"] = float(np.median([r["loss"] for r in epoch_steps]))
        if config.eval_data is not None:
            from cerebellum_gym.training.sft import offline_check

            record["exact"] = offline_check(
                agent, config.eval_data, n=config.eval_n, seed=config.eval_seed, quota="tp=5,k=2,scroll=2,wait=2,system=1"
            )["flat"]["exact"]
        if config.eval_suite is not None:
            online = online_eval(agent, config.eval_suite, root / "evals" / f"step-{step:06d}", max_steps=config.eval_max_steps)
            record.update(mean_return=online["mean_return"], success=online["success"], solved=online["solved"], cases=online["n"])
        log.write(record)

    try:
        if start == 0 and not any(r.get("kind") == "eval" for r in log.records):
            evaluate(0, 0)
        train_began = time.perf_counter()  # the time limit counts training, not the first check
        for step in range(start, total):
            if stop_after is not None and ran >= stop_after:
                break
            epoch, position = divmod(step, steps_per_epoch)
            order = np.random.default_rng([config.seed, epoch]).permutation(len(pairs))
            chunk = [pairs[int(i)] for i in order[position * config.grad_accum : (position + 1) * config.grad_accum]]
            tick = time.perf_counter()
            optimizer.zero_grad(set_to_none=True)
            losses, zs, chosen_delta, rejected_delta, chosen_nll = [], [], [], [], []
            for pair in chunk:
                c, r = scorer.logprob(pair.chosen), scorer.logprob(pair.rejected)
                c_ref, r_ref = reference[f"{pair.hash}:chosen"], reference[f"{pair.hash}:rejected"]
                loss, z, grad = _dpo_terms(config.beta, c, r, c_ref, r_ref)
                # The NLL term: sft_weight * (-c / n), so dloss/dc gains -sft_weight / n.
                n_chosen = max(1, len(scorer.rows(pair.chosen)))
                chosen_nll.append(-c / n_chosen)
                # dloss/dc = grad * beta, dloss/dr = -grad * beta; averaged over the step's pairs.
                scorer.backward(pair.chosen, (grad * config.beta - config.sft_weight / n_chosen) / len(chunk))
                scorer.backward(pair.rejected, -grad * config.beta / len(chunk))
                losses.append(loss)  # the DPO loss alone: what saturates
                zs.append(z)
                chosen_delta.append(c - c_ref)
                rejected_delta.append(r - r_ref)
            norm = torch.nn.utils.clip_grad_norm_(params, config.max_grad_norm) if config.max_grad_norm > 0 else None
            optimizer.step()
            done = step + 1
            ran += 1
            mean_loss = float(np.mean(losses))
            log.write(
                {
                    "kind": "train",
                    "step": done,
                    "epoch": epoch + 1,
                    "loss": mean_loss,
                    "saturated": float(np.mean([v < config.saturated_below for v in losses])),
                    "margin": float(np.mean(zs)),
                    "chosen_logratio": float(np.mean(chosen_delta)),
                    "rejected_logratio": float(np.mean(rejected_delta)),
                    "chosen_nll": float(np.mean(chosen_nll)),
                    "total_loss": mean_loss + config.sft_weight * float(np.mean(chosen_nll)),
                    "grad_norm": float(norm) if norm is not None else None,
                    "pairs": len(chunk),
                    "skipped_steps": len(scorer.skipped),
                    "step_s": time.perf_counter() - tick,
                }
            )
            progress.update(loss=mean_loss)
            end_of_epoch = done % steps_per_epoch == 0
            out_of_time = config.time_limit_s is not None and time.perf_counter() - train_began > config.time_limit_s
            if end_of_epoch or done == total or out_of_time:
                evaluate(done, epoch + 1)
            if end_of_epoch or done % config.save_every == 0 or done == total or out_of_time:
                write_checkpoint(
                    root, done, model, optimizer, {"kind": "dpo", "base_fingerprint": fingerprint, "epoch": epoch + 1, "base": config.base}
                )
                write_curves(root / "curves.png", log.records, panels)
            if out_of_time:
                break
    finally:
        progress.close()
        log.close()
    evals = [r for r in log.records if r.get("kind") == "eval"]
    summary = {
        "out": str(root),
        "epochs": epochs,
        "pairs": stats,
        "steps_done": start + ran,
        "steps_this_call": ran,
        "wall_s": time.perf_counter() - began,
        "skipped_steps": len(scorer.skipped),
        "last_checkpoint": str(latest_checkpoint(root)) if latest_checkpoint(root) else None,
        "evaluations": evals,
        "picks": picks(evals),
    }
    (root / "summary.json").write_text(json.dumps(summary, indent=1, default=str) + "\n")
    (root / "evaluation.md").write_text(evaluation_markdown(evals))
    return summary


def picks(evals: Sequence[dict[str, Any]]) -> dict[str, str | None]:
    """The checkpoint each metric would pick (the first of equals): they can disagree."""
    out: dict[str, str | None] = {}
    for key in ("mean_return", "success", "exact", "heldout_margin"):
        scored = [(r[key], -r["step"], r["checkpoint"]) for r in evals if isinstance(r.get(key), int | float)]
        out[key] = max(scored)[2] if scored else None
    return out


def evaluation_markdown(evals: Sequence[dict[str, Any]]) -> str:
    """Each epoch's checkpoint with mean return and success side by side, and the picks."""

    def cell(value: Any) -> str:
        return f"{value:.4f}" if isinstance(value, float) else ("" if value is None else str(value))

    lines = ["| checkpoint | epoch | mean_return | success | exact | held-out margin | saturated steps |", "|---|---|---|---|---|---|---|"]
    for r in evals:
        keys = ("mean_return", "success", "exact", "heldout_margin", "saturated_steps")
        lines.append(f"| {r['checkpoint']} | {r['epoch']} | " + " | ".join(cell(r.get(k)) for k in keys) + " |")
    chosen = picks(evals)
    lines += ["", *(f"- by {k}: {v}" for k, v in chosen.items() if v is not None)]
    return "\n".join(lines) + "\n"
