"""An evaluation on a pool of stand-in emulators (``standin_emulator.py``), one killed mid-run.

The sub-envs are ``Cerebellum-Adb-v0`` on the stand-ins' serials (``emulator-<port>``) through
the real adb server. ``Cerebellum-AndroidWorld-v0`` cannot run here: AndroidWorld's launcher
talks gRPC to the emulator, which the stand-in does not serve.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from standins import StandinSdk

from cerebellum_gym.agents import load_agent
from cerebellum_gym.agents.base import Agent, OracleSource
from cerebellum_gym.cli import main
from cerebellum_gym.devices.emulators import EmulatorPool, port_free
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.evaluation.runner import EvalConfig, run_suite
from cerebellum_gym.evaluation.suites import load_suite

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for process groups"),
    # One xdist worker for every test that starts stand-ins (the Ray ones too): adb's emulator
    # scan reaches every port from 5555 up, so another worker's stand-ins would show up here.
    pytest.mark.xdist_group("ray"),
]


class KillingOracle(Agent):
    """The scripted oracle, which also kills emulator 0 (SIGKILL: a crash) on its ``at``-th batch."""

    privileged = True
    needs_pixels = False

    def __init__(self, pool: EmulatorPool, at: int) -> None:
        self.inner = load_agent("oracle")
        self.name = "killing-oracle"
        self.pool = pool
        self.at = at
        self.calls = 0
        self.killed: int | None = None

    def act(self, observation: Any) -> str:
        raise NotImplementedError("privileged: acts on batches with the oracle")

    def act_batch(self, observations: Sequence[Any], oracle: OracleSource | None = None) -> list[str]:
        self.calls += 1
        if self.calls == self.at:
            emu = self.pool.emulators[0]
            (pid,) = [p for p in emu.processes() if p != emu.pid]
            os.kill(pid, signal.SIGKILL)
            self.killed = pid
        return self.inner.act_batch(observations, oracle)


def test_eval_on_two_emulators_one_killed_mid_run(standin: StandinSdk, tmp_path: Path) -> None:
    suite = load_suite("tasks:SystemWifiTurnOn,SystemBluetoothTurnOn,SystemBrightnessMax:2")
    events: list[str] = []
    with EmulatorPool(2, **standin.pool_kwargs(on_event=events.append)) as pool:
        agent = KillingOracle(pool, at=2)
        config = EvalConfig(
            env_id="Cerebellum-Adb-v0",
            num_envs=2,
            vectorization="sync",
            max_retries=2,
            env_kwargs={"device_options": {"timeout": 5.0}},
            env_kwargs_per_env=[{"device_options": pool.device_options(i, "adb")} for i in range(2)],
            between_episodes=pool.between_episodes,
            progress="off",
        )
        result = run_suite(agent, suite, tmp_path / "run", config)
        restarted = pool.emulators[0].restarts
        reasons = list(pool.emulators[0].faults)
    assert agent.killed is not None
    lines = [json.loads(line) for line in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    # Every case ends exactly once, and the oracle solves each.
    assert sorted(r["case"] for r in lines) == sorted(c.id for c in suite.cases)
    assert all(r["status"] == "ok" and r["success"] for r in lines), [(r["case"], r["status"], r["infra_errors"]) for r in lines]
    # The case running on the killed emulator was retried after an infra fault.
    retried = [r for r in lines if r["attempts"] > 1]
    assert len(retried) == 1 and len(retried[0]["infra_errors"]) == 1
    assert "Device" in retried[0]["infra_errors"][0]
    # The pool saw the crash and restarted that emulator (and only that one).
    assert restarted == 1 and reasons[0].startswith("its process exited")
    assert any("emulator-" in e and "restarting" in e for e in events)
    assert result.ran == len(suite.cases)


def test_eval_cli_launches_one_emulator_per_env(standin: StandinSdk, tmp_path: Path) -> None:
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
    assert json.loads((out / "run.json").read_text())["num_envs"] == 2
    # The pool was shut down with the run: its ports are free again.
    assert all(port_free(standin.base_port + k) for k in range(4))


def test_eval_cli_refuses_emulators_for_the_simulator(tmp_path: Path) -> None:
    with pytest.raises(CerebellumError, match="--emulators needs an env that runs on emulators"):
        run_eval_args(
            ["eval", "--suite", "tasks:SystemWifiTurnOn", "--agent", "random", "--emulators", "1", "--avd", "X", "--out", str(tmp_path)]
        )


def run_eval_args(argv: list[str]) -> int:
    """Run the eval command's handler directly, so its errors surface as exceptions."""
    from cerebellum_gym.cli import build_parser

    args = build_parser().parse_args(argv)
    return int(args.handler(args))
