"""A stand-in for the Android emulator's command line, for tests of the emulator pool.

No real emulator can run on the test machines, so this program plays one at the boundary the
pool uses, built from the emulator's documented behaviour:

- it takes the real flags (``-avd NAME -port P -grpc G -no-window -no-audio -no-boot-anim
  -read-only -snapshot S`` and a few more) and fails, as the emulator does, on an unknown AVD
  (no ``NAME.ini`` under ``$ANDROID_AVD_HOME`` or ``~/.android/avd``), an odd console port or a
  port that is taken;
- it serves the simulator over the genuine ADB device protocol on the adb port (console + 1) with
  the project's adbd, and, as the real emulator does at start, tells the adb server named by
  ``$ANDROID_ADB_SERVER_PORT`` about itself (``host:emulator:<adb port>``). The real adb server
  then lists it as ``emulator-<console port>``; an adb server started later finds it with its
  emulator port scan (5555 up to ``$ADB_LOCAL_TRANSPORT_MAX_PORT``);
- it "boots": ``getprop sys.boot_completed`` answers an empty line (the property is unset), then
  ``1`` after ``$STANDIN_BOOT_S`` seconds (default 1), never with ``STANDIN_NEVER_BOOT=1``; ``pm``
  fails with the package manager's "Is the system running?" until ``$STANDIN_PM_DELAY_S`` after
  that, then ``pm path android`` answers the framework's package path;
- its console port speaks the console's line protocol: the banner asking for ``auth``, ``auth
  <token>`` checked against ``~/.emulator_console_auth_token`` (created at start when missing, as
  the emulator does), ``kill`` (exit), ``avd name``, ``ping``, ``quit``. ``adb emu kill`` works;
- the gRPC port is bound (so it counts as taken) but speaks no gRPC: AndroidWorld's own launcher,
  which needs gRPC, cannot run on it. Tests use ``Cerebellum-Adb-v0`` on it instead.

SIGTERM ends it cleanly; SIGKILL is a crash; SIGSTOP is a wedged emulator (nothing answers).
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import sys
import threading
import time
from pathlib import Path

from cerebellum_gym.sim.adbd import AdbdServer
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.shell import Shell, ShellResult

VALUE_FLAGS = {
    "-avd",
    "-port",
    "-grpc",
    "-snapshot",
    "-gpu",
    "-memory",
    "-cores",
    "-accel",
    "-netdelay",
    "-netspeed",
    "-feature",
    "-sysdir",
    "-datadir",
}
SWITCHES = {
    "-no-window",
    "-no-audio",
    "-no-boot-anim",
    "-read-only",
    "-no-snapshot",
    "-no-snapshot-save",
    "-no-snapshot-load",
    "-wipe-data",
    "-verbose",
    "-no-metrics",
    "-skip-adb-auth",
}
PM_DOWN = b"Error: Could not access the Package Manager.  Is the system running?\n"


def parse(argv: list[str]) -> dict[str, str | bool]:
    opts: dict[str, str | bool] = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg.startswith("@"):  # `emulator @NAME` is `-avd NAME`
            opts["-avd"] = arg[1:]
        elif arg in VALUE_FLAGS:
            if i + 1 >= len(argv):
                fail(f"option {arg} needs a value")
            opts[arg] = argv[i + 1]
            i += 1
        elif arg in SWITCHES:
            opts[arg] = True
        else:
            fail(f"unknown option: {arg}")
        i += 1
    return opts


def fail(message: str) -> None:
    print(f"ERROR | {message}", flush=True)
    sys.exit(1)


class BootingAdbd(AdbdServer):
    """The served simulator, with properties every connection shares (so ``sys.boot_completed``
    changes live) and a package manager that is down until the boot is done."""

    def __init__(self, port: int) -> None:
        super().__init__(Phone(), port=port)
        self.props = dict(super().make_shell().props)
        self.props.update({"sys.boot_completed": "", "ro.kernel.qemu": "1", "ro.boot.qemu": "1"})
        self.pm_ready = threading.Event()

    def make_shell(self) -> Shell:
        shell = super().make_shell()
        shell.props = self.props
        simulator_pm = shell.commands["pm"]

        def pm(args: list[str], stdin: bytes) -> ShellResult:
            if not self.pm_ready.is_set():
                return ShellResult(b"", PM_DOWN, 1)
            if args[:2] == ["path", "android"]:
                return ShellResult(b"package:/system/framework/framework-res.apk\n")
            return simulator_pm(args, stdin)

        shell.commands["pm"] = pm
        return shell


class Console:
    """The emulator console on ``127.0.0.1:port``."""

    def __init__(self, port: int, avd: str, token: str, stop: threading.Event) -> None:
        self.avd = avd
        self.token = token
        self.stop = stop
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", port))
        self.listener.listen(8)

    def serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.session, args=(conn,), daemon=True).start()

    def session(self, conn: socket.socket) -> None:
        home = os.environ.get("HOME", "~")
        with conn:
            authed = not self.token
            if authed:
                conn.sendall(b"Android Console: type 'help' for a list of commands\r\nOK\r\n")
            else:
                conn.sendall(
                    b"Android Console: Authentication required\r\n"
                    b"Android Console: type 'auth <auth_token>' to authenticate\r\n"
                    b"Android Console: you can find your <auth_token> in \r\n" + f"'{home}/.emulator_console_auth_token'\r\nOK\r\n".encode()
                )
            buf = b""
            while True:
                try:
                    data = conn.recv(4096)
                except OSError:
                    return
                if not data:
                    return
                buf += data
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    words = line.decode(errors="replace").strip().split()
                    if not words:
                        continue
                    command = words[0]
                    if command in ("quit", "exit"):
                        return
                    if command == "auth":
                        if len(words) > 1 and secrets.compare_digest(words[1], self.token):
                            authed = True
                            conn.sendall(b"Android Console: type 'help' for a list of commands\r\nOK\r\n")
                        else:
                            conn.sendall(b"KO: authentication token does not match ~/.emulator_console_auth_token\r\n")
                    elif not authed:
                        conn.sendall(b"KO: unknown command, try 'help'\r\n")
                    elif command == "kill":
                        conn.sendall(b"OK: killing emulator, bye bye\r\n")
                        print("INFO | console: kill", flush=True)
                        self.stop.set()
                        return
                    elif words[:2] == ["avd", "name"]:
                        conn.sendall(f"{self.avd}\r\nOK\r\n".encode())
                    elif command == "ping":
                        conn.sendall(b"I am alive!\r\nOK\r\n")
                    else:
                        conn.sendall(b"KO: unknown command, try 'help'\r\n")


def auth_token() -> str:
    path = Path(os.environ.get("HOME", str(Path.home()))) / ".emulator_console_auth_token"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        token = secrets.token_urlsafe(12)
        path.write_text(token)
        path.chmod(0o600)
        return token


def notify_adb_server(adb_port: int) -> None:
    server = int(os.environ.get("ANDROID_ADB_SERVER_PORT") or 5037)
    payload = f"host:emulator:{adb_port}".encode()
    try:
        with socket.create_connection(("127.0.0.1", server), timeout=2) as sock:
            sock.sendall(b"%04x" % len(payload) + payload)
    except OSError:
        print(f"WARNING | could not notify the adb server on port {server}", flush=True)


def main(argv: list[str]) -> int:
    opts = parse(argv)
    avd = str(opts.get("-avd") or "")
    if not avd:
        fail("no AVD given (-avd NAME)")
    avd_home = Path(os.environ.get("ANDROID_AVD_HOME") or Path(os.environ.get("HOME", "~")) / ".android" / "avd")
    if not (avd_home / f"{avd}.ini").is_file():
        print(f"PANIC: Unknown AVD name [{avd}], use -list-avds to see valid list.", flush=True)
        return 1
    console_port = int(str(opts.get("-port", "5554")))
    if console_port % 2:
        fail(f"console port {console_port} must be even")
    stop = threading.Event()
    try:
        console = Console(console_port, avd, auth_token(), stop)
        adbd = BootingAdbd(console_port + 1)
        grpc = None
        if "-grpc" in opts:
            grpc = socket.socket()
            grpc.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            grpc.bind(("127.0.0.1", int(str(opts["-grpc"]))))
            grpc.listen(1)
    except Exception as exc:  # a taken port, as the emulator reports it, then exit
        fail(f"cannot bind the emulator's ports: {exc}")
        raise
    signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
    threading.Thread(target=console.serve, daemon=True).start()
    adbd.start()
    print(f"INFO | stand-in emulator {avd}: console {console_port}, adb {console_port + 1}, grpc {opts.get('-grpc')}", flush=True)
    notify_adb_server(console_port + 1)

    def boot() -> None:
        if os.environ.get("STANDIN_NEVER_BOOT") == "1":
            return
        if stop.wait(float(os.environ.get("STANDIN_BOOT_S", "1.0"))):
            return
        adbd.props["sys.boot_completed"] = "1"
        adbd.props["dev.bootcomplete"] = "1"
        if stop.wait(float(os.environ.get("STANDIN_PM_DELAY_S", "0.2"))):
            return
        adbd.pm_ready.set()
        print("INFO | boot completed", flush=True)

    threading.Thread(target=boot, daemon=True).start()
    stop.wait()
    adbd.stop()
    console.listener.close()
    if grpc is not None:
        grpc.close()
    time.sleep(0.05)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
