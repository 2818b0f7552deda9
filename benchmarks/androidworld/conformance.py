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
#: Tasks whose goal is an app in front ("Clear any pop-ups ..."): their near miss leaves out the
#: launch and what follows it, since AndroidWorld's judge reads only the app in front, not the
#: first-run dialog (the camera's "Remember photo locations?") that the oracle's last tap clears.
LAUNCH_TASKS = frozenset({"OpenAppTaskEval", "TurnOnWifiAndOpenApp"})
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


#: What the simulator lacks for each AndroidWorld task it does not mirror (the doc test holds
#: the keys to exactly those tasks); "unrealistic": judged out of reach without an emulator.
NOT_MIRRORED: dict[str, str] = {}


@dataclass
class Unmirrored:
    """One not-mirrored task's line: AndroidWorld's own set-up and judge, with no action."""

    task: str
    apps: str  # the apps AndroidWorld's task uses
    setup: str  # "ok", or the exception that stopped initialize_task
    empty: str  # AndroidWorld's verdict when the agent says F at once, or the exception
    reason: str  # what the simulator lacks (NOT_MIRRORED)


def all_tasks() -> list[str]:
    """AndroidWorld's 116 tasks, by name (its registry)."""
    from cerebellum_gym.tasks.androidworld import task_classes

    return list(task_classes())


def aw_apps(name: str) -> list[str]:
    """The apps AndroidWorld's task ``name`` uses (its ``app_names``; the first app for the
    tasks built from its question protos, which name none)."""
    from cerebellum_gym.tasks.androidworld import _sample, task_class

    adapter = task_class(name)
    apps = getattr(_sample(adapter.aw_class), "app_names", ()) or getattr(adapter.aw_class, "app_names", ())
    return [str(a) for a in apps] or [adapter.app]


def mirrored() -> list[str]:
    """The AndroidWorld tasks the simulator mirrors (the simulator's registry's ``mirrors``)."""
    from cerebellum_gym.tasks.registry import TASKS

    return sorted({cls.mirrors for cls in TASKS.values() if cls.mirrors})


def meaningful(params: dict[str, Any]) -> bool:
    """Whether AndroidWorld's draw at one seed makes a task that is a task.

    Not one: an open-app task that names an app the simulator lacks (AndroidWorld's open-app
    tasks draw from its app list), or a database task that drew no target rows (its
    ``row_objects``), whose goal then holds before the agent acts: at some seeds
    RecipeDeleteMultipleRecipesWithConstraint's drawn ingredient is in no recipe's directions,
    so there is nothing to delete and any episode scores 1.0.
    """
    from cerebellum_gym.tasks.system import OPEN_APPS

    if params.get("app_name", "settings") not in OPEN_APPS:
        return False
    return not ("row_objects" in params and not params["row_objects"])


def seeds_for(name: str, count: int = 3) -> list[int]:
    """The first ``count`` seeds, in order from 0, at which AndroidWorld's parameters make the
    task meaningful (:func:`meaningful`); the parameters are those ``env.reset(seed=...)``
    draws, so the choice is deterministic and needs no device.

    Raises:
        ValueError: fewer than ``count`` of the first 500 seeds are meaningful.
    """
    from gymnasium.utils import seeding

    from cerebellum_gym.tasks.androidworld import task_class

    cls = task_class(name)
    seeds: list[int] = []
    for seed in range(500):
        if meaningful(cls.generate_params(seeding.np_random(seed)[0])):
            seeds.append(seed)
            if len(seeds) == count:
                return seeds
    raise ValueError(f"{name}: only {len(seeds)} meaningful seeds below 500")


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
    from cerebellum_gym.devices.androidworld.adb import load_adb_env
    from cerebellum_gym.devices.androidworld.embedded import InProcessPhone
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
        # Commands to the served phone in this process, as Cerebellum-AndroidWorld-v0's embedded
        # simulator sends them (adb emu still goes through the adb server to the console).
        env = load_adb_env(
            serial, adb_path=adb.adb, adb_env=adb_env, timeout=20.0, clock=in_process.clock, adb_client="in_process", served=server
        )
        yield World(adb, server, env, server.phone.snapshot(), serial, in_process)
    finally:
        server.stop()
        adb.stop()


def _reason(exc: BaseException) -> str:
    """An exception as one exact line (its type and the first line of its message)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class _Judged:
    """What the project's judge said at the end of one episode, and the app in front after each
    action."""

    def __init__(self) -> None:
        self.own: float | None = None
        self.own_error = ""
        self.fronts: list[str] = []


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
            if not action.startswith("F"):  # (AndroidWorld's tear_down follows F)
                judged.fronts.append(phone.foreground_package())
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


def launch_cut(actions: list[str], fronts: list[str]) -> tuple[int, str]:
    """How many of the oracle's actions a near miss keeps to leave out the launch of the app in
    front at the end (``fronts``: the app in front after each action), and what it leaves out."""
    final = fronts[-1] if fronts else ""
    launch = len(fronts) - 1
    while launch > 0 and fronts[launch - 1] == final:
        launch -= 1
    return launch, f"the launch ({actions[launch]}) and what follows"


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


def run_task(world: World, name: str, seed: int) -> Row:
    """The matrix row of one task at one seed."""
    from cerebellum_gym.tasks.catalog import BUILTIN

    family = str(BUILTIN.get(name).family)
    row = Row(name, family, seed, "ok", None, None, None, None, "", "")
    try:
        row.aw_oracle, judged, actions = _episode(world, name, seed, None)
    except Failure as exc:
        row.reason = str(exc)
        if exc.phase == "AndroidWorld initialize_task":
            row.initialize = row.reason
        return row
    row.own_oracle = judged.own
    cut, row.near_miss = launch_cut(actions, judged.fronts) if name in LAUNCH_TASKS else near_miss_cut(actions)
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


def run_unmirrored(world: World, name: str) -> Unmirrored:
    """AndroidWorld's set-up of a task the simulator does not mirror, at seed 0, then its judge
    on an empty episode (the agent says F at once)."""
    from cerebellum_gym.loader import make_env
    from cerebellum_gym.tasks.androidworld import task_class

    adapter = task_class(name)
    other = Unmirrored(name, ", ".join(aw_apps(name)), "ok", "–", NOT_MIRRORED.get(name, ""))
    world.restore()
    env = make_env(adapter, backend="androidworld", device=world.device(), pixels=False)
    try:
        try:
            env.reset(seed=0)
        except Exception as exc:
            other.setup = str(Failure("AndroidWorld initialize_task", exc))
            return other
        try:
            _, _, _, _, info = env.step("F")
            other.empty = _fmt(info.get("progress"))
        except Exception as exc:
            other.empty = str(Failure("AndroidWorld is_successful", exc))
        return other
    finally:
        with contextlib.suppress(Exception):
            env.close()


def cases(names: list[str], seeds: int = 3) -> list[tuple[str, int]]:
    """Each of ``names`` at its first ``seeds`` meaningful seeds (:func:`seeds_for`)."""
    return [(name, seed) for name in names for seed in seeds_for(name, seeds)]


def run(todo: list[tuple[str, int]], others: list[str] | None = None) -> tuple[list[Row], list[Unmirrored]]:
    """The rows of the given (task, seed) cases, in order, and of the tasks not mirrored
    (``others``), on one served simulator."""
    logging.getLogger("absl").setLevel(logging.ERROR)
    rows, probed = [], []
    with served_world() as world:
        # The served port changes from run to run; the committed reasons must not.
        for name, seed in todo:
            row = run_task(world, name, seed)
            row.reason, row.initialize = (text.replace(world.serial, "SERIAL") for text in (row.reason, row.initialize))
            rows.append(row)
        for name in others or []:
            other = run_unmirrored(world, name)
            other.setup, other.empty = (text.replace(world.serial, "SERIAL") for text in (other.setup, other.empty))
            probed.append(other)
    return rows, probed


def _cell(text: str) -> str:
    """Text for one table cell: pipes and line breaks escaped."""
    return text.replace("|", "\\|").replace("\n", "\\n")


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:g}"


def passing_tasks(rows: list[Row]) -> dict[str, bool]:
    """Task -> whether it passes at every seed run, with the project's judge agreeing."""
    tasks: dict[str, bool] = {}
    for row in rows:
        tasks[row.task] = tasks.get(row.task, True) and row.passes and row.agrees
    return tasks


def render(rows: list[Row], others: list[Unmirrored]) -> str:
    """The committed document: every mirrored task at every seed run, then the tasks not mirrored."""
    tasks = passing_tasks(rows)
    passing = [r for r in rows if r.passes]
    agreeing = sum(r.agrees for r in rows)
    seeds: dict[str, list[int]] = {}
    families: dict[str, list[Row]] = {}
    for row in rows:
        seeds.setdefault(row.task, []).append(row.seed)
        families.setdefault(row.family, []).append(row)
    counts = sorted({len(s) for s in seeds.values()})
    per_task = " or ".join(str(n) for n in counts)
    skipped = {t: sorted(set(range(max(s) + 1)) - set(s)) for t, s in seeds.items() if len(s) < max(s) + 1}
    total = len(tasks) + len(others)
    apps = {app for name in [*tasks, *(u.task for u in others)] for app in aw_apps(name)}
    covered = {app for name, ok in tasks.items() if ok for app in aw_apps(name)}
    out = [
        "# AndroidWorld conformance matrix",
        "",
        "<!-- Generated by benchmarks/androidworld/conformance.py; do not edit by hand. -->",
        "",
        f"**{sum(tasks.values())} of {total} AndroidWorld tasks pass end to end with AndroidWorld's own code** "
        f"at every seed run, without an emulator (its `initialize_task` on the served simulator, the simulator's "
        f"oracle acting, AndroidWorld's `is_successful` = 1.0; a near miss below 1.0; the project's judge "
        f"agreeing), over {len(covered)} of the {len(apps)} apps AndroidWorld's tasks use (`app_names`"
        f"{'; none of ' + ', '.join(sorted(apps - covered)) + ' yet' if apps - covered else ''}). The simulator mirrors "
        f"{len(tasks)} of AndroidWorld's tasks, each run at {per_task} seeds: "
        f"{len(passing)} of {len(rows)} task-seeds pass and the project's judge agrees with AndroidWorld's on "
        f"{agreeing}." + (f" The other {len(others)} are not mirrored; the last table says what each lacks." if others else ""),
        "",
        "How it is run: `python benchmarks/androidworld/conformance.py` (AndroidWorld installed, see",
        "docs/androidworld.md; `--seeds N` for more seeds). The near miss is a second episode where the",
        "oracle stops one action short (its last tap, long-press, typing or slider move is left out, with",
        'the navigation after it) or, for a question, withholds its answer; the "Verify" tasks, whose goal',
        "holds from the start, have theirs undone through adb; the open-app tasks leave out the launch",
        "(AndroidWorld's judge reads the app in front, not the camera's first-run dialog the oracle clears",
        "after it). A near miss scores 0.0, except that AndroidWorld's composite tasks give 0.5 for one",
        'part of two. "agree": the project\'s judge calls the same episodes successes (1.0) and the same',
        "ones not. `–`: not reached. A reason names the step that stopped the task and the first line of",
        "the exception raised there, as it was raised. A task passes when every seed run passes.",
        "",
        "Seeds: each mirrored task runs at its first seeds, counted from 0, at which AndroidWorld's own draw",
        "makes a task (`seeds_for`, from the parameters alone, so the choice is deterministic): a seed is",
        "skipped where an open-app task names an app the simulator lacks, or where a database task drew no",
        "target rows, so that its goal holds before the agent acts (RecipeDeleteMultipleRecipesWithConstraint",
        "when the drawn ingredient is in no recipe's directions: nothing to delete, any episode scores 1.0).",
    ]
    if skipped:
        out.append("Skipped here: " + "; ".join(f"{t} at {', '.join(map(str, s))}" for t, s in sorted(skipped.items())) + ".")
    out += [
        "",
        "| family | tasks passing at every seed | task-seeds passing |",
        "|---|---|---|",
    ]
    for family, members in sorted(families.items()):
        names = {r.task for r in members}
        out.append(f"| {family} | {sum(tasks[n] for n in names)} / {len(names)} | {sum(r.passes for r in members)} / {len(members)} |")
    out += [
        "",
        "## Mirrored tasks, every seed",
        "",
        "| task | seed | AW set-up | AW oracle | own oracle | AW near miss | own near miss | agree | near miss leaves out | reason |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        setup = "ok" if r.initialize == "ok" else "fails"
        agree = "yes" if r.agrees else ("–" if r.aw_oracle is None else "no")
        out.append(
            f"| {r.task} | {r.seed} | {setup} | {_fmt(r.aw_oracle)} | {_fmt(r.own_oracle)} | {_fmt(r.aw_near)} | "
            f"{_fmt(r.own_near)} | {agree} | {_cell(r.near_miss)} | {_cell(r.reason)} |"
        )
    if not others:
        return "\n".join(out) + "\n"
    out += [
        "",
        "## Not mirrored",
        "",
        "AndroidWorld's own set-up and judge on the served simulator at seed 0, with no action (the agent",
        "says `F` at once), and what the simulator lacks for the task.",
        "",
        "| task | apps | AW set-up | AW judge, empty episode | not mirrored because |",
        "|---|---|---|---|---|",
    ]
    for u in others:
        out.append(f"| {u.task} | {_cell(u.apps)} | {_cell(u.setup)} | {_cell(u.empty)} | {_cell(u.reason)} |")
    return "\n".join(out) + "\n"


def parse_rows(text: str) -> dict[tuple[str, int], list[str]]:
    """The mirrored table of a rendered document: (task, seed) -> its cells."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) == 10 and cells[1].isdigit():
            rows[(cells[0], int(cells[1]))] = cells
    return rows


def parse_unmirrored(text: str) -> dict[str, list[str]]:
    """The not-mirrored table of a rendered document: task -> its cells."""
    part = text.split("## Not mirrored", 1)[-1] if "## Not mirrored" in text else ""
    rows = {}
    for line in part.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) == 5 and cells[0] != "task" and not cells[0].startswith("---"):
            rows[cells[0]] = cells
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", help="comma-separated task names (default: all of AndroidWorld's)")
    parser.add_argument("--seeds", type=int, default=3, help="meaningful seeds per mirrored task (default 3)")
    parser.add_argument("--print", action="store_true", help="print JSON rows instead of writing the document")
    parser.add_argument("--out", type=Path, default=DOC)
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error("--seeds must be at least 1")
    every = mirrored()
    names = args.tasks.split(",") if args.tasks else all_tasks()
    unknown = sorted(set(names) - set(all_tasks()))
    if unknown:
        parser.error(f"not AndroidWorld tasks: {', '.join(unknown)}")
    rows, others = run(cases([n for n in names if n in every], args.seeds), [n for n in names if n not in every])
    if args.print:
        for row in rows:
            print(json.dumps({**asdict(row), "passes": row.passes, "agrees": row.agrees}))
        for other in others:
            print(json.dumps(asdict(other)))
    else:
        args.out.write_text(render(rows, others), encoding="utf-8")
        tasks = passing_tasks(rows)
        print(f"{sum(tasks.values())} of {len(tasks) + len(others)} pass at every seed; wrote {os.path.relpath(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
