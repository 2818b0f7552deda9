"""``benchmarks/gpu/run.py`` at tiny shape on the CPU: every phase runs and the one JSON line
carries the figures the GPU table is built from (the GPU run itself needs a lent machine)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("peft")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "gpu" / "run.py"


def test_the_gpu_script_runs_every_phase_at_tiny_shape(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("gpu_run", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    torch.set_num_threads(1)
    result = module.main(["--tiny", "--timeout", "300"])
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert json.loads(line) == json.loads(json.dumps(result))
    assert "cut" not in result
    for phase in ("sft", "dpo", "rl", "decode"):
        assert "error" not in result[phase], result[phase]
    assert result["sft"]["tokens_per_s"] > 0 and result["sft"]["batch"] == 2
    assert result["dpo"]["step_s"] > 0 and result["rl"]["step_s"] > 0
    assert result["decode"]["p50_s_batch1"] > 0 and result["decode"]["p50_s_batch16"] > 0
    assert set(result["kernels"]) == {"flash-linear-attention", "causal-conv1d"}


def test_a_cut_run_still_prints_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("gpu_run_cut", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.main(["--tiny", "--timeout", "0.5"])
    assert "cut" in result
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["cut"].startswith("cut at")
