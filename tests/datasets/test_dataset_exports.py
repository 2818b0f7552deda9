"""Exports: Parquet read back by Hugging Face ``datasets``, Minari read back by minari, SFT prompts
from the reference agent's own builder, and DPO pairs that never mix tasks or parameters and
drop exact duplicates, counted."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from datasethelpers import duplicate_episode

from cerebellum_gym.agents.qwen_prompt import build_messages, render_prompt
from cerebellum_gym.datasets import open_dataset
from cerebellum_gym.datasets.exports import export_dpo, export_minari, export_parquet, export_sft
from cerebellum_gym.datasets.format import canonical_json, decode_image
from cerebellum_gym.datasets.offline import canonical


def test_parquet_export_loads_in_hugging_face_datasets(oracle_random_data: Path, tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets")
    counts = export_parquet(oracle_random_data, tmp_path / "pq", steps_per_shard=50)
    data = open_dataset(oracle_random_data)
    steps = list(data.steps())
    assert counts["steps"] == len(steps) and counts["episodes"] == len(data) and counts["shards"] == -(-len(steps) // 50)
    cache = str(tmp_path / "hf-cache")  # a private cache: HF's default one may hold an older export of a same-named folder
    loaded = datasets.load_dataset(str(tmp_path / "pq"), "steps", split="train", cache_dir=cache)
    assert isinstance(loaded.features["screenshot"], datasets.Image)
    assert len(loaded) == len(steps)
    for index in (0, 1, len(steps) // 2, len(steps) - 1):
        row, step = loaded[index], steps[index]
        obs = step.observation()
        assert (row["episode_id"], row["t"], row["action"], row["reward"]) == (step.episode_id, step.t, step.action, step.reward)
        assert row["tree"] == obs["tree"] and tuple(row["labels"]) == obs["labels"] and row["goal"] == obs["goal"]
        assert row["action_mask"] == obs["action_mask"].tolist()
        assert np.array_equal(np.asarray(row["screenshot"].convert("RGB")), obs["screenshot"])
        history = np.stack([np.asarray(im.convert("RGB")) for im in row["history_screenshots"]])
        assert np.array_equal(history, obs["history"]["screenshots"])
        assert (row["info"] is None) == step.is_last
    episodes = datasets.load_dataset(str(tmp_path / "pq"), "episodes", split="train", cache_dir=cache)
    assert sorted(episodes["episode_id"]) == sorted(data.episode_ids())


def test_minari_export_loads_in_minari(oracle_random_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    minari = pytest.importorskip("minari")
    export_minari(oracle_random_data, "cerebellum/test-lossless-v0", root=tmp_path, jpeg=False)
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    loaded = minari.load_dataset("cerebellum/test-lossless-v0")
    episodes = list(open_dataset(oracle_random_data).episodes(complete_only=True))
    assert loaded.total_episodes == len(episodes) and loaded.total_steps == sum(len(e.actions) for e in episodes)
    for mine, theirs in zip(episodes, loaded.iterate_episodes(), strict=True):
        assert list(theirs.actions) == mine.actions
        assert np.allclose(theirs.rewards, mine.rewards)
        assert list(theirs.terminations) == [r["terminated"] for r in mine.rows[:-1]]
        assert list(theirs.observations["tree"]) == [r["tree"] for r in mine.rows]
        steps = list(mine.steps())
        assert np.array_equal(theirs.observations["screenshot"][-1], steps[-1].observation()["screenshot"])
        assert bool(theirs.infos["success"][-1]) == mine.meta["success"]


def test_sft_examples_use_the_reference_agents_prompt(oracle_random_data: Path, tmp_path: Path) -> None:
    counts = export_sft(oracle_random_data, tmp_path / "sft")
    data = open_dataset(oracle_random_data)
    successful = [e for e in data.episodes() if e.meta["success"]]
    expected = [s for e in successful for s in e.steps() if s.action is not None and not s.info["invalid_action"]]
    lines = [json.loads(x) for x in (tmp_path / "sft" / "sft.jsonl").read_text().splitlines()]
    assert counts["examples"] == len(lines) == len(expected) > 0
    for line, step in zip(lines[:8], expected[:8], strict=True):
        messages, images = build_messages(step.observation(), step=step.t + 1)
        assert line["messages"][:-1] == messages
        assert line["messages"][-1] == {"role": "assistant", "content": canonical(step.action or "")} and line["target"] == step.action
        assert len(line["images"]) == len(images) == sum(item["type"] == "image" for item in messages[0]["content"])
        for path, image in zip(line["images"], images, strict=True):
            assert np.array_equal(decode_image((tmp_path / "sft" / path).read_bytes()), image)


def test_sft_prompts_render_as_inference_renders_them(oracle_random_data: Path, tmp_path: Path) -> None:
    pytest.importorskip("transformers")
    from cerebellum_gym.agents.qwen_tiny import build_tokenizer

    tokenizer = build_tokenizer()
    export_sft(oracle_random_data, tmp_path / "sft", tokenizer=tokenizer)
    line = json.loads((tmp_path / "sft" / "sft.jsonl").read_text().splitlines()[3])
    assert line["prompt"] == render_prompt(tokenizer, line["messages"][:-1])
    assert line["completion"].startswith(line["target"])
    assert line["prompt"].count("<|image_pad|>") == len(line["images"])


def _rank(meta: dict) -> tuple[int, float]:
    return (int(bool(meta["success"])), round(float(meta["progress"]), 9))


def test_dpo_pairs_keep_to_one_task_and_parameters_and_drop_exact_duplicates(data_copy: Path, tmp_path: Path) -> None:
    data = open_dataset(data_copy)
    oracle = [e for e in data.episodes() if e.meta["agent"] == "oracle" and e.meta["success"]]
    for i, episode in enumerate(oracle[:3]):  # the same trajectory recorded again, as a re-run would
        duplicate_episode(data_copy, episode.episode_id, f"zz-duplicate-{i}")
    data = open_dataset(data_copy)
    episodes = list(data.episodes(complete_only=True))

    # The expected counts, from the definition: same task and parameters, higher rank first.
    groups: dict[tuple[str, str], list] = {}
    for e in episodes:
        groups.setdefault((e.meta["task"], canonical_json(e.meta["task_params"])), []).append(e)
    formed = Counter()
    for members in groups.values():
        for a in members:
            for b in members:
                if _rank(a.meta) > _rank(b.meta):
                    formed[(tuple(a.actions), tuple(b.actions), a.meta["task"], canonical_json(a.meta["task_params"]))] += 1
    expected_duplicates = sum(n - 1 for n in formed.values())
    assert expected_duplicates >= 3

    stats = export_dpo(data_copy, tmp_path / "dpo")
    assert stats["pairs"] == sum(formed.values())
    assert stats["duplicates_removed"] == expected_duplicates
    assert stats["kept"] == len(formed)
    pairs = [json.loads(x) for x in (tmp_path / "dpo" / "dpo.jsonl").read_text().splitlines()]
    assert len(pairs) == stats["kept"] and len({p["hash"] for p in pairs}) == len(pairs)
    by_id = {e.episode_id: e for e in episodes}
    for pair in pairs:
        chosen, rejected = by_id[pair["chosen"]["episode_id"]], by_id[pair["rejected"]["episode_id"]]
        assert chosen.meta["task"] == rejected.meta["task"] == pair["task"]
        assert chosen.meta["task_params"] == rejected.meta["task_params"] == pair["params"]
        assert _rank(chosen.meta) > _rank(rejected.meta)
        assert pair["chosen"]["agent"] == chosen.meta["agent"] and pair["rejected"]["agent"] == rejected.meta["agent"]
        assert [s["target"] for s in pair["chosen"]["steps"]] == pair["chosen"]["actions"]
    assert json.loads((tmp_path / "dpo" / "dpo_stats.json").read_text())["duplicates_removed"] == expected_duplicates
