"""Guard of one emulator process: no emulator outlives the Python process that launched it.

Run by path (standard library only, so it starts fast and imports nothing of the package)::

    python -I _emulator_guard.py OWNER_PID -- emulator -avd NAME ...

It makes itself the leader of a new session and process group, starts the command in that group,
and then waits for either of two things:

- the command exits: the guard removes what is left of the group (helpers the emulator started)
  and exits with the command's status (``128 + signal`` when a signal ended it);
- the owner dies (this process is re-parented, so ``getppid()`` no longer names the owner): the
  guard sends SIGTERM to the whole group, SIGKILL after a grace period, and exits. That covers an
  owner ended by SIGKILL, which runs no clean-up of its own. ``prctl(PR_SET_PDEATHSIG)`` would
  fire when the launching *thread* ends, not the process, and would reach only the emulator, not
  the helpers it starts; polling the parent has neither problem.

SIGTERM or SIGINT to the guard also ends the whole group. The launcher can always end everything
with ``os.killpg(guard_pid, SIGKILL)``: the group id is the guard's pid.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

POLL_S = 0.2
GRACE_S = 5.0


def _end_group(child: subprocess.Popen[bytes], grace: float) -> None:
    """SIGTERM to the group (the guard ignores it), SIGKILL to the group after ``grace`` seconds."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.killpg(0, signal.SIGTERM)
        os.killpg(0, signal.SIGCONT)  # a stopped process handles its SIGTERM only once it runs
    deadline = time.monotonic() + grace
    while child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    # Everything left in the group, the guard included, goes now.
    os.killpg(0, signal.SIGKILL)


def main(argv: list[str]) -> int:
    if len(argv) < 4 or argv[2] != "--":
        print("usage: _emulator_guard.py OWNER_PID -- COMMAND [ARGS...]", file=sys.stderr)
        return 2
    owner = int(argv[1])
    command = argv[3:]
    if os.getpid() != os.getpgrp():
        os.setsid()
    if os.getppid() != owner:
        return 1  # the owner died before we started: launch nothing
    try:
        child = subprocess.Popen(command)
    except OSError as exc:
        print(f"cannot start {command[0]}: {exc}", file=sys.stderr, flush=True)
        return 127

    stop = False

    def on_signal(signum: int, frame: object) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    while True:
        code = child.poll()
        if code is not None:
            # The emulator is gone; take its helpers with it, keep the guard alive to report the status.
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            with contextlib.suppress(OSError):
                os.killpg(0, signal.SIGTERM)
            return 128 - code if code < 0 else code
        if stop or os.getppid() != owner:
            _end_group(child, GRACE_S)
            return 1  # not reached: the group's SIGKILL ends the guard too
        time.sleep(POLL_S)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
