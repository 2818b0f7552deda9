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
- its console port is the simulator's emulator console (``cerebellum_gym.sim.console``): the
  banner asking for ``auth``, ``auth <token>`` checked against ``~/.emulator_console_auth_token``
  (created at start when missing, as the emulator does), ``kill`` (exit), ``avd name``, ``ping``,
  ``sms send``, ``gsm call``, ``quit``. ``adb emu kill`` works;
- the gRPC port is bound (so it counts as taken) but speaks no gRPC: AndroidWorld's own launcher,
  which needs gRPC, cannot run on it. Tests use ``Cerebellum-Adb-v0`` on it instead.

SIGTERM ends it cleanly; SIGKILL is a crash; SIGSTOP is a wedged emulator (nothing answers).
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path

from cerebellum_gym.sim.adbd import AdbdServer
from cerebellum_gym.sim.console import EmulatorConsole
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

    def kill() -> None:
        print("INFO | console: kill", flush=True)
        stop.set()

    try:
        adbd = BootingAdbd(console_port + 1)
        # The simulator's own emulator console (the token in $HOME, created when missing; `kill`
        # ends the stand-in), so `adb emu sms send` and `gsm call` work on it too.
        console = EmulatorConsole(adbd.phone, port=console_port, lock=adbd.lock, avd_name=avd, on_kill=kill)
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
    console.start()
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
    console.stop()
    if grpc is not None:
        grpc.close()
    time.sleep(0.05)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
