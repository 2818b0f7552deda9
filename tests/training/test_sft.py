"""``train sft``: the card's loss trains the constrained decoder, checkpoints are PEFT adapters,
a killed run resumes without losing or repeating a step, and bad input is refused clearly.

On the tiny random Qwen3.5 (no download) and oracle episodes recorded on the simulator.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("peft")

from cerebellum_gym.agents.qwen_prompt import PromptLimits  # noqa: E402
from cerebellum_gym.cli import main  # noqa: E402
from cerebellum_gym.errors import CerebellumError  # noqa: E402
from cerebellum_gym.training.common import LoraSettings, load_policy  # noqa: E402
from cerebellum_gym.training.examples import load_examples  # noqa: E402
from cerebellum_gym.training.sft import SFTConfig, train_sft  # noqa: E402

SMALL = PromptLimits(history_width=116, current_width=232, history_gutter=8, current_gutter=16)


def _config(base: Path, data: Path, out: Path, **changes: Any) -> SFTConfig:
    settings: dict[str, Any] = {
        "steps": 4,
        "batch_size": 2,
        "grad_accum": 2,
        "min_history": 0,
        "limits": SMALL,
        "save_every": 2,
        "progress": False,
        "lr": 1e-3,
        "lora": LoraSettings(r=4, alpha=8),
        "eval_max_text_tokens": 6,
    }
    settings.update(changes)
    return SFTConfig(base=str(base), data=str(data), out=str(out), **settings)


def _gold_logprob(base: Path, adapter: Path | None, data: Path) -> float:
    from cerebellum_gym.agents.qwen_agent import QwenActionAgent
    from cerebellum_gym.agents.qwen_scorer import ActionScorer

    agent = QwenActionAgent.from_pretrained(base, adapter, limits=SMALL)
    scorer = ActionScorer(agent)
    examples, _ = load_examples(data)
    with torch.no_grad():
        out = scorer.score([scorer.item(e.observation(), e.action, step=e.step) for e in examples])
    return float(out.logprob.mean())


def _files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_sft_raises_the_gold_actions_probability_and_saves_peft_adapters(tiny_base: Path, oracle_data: Path, tmp_path: Path) -> None:
    from peft import PeftModel
    from transformers import AutoModelForImageTextToText

    summary = train_sft(
        _config(tiny_base, oracle_data, tmp_path / "run", steps=6, lr=2e-2, eval_data=str(oracle_data), eval_every=3, eval_n=3)
    )
    assert summary["steps_done"] == 6 and summary["illegal_examples"] == 0
    last = Path(summary["last_checkpoint"])
    assert last.name == "step-000006" and (tmp_path / "run" / "latest").read_text().strip() == "step-000006"
    assert not any(p.suffix in (".bin", ".pt", ".pth", ".pkl") for p in last.iterdir())
    before, after = _gold_logprob(tiny_base, None, oracle_data), _gold_logprob(tiny_base, last, oracle_data)
    assert after > before + 1.0  # the constrained decoder now prefers the recorded actions
    # PEFT's own loader reads the checkpoint, and it is the trained adapter.
    model = PeftModel.from_pretrained(AutoModelForImageTextToText.from_pretrained(str(tiny_base)), str(last))
    assert any("lora_" in n for n, _ in model.named_parameters())
    log = [json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    assert [r["step"] for r in log if r["kind"] == "train"] == [1, 2, 3, 4, 5, 6]
    assert [r["step"] for r in log if r["kind"] == "eval"] == [0, 3, 6]
    assert all(r["loss"] > 0 and r["tokens"] > 0 for r in log if r["kind"] == "train")
    assert (tmp_path / "run" / "curves.png").stat().st_size > 1000
    assert (tmp_path / "run" / "evals" / "step-000006.json").is_file()


def test_a_killed_run_resumes_with_nothing_lost_and_no_step_twice(tiny_base: Path, oracle_data: Path, tmp_path: Path) -> None:
    whole = train_sft(_config(tiny_base, oracle_data, tmp_path / "whole", steps=5))
    train_sft(_config(tiny_base, oracle_data, tmp_path / "cut", steps=5), stop_after=3)  # killed after step 3, checkpoint at 2
    cut = tmp_path / "cut"
    # A kill while writing the next checkpoint leaves a temporary folder behind: never loaded.
    shutil.copytree(cut / "checkpoints" / "step-000002", cut / "checkpoints" / ".step-000004.tmp")
    (cut / "checkpoints" / ".step-000004.tmp" / "adapter_model.safetensors").write_bytes(b"torn")
    with pytest.raises(CerebellumError, match="--resume"):
        train_sft(_config(tiny_base, oracle_data, cut, steps=5))
    resumed = train_sft(_config(tiny_base, oracle_data, cut, steps=5), resume=True)
    assert resumed["steps_this_call"] == 3 and resumed["steps_done"] == 5
    assert not (cut / "checkpoints" / ".step-000004.tmp").exists()
    steps = [json.loads(line)["step"] for line in (cut / "log.jsonl").read_text().splitlines()]
    assert steps == [1, 2, 3, 4, 5]
    from safetensors.torch import load_file

    a = load_file(str(Path(whole["last_checkpoint"]) / "adapter_model.safetensors"))
    b = load_file(str(Path(resumed["last_checkpoint"]) / "adapter_model.safetensors"))
    assert a.keys() == b.keys()
    assert all(torch.allclose(a[k], b[k], atol=1e-6) for k in a)  # the same run as the one never killed


def test_the_starting_adapter_is_never_written(tiny_base: Path, oracle_data: Path, tmp_path: Path) -> None:
    from cerebellum_gym.agents.qwen_tiny import build_lora

    start = build_lora(tiny_base, tmp_path / "start", r=4, alpha=8)
    before = _files(start)
    with pytest.raises(CerebellumError, match="never overwrites"):
        train_sft(_config(tiny_base, oracle_data, start / "run", init_adapter=str(start)))
    with pytest.raises(CerebellumError, match="never overwrites"):
        train_sft(_config(tiny_base, oracle_data, start, init_adapter=str(start)))
    summary = train_sft(_config(tiny_base, oracle_data, tmp_path / "run", init_adapter=str(start), steps=2))
    assert _files(start) == before
    assert _files(Path(summary["last_checkpoint"]))["adapter_model.safetensors"] != before["adapter_model.safetensors"]


def test_data_that_does_not_fit_is_refused_clearly(tiny_base: Path, oracle_data: Path, short_data: Path, tmp_path: Path) -> None:
    with pytest.raises(CerebellumError, match=r"has 4 history frames .* at most 2"):
        train_sft(_config(tiny_base, short_data, tmp_path / "a", min_history=4, only_success=False))
    with pytest.raises(CerebellumError, match="no trainable step"):
        train_sft(_config(tiny_base, short_data, tmp_path / "a", min_history=0))  # its one episode failed
    with pytest.raises(CerebellumError, match="unknown quota group 'taps'"):
        train_sft(_config(tiny_base, oracle_data, tmp_path / "b", quota="taps=5,k=2"))
    with pytest.raises(CerebellumError, match="no group the data has"):
        train_sft(_config(tiny_base, oracle_data, tmp_path / "c", quota="wait=1"))  # the oracle never waits


def test_an_adapter_for_another_base_is_refused(tiny_base: Path, oracle_data: Path, tmp_path: Path) -> None:
    from cerebellum_gym.agents import qwen_tiny

    tokenizer = qwen_tiny.build_tokenizer()
    text: dict[str, Any] = {
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 2,
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "head_dim": 16,
    }
    text.update(linear_num_key_heads=2, linear_num_value_heads=2, linear_key_head_dim=8, linear_value_head_dim=8)
    text.update(layer_types=["linear_attention", "full_attention"], max_position_embeddings=4096)
    vision = {"depth": 1, "hidden_size": 32, "intermediate_size": 64, "num_heads": 2, "out_hidden_size": 32, "num_position_embeddings": 256}
    other = qwen_tiny._save(tmp_path / "other", tokenizer, qwen_tiny._config(tokenizer, text, vision), 0, 232 * 520)
    adapter = qwen_tiny.build_lora(other, tmp_path / "other-lora", r=4, alpha=8)
    with pytest.raises(CerebellumError, match=r"not made for the base model|does not fit"):
        load_policy(tiny_base, adapter)
    # A checkpoint of this trainer names its base: a resume or a start on another is refused.
    run = train_sft(_config(tiny_base, oracle_data, tmp_path / "run", steps=2))
    state = Path(run["last_checkpoint"]) / "trainer_state.json"
    state.write_text(json.dumps({**json.loads(state.read_text()), "base_fingerprint": "0" * 16}))
    with pytest.raises(CerebellumError, match="another base model"):
        load_policy(tiny_base, run["last_checkpoint"])


def test_an_sft_export_trains_on_the_same_prompts_as_its_dataset(tiny_base: Path, oracle_data: Path, tmp_path: Path) -> None:
    from cerebellum_gym.agents.qwen_agent import QwenActionAgent
    from cerebellum_gym.datasets.exports import export_sft

    export_sft(oracle_data, tmp_path / "sft")
    agent = QwenActionAgent.from_pretrained(tiny_base, limits=SMALL)
    direct, _ = load_examples(oracle_data)
    exported, _ = load_examples(tmp_path / "sft")
    assert [e.action for e in exported] == [e.action for e in direct] and len(direct) > 10
    for a, b in zip(direct, exported, strict=True):
        pa, pb = agent.encoder.encode(a.observation(), step=a.step), agent.encoder.encode(b.observation(), step=b.step)
        assert pa.input_ids == pb.input_ids and pa.labels == pb.labels
        assert torch.equal(pa.pixel_values, pb.pixel_values)
    summary = train_sft(_config(tiny_base, tmp_path / "sft" / "sft.jsonl", tmp_path / "run", steps=1))
    assert summary["steps_done"] == 1


def test_the_cli_runs_sft_and_reports_errors(
    tiny_base: Path, oracle_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["--base", str(tiny_base), "--data", str(oracle_data), "--batch-size", "2", "--grad-accum", "1", "--no-progress"]
    common += ["--hist-width", "116", "--curr-width", "232", "--min-history", "0", "--lora-r", "4"]
    assert main(["train", "sft", *common, "--out", str(tmp_path / "run"), "--steps", "2", "--dora", "--lr-schedule", "cosine"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["steps_done"] == 2
    assert json.loads((tmp_path / "run" / "run.json").read_text())["config"]["lr_schedule"] == "cosine"
    config = json.loads((Path(summary["last_checkpoint"]) / "adapter_config.json").read_text())
    assert config["use_dora"] is True
    assert main(["train", "sft", *common, "--out", str(tmp_path / "bad"), "--quota", "tp=1,nope=2"]) == 2
    assert "unknown quota group 'nope'" in capsys.readouterr().err


def test_a_time_limit_ends_with_a_checkpoint_and_checkpointing_trains(tiny_base: Path, oracle_data: Path, tmp_path: Path) -> None:
    summary = train_sft(_config(tiny_base, oracle_data, tmp_path / "run", steps=50, time_limit_s=0.0, gradient_checkpointing=True))
    assert summary["steps_done"] == 1 and Path(summary["last_checkpoint"]).name == "step-000001"


def test_the_best_check_keeps_its_adapter_even_between_checkpoints(tiny_base: Path, oracle_data: Path, tmp_path: Path) -> None:
    from cerebellum_gym.datasets.offline import evaluate_offline

    config = _config(tiny_base, oracle_data, tmp_path / "run", steps=5, save_every=5, lr=1e-2, eval_every=2, eval_n=6)
    config.eval_data = str(oracle_data)
    summary = train_sft(config)
    log = [json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    evals = [(r["step"], r["exact"]) for r in log if r["kind"] == "eval"]
    assert [s for s, _ in evals] == [0, 2, 4, 5]
    top = max(e for _, e in evals)
    step = next(s for s, e in evals if e == top)  # the earlier step on a tie
    assert summary["best_offline"] == {"exact": top, "step": step}
    best = Path(summary["best_checkpoint"])
    assert best.name == f"best-step-{step:06d}" and (tmp_path / "run" / "best").read_text().strip() == best.name
    assert [p.name for p in (tmp_path / "run" / "checkpoints").glob("best-step-*")] == [best.name]  # earlier bests are gone
    # It holds that step's weights: the check scored on it again gives the logged figure.
    agent = load_policy(tiny_base, best, limits=SMALL, max_text_tokens=6)
    again = evaluate_offline(agent, oracle_data, n=6, seed=44103)
    assert again["exact"]["rate"] == top
    off = train_sft(_config(tiny_base, oracle_data, tmp_path / "off", steps=2, eval_data=str(oracle_data), eval_n=2, keep_best=False))
    assert off["best_checkpoint"] is None and not list((tmp_path / "off" / "checkpoints").glob("best-step-*"))


def test_learning_rate_schedules(tiny_base: Path, oracle_data: Path, tmp_path: Path) -> None:
    from cerebellum_gym.training.sft import learning_rate

    base = _config(tiny_base, oracle_data, tmp_path / "x", steps=11, lr=1.0)
    assert [learning_rate(base, s) for s in (0, 5, 10)] == [1.0, 1.0, 1.0]
    warm = _config(tiny_base, oracle_data, tmp_path / "x", steps=11, lr=1.0, warmup_steps=4)
    assert [learning_rate(warm, s) for s in (0, 1, 3, 4, 10)] == [0.25, 0.5, 1.0, 1.0, 1.0]
    cosine = _config(tiny_base, oracle_data, tmp_path / "x", steps=11, lr=1.0, warmup_steps=1, lr_schedule="cosine")
    rates = [learning_rate(cosine, s) for s in range(11)]
    assert rates[0] == 1.0 and rates[1] == pytest.approx(1.0)
    assert rates[-1] == pytest.approx(0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * 0.9)))
    assert all(a > b for a, b in itertools.pairwise(rates[1:]))
    assert learning_rate(cosine, 50) == pytest.approx(0.1)
    with pytest.raises(CerebellumError, match="unknown --lr-schedule 'linear'"):
        train_sft(_config(tiny_base, oracle_data, tmp_path / "bad", lr_schedule="linear"))
    summary = train_sft(_config(tiny_base, oracle_data, tmp_path / "run", steps=3, lr=1e-3, lr_schedule="cosine"))
    logged = [json.loads(line)["lr"] for line in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    assert summary["steps_done"] == 3 and logged[0] == pytest.approx(1e-3) and logged[0] > logged[1] > logged[2]


def test_training_runs_in_train_mode_so_lora_dropout_acts(tiny_base: Path, oracle_data: Path, tmp_path: Path) -> None:
    from cerebellum_gym.agents.qwen_scorer import ActionScorer
    from cerebellum_gym.training.common import start_run

    config = _config(tiny_base, oracle_data, tmp_path / "run", lora=LoraSettings(r=4, alpha=8, dropout=0.5))
    run = start_run(tmp_path / "run", config, resume=False)
    assert run.agent.model.training  # without gradient checkpointing too
    scorer = ActionScorer(run.agent)
    examples, _ = load_examples(oracle_data)
    items = [scorer.item(e.observation(), e.action, step=e.step) for e in examples[:2]]
    # Train a step so the LoRA B matrices are not zero and dropout changes the output.
    for p in run.agent.model.parameters():
        if p.requires_grad:
            torch.nn.init.normal_(p, std=0.5)
    with torch.no_grad():
        a, b = scorer.score(items).logprob, scorer.score(items).logprob
    assert not torch.allclose(a, b)  # dropout draws differ between passes


def test_the_bar_shows_a_checks_own_progress(
    tiny_base: Path, oracle_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """While an offline check runs the bar names it and counts its steps (it stood still
    before), then shows the training figures again."""
    pytest.importorskip("tqdm")
    train_sft(_config(tiny_base, oracle_data, tmp_path / "run", steps=2, progress=True, eval_data=str(oracle_data), eval_n=3))
    err = capsys.readouterr().err
    assert "sft (check 1/3)" in err and "sft (check 3/3)" in err
    assert "sft:" in err[err.rindex("(check ") :]  # the plain description is back after the last check
