"""Every option is checked against one table when the env is built: a mistyped name or a bad value
is one line naming the fix (a ``ConfigError``), through ``gym.make``, ``reset(options=...)``,
``device_options`` and the command line, where it exits 2 before anything is written."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.cli import main
from cerebellum_gym.errors import ConfigError, InvalidActionError
from cerebellum_gym.options import ENV_OPTIONS, did_you_mean


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"pixel": False}, "unknown option 'pixel' (did you mean 'pixels'?)"),
        ({"Pixels": False}, "(did you mean 'pixels'?)"),
        ({"history_length": 2}, "(did you mean 'history_len'?)"),
        ({"max_step": 5}, "(did you mean 'max_steps'?)"),
        ({"device_option": {}}, "(did you mean 'device_options'?)"),
        ({"pixels": "no"}, "pixels must be True or False, got 'no'"),
        ({"max_steps": 0}, "max_steps must be an integer of at least 1 or None, got 0"),
        ({"screenshot_width": 464.0}, "screenshot_width must be an integer, got 464.0"),
        ({"reward": "dense"}, "reward must be one of shaped, progress_delta, sparse, got 'dense'"),
        ({"invalid_action": "ignore"}, "invalid_action must be one of penalize, raise"),
        ({"invalid_action_penalty": float("nan")}, "invalid_action_penalty must be a finite number"),
        ({"device_options": {"clokc": 0}}, "unknown option 'clokc' for the 'sim' backend (did you mean 'clock'?)"),
    ],
)
def test_gym_make_refuses_a_bad_option_in_one_line(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        gym.make("Cerebellum-Sim-v0", **kwargs)
    text = str(info.value)
    assert message in text
    assert "\n" not in text


def test_the_error_lists_every_valid_option() -> None:
    with pytest.raises(ConfigError) as info:
        gym.make("Cerebellum-Sim-v0", colour=True)
    for name in (*ENV_OPTIONS, "task", "device_options"):
        assert name in str(info.value)


def test_reset_options_are_checked() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", pixels=False)
    try:
        with pytest.raises(ConfigError, match=r"unknown reset option 'taks' \(did you mean 'task'\?\)"):
            env.reset(seed=0, options={"taks": "SystemWifiTurnOn"})
        with pytest.raises(ConfigError, match="takes a task name"):
            env.reset(seed=0, options={"task": 3})
        obs, _ = env.reset(seed=0, options={"task": "SystemWifiTurnOn"})
        assert "Wi" in obs["goal"] or "wifi" in obs["goal"].lower()
    finally:
        env.close()


@pytest.mark.parametrize("action", [{"code": 0}, {"code": 0, "label": 0}, {"code": 2, "text": "hi"}])
def test_a_structured_action_missing_a_key_is_invalid(action: dict[str, object]) -> None:
    env = gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", pixels=False, invalid_action="raise")
    try:
        env.reset(seed=0)
        with pytest.raises(InvalidActionError, match="lacks"):
            env.step(action)
    finally:
        env.close()


def test_did_you_mean_ignores_case_and_keeps_the_order_given() -> None:
    said = did_you_mean("SETINGS", ["b", "Settings"], what="app")
    assert said == "unknown app 'SETINGS' (did you mean 'Settings'?); valid apps: b, Settings"
    assert did_you_mean("zzz", ["a"]) == "unknown option 'zzz'; valid options: a"


#: Bad command lines, each with what its one line of error must say.
BAD_COMMANDS: list[tuple[list[str], str]] = [
    (["eval", "--env-kwargs", '{"pixel": false}'], "did you mean 'pixels'?"),
    (["eval", "--env-kwargs", '{"device_options": {"seriall": 1}}'], "unknown option 'seriall'"),
    (["eval", "--env-kwargs", '{"max_steps": -1}'], "max_steps must be an integer of at least 1"),
    (["eval", "--env-kwargs", "{"], "--env-kwargs is not valid JSON"),
    (["eval", "--suite", "sim-mixd100"], "unknown suite 'sim-mixd100' (did you mean 'sim-mixed100'?)"),
    (["eval", "--suite", "sim-smok"], "(did you mean 'sim-smoke'?)"),
    (["eval", "--agent", "randm"], "unknown agent 'randm' (did you mean 'random'?)"),
    (["eval", "--agent", "sb3:"], "names no model; give a saved model: sb3:PATH.zip"),
    (["eval", "--agent", "qwen:"], "names no model"),
    (["tasks", "--family", "sytem"], "unknown family 'sytem' (did you mean 'system'?)"),
    (["tasks", "--app", "setings"], "unknown app 'setings' (did you mean 'Settings'?)"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_COMMANDS, ids=[" ".join(a) for a, _ in BAD_COMMANDS])
def test_the_command_line_says_one_line_and_exits_2_writing_nothing(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "run"
    extra = ["--out", str(out), "--progress", "off"] if argv[0] == "eval" else []
    code = main([*argv, *extra])
    err = capsys.readouterr().err
    assert code == 2, err
    assert message in err
    assert len(err.strip().splitlines()) == 1, err
    assert "the agent" not in err  # the env's options are never blamed on an agent
    assert not out.exists() and not (tmp_path / "runs").exists()


def test_names_are_taken_in_any_case(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tasks", "--app", "settings"]) == 0
    assert "SystemWifiTurnOn" in capsys.readouterr().out
    assert main(["tasks", "--family", "SYSTEM"]) == 0
    assert "SystemWifiTurnOn" in capsys.readouterr().out
