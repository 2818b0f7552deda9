"""The served simulator's Android shell: the command families combined into one table
(:data:`COMMANDS`: toybox's utilities, the framework's ``am``, ``pm``, ``settings``,
``content``, ``input``, ``screencap``, ... and AndroidWorld's extras, in that order) and
:class:`Shell`, a session that runs them over one :class:`~cerebellum_gym.sim.phone.Phone`.

Example:
    >>> from cerebellum_gym.sim.phone import Phone
    >>> sh = Shell(Phone())
    >>> sh.run("settings put global wifi_on 0 && settings get global wifi_on").stdout
    b'0\\n'
    >>> sh.run("echo 'a  b' $(echo c d)").stdout
    b'a  b c d\\n'
    >>> r = sh.run("frobnicate")
    >>> r.code, r.stderr
    (127, b'/system/bin/sh: frobnicate: inaccessible or not found\\n')
    >>> COMMANDS["dumpsys"].family, COMMANDS["grep"].family
    ('androidworld', 'toybox')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import numpy as np

from cerebellum_gym.sim.a11y import A11Y
from cerebellum_gym.sim.shell import framework
from cerebellum_gym.sim.shell.androidworld import ANDROIDWORLD
from cerebellum_gym.sim.shell.host import DEFAULT_SDK, ShellHost
from cerebellum_gym.sim.shell.table import CommandTable
from cerebellum_gym.sim.shell.toybox import TOYBOX

if TYPE_CHECKING:
    from cerebellum_gym.sim.phone import Phone

#: Every command the served shell runs besides the language's builtins.
COMMANDS: Final = CommandTable.combine("android", TOYBOX, *framework.FAMILIES, ANDROIDWORLD, A11Y)


class Shell(ShellHost):
    """One shell session on a simulated phone (adbd starts one per ``shell:`` service), running
    :data:`COMMANDS`.

    Args:
        phone: the device whose state the commands read and change.
        screencap_compression: zlib level of ``screencap -p`` PNGs (1 keeps loopback fast).
        provision: re-applied after ``cerebellum-sim factory-reset`` (what the device was set up
            with before serving, such as the ADB keyboard as input method).
        sdk: the Android API level the device reports (``ro.build.version.sdk``). It decides the
            raw ``screencap`` header, as on a device: 12 bytes below API 28, 16 from API 28 on.
        frame_cache: encoded screens by format, shared between sessions.
        commands: the table to run instead of :data:`COMMANDS`.
    """

    def __init__(
        self,
        phone: Phone,
        *,
        screencap_compression: int = 1,
        provision: Callable[[Phone], None] | None = None,
        sdk: int = DEFAULT_SDK,
        frame_cache: dict[str, tuple[np.ndarray, bytes]] | None = None,
        commands: CommandTable[ShellHost] = COMMANDS,
    ) -> None:
        super().__init__(
            phone, commands=commands, screencap_compression=screencap_compression, provision=provision, sdk=sdk, frame_cache=frame_cache
        )
