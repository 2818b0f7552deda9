"""The ``eval`` and ``compare`` commands: a killed run resumed, clear errors, outputs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from evalhelpers import read_lines, write_suite

from cerebellum_gym.cli import main

SLOW_AGENT = '''
import time
from cerebellum_gym.agents import Agent


class Slow(Agent):
    """Waits a little per batch so a test can kill the run mid-way."""

    name = "slow"

    def act(self, observation):
        time.sleep(0.05)
        return "W" if not observation["history"]["mask"].any() else "I"


agent = Slow()
'''


def test_sigkilled_run_resumes_with_every_case_exactly_once(tmp_path: Path) -> None:
    suite = write_suite(tmp_path, "kill", 6)  # 24 cases
    (tmp_path / "slowagent.py").write_text(SLOW_AGENT)
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    cmd = [
        sys.executable,
        "-m",
        "cerebellum_gym.cli",
        "eval",
        "--suite",
        str(suite),
        "--agent",
        "slowagent:agent",
        "--num-envs",
        "2",
        "--out",
        str(out),
    ]
    cmd += ["--screens", "0", "--progress", "lines"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    results = out / "results.jsonl"
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            if results.exists() and len(results.read_bytes().splitlines()) >= 5:
                break
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(10)
    assert proc.returncode == -signal.SIGKILL
    before = results.read_bytes()
    done_before = len(before.split(b"\n")) - 1  # complete lines
    assert 5 <= done_before < 24, "the kill must land mid-way"

    again = subprocess.run([*cmd, "--resume"], env=env, capture_output=True, text=True, timeout=120, check=False)
    assert again.returncode == 0, again.stderr
    lines = read_lines(results)
    assert sorted(r["case"] for r in lines) == sorted(
        f"{t}-{s}" for s in range(6) for t in ("SystemWifiTurnOn", "SystemWifiTurnOff", "SystemBluetoothTurnOn", "ContactsAddContact")
    )
    complete_before = before[: before.rfind(b"\n") + 1]
    assert results.read_bytes().startswith(complete_before)  # finished cases kept as they were, not re-run
    assert "Report:" in again.stdout and (out / "report.html").exists() and (out / "summary.md").exists()


def test_eval_with_two_agents_prints_the_comparison(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = write_suite(tmp_path, "two", 1)
    out = tmp_path / "runs"
    code = main(
        [
            "eval",
            "--suite",
            str(suite),
            "--agent",
            "random",
            "--agent",
            "oracle",
            "--num-envs",
            "2",
            "--out",
            str(out),
            "--progress",
            "off",
            "--screens",
            "0",
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0
    assert "| Metric | random | oracle (privileged) |" in printed and "| Success | " in printed
    assert f"Report: {out / 'report.html'}" in printed
    for agent in ("random", "oracle"):
        assert len(read_lines(out / agent / "results.jsonl")) == 4
    assert (out / "compare.md").exists() and (out / "success_by_family.png").exists()
    assert main(["compare", str(out / "oracle"), str(out / "random"), "--out", str(tmp_path / "cmp")]) == 0
    assert "| oracle (privileged) | random |" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--suite", "no-such-suite"], "unknown suite 'no-such-suite'"),
        (["--agent", "nonsense"], "unknown agent 'nonsense'"),
        (["--agent", "no_such_module_xyz:agent"], "cannot import 'no_such_module_xyz'"),
        (["--env", "Cerebellum-Nope-v0"], "unknown env 'Cerebellum-Nope-v0'"),
        (["--resume"], "--resume needs --out"),
        (["--screens", "many"], "--screens takes auto, all, none or a number"),
        (["--env-kwargs", "[1]"], "--env-kwargs must be a JSON object"),
        (["--inject-faults", "bogus=1"], "unknown fault key 'bogus'"),
    ],
)
def test_bad_input_gets_a_clear_error(args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = write_suite(tmp_path, "tiny", 1)
    base = [] if "--suite" in args else ["--suite", str(suite)]
    code = main(["eval", *base, *args, "--progress", "off"])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_compare_rejects_a_folder_without_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(tmp_path)]) == 2
    assert "is not a run folder" in capsys.readouterr().err
