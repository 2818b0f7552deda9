"""AndroidWorld over plain ADB: the real ``AndroidWorldController`` and ``AsyncAndroidEnv`` on any
ADB device, with only the emulator's console/gRPC side replaced.

AndroidWorld reaches its emulator through android_env's ``EmulatorSimulator``, which hard-codes
the serial ``emulator-<adb_port - 1>`` and needs the emulator's gRPC endpoint for boot status,
screenshots and touches. Everything else AndroidWorld does (set-up, task initialisation, judges,
actuation) goes through ``execute_adb_call`` and android_env's ``AdbCallParser`` and
``AdbController``, which accept any serial (``127.0.0.1:6520`` for a device on the network,
such as the simulator served by ``cerebellum-gym serve-adb``).

:class:`AdbAndroidEnv` is that ``AndroidEnvInterface``: adb calls go through the real
``AdbCallParser`` and an ``AdbController`` to the device (:class:`SocketAdbController` by default:
``shell`` and ``exec-out`` over the adb server's socket protocol, no ``adb`` process per command),
and the pixels of each timestep come from ``adb exec-out screencap`` when first read
(:class:`LazyPixels`; raw frames over loopback, PNG otherwise). :func:`load_adb_env` wraps it in the real
``AndroidWorldController`` (UI tree from ``uiautomator dump``; on the served simulator, the forest
from its own forwarder: :mod:`~cerebellum_gym.devices.androidworld.forest`)
and ``AsyncAndroidEnv``, then runs AndroidWorld's own ``setup_env`` (the clock frozen), as
``env_launcher.load_and_setup_env`` does for an emulator.

Example (needs AndroidWorld; the simulator served on port 6520 and ``adb connect``-ed)::

    from cerebellum_gym.devices.androidworld.adb import load_adb_env
    env = load_adb_env("127.0.0.1:6520")
    env.logical_screen_size          # (1080, 2400)
"""

from __future__ import annotations

import contextlib
import io
import os
import socket
import struct
import subprocess
from collections.abc import Mapping
from typing import Any, Final, Literal, cast

import numpy as np

from cerebellum_gym.devices.adb.client import Deadline, Link
from cerebellum_gym.devices.androidworld.clock import SimulatedTime
from cerebellum_gym.devices.androidworld.forest import make_controller
from cerebellum_gym.devices.androidworld.gate import guarded, import_android_world
from cerebellum_gym.devices.androidworld.lazy import FetchedOnRead
from cerebellum_gym.errors import CerebellumError

try:  # android_env comes with AndroidWorld; the module is imported only when it is wanted
    import dm_env
    from android_env import env_interface
    from android_env.components import adb_call_parser, adb_controller, config_classes, errors
    from android_env.proto import adb_pb2
    from dm_env import specs
except ImportError as exc:  # pragma: no cover - exercised only without AndroidWorld
    from cerebellum_gym.devices.androidworld.gate import INSTALL_HINT

    raise CerebellumError(f"AndroidWorld over ADB needs android_env ({exc}).\n{INSTALL_HINT}") from exc


AdbClient = Literal["socket", "binary", "in_process"]
#: Shell protocol v2 packet ids (adb's ``shell_protocol.h``).
_V2_STDOUT: Final = 1
_V2_STDERR: Final = 2
_V2_EXIT: Final = 3
#: Bytes per sync ``DATA`` packet (adb's ``SYNC_DATA_MAX``).
_SYNC_CHUNK: Final = 64 * 1024


class _Fallback(Exception):
    """The socket path could not run the command to an answer: let the adb binary try."""


def _pulled_to(local: str, remote: str, data: bytes) -> bytes:
    """Write a pulled file to ``local``; what ``adb pull`` prints (:class:`_Fallback` when the
    local file cannot be written: the binary says why)."""
    try:
        with open(local, "wb") as target:
            target.write(data)
    except OSError:
        raise _Fallback from None
    return f"{remote}: 1 file pulled, 0 skipped.\n".encode()


class SocketAdbController(adb_controller.AdbController):
    """android_env's ``AdbController`` that sends ``shell`` and ``exec-out`` commands to the adb
    server over its socket protocol instead of starting an ``adb`` client process for each.

    What reaches the device is what the adb client sends for the same arguments: the arguments
    joined with spaces, unquoted (adb's ``commandline.cpp`` does not escape them either), as a
    ``shell,v2,raw:`` service (no terminal, as under ``subprocess``) or an ``exec:`` one, through
    the same adb server (``host:transport:SERIAL``). The answer is what android_env reads from the
    client: stdout and stderr in the order they came (android_env merges them), the remote exit
    status deciding success.

    Differences, on purpose:

    - a command the device answered with a non-zero status raises android_env's
      ``AdbControllerError`` (caused by a ``CalledProcessError`` carrying the status and the
      output) at once; android_env's own controller would restart the adb server (2.4 s of
      sleeps, which also forgets network devices) and run the command a second time, which for
      an answer the device gave can only repeat its side effects;
    - anything else (the server unreachable, the device not found, a dropped connection, a
      time-out, a request longer than the server reads, options before the command) goes to
      android_env's own path, the adb binary with its retry and server restart.

    ``push LOCAL REMOTE`` and ``pull REMOTE LOCAL`` (what android_env's parser sends for its
    push and pull requests) go over the same socket as the sync protocol's ``SEND`` and ``RECV``
    (the local file's mode and time, as the client sends them); a file the device refuses
    (``FAIL``: no such file, a read-only place) raises as above, with the client's
    ``adb: error: ...`` line as its output. Every other adb command (``root``, ``connect``,
    ``devices``, ...) runs the binary.
    """

    def _server(self) -> tuple[str, int]:
        env = self._os_env_vars
        if self._config.use_adb_server_port_from_os_env:
            port = int(env.get("ANDROID_ADB_SERVER_PORT") or 5037)
        else:
            port = int(self._config.adb_server_port)
        return env.get("ANDROID_ADB_SERVER_ADDRESS") or "127.0.0.1", port

    def execute_command(self, args: list[str], timeout: float | None = None, device_specific: bool = True) -> bytes:
        budget = self._config.default_timeout if timeout is None else timeout
        try:
            if device_specific and len(args) > 1 and args[0] in ("shell", "exec-out") and not args[1].startswith("-"):
                return self._over_socket(args, budget)
            if device_specific and len(args) == 3 and args[0] in ("push", "pull") and not any(a.startswith("-") for a in args[1:]):
                return self._sync_over_socket(args, budget)
        except _Fallback:
            pass
        return bytes(super().execute_command(args, timeout, device_specific))

    def _link(self, service: str, deadline: Deadline) -> Link:
        """A connection to the device's ``service`` through the adb server (:class:`_Fallback`
        when it cannot be opened)."""
        try:
            sock = socket.create_connection(self._server(), timeout=deadline.remaining())
        except (OSError, CerebellumError) as exc:
            raise _Fallback from exc
        link = Link(sock, deadline)
        try:
            link.request(f"host:transport:{self._config.device_name}")
            link.request(service)
        except CerebellumError as exc:
            link.close()
            raise _Fallback from exc
        return link

    def _refused(self, args: list[str], code: int, output: bytes) -> errors.AdbControllerError:
        """The error android_env raises for a command the device answered with status ``code``."""
        cmd = [*self.command_prefix(include_device_name=True), *args]
        failed = subprocess.CalledProcessError(code, cmd, output=output)
        error = errors.AdbControllerError(f"Error executing adb command: [adb {' '.join(cmd[1:])}]\nCaused by: {failed}")
        error.__cause__ = failed
        return error

    def _sync_over_socket(self, args: list[str], timeout: float) -> bytes:
        """``adb push LOCAL REMOTE`` / ``adb pull REMOTE LOCAL`` over the sync protocol."""
        push = args[0] == "push"
        local, remote = (args[1], args[2]) if push else (args[2], args[1])
        deadline = Deadline(timeout, f"adb {args[0]} {remote[:60]}")
        if push:
            try:
                with open(local, "rb") as source:
                    data, info = source.read(), os.fstat(source.fileno())
            except OSError:
                raise _Fallback from None  # the binary says what is wrong with the local file
            header = f"{remote},{0o100000 | (info.st_mode & 0o777)}".encode()
            request = b"SEND" + struct.pack("<I", len(header)) + header
        else:
            encoded = remote.encode()
            request = b"RECV" + struct.pack("<I", len(encoded)) + encoded
        link = self._link("sync:", deadline)
        try:
            link.send(request)
            if push:
                for i in range(0, len(data), _SYNC_CHUNK):
                    chunk = data[i : i + _SYNC_CHUNK]
                    link.send(b"DATA" + struct.pack("<I", len(chunk)) + chunk)
                link.send(b"DONE" + struct.pack("<I", int(info.st_mtime)))
                ident, length = struct.unpack("<4sI", link.read_exact(8))
                if ident == b"OKAY":
                    return f"{local}: 1 file pushed, 0 skipped.\n".encode()
                said = link.read_exact(min(length, 4096)) if ident == b"FAIL" else repr(ident).encode()
                raise self._refused(args, 1, b"adb: error: failed to copy '" + local.encode() + b"': " + said + b"\n")
            pulled = bytearray()
            while True:
                ident, length = struct.unpack("<4sI", link.read_exact(8))
                if ident == b"DATA":
                    pulled += link.read_exact(length)
                elif ident == b"DONE":
                    break
                else:
                    said = link.read_exact(min(length, 4096)) if ident == b"FAIL" else repr(ident).encode()
                    raise self._refused(args, 1, b"adb: error: failed to stat remote object '" + remote.encode() + b"': " + said + b"\n")
        except CerebellumError as exc:
            raise _Fallback from exc
        finally:
            link.close()
        return _pulled_to(local, remote, bytes(pulled))

    def _over_socket(self, args: list[str], timeout: float) -> bytes:
        command = " ".join(args[1:])
        shell = args[0] == "shell"
        deadline = Deadline(timeout, f"adb {args[0]} {command[:60]}")
        link = self._link(f"shell,v2,raw:{command}" if shell else f"exec:{command}", deadline)
        try:
            if not shell:
                return link.read_all()
            output = bytearray()
            while True:
                kind, length = struct.unpack("<BI", link.read_exact(5))
                data = link.read_exact(length)
                if kind in (_V2_STDOUT, _V2_STDERR):
                    output += data
                elif kind == _V2_EXIT:
                    code = data[0] if data else 0
                    break
        except CerebellumError as exc:
            raise _Fallback from exc
        finally:
            link.close()
        if code != 0:
            raise self._refused(args, code, bytes(output))
        return bytes(output)


class InProcessAdbController(SocketAdbController):
    """:class:`SocketAdbController` for a device served in this process: ``shell``,
    ``exec-out``, ``push`` and ``pull`` go to the served device's own shell and files
    (``run_in_process``, ``push_in_process``, ``pull_in_process`` of the simulator's
    :class:`~cerebellum_gym.sim.adbd.AdbdServer`) instead of through the adb server's socket and
    the device's transport, with the answers the socket path reads: the same command line
    (the arguments joined with spaces), stdout then stderr, a non-zero status raising
    android_env's ``AdbControllerError`` at once, the sync client's ``adb: error: ...`` line for a
    file the device refuses. Everything else (``adb emu``, ``connect``, ``root``, options before
    a command) goes as :class:`SocketAdbController` sends it.

    A served device that stopped answers nothing here: its commands go to the adb server as
    :class:`SocketAdbController` sends them (and fail there, as for a device that is gone).

    Args:
        config: android_env's controller config.
        served: the device served in this process.
    """

    def __init__(self, config: Any, served: Any) -> None:
        super().__init__(config)
        self.served = served

    def _answering(self) -> None:
        if getattr(self.served, "stopping", False):
            raise _Fallback

    def _over_socket(self, args: list[str], timeout: float) -> bytes:
        command = " ".join(args[1:])
        if not command.strip() or getattr(self.served, "stopping", False):
            return super()._over_socket(args, timeout)
        result = self.served.run_in_process(command)
        output = result.stdout + result.stderr if result.stderr else result.stdout
        if args[0] == "exec-out":
            return bytes(output)  # one byte stream: the exit status is lost, as with adb exec-out
        if result.code != 0:
            raise self._refused(args, result.code, bytes(output))
        return bytes(output)

    def push_bytes(self, data: bytes, remote: str, local: str) -> None:
        """``adb push`` of ``data`` (read from ``local``) to ``remote``.

        Raises:
            AdbControllerError: the device refused the file (as the socket path raises it).
        """
        self._answering()
        try:
            self.served.push_in_process(remote, data)
        except CerebellumError as exc:
            raise self._refused(["push", local, remote], 1, f"adb: error: failed to copy '{local}': {exc}\n".encode()) from None

    def pull_bytes(self, remote: str, local: str) -> bytes:
        """``adb pull`` of ``remote`` (to ``local``): its bytes.

        Raises:
            AdbControllerError: the device has no such file (as the socket path raises it).
        """
        self._answering()
        pulled = self.served.pull_in_process(remote)
        if pulled is None:
            said = f"adb: error: failed to stat remote object '{remote}': No such file or directory\n"
            raise self._refused(["pull", remote, local], 1, said.encode())
        return bytes(pulled)

    def _sync_over_socket(self, args: list[str], timeout: float) -> bytes:
        if args[0] == "push":
            local, remote = args[1], args[2]
            try:
                with open(local, "rb") as source:
                    data = source.read()
            except OSError:
                raise _Fallback from None  # the binary says what is wrong with the local file
            self.push_bytes(data, remote, local)
            return f"{local}: 1 file pushed, 0 skipped.\n".encode()
        remote, local = args[1], args[2]
        pulled = self.pull_bytes(remote, local)
        return _pulled_to(local, remote, bytes(pulled))


class LazyPixels(FetchedOnRead[np.ndarray]):
    """A screenshot taken when it is first read, not when the timestep is made.

    AndroidWorld takes a state (pixels and UI elements) before every action and in several
    judges, but reads only its UI elements there; on the served simulator a screenshot costs a
    render, a PNG round trip through adb and a decode. ``np.asarray(pixels)``, indexing,
    ``shape`` and any ndarray attribute take it (once; later reads reuse it). Read it before the
    next input if it must show the same moment as the UI elements.
    """

    @property
    def taken(self) -> bool:
        """Whether the screenshot was taken already."""
        return self.fetched

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        array = self.materialize()
        if dtype is not None and np.dtype(dtype) != array.dtype:
            return array.astype(dtype)
        return array.copy() if copy else array

    def __getitem__(self, key: Any) -> Any:
        return self.materialize()[key]

    def __len__(self) -> int:
        return len(self.materialize())

    def __repr__(self) -> str:
        return f"LazyPixels(taken={self.taken})"


class AdbAndroidEnv(env_interface.AndroidEnvInterface):
    """An ``AndroidEnvInterface`` over one ADB device: adb calls through android_env's
    ``AdbCallParser``, pixels from ``screencap``.

    Args:
        serial: the device's adb serial (``127.0.0.1:6520``, ``emulator-5554``, ...).
        adb_path: the adb binary (a full path, as android_env requires).
        adb_env: environment variables for the adb client (for example a private server's
            ``ANDROID_ADB_SERVER_PORT`` and ``HOME``); the process environment otherwise.
        timeout: default seconds per adb command.
        adb_client: ``"socket"`` (default): ``shell`` and ``exec-out`` commands go to the adb
            server over its protocol (:class:`SocketAdbController`); ``"binary"``: every command
            starts the adb binary, as android_env's own controller does; ``"in_process"``: to
            ``served``, a device served in this process (:class:`InProcessAdbController`).
        served: the device served in this process, for ``adb_client="in_process"``.
        lazy_pixels: each timestep's pixels are a :class:`LazyPixels`, taken when first read
            (default); ``False`` takes every screenshot when the timestep is made.
        screencap_format: ``"raw"`` (``screencap``: the framebuffer as is, no encoding on the
            device nor decoding here, about 10 MB a frame), ``"png"`` (``screencap -p``), or
            ``"auto"`` (default): raw where the bytes stay on this machine (an emulator's serial
            or a loopback ``host:port``), as :func:`~cerebellum_gym.devices.adb.device.auto_screencap_format`
            decides for the ADB backend.
    """

    def __init__(
        self,
        serial: str,
        adb_path: str,
        *,
        adb_env: Mapping[str, str] | None = None,
        timeout: float = 30.0,
        adb_client: AdbClient = "socket",
        lazy_pixels: bool = True,
        screencap_format: Literal["auto", "raw", "png"] = "auto",
        served: Any = None,
    ) -> None:
        if adb_client not in ("socket", "binary", "in_process"):
            raise ValueError(f"adb_client must be 'socket', 'binary' or 'in_process', got {adb_client!r}")
        if adb_client == "in_process" and served is None:
            raise ValueError("adb_client='in_process' needs the device served in this process (served)")
        if screencap_format not in ("auto", "raw", "png"):
            raise ValueError(f"screencap_format must be 'auto', 'raw' or 'png', got {screencap_format!r}")
        if screencap_format == "auto":
            from cerebellum_gym.devices.adb.device import auto_screencap_format

            screencap_format = auto_screencap_format(serial)
        self.screencap_format = screencap_format
        config = config_classes.AdbControllerConfig(
            adb_path=adb_path,
            device_name=serial,
            default_timeout=timeout,
            # The server port comes from the environment: with False, android_env would unset
            # ANDROID_ADB_SERVER_PORT in this whole process.
            use_adb_server_port_from_os_env=True,
        )
        self.serial = serial
        self.lazy_pixels = lazy_pixels
        if adb_client == "in_process":
            self.adb: adb_controller.AdbController = InProcessAdbController(config, served)
        else:
            self.adb = (SocketAdbController if adb_client == "socket" else adb_controller.AdbController)(config)
        if adb_env is not None:
            # AdbController runs adb with the environment it copied at construction.
            self.adb._os_env_vars.update(adb_env)
        self.parser = adb_call_parser.AdbCallParser(self.adb)
        self._latest: dm_env.TimeStep | None = None

    # --- dm_env ------------------------------------------------------------------------------

    def action_spec(self) -> dict[str, specs.Array]:
        return {
            "action_type": specs.DiscreteArray(num_values=3, name="action_type"),
            "touch_position": specs.BoundedArray((2,), np.float32, 0.0, 1.0, name="touch_position"),
        }

    def observation_spec(self) -> dict[str, specs.Array]:
        return {"pixels": specs.Array((-1, -1, 3), np.uint8, name="pixels")}

    def reset(self) -> dm_env.TimeStep:
        self._latest = dm_env.restart(self._observation())
        return self._latest

    def step(self, action: Any) -> dm_env.TimeStep:
        # AndroidWorld steps only with a no-op (LIFT) to read the screen; it acts through adb.
        self._latest = dm_env.transition(0.0, self._observation())
        return self._latest

    def close(self) -> None:
        self._latest = None

    @property
    def raw_observation(self) -> Any:
        return None if self._latest is None else self._latest.observation

    # --- adb ---------------------------------------------------------------------------------

    def execute_adb_call(self, call: Any) -> Any:
        if isinstance(self.adb, InProcessAdbController):
            with contextlib.suppress(_Fallback):  # a stopped device: the parser's way, which fails there
                answered = self._in_process_sync(call)
                if answered is not None:
                    return answered
        try:
            return self.parser.parse(call)
        except errors.AdbControllerError:
            # AdbController restarts the adb server between its two tries, which forgets
            # devices reached over the network: connect again so the next call can succeed.
            self.reconnect()
            raise

    def _in_process_sync(self, call: Any) -> Any:
        """A push or pull request answered as android_env's parser answers it, without the
        temporary file it passes the bytes through (``None``: the parser's to answer)."""
        kind = call.WhichOneof("command")
        if kind not in ("push", "pull") or call.timeout_sec < 0:
            return None
        adb = cast(InProcessAdbController, self.adb)
        if kind == "push" and call.push.path:
            adb.push_bytes(bytes(call.push.content), call.push.path, "<content>")
            return adb_pb2.AdbResponse(status=adb_pb2.AdbResponse.Status.OK)
        if kind == "pull" and call.pull.path:
            response = adb_pb2.AdbResponse(status=adb_pb2.AdbResponse.Status.OK)
            response.pull.content = adb.pull_bytes(call.pull.path, "<content>")
            return response
        return None

    def reconnect(self) -> None:
        """``adb connect`` the device again (network serials only; harmless when connected)."""
        if ":" in self.serial:
            with contextlib.suppress(errors.AdbControllerError):  # still gone: the next call says so
                self.adb.execute_command(["connect", self.serial], timeout=10.0, device_specific=False)

    def screenshot(self) -> np.ndarray:
        """The screen now, as RGB (``adb exec-out screencap``, raw or ``-p``)."""
        if self.screencap_format == "raw":
            from cerebellum_gym.devices.adb.frames import parse_raw_screencap

            return parse_raw_screencap(self.adb.execute_command(["exec-out", "screencap"])).rgb()
        png = self.adb.execute_command(["exec-out", "screencap", "-p"])
        from PIL import Image

        with Image.open(io.BytesIO(png)) as image:
            return np.asarray(image.convert("RGB"))

    def _observation(self) -> dict[str, Any]:
        pixels: Any = LazyPixels(self.screenshot) if self.lazy_pixels else self.screenshot()
        return {"pixels": pixels, "orientation": np.zeros(4, np.uint8), "timedelta": np.int64(0)}


def load_adb_env(
    serial: str,
    *,
    adb_path: str | None = None,
    adb_env: Mapping[str, str] | None = None,
    freeze_datetime: bool = True,
    timeout: float = 30.0,
    adb_client: AdbClient = "socket",
    lazy_pixels: bool = True,
    screencap_format: Literal["auto", "raw", "png"] = "auto",
    clock: SimulatedTime | None = None,
    served: Any = None,
) -> Any:
    """AndroidWorld's ``AsyncAndroidEnv`` on the ADB device ``serial``, set up as
    ``env_launcher.load_and_setup_env`` sets up an emulator (no app installation).

    Args:
        serial: the device's adb serial.
        adb_path: the adb binary; defaults to cerebellum's (``$ADB``, ``PATH``, adbutils' wheel).
        adb_env: environment variables for the adb client (a private server's).
        freeze_datetime: freeze the clock as AndroidWorld's benchmark does.
        timeout: default seconds per adb command.
        adb_client: how adb commands reach the server (:class:`AdbAndroidEnv`).
        lazy_pixels: take each state's screenshot when it is first read (:class:`LazyPixels`).
        screencap_format: ``"auto"``, ``"raw"`` or ``"png"`` (:class:`AdbAndroidEnv`).
        clock: the device's simulated clock, when it has one (the embedded simulator's): the
            set-up's sleeps advance it instead of the host's.
        served: the device served in this process, for ``adb_client="in_process"``.

    Raises:
        CerebellumError: AndroidWorld is not importable.
        InfraError: the device did not answer.
    """
    if adb_path is None:
        from cerebellum_gym.devices.adb.client import adb_binary

        adb_path = adb_binary()
    controller_mod = import_android_world("env.android_world_controller")
    interface = import_android_world("env.interface")
    launcher = import_android_world("env.env_launcher")
    shim = AdbAndroidEnv(
        serial,
        adb_path,
        adb_env=adb_env,
        timeout=timeout,
        adb_client=adb_client,
        lazy_pixels=lazy_pixels,
        screencap_format=screencap_format,
        served=served,
    )
    with guarded(f"setting up AndroidWorld on {serial}"), contextlib.nullcontext() if clock is None else clock.scope():
        # The UI through uiautomator; on the served simulator, its forwarder's forest too.
        controller = make_controller(controller_mod, shim)
        env = interface.AsyncAndroidEnv(controller)
        launcher.setup_env(env, emulator_setup=False, freeze_datetime=freeze_datetime)
    return env


__all__ = ["AdbAndroidEnv", "InProcessAdbController", "LazyPixels", "SocketAdbController", "load_adb_env"]
