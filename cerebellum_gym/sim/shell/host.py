"""One shell session over a simulated phone: the session's state (the phone, adbd's user, the
device properties), its file system (the phone's files, storage aliases, the apps' databases)
and the screen's encodings; the commands it runs come from a
:class:`~cerebellum_gym.sim.shell.table.CommandTable` that it binds to itself
(:mod:`~cerebellum_gym.sim.shell.android` assembles the Android shell's).

Example:
    >>> from cerebellum_gym.sim.phone import Phone
    >>> from cerebellum_gym.sim.shell.table import CommandTable
    >>> sh = ShellHost(Phone(), commands=CommandTable("none"))
    >>> sh.path("/storage/emulated/0/Download"), sh.run("echo $((6 * 7))").stdout
    ('/sdcard/Download', b'42\\n')
"""

from __future__ import annotations

import io
import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import numpy as np

from cerebellum_gym.devices.android import COLORSPACE_SRGB, PIXEL_FORMAT_RGBA_8888, SIM_PRODUCT
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.sim import databases
from cerebellum_gym.sim.shell.language import Interpreter
from cerebellum_gym.sim.shell.table import CommandTable

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone


#: Directories every Android device has; ``ls /`` shows them and globs match them.
ROOT_DIRS: Final = (
    "acct", "apex", "bin", "cache", "config", "d", "data", "data_mirror", "debug_ramdisk", "dev", "etc",
    "linkerconfig", "metadata", "mnt", "odm", "oem", "proc", "product", "sdcard", "storage", "sys", "system",
    "system_ext", "vendor",
)  # fmt: skip
#: Paths that name the same storage; the simulator keeps files under ``/sdcard``
#: (``/data/media/0`` is where the storage lives, as root sees it: AndroidWorld's OsmAnd paths).
STORAGE_ALIASES: Final = ("/storage/emulated/0", "/storage/self/primary", "/mnt/sdcard", "/data/media/0")
#: Directories that are always there, the storage aliases' parents among them (a glob walks them).
_FIXED_DIRS: Final = frozenset(
    {"/sdcard", "/data/local/tmp", "/data/local", "/data/media", "/storage", "/storage/emulated", "/storage/self"}
)
PROPS: Final[dict[str, str]] = {
    "ro.product.name": SIM_PRODUCT,
    "ro.product.model": "Cerebellum Sim",
    "ro.product.device": "cerebellum",
    "ro.product.manufacturer": "cerebellum-gym",
    "ro.product.brand": "cerebellum",
    "ro.build.version.release": "13",
    "ro.build.version.sdk": "33",
    "ro.build.type": "user",
    "ro.build.characteristics": "default",
    "ro.kernel.qemu": "0",
    "ro.sf.lcd_density": "420",
    "sys.boot_completed": "1",
    "persist.sys.timezone": "UTC",
}
DEFAULT_SDK: Final = int(PROPS["ro.build.version.sdk"])
#: The most bytes the simulated storage holds (all files together), so no command can fill the
#: host's memory through the device's files.
MAX_STORAGE: Final = 256 * 1024 * 1024


class ShellHost(Interpreter):
    """One shell session on a simulated phone (adbd starts one per ``shell:`` service), running
    the commands of one table.

    Args:
        phone: the device whose state the commands read and change.
        commands: the commands this session runs besides the language's builtins (bound to it).
        screencap_compression: zlib level of ``screencap -p`` PNGs (1 keeps loopback fast).
        provision: re-applied after ``cerebellum-sim factory-reset`` (what the device was set up
            with before serving, such as the ADB keyboard as input method).
        sdk: the Android API level the device reports (``ro.build.version.sdk``). It decides the
            raw ``screencap`` header, as on a device: 12 bytes below API 28, 16 from API 28 on.
        frame_cache: encoded screens by format, shared between sessions (see :attr:`frame_cache`).
    """

    def __init__(
        self,
        phone: Phone,
        *,
        commands: CommandTable[ShellHost],
        screencap_compression: int = 1,
        provision: Callable[[Phone], None] | None = None,
        sdk: int = DEFAULT_SDK,
        frame_cache: dict[str, tuple[np.ndarray, bytes]] | None = None,
    ) -> None:
        super().__init__()
        self.phone = phone
        self.provision = provision
        self.sdk = int(sdk)
        self.props = {**PROPS, "ro.build.version.sdk": str(self.sdk), "ro.serialno": "CEREBELLUM0001"}
        self.screencap_compression = screencap_compression
        # Encoded screens by format, with the frame they encode; shareable between sessions
        # (adbd passes one dict to all), so many readers of one screen hold one copy.
        self.frame_cache: dict[str, tuple[np.ndarray, bytes]] = frame_cache if frame_cache is not None else {}
        #: Whether adbd runs as root (``adb root``); the served adbd sets it per command.
        self.root = False
        self.commands.update(commands.bind(self))

    # --- file system -------------------------------------------------------------------------

    def path(self, name: str) -> str:
        """The simulator's canonical path for ``name`` (storage aliases fold to ``/sdcard``)."""
        full = posixpath.normpath(posixpath.join(self.cwd, name))
        full = "/" + full.lstrip("/")
        for alias in STORAGE_ALIASES:
            if full == alias or full.startswith(alias + "/"):
                full = "/sdcard" + full[len(alias) :]
        return full

    def read(self, name: str) -> bytes | None:
        full = self.path(name)
        if databases.owns(full):
            return databases.read(self.phone, full)
        try:
            return self.phone.read_file(full)
        except FileNotFoundError:
            return None

    def write(self, name: str, data: bytes, *, invalidate: bool = True) -> None:
        """Create or replace a file.

        Raises:
            CerebellumError: the files would exceed the device's storage (:data:`MAX_STORAGE`).
        """
        full = self.path(name)
        files = self.phone.state.files
        if len(data) > MAX_STORAGE or sum(len(v) for k, v in files.items() if k != full) + len(data) > MAX_STORAGE:
            raise CerebellumError(f"{name}: No space left on device")
        if databases.owns(full):
            databases.write(self.phone, full, data)  # the app's rows follow its database
        elif invalidate:
            self.phone.write_file(self.path(name), data)
        else:
            # Scratch files (a uiautomator dump) change nothing an app shows: keep the frame cache.
            self.phone.state.files[self.path(name)] = bytes(data)

    def is_dir(self, name: str) -> bool:
        full = self.path(name)
        if full == "/" or full in _FIXED_DIRS:
            return True
        if full.count("/") == 1 and full[1:] in ROOT_DIRS:
            return True
        return self.phone.is_dir(full) or (full.startswith(databases.DATA_ROOT) and databases.is_dir(self.phone, full))

    def remove(self, name: str) -> None:
        """Delete a file or a directory tree (``rm -r``, ``find -delete``)."""
        full = self.path(name)
        for path in [p for p in databases.DATABASES if p == full or p.startswith(full.rstrip("/") + "/")]:
            if databases.read(self.phone, path) is not None:
                databases.remove(self.phone, path)
        self.phone.remove_path(full)

    def exists(self, name: str) -> bool:
        return self.read(name) is not None or self.is_dir(name)

    def listdir(self, name: str) -> list[str]:
        full = self.path(name)
        names = set(self.phone.list_dir(full))
        if full == "/":
            names.update(ROOT_DIRS)
        if full.startswith(databases.DATA_ROOT):
            names.update(databases.listing(self.phone, full))
        return sorted(names)

    # --- the screen ------------------------------------------------------------------------

    def png(self) -> bytes:
        """The full-resolution screen as PNG, cached until the screen changes."""
        from PIL import Image

        # The phone hands back the same frame object while the screen is unchanged.
        frame = self.phone.screenshot()
        cached = self.frame_cache.get("png")
        if cached is not None and cached[0] is frame:
            return cached[1]
        buf = io.BytesIO()
        Image.fromarray(np.ascontiguousarray(frame)).save(buf, "PNG", compress_level=self.screencap_compression)
        data = buf.getvalue()
        self.frame_cache["png"] = (frame, data)
        return data

    def raw(self) -> bytes:
        """The full-resolution screen as ``screencap`` without ``-p`` writes it, cached until the
        screen changes: little-endian width, height, pixel format (RGBA_8888), from API 28 on a
        colour-space word (sRGB), then the RGBA pixels row by row, alpha 255."""
        from PIL import Image

        frame = self.phone.screenshot()
        cached = self.frame_cache.get("raw")
        if cached is not None and cached[0] is frame:
            return cached[1]
        height, width = frame.shape[:2]
        fields = [width, height, PIXEL_FORMAT_RGBA_8888] + ([COLORSPACE_SRGB] if self.sdk >= 28 else [])
        # PIL's convert adds the alpha plane several times faster than numpy's strided writes.
        pixels = Image.fromarray(np.ascontiguousarray(frame)).convert("RGBA").tobytes()
        data = np.array(fields, "<u4").tobytes() + pixels
        self.frame_cache["raw"] = (frame, data)
        return data
