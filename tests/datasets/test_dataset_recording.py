"""Recording: every field round-trips through the dataset (single and vector envs), and a process
killed mid-episode leaves the earlier episodes intact and the interrupted one marked."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from datasethelpers import part_of, play
from gymnasium.vector.utils import iterate

from cerebellum_gym.agents import RandomAgent
from cerebellum_gym.core.actions import batch_actions
from cerebellum_gym.datasets import DatasetError, RecordEpisodes, open_dataset, recording_env_fns
from cerebellum_gym.datasets.format import PART_STEPS
from cerebellum_gym.datasets.replay import audit
from cerebellum_gym.vector import vectorize


def assert_same_observation(loaded: dict[str, Any], original: dict[str, Any]) -> None:
    assert set(loaded) == set(original)
    assert loaded["goal"] == original["goal"]
    assert loaded["tree"] == original["tree"]
    assert loaded["labels"] == tuple(original["labels"])
    for key in ("action_mask", "label_mask"):
        assert loaded[key].dtype == original[key].dtype and np.array_equal(loaded[key], original[key])
    if "screenshot" in original:
        assert loaded["screenshot"].shape == original["screenshot"].shape
        assert np.array_equal(loaded["screenshot"], original["screenshot"])
    lh, oh = loaded["history"], original["history"]
    assert set(lh) == set(oh)
    assert lh["actions"] == tuple(oh["actions"]) and lh["subtrees"] == tuple(oh["subtrees"])
    assert np.array_equal(lh["mask"], oh["mask"]) and lh["mask"].dtype == oh["mask"].dtype
    if "screenshots" in oh:
        assert np.array_equal(lh["screenshots"], oh["screenshots"])


def assert_episode_matches(episode: Any, trace: list[tuple[Any, ...]]) -> None:
    """``trace`` (from :func:`play`) and the recorded episode agree on every field."""
    _, obs0, info0 = trace[0]
    steps = list(episode.steps())
    assert len(steps) == len(trace)
    assert episode.meta["goal"] == info0["goal"] and episode.meta["task"] == info0["task"]
    assert episode.meta["reset_info"] == {k: v for k, v in info0.items() if k != "goal"}
    assert_same_observation(steps[0].observation(), obs0)
    for step, (_, action, _obs, reward, terminated, truncated, info) in zip(steps, trace[1:], strict=False):
        assert step.action == action
        assert step.reward == pytest.approx(float(reward), abs=0.0)
        assert (step.terminated, step.truncated) == (terminated, truncated)
        assert step.info == info
    for step, entry in zip(steps[1:], trace[1:], strict=True):
        assert_same_observation(step.observation(), entry[2])
    last = steps[-1]
    assert last.is_last and last.action is None and last.info is None
    final = trace[-1][6]
    assert episode.complete and episode.status == "complete"
    assert episode.meta["success"] == final["success"] and episode.meta["progress"] == final["progress"]
    assert episode.meta["return"] == pytest.approx(sum(float(e[3]) for e in trace[1:]))


def test_record_then_load_round_trips_every_field(tmp_path: Path) -> None:
    env = RecordEpisodes(gym.make("Cerebellum-Sim-v0", max_steps=12), tmp_path, agent="mixed", metadata={"note": "x"})
    agent = RandomAgent(seed=3)
    invalid_sent = []

    def policy(obs: Any) -> str:
        # Every third action is invalid on purpose: info["error"] must round-trip too.
        if len(invalid_sent) % 3 == 2:
            invalid_sent.append(1)
            return "T QQQ"
        invalid_sent.append(0)
        return agent.act(obs)

    traces = [
        play(env, policy, seed=11, options={"task": "ContactsAddContact"}),
        play(env, lambda obs: env.unwrapped.oracle_action(), seed=12, options={"task": "SystemBrightnessMax"}),
        play(env, policy, seed=None, options={"task": "SystemWifiTurnOn"}),  # unseeded: the RNG state is kept
    ]
    env.close()
    episodes = list(open_dataset(tmp_path).episodes())
    assert len(episodes) == 3
    for episode, trace in zip(episodes, traces, strict=True):
        assert_episode_matches(episode, trace)
        assert episode.meta["agent"] == "mixed" and episode.meta["meta"] == {"note": "x"}
    assert episodes[0].meta["seed"] == 11 and episodes[2].meta["seed"] is None and episodes[2].meta["rng_state"]
    assert episodes[0].meta["task_params"]["name"] and episodes[0].meta["options"] == {"task": "ContactsAddContact"}
    assert any(s.info and s.info["invalid_action"] and s.info["error"] for e in episodes for s in e.steps())
    # Identical screens are stored once.
    images = open_dataset(tmp_path).image_ids()
    ids = {i for e in episodes for s in e.steps() for i in s.image_ids}
    assert len(images) == len(ids) < sum(len(list(e.steps())) * 5 for e in episodes)


def test_vector_envs_record_every_sub_env(tmp_path: Path) -> None:
    fns = [partial(gym.make, "Cerebellum-Sim-v0", task=["SystemWifiTurnOn", "ContactsAddContact"], max_steps=6)] * 2
    envs = vectorize(recording_env_fns(fns, tmp_path, agent="random"), "sync")
    agent = RandomAgent(seed=5)
    batch, infos = envs.reset(seed=[100, 200])
    current: list[list[tuple[Any, ...]]] = [[("reset", o, {})] for o in iterate(envs.observation_space, batch)]
    finished: list[list[tuple[Any, ...]]] = []
    autoreset = [False, False]
    for _ in range(20):
        observations = list(iterate(envs.observation_space, batch))
        actions = [agent.act(o) for o in observations]
        # Vector envs take the structured form; the recorder stores the env's string form of it.
        batch, rewards, terms, truncs, infos = envs.step(batch_actions(actions, [o["labels"] for o in observations]))
        new_obs = list(iterate(envs.observation_space, batch))
        for i in range(2):
            if autoreset[i]:  # NEXT_STEP autoreset: this step was the reset of a new episode
                current[i] = [("reset", new_obs[i], {})]
                autoreset[i] = False
                continue
            current[i].append(("step", actions[i], new_obs[i], rewards[i], bool(terms[i]), bool(truncs[i])))
            if terms[i] or truncs[i]:
                finished.append(current[i])
                autoreset[i] = True
    envs.close()
    episodes = [e for e in open_dataset(tmp_path).episodes() if e.complete]
    assert len(episodes) == len(finished) >= 4
    by_actions = {tuple(e.actions): e for e in episodes}
    for trace in finished:
        episode = by_actions[tuple(entry[1] for entry in trace[1:])]
        steps = list(episode.steps())
        assert len(steps) == len(trace)
        assert_same_observation(steps[0].observation(), trace[0][1])
        for step, (_, action, _obs, reward, terminated, truncated) in zip(steps, trace[1:], strict=False):
            assert (step.action, step.reward, step.terminated, step.truncated) == (action, float(reward), terminated, truncated)
        for step, entry in zip(steps[1:], trace[1:], strict=True):
            assert_same_observation(step.observation(), entry[2])
    # The episodes that autoreset drew without a seed still replay exactly.
    assert audit(tmp_path).ok


def test_async_vector_env_workers_write_one_dataset(tmp_path: Path) -> None:
    fns = [partial(gym.make, "Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False)] * 2
    envs = vectorize(recording_env_fns(fns, tmp_path, agent="random"), "async")
    envs.reset(seed=[1, 2])
    for _ in range(3):
        envs.step(batch_actions(["W", "W"], [(), ()]))
    envs.close()
    episodes = list(open_dataset(tmp_path).episodes())
    # Two worker processes, one episode each, closed mid-episode: kept, marked, readable.
    assert len(episodes) == 2 and {e.status for e in episodes} == {"closed"}
    assert [len(e.rows) for e in episodes] == [3, 3] and {e.meta["seed"] for e in episodes} == {1, 2}


CRASHING_SCRIPT = textwrap.dedent(
    """
    import sys, gymnasium as gym, cerebellum_gym
    from cerebellum_gym.datasets import RecordEpisodes
    env = RecordEpisodes(gym.make("Cerebellum-Sim-v0", max_steps=10**9), sys.argv[1], agent="oracle")
    for seed, task in ((0, "SystemWifiTurnOn"), (1, "ContactsAddContact")):
        obs, info = env.reset(seed=seed, options={"task": task})
        done = False
        while not done:
            obs, r, term, trunc, info = env.step(env.unwrapped.oracle_action())
            done = term or trunc
    env.reset(seed=2, options={"task": "ContactsAddContact"})
    for _ in range(3):
        env.step(env.unwrapped.oracle_action())
    env.flush()
    print("READY", flush=True)
    while True:  # keeps acting, and writing, until killed
        env.step("W")
    """
)


def test_a_process_killed_mid_episode_leaves_a_readable_dataset(tmp_path: Path) -> None:
    script = tmp_path / "crash.py"
    script.write_text(CRASHING_SCRIPT)
    folder = tmp_path / "data"
    proc = subprocess.Popen([sys.executable, str(script), str(folder)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "READY"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    episodes = list(open_dataset(folder).episodes())
    assert [e.status for e in episodes] == ["complete", "complete", "incomplete"]
    assert [e.meta["task"] for e in episodes] == ["SystemWifiTurnOn", "ContactsAddContact", "ContactsAddContact"]
    assert all(e.meta["success"] for e in episodes[:2])
    assert len(episodes[2].rows) >= 3 and not episodes[2].complete
    assert episodes[2].actions[3:] == ["W"] * (len(episodes[2].actions) - 3)
    # The complete ones, and the part of the interrupted one that was written, replay exactly.
    report = audit(folder)
    assert report.ok and [e.status for e in report.episodes] == ["ok", "ok", "ok"]
    assert list(open_dataset(folder).episodes(complete_only=True))[1].episode_id == episodes[1].episode_id


def test_a_line_cut_short_is_dropped_and_marks_the_episode(oracle_random_data: Path, data_copy: Path) -> None:
    first = open_dataset(data_copy).episode_ids()[0]
    path = part_of(data_copy, first) / PART_STEPS
    with open(path, "a") as f:
        f.write('{"episode_id":"' + first + '","t":99,"tree":"half a li')
    episode = open_dataset(data_copy).episode(first)
    original = open_dataset(oracle_random_data).episode(first)
    assert episode.torn and not episode.complete and episode.status == "incomplete"
    assert episode.rows == original.rows


def test_a_newer_format_is_refused(tmp_path: Path) -> None:
    (tmp_path / "dataset.json").write_text(json.dumps({"format": "cerebellum-gym-dataset", "version": 99}))
    with pytest.raises(DatasetError, match="format version 99"):
        open_dataset(tmp_path)
    with pytest.raises(DatasetError, match="not a cerebellum-gym dataset"):
        open_dataset(tmp_path / "nothing")


def test_a_process_that_exits_without_closing_keeps_its_finished_episodes(tmp_path: Path) -> None:
    script = tmp_path / "exit.py"
    script.write_text(
        textwrap.dedent(
            """
            import sys, gymnasium as gym, cerebellum_gym
            from cerebellum_gym.datasets import RecordEpisodes
            env = RecordEpisodes(gym.make("Cerebellum-Sim-v0"), sys.argv[1])
            env.reset(seed=0, options={"task": "SystemWifiTurnOn"})
            done = False
            while not done:
                _, _, terminated, truncated, _ = env.step(env.unwrapped.oracle_action())
                done = terminated or truncated
            """
        )
    )
    subprocess.run([sys.executable, str(script), str(tmp_path / "data")], check=True)
    (episode,) = open_dataset(tmp_path / "data").episodes()
    assert episode.status == "complete" and episode.meta["success"]


@pytest.mark.parametrize("where", ["file", "file/sub"])
def test_recording_into_a_file_is_a_dataset_error_naming_it(tmp_path: Path, where: str) -> None:
    (tmp_path / "file").write_text("not a dataset")
    target = tmp_path / where
    with pytest.raises(DatasetError, match=f"{tmp_path / 'file'} is a file, not a folder"):
        RecordEpisodes(gym.make("Cerebellum-Sim-v0", pixels=False), target)
    with pytest.raises(DatasetError, match="is a file, not a folder"):
        gym.make_vec("Cerebellum-Sim-v0", num_envs=2, pixels=False, record=target)
    assert (tmp_path / "file").read_text() == "not a dataset"
