"""The app registry: every simulated app by package, as the task registry holds every task.

An app module registers its :class:`~cerebellum_gym.sim.apps.base.App` with :func:`register_app`
where it defines it, beside its screens and its database declaration; ``sim.apps`` imports the
app modules and derives ``DEFAULT_APPS`` from here. The registry imports nothing of the apps (they
import it), so there is no import circle among the apps and their host, the phone.

Example:
    >>> import cerebellum_gym.sim.apps  # imports (and so registers) every bundled app
    >>> get_app_class("com.arduia.expense").label
    'Pro Expense'
"""

from __future__ import annotations

from typing import TypeVar

from cerebellum_gym.sim.apps.base import App

#: Every registered app by package, in the order registered.
APPS: dict[str, type[App]] = {}

A = TypeVar("A", bound=type[App])


def register_app(cls: A) -> A:
    """Class decorator adding an app to the registry under ``cls.package``."""
    if not cls.package:
        raise ValueError(f"{cls.__name__} has no package")
    if cls.package in APPS and APPS[cls.package] is not cls:
        raise ValueError(f"app {cls.package!r} is registered twice")
    APPS[cls.package] = cls
    return cls


def get_app_class(package: str) -> type[App]:
    """The app registered for ``package``.

    Raises:
        KeyError: no app is registered for it.
    """
    try:
        return APPS[package]
    except KeyError:
        raise KeyError(f"no app registered for package {package!r}") from None


def registered_apps() -> tuple[type[App], ...]:
    """Every registered app, in the order registered."""
    return tuple(APPS.values())
