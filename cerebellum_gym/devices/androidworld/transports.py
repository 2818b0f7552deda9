"""The two ways an :class:`~cerebellum_gym.devices.androidworld.device.AndroidWorldDevice` reads
the screen and sends input, one object each, chosen once when the device is built:

- :class:`PhoneTransport`: the served simulator's phone in this process, every call under the
  served device's lock (:class:`~cerebellum_gym.devices.androidworld.embedded.InProcessPhone`):
  its own frame at any width, its tree without the XML round trip, inputs as ``input`` would
  send them there;
- :class:`EnvTransport`: AndroidWorld's env over adb (its state's pixels and forest, or
  ``uiautomator dump``; its JSON actions and ``input`` commands).

Both go through their host device for what is the device's own (closed or not, the kept state,
settling after an input, AndroidWorld's actions and shell); neither imports it.
"""

from __future__ import annotations

import shlex
from typing import Any, Protocol, cast

import numpy as np

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.devices.androidworld.gate import guarded
from cerebellum_gym.devices.androidworld.tree import forest_to_tree
from cerebellum_gym.devices.base import KEYCODE_BACK, KEYCODE_ENTER, KEYCODE_HOME
from cerebellum_gym.devices.shell import input_text_chunks
from cerebellum_gym.errors import DeviceProtocolError


class Host(Protocol):
    """What a transport asks of its device."""

    _settled: bool
    _state: Any
    _state_fresh: bool

    @property
    def tree_source(self) -> str: ...
    @property
    def all_windows(self) -> bool: ...
    @property
    def timeout(self) -> float: ...
    @property
    def _size(self) -> tuple[int, int]: ...
    @property
    def _json_action(self) -> Any: ...

    def _check_open(self) -> None: ...
    def _touched(self) -> None: ...
    def _get_state(self) -> Any: ...
    def _dump_tree(self) -> UINode: ...
    def execute_json_action(self, **fields: Any) -> None: ...
    def shell(self, command: Any, *, timeout: float | None = None, check: bool = True, readonly: bool = False) -> Any: ...


class Transport(Protocol):
    """The screen and the inputs, one way."""

    #: Whether a screenshot at any width is cheap (the env then asks for history frames).
    renders_any_width: bool

    def screenshot(self, width: int | None) -> np.ndarray: ...
    def ui_tree(self) -> UINode: ...
    def tap(self, x: int, y: int) -> None: ...
    def long_press(self, x: int, y: int) -> None: ...
    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int) -> None: ...
    def press_key(self, keycode: int) -> None: ...
    def type_text(self, text: str) -> None: ...
    def forget(self) -> None:
        """Drop what was read of the screen (the phone's state was loaded)."""


class PhoneTransport:
    """The served phone in this process (an ``InProcessPhone``: calls under the served lock)."""

    renders_any_width = True

    def __init__(self, host: Host, phone: Any) -> None:
        self.host = host
        self.phone = phone
        self._tree: UINode | None = None  # the phone's tree, wrapped as a dump

    def screenshot(self, width: int | None) -> np.ndarray:
        # The phone's own frame at this width: at the device's width, the very frame
        # `screencap` sends; narrower, rendered at that width as Cerebellum-Sim-v0 shows it.
        self.host._check_open()
        self.host._settled = True
        return np.asarray(self.phone.call("screenshot", width))

    def ui_tree(self) -> UINode:
        # The tree `uiautomator dump` prints on the served phone, without the XML round trip.
        self.host._check_open()
        self.host._settled = True
        root = cast(UINode, self.phone.call("ui_tree"))
        kept = self._tree
        if kept is None or kept.children[0] is not root:
            # Wrapped as parse_uiautomator_xml returns a dump (a synthetic hierarchy root);
            # kept while the phone hands out the same tree, so what is derived from it is too.
            kept = self._tree = UINode("hierarchy", root.bounds, children=[root])
        return kept

    def _input(self, method: str, *args: Any) -> None:
        """What AndroidWorld's actuation's adb ``input`` command would have done on the phone
        (without the state it fetches first)."""
        self.host._check_open()
        self.host._touched()
        self.phone.call(method, *args)

    def tap(self, x: int, y: int) -> None:
        self._input("tap", x, y)  # AndroidWorld's click: `input tap x y`

    def long_press(self, x: int, y: int) -> None:
        self._input("long_press", x, y, 1000)  # AndroidWorld's long_press holds 1000 ms

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int) -> None:
        if abs(x2 - x1) <= 10 and abs(y2 - y1) <= 10 and duration_ms >= 400:
            self._input("long_press", x1, y1, duration_ms)  # what `input swipe` does there
        else:
            self._input("swipe", x1, y1, x2, y2, duration_ms)

    def press_key(self, keycode: int) -> None:
        self._input("press_key", keycode)  # `input keyevent N`, as either route sends

    def type_text(self, text: str) -> None:
        self.host._check_open()
        self.host._touched()
        # What EnvTransport's `input text` / `input keyevent` line does on the phone, chunk by chunk.
        for i, line in enumerate(text.split("\n")):
            if i:
                self.phone.call("press_key", KEYCODE_ENTER)
            for chunk in input_text_chunks(line):
                self.phone.call("type_text", chunk.replace("%s", " "))

    def forget(self) -> None:
        self._tree = None


class EnvTransport:
    """AndroidWorld's env over adb (an emulator, an env handed in, or the served simulator with
    ``direct=False``)."""

    renders_any_width = False

    def __init__(self, host: Host) -> None:
        self.host = host

    def screenshot(self, width: int | None) -> np.ndarray:
        host = self.host
        pixels = np.asarray(host._get_state().pixels)
        if pixels.ndim != 3 or pixels.shape[2] not in (3, 4) or pixels.size == 0:
            raise DeviceProtocolError(f"State.pixels has shape {pixels.shape}, not (H, W, 3)")
        pixels = pixels[..., :3]
        if pixels.dtype != np.uint8:
            pixels = np.clip(pixels, 0, 255).astype(np.uint8)
        dev_w, dev_h = host._size
        out_w = dev_w if width is None else width
        # The observation space's shape follows the logical size, whatever the frame's.
        out_size = (out_w, round(dev_h * out_w / dev_w))
        if (pixels.shape[1], pixels.shape[0]) == out_size:
            return np.array(pixels)
        from PIL import Image

        image = Image.fromarray(np.ascontiguousarray(pixels), "RGB")
        factor = max(1, image.width // out_size[0])
        if factor > 1:
            image = image.reduce(factor)  # cheap box filter first keeps the bilinear pass small
        return np.asarray(image.resize(out_size, Image.Resampling.BILINEAR))

    def ui_tree(self) -> UINode:
        host = self.host
        if host.tree_source == "uiautomator":
            return host._dump_tree()
        state = host._state if host._state_fresh and host._state is not None else host._get_state()
        # The kept state serves one tree: the device runs on in real time.
        host._state_fresh = False
        if getattr(state, "forest", None) is None:
            return host._dump_tree()  # a controller without the a11y forwarder
        with guarded("reading the accessibility forest"):
            return forest_to_tree(state.forest, host._size, all_windows=host.all_windows)

    def tap(self, x: int, y: int) -> None:
        self.host.execute_json_action(action_type=self.host._json_action.CLICK, x=x, y=y)

    def long_press(self, x: int, y: int) -> None:
        self.host.execute_json_action(action_type=self.host._json_action.LONG_PRESS, x=x, y=y)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int) -> None:
        host = self.host
        host._touched()
        host.shell(["input", "swipe", str(x1), str(y1), str(x2), str(y2), str(duration_ms)])
        host._touched()

    def press_key(self, keycode: int) -> None:
        host = self.host
        actions = host._json_action
        named = {KEYCODE_HOME: actions.NAVIGATE_HOME, KEYCODE_BACK: actions.NAVIGATE_BACK, KEYCODE_ENTER: actions.KEYBOARD_ENTER}
        if keycode in named:
            host.execute_json_action(action_type=named[keycode])
            return
        host._touched()
        host.shell(["input", "keyevent", str(keycode)])

    def type_text(self, text: str) -> None:
        host = self.host
        commands: list[str] = []
        for i, line in enumerate(text.split("\n")):
            if i:
                commands.append(shlex.join(["input", "keyevent", str(KEYCODE_ENTER)]))
            commands += [shlex.join(["input", "text", chunk]) for chunk in input_text_chunks(line)]
        host._touched()
        # One shell line; every chunk a single-quoted argument, so nothing typed is shell syntax.
        host.shell(" && ".join(commands), timeout=host.timeout + len(text) / 20)
        host._touched()

    def forget(self) -> None:
        """Nothing kept: every read asks AndroidWorld's env."""


__all__ = ["EnvTransport", "Host", "PhoneTransport", "Transport"]
