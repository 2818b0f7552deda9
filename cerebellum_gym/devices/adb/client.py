"""The project's own client for the adb server's smart-socket protocol.

The ADB backend talks to the adb server (``adb start-server``, port 5037 by default) itself,
over plain sockets, rather than through a library: each request is a 4-hex-digit length and the
service name, answered ``OKAY`` or ``FAIL`` plus a message (``host:transport:SERIAL``, then a
device service such as ``shell,v2,raw:...``, ``exec:...`` or ``sync:``). Doing the reads itself
gives every call one hard deadline (:class:`Deadline`): a device that stops answering raises
:class:`~cerebellum_gym.errors.DeviceTimeoutError`, a dropped one
:class:`~cerebellum_gym.errors.DeviceLostError`, nonsense
:class:`~cerebellum_gym.errors.DeviceProtocolError`; nothing hangs.

adbutils is used for one thing only: finding an ``adb`` binary (its wheel ships one) when
``$ADB`` and ``PATH`` have none (:func:`adb_binary`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import time
from collections.abc import Callable
from typing import Final

from cerebellum_gym.devices.android import MAX_REQUEST, read_status, smart_request
from cerebellum_gym.errors import CerebellumError, DeviceLostError, DeviceProtocolError, DeviceTimeoutError

#: The most output one call accepts before calling the answer nonsense.
MAX_OUTPUT: Final = 64 * 1024 * 1024


class Deadline:
    """A point in time that every read of one call must finish by."""

    def __init__(self, seconds: float, what: str) -> None:
        self.end = time.monotonic() + seconds
        self.seconds = seconds
        self.what = what

    def remaining(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            raise DeviceTimeoutError(f"{self.what}: no answer within {self.seconds:g} s")
        return left


class Link:
    """One socket to the adb server, switched to a device service, read under a deadline."""

    def __init__(self, sock: socket.socket, deadline: Deadline) -> None:
        self.sock = sock
        self.deadline = deadline
        self.buffer = bytearray()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()

    def send(self, data: bytes) -> None:
        self.sock.settimeout(self.deadline.remaining())
        try:
            self.sock.sendall(data)
        except TimeoutError:
            raise DeviceTimeoutError(f"{self.deadline.what}: send timed out") from None
        except OSError as exc:
            raise DeviceLostError(f"{self.deadline.what}: connection to the adb server broke: {exc}") from exc

    def _fill(self) -> bool:
        self.sock.settimeout(self.deadline.remaining())
        try:
            chunk = self.sock.recv(1 << 20)
        except TimeoutError:
            raise DeviceTimeoutError(f"{self.deadline.what}: no answer within {self.deadline.seconds:g} s") from None
        except OSError as exc:
            raise DeviceLostError(f"{self.deadline.what}: connection broke: {exc}") from exc
        if not chunk:
            return False
        self.buffer += chunk
        if len(self.buffer) > MAX_OUTPUT:
            raise DeviceProtocolError(f"{self.deadline.what}: more than {MAX_OUTPUT} bytes of output")
        return True

    def read_exact(self, n: int) -> bytes:
        while len(self.buffer) < n:
            if not self._fill():
                raise DeviceLostError(f"{self.deadline.what}: connection closed mid-answer")
        data = bytes(self.buffer[:n])
        del self.buffer[:n]
        return data

    def read_all(self) -> bytes:
        while self._fill():
            pass
        data = bytes(self.buffer)
        self.buffer.clear()
        return data

    def read_into(self, buf: bytearray, progress: Callable[[int], None] | None = None) -> int:
        """Everything until the peer closes, received straight into ``buf`` (no per-chunk copies,
        unlike :meth:`read_all`); ``progress(n)`` after each chunk. The byte count.

        Raises:
            DeviceProtocolError: more than ``len(buf)`` bytes arrived.
        """
        n = len(self.buffer)
        if n > len(buf):
            raise DeviceProtocolError(f"{self.deadline.what}: more than {len(buf)} bytes of output")
        buf[:n] = self.buffer
        self.buffer.clear()
        with memoryview(buf) as view:
            while True:
                if n == len(buf):
                    # Full: one byte more would mean the answer is larger than announced.
                    probe = self._recv_some(1)
                    if probe:
                        raise DeviceProtocolError(f"{self.deadline.what}: more than {len(buf)} bytes of output")
                    return n
                got = self._recv_into(view[n:])
                if not got:
                    return n
                n += got
                if progress is not None:
                    progress(n)

    def _recv_into(self, view: memoryview) -> int:
        self.sock.settimeout(self.deadline.remaining())
        try:
            return self.sock.recv_into(view)
        except TimeoutError:
            raise DeviceTimeoutError(f"{self.deadline.what}: no answer within {self.deadline.seconds:g} s") from None
        except OSError as exc:
            raise DeviceLostError(f"{self.deadline.what}: connection broke: {exc}") from exc

    def _recv_some(self, size: int) -> bytes:
        self.sock.settimeout(self.deadline.remaining())
        try:
            return self.sock.recv(size)
        except TimeoutError:
            raise DeviceTimeoutError(f"{self.deadline.what}: no answer within {self.deadline.seconds:g} s") from None
        except OSError as exc:
            raise DeviceLostError(f"{self.deadline.what}: connection broke: {exc}") from exc

    def request(self, service: str) -> None:
        """Send one adb server request and check its OKAY (a FAIL says why)."""
        data = service.encode("utf-8")
        if len(data) > MAX_REQUEST:
            # The server reads 4 hex digits of length: a longer request would be misread and
            # the connection dropped. This is the caller's error, not the device's.
            raise CerebellumError(f"{self.deadline.what}: a {len(data)}-byte adb request exceeds the adb server's {MAX_REQUEST}-byte limit")
        self.send(smart_request(service))
        try:
            message = read_status(self.read_exact)
        except ValueError as exc:
            raise DeviceProtocolError(f"{self.deadline.what}: {exc}") from None
        if message is None:
            return
        lowered = message.lower()
        if any(w in lowered for w in ("not found", "offline", "unauthorized", "no devices", "closed", "connecting")):
            raise DeviceLostError(f"{self.deadline.what}: adb: {message}")
        raise DeviceProtocolError(f"{self.deadline.what}: adb: {message}")


def looks_like_address(serial: str) -> bool:
    """``host:port`` (or ``[v6]:port``): a device to ``adb connect`` to."""
    host, sep, port = serial.rpartition(":")
    return bool(sep and host and port.isdigit())


def adb_binary() -> str:
    """The adb binary: ``$ADB``, then ``adb`` on ``PATH``, then the one inside adbutils' wheel."""
    explicit = os.environ.get("ADB")
    if explicit:
        return explicit
    found = shutil.which("adb")
    if found:
        return found
    try:
        from adbutils import adb_path
    except ImportError as exc:
        raise DeviceLostError("no adb binary: install adbutils (pip install 'cerebellum-gym[adb]') or put adb on PATH") from exc
    return str(adb_path())
