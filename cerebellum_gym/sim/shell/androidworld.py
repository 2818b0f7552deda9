"""What AndroidWorld's start-up and task code ask of a device, answered by the served shell as
an Android 13 emulator answers: the user adbd runs as (``id``, ``whoami``), the logical screen
size (``dumpsys input``), the task stack (``am stack list``), the timezone service call and the
small toybox utilities its set-up runs.

Kept apart from :mod:`~cerebellum_gym.sim.shell.android` (the commands every ADB client uses):
:class:`AndroidWorldCommands` is a mixin of :class:`~cerebellum_gym.sim.shell.android.Shell`
whose handlers wrap the shell's own where a command exists there (``dumpsys``, ``am``).

Example:
    >>> from cerebellum_gym.sim.phone import Phone
    >>> from cerebellum_gym.sim.shell import Shell
    >>> sh = Shell(Phone())
    >>> sh.run("dumpsys input | grep logicalFrame").stdout.decode().split()[0:3]
    ['Viewport', 'INTERNAL:', 'displayId=0,']
    >>> sh.run("whoami").stdout
    b'shell\\n'
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Callable
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Final

from cerebellum_gym.sim import telephony
from cerebellum_gym.sim.databases import run_sql
from cerebellum_gym.sim.providers import CONTACTS_URI, SMS_URI
from cerebellum_gym.sim.shell.language import ShellResult

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

#: ``date``'s set form: MMDDhhmm[[CC]YY][.ss].
_DATE_SET = re.compile(r"(\d\d)(\d\d)(\d\d)(\d\d)(\d\d(?:\d\d)?)?(?:\.(\d\d))?")
_SVC_SETTINGS = {"wifi": "wifi_on", "bluetooth": "bluetooth_on"}
_UNARY = frozenset({"-d", "-e", "-f", "-z", "-n"})
_NUMERIC: dict[str, Callable[[int, int], bool]] = {
    "-eq": lambda a, b: a == b,
    "-ne": lambda a, b: a != b,
    "-lt": lambda a, b: a < b,
    "-le": lambda a, b: a <= b,
    "-gt": lambda a, b: a > b,
    "-ge": lambda a, b: a >= b,
}
Handler = Callable[[list[str], bytes], ShellResult]


class AndroidWorldCommands:
    """Commands AndroidWorld's code runs, for a shell over :attr:`phone`.

    The host class provides ``phone``, ``root``, ``commands`` and the ``_dumpsys`` / ``_am`` /
    ``_activity`` handlers it wraps.
    """

    phone: Phone
    root: bool
    commands: dict[str, Handler]

    # Provided by the shell this mixes into.
    _dumpsys: Handler
    _am: Handler
    _activity: Callable[[str], str]
    _date: Handler
    _content: Handler
    _pm: Handler
    _ls: Callable[..., ShellResult]  # (args, stdin, long=None): ``long`` formats a long listing
    _input: Handler
    is_dir: Callable[[str], bool]
    listdir: Callable[[str], list[str]]
    read: Callable[[str], bytes | None]
    write: Callable[..., None]
    path: Callable[[str], str]
    exists: Callable[[str], bool]
    remove: Callable[[str], None]
    props: dict[str, str]

    def _androidworld_commands(self) -> dict[str, Handler]:
        return {
            "id": self._aw_id,
            "whoami": self._aw_whoami,
            "dumpsys": self._aw_dumpsys,
            "am": self._aw_am,
            "date": self._aw_date,
            "service": self._aw_service,
            "test": self._aw_test,
            "[": self._aw_bracket,
            "svc": self._aw_svc,
            "find": self._aw_find,
            "content": self._aw_content,
            "pm": self._aw_pm,
            "chmod": self._aw_chmod,
            "restorecon": self._aw_chmod,
            "printf": self._aw_printf,
            "ls": self._aw_ls,
            "sqlite3": self._aw_sqlite3,
            "input": self._aw_input,
            "cp": self._aw_cp,
        }

    # --- who adbd runs as --------------------------------------------------------------------

    def _aw_id(self, args: list[str], stdin: bytes) -> ShellResult:
        if self.root:
            return ShellResult(b"uid=0(root) gid=0(root) groups=0(root) context=u:r:su:s0\n")
        return ShellResult(b"uid=2000(shell) gid=2000(shell) groups=2000(shell) context=u:r:shell:s0\n")

    def _aw_whoami(self, args: list[str], stdin: bytes) -> ShellResult:
        return ShellResult(b"root\n" if self.root else b"shell\n")

    # --- content: the media store ------------------------------------------------------------

    def _aw_content(self, args: list[str], stdin: bytes) -> ShellResult:
        """The media store's tables, which the simulator does not index: queries find no rows
        and deletes remove none (AndroidWorld clears them after deleting the files)."""
        uri = args[args.index("--uri") + 1] if "--uri" in args[:-1] else ""
        if uri.startswith("content://media/"):
            if args[:1] == ["query"]:
                return ShellResult(b"No result found.\n")
            if args[:1] == ["delete"]:
                return ShellResult()
        return self._content(args, stdin)

    # --- sqlite3 -----------------------------------------------------------------------------

    def _aw_sqlite3(self, args: list[str], stdin: bytes) -> ShellResult:
        """``sqlite3 [OPTIONS] DB [SQL]`` (SQL from stdin when not given), in list mode: the
        shell that Android's userdebug builds ship. Writes go through the file, so an app's
        database changes what the app shows (:mod:`~cerebellum_gym.sim.databases`)."""
        header, separator, bail = False, "|", True
        positional: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            if arg in ("-header", "-noheader"):
                header = arg == "-header"
            elif arg == "-separator" and i + 1 < len(args):
                separator, i = _unescape(args[i + 1]), i + 1
            elif arg in ("-batch", "-bail", "-list", "-readonly"):
                pass
            elif arg.startswith("-") and not positional:
                return ShellResult(b"", f"sqlite3: Error: unknown option: {arg}\nUse -help for a list of options.\n".encode(), 1)
            else:
                positional.append(arg)
            i += 1
        name = positional[0] if positional else ""
        sql = " ".join(positional[1:]) if len(positional) > 1 else stdin.decode("utf-8", "surrogateescape")
        image: bytes | None = None
        if name and name != ":memory:":
            full = self.path(name)
            private = full.startswith("/data/") and not full.startswith("/data/local/tmp")
            folder = posixpath.dirname(full)
            if (private and not self.root) or self.is_dir(name) or not self.is_dir(folder):
                message = f'Error: unable to open database "{name}": unable to open database file\n'
                return ShellResult(b"", message.encode(), 1)
            image = self.read(name)
        result = run_sql(image, sql, header=header, separator=separator, bail=bail)
        if result.image is not None and name and name != ":memory:":
            self.write(name, result.image)
        return ShellResult(result.stdout.encode("utf-8", "surrogateescape"), result.stderr.encode("utf-8", "surrogateescape"), result.code)

    # --- ls -l ------------------------------------------------------------------------------

    def _aw_ls(self, args: list[str], stdin: bytes) -> ShellResult:
        """toybox ``ls``; with ``-l`` the long listing (``-ll``: full time, as ``--full-time``),
        options anywhere among the operands (``ls DIR -ll -au``, as AndroidWorld lists files)."""
        flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
        if "l" not in flags:
            return self._ls(args, stdin)
        full_time = flags.count("l") > 1
        return self._ls(args, stdin, long=lambda path, shown: self._long_line(path, shown, full_time))

    def _long_line(self, path: str, shown: str, full_time: bool) -> str:
        """One ``ls -l`` line, as toybox prints it on shared storage."""
        data = self.read(path)
        full = self.path(path)
        owner = "u0_a158 media_rw" if full.startswith("/sdcard") else "root root"
        if data is None:
            mode, links, size, when = "drwxrws---", 2, 4096, self.phone.now()
        else:
            mode, links, size = "-rw-rw----", 1, len(data)
            when = datetime.fromtimestamp(self.phone.file_mtime(full), timezone.utc)
        stamp = when.strftime("%Y-%m-%d %H:%M:%S.%f000 +0000") if full_time else when.strftime("%Y-%m-%d %H:%M")
        return f"{mode} {links} {owner} {size} {stamp} {shown}"

    # --- printf ------------------------------------------------------------------------------

    def _aw_printf(self, args: list[str], stdin: bytes) -> ShellResult:
        """toybox ``printf FORMAT [ARG...]``: ``%s %d %i %c %x %%`` and backslash escapes; the
        format repeats while arguments remain."""
        if not args:
            return ShellResult(b"", b"printf: needs 1 argument\n", 1)
        fmt, rest = _unescape(args[0]), list(args[1:])
        out: list[str] = []
        while True:
            used = 0

            def field(match: re.Match[str], pending: list[str] = rest) -> str:
                nonlocal used
                spec = match.group(1)
                if spec == "%":
                    return "%"
                value = pending[used] if used < len(pending) else ""
                used += 1
                if spec in "di":
                    return str(int(value or 0))
                if spec == "x":
                    return format(int(value or 0), "x")
                if spec == "c":
                    return value[:1]
                return _unescape(value) if spec == "b" else value

            out.append(_PRINTF_FIELD.sub(field, fmt))
            rest = rest[used:]
            if not rest or not used:
                break
        return ShellResult("".join(out).encode("utf-8", "surrogateescape"))

    # --- chmod / restorecon: modes and labels the simulator does not keep --------------------

    def _aw_chmod(self, args: list[str], stdin: bytes) -> ShellResult:
        operands = [a for a in args if not a.startswith("-")][1:] if args[:1] != ["-RD"] else args[1:]
        missing = [name for name in operands if not self.exists(name)]
        if missing:
            return ShellResult(b"", "".join(f"chmod: {name}: No such file or directory\n" for name in missing).encode(), 1)
        return ShellResult()

    # --- pm grant / revoke -------------------------------------------------------------------

    def _aw_pm(self, args: list[str], stdin: bytes) -> ShellResult:
        """``pm grant|revoke PACKAGE PERMISSION``: accepted for installed packages (the
        simulator's apps ask for their permissions in their own dialogs)."""
        if args[:1] in (["grant"], ["revoke"]):
            if len(args) != 3:
                return ShellResult(b"", b"Error: no permission specified\n", 255)
            if args[1] not in self.phone.apps:
                message = f"Exception occurred while executing '{args[0]}':\n"
                message += f"java.lang.IllegalArgumentException: Unknown package: {args[1]}\n"
                return ShellResult(b"", message.encode(), 255)
            return ShellResult()
        if args[:1] == ["clear"] and len(args) > 1 and args[-1] in _PROVIDER_DATA:
            # A provider's data is its tables (the contacts, the texts and threads).
            if args[-1] not in self._packages_installed():
                return ShellResult(b"", b"Failed\n", 1)
            for uri in _PROVIDER_DATA[args[-1]]:
                self.phone.content_delete(uri)
            return ShellResult(b"Success\n")
        return self._pm(args, stdin)

    def _packages_installed(self) -> set[str]:
        return {*self.phone.apps, *_PROVIDER_DATA}

    # --- find --------------------------------------------------------------------------------

    def _aw_find(self, args: list[str], stdin: bytes) -> ShellResult:
        """toybox ``find ROOT... [-mindepth N] [-maxdepth N] [-type f|d [-o -type ...]] [-name GLOB] [-print|-delete]``."""
        roots: list[str] = []
        i = 0
        while i < len(args) and not args[i].startswith("-"):
            roots.append(args[i])
            i += 1
        mindepth, maxdepth, pattern, delete = 0, 1 << 30, "", False
        kinds: set[str] = set()  # `-type f -o -type d`: either
        while i < len(args):
            option = args[i]
            value = args[i + 1] if i + 1 < len(args) else None
            if option in ("-mindepth", "-maxdepth", "-type", "-name", "-iname") and value is None:
                return ShellResult(b"", f"find: '{option}' needs 1 arg\n".encode(), 1)
            if option == "-mindepth":
                mindepth, i = int(value or 0), i + 2
            elif option == "-maxdepth":
                maxdepth, i = int(value or 0), i + 2
            elif option == "-type":
                kinds.add(value or "")
                i += 2
            elif option == "-o":
                i += 1
            elif option in ("-name", "-iname"):
                pattern, i = value or "", i + 2
            elif option == "-delete":
                delete, i = True, i + 1
            elif option == "-print":
                i += 1
            else:
                return ShellResult(b"", f"find: Unknown option '{option}'\n".encode(), 1)
        out, err, code = [], [], 0
        for root in roots or ["."]:
            if not self.exists(root):
                err.append(f"find: '{root}': No such file or directory")
                code = 1
                continue
            found = [(root, 0)]
            stack = [(root, 0)]
            while stack:
                here, depth = stack.pop()
                if self.is_dir(here) and depth < maxdepth:
                    for name in reversed(self.listdir(here)):
                        child = posixpath.join(here, name)
                        found.append((child, depth + 1))
                        stack.append((child, depth + 1))
            matches = [
                path
                for path, depth in sorted(found, key=lambda item: item[0])
                if depth >= mindepth
                and (not kinds or ("d" if self.is_dir(path) else "f") in kinds)
                and (not pattern or fnmatch.fnmatchcase(posixpath.basename(path), pattern))
            ]
            if delete:
                # Deepest first, as find -delete implies -depth; a directory goes only when empty.
                for path in sorted(matches, key=lambda p: -p.count("/")):
                    if self.is_dir(path) and self.listdir(path):
                        err.append(f"find: {path}: Directory not empty")
                        code = 1
                    else:
                        self.remove(path)
            else:
                out.extend(matches)
        text = "".join(line + "\n" for line in out)
        return ShellResult(text.encode("utf-8", "surrogateescape"), "".join(e + "\n" for e in err).encode(), code)

    # --- svc ---------------------------------------------------------------------------------

    def _aw_svc(self, args: list[str], stdin: bytes) -> ShellResult:
        """``svc wifi|bluetooth enable|disable``: the radio and its global setting."""
        if len(args) == 2 and args[0] in _SVC_SETTINGS and args[1] in ("enable", "disable"):
            self.phone.put_setting("global", _SVC_SETTINGS[args[0]], "1" if args[1] == "enable" else "0")
            return ShellResult()
        return ShellResult(b"", b"Available commands:\n    wifi\n    bluetooth\n", 1 if args else 0)

    # --- test / [ ----------------------------------------------------------------------------

    def _aw_bracket(self, args: list[str], stdin: bytes) -> ShellResult:
        if not args or args[-1] != "]":
            return ShellResult(b"", b"[: missing ]\n", 2)
        return self._aw_test(args[:-1], stdin)

    def _aw_test(self, args: list[str], stdin: bytes) -> ShellResult:
        """toybox ``test``: one unary or binary expression, optionally negated with ``!``."""
        negate = bool(args) and args[0] == "!"
        if negate:
            args = args[1:]
        if len(args) == 0:
            value = False
        elif len(args) == 1:
            value = args[0] != ""
        elif len(args) == 2 and args[0] in _UNARY:
            op, operand = args
            value = {
                "-d": lambda: self.is_dir(operand),
                "-e": lambda: self.exists(operand),
                "-f": lambda: self.exists(operand) and not self.is_dir(operand),
                "-z": lambda: operand == "",
                "-n": lambda: operand != "",
            }[op]()
        elif len(args) == 3 and args[1] in ("=", "==", "!="):
            value = (args[0] == args[2]) != (args[1] == "!=")
        elif len(args) == 3 and args[1] in _NUMERIC:
            try:
                left, right = int(args[0]), int(args[2])
            except ValueError:
                return ShellResult(b"", b"test: bad number\n", 2)
            value = _NUMERIC[args[1]](left, right)
        else:
            return ShellResult(b"", f"test: unknown expression {' '.join(args)!r}\n".encode(), 2)
        return ShellResult(code=0 if value != negate else 1)

    # --- clock and timezone ------------------------------------------------------------------

    def _aw_date(self, args: list[str], stdin: bytes) -> ShellResult:
        """``date MMDDhhmm[[CC]YY][.ss]`` sets the clock (as root, in UTC); anything else prints it."""
        if not args or args[0].startswith(("+", "-")):
            return self._date(args, stdin)
        match = _DATE_SET.fullmatch(args[0])
        if match is None:
            return ShellResult(b"", f"date: bad date '{args[0]}'\n".encode(), 1)
        if not self.root:
            return ShellResult(b"", b"date: cannot set date: Operation not permitted\n", 1)
        now = self.phone.now()
        month, day, hour, minute, year, second = match.groups()
        full_year = now.year if year is None else (int(year) if len(year) == 4 else 2000 + int(year))
        try:
            when = datetime(full_year, int(month), int(day), int(hour), int(minute), int(second or 0), tzinfo=timezone.utc)
        except ValueError:
            return ShellResult(b"", f"date: bad date '{args[0]}'\n".encode(), 1)
        self.phone.state.clock = when.timestamp()
        self.phone.invalidate()  # the status bar shows the time
        return ShellResult(when.strftime("%a %b %e %H:%M:%S %Z %Y").encode() + b"\n")

    def _aw_service(self, args: list[str], stdin: bytes) -> ShellResult:
        """``service call alarm 3 s16 ZONE``: AlarmManager's setTimeZone (the simulator keeps UTC)."""
        if args[:3] == ["call", "alarm", "3"] and len(args) == 5 and args[3] == "s16":
            self.props["persist.sys.timezone"] = args[4]
            return ShellResult(b"Result: Parcel(00000000    '....')\n")
        if args[:1] == ["check"] and len(args) > 1:
            return ShellResult(f"Service {args[1]}: found\n".encode())
        return ShellResult(b"", b"service: usage: service [-h|-?] list | check SERVICE | call SERVICE CODE [...]\n", 1)

    # --- dumpsys input -----------------------------------------------------------------------

    def _aw_dumpsys(self, args: list[str], stdin: bytes) -> ShellResult:
        if args[:1] == ["input"]:
            return ShellResult(self._dumpsys_input().encode())
        if args[:1] == ["telephony.registry"]:
            return ShellResult(self._dumpsys_telephony().encode())
        if args[:1] == ["notification"]:
            return ShellResult(self._dumpsys_notification().encode("utf-8", "surrogateescape"))
        if args[:2] == ["activity", "recents"]:
            return ShellResult(self._recents().encode())
        return self._dumpsys(args, stdin)

    def _dumpsys_telephony(self) -> str:
        """The lines of ``dumpsys telephony.registry`` clients grep: the call state and number."""
        call = telephony.current_call(self.phone)
        number = "" if call is None else call["number"]
        return (
            "last known state:\n"
            "  Phone Id=0\n"
            f"  mCallState={telephony.call_state(self.phone)}\n"
            f"  mRingingCallState={1 if call and call['state'] == telephony.CALL_STATE_RINGING else 0}\n"
            f"  mCallIncomingNumber={number}\n"
            "  mServiceState={mVoiceRegState=0(IN_SERVICE), mDataRegState=0(IN_SERVICE)}\n"
            "  mDataConnectionState=2\n"
        )

    def _dumpsys_notification(self) -> str:
        """``dumpsys notification``: the posted notifications (package, title and text)."""
        posted = telephony.notifications(self.phone)
        lines = ["Current Notification Manager state:", f"  Notification List ({len(posted)}):"]
        for i, note in enumerate(reversed(posted)):
            lines.append(f"    NotificationRecord(0x{i:08x}: pkg={note['package']} user=UserHandle{{0}} id={i + 1} tag=null importance=4)")
            lines.append(f"      android.title=String ({note['title']})")
            lines.append(f"      android.text=String ({note['text']})")
        return "\n".join(lines) + "\n"

    # --- input keyevent ENDCALL --------------------------------------------------------------

    def _aw_input(self, args: list[str], stdin: bytes) -> ShellResult:
        """``input keyevent KEYCODE_ENDCALL`` (6) hangs up a call; everything else is ``input``'s."""
        if len(args) >= 2 and args[-2] == "keyevent" and args[-1].upper().removeprefix("KEYCODE_") in ("ENDCALL", "6"):
            telephony.end_call(self.phone)
            return ShellResult()
        return self._input(args, stdin)

    def _dumpsys_input(self) -> str:
        """The parts of ``dumpsys input`` clients parse: the viewport's logical frame and the
        touchscreen's orientation (portrait: the simulator does not rotate)."""
        width, height = self.phone.screen_size
        viewport = (
            f"Viewport INTERNAL: displayId=0, uniqueId=local:4619827259835644672, port=0, orientation=0, "
            f"logicalFrame=[0, 0, {width}, {height}], physicalFrame=[0, 0, {width}, {height}], "
            f"deviceSize=[{width}, {height}], isActive=[1]"
        )
        return (
            "INPUT MANAGER (dumpsys input)\n\n"
            "Input Manager Service (Java) State:\n"
            "  Interactive: true\n\n"
            "Input Reader State (Nums of device: 1):\n"
            "  Device 1: virtio_input_multi_touch_1\n"
            "    Sources: 0x00001002\n"
            "    Touch Input Mapper (mode - DIRECT):\n"
            "      Viewport INTERNAL: displayId=0, orientation=0\n"
            "      Raw Touch Axes:\n"
            f"        X: min=0, max={width - 1}, flat=0, fuzz=0, resolution=0\n"
            f"        Y: min=0, max={height - 1}, flat=0, fuzz=0, resolution=0\n"
            f"      SurfaceWidth: {width}px\n"
            f"      SurfaceHeight: {height}px\n"
            f"      PhysicalWidth: {width}px\n"
            f"      PhysicalHeight: {height}px\n"
            "      SurfaceOrientation: 0\n"
            "  Configuration:\n"
            "    TouchScreen: finger\n"
            "  Viewports:\n"
            f"    {viewport}\n"
        )

    # --- cp: files, folders, AndroidWorld's app snapshots -------------------------------------

    def _aw_cp(self, args: list[str], stdin: bytes) -> ShellResult:
        """``cp [-a|-r|-R|-p|-f]... SRC... DEST``: files, folders with ``-r``/``-R``/``-a``, and
        ``SRC/.`` for a folder's contents. An app's data folder copied to or from AndroidWorld's
        snapshot of it (``file_utils.copy_dir``, in ``app_snapshot``) saves or restores the
        app's data (:func:`~cerebellum_gym.sim.databases.restore_app_snapshot`)."""
        from cerebellum_gym.sim import databases

        flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
        paths = [a for a in args if not (a.startswith("-") and len(a) > 1)]
        if len(paths) < 2:
            return ShellResult(b"", b"cp: Needs 2 arguments\n", 1)
        recursive = any(flag in flags for flag in "arR")
        *sources, dest = paths
        errors: list[str] = []
        for source in sources:
            src, dst = self.path(source), self.path(dest)
            contents = source.rstrip("/").endswith("/.") or source.rstrip("/") == "."
            target = dst if contents or not self.is_dir(dst) else posixpath.join(dst, posixpath.basename(src))
            if recursive and self.is_dir(src):
                package = databases.app_data_path(src)
                if package is not None and databases.app_snapshot_path(target) == package:
                    databases.save_app_snapshot(self.phone, package)
                    continue
                package = databases.app_snapshot_path(src)
                if package is not None and databases.app_data_path(target) == package:
                    databases.restore_app_snapshot(self.phone, package)
                    continue
            self._copy_tree(src, target, recursive, errors)
        return ShellResult(b"", "".join(errors).encode(), 1 if errors else 0)

    def _copy_tree(self, src: str, target: str, recursive: bool, errors: list[str]) -> None:
        data = self.read(src)
        if data is not None:
            self.write(target, data)
        elif not self.is_dir(src):
            errors.append(f"cp: '{src}': No such file or directory\n")
        elif not recursive:
            errors.append(f"cp: '{src}' is a directory\n")
        else:
            self.phone.make_dir(target)
            for name in self.listdir(src):
                self._copy_tree(posixpath.join(src, name), posixpath.join(target, name), recursive, errors)

    # --- am stack list -----------------------------------------------------------------------

    def _aw_am(self, args: list[str], stdin: bytes) -> ShellResult:
        if args[:2] == ["stack", "list"]:
            return ShellResult(self._stack_list().encode())
        if args[:2] == ["stack", "remove"]:
            # AndroidWorld's tear-down (close_recents) removes every recent task: its screens
            # and drafts go, its data stays; an unknown id removes nothing, as on a device.
            tasks = {str(task_id): package for package, task_id in self._recent_tasks()}
            for task_id in args[2:]:
                if task_id in tasks:
                    self.phone.force_stop(tasks[task_id])
            return ShellResult()
        if args[:1] in (["start"], ["start-activity"]) and "-n" not in args and "-a" in args:
            resolved = self._aw_intent(args[1:])
            if resolved is not None:
                return resolved
        if args[:1] == ["broadcast"] and any(a.startswith("clipper.") for a in args):
            return self._aw_clipper(args[1:])
        return self._am(args, stdin)

    def _aw_intent(self, args: list[str]) -> ShellResult | None:
        """``am start`` by action: the contact editor (``INSERT`` of a contact, extras ``name``
        and ``phone``) and a text to a number (``SENDTO``/``VIEW`` ``sms:`` or ``smsto:``,
        extra ``sms_body``). ``None``: an intent for ``am``'s own resolution."""
        from cerebellum_gym.sim.shell.android import _options

        try:
            opts, _ = _options(args, takes_value={"-a", "-c", "-d", "-t", "--user", "-f"}, extras=True)
        except ValueError as exc:
            return ShellResult(b"", f"Exception occurred while executing 'start':\n{exc}\n".encode(), 255)
        action, data, mime = opts.get("-a", ""), opts.get("-d", ""), opts.get("-t", "")
        extras = {k[len("extra:") :]: v for k, v in opts.items() if k.startswith("extra:")}
        described = " ".join(
            part
            for part in (f"act={action}", f"dat={data}" if data else "", f"typ={mime}" if mime else "", "flg=0x10000000",
                         "(has extras)" if extras else "")
            if part
        )  # fmt: skip
        route: dict[str, Any]
        if action == "android.intent.action.INSERT" and mime in ("vnd.android.cursor.dir/contact", "vnd.android.cursor.dir/raw_contact"):
            package = CONTACTS_PACKAGE
            route = {"name": "create", **contact_fields(extras.get("name", ""), extras.get("phone", ""))}
        elif action in ("android.intent.action.SENDTO", "android.intent.action.VIEW") and data.split(":", 1)[0] in ("sms", "smsto"):
            package = SMS_PACKAGE
            number = data.split(":", 1)[1]
            route = {"name": "thread", "address": number, "draft": extras.get("sms_body", ""), "scroll": 10**6}
        else:
            return None
        if package not in self.phone.apps:
            return ShellResult(
                f"Starting: Intent {{ {described} }}\n".encode(),
                f"Error: Activity not started, unable to resolve Intent {{ {described} }}\n".encode(),
                1,
            )
        app = self.phone.apps[package]
        self.phone.start_app(package)
        if package == SMS_PACKAGE:
            app.open_thread(route["address"], route["draft"])  # type: ignore[attr-defined]
        else:
            app.push(route.pop("name"), **route)
        self.phone.invalidate()
        return ShellResult(f"Starting: Intent {{ {described} }}\n".encode())

    # --- Clipper's broadcasts ----------------------------------------------------------------

    def _aw_clipper(self, args: list[str]) -> ShellResult:
        """Clipper (``ca.zgrs.clipper``): ``clipper.set -e text TEXT`` copies TEXT exactly,
        ``clipper.get`` answers the clip as the broadcast's data. As on Android 10 and later,
        only the app in the foreground may use the clipboard: with Clipper in the background
        the receiver sets no result (``result=0``)."""
        from cerebellum_gym.sim.shell.android import _options

        try:
            opts, _ = _options(args, takes_value={"-a", "-n", "-c", "-d", "--user", "-f"}, extras=True)
        except ValueError as exc:
            return ShellResult(b"", f"Exception occurred while executing 'broadcast':\n{exc}\n".encode(), 255)
        action = opts.get("-a", "")
        extras = {k[len("extra:") :]: v for k, v in opts.items() if k.startswith("extra:")}
        header = f"Broadcasting: Intent {{ act={action} flg=0x400000{' (has extras)' if extras else ''} }}\n"
        if action not in ("clipper.set", "clipper.get") or CLIPPER_PACKAGE not in self.phone.apps:
            return ShellResult((header + "Broadcast completed: result=0\n").encode())
        if self.phone.foreground_package() != CLIPPER_PACKAGE:
            return ShellResult((header + "Broadcast completed: result=0\n").encode())
        if action == "clipper.set":
            if "text" not in extras:
                return ShellResult((header + "Broadcast completed: result=0\n").encode())
            telephony.set_clipboard(self.phone, extras["text"])
            self.phone.invalidate()  # Clipper shows the clip
            data = "Text is copied into clipboard."
        else:
            data = telephony.clipboard(self.phone) or ""
        reply = header + f'Broadcast completed: result=-1, data="{data}"\n'
        return ShellResult(reply.encode("utf-8", "surrogateescape"))

    def _recent_tasks(self) -> list[tuple[str, int]]:
        """The apps with a task in Overview (started and not stopped since; never the
        launcher), each with a task id fixed by its place among the installed apps."""
        from cerebellum_gym.sim.phone import LAUNCHER_PACKAGE

        state = self.phone.state
        started = set(state.stacks) | {state.foreground}
        return [(package, 100 + i) for i, package in enumerate(self.phone.apps) if package in started and package != LAUNCHER_PACKAGE]

    def _recents(self) -> str:
        """``dumpsys activity recents``: one entry per recent task with its ``id=N`` (what
        AndroidWorld's ``close_recents`` reads before ``am stack remove N``)."""
        lines = ["ACTIVITY MANAGER RECENT TASKS (dumpsys activity recents)\n", "  Recent tasks:\n"]
        for i, (package, task_id) in enumerate(self._recent_tasks()):
            component = _full(self._activity(package))
            lines.append(
                f"  * Recent #{i}: Task{{{task_id:07x} #{task_id} type=standard A=10{task_id}:{package} U=0 sz=1}}\n"
                f"    id={task_id} userId=0 realActivity={component}\n"
            )
        return "".join(lines)

    def _stack_list(self) -> str:
        """``am stack list``: the foreground task's root task first, visible, then the home task."""
        from cerebellum_gym.sim.phone import LAUNCHER_PACKAGE

        width, height = self.phone.screen_size
        bounds = f"bounds=[0,0][{width},{height}]"
        top = self.phone.foreground_package()
        home = self._activity(LAUNCHER_PACKAGE)
        lines = []
        if top != LAUNCHER_PACKAGE:
            component = self._activity(top)
            lines.append(
                f"RootTask id=12 {bounds} displayId=0 userId=0\n"
                "  configuration={1.0 ?mcc?mnc [en_US] ldltr sw411dp w411dp h914dp 420dpi nrml long port finger -keyb/v/h -nav/h}\n"
                f"  taskId=12: {component} {bounds} userId=0 visible=true topActivity=ComponentInfo{{{_full(component)}}}\n"
            )
        lines.append(
            f"RootTask id=1 {bounds} displayId=0 userId=0\n"
            f"  taskId=1: {home} {bounds} userId=0 visible={'false' if lines else 'true'} topActivity=ComponentInfo{{{_full(home)}}}\n"
        )
        return "".join(lines)


CONTACTS_PACKAGE: Final = "com.google.android.contacts"
SMS_PACKAGE: Final = "com.simplemobiletools.smsmessenger"
CLIPPER_PACKAGE: Final = "ca.zgrs.clipper"
#: System providers whose data ``pm clear`` wipes: package -> its content URIs.
_PROVIDER_DATA: Final = {
    "com.android.providers.contacts": (CONTACTS_URI,),
    "com.android.providers.telephony": (SMS_URI,),
}


def contact_fields(name: str, phone: str) -> dict[str, str]:
    """The contact editor's fields for an ``INSERT`` intent's ``name`` and ``phone``: the name
    split into first and last at its last space, as the editor's structured name shows it."""
    first, _, last = name.strip().rpartition(" ")
    if not first:
        first, last = last, ""
    return {"first": first, "last": last, "phone": phone}


#: The folders Android creates on shared storage (``Environment.DIRECTORY_*``); AndroidWorld's
#: tasks list and clear them.
STANDARD_FOLDERS: Final = (
    "Alarms", "Audiobooks", "DCIM", "Documents", "Download", "Movies", "Music", "Notifications", "Pictures",
    "Podcasts", "Recordings", "Ringtones",
)  # fmt: skip


def add_standard_folders(phone: Phone) -> None:
    """Create the standard shared-storage folders a device has from its first boot, and the
    folders installed apps make on their first start (AndroidWorld's emulator set-up starts
    each app once), such as Audio Recorder's records folder."""
    from cerebellum_gym.sim.apps.recorder import RECORDS_DIR, AudioRecorderApp

    for name in STANDARD_FOLDERS:
        phone.make_dir(f"/sdcard/{name}")
    if AudioRecorderApp.package in phone.apps:
        phone.make_dir(RECORDS_DIR)


_PRINTF_FIELD = re.compile(r"%([%sdicxb])")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "a": "\a", "0": "\0"}


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), "\\" + m.group(1)), text)


def _full(component: str) -> str:
    """``pkg/.Activity`` as ``pkg/pkg.Activity`` (how ``ComponentInfo`` prints it)."""
    package, _, activity = component.partition("/")
    return f"{package}/{package}{activity}" if activity.startswith(".") else component
