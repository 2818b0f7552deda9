"""``cerebellum-gym emulators up|status|down`` as separate processes, on stand-in emulators
(see ``standin_emulator.py``: the real adb server, a fake SDK whose ``emulator`` is the stand-in)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from standins import StandinSdk

from cerebellum_gym.devices.emulators import group_processes, read_state

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for process groups"),
    # One xdist worker for every test that starts stand-ins (the Ray ones too): adb's emulator
    # scan reaches every port from 5555 up, so another worker's stand-ins would show up here.
    pytest.mark.xdist_group("ray"),
]


def _cli(standin: StandinSdk, state: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **standin.env, "CEREBELLUM_EMULATORS_STATE": str(state)}
    return subprocess.run(
        [sys.executable, "-m", "cerebellum_gym.cli", "emulators", *args],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _up_args(standin: StandinSdk, num: int) -> list[str]:
    return [
        "up",
        str(num),
        "--avd",
        "Standin",
        "--sdk",
        str(standin.sdk),
        "--base-port",
        str(standin.base_port),
        "--grpc-port",
        str(standin.base_grpc_port),
        "--boot-timeout",
        "15",
        "--force",
    ]


def _group_pids(state: dict) -> list[int]:
    return [p for e in state["emulators"] for p in group_processes(int(e["pid"]))]


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has ended: only its exit status is left)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return False


def _wait(predicate, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_up_detached_status_restart_and_down_from_other_processes(standin: StandinSdk, tmp_path: Path) -> None:
    state_path = tmp_path / "pool.json"
    up = _cli(standin, state_path, *_up_args(standin, 2), "--detach", "--check-interval", "0.5")
    assert up.returncode == 0, up.stderr
    serials = [f"emulator-{standin.base_port}", f"emulator-{standin.base_port + 2}"]
    assert all(s in up.stdout for s in serials) and "ready: 2 emulators" in up.stdout
    state = read_state(state_path)
    assert state is not None
    status = _cli(standin, state_path, "status", "--json")
    assert status.returncode == 0, status.stdout + status.stderr
    rows = json.loads(status.stdout)["emulators"]
    assert [(r["serial"], r["adb_state"], r["boot_completed"]) for r in rows] == [(s, "device", "1") for s in serials]
    # A crash: the watcher (a background process) restarts the emulator.
    guard = int(state["emulators"][0]["pid"])
    (crashed,) = [p for p in group_processes(guard) if p != guard]
    os.kill(crashed, signal.SIGKILL)

    def restarted() -> bool:
        now = read_state(state_path)
        return now is not None and now["emulators"][0]["restarts"] == 1 and now["emulators"][0]["state"] == "ready"

    assert _wait(restarted, 15.0)
    assert _cli(standin, state_path, "status").returncode == 0
    pids = [*_group_pids(read_state(state_path) or {"emulators": []}), int(state["owner_pid"])]
    down = _cli(standin, state_path, "down")
    assert down.returncode == 0 and "shut down" in down.stdout
    assert not state_path.exists()
    assert _wait(lambda: not any(_alive(p) for p in pids), 10.0)
    assert _cli(standin, state_path, "status").returncode == 1  # no pool


def test_up_in_the_foreground_stops_cleanly_on_ctrl_c(standin: StandinSdk, tmp_path: Path) -> None:
    state_path = tmp_path / "pool.json"
    env = {**os.environ, **standin.env, "CEREBELLUM_EMULATORS_STATE": str(state_path)}
    up = subprocess.Popen(
        [sys.executable, "-m", "cerebellum_gym.cli", "emulators", *_up_args(standin, 1)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert up.stdout is not None
        lines = []
        while not lines or not lines[-1].startswith("ready:"):
            line = up.stdout.readline()
            assert line, "up exited before it was ready"
            lines.append(line)
        state = read_state(state_path)
        assert state is not None and state["owner_pid"] == up.pid
        pids = _group_pids(state)
        assert len(pids) == 2
        up.send_signal(signal.SIGINT)
        # The pool's shutdown is bounded step by step (emu kill, then TERM, then KILL of the
        # group); on a loaded machine those bounds add up past 20 s.
        assert up.wait(timeout=60) == 130
    finally:
        if up.poll() is None:
            up.kill()
            up.wait()
    assert not state_path.exists()
    # Gone, or zombies until init reaps them (orphans of a group that was killed).
    assert _wait(lambda: not any(_alive(p) for p in pids), 10.0)
