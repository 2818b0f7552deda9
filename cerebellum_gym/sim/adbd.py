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

With ``console=True`` it also serves the emulator's console
(:class:`~cerebellum_gym.sim.console.EmulatorConsole`) on loopback at the adb port minus one,
as an emulator does, and :meth:`AdbdServer.announce` tells an adb server about it
(``host:emulator:PORT``): the adb server then lists it as ``emulator-<port - 1>``
(:attr:`AdbdServer.emulator_serial`), the serial ``adb emu ...`` needs.

Example:
    >>> from cerebellum_gym.sim.phone import Phone
    >>> with AdbdServer(Phone(), port=0) as server:
    ...     host, port = server.address
    ...     host
    '127.0.0.1'
"""

from __future__ import annotations

import contextlib
import functools
import io
import ipaddress
import logging
import os
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import numpy as np

from cerebellum_gym.devices.android import ADB_KEYBOARD_IME, read_block, read_status, smart_request
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.sim.console import DEFAULT_TOKEN_PATH, EmulatorConsole
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import DEFAULT_SDK, PROPS, SH, Shell, ShellResult
from cerebellum_gym.sim.shell.androidworld import add_standard_folders
from cerebellum_gym.sim.shell.language import compile_script

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
#: Streams one connection may have open at once (more are refused with CLSE).
MAX_STREAMS: Final = 32
#: Connections served at once (more are closed on accept).
MAX_CONNECTIONS: Final = 128
#: Output held for streams that have not sent it all, across the server (see OutputBudget).
MAX_BUFFERED: Final = 64 * 1024 * 1024
#: Output of at most this many new bytes is sent even over MAX_BUFFERED, so that a plain
#: command always answers (MAX_CONNECTIONS x MAX_STREAMS x this bounds what that adds).
SMALL_OUTPUT: Final = 16 * 1024
#: How long one send may block on a peer that reads nothing before its connection is closed.
SEND_TIMEOUT: Final = 30.0
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


class OutputBudget:
    """Bytes of output the server holds for streams that have not sent it all yet.

    A buffer several streams share (one screenshot read by many clients) counts once. Output
    that would pass the limit is answered with an error instead (small output always passes),
    so output that no client reads cannot grow without bound; an upload counts while in flight.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.total = 0
        self._held: dict[int, list[Any]] = {}  # id -> [buffer, holders]
        self._lock = threading.Lock()

    def admit(self, buffers: Iterable[bytes]) -> bool:
        """Hold ``buffers`` unless that would pass the limit; output of at most
        :data:`SMALL_OUTPUT` new bytes is always admitted (a plain command always answers)."""
        with self._lock:
            fresh = {id(b): b for b in buffers if b and id(b) not in self._held}
            added = sum(len(b) for b in fresh.values())
            if added > SMALL_OUTPUT and self.total + added > self.limit:
                return False
            for buffer in buffers:
                if buffer:
                    self._hold(buffer)
            return True

    def _hold(self, buffer: bytes) -> None:
        entry = self._held.get(id(buffer))
        if entry is None:
            self._held[id(buffer)] = [buffer, 1]
            self.total += len(buffer)
        else:
            entry[1] += 1

    def release(self, buffer: bytes) -> None:
        with self._lock:
            entry = self._held.get(id(buffer))
            if entry is not None:
                entry[1] -= 1
                if entry[1] <= 0:
                    del self._held[id(buffer)]
                    self.total -= len(buffer)

    def reserve(self, n: int) -> bool:
        """Count ``n`` more bytes (an upload in flight), unless that would pass the limit."""
        with self._lock:
            if self.total + n > self.limit:
                return False
            self.total += n
            return True

    def unreserve(self, n: int) -> None:
        with self._lock:
            self.total -= n


@dataclass
class _Stream:
    local_id: int
    remote_id: int
    service: str
    #: Small replies, sent first, in order.
    out: deque[bytes] = field(default_factory=deque)
    #: Large output, produced one WRTE payload at a time as the peer acknowledges.
    source: Iterator[bytes] | None = None
    #: Buffers the source reads from, counted in the server's OutputBudget until sent.
    held: list[bytes] = field(default_factory=list)
    awaiting_ack: bool = False
    close_when_drained: bool = False
    sync: bytearray | None = None
    #: An open SEND: (path, received data), until its DONE.
    sending: tuple[str, bytearray] | None = None


def _packed(packets: Iterable[bytes | memoryview], step: int) -> Iterator[bytes]:
    """Consecutive packets (each at most ``step`` bytes) merged into payloads of at most ``step``."""
    buf = bytearray()
    for part in packets:
        if buf and len(buf) + len(part) > step:
            yield bytes(buf)
            buf = bytearray()
        buf += part
    if buf:
        yield bytes(buf)


def _slices(data: bytes, step: int) -> Iterator[bytes]:
    view = memoryview(data)
    for i in range(0, len(data), step):
        yield bytes(view[i : i + step])


def _shell_v2_packets(stdout: bytes, stderr: bytes, code: int, step: int) -> Iterator[bytes]:
    body = max(1, min(step, SYNC_DATA_MAX) - 5)
    for pid, data in ((SHELL_STDOUT, stdout), (SHELL_STDERR, stderr)):
        view = memoryview(data)
        for i in range(0, len(data), body):
            part = view[i : i + body]
            yield struct.pack("<BI", pid, len(part)) + part
    yield struct.pack("<BIB", SHELL_EXIT, 1, code & 0xFF)


def _sync_data_packets(data: bytes) -> Iterator[bytes]:
    view = memoryview(data)
    for i in range(0, len(data), SYNC_DATA_MAX):
        part = view[i : i + SYNC_DATA_MAX]
        yield b"DATA" + struct.pack("<I", len(part)) + part
    yield b"DONE" + struct.pack("<I", 0)


class _Connection:
    """One TCP connection from an adb server: the transport and its multiplexed streams.

    Everything a peer sends is untrusted: a packet longer than the maximum payload closes the
    connection, a command that fails answers an error, and nothing a peer does raises out of
    :meth:`run` (a fault in one stream closes that stream, a fault in the transport closes
    this connection; the server and its other connections go on).
    """

    def __init__(self, server: AdbdServer, sock: socket.socket) -> None:
        self.server = server
        self.sock = sock
        self.streams: dict[int, _Stream] = {}
        self.next_id = 1
        self.max_payload = 4096
        self.hung = False
        self.shell = server.make_shell()

    # --- plumbing ----------------------------------------------------------------------------

    def _recv_exact(self, n: int) -> bytes | None:
        buf = bytearray(n)
        view = memoryview(buf)
        got = 0
        while got < n:
            try:
                k = self.sock.recv_into(view[got:])
            except TimeoutError:
                if self.server.stopping:
                    return None
                continue  # an idle transport is fine: wait on
            except OSError:
                return None
            if not k:
                return None
            got += k
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
                if magic != command ^ 0xFFFFFFFF:
                    log.warning("adbd: bad magic from a peer; closing")
                    return
                if length > MAX_PAYLOAD:
                    # More than the device advertised: a device closes such a transport.
                    log.warning("adbd: a peer sent a %d-byte packet (max %d); closing", length, MAX_PAYLOAD)
                    return
                payload = self._recv_exact(length) if length else b""
                if payload is None:
                    return
                if self.hung:
                    continue  # the injected "stop answering" fault: read, never reply
                self.dispatch(command, arg0, arg1, payload)
        except OSError:
            return
        except Exception:  # a bug must cost this connection at most, never the server
            log.exception("adbd: closing a connection after an internal error")
            return
        finally:
            for stream in list(self.streams.values()):
                self._drop(stream)
            with contextlib.suppress(OSError):
                self.sock.close()
            self.server._forget(self)

    def dispatch(self, command: int, arg0: int, arg1: int, payload: bytes) -> None:
        if command == A_CNXN:
            self.max_payload = max(4096, min(arg1, MAX_PAYLOAD))
            for old in list(self.streams.values()):
                self._drop(old)
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
                try:
                    self.serve_sync(stream)
                except OSError:
                    raise
                except Exception:
                    log.exception("adbd: sync request failed")
                    stream.sync = None
                    self.queue(stream, _sync_fail("internal error"))
                    stream.close_when_drained = True
                    self.pump(stream)
            # Shell stdin is not used by any command here: acknowledged and dropped.
        elif command == A_CLSE:
            closing = self.streams.get(arg1)
            if closing is not None:
                # The peer closed its end: close ours and say so, as adbd does (clients such
                # as adb-shell wait for this CLSE).
                self._drop(closing)
                self.send(A_CLSE, closing.local_id, closing.remote_id)
        # AUTH, STLS and SYNC are not expected from a host once connected: ignored.

    def _drop(self, stream: _Stream) -> None:
        """Forget a stream and give back the output it held."""
        self.streams.pop(stream.local_id, None)
        stream.source = None
        stream.out.clear()
        for buffer in stream.held:
            self.server.budget.release(buffer)
        stream.held.clear()
        if stream.sending is not None:
            self.server.budget.unreserve(len(stream.sending[1]))
            stream.sending = None

    def pump(self, stream: _Stream) -> None:
        """Send the next chunk if the peer acknowledged the last one; close when drained."""
        if stream.awaiting_ack or stream.local_id not in self.streams:
            return
        chunk: bytes | None = None
        if stream.out:
            chunk = stream.out.popleft()
        elif stream.source is not None:
            chunk = next(stream.source, None)
            if chunk is None:
                stream.source = None
                for buffer in stream.held:
                    self.server.budget.release(buffer)
                stream.held.clear()
        if chunk:
            stream.awaiting_ack = True
            self.send(A_WRTE, stream.local_id, stream.remote_id, chunk)
        elif stream.close_when_drained and not stream.out and stream.source is None:
            self._drop(stream)
            self.send(A_CLSE, stream.local_id, stream.remote_id)

    def queue(self, stream: _Stream, data: bytes) -> None:
        """Queue a small reply (at most a few KB)."""
        step = self.max_payload
        for i in range(0, len(data), step):
            stream.out.append(data[i : i + step])

    def stream_out(self, stream: _Stream, payloads: Iterator[bytes], held: tuple[bytes, ...]) -> bool:
        """Send ``payloads`` lazily, one per acknowledgement; ``held`` counts in the server's
        budget until then. False (nothing queued) when the budget cannot take it now."""
        if not self.server.budget.admit(held):
            return False
        stream.held.extend(b for b in held if b)
        stream.source = payloads
        return True

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
        name, _, command = service.partition(":")
        kind = name.split(",")[0]
        if kind not in ("shell", "exec", "sync", "root", "unroot") or len(self.streams) >= MAX_STREAMS:
            # How adbd refuses a service it does not offer (or cannot take on now).
            self.send(A_CLSE, 0, remote_id)
            return
        local_id = self.next_id
        self.next_id += 1
        if kind in ("root", "unroot"):
            self.serve_root(remote_id, local_id, kind == "root")
            return
        stream = _Stream(local_id, remote_id, service)
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
            result = self.run_command(command)
            if v2:
                packets = _shell_v2_packets(result.stdout, result.stderr, result.code, self.max_payload)
                admitted = self.stream_out(stream, _packed(packets, self.max_payload), (result.stdout, result.stderr))
            else:
                # shell v1 and exec: one byte stream; the exit code is lost, as on a device.
                data = result.stdout + result.stderr if result.stderr else result.stdout
                admitted = self.stream_out(stream, _slices(data, self.max_payload), (data,))
            if not admitted:
                message = f"adbd: {len(result.stdout) + len(result.stderr)} bytes of output refused: clients have not read earlier output\n"
                if v2:
                    self.queue(stream, _v2_error(message))
                else:
                    self.queue(stream, message.encode())
            stream.close_when_drained = True
        self.pump(stream)

    def run_command(self, command: str) -> ShellResult:
        """Run one service's command line (:func:`_run_service`) in this connection's shell."""
        return _run_service(self.server, self.shell, command)

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
        threading.Timer(RESTART_DELAY, self.server.restart_transports).start()

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
                self.server.budget.unreserve(len(data))
                try:
                    with self.server.lock:
                        self.shell.write(path, bytes(data))
                except CerebellumError as exc:
                    self.queue(stream, _sync_fail(str(exc)))
                    stream.close_when_drained = True
                    buf.clear()
                    break
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
                if not self.server.budget.reserve(len(body)):
                    self.queue(stream, _sync_fail("No space left on device"))
                    stream.close_when_drained = True
                    buf.clear()
                    break
                stream.sending[1].extend(body)
                continue
            path = body.decode("utf-8", "surrogateescape")
            with self.server.lock:
                reply = self.sync_request(stream, ident, path)
            if reply is None:
                stream.close_when_drained = True
                break
            if isinstance(reply, tuple):  # RECV: a file, sent lazily
                content = reply[0]
                if not self.stream_out(stream, _packed(_sync_data_packets(content), self.max_payload), (content,)):
                    self.queue(stream, _sync_fail("too much unread output; try again"))
                    stream.close_when_drained = True
                    break
                continue
            if reply:
                self.queue(stream, reply)
        self.pump(stream)

    def sync_request(self, stream: _Stream, ident: bytes, path: str) -> bytes | tuple[bytes] | None:
        """The reply to one sync request (a RECV's file as a 1-tuple, sent lazily); ``None``
        ends the sync session."""
        shell = self.shell
        mtime = int(self.server.phone.state.clock) & 0xFFFFFFFF
        if ident == b"STAT":
            data = shell.read(path)
            if data is not None:
                return b"STAT" + struct.pack("<III", 0o100644, len(data) & 0xFFFFFFFF, mtime)
            if shell.is_dir(path):
                return b"STAT" + struct.pack("<III", 0o40771, 4096, mtime)
            return b"STAT" + struct.pack("<III", 0, 0, 0)
        if ident == b"LIST":
            out = bytearray()
            if shell.is_dir(path):
                for name in shell.listdir(path):
                    full = path.rstrip("/") + "/" + name
                    data = shell.read(full)
                    mode, size = (0o100644, len(data) & 0xFFFFFFFF) if data is not None else (0o40771, 4096)
                    encoded = name.encode("utf-8", "surrogateescape")
                    out += b"DENT" + struct.pack("<IIII", mode, size, mtime, len(encoded)) + encoded
            return bytes(out) + b"DONE" + struct.pack("<IIII", 0, 0, 0, 0)
        if ident == b"RECV":
            data = shell.read(path)
            if data is None:
                return _sync_fail("No such file or directory")
            return (data,)
        if ident == b"SEND":
            target, _, _mode = path.rpartition(",")
            stream.sending = (target or path, bytearray())
            return b""
        if ident == b"QUIT":
            return None
        return _sync_fail(f"unknown sync request {ident!r}")


#: Command lines up to this long keep their parse (clients send the same lines again and again:
#: AndroidWorld's existence checks, ``uiautomator dump``); a parsed line is never changed by a run.
_CACHED_LINE: Final = 2048
_compiled = functools.lru_cache(maxsize=1024)(compile_script)


def _run_service(server: AdbdServer, shell: Shell, command: str) -> ShellResult:
    """Run one ``shell:``/``exec:`` service's command line in ``shell``: parsed first, outside the
    server's lock, and only run under it (so a long line never holds up other clients)."""
    try:
        program = _compiled(command) if len(command) <= _CACHED_LINE else compile_script(command)
        with server.lock:
            # Each service is a fresh `sh -c` on a device: no cwd or $? carries over.
            shell.cwd, shell.status = "/", 0
            shell.root = server.root
            return shell.execute(program)
    except Exception as exc:  # the shell answers its own errors; this is the last resort
        log.exception("adbd: command failed")
        return ShellResult(b"", f"{SH}: internal error: {type(exc).__name__}\n".encode(), 255)


def _v2_error(message: str, code: int = 1) -> bytes:
    data = message.encode()
    return struct.pack("<BI", SHELL_STDERR, len(data)) + data + struct.pack("<BIB", SHELL_EXIT, 1, code)


def _sync_fail(message: str) -> bytes:
    data = message.encode()
    return b"FAIL" + struct.pack("<I", len(data)) + data


def _host_request(port: int, service: str, *, reply: bool = True) -> str:
    """One request to an adb server's smart socket; its ``OKAY`` payload (``""`` without
    ``reply``: ``host:emulator:`` answers nothing).

    Raises:
        OSError: the server is unreachable or answered ``FAIL``.
    """
    with socket.create_connection(("127.0.0.1", port), timeout=5.0) as sock:
        sock.sendall(smart_request(service))
        if not reply:
            return ""
        raw = b"".join(iter(lambda: sock.recv(65536), b""))
    if not raw:
        raise OSError(f"{service}: no answer")
    answer = io.BytesIO(raw).read
    try:
        failure = read_status(answer)
        block = read_block(answer) if failure is None else b""
    except ValueError as exc:
        raise OSError(f"{service}: {exc}") from None
    if failure is not None:
        raise OSError(f"{service}: {failure or 'no answer'}")
    return block.decode(errors="replace")


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
        console: also serve the emulator console on loopback at ``port - 1`` (with ``port=0``,
            a free pair of adjacent ports is picked); off by default, since that port may
            belong to something else.
        console_auth_token: the console's token file (``None``: no authentication); the
            emulator's default, ``~/.emulator_console_auth_token``. The adb client sends the
            token from its own ``HOME``: point this at the file the adb client will read.

    Raises:
        CerebellumError: ``host`` is not loopback and ``allow_remote`` is false, or a port
            cannot be bound.
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
        console: bool = False,
        console_auth_token: str | os.PathLike[str] | None = DEFAULT_TOKEN_PATH,
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
        self.budget = OutputBudget(MAX_BUFFERED)
        self.frame_cache: dict[str, tuple[np.ndarray, bytes]] = {}
        #: adbd's uid: ``adb root`` switches it (shell commands then run as root).
        self.root = False
        self.stopping = False
        self._faults: list[Fault] = []
        self._fault_lock = threading.Lock()
        self._connections: set[_Connection] = set()
        if console and port == 1:
            raise CerebellumError("with console=True the adb port must leave room for the console's port below it (port - 1)")
        self.console: EmulatorConsole | None = None
        #: adb servers told about this device (told again after adbd restarts).
        self._announced: set[int] = set()
        # A free pair for port 0: the adb port's neighbour below may be taken; try a few.
        for attempt in range(32 if console and port == 0 else 1):
            self._listener = self._bind(host, port)
            if not console:
                break
            adb_port = self._listener.getsockname()[1]
            try:
                self.console = EmulatorConsole(
                    self.phone,
                    port=adb_port - 1,
                    lock=self.lock,
                    auth_token_path=None if console_auth_token is None else os.fspath(console_auth_token),
                    on_kill=self.stop,
                )
                break
            except CerebellumError:
                self._listener.close()
                if port != 0 or attempt == 31:
                    raise
        self._listener.listen(8)
        self._thread: threading.Thread | None = None

    @staticmethod
    def _bind(host: str, port: int) -> socket.socket:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listener.bind((host, port))
        except OSError as exc:
            listener.close()
            raise CerebellumError(f"cannot serve on {host}:{port}: {exc}") from exc
        return listener

    def provision(self, phone: Phone) -> None:
        """Set the phone up as served (again after a factory reset): shared storage's standard
        folders, and the ADB keyboard if asked."""
        add_standard_folders(phone)
        if self.adb_keyboard:
            phone.put_setting("secure", "default_input_method", ADB_KEYBOARD_IME)

    def make_shell(self) -> Shell:
        """The shell one transport connection runs its services in. A subclass may extend it (a
        stand-in emulator overrides properties and commands while it "boots")."""
        return Shell(
            self.phone,
            screencap_compression=self.screencap_compression,
            provision=self.provision,
            sdk=self.sdk,
            frame_cache=self.frame_cache,
        )

    # --- for a client in this process -----------------------------------------------------------

    def _local(self) -> Shell:
        shell = self.__dict__.get("_local_shell")
        if shell is None:
            shell = self._local_shell = self.make_shell()
        return shell

    def run_in_process(self, command: str) -> ShellResult:
        """What a ``shell,v2:`` or ``exec:`` service of ``command`` answers, for a client in this
        process (the embedded AndroidWorld's adb controller): the same shell, state and lock
        as a transport connection's, with no transport between (so no injected fault)."""
        return _run_service(self, self._local(), command)

    def pull_in_process(self, path: str) -> bytes | None:
        """The file a sync ``RECV`` of ``path`` sends (``None``: the device has none)."""
        with self.lock:
            return self._local().read(path)

    def push_in_process(self, path: str, data: bytes) -> None:
        """A sync ``SEND`` of ``data`` to ``path``, as a connection stores it.

        Raises:
            CerebellumError: the device refuses the file (no space left).
        """
        with self.lock:
            self._local().write(path, bytes(data))

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

    @property
    def emulator_serial(self) -> str:
        """The serial an adb server gives this device as an emulator (after :meth:`announce`, or
        its scan of ports 5555-5585): ``emulator-<adb port - 1>``, the console's port.

        Raises:
            CerebellumError: no console is served (``console=False``).
        """
        if self.console is None:
            raise CerebellumError("no emulator console is served (AdbdServer(console=True)): adb has no emulator serial for it")
        return f"emulator-{self.console.address[1]}"

    def announce(self, adb_server_port: int | None = None, timeout: float = 10.0) -> str:
        """Tell the adb server on ``adb_server_port`` (``$ANDROID_ADB_SERVER_PORT`` or 5037)
        about this device, as an emulator does when it starts (``host:emulator:<adb port>``),
        and wait until the server lists it online as :attr:`emulator_serial`; returns that
        serial. Serve first (:meth:`start`): the server connects at once.

        Raises:
            CerebellumError: no console is served, no adb server listens there, or it did not
                list the device within ``timeout`` seconds.
        """
        serial = self.emulator_serial
        if adb_server_port is None:
            adb_server_port = int(os.environ.get("ANDROID_ADB_SERVER_PORT") or 5037)
        deadline = time.monotonic() + timeout
        try:
            _host_request(adb_server_port, f"host:emulator:{self.address[1]}", reply=False)
            self._announced.add(adb_server_port)
            while True:
                listed = _host_request(adb_server_port, "host:devices")
                if f"{serial}\tdevice" in listed.splitlines():
                    return serial
                if time.monotonic() > deadline:
                    raise CerebellumError(f"the adb server on port {adb_server_port} did not list {serial} within {timeout:g} s")
                time.sleep(0.05)
        except OSError as exc:
            raise CerebellumError(f"no adb server answers on 127.0.0.1:{adb_server_port}: {exc}") from exc

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
            if self.console is not None:
                self.console.start()
        return self

    def serve_forever(self) -> None:
        """Accept connections until :meth:`stop` (each connection gets its own thread)."""
        while not self.stopping:
            try:
                sock, _ = self._listener.accept()
            except OSError:
                break
            if len(self._connections) >= MAX_CONNECTIONS:
                log.warning("adbd: %d connections open; refusing another", len(self._connections))
                sock.close()
                continue
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            # Sends give up on a peer that stops reading; receives time out only to look again.
            sock.settimeout(SEND_TIMEOUT)
            conn = _Connection(self, sock)
            self._connections.add(conn)
            threading.Thread(target=conn.run, name="adbd-conn", daemon=True).start()

    def _forget(self, conn: _Connection) -> None:
        self._connections.discard(conn)

    def restart_transports(self) -> None:
        """adbd restarting (``adb root``): every transport drops. Served as an emulator, the
        adb servers told about it are told again once adbd is back, as the emulator tells its
        adb server whenever the guest's adbd connects (a network device is reconnected by the
        adb server itself)."""
        self.drop_connections()
        if self._announced and not self.stopping:
            threading.Timer(RESTART_DELAY, self._reannounce).start()

    def _reannounce(self) -> None:
        """Tell each adb server again once it has let the dropped transport go (it ignores an
        emulator it still lists, even offline), until it lists the device online (up to 10 s)."""
        serial = self.emulator_serial
        for port in list(self._announced):
            deadline = time.monotonic() + 10.0
            while not self.stopping and time.monotonic() < deadline:
                try:
                    listed = _host_request(port, "host:devices").splitlines()
                    if f"{serial}\tdevice" in listed:
                        break
                    if not any(line.startswith(serial + "\t") for line in listed):
                        _host_request(port, f"host:emulator:{self.address[1]}", reply=False)
                except OSError:
                    break  # that adb server is gone
                time.sleep(0.05)

    def drop_connections(self) -> None:
        """Close every open transport (the adb server sees the device go offline)."""
        for conn in list(self._connections):
            with contextlib.suppress(OSError):
                conn.sock.shutdown(socket.SHUT_RDWR)

    def stop(self) -> None:
        """Stop accepting and close every connection. Idempotent."""
        self.stopping = True
        if self.console is not None:
            self.console.stop()
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
