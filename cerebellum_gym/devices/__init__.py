"""Device backends behind one interface, chosen by name.

Backends are named by string entry points and imported on first use, so the core install
needs none of their dependencies.

Example:
    >>> from cerebellum_gym.devices import make_device
    >>> make_device("sim").backend
    'sim'
"""

from __future__ import annotations

import importlib
from typing import Any

from cerebellum_gym.devices.base import KEYCODE_BACK, KEYCODE_DEL, KEYCODE_ENTER, KEYCODE_HOME, Device
from cerebellum_gym.errors import CerebellumError

#: Backend name -> ``module:factory`` building a :class:`Device` from keyword options.
BACKENDS: dict[str, str] = {
    "sim": "cerebellum_gym.sim.phone:Phone",
    "adb": "cerebellum_gym.devices.adb:AdbDevice",
    "androidworld": "cerebellum_gym.devices.androidworld:AndroidWorldDevice",
}


def make_device(backend: str, **options: Any) -> Device:
    """Build a device of the named backend.

    Raises:
        CerebellumError: unknown backend, or its optional dependencies are missing.
    """
    try:
        target = BACKENDS[backend]
    except KeyError:
        raise CerebellumError(f"unknown backend {backend!r}; known: {', '.join(sorted(BACKENDS))}") from None
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise CerebellumError(f"backend {backend!r} needs an optional dependency: {exc}") from exc
    device: Device = getattr(module, attr)(**options)
    return device


__all__ = ["BACKENDS", "KEYCODE_BACK", "KEYCODE_DEL", "KEYCODE_ENTER", "KEYCODE_HOME", "Device", "make_device"]
