"""Nothing of a project process stays behind it (issue 36): its temporary files and folders go when
it exits, its private adb server goes even when it is SIGKILLed, and what a SIGKILL left on disk
is swept by the next process that makes the same kind."""

from __future__ import annotations

import glob
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from cerebellum_gym import leftovers

pytestmark = pytest.mark.xdist_group("leftovers")


def _files_of(pid: int) -> list[str]:
    """The project's temporary files and folders named for ``pid`` (temp folder and /dev/shm)."""
    return [p for folder in (tempfile.gettempdir(), "/dev/shm") for p in glob.glob(os.path.join(folder, f"cerebellum-*-{pid}-*"))]


def _processes_of(pid: int) -> list[int]:
    """Processes whose HOME is one of ``pid``'s private adb homes (its adb servers and their watchdogs)."""
    marker = f"HOME={tempfile.gettempdir()}/cerebellum-adb-home-{pid}-".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if marker in environ:
            found.append(int(entry.name))
    return found


def _wait_for(predicate, timeout: float = 10.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def _start(code: str) -> subprocess.Popen[str]:
    """A child running ``code``, which prints ``ready`` once it holds what it made."""
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    line = child.stdout.readline()
    if line.strip() != "ready":
        child.kill()
        pytest.fail(f"the child did not get ready: {line!r} {child.stderr.read() if child.stderr else ''}")
    return child


HOLDER = """
from cerebellum_gym import leftovers
from cerebellum_gym.devices.adb import PrivateAdbServer
leftovers.owned_dir("probe"); leftovers.owned_file("probe", ".bin")
server = PrivateAdbServer().start()
print("ready", flush=True)
import sys; sys.stdin.read() if {wait} else None
"""


def test_a_clean_exit_leaves_nothing() -> None:
    child = subprocess.run([sys.executable, "-c", HOLDER.format(wait=False)], capture_output=True, text=True, timeout=120, check=True)
    assert child.stdout.strip() == "ready"
    # The child's pid is gone with it; what it named for itself must be gone too.
    time.sleep(0.2)
    leftovers_named = glob.glob(os.path.join(tempfile.gettempdir(), "cerebellum-probe-*"))
    assert all(leftovers.alive(int(Path(p).name.split("-")[2])) for p in leftovers_named), leftovers_named


def test_after_a_sigkill_the_adb_server_dies_and_the_next_process_sweeps_the_files() -> None:
    child = subprocess.Popen([sys.executable, "-c", HOLDER.format(wait=True)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    pid = child.pid
    assert _processes_of(pid), "the child's adb server runs"
    assert len(_files_of(pid)) == 3  # the probe folder and file, the adb home
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    assert _wait_for(lambda: not _processes_of(pid)), f"adb processes of the killed {pid} still run: {_processes_of(pid)}"
    # The files wait for the next process that makes one of their kind.
    for kind in ("probe", "adb-home"):
        leftovers.sweep(kind)
    assert _files_of(pid) == []


def test_kinds_are_plain_words() -> None:
    with pytest.raises(ValueError, match="lower-case words"):
        leftovers.owned_dir("../evil")


@pytest.mark.slow
def test_a_sigkilled_androidworld_env_leaves_nothing_after_the_next_start() -> None:
    """``gym.make("Cerebellum-AndroidWorld-v0")`` holds a served simulator, its private adb server
    and folders; a SIGKILL ends the server at once, and the next env's start sweeps the folders."""
    pytest.importorskip("android_world")
    code = (
        "import warnings; warnings.simplefilter('ignore')\n"
        "import gymnasium as gym, cerebellum_gym\n"
        "env = gym.make('Cerebellum-AndroidWorld-v0', pixels=False)\n"
        "env.reset(seed=0, options={'task': 'MarkorTranscribeVideo'})\n"
        "print('ready', flush=True)\n"
        "import time; time.sleep(600)\n"
    )
    child = _start(code)
    pid = child.pid
    assert _processes_of(pid) and _files_of(pid)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    assert _wait_for(lambda: not _processes_of(pid)), _processes_of(pid)
    nxt = (
        "import warnings; warnings.simplefilter('ignore')\n"
        "import gymnasium as gym, cerebellum_gym\n"
        "env = gym.make('Cerebellum-AndroidWorld-v0', pixels=False); env.reset(seed=1, options={'task': 'MarkorTranscribeVideo'})\n"
        "env.close()\n"
    )
    done = subprocess.run([sys.executable, "-c", nxt], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert _files_of(pid) == [], _files_of(pid)


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_bytes()
            except OSError:
                continue
            if int(stat.rsplit(b")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


@pytest.mark.slow
def test_a_sigkilled_eval_leaves_no_process_and_no_file_after_the_next_start(tmp_path: Path) -> None:
    """``cerebellum-gym eval`` on the AndroidWorld env with async workers, each holding a served
    simulator and a private adb server: after a SIGKILL of the eval, its workers and their adb
    servers end, and the next start of the env sweeps every folder they had."""
    pytest.importorskip("android_world")
    command = [sys.executable, "-m", "cerebellum_gym", "eval", "--env", "Cerebellum-AndroidWorld-v0", "--agent", "random"]
    command += ["--num-envs", "2", "--vectorization", "async", "--out", str(tmp_path / "run"), "--progress", "off"]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert _wait_for(lambda: len([w for w in _children(child.pid) if _processes_of(w)]) == 2, timeout=120), "the workers did not start"
        workers = _children(child.pid)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    pids = [child.pid, *workers]
    assert _wait_for(lambda: not any(leftovers.alive(w) for w in workers), timeout=30), "a worker outlived the eval"
    assert _wait_for(lambda: not any(_processes_of(p) for p in pids)), "an adb server outlived the eval"
    done = subprocess.run(
        [sys.executable, "-c", "import gymnasium as gym, cerebellum_gym; gym.make('Cerebellum-AndroidWorld-v0', pixels=False).close()"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert [f for p in pids for f in _files_of(p)] == []


def test_a_sigkilled_serve_adb_leaves_no_process_and_no_file() -> None:
    """``cerebellum-gym serve-adb`` serving a task with a video to set up, SIGKILLed while it
    serves: nothing it started runs on and no temporary file of it stays."""
    command = [sys.executable, "-m", "cerebellum_gym.cli", "serve-adb", "--port", "0", "--task", "MarkorTranscribeVideo", "--seed", "3"]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().startswith("task MarkorTranscribeVideo")
        assert "127.0.0.1:" in child.stdout.readline()  # serving
        started = _children(child.pid)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    assert _wait_for(lambda: not any(leftovers.alive(p) for p in started)), "a child outlived serve-adb"
    assert _files_of(child.pid) == []
