"""The Android emulator's console, served for the simulator: what ``adb emu ...`` talks to.

``adb -s emulator-NNNN emu sms send 5551234 Hello`` does not go through the adb server: the adb
client connects to the emulator's console on ``127.0.0.1:NNNN`` (the serial's port; the
device's adb port is one more), writes ``auth <token>`` (the text of
``$HOME/.emulator_console_auth_token``, when that file is there and not empty), the command
line, then ``quit``, and prints what came back after the first two ``OK`` lines. AndroidWorld
sends its texts and calls that way (``adb_utils.text_emulator`` / ``call_emulator``).

The protocol, as the emulator's console speaks it: lines end in CR LF; on connect a banner
(``Android Console: Authentication required`` ... ``OK``, or with authentication off ``Android
Console: type 'help' for a list of commands`` / ``OK``); each command answers ``OK`` or ``KO:
<reason>``; before ``auth`` only ``help``, ``ping``, ``avd name``, ``auth`` and ``quit`` are known;
``quit`` closes the connection. A line that is not UTF-8 or looks like an HTTP request is
refused and the connection closed (the emulator's own guard); a line longer than 4095 bytes is
cut, as the emulator's buffer is. Commands served:

- ``sms send <number> <text>``: the text arrives in the SMS inbox with a notification
  (``\\n``, ``\\xNN``, ``\\uNNNN`` and ``\\\\`` escapes in the text, as the emulator decodes them);
- ``gsm call <number>``, ``gsm accept|cancel|busy <number>``, ``gsm list``: an incoming call;
- ``help [command]``, ``help-verbose``, ``ping``, ``avd name``, ``auth``, ``quit|exit``;
- ``kill``: the console's owner decides (the served simulator stops serving).

Authentication follows the emulator: the token file is read when a client connects; a missing
file is created with a random token (mode 0600) and an empty one turns authentication off.

Example:
    >>> import socket
    >>> from cerebellum_gym.sim.phone import Phone
    >>> phone = Phone()
    >>> console = EmulatorConsole(phone, port=0, auth_token_path=None).start()
    >>> with socket.create_connection(console.address) as sock:
    ...     _ = sock.sendall(b"sms send 5551234 Hi there\\nquit\\n")
    ...     reply = b"".join(iter(lambda: sock.recv(4096), b""))
    >>> reply.decode().split("\\r\\n")
    ["Android Console: type 'help' for a list of commands", 'OK', 'OK', '']
    >>> [r["body"] for r in phone.content_query("content://sms/inbox")]
    ['Hi there']
    >>> console.stop()
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final

from cerebellum_gym.devices.android import CONSOLE_TOKEN_FILE
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.sim import telephony

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

log = logging.getLogger(__name__)

TOKEN_FILE: Final = CONSOLE_TOKEN_FILE
#: Where the emulator and the adb client keep the token: ``$HOME/.emulator_console_auth_token``.
DEFAULT_TOKEN_PATH: Final = "~/" + TOKEN_FILE
#: The emulator's line buffer (``char buff[4096]``): a longer line wraps and starts again.
MAX_LINE: Final = 4095
#: At most this many console clients at once (each is one thread).
MAX_CLIENTS: Final = 16
#: A client that sends nothing for this long is closed (adb sends everything at once).
IDLE_TIMEOUT: Final = 60.0
HELP_PROMPT: Final = "Android Console: type 'help' for a list of commands"
UNKNOWN: Final = "KO: unknown command, try 'help'"
_SMS_NUMBER: Final = re.compile(r"\+?[0-9]*")
_GSM_NUMBER: Final = re.compile(r"[0-9+#]+")
_HTTP_LINE: Final = re.compile(r"^(GET|POST|PUT|DELETE|HEAD|OPTIONS|CONNECT|TRACE|PATCH) \S+ HTTP/\d")

#: (names, abstract) of the commands this console knows; ``help`` lists them.
_MAIN: Final = (
    ("help|h|?", "print a list of commands"),
    ("help-verbose", "print a list of commands with descriptions"),
    ("ping", "check if the emulator is alive"),
    ("avd", "control virtual device execution"),
    ("auth", "user authentication for the emulator console"),
    ("gsm", "GSM related commands"),
    ("sms", "SMS related commands"),
    ("kill", "kill the emulator instance"),
    ("quit|exit", "quit control session"),
)
_PREAUTH: Final = ("help|h|?", "help-verbose", "ping", "avd", "auth", "quit|exit")
_SUBCOMMANDS: Final = {
    "gsm": (
        ("list", "list current phone calls"),
        ("call", "create inbound phone call"),
        ("busy", "close waiting outbound call as busy"),
        ("accept", "change the state of a call to 'active'"),
        ("cancel", "disconnect an inbound or outbound phone call"),
    ),
    "sms": (("send", "send inbound SMS text message"),),
    "avd": (("name", "query virtual device name"),),
}


class EmulatorConsole:
    """The emulator console of one simulated phone, on loopback.

    Args:
        phone: the phone the commands act on.
        port: TCP port (0 picks a free one; the emulator's is the device's adb port minus one).
        host: loopback address to bind (the emulator's console binds loopback only, and so
            does this one: there is no way to bind it elsewhere).
        lock: held while a command changes the phone (the served adbd's lock, so a command
            never interleaves with a shell command); a new one when ``None``.
        auth_token_path: the token file; ``~/.emulator_console_auth_token`` (of this process's
            ``HOME``) by default. ``None`` turns authentication off. The adb client reads the
            same file from *its* ``HOME``, so serve with the path the adb client will read.
        avd_name: what ``avd name`` answers.
        on_kill: called (in a thread of its own) after ``kill`` is answered; ``kill`` answers
            ``KO`` when there is none.

    Raises:
        CerebellumError: ``host`` is not loopback, or the port cannot be bound.
    """

    def __init__(
        self,
        phone: Phone,
        *,
        port: int = 0,
        host: str = "127.0.0.1",
        lock: threading.RLock | None = None,
        auth_token_path: Path | str | None = DEFAULT_TOKEN_PATH,
        avd_name: str = "cerebellum_sim",
        on_kill: Callable[[], None] | None = None,
    ) -> None:
        if host not in ("127.0.0.1", "::1", "localhost"):
            raise CerebellumError(f"the emulator console binds loopback only, not {host!r}")
        self.phone = phone
        self.lock = lock if lock is not None else threading.RLock()
        self.auth_token_path = None if auth_token_path is None else Path(os.path.expanduser(auth_token_path))
        self.avd_name = avd_name
        self.on_kill = on_kill
        self.stopping = False
        self._clients: set[socket.socket] = set()
        self._clients_lock = threading.Lock()
        family = socket.AF_INET6 if host == "::1" else socket.AF_INET
        self._listener = socket.socket(family, socket.SOCK_STREAM)
        # SO_REUSEADDR, as the emulator's console: a restart on the same port is not refused for
        # the minute its closed clients linger (TIME_WAIT); a port another socket listens on
        # still is.
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self._listener.bind(("127.0.0.1" if host == "localhost" else host, port))
        except OSError as exc:
            self._listener.close()
            raise CerebellumError(f"cannot serve the emulator console on {host}:{port}: {exc}") from exc
        self._listener.listen(8)
        self._thread: threading.Thread | None = None

    @property
    def address(self) -> tuple[str, int]:
        """The bound ``(host, port)``."""
        host, port = self._listener.getsockname()[:2]
        return host, port

    # --- authentication ----------------------------------------------------------------------

    def token(self) -> str | None:
        """The token a client must give, ``None`` when authentication is off (no token path,
        or an empty token file). A missing file is created with a fresh token, as the emulator
        does at start.

        Raises:
            OSError: the file cannot be read or created (the emulator then refuses clients).
        """
        if self.auth_token_path is None:
            return None
        try:
            text = self.auth_token_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            text = secrets.token_urlsafe(12)
            fd = os.open(self.auth_token_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
        text = text.strip()
        return text or None

    # --- serving -----------------------------------------------------------------------------

    def start(self) -> EmulatorConsole:
        """Serve in a background thread; returns ``self``. Creates the token file when it is
        missing, as the emulator does at start (so an adb client started later finds it)."""
        if self._thread is None:
            try:
                self.token()
            except OSError as exc:
                log.warning("emulator console: %s: clients will be refused", exc)
            self._thread = threading.Thread(target=self._serve, name=f"console:{self.address[1]}", daemon=True)
            self._thread.start()
        return self

    def _serve(self) -> None:
        while not self.stopping:
            try:
                sock, _ = self._listener.accept()
            except OSError:
                break
            with self._clients_lock:
                if len(self._clients) >= MAX_CLIENTS:
                    sock.close()
                    continue
                self._clients.add(sock)
            threading.Thread(target=self._client, args=(sock,), name="console-client", daemon=True).start()

    def stop(self) -> None:
        """Stop accepting and close every client. Idempotent."""
        self.stopping = True
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        with self._clients_lock:
            clients = list(self._clients)
        for sock in clients:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    def __enter__(self) -> EmulatorConsole:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _client(self, sock: socket.socket) -> None:
        try:
            sock.settimeout(IDLE_TIMEOUT)
            session = ConsoleSession(self)
            try:
                greeting = session.greeting()
            except OSError as exc:  # the token file cannot be read: the emulator drops the client
                log.warning("emulator console: %s: refusing clients", exc)
                return
            sock.sendall(greeting)
            buffer = bytearray()
            while not session.finished:
                data = sock.recv(4096)
                if not data:
                    return
                for byte in data:
                    if byte == 0x0D:  # CR is dropped, as the emulator does
                        continue
                    if byte != 0x0A:
                        if len(buffer) >= MAX_LINE:
                            buffer.clear()
                        buffer.append(byte)
                        continue
                    reply = session.line(bytes(buffer))
                    buffer.clear()
                    if reply:
                        sock.sendall(reply)
                    if session.finished:
                        break
            if session.killed and self.on_kill is not None:
                threading.Thread(target=self.on_kill, name="console-kill", daemon=True).start()
        except OSError:
            pass
        finally:
            with self._clients_lock:
                self._clients.discard(sock)
            with contextlib.suppress(OSError):
                sock.close()


class ConsoleSession:
    """One client's conversation: the greeting, then one reply per line (no sockets here)."""

    def __init__(self, console: EmulatorConsole) -> None:
        self.console = console
        self.expected_token: str | None = None
        self.authed = False
        self.finished = False
        self.killed = False

    def greeting(self) -> bytes:
        """What the console sends on connect.

        Raises:
            OSError: the token file cannot be read or created.
        """
        self.expected_token = self.console.token()
        self.authed = self.expected_token is None
        if self.authed:
            return _crlf(f"{HELP_PROMPT}\nOK\n")
        path = self.console.auth_token_path
        return _crlf(
            "Android Console: Authentication required\n"
            "Android Console: type 'auth <auth_token>' to authenticate\n"
            f"Android Console: you can find your <auth_token> in \n'{path}'\nOK\n"
        )

    def line(self, raw: bytes) -> bytes:
        """The reply to one command line (without its newline)."""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            self.finished = True
            return _crlf("KO: Forbidden binary request. Aborting\n")
        if _HTTP_LINE.match(text):
            self.finished = True
            return _crlf("KO: Forbidden HTTP request. Aborting\n")
        command, _, rest = text.partition(" ")
        args = rest.lstrip(" ") or None
        known = _PREAUTH if not self.authed else tuple(names for names, _ in _MAIN)
        name = _lookup(command, known)
        if name is None:
            return _crlf(UNKNOWN + "\n")
        handler = getattr(self, "_do_" + name.split("|")[0].replace("-", "_"))
        out: str = handler(args)
        return _crlf(out)

    # --- commands ----------------------------------------------------------------------------

    def _commands(self) -> list[tuple[str, str]]:
        return [(n, a) for n, a in _MAIN if self.authed or n in _PREAUTH]

    def _do_help(self, args: str | None) -> str:
        if args is None:
            listing = "".join(f"    {names}\n" for names, _ in self._commands())
            return (
                f"Android console commands:\n{listing}\nTry 'help-verbose' for more description\n"
                "Try 'help <command>' for command-specific help\nOK\n"
            )
        words = args.split()
        name = _lookup(words[0], tuple(n for n, _ in self._commands()))
        if name is None:
            return self._do_help(None).removesuffix("OK\n") + "\nKO: unknown command\n"
        top = name.split("|")[0]
        abstract = dict(_MAIN)[name]
        subs = _SUBCOMMANDS.get(top)
        if subs and len(words) > 1:
            sub = dict(subs).get(words[1])
            if sub is None:
                return self._do_help(None).removesuffix("OK\n") + "\nKO: unknown command\n"
            return f"{sub}\nOK\n"
        return f"{abstract}\n" + _sub_listing(top) + "OK\n"

    def _do_help_verbose(self, args: str | None) -> str:
        listing = "".join(f"    {names:<15}  {abstract}\n" for names, abstract in self._commands())
        return f"Android console command help:\n\n{listing}\ntry 'help <command>' for command-specific help\nOK\n"

    def _do_ping(self, args: str | None) -> str:
        return "I am alive!\nOK\n"

    def _do_quit(self, args: str | None) -> str:
        self.finished = True
        return ""

    def _do_auth(self, args: str | None) -> str:
        if args is None:
            return "KO: missing authentication token\n"
        if self.expected_token is not None and not secrets.compare_digest(args.encode(), self.expected_token.encode()):
            return "KO: authentication token does not match ~/.emulator_console_auth_token\n"
        self.authed = True
        return f"{HELP_PROMPT}\nOK\n"

    def _do_avd(self, args: str | None) -> str:
        if args is None:
            return "control virtual device execution\n" + _sub_listing("avd") + "KO: missing sub-command\n"
        if args.split() != ["name"]:
            return "control virtual device execution\n" + _sub_listing("avd") + "KO:  bad sub-command\n"
        return f"{self.console.avd_name}\nOK\n"

    def _do_kill(self, args: str | None) -> str:
        if self.console.on_kill is None:
            return "KO: this simulator cannot be killed from its console\n"
        self.killed = self.finished = True
        return "OK: killing emulator, bye bye\n"

    def _do_sms(self, args: str | None) -> str:
        sub, rest = _split(args)
        if sub is None:
            return "SMS related commands\n" + _sub_listing("sms") + "KO: missing sub-command\n"
        if sub != "send":
            return "SMS related commands\n" + _sub_listing("sms") + "KO:  bad sub-command\n"
        missing = "KO: missing argument, try 'sms send <phonenumber> <text message>'\n"
        if rest is None or " " not in rest:
            return missing
        number, _, message = rest.partition(" ")
        if not _SMS_NUMBER.fullmatch(number):
            return "KO: bad phone number format, must be [+](0-9)*\n"
        body = decode_sms_text(message)
        if body is None:
            return (
                "message must be utf8 and can use the following escapes:\n"
                "    \\n      for a newline\n"
                "    \\xNN    where NN are two hexadecimal numbers\n"
                "    \\uNNNN  where NNNN are four hexadecimal numbers\n"
                "    \\\\     to send a '\\' character\n\n"
                "    anything else is an error\n"
                "KO: badly formatted text\n"
            )
        with self.console.lock:
            telephony.receive_sms(self.console.phone, number, body)
        return "OK\n"

    def _do_gsm(self, args: str | None) -> str:
        sub, rest = _split(args)
        names = dict(_SUBCOMMANDS["gsm"])
        if sub is None:
            return "GSM related commands\n" + _sub_listing("gsm") + "KO: missing sub-command\n"
        if sub not in names:
            return "GSM related commands\n" + _sub_listing("gsm") + "KO:  bad sub-command\n"
        phone = self.console.phone
        if sub == "list":
            with self.console.lock:
                call = telephony.current_call(phone)
            if call is None:
                return "OK\n"
            state = "incoming" if call["state"] == telephony.CALL_STATE_RINGING else "active"
            return f"inbound from {call['number']} : {state}\nOK\n"
        if rest is None:
            return f"KO: missing argument, try 'gsm {sub} <phonenumber>'\n"
        if not _GSM_NUMBER.fullmatch(rest):
            return "KO: bad phone number format, use digits, # and + only\n"
        with self.console.lock:
            if sub == "call":
                telephony.incoming_call(phone, rest)
                return "OK\n"
            if sub == "accept":
                call = telephony.current_call(phone)
                if call is None or call["number"] != rest:
                    return "KO: could not change call status\n"
                telephony.accept_call(phone)
                return "OK\n"
            # cancel / busy: the caller hangs up
            if not telephony.end_call(phone, rest):
                return "KO: could not cancel this number\n"
        return "OK\n"


def decode_sms_text(text: str) -> str | None:
    """The emulator's un-escaping of an ``sms send`` text: ``\\n``, ``\\xNN``, ``\\uNNNN`` and
    ``\\\\``; any other backslash sequence is an error (``None``)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char != "\\":
            out.append(char)
            i += 1
            continue
        kind = text[i + 1 : i + 2]
        if kind == "n":
            out.append("\n")
            i += 2
        elif kind == "\\":
            out.append("\\")
            i += 2
        elif kind in ("x", "u"):
            width = 2 if kind == "x" else 4
            digits = text[i + 2 : i + 2 + width]
            if len(digits) != width or not all(c in "0123456789abcdefABCDEF" for c in digits):
                return None
            out.append(chr(int(digits, 16)))
            i += 2 + width
        else:
            return None
    return "".join(out)


def _lookup(word: str, names: tuple[str, ...]) -> str | None:
    for entry in names:
        if word in entry.split("|"):
            return entry
    return None


def _split(args: str | None) -> tuple[str | None, str | None]:
    if args is None:
        return None, None
    sub, _, rest = args.partition(" ")
    rest = rest.lstrip(" ")
    return sub, rest or None


def _sub_listing(top: str) -> str:
    subs = _SUBCOMMANDS.get(top)
    if not subs:
        return ""
    return "\navailable sub-commands:\n" + "".join(f"    {name:<15}  {abstract}\n" for name, abstract in subs) + "\n"


def _crlf(text: str) -> bytes:
    """Lines as the console writes them: every LF preceded by CR."""
    return text.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")


__all__ = ["EmulatorConsole", "decode_sms_text"]
