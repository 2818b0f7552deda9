"""Shared ADB fixtures: a private adb server (the binary from adbutils' wheel) per xdist worker,
and the simulator served as an adbd on a free loopback port."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from standins import StandinSdk, make_standin_sdk, scanning_adb_server, standin_port_base

from cerebellum_gym.devices.adb import AdbDevice, PrivateAdbServer
from cerebellum_gym.sim.adbd import AdbdServer
from cerebellum_gym.sim.phone import Phone

pytest.importorskip("adbutils")


@pytest.fixture(scope="session")
def adb_server() -> Iterator[PrivateAdbServer]:
    """One isolated adb server per test process (private port and HOME, no emulator/USB/mDNS scan)."""
    server = PrivateAdbServer().start()
    saved = {k: os.environ.get(k) for k in ("ANDROID_ADB_SERVER_PORT", "ADB_EMU")}
    # Anything that reads the environment (adbutils, AdbDevice defaults) finds the private server.
    os.environ["ANDROID_ADB_SERVER_PORT"] = str(server.port)
    os.environ["ADB_EMU"] = "0"
    try:
        yield server
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        server.stop()


@dataclass
class Served:
    """A served simulator and a connected AdbDevice."""

    server: AdbdServer
    device: AdbDevice
    adb: PrivateAdbServer

    @property
    def phone(self) -> Phone:
        return self.server.phone

    @property
    def serial(self) -> str:
        return self.server.serial_for_adb

    def options(self, **extra: object) -> dict[str, object]:
        """``device_options`` for ``gym.make("Cerebellum-Adb-v0", ...)``."""
        return {"serial": self.serial, "adb_port": self.adb.port, "timeout": 5.0, **extra}


def serve(adb: PrivateAdbServer, timeout: float = 5.0) -> Served:
    server = AdbdServer(Phone(), port=0).start()
    device = AdbDevice(server.serial_for_adb, adb_port=adb.port, timeout=timeout, reconnect_timeout=5.0)
    return Served(server, device, adb)


def unserve(served: Served) -> None:
    served.device.close()
    served.adb.run("disconnect", served.serial)
    served.server.stop()


@pytest.fixture
def served(adb_server: PrivateAdbServer) -> Iterator[Served]:
    """A fresh simulator served over ADB, connected through the private adb server."""
    s = serve(adb_server)
    try:
        yield s
    finally:
        unserve(s)


@pytest.fixture(scope="module")
def served_module(adb_server: PrivateAdbServer) -> Iterator[Served]:
    """Like ``served`` but shared by a module (for property tests with many examples)."""
    s = serve(adb_server)
    try:
        yield s
    finally:
        unserve(s)


@pytest.fixture(scope="session")
def standin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StandinSdk]:
    """A fake SDK whose emulator is the stand-in, and an adb server with the emulator scan on.

    adb's emulator scan sees every emulator port on the machine, so two test sessions on one
    machine (two checkouts) would see each other's stand-ins: a machine-wide lock runs them one
    after the other.
    """
    import fcntl
    import tempfile

    root = tmp_path_factory.mktemp("standin")
    make_standin_sdk(root)
    base = standin_port_base()
    with open(os.path.join(tempfile.gettempdir(), "cerebellum-gym-standin.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        server = scanning_adb_server(base)
        try:
            yield StandinSdk(root, server, base, 18500 + (base - 5700))
        finally:
            server.stop()
