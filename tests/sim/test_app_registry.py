"""The app registry: every bundled app registers itself beside its screens and its database, the
phone installs what is registered, and an app module imports on its own (no import circle)."""

from __future__ import annotations

import subprocess
import sys
from types import ModuleType

import pytest

from cerebellum_gym.sim import databases, telephony
from cerebellum_gym.sim.apps import DEFAULT_APPS, registry
from cerebellum_gym.sim.apps.base import App
from cerebellum_gym.sim.phone import Phone


def test_default_apps_are_the_registered_apps_and_the_phone_installs_them() -> None:
    assert registry.registered_apps() == DEFAULT_APPS
    assert len({cls.package for cls in DEFAULT_APPS}) == len(DEFAULT_APPS) == 23
    phone = Phone()
    assert {cls.package for cls in DEFAULT_APPS} <= set(phone.apps)
    assert registry.get_app_class("com.arduia.expense").label == "Pro Expense"


def test_a_second_app_for_a_registered_package_is_refused() -> None:
    class Impostor(App):
        package = "com.arduia.expense"

    with pytest.raises(ValueError, match="registered twice"):
        registry.register_app(Impostor)
    assert registry.get_app_class("com.arduia.expense") is not Impostor
    with pytest.raises(KeyError):
        registry.get_app_class("org.example.absent")


def _declaring_module(db: databases.AppDatabase) -> ModuleType | None:
    for module in list(sys.modules.values()):
        name = getattr(module, "__name__", "")
        if name.startswith("cerebellum_gym.sim") and any(value is db for value in vars(module).values()) and name != databases.__name__:
            return module
    return None


@pytest.mark.parametrize("db", list(databases.DATABASES.values()), ids=lambda db: db.path.rsplit("/", 1)[-1])
def test_each_database_is_declared_beside_the_app_that_owns_it(db: databases.AppDatabase) -> None:
    module = _declaring_module(db)
    assert module is not None, f"{db.path} is declared nowhere but the databases module"
    if db.package == "com.android.providers.telephony":
        assert module is telephony  # the provider's, not an app's
        return
    owners = [v for v in vars(module).values() if isinstance(v, type) and issubclass(v, App) and v.package == db.package]
    assert owners and registry.get_app_class(db.package) in owners


@pytest.mark.parametrize("module", ["cerebellum_gym.sim.apps.expense", "cerebellum_gym.sim.apps.registry", "cerebellum_gym.sim.databases"])
def test_a_module_imports_first_on_its_own(module: str) -> None:
    """Each imported first in a fresh interpreter: an import circle would fail here."""
    code = f"import {module}; from cerebellum_gym.sim import databases; print(databases.EXPENSE_DB.path)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "/data/data/com.arduia.expense/databases/accounting.db"
