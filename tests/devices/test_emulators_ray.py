"""Emulator pools inside Ray actors, on a real local Ray cluster with stand-in emulators.

Each actor starts the pool of its sub-envs' emulators on its machine (here: this one), checks and
restarts them there, and shuts them down when it closes. The sub-envs are ``Cerebellum-Adb-v0``
on the stand-ins (``standin_emulator.py``) through the real adb server; AndroidWorld's launcher
needs gRPC, which the stand-in does not serve.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from standins import StandinSdk

import cerebellum_gym  # noqa: F401  (registers the ids)
from cerebellum_gym.agents import load_agent
from cerebellum_gym.agents.base import Agent, OracleSource
from cerebellum_gym.cli import main
from cerebellum_gym.devices.emulators import group_processes, port_free
from cerebellum_gym.evaluation.runner import EvalConfig, run_suite
from cerebellum_gym.evaluation.suites import load_suite

ray = pytest.importorskip("ray")

# One local Ray cluster per module: keep these tests on the xdist worker of the other Ray tests.
pytestmark = [
    pytest.mark.xdist_group("ray"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for process groups"),
]
RAY_ENV = {"RAY_DEDUP_LOGS": "0", "RAY_USAGE_STATS_ENABLED": "0"}
ENV = {"task": "SystemWifiTurnOn", "pixels": False, "device_options": {"timeout": 5.0}}


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    saved = {key: os.environ.get(key) for key in RAY_ENV}
    os.environ.update(RAY_ENV)
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False, object_store_memory=80 * 1024 * 1024)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _ports_free(first: int, count: int, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(port_free(first + k) for k in range(count)):
            return True
        time.sleep(0.2)
    return False


def test_each_actor_owns_its_emulators_and_restarts_a_killed_one(cluster: Any, standin: StandinSdk) -> None:
    envs = gym.make_vec("Cerebellum-Adb-v0", num_envs=2, emulators=standin.pool_kwargs(), vectorization="ray", **ENV)
    try:
        assert type(envs).__name__ == "RayVectorEnv" and len(envs.actors) == 2
        reports = envs.call("emulator")
        # Two actors, two pools, disjoint ports: the pools' processes are the actors' children here.
        assert [r["console_port"] for r in reports] == [standin.base_port, standin.base_port + 2]
        envs.reset(seed=0)
        guard = int(reports[0]["pid"])
        (victim,) = [p for p in group_processes(guard) if p != guard]
        os.kill(victim, signal.SIGKILL)  # emulator 0 crashes mid-episode, inside its actor's pool
        _, _, _, truncated, info = envs.step(np.array(["W", "W"], dtype=object))
        assert truncated[0] and info["infra_error"][0] and not truncated[1]
        _, _, _, truncated, info = envs.step(np.array(["W", "W"], dtype=object))  # autoreset of env 0
        assert info["emulator_restart"][0].startswith("restarted: its process exited") and not truncated.any()
        after = envs.call("emulator")
        assert after[0]["restarts"] == 1 and after[1]["restarts"] == 0
        _, _, _, truncated, info = envs.step(np.array(["W", "W"], dtype=object))
        assert not truncated.any() and not info["infra_error"].any()
        guards = [int(r["pid"]) for r in after]
    finally:
        envs.close()
    # Closing the vector env closed the actors, and each actor its pool (its guards end their
    # process groups on their own, a moment later on a loaded machine).
    deadline = time.monotonic() + 15
    while any(group_processes(g) for g in guards) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert all(not group_processes(g) for g in guards)
    assert _ports_free(standin.base_port, 4)


def test_eval_cli_with_ray_and_emulators(cluster: Any, standin: StandinSdk, tmp_path: Path) -> None:
    options = {k: v for k, v in standin.pool_kwargs().items() if k != "avd"}
    out = tmp_path / "run"
    code = main(
        [
            "eval",
            "--env",
            "Cerebellum-Adb-v0",
            "--suite",
            "tasks:SystemWifiTurnOn,SystemBluetoothTurnOn:2",
            "--agent",
            "oracle",
            "--emulators",
            "2",
            "--avd",
            "Standin",
            "--vectorization",
            "ray",
            "--envs-per-actor",
            "2",
            "--emulator-options",
            json.dumps(options),
            "--env-kwargs",
            '{"device_options": {"timeout": 5.0}}',
            "--out",
            str(out),
            "--progress",
            "off",
            "--screens",
            "0",
        ]
    )
    assert code == 0
    lines = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(lines) == 4 and all(r["success"] and r["attempts"] == 1 for r in lines)
    # One actor held both emulators and shut them down with the run.
    assert _ports_free(standin.base_port, 4)


def _standin_on(port: int) -> int:
    """The pid of the stand-in emulator on console ``port`` (it runs in a Ray actor's pool)."""
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            argv = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        if any(a.endswith("standin_emulator.py") for a in argv) and "-port" in argv and argv[argv.index("-port") + 1] == str(port):
            return int(entry.name)
    raise AssertionError(f"no stand-in on port {port}")


class KillingOracle(Agent):
    """The scripted oracle, which also kills the stand-in on console ``port`` (SIGKILL) on its ``at``-th batch."""

    privileged = True
    needs_pixels = False

    def __init__(self, port: int, at: int) -> None:
        self.inner = load_agent("oracle")
        self.name = "killing-oracle"
        self.port = port
        self.at = at
        self.calls = 0
        self.killed: int | None = None

    def act(self, observation: Any) -> str:
        raise NotImplementedError("privileged: acts on batches with the oracle")

    def act_batch(self, observations: Sequence[Any], oracle: OracleSource | None = None) -> list[str]:
        self.calls += 1
        if self.calls == self.at:
            self.killed = _standin_on(self.port)
            os.kill(self.killed, signal.SIGKILL)
        return self.inner.act_batch(observations, oracle)


def test_eval_on_ray_retries_the_case_of_a_killed_emulator(cluster: Any, standin: StandinSdk, tmp_path: Path) -> None:
    suite = load_suite("tasks:SystemWifiTurnOn,SystemBluetoothTurnOn:2")
    agent = KillingOracle(standin.base_port, at=2)
    config = EvalConfig(
        env_id="Cerebellum-Adb-v0",
        num_envs=2,
        vectorization="ray",
        max_retries=2,
        env_kwargs={"device_options": {"timeout": 5.0}},
        emulators=standin.pool_kwargs(),
        progress="off",
    )
    run_suite(agent, suite, tmp_path / "run", config)
    assert agent.killed is not None
    lines = [json.loads(line) for line in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    # Every case ends exactly once and is solved; the one on the killed emulator after a retry.
    assert sorted(r["case"] for r in lines) == sorted(c.id for c in suite.cases)
    assert all(r["status"] == "ok" and r["success"] for r in lines), [(r["case"], r["status"], r["infra_errors"]) for r in lines]
    retried = [r for r in lines if r["attempts"] > 1]
    assert len(retried) == 1 and len(retried[0]["infra_errors"]) == 1
    assert _ports_free(standin.base_port, 4)
