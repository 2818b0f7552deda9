"""The loader: typed backend configs, clear errors for bad options, catalogues and device wrappers."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from typing import Any

import gymnasium as gym
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.errors import ConfigError
from cerebellum_gym.evaluation.faults import FaultPlan, FaultyDevice
from cerebellum_gym.loader import BACKENDS, SimConfig, device_config, make_catalog, make_env
from cerebellum_gym.sim.phone import DEFAULT_CLOCK, Phone


@pytest.mark.parametrize("name", sorted(BACKENDS))
def test_each_config_mirrors_its_device_constructor(name: str) -> None:
    """The config's fields are the device's keyword arguments, with the same defaults."""
    spec = BACKENDS[name]
    module, _, attr = spec.device.partition(":")
    params = inspect.signature(getattr(importlib.import_module(module), attr).__init__).parameters
    wanted = {p.name: p.default for p in params.values() if p.name != "self"}
    fields = {f.name: f.default for f in dataclasses.fields(spec.config)}
    if name == "sim":
        assert wanted.pop("clock") == DEFAULT_CLOCK and fields.pop("clock") is None  # None: the phone's own default
    assert fields == wanted


def test_a_misspelt_option_is_an_error_naming_the_valid_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown option 'screen_widht'.*valid options: serial, adb_host"):
        device_config("adb", {"screen_widht": 464})
    with pytest.raises(ConfigError, match=r"did you mean 'timeout'"):
        gym.make("Cerebellum-Adb-v0", device_options={"timout": 3})
    with pytest.raises(ConfigError, match="unknown backend 'telepathy'"):
        make_env(backend="telepathy")
    with pytest.raises(ConfigError, match="takes a SimConfig"):
        device_config("sim", dataclasses.replace(BACKENDS["adb"].config()))
    with pytest.raises(ConfigError, match="must be a mapping"):
        device_config("sim", ["clock"])  # type: ignore[arg-type]


def test_options_reach_the_device_as_a_typed_config() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False, device_options=SimConfig(clock=1_700_000_000.0))
    env.reset(seed=0)
    assert env.unwrapped.device.now().timestamp() == pytest.approx(1_700_000_000.0, abs=120)  # type: ignore[attr-defined]
    env.close()


def test_catalogues_by_backend() -> None:
    assert make_catalog("sim").source == make_catalog("adb").source == "builtin"
    assert "SystemWifiTurnOn" in make_catalog("sim")


def test_the_device_wrapper_wraps_and_is_closed_with_the_env() -> None:
    plan = FaultPlan()
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False, device_wrapper=lambda d: FaultyDevice(d, plan))
    device = env.unwrapped.device  # type: ignore[attr-defined]
    assert isinstance(device, FaultyDevice) and isinstance(device.inner, Phone)
    env.reset(seed=0)
    env.close()
    assert device.inner.closed


def test_a_device_handed_in_stays_open() -> None:
    phone = Phone()
    env: Any = make_env("SystemWifiTurnOn", device=phone, pixels=False)
    env.reset(seed=0)
    env.close()
    assert env.device is phone and not phone.closed
