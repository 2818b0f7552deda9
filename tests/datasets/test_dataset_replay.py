"""Replay audit: recorded simulator episodes reproduce every observation; tampering is caught and located."""

from __future__ import annotations

from pathlib import Path

from datasethelpers import point_image_at, rewrite_row

from cerebellum_gym.datasets import open_dataset
from cerebellum_gym.datasets.replay import audit


def test_recorded_episodes_replay_exactly(oracle_random_data: Path) -> None:
    report = audit(oracle_random_data)
    data = open_dataset(oracle_random_data)
    assert report.ok, report.markdown()
    assert len(report.episodes) == len(data) == 16
    assert all(e.status == "ok" for e in report.episodes)
    # Every observation was compared, and every distinct image decoded and checked.
    assert sum(e.steps for e in report.episodes) == sum(len(e.rows) for e in data.episodes())
    assert report.images_checked == len(data.image_ids())


def test_a_tampered_tree_fails_the_audit_and_says_where(data_copy: Path) -> None:
    episode = next(e for e in open_dataset(data_copy).episodes() if len(e.rows) > 3)

    def edit(row: dict) -> None:
        lines = row["tree"].split("\n")
        lines[1] = lines[1] + " (edited)"
        row["tree"] = "\n".join(lines)

    rewrite_row(data_copy, episode.episode_id, 2, edit)
    report = audit(data_copy, check_images=False)
    bad = [e for e in report.episodes if e.status != "ok"]
    assert not report.ok and len(bad) == 1
    assert bad[0].episode_id == episode.episode_id and bad[0].where == "step 2, tree"
    assert "line 2" in bad[0].detail and "(edited)" in bad[0].detail
    assert "MISMATCH at step 2, tree" in report.markdown()


def test_a_tampered_reward_or_action_fails_the_audit(data_copy: Path) -> None:
    episodes = [e for e in open_dataset(data_copy).episodes() if len(e.rows) > 3]
    rewrite_row(data_copy, episodes[0].episode_id, 1, lambda row: row.update(reward=0.5))
    # An edited action replays a different step: the next observation no longer matches.
    rewrite_row(data_copy, episodes[1].episode_id, 0, lambda row: row.update(action="H" if row["action"] != "H" else "B"))
    results = {e.episode_id: e for e in audit(data_copy, check_images=False).episodes}
    assert results[episodes[0].episode_id].where == "step 1, reward"
    assert results[episodes[1].episode_id].status == "mismatch" and results[episodes[1].episode_id].where.startswith("step ")


def test_a_tampered_image_file_fails_the_audit(data_copy: Path) -> None:
    data = open_dataset(data_copy)
    step = next(s for s in data.steps() if s.row.get("screenshot"))
    other = next(s.row["screenshot"] for s in data.steps() if s.row.get("screenshot") not in (None, step.row["screenshot"]))
    point_image_at(data_copy, step.row["screenshot"], other)
    report = audit(data_copy)
    assert all(e.status == "ok" for e in report.episodes)  # the replayed pixels still match the recorded ids
    assert not report.ok and len(report.image_errors) == 1
    assert step.row["screenshot"] in report.image_errors[0] and "different pixels" in report.image_errors[0]


def test_episodes_of_other_backends_are_skipped_with_the_reason(tmp_path: Path) -> None:
    from cerebellum_gym.datasets import RecordEpisodes
    from cerebellum_gym.loader import make_env

    # Built without gym.make (no spec): the recorder cannot tell how to rebuild it.
    env = RecordEpisodes(make_env("SystemWifiTurnOn", pixels=False), tmp_path)
    env.reset(seed=0)
    env.step("W")
    env.close()
    report = audit(tmp_path)
    assert report.ok and report.episodes[0].status == "skipped"
    assert "env id" in report.episodes[0].detail


def test_structured_actions_the_env_refused_replay_exactly(tmp_path: Path) -> None:
    """Random structured actions (many refused: well formed but illegal here, or naming an empty
    label slot) are recorded so that replay sends what was sent and gets the same refusals."""
    import gymnasium as gym
    import numpy as np
    import pytest

    from cerebellum_gym.core.actions import CODES
    from cerebellum_gym.datasets import DatasetError, RecordEpisodes

    env = RecordEpisodes(gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", max_steps=8, pixels=False), tmp_path)
    env.action_space.seed(20)
    env.reset(seed=1)
    for _ in range(6):
        action = env.action_space.sample()
        action["text"] = action["text"][:8]
        env.step(action)
    env.step({"code": np.int64(CODES.index("T")), "label": np.int64(60), "text": ""})  # an empty slot
    env.close()
    (episode,) = open_dataset(tmp_path).episodes()
    rows = episode.rows
    assert sum(bool((r.get("info") or {}).get("invalid_action")) for r in rows) >= 3
    assert rows[6]["action_input"] == {"code": CODES.index("T"), "label": 60, "text": ""}
    assert all("action_input" not in r for r in rows if not (r.get("info") or {}).get("invalid_action"))
    report = audit(tmp_path)
    assert report.ok and [e.status for e in report.episodes] == ["ok"]
    # What replay would send is checked as it is read: only a code, a label and a text.
    rewrite_row(tmp_path, episode.episode_id, 6, lambda row: row.update(action_input={"code": "os.system"}))
    with pytest.raises(DatasetError, match="action_input"):
        list(open_dataset(tmp_path).episodes())
