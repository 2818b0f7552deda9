"""``gym.make("Cerebellum-AndroidWorld-v0")`` with no emulator named: AndroidWorld's own code on the
embedded simulator, served over ADB in-process.

Real: AndroidWorld (the wheel in ``../shared/third_party``, d9c569f) with its ``AsyncAndroidEnv``,
``setup_env`` and task classes; android_env's ``AdbCallParser``/``AdbController``; the real adb
server binary (a private one per env) and the simulator's adbd on a loopback port. Nothing is
replaced but the emulator's console/gRPC side (``androidworld_adb``: pixels from ``screencap``).

The one boundary simulated: "AndroidWorld is not installed", by making its modules unimportable
in ``sys.modules`` (``sys.modules["android_world"] = None``, its submodules and those of
cerebellum that imported them removed), since the wheel is installed here.
"""

from __future__ import annotations

import importlib
import io
import logging
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from PIL import Image

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.errors import CerebellumError, ConfigError, InfraError, TaskError
from cerebellum_gym.sim.adbd import AdbdServer
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks.catalog import BUILTIN

pytest.importorskip("android_world", reason="AndroidWorld is not installed (scripts/dev.sh test installs it)")
pytest.importorskip("adbutils")

from android_world.env import adb_utils
from android_world.task_evals import task_eval

from cerebellum_gym.devices.androidworld import AndroidWorldDevice
from cerebellum_gym.devices.androidworld import embedded as androidworld_embedded
from cerebellum_gym.tasks.androidworld import _adapter


def adb_server_alive(port: int) -> bool:
    """Whether an adb server process for ``port`` (``adb -L tcp:PORT server nodaemon``) runs."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if b"server" in cmdline and f"tcp:{port}".encode() in cmdline and state != "Z":
            return True
    return False


def served_threads(world: Any) -> list[threading.Thread]:
    """This world's adbd listener thread, if it still runs, and its open connections."""
    listener = world.server._thread  # adbd:<port>; enumerate() lists it only while it runs
    return [t for t in threading.enumerate() if t is listener] + list(world.server._connections)


def wait_gone(world: Any, seconds: float = 5.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end and (served_threads(world) or adb_server_alive(world.adb.port)):
        time.sleep(0.05)


@pytest.fixture
def judged(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the tasks AndroidWorld's own ``is_successful`` judged, in order."""
    log: list[str] = []
    original = task_eval.TaskEval.is_successful

    def wrapper(self: Any, env: Any) -> Any:
        log.append(self.name)
        return original(self, env)

    monkeypatch.setattr(task_eval.TaskEval, "is_successful", wrapper)
    return log


@pytest.fixture
def fresh_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if no embedded AndroidWorld had been built in this process yet."""
    monkeypatch.setattr(androidworld_embedded, "_noticed", threading.Event())


def solve(env: Any) -> dict[str, Any]:
    """Act with the simulator's oracle of the same-named task until the episode ends."""
    inner = env.unwrapped
    oracle = BUILTIN.get(inner.task.name)(dict(inner.task.params)).oracle()
    while True:
        _, _, terminated, truncated, info = env.step(oracle.act(inner.screen))
        if terminated or truncated:
            return info


def test_gym_make_with_no_emulator_runs_androidworld_on_the_embedded_simulator(
    judged: list[str], fresh_notice: None, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="cerebellum_gym.androidworld"):
        env = gym.make("Cerebellum-AndroidWorld-v0", task="SystemWifiTurnOn", pixels=True)
    device = env.unwrapped.device
    world = device.embedded
    assert isinstance(device, AndroidWorldDevice) and device.device_backend == "simulator"
    assert (device.tree_source, device.transition_pause) == ("uiautomator", 0.0)
    notices = [r for r in caplog.records if r.name == "cerebellum_gym.androidworld"]
    assert len(notices) == 1 and "embedded simulator" in notices[0].getMessage()

    # Solved: AndroidWorld's initialize_task, the oracle acting through AndroidWorld's env, and
    # AndroidWorld's is_successful, all through the real adb server.
    obs, info = env.reset(seed=0)
    assert info["device_backend"] == "simulator" and info["progress"] == 0.0
    assert obs["goal"] == "Turn wifi on." and obs["screenshot"].shape == (1031, 464, 3)
    assert obs["screenshot"].std() > 0  # a real frame from screencap, not a blank
    assert world.phone.get_setting("global", "wifi_on") == "0"  # AndroidWorld's set-up turned it off
    info = solve(env)
    assert info["success"] is True and info["progress"] == 1.0 and info["device_backend"] == "simulator"
    assert judged == ["SystemWifiTurnOn"]

    # A wrong episode on the same env: done at once, AndroidWorld judges 0.
    _, info = env.reset(seed=1)
    _, reward, terminated, _, info = env.step("F")
    assert terminated and reward == 0.0 and info["progress"] == 0.0 and not info["success"]
    assert judged == ["SystemWifiTurnOn", "SystemWifiTurnOn"]

    # Closing stops the served device (listener and connections) and kills the adb server.
    port = world.adb.port
    assert adb_server_alive(port) and served_threads(world)
    env.close()
    wait_gone(world)
    assert world.closed and not served_threads(world) and not adb_server_alive(port)
    env.close()  # idempotent


def test_the_embedded_phone_is_attached_as_an_emulator_so_adb_emu_reaches_its_console() -> None:
    """AndroidWorld texts and calls the phone through ``adb emu`` (SMS set-up), which the adb
    client sends only to the console of an ``emulator-NNNN`` serial, authenticated with the token
    in its own ``HOME``: the embedded phone is served with a console and attached that way."""
    env = gym.make("Cerebellum-AndroidWorld-v0", task="SystemWifiTurnOn", pixels=False)
    world = env.unwrapped.device.embedded
    try:
        assert world.serial == world.server.emulator_serial and world.serial.startswith("emulator-")
        text = "Hi; $(rm -rf /) `x` 'q' \"d\" & done"
        sent = world.adb.run("-s", world.serial, "emu", "sms", "send", "5551234", text)
        assert sent.returncode == 0 and "OK" in sent.stdout, sent
        inbox = world.adb.run("-s", world.serial, "shell", "content query --uri content://sms/inbox")
        assert "address=5551234" in inbox.stdout and f"body={text}," in inbox.stdout, inbox.stdout
        token = world.server.console.auth_token_path
        assert token is not None and token.read_text() and oct(token.stat().st_mode & 0o777) == "0o600"
        env.reset(seed=0)  # AndroidWorld still runs on the emulator serial
    finally:
        env.close()
    wait_gone(world)
    assert world.closed and not served_threads(world)


def test_the_notice_is_logged_once_per_process_and_make_vec_gives_each_env_its_own_phone(
    fresh_notice: None, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="cerebellum_gym.androidworld"):
        envs = gym.make_vec("Cerebellum-AndroidWorld-v0", num_envs=2, task="SystemBluetoothTurnOn", pixels=False)
    try:
        assert len([r for r in caplog.records if r.name == "cerebellum_gym.androidworld"]) == 1  # two devices, one line
        worlds = [device.embedded for device in envs.get_attr("device")]
        assert len({w.serial for w in worlds}) == 2 and len({w.adb.port for w in worlds}) == 2
        _, infos = envs.reset(seed=0)
        assert list(infos["device_backend"]) == ["simulator", "simulator"]
        # One phone turns bluetooth on through adb; only its own AndroidWorld judge sees it.
        assert worlds[0].adb.run("-s", worlds[0].serial, "shell", "svc bluetooth enable").returncode == 0
        _, _, terminated, _, infos = envs.step(np.array(["F", "F"], dtype=object))
        assert terminated.all() and list(infos["progress"]) == [1.0, 0.0]
    finally:
        envs.close()
    for world in worlds:
        wait_gone(world)
        assert world.closed and not served_threads(world) and not adb_server_alive(world.adb.port)


def test_async_make_vec_builds_each_embedded_phone_in_its_worker() -> None:
    envs = gym.make_vec("Cerebellum-AndroidWorld-v0", num_envs=2, vectorization="async", task="SystemWifiTurnOn", pixels=False)
    try:
        _, infos = envs.reset(seed=0)
        assert list(infos["device_backend"]) == ["simulator", "simulator"]
        _, _, terminated, _, infos = envs.step(np.array(["F", "F"], dtype=object))
        assert terminated.all() and list(infos["progress"]) == [0.0, 0.0]  # AndroidWorld judged: wifi is off
    finally:
        envs.close()


def test_naming_an_emulator_or_setting_one_up_never_falls_back_to_the_simulator(monkeypatch: pytest.MonkeyPatch) -> None:
    """The emulator itself is the boundary here: AndroidWorld's launcher is replaced by one that
    records what it was asked and fails as an unreachable emulator does."""
    from android_world.env import env_launcher

    from cerebellum_gym.loader import device_config

    asked: list[dict[str, Any]] = []

    def unreachable(**kwargs: Any) -> Any:
        asked.append(kwargs)
        raise ConnectionRefusedError("no emulator on that port")

    monkeypatch.setattr(env_launcher, "load_and_setup_env", unreachable)
    assert device_config("androidworld").console_port is None  # the default: the embedded simulator
    with pytest.raises(ConfigError, match="emulator_setup=True needs an emulator"):
        gym.make("Cerebellum-AndroidWorld-v0", device_options={"emulator_setup": True})
    # The device layer knows no simulator: built directly with nothing named, it says where to go.
    with pytest.raises(ConfigError, match="serve the embedded simulator"):
        AndroidWorldDevice()
    started = threading.active_count()
    for options, (console, grpc) in (({"console_port": 5556}, (5556, 8554)), ({"grpc_port": 8556}, (5554, 8556))):
        with pytest.raises(InfraError, match="no emulator on that port"):
            gym.make("Cerebellum-AndroidWorld-v0", task="SystemWifiTurnOn", device_options=options)
        assert (asked[-1]["console_port"], asked[-1]["grpc_port"]) == (console, grpc)
    assert threading.active_count() == started  # no simulator was served instead


class FailingSqlSetUp(task_eval.TaskEval):
    """Set-up code that runs a SQL command the device answers with an error, as AndroidWorld's
    SMS set-up does (``adb_utils.execute_sql_command``)."""

    app_names = ("simple sms messenger",)
    complexity = 1
    schema: dict[str, Any] = {}  # noqa: RUF012
    template = "Never starts."

    @classmethod
    def generate_random_params(cls) -> dict[str, Any]:
        return {}

    def initialize_task(self, env: Any) -> None:
        super().initialize_task(env)
        adb_utils.execute_sql_command("/data/local/tmp/no/such/dir/x.db", "SELEC broken FROM nowhere;", env.controller)


def test_a_command_the_device_answers_with_an_error_is_a_task_error_not_a_lost_device() -> None:
    env = gym.make("Cerebellum-AndroidWorld-v0", task=_adapter(FailingSqlSetUp, "android_world"), pixels=False)
    try:
        with pytest.raises(TaskError, match="the device answered status") as raised:
            env.reset(seed=0)
        assert not isinstance(raised.value, InfraError)
        # The device is fine: the next episode runs on it. (Unwrapped: gymnasium's passive
        # checker keeps no data from a first reset that raised, and then fails the first step.)
        inner = env.unwrapped
        _, info = inner.reset(seed=0, options={"task": "SystemWifiTurnOn"})
        _, _, terminated, _, info = inner.step("F")
        assert terminated and info["progress"] == 0.0 and not info["infra_error"]
    finally:
        env.close()


@pytest.fixture
def without_android_world(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """AndroidWorld uninstalled, as far as imports can tell (see the module docstring)."""
    gone = ("android_world", "cerebellum_gym.devices.androidworld.adb", "cerebellum_gym.devices.androidworld.embedded")
    for name in [m for m in sys.modules if m.startswith(gone)]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "android_world", None)
    yield


def test_without_androidworld_the_error_says_how_to_install_it_and_nothing_starts(without_android_world: None) -> None:
    started = threading.active_count()
    with pytest.raises(CerebellumError) as raised:
        gym.make("Cerebellum-AndroidWorld-v0", task="SystemWifiTurnOn")
    message = str(raised.value)
    assert "git clone https://github.com/google-research/android_world" in message
    assert "../shared/third_party/android_world-" in message and "docs/androidworld.md" in message
    assert threading.active_count() == started  # no adbd served, no adb server started
    embedded = importlib.import_module("cerebellum_gym.devices.androidworld.embedded")
    served = AdbdServer(Phone(), port=0).start()
    with pytest.raises(CerebellumError, match="not on PyPI"):
        embedded.EmbeddedAndroidWorld(served)
    assert served.stopping  # handed over, and stopped when the set-up failed


# --- the served path's own parts: commands over the server's socket, screenshots when read -------------


@pytest.fixture(scope="module", params=["socket", "in_process"])
def world(request: pytest.FixtureRequest) -> Iterator[Any]:
    """The embedded AndroidWorld with each fast controller: commands over the adb server's socket,
    or to the served device in this process (the default)."""
    with androidworld_embedded.EmbeddedAndroidWorld(AdbdServer(Phone(), port=0).start(), adb_client=request.param) as served:
        yield served


def test_commands_over_the_socket_answer_as_the_adb_binary_does(world: Any) -> None:
    from android_env.components import adb_controller, errors

    shim = world.env.controller._env
    fast = shim.adb
    assert type(fast).__name__ in ("SocketAdbController", "InProcessAdbController")
    binary = adb_controller.AdbController(fast._config)
    binary._os_env_vars.update(fast._os_env_vars)
    for args in (
        ["shell", "echo", "a  b;", "echo", "$((1+2))"],  # joined with spaces, unquoted, as adb does
        ["shell", "echo out; echo err >&2; echo out2"],  # stderr merged, as android_env reads it
        ["shell", "settings", "get", "global", "wifi_on"],
        ["exec-out", "echo", "raw"],
    ):
        assert fast.execute_command(args) == binary.execute_command(args), args
    # A command the device answers with an error: android_env's error, caused by the process
    # result (status and output), at once (no adb server restart, no second run).
    started = time.monotonic()
    with pytest.raises(errors.AdbControllerError) as raised:
        fast.execute_command(["shell", "echo", "no", "such", "table", ">&2;", "exit", "3"])
    assert time.monotonic() - started < 2.0
    cause = raised.value.__cause__
    assert cause.returncode == 3 and b"no such table" in cause.output
    assert fast.execute_command(["shell", "echo", "still", "here"]) == b"still here\n"


def test_push_and_pull_over_the_socket_do_what_the_adb_binary_does(world: Any, tmp_path: Path) -> None:
    from android_env.components import adb_controller, errors

    from cerebellum_gym.devices.androidworld import device_answer

    fast = world.env.controller._env.adb
    binary = adb_controller.AdbController(fast._config)
    binary._os_env_vars.update(fast._os_env_vars)
    payload = bytes(range(256)) * 700  # several sync chunks, every byte value
    local = tmp_path / "up.bin"
    local.write_bytes(payload)
    local.chmod(0o640)
    calls = []
    real = adb_controller.AdbController.execute_command

    def spy(self: Any, args: list[str], timeout: Any = None, device_specific: bool = True) -> bytes:
        calls.append(args[0])
        return bytes(real(self, args, timeout, device_specific))

    adb_controller.AdbController.execute_command = spy  # type: ignore[method-assign]
    try:
        fast.execute_command(["push", str(local), "/sdcard/fast.bin"])
        fast.execute_command(["pull", "/sdcard/fast.bin", str(tmp_path / "fast-back.bin")])
    finally:
        adb_controller.AdbController.execute_command = real  # type: ignore[method-assign]
    assert calls == []  # no adb process: both over the server's socket
    binary.execute_command(["push", str(local), "/sdcard/binary.bin"])
    binary.execute_command(["pull", "/sdcard/binary.bin", str(tmp_path / "binary-back.bin")])
    assert (tmp_path / "fast-back.bin").read_bytes() == (tmp_path / "binary-back.bin").read_bytes() == payload
    listed = fast.execute_command(["shell", "ls", "-l", "/sdcard/fast.bin", "/sdcard/binary.bin"]).decode()
    modes = {line.split()[-1]: line.split()[0] for line in listed.splitlines() if line.strip()}
    assert modes["/sdcard/fast.bin"] == modes["/sdcard/binary.bin"], listed
    # A file the device does not have: the device's answer, as android_env raises it.
    with pytest.raises(errors.AdbControllerError) as raised:
        fast.execute_command(["pull", "/sdcard/none.bin", str(tmp_path / "none.bin")])
    answer = device_answer(raised.value)
    assert answer is not None and answer.returncode == 1 and b"No such file" in answer.output


def test_push_and_pull_requests_answer_as_android_envs_parser_does(world: Any) -> None:
    """AndroidWorld's pushes and pulls are ``AdbRequest``s; in process they skip the parser's
    temporary file, with the parser's answers (what it answers over the socket, the reference)."""
    from android_env.components import adb_call_parser, errors
    from android_env.proto import adb_pb2

    shim = world.env.controller._env
    reference = adb_call_parser.AdbCallParser(shim.adb)  # the parser's own way, through a file
    payload = bytes(range(256)) * 300
    push = adb_pb2.AdbRequest(push=adb_pb2.AdbRequest.Push(path="/sdcard/req.bin", content=payload))
    assert shim.execute_adb_call(push) == reference.parse(push) == adb_pb2.AdbResponse(status=adb_pb2.AdbResponse.Status.OK)
    pull = adb_pb2.AdbRequest(pull=adb_pb2.AdbRequest.Pull(path="/sdcard/req.bin"))
    answered, expected = shim.execute_adb_call(pull), reference.parse(pull)
    assert answered == expected and answered.pull.content == payload
    missing = adb_pb2.AdbRequest(pull=adb_pb2.AdbRequest.Pull(path="/sdcard/none.bin"))
    with pytest.raises(errors.AdbControllerError):
        reference.parse(missing)
    with pytest.raises(errors.AdbControllerError):
        shim.execute_adb_call(missing)
    empty = adb_pb2.AdbRequest(pull=adb_pb2.AdbRequest.Pull(path=""))
    assert shim.execute_adb_call(empty) == reference.parse(empty)  # the parser's own refusal


def test_states_take_their_screenshot_only_when_it_is_read(world: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    shim = world.env.controller._env
    taken: list[str] = []
    screenshot = shim.screenshot

    def counted() -> np.ndarray:
        taken.append(shim.screencap_format)
        return screenshot()

    monkeypatch.setattr(shim, "screenshot", counted)
    state = world.env.get_state()
    assert state.ui_elements and taken == []  # AndroidWorld read the UI; no frame was taken
    pixels = np.asarray(state.pixels)
    assert taken == ["raw"]  # loopback: the raw framebuffer, no PNG round trip
    assert pixels.shape == (2400, 1080, 3) and pixels.dtype == np.uint8
    assert state.pixels.shape == pixels.shape and taken == ["raw"]  # taken once
    png = shim.adb.execute_command(["exec-out", "screencap", "-p"])
    with Image.open(io.BytesIO(png)) as image:
        assert np.array_equal(np.asarray(image.convert("RGB")), pixels)  # the same frame either way
