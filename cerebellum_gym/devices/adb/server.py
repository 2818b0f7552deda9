"""A private adb server for tests and benchmarks: its own port and ``HOME``, no device scanning."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess

from cerebellum_gym.devices.adb.client import adb_binary
from cerebellum_gym.errors import DeviceLostError


def free_port(host: str = "127.0.0.1") -> int:
    """A free TCP port on ``host``, outside 5555-5585 (where adb looks for emulators)."""
    while True:
        with socket.socket() as s:
            s.bind((host, 0))
            port = int(s.getsockname()[1])
        if not 5555 <= port <= 5585:
            return port


class PrivateAdbServer:
    """An adb server of one's own, for tests and benchmarks: a private port, a temporary
    ``HOME`` (its own keys), and no scanning of USB, mDNS or the emulator port range.

    Example::

        with PrivateAdbServer() as adb:
            adb.run("connect", "127.0.0.1:6520")
            device = AdbDevice("127.0.0.1:6520", adb_port=adb.port)
    """

    def __init__(self, port: int | None = None, adb: str | None = None) -> None:
        import tempfile

        self.adb = adb or adb_binary()
        self.port = port or free_port()
        self.home = tempfile.mkdtemp(prefix="cerebellum-adb-home-")
        self.env = {
            **os.environ,
            "HOME": self.home,
            "ANDROID_ADB_SERVER_PORT": str(self.port),
            "ADB_EMU": "0",  # do not probe the emulator ports 5555-5585
            "ADB_LIBUSB": "0",  # no USB scan (it also costs 3 s at start)
            "ADB_MDNS": "0",  # no multicast discovery: loopback only
            "ADB_MDNS_AUTO_CONNECT": "0",
        }

    def run(self, *args: str, timeout: float = 20.0) -> subprocess.CompletedProcess[str]:
        """Run the ``adb`` client against this server."""
        return subprocess.run(
            [self.adb, "-P", str(self.port), *args], env=self.env, capture_output=True, text=True, timeout=timeout, check=False
        )

    def start(self) -> PrivateAdbServer:
        result = self.run("start-server", timeout=30)
        if result.returncode != 0:
            raise DeviceLostError(f"adb start-server on port {self.port} failed: {result.stderr.strip()}")
        return self

    def stop(self) -> None:
        """Kill the server and remove its ``HOME``. Idempotent."""
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            self.run("kill-server", timeout=10)
        shutil.rmtree(self.home, ignore_errors=True)

    def __enter__(self) -> PrivateAdbServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
