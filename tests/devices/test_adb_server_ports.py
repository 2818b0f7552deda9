"""The private adb server takes a free port without a race (issue 36): a port taken between
choosing it and the server's bind is retried on another, instead of failing ``gym.make``."""

from __future__ import annotations

import socket

from cerebellum_gym.devices.adb import PrivateAdbServer


def test_a_port_taken_before_the_bind_is_retried_on_another() -> None:
    server = PrivateAdbServer()
    chosen = server.port
    with socket.socket() as squatter:  # another process wins the race for the chosen port
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        squatter.bind(("127.0.0.1", chosen))
        squatter.listen()
        server.start()
        try:
            assert server.port != chosen
            assert server.env["ANDROID_ADB_SERVER_PORT"] == str(server.port)
            assert server.run("devices").returncode == 0  # the client reaches the server on the new port
        finally:
            server.stop()
