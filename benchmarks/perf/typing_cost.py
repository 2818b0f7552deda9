"""Cost of typing long text into the pixel simulator. Prints figures; asserts nothing.

Run: ``python benchmarks/perf/typing_cost.py [--small 500] [--large 10000] [--after 3]``

In one process and one run (so the ratio is measured side by side), for a small and a large
amount of text: focus a text field, type the text with ``K`` actions of at most
``MAX_TEXT_CHARS`` characters each, then take ``--after`` more steps (``W``), since every later
step renders the field with all of that text in it. Each figure is the CPU time
(``time.process_time``) of those steps with 464-px screenshots. The ratio large/small is the
figure to watch: linear cost gives about large/small = 20 for 10,000 vs 500 characters at the
very worst (and far less, since the fixed cost of a step dominates); the target (issue 13) is
under 20x.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.core.actions import CODE_INDEX, MAX_TEXT_CHARS

TASK = "ContactsAddContact"


def focused_env() -> tuple[gym.Env, dict]:  # type: ignore[type-arg]
    """An env whose screen has a focused text field (the oracle walks there)."""
    env = gym.make("Cerebellum-Sim-v0", task=TASK, max_steps=100_000)
    obs, _ = env.reset(seed=0)
    while not obs["action_mask"][CODE_INDEX["K"]]:
        obs, *_ = env.step(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
    return env, obs


def typing_seconds(chars: int, after: int) -> tuple[float, int]:
    """CPU seconds to type ``chars`` characters and take ``after`` more steps; and the steps taken."""
    env, _ = focused_env()
    text = ("The quick brown fox jumps over the lazy dog. " * (chars // 45 + 1))[:chars]
    chunks = [text[i : i + MAX_TEXT_CHARS] for i in range(0, len(text), MAX_TEXT_CHARS)]
    start = time.process_time()
    for chunk in chunks:
        _, _, _, _, info = env.step(f"K {chunk}")
        assert not info["invalid_action"], info["error"]
    for _ in range(after):
        env.step("W")
    elapsed = time.process_time() - start
    env.close()
    return elapsed, len(chunks) + after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", type=int, default=500)
    parser.add_argument("--large", type=int, default=10_000)
    parser.add_argument("--after", type=int, default=3, help="steps taken after typing (they render the long field)")
    args = parser.parse_args()
    typing_seconds(100, 1)  # warm fonts and tile caches
    small, small_steps = typing_seconds(args.small, args.after)
    large, large_steps = typing_seconds(args.large, args.after)
    print(f"type {args.small:>6} chars + {args.after} steps: {small * 1e3:8.1f} ms CPU ({small_steps} steps)")
    print(f"type {args.large:>6} chars + {args.after} steps: {large * 1e3:8.1f} ms CPU ({large_steps} steps)")
    print(f"ratio large/small: {large / small:.2f}x (target < 20x; {args.large / args.small:.0f}x the characters)")


if __name__ == "__main__":
    main()
