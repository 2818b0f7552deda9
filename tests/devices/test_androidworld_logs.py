"""AndroidWorld's own log (absl: a warning per env about the file-descriptor limit, a task's
parameter repr per failed judge) goes to a file, not the terminal, unless asked for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("android_world")

#: Imports AndroidWorld through the gate, then has it log what it logs when an env is loaded.
SCRIPT = """
from cerebellum_gym.devices.androidworld.gate import import_android_world
launcher = import_android_world("env.env_launcher")
launcher._increase_file_descriptor_limit(1 << 40)  # above any hard limit: AndroidWorld warns
from absl import logging
logging.warning("a judge said: %s", "Recipe(title='x')")
"""


def _run(tmp_path: Path, **env: str) -> tuple[str, str]:
    log = tmp_path / "aw.log"
    environ = {k: v for k, v in os.environ.items() if k != "CEREBELLUM_VERBOSE"}
    environ.update({"CEREBELLUM_ANDROIDWORLD_LOG": str(log), **env})
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=environ, timeout=120, check=True)
    return done.stderr, log.read_text() if log.exists() else ""


def test_androidworld_logs_to_a_file_by_default(tmp_path: Path) -> None:
    stderr, logged = _run(tmp_path)
    assert "exceeds the system's hard limit" not in stderr and "Recipe(" not in stderr
    assert "exceeds the system's hard limit" in logged and "Recipe(title='x')" in logged


def test_verbose_keeps_it_on_the_terminal(tmp_path: Path) -> None:
    stderr, logged = _run(tmp_path, CEREBELLUM_VERBOSE="1")
    assert "exceeds the system's hard limit" in stderr and "Recipe(title='x')" in stderr
    assert logged == ""
