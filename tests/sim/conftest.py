"""Fixtures shared by the simulator's tests that go through the real adb server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cerebellum_gym.devices.adb import PrivateAdbServer


@pytest.fixture(scope="module")
def adb() -> Iterator[PrivateAdbServer]:
    """A private real adb server (its own port and ``HOME``), one per test module."""
    pytest.importorskip("adbutils")
    server = PrivateAdbServer().start()
    try:
        yield server
    finally:
        server.stop()
