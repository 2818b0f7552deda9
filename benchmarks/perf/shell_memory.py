"""Peak memory a served-shell command line adds, for the payloads of issue 36.

Each payload runs in a fresh child process (so peaks do not mix); the figure is the growth of the
child's peak resident set (``ru_maxrss``) over what the phone and its files took before the line.
Give ``--baseline`` a checkout of an older revision to measure it side by side in the same run:

    python benchmarks/perf/shell_memory.py
    git worktree add /tmp/before <rev> && python benchmarks/perf/shell_memory.py --baseline /tmp/before
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MIB = 1 << 20

#: name -> (files to write: path -> size in MiB, the command line)
PAYLOADS: dict[str, tuple[dict[str, int], str]] = {
    "cat 8 MiB x30 in one line": ({"/sdcard/f": 8}, "cat /sdcard/f; " * 30),
    "cat of 20 files of 16 MiB": ({f"/sdcard/b{i}": 16 for i in range(20)}, "cat " + " ".join(f"/sdcard/b{i}" for i in range(20))),
    "raw screencap (control)": ({}, "screencap"),
}

CHILD = r"""
import json, resource, sys
from cerebellum_gym.sim import Phone
from cerebellum_gym.sim.shell import Shell
files, line = json.loads(sys.argv[1])
sh = Shell(Phone())
for path, mib in files.items():
    sh.phone.write_file(path, bytes([65]) * (mib << 20))
sh.run("echo warm")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
result = sh.run(line)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"growth_mib": (after - before) / 1024, "code": result.code, "stdout_mib": len(result.stdout) / (1 << 20)}))
"""


def measure(code_root: Path, files: dict[str, int], line: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(code_root)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps([files, line])],
        env=env,
        cwd=code_root,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, help="a checkout of an older revision to measure beside this one")
    args = parser.parse_args()
    roots = [("this", REPO)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    print(f"{'payload':<28} " + " ".join(f"{name + ' growth':>16} {'exit':>4} {'out MiB':>7}" for name, _ in roots))
    for name, (files, line) in PAYLOADS.items():
        cells = []
        for _, root in roots:
            r = measure(root, files, line)
            cells.append(f"{r['growth_mib']:>12.1f} MiB {int(r['code']):>4} {r['stdout_mib']:>7.1f}")
        print(f"{name:<28} " + " ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
