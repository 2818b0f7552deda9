"""``cerebellum-gym serve-adb``: serve a simulator phone as an ADB device.

Example::

    cerebellum-gym serve-adb --port 6520 --task SystemWifiTurnOn --seed 0 &
    adb connect 127.0.0.1:6520
    adb -s 127.0.0.1:6520 shell settings get global wifi_on

With ``--console`` it is served as an emulator: the console on port - 1 (``adb emu``), attached to
the running adb server as ``emulator-<port - 1>``::

    cerebellum-gym serve-adb --port 6521 --console &
    adb -s emulator-6520 emu sms send 5551234 Hello
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import Any

import numpy as np

from cerebellum_gym.errors import CerebellumError


def register(sub: Any) -> None:
    """Add the ``serve-adb`` sub-command to the CLI's sub-parsers."""
    parser = sub.add_parser(
        "serve-adb",
        help="serve a simulator phone as an ADB device (adb connect HOST:PORT)",
        description=(
            "Serve the embedded simulator over the ADB device protocol, so adb, adbutils and "
            "Cerebellum-Adb-v0 drive it as a phone. No authentication: it binds to loopback unless "
            "--allow-remote is given."
        ),
    )
    parser.add_argument("--port", type=int, default=6520, help="TCP port (default 6520; avoid 5555-5585, the emulators' range)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument(
        "--allow-remote", action="store_true", help="permit a non-loopback --host (anyone who reaches it can run shell commands)"
    )
    parser.add_argument("--task", default=None, help="set the phone up for this task (its initial state) before serving")
    parser.add_argument("--seed", type=int, default=0, help="seed for the task's parameters (default 0)")
    parser.add_argument(
        "--no-adb-keyboard",
        action="store_true",
        help="serve without the ADB keyboard IME (non-ASCII typing then fails, as on a stock phone)",
    )
    parser.add_argument(
        "--console",
        action="store_true",
        help=(
            "also serve the emulator console on 127.0.0.1 at PORT-1 (for `adb emu sms send ...`, `gsm call`), with the "
            "emulator's auth token file ~/.emulator_console_auth_token, and attach to the adb server "
            "($ANDROID_ADB_SERVER_PORT or 5037) as emulator-<PORT-1>"
        ),
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; returns the exit status."""
    from cerebellum_gym.sim.adbd import AdbdServer
    from cerebellum_gym.sim.phone import Phone
    from cerebellum_gym.tasks import get_task_class

    if not 0 <= args.port <= 65535:
        raise CerebellumError(f"--port must be 0-65535, got {args.port}")
    phone = Phone()
    server = AdbdServer(
        phone, host=args.host, port=args.port, allow_remote=args.allow_remote, adb_keyboard=not args.no_adb_keyboard, console=args.console
    )
    if args.task:
        cls = get_task_class(args.task)
        task = cls(cls.generate_params(np.random.default_rng(args.seed)))
        task.initialize(phone)
        print(f"task {task.name}: {task.goal}", flush=True)
    host, port = server.address
    stop = threading.Event()
    if server.console is not None:
        server.start()
        try:
            serial = server.announce()
        except CerebellumError as exc:
            message = f"the emulator console serves on 127.0.0.1:{port - 1}, but {exc}; start adb and run this again"
            print(message, file=sys.stderr, flush=True)
            server.stop()
            return 1
        print(f"serving the simulator as an emulator: adb port {port}, console 127.0.0.1:{port - 1}; adb serial {serial}", flush=True)
    else:
        print(f"serving the simulator as an ADB device on {host}:{port}; connect with: adb connect {server.serial_for_adb}", flush=True)

    def interrupt(signum: int, frame: object) -> None:
        stop.set()

    previous = signal.signal(signal.SIGTERM, interrupt)
    server.start()
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.stop()
        print("stopped", file=sys.stderr, flush=True)
    return 0
