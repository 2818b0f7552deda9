"""A pool of Android emulators: launched headless (or attached to), booted, watched, restarted.

One emulator per sub-env is what parallel rollouts on ``Cerebellum-AndroidWorld-v0`` (or
``Cerebellum-Adb-v0`` on emulators) need. :class:`EmulatorPool`:

- launches ``N`` emulators from one AVD, headless, each with its own console port (even, from
  5554), adb port (console + 1) and gRPC port (from 8554)::

      emulator -avd NAME -no-window -no-audio -no-boot-anim -port P -grpc G [-read-only] [-snapshot S]

  (``-read-only`` lets several emulators share one AVD; it is on by default when ``N > 1``), or
  attaches to emulators already running;
- waits for each to boot (``getprop sys.boot_completed`` is ``1`` and ``pm path android``
  answers, i.e. the package manager is up) within a deadline, with the emulator's log in the
  error when it does not;
- checks an emulator between episodes (its process lives, adb answers within a deadline, boot
  completed, a screen size, the accessibility service when one is named), and restarts one that
  crashed or is wedged; recycles one after ``recycle_after`` episodes when asked;
- shuts them down cleanly (``adb -s emulator-P emu kill``, then the process group) on
  :meth:`close`, on leaving a ``with`` block (Ctrl-C included), at interpreter exit, and when the
  Python process dies without any clean-up (SIGKILL): every emulator runs under a small guard
  process (``_emulator_guard.py``) that ends the emulator's process group when its owner is gone;
- refuses a pool the machine cannot hold (about 2 GB of RAM and a core per emulator, and KVM on
  Linux) with a message that says why, unless ``force=True``.

The pool hands each sub-env its device options (:meth:`EmulatorPool.device_options`): the serial
``emulator-<console port>`` and the adb server's port for ``Cerebellum-Adb-v0``; the console port,
gRPC port and adb path for ``Cerebellum-AndroidWorld-v0``. It talks to emulators only through the
``adb`` and ``emulator`` executables, so it needs nothing beyond the standard library (and imports
nothing of the env, tasks or simulator).

Example (needs the Android SDK and an AVD; see ``docs/androidworld.md``)::

    from cerebellum_gym.devices.emulators import EmulatorPool

    with EmulatorPool(4, avd="AndroidWorldAvd") as pool:
        envs = gym.vector.AsyncVectorEnv(pool.env_fns("Cerebellum-AndroidWorld-v0", task=...))
        ...
        pool.between_episodes(i)  # health check, restart or recycle emulator i
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from cerebellum_gym.devices.android import smart_request
from cerebellum_gym.errors import CerebellumError, InfraError

DEFAULT_CONSOLE_PORT: Final = 5554
DEFAULT_GRPC_PORT: Final = 8554
DEFAULT_ADB_SERVER_PORT: Final = 5037
#: What one emulator takes (AndroidWorld's Pixel 6 / API 33 AVD): about 2 GB of RAM and a core.
EMULATOR_MEMORY_MB: Final = 2048
EMULATOR_CORES: Final = 1.0
#: The guard every launched emulator runs under (see its docstring).
GUARD_SCRIPT: Final = Path(__file__).with_name("_emulator_guard.py")
STATE_ENV_VAR: Final = "CEREBELLUM_EMULATORS_STATE"
STATE_VERSION: Final = 1
LOG_TAIL_LINES: Final = 20
#: The backends whose devices are emulators (the loader's records say which env ids run on them).
EmulatorBackend = Literal["androidworld", "adb"]


class EmulatorError(InfraError):
    """An emulator crashed, hung, or did not boot in time (an infra fault: not the agent's doing)."""


class EmulatorBootError(EmulatorError):
    """An emulator did not finish booting before its deadline, or exited while booting."""


class EmulatorCapacityError(CerebellumError):
    """The machine cannot hold the requested number of emulators (pass ``force=True`` to try anyway)."""


# --- finding the SDK ------------------------------------------------------------------------


def find_sdk(sdk: str | os.PathLike[str] | None = None) -> Path | None:
    """The Android SDK folder: ``sdk``, ``$ANDROID_SDK_ROOT``, ``$ANDROID_HOME``, or the usual
    install places (``~/Android/Sdk``, ``~/Library/Android/sdk``); ``None`` when none exists."""
    candidates: list[str | os.PathLike[str]] = []
    if sdk:
        path = Path(sdk).expanduser()
        if not path.is_dir():
            raise CerebellumError(f"Android SDK folder {str(sdk)!r} does not exist")
        return path
    for var in ("ANDROID_SDK_ROOT", "ANDROID_HOME"):
        if os.environ.get(var):
            candidates.append(os.environ[var])
    candidates += [Path.home() / "Android" / "Sdk", Path.home() / "Library" / "Android" / "sdk"]
    for candidate in candidates:
        path = Path(candidate).expanduser()
        if path.is_dir():
            return path
    return None


def find_emulator(sdk: Path | None, explicit: str | None = None) -> str:
    """The ``emulator`` executable: ``explicit``, ``<sdk>/emulator/emulator``, or on ``PATH``.

    Raises:
        CerebellumError: none found (with where it looked).
    """
    if explicit:
        if not (os.path.isfile(explicit) and os.access(explicit, os.X_OK)):
            raise CerebellumError(f"emulator executable {explicit!r} does not exist or is not executable")
        return explicit
    if sdk is not None:
        candidate = sdk / "emulator" / "emulator"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which("emulator")
    if found:
        return found
    where = f"{sdk}/emulator/emulator and PATH" if sdk else "PATH (no Android SDK found: pass --sdk or set ANDROID_SDK_ROOT)"
    raise CerebellumError(f"no Android emulator executable: looked in {where}; install the 'emulator' SDK package")


def find_adb(sdk: Path | None, explicit: str | None = None) -> str:
    """The ``adb`` executable: ``explicit``, ``$ADB``, ``<sdk>/platform-tools/adb``, ``adb`` on
    ``PATH``, then the one inside adbutils' wheel.

    Use one adb for everything that talks to one adb server: a client of another version makes
    the server restart (see "adb server version" in ``docs/androidworld.md``).
    """
    if explicit:
        return explicit
    if os.environ.get("ADB"):
        return os.environ["ADB"]
    if sdk is not None:
        candidate = sdk / "platform-tools" / "adb"
        if candidate.is_file():
            return str(candidate)
    found = shutil.which("adb")
    if found:
        return found
    try:
        from adbutils import adb_path
    except ImportError:
        raise CerebellumError("no adb executable: install the SDK's platform-tools, put adb on PATH, or pip install adbutils") from None
    return str(adb_path())


# --- sizing ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Capacity:
    """What this machine offers emulators.

    Attributes:
        memory_mb: memory available now (``MemAvailable``), or total memory where that is unknown.
        cpus: the CPUs this process may run on.
        kvm: ``None`` when hardware acceleration is usable, else why not (Linux only: KVM).
    """

    memory_mb: int | None
    cpus: int
    kvm: str | None


def machine_capacity() -> Capacity:
    """Measure :class:`Capacity` here."""
    memory: int | None = None
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    memory = int(line.split()[1]) // 1024
                    break
    except OSError:
        with contextlib.suppress(ValueError, OSError, AttributeError):
            memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // (1024 * 1024)
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:
        cpus = os.cpu_count() or 1
    kvm: str | None = None
    if sys.platform.startswith("linux"):
        if not os.path.exists("/dev/kvm"):
            kvm = (
                "/dev/kvm does not exist (no KVM: enable virtualization in the BIOS, load kvm_intel/kvm_amd, "
                "or use a machine with nested virtualization)"
            )
        elif not os.access("/dev/kvm", os.R_OK | os.W_OK):
            kvm = "/dev/kvm is not readable and writable by this user (add the user to the 'kvm' group)"
    return Capacity(memory, cpus, kvm)


def capacity_problems(
    num: int, *, memory_mb: int = EMULATOR_MEMORY_MB, cores: float = EMULATOR_CORES, capacity: Capacity | None = None
) -> list[str]:
    """Why this machine cannot hold ``num`` emulators of ``memory_mb`` and ``cores`` each (empty: it can).

    Example:
        >>> capacity_problems(4, capacity=Capacity(memory_mb=6000, cpus=8, kvm=None))
        ['4 emulators need about 8192 MB of memory (2048 MB each); 6000 MB are available']
        >>> capacity_problems(2, capacity=Capacity(memory_mb=64000, cpus=8, kvm=None))
        []
    """
    cap = capacity or machine_capacity()
    problems: list[str] = []
    if num <= 0:
        return problems
    if cap.kvm is not None:
        problems.append(f"no hardware acceleration: {cap.kvm}; an emulator without it is too slow to use")
    need_mb = num * memory_mb
    if cap.memory_mb is not None and need_mb > cap.memory_mb:
        problems.append(f"{num} emulators need about {need_mb} MB of memory ({memory_mb} MB each); {cap.memory_mb} MB are available")
    need_cores = num * cores
    if need_cores > cap.cpus:
        problems.append(f"{num} emulators need about {need_cores:g} CPU cores ({cores:g} each); this process may use {cap.cpus}")
    return problems


# --- adb ------------------------------------------------------------------------------------


@dataclass
class AdbClient:
    """The ``adb`` executable bound to one adb server (its port) and environment."""

    path: str
    server_port: int
    env: dict[str, str]

    def run(self, *args: str, timeout: float = 10.0) -> subprocess.CompletedProcess[str]:
        """Run ``adb -P PORT ARGS``; a time-out is a :class:`subprocess.TimeoutExpired`."""
        return subprocess.run(
            [self.path, "-P", str(self.server_port), *args],
            env=self.env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            check=False,
        )

    def start_server(self) -> None:
        result = self.run("start-server", timeout=60)
        if result.returncode != 0:
            raise EmulatorError(f"adb start-server on port {self.server_port} failed: {(result.stderr or result.stdout).strip()}")

    def shell(self, serial: str, command: str, timeout: float) -> tuple[int, str]:
        """``adb -s SERIAL shell COMMAND``: exit status and output (stderr after stdout)."""
        result = self.run("-s", serial, "shell", command, timeout=timeout)
        return result.returncode, result.stdout + result.stderr

    def devices(self, timeout: float = 10.0) -> dict[str, str]:
        """Serial -> state (``device``, ``offline``, ...), as ``adb devices`` lists them."""
        result = self.run("devices", timeout=timeout)
        out: dict[str, str] = {}
        for line in result.stdout.splitlines()[1:]:
            parts = line.split()
            if len(parts) >= 2:
                out[parts[0]] = parts[1]
        return out

    def notify_emulator(self, adb_port: int) -> None:
        """Ask the server to attach the emulator whose adbd listens on ``adb_port``
        (``host:emulator:PORT``, what an emulator sends the server when it starts). The server
        does not answer; an emulator it already has is left as it is."""
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.server_port), timeout=2) as sock:
            sock.sendall(smart_request(f"host:emulator:{adb_port}"))

    def emu_kill(self, serial: str, timeout: float = 5.0) -> bool:
        """``adb -s SERIAL emu kill`` (through the emulator's console); whether it was sent."""
        try:
            result = self.run("-s", serial, "emu", "kill", timeout=timeout)
        except subprocess.TimeoutExpired:
            return False
        return result.returncode == 0


def port_free(port: int, host: str = "127.0.0.1") -> bool:
    """Whether nothing listens on ``host:port`` (bound as the emulator binds: with SO_REUSEADDR)."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def group_processes(pgid: int) -> list[int]:
    """The pids of the live processes in process group ``pgid`` (Linux ``/proc``; empty elsewhere)."""
    pids: list[int] = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # Fields after the parenthesised command: state ppid pgrp ...
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) >= 3 and fields[0] != "Z" and int(fields[2]) == pgid:
            pids.append(int(entry.name))
    return sorted(pids)


def _tail(path: Path | None, lines: int = LOG_TAIL_LINES) -> str:
    if path is None:
        return ""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    kept = text.splitlines()[-lines:]
    return "\n".join("  | " + line for line in kept)


# --- the pool -------------------------------------------------------------------------------


@dataclass
class Health:
    """One health check: ``ok``, or the ``reason`` it failed; the screen size when adb answered."""

    ok: bool
    reason: str = ""
    screen: tuple[int, int] | None = None
    #: adb did not answer in time: the emulator is alive but stuck (no point asking it to quit).
    wedged: bool = False


@dataclass
class Emulator:
    """One emulator of a pool.

    Attributes:
        index: its place in the pool (the sub-env it serves).
        console_port: the console port; the serial is ``emulator-<console_port>`` and adb's port is one more.
        grpc_port: the gRPC port (``None`` when unknown, for an attached emulator).
        launched: the pool started it (and may restart it); ``False`` for one it attached to.
        state: ``booting``, ``ready``, ``unhealthy``, ``stopped``.
        episodes: episodes since it last (re)started; ``total_episodes`` over its life in the pool.
        restarts: how many times the pool restarted it; ``faults`` the reasons.
    """

    index: int
    console_port: int
    grpc_port: int | None
    launched: bool
    state: str = "new"
    episodes: int = 0
    total_episodes: int = 0
    restarts: int = 0
    faults: list[str] = field(default_factory=list)
    log_path: Path | None = None
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    started_at: float = 0.0

    @property
    def serial(self) -> str:
        return f"emulator-{self.console_port}"

    @property
    def adb_port(self) -> int:
        return self.console_port + 1

    @property
    def pid(self) -> int | None:
        """The guard's pid, which is also the emulator's process group (``None`` if not launched)."""
        return self.process.pid if self.process is not None else None

    def processes(self) -> list[int]:
        """The live processes of this emulator (guard, emulator, its helpers)."""
        return group_processes(self.process.pid) if self.process is not None else []

    def as_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "serial": self.serial,
            "console_port": self.console_port,
            "adb_port": self.adb_port,
            "grpc_port": self.grpc_port,
            "launched": self.launched,
            "pid": self.pid,
            "state": self.state,
            "episodes": self.episodes,
            "total_episodes": self.total_episodes,
            "restarts": self.restarts,
            "faults": list(self.faults),
            "log": str(self.log_path) if self.log_path else None,
        }


def _make_env(env_id: str, kwargs: Mapping[str, Any]) -> Any:
    # Module level so AsyncVectorEnv can pickle it. The ids are registered by the package's
    # __init__, which importing this module (to unpickle this function, in a worker) runs first:
    # a device module imports no env registration.
    import gymnasium as gym

    return gym.make(env_id, **kwargs)


class EmulatorPool:
    """``num`` emulators launched from ``avd`` (and/or ``attach``-ed ones), one per sub-env.

    Args:
        num: emulators to launch.
        avd: the AVD to launch them from (``emulator -list-avds``); needed to launch or restart.
        sdk: the Android SDK folder (default: ``$ANDROID_SDK_ROOT``, ``$ANDROID_HOME``, ``~/Android/Sdk``).
        emulator: the ``emulator`` executable (default: the SDK's, or on ``PATH``).
        adb: the ``adb`` executable (default: ``$ADB``, the SDK's, on ``PATH``, adbutils').
        attach: serials of running emulators to use first (``emulator-5554``), or ``True`` for
            every emulator the adb server lists. They are not shut down by :meth:`close`; an
            unhealthy one is relaunched from ``avd`` when one is given, else it raises.
        snapshot: load this snapshot at start (``-snapshot NAME``): a fast boot to a known state.
        read_only: ``-read-only`` (several emulators on one AVD; nothing written back to it).
            Default: on when more than one emulator is launched.
        base_port: first console port to try (even); each emulator takes the next free pair.
        base_grpc_port: first gRPC port to try.
        grpc_ports: gRPC ports of the attached emulators, by serial (default: the convention
            ``8554 + console - 5554``).
        extra_args: more ``emulator`` flags (``-gpu swiftshader_indirect``, ``-memory 4096``...).
        boot_timeout: seconds an emulator may take to boot (each attempt).
        boot_attempts: launches tried before a boot failure is raised.
        health_timeout: seconds a health check's adb call may take before the emulator counts as wedged.
        shutdown_timeout: seconds ``emu kill`` may take before the process group is signalled.
        recycle_after: restart an emulator after this many episodes (``None``: never).
        a11y_service: an accessibility service (``package/class``) that must be enabled for
            an emulator to count as healthy (AndroidWorld's accessibility forwarder, say).
        memory_mb, cores: what one emulator takes, for the sizing check.
        force: launch even when the sizing check says the machine cannot hold the pool.
        env: environment variables for adb and the emulators, over ``os.environ``.
        adb_server_port: the adb server's port (default ``$ANDROID_ADB_SERVER_PORT`` or 5037).
        log_dir: where each emulator's output goes (default: a temporary folder).
        state_file: a JSON file kept up to date with the pool (for ``cerebellum-gym emulators
            status`` / ``down`` from another process); removed by :meth:`close`.
        on_event: called with one line of text for every launch, restart and failure.
    """

    def __init__(
        self,
        num: int = 0,
        *,
        avd: str | None = None,
        sdk: str | os.PathLike[str] | None = None,
        emulator: str | None = None,
        adb: str | None = None,
        attach: Sequence[str] | bool = (),
        snapshot: str | None = None,
        read_only: bool | None = None,
        base_port: int = DEFAULT_CONSOLE_PORT,
        base_grpc_port: int = DEFAULT_GRPC_PORT,
        grpc_ports: Mapping[str, int] | None = None,
        extra_args: Sequence[str] = (),
        boot_timeout: float = 300.0,
        boot_attempts: int = 2,
        health_timeout: float = 10.0,
        shutdown_timeout: float = 15.0,
        recycle_after: int | None = None,
        a11y_service: str | None = None,
        memory_mb: int = EMULATOR_MEMORY_MB,
        cores: float = EMULATOR_CORES,
        force: bool = False,
        env: Mapping[str, str] | None = None,
        adb_server_port: int | None = None,
        log_dir: str | os.PathLike[str] | None = None,
        state_file: str | os.PathLike[str] | None = None,
        on_event: Callable[[str], None] | None = None,
    ) -> None:
        if num < 0:
            raise CerebellumError(f"the number of emulators must be >= 0, got {num}")
        if base_port % 2 or not 1024 < base_port < 65534:
            raise CerebellumError(f"the console port must be even (the adb port is the next one), got {base_port}")
        if recycle_after is not None and recycle_after < 1:
            raise CerebellumError(f"recycle_after must be >= 1, got {recycle_after}")
        self.num = num
        self.avd = avd
        self.sdk = find_sdk(sdk)
        self._emulator_arg = emulator
        self.snapshot = snapshot
        self.read_only = (num > 1) if read_only is None else read_only
        self.base_port = base_port
        self.base_grpc_port = base_grpc_port
        self.grpc_ports = dict(grpc_ports or {})
        self.extra_args = tuple(extra_args)
        self.boot_timeout = float(boot_timeout)
        self.boot_attempts = max(1, int(boot_attempts))
        self.health_timeout = float(health_timeout)
        self.shutdown_timeout = float(shutdown_timeout)
        self.recycle_after = recycle_after
        self.a11y_service = a11y_service
        self.memory_mb = memory_mb
        self.cores = cores
        self.force = force
        self._attach = attach
        self._on_event = on_event
        base_env = {**os.environ, **(env or {})}
        port = adb_server_port or int(base_env.get("ANDROID_ADB_SERVER_PORT") or DEFAULT_ADB_SERVER_PORT)
        # The emulator tells the adb server named here that it started (host:emulator:PORT).
        base_env["ANDROID_ADB_SERVER_PORT"] = str(port)
        if self.sdk is not None:
            base_env.setdefault("ANDROID_SDK_ROOT", str(self.sdk))
        self.env = base_env
        self.adb = AdbClient(find_adb(self.sdk, adb), port, base_env)
        self._own_log_dir = log_dir is None
        self.log_dir = Path(log_dir) if log_dir is not None else Path(tempfile.mkdtemp(prefix="cerebellum-emulators-"))
        self.state_file = Path(state_file) if state_file is not None else None
        self.emulators: list[Emulator] = []
        self._lock = threading.RLock()
        self._started = False
        self._closed = False

    # --- life cycle ------------------------------------------------------------------------

    def start(self) -> EmulatorPool:
        """Attach, launch and boot every emulator; returns ``self``.

        Raises:
            EmulatorCapacityError: the machine cannot hold the pool (and ``force`` is off).
            EmulatorBootError: an emulator did not boot after ``boot_attempts`` launches (the
                others are shut down first).
            CerebellumError: no ``emulator`` executable, no AVD named, an attached serial missing.
        """
        if self._started:
            return self
        self._started = True
        try:
            self.adb.start_server()
            self._attach_running()
            if self.num:
                if not self.avd:
                    raise CerebellumError("launching emulators needs an AVD name (avd=..., --avd; list them with `emulator -list-avds`)")
                self._emulator = find_emulator(self.sdk, self._emulator_arg)
                if not self.force:
                    problems = capacity_problems(self.num, memory_mb=self.memory_mb, cores=self.cores)
                    if problems:
                        raise EmulatorCapacityError(
                            f"refusing to launch {self.num} emulators: "
                            + "; ".join(problems)
                            + ". Launch fewer, or pass force=True (--force)."
                        )
                fresh: list[Emulator] = []
                for _ in range(self.num):
                    fresh.append(self._new_emulator(len(self.emulators)))
                    self.emulators.append(fresh[-1])
                for emu in fresh:
                    self._launch(emu)
                for emu in fresh:
                    self._boot(emu, relaunch=True)
            self._save_state()
        except BaseException:
            self.close()
            raise
        atexit.register(self.close)
        return self

    def close(self) -> None:
        """Shut down every emulator the pool launched (attached ones keep running). Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        atexit.unregister(self.close)
        mine = [e for e in self.emulators if e.launched and e.process is not None]
        # Ask them all first, then wait for all: N emulators shut down in parallel.
        for emu in mine:
            if emu.process is not None and emu.process.poll() is None:
                self.adb.emu_kill(emu.serial, timeout=min(5.0, self.shutdown_timeout))
        deadline = time.monotonic() + self.shutdown_timeout
        for emu in mine:
            self._reap(emu, deadline)
            emu.state = "stopped"
        if self.state_file is not None:
            with contextlib.suppress(OSError):
                self.state_file.unlink()
        if self._own_log_dir:
            shutil.rmtree(self.log_dir, ignore_errors=True)

    def __enter__(self) -> EmulatorPool:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __len__(self) -> int:
        return len(self.emulators)

    # --- what sub-envs get -----------------------------------------------------------------

    def device_options(self, index: int, backend: EmulatorBackend = "androidworld") -> dict[str, Any]:
        """``device_options`` for sub-env ``index``: for ``Cerebellum-AndroidWorld-v0``
        (``backend="androidworld"``) the console port, gRPC port and adb path that AndroidWorld's
        launcher takes; for ``Cerebellum-Adb-v0`` (``"adb"``) the serial and adb server port."""
        emu = self.emulators[index]
        if backend == "androidworld":
            if emu.grpc_port is None:
                raise CerebellumError(f"{emu.serial}: its gRPC port is unknown (pass grpc_ports={{{emu.serial!r}: PORT}})")
            return {"console_port": emu.console_port, "grpc_port": emu.grpc_port, "adb_path": self.adb.path}
        if backend == "adb":
            return {"serial": emu.serial, "adb_port": self.adb.server_port}
        raise CerebellumError(f"unknown backend {backend!r}: 'androidworld' or 'adb'")

    def env_fns(self, env_id: str, **kwargs: Any) -> list[Callable[[], Any]]:
        """One env factory per emulator, for ``gym.vector.AsyncVectorEnv(...)`` or
        ``SyncVectorEnv``: ``gym.make(env_id, device_options=<that emulator's>, **kwargs)``
        (``kwargs["device_options"]`` is merged in). The backend follows the env id's."""
        import gymnasium as gym

        backend = gym.spec(env_id).kwargs.get("backend", "androidworld")
        if backend not in ("androidworld", "adb"):
            raise CerebellumError(f"{env_id} does not run on emulators (its backend is {backend!r})")
        fns: list[Callable[[], Any]] = []
        for index in range(len(self.emulators)):
            options = {**dict(kwargs.get("device_options") or {}), **self.device_options(index, backend)}
            fns.append(functools.partial(_make_env, env_id, {**kwargs, "device_options": options}))
        return fns

    # --- health ----------------------------------------------------------------------------

    def health(self, index: int) -> Health:
        """Check emulator ``index``: its process lives, adb answers within ``health_timeout``,
        boot completed, a screen size, and the accessibility service when one is named."""
        emu = self.emulators[index]
        if emu.process is not None and emu.process.poll() is not None:
            return Health(False, f"its process exited (status {emu.process.returncode})")
        command = "getprop sys.boot_completed; wm size"
        if self.a11y_service:
            command += "; settings get secure enabled_accessibility_services"
        try:
            code, out = self.adb.shell(emu.serial, command, timeout=self.health_timeout)
        except subprocess.TimeoutExpired:
            return self._exited(emu) or Health(False, f"adb did not answer within {self.health_timeout:g} s (wedged)", wedged=True)
        lines = [ln.strip() for ln in out.splitlines() if ln.strip()]
        if code != 0:
            return self._exited(emu) or Health(False, out.strip()[:200] or f"adb exited with status {code}")
        if not lines or lines[0] != "1":
            return Health(False, f"sys.boot_completed is {lines[0] if lines else ''!r}")
        match = re.search(r"(?:Override|Physical) size: (\d+)x(\d+)", out)
        if match is None:
            return Health(False, f"no screen size from `wm size`: {out.strip()!r}")
        screen = (int(match.group(1)), int(match.group(2)))
        if self.a11y_service and self.a11y_service not in out:
            return Health(False, f"accessibility service {self.a11y_service} is not enabled", screen)
        return Health(True, "", screen)

    @staticmethod
    def _exited(emu: Emulator) -> Health | None:
        # adb failed: if the process died, say so (its guard notices within a fraction of a second).
        if emu.process is None:
            return None
        with contextlib.suppress(subprocess.TimeoutExpired):
            emu.process.wait(timeout=3.0)  # generous: a loaded machine runs the guard late
        if emu.process.poll() is None:
            return None
        return Health(False, f"its process exited (status {emu.process.returncode})")

    def between_episodes(self, index: int, fault: bool = False) -> str | None:
        """Call after each episode on emulator ``index`` (``fault``: it ended with a device
        fault). Counts the episode, then recycles the emulator when ``recycle_after`` is reached,
        or restarts it when the health check fails. Returns what was done (``"recycled"``,
        ``"restarted: <reason>"``) or ``None``.

        Raises:
            EmulatorError: the emulator could not be brought back.
        """
        with self._lock:
            emu = self.emulators[index]
            emu.episodes += 1
            emu.total_episodes += 1
            if self.recycle_after is not None and emu.episodes >= self.recycle_after and emu.launched:
                self.restart(index, reason=f"recycled after {emu.episodes} episodes", fault=False)
                return "recycled"
            health = self.health(index)
            if health.ok:
                self._save_state()
                return None
            self.restart(index, reason=health.reason, graceful=not health.wedged)
            return f"restarted: {health.reason}"

    def restart(self, index: int, reason: str = "asked", *, fault: bool = True, graceful: bool = True) -> None:
        """Shut emulator ``index`` down and launch and boot it again on the same ports, so its
        serial and its sub-env's options stay valid. ``graceful``: ask it first (``emu kill``);
        otherwise (a wedged emulator) go straight to signals.

        Raises:
            EmulatorError: an attached emulator with no ``avd`` to relaunch it from, or no boot.
        """
        with self._lock:
            emu = self.emulators[index]
            if not emu.launched and not self.avd:
                raise EmulatorError(
                    f"{emu.serial} is unhealthy ({reason}) and was attached, not launched: pass an AVD so the pool can relaunch it"
                )
            if fault:
                emu.faults.append(reason)
            self._event(f"{emu.serial}: restarting ({reason})")
            emu.state = "unhealthy"
            self._stop(emu, graceful=graceful)
            if not emu.launched:
                emu.launched = True
                if emu.grpc_port is None:
                    emu.grpc_port = self._free_grpc_port()
            self._emulator = getattr(self, "_emulator", None) or find_emulator(self.sdk, self._emulator_arg)
            emu.restarts += 1
            emu.episodes = 0
            self._launch(emu)
            self._boot(emu, relaunch=True)
            self._save_state()

    def report(self) -> list[dict[str, Any]]:
        """Each emulator's serial, ports, state, episodes, restarts and fault reasons."""
        return [e.as_json() for e in self.emulators]

    def watch(self, stop: threading.Event, interval: float = 10.0) -> None:
        """Check every emulator each ``interval`` seconds and restart unhealthy ones, until
        ``stop`` is set (what ``cerebellum-gym emulators up`` runs in the foreground)."""
        while not stop.wait(interval):
            for index in range(len(self.emulators)):
                if stop.is_set():
                    return
                health = self.health(index)
                if health.ok:
                    continue
                try:
                    self.restart(index, reason=health.reason, graceful=not health.wedged)
                except EmulatorError as exc:
                    self._event(f"{self.emulators[index].serial}: restart failed: {exc}")

    # --- internals -------------------------------------------------------------------------

    def _event(self, text: str) -> None:
        if self._on_event is not None:
            self._on_event(text)

    def _attach_running(self) -> None:
        if self._attach is True:
            listed = self.adb.devices()
            serials = sorted(
                (s for s, st in listed.items() if re.fullmatch(r"emulator-\d+", s) and st == "device"), key=lambda s: int(s[9:])
            )
        elif self._attach:
            serials = list(self._attach)
        else:
            return
        for serial in serials:
            match = re.fullmatch(r"emulator-(\d+)", serial)
            if match is None:
                raise CerebellumError(f"{serial!r} is not an emulator serial (emulator-<console port>)")
            console = int(match.group(1))
            grpc = self.grpc_ports.get(serial, DEFAULT_GRPC_PORT + console - DEFAULT_CONSOLE_PORT)
            emu = Emulator(len(self.emulators), console, grpc, launched=False, state="booting")
            self.emulators.append(emu)
            self._boot(emu, relaunch=False)

    def _new_emulator(self, index: int) -> Emulator:
        used = {e.console_port for e in self.emulators}
        port = self.base_port
        while port in used or not (port_free(port) and port_free(port + 1)):
            port += 2
            if port > 65532:
                raise CerebellumError(f"no free console/adb port pair from {self.base_port} up")
        return Emulator(index, port, self._free_grpc_port(), launched=True)

    def _free_grpc_port(self) -> int:
        used = {e.grpc_port for e in self.emulators}
        port = self.base_grpc_port
        while port in used or not port_free(port):
            port += 1
        return port

    def command(self, emu: Emulator) -> list[str]:
        """The ``emulator`` command line for ``emu``."""
        assert self.avd is not None
        cmd = [self._emulator, "-avd", self.avd, "-no-window", "-no-audio", "-no-boot-anim", "-port", str(emu.console_port)]
        if emu.grpc_port is not None:
            cmd += ["-grpc", str(emu.grpc_port)]
        if self.read_only:
            cmd.append("-read-only")
        if self.snapshot:
            cmd += ["-snapshot", self.snapshot]
        return cmd + list(self.extra_args)

    def _launch(self, emu: Emulator) -> None:
        for port in (emu.console_port, emu.adb_port):
            if not self._wait_port_free(port, 10.0):
                raise EmulatorError(f"{emu.serial}: port {port} is taken by another program (see `ss -ltnp 'sport = :{port}'`)")
        self.log_dir.mkdir(parents=True, exist_ok=True)
        emu.log_path = self.log_dir / f"{emu.serial}.log"
        guard = [sys.executable, "-I", str(GUARD_SCRIPT), str(os.getpid()), "--", *self.command(emu)]
        with open(emu.log_path, "ab") as log:
            log.write(f"--- launch {time.strftime('%H:%M:%S')}: {' '.join(self.command(emu))}\n".encode())
            log.flush()
            emu.process = subprocess.Popen(
                guard, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=self.env, close_fds=True
            )
        emu.state = "booting"
        emu.started_at = time.monotonic()
        self._event(f"{emu.serial}: launched (adb port {emu.adb_port}, grpc {emu.grpc_port}, pid {emu.process.pid})")

    def _wait_port_free(self, port: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not port_free(port):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.2)
        return True

    def _boot(self, emu: Emulator, *, relaunch: bool) -> None:
        """Wait for ``emu`` to boot; relaunch it (up to ``boot_attempts`` launches) when allowed."""
        for attempt in range(1, self.boot_attempts + 1):
            try:
                self._wait_boot(emu)
                return
            except EmulatorBootError as exc:
                if not relaunch or not emu.launched or attempt == self.boot_attempts:
                    emu.state = "unhealthy"
                    raise
                self._event(f"{emu.serial}: boot attempt {attempt} failed, relaunching: {exc}")
                self._stop(emu)
                self._launch(emu)

    def _wait_boot(self, emu: Emulator) -> None:
        start = time.monotonic()
        deadline = start + self.boot_timeout
        status = "adb does not list it yet"
        while True:
            if emu.process is not None and emu.process.poll() is not None:
                raise EmulatorBootError(
                    f"{emu.serial} exited with status {emu.process.returncode} while booting ({status}). "
                    f"Its log ({emu.log_path}):\n{_tail(emu.log_path)}"
                )
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            self.adb.notify_emulator(emu.adb_port)
            try:
                code, out = self.adb.shell(emu.serial, "getprop sys.boot_completed", timeout=max(1.0, min(10.0, remaining)))
                answer = out.strip()
                if code == 0 and answer == "1":
                    code, out = self.adb.shell(emu.serial, "pm path android", timeout=max(1.0, min(10.0, remaining)))
                    if code == 0 and out.strip().startswith("package:"):
                        emu.state = "ready"
                        self._event(f"{emu.serial}: booted in {time.monotonic() - start:.1f} s")
                        return
                    status = f"boot completed, package manager not ready ({out.strip()[:120]!r})"
                elif code == 0:
                    status = f"adb answers, sys.boot_completed is {answer!r}"
                else:
                    status = f"adb: {answer[:160]}"
            except subprocess.TimeoutExpired:
                status = "adb did not answer"
            time.sleep(min(0.5, max(0.0, deadline - time.monotonic())))
        raise EmulatorBootError(
            f"{emu.serial} did not finish booting within {self.boot_timeout:g} s (last: {status}). "
            f"Its log ({emu.log_path}):\n{_tail(emu.log_path)}"
            if emu.log_path
            else f"{emu.serial} did not finish booting within {self.boot_timeout:g} s (last: {status})"
        )

    def _stop(self, emu: Emulator, graceful: bool = True) -> None:
        """Shut ``emu`` down: ``emu kill`` if it is running (and ``graceful``), then its process
        group if it stays."""
        alive = emu.process is None or emu.process.poll() is None
        if alive and (graceful or emu.process is None):
            self.adb.emu_kill(emu.serial, timeout=min(5.0, self.shutdown_timeout))
        if emu.process is not None:
            self._reap(emu, time.monotonic() + (self.shutdown_timeout if graceful else 0.0))
        else:
            # An attached emulator: wait for its adb port to close.
            self._wait_port_free(emu.adb_port, self.shutdown_timeout)
        emu.state = "stopped"

    def _reap(self, emu: Emulator, deadline: float) -> None:
        """Wait for ``emu``'s guard to exit until ``deadline``, then SIGTERM and SIGKILL its group."""
        proc = emu.process
        if proc is None:
            return
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)  # the guard ends the group: SIGTERM, then SIGKILL
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=8.0)
        # Whatever is left in the group (the guard was killed, or a helper ignored SIGTERM).
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5.0)

    def _save_state(self) -> None:
        if self.state_file is None:
            return
        data = {
            "version": STATE_VERSION,
            "owner_pid": os.getpid(),
            "adb": self.adb.path,
            "adb_server_port": self.adb.server_port,
            "avd": self.avd,
            "updated": time.time(),
            "emulators": self.report(),
        }
        write_state(self.state_file, data)


# --- state file (for `cerebellum-gym emulators status/down` from another process) --------------


def default_state_file() -> Path:
    """``$CEREBELLUM_EMULATORS_STATE``, or ``~/.cache/cerebellum-gym/emulators.json``."""
    given = os.environ.get(STATE_ENV_VAR)
    if given:
        return Path(given)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "cerebellum-gym" / "emulators.json"


def write_state(path: Path, data: Mapping[str, Any]) -> None:
    """Write ``data`` to ``path`` atomically (a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, path)


def read_state(path: Path) -> dict[str, Any] | None:
    """The pool state in ``path``; ``None`` when there is none.

    Raises:
        CerebellumError: the file is not a pool state.
    """
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise CerebellumError(f"{path} is not an emulator pool state file: {exc}") from exc
    if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
        raise CerebellumError(f"{path} is not an emulator pool state file (version {STATE_VERSION})")
    return data


def _is_guard(pid: int) -> bool:
    """Whether ``pid`` is one of our guards (a pid from a stale file may belong to anything now)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return _pid_alive(pid) and not Path("/proc").is_dir()
    return GUARD_SCRIPT.name.encode() in cmdline


def stop_from_state(path: Path, timeout: float = 60.0, log: Callable[[str], None] = lambda s: None) -> int:
    """End the pool described in ``path`` from another process: SIGTERM its owner (which shuts
    its emulators down cleanly) and wait; then ``emu kill`` and end the process group of any
    emulator still running. Returns how many emulators were stopped here (not by the owner)."""
    state = read_state(path)
    if state is None:
        return 0
    owner = int(state.get("owner_pid") or 0)
    if owner and owner != os.getpid() and _pid_alive(owner):
        log(f"asking the pool's process {owner} to shut down")
        with contextlib.suppress(ProcessLookupError):
            os.kill(owner, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while _pid_alive(owner) and time.monotonic() < deadline:
            time.sleep(0.2)
    adb = AdbClient(str(state.get("adb") or "adb"), int(state.get("adb_server_port") or DEFAULT_ADB_SERVER_PORT), dict(os.environ))
    stopped = 0
    for entry in state.get("emulators", []):
        pid = entry.get("pid")
        if not entry.get("launched") or not pid or not _pid_alive(int(pid)) or not _is_guard(int(pid)):
            continue
        log(f"stopping {entry['serial']} (pid {pid})")
        adb.emu_kill(str(entry["serial"]))
        deadline = time.monotonic() + 15.0
        while _pid_alive(int(pid)) and time.monotonic() < deadline:
            time.sleep(0.2)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(int(pid), signal.SIGKILL)
        stopped += 1
    with contextlib.suppress(OSError):
        path.unlink()
    return stopped


def live_status(state: Mapping[str, Any], timeout: float = 5.0) -> list[dict[str, Any]]:
    """Each emulator of ``state`` with what is true now: its process alive, adb's state for its
    serial, and ``sys.boot_completed``."""
    adb = AdbClient(str(state.get("adb") or "adb"), int(state.get("adb_server_port") or DEFAULT_ADB_SERVER_PORT), dict(os.environ))
    try:
        listed = adb.devices(timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        listed = {}
    rows: list[dict[str, Any]] = []
    for entry in state.get("emulators", []):
        row = dict(entry)
        pid = entry.get("pid")
        row["alive"] = bool(pid and _pid_alive(int(pid))) if entry.get("launched") else None
        row["adb_state"] = listed.get(str(entry["serial"]), "absent")
        booted = ""
        if row["adb_state"] == "device":
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                _, booted = adb.shell(str(entry["serial"]), "getprop sys.boot_completed", timeout=timeout)
        row["boot_completed"] = booted.strip()
        rows.append(row)
    return rows
