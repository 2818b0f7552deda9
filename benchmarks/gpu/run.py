"""The training stack on a GPU, in one prepared run. Prints one JSON line.

Run (on a lent GPU machine, under ten minutes on one H200; ``--timeout`` ends it cleanly)::

    pip install -e ".[train-gpu]"      # the fast Gated DeltaNet kernels and bitsandbytes
    python benchmarks/gpu/run.py --timeout 540
    python benchmarks/gpu/run.py --tiny          # the same phases on a CPU at tiny shape (CI)

Phases, each timed on its own, with a Qwen3.5 policy built here (no download: Qwen3.5-0.8B's
shape from its published configuration, random bfloat16 weights, rank-16 LoRA; ``--tiny``: the
tiny test model in float32, rank 4):

- ``sft``: one micro-batch of the card's shape (``--batch`` 12 rows of ``--seq-len`` 2,600
  prompt tokens: real simulator observations at the card's limits, lengthened with tree-like
  text), the card's loss (action weight 2.0, margin 0.25/8.0), backward, the optimizer step
  (the card's paged 8-bit AdamW when bitsandbytes is there), gradient checkpointing: median step
  seconds, tokens/s and peak GPU memory;
- ``dpo``: one trajectory-level DPO step on a pair of 4-step trajectories (the reference by
  switching the adapter off), backward and the optimizer step;
- ``rl``: sampled decoding on the model's device with a seeded CPU generator (as ``train rl``
  samples), the clipped objective's backward and the optimizer step;
- ``decode``: constrained greedy decoding, p50 latency of one ``act_batch`` at batch 1 and 16.

A phase that fails or is cut by ``--timeout`` is reported with its error; the line always
prints. ``kernels`` says whether the fast Gated DeltaNet kernels were importable.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import signal
import statistics
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import torch

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents.qwen_agent import FAST_KERNELS, QwenActionAgent
from cerebellum_gym.agents.qwen_prompt import CARD_LIMITS
from cerebellum_gym.agents.qwen_scorer import ActionScorer, ScoreItem
from cerebellum_gym.training.common import build_optimizer, enable_checkpointing
from cerebellum_gym.training.rl import column
from cerebellum_gym.training.rl_qwen import QwenRLPolicy
from cerebellum_gym.training.sft import sft_loss

# The SFT step's prompts are benchmarks/perf/train_step.py's: real observations, lengthened.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "perf"))
from train_step import build_models, lengthen, recorded


class Cut(BaseException):
    """The run's time is up (a BaseException: code between here and there that catches
    ``Exception``, as gymnasium's checker does, must not swallow it)."""


class Clock:
    """Timing that waits for the device, and its peak memory."""

    def __init__(self, device: str) -> None:
        self.cuda = device.startswith("cuda")

    def sync(self) -> None:
        if self.cuda:
            torch.cuda.synchronize()

    def reset_peak(self) -> None:
        if self.cuda:
            torch.cuda.reset_peak_memory_stats()

    def peak_gb(self) -> float | None:
        return round(torch.cuda.max_memory_allocated() / 2**30, 3) if self.cuda else None

    def median_s(self, fn: Callable[[], Any], repeats: int) -> float:
        fn()  # warm-up
        times = []
        for _ in range(repeats):
            self.sync()
            tick = time.perf_counter()
            fn()
            self.sync()
            times.append(time.perf_counter() - tick)
        return statistics.median(times)


def phase_sft(agent: QwenActionAgent, clock: Clock, args: argparse.Namespace) -> dict[str, Any]:
    model = agent.model
    if args.gradient_checkpointing:
        enable_checkpointing(model)
    model.train()
    optimizer, name = build_optimizer(model, "auto", 1e-4, 0.0)
    scorer = ActionScorer(agent)
    filler = agent.tokenizer('[AB] TextView "Settings"\n[CD] Button "Network & internet"\n', add_special_tokens=False)["input_ids"]
    items = []
    for obs, action, number in recorded(args.batch):
        item = scorer.item(obs, action, step=number)
        items.append(ScoreItem(lengthen(item.prompt, filler, args.seq_len), item.constraint, item.token_ids))
    tokens = sum(len(it.prompt.input_ids) + len(it.token_ids) for it in items)

    def step() -> None:
        optimizer.zero_grad(set_to_none=True)
        loss, _ = sft_loss(scorer.score(items), action_weight=2.0, margin_weight=0.25, margin_target=8.0)
        loss.backward()
        optimizer.step()

    clock.reset_peak()
    seconds = clock.median_s(step, args.repeats)
    return {
        "batch": len(items),
        "prompt_tokens_max": max(len(it.prompt.input_ids) for it in items),
        "images": sum(len(it.prompt.image_tokens) for it in items),
        "optimizer": name,
        "step_s": round(seconds, 4),
        "tokens_per_s": round(tokens / seconds, 1),
        "peak_mem_gb": clock.peak_gb(),
    }


def phase_dpo(agent: QwenActionAgent, clock: Clock, args: argparse.Namespace) -> dict[str, Any]:
    model = agent.model
    model.train()
    optimizer, _ = build_optimizer(model, "auto", 5e-5, 0.0)
    scorer = ActionScorer(agent)
    steps = recorded(8)
    chosen = [scorer.item(o, a, step=s) for o, a, s in steps[:4]]
    rejected = [scorer.item(o, "W", step=s) for o, _, s in steps[4:]]
    beta = 0.1

    def step() -> None:
        with torch.no_grad(), model.disable_adapter():
            c_ref = scorer.score(chosen).logprob.sum()
            r_ref = scorer.score(rejected).logprob.sum()
        optimizer.zero_grad(set_to_none=True)
        margin = (scorer.score(chosen).logprob.sum() - c_ref) - (scorer.score(rejected).logprob.sum() - r_ref)
        (-torch.nn.functional.logsigmoid(beta * margin)).backward()
        optimizer.step()

    clock.reset_peak()
    seconds = clock.median_s(step, args.repeats)
    return {"pair_steps": [len(chosen), len(rejected)], "step_s": round(seconds, 4), "peak_mem_gb": clock.peak_gb()}


def phase_rl(agent: QwenActionAgent, clock: Clock, args: argparse.Namespace) -> dict[str, Any]:
    agent.model.eval()  # as train rl: sampling and scoring see the same function
    policy = QwenRLPolicy(agent, "bench")
    optimizer = torch.optim.AdamW(policy.parameters(), lr=1e-5)
    observations = [o for o, _, _ in recorded(args.rl_batch)]
    generator = torch.Generator().manual_seed(0)  # a CPU generator, whatever the model's device

    def step() -> None:
        samples = policy.sample(observations, temperature=1.0, generator=generator)
        logp, mask = policy.token_logprobs(samples, temperature=1.0)
        old = logp.detach()
        adv = column([1.0 if i % 2 else -1.0 for i in range(len(samples))], logp)
        ratio = torch.exp(logp - old)
        surrogate = -torch.minimum(ratio * adv, torch.clamp(ratio, 0.8, 1.2) * adv)
        weight = mask.to(logp.dtype)
        optimizer.zero_grad(set_to_none=True)
        ((surrogate * weight).sum() / weight.sum()).backward()
        optimizer.step()

    clock.reset_peak()
    seconds = clock.median_s(step, args.repeats)
    return {"episodes_steps": len(observations), "step_s": round(seconds, 4), "peak_mem_gb": clock.peak_gb()}


def phase_decode(agent: QwenActionAgent, clock: Clock, args: argparse.Namespace) -> dict[str, Any]:
    agent.model.eval()
    observations = [o for o, _, _ in recorded(16)]
    out: dict[str, Any] = {}
    for size in (1, 16):
        times = []
        for r in range(args.repeats + 1):
            agent.reset()
            clock.sync()
            tick = time.perf_counter()
            agent.act_batch(observations[:size])
            clock.sync()
            if r:  # the first is a warm-up
                times.append(time.perf_counter() - tick)
        out[f"p50_s_batch{size}"] = round(statistics.median(times), 4)
    return out


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`Cut` in the main thread once ``seconds`` have passed."""

    def cut(signum: int, frame: Any) -> None:
        raise Cut(f"cut at the --timeout of {seconds:.0f} s")

    previous = signal.signal(signal.SIGALRM, cut)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


PHASES: dict[str, Callable[[QwenActionAgent, Clock, argparse.Namespace], dict[str, Any]]] = {
    "sft": phase_sft,
    "dpo": phase_dpo,
    "rl": phase_rl,
    "decode": phase_decode,
}


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--tiny", action="store_true", help="the tiny test model in float32 on the CPU, at tiny shape")
    parser.add_argument("--device", default="auto", help="auto (CUDA when there is one), cpu, cuda")
    parser.add_argument("--timeout", type=float, default=540.0, help="seconds for the whole run; what is left is reported as cut")
    parser.add_argument("--batch", type=int, default=None, help="SFT rows per micro-batch (default: 12; --tiny 2)")
    parser.add_argument("--seq-len", type=int, default=None, help="SFT prompt tokens per row (default: 2600; --tiny 0: as built)")
    parser.add_argument("--rl-batch", type=int, default=None, help="RL steps sampled and trained per update (default: 16; --tiny 2)")
    parser.add_argument("--repeats", type=int, default=None, help="timed repeats per phase after a warm-up (default: 3; --tiny 1)")
    parser.add_argument("--phases", default=",".join(PHASES), help="which phases to run, in order")
    parser.add_argument(
        "--no-gradient-checkpointing", dest="gradient_checkpointing", action="store_false", help="SFT without checkpointing"
    )
    args = parser.parse_args(argv)
    args.batch = args.batch or (2 if args.tiny else 12)
    args.seq_len = args.seq_len if args.seq_len is not None else (0 if args.tiny else 2600)
    args.rl_batch = args.rl_batch or (2 if args.tiny else 16)
    args.repeats = args.repeats or (1 if args.tiny else 3)
    if args.device == "auto":
        args.device = "cpu" if args.tiny or not torch.cuda.is_available() else "cuda"
    return args


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    began = time.perf_counter()
    result: dict[str, Any] = {
        "model": "tiny" if args.tiny else "Qwen3.5-0.8B shape (random weights)",
        "device": torch.cuda.get_device_name() if args.device.startswith("cuda") else "cpu",
        "torch": torch.__version__,
        "kernels": {pip: importlib.util.find_spec(module) is not None for module, pip in FAST_KERNELS.items()},
    }
    clock = Clock(args.device)
    try:
        with deadline(args.timeout), tempfile.TemporaryDirectory() as tmp:
            base, adapter, dtype = build_models(Path(tmp), tiny=args.tiny)
            result["dtype"] = dtype
            for name in args.phases.split(","):
                tick = time.perf_counter()
                agent = None
                try:
                    # A fresh policy per phase: one phase's optimizer state and mode do not leak.
                    agent = QwenActionAgent.from_pretrained(
                        base, adapter, device=args.device, dtype=dtype, limits=CARD_LIMITS, trainable=True, max_text_tokens=24
                    )
                    result[name] = PHASES[name](agent, clock, args)
                except Exception as exc:  # reported in the line; the other phases still run
                    result[name] = {"error": f"{type(exc).__name__}: {exc}"[:400], "where": traceback.format_exc(limit=-2)[-400:]}
                result.setdefault(name, {})["phase_s"] = round(time.perf_counter() - tick, 1)
                del agent
                if clock.cuda:
                    torch.cuda.empty_cache()
    except Cut as exc:
        result["cut"] = str(exc)
    result["wall_s"] = round(time.perf_counter() - began, 1)
    print(json.dumps(result), flush=True)
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
