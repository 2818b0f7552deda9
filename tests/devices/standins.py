"""Helpers for tests of the emulator pool: a fake Android SDK whose ``emulator`` is the stand-in
(``standin_emulator.py``), and an adb server of the test's own with the emulator port scan on."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cerebellum_gym.devices.adb import PrivateAdbServer

# --- stand-in emulators (tests of cerebellum_gym.devices.emulators) ----------------------------


@dataclass
class StandinSdk:
    """A fake Android SDK whose ``emulator`` is the stand-in (tests/devices/standin_emulator.py),
    an adb server of its own with the emulator port scan on, and an AVD named ``Standin``.

    ``env`` is what a pool (or a stand-in started by hand) needs: the server's port, and the
    ``HOME`` that holds the console auth token and the AVD.
    """

    root: Path
    adb: PrivateAdbServer
    base_port: int
    base_grpc_port: int

    @property
    def sdk(self) -> Path:
        return self.root / "sdk"

    @property
    def emulator(self) -> Path:
        return self.sdk / "emulator" / "emulator"

    @property
    def env(self) -> dict[str, str]:
        return {"HOME": self.adb.home, "ANDROID_ADB_SERVER_PORT": str(self.adb.port), "ANDROID_AVD_HOME": str(self.root / "avd")}

    def pool_kwargs(self, **extra: Any) -> dict[str, Any]:
        """Keyword arguments of an ``EmulatorPool`` of stand-ins (deadlines for a loaded machine;
        sizing forced, since a stand-in is no emulator and this machine has 2 cores)."""
        return {
            "avd": "Standin",
            "sdk": str(self.sdk),
            "base_port": self.base_port,
            "base_grpc_port": self.base_grpc_port,
            "env": self.env,
            # Generous: a stand-in boots in about a second, but a loaded 2-core machine can take
            # many to start its interpreter or answer adb; tests of timeouts pass their own.
            "boot_timeout": 60.0,
            "health_timeout": 10.0,
            "shutdown_timeout": 5.0,
            "force": True,
            **extra,
        }


def standin_port_base() -> int:
    """Console ports for this xdist worker's stand-ins: 100 ports each from 5700, above the
    range real emulators use (5554-5682) and outside other tests' free ports (ephemeral)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    number = int(worker[2:]) if worker[2:].isdigit() else 0
    return 5700 + 100 * (number % 8)


def make_standin_sdk(root: Path) -> Path:
    """Lay out ``root/sdk`` (``emulator/emulator`` runs the stand-in with this Python,
    ``platform-tools/adb`` is adbutils' adb) and ``root/avd/Standin.ini``."""
    from adbutils import adb_path

    (root / "sdk" / "emulator").mkdir(parents=True, exist_ok=True)
    (root / "sdk" / "platform-tools").mkdir(parents=True, exist_ok=True)
    (root / "avd").mkdir(parents=True, exist_ok=True)
    (root / "avd" / "Standin.ini").write_text("avd.ini.encoding=UTF-8\npath=/nonexistent/Standin.avd\ntarget=android-33\n")
    launcher = root / "sdk" / "emulator" / "emulator"
    script = Path(__file__).with_name("standin_emulator.py")
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{script}" "$@"\n')
    launcher.chmod(0o755)
    adb_link = root / "sdk" / "platform-tools" / "adb"
    if not adb_link.exists():
        adb_link.symlink_to(adb_path())
    return root / "sdk"


def scanning_adb_server(base_port: int) -> PrivateAdbServer:
    """A private adb server with its emulator scan on (5555 up to this worker's range's end).

    Its one scan, at start, covers that whole range only sometimes: adb reads
    ``ADB_LOCAL_TRANSPORT_MAX_PORT`` just after starting the scan's thread (``local_init`` in
    adb's ``transport_local.cpp``), so the scan often stops at its default end, 5585. Stand-ins
    above that are found because they announce themselves, as emulators do.
    """
    server = PrivateAdbServer()
    server.env.pop("ADB_EMU", None)
    server.env["ADB_LOCAL_TRANSPORT_MAX_PORT"] = str(base_port + 99)
    return server.start()
