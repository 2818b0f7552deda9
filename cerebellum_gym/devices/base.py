"""The one interface every backend implements: a phone seen through what ADB can do.

Tasks set up and judge through this interface only (settings, content providers, files, the UI
tree), so one task definition runs on the embedded simulator and on a real device alike.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Final, TypeVar

import numpy as np

from cerebellum_gym.core.tree import UINode
from cerebellum_gym.errors import UnsupportedOperationError

KEYCODE_HOME: Final = 3
KEYCODE_BACK: Final = 4
KEYCODE_ENTER: Final = 66
KEYCODE_DEL: Final = 67

_T = TypeVar("_T")

Row = dict[str, str]
"""One row of a content provider query: column name to value, as ``content query`` prints."""


def require_encodable(text: str) -> None:
    """Refuse text no device can receive: a lone surrogate is no Unicode character, so no UTF-8.

    Every backend's ``type_text`` calls it first (the env's text rule refuses such text before any
    device is asked; this keeps the Device API to the same rule).

    Raises:
        UnsupportedOperationError: naming the character and its position.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise UnsupportedOperationError(
            f"cannot type {text[err.start : err.end]!r} at position {err.start}: a lone surrogate is not a Unicode character"
        ) from None


class Device(abc.ABC):
    """A phone: input primitives, screen capture, and the state queries that tasks judge by.

    Coordinates are device pixels of the logical screen (:attr:`screen_size`). Every method may
    raise :class:`~cerebellum_gym.errors.InfraError` when the transport fails; none may hang.
    """

    #: Short backend name used in configs and logs.
    backend: str = "abstract"
    #: True when a screenshot at a second width costs about as little as reusing the first (the
    #: simulator composes cached tiles); history frames are then rendered, not downscaled.
    renders_any_width: bool = False

    # --- screen ------------------------------------------------------------------------------

    @property
    @abc.abstractmethod
    def screen_size(self) -> tuple[int, int]:
        """Logical screen ``(width, height)`` in device pixels."""

    @abc.abstractmethod
    def screenshot(self, width: int | None = None) -> np.ndarray:
        """The screen as uint8 RGB ``(H, W, 3)``, scaled to ``width`` pixels wide if given."""

    @abc.abstractmethod
    def ui_tree(self) -> UINode:
        """The accessibility tree of the foreground window, as ``uiautomator dump`` sees it."""

    # --- input -------------------------------------------------------------------------------

    @abc.abstractmethod
    def tap(self, x: int, y: int) -> None:
        """Tap at device pixel ``(x, y)``."""

    @abc.abstractmethod
    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        """Touch and hold at ``(x, y)``."""

    @abc.abstractmethod
    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """Drag a finger from ``(x1, y1)`` to ``(x2, y2)``."""

    @abc.abstractmethod
    def press_key(self, keycode: int) -> None:
        """Send one Android key event (see the ``KEYCODE_*`` constants)."""

    @abc.abstractmethod
    def type_text(self, text: str) -> None:
        """Type ``text`` into the focused field, exactly as given (any Unicode).

        Raises:
            UnsupportedOperationError: the device has no route for some of the characters.
        """

    @abc.abstractmethod
    def wait(self, seconds: float) -> None:
        """Let ``seconds`` of device time pass (the simulator advances its clock)."""

    # --- apps and system state ---------------------------------------------------------------

    @abc.abstractmethod
    def foreground_package(self) -> str:
        """Package name of the app on screen (the launcher's when on the home screen)."""

    @abc.abstractmethod
    def start_app(self, package: str) -> None:
        """Bring ``package`` to the foreground, launching it if needed."""

    @abc.abstractmethod
    def get_setting(self, namespace: str, key: str) -> str | None:
        """``settings get NAMESPACE KEY``; ``None`` where the setting does not exist."""

    @abc.abstractmethod
    def put_setting(self, namespace: str, key: str, value: str) -> None:
        """``settings put NAMESPACE KEY VALUE``."""

    @abc.abstractmethod
    def content_query(
        self,
        uri: str,
        projection: Sequence[str] | None = None,
        where: Mapping[str, str] | None = None,
    ) -> list[Row]:
        """``content query``: rows of a content provider, filtered by column equality."""

    @abc.abstractmethod
    def content_insert(self, uri: str, values: Mapping[str, str]) -> None:
        """``content insert``: add one row to a content provider."""

    @abc.abstractmethod
    def content_delete(self, uri: str, where: Mapping[str, str] | None = None) -> None:
        """``content delete``: remove the matching rows (all rows when ``where`` is empty)."""

    @abc.abstractmethod
    def list_dir(self, path: str) -> list[str]:
        """Names in directory ``path`` (sorted); empty when it does not exist."""

    @abc.abstractmethod
    def read_file(self, path: str) -> bytes:
        """Contents of the file at ``path``.

        Raises:
            FileNotFoundError: no such file.
        """

    @abc.abstractmethod
    def write_file(self, path: str, data: bytes) -> None:
        """Create or replace the file at ``path``, creating parent directories."""

    @abc.abstractmethod
    def remove_path(self, path: str) -> None:
        """Remove a file or a directory tree; nothing happens when it does not exist."""

    def make_dir(self, path: str) -> None:
        """``mkdir -p``: create directory ``path`` and its parents (an empty folder a task needs)."""
        raise UnsupportedOperationError(f"{self.backend} devices cannot create directories")

    def file_mtime(self, path: str) -> float:
        """When the file at ``path`` last changed (POSIX seconds of the device's clock): what
        ``ls -l`` shows and judges that ask for "the newest note" order by.

        Raises:
            FileNotFoundError: no such file.
        """
        raise UnsupportedOperationError(f"{self.backend} devices cannot tell when a file changed")

    @abc.abstractmethod
    def now(self) -> datetime:
        """The device's wall clock."""

    def get_clipboard(self) -> str | None:
        """The primary clip's text (``None``: nothing copied), as AndroidWorld reads it through
        the Clipper app (``ca.zgrs.clipper``), which may bring Clipper to the front and back."""
        raise UnsupportedOperationError(f"{self.backend} devices cannot read the clipboard")

    def set_clipboard(self, text: str) -> None:
        """Copy ``text``, exactly as given, to the primary clip (AndroidWorld's set-ups do it
        with Clipper's ``clipper.set`` broadcast)."""
        raise UnsupportedOperationError(f"{self.backend} devices cannot set the clipboard")

    # --- lifecycle ---------------------------------------------------------------------------

    def factory_reset(self) -> None:
        """Return to the state a fresh episode starts from (home screen, default data).

        Backends that cannot do this quickly raise; the AndroidWorld backend restores app
        snapshots instead.
        """
        raise UnsupportedOperationError(f"{self.backend} devices cannot be reset to factory state")

    def save_state(self) -> Any:
        """The device's whole state as a plain value (for :meth:`CerebellumEnv.clone_state`):
        the embedded phone's is its :class:`~cerebellum_gym.sim.phone.PhoneState`.

        Raises:
            UnsupportedOperationError: a device whose state is not a value (an emulator can
                only be reset: its state lives in a VM, not in this process).
        """
        raise UnsupportedOperationError(
            f"{self.backend} devices cannot take their state as a value (an emulator can only be reset); "
            "clone and restore run on the embedded simulator (Cerebellum-Sim-v0, Cerebellum-AndroidWorld-v0 without an emulator)"
        )

    def load_state(self, state: Any) -> None:
        """Put back a state :meth:`save_state` gave (the caller hands over a fresh copy)."""
        raise UnsupportedOperationError(f"{self.backend} devices cannot restore a state value")

    def info_entries(self) -> dict[str, Any]:
        """Entries the env adds to every ``info`` dict it returns (none by default; the
        AndroidWorld backend says where its env runs: ``info["device_backend"]``)."""
        return {}

    def close(self) -> None:
        """Release the connection. Idempotent."""

    @property
    def unwrapped(self) -> Device:
        """The device under any :class:`DeviceWrapper` (this one when it wraps nothing)."""
        return self

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class DeviceWrapper(Device):
    """A device that forwards every call to the one it wraps, as ``gymnasium.Wrapper`` does an env.

    Subclasses change behaviour in one place, :meth:`intercept`, which every call of the agent's
    input and screen and of the judge's state reads passes through; everything else (the screen
    size, :attr:`renders_any_width`, :meth:`info_entries`, :meth:`close`) is forwarded as it is,
    so a wrapper that intercepts nothing leaves the env's observations and infos exactly as
    they are without it (``tests/devices/test_device_wrapper.py`` holds that on every backend).

    Args:
        device: the device to wrap; it is closed with this one.

    Example:
        >>> from cerebellum_gym.sim import Phone
        >>> class Counting(DeviceWrapper):
        ...     calls = 0
        ...     def intercept(self, method, call, *args):
        ...         self.calls += 1
        ...         return call(*args)
        >>> device = Counting(Phone())
        >>> device.put_setting("global", "wifi_on", "1"), device.get_setting("global", "wifi_on"), device.calls
        (None, '1', 2)
        >>> device.backend, device.renders_any_width, type(device.unwrapped).__name__
        ('sim', True, 'Phone')
    """

    def __init__(self, device: Device) -> None:
        self.device = device
        # Fixed per device: read once, so a wrapper costs nothing on the env's hot path.
        self.backend = device.backend
        self.renders_any_width = device.renders_any_width

    def intercept(self, method: str, call: Callable[..., _T], *args: Any) -> _T:
        """Every forwarded call: ``call`` is the wrapped device's bound ``method``, ``args`` its
        arguments. The default makes the call; a wrapper may count, refuse (raise), delay or
        change the result."""
        return call(*args)

    @property
    def unwrapped(self) -> Device:
        return self.device.unwrapped

    def save_state(self) -> Any:
        return self.device.save_state()

    def load_state(self, state: Any) -> None:
        self.device.load_state(state)

    # --- screen ------------------------------------------------------------------------------

    @property
    def screen_size(self) -> tuple[int, int]:
        return self.device.screen_size

    def screenshot(self, width: int | None = None) -> np.ndarray:
        return self.intercept("screenshot", self.device.screenshot, width)

    def ui_tree(self) -> UINode:
        return self.intercept("ui_tree", self.device.ui_tree)

    # --- input -------------------------------------------------------------------------------

    def tap(self, x: int, y: int) -> None:
        self.intercept("tap", self.device.tap, x, y)

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        self.intercept("long_press", self.device.long_press, x, y, duration_ms)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        self.intercept("swipe", self.device.swipe, x1, y1, x2, y2, duration_ms)

    def press_key(self, keycode: int) -> None:
        self.intercept("press_key", self.device.press_key, keycode)

    def type_text(self, text: str) -> None:
        self.intercept("type_text", self.device.type_text, text)

    def wait(self, seconds: float) -> None:
        self.intercept("wait", self.device.wait, seconds)

    # --- apps and system state ---------------------------------------------------------------

    def foreground_package(self) -> str:
        return self.intercept("foreground_package", self.device.foreground_package)

    def start_app(self, package: str) -> None:
        self.intercept("start_app", self.device.start_app, package)

    def get_setting(self, namespace: str, key: str) -> str | None:
        return self.intercept("get_setting", self.device.get_setting, namespace, key)

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        self.intercept("put_setting", self.device.put_setting, namespace, key, value)

    def content_query(self, uri: str, projection: Sequence[str] | None = None, where: Mapping[str, str] | None = None) -> list[Row]:
        return self.intercept("content_query", self.device.content_query, uri, projection, where)

    def content_insert(self, uri: str, values: Mapping[str, str]) -> None:
        self.intercept("content_insert", self.device.content_insert, uri, values)

    def content_delete(self, uri: str, where: Mapping[str, str] | None = None) -> None:
        self.intercept("content_delete", self.device.content_delete, uri, where)

    def list_dir(self, path: str) -> list[str]:
        return self.intercept("list_dir", self.device.list_dir, path)

    def read_file(self, path: str) -> bytes:
        return self.intercept("read_file", self.device.read_file, path)

    def write_file(self, path: str, data: bytes) -> None:
        self.intercept("write_file", self.device.write_file, path, data)

    def remove_path(self, path: str) -> None:
        self.intercept("remove_path", self.device.remove_path, path)

    def make_dir(self, path: str) -> None:
        self.intercept("make_dir", self.device.make_dir, path)

    def file_mtime(self, path: str) -> float:
        return self.intercept("file_mtime", self.device.file_mtime, path)

    def get_clipboard(self) -> str | None:
        return self.intercept("get_clipboard", self.device.get_clipboard)

    def set_clipboard(self, text: str) -> None:
        self.intercept("set_clipboard", self.device.set_clipboard, text)

    def now(self) -> datetime:
        return self.intercept("now", self.device.now)

    # --- lifecycle ---------------------------------------------------------------------------

    def factory_reset(self) -> None:
        self.intercept("factory_reset", self.device.factory_reset)

    def info_entries(self) -> dict[str, Any]:
        return self.device.info_entries()

    def close(self) -> None:
        self.device.close()
