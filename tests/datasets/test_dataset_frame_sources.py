"""Recording from the env's read-only source frames (``CerebellumEnv.observation_frames``): what
is recorded is what the env returned, bit for bit, each source is hashed once, and observations a
wrapper changes (in place or by replacing them) are recorded as changed."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.agents import RandomAgent
from cerebellum_gym.datasets import RecordEpisodes, open_dataset, recorder

SMALL = {"screenshot_width": 64, "history_width": 32}


def _pixels(obs: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    return np.array(obs["screenshot"]), np.array(obs["history"]["screenshots"])


def _roll(env: gym.Env[Any, Any], steps: int, *, seed: int = 3, scribble: bool = False) -> list[tuple[np.ndarray, np.ndarray]]:
    """Random steps (a new episode whenever one ends); the pixels of every observation returned
    but the last (the episode left open when the env closes records no row for it).
    ``scribble``: the caller then overwrites each observation it was given, as it may."""
    agent = RandomAgent(seed=seed, allow_terminal=False)
    obs, _ = env.reset(seed=seed)
    seen = [_pixels(obs)]
    for t in range(steps):
        action = agent.act(obs)
        if scribble:
            obs["screenshot"][:] = 7
            obs["history"]["screenshots"][:] = 7
        obs, _, terminated, truncated, _ = env.step(action)
        seen.append(_pixels(obs))
        if terminated or truncated:
            obs, _ = env.reset(seed=seed + t + 1)
            seen.append(_pixels(obs))
    env.close()
    return seen[:-1]


def _recorded(folder: Path) -> list[tuple[np.ndarray, np.ndarray]]:
    rows = []
    for episode in sorted(open_dataset(folder).episodes(), key=lambda e: e.episode_id):
        for step in episode.steps():
            obs = step.observation()
            rows.append((obs["screenshot"], obs["history"]["screenshots"]))
    return rows


def _assert_same(recorded: list[tuple[np.ndarray, np.ndarray]], returned: list[tuple[np.ndarray, np.ndarray]]) -> None:
    assert len(recorded) == len(returned)
    for (shot, frames), (want_shot, want_frames) in zip(recorded, returned, strict=True):
        assert shot.dtype == want_shot.dtype and np.array_equal(shot, want_shot)
        assert frames.shape == want_frames.shape and np.array_equal(frames, want_frames)


def test_images_are_recorded_from_the_source_frames_exactly_each_hashed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hashed: list[int] = []
    real = recorder.image_id
    monkeypatch.setattr(recorder, "image_id", lambda pixels, digest: hashed.append(id(pixels)) or real(pixels, digest))
    env = RecordEpisodes(gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", max_steps=30, **SMALL), tmp_path)
    sources: dict[int, np.ndarray] = {}  # held: ids stay unique
    agent = RandomAgent(seed=5, allow_terminal=False)
    obs, _ = env.reset(seed=5)
    returned = [_pixels(obs)]
    done = False
    while not done:
        frames = env.unwrapped.observation_frames(obs)
        for array in (frames["screenshot"], *frames["history"]["screenshots"]):
            sources[id(array)] = array
        obs, _, terminated, truncated, _ = env.step(agent.act(obs))
        returned.append(_pixels(obs))
        done = terminated or truncated
    frames = env.unwrapped.observation_frames(obs)
    for array in (frames["screenshot"], *frames["history"]["screenshots"]):
        sources[id(array)] = array
    env.close()
    _assert_same(_recorded(tmp_path), returned)
    # Only the sources were read, each once (fewer than the 31 observations x 5 images).
    assert len(sources) < 5 * len(returned)
    assert sorted(hashed) == sorted(sources)


def test_changing_a_returned_observation_in_place_does_not_change_what_is_recorded(tmp_path: Path) -> None:
    returned = _roll(RecordEpisodes(gym.make("Cerebellum-Sim-v0", max_steps=6, **SMALL), tmp_path), 20, scribble=True)
    assert not any(np.all(shot == 7) for shot, _ in returned)
    _assert_same(_recorded(tmp_path), returned)


class _InvertInPlace(gym.Wrapper[Any, Any, Any, Any]):
    """Changes the env's observation arrays in place: the same objects, new pixels."""

    def reset(self, **kwargs: Any) -> Any:
        obs, info = self.env.reset(**kwargs)
        return self._invert(obs), info

    def step(self, action: Any) -> Any:
        obs, *rest = self.env.step(action)
        return self._invert(obs), *rest

    @staticmethod
    def _invert(obs: dict[str, Any]) -> dict[str, Any]:
        np.subtract(255, obs["screenshot"], out=obs["screenshot"])
        np.subtract(255, obs["history"]["screenshots"], out=obs["history"]["screenshots"])
        return obs


class _Invert(gym.ObservationWrapper[Any, Any, Any]):
    """Replaces the pixel arrays with new ones."""

    def observation(self, observation: Any) -> Any:
        history = {**observation["history"], "screenshots": 255 - observation["history"]["screenshots"]}
        return {**observation, "screenshot": 255 - observation["screenshot"], "history": history}


@pytest.mark.parametrize("wrapper", [_InvertInPlace, _Invert])
def test_pixels_a_wrapper_changes_are_recorded_as_changed(wrapper: type[gym.Wrapper[Any, Any, Any, Any]], tmp_path: Path) -> None:
    env = wrapper(gym.make("Cerebellum-Sim-v0", max_steps=6, **SMALL))
    returned = _roll(RecordEpisodes(env, tmp_path), 14)
    _assert_same(_recorded(tmp_path), returned)
    # Inverted for real: a recorded screen is not the simulator's frame.
    plain = _roll(gym.make("Cerebellum-Sim-v0", max_steps=6, **SMALL), 14)
    assert np.array_equal(returned[0][0], 255 - plain[0][0])


def test_wrappers_that_keep_observations_still_use_the_source_frames(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hashed: list[int] = []
    real = recorder.image_id
    monkeypatch.setattr(recorder, "image_id", lambda pixels, digest: hashed.append(1) or real(pixels, digest))
    env = gym.wrappers.RecordEpisodeStatistics(gym.wrappers.TimeLimit(gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", **SMALL), 40))
    returned = _roll(RecordEpisodes(env, tmp_path), 12)
    _assert_same(_recorded(tmp_path), returned)
    # Copies would be hashed five per row; sources only when new (a history frame, a changed screen).
    assert len(hashed) < 2 * len(returned)


def test_an_env_restored_from_a_pickle_is_recorded_exactly_from_its_source_frames(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pickle brings numpy arrays back writable; the restored env freezes its frames again, so
    the recorder still knows them by identity, and what the caller overwrites is not recorded."""
    hashed: list[int] = []
    real = recorder.image_id
    monkeypatch.setattr(recorder, "image_id", lambda pixels, digest: hashed.append(1) or real(pixels, digest))
    env = gym.make("Cerebellum-Sim-v0", max_steps=6, **SMALL)
    env.reset(seed=1)
    clone = pickle.loads(pickle.dumps(env))
    env.close()
    returned = _roll(RecordEpisodes(clone, tmp_path), 12, scribble=True)
    _assert_same(_recorded(tmp_path), returned)
    # Copies would be hashed five per row; sources only when new.
    assert len(hashed) < 2 * len(returned)


def test_a_source_frame_seen_every_step_stays_known_however_many_new_frames_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The identity cache drops its least recently used entry: the black padding frame, met at
    every reset, is hashed once however many new frames pushed the cache past its size."""
    monkeypatch.setattr(recorder, "IDENTITY_CACHE", 8)  # room for one row's five images
    blank_hashes: list[int] = []
    real = recorder.image_id

    def counting(pixels: np.ndarray, digest: Any) -> str:
        if not pixels.any():
            blank_hashes.append(1)
        return real(pixels, digest)

    monkeypatch.setattr(recorder, "image_id", counting)
    returned = _roll(RecordEpisodes(gym.make("Cerebellum-Sim-v0", max_steps=3, **SMALL), tmp_path), 30)
    _assert_same(_recorded(tmp_path), returned)
    assert len(blank_hashes) == 1


class _TimeLimitThatInverts(gym.wrappers.TimeLimit):
    """A subclass of a wrapper the recorder trusts, changing pixels in place: not trusted."""

    def step(self, action: Any) -> Any:
        obs, *rest = super().step(action)
        return _InvertInPlace._invert(obs), *rest

    def reset(self, **kwargs: Any) -> Any:
        obs, info = super().reset(**kwargs)
        return _InvertInPlace._invert(obs), info


def test_a_subclass_of_a_trusted_wrapper_is_not_trusted(tmp_path: Path) -> None:
    env = _TimeLimitThatInverts(gym.make("Cerebellum-Sim-v0", **SMALL), 6)
    returned = _roll(RecordEpisodes(env, tmp_path), 12)
    _assert_same(_recorded(tmp_path), returned)
