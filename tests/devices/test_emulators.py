"""The emulator pool against stand-in emulators and the real adb server.

No emulator runs here, so the pool launches ``tests/devices/standin_emulator.py`` through a fake
SDK's ``emulator/emulator``: it takes the real flags, serves the simulator over the genuine ADB
protocol on the adb port, tells the adb server about itself (as the emulator does) so the real
adb server lists it as ``emulator-<console port>``, "boots" after a delay, and answers ``adb emu
kill`` on its console port. The adb server is the real binary from adbutils' wheel, private to
the test process, with its emulator port scan on.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import gymnasium as gym
import pytest
from standins import StandinSdk, scanning_adb_server

import cerebellum_gym  # noqa: F401  (registers the ids)
from cerebellum_gym.devices.emulators import (
    Capacity,
    EmulatorBootError,
    EmulatorCapacityError,
    EmulatorPool,
    capacity_problems,
    group_processes,
)
from cerebellum_gym.errors import CerebellumError

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for process groups"),
    # One xdist worker for every test that starts stand-ins (the Ray ones too): adb's emulator
    # scan reaches every port from 5555 up, so another worker's stand-ins would show up here.
    pytest.mark.xdist_group("ray"),
]


def _gone(pids: list[int], timeout: float = 10.0) -> list[int]:
    """The pids of ``pids`` still alive after waiting up to ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    alive = list(pids)
    while alive and time.monotonic() < deadline:
        alive = [p for p in alive if Path(f"/proc/{p}").exists() and "Z" not in _state(p)]
        time.sleep(0.1)
    return alive


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except OSError:
        return "Z"


def _emulator_pid(pool: EmulatorPool, index: int) -> int:
    """The stand-in's pid (the guard's child in the emulator's process group)."""
    emu = pool.emulators[index]
    others = [p for p in emu.processes() if p != emu.pid]
    assert len(others) == 1, others
    return others[0]


def _cmdline(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]


def _free_console_port_in_adb_scan_range() -> int:
    """An even console port in 5554-5584 whose adb port (+1) is free too: the range a fresh adb
    server's scan is sure to cover (see ``scanning_adb_server``)."""
    for console in range(5554, 5585, 2):
        try:
            with socket.socket() as a, socket.socket() as b:
                a.bind(("127.0.0.1", console))
                b.bind(("127.0.0.1", console + 1))
        except OSError:
            continue
        return console
    pytest.skip("every emulator port pair in 5554-5585 is taken on this machine")


@contextlib.contextmanager
def _unannounced_standin(standin: StandinSdk, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """A stand-in on console ``port`` whose own notice to its adb server is lost: its
    ``$ANDROID_ADB_SERVER_PORT`` is a port bound but not listening, which refuses connections and
    which no other server can take. Killed (with its process group) on leaving."""
    with socket.socket() as nowhere:
        nowhere.bind(("127.0.0.1", 0))
        env = {**os.environ, **standin.env, "ANDROID_ADB_SERVER_PORT": str(nowhere.getsockname()[1])}
        emulator = subprocess.Popen(
            [str(standin.emulator), "-avd", "Standin", "-port", str(port), "-no-window"],
            env=env,
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            yield emulator
        finally:
            os.killpg(emulator.pid, signal.SIGKILL)
            emulator.wait()


def test_attach_to_emulators_found_by_the_adb_scan(standin: StandinSdk, tmp_path: Path) -> None:
    """An emulator started before the adb server: a server started later finds it by its port scan.

    The stand-in sits in adb's default scan range: beyond it, a fresh server's one scan missed a
    running stand-in 8 times in 10 here (adb reads ``ADB_LOCAL_TRANSPORT_MAX_PORT`` only after its
    scan has started; see ``scanning_adb_server``).
    """
    port = _free_console_port_in_adb_scan_range()
    with _unannounced_standin(standin, port) as emulator:
        # The scan runs once, when the server starts: wait until the emulator's adb port listens
        # (a loaded machine can take seconds to start the stand-in's interpreter).
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port + 1), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        fresh = scanning_adb_server(standin.base_port)
        deadline = time.monotonic() + 20
        # Listed as a device, not just seen: attach=True takes only emulators that answer.
        while f"emulator-{port}\tdevice" not in (listed := fresh.run("devices").stdout) and time.monotonic() < deadline:
            time.sleep(0.2)
        try:
            assert f"emulator-{port}\tdevice" in listed
            attached = EmulatorPool(attach=True, env={**standin.env, "ANDROID_ADB_SERVER_PORT": str(fresh.port)}, boot_timeout=10)
            with attached:
                # Every running emulator the scan found is attached; a stand-in of an earlier
                # test still shutting down may be among them.
                serials = [e.serial for e in attached.emulators]
                assert f"emulator-{port}" in serials
                mine = serials.index(f"emulator-{port}")
                assert not attached.emulators[mine].launched and attached.health(mine).ok
            assert emulator.poll() is None  # an attached emulator is not the pool's to shut down
        finally:
            fresh.stop()


def test_attach_by_serial_beyond_the_adb_scan(standin: StandinSdk) -> None:
    """An emulator above adb's scan range whose own notice was lost, named to the pool: the pool
    tells the server about it (``host:emulator:<adb port>``) and attaches it."""
    port = standin.base_port + 42
    serial = f"emulator-{port}"
    with _unannounced_standin(standin, port) as emulator:
        with EmulatorPool(attach=[serial], env=standin.env, boot_timeout=30) as pool:
            assert [e.serial for e in pool.emulators] == [serial]
            assert not pool.emulators[0].launched and pool.health(0).ok
            assert f"{serial}\tdevice" in standin.adb.run("devices").stdout
        assert emulator.poll() is None  # attached, so not the pool's to shut down


def test_launch_boot_health_and_clean_shutdown(standin: StandinSdk, tmp_path: Path) -> None:
    with EmulatorPool(1, **standin.pool_kwargs(log_dir=tmp_path)) as pool:
        emu = pool.emulators[0]
        assert emu.serial == f"emulator-{standin.base_port}" and emu.adb_port == standin.base_port + 1
        assert emu.state == "ready"
        # The real adb server lists it under the emulator's serial.
        assert standin.adb.run("devices").stdout.count(f"{emu.serial}\tdevice") == 1
        argv = _cmdline(_emulator_pid(pool, 0))
        flags = argv[argv.index("-avd") :]
        assert flags[:9] == [
            "-avd",
            "Standin",
            "-no-window",
            "-no-audio",
            "-no-boot-anim",
            "-port",
            str(emu.console_port),
            "-grpc",
            str(emu.grpc_port),
        ]
        assert "-read-only" not in flags  # one emulator: its AVD may be written
        health = pool.health(0)
        assert health.ok and health.screen == (1080, 2400)
        assert pool.device_options(0, "adb") == {"serial": emu.serial, "adb_port": standin.adb.port}
        assert pool.device_options(0) == {"console_port": emu.console_port, "grpc_port": emu.grpc_port, "adb_path": pool.adb.path}
        assert Path(pool.adb.path).parent == standin.sdk / "platform-tools"  # the SDK's adb, from --sdk
        processes = emu.processes()
        assert len(processes) == 2  # the guard and the emulator
    assert _gone(processes) == []
    log = (tmp_path / f"{emu.serial}.log").read_text()
    assert "console: kill" in log  # shut down through `adb emu kill`, not by a signal


def test_boot_that_never_finishes_fails_at_the_deadline(standin: StandinSdk) -> None:
    env = {**standin.env, "STANDIN_NEVER_BOOT": "1"}
    pool = EmulatorPool(1, **standin.pool_kwargs(env=env, boot_timeout=3.0, boot_attempts=1))
    start = time.monotonic()
    with pytest.raises(EmulatorBootError) as caught:
        pool.start()
    took = time.monotonic() - start
    assert 3.0 <= took < 10.0
    message = str(caught.value)
    assert f"emulator-{standin.base_port} did not finish booting within 3 s" in message
    assert "sys.boot_completed is ''" in message  # adb answered; the boot did not complete
    assert "stand-in emulator Standin" in message  # the tail of its log
    assert _gone([p for e in pool.emulators for p in ([e.pid] if e.pid else [])]) == []


def test_an_emulator_that_exits_at_start_reports_its_own_message(standin: StandinSdk) -> None:
    pool = EmulatorPool(1, **standin.pool_kwargs(avd="NoSuchAvd", boot_attempts=1))
    with pytest.raises(EmulatorBootError, match=r"exited with status 1 while booting[\s\S]*PANIC: Unknown AVD name \[NoSuchAvd\]"):
        pool.start()


def test_a_crash_mid_episode_is_an_infra_fault_and_the_emulator_restarts(standin: StandinSdk) -> None:
    with EmulatorPool(1, **standin.pool_kwargs()) as pool:
        (make,) = pool.env_fns("Cerebellum-Adb-v0", task="SystemWifiTurnOn", pixels=False, device_options={"timeout": 5.0})
        env = make()
        try:
            obs, _ = env.reset(seed=0)
            env.step("W")
            old = _emulator_pid(pool, 0)
            os.kill(old, signal.SIGKILL)  # the emulator crashes mid-episode
            _, _, _, truncated, info = env.step("W")
            assert truncated and info["infra_error"]
        finally:
            env.close()
        assert pool.health(0).ok is False
        done = pool.between_episodes(0, fault=True)
        assert done is not None and done.startswith("restarted: its process exited")
        emu = pool.emulators[0]
        assert emu.restarts == 1 and emu.state == "ready" and emu.faults == [done.removeprefix("restarted: ")]
        assert _emulator_pid(pool, 0) != old
        env = make()  # the same options reach the restarted emulator: same serial and ports
        try:
            env.reset(seed=1)
            _, _, _, truncated, info = env.step("W")
            assert not truncated and not info.get("infra_error")
        finally:
            env.close()


def test_a_wedged_emulator_is_restarted(standin: StandinSdk) -> None:
    with EmulatorPool(1, **standin.pool_kwargs(health_timeout=2.0)) as pool:
        wedged = _emulator_pid(pool, 0)
        os.kill(wedged, signal.SIGSTOP)  # alive, answers nothing
        done = pool.between_episodes(0)
        assert done == "restarted: adb did not answer within 2 s (wedged)"
        assert _gone([wedged], 5.0) == []
        assert pool.health(0).ok


def test_recycling_after_k_episodes(standin: StandinSdk) -> None:
    with EmulatorPool(1, **standin.pool_kwargs(recycle_after=2)) as pool:
        first = _emulator_pid(pool, 0)
        assert pool.between_episodes(0) is None
        assert pool.between_episodes(0) == "recycled"
        emu = pool.emulators[0]
        assert emu.restarts == 1 and emu.episodes == 0 and emu.total_episodes == 2 and emu.faults == []
        assert _emulator_pid(pool, 0) != first and pool.health(0).ok


@pytest.mark.parametrize("num", [2, 4])
def test_emulators_side_by_side(standin: StandinSdk, num: int) -> None:
    with EmulatorPool(num, **standin.pool_kwargs()) as pool:
        serials = [e.serial for e in pool.emulators]
        assert len(set(serials)) == num
        assert len({e.grpc_port for e in pool.emulators}) == num
        assert sorted(e.console_port for e in pool.emulators) == [standin.base_port + 2 * i for i in range(num)]
        listed = standin.adb.run("devices").stdout
        assert all(f"{s}\tdevice" in listed for s in serials)
        assert all("-read-only" in _cmdline(_emulator_pid(pool, i)) for i in range(num))  # several on one AVD
        # Each is its own device: a setting written on one is not seen on the others.
        pool.adb.shell(serials[0], "settings put global wifi_on 0", timeout=5)
        pool.adb.shell(serials[-1], "settings put global wifi_on 1", timeout=5)
        assert pool.adb.shell(serials[0], "settings get global wifi_on", timeout=5)[1].strip() == "0"
        assert pool.adb.shell(serials[-1], "settings get global wifi_on", timeout=5)[1].strip() == "1"
        # One sub-env per emulator; the factories pickle (for AsyncVectorEnv's workers).
        fns = pool.env_fns("Cerebellum-Adb-v0", task="SystemWifiTurnOn", pixels=False)
        assert len(pickle.loads(pickle.dumps(fns))) == num
        if num == 2:
            envs = gym.vector.SyncVectorEnv(fns)
            try:
                envs.reset(seed=0)
                assert [e.unwrapped.device.serial for e in envs.envs] == serials
            finally:
                envs.close()
        everything = [p for e in pool.emulators for p in e.processes()]
        assert len(everything) == 2 * num
    assert _gone(everything) == []


def test_no_emulator_outlives_a_killed_parent(standin: StandinSdk, tmp_path: Path) -> None:
    """SIGKILL of the Python process that owns the pool runs no clean-up: the guards end the emulators."""
    script = textwrap.dedent(
        f"""
        import json, sys, time
        from cerebellum_gym.devices.emulators import EmulatorPool
        pool = EmulatorPool(2, **{standin.pool_kwargs(log_dir=str(tmp_path))!r}).start()
        print(json.dumps([p for e in pool.emulators for p in e.processes()]), flush=True)
        time.sleep(60)
        """
    )
    owner = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        line = owner.stdout.readline() if owner.stdout else ""
        pids = json.loads(line)
        assert len(pids) == 4 and all(Path(f"/proc/{p}").exists() for p in pids)
    finally:
        owner.kill()
        owner.wait()
    assert _gone(pids, 5.0) == []


def test_sizing_refuses_what_the_machine_cannot_hold(standin: StandinSdk) -> None:
    pool = EmulatorPool(3, **standin.pool_kwargs(force=False, memory_mb=10**9))
    with pytest.raises(EmulatorCapacityError, match=r"refusing to launch 3 emulators: .*3000000000 MB of memory .*pass force=True"):
        pool.start()
    assert pool.emulators == []  # nothing was launched
    problems = capacity_problems(3, capacity=Capacity(memory_mb=100_000, cpus=2, kvm="/dev/kvm does not exist"))
    assert problems[0].startswith("no hardware acceleration: /dev/kvm does not exist")
    assert problems[1] == "3 emulators need about 3 CPU cores (1 each); this process may use 2"
    assert capacity_problems(2, cores=0.5, capacity=Capacity(memory_mb=4096, cpus=1, kvm=None)) == []


def test_launching_needs_an_avd(standin: StandinSdk) -> None:
    with pytest.raises(CerebellumError, match="needs an AVD name"):
        EmulatorPool(1, **standin.pool_kwargs(avd=None)).start()


def test_group_processes_lists_a_process_group() -> None:
    child = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        assert group_processes(child.pid) == [child.pid]
    finally:
        child.kill()
        child.wait()
    assert group_processes(child.pid) == []


def test_a_pool_starts_again_after_its_adb_server_was_killed(standin: StandinSdk) -> None:
    # Issue 36: once something else killed a pool's adb server, every later pool start on that
    # port failed ("daemon not running"); `adb start-server` must bring a server back.
    assert standin.adb.pid is not None
    os.killpg(standin.adb.pid, signal.SIGKILL)  # the watchdog and the server it runs
    assert standin.adb.process is not None
    standin.adb.process.wait(timeout=10)
    try:
        with EmulatorPool(1, **standin.pool_kwargs()) as pool:
            assert pool.emulators[0].state == "ready" and pool.health(0).ok
    finally:
        standin.adb.run("kill-server")  # the daemon the pool started, then the fixture's own again
        standin.adb.start()
