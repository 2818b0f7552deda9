"""A private adb server for tests and benchmarks: its own port and ``HOME``, no device scanning."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Final

from cerebellum_gym import leftovers
from cerebellum_gym.devices.adb.client import adb_binary
from cerebellum_gym.devices.android import smart_request
from cerebellum_gym.errors import DeviceLostError


def free_port(host: str = "127.0.0.1") -> int:
    """A free TCP port on ``host``, outside 5555-5585 (where adb looks for emulators)."""
    while True:
        with socket.socket() as s:
            s.bind((host, 0))
            port = int(s.getsockname()[1])
        if not 5555 <= port <= 5585:
            return port


#: The watchdog the server runs under: the server in the background, then a read of the pipe from
#: the owning process, which ends (EOF) when that process exits or is killed; then the server goes.
_WATCHDOG: Final = (
    '"$@" </dev/null & server=$!; '
    "trap 'kill $server 2>/dev/null; wait $server; exit 0' TERM INT HUP; "
    "read -r _ignored || true; kill $server 2>/dev/null; wait $server"
)


class PrivateAdbServer:
    """An adb server of one's own, for tests and benchmarks: a private port, a temporary
    ``HOME`` (its own keys), and no scanning of USB, mDNS or the emulator port range.

    Example::

        with PrivateAdbServer() as adb:
            adb.run("connect", "127.0.0.1:6520")
            device = AdbDevice("127.0.0.1:6520", adb_port=adb.port)
    """

    def __init__(self, port: int | None = None, adb: str | None = None) -> None:
        self.adb = adb or adb_binary()
        self._fixed_port = port is not None
        self.port = port or free_port()
        self.home = leftovers.owned_dir("adb-home")
        self.process: subprocess.Popen[bytes] | None = None
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

    def start(self, timeout: float = 30.0) -> PrivateAdbServer:
        """Run the server as this process's child, in the foreground (``server nodaemon``), under
        a watchdog that ends it when this process ends, however it ends (a SIGKILL included):
        the watchdog reads a pipe only this process writes to, and its end is the signal. A port
        taken between choosing and binding it is retried on another."""
        for attempt in range(3):
            try:
                return self._start(timeout)
            except DeviceLostError:
                self._stop_process()
                if self._fixed_port or attempt == 2:
                    raise
                self.port = free_port()
                self.env["ANDROID_ADB_SERVER_PORT"] = str(self.port)
        raise AssertionError("unreachable")

    def _start(self, timeout: float) -> PrivateAdbServer:
        log = open(os.path.join(self.home, "adb-server.log"), "wb")  # noqa: SIM115  (the child keeps it)
        with log:
            self.process = subprocess.Popen(
                ["sh", "-c", _WATCHDOG, "adb-watchdog", self.adb, "-L", f"tcp:{self.port}", "server", "nodaemon"],
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=self.env,
                start_new_session=True,  # a Ctrl-C in the terminal is this process's to handle
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                said = Path(self.home, "adb-server.log").read_text(errors="replace").strip()[-300:]
                raise DeviceLostError(f"adb server on port {self.port} exited at start: {said}")
            if self._answers():
                return self
            time.sleep(0.02)
        raise DeviceLostError(f"adb server on port {self.port} did not listen within {timeout:.0f} s")

    def _answers(self) -> bool:
        """Whether our adb server answers on the port yet (``False`` while nothing listens).

        Raises:
            DeviceLostError: something else holds the port (it took the port before our server
                bound it: a connection reaches it, but it does not answer as adb does).
        """
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)  # a loaded machine answers late
        except OSError:
            return False
        with sock:
            try:
                sock.sendall(smart_request("host:version"))
                if sock.recv(4) == b"OKAY":
                    return True
            except OSError:
                pass
        raise DeviceLostError(f"port {self.port} is taken by another process")

    def _stop_process(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        with contextlib.suppress(OSError):
            if process.stdin is not None:
                process.stdin.close()  # the watchdog's signal: it ends the server and exits
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def stop(self) -> None:
        """Kill the server and remove its ``HOME``. Idempotent."""
        self._stop_process()
        leftovers.remove(self.home)

    @property
    def pid(self) -> int | None:
        """The watchdog's pid (the server is its child, in the same process group)."""
        return None if self.process is None else self.process.pid

    def __enter__(self) -> PrivateAdbServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
