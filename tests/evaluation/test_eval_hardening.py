"""The eval harness under hostile input: concurrent runs on one folder, unwritable output
folders, strings no encoder likes, agents that answer nonsense. Each test failed before its fix."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from evalhelpers import read_lines, write_suite

from cerebellum_gym.agents import load_agent
from cerebellum_gym.cli import main
from cerebellum_gym.evaluation.frames import AUTO_SUCCESS_SAMPLE, SMALL_RUN, ScreenPolicy, spread
from cerebellum_gym.evaluation.outputs import finalize_run
from cerebellum_gym.evaluation.results import ResultsError, ResultsWriter, read_results
from cerebellum_gym.evaluation.runner import EvalConfig, run_suite
from cerebellum_gym.evaluation.suites import load_suite

QUIET = EvalConfig(progress="off", screens="none")
# Waits before its first action until the test creates ``release`` (at most 60 s), so the run
# holds its folder for as long as the test needs, however slowly this machine starts processes.
HELD_AGENT = """import os, time

def act(observation):
    deadline = time.monotonic() + 60
    while not os.path.exists("release") and time.monotonic() < deadline:
        time.sleep(0.02)
    return "W"
"""


def _eval(cwd: Path, *args: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    cmd = [sys.executable, "-m", "cerebellum_gym", "eval", "--progress", "off", "--screens", "none", *args]
    return subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_second_run_on_a_folder_in_use_refuses_naming_the_first(tmp_path: Path) -> None:
    (tmp_path / "held_agent.py").write_text(HELD_AGENT)
    suite = tmp_path / "slow.json"
    cases = [{"id": f"w{i}", "task": "SystemWifiTurnOn", "seed": i} for i in range(4)]
    suite.write_text(json.dumps({"name": "slow", "max_steps": 10, "cases": cases}))
    args = ("--agent", "held_agent:act", "--suite", str(suite), "--out", "run", "--num-envs", "1", "--resume")
    first = _eval(tmp_path, *args)
    try:
        lock = tmp_path / "run" / ".lock"
        deadline = time.monotonic() + 60
        while not (lock.exists() and lock.read_text().strip()) and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert first.poll() is None, first.communicate()
        second = _eval(tmp_path, *args)
        _, err = second.communicate(timeout=120)
        assert second.returncode == 2, err
        assert f"in use by another cerebellum-gym run (PID {first.pid})" in err
    finally:
        (tmp_path / "release").touch()  # whatever happened, the first run goes on and ends
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert sorted(r["case"] for r in read_lines(tmp_path / "run" / "results.jsonl")) == ["w0", "w1", "w2", "w3"]  # 4 lines, not 8
    # The lock goes with its process: the folder can be resumed (nothing left to run) afterwards.
    third = _eval(tmp_path, *args)
    assert third.wait(timeout=120) == 0, third.communicate()


def test_the_lock_is_released_when_the_writer_closes(tmp_path: Path) -> None:
    writer = ResultsWriter(tmp_path / "run", {"agent": "a"}, resume=True)
    with pytest.raises(ResultsError, match=f"PID {os.getpid()}"):
        ResultsWriter(tmp_path / "run", {"agent": "a"}, resume=True)
    writer.close()
    ResultsWriter(tmp_path / "run", {"agent": "a"}, resume=True).close()


@pytest.mark.parametrize("where", ["/dev/null/run", "a-file", "/proc/cerebellum-gym-run"])
def test_an_unwritable_out_is_blamed_on_the_folder(where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = write_suite(tmp_path, "tiny", 1)
    (tmp_path / "a-file").write_text("not a folder")
    out = where if where.startswith("/") else str(tmp_path / where)
    code = main(["eval", "--agent", "random", "--suite", str(suite), "--out", out, "--progress", "off"])
    captured = capsys.readouterr()
    assert code == 2
    assert f"cannot write the run folder {out}" in captured.err and "choose another --out" in captured.err
    assert "Traceback" not in captured.err and "random failed" not in captured.err and "--resume" not in captured.err


def test_an_agent_string_with_a_lone_surrogate_is_recorded_escaped(small_suite: Path, tmp_path: Path) -> None:
    answer = "F \ud800 caf\u00e9"
    agent = load_agent(lambda obs: answer)
    out = tmp_path / "run"
    result = run_suite(agent, load_suite(str(small_suite)), out, QUIET, agent_spec="surrogate")
    assert len(result.records) == 8
    raw = (out / "results.jsonl").read_bytes()
    raw.decode("utf-8")  # strict: the file is valid UTF-8
    # The env's text rule makes the answer an invalid action, so the agent repeats it to the budget.
    assert all(r["actions"] and set(r["actions"]) == {answer} for r in read_results(out))  # read back exactly
    finalize_run(out)  # summary, chart and report take it too
    assert "\\ud800" in (out / "report.html").read_text(encoding="utf-8")
    again = run_suite(agent, load_suite(str(small_suite)), out, QUIET, resume=True, agent_spec="surrogate")
    assert again.ran == 0 and len(again.records) == 8


def test_an_agents_bad_output_is_its_failed_case_not_a_crashed_run(small_suite: Path, tmp_path: Path) -> None:
    class Unprintable:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    answers = itertools.cycle([3, None, Unprintable(), ["T", "AB"]])
    agent = load_agent(lambda obs: next(answers))
    result = run_suite(agent, load_suite(str(small_suite)), tmp_path / "run", EvalConfig(progress="off", num_envs=1), agent_spec="bad")
    assert len(result.records) == 8 and all(r["status"] == "ok" and not r["success"] for r in result.records)
    first = result.records[0]
    assert first["actions"][:4] == [
        "<not an action string: int 3>",
        "<not an action string: NoneType None>",
        "<not an action string: Unprintable ?>",
        "<not an action string: list ['T', 'AB']>",
    ]
    assert all(r["invalid_actions"] == r["steps"] for r in result.records)


def test_fault_injection_with_ids_not_in_the_suite_is_an_error_listing_them(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["eval", "--suite", "sim-smoke", "--agent", "oracle", "--inject-faults", "case=SystemWifiTurnOn-0", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2
    assert "--inject-faults names case 'SystemWifiTurnOn-0', which is not in the suite" in err
    assert "TasksCompletedTasksForDate-0, VlcCreatePlaylist-0" in err
    assert not (tmp_path / "results.jsonl").exists()


def test_bad_budgets_in_env_kwargs_are_refused(small_suite: Path, tmp_path: Path) -> None:
    for budget in (0, -3, "5", True):
        config = EvalConfig(progress="off", env_kwargs={"max_steps": budget})
        with pytest.raises(Exception, match=r"max_steps \(the step budget\) must be a positive integer"):
            run_suite(load_agent("random"), load_suite(str(small_suite)), tmp_path / f"run-{budget}", config, agent_spec="random")


def _record(case: str, success: bool, status: str = "ok") -> dict[str, Any]:
    return {"case": case, "success": success, "status": status, "progress": 0.0}


def test_the_default_screen_policy_keeps_every_unsuccessful_episode() -> None:
    big = load_suite("sim-mixed100")
    auto = ScreenPolicy.parse("auto")
    sample = spread(big.cases, AUTO_SUCCESS_SAMPLE)
    for case in big.cases:
        assert auto.keep(big, _record(case.id, success=False))
        assert auto.keep(big, _record(case.id, success=False, status="error"))
        assert auto.keep(big, _record(case.id, success=True)) == (case.id in sample)
        assert not auto.keep(big, _record(case.id, success=False, status="infra_skip"))
    assert len(sample) == AUTO_SUCCESS_SAMPLE and {c.family for c in big.cases if c.id in sample} == {c.family for c in big.cases}
    small = load_suite("tasks:SystemWifiTurnOn:3")
    assert len(small.cases) <= SMALL_RUN and all(auto.keep(small, _record(c.id, success=True)) for c in small.cases)
    assert not any(ScreenPolicy.parse("none").keep(big, _record(c.id, False)) for c in big.cases)
    assert all(ScreenPolicy.parse("all").keep(big, _record(c.id, True)) for c in big.cases)
    # On the simulator nothing is recorded while running (it is replayed); on a device everything is.
    assert auto.live(big, replayable=True) == set() and auto.live(big, replayable=False) == {c.id for c in big.cases}


def test_replayed_frame_sets_are_the_screens_recorded_live(small_suite: Path, tmp_path: Path) -> None:
    suite = load_suite(str(small_suite))
    for name, screens in (("live", "all"), ("replayed", "auto")):
        config = EvalConfig(progress="off", num_envs=2, vectorization="sync", screens=screens)
        run_suite(load_agent("random"), suite, tmp_path / name, config, agent_spec="random")
    live_frames = sorted(p.relative_to(tmp_path / "live") for p in (tmp_path / "live" / "frames").rglob("*.jpg"))
    replayed_frames = sorted(p.relative_to(tmp_path / "replayed") for p in (tmp_path / "replayed" / "frames").rglob("*.jpg"))
    assert live_frames == replayed_frames and len(live_frames) >= 2 * len(suite.cases)
    for rel in live_frames:
        assert (tmp_path / "live" / rel).read_bytes() == (tmp_path / "replayed" / rel).read_bytes(), rel
    for steps in (tmp_path / "live" / "frames").rglob("steps.json"):
        twin = tmp_path / "replayed" / steps.relative_to(tmp_path / "live")
        live, replayed = json.loads(steps.read_text()), json.loads(twin.read_text())
        assert live["trees"] == replayed["trees"] and live["actions"] == replayed["actions"] and replayed["note"] == ""
        assert len(live["trees"]) == len(live["actions"]) + 1 and all(live["trees"])
