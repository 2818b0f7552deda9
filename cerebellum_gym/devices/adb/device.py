"""``AdbDevice``: any Android device over ADB (a phone, an emulator, or the served simulator).

It talks to the adb server through this package's own smart-socket client
(:mod:`cerebellum_gym.devices.adb.client`), so that every call has a hard deadline: a device
that stops answering raises :class:`~cerebellum_gym.errors.DeviceTimeoutError` within
``timeout`` seconds, a dropped one :class:`~cerebellum_gym.errors.DeviceLostError`, and one that
answers nonsense :class:`~cerebellum_gym.errors.DeviceProtocolError`. Nothing hangs. After such a
fault the next call (normally the env's reset) reconnects first. (adbutils only supplies the
``adb`` binary when none is on ``PATH``.)

Typed text is untrusted input. It reaches the device as data, never as shell syntax:

- printable ASCII goes through ``input text`` as one single-quoted argument; spaces become
  ``%s`` (the ``input`` command's space), and a literal ``%`` followed by ``s`` is split across
  two ``input text`` calls, because ``input`` has no escape for a literal ``%s``;
- anything else (non-ASCII, newlines, control characters) goes through the ADB keyboard
  (`ADBKeyBoard <https://github.com/senzhk/ADBKeyBoard>`_) as base64 in
  ``am broadcast -a ADB_INPUT_B64 --es msg <base64>``, whose alphabet needs no quoting at all.
  When that IME is not the device's current input method, :meth:`AdbDevice.type_text` raises
  :class:`~cerebellum_gym.errors.UnsupportedOperationError` instead of typing part of the text.

Screenshots come as PNG or as the raw framebuffer (:mod:`cerebellum_gym.devices.adb.frames`);
``screencap_format="auto"`` takes raw where the bytes stay on the machine (an emulator, a
loopback serial) and PNG over USB or Wi-Fi. When the env asks for a screenshot and then the UI
tree, the tree is fetched on a second connection while the screenshot transfers, and any call
that may change the device discards it.

Example (needs a device; see ``docs/adb.md``)::

    import gymnasium as gym, cerebellum_gym
    env = gym.make("Cerebellum-Adb-v0", task="SystemWifiTurnOn", device_options={"serial": "127.0.0.1:6520"})
"""

from __future__ import annotations

import base64
import contextlib
import io
import os
import re
import shlex
import socket
import struct
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Final, Literal

import numpy as np

from cerebellum_gym.core.tree import UINode, parse_uiautomator_xml
from cerebellum_gym.devices.adb.client import MAX_OUTPUT, Deadline, Link, adb_binary, looks_like_address
from cerebellum_gym.devices.adb.frames import (
    PIXEL_FORMAT_RGBA_8888,
    PIXEL_FORMAT_RGBX_8888,
    PipelinedScale,
    UnreadablePixelFormatError,
    parse_raw_screencap,
    scale_image,
)
from cerebellum_gym.devices.android import ADB_KEYBOARD_IME, ADB_KEYBOARD_PACKAGE, SIM_PRODUCT, SIM_RESET_COMMAND
from cerebellum_gym.devices.base import KEYCODE_HOME
from cerebellum_gym.devices.shell import ShellDevice, ShellOutput, input_text_lines, is_printable_ascii, utf8_pieces
from cerebellum_gym.errors import (
    CerebellumError,
    DeviceLostError,
    DeviceProtocolError,
    DeviceTimeoutError,
    InfraError,
    InvalidActionError,
    UnsupportedOperationError,
)

DUMP_PATH: Final = "/data/local/tmp/cerebellum_window_dump.xml"
#: The longest shell command line typing sends in one request: far under the adb server's
#: 65,535-byte request limit (and the 256 KB a device since Android 7 accepts in one OPEN).
MAX_COMMAND_BYTES: Final = 16 * 1024
#: Packages a reset never force-stops: the system UI, the framework and input methods.
PROTECTED_PACKAGES: Final = frozenset({"android", "com.android.systemui", ADB_KEYBOARD_PACKAGE, "com.android.phone"})
TextInput = Literal["auto", "input", "adbkeyboard"]
ScreencapFormat = Literal["auto", "raw", "png"]
_EMULATOR_SERIAL_RE: Final = re.compile(r"emulator-\d+")
_FOCUS_RE: Final = re.compile(r"mCurrentFocus=Window\{\S+ \S+ ([^/\s}]+)")
_FOCUSED_APP_RE: Final = re.compile(r"(?:mFocusedApp|mResumedActivity)[=:].*?ActivityRecord\{\S+ \S+ ([^/\s}]+)")
_SIZE_RE: Final = re.compile(r"(Physical|Override) size: (\d+)x(\d+)")


class _TreePrefetch:
    """A UI tree fetched on a background thread while a screenshot transfers."""

    def __init__(self, device: AdbDevice, epoch: int) -> None:
        self.epoch = epoch
        self.root: UINode | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(device,), name=f"adb-tree-prefetch-{device.serial}", daemon=True)

    def _run(self, device: AdbDevice) -> None:
        try:
            self.root = device._fetch_tree()
        except BaseException as exc:  # handed to the caller that claims the tree
            self.error = exc


def auto_screencap_format(serial: str, adb_host: str = "127.0.0.1") -> Literal["raw", "png"]:
    """What ``screencap_format="auto"`` picks: raw where the frame's bytes never leave this
    machine (a local adb server, and an emulator's serial or a loopback ``host:port``), PNG where
    they cross USB or a network, whose bandwidth makes 10 MB frames slower than encoding them.

    Example:
        >>> [auto_screencap_format(s) for s in ("emulator-5554", "127.0.0.1:6520", "R58M12ABCDE", "192.168.1.7:5555")]
        ['raw', 'raw', 'png', 'png']
    """
    if adb_host not in ("127.0.0.1", "localhost", "::1"):
        return "png"
    if _EMULATOR_SERIAL_RE.fullmatch(serial):
        return "raw"
    if not looks_like_address(serial):
        return "png"
    host = serial.rpartition(":")[0].strip("[]")
    return "raw" if host == "localhost" or host.startswith("127.") or host == "::1" else "png"


class AdbDevice(ShellDevice):
    """A device reached through an adb server.

    Args:
        serial: the device's serial as ``adb devices`` lists it, or ``host:port`` of a device to
            ``adb connect`` to (the served simulator, an emulator or phone in TCP mode). ``None``
            picks the only device attached.
        adb_host: the adb server's host (default ``$ANDROID_ADB_SERVER_HOST`` or 127.0.0.1).
        adb_port: the adb server's port (default ``$ANDROID_ADB_SERVER_PORT`` or 5037). The
            server is started with the ``adb`` binary (``PATH``, or the one in adbutils' wheel)
            when nothing listens there.
        timeout: seconds any one call may take (the connect and each command).
        wait_timeout_margin: extra seconds allowed on top of a ``wait``'s own duration.
        text_input: ``"auto"`` (``input text`` for printable ASCII, the ADB keyboard otherwise),
            ``"input"`` (never the ADB keyboard: other text raises), ``"adbkeyboard"`` (always).
        reset_packages: packages to force-stop on every reset, besides those seen on screen.
        reconnect_timeout: seconds to wait for a lost device to come back.
        reset_command: a shell command that restores the device's start state on every reset
            (for example one that loads an emulator snapshot). ``"auto"`` uses
            ``cerebellum-sim factory-reset`` on the served simulator and nothing elsewhere.
        screencap_format: ``"raw"`` (``screencap``: the framebuffer as is, about 10 MB at
            1080x2400, nothing to encode on the device or decode here), ``"png"``
            (``screencap -p``: about 100 KB-1 MB, but the device encodes and the host decodes),
            or ``"auto"``: raw when the bytes stay on this machine (a local adb server and an
            emulator or loopback serial), PNG otherwise (USB, Wi-Fi). ``auto`` falls back to PNG
            for good if the device's raw frames are in a pixel format this backend cannot read.
        prefetch_tree: when a screenshot is taken, fetch the UI tree at the same time on a
            second connection and hand it to the next :meth:`ui_tree` call, unless anything
            that may change the device ran in between (then it is dropped and fetched afresh).
            Prefetching pauses by itself while screenshots are not followed by tree reads.
    """

    backend = "adb"

    def __init__(
        self,
        serial: str | None = None,
        *,
        adb_host: str | None = None,
        adb_port: int | None = None,
        timeout: float = 10.0,
        wait_timeout_margin: float = 5.0,
        text_input: TextInput = "auto",
        reset_packages: Iterable[str] = (),
        reconnect_timeout: float | None = None,
        reset_command: str | None = "auto",
        screencap_format: ScreencapFormat = "auto",
        prefetch_tree: bool = True,
    ) -> None:
        if text_input not in ("auto", "input", "adbkeyboard"):
            raise ValueError(f"text_input must be 'auto', 'input' or 'adbkeyboard', got {text_input!r}")
        if screencap_format not in ("auto", "raw", "png"):
            raise ValueError(f"screencap_format must be 'auto', 'raw' or 'png', got {screencap_format!r}")
        if timeout <= 0:
            raise ValueError(f"timeout must be positive, got {timeout}")
        self.adb_host = adb_host or os.environ.get("ANDROID_ADB_SERVER_HOST", "127.0.0.1")
        self.adb_port = int(adb_port or os.environ.get("ANDROID_ADB_SERVER_PORT") or 5037)
        self.timeout = float(timeout)
        self.wait_timeout_margin = float(wait_timeout_margin)
        self.reconnect_timeout = float(reconnect_timeout if reconnect_timeout is not None else max(timeout, 5.0))
        self.text_input: TextInput = text_input
        self.reset_packages = tuple(reset_packages)
        self._seen_packages: set[str] = set()
        self._launcher: str | None = None
        self._adb_keyboard: bool | None = None
        self._features: set[str] = set()
        self._needs_recovery = False
        self._closed = False
        self._size: tuple[int, int] | None = None
        self.screencap_format: ScreencapFormat = screencap_format
        self.prefetch_tree = bool(prefetch_tree)
        self._raw_unreadable = False  # auto mode met a raw pixel format it cannot read
        self._frame_pixels = 0  # pixels of the largest display size `wm size` printed
        self._raw_geometry: tuple[int, int, int] | None = None  # (header, w, h) of the last RGBA/RGBX frame
        # Bumped by every call that may change the device; a prefetched tree from an older
        # epoch is stale.
        self._epoch = 0
        self._prefetch: _TreePrefetch | None = None
        self._tree_follows_shot = True  # the env reads the tree right after each screenshot
        self._recover_lock = threading.Lock()
        self.address = serial if serial is not None and looks_like_address(serial) else None
        self._ensure_server()
        if serial is None:
            serial = self._only_device()
        self.serial = serial
        if self.address is not None:
            self._connect()
        self._features = set(self._host_query("features").split(","))
        self._size = self._read_size()
        if reset_command == "auto":
            product = self.shell(["getprop", "ro.product.name"], readonly=True).text.strip()
            reset_command = SIM_RESET_COMMAND if product == SIM_PRODUCT else None
        self.reset_command = reset_command

    # --- adb server plumbing -----------------------------------------------------------------

    def _socket(self, deadline: Deadline) -> socket.socket:
        try:
            return socket.create_connection((self.adb_host, self.adb_port), timeout=deadline.remaining())
        except TimeoutError:
            raise DeviceTimeoutError(f"{deadline.what}: adb server at {self.adb_host}:{self.adb_port} did not accept in time") from None
        except OSError as exc:
            raise DeviceLostError(f"{deadline.what}: adb server at {self.adb_host}:{self.adb_port} unreachable: {exc}") from exc

    def _ensure_server(self) -> None:
        try:
            socket.create_connection((self.adb_host, self.adb_port), timeout=1.0).close()
            return
        except OSError:
            pass
        if self.adb_host not in ("127.0.0.1", "localhost", "::1"):
            raise DeviceLostError(f"no adb server at {self.adb_host}:{self.adb_port}")
        adb = adb_binary()
        try:
            subprocess.run([adb, "-P", str(self.adb_port), "start-server"], capture_output=True, timeout=30, check=True)
        except (OSError, subprocess.SubprocessError) as exc:
            raise DeviceLostError(f"could not start the adb server ({adb} -P {self.adb_port} start-server): {exc}") from exc

    def _host_query(self, request: str, timeout: float | None = None) -> str:
        """``host-serial:SERIAL:request`` (or ``host:request``), answered with a string block."""
        deadline = Deadline(timeout or self.timeout, f"adb {request}")
        link = Link(self._socket(deadline), deadline)
        try:
            link.request(f"host-serial:{self.serial}:{request}" if not request.startswith("host:") else request)
            length = int(link.read_exact(4), 16)
            return link.read_exact(length).decode("utf-8", "replace")
        except ValueError as exc:
            raise DeviceProtocolError(f"adb {request}: bad length field") from exc
        finally:
            link.close()

    def _only_device(self) -> str:
        listing = self._host_query("host:devices")
        serials = [line.split("\t")[0] for line in listing.splitlines() if line.endswith("\tdevice")]
        if len(serials) != 1:
            raise DeviceLostError(f"pass a serial: {len(serials)} devices are attached ({', '.join(serials) or 'none'})")
        return serials[0]

    def _connect(self) -> None:
        assert self.address is not None
        end = time.monotonic() + self.reconnect_timeout
        while True:
            answer = self._host_query(f"host:connect:{self.address}")
            if "connected to" not in answer:
                raise DeviceLostError(f"adb connect {self.address}: {answer.strip()}")
            try:
                # The server may still be tearing down the old transport: connect again if so.
                self._wait_online(max(0.1, min(1.0, end - time.monotonic())))
                return
            except DeviceLostError:
                if time.monotonic() >= end:
                    raise

    def _wait_online(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        state = ""
        while time.monotonic() < end:
            try:
                state = self._host_query("get-state", timeout=max(0.5, min(self.timeout, end - time.monotonic())))
            except InfraError as exc:
                state = str(exc)
            if state.strip() == "device":
                return
            time.sleep(0.05)
        raise DeviceLostError(f"device {self.serial} not online after {seconds:g} s (last state: {state.strip()!r})")

    def _recover(self) -> None:
        """Bring a device back after a fault: reconnect TCP devices, wait for USB ones."""
        prefetch = self._prefetch
        if prefetch is not None and threading.current_thread() is prefetch.thread:
            # Only the caller's thread reconnects; the prefetch reports and lets it.
            raise DeviceLostError(f"device {self.serial} needs reconnecting")
        self._discard_prefetch()
        with self._recover_lock:
            if not self._needs_recovery:
                return
            if self.address is not None:
                with contextlib.suppress(InfraError):  # already gone is fine
                    self._host_query(f"host:disconnect:{self.address}")
                self._connect()
            else:
                self._wait_online(self.reconnect_timeout)
            self._needs_recovery = False

    def _open(self, service: str, deadline: Deadline) -> Link:
        if self._closed:
            raise DeviceLostError(f"device {self.serial} is closed")
        if self._needs_recovery:
            self._recover()
        link = Link(self._socket(deadline), deadline)
        try:
            link.request(f"host:transport:{self.serial}")
            link.request(service)
        except BaseException:
            link.close()
            raise
        return link

    def _guard(self, exc: InfraError) -> InfraError:
        if isinstance(exc, DeviceLostError | DeviceTimeoutError):
            self._needs_recovery = True
        return exc

    # --- shell -------------------------------------------------------------------------------

    def shell(
        self, command: str | Sequence[str], *, timeout: float | None = None, check: bool = True, readonly: bool = False
    ) -> ShellOutput:
        """Run a shell command on the device, with its exit code.

        ``command`` as a sequence is quoted argument by argument; as a string it is passed to
        the device's shell as is (only for trusted, constant command lines).

        Args:
            command: the command line.
            timeout: seconds it may take (default: the device's ``timeout``).
            check: raise if it exits non-zero.
            readonly: a promise that the command changes nothing on the device, so a UI tree
                prefetched before it stays valid. Any other command discards that tree.

        Raises:
            DeviceProtocolError: ``check`` and the command exited non-zero.
        """
        if not readonly:
            self._touch()
        line = command if isinstance(command, str) else shlex.join(command)
        deadline = Deadline(timeout or self.timeout, f"adb shell {line[:60]!r}")
        try:
            if "shell_v2" in self._features:
                out = self._shell_v2(line, deadline)
            else:
                link = self._open(f"shell:{line}", deadline)
                try:
                    out = ShellOutput(link.read_all(), b"", 0)
                finally:
                    link.close()
        except InfraError as exc:
            raise self._guard(exc) from exc
        if check and out.code != 0:
            detail = (out.stderr or out.stdout).decode("utf-8", "replace").strip()
            raise DeviceProtocolError(f"adb shell {line[:80]!r} exited {out.code}: {detail[:300]}")
        return out

    def _shell_v2(self, line: str, deadline: Deadline) -> ShellOutput:
        link = self._open(f"shell,v2,raw:{line}", deadline)
        stdout, stderr = bytearray(), bytearray()
        try:
            while True:
                header = link.read_exact(5)
                kind, length = header[0], struct.unpack("<I", header[1:])[0]
                if length > MAX_OUTPUT:
                    raise DeviceProtocolError(f"{deadline.what}: shell packet of {length} bytes")
                data = link.read_exact(length)
                if kind == 1:
                    stdout += data
                elif kind == 2:
                    stderr += data
                elif kind == 3:
                    return ShellOutput(bytes(stdout), bytes(stderr), data[0] if data else 255)
                elif kind not in (0, 4, 5):
                    raise DeviceProtocolError(f"{deadline.what}: unknown shell packet id {kind}")
        finally:
            link.close()

    def exec_out(self, command: Sequence[str], *, timeout: float | None = None, readonly: bool = False) -> bytes:
        """Raw stdout of a command (binary-safe; ``exec:`` where shell v2 is missing).

        ``readonly`` as for :meth:`shell`.
        """
        if "shell_v2" in self._features:
            return self.shell(command, timeout=timeout, readonly=readonly).stdout
        if not readonly:
            self._touch()
        deadline = Deadline(timeout or self.timeout, f"adb exec-out {shlex.join(command)[:60]!r}")
        try:
            link = self._open(f"exec:{shlex.join(command)}", deadline)
            try:
                return link.read_all()
            finally:
                link.close()
        except InfraError as exc:
            raise self._guard(exc) from exc

    def exec_raw(
        self,
        command: Sequence[str],
        buf: bytearray,
        *,
        progress: Callable[[int], None] | None = None,
        timeout: float | None = None,
        readonly: bool = False,
    ) -> int:
        """Run a command over ``exec:`` (``adb exec-out``: no pty, no shell-protocol framing) and
        receive its output straight into ``buf``; the byte count. For large binary output.

        ``progress(n)`` is called as bytes arrive; ``readonly`` as for :meth:`shell`.

        Raises:
            DeviceProtocolError: the output did not fit in ``buf``.
        """
        if not readonly:
            self._touch()
        line = shlex.join(command)
        deadline = Deadline(timeout or self.timeout, f"adb exec-out {line[:60]!r}")
        try:
            link = self._open(f"exec:{line}", deadline)
            try:
                return link.read_into(buf, progress)
            finally:
                link.close()
        except InfraError as exc:
            raise self._guard(exc) from exc

    # --- sync --------------------------------------------------------------------------------

    def _sync(self, request: bytes, path: str, deadline: Deadline) -> Link:
        link = self._open("sync:", deadline)
        encoded = path.encode("utf-8")
        link.send(request + struct.pack("<I", len(encoded)) + encoded)
        return link

    def pull(self, path: str, *, timeout: float | None = None) -> bytes:
        """A file's bytes over the sync protocol (RECV).

        Raises:
            FileNotFoundError: the device says there is no such file.
        """
        deadline = Deadline(timeout or self.timeout, f"adb pull {path!r}")
        try:
            link = self._sync(b"RECV", path, deadline)
            try:
                out = bytearray()
                while True:
                    ident = link.read_exact(4)
                    length = struct.unpack("<I", link.read_exact(4))[0]
                    if ident == b"DATA":
                        if length > 1 << 20:
                            raise DeviceProtocolError(f"{deadline.what}: sync chunk of {length} bytes")
                        out += link.read_exact(length)
                    elif ident == b"DONE":
                        return bytes(out)
                    elif ident == b"FAIL":
                        message = link.read_exact(min(length, 4096)).decode("utf-8", "replace")
                        if "No such file" in message or "not found" in message.lower():
                            raise FileNotFoundError(path)
                        raise DeviceProtocolError(f"{deadline.what}: {message}")
                    else:
                        raise DeviceProtocolError(f"{deadline.what}: unexpected sync reply {ident!r}")
            finally:
                link.close()
        except InfraError as exc:
            raise self._guard(exc) from exc

    def push(self, path: str, data: bytes, mode: int = 0o644, *, timeout: float | None = None) -> None:
        """Write a file over the sync protocol (SEND)."""
        self._touch()
        deadline = Deadline(timeout or self.timeout, f"adb push {path!r}")
        try:
            link = self._sync(b"SEND", f"{path},{0o100000 | mode}", deadline)
            try:
                for i in range(0, len(data), 64 * 1024):
                    chunk = data[i : i + 64 * 1024]
                    link.send(b"DATA" + struct.pack("<I", len(chunk)) + chunk)
                link.send(b"DONE" + struct.pack("<I", int(time.time())))
                ident = link.read_exact(4)
                length = struct.unpack("<I", link.read_exact(4))[0]
                if ident != b"OKAY":
                    message = link.read_exact(min(length, 4096)).decode("utf-8", "replace") if ident == b"FAIL" else repr(ident)
                    raise DeviceProtocolError(f"{deadline.what}: {message}")
            finally:
                link.close()
        except InfraError as exc:
            raise self._guard(exc) from exc

    # --- screen ------------------------------------------------------------------------------

    def _read_size(self) -> tuple[int, int]:
        text = self.shell(["wm", "size"], readonly=True).text
        sizes = {kind: (int(w), int(h)) for kind, w, h in _SIZE_RE.findall(text)}
        size = sizes.get("Override") or sizes.get("Physical")
        if size is None:
            raise DeviceProtocolError(f"cannot read the screen size from `wm size`: {text[:200]!r}")
        # screencap captures the physical display, which an override size does not shrink.
        self._frame_pixels = max(w * h for w, h in sizes.values())
        return size

    @property
    def screen_size(self) -> tuple[int, int]:
        if self._size is None:
            self._size = self._read_size()
        return self._size

    @property
    def screencap_mode(self) -> Literal["raw", "png"]:
        """The format screenshots are taken in now (``screencap_format`` with ``auto`` resolved)."""
        if self.screencap_format == "auto":
            return "png" if self._raw_unreadable else auto_screencap_format(self.serial, self.adb_host)
        return self.screencap_format

    def screenshot(self, width: int | None = None) -> np.ndarray:
        if width is not None and int(width) <= 0:
            raise ValueError(f"screenshot width must be positive, got {width}")
        self._start_prefetch()
        if self.screencap_mode == "raw":
            try:
                return self._screenshot_raw(width)
            except UnreadablePixelFormatError:
                if self.screencap_format != "auto":
                    raise
                self._raw_unreadable = True  # a real frame in a format we do not convert: PNG from now on
        return self._screenshot_png(width)

    def _screenshot_raw(self, width: int | None) -> np.ndarray:
        dev_w, dev_h = self.screen_size
        # Room for any supported frame of the display (RGBA after a 16-byte header); a larger
        # answer is an error, not a reason to grow.
        buf = bytearray(max(self._frame_pixels, dev_w * dev_h) * 4 + 16)
        pipeline = None
        last = self._raw_geometry
        if width is not None and last is not None and int(width) < last[1]:
            # Scale while the frame arrives, assuming the last frame's header and size;
            # finish() says whether that held, and the frame is scaled afresh if not.
            pipeline = PipelinedScale(buf, *last, int(width))
        total: int | None = None
        try:
            total = self.exec_raw(["screencap"], buf, progress=pipeline.feed if pipeline else None, readonly=True)
        finally:
            scaled = pipeline.finish(total) if pipeline is not None else None
        frame = parse_raw_screencap(memoryview(buf)[:total])
        geometry = (frame.header_size, frame.width, frame.height)
        four_bytes = frame.pixel_format in (PIXEL_FORMAT_RGBA_8888, PIXEL_FORMAT_RGBX_8888)
        self._raw_geometry = geometry if four_bytes else None
        if scaled is not None and four_bytes and geometry == last:
            return scaled
        if width is None or int(width) == frame.width:
            return frame.rgb()
        return scale_image(frame.image(), width)

    def _screenshot_png(self, width: int | None) -> np.ndarray:
        from PIL import Image, UnidentifiedImageError

        data = self.exec_out(["screencap", "-p"], readonly=True)
        try:
            opened = Image.open(io.BytesIO(data))
            opened.load()
            image: Image.Image = opened
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
            raise DeviceProtocolError(f"screencap -p returned no PNG ({len(data)} bytes: {data[:16]!r}): {exc}") from exc
        if image.mode not in ("RGB", "RGBA", "RGBX"):
            image = image.convert("RGB")
        return scale_image(image, width)

    def ui_tree(self) -> UINode:
        pending, self._prefetch = self._prefetch, None
        root: UINode | None = None
        if pending is not None:
            pending.thread.join()  # bounded: each of its calls has a deadline
            # Every call that may change the device discards the prefetch first; the epoch
            # check is the second lock on that door.
            if pending.epoch == self._epoch:
                if pending.error is not None:
                    raise pending.error
                root = pending.root
        self._tree_follows_shot = True  # (again) worth prefetching with the next screenshot
        if root is None:
            root = self._fetch_tree()
        self._seen_packages.update(n.package for n in root.iter() if n.package)
        return root

    def _fetch_tree(self) -> UINode:
        """``uiautomator dump`` to a file, pulled over sync and parsed."""
        out = self.shell(["uiautomator", "dump", DUMP_PATH], check=False, readonly=True)
        if out.code != 0 or "dumped to" not in out.text:
            raise DeviceProtocolError(f"uiautomator dump failed (exit {out.code}): {(out.stderr or out.stdout)[:300]!r}")
        try:
            xml = self.pull(DUMP_PATH)
        except FileNotFoundError:
            raise DeviceProtocolError(f"uiautomator dump left no file at {DUMP_PATH}") from None
        return parse_uiautomator_xml(xml)

    # --- tree prefetch -------------------------------------------------------------------------

    def _start_prefetch(self) -> None:
        """Fetch the UI tree beside the screenshot about to be taken, if it will be wanted."""
        if not self.prefetch_tree or self._needs_recovery or self._closed:
            return
        if self._prefetch is not None or not self._tree_follows_shot:
            return  # one still valid (nothing touched the device since), or nobody reads them
        self._prefetch = _TreePrefetch(self, self._epoch)
        self._prefetch.thread.start()

    def _discard_prefetch(self) -> None:
        """Wait for a pending prefetch and drop it (its tree may predate what comes next)."""
        pending, self._prefetch = self._prefetch, None
        if pending is not None:
            # Unclaimed: the caller does not read a tree after each screenshot (until it does again).
            self._tree_follows_shot = False
            if pending.thread is not threading.current_thread():
                # Wait, so its `uiautomator dump` cannot land after a later one and be pulled instead.
                pending.thread.join()

    def _touch(self) -> None:
        """Mark the device as possibly changed: a prefetched tree no longer describes it."""
        self._epoch += 1
        if self._prefetch is not None:
            self._discard_prefetch()

    # --- input -------------------------------------------------------------------------------

    def tap(self, x: int, y: int) -> None:
        self.shell(["input", "tap", str(int(x)), str(int(y))])

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        self.shell(["input", "swipe", str(int(x)), str(int(y)), str(int(x)), str(int(y)), str(int(duration_ms))])

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        self.shell(["input", "swipe", *(str(int(v)) for v in (x1, y1, x2, y2)), str(int(duration_ms))])

    def press_key(self, keycode: int) -> None:
        self.shell(["input", "keyevent", str(int(keycode))])

    def has_adb_keyboard(self) -> bool:
        """Whether the ADB keyboard is the device's current input method (cached)."""
        if self._adb_keyboard is None:
            current = self.get_setting("secure", "default_input_method") or ""
            self._adb_keyboard = current == ADB_KEYBOARD_IME
        return self._adb_keyboard

    def type_text(self, text: str) -> None:
        """Type ``text`` into the focused field, exactly, whatever it holds and however long.

        Long text is typed in pieces, each one request well under the adb server's 65,535-byte
        limit (:data:`MAX_COMMAND_BYTES`), so an agent's text never turns into a refused
        request (an infra fault); the pieces land in order in the same field.

        Raises:
            InvalidActionError: the text holds a lone surrogate (not a character any device types).
            UnsupportedOperationError: non-ASCII text and no ADB keyboard (see the module docstring).
        """
        if not text:
            return
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidActionError(
                f"K {text[:20]!r}", f"the text holds a lone surrogate at {exc.start}: not a character a device can type"
            ) from None
        use_keyboard = self.text_input == "adbkeyboard" or (self.text_input == "auto" and not is_printable_ascii(text))
        if not use_keyboard:
            if not is_printable_ascii(text):
                bad = sorted({c for c in text if not " " <= c <= "~"})
                raise UnsupportedOperationError(f"text_input='input' types printable ASCII only; {bad[:5]!r} need the ADB keyboard")
            # Every chunk is a single quoted argument: nothing in it is syntax.
            for line in input_text_lines(text, MAX_COMMAND_BYTES):
                self.shell(line)
            return
        if not self.has_adb_keyboard():
            self._adb_keyboard = None  # ask again next time: it may get installed
            raise UnsupportedOperationError(
                f"device {self.serial} cannot type {text[:20]!r}: `input text` types printable ASCII only, and the ADB keyboard "
                f"is not the current input method. Install ADBKeyBoard and run `adb shell ime enable {ADB_KEYBOARD_IME}` "
                f"and `adb shell ime set {ADB_KEYBOARD_IME}` (see docs/adb.md)"
            )
        # base64 grows text by 4/3; the rest of the command line is under 64 bytes.
        for piece in utf8_pieces(text, (MAX_COMMAND_BYTES - 64) // 4 * 3):
            payload = base64.b64encode(piece.encode("utf-8")).decode("ascii")
            out = self.shell(["am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg", payload])
            if "Broadcast completed" not in out.text:
                raise DeviceProtocolError(f"ADB keyboard broadcast not delivered: {out.text[:200]!r}")

    def wait(self, seconds: float) -> None:
        seconds = max(0.0, float(seconds))
        # `sleep` on the device: real time on a phone, simulated time on the served simulator.
        self.shell(["sleep", f"{seconds:g}"], timeout=self.timeout + seconds + self.wait_timeout_margin)

    # --- apps and system state ---------------------------------------------------------------

    def foreground_package(self) -> str:
        text = self.shell(["dumpsys", "window"], readonly=True).text
        match = _FOCUS_RE.search(text) or _FOCUSED_APP_RE.search(text)
        if match is None:
            raise DeviceProtocolError("cannot find the focused window in `dumpsys window`")
        package = match.group(1)
        self._seen_packages.add(package)
        return package

    def start_app(self, package: str) -> None:
        out = self.shell(["monkey", "-p", package, "-c", "android.intent.category.LAUNCHER", "1"], check=False)
        if out.code != 0 or "Events injected" not in out.text:
            raise CerebellumError(
                f"cannot start {package!r} on {self.serial}: {(out.stderr or out.stdout).decode('utf-8', 'replace').strip()[:200]}"
            )
        self._seen_packages.add(package)

    def force_stop(self, packages: Iterable[str]) -> None:
        """``am force-stop`` each package, in one shell call."""
        names = [p for p in packages if p]
        if names:
            self.shell(" ; ".join(shlex.join(["am", "force-stop", p]) for p in names))

    # --- files -------------------------------------------------------------------------------

    def read_file(self, path: str) -> bytes:
        return self.pull(path)

    def write_file(self, path: str, data: bytes) -> None:
        self.push(path, bytes(data))

    # --- lifecycle ---------------------------------------------------------------------------

    def factory_reset(self) -> None:
        """Reset what the device can reset fast: reconnect if the last call failed, run
        ``reset_command`` if there is one, force-stop every app seen since the last reset (and
        ``reset_packages``), and go home.

        Without a ``reset_command`` app data is not wiped (tasks' ``initialize`` sets up what they
        judge); a force-stop resets an app's screens, on a phone as on the served simulator.
        """
        if self._needs_recovery:
            self._recover()
        if self.reset_command:
            self.shell(self.reset_command)
        if self._launcher is None:
            self.press_key(KEYCODE_HOME)
            self._launcher = self.foreground_package()
        protected = PROTECTED_PACKAGES | {self._launcher}
        stale = sorted(p for p in self._seen_packages | set(self.reset_packages) if p not in protected and ".inputmethod" not in p)
        self._seen_packages.clear()
        self.shell(
            " ; ".join([*(shlex.join(["am", "force-stop", p]) for p in stale), shlex.join(["input", "keyevent", str(KEYCODE_HOME)])])
        )

    def close(self) -> None:
        self._discard_prefetch()
        self._closed = True

    def __repr__(self) -> str:
        return f"AdbDevice(serial={self.serial!r}, adb={self.adb_host}:{self.adb_port})"
