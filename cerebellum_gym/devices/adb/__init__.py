"""The ADB backend: any Android device through an adb server.

- :mod:`~cerebellum_gym.devices.adb.device`: :class:`AdbDevice`, the Device over ADB;
- :mod:`~cerebellum_gym.devices.adb.client`: the project's own client for the adb server's
  smart-socket protocol (deadlines on every read); adbutils only supplies the ``adb`` binary;
- :mod:`~cerebellum_gym.devices.adb.frames`: raw ``screencap`` frames and their scaling;
- :mod:`~cerebellum_gym.devices.adb.server`: :class:`PrivateAdbServer`, an isolated adb server
  for tests and benchmarks.
"""

from __future__ import annotations

from cerebellum_gym.devices.adb.client import adb_binary
from cerebellum_gym.devices.adb.device import (
    DUMP_PATH,
    PROTECTED_PACKAGES,
    AdbDevice,
    ScreencapFormat,
    TextInput,
    auto_screencap_format,
)
from cerebellum_gym.devices.adb.frames import (
    PIXEL_FORMAT_BGRA_8888,
    PIXEL_FORMAT_RGB_888,
    PIXEL_FORMAT_RGBA_8888,
    PIXEL_FORMAT_RGBX_8888,
    SCALE_BANDS,
    RawFrame,
    UnreadablePixelFormatError,
    parse_raw_screencap,
)
from cerebellum_gym.devices.adb.server import PrivateAdbServer, free_port
from cerebellum_gym.devices.android import ADB_KEYBOARD_IME, SIM_PRODUCT, SIM_RESET_COMMAND

__all__ = [
    "ADB_KEYBOARD_IME",
    "DUMP_PATH",
    "PIXEL_FORMAT_BGRA_8888",
    "PIXEL_FORMAT_RGBA_8888",
    "PIXEL_FORMAT_RGBX_8888",
    "PIXEL_FORMAT_RGB_888",
    "PROTECTED_PACKAGES",
    "SCALE_BANDS",
    "SIM_PRODUCT",
    "SIM_RESET_COMMAND",
    "AdbDevice",
    "PrivateAdbServer",
    "RawFrame",
    "ScreencapFormat",
    "TextInput",
    "UnreadablePixelFormatError",
    "adb_binary",
    "auto_screencap_format",
    "free_port",
    "parse_raw_screencap",
]
