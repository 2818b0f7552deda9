"""AndroidWorld's own task code on the served simulator: the conformance matrix (issue 12).

For every AndroidWorld task the simulator mirrors, on one simulator served over ADB
(``AdbdServer``, a private real adb server, AndroidWorld set up by ``load_adb_env``):

1. AndroidWorld's ``initialize_task``, then home (AndroidWorld's episode protocol, through
   ``Cerebellum-AndroidWorld-v0``'s adapter);
2. the simulator's scripted oracle for the same-named task acts on the labelled screen until it
   says ``F``; AndroidWorld's ``is_successful`` judges (expected 1.0) and the project's own judge
   judges the same device state, right after it and before ``tear_down``;
3. a near miss: a new episode where the oracle stops one action short (its last tap, long-press,
   typing or slider move, with the navigation after it, is left out; a question's answer is
   withheld), judged the same way (expected 0.0 from both).

Everything AndroidWorld sees goes through the device (adb shell, sync, uiautomator dumps). The
project's judge reads the served phone in-process, as it does on the sim backend.

Run: ``python benchmarks/androidworld/conformance.py`` rewrites ``docs/androidworld_conformance.md``;
``--tasks A,B`` runs a subset; ``--print`` writes the rows as JSON lines to stdout instead.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "androidworld_conformance.md"
#: Navigation that changes nothing a judge reads; left out of a near miss after its last action.
NAVIGATION = frozenset("UDBHW")
#: The near miss of the "Verify" tasks, whose goal already holds at the start (the oracle only
#: says F): the state is undone through adb before the agent says F.
NEAR_MISS_SHELL = {
    "SystemWifiTurnOnVerify": "svc wifi disable",
    "SystemWifiTurnOffVerify": "svc wifi enable",
    "SystemBluetoothTurnOnVerify": "svc bluetooth disable",
    "SystemBluetoothTurnOffVerify": "svc bluetooth enable",
    "SystemBrightnessMaxVerify": "settings put system screen_brightness 200",
    "SystemBrightnessMinVerify": "settings put system screen_brightness 40",
}


@dataclass
class Row:
    """One task's line of the matrix."""

    task: str
    family: str
    seed: int
    initialize: str  # "ok", or the exception that stopped AndroidWorld's initialize_task
    aw_oracle: float | None  # AndroidWorld's is_successful after the oracle
    own_oracle: float | None  # the project's judge on the same state
    aw_near: float | None  # AndroidWorld's verdict on the near miss
    own_near: float | None
    near_miss: str  # what the near miss left out
    reason: str  # why the task does not pass ("" when it does)

    @property
    def passes(self) -> bool:
        """AndroidWorld judges the oracle's episode a success (1.0) and the near miss not one
        (0.0; composite tasks give partial credit, 0.5, for one part of two)."""
        return self.aw_oracle == 1.0 and self.aw_near is not None and self.aw_near < 1.0

    @property
    def agrees(self) -> bool:
        """The project's judge gives the same verdict (success or not) on both episodes."""
        pairs = ((self.aw_oracle, self.own_oracle), (self.aw_near, self.own_near))
        return all(a is not None and b is not None and (a >= 1.0) == (b >= 1.0) for a, b in pairs)


def mirrored() -> list[str]:
    """The AndroidWorld tasks the simulator mirrors (the simulator's registry's ``mirrors``)."""
    from cerebellum_gym.tasks.registry import TASKS

    return sorted({cls.mirrors for cls in TASKS.values() if cls.mirrors})


def seed_for(name: str) -> int:
    """The first seed whose parameters name an app the simulator has (AndroidWorld's open-app
    tasks draw from twenty apps); 0 for every other task."""
    from gymnasium.utils import seeding

    from cerebellum_gym.tasks.androidworld import task_class
    from cerebellum_gym.tasks.system import OPEN_APPS

    cls = task_class(name)
    for seed in range(200):
        params = cls.generate_params(seeding.np_random(seed)[0])
        if params.get("app_name", "settings") in OPEN_APPS:
            return seed
    return 0


@dataclass
class World:
    """The served simulator and AndroidWorld set up on it."""

    adb: Any
    server: Any
    env: Any  # AndroidWorld's AsyncAndroidEnv
    clean: Any = None  # the phone's state once AndroidWorld is set up: every episode starts there
    serial: str = ""  # the adb serial AndroidWorld uses (emulator-<console port>)
    in_process: Any = None  # the served phone in this process: its clock is AndroidWorld's time

    def restore(self) -> None:
        """Back to the state right after AndroidWorld's set-up (as AndroidWorld restores an
        emulator snapshot), so a row does not depend on the tasks run before it."""
        self.server.phone.restore(self.clean)

    def device(self) -> Any:
        from cerebellum_gym.devices.androidworld import AndroidWorldDevice

        return AndroidWorldDevice(self.env, tree_source="uiautomator", transition_pause=0.0, in_process=self.in_process)


@contextlib.contextmanager
def served_world() -> Iterator[World]:
    """A fresh simulator served over ADB, a private adb server, AndroidWorld set up on it."""
    from cerebellum_gym.devices.adb import PrivateAdbServer
    from cerebellum_gym.devices.androidworld_adb import load_adb_env
    from cerebellum_gym.devices.androidworld_embedded import InProcessPhone
    from cerebellum_gym.sim.adbd import AdbdServer
    from cerebellum_gym.sim.console import TOKEN_FILE
    from cerebellum_gym.sim.phone import Phone

    adb = PrivateAdbServer().start()
    # With the emulator console (AndroidWorld texts and calls through `adb emu`), attached as an
    # emulator does (`emulator-<console port>`); the console's token is the adb client's.
    token = Path(adb.env["HOME"]) / TOKEN_FILE
    server = AdbdServer(Phone(), port=0, console=True, console_auth_token=token).start()
    try:
        serial = server.announce(adb.port)
        adb_env = {k: v for k, v in adb.env.items() if k.startswith(("ANDROID_ADB", "ADB_")) or k == "HOME"}
        # Simulated time: AndroidWorld's sleeps (its actuation, the SMS judge's 5 s) advance the
        # phone's clock, as on Cerebellum-AndroidWorld-v0's embedded simulator.
        in_process = InProcessPhone(server)
        env = load_adb_env(serial, adb_path=adb.adb, adb_env=adb_env, timeout=20.0, clock=in_process.clock)
        yield World(adb, server, env, server.phone.snapshot(), serial, in_process)
    finally:
        server.stop()
        adb.stop()


def _reason(exc: BaseException) -> str:
    """An exception as one exact line (its type and the first line of its message)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class _Judged:
    """What the two judges said at the end of one episode."""

    def __init__(self) -> None:
        self.own: float | None = None
        self.own_error = ""


def _episode(world: World, name: str, seed: int, cut: int | None, shell: str = "") -> tuple[float | None, _Judged, list[str]]:
    """One episode: AndroidWorld's set-up, the oracle (all of it, or its first ``cut`` actions
    then ``F``), AndroidWorld's judgement (``info["progress"]``) and the project's.

    Raises:
        TaskError: AndroidWorld's task code raised.
    """
    from cerebellum_gym.loader import make_env
    from cerebellum_gym.tasks.androidworld import task_class
    from cerebellum_gym.tasks.catalog import BUILTIN

    adapter = task_class(name)
    phone = world.server.phone
    judged = _Judged()
    holder: dict[str, Any] = {}

    class Probe(adapter):  # type: ignore[misc,valid-type]
        def progress(self, device: Any, answer: str | None = None) -> float:
            score = super().progress(device, answer)
            try:  # the project's judge, on the state AndroidWorld just judged (before tear_down)
                judged.own = float(holder["sim"].progress(phone, answer))
            except Exception as exc:
                judged.own_error = _reason(exc)
            return score

    world.restore()
    env = make_env(Probe, backend="androidworld", device=world.device(), pixels=False)
    actions: list[str] = []
    try:
        try:
            env.reset(seed=seed)
        except Exception as exc:
            raise Failure("AndroidWorld initialize_task", exc) from exc
        try:
            assert env.task is not None
            sim_class = BUILTIN.get(name)
            sim_task = sim_class(sim_class.from_androidworld(dict(env.task.params)))
            sim_task.baseline(phone)
            oracle = sim_task.oracle()
        except Exception as exc:
            raise Failure("simulator task on AndroidWorld's parameters", exc) from exc
        holder["sim"] = sim_task
        if shell:
            done = world.adb.run("-s", world.serial, "shell", shell)
            if done.returncode != 0:
                raise Failure(f"near miss ({shell})", RuntimeError(done.stderr.strip()))
        info: dict[str, Any] = {}
        while True:
            if cut is not None and len(actions) >= cut:
                action = "F"
            else:
                try:
                    assert env.screen is not None
                    action = oracle.act(env.screen)
                except Exception as exc:
                    raise Failure("simulator oracle", exc) from exc
            actions.append(action)
            try:
                _, _, terminated, truncated, info = env.step(action)
            except Exception as exc:
                raise Failure("AndroidWorld is_successful" if action.startswith("F") else "step", exc) from exc
            if terminated or truncated:
                break
        progress = info.get("progress")
        return (None if progress is None else float(progress)), judged, actions
    finally:
        with contextlib.suppress(Exception):
            env.close()


class Failure(Exception):
    """Where an episode stopped, and the exception that stopped it."""

    def __init__(self, phase: str, exc: BaseException) -> None:
        from cerebellum_gym.errors import TaskError

        # AndroidWorld's own exception, not the adapter's TaskError that wraps it.
        inner = exc.__cause__ if isinstance(exc, TaskError) and exc.__cause__ is not None else exc
        super().__init__(f"{phase}: {_reason(inner)}")
        self.phase = phase


def near_miss_cut(actions: list[str]) -> tuple[int, str]:
    """How many of the oracle's actions a near miss keeps, and what it leaves out."""
    body = actions[:-1] if actions and actions[-1].startswith("F") else list(actions)
    if actions and actions[-1].startswith("F "):
        return len(body), "the answer withheld"
    end = len(body)
    while end and body[end - 1][:1] in NAVIGATION:
        end -= 1
    if end == 0:
        return 0, "every action"
    return end - 1, f"its last action ({body[end - 1]})"


def run_task(world: World, name: str) -> Row:
    """The matrix row of one task."""
    from cerebellum_gym.tasks.catalog import BUILTIN

    family = str(BUILTIN.get(name).family)
    seed = seed_for(name)
    row = Row(name, family, seed, "ok", None, None, None, None, "", "")
    try:
        row.aw_oracle, judged, actions = _episode(world, name, seed, None)
    except Failure as exc:
        row.reason = str(exc)
        if exc.phase == "AndroidWorld initialize_task":
            row.initialize = row.reason
        return row
    row.own_oracle = judged.own
    cut, row.near_miss = near_miss_cut(actions)
    shell = NEAR_MISS_SHELL.get(name, "")
    if shell:
        cut, row.near_miss = 0, f"undone through adb: `{shell}`"
    try:
        row.aw_near, near_judged, _ = _episode(world, name, seed, cut, shell)
        row.own_near = near_judged.own
    except Failure as exc:
        row.reason = f"near miss: {exc}"
        return row
    if judged.own_error or near_judged.own_error:
        row.reason = f"project judge: {judged.own_error or near_judged.own_error}"
    elif row.aw_oracle != 1.0:
        row.reason = f"AndroidWorld judged the oracle's episode {row.aw_oracle}"
    elif row.aw_near is None or row.aw_near >= 1.0:
        row.reason = f"AndroidWorld judged the near miss {row.aw_near}"
    return row


def run(names: list[str]) -> list[Row]:
    logging.getLogger("absl").setLevel(logging.ERROR)
    rows = []
    with served_world() as world:
        for name in names:
            row = run_task(world, name)
            # The served port changes from run to run; the committed reasons must not.
            serial = world.serial
            row.reason, row.initialize = (text.replace(serial, "SERIAL") for text in (row.reason, row.initialize))
            rows.append(row)
    return rows


def _cell(text: str) -> str:
    """Text for one table cell: pipes and line breaks escaped."""
    return text.replace("|", "\\|").replace("\n", "\\n")


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:g}"


def render(rows: list[Row]) -> str:
    """The committed document."""
    passing = [r for r in rows if r.passes]
    agreeing = [r for r in passing if r.agrees]
    families: dict[str, list[Row]] = {}
    for row in rows:
        families.setdefault(row.family, []).append(row)
    out = [
        "# AndroidWorld conformance matrix",
        "",
        "<!-- Generated by benchmarks/androidworld/conformance.py; do not edit by hand. -->",
        "",
        f"**{len(passing)} of {len(rows)} mirrored tasks pass end to end with AndroidWorld's own code** "
        f"(its `initialize_task` on the served simulator, the simulator's oracle acting, AndroidWorld's "
        f"`is_successful` = 1.0; a near miss below 1.0); the project's judge agrees with AndroidWorld's on "
        f"{len(agreeing)} of them.",
        "",
        "How it is run: `python benchmarks/androidworld/conformance.py` (AndroidWorld installed, see",
        "docs/androidworld.md). The near miss is a second episode where the oracle stops one action",
        "short (its last tap, long-press, typing or slider move is left out, with the navigation after",
        'it) or, for a question, withholds its answer; the "Verify" tasks, whose goal holds from the',
        "start, have theirs undone through adb. A near miss scores 0.0, except that AndroidWorld's",
        'composite tasks give 0.5 for one part of two. "agree": the project\'s judge calls the same',
        "episodes successes (1.0) and the same ones not. `–`: not reached. A reason names the step that",
        "stopped the task and the first line of the exception raised there, as it was raised.",
        "",
        "| family | passing |",
        "|---|---|",
    ]
    for family, members in sorted(families.items()):
        out.append(f"| {family} | {sum(r.passes for r in members)} / {len(members)} |")
    out += [
        "",
        "| task | seed | AW set-up | AW oracle | own oracle | AW near miss | own near miss | agree | near miss leaves out | reason |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        setup = "ok" if r.initialize == "ok" else "fails"
        agree = "yes" if r.agrees else ("–" if r.aw_oracle is None else "no")
        reason = _cell(r.reason)
        out.append(
            f"| {r.task} | {r.seed} | {setup} | {_fmt(r.aw_oracle)} | {_fmt(r.own_oracle)} | {_fmt(r.aw_near)} | "
            f"{_fmt(r.own_near)} | {agree} | {_cell(r.near_miss)} | {reason} |"
        )
    return "\n".join(out) + "\n"


def parse_rows(text: str) -> dict[str, list[str]]:
    """The task table of a rendered document: task -> its cells."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) == 10 and cells[0] not in ("task", "---") and not cells[0].startswith("---"):
            rows[cells[0]] = cells
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", help="comma-separated task names (default: every mirrored task)")
    parser.add_argument("--print", action="store_true", help="print JSON rows instead of writing the document")
    parser.add_argument("--out", type=Path, default=DOC)
    args = parser.parse_args(argv)
    names = args.tasks.split(",") if args.tasks else mirrored()
    rows = run(names)
    if args.print:
        for row in rows:
            print(json.dumps({**asdict(row), "passes": row.passes, "agrees": row.agrees}))
    else:
        args.out.write_text(render(rows), encoding="utf-8")
        print(f"{sum(r.passes for r in rows)} of {len(rows)} pass; wrote {os.path.relpath(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
