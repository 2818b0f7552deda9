"""Markor opening a huge note on ``Cerebellum-Sim-v0`` with pixels (issue 36): the step that opens
it and the steps after, for a 30 MB note of short lines and a one-line note of 1,000,001
characters, beside a note of one screenful. Work per step should be bounded by what the screen
shows, not by the note's size: the huge notes' steps should cost what the screenful's cost.

    python benchmarks/perf/huge_note.py
"""

from __future__ import annotations

import resource
import time

import gymnasium as gym

import cerebellum_gym  # noqa: F401  (registers the env ids)

NOTES = "/sdcard/Documents/Markor"


def main() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="MarkorEditNote", pixels=True)
    u = env.unwrapped
    line = "lorem ipsum dolor sit amet " * 3 + "\n"
    # The first note fills one screen: the control that the huge ones are measured against.
    for name, text in (("screen", line * 40), ("lines", line * ((30 << 20) // 82)), ("one line", "x" * 1_000_001)):
        env.reset(seed=0)
        u.device.write_file(f"{NOTES}/huge.md", text.encode())
        u.device.start_app("net.gsantner.markor")
        env.step("W")
        label = next(lab for lab in u.screen.labels if "huge.md" in u.screen.node_for(lab).content_desc)
        start = time.perf_counter()
        env.step(f"T {label}")
        opened = time.perf_counter() - start
        after = []
        for action in ("W", "W", "W"):
            start = time.perf_counter()
            env.step(action)
            after.append(time.perf_counter() - start)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        steps = ", ".join(f"{t * 1e3:.0f}" for t in after)
        print(f"{name:>8}: {len(text):>10,} characters: opening step {opened * 1e3:.0f} ms, next steps {steps} ms; peak RSS {peak} MB")
    env.close()


if __name__ == "__main__":
    main()
