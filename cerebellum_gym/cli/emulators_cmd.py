"""``cerebellum-gym emulators up|status|down``: a pool of headless Android emulators.

``up N --avd NAME`` launches N emulators, waits for them to boot, then watches them (restarting
one that crashes or hangs) until Ctrl-C, SIGTERM or ``down``; ``--detach`` returns once they
have booted and leaves the watcher in the background. The pool is described in a small JSON
state file (``$CEREBELLUM_EMULATORS_STATE`` or ``~/.cache/cerebellum-gym/emulators.json``), so
``status`` and ``down`` work from any other shell.

Example::

    cerebellum-gym emulators up 4 --avd AndroidWorldAvd --snapshot ready --detach
    cerebellum-gym emulators status
    cerebellum-gym emulators down
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from cerebellum_gym.cli import DefaultsHelpFormatter
from cerebellum_gym.errors import CerebellumError


def register(sub: Any) -> None:
    """Add the ``emulators`` sub-command (with ``up``, ``status`` and ``down``)."""
    parser = sub.add_parser(
        "emulators",
        help="launch, watch and stop a pool of headless Android emulators (one per parallel env)",
        description="A pool of headless Android emulators: up (launch, boot, watch), status, down. See docs/androidworld.md.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    up = actions.add_parser(
        "up",
        help="launch N emulators and watch them",
        description=(
            "Launch N headless emulators from one AVD (distinct console, adb and gRPC ports), wait for them to boot, print their "
            "serials and ports, then restart any that crashes or hangs until Ctrl-C, SIGTERM or `emulators down`."
        ),
        formatter_class=DefaultsHelpFormatter,
    )
    up.add_argument("num", type=int, help="emulators to launch")
    up.add_argument("--avd", required=True, help="the AVD to launch (see `emulator -list-avds`)")
    up.add_argument("--sdk", default=None, help="Android SDK folder (default: $ANDROID_SDK_ROOT, $ANDROID_HOME or ~/Android/Sdk)")
    up.add_argument("--snapshot", default=None, help="load this AVD snapshot at start (fast boot to a known state)")
    up.add_argument("--base-port", type=int, default=5554, help="first console port (even); each emulator takes the next free pair")
    up.add_argument("--grpc-port", type=int, default=8554, help="first gRPC port")
    up.add_argument("--no-read-only", action="store_true", help="do not pass -read-only (only one emulator may then use the AVD)")
    up.add_argument(
        "--emulator-arg", action="append", default=[], metavar="ARG", help="extra emulator flag, repeatable (--emulator-arg=-gpu ...)"
    )
    up.add_argument("--boot-timeout", type=float, default=300.0, help="seconds each emulator may take to boot")
    up.add_argument("--check-interval", type=float, default=10.0, help="seconds between health checks")
    up.add_argument("--force", action="store_true", help="launch even if the machine looks too small (about 2 GB and a core each, KVM)")
    up.add_argument("--detach", action="store_true", help="return once booted; the watcher stays in the background")
    up.add_argument("--emulator", default=None, help="the emulator executable (default: the SDK's)")
    up.add_argument("--adb", default=None, help="the adb executable (default: the SDK's)")
    up.add_argument("--log-dir", default=None, help="emulator logs (default: logs/ beside the state file)")
    up.add_argument(
        "--state", default=None, help="state file (default: $CEREBELLUM_EMULATORS_STATE or ~/.cache/cerebellum-gym/emulators.json)"
    )
    up.set_defaults(handler=run_up)
    status = actions.add_parser("status", help="show the pool's emulators and whether they answer")
    status.add_argument("--state", default=None, help="state file")
    status.add_argument("--json", action="store_true", help="print JSON")
    status.set_defaults(handler=run_status)
    down = actions.add_parser("down", help="shut the pool down (its watcher, then any emulator left)")
    down.add_argument("--state", default=None, help="state file")
    down.set_defaults(handler=run_down)


def _state_path(given: str | None) -> Path:
    from cerebellum_gym.devices.emulators import default_state_file

    return Path(given).expanduser() if given else default_state_file()


def _table(rows: list[dict[str, Any]]) -> str:
    lines = [f"{'serial':16} {'console':>7} {'adb':>5} {'grpc':>5} {'state':9} {'restarts':>8} {'episodes':>8}"]
    for row in rows:
        lines.append(
            f"{row['serial']:16} {row['console_port']:>7} {row['adb_port']:>5} {row['grpc_port'] or '-':>5} "
            f"{row.get('live', row['state']):9} {row['restarts']:>8} {row['total_episodes']:>8}"
        )
    return "\n".join(lines)


def _up_argv(args: argparse.Namespace, state: Path) -> list[str]:
    """The foreground ``up`` command line that ``--detach`` runs in the background."""
    argv = [sys.executable, "-m", "cerebellum_gym.cli", "emulators", "up", str(args.num), "--avd", args.avd, "--state", str(state)]
    for flag, value in (
        ("--sdk", args.sdk),
        ("--snapshot", args.snapshot),
        ("--emulator", args.emulator),
        ("--adb", args.adb),
        ("--log-dir", args.log_dir),
    ):
        if value is not None:
            argv += [flag, str(value)]
    argv += ["--base-port", str(args.base_port), "--grpc-port", str(args.grpc_port)]
    argv += ["--boot-timeout", str(args.boot_timeout), "--check-interval", str(args.check_interval)]
    argv += [f"--emulator-arg={a}" for a in args.emulator_arg]
    if args.no_read_only:
        argv.append("--no-read-only")
    if args.force:
        argv.append("--force")
    return argv


def run_up(args: argparse.Namespace) -> int:
    """``emulators up``."""
    from cerebellum_gym.devices.emulators import EmulatorPool, read_state

    if args.num < 1:
        raise CerebellumError(f"emulators up needs N >= 1, got {args.num}")
    state = _state_path(args.state)
    existing = read_state(state)
    if existing is not None and _alive(int(existing.get("owner_pid") or 0)):
        raise CerebellumError(
            f"a pool is already up (process {existing['owner_pid']}, state {state}); `cerebellum-gym emulators down` first, or pass --state"
        )
    if args.detach:
        return _detach(args, state)
    pool = EmulatorPool(
        args.num,
        avd=args.avd,
        sdk=args.sdk,
        emulator=args.emulator,
        adb=args.adb,
        snapshot=args.snapshot,
        read_only=False if args.no_read_only else None,
        base_port=args.base_port,
        base_grpc_port=args.grpc_port,
        extra_args=args.emulator_arg,
        boot_timeout=args.boot_timeout,
        force=args.force,
        log_dir=args.log_dir or state.parent / "logs",
        state_file=state,
        on_event=lambda text: print(text, file=sys.stderr, flush=True),
    )
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
    # Ctrl-C stops the pool, as the ready line says, even when this was started from a script's
    # background job (`cmd &`), which starts with SIGINT ignored. (A --detach watcher runs in a
    # session of its own, where no terminal's Ctrl-C reaches it.)
    previous_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pool:
            print(_table(pool.report()), flush=True)
            print(f"ready: {len(pool)} emulators (state {state}); Ctrl-C or `cerebellum-gym emulators down` to stop", flush=True)
            pool.watch(stop, interval=args.check_interval)
    finally:
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGINT, previous_int)
    print("emulators shut down", file=sys.stderr, flush=True)
    return 0


def _detach(args: argparse.Namespace, state: Path) -> int:
    from cerebellum_gym.devices.emulators import read_state

    state.parent.mkdir(parents=True, exist_ok=True)
    log_path = state.with_suffix(".log")
    with open(log_path, "ab") as log:
        child = subprocess.Popen(
            _up_argv(args, state), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    deadline = time.monotonic() + args.boot_timeout * 2 + 60
    while time.monotonic() < deadline:
        code = child.poll()
        if code is not None:
            tail = "\n".join(log_path.read_text(errors="replace").splitlines()[-20:])
            raise CerebellumError(f"the pool did not come up (status {code}); its log ({log_path}):\n{tail}")
        current = read_state(state)
        if current is not None and current.get("owner_pid") == child.pid:
            rows = current.get("emulators", [])
            if len(rows) == args.num and all(r.get("state") == "ready" for r in rows):
                print(_table(rows))
                print(f"ready: {args.num} emulators, watched by process {child.pid} (log {log_path})")
                print("stop them with `cerebellum-gym emulators down`")
                return 0
        time.sleep(0.3)
    child.terminate()
    raise CerebellumError(f"the pool did not come up in time; its log: {log_path}")


def run_status(args: argparse.Namespace) -> int:
    """``emulators status``: 0 when every emulator of the pool answers and has booted."""
    from cerebellum_gym.devices.emulators import live_status, read_state

    state_path = _state_path(args.state)
    state = read_state(state_path)
    if state is None:
        print(f"no emulator pool (no state file {state_path})")
        return 1
    rows = live_status(state)
    owner = int(state.get("owner_pid") or 0)
    for row in rows:
        ok = row["adb_state"] == "device" and row["boot_completed"] == "1" and row["alive"] is not False
        row["live"] = "ready" if ok else (row["adb_state"] if row["alive"] is not False else "dead")
    if args.json:
        print(json.dumps({"owner_pid": owner, "owner_alive": _alive(owner), "emulators": rows}, indent=2))
    else:
        print(_table(rows))
        print(f"watcher: process {owner} ({'running' if _alive(owner) else 'gone'}); state {state_path}")
    return 0 if rows and all(r["live"] == "ready" for r in rows) else 1


def run_down(args: argparse.Namespace) -> int:
    """``emulators down``."""
    from cerebellum_gym.devices.emulators import read_state, stop_from_state

    state_path = _state_path(args.state)
    if read_state(state_path) is None:
        print(f"no emulator pool (no state file {state_path})")
        return 0
    left = stop_from_state(state_path, log=lambda text: print(text, file=sys.stderr, flush=True))
    print("emulator pool shut down" + (f" ({left} emulators stopped directly)" if left else ""))
    return 0


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
