"""Facts about Android that the ADB backend and the served simulator both rely on, defined once.

The backend reads these off a device (the ADB keyboard's id, raw ``screencap`` pixel formats);
the simulator's served shell prints them, so the two agree by construction.
"""

from __future__ import annotations

from typing import Final

#: The ADB keyboard (github.com/senzhk/ADBKeyBoard): an IME that types text sent by broadcast.
ADB_KEYBOARD_IME: Final = "com.android.adbkeyboard/.AdbIME"
#: Its package (what ``pm list packages`` shows).
ADB_KEYBOARD_PACKAGE: Final = ADB_KEYBOARD_IME.split("/")[0]
#: Raw ``screencap`` pixel formats (``android.graphics.PixelFormat``).
PIXEL_FORMAT_RGBA_8888: Final = 1
PIXEL_FORMAT_RGBX_8888: Final = 2
PIXEL_FORMAT_RGB_888: Final = 3
PIXEL_FORMAT_BGRA_8888: Final = 5
#: The colour-space word raw ``screencap`` adds from API 28 on (``ui::Dataspace`` sRGB).
COLORSPACE_SRGB: Final = 1
#: The served simulator's product name (``ro.product.name``) and its (simulator-only) full reset.
SIM_PRODUCT: Final = "cerebellum_sim"
SIM_RESET_COMMAND: Final = "cerebellum-sim factory-reset"

#: The emulator console's token file in a ``HOME`` (the emulator's, and the adb client's that
#: answers ``auth`` with it for ``adb emu``).
CONSOLE_TOKEN_FILE: Final = ".emulator_console_auth_token"
