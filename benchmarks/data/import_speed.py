"""Import speed of a synthetic AndroidControl file: steps/s with screenshots kept, peak memory.

Builds one GZIP TFRecord of ``--steps`` steps (episodes of ``--episode-len`` actions, 1080x2400
PNG screenshots drawn from a pool of ``--screens`` distinct screens, forests of ``--elements``
buttons written by the simulator's forest writer; clicks inside elements), then imports it with
``import_dataset`` and prints steps/s and the process's peak resident memory. Targets (issue
38): at least 500 steps/s, peak under 1 GB.

    nice -n 10 python benchmarks/data/import_speed.py --steps 10000
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

import numpy as np

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.datasets.format import encode_png
from cerebellum_gym.datasets.importers import import_dataset
from cerebellum_gym.datasets.importers.synthetic import androidcontrol_example, screen
from cerebellum_gym.datasets.importers.tfrecord import write_records


def build(path: Path, steps: int, episode_len: int, screens: int, elements: int, size: tuple[int, int]) -> int:
    rng = np.random.default_rng(0)
    pngs = [encode_png(screen(*size, seed=i)) for i in range(screens)]
    boxes = [(0, i * size[1] // elements, size[0], (i + 1) * size[1] // elements) for i in range(elements)]
    root = UINode(
        "android.widget.FrameLayout",
        (0, 0, *size),
        children=[UINode("android.widget.Button", b, text=f"Item {i}", clickable=True) for i, b in enumerate(boxes)],
    )
    records = []
    for e in range(steps // episode_len):
        actions = []
        for _ in range(episode_len):
            b = boxes[int(rng.integers(elements))]
            actions.append({"action_type": "click", "x": int(rng.integers(b[0], b[2])), "y": int(rng.integers(b[1], b[3]))})
        shots = [pngs[int(rng.integers(screens))] for _ in range(episode_len + 1)]
        records.append(androidcontrol_example(e, "synthetic", [root] * (episode_len + 1), actions, size=size, shots=shots))
    write_records(path, records)
    return (steps // episode_len) * episode_len


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--episode-len", type=int, default=20)
    parser.add_argument("--screens", type=int, default=64)
    parser.add_argument("--elements", type=int, default=30)
    parser.add_argument("--width", type=int, default=1080)
    parser.add_argument("--height", type=int, default=2400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "android_control-00000-of-00001"
        tick = time.perf_counter()
        steps = build(src, args.steps, args.episode_len, args.screens, args.elements, (args.width, args.height))
        print(f"built {steps} steps ({src.stat().st_size / 1e6:.1f} MB) in {time.perf_counter() - tick:.1f}s")
        tick = time.perf_counter()
        report = import_dataset("androidcontrol", src, Path(tmp) / "out")
        seconds = time.perf_counter() - tick
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"imported {report.steps_seen} steps ({report.steps_kept} kept, label hits {report.tap_hits}/{report.taps}) in {seconds:.1f}s")
    print(f"steps/s: {report.steps_seen / seconds:.0f} (target >= 500)")
    print(f"peak RSS: {peak_mb:.0f} MB (target < 1024)")


if __name__ == "__main__":
    main()
