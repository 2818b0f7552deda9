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
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import iterate

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents import RandomAgent
from cerebellum_gym.datasets import open_dataset
from cerebellum_gym.datasets.replay import audit

TASKS = ["SystemWifiTurnOn", "ContactsAddContact", "ClockStopWatchRunning"]


def _same(loaded: dict[str, Any], returned: dict[str, Any]) -> None:
    assert set(loaded) == set(returned)
    assert loaded["goal"] == returned["goal"] and loaded["tree"] == returned["tree"]
    assert loaded["labels"] == tuple(returned["labels"])
    for key in ("action_mask", "label_mask"):
        assert np.array_equal(loaded[key], returned[key])
    if "screenshot" in returned:
        assert np.array_equal(loaded["screenshot"], returned["screenshot"])
    history, want = loaded["history"], returned["history"]
    assert history["actions"] == tuple(want["actions"]) and history["subtrees"] == tuple(want["subtrees"])
    assert np.array_equal(history["mask"], want["mask"])
    if "screenshots" in want:
        assert np.array_equal(history["screenshots"], want["screenshots"])


Played = list[tuple[dict[str, Any], "str | None"]]


def _play(envs: Any, mode: AutoresetMode, steps: int) -> list[Played]:
    """A random agent's steps in every autoreset mode; the episodes that ended, each as its
    (observation returned, action sent) pairs, the final observation with ``None``."""
    n = envs.num_envs
    agent = RandomAgent(seed=7, allow_terminal=False)
    batch, _ = envs.reset(seed=[11, 12, 13][:n])
    current: list[Played] = [[] for _ in range(n)]
    finished: list[Played] = []
    resets_next = [False] * n  # NEXT_STEP: the coming step resets this env
    for _ in range(steps):
        # The batch's arrays are overwritten by the next step: keep copies.
        observations = [copy.deepcopy(o) for o in iterate(envs.observation_space, batch)]
        actions = [agent.act(o) for o in observations]
        for i in range(n):
            if not resets_next[i]:
                current[i].append((observations[i], actions[i]))
        batch, _, terminations, truncations, infos = envs.step(actions)
        rows = list(iterate(envs.observation_space, batch))
        ended = [bool(t or u) for t, u in zip(terminations, truncations, strict=True)]
        for i in range(n):
            if resets_next[i]:  # this step was the new episode's reset
                resets_next[i] = False
                current[i] = []
            elif ended[i]:
                final = infos["final_obs"][i] if mode == AutoresetMode.SAME_STEP else rows[i]
                finished.append([*current[i], (copy.deepcopy(final), None)])
                current[i] = []
                resets_next[i] = mode == AutoresetMode.NEXT_STEP
        if mode == AutoresetMode.DISABLED and any(ended):
            batch, _ = envs.reset(options={"reset_mask": np.array(ended)})
    return finished


@pytest.mark.parametrize(
    ("shards", "mode", "pixels"),
    [
        (1, AutoresetMode.NEXT_STEP, True),
        (2, AutoresetMode.NEXT_STEP, True),
        (1, AutoresetMode.SAME_STEP, True),
        (2, AutoresetMode.SAME_STEP, False),
        (1, AutoresetMode.DISABLED, False),
        (2, AutoresetMode.DISABLED, True),
    ],
)
def test_every_sub_env_is_recorded_as_the_batch_returned_it(tmp_path: Path, shards: int, mode: AutoresetMode, pixels: bool) -> None:
    envs = gym.make_vec(
        "Cerebellum-Sim-v0",
        num_envs=3,
        shards=shards,
        autoreset_mode=mode,
        task=TASKS,
        max_steps=4,
        pixels=pixels,
        screenshot_width=64,
        history_width=32,
        record=tmp_path,
        record_agent="random",
    )
    finished = _play(envs, mode, 14)
    envs.close()

    dataset = open_dataset(tmp_path)
    complete = [e for e in dataset.episodes() if e.complete]
    assert len(complete) == len(finished) >= 6
    assert {e.meta["agent"] for e in complete} == {"random"}
    assert {e.meta["seed"] for e in complete} >= {11, 12, 13}  # the first three; the others reset unseeded
    by_actions: dict[tuple[str | None, ...], Any] = {tuple(e.actions): e for e in complete}
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


def test_episodes_open_when_the_env_is_dropped_without_close_are_ended(tmp_path: Path) -> None:
    import gc

    envs: Any = gym.make_vec("Cerebellum-Sim-v0", num_envs=2, task="SystemWifiTurnOn", pixels=False, record=tmp_path)
    envs.reset(seed=[0, 1])
    envs.step(["W", "W"])
    del envs
    gc.collect()
    episodes = list(open_dataset(tmp_path).episodes())
    assert len(episodes) == 2 and {e.status for e in episodes} == {"closed"}


def test_closing_goes_on_past_a_recorder_that_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One recorder's close fails: the others still close (their envs too), and the failure is raised."""
    from cerebellum_gym.datasets import recorder

    envs: Any = gym.make_vec("Cerebellum-Sim-v0", num_envs=3, task="SystemWifiTurnOn", pixels=False, record=tmp_path)
    envs.reset(seed=[0, 1, 2])
    steppers = list(envs.unwrapped._steppers)
    real = recorder.RecordEpisodes.close

    def close(self: recorder.RecordEpisodes) -> None:
        if self is steppers[0]:
            raise OSError("disk full")
        real(self)

    monkeypatch.setattr(recorder.RecordEpisodes, "close", close)
    with pytest.raises(OSError, match="disk full"):
        envs.close()
    assert [r._writer is None for r in steppers] == [False, True, True]
    monkeypatch.setattr(recorder.RecordEpisodes, "close", real)
    steppers[0].close()


def test_a_recorder_that_fails_to_start_leaves_no_writer_or_env_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second sub-env's recorder fails: the first one's writer is released and every
    sub-env closed, and the error reaches the caller."""
    from cerebellum_gym.datasets import recorder
    from cerebellum_gym.env import CerebellumEnv

    made: list[recorder.RecordEpisodes] = []
    slots: list[CerebellumEnv] = []
    closed: list[CerebellumEnv] = []
    real_init, real_close, real_slot_init = recorder.RecordEpisodes.__init__, CerebellumEnv.close, CerebellumEnv.__init__

    def slot_init(self: CerebellumEnv, *args: Any, **kwargs: Any) -> None:
        real_slot_init(self, *args, **kwargs)
        slots.append(self)

    def init(self: recorder.RecordEpisodes, *args: Any, **kwargs: Any) -> None:
        if made:
            raise OSError("disk full")
        real_init(self, *args, **kwargs)
        made.append(self)

    def close(self: CerebellumEnv) -> None:
        closed.append(self)
        real_close(self)

    monkeypatch.setattr(recorder.RecordEpisodes, "__init__", init)
    monkeypatch.setattr(CerebellumEnv, "close", close)
    monkeypatch.setattr(CerebellumEnv, "__init__", slot_init)
    with pytest.raises(OSError, match="disk full"):
        gym.make_vec("Cerebellum-Sim-v0", num_envs=3, pixels=False, record=tmp_path)
    assert len(made) == 1 and made[0]._writer is None  # released
    assert not [key for key in recorder._WRITERS if key[1] == str(tmp_path.resolve())]
    assert len(slots) == 3 and all(any(env is slot for env in closed) for slot in slots)
