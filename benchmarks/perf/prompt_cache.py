"""Host memory of SFT's prompt cache at the card's image limits. Prints one JSON line.

Run::

    nice -n 10 python benchmarks/perf/prompt_cache.py --prompts 256

Encodes ``--prompts`` distinct simulator observations (oracle episodes over several tasks and
seeds, the card's widths: 464-px screen, 232-px history frames, 4 history frames) with the tiny
test model's tokenizer and its image processor (Qwen's patching: 16-px patches, 2 temporal, 2x2
merge), the way ``train sft`` encodes a row, and keeps them as the trainer does
(:mod:`cerebellum_gym.training.prompt_cache`). Reports, per prompt, the bytes of the encoded form
(``pixel_values`` float32 plus images and ids: what the cache held before) and of the packed form,
the time to pack and to unpack (the cost paid per drawn row; running the image processor
again instead is timed beside it), and the process's resident memory
before and after filling the cache.

``rss_4096_gb_extrapolated`` is an extrapolation, not a run: the resident memory with the model
loaded plus 4,096 times the measured packed bytes per prompt (the prompts of a real SFT set repeat
the same screens as these). ``--cache-mb`` caps the cache anyway (2,048 MB by default).
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

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents.qwen_agent import QwenActionAgent
from cerebellum_gym.agents.qwen_tiny import build_tiny_qwen35
from cerebellum_gym.training.prompt_cache import ByteBudgetCache, PackedPrompt, pack, prompt_nbytes, unpack

TASKS = ("ContactsAddContact", "SystemWifiTurnOn", "ClockStopWatchRunning", "MarkorCreateNote", "ExpenseAddSingle")


def rss_gb() -> float:
    """The current resident memory (Linux ``/proc``), in GB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024 / 1e9
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e9


def observations(n: int) -> list[dict[str, Any]]:
    """``n`` distinct observations after at least 4 steps (4 history frames), oracle play."""
    out: list[dict[str, Any]] = []
    seed = 0
    env = gym.make("Cerebellum-Sim-v0")
    while len(out) < n:
        task = TASKS[seed % len(TASKS)]
        try:
            obs, _ = env.reset(seed=seed, options={"task": task})
        except Exception:  # a task name another catalogue spells differently: skip it
            seed += 1
            continue
        done, step = False, 0
        while not done and len(out) < n:
            obs, _, terminated, truncated, _ = env.step(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
            step += 1
            done = terminated or truncated
            if step >= 4:
                out.append(dict(obs, step=step))
        seed += 1
    env.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prompts", type=int, default=256, help="distinct prompts to encode and cache")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        agent = QwenActionAgent.from_pretrained(build_tiny_qwen35(Path(tmp), seed=0), device="cpu", dtype="float32")
    obs = observations(args.prompts)
    base_rss = rss_gb()
    cache: ByteBudgetCache[PackedPrompt] = ByteBudgetCache(2**62, lambda p: p.nbytes)
    full: list[int] = []
    pack_s: list[float] = []
    shapes: list[tuple[int, ...]] = []
    for i, o in enumerate(obs):
        prompt = agent.encoder.encode(o, step=int(o["step"]))
        full.append(prompt_nbytes(prompt))
        shapes.append(tuple(prompt.pixel_values.shape))
        tick = time.perf_counter()
        cache.put(i, pack(prompt, agent.image_processor))
        pack_s.append(time.perf_counter() - tick)
        del prompt
    filled_rss = rss_gb()
    unpack_s: list[float] = []
    process_s: list[float] = []
    for i in range(min(16, len(obs))):
        tick = time.perf_counter()
        packed = cache.get(i)
        assert packed is not None
        unpack(packed, agent.image_processor)
        unpack_s.append(time.perf_counter() - tick)
        again = agent.encoder.encode(obs[i], step=int(obs[i]["step"]))
        tick = time.perf_counter()
        agent.image_processor(images=again.images, return_tensors="pt")
        process_s.append(time.perf_counter() - tick)
    per_packed = cache.nbytes / len(cache)
    patches = [s[0] for s in shapes]
    print(
        json.dumps(
            {
                "prompts": len(obs),
                "pixel_patches_median": statistics.median(patches),
                "pixel_patches_max": max(patches),
                "encoded_mb_per_prompt": round(statistics.mean(full) / 2**20, 2),
                "packed_mb_per_prompt": round(per_packed / 2**20, 3),
                "ratio": round(statistics.mean(full) / per_packed, 1),
                "pack_ms_median": round(1000 * statistics.median(pack_s), 1),
                "unpack_ms_median": round(1000 * statistics.median(unpack_s), 1),
                "image_processor_ms_median": round(1000 * statistics.median(process_s), 1),
                "rss_gb_model_loaded": round(base_rss, 2),
                "rss_gb_cache_filled": round(filled_rss, 2),
                "rss_4096_gb_extrapolated": round(base_rss + 4096 * per_packed / 1e9, 2),
                "encoded_4096_gb_before": round(4096 * statistics.mean(full) / 1e9, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
