"""Supervised fine-tuning of the reference agent as its model card trains it.

Each micro-batch is drawn by the card's quota over action groups (``tp=5,k=2,scroll=2,wait=2,
system=1``) from steps with at least ``min_history`` history frames; each example's prompt is the
agent's own (card limits: history images 232 px + 16, current 464 px + 32, tree 4,000 characters,
2,600 tokens); the loss is computed on the answer positions only
(:class:`~cerebellum_gym.agents.qwen_scorer.ActionScorer`: ``logits_to_keep``, each position
masked by the constraint, so it trains exactly the distribution the decoder samples):

- the focused loss: the answer tokens' negative log-likelihood, the first one (the action code)
  weighted ``action_weight`` (2.0), averaged over the weights;
- the margin loss: ``margin_weight * relu(margin_target - margin)`` (0.25, 8.0), where ``margin``
  is the gold code's logit minus the best logit of another legal code at the first position.

Gradients accumulate over ``grad_accum`` micro-batches (the card: 4, effective batch 48 = 12 x 4).
AdamW on a CPU; the card's paged 8-bit AdamW (bitsandbytes) on a GPU. ``eval-offline`` on a
held-out dataset (the card's groups and metrics) runs every ``eval_every`` steps as the regression
check. See :mod:`cerebellum_gym.training.common` for checkpoints and ``--resume``.

Example (the tiny local model; real runs pass ``Qwen/Qwen3.5-0.8B``)::

    config = SFTConfig(base="tiny-qwen", data="runs/oracle-data", out="runs/sft", steps=100, min_history=0)
    summary = train_sft(config)
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from cerebellum_gym.agents.qwen_prompt import CARD_LIMITS, PromptLimits
from cerebellum_gym.datasets.offline import DEFAULT_QUOTA, parse_quota
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.training.common import (
    LoraSettings,
    Progress,
    RunLog,
    best_checkpoint,
    evaluating,
    latest_checkpoint,
    prepare_out,
    start_run,
    trainable_parameters,
    write_best,
    write_checkpoint,
    write_curves,
)
from cerebellum_gym.training.examples import Example, load_examples
from cerebellum_gym.training.prompt_cache import ItemCache
from cerebellum_gym.training.quota import QUOTA_MODES, make_sampler

__all__ = ["LR_SCHEDULES", "SFTConfig", "learning_rate", "offline_check", "sft_loss", "train_sft"]


@dataclass
class SFTConfig:
    """Every setting of ``cerebellum-gym train sft`` (defaults: the model card's).

    Attributes:
        base: the base model (id or folder). data: a dataset folder or an SFT export.
        out: the run folder. init_adapter: the adapter to start from (never written to);
            ``None``: a new LoRA (or DoRA) adapter of ``lora``'s shape.
        steps: optimizer steps. batch_size: examples per micro-batch. grad_accum: micro-batches
            per optimizer step. lr, weight_decay, max_grad_norm, warmup_steps: the optimizer's.
        lr_schedule: ``constant`` (the card's: ``lr`` after the warm-up) or ``cosine`` (from
            ``lr`` after the warm-up down to a tenth of it at ``steps``).
        optimizer: ``auto`` (paged 8-bit AdamW on CUDA with bitsandbytes, AdamW otherwise),
            ``adamw`` or ``paged_adamw_8bit``.
        action_weight, margin_weight, margin_target: the loss (see the module docstring).
        constrained_loss: score under the constraint (``False``: the plain softmax).
        quota: rows per group of each micro-batch (``quota_mode`` ``fixed``, the card's
            reading: :mod:`.quota`) or the sampler's group weights (``weights``). history_len, min_history: frames shown at most,
            and at least frames a step needs to be trained on. limits: the prompt limits (the
            card's; ``history_len`` overrides theirs).
        use_images: read screenshots. only_success: train only on successful episodes.
        eval_data: a held-out dataset for the ``eval-offline`` regression check (``None``: none).
        eval_every, eval_n, eval_seed, eval_quota: when and how it runs (the card's n=100, seed 44103).
        eval_max_text_tokens: token cap while the check decodes (``None``: the env's text limit).
        save_every: checkpoint every this many steps (and at the end). seed: sampling seed.
        keep_best: keep the adapter of the best check so far (exact action; the earlier step on
            a tie) as ``OUT/checkpoints/best-step-NNNNNN`` (named in ``OUT/best``) whatever
            ``save_every`` is: a check between checkpoints would otherwise name a step whose
            weights are gone.
        device, dtype: where and how the model runs. progress: show a progress bar.
        cache_prompts: encoded prompts kept in memory at most.
        cache_mb: megabytes they may hold at most (screenshots kept compressed; rows beyond
            the budget are encoded again when drawn).
        time_limit_s: end (with a checkpoint) once this many seconds of training have passed.
    """

    base: str
    data: str
    out: str
    init_adapter: str | None = None
    steps: int = 100
    batch_size: int = 12
    grad_accum: int = 4
    lr: float = 1e-4
    weight_decay: float = 0.0
    max_grad_norm: float = 1.0
    warmup_steps: int = 0
    lr_schedule: str = "constant"
    optimizer: str = "auto"
    action_weight: float = 2.0
    margin_weight: float = 0.25
    margin_target: float = 8.0
    constrained_loss: bool = True
    quota: str = DEFAULT_QUOTA
    quota_mode: str = "fixed"
    history_len: int = 4
    min_history: int = 4
    limits: PromptLimits = field(default_factory=lambda: CARD_LIMITS)
    lora: LoraSettings = field(default_factory=LoraSettings)
    use_images: bool = True
    only_success: bool = True
    eval_data: str | None = None
    eval_every: int = 50
    eval_n: int | None = 100
    eval_seed: int = 44103
    eval_quota: str = DEFAULT_QUOTA
    eval_max_text_tokens: int | None = None
    save_every: int = 50
    keep_best: bool = True
    seed: int = 0
    device: str = "auto"
    dtype: str = "auto"
    progress: bool = True
    cache_prompts: int = 4096
    cache_mb: float = 2048.0
    time_limit_s: float | None = None
    gradient_checkpointing: bool = False

    def check(self) -> None:
        """Raises :class:`CerebellumError` for settings that cannot run."""
        for name in ("steps", "batch_size", "grad_accum", "save_every", "eval_every"):
            if getattr(self, name) < 1:
                raise CerebellumError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(self, name)}")
        if self.history_len < 1 or self.min_history < 0:
            raise CerebellumError("--history-len must be at least 1 and --min-history at least 0")
        if self.min_history > self.history_len:
            raise CerebellumError(
                f"--min-history {self.min_history} exceeds --history-len {self.history_len}: no step could be shown with that many frames"
            )
        if self.lr <= 0:
            raise CerebellumError(f"--lr must be > 0, got {self.lr}")
        if self.lr_schedule not in LR_SCHEDULES:
            raise CerebellumError(f"unknown --lr-schedule {self.lr_schedule!r}; use {' or '.join(LR_SCHEDULES)}")
        if self.cache_mb < 0:
            raise CerebellumError(f"--cache-mb must be >= 0, got {self.cache_mb}")
        parse_quota(self.quota)
        parse_quota(self.eval_quota)
        if self.quota_mode not in QUOTA_MODES:
            raise CerebellumError(f"unknown --quota-mode {self.quota_mode!r}; use {' or '.join(QUOTA_MODES)}")


#: The learning-rate schedules :func:`learning_rate` knows.
LR_SCHEDULES: Final = ("constant", "cosine")


def learning_rate(config: SFTConfig, step: int) -> float:
    """The learning rate of optimizer step ``step`` (0-based): a linear warm-up over
    ``warmup_steps``, then ``lr`` (``constant``) or a cosine from ``lr`` to ``lr / 10`` at
    ``steps`` (``cosine``)."""
    if config.warmup_steps and step < config.warmup_steps:
        return config.lr * (step + 1) / config.warmup_steps
    if config.lr_schedule == "cosine":
        span = max(1, config.steps - config.warmup_steps)
        progress = min(1.0, (step - config.warmup_steps) / span)
        return config.lr * (0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * progress)))
    return config.lr


def sft_loss(out: Any, *, action_weight: float, margin_weight: float, margin_target: float) -> tuple[Any, dict[str, float]]:
    """The card's loss on one scored micro-batch (:class:`ScoreOutput`), and its parts."""
    import torch

    weights = out.token_mask.float()
    weights[:, 0] = weights[:, 0] * action_weight
    nll = -(out.token_logprobs * weights).sum() / weights.sum()
    valid = ~torch.isnan(out.code_margin)
    if valid.any():
        hinge = torch.relu(margin_target - out.code_margin[valid]).mean()
        margin_mean = float(out.code_margin[valid].mean().item())
    else:
        hinge = nll.new_zeros(())
        margin_mean = float("nan")
    loss = nll + margin_weight * hinge
    return loss, {"nll": float(nll.item()), "margin_loss": float(hinge.item()), "code_margin": margin_mean}


def offline_check(
    agent: Any, data: str, *, n: int | None, seed: int, quota: str, on_step: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """``eval-offline`` of the model as it is now (greedy), the card's metrics; ``on_step(i, n)``
    after each scored step."""
    from cerebellum_gym.datasets.offline import evaluate_offline

    results = evaluate_offline(agent, data, n=n, seed=seed, quota=quota, on_step=on_step)
    flat = {
        "exact": results["exact"]["rate"],
        "action_type": results["action_type"]["rate"],
        "tap_label": results["tap_label"]["rate"],
        "n": results["n"],
    }
    flat.update({f"group_{g}": r["rate"] for g, r in results["groups"].items()})
    return {"flat": flat, "results": results}


class _Items:
    """Examples as scorer rows, built on demand and kept compactly (:class:`.ItemCache`: the
    screenshots compressed, the patches made again when drawn) at most ``size`` rows and
    ``budget`` bytes; examples the constraint could never decode (a label the cut tree hides)
    are remembered and skipped."""

    def __init__(self, scorer: Any, examples: list[Example], size: int, budget: int) -> None:
        self.scorer = scorer
        self.examples = examples
        self.cache = ItemCache(scorer.agent.image_processor, budget, size)
        self.illegal: dict[int, str] = {}

    def get(self, index: int) -> Any:
        from cerebellum_gym.agents.qwen_scorer import IllegalAnswer

        if index in self.illegal:
            return None
        item = self.cache.get(index)
        if item is not None:
            return item
        example = self.examples[index]
        try:
            item = self.scorer.item(example.observation(), example.action, step=example.step)
        except IllegalAnswer as exc:
            self.illegal[index] = str(exc)
            return None
        self.cache.put(index, item)
        return item


def train_sft(config: SFTConfig, *, resume: bool = False, stop_after: int | None = None) -> dict[str, Any]:
    """Run (or with ``resume`` continue) SFT; returns the summary (also ``OUT/summary.json``).

    ``stop_after`` ends the run after that many optimizer steps of this call (a test's stand-in
    for a kill; checkpoints as usual).

    Raises:
        CerebellumError: bad settings or data, an adapter made for another base, a run folder
            that holds the starting adapter or (without ``resume``) another run.
    """
    import torch

    from cerebellum_gym.agents.qwen_scorer import ActionScorer

    config.check()
    root = prepare_out(config.out, config.init_adapter, resume=resume)
    examples, counts = load_examples(
        config.data, use_images=config.use_images, only_success=config.only_success, min_history=config.min_history
    )
    sampler = make_sampler(examples, config.quota, config.seed, config.quota_mode)
    run = start_run(root, config, resume=resume)
    agent, model, optimizer, fingerprint, optimizer_name = run.agent, run.agent.model, run.optimizer, run.fingerprint, run.optimizer_name
    start, checkpoint = run.start, run.checkpoint
    best: dict[str, Any] = run.state.get("best") or {"exact": None, "step": None}
    run_info = {
        "kind": "sft",
        "config": _jsonable(asdict(config)),
        "examples": counts,
        "optimizer": optimizer_name,
        "base_fingerprint": fingerprint,
    }
    (root / "run.json").write_text(json.dumps(run_info, indent=1) + "\n")
    log = RunLog(root, resume_step=start if checkpoint is not None else None)
    scorer = ActionScorer(agent)
    items = _Items(scorer, examples, config.cache_prompts, int(config.cache_mb * 2**20))
    params = trainable_parameters(model)
    progress = Progress(config.steps, start, "sft", config.progress)
    panels = [("loss", "train", ["loss", "nll", "margin_loss"]), ("eval-offline", "eval", ["exact", "action_type", "tap_label"])]
    ran = 0
    began = time.perf_counter()

    def evaluate(step: int) -> None:
        if config.eval_data is None:
            return
        with evaluating(model):
            check = offline_check(
                agent, config.eval_data, n=config.eval_n, seed=config.eval_seed, quota=config.eval_quota, on_step=progress.checking
            )
        progress.checking(0, 0)  # the check is over: the bar shows the training figures again
        (root / "evals").mkdir(exist_ok=True)
        (root / "evals" / f"step-{step:06d}.json").write_text(json.dumps(check["results"], indent=1) + "\n")
        log.write({"kind": "eval", "step": step, **check["flat"]})
        exact = check["flat"]["exact"]
        if exact is not None and (best["exact"] is None or exact > best["exact"]):
            best.update(exact=exact, step=step)
            if config.keep_best:
                write_best(root, step, model, {"kind": "sft", "base_fingerprint": fingerprint, "base": config.base, "exact": exact})

    try:
        if start == 0 and config.eval_data is not None and not any(r.get("kind") == "eval" and r["step"] == 0 for r in log.records):
            evaluate(0)
        train_began = time.perf_counter()  # the time limit counts training, not the first check
        for step in range(start, config.steps):
            if stop_after is not None and ran >= stop_after:
                break
            tick = time.perf_counter()
            for group in optimizer.param_groups:
                group["lr"] = learning_rate(config, step)
            optimizer.zero_grad(set_to_none=True)
            parts: dict[str, float] = {"loss": 0.0, "nll": 0.0, "margin_loss": 0.0}
            margins: list[float] = []
            tokens = rows = 0
            for micro in range(config.grad_accum):
                batch = [it for it in (items.get(i) for i in sampler.draw(step, micro, config.batch_size)) if it is not None]
                if not batch:
                    continue
                out = scorer.score(batch, constrained=config.constrained_loss)
                loss, got = sft_loss(
                    out, action_weight=config.action_weight, margin_weight=config.margin_weight, margin_target=config.margin_target
                )
                (loss / config.grad_accum).backward()
                parts["loss"] += float(loss.item()) / config.grad_accum
                parts["nll"] += got["nll"] / config.grad_accum
                parts["margin_loss"] += got["margin_loss"] / config.grad_accum
                if got["code_margin"] == got["code_margin"]:
                    margins.append(got["code_margin"])
                tokens += sum(len(it.prompt.input_ids) + len(it.token_ids) for it in batch)
                rows += len(batch)
            if rows == 0:
                raise CerebellumError(
                    f"no example the constraint can decode was drawn at step {step + 1}: {next(iter(items.illegal.values()), '')}"
                )
            norm = torch.nn.utils.clip_grad_norm_(params, config.max_grad_norm) if config.max_grad_norm > 0 else None
            optimizer.step()
            done = step + 1
            ran += 1
            seconds = time.perf_counter() - tick
            record = {
                "kind": "train",
                "step": done,
                **parts,
                "code_margin": sum(margins) / len(margins) if margins else None,
                "grad_norm": float(norm) if norm is not None else None,
                "lr": optimizer.param_groups[0]["lr"],
                "rows": rows,
                "tokens": tokens,
                "tokens_per_s": tokens / seconds if seconds > 0 else None,
                "step_s": seconds,
                "illegal_examples": len(items.illegal),
            }
            log.write(record)
            progress.update(loss=parts["loss"], nll=parts["nll"])
            if done % config.eval_every == 0 or done == config.steps:
                evaluate(done)
            out_of_time = config.time_limit_s is not None and time.perf_counter() - train_began > config.time_limit_s
            if done % config.save_every == 0 or done == config.steps or out_of_time:
                write_checkpoint(
                    root, done, model, optimizer, {"kind": "sft", "base_fingerprint": fingerprint, "best": best, "base": config.base}
                )
                write_curves(root / "curves.png", log.records, panels)
            if out_of_time:
                if done % config.eval_every and done != config.steps:
                    evaluate(done)
                break
    finally:
        progress.close()
        log.close()
    last = latest_checkpoint(root)
    summary = {
        "out": str(root),
        "steps_done": (int(json.loads((last / "trainer_state.json").read_text())["step"]) if last is not None else start),
        "steps_this_call": ran,
        "wall_s": time.perf_counter() - began,
        "examples": counts,
        "illegal_examples": len(items.illegal),
        "last_checkpoint": str(last) if last is not None else None,
        "best_offline": best,
        "best_checkpoint": str(best_checkpoint(root)) if config.keep_best and best_checkpoint(root) is not None else None,
        "final_eval": next((r for r in reversed(log.records) if r.get("kind") == "eval"), None),
    }
    (root / "summary.json").write_text(json.dumps(summary, indent=1, default=str) + "\n")
    return summary


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)
