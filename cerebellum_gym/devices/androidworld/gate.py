"""The gate to AndroidWorld: importing it (or saying how to install it) and mapping its failures
onto cerebellum's errors.

AndroidWorld is not on PyPI: it installs from its source and drives an emulator (Pixel 6, API 33,
``-grpc 8554``) through android_env. Nothing in this package imports it until a device is built
(:func:`import_android_world`), so ``import cerebellum_gym`` works without it; without it a
:class:`~cerebellum_gym.errors.CerebellumError` says how to install it (``docs/androidworld.md``).

Failures map onto :class:`~cerebellum_gym.errors.InfraError` (:func:`map_error`): adb or
emulator faults (android_env's ``AdbControllerError`` and friends, gRPC errors, broken
connections) to :class:`~cerebellum_gym.errors.DeviceLostError`, time-outs to
:class:`~cerebellum_gym.errors.DeviceTimeoutError`, and answers that could not be read (AndroidWorld's
``RuntimeError``/``ValueError`` on a missing forest or unparsable output, a non-OK
``AdbResponse``) to :class:`~cerebellum_gym.errors.DeviceProtocolError`. :func:`infra_error` is
the narrower mapping for task code, whose own errors stay the task's.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import logging.handlers
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from cerebellum_gym import leftovers
from cerebellum_gym.errors import (
    CerebellumError,
    DeviceLostError,
    DeviceProtocolError,
    DeviceTimeoutError,
    InfraError,
)

INSTALL_HINT: Final = (
    "AndroidWorld is not on PyPI; install it from its repository into this environment:\n"
    "  git clone https://github.com/google-research/android_world && cd android_world\n"
    "  pip install -r requirements.txt && python setup.py install\n"
    "In CI (no Git host), install the pinned wheel instead: pip install ../shared/third_party/android_world-*.whl\n"
    "With no emulator named, its tasks run on the embedded simulator (also needs adbutils: pip install 'cerebellum-gym[adb]');\n"
    "for an emulator (Pixel 6, API 33), start it: emulator -avd AndroidWorldAvd -no-snapshot -grpc 8554\n"
    "See docs/androidworld.md."
)
#: android_env's error classes (``android_env/components/errors.py``): all mean the emulator or
#: its adb link failed.
_ANDROID_ENV_ERRORS: Final = frozenset(
    {
        "AndroidEnvError",
        "ReadObservationError",
        "CoordinatorError",
        "TooManyRestartsError",
        "AdbControllerError",
        "SimulatorError",
        "SendActionError",
        "StepCommandError",
        "WaitForAppScreenError",
        "CheckInstallError",
    }
)


#: Set (to anything but empty or ``0``) to see AndroidWorld's own log on the terminal
#: (``cerebellum-gym eval --verbose`` sets it).
VERBOSE_ENV_VAR: Final = "CEREBELLUM_VERBOSE"
#: Where AndroidWorld's log goes otherwise (default: ``$XDG_CACHE_HOME/cerebellum-gym/androidworld.log``).
LOG_ENV_VAR: Final = "CEREBELLUM_ANDROIDWORLD_LOG"
#: The log file's size before it is rotated (one old file kept).
LOG_MAX_BYTES: Final = 8 << 20


def androidworld_log_path() -> Path:
    """The file AndroidWorld's log goes to unless :data:`VERBOSE_ENV_VAR` is set."""
    named = os.environ.get(LOG_ENV_VAR)
    if named:
        return Path(named).expanduser()
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "cerebellum-gym" / "androidworld.log"


def verbose() -> bool:
    return os.environ.get(VERBOSE_ENV_VAR, "") not in ("", "0")


def _route_logs() -> None:
    """Send AndroidWorld's absl log (a warning per env about the file limit, a task's whole
    parameter repr per failed judge) to a file, so the terminal keeps the run's progress lines;
    with :data:`VERBOSE_ENV_VAR` set it stays on the terminal. Once per process."""
    absl = logging.getLogger("absl")
    if verbose() or any(getattr(h, "_cerebellum", False) for h in absl.handlers):
        return
    path = androidworld_log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.handlers.RotatingFileHandler(path, maxBytes=LOG_MAX_BYTES, backupCount=1, encoding="utf-8")
    except OSError:
        handler = logging.NullHandler()  # nowhere to write: quiet all the same
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler._cerebellum = True  # type: ignore[attr-defined]
    absl.addHandler(handler)
    absl.propagate = False  # absl's own handler sits on the root logger


def import_android_world(module: str) -> Any:
    """Import ``android_world.<module>``, or explain how to install AndroidWorld.

    Raises:
        CerebellumError: AndroidWorld (or one of its own dependencies) is not importable.
    """
    try:
        imported = importlib.import_module(f"android_world.{module}")
        _private_host_folder()
        _route_logs()
        return imported
    except ImportError as exc:
        missing = getattr(exc, "name", None) or str(exc)
        what = (
            "AndroidWorld (the android_world package)"
            if missing.split(".")[0] == "android_world"
            else f"{missing!r}, which AndroidWorld needs,"
        )
        raise CerebellumError(f"the androidworld backend needs {what} and it is not importable ({exc}).\n{INSTALL_HINT}") from exc


#: The free bytes ``/dev/shm`` must have to hold AndroidWorld's host files (its videos and songs
#: are megabytes; a container's default ``/dev/shm`` of 64 MB is not enough).
RAM_FOLDER_MIN_FREE: Final = 1 << 30


def _ram_folder() -> str | None:
    """``/dev/shm`` when it is a writable folder with :data:`RAM_FOLDER_MIN_FREE` free, else
    ``None`` (the host's temporary folder)."""
    try:
        stats = os.statvfs("/dev/shm")
    except OSError:
        return None
    roomy = stats.f_bavail * stats.f_frsize >= RAM_FOLDER_MIN_FREE
    return "/dev/shm" if roomy and os.access("/dev/shm", os.W_OK | os.X_OK) else None


class _TempfileIn:
    """The ``tempfile`` module for AndroidWorld's ``file_utils``: the same, but its temporary
    folders are made in ``folder`` unless asked for elsewhere."""

    def __init__(self, folder: str) -> None:
        self._folder = folder

    def mkdtemp(self, suffix: str | None = None, prefix: str | None = None, dir: str | None = None) -> str:
        return tempfile.mkdtemp(suffix, prefix, self._folder if dir is None else dir)

    def __getattr__(self, name: str) -> Any:
        return getattr(tempfile, name)


#: This process's own folder for the files AndroidWorld makes on the host, and the process it
#: was made for (a forked child makes its own).
_HOST_FOLDER: list[tuple[int, str]] = []


def _private_host_folder() -> None:
    """Give this process its own folder for the files AndroidWorld writes on the host.

    AndroidWorld writes its set-up files under fixed names in the host's temporary folder
    (``file_utils.get_local_tmp_directory()``: the videos it pushes for VLC, ``receipt.png``,
    ``task.html``, gallery pictures). Two processes running its tasks at once (an async vector
    env, a process pool, parallel test workers) overwrite and delete each other's files between
    writing and pushing. Its code stays as it is; the folder it asks for is this process's own,
    and the temporary folders its ``file_utils`` makes (a database pulled, edited with SQLite
    and pushed back: every database task's set-up and judge) are made in it.

    The folder is in memory (``/dev/shm``) where that has room (:data:`RAM_FOLDER_MIN_FREE`):
    SQLite's commits there cost no disk sync, which was a third of a database task's set-up.
    """
    pid = os.getpid()
    if _HOST_FOLDER and _HOST_FOLDER[0][0] == pid:
        return
    try:
        file_utils = importlib.import_module("android_world.utils.file_utils")
    except ImportError:  # a build of AndroidWorld without it writes no host files through it
        return
    folder = leftovers.owned_dir("androidworld", _ram_folder())
    _HOST_FOLDER[:] = [(pid, folder)]
    setattr(file_utils, "get_local_tmp_directory", lambda: folder)  # noqa: B010  (a module of AndroidWorld's)
    setattr(file_utils, "tempfile", _TempfileIn(folder))  # noqa: B010
    # user_data_generation reads the folder once, when it is imported.
    generation = sys.modules.get("android_world.task_evals.utils.user_data_generation")
    if generation is not None:
        setattr(generation, "_TMP", folder)  # noqa: B010


#: What the adb client prints when it could not reach the device (adb's ``commandline.cpp`` and
#: ``adb_client.cpp``): the transport failed, the device did not answer.
ADB_TRANSPORT_FAILURES: Final = (
    "adb: device '",
    "error: device '",
    "error: closed",
    "error: protocol fault",
    "device offline",
    "device unauthorized",
    "device still authorizing",
    "device still connecting",
    "no devices/emulators found",
    "more than one device/emulator",
    "failed to get feature set",
    "cannot connect to daemon",
    "daemon not running",
    "failed to connect to",
    "error: connect failed",
)


def device_answer(exc: BaseException) -> subprocess.CalledProcessError | None:
    """The device's own answer behind an android_env adb failure, or ``None``.

    android_env raises ``AdbControllerError`` from the ``CalledProcessError`` of its last try
    (wrapped again by some AndroidWorld helpers, such as ``clear_app_data``). When that process
    ran the command on the device, which exited non-zero with its own message (``sqlite3`` on a
    bad statement, ``pm`` on an unknown package), the device answered: it is not lost. When the
    adb client itself could not reach the device, its output is one of
    :data:`ADB_TRANSPORT_FAILURES` (``adb: device '...' not found``, ``error: closed``, ...), and
    that is no answer.
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, subprocess.CalledProcessError):
            output = current.output if current.output is not None else current.stdout
            text = output.decode("utf-8", "replace") if isinstance(output, bytes) else str(output or "")
            if any(marker in text for marker in ADB_TRANSPORT_FAILURES):
                return None
            return current
        if isinstance(current, subprocess.TimeoutExpired):
            return None
        current = current.__cause__ or current.__context__
    return None


def map_error(exc: BaseException, what: str) -> CerebellumError | None:
    """The cerebellum error for a failure raised inside AndroidWorld or android_env, or ``None``
    when it looks like a programming error that should surface as it is.

    Args:
        exc: what AndroidWorld raised.
        what: the operation, for the message.
    """
    if isinstance(exc, CerebellumError):
        return exc
    names = {cls.__name__ for cls in type(exc).__mro__}
    message = f"{what}: {type(exc).__name__}: {exc}"
    timed_out = isinstance(exc, TimeoutError | subprocess.TimeoutExpired) or any("Timeout" in n for n in names)
    if names & {"RpcError", "_InactiveRpcError"}:  # the emulator's gRPC endpoint
        code = getattr(exc, "code", None)
        status = str(code()) if callable(code) else ""
        return DeviceTimeoutError(message) if "DEADLINE_EXCEEDED" in status else DeviceLostError(message)
    if timed_out or (names & _ANDROID_ENV_ERRORS and ("TimeoutExpired" in str(exc) or "timed out" in str(exc))):
        return DeviceTimeoutError(message)
    answered = device_answer(exc) if names & _ANDROID_ENV_ERRORS else None
    if answered is not None:
        # The device is there; it answered a command of ours with an error.
        return DeviceProtocolError(f"{message} (the device answered with status {answered.returncode})")
    if names & _ANDROID_ENV_ERRORS or isinstance(exc, ConnectionError | EOFError | OSError):
        return DeviceLostError(message)
    if isinstance(exc, subprocess.CalledProcessError | RuntimeError | ValueError):
        # AndroidWorld raises these when the device's answer is missing or unreadable
        # ("Could not get a11y tree.", "Failed to get logical screen size.").
        return DeviceProtocolError(message)
    return None


def infra_error(exc: BaseException, what: str) -> InfraError | None:
    """The infra error for an adb, gRPC or emulator fault, or ``None`` for anything else.

    Narrower than :func:`map_error`: task code raises ``RuntimeError``, ``ValueError`` and
    ``OSError`` of its own (a bad parameter, a set-up that found the wrong state, a local file),
    which are the task's errors, not the device's. Infra here is android_env's errors (adb
    failed after its retries), gRPC errors, time-outs, broken connections and a failed adb
    subprocess, except a command the device ran and answered with an error and a non-zero
    status (:func:`device_answer`: AndroidWorld's SMS set-up's failing ``sqlite3``): the device
    is there, and what failed is the task's command (``None``; the caller's probe of the device
    still turns a real loss into infra).
    """
    if isinstance(exc, InfraError):
        return exc
    if device_answer(exc) is not None:
        return None
    names = {cls.__name__ for cls in type(exc).__mro__}
    if names & (_ANDROID_ENV_ERRORS | {"RpcError", "_InactiveRpcError"}) or isinstance(
        exc, TimeoutError | subprocess.TimeoutExpired | subprocess.CalledProcessError | ConnectionError | EOFError
    ):
        mapped = map_error(exc, what)
        if isinstance(mapped, InfraError):
            return mapped
        return DeviceLostError(f"{what}: {type(exc).__name__}: {exc}")
    return None


@contextlib.contextmanager
def guarded(what: str) -> Iterator[None]:
    """Run a block that calls into AndroidWorld, mapping its failures with :func:`map_error`."""
    try:
        yield
    except CerebellumError:
        raise
    except Exception as exc:
        mapped = map_error(exc, what)
        if mapped is None:
            raise
        raise mapped from exc


__all__ = ["ADB_TRANSPORT_FAILURES", "INSTALL_HINT", "device_answer", "guarded", "import_android_world", "infra_error", "map_error"]
