"""The command line as a newcomer meets it: ``python -m``, ``--version``, help text, pipes,
custom agents from the current folder, and missing extras named."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cerebellum_gym import __version__
from cerebellum_gym.cli import build_parser, main

POLICY = """
from cerebellum_gym.agents import Agent


class SettingsFirst(Agent):
    name = "settings-first"

    def act(self, observation):
        return "F"
"""


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def _run(args: list[str], cwd: Path, code: str | None = None) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "cerebellum_gym", *args]
    return subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=300, check=False)


def test_python_dash_m_runs_the_cli_and_knows_its_version(tmp_path: Path) -> None:
    done = _run(["--version"], tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == f"cerebellum-gym {__version__}"
    done = _run(["tasks", "--suites"], tmp_path)
    assert done.returncode == 0 and re.search(r"^sim-mixed100\s+100\s", done.stdout, re.M), done.stdout


def test_a_bad_simulator_setting_in_the_environment_is_reported_before_any_work(tmp_path: Path) -> None:
    env = {**_env(), "CEREBELLUM_FRAME_CACHE_MB": "lots"}
    cmd = [sys.executable, "-m", "cerebellum_gym", "eval", "--agent", "random", "--out", str(tmp_path / "run")]
    done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 2
    expected = "cerebellum-gym eval: error: CEREBELLUM_FRAME_CACHE_MB must be a whole number of megabytes (0 or more), got 'lots'"
    assert done.stderr.strip() == expected
    assert not (tmp_path / "run").exists()  # nothing started


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    # The reader is gone before the first line is written, as with `cerebellum-gym tasks | head -0`.
    proc = subprocess.Popen(
        [sys.executable, "-m", "cerebellum_gym", "tasks"], cwd=tmp_path, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert err == "" and proc.returncode == 141


def test_help_states_each_default_once() -> None:
    parser = build_parser()
    for name in ("eval", "compare", "tasks", "serve-adb"):
        text = parser._subparsers._group_actions[0].choices[name].format_help()  # type: ignore[union-attr]
        flat = " ".join(text.split())
        assert "default: None" not in flat, name
        assert not re.search(r"\(default: [^)]*\)\s*\(default:", flat), name
    eval_help = "".join(parser._subparsers._group_actions[0].choices["eval"].format_help().split())  # type: ignore[union-attr]
    assert "(default:sim-mixed100)" in eval_help and "(default:auto)" in eval_help


def test_a_custom_agent_loads_from_the_current_folder(tmp_path: Path) -> None:
    (tmp_path / "my_policy.py").write_text(POLICY)
    done = _run(["eval", "--agent", "my_policy:SettingsFirst", "--suite", "tasks:SystemWifiTurnOn", "--out", "run"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "settings-first" in done.stderr and (tmp_path / "run" / "report.html").is_file()


def test_a_bare_eval_runs_the_readme_suite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "--agent", "random", "--screens", "none", "--progress", "off"]) == 0
    err = capsys.readouterr().err
    assert "suite: sim-mixed100 (100 cases" in err


BLOCK = "import sys; sys.modules[{name!r}] = None; from cerebellum_gym.cli import main; sys.exit(main(sys.argv[1:]))"


def test_a_missing_matplotlib_names_the_extra(tmp_path: Path) -> None:
    args = ["eval", "--agent", "random", "--suite", "tasks:SystemWifiTurnOn", "--out", "run"]
    done = _run(args, tmp_path, BLOCK.format(name="matplotlib"))
    assert done.returncode == 0, done.stderr
    assert "no chart: matplotlib is missing; install the 'eval' extra: pip install 'cerebellum-gym[eval]'" in done.stderr
    assert (tmp_path / "run" / "report.html").is_file() and not (tmp_path / "run" / "success_by_family.png").exists()


def test_a_missing_tqdm_names_the_extra(tmp_path: Path) -> None:
    args = ["eval", "--agent", "random", "--suite", "tasks:SystemWifiTurnOn", "--out", "run", "--progress", "bar"]
    done = _run(args, tmp_path, BLOCK.format(name="tqdm"))
    assert done.returncode == 0, done.stderr
    assert "no progress bar: tqdm is missing; install the 'eval' extra: pip install 'cerebellum-gym[eval]'" in done.stderr


def test_a_missing_torch_names_the_extra(tmp_path: Path) -> None:
    import zipfile

    from cerebellum_gym.agents.sb3_agent import CONFIG_MEMBER, POLICY_MEMBER, WEIGHTS_MEMBER
    from cerebellum_gym.wrappers import SB3EnvConfig

    with zipfile.ZipFile(tmp_path / "model.zip", "w") as archive:  # the members a saved model has
        archive.writestr(CONFIG_MEMBER, SB3EnvConfig().to_json())
        archive.writestr(POLICY_MEMBER, "{}")
        archive.writestr(WEIGHTS_MEMBER, b"")
    done = _run(["eval", "--agent", "sb3:model.zip", "--suite", "tasks:SystemWifiTurnOn"], tmp_path, BLOCK.format(name="torch"))
    assert done.returncode == 2
    assert "needs the 'sb3' extra" in done.stderr and "pip install 'cerebellum-gym[sb3]'" in done.stderr
    (tmp_path / "broken.zip").write_bytes(b"not a zip")
    done = _run(["eval", "--agent", "sb3:broken.zip", "--suite", "tasks:SystemWifiTurnOn"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr and "cannot load agent 'sb3:broken.zip'" in done.stderr


@pytest.mark.parametrize(
    "argv", [["datasets", "eval-offline"], ["train", "sft"], ["train", "rl"], ["train", "dpo"], ["emulators", "start"]]
)
def test_help_shows_each_default_once_and_none_for_required_options(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from cerebellum_gym.cli import main

    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    text = capsys.readouterr().out
    assert "(default: None)" not in text
    assert "(default: False)" not in text
    for paragraph in text.split("\n  -"):
        assert paragraph.count("default") <= 1 or "(default:" not in paragraph, paragraph


def test_eval_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    from cerebellum_gym.cli import main

    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    text = capsys.readouterr().out
    assert "examples:" in text and "cerebellum-gym eval --suite sim-smoke --agent oracle" in text
