"""Simulated time for AndroidWorld's own code on the embedded simulator.

AndroidWorld (and android_env under it) wait in real time: a second around its actuation, five
in the SMS judge, seven where a table is missing, polling loops on ``time.time()``. On an
emulator that is right, the device runs on its own; on the embedded simulator the device's time
is the phone's clock, which only moves when something moves it, so a real sleep only costs the
host's time and changes nothing on the device.

:class:`SimulatedTime` is one phone's clock seen from the host. Inside :meth:`SimulatedTime.scope`
(a context variable: this thread, this context, nothing else):

- ``time.sleep(s)`` in AndroidWorld's and android_env's modules advances the phone's clock by
  ``s`` and returns at once;
- ``time.time()``, ``time.monotonic()`` and ``time.perf_counter()`` there return the host's clock
  plus every second slept so far, so a deadline loop (``while time.time() < deadline: ...;
  time.sleep(...)``) sees its sleeps pass, and a loop that polls without sleeping still ends
  after its real time.

AndroidWorld's source is not changed: the modules' global ``time`` is pointed at
:data:`TIME`, a module-like object that forwards everything to the real ``time`` module and
answers these four from the active scope, or from the real module when no scope is active. An
emulator env in the same process (no scope around its calls) sleeps for real.

Example::

    clock = SimulatedTime(phone_wait)       # phone_wait(seconds) advances the phone's clock
    with clock.scope():
        adb_utils.some_call_that_sleeps(env)  # returns at once; the phone's clock moved
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time as _time
import types
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any, Final

#: Module name prefixes whose global ``time`` is redirected (AndroidWorld and android_env).
PATCHED_PREFIXES: Final = ("android_world", "android_env")

_ACTIVE: ContextVar[SimulatedTime | None] = ContextVar("cerebellum_androidworld_simulated_time", default=None)


class SimulatedTime:
    """One simulated device's clock, for the host code that waits on it.

    Args:
        advance: moves the device's clock forward by its argument, in seconds (the phone's
            ``wait`` under its server's lock).
    """

    def __init__(self, advance: Callable[[float], None]) -> None:
        self._advance = advance
        self._lock = threading.Lock()
        #: Seconds slept on this clock so far (added to the host's clock inside the scope).
        self.slept = 0.0

    def sleep(self, seconds: float) -> None:
        """Advance the device's clock by ``seconds`` (negative counts as 0), at once."""
        seconds = max(0.0, float(seconds))
        if seconds:
            self._advance(seconds)
            with self._lock:
                self.slept += seconds

    def time(self) -> float:
        """The host's ``time.time()`` plus the seconds slept."""
        return _time.time() + self.slept

    def monotonic(self) -> float:
        """The host's ``time.monotonic()`` plus the seconds slept."""
        return _time.monotonic() + self.slept

    def perf_counter(self) -> float:
        """The host's ``time.perf_counter()`` plus the seconds slept."""
        return _time.perf_counter() + self.slept

    @contextlib.contextmanager
    def scope(self) -> Iterator[SimulatedTime]:
        """Run a block with this clock as the time of AndroidWorld's code (this context only)."""
        redirect_modules()
        token = _ACTIVE.set(self)
        try:
            yield self
        finally:
            _ACTIVE.reset(token)


def active() -> SimulatedTime | None:
    """The clock of the innermost active scope in this context, or ``None`` (real time)."""
    return _ACTIVE.get()


def sleep(seconds: float) -> None:
    """``time.sleep`` on the active clock, or for real when none is active."""
    clock = _ACTIVE.get()
    if clock is None:
        _time.sleep(seconds)
    else:
        clock.sleep(seconds)


def monotonic() -> float:
    """``time.monotonic`` on the active clock, or the host's."""
    clock = _ACTIVE.get()
    return _time.monotonic() if clock is None else clock.monotonic()


def _time_now() -> float:
    clock = _ACTIVE.get()
    return _time.time() if clock is None else clock.time()


def _perf_counter() -> float:
    clock = _ACTIVE.get()
    return _time.perf_counter() if clock is None else clock.perf_counter()


class _TimeModule(types.ModuleType):
    """The ``time`` module as AndroidWorld's modules see it: the real one, except the four
    functions that wait or tell the time, which follow the active scope."""

    sleep = staticmethod(sleep)
    time = staticmethod(_time_now)
    monotonic = staticmethod(monotonic)
    perf_counter = staticmethod(_perf_counter)

    def __getattr__(self, name: str) -> Any:
        return getattr(_time, name)


#: What AndroidWorld's and android_env's modules get as their global ``time``.
TIME: Final = _TimeModule("time", "The time module, on the embedded simulator's clock inside a scope.")
#: ``len(sys.modules)`` at the last scan (a list, so the scan updates it without ``global``).
_seen_modules = [-1]
_redirect_lock = threading.Lock()


def redirect_modules() -> int:
    """Point every loaded AndroidWorld and android_env module's global ``time`` at :data:`TIME`.

    Cheap when nothing was imported since the last call. Returns how many globals it changed.
    """
    if len(sys.modules) == _seen_modules[0]:
        return 0
    changed = 0
    with _redirect_lock:
        for name, module in list(sys.modules.items()):
            if not name.startswith(PATCHED_PREFIXES) or module is None:
                continue
            namespace = getattr(module, "__dict__", None)
            if namespace is None:
                continue
            for key, value in list(namespace.items()):
                if value is _time:
                    namespace[key] = TIME
                    changed += 1
        _seen_modules[0] = len(sys.modules)
    return changed


__all__ = ["PATCHED_PREFIXES", "TIME", "SimulatedTime", "active", "monotonic", "redirect_modules", "sleep"]
