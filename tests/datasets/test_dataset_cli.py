"""The command line: ``eval --record`` writes a dataset and shows its replay audit; ``replay``,
``eval-offline`` and ``export`` work on it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from datasethelpers import rewrite_row

from cerebellum_gym.cli import main
from cerebellum_gym.datasets import open_dataset


def test_eval_record_replay_offline_and_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, run = tmp_path / "data", tmp_path / "run"
    code = main(
        ["eval", "--agent", "oracle", "--suite", "tasks:SystemWifiTurnOn,ClockStopWatchRunning:2", "--num-envs", "2",
         "--pixels", "on", "--record", str(data), "--out", str(run), "--progress", "off", "--screens", "0"]
    )  # fmt: skip
    assert code == 0
    episodes = list(open_dataset(data).episodes())
    assert len(episodes) == 4 and all(e.complete and e.meta["agent"] == "oracle" for e in episodes)
    assert {e.meta["meta"]["run"] for e in episodes} == {str(run)}
    results = [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()]
    assert sorted((r["task"], r["seed"], tuple(r["actions"])) for r in results) == sorted(
        (e.meta["task"], e.meta["seed"], tuple(e.actions)) for e in episodes
    )
    audit = json.loads((run / "audit.json").read_text())
    assert audit["ok"] and audit["counts"]["ok"] == 4
    assert "## Replay audit" in (run / "summary.md").read_text()
    assert "replay audit PASS" in (run / "report.html").read_text()
    capsys.readouterr()

    assert main(["eval-offline", "--agent", "oracle", "--data", str(data), "--n", "10", "--out", str(tmp_path / "off")]) == 0
    assert "| Exact action string | 10/10 = 100.0% |" in capsys.readouterr().out
    assert json.loads((tmp_path / "off" / "offline.json").read_text())["exact"]["rate"] == 1.0

    assert main(["export", "dpo", str(data), str(tmp_path / "dpo"), "--no-prompts"]) == 0
    assert "exact duplicates removed" in capsys.readouterr().out

    assert main(["replay", str(data)]) == 0
    assert "replay audit PASS" in capsys.readouterr().out
    episode = episodes[0]
    rewrite_row(data, episode.episode_id, 1, lambda row: row.update(labels=list(reversed(row["labels"]))))
    assert main(["replay", str(data), "--no-images"]) == 1
    out = capsys.readouterr().out
    assert "replay audit FAIL" in out and f"{episode.episode_id}" in out and "step 1, labels" in out


def test_eval_offline_reports_a_bad_dataset_as_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval-offline", "--agent", "random", "--data", str(tmp_path)]) == 2
    assert "not a cerebellum-gym dataset" in capsys.readouterr().err
