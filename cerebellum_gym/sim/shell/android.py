"""The served simulator's Android commands: ``input``, ``screencap``, ``uiautomator``,
``settings``, ``content``, ``am``, ``pm``, ``ime``, ``monkey``, ``dumpsys``, ``wm``,
``getprop`` and the toybox utilities (``ls``, ``cat``, ``grep``, ...), printing what a real
device prints, over one :class:`~cerebellum_gym.sim.phone.Phone`.

Example:
    >>> from cerebellum_gym.sim.phone import Phone
    >>> sh = Shell(Phone())
    >>> sh.run("settings put global wifi_on 0 && settings get global wifi_on").stdout
    b'0\\n'
    >>> sh.run("echo 'a  b' $(echo c d)").stdout
    b'a  b c d\\n'
    >>> r = sh.run("frobnicate")
    >>> r.code, r.stderr
    (127, b'/system/bin/sh: frobnicate: inaccessible or not found\\n')
"""

from __future__ import annotations

import base64
import binascii
import functools
import io
import posixpath
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import numpy as np

from cerebellum_gym.devices.android import (
    ADB_KEYBOARD_IME,
    ADB_KEYBOARD_PACKAGE,
    COLORSPACE_SRGB,
    PIXEL_FORMAT_RGBA_8888,
    SIM_PRODUCT,
    SIM_RESET_COMMAND,
)
from cerebellum_gym.devices.base import KEYCODE_BACK, KEYCODE_DEL, KEYCODE_ENTER, KEYCODE_HOME
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.sim import databases
from cerebellum_gym.sim.shell.androidworld import AndroidWorldCommands
from cerebellum_gym.sim.shell.language import Interpreter, ShellResult

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

LATIN_IME: Final = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"
DEFAULT_DUMP_PATH: Final = "/sdcard/window_dump.xml"
#: ``am start -a android.intent.action.VIEW -d URI``: the app that handles each data URI
#: (without its trailing slash). The contacts provider's people list opens Contacts, as it does
#: on a device (AndroidWorld's ``launch_app("contacts")`` starts it so).
VIEW_DATA: Final[dict[str, str]] = {
    "content://contacts/people": "com.google.android.contacts",
    "content://com.android.contacts/contacts": "com.google.android.contacts",
}
#: Directories every Android device has; ``ls /`` shows them and globs match them.
ROOT_DIRS: Final = (
    "acct", "apex", "bin", "cache", "config", "d", "data", "data_mirror", "debug_ramdisk", "dev", "etc",
    "linkerconfig", "metadata", "mnt", "odm", "oem", "proc", "product", "sdcard", "storage", "sys", "system",
    "system_ext", "vendor",
)  # fmt: skip
#: Paths that name the same storage; the simulator keeps files under ``/sdcard``
#: (``/data/media/0`` is where the storage lives, as root sees it: AndroidWorld's OsmAnd paths).
STORAGE_ALIASES: Final = ("/storage/emulated/0", "/storage/self/primary", "/mnt/sdcard", "/data/media/0")
KEYCODES: Final[dict[str, int]] = {
    "HOME": KEYCODE_HOME, "BACK": KEYCODE_BACK, "CALL": 5, "ENDCALL": 6, "DPAD_UP": 19, "DPAD_DOWN": 20, "DPAD_LEFT": 21,
    "DPAD_RIGHT": 22, "DPAD_CENTER": 23, "VOLUME_UP": 24, "VOLUME_DOWN": 25, "POWER": 26, "CAMERA": 27,
    "TAB": 61, "SPACE": 62, "ENTER": KEYCODE_ENTER, "DEL": KEYCODE_DEL, "MENU": 82, "SEARCH": 84, "ESCAPE": 111,
    "FORWARD_DEL": 112, "MOVE_HOME": 122, "MOVE_END": 123, "APP_SWITCH": 187, "WAKEUP": 224,
}  # fmt: skip
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
#: The longest ``sleep`` the simulator runs (simulated seconds: one year), so the clock stays a date.
MAX_SLEEP: Final = 366 * 24 * 3600.0
#: The latest time the simulated clock may reach (9999-12-31T23:59:59Z, the last date ``date`` prints).
MAX_CLOCK: Final = 253402300799.0


def _stat_field(fields: dict[str, str], match: re.Match[str]) -> str:
    """One ``%x`` of a ``stat -c`` format (unknown ones print as given, as toybox prints them)."""
    return fields.get(match.group(1), match.group(0))


class Shell(AndroidWorldCommands, Interpreter):
    """One shell session on a simulated phone (adbd starts one per ``shell:`` service).

    Args:
        phone: the device whose state the commands read and change.
        screencap_compression: zlib level of ``screencap -p`` PNGs (1 keeps loopback fast).
        provision: re-applied after ``cerebellum-sim factory-reset`` (what the device was set up
            with before serving, such as the ADB keyboard as input method).
        sdk: the Android API level the device reports (``ro.build.version.sdk``). It decides the
            raw ``screencap`` header, as on a device: 12 bytes below API 28, 16 from API 28 on.
    """

    def __init__(
        self,
        phone: Phone,
        *,
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
        self.commands.update(
            {
                "sleep": self._sleep,
                "cat": self._cat,
                "ls": self._ls,
                "rm": self._rm,
                "mkdir": self._mkdir,
                "touch": self._touch,
                "stat": self._stat,
                "grep": self._grep,
                "date": self._date,
                "getprop": self._getprop,
                "wm": self._wm,
                "dumpsys": self._dumpsys,
                "settings": self._settings,
                "content": self._content,
                "am": self._am,
                "pm": self._pm,
                "ime": self._ime,
                "monkey": self._monkey,
                "input": self._input,
                "screencap": self._screencap,
                "uiautomator": self._uiautomator,
                SIM_RESET_COMMAND.split()[0]: self._cerebellum_sim,
            }
        )
        #: Whether adbd runs as root (``adb root``); the served adbd sets it per command.
        self.root = False
        self.commands.update(self._androidworld_commands())

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
        if full == "/" or full in ("/sdcard", "/data/local/tmp", "/data/local", "/storage", "/storage/emulated"):
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

    def _sleep(self, args: list[str], stdin: bytes) -> ShellResult:
        try:
            seconds = float(args[0])
        except (IndexError, ValueError):
            return self._fail("usage: sleep DURATION\n")
        if not 0 <= seconds <= MAX_SLEEP or self.phone.state.clock + seconds > MAX_CLOCK:  # also NaN and inf
            # Simulated time: a sleep past any date the clock can print would break `date`
            # and sync for good, so the simulator refuses it.
            return self._fail(f"sleep: invalid duration '{args[0]}' (the simulator sleeps 0 to {MAX_SLEEP:g} s)\n")
        # Simulated time: the clock advances at once instead of the session blocking.
        self.phone.wait(seconds)
        return ShellResult()

    def _cat(self, args: list[str], stdin: bytes) -> ShellResult:
        if not args:
            return ShellResult(stdin)
        out, err, code = io.BytesIO(), io.BytesIO(), 0
        for name in args:
            data = self.read(name)
            if data is None:
                err.write(f"cat: {name}: {'Is a directory' if self.is_dir(name) else 'No such file or directory'}\n".encode())
                code = 1
            elif out.tell() + len(data) > MAX_STORAGE:
                err.write(f"cat: {name}: output too large\n".encode())
                return ShellResult(out.getvalue(), err.getvalue(), 1)
            else:
                out.write(data)
        return ShellResult(out.getvalue(), err.getvalue(), code)

    def _ls(self, args: list[str], stdin: bytes, long: Callable[[str, str], str] | None = None) -> ShellResult:
        """``ls``; ``long(path, shown)`` formats each line of a long listing (``ls -l``), which
        also opens each folder's entries with their ``total`` of blocks."""
        flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
        names = [a for a in args if not (a.startswith("-") and len(a) > 1)] or ["."]
        out, err, code = [], [], 0
        for name in names:
            if self.read(name) is not None:
                out.append(name if long is None else long(name, name))
            elif self.is_dir(name):
                entries = self.listdir(name)
                if "a" in flags:
                    entries = [".", "..", *entries]
                if len(names) > 1:
                    out.append(f"{name}:")
                if long is not None:
                    entries = [long(posixpath.join(name, entry), entry) for entry in entries]
                    out.append(f"total {sum(4 if line.startswith('d') else 8 for line in entries)}")
                out.extend(entries)
            else:
                err.append(f"ls: {name}: No such file or directory")
                code = 1
        return ShellResult(
            "".join(line + "\n" for line in out).encode("utf-8", "surrogateescape"), "".join(e + "\n" for e in err).encode(), code
        )

    def _rm(self, args: list[str], stdin: bytes) -> ShellResult:
        flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
        err, code = [], 0
        for name in (a for a in args if not (a.startswith("-") and len(a) > 1)):
            if self.read(name) is None and not self.is_dir(name):
                if "f" not in flags:
                    err.append(f"rm: {name}: No such file or directory")
                    code = 1
                continue
            if self.read(name) is None and "r" not in flags and "R" not in flags:
                err.append(f"rm: {name}: Is a directory")
                code = 1
                continue
            self.remove(name)
        return ShellResult(b"", "".join(e + "\n" for e in err).encode(), code)

    def _mkdir(self, args: list[str], stdin: bytes) -> ShellResult:
        parents = any(a.startswith("-") and "p" in a for a in args)
        err, code = [], 0
        for name in (a for a in args if not a.startswith("-")):
            if self.exists(name) and not parents:
                err.append(f"mkdir: '{name}': File exists")
                code = 1
            elif not self.exists(name):
                self.phone.make_dir(self.path(name))
        return ShellResult(b"", "".join(e + "\n" for e in err).encode(), code)

    def _touch(self, args: list[str], stdin: bytes) -> ShellResult:
        for name in (a for a in args if not a.startswith("-")):
            if self.read(name) is None:
                self.write(name, b"")
        return ShellResult()

    def _stat(self, args: list[str], stdin: bytes) -> ShellResult:
        """toybox ``stat -c FORMAT FILE...``: ``%n`` name, ``%s`` size, ``%Y`` change time
        (seconds), ``%F`` type, ``%%``; one line per file, status 1 if any is missing."""
        if len(args) < 3 or args[0] != "-c":
            return self._fail("usage: stat -c FORMAT FILE...\n")
        fmt, out, err = args[1], [], []
        for name in args[2:]:
            data = self.read(name)
            if data is None and not self.is_dir(name):
                err.append(f"stat: '{name}': No such file or directory\n")
                continue
            full = self.path(name)
            fields = {
                "n": name,
                "s": str(len(data) if data is not None else 4096),
                "Y": str(int(self.phone.file_mtime(full))),
                "F": "regular file" if data is not None else "directory",
                "%": "%",
            }
            out.append(re.sub(r"%(.)", functools.partial(_stat_field, fields), fmt) + "\n")
        return ShellResult("".join(out).encode("utf-8", "surrogateescape"), "".join(err).encode(), 1 if err else 0)

    def _grep(self, args: list[str], stdin: bytes) -> ShellResult:
        flags, rest = "", list[str]()
        for a in args:
            if a.startswith("-") and len(a) > 1 and not rest:
                flags += a[1:]
            else:
                rest.append(a)
        if not rest:
            return self._fail("usage: grep [-EFivq] PATTERN [FILE...]\n", 2)
        pattern, files = rest[0], rest[1:]
        data = stdin if not files else b"".join(self.read(f) or b"" for f in files)
        try:
            regex = re.compile(re.escape(pattern) if "F" in flags else pattern, re.IGNORECASE if "i" in flags else 0)
        except (re.error, OverflowError, RecursionError) as exc:
            return self._fail(f"grep: bad regex '{pattern}': {exc}\n", 2)
        lines = [ln for ln in data.decode("utf-8", "surrogateescape").splitlines() if bool(regex.search(ln)) != ("v" in flags)]
        if "q" in flags:
            return ShellResult(code=0 if lines else 1)
        return ShellResult("".join(ln + "\n" for ln in lines).encode("utf-8", "surrogateescape"), b"", 0 if lines else 1)

    def _date(self, args: list[str], stdin: bytes) -> ShellResult:
        now = self.phone.now()
        fmts = [a[1:] for a in args if a.startswith("+")]
        fmt = fmts[0] if fmts else "%a %b %e %H:%M:%S %Z %Y"
        return self._ok(now.strftime(fmt) + "\n")

    def _getprop(self, args: list[str], stdin: bytes) -> ShellResult:
        props = self.props
        if args:
            return self._ok(props.get(args[0], args[1] if len(args) > 1 else "") + "\n")
        return self._ok("".join(f"[{k}]: [{v}]\n" for k, v in sorted(props.items())))

    def _wm(self, args: list[str], stdin: bytes) -> ShellResult:
        width, height = self.phone.screen_size
        if args[:1] == ["size"]:
            return self._ok(f"Physical size: {width}x{height}\n")
        if args[:1] == ["density"]:
            return self._ok(f"Physical density: {PROPS['ro.sf.lcd_density']}\n")
        return self._fail("usage: wm [size|density]\n", 255)

    # --- activities --------------------------------------------------------------------------

    def _activity(self, package: str) -> str:
        """``package/Activity``: the app's main activity as the real app names it."""
        app = self.phone.apps.get(package)
        return f"{package}/{app.activity if app is not None else '.MainActivity'}"

    def _activities(self, package: str) -> set[str]:
        """The activities ``package`` declares (its main one and :attr:`App.activities`), as
        fully qualified class names: what ``am start -n`` resolves."""
        app = self.phone.apps[package]
        return {_full_class(package, name) for name in (app.activity, *app.activities)}

    def _dumpsys(self, args: list[str], stdin: bytes) -> ShellResult:
        service = args[0] if args else ""
        component = self._activity(self.phone.foreground_package())
        if service == "window":
            width, height = self.phone.screen_size
            return self._ok(
                "WINDOW MANAGER WINDOWS (dumpsys window windows)\n"
                f"  Window #0 Window{{5e1a2c0 u0 {component}}}:\n"
                f"    mDisplayId=0 rootTaskId=1 mSession=Session{{8c3f1d0 4242:u0a10123}} mClient=android.os.BinderProxy@1f2e3d4\n"
                f"    mFrame=[0,0][{width},{height}]\n"
                "\n"
                f"  mCurrentFocus=Window{{5e1a2c0 u0 {component}}}\n"
                f"  mFocusedApp=ActivityRecord{{a0b1c2d u0 {component} t12}}\n"
            )
        if service == "activity":
            return self._ok(
                "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n"
                f"  mResumedActivity: ActivityRecord{{a0b1c2d u0 {component} t12}}\n"
            )
        if service == "input_method":
            return self._ok(f"  mCurMethodId={self._ime_current()}\n")
        return self._fail(f"Can't find service: {service}\n")

    def _start(self, package: str) -> None:
        self.phone.start_app(package)

    def _am(self, args: list[str], stdin: bytes) -> ShellResult:
        sub = args[0] if args else ""
        try:
            return self._am_command(args)
        except ValueError as exc:
            # How `am` reports arguments it cannot parse (exit 255, as its Java exception does).
            return self._fail(f"Exception occurred while executing '{sub}':\n{exc}\n", 255)

    def _am_command(self, args: list[str]) -> ShellResult:
        sub, rest = (args[0], args[1:]) if args else ("", [])
        if sub == "force-stop":
            for package in (a for a in rest if not a.startswith("-")):
                self.phone.force_stop(package)
            return ShellResult()
        if sub in ("start", "start-activity"):
            opts, positional = _options(rest, takes_value={"-n", "-a", "-c", "-d", "-t", "--user", "-f"}, extras=True)
            component = opts.get("-n") or (positional[0] if positional else "")
            if opts.get("-c") == "android.intent.category.HOME" or (
                opts.get("-a") == "android.intent.action.MAIN" and opts.get("-c") == "android.intent.category.HOME"
            ):
                self.phone.go_home()
                return self._ok("Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.HOME] }\n")
            data = opts.get("-d", "")
            if not component and opts.get("-a") == "android.intent.action.VIEW" and data.rstrip("/") in VIEW_DATA:
                # A data URI an app handles (AndroidWorld opens "contacts" so): that app's main activity.
                package = VIEW_DATA[data.rstrip("/")]
                if package in self.phone.apps:
                    self._start(package)
                    return self._ok(f"Starting: Intent {{ act=android.intent.action.VIEW dat={data} }}\n")
            package = component.split("/", 1)[0]
            if package not in self.phone.apps:
                # As am prints the intent: its action, data and type when no component names it.
                parts = [f"{key}={opts[flag]}" for flag, key in (("-a", "act"), ("-d", "dat"), ("-t", "typ")) if opts.get(flag)]
                described = f"cmp={component}" if component or not parts else " ".join([*parts, "flg=0x10000000"])
                return self._fail(f"Error: Activity not started, unable to resolve Intent {{ {described} }}\n")
            if "/" not in component:
                raise ValueError(f"java.lang.IllegalArgumentException: Bad component name: {component}")
            activity = _full_class(package, component.split("/", 1)[1])
            if activity not in self._activities(package):
                # As am answers a component whose package exists but declares no such activity
                # (START_CLASS_NOT_FOUND): the error on stdout with -W, on stderr without; nothing starts.
                error = f"Error type 3\nError: Activity class {{{package}/{activity}}} does not exist.\n"
                started = f"Starting: Intent {{ cmp={component} }}\n"
                if "-W" in opts:
                    return ShellResult((started + error).encode(), b"", 1)
                return ShellResult(started.encode(), error.encode(), 1)
            if "-S" in opts:
                self.phone.force_stop(package)
            self._start(package)
            return self._ok(f"Starting: Intent {{ cmp={component} }}\n")
        if sub == "broadcast":
            return self._broadcast(rest)
        return self._fail(f"Unknown command: {sub}\n", 255 if sub else 1)

    def _broadcast(self, args: list[str]) -> ShellResult:
        opts, _ = _options(args, takes_value={"-a", "-n", "-c", "-d", "--user"}, extras=True)
        action = opts.get("-a", "")
        extras: dict[str, str] = {k[len("extra:") :]: v for k, v in opts.items() if k.startswith("extra:")}
        header = f"Broadcasting: Intent {{ act={action} flg=0x400000{' (has extras)' if extras else ''} }}\n"
        if action.startswith("ADB_") and self._ime_current() == ADB_KEYBOARD_IME:
            error = self._adb_keyboard(action, extras)
            if error:
                return self._fail(header + error)
        return self._ok(header + "Broadcast completed: result=0\n")

    def _adb_keyboard(self, action: str, extras: dict[str, str]) -> str:
        """The ADB keyboard's broadcast interface; returns an error text or ``""``."""
        if action == "ADB_INPUT_TEXT":
            self.phone.type_text(extras.get("msg", ""))
        elif action == "ADB_INPUT_B64":
            try:
                text = base64.b64decode(extras.get("msg", ""), validate=True).decode("utf-8")
            except (binascii.Error, UnicodeDecodeError) as exc:
                return f"java.lang.IllegalArgumentException: bad base64: {exc}\n"
            self.phone.type_text(text)
        elif action == "ADB_INPUT_CHARS":
            try:
                self.phone.type_text("".join(chr(int(c)) for c in extras.get("chars", "").split(",") if c))
            except ValueError as exc:
                return f"java.lang.NumberFormatException: {exc}\n"
        elif action == "ADB_INPUT_CODE":
            try:
                code = int(extras.get("code", "-1"))
            except ValueError:
                return f'java.lang.NumberFormatException: For input string: "{extras.get("code")}"\n'
            self.phone.press_key(code)
        elif action == "ADB_CLEAR_TEXT":
            self.phone.clear_focused_text()
        return ""

    def _pm(self, args: list[str], stdin: bytes) -> ShellResult:
        if args[:2] == ["list", "packages"]:
            wanted = args[2] if len(args) > 2 and not args[2].startswith("-") else ""
            return self._ok("".join(f"package:{p}\n" for p in self._packages() if wanted in p))
        if args[:1] == ["path"] and len(args) > 1:
            package = args[-1]
            if package not in self._packages():
                return ShellResult(code=1)  # as `pm path`: nothing printed for an unknown package
            return self._ok(f"package:/data/app/~~cerebellum/{package}-1/base.apk\n")
        if args[:1] == ["clear"] and len(args) > 1:
            package = args[-1]
            self.phone.force_stop(package)
            if package in self.phone.apps:
                self.phone.apps[package].clear_data()
            else:
                self.phone.state.app_data.pop(package, None)
                databases.app_data_cleared(self.phone, package)
            self.phone.invalidate()
            return self._ok("Success\n")
        return self._fail("usage: pm [list packages|path PACKAGE|clear PACKAGE]\n", 255)

    def _packages(self) -> list[str]:
        """Installed packages: the simulator's apps, the ADB keyboard and the system UI."""
        return sorted({*self.phone.apps, ADB_KEYBOARD_PACKAGE, "com.android.systemui"})

    def _ime_current(self) -> str:
        return self.phone.state.settings.get("secure", {}).get("default_input_method", LATIN_IME)

    def _ime(self, args: list[str], stdin: bytes) -> ShellResult:
        if args[:1] == ["list"]:
            return self._ok(f"{LATIN_IME}\n{ADB_KEYBOARD_IME}\n")
        if args[:1] in (["set"], ["enable"]) and len(args) > 1:
            if args[1] not in (LATIN_IME, ADB_KEYBOARD_IME):
                return self._fail(f"Unknown input method {args[1]} cannot be selected for user #0\n")
            if args[0] == "set":
                self.phone.put_setting("secure", "default_input_method", args[1])
                return self._ok(f"Input method {args[1]} selected for user #0\n")
            return self._ok(f"Input method {args[1]}: already enabled for user #0\n")
        return self._fail("usage: ime [list|set ID|enable ID]\n", 255)

    def _monkey(self, args: list[str], stdin: bytes) -> ShellResult:
        opts, _ = _options(args, takes_value={"-p", "-c", "--throttle", "-s", "--pct-syskeys"})
        package = opts.get("-p", "")
        if package not in self.phone.apps or not self.phone.apps[package].launchable:
            return ShellResult(b"  bash arg: -p\n", b"** No activities found to run, monkey aborted.\n", 252)
        self._start(package)
        stats = "## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)"
        return self._ok(f"  bash arg: -p\n  bash arg: {package}\nEvents injected: 1\n{stats}\n")

    def _cerebellum_sim(self, args: list[str], stdin: bytes) -> ShellResult:
        """Simulator-only controls (no real device has this command)."""
        if args == ["factory-reset"]:
            self.phone.factory_reset()
            if self.provision is not None:
                self.provision(self.phone)
            return self._ok("factory reset done\n")
        if args == ["version"]:
            from cerebellum_gym import __version__

            return self._ok(f"cerebellum-gym {__version__}\n")
        return self._fail("usage: cerebellum-sim factory-reset|version\n", 2)

    # --- input and screen --------------------------------------------------------------------

    def _input(self, args: list[str], stdin: bytes) -> ShellResult:
        sources = {
            "touchscreen",
            "touchpad",
            "keyboard",
            "mouse",
            "stylus",
            "dpad",
            "gamepad",
            "trackball",
            "joystick",
            "touchnavigation",
            "rotaryencoder",
        }
        while args and (args[0] in sources or args[0] == "-d"):
            args = args[2:] if args[0] == "-d" else args[1:]
        sub, rest = (args[0], args[1:]) if args else ("", [])
        try:
            if sub == "tap" and len(rest) >= 2:
                self.phone.tap(_coord(rest[0]), _coord(rest[1]))
            elif sub in ("swipe", "draganddrop") and len(rest) >= 4:
                x1, y1, x2, y2 = (_coord(v) for v in rest[:4])
                duration = _coord(rest[4]) if len(rest) > 4 else 300
                if duration < 0:
                    raise ValueError(rest[4])
                if sub == "swipe" and abs(x2 - x1) <= 10 and abs(y2 - y1) <= 10 and duration >= 400:
                    self.phone.long_press(x1, y1, duration)  # how `input` is used for a long press
                else:
                    self.phone.swipe(x1, y1, x2, y2, duration)
            elif sub == "text" and rest:
                # `input text` types through the key map: printable ASCII only, "%s" is a space.
                text = rest[0].replace("%s", " ")
                bad = sorted({c for c in text if not " " <= c <= "~"})
                if bad:
                    return self._fail(f"input: cannot type {''.join(bad)!r}: no key in the virtual keyboard's character map\n")
                self.phone.type_text(text)
            elif sub == "keyevent" and rest:
                codes = [a for a in rest if not a.startswith("--")]
                for code in codes:
                    self.phone.press_key(_keycode(code))
            else:
                raise ValueError(sub)
        except ValueError:
            return self._fail(
                f"Error: Invalid arguments for command: {sub}\nUsage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n"
            )
        return ShellResult()

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

    def _screencap(self, args: list[str], stdin: bytes) -> ShellResult:
        png = "-p" in args
        files = [a for a in args if not a.startswith("-")]
        if files and files[0].endswith(".png"):
            png = True
        data = self.png() if png else self.raw()
        if files:
            self.write(files[0], data)
            return ShellResult()
        return ShellResult(data)

    def _uiautomator(self, args: list[str], stdin: bytes) -> ShellResult:
        if args[:1] != ["dump"]:
            return self._fail("Usage: uiautomator <subcommand> [options]\n", 1)
        files = [a for a in args[1:] if not a.startswith("--")]
        target = files[0] if files else DEFAULT_DUMP_PATH
        xml = self.phone.dump_xml().encode("utf-8")
        if target in ("/dev/tty", "/dev/stdout"):
            return ShellResult(xml + f"UI hierchary dumped to: {target}\n".encode())
        self.write(target, xml, invalidate=False)
        return self._ok(f"UI hierchary dumped to: {target}\n")

    # --- settings and content ----------------------------------------------------------------

    def _settings(self, args: list[str], stdin: bytes) -> ShellResult:
        while args and args[0] in ("--user", "--lineage"):
            args = args[2:] if args[0] == "--user" else args[1:]
        if len(args) < 2:
            return self._fail("usage:  settings [--user <USER_ID> | current] get namespace key\n", 255)
        verb, namespace, rest = args[0], args[1], args[2:]
        if namespace not in ("global", "system", "secure"):
            return self._fail(f"Invalid namespace '{namespace}'\n", 255)
        table = self.phone.state.settings.setdefault(namespace, {})
        if verb == "get" and rest:
            value = self.phone.get_setting(namespace, rest[0])
            return self._ok(("null" if value is None else value) + "\n")
        if verb == "put" and len(rest) >= 2:
            self.phone.put_setting(namespace, rest[0], rest[1])
            return ShellResult()
        if verb == "delete" and rest:
            existed = table.pop(rest[0], None) is not None
            self.phone.invalidate()
            return self._ok(f"Deleted {int(existed)} rows\n")
        if verb == "list":
            return self._ok("".join(f"{k}={v}\n" for k, v in sorted(table.items())))
        return self._fail(f"Invalid command: {verb}\n", 255)

    def _content(self, args: list[str], stdin: bytes) -> ShellResult:
        sub, rest = (args[0], args[1:]) if args else ("", [])
        opts: dict[str, str] = {}
        binds: dict[str, str] = {}
        i = 0
        while i < len(rest):
            flag = rest[i]
            if i + 1 >= len(rest):
                return self._fail(f"Error: No value for argument: {flag}\n")
            value = rest[i + 1]
            if flag == "--bind":
                column, _, typed = value.partition(":")
                kind, _, bound = typed.partition(":")
                if not column or kind not in ("s", "i", "l", "f", "d", "b", "n"):
                    return self._fail(f"Error: Invalid binding: {value}\n")
                binds[column] = "NULL" if kind == "n" else bound
            else:
                opts[flag] = value
            i += 2
        uri = opts.get("--uri")
        if uri is None:
            return self._fail("Error: Content provider URI not specified\n")
        try:
            where = parse_where(opts.get("--where", ""))
            if sub == "query":
                projection = [c for c in opts["--projection"].split(":") if c] if "--projection" in opts else None
                rows = self.phone.content_query(uri, None, where)
                rows = _sorted_rows(uri, rows, opts.get("--sort"))
                if projection:
                    rows = [{k: row.get(k, "NULL") for k in projection} for row in rows]
                if not rows:
                    return self._ok("No result found.\n")
                return self._ok("".join(f"Row: {n} " + ", ".join(f"{k}={v}" for k, v in row.items()) + "\n" for n, row in enumerate(rows)))
            if sub == "insert":
                self.phone.content_insert(uri, binds)
                return ShellResult()
            if sub == "delete":
                self.phone.content_delete(uri, where)
                return ShellResult()
        except (CerebellumError, ValueError) as exc:
            return self._fail(f"Error while accessing provider:{uri}\njava.lang.IllegalArgumentException: {exc}\n")
        return self._fail(f"Error: Unsupported operation: {sub}\n")


# --- helpers -----------------------------------------------------------------------------------

#: Providers' default sort orders (the order ``content query`` lists rows in without
#: ``--sort``): the SMS provider lists the newest message first (``date DESC``).
DEFAULT_SORT: Final = {"content://sms": "date DESC"}
_SORT_TERM: Final = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)(?:\s+(ASC|DESC))?\s*", re.IGNORECASE)


def _sorted_rows(uri: str, rows: list[dict[str, str]], sort: str | None) -> list[dict[str, str]]:
    """``rows`` in ``sort``'s order (``col [ASC|DESC], ...``; numbers compare as numbers), or in
    the provider's default order; ties keep the table's order, as SQLite's sort does.

    Raises:
        ValueError: a sort order that is not a list of columns.
    """
    if sort is None:
        base = uri.rstrip("/")
        sort = next((order for prefix, order in DEFAULT_SORT.items() if base == prefix or base.startswith(prefix + "/")), None)
        if sort is None:
            return rows
    terms = []
    for part in sort.split(","):
        match = _SORT_TERM.fullmatch(part)
        if match is None:
            raise ValueError(f"unsupported sort order: {sort!r}")
        terms.append((match.group(1), (match.group(2) or "ASC").upper() == "DESC"))

    def key(value: str) -> tuple[int, float, str]:
        try:
            return (0, float(value), "")
        except ValueError:
            return (1, 0.0, value)

    out = list(rows)
    for column, descending in reversed(terms):  # stable sorts, last key first
        out.sort(key=lambda row: key(row.get(column, "")), reverse=descending)
    return out


def _coord(value: str) -> int:
    """A coordinate or duration as ``input`` reads it (a Java float, truncated).

    Raises:
        ValueError: not a finite number within a 32-bit integer's range.
    """
    number = float(value)
    if not -(2**31) <= number < 2**31:  # also NaN and inf
        raise ValueError(value)
    return int(number)


def _keycode(value: str) -> int:
    if value.isdigit():
        return int(value)
    name = value.upper().removeprefix("KEYCODE_")
    if name not in KEYCODES:
        raise ValueError(value)
    return KEYCODES[name]


def _check_extra(flag: str, value: str) -> None:
    """Refuse what ``am`` refuses: a typed intent extra whose value does not parse.

    Raises:
        ValueError: with the Java exception ``am`` prints.
    """
    try:
        if flag == "--ei":
            if not -(2**31) <= int(value) < 2**31:
                raise ValueError
        elif flag == "--el":
            if not -(2**63) <= int(value) < 2**63:
                raise ValueError
        elif flag == "--ef":
            float(value)
    except ValueError:
        raise ValueError(f'java.lang.NumberFormatException: For input string: "{value}"') from None
    if flag == "--ez" and value.lower() not in ("true", "false", "t", "f", "1", "0"):
        raise ValueError(f'java.lang.IllegalArgumentException: Invalid boolean value: "{value}"')


def _full_class(package: str, name: str) -> str:
    """An activity's class as ``ComponentName`` expands it: ``.Name`` is relative to the package."""
    return package + name if name.startswith(".") else name


def _options(args: list[str], takes_value: set[str], extras: bool = False) -> tuple[dict[str, str], list[str]]:
    """Parse ``am``/``monkey`` style options; intent extras are returned as ``extra:NAME``."""
    opts: dict[str, str] = {}
    positional: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if extras and a in ("-e", "--es", "--ei", "--el", "--ez", "--ef", "--eia", "--esa", "--eu"):
            if i + 2 >= len(args):
                raise ValueError(f'Argument expected after "{a}"')
            value = args[i + 2]
            _check_extra(a, value)
            opts[f"extra:{args[i + 1]}"] = value
            i += 3
        elif a in takes_value:
            opts[a] = args[i + 1] if i + 1 < len(args) else ""
            i += 2
        elif a.startswith("-"):
            opts[a] = ""
            i += 1
        else:
            positional.append(a)
            i += 1
    return opts, positional


_WHERE_TERM: Final = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*('(?:[^']|'')*'|[^\s']+)\s*")


def parse_where(clause: str) -> dict[str, str]:
    """Parse the SQL subset judges use: ``col = 'value' AND col2 = 3`` (``''`` escapes a quote).

    Raises:
        ValueError: anything else (a real provider would answer with an SQL error).
    """
    out: dict[str, str] = {}
    rest = clause.strip()
    while rest:
        match = _WHERE_TERM.match(rest)
        if match is None:
            raise ValueError(f"unsupported where clause: {clause!r}")
        column, literal = match.groups()
        out[column] = literal[1:-1].replace("''", "'") if literal.startswith("'") else literal
        rest = rest[match.end() :]
        if rest:
            conj = re.match(r"(?i)AND\s+", rest)
            if conj is None:
                raise ValueError(f"unsupported where clause: {clause!r}")
            rest = rest[conj.end() :]
    return out
