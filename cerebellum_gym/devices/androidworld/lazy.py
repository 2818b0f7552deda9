"""A value fetched from the device when first read, not when AndroidWorld's state is made.

AndroidWorld builds a state (pixels, UI elements, the accessibility forest) before every action
and in several judges, but most reads touch only part of it; the parts that cost a device round
trip are :class:`FetchedOnRead` proxies: the fetch runs once, on the first read, and later reads
reuse its result. Read one before the next input if it must show the state's moment.

Example:
    >>> calls = []
    >>> value = FetchedOnRead(lambda: calls.append(1) or "forest")
    >>> value.fetched, value.upper(), value.upper(), len(calls), value.fetched
    (False, 'FOREST', 'FOREST', 1, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class FetchedOnRead(Generic[T]):
    """``fetch()``'s result, fetched on first read; attributes read through to it.

    Args:
        fetch: what gives the value (called at most once).
    """

    def __init__(self, fetch: Callable[[], T]) -> None:
        self._fetch: Callable[[], T] | None = fetch
        self._value: T | None = None

    @property
    def fetched(self) -> bool:
        """Whether the value was fetched already."""
        return self._fetch is None

    def materialize(self) -> T:
        """The value, fetched now if it was not."""
        if self._fetch is not None:
            self._value, self._fetch = self._fetch(), None
        return self._value  # type: ignore[return-value]  # set by the fetch above

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.materialize(), name)


__all__ = ["FetchedOnRead"]
