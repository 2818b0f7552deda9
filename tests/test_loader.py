"""The loader: typed backend configs, clear errors for bad options, catalogues and device wrappers."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from typing import Any

import gymnasium as gym
import pytest

import cerebellum_gym  # registers the env ids
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


def test_one_backend_record_per_env_id_matches_its_registration() -> None:
    """The registration is made from the records, and the lookups read them back."""
    from cerebellum_gym.loader import backend_name, env_backend

    assert sorted(record.env_id for record in BACKENDS.values()) == sorted(cerebellum_gym.ENV_IDS)
    for name, record in BACKENDS.items():
        spec = gym.spec(record.env_id)
        assert spec.kwargs == {"backend": name} and spec.vector_entry_point == record.vector_entry_point
        assert env_backend(record.env_id) is record and backend_name(record.env_id) == name
    sim, adb, world = BACKENDS["sim"], BACKENDS["adb"], BACKENDS["androidworld"]
    assert (sim.in_process, sim.replayable, sim.emulators) == (True, True, False)
    assert not (adb.in_process or adb.replayable or world.in_process or world.replayable) and adb.emulators and world.emulators
    # The options' backend wins over the id's; an id of no backend (or none registered) has no record.
    assert env_backend("Cerebellum-Sim-v0", {"backend": "adb"}) is adb
    assert env_backend("Cerebellum-Sim-v0", {"backend": "telepathy"}) is None
    assert env_backend("CartPole-v1") is None and env_backend("No-Such-Env-v0") is None
