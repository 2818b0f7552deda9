"""Adding an observation field touches the key table, the producer and the tests only.

The field below is added here, in the test: a row of the config's key table (``fields``) and
its value in the producer (``observation_parts``). Nothing else is told about it, and the plain
env's observation, the native batch (rows, text parts, masks) and the recorder's sources all
carry it, equal to gymnasium's own ``SyncVectorEnv`` over the same envs.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from cerebellum_gym.core.observation import FIELDS, Field, ObservationConfig, fresh_observation, source_observation
from cerebellum_gym.core.spaces import UnicodeText
from cerebellum_gym.env import CerebellumEnv
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.vector.native import NativeVectorEnv

TASKS = ["SystemWifiTurnOn", "ContactsAddContact"]


def _steps_space(config: ObservationConfig) -> spaces.Box:
    return spaces.Box(0, 10_000, (1,), np.int64)


def _app_space(config: ObservationConfig) -> UnicodeText:
    return UnicodeText(200)


#: The key table with two new fields: a small array and a text.
WITH_FIELDS = (*FIELDS, Field("steps_taken", "mask", _steps_space), Field("app", "text", _app_space))


class _EnvWithFields(CerebellumEnv):
    """The producer: the env's parts and the two new values."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(device=Phone(), **kwargs)
        self.observation_config = dataclasses.replace(self.observation_config, fields=WITH_FIELDS)
        self.observation_space = self.observation_config.space()

    def observation_parts(self) -> Any:
        extra = (np.array([self._steps], np.int64), self.device.foreground_package())
        return tuple.__new__(self.observation_config.parts_type, (*super().observation_parts(), *extra))


def _make(pixels: bool) -> Any:
    return lambda kwargs=None: _EnvWithFields(task=TASKS, pixels=pixels, max_steps=6)


def test_a_field_added_to_the_key_table_reaches_every_form_of_the_observation() -> None:
    env = _make(True)()
    try:
        obs, _ = env.reset(seed=1)
        assert env.observation_space.contains(obs) and obs["steps_taken"].tolist() == [0] and obs["app"]
        obs, *_ = env.step("W")
        assert obs["steps_taken"].tolist() == [1]
        parts = env.observation_parts()
        assert parts.steps_taken is not obs["steps_taken"]  # fresh arrays, as every mask
        assert source_observation(parts)["app"] == fresh_observation(parts)["app"] == obs["app"]
    finally:
        env.close()


def _rollout(envs: gym.vector.VectorEnv[Any, Any, Any], steps: int) -> list[Any]:
    obs, _ = envs.reset(seed=5)
    out = [copy.deepcopy(obs)]
    for t in range(steps):
        obs, *_ = envs.step(["W", "H", "B"][: envs.num_envs] if t % 2 else ["H", "W", "W"][: envs.num_envs])
        out.append(copy.deepcopy(obs))
    return out


def test_the_native_batch_writes_an_added_field_as_gymnasium_concatenates_it() -> None:
    native = NativeVectorEnv(3, env_fn=_make(False))
    sync = gym.vector.SyncVectorEnv([_make(False) for _ in range(3)])
    try:
        assert native.native  # rows written from the parts, not the dict fallback
        got, want = _rollout(native, 8), _rollout(sync, 8)
        for g, w in zip(got, want, strict=True):
            assert list(g) == list(w)
            assert np.array_equal(g["steps_taken"], w["steps_taken"]) and g["app"] == w["app"]
            assert np.array_equal(g["action_mask"], w["action_mask"]) and g["tree"] == w["tree"]
        assert got[-1]["steps_taken"][:, 0].tolist() == [int(s) for s in native.get_attr("_steps")]
    finally:
        native.close()
        sync.close()
