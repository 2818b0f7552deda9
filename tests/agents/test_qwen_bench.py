"""``benchmarks/perf/qwen_step.py --tiny`` runs and prints its one JSON line of figures.

Speed targets are the benchmark's to report, not this test's to assert: it checks that every
figure is there and makes sense.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("peft")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "perf" / "qwen_step.py"


@pytest.mark.slow
def test_tiny_benchmark_prints_its_figures() -> None:
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--tiny", "--steps", "3", "--repeats", "1"], capture_output=True, text=True, timeout=600, check=False
    )
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["model"] == "tiny" and figures["device"] == "cpu" and figures["lora_params"] > 0
    assert 0 < figures["p50_s"] <= figures["p90_s"]
    assert figures["batch16_obs_per_s"] > 0 and figures["single16_obs_per_s"] > 0
    assert figures["batch16_vs_single"] == pytest.approx(figures["batch16_obs_per_s"] / figures["single16_obs_per_s"], rel=0.05)
    assert 0 < figures["constrained_vs_plain_b1"] < 10 and 0 < figures["constrained_vs_plain_b16"] < 10
    assert 0 < figures["vision_share"] < 1 and figures["peak_mem_mb"] > 0
    assert figures["prompt_tokens_median"] > 100
