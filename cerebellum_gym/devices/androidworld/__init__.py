"""The ``androidworld`` backend: AndroidWorld's own env and tasks (google-research/android_world)
behind the Device interface; ``docs/androidworld.md``.

Its modules, each importing only those above it in this list (no cycle), and none of them
AndroidWorld until a device is built:

- :mod:`~cerebellum_gym.devices.androidworld.gate`: importing AndroidWorld (or saying how to
  install it) and mapping its failures onto cerebellum's errors;
- :mod:`~cerebellum_gym.devices.androidworld.tree`: its accessibility forest as the tree
  ``uiautomator dump`` prints;
- :mod:`~cerebellum_gym.devices.androidworld.clock`: simulated time on the embedded simulator;
- :mod:`~cerebellum_gym.devices.androidworld.forest`: the served simulator's accessibility
  forest in AndroidWorld's states (imports android_env);
- :mod:`~cerebellum_gym.devices.androidworld.adb`: AndroidWorld's env over any ADB device (an
  env provider; imports android_env);
- :mod:`~cerebellum_gym.devices.androidworld.embedded`: AndroidWorld's env over the simulator
  served in this process (the env provider of the default, with no emulator named);
- :mod:`~cerebellum_gym.devices.androidworld.device`: :class:`AndroidWorldDevice` and
  :func:`placement`, the one place that decides where it runs.

This package exports the device and the gate's and tree's public names; the env providers are
imported from their modules (``from cerebellum_gym.devices.androidworld.adb import load_adb_env``).
"""

from __future__ import annotations

from cerebellum_gym.devices.androidworld.device import AndroidWorldDevice, DeviceBackend, placement
from cerebellum_gym.devices.androidworld.gate import (
    ADB_TRANSPORT_FAILURES,
    INSTALL_HINT,
    device_answer,
    guarded,
    import_android_world,
    infra_error,
    map_error,
)
from cerebellum_gym.devices.androidworld.tree import forest_to_tree
from cerebellum_gym.devices.shell import ShellOutput

__all__ = [
    "ADB_TRANSPORT_FAILURES",
    "INSTALL_HINT",
    "AndroidWorldDevice",
    "DeviceBackend",
    "ShellOutput",
    "device_answer",
    "forest_to_tree",
    "guarded",
    "import_android_world",
    "infra_error",
    "map_error",
    "placement",
]
