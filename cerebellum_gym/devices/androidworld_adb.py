"""AndroidWorld over plain ADB: the real ``AndroidWorldController`` and ``AsyncAndroidEnv`` on any
ADB device, with only the emulator's console/gRPC side replaced.

AndroidWorld reaches its emulator through android_env's ``EmulatorSimulator``, which hard-codes
the serial ``emulator-<adb_port - 1>`` and needs the emulator's gRPC endpoint for boot status,
screenshots and touches. Everything else AndroidWorld does (set-up, task initialisation, judges,
actuation) goes through ``execute_adb_call`` and android_env's ``AdbCallParser`` and
``AdbController``, which accept any serial (``127.0.0.1:6520`` for a device on the network,
such as the simulator served by ``cerebellum-gym serve-adb``).

:class:`AdbAndroidEnv` is that ``AndroidEnvInterface``: adb calls go through the real
``AdbCallParser`` and ``AdbController`` to the device, and the pixels of each timestep come from
``adb exec-out screencap -p``. :func:`load_adb_env` wraps it in the real
``AndroidWorldController`` (UI tree from ``uiautomator dump``: no accessibility forwarder app)
and ``AsyncAndroidEnv``, then runs AndroidWorld's own ``setup_env`` (the clock frozen), as
``env_launcher.load_and_setup_env`` does for an emulator.

Example (needs AndroidWorld; the simulator served on port 6520 and ``adb connect``-ed)::

    from cerebellum_gym.devices.androidworld_adb import load_adb_env
    env = load_adb_env("127.0.0.1:6520")
    env.logical_screen_size          # (1080, 2400)
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Mapping
from typing import Any

import numpy as np

from cerebellum_gym.devices.androidworld import guarded, import_android_world

try:  # android_env comes with AndroidWorld; the module is imported only when it is wanted
    import dm_env
    from android_env import env_interface
    from android_env.components import adb_call_parser, adb_controller, config_classes, errors
    from dm_env import specs
except ImportError as exc:  # pragma: no cover - exercised only without AndroidWorld
    from cerebellum_gym.devices.androidworld import INSTALL_HINT
    from cerebellum_gym.errors import CerebellumError

    raise CerebellumError(f"AndroidWorld over ADB needs android_env ({exc}).\n{INSTALL_HINT}") from exc


class AdbAndroidEnv(env_interface.AndroidEnvInterface):
    """An ``AndroidEnvInterface`` over one ADB device: adb calls through android_env's
    ``AdbCallParser``, pixels from ``screencap``.

    Args:
        serial: the device's adb serial (``127.0.0.1:6520``, ``emulator-5554``, ...).
        adb_path: the adb binary (a full path, as android_env requires).
        adb_env: environment variables for the adb client (for example a private server's
            ``ANDROID_ADB_SERVER_PORT`` and ``HOME``); the process environment otherwise.
        timeout: default seconds per adb command.
    """

    def __init__(self, serial: str, adb_path: str, *, adb_env: Mapping[str, str] | None = None, timeout: float = 30.0) -> None:
        config = config_classes.AdbControllerConfig(
            adb_path=adb_path,
            device_name=serial,
            default_timeout=timeout,
            # The server port comes from the environment: with False, android_env would unset
            # ANDROID_ADB_SERVER_PORT in this whole process.
            use_adb_server_port_from_os_env=True,
        )
        self.serial = serial
        self.adb = adb_controller.AdbController(config)
        if adb_env is not None:
            # AdbController runs adb with the environment it copied at construction.
            self.adb._os_env_vars.update(adb_env)
        self.parser = adb_call_parser.AdbCallParser(self.adb)
        self._latest: dm_env.TimeStep | None = None

    # --- dm_env ------------------------------------------------------------------------------

    def action_spec(self) -> dict[str, specs.Array]:
        return {
            "action_type": specs.DiscreteArray(num_values=3, name="action_type"),
            "touch_position": specs.BoundedArray((2,), np.float32, 0.0, 1.0, name="touch_position"),
        }

    def observation_spec(self) -> dict[str, specs.Array]:
        return {"pixels": specs.Array((-1, -1, 3), np.uint8, name="pixels")}

    def reset(self) -> dm_env.TimeStep:
        self._latest = dm_env.restart(self._observation())
        return self._latest

    def step(self, action: Any) -> dm_env.TimeStep:
        # AndroidWorld steps only with a no-op (LIFT) to read the screen; it acts through adb.
        self._latest = dm_env.transition(0.0, self._observation())
        return self._latest

    def close(self) -> None:
        self._latest = None

    @property
    def raw_observation(self) -> Any:
        return None if self._latest is None else self._latest.observation

    # --- adb ---------------------------------------------------------------------------------

    def execute_adb_call(self, call: Any) -> Any:
        try:
            return self.parser.parse(call)
        except errors.AdbControllerError:
            # AdbController restarts the adb server between its two tries, which forgets
            # devices reached over the network: connect again so the next call can succeed.
            self.reconnect()
            raise

    def reconnect(self) -> None:
        """``adb connect`` the device again (network serials only; harmless when connected)."""
        if ":" in self.serial:
            with contextlib.suppress(errors.AdbControllerError):  # still gone: the next call says so
                self.adb.execute_command(["connect", self.serial], timeout=10.0, device_specific=False)

    def _observation(self) -> dict[str, Any]:
        png = self.adb.execute_command(["exec-out", "screencap", "-p"])
        from PIL import Image

        with Image.open(io.BytesIO(png)) as image:
            pixels = np.asarray(image.convert("RGB"))
        return {"pixels": pixels, "orientation": np.zeros(4, np.uint8), "timedelta": np.int64(0)}


def load_adb_env(
    serial: str,
    *,
    adb_path: str | None = None,
    adb_env: Mapping[str, str] | None = None,
    freeze_datetime: bool = True,
    timeout: float = 30.0,
) -> Any:
    """AndroidWorld's ``AsyncAndroidEnv`` on the ADB device ``serial``, set up as
    ``env_launcher.load_and_setup_env`` sets up an emulator (no app installation).

    Args:
        serial: the device's adb serial.
        adb_path: the adb binary; defaults to cerebellum's (``$ADB``, ``PATH``, adbutils' wheel).
        adb_env: environment variables for the adb client (a private server's).
        freeze_datetime: freeze the clock as AndroidWorld's benchmark does.
        timeout: default seconds per adb command.

    Raises:
        CerebellumError: AndroidWorld is not importable.
        InfraError: the device did not answer.
    """
    if adb_path is None:
        from cerebellum_gym.devices.adb.client import adb_binary

        adb_path = adb_binary()
    controller_mod = import_android_world("env.android_world_controller")
    interface = import_android_world("env.interface")
    launcher = import_android_world("env.env_launcher")
    shim = AdbAndroidEnv(serial, adb_path, adb_env=adb_env, timeout=timeout)
    with guarded(f"setting up AndroidWorld on {serial}"):
        controller = controller_mod.AndroidWorldController(shim, a11y_method=controller_mod.A11yMethod.UIAUTOMATOR)
        env = interface.AsyncAndroidEnv(controller)
        launcher.setup_env(env, emulator_setup=False, freeze_datetime=freeze_datetime)
    return env


__all__ = ["AdbAndroidEnv", "load_adb_env"]
