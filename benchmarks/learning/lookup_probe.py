"""Benchmark: can a small local Qwen3.5 learn the set-of-mark lookup at all, and how fast?

``sft_tiny.py``'s model learns when to tap and when to end, but not which line's label to tap
(docs/training.md). This probe isolates that one skill from SFT, with far denser supervision:

1. Random play (``RandomAgent``, no ``F``/``I``) on every simulator task except ``sft_tiny``'s
   four gives screens; training screens and held-out screens come from different seeds.
2. Each screen's compact tree is followed by ``--queries`` lines ``Find "<name>": <label>``, each
   for a random labelled line of that tree (its first quoted text), so a screen carries that many
   lookups where an SFT example carries one.
3. A small Qwen3.5 built here (``build_small_qwen35``, the SFT benchmark's shape by default)
   trains all its language-model parameters with AdamW on the next-token loss of the query answers'
   label letters only, for ``--minutes``.
4. Every ``--eval-every`` steps: teacher-forced greedy accuracy of the first and the second label
   letter on the held-out screens' queries. Chance for the first letter is about one over the
   number of distinct first letters on a screen (1/18 on the home screen).

Prints one line per check and a summary (``--json`` writes it). It asserts nothing.

Run::

    python benchmarks/learning/lookup_probe.py --minutes 3                          # the SFT model's shape
    python benchmarks/learning/lookup_probe.py --minutes 3 --rotary-fraction 1 --head-dim 32 --heads 4

The figures in docs/training.md: ``lookup_probe_results.json`` and ``lookup_probe_results_rotary.json``
(``--minutes 12 --threads 1 --eval-every 500 --json ...``).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import tempfile
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import torch

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents.qwen_tiny import build_small_qwen35
from cerebellum_gym.agents.random_agent import RandomAgent
from cerebellum_gym.tasks.registry import task_names

#: sft_tiny's tasks: their screens stay out of the probe.
SFT_TASKS = ("SystemWifiTurnOn", "SystemWifiTurnOff", "SystemBluetoothTurnOn", "SystemBluetoothTurnOff")
#: A labelled tree line and its first quoted text: ``[AB] TextView "Settings"``.
_LINE = re.compile(r'^\s*\[([A-Z]{2})\] \S+ "([^"]+)"', re.MULTILINE)


def screens(seeds: range, max_steps: int = 10) -> list[str]:
    """The compact trees of random play, one episode per seed, on a task drawn per seed."""
    names = [name for name in task_names() if name not in SFT_TASKS]
    env = gym.make("Cerebellum-Sim-v0", pixels=False, max_steps=max_steps)
    agent = RandomAgent(seed=seeds.start, allow_terminal=False)
    draw = random.Random(seeds.start)
    trees: list[str] = []
    try:
        for seed in seeds:
            obs, _ = env.reset(seed=seed, options={"task": draw.choice(names)})
            done = False
            while not done:
                if _LINE.search(obs["tree"]):
                    trees.append(obs["tree"])
                obs, _, terminated, truncated, _ = env.step(agent.act(obs))
                done = terminated or truncated
    finally:
        env.close()
    return trees


def with_queries(tree: str, draw: random.Random, k: int) -> tuple[str, list[int]]:
    """``tree`` followed by ``k`` lookups of its labelled lines, and where each answer's first
    letter is in the text (the second follows it)."""
    pairs = [(name, label) for label, name in _LINE.findall(tree)]
    text = tree + "\n"
    answers = []
    for _ in range(k):
        name, label = draw.choice(pairs)
        text += f'\nFind "{name}": '
        answers.append(len(text))
        text += label
    return text, answers


class Rows:
    """Token ids of screens with queries, and the positions of the answers' label letters."""

    def __init__(self, tokenizer: Any, trees: list[str], k: int, seed: int, max_tokens: int = 1024) -> None:
        draw = random.Random(seed)
        self.ids: list[list[int]] = []
        self.letters: list[list[tuple[int, int]]] = []  # (position, 0 for the first letter or 1)
        for tree in trees:
            text, answers = with_queries(tree, draw, k)
            encoded = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
            ids = encoded["input_ids"][:max_tokens]
            # The small model's tokenizer spells capitals one token each: a letter's token starts
            # where the letter does.
            starts = {start: j for j, (start, end) in enumerate(encoded["offset_mapping"][:max_tokens]) if end == start + 1}
            spots = [(starts[c + d], d) for c in answers for d in (0, 1) if c + d in starts]
            if spots:
                self.ids.append(ids)
                self.letters.append(spots)

    def batch(self, indices: list[int], pad: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """input ids, attention mask, labels (-100 but at the answer letters), and letter kind (0/1, -1 elsewhere)."""
        width = max(len(self.ids[i]) for i in indices)
        ids = torch.full((len(indices), width), pad)
        mask = torch.zeros((len(indices), width), dtype=torch.long)
        labels = torch.full((len(indices), width), -100)
        kind = torch.full((len(indices), width), -1)
        for row, i in enumerate(indices):
            seq = self.ids[i]
            ids[row, : len(seq)] = torch.tensor(seq)
            mask[row, : len(seq)] = 1
            for position, which in self.letters[i]:
                labels[row, position] = seq[position]
                kind[row, position] = which
        return ids, mask, labels, kind


def letter_accuracy(model: Any, rows: Rows, pad: int, batch_size: int) -> tuple[float, float]:
    """Teacher-forced greedy accuracy of the first and the second answer letters over ``rows``."""
    right = [0, 0]
    total = [0, 0]
    model.eval()
    with torch.no_grad():
        for begin in range(0, len(rows.ids), batch_size):
            ids, mask, labels, kind = rows.batch(list(range(begin, min(begin + batch_size, len(rows.ids)))), pad)
            predicted = model(input_ids=ids, attention_mask=mask).logits[:, :-1].argmax(-1)
            hit = predicted == labels[:, 1:]
            for which in (0, 1):
                where = kind[:, 1:] == which
                right[which] += int((hit & where).sum())
                total[which] += int(where.sum())
    model.train()
    return right[0] / max(total[0], 1), right[1] / max(total[1], 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=3.0, help="training time budget")
    parser.add_argument("--train-seeds", type=int, default=400, help="random episodes for training screens")
    parser.add_argument("--heldout-seeds", type=int, default=20, help="random episodes (other seeds) for the checks")
    parser.add_argument("--queries", type=int, default=8, help="lookups per screen")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--head-dim", type=int, default=16)
    parser.add_argument("--rotary-fraction", type=float, default=None, help="share of each head rotated (Qwen3.5: 0.25)")
    parser.add_argument("--rope-theta", type=float, default=None, help="rotary base (Qwen3.5's small config: 10,000)")
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--eval-every", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", default=None, help="write the summary here")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    tick = time.perf_counter()
    train_trees = screens(range(10_000, 10_000 + args.train_seeds))
    heldout_trees = screens(range(20_000, 20_000 + args.heldout_seeds))
    work = Path(tempfile.mkdtemp(prefix="lookup-probe-"))
    draw = random.Random(args.seed)
    corpus = [with_queries(tree, draw, args.queries)[0] for tree in train_trees[:2000]]
    base = build_small_qwen35(
        work / "base",
        seed=args.seed,
        hidden_size=args.hidden,
        num_layers=args.layers,
        num_heads=args.heads,
        head_dim=args.head_dim,
        vocab_size=1024,
        corpus=corpus,
        linear_attention=False,
        rotary_fraction=args.rotary_fraction,
        rope_theta=args.rope_theta,
    )
    from transformers import AutoTokenizer
    from transformers.models.qwen3_5 import Qwen3_5ForConditionalGeneration

    tokenizer = AutoTokenizer.from_pretrained(base)
    model = Qwen3_5ForConditionalGeneration.from_pretrained(base)
    pad = int(tokenizer.pad_token_id)
    train = Rows(tokenizer, train_trees, args.queries, seed=args.seed + 1)
    heldout = Rows(tokenizer, heldout_trees, args.queries, seed=args.seed + 2)
    rope = json.loads((base / "config.json").read_text())["text_config"].get("rope_parameters", {})
    print(
        f"model: hidden {args.hidden}, {args.layers} full-attention layers, {args.heads} heads x {args.head_dim}, rotary {rope}; "
        f"{sum(p.numel() for p in model.parameters()) / 1e6:.2f} M parameters"
    )
    print(
        f"data: {len(train.ids)} training screens, {len(heldout.ids)} held-out screens, {args.queries} lookups each "
        f"({time.perf_counter() - tick:.0f} s to build)",
        flush=True,
    )
    params = [p for name, p in model.named_parameters() if "visual" not in name]
    optimizer = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.0)
    order = random.Random(args.seed + 3)
    checks: list[dict[str, Any]] = []

    def check(step: int, loss: float | None, seconds: float) -> None:
        first, second = letter_accuracy(model, heldout, pad, 16)
        checks.append({"step": step, "seconds": round(seconds, 1), "loss": loss, "first_letter": first, "second_letter": second})
        shown = "-" if loss is None else f"{loss:.3f}"
        print(f"step {step:6d}  {seconds:6.0f} s  loss {shown:>6s}  held-out first letter {first:.3f}  second {second:.3f}", flush=True)

    begin = time.perf_counter()
    check(0, None, 0.0)
    step, recent = 0, []
    model.train()
    while time.perf_counter() - begin < args.minutes * 60:
        ids, mask, labels, _ = train.batch(order.sample(range(len(train.ids)), args.batch_size), pad)
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        optimizer.step()
        step += 1
        recent.append(float(loss.detach()))
        if step % args.eval_every == 0:
            check(step, sum(recent) / len(recent), time.perf_counter() - begin)
            recent = []
    if not checks or checks[-1]["step"] != step:
        check(step, sum(recent) / len(recent) if recent else None, time.perf_counter() - begin)
    summary = {
        "command": "python benchmarks/learning/lookup_probe.py "
        + " ".join(f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items() if v is not None and k != "json"),
        "rope_parameters": rope,
        "steps": step,
        "training_screens": len(train.ids),
        "heldout_screens": len(heldout.ids),
        "checks": checks,
        "best_first_letter": max(c["first_letter"] for c in checks),
    }
    print(json.dumps({k: summary[k] for k in ("steps", "best_first_letter")}))
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
