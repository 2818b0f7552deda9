"""Thirty bad inputs a new user types in the first hour, each checked for a one-line error that
names the fix (issue 41).

Every kind is here: ``gym.make`` options, ``--env-kwargs``, ``reset(options=...)``,
``device_options``, suites, families, apps, agent specs, structured actions and CLI flags. An
in-process input must raise a :class:`~cerebellum_gym.errors.CerebellumError` (or, for an agent
spec, the ``ValueError`` the loader raises) whose message is one line holding the fix; a command
must exit 2 with one line on stderr holding the fix, print nothing on stdout and write nothing in
its working folder (no run folder).

    python benchmarks/firsthour/bad_inputs.py          # prints one line per input, exits 1 on a miss
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Bad:
    """One bad input: its kind, what is typed, and the words the error must hold (the fix)."""

    kind: str
    typed: str
    fix: str
    call: Callable[[], Any] | None = None  # in process; else ``typed`` is a command line
    argv: tuple[str, ...] = ()


def _make(env_id: str = "Cerebellum-Sim-v0", **kwargs: Any) -> Callable[[], Any]:
    def call() -> Any:
        import gymnasium as gym

        import cerebellum_gym  # noqa: F401  (registers the ids)

        return gym.make(env_id, **kwargs)

    return call


def _reset(options: dict[str, Any]) -> Callable[[], Any]:
    def call() -> Any:
        env = _make(task="ContactsAddContact", pixels=False)()
        env.reset(seed=0)
        try:
            return env.reset(options=options)
        finally:
            env.close()

    return call


def _step(action: Any) -> Callable[[], Any]:
    def call() -> Any:
        env = _make(task="ContactsAddContact", pixels=False, invalid_action="raise")()
        env.reset(seed=0)
        try:
            return env.step(action)
        finally:
            env.close()

    return call


def _agent(spec: str) -> Callable[[], Any]:
    def call() -> Any:
        from cerebellum_gym.agents import load_agent

        return load_agent(spec)

    return call


def _suite(name: str) -> Callable[[], Any]:
    def call() -> Any:
        from cerebellum_gym.evaluation.suites import load_suite

        return load_suite(name)

    return call


def _cli(kind: str, line: str, fix: str) -> Bad:
    import shlex

    return Bad(kind, f"cerebellum-gym {line}", fix, argv=tuple(shlex.split(line)))


BAD: tuple[Bad, ...] = (
    Bad("gym.make", "gym.make(ID, pixel=False)", "did you mean 'pixels'", _make(pixel=False)),
    Bad("gym.make", 'gym.make(ID, reward="sparce")', "sparse", _make(reward="sparce")),
    Bad("gym.make", "gym.make(ID, max_steps=0)", "at least 1", _make(max_steps=0)),
    Bad("gym.make", 'gym.make(ID, task="ContactsAddContat")', "ContactsAddContact", _make(task="ContactsAddContat")),
    Bad("gym.make", 'gym.make(ID, backend="simm")', "sim", _make(backend="simm")),
    Bad(
        "device_options",
        'gym.make(Adb, device_options={"seriall": ...})',
        "did you mean 'serial'",
        _make("Cerebellum-Adb-v0", device_options={"seriall": "emulator-5554"}),
    ),
    Bad(
        "device_options",
        'gym.make(AndroidWorld, device_options={"open_target_ap": True})',
        "did you mean 'open_target_app'",
        _make("Cerebellum-AndroidWorld-v0", device_options={"open_target_ap": True}),
    ),
    Bad("device_options", "gym.make(ID, device_options=3)", "a mapping", _make(device_options=3)),
    Bad("reset options", 'env.reset(options={"taks": ...})', "did you mean 'task'", _reset({"taks": "ContactsAddContact"})),
    Bad("reset options", 'env.reset(options={"task": "ContactsAddContat"})', "ContactsAddContact", _reset({"task": "ContactsAddContat"})),
    Bad("reset options", 'env.reset(options={"task": 3})', "task name", _reset({"task": 3})),
    Bad("structured action", 'env.step({"code": 0})', "code, label and text", _step({"code": 0})),
    Bad("structured action", 'env.step({"code": 99, "label": 0, "text": ""})', "outside 0..", _step({"code": 99, "label": 0, "text": ""})),
    Bad("structured action", 'env.step({..., "lable": 1})', "code, label and text", _step({"code": 0, "label": 0, "text": "", "lable": 1})),
    Bad("action", 'env.step("t UE")', "did you mean 'T'", _step("t UE")),
    Bad("action", 'env.step("T ZZ")', "visible:", _step("T ZZ")),
    Bad("suite", 'load_suite("sim-smok")', "did you mean 'sim-smoke'", _suite("sim-smok")),
    Bad("agent spec", 'load_agent("radom")', "did you mean 'random'", _agent("radom")),
    Bad("agent spec", 'load_agent("json:dumpz")', "did you mean 'dump'", _agent("json:dumpz")),
    _cli("--env-kwargs", """eval --env-kwargs '{"pixel": false}'""", "did you mean 'pixels'"),
    _cli("--env-kwargs", "eval --env-kwargs '{max_steps: 20}'", "JSON"),
    _cli("--env-kwargs", """eval --env-kwargs '{"task": "ContactsAddContact"}'""", "--suite tasks:"),
    _cli("suite", "eval --suite sim-mixd100", "did you mean 'sim-mixed100'"),
    _cli("family", "tasks --family sytem", "did you mean 'system'"),
    _cli("app", "tasks --app setings", "did you mean 'Settings'"),
    _cli("agent spec", "eval --agent sb3:", "sb3:PATH"),
    _cli("agent spec", "eval --agent nosuchmodule:act", "importable"),
    _cli("CLI flag", "eval --agnet random", "did you mean '--agent'"),
    _cli("CLI flag", "eval --pixels maybe", "'auto', 'on', 'off'"),
    _cli("CLI flag", "evl", "did you mean 'eval'"),
    _cli("CLI flag", "eval --env Cerebellum-Simm-v0", "did you mean 'Cerebellum-Sim-v0'"),
    _cli("CLI flag", "eval --num-envs 0", "at least 1"),
    _cli("CLI flag", "eval --resume", "--out"),
    _cli("CLI flag", "train sft --base Qwen/Qwen3.5-0.8B --data runs/oracel-data --out runs/sft", "no such file or folder"),
)


def check(bad: Bad) -> str | None:
    """``None`` when ``bad`` gets a one-line error naming its fix, else what went wrong."""
    if bad.call is not None:
        from cerebellum_gym.errors import CerebellumError

        try:
            made = bad.call()
        except (CerebellumError, ValueError) as exc:
            message = str(exc)
        else:
            getattr(made, "close", lambda: None)()  # an env made after all
            return "accepted"
        stderr, written = message, []
    else:
        with tempfile.TemporaryDirectory() as folder:
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
            done = subprocess.run(
                [sys.executable, "-m", "cerebellum_gym", *bad.argv],
                check=False,
                cwd=folder,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            )
            written = sorted(p.name for p in Path(folder).iterdir())
        if done.returncode != 2:
            return f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
        if done.stdout:
            return f"printed on stdout: {done.stdout[:200]!r}"
        stderr = done.stderr.strip()
    if written:
        return f"wrote {written}"
    if "\n" in stderr:
        return f"{stderr.count(chr(10)) + 1} lines: {stderr[:300]!r}"
    if bad.fix not in stderr:
        return f"does not name the fix {bad.fix!r}: {stderr[:300]!r}"
    return None


def main() -> int:
    misses = 0
    for bad in BAD:
        problem = check(bad)
        misses += problem is not None
        print(f"{'ok  ' if problem is None else 'MISS'} {bad.kind:18} {bad.typed}" + (f"\n     {problem}" if problem else ""))
    print(f"{len(BAD) - misses} of {len(BAD)} bad inputs get a one-line error naming the fix")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
