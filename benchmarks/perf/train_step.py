"""Speed and memory of one SFT optimizer step of the reference agent. Prints one JSON line.

Run::

    python benchmarks/perf/train_step.py --tiny                              # the tiny test model on a CPU
    python benchmarks/perf/train_step.py --device cuda --batch 12 --seq-len 2600 --gradient-checkpointing

One step is what ``cerebellum-gym train sft`` does per micro-batch: the teacher-forced,
constrained pass on the answer positions only (``logits_to_keep``), the card's loss (action weight
2.0, margin 0.25/8.0), backward into the LoRA tensors, and the optimizer step (AdamW; on CUDA the
card's paged 8-bit AdamW when bitsandbytes is installed). Prompts are real simulator observations
at the card's limits (464-px screen, 232-px history frames), lengthened to ``--seq-len`` tokens
with tree-like filler text when shorter (the local tokenizer is not Qwen's, so real prompts come
out at other lengths).

- ``--tiny``: the tiny test model (hidden 64, 2 layers), rank-4 LoRA, on a CPU in seconds.
- default: Qwen3.5-0.8B's real shape from its published configuration, random weights in
  bfloat16 (no download), rank-16 LoRA on every language-model layer: meant for a GPU (the card
  trained on a 12 GB one; the issue's target is batch 12 at 2,600 tokens within 12 GB).

Figures: ``tokens_per_s`` (prompt + answer tokens through forward and backward per second, the
median of ``--repeats`` steps after one warm-up), ``step_s``, ``peak_mem_gb`` (CUDA: the peak
allocated by torch; CPU: the process's peak resident memory).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import torch

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents.qwen_agent import QwenActionAgent
from cerebellum_gym.agents.qwen_prompt import CARD_LIMITS, EncodedPrompt
from cerebellum_gym.agents.qwen_scorer import ActionScorer, ScoreItem
from cerebellum_gym.agents.qwen_tiny import build_lora, build_random_qwen35, build_tiny_qwen35
from cerebellum_gym.training.common import build_optimizer, enable_checkpointing
from cerebellum_gym.training.sft import sft_loss

TASKS = ["ContactsAddContact", "SystemWifiTurnOn", "SystemBrightnessMax", "SystemBluetoothTurnOff"]


def recorded(n: int) -> list[tuple[dict[str, Any], str, int]]:
    """``n`` (observation, oracle action, step number) from oracle episodes at various depths."""
    out: list[tuple[dict[str, Any], str, int]] = []
    seed = 0
    while len(out) < n:
        env = gym.make("Cerebellum-Sim-v0", task=TASKS[seed % len(TASKS)])
        obs, _ = env.reset(seed=seed)
        for t in range(8):
            action = str(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
            out.append((obs, action, t + 1))
            obs, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated or len(out) >= n:
                break
        seed += 1
    return out[:n]


def lengthen(prompt: EncodedPrompt, filler: list[int], seq_len: int) -> EncodedPrompt:
    """``prompt`` with filler tokens put in front until it is ``seq_len`` tokens long."""
    need = seq_len - len(prompt.input_ids)
    if need <= 0:
        return prompt
    extra = (filler * (need // max(1, len(filler)) + 1))[:need]
    return EncodedPrompt(**{**prompt.__dict__, "input_ids": extra + list(prompt.input_ids)})


def build_models(folder: Path, *, tiny: bool) -> tuple[Path, Path, str]:
    """A base model and a LoRA adapter saved in ``folder``, and the dtype to load them in: the
    tiny test model (rank 4, float32), or Qwen3.5-0.8B's shape with random bfloat16 weights
    (rank 16)."""
    if tiny:
        base = build_tiny_qwen35(folder / "base")
        return base, build_lora(base, folder / "lora", r=4, alpha=8), "float32"
    base = build_random_qwen35(folder / "base", dtype=torch.bfloat16)
    return base, build_lora(base, folder / "lora", r=16, alpha=32), "bfloat16"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny", action="store_true", help="the tiny test model on a CPU")
    parser.add_argument("--device", default=None, help="default: cuda when there is one, else cpu")
    parser.add_argument("--batch", type=int, default=None, help="examples per micro-batch (default: 12, --tiny 4)")
    parser.add_argument("--seq-len", type=int, default=None, help="prompt tokens per example (default: 2600, --tiny 0: as built)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--gradient-checkpointing", action="store_true")
    parser.add_argument("--optimizer", default="auto")
    args = parser.parse_args()
    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    batch = args.batch or (4 if args.tiny else 12)
    seq_len = args.seq_len if args.seq_len is not None else (0 if args.tiny else 2600)
    with tempfile.TemporaryDirectory() as tmp:
        base, adapter, dtype = build_models(Path(tmp), tiny=args.tiny)
        agent = QwenActionAgent.from_pretrained(base, adapter, device=device, dtype=dtype, limits=CARD_LIMITS, trainable=True)
    model = agent.model
    if args.gradient_checkpointing:
        enable_checkpointing(model)
    optimizer, optimizer_name = build_optimizer(model, args.optimizer, 1e-4, 0.0)
    scorer = ActionScorer(agent)
    filler = agent.tokenizer('[AB] TextView "Settings"\n[CD] Button "Network & internet"\n', add_special_tokens=False)["input_ids"]
    items: list[ScoreItem] = []
    for obs, action, number in recorded(batch):
        item = scorer.item(obs, action, step=number)
        items.append(ScoreItem(lengthen(item.prompt, filler, seq_len), item.constraint, item.token_ids))
    tokens = sum(len(it.prompt.input_ids) + len(it.token_ids) for it in items)
    if device.startswith("cuda"):
        torch.cuda.reset_peak_memory_stats()

    def step() -> float:
        if device.startswith("cuda"):
            torch.cuda.synchronize()
        tick = time.perf_counter()
        optimizer.zero_grad(set_to_none=True)
        loss, _ = sft_loss(scorer.score(items), action_weight=2.0, margin_weight=0.25, margin_target=8.0)
        loss.backward()
        optimizer.step()
        if device.startswith("cuda"):
            torch.cuda.synchronize()
        return time.perf_counter() - tick

    step()  # warm-up
    times = [step() for _ in range(args.repeats)]
    if device.startswith("cuda"):
        peak = torch.cuda.max_memory_allocated() / 2**30
        name = torch.cuda.get_device_name()
    else:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB on Linux
        name = "cpu"
    median = statistics.median(times)
    base_params = sum(p.numel() for p in model.get_base_model().parameters())
    print(
        json.dumps(
            {
                "model": "tiny" if args.tiny else "Qwen3.5-0.8B shape (random weights)",
                "parameters": base_params,
                "device": name,
                "dtype": dtype,
                "optimizer": optimizer_name,
                "gradient_checkpointing": args.gradient_checkpointing,
                "batch": batch,
                "prompt_tokens": [len(it.prompt.input_ids) for it in items],
                "answer_tokens": [len(it.token_ids) for it in items],
                "images": sum(len(it.prompt.image_tokens) for it in items),
                "tokens_per_step": tokens,
                "step_s": round(median, 4),
                "tokens_per_s": round(tokens / median, 1),
                "peak_mem_gb": round(peak, 3),
                "torch_threads": torch.get_num_threads(),
            }
        )
    )


if __name__ == "__main__":
    main()
