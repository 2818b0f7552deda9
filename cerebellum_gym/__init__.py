"""cerebellum-gym: Gymnasium environments for Android UI agents.

Importing the package registers the environment ids:

- ``Cerebellum-Sim-v0``: the embedded phone simulator (in-process, CPU only; the default).
- ``Cerebellum-Adb-v0``: any ADB device, including the simulator served over ADB.
- ``Cerebellum-AndroidWorld-v0``: AndroidWorld's own tasks and env, on the embedded simulator served
  over ADB in-process, or on an emulator when one is named (``docs/androidworld.md``).

Example:
    >>> import gymnasium as gym
    >>> import cerebellum_gym
    >>> env = gym.make("Cerebellum-Sim-v0", task="SystemBluetoothTurnOn", pixels=False)
    >>> obs, info = env.reset(seed=1)
    >>> obs["goal"], info["progress"]
    ('Turn bluetooth on.', 0.0)
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from cerebellum_gym.core.actions import CODES, Action, parse_action
from cerebellum_gym.core.state import EpisodeState
from cerebellum_gym.env import CerebellumEnv
from cerebellum_gym.errors import (
    AgentError,
    CerebellumError,
    ConfigError,
    DeviceLostError,
    DeviceTimeoutError,
    InfraError,
    InvalidActionError,
    StateError,
    TaskError,
)

__version__ = "0.1.0"

ENV_IDS: tuple[str, ...] = ("Cerebellum-Sim-v0", "Cerebellum-Adb-v0", "Cerebellum-AndroidWorld-v0")


def _register() -> None:
    # The loader assembles the env (backend, device, task catalogue); see cerebellum_gym/loader.py.
    # Each backend's record there names its env id and its vector entry point: the simulator's
    # native batched env (it steps in-process), and for the device ids an emulator per sub-env
    # when asked (emulators=/pool=), a SyncVectorEnv of gym.make copies otherwise.
    from cerebellum_gym.loader import BACKENDS

    for record in BACKENDS.values():
        if record.env_id not in registry:
            # The step budget comes from the task (10 x complexity), so no TimeLimit wrapper.
            register(
                id=record.env_id,
                entry_point="cerebellum_gym.loader:make_env",
                vector_entry_point=record.vector_entry_point,
                kwargs={"backend": record.name},
                disable_env_checker=False,
            )


_register()

__all__ = [
    "CODES",
    "ENV_IDS",
    "Action",
    "AgentError",
    "CerebellumEnv",
    "CerebellumError",
    "ConfigError",
    "DeviceLostError",
    "DeviceTimeoutError",
    "EpisodeState",
    "InfraError",
    "InvalidActionError",
    "StateError",
    "TaskError",
    "parse_action",
]
