"""cerebellum-gym train sft|dpo|rl: fine-tune the reference agent (docs/training.md, docs/rl.md).

Each trainer is one sub-command of ``train``, registered from :data:`TRAINERS` (a name and a
function that adds its parser), so another trainer is one function and one entry::

    def add_rl(sub): ...            # sub.add_parser("rl", ...); parser.set_defaults(handler=...)
    TRAINERS["rl"] = add_rl
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cerebellum_gym.cli import DefaultsHelpFormatter
from cerebellum_gym.cli.datasets_cmd import _count
from cerebellum_gym.errors import CerebellumError


def _positive(text: str) -> int:
    """A whole number >= 1."""
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def add_model_options(parser: argparse.ArgumentParser) -> None:
    """The options every trainer shares: model, adapter, run folder, prompt limits, device."""
    parser.add_argument("--base", required=True, help="the base model (id or folder), e.g. Qwen/Qwen3.5-0.8B")
    parser.add_argument(
        "--init-adapter", default=None, metavar="DIR", help="the adapter to start from (never written to); default: a new one"
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="the run folder (checkpoints, log.jsonl, curves.png)")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out from its last checkpoint")
    parser.add_argument("--device", default="auto", help="auto (CUDA when there is one, else the CPU), cpu, cuda, cuda:1")
    parser.add_argument("--dtype", default="auto", help="auto, float32, bfloat16, float16")
    parser.add_argument(
        "--optimizer",
        default="auto",
        choices=("auto", "adamw", "paged_adamw_8bit"),
        help="auto: paged 8-bit AdamW on CUDA with bitsandbytes, else AdamW",
    )
    parser.add_argument("--lr", type=float, default=1e-4, help="peak learning rate")
    parser.add_argument("--weight-decay", type=float, default=0.0, help="AdamW's weight decay")
    parser.add_argument("--max-grad-norm", type=float, default=1.0, help="clip the gradient norm (0: no clipping)")
    parser.add_argument("--batch-size", type=_positive, default=12, help="examples per micro-batch (the card: 12)")
    parser.add_argument("--grad-accum", type=_positive, default=4, help="micro-batches per optimizer step (the card: 4)")
    parser.add_argument("--save-every", type=_positive, default=50, help="checkpoint every N steps (and at the end)")
    parser.add_argument("--seed", type=_count, default=0, help="seed of sampling, shuffling and a new adapter")
    parser.add_argument("--lora-r", type=_positive, default=16, help="new adapter: rank")
    parser.add_argument("--lora-alpha", type=_positive, default=32, help="new adapter: alpha")
    parser.add_argument("--lora-dropout", type=float, default=0.0, help="new adapter: dropout")
    parser.add_argument("--dora", action="store_true", help="new adapter: DoRA instead of LoRA")
    parser.add_argument("--history-len", type=_positive, default=4, help="history frames shown at most")
    parser.add_argument("--hist-width", type=_positive, default=232, help="history screenshots: width in pixels")
    parser.add_argument("--hist-gutter", type=_count, default=16, help="history screenshots: gutter rows")
    parser.add_argument("--curr-width", type=_positive, default=464, help="current screenshot: width in pixels")
    parser.add_argument("--curr-gutter", type=_count, default=32, help="current screenshot: gutter rows")
    parser.add_argument("--max-raw-tree-chars", type=_positive, default=4000, help="characters of the UI tree shown at most")
    parser.add_argument("--max-seq-len", type=_positive, default=2600, help="prompt tokens at most (frames, then tree, cut to fit)")
    parser.add_argument("--max-pix-rows", type=_positive, default=12000, help="pixel rows of all images at most")
    parser.add_argument("--max-mm-tokens", type=_positive, default=2600, help="image tokens at most")
    parser.add_argument("--text-only", action="store_true", help="read no screenshots")
    parser.add_argument(
        "--eval-max-text-tokens", type=_positive, default=None, help="token cap while checks decode (default: the env's text limit)"
    )
    parser.add_argument("--gradient-checkpointing", action="store_true", help="recompute activations in the backward pass (less memory)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--cache-mb",
        type=float,
        default=2048.0,
        help="host memory encoded prompts may hold (screenshots kept compressed); rows beyond it are encoded again when drawn",
    )


def _limits(args: argparse.Namespace) -> Any:
    from cerebellum_gym.agents.qwen_prompt import PromptLimits

    return PromptLimits(
        history_len=args.history_len,
        history_width=args.hist_width,
        current_width=args.curr_width,
        history_gutter=args.hist_gutter,
        current_gutter=args.curr_gutter,
        max_tree_chars=args.max_raw_tree_chars,
        max_seq_len=args.max_seq_len,
        max_pix_rows=args.max_pix_rows,
        max_mm_tokens=args.max_mm_tokens,
    )


def _lora(args: argparse.Namespace) -> Any:
    from cerebellum_gym.training.common import LoraSettings

    return LoraSettings(r=args.lora_r, alpha=args.lora_alpha, dropout=args.lora_dropout, dora=args.dora)


def common_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The shared options as config keyword arguments."""
    return {
        "base": args.base,
        "out": args.out,
        "init_adapter": args.init_adapter,
        "batch_size": args.batch_size,
        "grad_accum": args.grad_accum,
        "lr": args.lr,
        "weight_decay": args.weight_decay,
        "max_grad_norm": args.max_grad_norm,
        "optimizer": args.optimizer,
        "save_every": args.save_every,
        "seed": args.seed,
        "lora": _lora(args),
        "history_len": args.history_len,
        "limits": _limits(args),
        "use_images": not args.text_only,
        "eval_max_text_tokens": args.eval_max_text_tokens,
        "device": args.device,
        "dtype": args.dtype,
        "progress": not args.no_progress,
        "gradient_checkpointing": args.gradient_checkpointing,
        "cache_mb": args.cache_mb,
    }


def add_sft(sub: Any) -> None:
    p = sub.add_parser(
        "sft",
        help="supervised fine-tuning as the model card trains it",
        description=(
            "Focused loss on the answer positions (constrained), action_weight on the action code, margin loss between the "
            "gold code and the best other legal one, quota sampler over action groups, eval-offline as the regression check."
        ),
        formatter_class=DefaultsHelpFormatter,
    )
    p.add_argument("--data", required=True, help="a dataset folder, or an SFT export (folder or sft.jsonl)")
    add_model_options(p)
    p.add_argument("--steps", type=_positive, default=100, help="optimizer steps")
    p.add_argument("--warmup-steps", type=_count, default=0, help="linear warm-up steps of the learning rate")
    p.add_argument("--lr-schedule", default="constant", choices=("constant", "cosine"), help="after the warm-up (cosine: down to lr/10)")
    p.add_argument("--action-weight", type=float, default=2.0, help="weight of the action code token in the focused loss")
    p.add_argument("--margin-weight", type=float, default=0.25, help="weight of the margin loss")
    p.add_argument(
        "--margin-target",
        type=float,
        default=8.0,
        help="gold code's logit margin the margin loss asks for",
    )
    p.add_argument("--unconstrained-loss", action="store_true", help="score under the plain softmax, not the constraint")
    p.add_argument(
        "--quota", default="tp=5,k=2,scroll=2,wait=2,system=1", help="rows per action group in each micro-batch (scaled to --batch-size)"
    )
    p.add_argument(
        "--quota-mode",
        default="fixed",
        choices=("fixed", "weights"),
        help="fixed: --quota is each micro-batch's composition (the card's); weights: group probabilities, drawn with replacement",
    )
    p.add_argument("--min-history", type=_count, default=4, help="train only on steps with at least this many history frames")
    p.add_argument("--all-episodes", action="store_true", help="also steps of unsuccessful episodes")
    p.add_argument("--eval-data", default=None, metavar="DATASET", help="held-out dataset for the eval-offline regression check")
    p.add_argument("--eval-every", type=_positive, default=50, help="run the regression check every N steps")
    p.add_argument("--eval-n", type=_count, default=100, help="steps the check samples (0: all)")
    p.add_argument("--eval-seed", type=_count, default=44103, help="the check's sampling seed")
    p.add_argument("--eval-quota", default="tp=5,k=2,scroll=2,wait=2,system=1", help="the check's group weights")
    p.add_argument("--max-minutes", type=float, default=None, help="stop (with a checkpoint) after this much training time")
    p.add_argument("--no-keep-best", action="store_true", help="do not keep the best check's adapter (checkpoints/best-step-N)")
    p.add_argument("--cache-prompts", type=_count, default=4096, help="encoded prompts kept in memory at most")
    p.set_defaults(handler=run_sft)


def _check_paths(args: argparse.Namespace) -> None:
    """A mistyped data path is refused before the run folder is made."""
    for flag in ("data", "eval_data", "eval_pairs"):
        path = getattr(args, flag, None)
        if path is not None and not Path(path).exists():
            raise CerebellumError(f"--{flag.replace('_', '-')} {path}: no such file or folder")


def run_sft(args: argparse.Namespace) -> int:
    _check_paths(args)
    from cerebellum_gym.training.sft import SFTConfig, train_sft

    config = SFTConfig(
        data=args.data,
        steps=args.steps,
        warmup_steps=args.warmup_steps,
        lr_schedule=args.lr_schedule,
        keep_best=not args.no_keep_best,
        action_weight=args.action_weight,
        margin_weight=args.margin_weight,
        margin_target=args.margin_target,
        constrained_loss=not args.unconstrained_loss,
        quota=args.quota,
        quota_mode=args.quota_mode,
        min_history=args.min_history,
        only_success=not args.all_episodes,
        eval_data=args.eval_data,
        eval_every=args.eval_every,
        eval_n=args.eval_n or None,
        eval_seed=args.eval_seed,
        eval_quota=args.eval_quota,
        time_limit_s=args.max_minutes * 60 if args.max_minutes else None,
        cache_prompts=args.cache_prompts,
        **common_settings(args),
    )
    summary = train_sft(config, resume=args.resume)
    print(json.dumps(summary, indent=1, default=str))
    return 0


def add_dpo(sub: Any) -> None:
    p = sub.add_parser(
        "dpo",
        help="trajectory-level DPO on pairs from 'export dpo' (content-hash deduplicated)",
        description=(
            "Summed per-step log-probabilities of each side against a frozen reference (the starting adapter), beta; "
            "epochs default from whether the rejected side came from the same model (2) or not (1). Logs the DPO loss, "
            "the share of saturated steps and the margins; --eval-suite reports mean return and success per epoch, side by side."
        ),
        formatter_class=DefaultsHelpFormatter,
    )
    p.add_argument("--data", required=True, help="a DPO export (folder or dpo.jsonl, with prompts), or a dataset folder")
    add_model_options(p)
    p.set_defaults(lr=5e-5)
    p.add_argument("--beta", type=float, default=0.1, help="DPO's temperature on the log-ratio margin")
    p.add_argument("--epochs", type=_positive, default=None, help="default: 2 when every rejected side is on-policy, else 1")
    p.add_argument(
        "--sft-weight", type=float, default=0.0, help="weight of an NLL term on the chosen side (RPO); 0: plain DPO, as the sibling card"
    )
    p.add_argument("--saturated-below", type=float, default=0.01, help="a pair is saturated when its DPO loss is below this")
    p.add_argument("--eval-pairs", default=None, metavar="PATH", help="held-out pairs (a DPO export) whose margins are logged")
    p.add_argument("--eval-suite", default=None, help="a suite (name or file) run online after each epoch")
    p.add_argument("--eval-data", default=None, metavar="DATASET", help="held-out dataset for eval-offline after each epoch")
    p.add_argument("--eval-n", type=_count, default=100, help="steps eval-offline samples (0: all)")
    p.add_argument("--steps", type=_positive, default=None, help="optimizer steps at most (default: all of the epochs')")
    p.add_argument("--max-minutes", type=float, default=None, help="stop (with a check and a checkpoint) after this much training time")
    p.set_defaults(handler=run_dpo)


def run_dpo(args: argparse.Namespace) -> int:
    _check_paths(args)
    from cerebellum_gym.training.dpo import DPOConfig, train_dpo

    settings = common_settings(args)
    config = DPOConfig(
        data=args.data,
        beta=args.beta,
        epochs=args.epochs,
        saturated_below=args.saturated_below,
        sft_weight=args.sft_weight,
        eval_pairs=args.eval_pairs,
        eval_suite=args.eval_suite,
        eval_data=args.eval_data,
        eval_n=args.eval_n or None,
        steps=args.steps,
        time_limit_s=args.max_minutes * 60 if args.max_minutes else None,
        **settings,
    )
    summary = train_dpo(config, resume=args.resume)
    print(json.dumps(summary, indent=1, default=str))
    return 0


def add_rl(sub: Any) -> None:
    from cerebellum_gym.training.rl import add_arguments, run_command

    p = sub.add_parser(
        "rl",
        help="on-policy GRPO with a curriculum over the vector envs (docs/training.md, RL)",
        description=(
            "Groups of episodes of one task and seed under constrained sampling, group-relative advantages, the clipped "
            "objective over the action tokens with a KL penalty to the starting policy; short tasks first, promotion on "
            "recent success, held-out gates every K updates keeping the best checkpoint per metric."
        ),
        formatter_class=DefaultsHelpFormatter,
    )
    add_arguments(p)
    p.set_defaults(handler=run_command)


#: The trainers, in the order help lists them: name -> a function adding its sub-parser.
TRAINERS: dict[str, Callable[[Any], None]] = {"sft": add_sft, "dpo": add_dpo, "rl": add_rl}


def register(sub: Any) -> None:
    """Add ``train`` and one sub-command per entry of :data:`TRAINERS`."""
    train = sub.add_parser("train", help="fine-tune the reference agent: " + ", ".join(TRAINERS), description=__doc__.splitlines()[0])
    trainers = train.add_subparsers(dest="trainer", metavar="TRAINER", required=True)
    for add in TRAINERS.values():
        add(trainers)


__all__ = ["TRAINERS", "CerebellumError", "add_model_options", "common_settings", "register"]
