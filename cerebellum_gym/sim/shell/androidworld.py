"""What AndroidWorld's start-up and task code ask of a device, answered by the served shell as
an Android 13 emulator answers: the user adbd runs as (``id``, ``whoami``), the logical screen
size (``dumpsys input``), the task stack (``am stack list``), the timezone service call and the
small toybox utilities its set-up runs, registered into :data:`ANDROIDWORLD`.

Kept apart from the commands every ADB client uses (:mod:`~cerebellum_gym.sim.shell.toybox`,
:mod:`~cerebellum_gym.sim.shell.framework`): where a command exists there (``dumpsys``, ``am``,
``ls``, ...) this family's handler replaces it and calls it for what it does not answer itself.

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

from cerebellum_gym.sim import databases, telephony
from cerebellum_gym.sim.apps import permissions
from cerebellum_gym.sim.databases import run_sql
from cerebellum_gym.sim.providers import CONTACTS_URI, SMS_URI
from cerebellum_gym.sim.shell import framework, toybox
from cerebellum_gym.sim.shell.host import ShellHost
from cerebellum_gym.sim.shell.language import ShellResult
from cerebellum_gym.sim.shell.table import CommandTable

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


ANDROIDWORLD: Final = CommandTable[ShellHost]("androidworld")


# --- who adbd runs as --------------------------------------------------------------------


@ANDROIDWORLD.command("id")
def id_(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    if sh.root:
        return ShellResult(b"uid=0(root) gid=0(root) groups=0(root) context=u:r:su:s0\n")
    return ShellResult(b"uid=2000(shell) gid=2000(shell) groups=2000(shell) context=u:r:shell:s0\n")


@ANDROIDWORLD.command("whoami")
def whoami(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    return ShellResult(b"root\n" if sh.root else b"shell\n")


# --- content: the media store ------------------------------------------------------------


@ANDROIDWORLD.command("content", replaces=True)
def content(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    """The media store's tables, which the simulator does not index: queries find no rows
    and deletes remove none (AndroidWorld clears them after deleting the files)."""
    uri = args[args.index("--uri") + 1] if "--uri" in args[:-1] else ""
    if uri.startswith("content://media/"):
        if args[:1] == ["query"]:
            return ShellResult(b"No result found.\n")
        if args[:1] == ["delete"]:
            return ShellResult()
    return framework.content(sh, args, stdin)


# --- sqlite3 -----------------------------------------------------------------------------


@ANDROIDWORLD.command("sqlite3")
def sqlite3(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
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
        full = sh.path(name)
        private = full.startswith("/data/") and not full.startswith("/data/local/tmp")
        folder = posixpath.dirname(full)
        if (private and not sh.root) or sh.is_dir(name) or not sh.is_dir(folder):
            message = f'Error: unable to open database "{name}": unable to open database file\n'
            return ShellResult(b"", message.encode(), 1)
        image = sh.read(name)
    result = run_sql(image, sql, header=header, separator=separator, bail=bail)
    if result.image is not None and name and name != ":memory:":
        sh.write(name, result.image)
    return ShellResult(result.stdout.encode("utf-8", "surrogateescape"), result.stderr.encode("utf-8", "surrogateescape"), result.code)


# --- ls -l ------------------------------------------------------------------------------


@ANDROIDWORLD.command("ls", replaces=True)
def ls(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    """toybox ``ls``; with ``-l`` the long listing (``-ll``: full time, as ``--full-time``),
    options anywhere among the operands (``ls DIR -ll -au``, as AndroidWorld lists files)."""
    flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
    if "l" not in flags:
        return toybox.ls(sh, args, stdin)
    full_time = flags.count("l") > 1
    return toybox.ls(sh, args, stdin, long=lambda path, shown: _long_line(sh, path, shown, full_time))


def _long_line(sh: ShellHost, path: str, shown: str, full_time: bool) -> str:
    """One ``ls -l`` line, as toybox prints it on shared storage."""
    data = sh.read(path)
    full = sh.path(path)
    owner = "u0_a158 media_rw" if full.startswith("/sdcard") else "root root"
    if data is None:
        mode, links, size, when = "drwxrws---", 2, 4096, sh.phone.now()
    else:
        mode, links, size = "-rw-rw----", 1, len(data)
        when = datetime.fromtimestamp(sh.phone.file_mtime(full), timezone.utc)
    stamp = when.strftime("%Y-%m-%d %H:%M:%S.%f000 +0000") if full_time else when.strftime("%Y-%m-%d %H:%M")
    return f"{mode} {links} {owner} {size} {stamp} {shown}"


# --- printf ------------------------------------------------------------------------------


@ANDROIDWORLD.command("printf")
def printf(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
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


@ANDROIDWORLD.command("restorecon")
@ANDROIDWORLD.command("chmod")
def chmod(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    operands = [a for a in args if not a.startswith("-")][1:] if args[:1] != ["-RD"] else args[1:]
    missing = [name for name in operands if not sh.exists(name)]
    if missing:
        return ShellResult(b"", "".join(f"chmod: {name}: No such file or directory\n" for name in missing).encode(), 1)
    return ShellResult()


# --- pm grant / revoke -------------------------------------------------------------------


@ANDROIDWORLD.command("pm", replaces=True)
def pm(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    """``pm grant|revoke PACKAGE PERMISSION``: accepted for installed packages, and recorded as
    the permission prompt records an answer."""
    if args[:1] in (["grant"], ["revoke"]):
        if len(args) != 3:
            return ShellResult(b"", b"Error: no permission specified\n", 255)
        if args[1] not in sh.phone.apps:
            message = f"Exception occurred while executing '{args[0]}':\n"
            message += f"java.lang.IllegalArgumentException: Unknown package: {args[1]}\n"
            return ShellResult(b"", message.encode(), 255)
        # Recorded where the permission prompt keeps its answers (Tasks.org's editor reads it).
        permissions.set_granted(sh.phone, args[1], args[2], args[0] == "grant")
        return ShellResult()
    if args[:1] == ["clear"] and len(args) > 1 and args[-1] in _PROVIDER_DATA:
        # A provider's data is its tables (the contacts, the texts and threads).
        if args[-1] not in _packages_installed(sh):
            return ShellResult(b"", b"Failed\n", 1)
        for uri in _PROVIDER_DATA[args[-1]]:
            sh.phone.content_delete(uri)
        return ShellResult(b"Success\n")
    return framework.pm(sh, args, stdin)


def _packages_installed(sh: ShellHost) -> set[str]:
    return {*sh.phone.apps, *_PROVIDER_DATA}


# --- find --------------------------------------------------------------------------------


@ANDROIDWORLD.command("find")
def find(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
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
        if not sh.exists(root):
            err.append(f"find: '{root}': No such file or directory")
            code = 1
            continue
        found = [(root, 0)]
        stack = [(root, 0)]
        while stack:
            here, depth = stack.pop()
            if sh.is_dir(here) and depth < maxdepth:
                for name in reversed(sh.listdir(here)):
                    child = posixpath.join(here, name)
                    found.append((child, depth + 1))
                    stack.append((child, depth + 1))
        matches = [
            path
            for path, depth in sorted(found, key=lambda item: item[0])
            if depth >= mindepth
            and (not kinds or ("d" if sh.is_dir(path) else "f") in kinds)
            and (not pattern or fnmatch.fnmatchcase(posixpath.basename(path), pattern))
        ]
        if delete:
            # Deepest first, as find -delete implies -depth; a directory goes only when empty.
            for path in sorted(matches, key=lambda p: -p.count("/")):
                if sh.is_dir(path) and sh.listdir(path):
                    err.append(f"find: {path}: Directory not empty")
                    code = 1
                else:
                    sh.remove(path)
        else:
            out.extend(matches)
    text = "".join(line + "\n" for line in out)
    return ShellResult(text.encode("utf-8", "surrogateescape"), "".join(e + "\n" for e in err).encode(), code)


# --- svc ---------------------------------------------------------------------------------


@ANDROIDWORLD.command("svc")
def svc(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    """``svc wifi|bluetooth enable|disable``: the radio and its global setting."""
    if len(args) == 2 and args[0] in _SVC_SETTINGS and args[1] in ("enable", "disable"):
        sh.phone.put_setting("global", _SVC_SETTINGS[args[0]], "1" if args[1] == "enable" else "0")
        return ShellResult()
    return ShellResult(b"", b"Available commands:\n    wifi\n    bluetooth\n", 1 if args else 0)


# --- test / [ ----------------------------------------------------------------------------


@ANDROIDWORLD.command("[")
def bracket(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    if not args or args[-1] != "]":
        return ShellResult(b"", b"[: missing ]\n", 2)
    return test_(sh, args[:-1], stdin)


@ANDROIDWORLD.command("test")
def test_(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
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
            "-d": lambda: sh.is_dir(operand),
            "-e": lambda: sh.exists(operand),
            "-f": lambda: sh.exists(operand) and not sh.is_dir(operand),
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


@ANDROIDWORLD.command("date", replaces=True)
def date(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    """``date MMDDhhmm[[CC]YY][.ss]`` sets the clock (as root, in UTC); anything else prints it."""
    if not args or args[0].startswith(("+", "-")):
        return toybox.date(sh, args, stdin)
    match = _DATE_SET.fullmatch(args[0])
    if match is None:
        return ShellResult(b"", f"date: bad date '{args[0]}'\n".encode(), 1)
    if not sh.root:
        return ShellResult(b"", b"date: cannot set date: Operation not permitted\n", 1)
    now = sh.phone.now()
    month, day, hour, minute, year, second = match.groups()
    full_year = now.year if year is None else (int(year) if len(year) == 4 else 2000 + int(year))
    try:
        when = datetime(full_year, int(month), int(day), int(hour), int(minute), int(second or 0), tzinfo=timezone.utc)
    except ValueError:
        return ShellResult(b"", f"date: bad date '{args[0]}'\n".encode(), 1)
    sh.phone.state.clock = when.timestamp()
    sh.phone.invalidate()  # the status bar shows the time
    return ShellResult(when.strftime("%a %b %e %H:%M:%S %Z %Y").encode() + b"\n")


@ANDROIDWORLD.command("service")
def service(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    """``service call alarm 3 s16 ZONE``: AlarmManager's setTimeZone (the simulator keeps UTC)."""
    if args[:3] == ["call", "alarm", "3"] and len(args) == 5 and args[3] == "s16":
        sh.props["persist.sys.timezone"] = args[4]
        return ShellResult(b"Result: Parcel(00000000    '....')\n")
    if args[:1] == ["check"] and len(args) > 1:
        return ShellResult(f"Service {args[1]}: found\n".encode())
    return ShellResult(b"", b"service: usage: service [-h|-?] list | check SERVICE | call SERVICE CODE [...]\n", 1)


# --- dumpsys input -----------------------------------------------------------------------


@ANDROIDWORLD.command("dumpsys", replaces=True)
def dumpsys(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    if args[:1] == ["input"]:
        return ShellResult(_dumpsys_input(sh).encode())
    if args[:1] == ["telephony.registry"]:
        return ShellResult(_dumpsys_telephony(sh).encode())
    if args[:1] == ["notification"]:
        return ShellResult(_dumpsys_notification(sh).encode("utf-8", "surrogateescape"))
    if args[:2] == ["activity", "recents"]:
        return ShellResult(_recents(sh).encode())
    return framework.dumpsys(sh, args, stdin)


def _dumpsys_telephony(sh: ShellHost) -> str:
    """The lines of ``dumpsys telephony.registry`` clients grep: the call state and number."""
    call = telephony.current_call(sh.phone)
    number = "" if call is None else call["number"]
    return (
        "last known state:\n"
        "  Phone Id=0\n"
        f"  mCallState={telephony.call_state(sh.phone)}\n"
        f"  mRingingCallState={1 if call and call['state'] == telephony.CALL_STATE_RINGING else 0}\n"
        f"  mCallIncomingNumber={number}\n"
        "  mServiceState={mVoiceRegState=0(IN_SERVICE), mDataRegState=0(IN_SERVICE)}\n"
        "  mDataConnectionState=2\n"
    )


def _dumpsys_notification(sh: ShellHost) -> str:
    """``dumpsys notification``: the posted notifications (package, title and text)."""
    posted = telephony.notifications(sh.phone)
    lines = ["Current Notification Manager state:", f"  Notification List ({len(posted)}):"]
    for i, note in enumerate(reversed(posted)):
        lines.append(f"    NotificationRecord(0x{i:08x}: pkg={note['package']} user=UserHandle{{0}} id={i + 1} tag=null importance=4)")
        lines.append(f"      android.title=String ({note['title']})")
        lines.append(f"      android.text=String ({note['text']})")
    return "\n".join(lines) + "\n"


# --- input keyevent ENDCALL --------------------------------------------------------------


@ANDROIDWORLD.command("input", replaces=True)
def input_(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    """``input keyevent KEYCODE_ENDCALL`` (6) hangs up a call; everything else is ``input``'s."""
    if len(args) >= 2 and args[-2] == "keyevent" and args[-1].upper().removeprefix("KEYCODE_") in ("ENDCALL", "6"):
        telephony.end_call(sh.phone)
        return ShellResult()
    return framework.input_(sh, args, stdin)


def _dumpsys_input(sh: ShellHost) -> str:
    """The parts of ``dumpsys input`` clients parse: the viewport's logical frame and the
    touchscreen's orientation (portrait: the simulator does not rotate)."""
    width, height = sh.phone.screen_size
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


@ANDROIDWORLD.command("cp")
def cp(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    """``cp [-a|-r|-R|-p|-f]... SRC... DEST``: files, folders with ``-r``/``-R``/``-a``, and
    ``SRC/.`` for a folder's contents. An app's data folder copied to or from AndroidWorld's
    snapshot of it (``file_utils.copy_dir``, in ``app_snapshot``) saves or restores the
    app's data (:func:`~cerebellum_gym.sim.databases.restore_app_snapshot`)."""
    flags = "".join(a[1:] for a in args if a.startswith("-") and len(a) > 1)
    paths = [a for a in args if not (a.startswith("-") and len(a) > 1)]
    if len(paths) < 2:
        return ShellResult(b"", b"cp: Needs 2 arguments\n", 1)
    recursive = any(flag in flags for flag in "arR")
    *sources, dest = paths
    errors: list[str] = []
    for source in sources:
        src, dst = sh.path(source), sh.path(dest)
        contents = source.rstrip("/").endswith("/.") or source.rstrip("/") == "."
        target = dst if contents or not sh.is_dir(dst) else posixpath.join(dst, posixpath.basename(src))
        if recursive and sh.is_dir(src):
            package = databases.app_data_path(src)
            if package is not None and databases.app_snapshot_path(target) == package:
                databases.save_app_snapshot(sh.phone, package)
                continue
            package = databases.app_snapshot_path(src)
            if package is not None and databases.app_data_path(target) == package:
                databases.restore_app_snapshot(sh.phone, package)
                continue
        _copy_tree(sh, src, target, recursive, errors)
    return ShellResult(b"", "".join(errors).encode(), 1 if errors else 0)


def _copy_tree(sh: ShellHost, src: str, target: str, recursive: bool, errors: list[str]) -> None:
    data = sh.read(src)
    if data is not None:
        sh.write(target, data)
    elif not sh.is_dir(src):
        errors.append(f"cp: '{src}': No such file or directory\n")
    elif not recursive:
        errors.append(f"cp: '{src}' is a directory\n")
    else:
        sh.phone.make_dir(target)
        for name in sh.listdir(src):
            _copy_tree(sh, posixpath.join(src, name), posixpath.join(target, name), recursive, errors)


# --- am stack list -----------------------------------------------------------------------


@ANDROIDWORLD.command("am", replaces=True)
def am(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    if args[:2] == ["stack", "list"]:
        return ShellResult(_stack_list(sh).encode())
    if args[:2] == ["stack", "remove"]:
        # AndroidWorld's tear-down (close_recents) removes every recent task: its screens
        # and drafts go, its data stays; an unknown id removes nothing, as on a device.
        tasks = {str(task_id): package for package, task_id in _recent_tasks(sh)}
        for task_id in args[2:]:
            if task_id in tasks:
                sh.phone.force_stop(tasks[task_id])
        return ShellResult()
    if args[:1] in (["start"], ["start-activity"]) and "-n" not in args and "-a" in args:
        resolved = _intent(sh, args[1:])
        if resolved is not None:
            return resolved
    if args[:1] == ["broadcast"] and any(a.startswith("clipper.") for a in args):
        return _clipper(sh, args[1:])
    return framework.am(sh, args, stdin)


def _intent(sh: ShellHost, args: list[str]) -> ShellResult | None:
    """``am start`` by action: the contact editor (``INSERT`` of a contact, extras ``name``
    and ``phone``) and a text to a number (``SENDTO``/``VIEW`` ``sms:`` or ``smsto:``,
    extra ``sms_body``). ``None``: an intent for ``am``'s own resolution."""
    try:
        opts, _ = framework.parse_options(args, takes_value={"-a", "-c", "-d", "-t", "--user", "-f"}, extras=True)
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
    if package not in sh.phone.apps:
        return ShellResult(
            f"Starting: Intent {{ {described} }}\n".encode(),
            f"Error: Activity not started, unable to resolve Intent {{ {described} }}\n".encode(),
            1,
        )
    app = sh.phone.apps[package]
    sh.phone.start_app(package)
    if package == SMS_PACKAGE:
        app.open_thread(route["address"], route["draft"])  # type: ignore[attr-defined]
    else:
        app.push(route.pop("name"), **route)
    sh.phone.invalidate()
    return ShellResult(f"Starting: Intent {{ {described} }}\n".encode())


# --- Clipper's broadcasts ----------------------------------------------------------------


def _clipper(sh: ShellHost, args: list[str]) -> ShellResult:
    """Clipper (``ca.zgrs.clipper``): ``clipper.set -e text TEXT`` copies TEXT exactly,
    ``clipper.get`` answers the clip as the broadcast's data. As on Android 10 and later,
    only the app in the foreground may use the clipboard: with Clipper in the background
    the receiver sets no result (``result=0``)."""
    try:
        opts, _ = framework.parse_options(args, takes_value={"-a", "-n", "-c", "-d", "--user", "-f"}, extras=True)
    except ValueError as exc:
        return ShellResult(b"", f"Exception occurred while executing 'broadcast':\n{exc}\n".encode(), 255)
    action = opts.get("-a", "")
    extras = {k[len("extra:") :]: v for k, v in opts.items() if k.startswith("extra:")}
    header = f"Broadcasting: Intent {{ act={action} flg=0x400000{' (has extras)' if extras else ''} }}\n"
    if action not in ("clipper.set", "clipper.get") or CLIPPER_PACKAGE not in sh.phone.apps:
        return ShellResult((header + "Broadcast completed: result=0\n").encode())
    if sh.phone.foreground_package() != CLIPPER_PACKAGE:
        return ShellResult((header + "Broadcast completed: result=0\n").encode())
    if action == "clipper.set":
        if "text" not in extras:
            return ShellResult((header + "Broadcast completed: result=0\n").encode())
        telephony.set_clipboard(sh.phone, extras["text"])
        sh.phone.invalidate()  # Clipper shows the clip
        data = "Text is copied into clipboard."
    else:
        data = telephony.clipboard(sh.phone) or ""
    reply = header + f'Broadcast completed: result=-1, data="{data}"\n'
    return ShellResult(reply.encode("utf-8", "surrogateescape"))


def _recent_tasks(sh: ShellHost) -> list[tuple[str, int]]:
    """The apps with a task in Overview (started and not stopped since; never the
    launcher), each with a task id fixed by its place among the installed apps."""
    from cerebellum_gym.sim.phone import LAUNCHER_PACKAGE

    state = sh.phone.state
    started = set(state.stacks) | {state.foreground}
    return [(package, 100 + i) for i, package in enumerate(sh.phone.apps) if package in started and package != LAUNCHER_PACKAGE]


def _recents(sh: ShellHost) -> str:
    """``dumpsys activity recents``: one entry per recent task with its ``id=N`` (what
    AndroidWorld's ``close_recents`` reads before ``am stack remove N``)."""
    lines = ["ACTIVITY MANAGER RECENT TASKS (dumpsys activity recents)\n", "  Recent tasks:\n"]
    for i, (package, task_id) in enumerate(_recent_tasks(sh)):
        component = _full(framework.activity_component(sh, package))
        lines.append(
            f"  * Recent #{i}: Task{{{task_id:07x} #{task_id} type=standard A=10{task_id}:{package} U=0 sz=1}}\n"
            f"    id={task_id} userId=0 realActivity={component}\n"
        )
    return "".join(lines)


def _stack_list(sh: ShellHost) -> str:
    """``am stack list``: the foreground task's root task first, visible, then the home task."""
    from cerebellum_gym.sim.phone import LAUNCHER_PACKAGE

    width, height = sh.phone.screen_size
    bounds = f"bounds=[0,0][{width},{height}]"
    top = sh.phone.foreground_package()
    home = framework.activity_component(sh, LAUNCHER_PACKAGE)
    lines = []
    if top != LAUNCHER_PACKAGE:
        component = framework.activity_component(sh, top)
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
