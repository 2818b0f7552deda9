"""The Android framework's commands in the served shell, by family: the activity manager
(``am``, ``monkey``, ``dumpsys``, ``wm``), the package manager (``pm``, ``ime``), ``settings``,
``content``, input and the screen (``input``, ``screencap``, ``uiautomator``) and the
simulator's own ``cerebellum-sim``, printing what a real device prints.

Example:
    >>> from cerebellum_gym.sim.phone import Phone
    >>> from cerebellum_gym.sim.shell.host import ShellHost
    >>> sh = ShellHost(Phone(), commands=SETTINGS)
    >>> sh.run("settings put global wifi_on 0 && settings get global wifi_on").stdout
    b'0\\n'
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Final

from cerebellum_gym.devices.android import ADB_KEYBOARD_IME, ADB_KEYBOARD_PACKAGE, SIM_RESET_COMMAND
from cerebellum_gym.devices.base import KEYCODE_BACK, KEYCODE_DEL, KEYCODE_ENTER, KEYCODE_HOME
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.sim import databases
from cerebellum_gym.sim.shell.host import PROPS, ShellHost
from cerebellum_gym.sim.shell.language import ShellResult, fail, ok
from cerebellum_gym.sim.shell.table import CommandTable

LATIN_IME: Final = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"
DEFAULT_DUMP_PATH: Final = "/sdcard/window_dump.xml"
#: ``am start -a android.intent.action.VIEW -d URI``: the app that handles each data URI
#: (without its trailing slash). The contacts provider's people list opens Contacts, as it does
#: on a device (AndroidWorld's ``launch_app("contacts")`` starts it so).
VIEW_DATA: Final[dict[str, str]] = {
    "content://contacts/people": "com.google.android.contacts",
    "content://com.android.contacts/contacts": "com.google.android.contacts",
}
KEYCODES: Final[dict[str, int]] = {
    "HOME": KEYCODE_HOME, "BACK": KEYCODE_BACK, "CALL": 5, "ENDCALL": 6, "DPAD_UP": 19, "DPAD_DOWN": 20, "DPAD_LEFT": 21,
    "DPAD_RIGHT": 22, "DPAD_CENTER": 23, "VOLUME_UP": 24, "VOLUME_DOWN": 25, "POWER": 26, "CAMERA": 27,
    "TAB": 61, "SPACE": 62, "ENTER": KEYCODE_ENTER, "DEL": KEYCODE_DEL, "MENU": 82, "SEARCH": 84, "ESCAPE": 111,
    "FORWARD_DEL": 112, "MOVE_HOME": 122, "MOVE_END": 123, "APP_SWITCH": 187, "WAKEUP": 224,
}  # fmt: skip

#: ``am``, ``monkey``, ``dumpsys``, ``wm``: activities, windows and services.
ACTIVITY: Final = CommandTable[ShellHost]("activity")
#: ``pm``, ``ime``: packages and input methods.
PACKAGES: Final = CommandTable[ShellHost]("packages")
#: ``settings``: the settings provider.
SETTINGS: Final = CommandTable[ShellHost]("settings")
#: ``content``: content providers.
CONTENT: Final = CommandTable[ShellHost]("content")
#: ``input``, ``screencap``, ``uiautomator``: input events and the screen.
INPUT: Final = CommandTable[ShellHost]("input")
#: ``cerebellum-sim``: the simulator's own controls.
SIMULATOR: Final = CommandTable[ShellHost]("simulator")
#: The families, in the order the shell combines them.
FAMILIES: Final = (ACTIVITY, PACKAGES, SETTINGS, CONTENT, INPUT, SIMULATOR)


# --- activities --------------------------------------------------------------------------


@ACTIVITY.command("wm")
def wm(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    width, height = sh.phone.screen_size
    if args[:1] == ["size"]:
        return ok(f"Physical size: {width}x{height}\n")
    if args[:1] == ["density"]:
        return ok(f"Physical density: {PROPS['ro.sf.lcd_density']}\n")
    return fail("usage: wm [size|density]\n", 255)


def activity_component(sh: ShellHost, package: str) -> str:
    """``package/Activity``: the app's main activity as the real app names it."""
    app = sh.phone.apps.get(package)
    return f"{package}/{app.activity if app is not None else '.MainActivity'}"


def declared_activities(sh: ShellHost, package: str) -> set[str]:
    """The activities ``package`` declares (its main one and :attr:`App.activities`), as
    fully qualified class names: what ``am start -n`` resolves."""
    app = sh.phone.apps[package]
    return {_full_class(package, name) for name in (app.activity, *app.activities)}


@ACTIVITY.command("dumpsys")
def dumpsys(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    service = args[0] if args else ""
    component = activity_component(sh, sh.phone.foreground_package())
    if service == "window":
        width, height = sh.phone.screen_size
        return ok(
            "WINDOW MANAGER WINDOWS (dumpsys window windows)\n"
            f"  Window #0 Window{{5e1a2c0 u0 {component}}}:\n"
            f"    mDisplayId=0 rootTaskId=1 mSession=Session{{8c3f1d0 4242:u0a10123}} mClient=android.os.BinderProxy@1f2e3d4\n"
            f"    mFrame=[0,0][{width},{height}]\n"
            "\n"
            f"  mCurrentFocus=Window{{5e1a2c0 u0 {component}}}\n"
            f"  mFocusedApp=ActivityRecord{{a0b1c2d u0 {component} t12}}\n"
        )
    if service == "activity":
        return ok(
            f"ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n  mResumedActivity: ActivityRecord{{a0b1c2d u0 {component} t12}}\n"
        )
    if service == "input_method":
        return ok(f"  mCurMethodId={current_ime(sh)}\n")
    return fail(f"Can't find service: {service}\n")


@ACTIVITY.command("am")
def am(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    sub = args[0] if args else ""
    try:
        return _am_command(sh, args)
    except ValueError as exc:
        # How `am` reports arguments it cannot parse (exit 255, as its Java exception does).
        return fail(f"Exception occurred while executing '{sub}':\n{exc}\n", 255)


def _am_command(sh: ShellHost, args: list[str]) -> ShellResult:
    sub, rest = (args[0], args[1:]) if args else ("", [])
    if sub == "force-stop":
        for package in (a for a in rest if not a.startswith("-")):
            sh.phone.force_stop(package)
        return ShellResult()
    if sub in ("start", "start-activity"):
        opts, positional = parse_options(rest, takes_value={"-n", "-a", "-c", "-d", "-t", "--user", "-f"}, extras=True)
        component = opts.get("-n") or (positional[0] if positional else "")
        if opts.get("-c") == "android.intent.category.HOME" or (
            opts.get("-a") == "android.intent.action.MAIN" and opts.get("-c") == "android.intent.category.HOME"
        ):
            sh.phone.go_home()
            return ok("Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.HOME] }\n")
        data = opts.get("-d", "")
        if not component and opts.get("-a") == "android.intent.action.VIEW" and data.rstrip("/") in VIEW_DATA:
            # A data URI an app handles (AndroidWorld opens "contacts" so): that app's main activity.
            package = VIEW_DATA[data.rstrip("/")]
            if package in sh.phone.apps:
                sh.phone.start_app(package)
                return ok(f"Starting: Intent {{ act=android.intent.action.VIEW dat={data} }}\n")
        package = component.split("/", 1)[0]
        if package not in sh.phone.apps:
            # As am prints the intent: its action, data and type when no component names it.
            parts = [f"{key}={opts[flag]}" for flag, key in (("-a", "act"), ("-d", "dat"), ("-t", "typ")) if opts.get(flag)]
            described = f"cmp={component}" if component or not parts else " ".join([*parts, "flg=0x10000000"])
            return fail(f"Error: Activity not started, unable to resolve Intent {{ {described} }}\n")
        if "/" not in component:
            raise ValueError(f"java.lang.IllegalArgumentException: Bad component name: {component}")
        activity = _full_class(package, component.split("/", 1)[1])
        if activity not in declared_activities(sh, package):
            # As am answers a component whose package exists but declares no such activity
            # (START_CLASS_NOT_FOUND): the error on stdout with -W, on stderr without; nothing starts.
            error = f"Error type 3\nError: Activity class {{{package}/{activity}}} does not exist.\n"
            started = f"Starting: Intent {{ cmp={component} }}\n"
            if "-W" in opts:
                return ShellResult((started + error).encode(), b"", 1)
            return ShellResult(started.encode(), error.encode(), 1)
        if "-S" in opts:
            sh.phone.force_stop(package)
        sh.phone.start_app(package)
        return ok(f"Starting: Intent {{ cmp={component} }}\n")
    if sub == "broadcast":
        return _broadcast(sh, rest)
    return fail(f"Unknown command: {sub}\n", 255 if sub else 1)


def _broadcast(sh: ShellHost, args: list[str]) -> ShellResult:
    opts, _ = parse_options(args, takes_value={"-a", "-n", "-c", "-d", "--user"}, extras=True)
    action = opts.get("-a", "")
    extras: dict[str, str] = {k[len("extra:") :]: v for k, v in opts.items() if k.startswith("extra:")}
    header = f"Broadcasting: Intent {{ act={action} flg=0x400000{' (has extras)' if extras else ''} }}\n"
    if action.startswith("ADB_") and current_ime(sh) == ADB_KEYBOARD_IME:
        error = _adb_keyboard(sh, action, extras)
        if error:
            return fail(header + error)
    return ok(header + "Broadcast completed: result=0\n")


def _adb_keyboard(sh: ShellHost, action: str, extras: dict[str, str]) -> str:
    """The ADB keyboard's broadcast interface; returns an error text or ``""``."""
    if action == "ADB_INPUT_TEXT":
        sh.phone.type_text(extras.get("msg", ""))
    elif action == "ADB_INPUT_B64":
        try:
            text = base64.b64decode(extras.get("msg", ""), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError) as exc:
            return f"java.lang.IllegalArgumentException: bad base64: {exc}\n"
        sh.phone.type_text(text)
    elif action == "ADB_INPUT_CHARS":
        try:
            sh.phone.type_text("".join(chr(int(c)) for c in extras.get("chars", "").split(",") if c))
        except ValueError as exc:
            return f"java.lang.NumberFormatException: {exc}\n"
    elif action == "ADB_INPUT_CODE":
        try:
            code = int(extras.get("code", "-1"))
        except ValueError:
            return f'java.lang.NumberFormatException: For input string: "{extras.get("code")}"\n'
        sh.phone.press_key(code)
    elif action == "ADB_CLEAR_TEXT":
        sh.phone.clear_focused_text()
    return ""


@PACKAGES.command("pm")
def pm(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    if args[:2] == ["list", "packages"]:
        wanted = args[2] if len(args) > 2 and not args[2].startswith("-") else ""
        return ok("".join(f"package:{p}\n" for p in installed_packages(sh) if wanted in p))
    if args[:1] == ["path"] and len(args) > 1:
        package = args[-1]
        if package not in installed_packages(sh):
            return ShellResult(code=1)  # as `pm path`: nothing printed for an unknown package
        return ok(f"package:/data/app/~~cerebellum/{package}-1/base.apk\n")
    if args[:1] == ["clear"] and len(args) > 1:
        package = args[-1]
        sh.phone.force_stop(package)
        if package in sh.phone.apps:
            sh.phone.apps[package].clear_data()
        else:
            sh.phone.state.app_data.pop(package, None)
            databases.app_data_cleared(sh.phone, package)
        sh.phone.invalidate()
        return ok("Success\n")
    return fail("usage: pm [list packages|path PACKAGE|clear PACKAGE]\n", 255)


def installed_packages(sh: ShellHost) -> list[str]:
    """Installed packages: the simulator's apps, the ADB keyboard and the system UI."""
    return sorted({*sh.phone.apps, ADB_KEYBOARD_PACKAGE, "com.android.systemui"})


def current_ime(sh: ShellHost) -> str:
    return sh.phone.state.settings.get("secure", {}).get("default_input_method", LATIN_IME)


@PACKAGES.command("ime")
def ime(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    if args[:1] == ["list"]:
        return ok(f"{LATIN_IME}\n{ADB_KEYBOARD_IME}\n")
    if args[:1] in (["set"], ["enable"]) and len(args) > 1:
        if args[1] not in (LATIN_IME, ADB_KEYBOARD_IME):
            return fail(f"Unknown input method {args[1]} cannot be selected for user #0\n")
        if args[0] == "set":
            sh.phone.put_setting("secure", "default_input_method", args[1])
            return ok(f"Input method {args[1]} selected for user #0\n")
        return ok(f"Input method {args[1]}: already enabled for user #0\n")
    return fail("usage: ime [list|set ID|enable ID]\n", 255)


@ACTIVITY.command("monkey")
def monkey(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    opts, _ = parse_options(args, takes_value={"-p", "-c", "--throttle", "-s", "--pct-syskeys"})
    package = opts.get("-p", "")
    if package not in sh.phone.apps or not sh.phone.apps[package].launchable:
        return ShellResult(b"  bash arg: -p\n", b"** No activities found to run, monkey aborted.\n", 252)
    sh.phone.start_app(package)
    stats = "## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)"
    return ok(f"  bash arg: -p\n  bash arg: {package}\nEvents injected: 1\n{stats}\n")


@SIMULATOR.command(SIM_RESET_COMMAND.split()[0])
def cerebellum_sim(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    """Simulator-only controls (no real device has this command)."""
    if args == ["factory-reset"]:
        sh.phone.factory_reset()
        if sh.provision is not None:
            sh.provision(sh.phone)
        return ok("factory reset done\n")
    if args == ["version"]:
        from cerebellum_gym import __version__

        return ok(f"cerebellum-gym {__version__}\n")
    return fail("usage: cerebellum-sim factory-reset|version\n", 2)


# --- input and screen --------------------------------------------------------------------


@INPUT.command("input")
def input_(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
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
            sh.phone.tap(_coord(rest[0]), _coord(rest[1]))
        elif sub in ("swipe", "draganddrop") and len(rest) >= 4:
            x1, y1, x2, y2 = (_coord(v) for v in rest[:4])
            duration = _coord(rest[4]) if len(rest) > 4 else 300
            if duration < 0:
                raise ValueError(rest[4])
            if sub == "swipe" and abs(x2 - x1) <= 10 and abs(y2 - y1) <= 10 and duration >= 400:
                sh.phone.long_press(x1, y1, duration)  # how `input` is used for a long press
            else:
                sh.phone.swipe(x1, y1, x2, y2, duration)
        elif sub == "text" and rest:
            # `input text` types through the key map: printable ASCII only, "%s" is a space.
            text = rest[0].replace("%s", " ")
            bad = sorted({c for c in text if not " " <= c <= "~"})
            if bad:
                return fail(f"input: cannot type {''.join(bad)!r}: no key in the virtual keyboard's character map\n")
            sh.phone.type_text(text)
        elif sub == "keyevent" and rest:
            codes = [a for a in rest if not a.startswith("--")]
            for code in codes:
                sh.phone.press_key(_keycode(code))
        else:
            raise ValueError(sub)
    except ValueError:
        return fail(f"Error: Invalid arguments for command: {sub}\nUsage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n")
    return ShellResult()


@INPUT.command("screencap")
def screencap(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    png = "-p" in args
    files = [a for a in args if not a.startswith("-")]
    if files and files[0].endswith(".png"):
        png = True
    data = sh.png() if png else sh.raw()
    if files:
        sh.write(files[0], data)
        return ShellResult()
    return ShellResult(data)


@INPUT.command("uiautomator")
def uiautomator(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    if args[:1] != ["dump"]:
        return fail("Usage: uiautomator <subcommand> [options]\n", 1)
    files = [a for a in args[1:] if not a.startswith("--")]
    target = files[0] if files else DEFAULT_DUMP_PATH
    xml = sh.phone.dump_xml().encode("utf-8")
    if target in ("/dev/tty", "/dev/stdout"):
        return ShellResult(xml + f"UI hierchary dumped to: {target}\n".encode())
    sh.write(target, xml, invalidate=False)
    return ok(f"UI hierchary dumped to: {target}\n")


# --- settings and content ----------------------------------------------------------------


@SETTINGS.command("settings")
def settings(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    while args and args[0] in ("--user", "--lineage"):
        args = args[2:] if args[0] == "--user" else args[1:]
    if len(args) < 2:
        return fail("usage:  settings [--user <USER_ID> | current] get namespace key\n", 255)
    verb, namespace, rest = args[0], args[1], args[2:]
    if namespace not in ("global", "system", "secure"):
        return fail(f"Invalid namespace '{namespace}'\n", 255)
    table = sh.phone.state.settings.setdefault(namespace, {})
    if verb == "get" and rest:
        value = sh.phone.get_setting(namespace, rest[0])
        return ok(("null" if value is None else value) + "\n")
    if verb == "put" and len(rest) >= 2:
        sh.phone.put_setting(namespace, rest[0], rest[1])
        return ShellResult()
    if verb == "delete" and rest:
        existed = table.pop(rest[0], None) is not None
        sh.phone.invalidate()
        return ok(f"Deleted {int(existed)} rows\n")
    if verb == "list":
        return ok("".join(f"{k}={v}\n" for k, v in sorted(table.items())))
    return fail(f"Invalid command: {verb}\n", 255)


@CONTENT.command("content")
def content(sh: ShellHost, args: list[str], stdin: bytes) -> ShellResult:
    sub, rest = (args[0], args[1:]) if args else ("", [])
    opts: dict[str, str] = {}
    binds: dict[str, str] = {}
    i = 0
    while i < len(rest):
        flag = rest[i]
        if i + 1 >= len(rest):
            return fail(f"Error: No value for argument: {flag}\n")
        value = rest[i + 1]
        if flag == "--bind":
            column, _, typed = value.partition(":")
            kind, _, bound = typed.partition(":")
            if not column or kind not in ("s", "i", "l", "f", "d", "b", "n"):
                return fail(f"Error: Invalid binding: {value}\n")
            binds[column] = "NULL" if kind == "n" else bound
        else:
            opts[flag] = value
        i += 2
    uri = opts.get("--uri")
    if uri is None:
        return fail("Error: Content provider URI not specified\n")
    try:
        where = parse_where(opts.get("--where", ""))
        if sub == "query":
            projection = [c for c in opts["--projection"].split(":") if c] if "--projection" in opts else None
            rows = sh.phone.content_query(uri, None, where)
            rows = _sorted_rows(uri, rows, opts.get("--sort"))
            if projection:
                rows = [{k: row.get(k, "NULL") for k in projection} for row in rows]
            if not rows:
                return ok("No result found.\n")
            return ok("".join(f"Row: {n} " + ", ".join(f"{k}={v}" for k, v in row.items()) + "\n" for n, row in enumerate(rows)))
        if sub == "insert":
            sh.phone.content_insert(uri, binds)
            return ShellResult()
        if sub == "delete":
            sh.phone.content_delete(uri, where)
            return ShellResult()
    except (CerebellumError, ValueError) as exc:
        return fail(f"Error while accessing provider:{uri}\njava.lang.IllegalArgumentException: {exc}\n")
    return fail(f"Error: Unsupported operation: {sub}\n")


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


def parse_options(args: list[str], takes_value: set[str], extras: bool = False) -> tuple[dict[str, str], list[str]]:
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
