"""Episode states on ``Cerebellum-AndroidWorld-v0`` (the embedded simulator) and on an ADB device.

Real: AndroidWorld's task classes and judges (the wheel in ``../shared/third_party``) over the
simulator served on a loopback ADB port, and the real adb server for ``Cerebellum-Adb-v0``.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.core.state import EpisodeState
from cerebellum_gym.errors import UnsupportedOperationError

pytest.importorskip("adbutils")


def _equal(a: tuple[Any, ...], b: tuple[Any, ...]) -> None:
    (obs_a, *rest_a), (obs_b, *rest_b) = a, b
    assert rest_a == rest_b
    for key in ("goal", "tree", "labels", "action_mask"):
        assert np.array_equal(np.asarray(obs_a[key]), np.asarray(obs_b[key])), key


@pytest.fixture(scope="module")
def aw_envs() -> Any:
    pytest.importorskip("android_world", reason="AndroidWorld is not installed (scripts/dev.sh test installs it)")
    envs = [gym.make("Cerebellum-AndroidWorld-v0", pixels=False) for _ in range(2)]
    yield envs
    for env in envs:
        env.close()


@pytest.mark.parametrize(
    "task",
    [
        "ContactsAddContact",
        "ExpenseDeleteSingle",
        "SimpleCalendarEventsOnDate",  # information retrieval: a proto, a class AndroidWorld makes at run time
        "MarkorCreateNoteAndSms",  # composite: two validators
    ],
)
def test_androidworlds_judge_agrees_after_a_restore(aw_envs: list[Any], task: str) -> None:
    """The oracle's episode goes on from a clone taken two steps in, in the env it came from and,
    through bytes, in another: every step equal, and AndroidWorld's ``is_successful`` gives both
    the same verdict (success)."""
    env, other = aw_envs
    env.reset(seed=2, options={"task": task})
    for _ in range(2):
        env.step(env.unwrapped.oracle_action())
    state = env.unwrapped.clone_state()
    steps, actions = [], []
    while True:
        actions.append(env.unwrapped.oracle_action())
        steps.append(env.step(actions[-1]))
        if steps[-1][2] or steps[-1][3]:
            break
    assert steps[-1][4]["success"], f"{task}: the oracle's episode should succeed"
    other.reset(options={"state": EpisodeState.from_bytes(state.to_bytes())})
    for action, expected in zip(actions, steps, strict=True):
        _equal(other.step(action), expected)


def test_an_adb_device_says_why_it_cannot_clone(served: Any) -> None:
    env = gym.make("Cerebellum-Adb-v0", task="SystemWifiTurnOff", pixels=False, device_options=served.options())
    env.reset(seed=0)
    with pytest.raises(UnsupportedOperationError, match="can only be reset"):
        env.unwrapped.clone_state()
    env.close()
