"""Fixtures shared by the simulator's tests: a private adb server, a root shell on a fresh phone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cerebellum_gym.devices.adb import PrivateAdbServer
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell


@pytest.fixture(scope="module")
def adb() -> Iterator[PrivateAdbServer]:
    """A private real adb server (its own port and ``HOME``), one per test module."""
    pytest.importorskip("adbutils")
    server = PrivateAdbServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def sh() -> Shell:
    """The simulator's shell on a fresh phone, as root (AndroidWorld reads app databases as root)."""
    shell = Shell(Phone())
    shell.root = True
    return shell
