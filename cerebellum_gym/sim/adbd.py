"""The simulator served as an ADB device: an adbd speaking the genuine ADB transport protocol.

``adb connect 127.0.0.1:PORT`` (the real adb server binary) talks to :class:`AdbdServer` as to
any phone: CNXN without AUTH, then OPEN/OKAY/WRTE/CLSE streams with one unacknowledged WRTE per
stream. Services: ``shell:`` (v1, output then close), ``shell,v2:`` (stdout/stderr/exit packets),
``exec:`` (raw output) and ``sync:`` (STAT, LIST, RECV, SEND, QUIT). Commands run in
:class:`~cerebellum_gym.sim.shell.Shell` against one :class:`~cerebellum_gym.sim.phone.Phone`.

For tests, faults can be armed (:meth:`AdbdServer.inject`): drop the connection, stop answering,
or send garbage, on the next service whose name contains a given text.

The server binds to loopback only unless ``allow_remote=True``: it runs arbitrary shell
commands against the simulator and has no authentication.

Example:
    >>> from cerebellum_gym.sim.phone import Phone
    >>> with AdbdServer(Phone(), port=0) as server:
    ...     host, port = server.address
    ...     host
    '127.0.0.1'
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import socket
import struct
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Final, Literal

import numpy as np

from cerebellum_gym.devices.android import ADB_KEYBOARD_IME
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import DEFAULT_SDK, PROPS, Shell
from cerebellum_gym.sim.shell.androidworld import add_standard_folders

log = logging.getLogger(__name__)

A_SYNC: Final = 0x434E5953
A_CNXN: Final = 0x4E584E43
A_AUTH: Final = 0x48545541
A_OPEN: Final = 0x4E45504F
A_OKAY: Final = 0x59414B4F
A_CLSE: Final = 0x45534C43
A_WRTE: Final = 0x45545257
A_STLS: Final = 0x534C5453
A_VERSION: Final = 0x01000001
MAX_PAYLOAD: Final = 1024 * 1024
SYNC_DATA_MAX: Final = 64 * 1024
#: Shell protocol v2 packet ids.
SHELL_STDIN, SHELL_STDOUT, SHELL_STDERR, SHELL_EXIT, SHELL_CLOSE_STDIN = 0, 1, 2, 3, 4
HEADER: Final = struct.Struct("<6I")
FEATURES: Final = "shell_v2,cmd"
#: Seconds between answering ``adb root`` and the restart that drops the transports.
RESTART_DELAY: Final = 0.1

FaultKind = Literal["drop", "hang", "garbage", "garbage_output"]
FAULT_KINDS: Final[tuple[str, ...]] = ("drop", "hang", "garbage", "garbage_output")


def packet(command: int, arg0: int, arg1: int, payload: bytes = b"") -> bytes:
    """One ADB message: the 24-byte header (with checksum and magic) and its payload."""
    return HEADER.pack(command, arg0, arg1, len(payload), checksum(payload), command ^ 0xFFFFFFFF) + payload


def checksum(payload: bytes) -> int:
    """The byte sum of ``payload`` (mod 2**32), the header's ``data_check``.

    Python's ``sum`` costs about 10 ns a byte, which is most of a raw 10 MB ``screencap``'s
    time; numpy sums large payloads a hundred times faster.
    """
    if len(payload) < 4096:
        return sum(payload) & 0xFFFFFFFF
    return int(np.frombuffer(payload, np.uint8).sum(dtype=np.uint64)) & 0xFFFFFFFF


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) resolves to loopback addresses only."""
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except socket.gaierror:
        return False
    addresses = {info[4][0] for info in infos}
    return bool(addresses) and all(ipaddress.ip_address(str(a).split("%")[0]).is_loopback for a in addresses)


@dataclass
class Fault:
    """A fault armed for the next ``count`` services whose name contains ``on``."""

    kind: str
    on: str = ""
    count: int = 1


@dataclass
class _Stream:
    local_id: int
    remote_id: int
    service: str
    out: deque[bytes] = field(default_factory=deque)
    awaiting_ack: bool = False
    close_when_drained: bool = False
    sync: bytearray | None = None
    #: An open SEND: (path, received data), until its DONE.
    sending: tuple[str, bytearray] | None = None


class _Connection:
    """One TCP connection from an adb server: the transport and its multiplexed streams."""

    def __init__(self, server: AdbdServer, sock: socket.socket) -> None:
        self.server = server
        self.sock = sock
        self.streams: dict[int, _Stream] = {}
        self.next_id = 1
        self.max_payload = 4096
        self.hung = False
        self.shell = Shell(server.phone, screencap_compression=server.screencap_compression, provision=server.provision, sdk=server.sdk)

    # --- plumbing ----------------------------------------------------------------------------

    def _recv_exact(self, n: int) -> bytes | None:
        buf = bytearray()
        while len(buf) < n:
            try:
                chunk = self.sock.recv(n - len(buf))
            except OSError:
                return None
            if not chunk:
                return None
            buf += chunk
        return bytes(buf)

    def send(self, command: int, arg0: int, arg1: int, payload: bytes = b"") -> None:
        self.sock.sendall(packet(command, arg0, arg1, payload))

    def run(self) -> None:
        try:
            while not self.server.stopping:
                header = self._recv_exact(HEADER.size)
                if header is None:
                    return
                command, arg0, arg1, length, _check, magic = HEADER.unpack(header)
                payload = self._recv_exact(length) if length else b""
                if payload is None:
                    return
                if magic != command ^ 0xFFFFFFFF:
                    log.warning("adbd: bad magic from %s; closing", self.sock.getpeername())
                    return
                if self.hung:
                    continue  # the injected "stop answering" fault: read, never reply
                self.dispatch(command, arg0, arg1, payload)
        except OSError:
            return
        finally:
            with contextlib.suppress(OSError):
                self.sock.close()
            self.server._forget(self)

    def dispatch(self, command: int, arg0: int, arg1: int, payload: bytes) -> None:
        if command == A_CNXN:
            self.max_payload = max(4096, min(arg1, MAX_PAYLOAD))
            self.streams.clear()
            # Answer CNXN with CNXN and skip AUTH, as a device with authentication off does.
            self.send(A_CNXN, A_VERSION, MAX_PAYLOAD, self.server.banner().encode())
        elif command == A_OPEN:
            self.open(arg0, payload.rstrip(b"\0").decode("utf-8", "replace"))
        elif command == A_OKAY:
            stream = self.streams.get(arg1)
            if stream is not None:
                stream.awaiting_ack = False
                self.pump(stream)
        elif command == A_WRTE:
            stream = self.streams.get(arg1)
            if stream is None:
                self.send(A_CLSE, 0, arg0)
                return
            self.send(A_OKAY, stream.local_id, stream.remote_id)
            if stream.sync is not None:
                stream.sync += payload
                self.serve_sync(stream)
            # Shell stdin is not used by any command here: acknowledged and dropped.
        elif command == A_CLSE:
            self.streams.pop(arg1, None)
        # AUTH, STLS and SYNC are not expected from a host once connected: ignored.

    def pump(self, stream: _Stream) -> None:
        """Send the next chunk if the peer acknowledged the last one; close when drained."""
        if stream.awaiting_ack or stream.local_id not in self.streams:
            return
        if stream.out:
            chunk = stream.out.popleft()
            stream.awaiting_ack = True
            self.send(A_WRTE, stream.local_id, stream.remote_id, chunk)
        elif stream.close_when_drained:
            del self.streams[stream.local_id]
            self.send(A_CLSE, stream.local_id, stream.remote_id)

    def queue(self, stream: _Stream, data: bytes) -> None:
        step = self.max_payload
        for i in range(0, len(data), step):
            stream.out.append(data[i : i + step])

    # --- services ----------------------------------------------------------------------------

    def open(self, remote_id: int, service: str) -> None:
        fault = self.server._take_fault(service)
        if fault == "drop":
            log.info("adbd: injected fault: dropping the connection on %r", service)
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)
            self.sock.close()
            return
        if fault == "hang":
            log.info("adbd: injected fault: no more answers after %r", service)
            self.hung = True
            return
        if fault == "garbage":
            log.info("adbd: injected fault: garbage on the transport after %r", service)
            self.sock.sendall(os.urandom(256))
            return
        local_id = self.next_id
        self.next_id += 1
        stream = _Stream(local_id, remote_id, service)
        name, _, command = service.partition(":")
        kind = name.split(",")[0]
        if kind in ("root", "unroot"):
            self.serve_root(remote_id, local_id, kind == "root")
            return
        if kind not in ("shell", "exec", "sync"):
            self.send(A_CLSE, 0, remote_id)  # how adbd refuses a service it does not offer
            return
        self.streams[local_id] = stream
        self.send(A_OKAY, local_id, remote_id)
        v2 = kind == "shell" and "v2" in name.split(",")[1:]
        if fault == "garbage_output":
            # Well-formed framing around nonsense: the client must check what it got.
            noise = os.urandom(512)
            self.queue(
                stream, struct.pack("<BI", SHELL_STDOUT, len(noise)) + noise + struct.pack("<BIB", SHELL_EXIT, 1, 0) if v2 else noise
            )
            stream.close_when_drained = True
        elif kind == "sync":
            stream.sync = bytearray()
        elif not command.strip():
            self.queue(stream, b"cerebellum-gym simulator: interactive shells are not supported; pass a command\n")
            stream.close_when_drained = True
        else:
            with self.server.lock:
                # Each service is a fresh `sh -c` on a device: no cwd or $? carries over.
                self.shell.cwd, self.shell.status = "/", 0
                self.shell.root = self.server.root
                result = self.shell.run(command)
            if v2:
                body = bytearray()
                for pid, data in ((SHELL_STDOUT, result.stdout), (SHELL_STDERR, result.stderr)):
                    for i in range(0, len(data), SYNC_DATA_MAX):
                        part = data[i : i + SYNC_DATA_MAX]
                        body += struct.pack("<BI", pid, len(part)) + part
                body += struct.pack("<BI", SHELL_EXIT, 1) + bytes([result.code & 0xFF])
                self.queue(stream, bytes(body))
            else:
                # shell v1 and exec: one byte stream; the exit code is lost, as on a device.
                self.queue(stream, result.stdout + result.stderr if result.stderr else result.stdout)
            stream.close_when_drained = True
        self.pump(stream)

    def serve_root(self, remote_id: int, local_id: int, root: bool) -> None:
        """``adb root`` / ``adb unroot``: what adbd prints, then the restart a change costs.

        adbd restarts under the new uid, so every transport drops and the adb server connects
        again (the client waits for the device to go and come back). Without a change adbd
        answers and stays up.
        """
        stream = _Stream(local_id, remote_id, "root:" if root else "unroot:")
        self.streams[local_id] = stream
        self.send(A_OKAY, local_id, remote_id)
        if self.server.root == root:
            self.queue(stream, b"adbd is already running as root\n" if root else b"adbd not running as root\n")
            stream.close_when_drained = True
            self.pump(stream)
            return
        self.server.root = root
        self.queue(stream, b"restarting adbd as root\n" if root else b"restarting adbd as non root\n")
        stream.close_when_drained = True
        self.pump(stream)
        threading.Timer(RESTART_DELAY, self.server.drop_connections).start()

    def serve_sync(self, stream: _Stream) -> None:
        buf = stream.sync
        assert buf is not None
        while len(buf) >= 8:
            ident = bytes(buf[:4])
            length = struct.unpack("<I", buf[4:8])[0]
            if ident == b"DONE" and stream.sending is not None:
                del buf[:8]  # DONE's argument is the mtime, not a length
                path, data = stream.sending
                stream.sending = None
                with self.server.lock:
                    self.shell.write(path, bytes(data))
                self.queue(stream, b"OKAY" + struct.pack("<I", 0))
                continue
            if length > SYNC_DATA_MAX * 4 or (ident != b"DATA" and length > 4096):
                self.queue(stream, _sync_fail("sync request too long"))
                stream.close_when_drained = True
                buf.clear()
                break
            if len(buf) < 8 + length:
                break
            body = bytes(buf[8 : 8 + length])
            del buf[: 8 + length]
            if ident == b"DATA" and stream.sending is not None:
                stream.sending[1].extend(body)
                continue
            path = body.decode("utf-8", "surrogateescape")
            with self.server.lock:
                reply = self.sync_request(stream, ident, path)
            if reply is None:
                stream.close_when_drained = True
                break
            if reply:
                self.queue(stream, reply)
        self.pump(stream)

    def sync_request(self, stream: _Stream, ident: bytes, path: str) -> bytes | None:
        """The reply to one sync request; ``None`` ends the sync session."""
        shell = self.shell
        mtime = int(self.server.phone.state.clock)
        if ident == b"STAT":
            if shell.read(path) is not None:
                return b"STAT" + struct.pack("<III", 0o100644, len(shell.read(path) or b""), mtime)
            if shell.is_dir(path):
                return b"STAT" + struct.pack("<III", 0o40771, 4096, mtime)
            return b"STAT" + struct.pack("<III", 0, 0, 0)
        if ident == b"LIST":
            out = bytearray()
            if shell.is_dir(path):
                for name in shell.listdir(path):
                    full = path.rstrip("/") + "/" + name
                    data = shell.read(full)
                    mode, size = (0o100644, len(data)) if data is not None else (0o40771, 4096)
                    encoded = name.encode("utf-8", "surrogateescape")
                    out += b"DENT" + struct.pack("<IIII", mode, size, mtime, len(encoded)) + encoded
            return bytes(out) + b"DONE" + struct.pack("<IIII", 0, 0, 0, 0)
        if ident == b"RECV":
            data = shell.read(path)
            if data is None:
                return _sync_fail("No such file or directory")
            out = bytearray()
            for i in range(0, len(data), SYNC_DATA_MAX):
                out += b"DATA" + struct.pack("<I", len(data[i : i + SYNC_DATA_MAX])) + data[i : i + SYNC_DATA_MAX]
            return bytes(out) + b"DONE" + struct.pack("<I", 0)
        if ident == b"SEND":
            target, _, _mode = path.rpartition(",")
            stream.sending = (target or path, bytearray())
            return b""
        if ident == b"QUIT":
            return None
        return _sync_fail(f"unknown sync request {ident!r}")


def _sync_fail(message: str) -> bytes:
    data = message.encode()
    return b"FAIL" + struct.pack("<I", len(data)) + data


class AdbdServer:
    """A simulator phone served over TCP as an adbd.

    Args:
        phone: the device to serve; a fresh :class:`Phone` when ``None``.
        host: address to bind; loopback unless ``allow_remote``.
        port: TCP port; 0 picks a free one (see :attr:`address`).
        allow_remote: permit binding beyond loopback (there is no authentication).
        adb_keyboard: install the ADB keyboard as the input method, so non-ASCII text can be
            typed with its broadcast (as on a phone with ADBKeyBoard installed and selected).
        serial: the product serial in the banner.
        screencap_compression: zlib level of ``screencap -p``.
        sdk: the API level the device reports; below 28 raw ``screencap`` writes the older
            12-byte header (no colour-space word).

    Raises:
        CerebellumError: ``host`` is not loopback and ``allow_remote`` is false.
    """

    def __init__(
        self,
        phone: Phone | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        allow_remote: bool = False,
        adb_keyboard: bool = True,
        serial: str = "cerebellum-sim",
        screencap_compression: int = 1,
        sdk: int = DEFAULT_SDK,
    ) -> None:
        if not allow_remote and not is_loopback(host):
            raise CerebellumError(
                f"refusing to serve on {host!r}: the simulator's adbd has no authentication and runs any shell command; "
                "bind to 127.0.0.1 (the default), or pass allow_remote=True (--allow-remote) if you really mean to expose it"
            )
        self.phone = phone if phone is not None else Phone()
        self.adb_keyboard = adb_keyboard
        self.provision(self.phone)
        self.serial = serial
        self.screencap_compression = screencap_compression
        self.sdk = int(sdk)
        self.lock = threading.RLock()
        #: adbd's uid: ``adb root`` switches it (shell commands then run as root).
        self.root = False
        self.stopping = False
        self._faults: list[Fault] = []
        self._fault_lock = threading.Lock()
        self._connections: set[_Connection] = set()
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._listener = socket.socket(family, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self._listener.bind((host, port))
        except OSError as exc:
            self._listener.close()
            raise CerebellumError(f"cannot serve on {host}:{port}: {exc}") from exc
        self._listener.listen(8)
        self._thread: threading.Thread | None = None

    def provision(self, phone: Phone) -> None:
        """Set the phone up as served (again after a factory reset): shared storage's standard
        folders, and the ADB keyboard if asked."""
        add_standard_folders(phone)
        if self.adb_keyboard:
            phone.put_setting("secure", "default_input_method", ADB_KEYBOARD_IME)

    @property
    def address(self) -> tuple[str, int]:
        """The bound ``(host, port)``."""
        host, port = self._listener.getsockname()[:2]
        return host, port

    @property
    def serial_for_adb(self) -> str:
        """The serial the adb server lists after ``adb connect``: ``host:port``."""
        host, port = self.address
        return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

    def banner(self) -> str:
        props = ";".join(f"{k}={PROPS[k]}" for k in ("ro.product.name", "ro.product.model", "ro.product.device"))
        return f"device::{props};features={FEATURES}"

    # --- faults ------------------------------------------------------------------------------

    def inject(self, kind: FaultKind, on: str = "", count: int = 1) -> None:
        """Arm a fault for the next ``count`` services whose name contains ``on``.

        Kinds: ``drop`` closes the TCP connection (mid-step, as a cable pull); ``hang`` stops
        answering on that connection (it stays open); ``garbage`` writes random bytes onto the
        transport; ``garbage_output`` answers the service with random bytes (inside valid shell
        v2 framing, exit code 0, so only a client that checks its data notices).
        """
        if kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault {kind!r}; known: {', '.join(FAULT_KINDS)}")
        with self._fault_lock:
            self._faults.append(Fault(kind, on, count))

    def clear_faults(self) -> None:
        with self._fault_lock:
            self._faults.clear()

    def _take_fault(self, service: str) -> str | None:
        with self._fault_lock:
            for fault in self._faults:
                if fault.on in service:
                    fault.count -= 1
                    if fault.count <= 0:
                        self._faults.remove(fault)
                    return fault.kind
        return None

    # --- lifecycle ---------------------------------------------------------------------------

    def start(self) -> AdbdServer:
        """Serve in a background thread; returns ``self``."""
        if self._thread is None:
            self._thread = threading.Thread(target=self.serve_forever, name=f"adbd:{self.address[1]}", daemon=True)
            self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Accept connections until :meth:`stop` (each connection gets its own thread)."""
        while not self.stopping:
            try:
                sock, _ = self._listener.accept()
            except OSError:
                break
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn = _Connection(self, sock)
            self._connections.add(conn)
            threading.Thread(target=conn.run, name="adbd-conn", daemon=True).start()

    def _forget(self, conn: _Connection) -> None:
        self._connections.discard(conn)

    def drop_connections(self) -> None:
        """Close every open transport (the adb server sees the device go offline)."""
        for conn in list(self._connections):
            with contextlib.suppress(OSError):
                conn.sock.shutdown(socket.SHUT_RDWR)

    def stop(self) -> None:
        """Stop accepting and close every connection. Idempotent."""
        self.stopping = True
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        self.drop_connections()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    def __enter__(self) -> AdbdServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
