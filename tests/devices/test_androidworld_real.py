"""``Cerebellum-AndroidWorld-v0`` against the real AndroidWorld code (google-research/android_world
at d9c569f, the wheel in ``../shared/third_party``) driving the simulator served over ADB.

Real: AndroidWorld's ``AndroidWorldController`` (UI tree from ``uiautomator dump``),
``AsyncAndroidEnv``, ``actuation``, ``setup_env`` (clock frozen, ``adb root``), its task classes
(``initialize_task``, ``is_successful``, ``tear_down``), android_env's ``AdbCallParser`` and
``AdbController`` running the adb binary against a private adb server, and the simulator's adbd.
Replaced: only the emulator's console/gRPC side (``cerebellum_gym.devices.androidworld.adb``:
pixels from ``screencap``). Two task doubles, subclasses of AndroidWorld's own ``TaskEval``,
stand in where a behaviour must be provoked (a judge with side effects, task code that raises).

The agent is the simulator's scripted oracle for the task of the same name: it acts on the
labelled screen only, so what is judged is AndroidWorld's verdict on the device's state.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cerebellum_gym.devices.adb import PrivateAdbServer
from cerebellum_gym.errors import ConfigError, InfraError, TaskError
from cerebellum_gym.loader import make_env
from cerebellum_gym.sim.adbd import AdbdServer
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks.catalog import BUILTIN

android_world = pytest.importorskip("android_world", reason="AndroidWorld is not installed (scripts/dev.sh test installs it)")
pytest.importorskip("adbutils")

from android_world.env import adb_utils  # noqa: E402
from android_world.task_evals import task_eval  # noqa: E402

from cerebellum_gym.devices.androidworld import AndroidWorldDevice  # noqa: E402
from cerebellum_gym.devices.androidworld.adb import load_adb_env  # noqa: E402
from cerebellum_gym.tasks.androidworld import _adapter, task_class  # noqa: E402

#: AndroidWorld tasks whose apps the simulator has and whose set-up needs only settings, intents
#: and files. (The browser tasks set up too, but their pages are JavaScript the simulator cannot
#: run: see docs/androidworld.md.)
SOLVABLE = (
    "SystemWifiTurnOn",
    "SystemWifiTurnOff",
    "SystemBluetoothTurnOn",
    "SystemBluetoothTurnOff",
    "SystemBrightnessMax",
    "SystemBrightnessMin",
    "TurnOffWifiAndTurnOnBluetooth",
    "TurnOnWifiAndOpenApp",
    "OpenAppTaskEval",
    "CameraTakePhoto",
    "CameraTakeVideo",
    "ClockStopWatchPausedVerify",
    "ClockStopWatchRunning",
    "ClockTimerEntry",
    "AudioRecorderRecordAudio",
    "AudioRecorderRecordAudioWithFileName",
)


@dataclass
class World:
    adb: PrivateAdbServer
    server: AdbdServer
    env: Any  # AndroidWorld's AsyncAndroidEnv

    def device(self) -> AndroidWorldDevice:
        return AndroidWorldDevice(self.env, tree_source="uiautomator", transition_pause=0.0)


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    """The served simulator, a private adb server of this module's own (android_env restarts the
    server after a failed command), and AndroidWorld set up on it."""
    adb = PrivateAdbServer().start()
    server = AdbdServer(Phone(), port=0).start()
    try:
        assert "connected" in adb.run("connect", server.serial_for_adb).stdout
        adb_env = {k: v for k, v in adb.env.items() if k.startswith(("ANDROID_ADB", "ADB_")) or k == "HOME"}
        env = load_adb_env(server.serial_for_adb, adb_path=adb.adb, adb_env=adb_env, timeout=20.0)
        yield World(adb, server, env)
    finally:
        server.stop()
        adb.stop()


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """(task, method) of every initialize_task / is_successful / tear_down AndroidWorld runs,
    and "home" for each Home press of ``AsyncAndroidEnv.reset``, in order."""
    log: list[tuple[str, str]] = []
    for method in ("initialize_task", "is_successful", "tear_down"):
        original = getattr(task_eval.TaskEval, method)

        def wrapper(self: Any, env: Any, _original: Any = original, _method: str = method) -> Any:
            log.append((self.name, _method))
            return _original(self, env)

        monkeypatch.setattr(task_eval.TaskEval, method, wrapper)
    press_home = adb_utils.press_home_button

    def home(env: Any, *args: Any, **kwargs: Any) -> Any:
        log.append(("", "home"))
        return press_home(env, *args, **kwargs)

    monkeypatch.setattr(adb_utils, "press_home_button", home)
    return log


def run_oracle(env: Any, max_extra: int = 0) -> tuple[float, dict[str, Any], int]:
    """Act with the simulator's oracle of the same-named task until the episode ends."""
    task = env.task
    sim_task = BUILTIN.get(task.name)(dict(task._instance().params))
    oracle = sim_task.oracle()
    total, steps = 0.0, 0
    while True:
        action = oracle.act(env.screen)
        _, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        steps += 1
        if terminated or truncated:
            return total, info, steps


def make(world: World, task: Any, **options: Any) -> Any:
    return make_env(task, backend="androidworld", device=world.device(), pixels=False, **options)


def seed_for(name: str) -> int:
    """A seed whose parameters name an app the simulator has (AndroidWorld's open-app tasks
    draw from twenty apps)."""
    from gymnasium.utils import seeding

    from cerebellum_gym.tasks.system import OPEN_APPS

    cls = task_class(name)
    for seed in range(200):
        params = cls.generate_params(seeding.np_random(seed)[0])
        if params.get("app_name", "settings") in OPEN_APPS:
            return seed
    raise AssertionError(f"no seed for {name}")


# --- AndroidWorld's own tasks, solved and failed -------------------------------------------------


@pytest.mark.parametrize("name", SOLVABLE)
def test_oracle_solves_and_androidworld_judges_once_at_the_end(world: World, calls: list[tuple[str, str]], name: str) -> None:
    env = make(world, name)
    _, info = env.reset(seed=seed_for(name))
    assert info["progress"] == 0.0
    assert calls[0] == (name, "initialize_task") and calls[-1] == ("", "home")  # set up, then home
    assert not [c for c in calls if c[1] == "is_successful"]  # not judged at reset
    total, info, steps = run_oracle(env)
    # (composite tasks call their parts' methods too: count the task's own)
    judged = [c for c in calls if c == (name, "is_successful")]
    assert len(judged) == 1, calls  # once, at the end
    assert info["success"] is True and total == 1.0 and info["progress"] == 1.0
    assert (name, "tear_down") in calls[calls.index(judged[0]) :]  # then torn down
    env.close()
    assert calls.count((name, "tear_down")) == 1  # not again on close


@pytest.mark.parametrize("name", ["SystemWifiTurnOn", "OpenAppTaskEval", "CameraTakePhoto"])
def test_a_wrong_episode_is_judged_zero(world: World, calls: list[tuple[str, str]], name: str) -> None:
    env = make(world, name)
    env.reset(seed=5)
    _, reward, terminated, _, info = env.step("F")  # done without doing anything
    assert terminated and reward == 0.0 and info["success"] is False and info["progress"] == 0.0
    assert [c[1] for c in calls if c[1] in ("is_successful", "tear_down")] == ["is_successful", "tear_down"]
    env.close()


def test_the_step_budget_ends_the_episode_with_its_one_judgement(world: World, calls: list[tuple[str, str]]) -> None:
    env = make(world, "SystemWifiTurnOn", max_steps=2)
    env.reset(seed=0)
    _, reward, terminated, truncated, _ = env.step("H")
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert not [c for c in calls if c[1] == "is_successful"]
    _, reward, terminated, truncated, info = env.step("H")
    assert truncated and not terminated and reward == 0.0
    assert [c[1] for c in calls if c[1] in ("is_successful", "tear_down")] == ["is_successful", "tear_down"]
    env.close()


def test_per_step_judging_is_an_opt_in_for_side_effect_free_judges_only(world: World, calls: list[tuple[str, str]]) -> None:
    env = make(world, "SystemWifiTurnOn", judge_every_step=True)
    env.reset(seed=0)
    assert [c[1] for c in calls].count("is_successful") == 1  # judged at reset too
    env.step("H")
    assert [c[1] for c in calls].count("is_successful") == 2
    env.close()
    side_effects = make(world, _adapter(SideEffectJudge, "android_world"), judge_every_step=True)
    with pytest.raises(ConfigError, match="side-effect free"):
        side_effects.reset(seed=0)
    side_effects.close()


def test_adapter_metadata_is_complete() -> None:
    from cerebellum_gym.tasks.androidworld import task_classes

    adapters = task_classes()
    assert len(adapters) == 116
    for name, cls in adapters.items():
        assert cls.app, name
        assert cls.template, name
    assert "{" in adapters["TasksDueNextWeek"].template or adapters["TasksDueNextWeek"].template.startswith("How many")
    assert adapters["MarkorEditNote"].template.startswith("Edit {file_name} in Markor")
    assert adapters["TasksDueNextWeek"].app == "tasks"
    # The budget follows the instance: TasksDueNextWeek's class says 1.2, its instances 1.
    assert adapters["TasksDueNextWeek"].complexity == 1.0
    assert adapters["SystemWifiTurnOn"].judge_side_effect_free
    assert not adapters["SystemCopyToClipboard"].judge_side_effect_free


# --- doubles: a judge with side effects, task code that raises ----------------------------------


class SideEffectJudge(task_eval.TaskEval):
    """Like SystemCopyToClipboard's judge: it moves the UI (opens Settings) and counts its calls."""

    app_names = ("settings",)
    complexity = 0.2  # a budget of 3 steps (AndroidWorld's 2, and the launcher's step)
    schema: dict[str, Any] = {}  # noqa: RUF012
    template = "Do nothing."
    judged = 0
    foreground_after = ""

    @classmethod
    def generate_random_params(cls) -> dict[str, Any]:
        return {}

    def is_successful(self, env: Any) -> float:
        super().is_successful(env)
        type(self).judged += 1
        adb_utils.launch_app("settings", env.controller)
        type(self).foreground_after = adb_utils.get_current_activity(env.controller)[0]
        return 1.0


class RaisingSetUp(task_eval.TaskEval):
    """Task code that raises, as the SMS set-up's "already sent" ValueError does."""

    app_names = ()
    complexity = 1
    schema: dict[str, Any] = {}  # noqa: RUF012
    template = "Never starts."

    @classmethod
    def generate_random_params(cls) -> dict[str, Any]:
        return {}

    def initialize_task(self, env: Any) -> None:
        super().initialize_task(env)
        raise ValueError("Message already sent")


def test_a_side_effecting_judge_runs_once_after_the_last_step(world: World, calls: list[tuple[str, str]]) -> None:
    SideEffectJudge.judged = 0
    env = make(world, _adapter(SideEffectJudge, "android_world"))
    env.reset(seed=0)
    observations = []
    for _ in range(3):
        obs, reward, terminated, truncated, info = env.step("H")
        observations.append(obs)
        assert SideEffectJudge.judged == (1 if truncated else 0)
    # Judged 1.0 once, at the budget; without the agent's F that is partial credit, not success,
    # so the default (shaped) reward pays 0 (docs/rewards.md).
    assert truncated and info["progress"] == 1.0 and not info["success"] and reward == 0.0
    # The agent's last observation is the screen before the judge opened Settings.
    assert "Settings" not in observations[-1]["tree"].split("\n")[0] and "Wi-Fi" not in observations[-1]["tree"]
    assert SideEffectJudge.foreground_after.startswith("com.android.settings/")  # the judge's doing
    assert calls[-1] == ("SideEffectJudge", "tear_down")
    env.close()


def test_reset_initializes_the_task_before_going_home(world: World, calls: list[tuple[str, str]]) -> None:
    env = make(world, "SystemBluetoothTurnOn")
    world.server.phone.start_app("com.android.settings")
    env.reset(seed=0)
    order = [c[1] for c in calls if c[1] in ("initialize_task", "home")]
    assert order == ["initialize_task", "home"]
    assert world.server.phone.foreground_package() == "com.google.android.apps.nexuslauncher"
    env.close()


def test_task_code_errors_are_task_errors_not_infra(world: World, calls: list[tuple[str, str]]) -> None:
    env = make(world, _adapter(RaisingSetUp, "android_world"))
    with pytest.raises(TaskError, match="Message already sent") as raised:
        env.reset(seed=0)
    assert not isinstance(raised.value, InfraError)
    env.close()  # the half set-up task is torn down, quietly
    assert calls[-1] == ("RaisingSetUp", "tear_down")


def test_an_adb_failure_is_infra_and_the_retry_succeeds(world: World) -> None:
    env = make(world, "SystemWifiTurnOn")
    # The device drops every connection for its next services: adb fails, android_env retries
    # (restarting the adb server), then gives up.
    world.server.inject("drop", on="shell", count=50)
    try:
        with pytest.raises(InfraError):
            env.reset(seed=0)
    finally:
        world.server.clear_faults()
    # The evaluation's retry: the same case again, on the device that came back.
    world.adb.run("connect", world.server.serial_for_adb)
    _, info = env.reset(seed=0)
    _, reward, terminated, _, info = env.step("F")
    assert terminated and info["progress"] == 0.0  # judged: wifi is still off
    env.close()


def test_gym_make_on_the_served_simulator(world: World) -> None:
    import gymnasium as gym

    env = gym.make(
        "Cerebellum-AndroidWorld-v0",
        task="SystemWifiTurnOff",
        device_options={"env": world.env, "tree_source": "uiautomator", "transition_pause": 0.0},
        pixels=True,
    )
    obs, _ = env.reset(seed=1)
    assert obs["goal"] == "Turn wifi off." and obs["screenshot"].shape == (1031, 464, 3)
    env.close()
    random.seed(os.getpid())  # leave Python's RNG as unpredictable as we found it


def test_each_process_writes_androidworlds_host_files_in_its_own_folder() -> None:
    """AndroidWorld writes set-up files under fixed names in the host's temporary folder (the
    VLC videos, receipt.png, task.html): processes running its tasks at once overwrote each
    other's between writing and pushing (seen as VLC tasks failing under parallel test workers)."""
    from cerebellum_gym.devices.androidworld import import_android_world

    generation = import_android_world("task_evals.utils.user_data_generation")
    file_utils = import_android_world("utils.file_utils")
    ours = file_utils.get_local_tmp_directory()
    assert ours == generation._TMP and ours != tempfile.gettempdir() and Path(ours).is_dir()
    code = (
        "from cerebellum_gym.devices.androidworld import import_android_world as a;print(a('task_evals.utils.user_data_generation')._TMP)"
    )
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert other and other != ours and not Path(other).exists()  # its own, and removed when it exited
