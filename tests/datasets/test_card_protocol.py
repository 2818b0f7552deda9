"""``eval-offline --protocol card`` on imported data: the card's shards, n, seed and quota."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from cerebellum_gym.cli import main
from cerebellum_gym.core.tree import UINode
from cerebellum_gym.datasets.importers import import_dataset
from cerebellum_gym.datasets.importers.synthetic import androidcontrol_example
from cerebellum_gym.datasets.importers.tfrecord import write_records
from cerebellum_gym.datasets.offline import CARD_PROTOCOL, candidate_steps, parse_quota, sample_steps
from cerebellum_gym.datasets.reader import open_dataset

SIZE = (540, 1200)


def _episode(i: int) -> bytes:
    root = UINode(
        "android.widget.FrameLayout",
        (0, 0, *SIZE),
        children=[UINode("android.widget.Button", (0, 0, 540, 300), text="A", clickable=True)],
    )
    actions = [
        {"action_type": "click", "x": 10, "y": 10},
        {"action_type": "click", "x": 20, "y": 20},
        {"action_type": "input_text", "text": f"t{i}"},
        {"action_type": "scroll", "direction": "down"},
        {"action_type": "wait"},
        {"action_type": "navigate_back"},
    ]
    return androidcontrol_example(i, "g", [root] * (len(actions) + 1), actions, size=SIZE)


def test_card_protocol_uses_its_shards_seed_and_quota(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for shard in (17, 18, 19):
        write_records(src / f"ac-000{shard}-of-00020", [_episode(shard * 100 + i) for i in range(12)])
    out = tmp_path / "data"
    import_dataset("androidcontrol", src, out)
    assert main(["eval-offline", "--agent", "random", "--data", str(out), "--protocol", "card", "--out", str(tmp_path / "eval")]) == 0
    results = json.loads((tmp_path / "eval" / "offline.json").read_text())
    assert results["n"] == 100 and results["seed"] == 44103
    shards = {p["episode_id"].split("-")[1][:2] for p in results["predictions"]}
    assert shards <= {"18", "19"}, shards
    for key in ("exact", "action_type", "tap_label", "groups", "scroll_failures", "scroll_confusion", "latency_s"):
        assert key in results
    text = (tmp_path / "eval" / "offline.md").read_text()
    for figure in ("Exact action string", "Action type", "Tap/long-press element label", "scroll_failures", "scroll_confusion"):
        assert figure in text


def test_card_sampler_draws_in_the_quota_proportions(tmp_path: Path) -> None:
    src = tmp_path / "ac-00018-of-00020"
    write_records(src, [_episode(i) for i in range(60)])
    import_dataset("androidcontrol", src, tmp_path / "data")
    steps = candidate_steps(open_dataset(tmp_path / "data"), shards=CARD_PROTOCOL["shards"])
    picked = sample_steps(steps, 200, CARD_PROTOCOL["seed"], parse_quota(CARD_PROTOCOL["quota"]))
    groups = Counter("tp" if s.action[0] in "TP" else {"K": "k", "D": "scroll", "W": "wait"}.get(s.action[0], "system") for s in picked)
    # Expected shares 5/12, 2/12, 2/12, 2/12, 1/12 of 200 draws (every pool is larger than its draws).
    assert abs(groups["tp"] - 200 * 5 / 12) < 20
    assert abs(groups["system"] - 200 / 12) < 10
    assert all(abs(groups[g] - 200 * 2 / 12) < 15 for g in ("k", "scroll", "wait"))
