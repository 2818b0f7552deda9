"""A minimal host side of the ADB transport, to drive the served device byte by byte in tests."""

from __future__ import annotations

import socket

from cerebellum_gym.sim.adbd import A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_VERSION, A_WRTE, HEADER, packet


class RawHost:
    """One TCP connection to an adbd, speaking the transport protocol by hand."""

    def __init__(self, port: int, max_payload: int = 4096, timeout: float = 2.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.send(A_CNXN, A_VERSION, max_payload, b"host::features=shell_v2\0")

    def send(self, command: int, arg0: int, arg1: int, payload: bytes = b"") -> None:
        self.sock.sendall(packet(command, arg0, arg1, payload))

    def recv(self, timeout: float = 2.0) -> tuple[int, int, int, bytes]:
        self.sock.settimeout(timeout)
        header = self._exact(HEADER.size)
        command, arg0, arg1, length, check, magic = HEADER.unpack(header)
        assert magic == command ^ 0xFFFFFFFF
        payload = self._exact(length)
        assert check == sum(payload) & 0xFFFFFFFF
        return command, arg0, arg1, payload

    def _exact(self, n: int) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            assert chunk, "device closed the connection"
            buf += chunk
        return bytes(buf)

    def run(self, service: str, local_id: int = 1, timeout: float = 2.0) -> bytes:
        """Open ``service``, read its whole output (acknowledging each WRTE) until CLSE."""
        self.send(A_OPEN, local_id, 0, service.encode() + b"\0")
        command, remote, _, _ = self.recv(timeout)
        assert command == A_OKAY, f"service {service[:40]!r} refused"
        data = bytearray()
        while True:
            command, arg0, _, payload = self.recv(timeout)
            if command == A_CLSE:
                return bytes(data)
            if command == A_WRTE:
                data += payload
                self.send(A_OKAY, local_id, arg0)

    def close(self) -> None:
        self.sock.close()


def shell_v2_output(data: bytes) -> tuple[bytes, bytes, int]:
    """Split a shell v2 stream into stdout, stderr and the exit code (-1 if none came)."""
    stdout, stderr, code = bytearray(), bytearray(), -1
    while len(data) >= 5:
        kind, length = data[0], int.from_bytes(data[1:5], "little")
        body, data = data[5 : 5 + length], data[5 + length :]
        if kind == 1:
            stdout += body
        elif kind == 2:
            stderr += body
        elif kind == 3:
            code = body[0]
    return bytes(stdout), bytes(stderr), code
