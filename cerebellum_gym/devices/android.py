"""Facts about Android that the ADB backend and the served simulator both rely on, defined once.

The backend reads these off a device (the ADB keyboard's id, raw ``screencap`` pixel formats);
the simulator's served shell prints them, so the two agree by construction. The adb server's
smart-socket framing (a request, its ``OKAY``/``FAIL`` answer, a length-prefixed block) is here
too, for everything that talks to an adb server: the ADB backend's client, the emulator pool and
the served simulator attaching itself as an emulator (standard library only, as those are).

Example:
    >>> import io
    >>> smart_request("host:version")
    b'000chost:version'
    >>> answer = io.BytesIO(b"OKAY0004002a").read
    >>> read_status(answer), read_block(answer)
    (None, b'002a')
    >>> read_status(io.BytesIO(b"FAIL0007offline").read)
    'offline'
"""

from __future__ import annotations

from collections.abc import Callable
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

#: The adb server reads a request's length as 4 hex digits: no request may be longer.
MAX_REQUEST: Final = 0xFFFF


def smart_request(service: str) -> bytes:
    """One request to the adb server's smart socket: the UTF-8 service's length in 4 hex digits, then it.

    Raises:
        ValueError: the request is longer than :data:`MAX_REQUEST` bytes (the server would misread it).
    """
    data = service.encode("utf-8")
    if len(data) > MAX_REQUEST:
        raise ValueError(f"a {len(data)}-byte adb request exceeds the adb server's {MAX_REQUEST}-byte limit")
    return b"%04x" % len(data) + data


def read_block(read_exact: Callable[[int], bytes]) -> bytes:
    """A block the server sends after its status: 4 hex digits of length, then that many bytes
    (``read_exact(n)`` reads ``n`` bytes; a missing length reads as an empty block).

    Raises:
        ValueError: the length is not hex.
    """
    return read_exact(int(read_exact(4) or b"0", 16))


def read_status(read_exact: Callable[[int], bytes]) -> str | None:
    """The server's answer to a request: ``None`` for ``OKAY``, the message of a ``FAIL``.

    Raises:
        ValueError: neither (``unexpected adb server answer ...``), or a malformed ``FAIL``.
    """
    status = read_exact(4)
    if status == b"OKAY":
        return None
    if status == b"FAIL":
        return read_block(read_exact).decode("utf-8", "replace")
    raise ValueError(f"unexpected adb server answer {status!r}")
