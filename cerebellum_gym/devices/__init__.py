"""Device backends behind one interface (:class:`~cerebellum_gym.devices.base.Device`).

The backends are ``sim`` (:class:`cerebellum_gym.sim.phone.Phone`), ``adb``
(:mod:`cerebellum_gym.devices.adb`) and ``androidworld`` (:mod:`cerebellum_gym.devices.androidworld`).
They are imported on first use: the loader (:mod:`cerebellum_gym.loader`) builds them by name,
so the core install needs none of their dependencies.
"""

from __future__ import annotations

from cerebellum_gym.devices.base import KEYCODE_BACK, KEYCODE_DEL, KEYCODE_ENTER, KEYCODE_HOME, Device, DeviceWrapper

__all__ = ["KEYCODE_BACK", "KEYCODE_DEL", "KEYCODE_ENTER", "KEYCODE_HOME", "Device", "DeviceWrapper"]
