"""``train dpo``: trajectory pairs from ``export dpo`` (deduplicated by content hash), summed
per-step log-probabilities against the frozen starting adapter, the margin growing, epochs from
on/off-policy pairs, evaluation side by side with the checkpoint each metric picks, resume.

On the tiny random Qwen3.5 (no download) and simulator episodes of the oracle (chosen) and a
seeded random agent (rejected).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("peft")

from cerebellum_gym.agents.qwen_prompt import PromptLimits  # noqa: E402
from cerebellum_gym.training.common import LoraSettings  # noqa: E402
from cerebellum_gym.training.dpo import DPOConfig, Pair, Side, default_epochs, evaluation_markdown, load_pairs, picks, train_dpo  # noqa: E402

SMALL = PromptLimits(history_width=116, current_width=232, history_gutter=8, current_gutter=16)


@pytest.fixture(scope="module")
def pairs_export(tmp_path_factory: pytest.TempPathFactory, record_episodes: Any) -> Path:
    """A DPO export: oracle vs random episodes of one short task; the oracle's seed-0 episode
    recorded twice, so two pairs are exact duplicates."""
    record = record_episodes
    from cerebellum_gym.datasets.exports import export_dpo

    root = tmp_path_factory.mktemp("dpo")
    data = root / "data"
    record(data, {"SystemWifiTurnOn": range(2)})
    record(data, {"SystemWifiTurnOn": range(1)})
    record(data, {"SystemWifiTurnOn": range(2)}, agent="random", policy="random", max_steps=3)
    export_dpo(data, root / "export")
    return root / "export"


def _config(base: Path, data: Path, out: Path, **changes: Any) -> DPOConfig:
    # Text only keeps these runs short; images are scored in the SFT and scorer tests.
    settings: dict[str, Any] = {"batch_size": 5, "grad_accum": 2, "limits": SMALL, "progress": False, "lr": 2e-3, "use_images": False}
    settings.update(lora=LoraSettings(r=4, alpha=8), eval_max_text_tokens=6)
    settings.update(changes)
    return DPOConfig(base=str(base), data=str(data), out=str(out), **settings)


def test_pairs_are_deduplicated_by_content_and_epochs_follow_the_rejected_sides_source(pairs_export: Path) -> None:
    pairs, stats = load_pairs(pairs_export)
    assert stats["duplicates_removed"] >= 1 and stats["loaded"] == stats["kept"] == len(pairs)
    assert len({p.hash for p in pairs}) == len(pairs)
    assert all(p.chosen.success and not p.rejected.success and not p.same_agent for p in pairs)
    assert default_epochs(pairs) == 1  # off-policy negatives: one epoch
    side = Side("e", "a", True, 1.0, [])
    assert default_epochs([Pair("h", "t", True, side, side)] * 3) == 2  # on-policy: two
    assert default_epochs([Pair("h", "t", True, side, side), Pair("g", "t", False, side, side)]) == 1


def test_dpo_grows_the_margin_against_the_frozen_start(tiny_base: Path, pairs_export: Path, tmp_path: Path) -> None:
    from cerebellum_gym.agents.qwen_agent import QwenActionAgent
    from cerebellum_gym.agents.qwen_scorer import ActionScorer
    from cerebellum_gym.agents.qwen_tiny import build_lora

    start = build_lora(tiny_base, tmp_path / "start", r=4, alpha=8)
    digest = hashlib.sha256((start / "adapter_model.safetensors").read_bytes()).hexdigest()
    config = _config(tiny_base, pairs_export, tmp_path / "run", init_adapter=str(start), eval_pairs=str(pairs_export), epochs=2)
    summary = train_dpo(config)
    assert hashlib.sha256((start / "adapter_model.safetensors").read_bytes()).hexdigest() == digest
    evals = summary["evaluations"]
    assert [e["checkpoint"] for e in evals] == ["start", "step-000002", "step-000004"]
    assert evals[0]["heldout_margin"] == pytest.approx(0.0, abs=1e-4)  # the start is the reference
    assert evals[-1]["heldout_margin"] > evals[1]["heldout_margin"] > 0.05
    log = [json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    train = [r for r in log if r["kind"] == "train"]
    assert [r["step"] for r in train] == [1, 2, 3, 4]
    assert all(0 <= r["saturated"] <= 1 and r["loss"] > 0 and "margin" in r for r in train)
    # The reference is the starting adapter's summed per-step log-probabilities.
    pairs, _ = load_pairs(pairs_export, use_images=False)
    reference = json.loads((tmp_path / "run" / "reference.json").read_text())
    agent = QwenActionAgent.from_pretrained(tiny_base, start, limits=SMALL, use_images=False)
    scorer = ActionScorer(agent)
    pair = pairs[0]
    with torch.no_grad():
        items = [scorer.item(load(), action, step=step) for load, action, step in pair.chosen.steps]
        expected = float(scorer.score(items).logprob.sum())
    assert reference[f"{pair.hash}:chosen"] == pytest.approx(expected, abs=1e-3)
    assert (tmp_path / "run" / "curves.png").is_file() and "| checkpoint |" in (tmp_path / "run" / "evaluation.md").read_text()


def test_dpo_resumes_and_evaluates_online(tiny_base: Path, pairs_export: Path, tmp_path: Path) -> None:
    config = _config(
        tiny_base, pairs_export, tmp_path / "run", grad_accum=1, save_every=1, eval_suite="tasks:SystemWifiTurnOn:1", eval_max_steps=2
    )
    train_dpo(config, stop_after=2)
    reference = (tmp_path / "run" / "reference.json").read_text()
    summary = train_dpo(config, resume=True)
    assert (tmp_path / "run" / "reference.json").read_text() == reference  # never recomputed from a trained model
    steps = [json.loads(line)["step"] for line in (tmp_path / "run" / "log.jsonl").read_text().splitlines() if '"train"' in line]
    assert steps == list(range(1, summary["steps_done"] + 1)) and summary["steps_this_call"] == summary["steps_done"] - 2
    final = summary["evaluations"][-1]
    assert {"mean_return", "success"} <= set(final) and final["cases"] == 1


def test_mean_return_and_success_can_pick_different_checkpoints() -> None:
    # The sibling card's case: epoch 2 gains partial credit and loses one full success.
    evals = [
        {"checkpoint": "start", "step": 0, "epoch": 0, "mean_return": 0.3656, "success": 0.2617},
        {"checkpoint": "step-000068", "step": 68, "epoch": 1, "mean_return": 0.3758, "success": 0.2812},
        {"checkpoint": "step-000137", "step": 137, "epoch": 2, "mean_return": 0.3865, "success": 0.2773},
        {"checkpoint": "step-000206", "step": 206, "epoch": 3, "mean_return": 0.3829, "success": 0.2773},
    ]
    assert picks(evals) == {"mean_return": "step-000137", "success": "step-000068", "exact": None, "heldout_margin": None}
    table = evaluation_markdown(evals)
    assert "| step-000137 | 2 | 0.3865 | 0.2773 |" in table and "- by success: step-000068" in table


def test_the_cli_runs_dpo(tiny_base: Path, pairs_export: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cerebellum_gym.cli import main

    args = ["train", "dpo", "--base", str(tiny_base), "--data", str(pairs_export), "--out", str(tmp_path / "run"), "--text-only"]
    args += ["--grad-accum", "8", "--no-progress", "--lora-r", "4", "--beta", "0.2", "--sft-weight", "0.5"]
    assert main(args) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["epochs"] == 1 and summary["steps_done"] == 1  # off-policy pairs: one epoch, all pairs in one step
    config = json.loads((tmp_path / "run" / "run.json").read_text())["config"]
    assert config["lr"] == 5e-5 and config["sft_weight"] == 0.5
    assert main([*args[:6], "--out", str(tmp_path / "bad"), "--text-only", "--beta", "0"]) == 2
    assert "--beta must be > 0" in capsys.readouterr().err


def test_the_sft_term_keeps_the_chosen_sides_likelihood_up(tiny_base: Path, pairs_export: Path, tmp_path: Path) -> None:
    """RPO's NLL term on the chosen side: with it the chosen trajectories' log-probability ends
    higher against the reference than under plain DPO from the same start and pairs."""
    from cerebellum_gym.agents.qwen_tiny import build_lora
    from cerebellum_gym.errors import CerebellumError

    start = build_lora(tiny_base, tmp_path / "start", r=4, alpha=8)

    def train(out: str, weight: float) -> list[dict[str, Any]]:
        train_dpo(_config(tiny_base, pairs_export, tmp_path / out, init_adapter=str(start), epochs=2, sft_weight=weight))
        log = [json.loads(line) for line in (tmp_path / out / "log.jsonl").read_text().splitlines()]
        return [r for r in log if r["kind"] == "train"]

    plain_log, rpo_log = train("plain", 0.0), train("rpo", 2.0)
    plain, regularised = plain_log[-1], rpo_log[-1]

    # Each record scores that step's pairs before its update: averaged over the steps after the
    # first (one step's pairs alone are a noisy sample of what Adam's updates did).
    def after_first(log: list[dict[str, Any]]) -> float:
        return float(np.mean([r["chosen_logratio"] for r in log[1:]]))

    assert after_first(rpo_log) > after_first(plain_log)
    assert plain["total_loss"] == pytest.approx(plain["loss"])
    assert regularised["chosen_nll"] > 0
    assert regularised["total_loss"] == pytest.approx(regularised["loss"] + 2.0 * regularised["chosen_nll"])
    with pytest.raises(CerebellumError, match="--sft-weight must be >= 0"):
        train_dpo(_config(tiny_base, pairs_export, tmp_path / "bad", sft_weight=-1.0))


def test_steps_cap_the_run_with_a_check_and_a_checkpoint(tiny_base: Path, pairs_export: Path, tmp_path: Path) -> None:
    summary = train_dpo(_config(tiny_base, pairs_export, tmp_path / "run", epochs=2, steps=1))
    assert summary["steps_done"] == 1
    assert [e["checkpoint"] for e in summary["evaluations"]] == ["start", "step-000001"]
    assert (tmp_path / "run" / "checkpoints" / "step-000001").is_dir()
