"""The one place that assembles an env: backend, device, task catalogue and device wrapper.

``gym.make("Cerebellum-Sim-v0", ...)`` calls :func:`make_env`. It reads the backend's typed
config from ``device_options`` (a misspelt option is an error listing the valid ones), builds
the device through the backend's string entry point (so the core install needs none of the other
backends' dependencies), picks the task catalogue (the bundled tasks, or the backend's own, as
AndroidWorld's), wraps the device if asked (fault injection, recording, ...), and hands all of it
to :class:`~cerebellum_gym.env.CerebellumEnv`. For ``Cerebellum-AndroidWorld-v0`` with no emulator
named it also serves the embedded simulator over ADB for AndroidWorld to run on (the one place
a device backend meets the simulator; ``docs/androidworld.md``).

Example:
    >>> from cerebellum_gym.loader import make_env, make_device
    >>> env = make_env("SystemWifiTurnOn", backend="sim", pixels=False)
    >>> env.device.backend, env.catalog.source
    ('sim', 'builtin')
    >>> make_device("sim", {"clokc": 0.0})
    Traceback (most recent call last):
    ...
    cerebellum_gym.errors.ConfigError: unknown option 'clokc' for the 'sim' backend (did you mean 'clock'?); valid options: apps, clock
"""

from __future__ import annotations

import dataclasses
import importlib
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from cerebellum_gym import leftovers
from cerebellum_gym.devices.base import Device, DeviceWrapper
from cerebellum_gym.env import CerebellumEnv, TaskSpec
from cerebellum_gym.errors import CerebellumError, ConfigError
from cerebellum_gym.options import check_env_options, did_you_mean
from cerebellum_gym.tasks.catalog import BUILTIN, ChainCatalog, MappingCatalog, TaskCatalog

if TYPE_CHECKING:
    from cerebellum_gym.sim.apps.base import App

WrapDevice = Callable[[Device], Device]
"""Wraps a freshly built device (fault injection, recording, ...); the env drives what it returns.
A :class:`~cerebellum_gym.devices.base.DeviceWrapper` subclass is one."""


# --- per-backend configs ---------------------------------------------------------------------
# Each field is a keyword argument of the backend's device class, with the same default (a test
# holds them together). Values are checked by the device's constructor.


@dataclass(frozen=True)
class SimConfig:
    """The embedded simulator (:class:`~cerebellum_gym.sim.phone.Phone`).

    Attributes:
        apps: the app classes to install besides the launcher (``None``: every bundled app).
        clock: the wall clock at factory reset, in epoch seconds (``None``: the phone's default).
    """

    apps: Iterable[type[App]] | None = None
    clock: float | None = None

    def device_kwargs(self) -> dict[str, Any]:
        kwargs = _fields(self)
        if kwargs["clock"] is None:
            del kwargs["clock"]
        return kwargs


@dataclass(frozen=True)
class AdbConfig:
    """Any ADB device (:class:`~cerebellum_gym.devices.adb.AdbDevice`); see ``docs/adb.md``."""

    serial: str | None = None
    adb_host: str | None = None
    adb_port: int | None = None
    timeout: float = 10.0
    wait_timeout_margin: float = 5.0
    text_input: str = "auto"
    reset_packages: Iterable[str] = ()
    reconnect_timeout: float | None = None
    reset_command: str | None = "auto"
    screencap_format: str = "auto"
    prefetch_tree: bool = True

    def device_kwargs(self) -> dict[str, Any]:
        return _fields(self)


@dataclass(frozen=True)
class AndroidWorldConfig:
    """AndroidWorld's own env and tasks
    (:class:`~cerebellum_gym.devices.androidworld.AndroidWorldDevice`); see ``docs/androidworld.md``.
    ``task_family`` also picks the task catalogue.

    Where it runs: ``env`` given, that env; an emulator named (``console_port`` or ``grpc_port``),
    that emulator; neither, the embedded simulator, which :func:`make_device` serves over ADB in
    this process and hands to the device as ``served`` (``info["device_backend"]`` says which).
    """

    def wants_simulator(self) -> bool:
        """Nothing named to run on (no env, no emulator, nothing served): the loader serves the
        embedded simulator. Where AndroidWorld runs is decided once, by the device module's
        :func:`~cerebellum_gym.devices.androidworld.device.placement`; options it refuses are
        no simulator here (building the device then says why)."""
        from cerebellum_gym.devices.androidworld.device import placement

        try:
            where = placement(
                env=self.env,
                served=self.served,
                console_port=self.console_port,
                grpc_port=self.grpc_port,
                emulator_setup=self.emulator_setup,
            )
        except ConfigError:
            return False
        return where is None

    env: Any = None
    served: Any = None
    console_port: int | None = None
    grpc_port: int | None = None
    adb_path: str | None = None
    emulator_setup: bool = False
    freeze_datetime: bool = True
    tree_source: str = "auto"
    all_windows: bool = False
    text_input: str = "adb"
    transition_pause: float | str | None = "auto"
    timeout: float = 10.0
    task_family: str = "android_world"
    close_env: bool | None = None
    in_process: Any = None
    direct: bool | str = "auto"
    open_target_app: bool = False

    def device_kwargs(self) -> dict[str, Any]:
        return _fields(self)


BackendConfig = SimConfig | AdbConfig | AndroidWorldConfig


def _fields(config: Any) -> dict[str, Any]:
    # Shallow on purpose: options such as ``env`` or ``apps`` are live objects, never copied.
    return {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}


def _builtin_catalog(config: Any) -> TaskCatalog:
    return BUILTIN


def _androidworld_catalog(config: Any) -> TaskCatalog:
    def load() -> Mapping[str, Any]:
        from cerebellum_gym.tasks.androidworld import task_classes

        return task_classes(config.task_family)

    # AndroidWorld's own tasks first; a name only the bundled registry has still resolves.
    return ChainCatalog(MappingCatalog("androidworld", load), BUILTIN)


#: The vector entry point of the ids whose devices are emulators: an emulator per sub-env when
#: asked (``emulators=``/``pool=``), copies of ``gym.make`` otherwise.
EMULATOR_VECTOR_ENTRY_POINT = "cerebellum_gym.vector.emulators:make_emulator_vec"


@dataclass(frozen=True)
class Backend:
    """Everything the package knows about a backend, in one record (:data:`BACKENDS`).

    Attributes:
        name: as env ids and ``make_env(backend=...)`` name it.
        config: its typed config (the device's keyword arguments).
        device: its device class, ``module:attr`` (imported on first use).
        catalog: its task catalogue, from its config.
        env_id: the env id registered for it.
        in_process: the device runs in this process (vector envs keep it in one process on
            small machines; a native batched env exists for it).
        replayable: an episode is a pure function of seed and actions (replay audits rebuild it).
        emulators: it runs on emulators (an ``EmulatorPool`` can serve each env one).
        vector_entry_point: its env id's ``vector_entry_point`` (``gym.make_vec``'s default).
    """

    name: str
    config: type[Any]
    device: str
    catalog: Callable[[Any], TaskCatalog] = _builtin_catalog
    env_id: str = ""
    in_process: bool = False
    replayable: bool = False
    emulators: bool = False
    vector_entry_point: str | None = None


BACKENDS: dict[str, Backend] = {
    "sim": Backend(
        "sim",
        SimConfig,
        "cerebellum_gym.sim.phone:Phone",
        env_id="Cerebellum-Sim-v0",
        in_process=True,
        replayable=True,
        vector_entry_point="cerebellum_gym.vector.shards:make_native_vec",
    ),
    "adb": Backend(
        "adb",
        AdbConfig,
        "cerebellum_gym.devices.adb:AdbDevice",
        env_id="Cerebellum-Adb-v0",
        emulators=True,
        vector_entry_point=EMULATOR_VECTOR_ENTRY_POINT,
    ),
    "androidworld": Backend(
        "androidworld",
        AndroidWorldConfig,
        "cerebellum_gym.devices.androidworld:AndroidWorldDevice",
        _androidworld_catalog,
        env_id="Cerebellum-AndroidWorld-v0",
        emulators=True,
        vector_entry_point=EMULATOR_VECTOR_ENTRY_POINT,
    ),
}


def backend_name(env_id: str, env_kwargs: Mapping[str, Any] | None = None) -> str | None:
    """The backend an env of ``env_id`` made with ``env_kwargs`` runs on: ``env_kwargs["backend"]``
    when given, else the id's own (``None`` for an id that names none, or an unknown id).

    Example:
        >>> import cerebellum_gym
        >>> backend_name("Cerebellum-Sim-v0"), backend_name("Cerebellum-Sim-v0", {"backend": "adb"}), backend_name("CartPole-v1")
        ('sim', 'adb', None)
    """
    if env_kwargs is not None and "backend" in env_kwargs:
        return str(env_kwargs["backend"])
    import gymnasium as gym

    try:
        name = gym.spec(env_id).kwargs.get("backend")
    except gym.error.Error:
        return None
    return None if name is None else str(name)


def env_backend(env_id: str, env_kwargs: Mapping[str, Any] | None = None) -> Backend | None:
    """The :class:`Backend` record of an env of ``env_id`` made with ``env_kwargs`` (the one
    place that maps env ids to backends); ``None`` for an id of no known backend.

    Example:
        >>> import cerebellum_gym
        >>> record = env_backend("Cerebellum-Sim-v0")
        >>> record.name, record.in_process, record.replayable, env_backend("Cerebellum-Adb-v0").emulators
        ('sim', True, True, True)
    """
    name = backend_name(env_id, env_kwargs)
    return BACKENDS.get(name) if name is not None else None


#: ``make_env``'s own keyword arguments; the rest are the env's options.
LOADER_OPTIONS: Final = ("task", "backend", "device_options", "device_wrapper", "device")


def check_make_kwargs(env_id: str, kwargs: Mapping[str, Any]) -> None:
    """Refuse what ``gym.make(env_id, **kwargs)`` would refuse, before anything is made (the eval
    CLI checks ``--env-kwargs`` so, before a run folder exists).

    Raises:
        ConfigError: an unknown env option or device option, or a bad value.
    """
    record = env_backend(env_id, kwargs)
    if record is None:
        raise ConfigError(f"{env_id!r} is not an env id of cerebellum-gym's backends")
    check_env_options({k: v for k, v in kwargs.items() if k not in LOADER_OPTIONS}, extra=LOADER_OPTIONS)
    device_config(record.name, kwargs.get("device_options"))


def backend(name: str) -> Backend:
    """The backend called ``name``.

    Raises:
        ConfigError: no such backend.
    """
    try:
        return BACKENDS[name]
    except KeyError:
        raise ConfigError(f"unknown backend {name!r}; known: {', '.join(sorted(BACKENDS))}") from None


def device_config(name: str, options: Mapping[str, Any] | BackendConfig | None = None) -> BackendConfig:
    """The typed config of backend ``name`` from a mapping of options (or a ready config).

    Raises:
        ConfigError: unknown backend, an unknown option (with the close names and every valid
            one), or a config of another backend.
    """
    spec = backend(name)
    if options is None:
        return spec.config()
    if dataclasses.is_dataclass(options) and not isinstance(options, type):
        if not isinstance(options, spec.config):
            raise ConfigError(f"the {name!r} backend takes a {spec.config.__name__}, got {type(options).__name__}")
        return options
    if not isinstance(options, Mapping):
        raise ConfigError(f"device_options must be a mapping or a {spec.config.__name__}, got {type(options).__name__}")
    valid = [f.name for f in dataclasses.fields(spec.config)]
    for key in options:
        if key not in valid:
            raise ConfigError(did_you_mean(key, valid, where=f" for the {name!r} backend"))
    return spec.config(**options)


def make_device(name: str, options: Mapping[str, Any] | BackendConfig | None = None) -> Device:
    """Build a device of backend ``name`` from its options.

    Raises:
        ConfigError: bad backend or options.
        CerebellumError: the backend's optional dependencies are missing.
    """
    config = device_config(name, options)
    module_name, _, attr = backend(name).device.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise CerebellumError(f"backend {name!r} needs an optional dependency: {exc}") from exc
    if isinstance(config, AndroidWorldConfig) and config.wants_simulator():
        return _embedded_androidworld(config, getattr(module, attr))
    device: Device = getattr(module, attr)(**config.device_kwargs())
    return device


def _embedded_androidworld(config: AndroidWorldConfig, device_class: Callable[..., Device]) -> Device:
    """AndroidWorld on the embedded simulator: a fresh phone served over ADB on a loopback port
    (``AdbdServer``), handed to the device as ``served`` (it builds the adb server and
    AndroidWorld's env over it, and stops it all on close). Logs once per process that it did."""
    from cerebellum_gym.devices.androidworld.embedded import notice_once, require_android_world

    require_android_world()  # before anything is served: the error says how to install it
    from cerebellum_gym.devices.android import CONSOLE_TOKEN_FILE
    from cerebellum_gym.sim.adbd import AdbdServer
    from cerebellum_gym.sim.phone import Phone

    # With the emulator console (AndroidWorld texts and calls through `adb emu`), its token in a
    # private folder (0600, as the emulator's), removed with the served device.
    token_dir = leftovers.owned_dir("console")
    served = AdbdServer(Phone(), port=0, console=True, console_auth_token=Path(token_dir) / CONSOLE_TOKEN_FILE)
    weakref.finalize(served, leftovers.remove, token_dir)
    served.start()
    try:
        device = device_class(**dataclasses.replace(config, served=served).device_kwargs())
    except BaseException:
        served.stop()  # idempotent: the device may have stopped it already
        raise
    notice_once()
    return device


def make_catalog(name: str, options: Mapping[str, Any] | BackendConfig | None = None) -> TaskCatalog:
    """The task catalogue of backend ``name`` (the bundled tasks, or the backend's own first)."""
    return backend(name).catalog(device_config(name, options))


def make_env(
    task: TaskSpec = None,
    *,
    backend: str = "sim",
    device_options: Mapping[str, Any] | BackendConfig | None = None,
    device_wrapper: WrapDevice | None = None,
    device: Device | None = None,
    **env_options: Any,
) -> CerebellumEnv:
    """Assemble a :class:`~cerebellum_gym.env.CerebellumEnv` (the env ids' entry point).

    Args:
        task: a task name, a list of names, a task class or instance, or ``None`` (every task of
            the backend's catalogue).
        backend: ``"sim"``, ``"adb"`` or ``"androidworld"``.
        device_options: the backend's options, as a mapping or its config dataclass
            (:class:`SimConfig`, :class:`AdbConfig`, :class:`AndroidWorldConfig`).
        device_wrapper: called on the built device; the env drives what it returns (and closes it).
        device: a ready device to drive instead of building one (the caller keeps and closes it).
        **env_options: the env's own options (``pixels``, ``screenshot_width``, ``max_steps``, ...).

    Raises:
        ConfigError: unknown backend or device option.
    """
    # Every option checked before a device (a served phone, adb servers, emulators) is built.
    check_env_options(env_options, extra=LOADER_OPTIONS)
    config = device_config(backend, device_options)
    catalog = make_catalog(backend, config)
    owns = device is None
    built = make_device(backend, config) if device is None else device
    try:
        driven = device_wrapper(built) if device_wrapper is not None else built
        return CerebellumEnv(task, device=driven, catalog=catalog, owns_device=owns, **env_options)
    except BaseException:
        if owns:
            built.close()
        raise


# gymnasium's make reads the entry point's metadata for render modes.
make_env.metadata = CerebellumEnv.metadata  # type: ignore[attr-defined]

__all__ = [
    "BACKENDS",
    "EMULATOR_VECTOR_ENTRY_POINT",
    "LOADER_OPTIONS",
    "AdbConfig",
    "AndroidWorldConfig",
    "Backend",
    "BackendConfig",
    "DeviceWrapper",
    "SimConfig",
    "WrapDevice",
    "backend",
    "backend_name",
    "check_make_kwargs",
    "device_config",
    "env_backend",
    "make_catalog",
    "make_device",
    "make_env",
]
