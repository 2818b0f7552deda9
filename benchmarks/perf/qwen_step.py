"""Speed of the Qwen3.5 reference agent on real simulator observations. Prints one JSON line.

Run: ``python benchmarks/perf/qwen_step.py [--tiny] [--device cuda] [--dtype bfloat16]``

Builds a model with random weights (no download) and a LoRA adapter, saves both as safetensors
and loads them through the agent's own path (:meth:`QwenActionAgent.from_pretrained`):

- default: Qwen3.5-0.8B's real size, from its published configuration (a small local tokenizer
  stands in for Qwen's, so text takes somewhat more tokens), with a rank-16 LoRA on the
  attention, Gated DeltaNet and MLP projections of all 24 layers;
- ``--tiny``: the tiny test model (hidden 64, 2 layers) with a rank-4 LoRA, on a CPU in seconds.

Observations come from ``Cerebellum-Sim-v0`` episodes (464-px screens, 232-px history frames, the
card's limits). Figures, measured side by side in one run:

- ``p50_s``/``p90_s``: step latency at batch 1 (encode + constrained generate);
- ``batch16_obs_per_s`` and ``single16_obs_per_s``: one ``act_batch`` of 16 vs 16 single calls;
- ``constrained_vs_plain_b1``/``_b16``: constrained generate / plain greedy generate of the same
  number of tokens (time ratio, same inputs);
- ``vision_share``: the vision tower's share of a batch-1 step;
- ``peak_mem_mb``: peak GPU memory (CUDA) or peak resident memory (CPU).

Targets (issue 15): act_batch(16) >= 2x 16 singles; constrained/plain <= 1.05; on a GPU at real
size, p50 <= 0.1 s and >= 50 steps/s at batch 16. The card's own eval: p50 0.47 s.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import torch

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents.qwen_agent import ConstraintProcessor, QwenActionAgent
from cerebellum_gym.agents.qwen_tiny import LORA_TARGETS, build_lora, build_random_qwen35, build_tiny_qwen35

TASKS = ["ContactsAddContact", "SystemWifiTurnOn", "SystemBrightnessMax", "SystemBluetoothTurnOff"]


def observations(n: int) -> list[dict[str, Any]]:
    """``n`` observations from oracle episodes at various depths (history filling up)."""
    out: list[dict[str, Any]] = []
    seed = 0
    while len(out) < n:
        env = gym.make("Cerebellum-Sim-v0", task=TASKS[seed % len(TASKS)])
        obs, _ = env.reset(seed=seed)
        for _ in range(6):
            out.append(obs)
            obs, _, terminated, truncated, _ = env.step(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
            if terminated or truncated or len(out) >= n:
                break
        seed += 1
    return out[:n]


def timed(device: torch.device, fn: Callable[[], Any]) -> tuple[float, Any]:
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    tick = time.perf_counter()
    result = fn()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    return time.perf_counter() - tick, result


def constrained_vs_plain(agent: QwenActionAgent, obs: list[dict[str, Any]], repeats: int) -> float:
    """Time of constrained generate / plain greedy generate of the same number of tokens."""
    device = next(agent.model.parameters()).device
    prompts = [agent.encoder.encode(o) for o in obs]
    constraints = [agent.constraint(o) for o in obs]
    inputs = agent.inputs(prompts)
    width = int(inputs["input_ids"].shape[1])
    common = {"do_sample": False, "pad_token_id": agent.pad_id}

    def constrained() -> Any:
        processor = ConstraintProcessor(constraints, agent.table, width)
        return agent.model.generate(
            **inputs, max_new_tokens=agent.max_text_tokens, eos_token_id=list(agent.table.stop_ids), logits_processor=[processor], **common
        )

    with torch.inference_mode():
        _, out = timed(device, constrained)
        steps = int(out.shape[1]) - width
        plain = {"max_new_tokens": steps, "min_new_tokens": steps, **common}
        agent.model.generate(**inputs, **plain)  # warm
        c = p = 0.0
        for _ in range(repeats):  # interleaved, so drift in machine load hits both alike
            c += timed(device, constrained)[0]
            p += timed(device, lambda: agent.model.generate(**inputs, **plain))[0]
    return c / p


def vision_share(agent: QwenActionAgent, obs: dict[str, Any], repeats: int) -> float:
    """The vision tower's share of a batch-1 step's time."""
    device = next(agent.model.parameters()).device
    model = agent.model.get_base_model() if hasattr(agent.model, "get_base_model") else agent.model
    inner = model.model
    original = inner.get_image_features
    spent = 0.0

    # generate reads this method's signature to pick its arguments: keep the named ones.
    def counted(pixel_values: torch.Tensor, image_grid_thw: torch.Tensor | None = None, **kwargs: Any) -> Any:
        nonlocal spent
        took, result = timed(device, lambda: original(pixel_values, image_grid_thw, **kwargs))
        spent += took
        return result

    inner.get_image_features = counted
    try:
        total = sum(timed(device, lambda: agent.act(obs))[0] for _ in range(repeats))
    finally:
        del inner.get_image_features
    return spent / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny", action="store_true", help="the tiny test model on a CPU, in seconds")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--dtype", default=None, help="default: bfloat16 on CUDA, float32 on CPU")
    parser.add_argument("--attn", default=None, help="attention implementation (sdpa, eager, flash_attention_2)")
    parser.add_argument("--steps", type=int, default=None, help="batch-1 steps timed (default 20, tiny 10)")
    parser.add_argument("--repeats", type=int, default=None, help="repeats of the batch-16 and ratio figures (default 3)")
    args = parser.parse_args()
    auto = "cuda" if torch.cuda.is_available() else "cpu"
    device = torch.device(auto if args.device == "auto" else args.device)
    dtype = args.dtype or ("bfloat16" if device.type == "cuda" else "float32")
    steps = args.steps or (10 if args.tiny else 20)
    repeats = args.repeats or 3
    if device.type == "cpu":
        torch.set_num_threads(1)

    with tempfile.TemporaryDirectory() as tmp:
        tick = time.perf_counter()
        if args.tiny:
            base = build_tiny_qwen35(Path(tmp) / "base")
            adapter = build_lora(base, Path(tmp) / "lora", r=4, alpha=8)
        else:
            base = build_random_qwen35(Path(tmp) / "base", dtype=torch.bfloat16)
            adapter = build_lora(base, Path(tmp) / "lora", r=16, alpha=32, targets=LORA_TARGETS)
        build_s = time.perf_counter() - tick
        agent = QwenActionAgent.from_pretrained(base, adapter, device=str(device), dtype=dtype, attn=args.attn)
        lora_params = sum(p.numel() for n, p in agent.model.named_parameters() if "lora_" in n)
        params = sum(p.numel() for p in agent.model.parameters())
        obs = observations(max(16, steps))
        if device.type == "cuda":
            torch.cuda.reset_peak_memory_stats(device)
        for o in obs[:2]:
            agent.act(o)  # warm up
        agent.act_batch(obs[:16])
        latencies = [timed(device, lambda o=o: agent.act(o))[0] for o in obs[:steps]]
        batch16 = single16 = 0.0
        for _ in range(repeats):
            batch16 += timed(device, lambda: agent.act_batch(obs[:16]))[0]
            single16 += timed(device, lambda: [agent.act(o) for o in obs[:16]])[0]
        ratio_b1 = statistics.median(constrained_vs_plain(agent, [o], repeats) for o in obs[:3])
        ratio_b16 = constrained_vs_plain(agent, obs[:16], repeats)
        share = vision_share(agent, obs[5], repeats)
        prompt_tokens = [len(agent.encoder.encode(o).input_ids) for o in obs[:16]]
        if device.type == "cuda":
            peak = torch.cuda.max_memory_allocated(device) / 2**20
        else:
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
        quantiles = statistics.quantiles(latencies, n=10)
        print(
            json.dumps(
                {
                    "model": "tiny" if args.tiny else "qwen3.5-0.8b-size",
                    "device": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu",
                    "dtype": dtype,
                    "params": params,
                    "lora_params": lora_params,
                    "build_s": round(build_s, 2),
                    "prompt_tokens_median": int(statistics.median(prompt_tokens)),
                    "p50_s": round(statistics.median(latencies), 4),
                    "p90_s": round(quantiles[8], 4),
                    "batch16_obs_per_s": round(16 * repeats / batch16, 2),
                    "single16_obs_per_s": round(16 * repeats / single16, 2),
                    "batch16_vs_single": round(single16 / batch16, 2),
                    "constrained_vs_plain_b1": round(ratio_b1, 3),
                    "constrained_vs_plain_b16": round(ratio_b16, 3),
                    "vision_share": round(share, 3),
                    "peak_mem_mb": round(peak, 1),
                }
            )
        )


if __name__ == "__main__":
    main()
