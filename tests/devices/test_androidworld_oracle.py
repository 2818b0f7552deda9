"""The oracle of ``Cerebellum-AndroidWorld-v0`` on the embedded simulator: the simulator's
scripted oracle of the mirrored task, on AndroidWorld's own parameters for the episode.

Real: AndroidWorld (the pinned wheel) sets every task up and judges it with its own code through
adb; the oracle acts through the env as an agent does (``env.unwrapped.oracle_action()``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import gymnasium as gym
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.errors import TaskError

pytest.importorskip("android_world", reason="AndroidWorld is not installed (scripts/dev.sh test installs it)")
pytest.importorskip("adbutils")

from cerebellum_gym.agents.oracle_agent import OracleAgent
from cerebellum_gym.tasks.androidworld import mirror_class, mirrored_tasks, task_classes


@pytest.fixture(scope="module")
def env() -> Iterator[Any]:
    logging.getLogger("absl").setLevel(logging.ERROR)
    made = gym.make("Cerebellum-AndroidWorld-v0", task="SystemWifiTurnOn", pixels=False)
    try:
        yield made
    finally:
        made.close()


def test_the_mirrored_tasks_are_androidworlds() -> None:
    names = mirrored_tasks()
    assert len(names) >= 50
    assert set(names) <= set(task_classes())
    assert all(mirror_class(n) is not None and mirror_class(n).mirrors == n for n in names)  # type: ignore[union-attr]


@pytest.mark.parametrize("name", mirrored_tasks())
def test_the_oracle_solves_every_mirrored_task_as_androidworld_judges_it(env: Any, name: str) -> None:
    _, info = env.reset(seed=1, options={"task": name})
    inner = env.unwrapped
    params = dict(inner.task.params)  # AndroidWorld's own, from its generate_random_params
    assert "seed" in params
    steps = 0
    while True:
        action = OracleAgent.act_env(env)
        _, _, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            break
    assert terminated and info["progress"] == 1.0 and info["success"] is True, (name, params, info)
    assert steps <= inner.task.max_steps()


def test_the_oracle_needs_a_reset_and_a_mirrored_task(env: Any) -> None:
    fresh = gym.make("Cerebellum-AndroidWorld-v0", task="SystemWifiTurnOn", pixels=False)
    try:
        with pytest.raises(Exception, match="reset"):
            fresh.unwrapped.oracle_action()
    finally:
        fresh.close()
    unmirrored = sorted(set(task_classes()) - set(mirrored_tasks()))
    if not unmirrored:  # every AndroidWorld task is mirrored: none to refuse
        assert set(mirrored_tasks()) >= set(task_classes())
        return
    # A task the simulator does not mirror whose AndroidWorld set-up runs on it (others fail
    # there, a TaskError): the oracle says there is none, and why.
    for name in unmirrored:
        try:
            env.reset(seed=0, options={"task": name})
        except TaskError:
            continue
        with pytest.raises(TaskError, match="the simulator does not mirror it"):
            env.unwrapped.oracle_action()
        return
    pytest.fail(f"no unmirrored task sets up on the simulator: {unmirrored}")


def test_the_target_app_pre_opened_as_the_card_ran_it() -> None:
    made = gym.make("Cerebellum-AndroidWorld-v0", task="ContactsAddContact", pixels=False, device_options={"open_target_app": True})
    try:
        phone = made.unwrapped.device.in_process.phone
        made.reset(seed=0)
        assert phone.foreground_package() == "com.google.android.contacts"
        # A task whose goal is to open an app still starts on the home screen.
        made.reset(seed=0, options={"task": "OpenAppTaskEval"})
        assert phone.foreground_package() == "com.google.android.apps.nexuslauncher"
        while True:
            _, _, terminated, truncated, info = made.step(made.unwrapped.oracle_action())
            if terminated or truncated:
                break
        assert info["success"] is True
    finally:
        made.close()
