"""``cerebellum-gym serve-adb``: serve a simulator phone as an ADB device (issue: ADB backend)."""

from __future__ import annotations

from typing import Any


def register(sub: Any) -> None:
    """Registered once the ADB server lands; until then the command is absent from the CLI."""
