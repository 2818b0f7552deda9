"""Finding and tapping what a simulator screen shows, by text or description (the app tests')."""

from __future__ import annotations

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.sim.phone import Phone


def texts(phone: Phone) -> list[str]:
    return [n.text for n in phone.ui_tree().iter() if n.text]


def node(phone: Phone, *, text: str | None = None, desc: str | None = None) -> UINode:
    for n in phone.ui_tree().iter():
        if (text is not None and n.text == text) or (desc is not None and n.content_desc == desc):
            return n
    raise AssertionError(f"nothing shows {text or desc!r}: {texts(phone)}")


def tap(phone: Phone, *, text: str | None = None, desc: str | None = None) -> None:
    left, top, right, bottom = node(phone, text=text, desc=desc).bounds
    phone.tap((left + right) // 2, (top + bottom) // 2)
