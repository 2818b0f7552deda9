"""``benchmarks/learning/lookup_probe.py``: its queries point at the right tokens, and it runs.

The probe's figures are only as good as the positions it scores: a query's answer letters must
be the very tokens of the label the query names, in the small model's tokenizer.
"""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "learning" / "lookup_probe.py"
TREE = '[KM] TextView "Settings"\n[AB] LinearLayout "Wi-Fi"\n [CD] Switch off\nTextView "Off"'


def _probe() -> Any:
    spec = importlib.util.spec_from_file_location("lookup_probe", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_queries_score_the_named_lines_label_letters(tmp_path: Path) -> None:
    from transformers import AutoTokenizer

    from cerebellum_gym.agents.qwen_tiny import build_small_qwen35

    probe = _probe()
    text, answers = probe.with_queries(TREE, random.Random(0), 6)
    lines = text.split("\n\n", 1)[1].splitlines()
    assert len(lines) == len(answers) == 6
    # Only lines with a quoted name are asked about (the switch has none), each with its own label.
    by_name = {"Settings": "KM", "Wi-Fi": "AB"}
    for line, at in zip(lines, answers, strict=True):
        name = line.split('"')[1]
        assert text[at : at + 2] == by_name[name]
    base = build_small_qwen35(tmp_path / "base", hidden_size=64, num_layers=1, vocab_size=600, corpus=[text] * 20, linear_attention=False)
    tokenizer = AutoTokenizer.from_pretrained(base)
    rows = probe.Rows(tokenizer, [TREE], 6, seed=0)
    (ids,) = rows.ids
    (spots,) = rows.letters
    assert [which for _, which in spots] == [0, 1] * 6
    # The scored tokens spell the answers, letter by letter (Rows draws with Random(seed): the
    # same queries as ``lines``).
    spelled = "".join(tokenizer.convert_ids_to_tokens([ids[position] for position, _ in spots]))
    assert spelled == "".join(by_name[line.split('"')[1]] for line in lines)


@pytest.mark.slow
def test_the_probe_runs_and_reports_its_checks(tmp_path: Path) -> None:
    out = tmp_path / "probe.json"
    run = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--minutes",
            "0.05",
            "--train-seeds",
            "4",
            "--heldout-seeds",
            "2",
            "--eval-every",
            "5",
            "--hidden",
            "64",
            "--heads",
            "2",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    summary = json.loads(out.read_text())
    assert summary["steps"] > 0 and summary["training_screens"] > 0 and summary["heldout_screens"] > 0
    assert summary["checks"][0]["step"] == 0 and summary["checks"][-1]["step"] == summary["steps"]
    for check in summary["checks"]:
        assert 0.0 <= check["first_letter"] <= 1.0 and 0.0 <= check["second_letter"] <= 1.0
