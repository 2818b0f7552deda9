"""Wall time of an evaluation: the 100-case simulator suite with an agent. Prints figures; asserts nothing.

Run: ``python benchmarks/perf/eval_suite.py [--suite sim-mixed100] [--agent random] [--repeat 3]``

Each configuration runs the whole suite through the harness (:func:`run_suite`: vector envs,
JSONL results flushed per case) into a fresh temporary folder, ``--repeat`` times; the best and
median wall times are printed, then the time to write the summary, chart and report of one run
(``finalize``). The last configuration records screens as the command line does by default
(``--screens auto``: every unsuccessful episode, replayed on the simulator after the rollout).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents import load_agent
from cerebellum_gym.evaluation.outputs import finalize_run
from cerebellum_gym.evaluation.runner import EvalConfig, run_suite
from cerebellum_gym.evaluation.suites import Suite, load_suite


def pick_suite(name: str | None) -> Suite:
    return load_suite(name or "sim-mixed100")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--suite", default=None)
    parser.add_argument("--agent", default="random")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    suite = pick_suite(args.suite)
    print(f"suite {suite.name}: {len(suite.cases)} cases; agent {args.agent}; {os.cpu_count()} CPUs; load {os.getloadavg()[0]:.1f}")
    configs = [
        ("1 env, sync", EvalConfig(num_envs=1, vectorization="sync")),
        ("4 envs, sync", EvalConfig(num_envs=4, vectorization="sync")),
        ("2 envs, async", EvalConfig(num_envs=2, vectorization="async")),
        ("4 envs, sync, screens auto (the CLI default)", EvalConfig(num_envs=4, vectorization="sync", screens="auto")),
    ]
    last_dir = None
    for label, config in configs:
        config.progress = "off"
        times, steps = [], 0
        for _ in range(args.repeat):
            out = tempfile.mkdtemp(prefix="cg-eval-bench-")
            start = time.perf_counter()
            result = run_suite(load_agent(args.agent), suite, out, config, agent_spec=args.agent)
            times.append(time.perf_counter() - start)
            steps = sum(int(r["steps"]) for r in result.records)
            last_dir = out
        best, median = min(times), statistics.median(times)
        print(f"{label:40} best {best:6.2f} s  median {median:6.2f} s  ({steps} steps, {steps / best:,.0f} steps/s)")
    if last_dir is not None:
        start = time.perf_counter()
        finalize_run(last_dir)
        print(f"{'finalize (summary, chart, report)':40} {time.perf_counter() - start:6.2f} s")


if __name__ == "__main__":
    main()
