"""The built wheel works on its own: every package is in it, the suites ship as package data,
and the installed command finds them from any folder, as a checkout and an editable install do.

The wheel is built from a copy of the sources without build isolation and installed without
dependencies into a fresh venv that borrows this environment's site-packages for them (a
``.pth`` line, so nothing is downloaded and the editable install is not seen)."""

from __future__ import annotations

import configparser
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from cerebellum_gym.tasks import families

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("cerebellum_gym", "agents", "wrappers", "setup.cfg", "pyproject.toml", "README.md")

pytestmark = pytest.mark.slow


def _declared_packages() -> set[str]:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    return {p.strip() for p in cfg["options"]["packages"].split() if p.strip()}


def test_setup_cfg_lists_every_package_in_the_tree() -> None:
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "cerebellum_gym").rglob("__init__.py")}
    found |= {"cerebellum_gym.agents", "cerebellum_gym.wrappers"}  # agents/ and wrappers/ install under cerebellum_gym
    assert _declared_packages() == found


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"{cmd}\n{done.stdout}\n{done.stderr}"
    return done


def test_the_wheel_installs_and_runs_from_a_fresh_venv(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CEREBELLUM_SUITES")}
    src = tmp_path / "src"
    src.mkdir()
    for name in SOURCES:
        (shutil.copytree if (ROOT / name).is_dir() else shutil.copy2)(ROOT / name, src / name)  # type: ignore[operator]
    dist = tmp_path / "dist"
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", str(dist), str(src)]
    _run(build, tmp_path, env)
    (wheel,) = dist.glob("cerebellum_gym-*.whl")

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path, env)
    python = venv / "bin" / "python"
    purelib = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path, env).stdout.strip()
    # The dependencies (gymnasium, numpy, pillow, matplotlib, tqdm) from this environment, after the venv's own packages.
    Path(purelib, "borrowed-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q", str(wheel)], tmp_path, env)

    work = tmp_path / "elsewhere"
    work.mkdir()
    where = _run([str(python), "-c", "import cerebellum_gym; print(cerebellum_gym.__file__)"], work, env).stdout.strip()
    assert where.startswith(purelib), where  # the wheel's copy, not the checkout

    tool = str(venv / "bin" / "cerebellum-gym")
    listed = _run([tool, "tasks", "--suites"], work, env).stdout
    assert "sim-smoke" in listed and "sim-mixed100" in listed and "sim-family-system" in listed
    _run([tool, "eval", "--suite", "sim-smoke", "--agent", "oracle", "--out", "run", "--progress", "off"], work, env)
    records = [json.loads(line) for line in (work / "run" / "results.jsonl").read_text().splitlines()]
    assert len(records) == len(families()) and all(r["success"] for r in records)
    assert (work / "run" / "report.html").is_file()
    bare = _run([str(python), "-m", "cerebellum_gym", "eval", "--agent", "random", "--screens", "none", "--out", "bare"], work, env)
    assert "suite: sim-mixed100 (100 cases" in bare.stderr
