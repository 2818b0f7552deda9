"""AndroidWorld with no emulator: its own code on a device served over ADB in this process.

``gym.make("Cerebellum-AndroidWorld-v0")`` with no emulator named (no ``console_port``, no
``grpc_port``, no ``env``) runs AndroidWorld on the embedded simulator. The loader (which alone
may assemble the simulator with a device backend, ``docs/architecture.md``) serves a fresh
simulator :class:`~cerebellum_gym.sim.phone.Phone` as an ADB device
(:class:`~cerebellum_gym.sim.adbd.AdbdServer` on a free loopback port, threads of this process)
and hands it to :class:`~cerebellum_gym.devices.androidworld.AndroidWorldDevice` as ``served``,
which builds an :class:`EmbeddedAndroidWorld` over it:

1. a private real adb server (:class:`~cerebellum_gym.devices.adb.PrivateAdbServer`: its own
   port and ``HOME``, no emulator, USB or mDNS scanning) that ``adb connect``-s to the served device;
2. AndroidWorld's real ``AsyncAndroidEnv`` over that serial
   (:func:`~cerebellum_gym.devices.androidworld.adb.load_adb_env`: android_env's
   ``AdbController`` reaching the adb server, AndroidWorld's ``setup_env`` freezing the clock).

AndroidWorld's task code then runs unmodified: everything it sets up and judges goes through the
device (adb shell, sync, ``uiautomator dump``), never into the simulator's Python objects.
:meth:`EmbeddedAndroidWorld.close` closes AndroidWorld's env, kills the adb server and stops the
served device (its listener and connection threads).

On the embedded simulator time is the phone's clock (:class:`InProcessPhone`, its
:class:`~cerebellum_gym.devices.androidworld.clock.SimulatedTime`): every sleep of AndroidWorld's
code run through the adapter advances the phone's clock instead of the host's, and the adapter
reads the screen and sends the agent's inputs to the phone in this process
(:class:`~cerebellum_gym.devices.androidworld.AndroidWorldDevice`), while AndroidWorld's own
set-up and judges still go through adb.

The loader logs one line the first time in a process (:func:`notice_once`; logger
``cerebellum_gym.androidworld``, level WARNING) saying that AndroidWorld runs on the embedded
simulator and how to name an emulator.

Example (needs AndroidWorld and adbutils; tests and benchmarks build it this way)::

    from cerebellum_gym.sim.adbd import AdbdServer
    from cerebellum_gym.devices.androidworld.embedded import EmbeddedAndroidWorld
    with EmbeddedAndroidWorld(AdbdServer(port=0).start()) as world:
        world.serial, world.env.logical_screen_size   # ('127.0.0.1:41234', (1080, 2400))
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from pathlib import Path
from typing import Any, Final

from cerebellum_gym.devices.android import CONSOLE_TOKEN_FILE
from cerebellum_gym.devices.androidworld.clock import SimulatedTime
from cerebellum_gym.errors import CerebellumError, ConfigError, DeviceLostError

log = logging.getLogger("cerebellum_gym.androidworld")

#: What the one-time log line says.
EMBEDDED_NOTICE: Final = (
    "Cerebellum-AndroidWorld-v0: no emulator named, so AndroidWorld's own tasks run on the embedded "
    "simulator, served over ADB in this process (info['device_backend'] == 'simulator'); name an "
    "emulator with device_options={'console_port': 5554, 'grpc_port': 8554} or a pool (make_vec(..., emulators=...))"
)
_noticed = threading.Event()


def notice_once() -> bool:
    """Log :data:`EMBEDDED_NOTICE` the first time in this process; True when it was logged now."""
    if _noticed.is_set():
        return False
    _noticed.set()
    log.warning(EMBEDDED_NOTICE)
    return True


def require_android_world() -> None:
    """Check AndroidWorld, android_env and adbutils' adb are importable, before anything starts.

    Raises:
        CerebellumError: one is missing; the message says how to install it.
    """
    from cerebellum_gym.devices.androidworld.gate import import_android_world

    for module in ("registry", "env.env_launcher", "env.android_world_controller", "env.interface"):
        import_android_world(module)
    # android_env: androidworld.adb raises CerebellumError with the install hint when it is missing.
    import cerebellum_gym.devices.androidworld.adb  # noqa: F401


class InProcessPhone:
    """A served simulator reached in this process: its clock, its screen and its inputs.

    Every call holds the served device's lock (the one its adb connections run commands under),
    so a direct call never interleaves with a command AndroidWorld sent over adb.

    Args:
        served: the served device: ``phone`` (the simulator's
            :class:`~cerebellum_gym.sim.phone.Phone`, a Device) and optionally ``lock``.

    Raises:
        ConfigError: ``served`` has no phone in this process.
    """

    def __init__(self, served: Any) -> None:
        phone = getattr(served, "phone", None)
        if phone is None:
            raise ConfigError(f"{served!r} serves no phone in this process")
        self.phone: Any = phone
        self.lock: Any = getattr(served, "lock", None) or threading.RLock()
        #: The phone's clock as AndroidWorld's code run through the adapter sees it.
        self.clock = SimulatedTime(self.wait)

    def wait(self, seconds: float) -> None:
        """Advance the phone's clock by ``seconds`` (what a sleep on the device is)."""
        with self.lock:
            self.phone.wait(seconds)

    def call(self, method: str, *args: Any) -> Any:
        """``phone.<method>(*args)`` under the served device's lock."""
        with self.lock:
            return getattr(self.phone, method)(*args)

    def __repr__(self) -> str:
        return f"InProcessPhone({self.phone!r})"


class EmbeddedAndroidWorld:
    """AndroidWorld's env set up over a device served over ADB in this process, through a
    private adb server.

    Args:
        served: the served device: an object with ``serial_for_adb`` (its ``host:port``) and
            ``stop()``, such as the simulator's :class:`~cerebellum_gym.sim.adbd.AdbdServer`;
            stopped on :meth:`close` (and if this fails half-way).
        adb_path: the adb binary (server and android_env's client); defaults to cerebellum's
            (``$ADB``, ``PATH``, adbutils' wheel).
        freeze_datetime: freeze the clock as AndroidWorld's benchmark does.
        timeout: default seconds per adb command.
        adb_client: ``"in_process"``, ``"socket"`` or ``"binary"``
            (:class:`~cerebellum_gym.devices.androidworld.adb.AdbAndroidEnv`); ``"auto"`` (default):
            in process when the served device answers there (the simulator's ``AdbdServer``),
            else over the adb server's socket.
        lazy_pixels: take each state's screenshot when it is first read.
        screencap_format: ``"auto"`` (raw: the served device is on loopback), ``"raw"`` or ``"png"``.

    Raises:
        CerebellumError: AndroidWorld (or android_env, or an adb binary) is missing.
        InfraError: the served device could not be reached or set up.
    """

    def __init__(
        self,
        served: Any,
        *,
        adb_path: str | None = None,
        freeze_datetime: bool = True,
        timeout: float = 10.0,
        adb_client: str = "auto",
        lazy_pixels: bool = True,
        screencap_format: str = "auto",
    ) -> None:
        self._closed = False
        self._serial = ""
        self.env: Any = None
        self.adb: Any = None
        self.server = served
        #: The served phone in this process (its clock, direct screen and inputs), if it has one.
        self.in_process: InProcessPhone | None = None
        try:
            if getattr(served, "phone", None) is not None:
                self.in_process = InProcessPhone(served)
            self._serial = str(served.serial_for_adb)  # kept: the address is gone once stopped
            require_android_world()
            from cerebellum_gym.devices.adb import PrivateAdbServer
            from cerebellum_gym.devices.androidworld.adb import load_adb_env

            self.adb = PrivateAdbServer(adb=adb_path).start()
            if getattr(served, "console", None) is not None:
                self._attach_as_emulator(served)
            else:
                connected = self.adb.run("connect", self.serial)
                if "connected" not in connected.stdout:
                    said = f"{connected.stdout.strip()} {connected.stderr.strip()}".strip()
                    raise DeviceLostError(f"adb could not connect to the served device {self.serial}: {said}")
            if adb_client == "auto":
                adb_client = "in_process" if callable(getattr(served, "run_in_process", None)) else "socket"
            # Only the private server's variables: android_env copies the rest of os.environ itself.
            adb_env = {k: v for k, v in self.adb.env.items() if k.startswith(("ANDROID_ADB", "ADB_")) or k == "HOME"}
            self.env = load_adb_env(
                self.serial,
                adb_path=self.adb.adb,
                adb_env=adb_env,
                freeze_datetime=freeze_datetime,
                timeout=timeout,
                adb_client=adb_client,  # type: ignore[arg-type]  # checked by AdbAndroidEnv
                lazy_pixels=lazy_pixels,
                screencap_format=screencap_format,  # type: ignore[arg-type]
                clock=None if self.in_process is None else self.in_process.clock,
                served=served if adb_client == "in_process" else None,
            )
        except BaseException:
            self.close()
            raise

    def _attach_as_emulator(self, served: Any) -> None:
        """Attach a device served with an emulator console as an emulator does
        (``emulator-<console port>``), so ``adb emu sms send`` / ``gsm call`` reach its console:
        the adb client only speaks to consoles of ``emulator-NNNN`` serials, and authenticates
        with the token in *its* ``HOME``, so the console's token is written there (0600)."""
        token = served.console.token()
        if token is not None:
            path = Path(self.adb.env["HOME"]) / CONSOLE_TOKEN_FILE
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(token)
        try:
            self._serial = str(served.announce(self.adb.port))
        except CerebellumError as exc:
            raise DeviceLostError(f"the adb server did not attach the served device: {exc}") from exc

    @property
    def serial(self) -> str:
        """The served device's adb serial: ``emulator-<console port>`` when it is served with an
        emulator console (the loader's embedded phone), else ``127.0.0.1:<port>``."""
        return self._serial

    @property
    def phone(self) -> Any:
        """The served simulator, when the served device has one (for tests and benchmarks that
        compare judges; AndroidWorld never touches it but through adb)."""
        return getattr(self.server, "phone", None)

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Close AndroidWorld's env, kill the adb server and stop the served device. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self.env is not None:
            with contextlib.suppress(Exception):  # the device may already be gone
                self.env.close()
        if self.adb is not None:
            self.adb.stop()
        self.server.stop()

    def __enter__(self) -> EmbeddedAndroidWorld:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"EmbeddedAndroidWorld(serial={self.serial!r}, closed={self._closed})"


__all__ = ["EMBEDDED_NOTICE", "EmbeddedAndroidWorld", "InProcessPhone", "notice_once", "require_android_world"]
