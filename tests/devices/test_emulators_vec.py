"""``gym.make_vec`` over emulator pools of stand-in emulators (``standin_emulator.py``).

The sub-envs are ``Cerebellum-Adb-v0`` on the stand-ins' serials through the real adb server.
``Cerebellum-AndroidWorld-v0`` takes the same entry point, but its launcher talks gRPC to the
emulator, which the stand-in does not serve, so it is not run here.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from standins import StandinSdk

import cerebellum_gym  # noqa: F401  (registers the ids)
from cerebellum_gym.devices.emulators import EmulatorCapacityError, EmulatorPool, group_processes, port_free
from cerebellum_gym.errors import ConfigError
from cerebellum_gym.vector.emulators import PooledEnv, group_leases

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for process groups"),
    # One xdist worker for every test that starts stand-ins (the Ray ones too): adb's emulator
    # scan reaches every port from 5555 up, so another worker's stand-ins would show up here.
    pytest.mark.xdist_group("ray"),
]

ENV = {"task": "SystemWifiTurnOn", "pixels": False, "device_options": {"timeout": 5.0}}


def _standin_pid(report: dict[str, Any]) -> int:
    """The stand-in's own pid: the process of the emulator's group that is not its guard."""
    (pid,) = [p for p in group_processes(int(report["pid"])) if p != report["pid"]]
    return pid


def _ports_free(first: int, count: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(port_free(first + k) for k in range(count)):
            return True
        time.sleep(0.2)
    return False


def test_make_vec_without_pool_options_is_a_sync_vector_env_as_before(served: Any) -> None:
    envs = gym.make_vec("Cerebellum-Adb-v0", num_envs=1, task="SystemWifiTurnOn", pixels=False, device_options=served.options())
    try:
        assert type(envs).__name__ == "SyncVectorEnv"
        obs, _ = envs.reset(seed=0)
        assert obs["goal"][0] == "Turn wifi on."
    finally:
        envs.close()


def test_make_vec_starts_a_pool_and_restarts_an_emulator_killed_mid_episode(standin: StandinSdk) -> None:
    options = standin.pool_kwargs()
    envs = gym.make_vec("Cerebellum-Adb-v0", num_envs=2, emulators=options, **ENV)
    try:
        assert type(envs).__name__ == "SyncVectorEnv"
        reports = envs.call("emulator")
        assert [r["serial"] for r in reports] == [f"emulator-{standin.base_port}", f"emulator-{standin.base_port + 2}"]
        _, info = envs.reset(seed=0)
        assert list(info["emulator"]) == [r["serial"] for r in reports]
        victim = _standin_pid(reports[0])
        os.kill(victim, signal.SIGKILL)  # emulator 0 crashes mid-episode
        _, _, terminated, truncated, info = envs.step(np.array(["W", "W"], dtype=object))
        # Its episode ends truncated as an infra fault; the other env's does not.
        assert truncated[0] and not terminated[0] and info["infra_error"][0]
        assert not truncated[1] and not info["infra_error"][1]
        # Next step (NEXT_STEP autoreset): env 0 resets on a restarted emulator, env 1 steps on.
        _, _, _, truncated, info = envs.step(np.array(["W", "W"], dtype=object))
        assert info["_emulator_restart"][0] and info["emulator_restart"][0].startswith("restarted: its process exited")
        assert not truncated.any()
        after = envs.call("emulator")
        assert after[0]["restarts"] == 1 and after[0]["state"] == "ready" and after[1]["restarts"] == 0
        assert _standin_pid(after[0]) != victim
        # The fresh episode on the restarted emulator steps normally.
        _, _, _, truncated, info = envs.step(np.array(["W", "W"], dtype=object))
        assert not truncated[0] and not info["infra_error"][0]
        guards = [int(r["pid"]) for r in after]
    finally:
        envs.close()
    # The vector env started the pool, so closing it shut the emulators down.
    assert all(not group_processes(g) for g in guards)
    assert _ports_free(standin.base_port, 4)


def test_make_vec_on_a_callers_pool_leaves_it_running(standin: StandinSdk) -> None:
    with EmulatorPool(1, **standin.pool_kwargs()) as pool:
        envs = gym.make_vec("Cerebellum-Adb-v0", num_envs=1, pool=pool, **ENV)
        try:
            envs.reset(seed=0)
            _, _, _, truncated, _ = envs.step(np.array(["W"], dtype=object))
            assert not truncated[0]
        finally:
            envs.close()
        assert pool.health(0).ok  # still the caller's
        with pytest.raises(ConfigError, match="sync"):
            gym.make_vec("Cerebellum-Adb-v0", num_envs=1, pool=pool, vectorization="async", **ENV)
        with pytest.raises(ConfigError, match="2 envs but the pool has 1"):
            gym.make_vec("Cerebellum-Adb-v0", num_envs=2, pool=pool, **ENV)


def test_a_reset_after_the_emulator_died_between_episodes_restarts_it(standin: StandinSdk) -> None:
    with EmulatorPool(1, **standin.pool_kwargs()) as pool:
        envs = gym.make_vec("Cerebellum-Adb-v0", num_envs=1, pool=pool, autoreset_mode="Disabled", **ENV)
        try:
            envs.reset(seed=0)
            envs.step(np.array(["W"], dtype=object))
            os.kill(_standin_pid(pool.report()[0]), signal.SIGKILL)  # dies with no step to notice
            _, info = envs.reset(seed=1)
            assert info["emulator_restart"][0].startswith("restarted: its process exited")
            env = envs.envs[0]
            assert isinstance(env, PooledEnv)
            _, _, _, truncated, info = envs.step(np.array(["W"], dtype=object))
            assert not truncated[0] and not info["infra_error"][0]
        finally:
            envs.close()
        assert pool.emulators[0].restarts == 1


def test_async_workers_each_start_their_own_emulator(standin: StandinSdk) -> None:
    envs = gym.make_vec("Cerebellum-Adb-v0", num_envs=2, emulators=standin.pool_kwargs(), vectorization="async", **ENV)
    try:
        assert type(envs).__name__ == "AsyncVectorEnv"
        reports = envs.call("emulator")
        # Each worker's pool takes its own ports: no collision between processes.
        assert [r["console_port"] for r in reports] == [standin.base_port, standin.base_port + 2]
        _, info = envs.reset(seed=0)
        _, _, _, truncated, _ = envs.step(np.array(["W", "W"], dtype=object))
        assert not truncated.any()
    finally:
        envs.close()
    assert _ports_free(standin.base_port, 4)


def test_pool_options_are_checked(standin: StandinSdk) -> None:
    with pytest.raises(ConfigError, match="no 'num'"):
        gym.make_vec("Cerebellum-Adb-v0", num_envs=1, emulators={**standin.pool_kwargs(), "num": 3}, **ENV)
    with pytest.raises(ConfigError, match="not both"):
        gym.make_vec("Cerebellum-Adb-v0", num_envs=1, emulators={}, pool=EmulatorPool(0), **ENV)
    huge = {**standin.pool_kwargs(), "force": False, "memory_mb": 10**9}
    with pytest.raises(EmulatorCapacityError, match="refusing to launch 2 emulators"):
        gym.make_vec("Cerebellum-Adb-v0", num_envs=2, emulators=huge, vectorization="async", **ENV)


def test_groups_on_one_machine_get_disjoint_ports(tmp_path: Path) -> None:
    leases = group_leases({"avd": "A", "base_port": 5600, "state_file": str(tmp_path / "s.json")}, [2, 2, 1], prefix="p")
    assert [(lease.options or {})["base_port"] for lease in leases] == [5600, 5604, 5608]
    assert [(lease.options or {})["base_grpc_port"] for lease in leases] == [8554, 8556, 8558]
    assert [lease.size for lease in leases] == [2, 2, 1]
    assert (leases[1].options or {})["state_file"].endswith("s.json.1") and (leases[0].options or {})["read_only"] is True
