"""``CerebellumEnv.observation_frames``: the read-only sources of the observation last returned,
equal to its pixel arrays, the same objects while the frames stay, and ``None`` for anything but
that observation (a copy, an older one, one without pixels)."""

from __future__ import annotations

import pickle

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.core.history import frozen


def test_frames_equal_the_observation_and_stay_the_same_objects() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", screenshot_width=64, history_width=32)
    obs, _ = env.reset(seed=2)
    frames = env.unwrapped.observation_frames(obs)
    for _ in range(6):
        assert np.array_equal(frames["screenshot"], obs["screenshot"]) and frozen(frames["screenshot"])
        history = frames["history"]["screenshots"]
        assert all(frozen(frame) for frame in history)
        assert np.array_equal(np.stack(history), obs["history"]["screenshots"])
        assert frames["screenshot"] is not obs["screenshot"]  # the caller still gets its own copy
        older, older_frames = obs, frames
        obs, *_ = env.step("W")  # waiting: the screen stays
        frames = env.unwrapped.observation_frames(obs)
        assert frames["screenshot"] is older_frames["screenshot"]
        slid = zip(frames["history"]["screenshots"][:-1], older_frames["history"]["screenshots"][1:], strict=True)
        assert all(now is before for now, before in slid)  # the same objects, slid along
        assert env.unwrapped.observation_frames(older) is None
    assert env.unwrapped.observation_frames({**obs, "screenshot": obs["screenshot"].copy()}) is None
    history = {**obs["history"], "screenshots": obs["history"]["screenshots"].copy()}
    assert env.unwrapped.observation_frames({**obs, "history": history}) is None
    env.close()


def test_no_frames_without_pixels_and_the_env_still_passes_check_env() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False)
    obs, _ = env.reset(seed=0)
    assert env.unwrapped.observation_frames(obs) is None
    env.close()
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", screenshot_width=64, history_width=32)
    check_env(env.unwrapped, skip_render_check=True)  # observations are still fresh copies
    env.close()


def test_an_env_that_handed_out_an_observation_still_pickles() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", screenshot_width=64, history_width=32)
    obs, _ = env.reset(seed=0)
    copy = pickle.loads(pickle.dumps(env.unwrapped))
    assert copy.observation_frames(obs) is None  # the copy handed out nothing
    obs, *_ = copy.step("W")
    assert np.array_equal(copy.observation_frames(obs)["screenshot"], obs["screenshot"])
    env.close()
