"""Recording the native and sharded vector envs (``gym.make_vec(..., record=DIR)``): every
sub-env's episodes, each row equal to that env's row of the batch the vector env returned, and
replayable from their seeds (or, after an autoreset, the generator's state)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector.utils import iterate

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents import RandomAgent
from cerebellum_gym.datasets import open_dataset
from cerebellum_gym.datasets.replay import audit

TASKS = ["SystemWifiTurnOn", "ContactsAddContact", "ClockStopWatchRunning"]


def _same(loaded: dict[str, Any], returned: dict[str, Any]) -> None:
    assert loaded["goal"] == returned["goal"] and loaded["tree"] == returned["tree"]
    assert loaded["labels"] == tuple(returned["labels"])
    for key in ("action_mask", "label_mask"):
        assert np.array_equal(loaded[key], returned[key])
    assert np.array_equal(loaded["screenshot"], returned["screenshot"])
    history, want = loaded["history"], returned["history"]
    assert history["actions"] == tuple(want["actions"]) and history["subtrees"] == tuple(want["subtrees"])
    assert np.array_equal(history["mask"], want["mask"])
    assert np.array_equal(history["screenshots"], want["screenshots"])


@pytest.mark.parametrize("shards", [1, 2])
def test_every_sub_env_is_recorded_as_the_batch_returned_it(tmp_path: Path, shards: int) -> None:
    envs = gym.make_vec(
        "Cerebellum-Sim-v0",
        num_envs=3,
        shards=shards,
        task=TASKS,
        max_steps=4,
        screenshot_width=64,
        history_width=32,
        record=tmp_path,
        record_agent="random",
    )
    agent = RandomAgent(seed=7, allow_terminal=False)
    batch, _ = envs.reset(seed=[11, 12, 13])
    # Per env: the episode being played, as (observation returned, action sent) pairs.
    current: list[list[tuple[dict[str, Any], str | None]]] = [[] for _ in range(3)]
    finished: list[list[tuple[dict[str, Any], str | None]]] = []
    autoreset = [False] * 3
    for _ in range(14):
        # The batch's arrays are overwritten by the next step: keep copies.
        observations = [copy.deepcopy(o) for o in iterate(envs.observation_space, batch)]
        actions = [agent.act(o) for o in observations]
        for i in range(3):
            if not autoreset[i]:
                current[i].append((observations[i], actions[i]))
        batch, _, terminations, truncations, _ = envs.step(actions)
        for i in range(3):
            if autoreset[i]:  # this step was the new episode's reset
                autoreset[i] = False
                current[i] = []
            elif terminations[i] or truncations[i]:
                final = copy.deepcopy(list(iterate(envs.observation_space, batch))[i])
                finished.append([*current[i], (final, None)])
                autoreset[i] = True
    envs.close()

    dataset = open_dataset(tmp_path)
    complete = [e for e in dataset.episodes() if e.complete]
    assert len(complete) == len(finished) >= 6
    assert {e.meta["agent"] for e in complete} == {"random"}
    assert {e.meta["seed"] for e in complete} >= {11, 12, 13}  # the first three; the others autoreset
    by_actions = {tuple(e.actions): e for e in complete}
    for played in finished:
        episode = by_actions[tuple(action for _, action in played[:-1])]
        steps = list(episode.steps())
        assert len(steps) == len(played)
        for step, (returned, action) in zip(steps, played, strict=True):
            assert step.action == action
            _same(step.observation(), returned)
    if shards == 2:
        assert len(list((tmp_path / "parts").iterdir())) == 2  # each process wrote its own part
    report = audit(tmp_path)
    assert report.ok and sum(e.status == "ok" for e in report.episodes) >= len(complete)


def test_a_recorder_that_fails_to_start_leaves_no_writer_or_env_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second sub-env's recorder fails: the first one's writer is released and every
    sub-env closed, and the error reaches the caller."""
    from cerebellum_gym.datasets import recorder
    from cerebellum_gym.vector.native import BatchSlotEnv

    made: list[recorder.RecordEpisodes] = []
    closed: list[BatchSlotEnv] = []
    real_init, real_close = recorder.RecordEpisodes.__init__, BatchSlotEnv.close

    def init(self: recorder.RecordEpisodes, *args: Any, **kwargs: Any) -> None:
        if made:
            raise OSError("disk full")
        real_init(self, *args, **kwargs)
        made.append(self)

    def close(self: BatchSlotEnv) -> None:
        closed.append(self)
        real_close(self)

    monkeypatch.setattr(recorder.RecordEpisodes, "__init__", init)
    monkeypatch.setattr(BatchSlotEnv, "close", close)
    with pytest.raises(OSError, match="disk full"):
        gym.make_vec("Cerebellum-Sim-v0", num_envs=3, pixels=False, record=tmp_path)
    assert len(made) == 1 and made[0]._writer is None  # released
    assert not [key for key in recorder._WRITERS if key[1] == str(tmp_path.resolve())]
    assert len({id(env) for env in closed}) == 3
