"""A gymnasium vector env whose sub-envs live in Ray actors: rollouts over more than one machine.

:class:`RayVectorEnv` behaves like gymnasium's ``AsyncVectorEnv`` with ``shared_memory=False``
(the observation has variable-length parts: the label sequence and free text), but each group of
sub-envs runs in a Ray actor, which Ray may place on any node of a cluster. It connects to an
existing cluster (``address=``) or starts a local one.

What runs where: the env functions (or ``gym.make(env_id, **env_kwargs)``) run inside the actors,
so the devices, simulators and emulator connections live on the cluster's nodes; the driver (the
process that holds the :class:`RayVectorEnv`) only batches observations and sends actions. The
nodes need ``cerebellum-gym`` installed (or a Ray ``runtime_env`` that brings it).

Actor failures: a dead actor, a lost node or an actor that does not answer within ``timeout_s``
becomes a :class:`RayEnvLostError` (a :class:`~cerebellum_gym.errors.DeviceLostError`, so an
infrastructure fault) for the envs it hosted; nothing waits forever. With ``on_env_lost="raise"``
(the default) ``reset``/``step``/``call`` raise it; with ``"truncate"`` or a handler the batch goes
on: a lost env's step is truncated (reward 0, ``info["infra_error"]`` or the handler's info) and
its ``call`` results are ``None``. The next ``reset`` of a lost env (or, with autoreset, its next
step) starts a fresh actor for it.

Ray is an optional dependency (``pip install 'cerebellum-gym[ray]'``) and is imported only when a
:class:`RayVectorEnv` is built.
"""

from __future__ import annotations

import contextlib
import copy as copy_module
import re
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Final, TypeAlias

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array, iterate

from cerebellum_gym.errors import CerebellumError, DeviceLostError, InfraError
from cerebellum_gym.vector.rules import per_env_options, per_env_values, pop_reset_mask, portable_exception, remote_error, seeds

#: How long ``reset``/``step``/``call`` wait for an actor by default (an emulator's task setup can be slow).
DEFAULT_TIMEOUT_S: Final = 300.0
#: How long closing waits for the sub-envs' own ``close`` before the actors are killed.
CLOSE_TIMEOUT_S: Final = 10.0

#: ``(env index, the error, the env's last observation) -> (observation, info)`` for a lost env.
LostEnvHandler: TypeAlias = Callable[[int, InfraError, Any], tuple[Any, dict[str, Any]]]


class RayEnvLostError(DeviceLostError):
    """The Ray actor hosting some sub-envs died, its node was lost, or it did not answer in time.

    Attributes:
        indices: the sub-envs affected (every env the actor hosted).
    """

    def __init__(self, message: str, indices: Sequence[int] = ()) -> None:
        super().__init__(message)
        self.indices = tuple(indices)


def import_ray() -> Any:
    """The ``ray`` module, or a clear :class:`CerebellumError` when the ``ray`` extra is missing."""
    try:
        import ray
    except ImportError as exc:
        raise CerebellumError("the Ray backend needs the 'ray' extra: pip install 'cerebellum-gym[ray]'") from exc
    return ray


def truncate_lost_env(index: int, error: InfraError, last_observation: Any) -> tuple[Any, dict[str, Any]]:
    """The ``"truncate"`` policy: keep the env's last observation and say why in ``info["infra_error"]``,
    as :class:`~cerebellum_gym.env.CerebellumEnv` does for a device fault during a step."""
    return last_observation, {"infra_error": f"{type(error).__name__}: {error}"}


def make_registered_env(env_id: str, env_kwargs: Mapping[str, Any]) -> gym.Env[Any, Any]:
    """``gym.make(env_id, **env_kwargs)`` after registering cerebellum-gym's ids (a fresh Ray worker has not)."""
    import cerebellum_gym  # noqa: F401  (registers the ids)

    return gym.make(env_id, **dict(env_kwargs))


# --- inside the actors ----------------------------------------------------------------------------


class _EnvHost:
    """The body of one Ray actor: a few sub-envs, stepped in order, never killed by their exceptions.

    Each request names a local env; each answer is ``(True, value)`` or ``(False, (exception, traceback))``
    so that one env's exception neither kills the actor nor loses its neighbours' results.
    """

    def __init__(self, env_fns: Sequence[Callable[[], gym.Env[Any, Any]]], autoreset_mode: str) -> None:
        self.envs = [fn() for fn in env_fns]
        self.mode = AutoresetMode(autoreset_mode)
        self.autoreset = [False] * len(self.envs)

    def describe(self) -> list[tuple[Any, Any, dict[str, Any], str | None]]:
        return [(env.observation_space, env.action_space, dict(env.metadata), env.render_mode) for env in self.envs]

    def run(self, requests: Sequence[tuple[str, int, Any]]) -> list[tuple[bool, Any]]:
        """``("reset", k, (seed, options))`` or ``("step", k, action)`` for local env ``k``, in order."""
        return [self._guard(self._reset if kind == "reset" else self._step, k, data) for kind, k, data in requests]

    def call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[tuple[bool, Any]]:
        return [self._guard(self._call, k, (name, args, kwargs)) for k in range(len(self.envs))]

    def set_attr(self, name: str, values: Sequence[tuple[int, Any]]) -> list[tuple[bool, Any]]:
        return [self._guard(lambda k, value: self.envs[k].set_wrapper_attr(name, value), k, value) for k, value in values]

    def close(self) -> None:
        for env in self.envs:
            with contextlib.suppress(Exception):
                env.close()

    def _reset(self, k: int, data: tuple[int | None, dict[str, Any] | None]) -> tuple[Any, dict[str, Any]]:
        seed, options = data
        self.autoreset[k] = False
        return self.envs[k].reset(seed=seed, options=options)

    def _step(self, k: int, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        env = self.envs[k]
        if self.mode == AutoresetMode.NEXT_STEP and self.autoreset[k]:
            obs, info = env.reset()
            self.autoreset[k] = False
            return obs, 0.0, False, False, info
        obs, reward, terminated, truncated, info = env.step(action)
        done = bool(terminated or truncated)
        if self.mode == AutoresetMode.NEXT_STEP:
            self.autoreset[k] = done
        elif self.mode == AutoresetMode.SAME_STEP and done:
            final_obs, final_info = obs, info
            obs, reset_info = env.reset()
            info = {"final_obs": final_obs, "final_info": final_info, **reset_info}
        return obs, float(reward), bool(terminated), bool(truncated), info

    def _call(self, k: int, data: tuple[str, tuple[Any, ...], dict[str, Any]]) -> Any:
        name, args, kwargs = data
        attr = self.envs[k].get_wrapper_attr(name)
        return attr(*args, **kwargs) if callable(attr) else attr

    @staticmethod
    def _guard(fn: Callable[[int, Any], Any], k: int, data: Any) -> tuple[bool, Any]:
        try:
            return True, fn(k, data)
        except Exception as exc:
            return False, (portable_exception(exc), traceback.format_exc(limit=12))


_REMOTE_HOST: Any = None


def _remote_host(ray: Any) -> Any:
    global _REMOTE_HOST  # noqa: PLW0603  (the decorated class is built once, on first use, when Ray is known to be there)
    if _REMOTE_HOST is None:
        _REMOTE_HOST = ray.remote(_EnvHost)
    return _REMOTE_HOST


# --- the driver side ------------------------------------------------------------------------------


class RayVectorEnv(VectorEnv[Any, Any, Any]):
    """A vector env whose sub-envs run in Ray actors (see the module docstring).

    Args:
        env_fns: functions that build the sub-envs (they must pickle: module-level functions or
            ``functools.partial`` of them, not lambdas of a script Ray workers cannot import).
        env_id: instead of ``env_fns``: a gymnasium id, built ``num_envs`` times with ``env_kwargs``.
        num_envs: the number of sub-envs (with ``env_id``).
        env_kwargs: keyword options for ``gym.make`` (with ``env_id``).
        envs_per_actor: how many sub-envs share one actor (one process); 1 isolates every env.
        address: a Ray cluster to connect to (``"auto"``, ``"ray://host:10001"``, ``"host:6379"``);
            ``None`` uses the Ray instance this process already has, or starts a local one.
        ray_init_kwargs: extra ``ray.init`` options, used only when this object starts or connects Ray.
        actor_options: Ray options for each actor (``num_cpus``, ``resources``, ``scheduling_strategy``,
            ``runtime_env``...); the default spreads actors over the cluster's nodes.
        autoreset_mode: gymnasium's autoreset mode; ``DISABLED`` for harnesses that reset themselves.
        timeout_s: how long ``reset``/``step``/``call`` wait for an actor before it counts as lost
            (``None``: forever).
        on_env_lost: ``"raise"``, ``"truncate"`` (:func:`truncate_lost_env`), or a handler
            ``(index, error, last_observation) -> (observation, info)`` for a lost env's result.
        copy: return copies of the batched observations (as gymnasium's vector envs do).

    Raises:
        CerebellumError: bad arguments, the ``ray`` extra missing, or sub-envs that could not be
            built or whose spaces differ.
    """

    def __init__(
        self,
        env_fns: Sequence[Callable[[], gym.Env[Any, Any]]] | None = None,
        *,
        env_id: str | None = None,
        num_envs: int | None = None,
        env_kwargs: Mapping[str, Any] | None = None,
        envs_per_actor: int = 1,
        address: str | None = None,
        ray_init_kwargs: Mapping[str, Any] | None = None,
        actor_options: Mapping[str, Any] | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        timeout_s: float | None = DEFAULT_TIMEOUT_S,
        on_env_lost: str | LostEnvHandler = "raise",
        copy: bool = True,
    ) -> None:
        fns = self._env_fns(env_fns, env_id, num_envs, env_kwargs)
        if envs_per_actor < 1:
            raise CerebellumError(f"envs_per_actor must be at least 1, got {envs_per_actor}")
        if timeout_s is not None and timeout_s <= 0:
            raise CerebellumError(f"timeout_s must be positive (or None), got {timeout_s}")
        self._lost_handler: LostEnvHandler | None
        if on_env_lost == "raise":
            self._lost_handler = None
        elif on_env_lost == "truncate":
            self._lost_handler = truncate_lost_env
        elif callable(on_env_lost):
            self._lost_handler = on_env_lost
        else:
            raise CerebellumError(f"on_env_lost must be 'raise', 'truncate' or a callable, got {on_env_lost!r}")
        self.num_envs = len(fns)
        self.autoreset_mode = autoreset_mode if isinstance(autoreset_mode, AutoresetMode) else AutoresetMode(autoreset_mode)
        self.timeout_s = timeout_s
        self.copy = copy
        self._ray = ray = import_ray()
        self._owns_ray = False
        if not ray.is_initialized():
            init = {"include_dashboard": False, **dict(ray_init_kwargs or {})}
            ray.init(address=address, **init)
            self._owns_ray = True
        self._actor_options = {"scheduling_strategy": "SPREAD", **dict(actor_options or {})}
        # Env i lives in actor i // envs_per_actor, at position i % envs_per_actor.
        self._per_actor = envs_per_actor
        self._groups = [fns[a : a + envs_per_actor] for a in range(0, len(fns), envs_per_actor)]
        self._where = [(i // envs_per_actor, i % envs_per_actor) for i in range(self.num_envs)]
        self._actors: list[Any] = []
        self.closed = False
        self._lost: list[RayEnvLostError | None] = [None] * self.num_envs
        try:
            self._actors = [self._spawn(a) for a in range(len(self._groups))]
            described = self._describe()
        except BaseException:
            self.close(terminate=True)
            raise
        obs_space, act_space, metadata, render_mode = described[0]
        for i, (obs_i, act_i, _, _) in enumerate(described):
            if obs_i != obs_space or act_i != act_space:
                self.close(terminate=True)
                raise CerebellumError(f"sub-env {i} has different spaces from sub-env 0; every sub-env must share them")
        self.single_observation_space = obs_space
        self.single_action_space = act_space
        self.observation_space = batch_space(obs_space, self.num_envs)
        self.action_space = batch_space(act_space, self.num_envs)
        self.metadata = {**metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = render_mode
        self._observations: Any = create_empty_array(obs_space, n=self.num_envs, fn=np.zeros)
        # The per-env observation a handler sees: blank until the env's first reset.
        self._env_obs: list[Any] = list(iterate(self.observation_space, copy_module.deepcopy(self._observations)))

    # --- gymnasium's VectorEnv ---------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Reset the sub-envs (all, or those of ``options["reset_mask"]``), each with its own seed.

        Args:
            seed: ``None``, an int (env i gets ``seed + i``) or one seed (or ``None``) per env.
            options: passed to every reset sub-env; ``reset_mask`` (a bool array, one per env, at
                least one True) resets only those envs, the others keep their last observation.

        Returns:
            The batched observations and the infos of the envs that were reset.
        """
        self._check_open()
        per_env = seeds(seed, self.num_envs)
        options = dict(options) if options is not None else None
        mask = pop_reset_mask(options, self.num_envs)
        if mask is None:
            mask = np.ones(self.num_envs, dtype=np.bool_)
        chosen = [i for i in range(self.num_envs) if mask[i]]
        self._respawn_for(i for i in chosen if self._lost[i] is not None)
        env_options = per_env_options(options, self.num_envs)
        answers = self._run({i: ("reset", (per_env[i], env_options[i])) for i in chosen})
        infos: dict[str, Any] = {}
        for i in chosen:
            answer = answers[i]
            if isinstance(answer, RayEnvLostError):
                obs, info = self._on_lost(i, answer)
            else:
                obs, info = answer
                self._lost[i] = None
            self._env_obs[i] = obs
            infos = self._add_info(infos, info, i)
        self._observations = concatenate(self.single_observation_space, self._env_obs, self._observations)
        return self._out(self._observations), infos

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every sub-env with its action from the batch (``action_space``'s structure).

        Returns:
            Batched observations, rewards (float64), terminations and truncations (bool), and infos.
        """
        self._check_open()
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=np.bool_)
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        requests: dict[int, tuple[str, Any]] = {}
        heal = self.autoreset_mode != AutoresetMode.DISABLED
        if not heal:
            self._raise_lost_if_strict()
        for i, action in enumerate(iterate(self.action_space, actions)):
            if self._lost[i] is None:
                requests[i] = ("step", action)
            elif heal:
                # With autoreset, a lost env comes back on its next step, as a finished env would.
                requests[i] = ("reset", (None, None))
        self._respawn_for(i for i, (kind, _) in requests.items() if kind == "reset")
        answers = self._run(requests)
        infos: dict[str, Any] = {}
        for i in range(self.num_envs):
            answer: Any = answers.get(i, self._lost[i])
            if isinstance(answer, RayEnvLostError):
                obs, info = self._on_lost(i, answer)
                truncations[i] = True
            elif requests[i][0] == "reset":
                obs, info = answer
                self._lost[i] = None
            else:
                obs, rewards[i], terminations[i], truncations[i], info = answer
            self._env_obs[i] = obs
            infos = self._add_info(infos, info, i)
        self._observations = concatenate(self.single_observation_space, self._env_obs, self._observations)
        return self._out(self._observations), rewards, terminations, truncations, infos

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call method (or read attribute) ``name`` of every sub-env; a lost env answers ``None``
        unless ``on_env_lost`` is ``"raise"``."""
        self._check_open()
        live = [a for a in range(len(self._groups)) if self._actors[a] is not None]
        refs = {a: self._actors[a].call.remote(name, args, kwargs) for a in live}
        results: list[Any] = [None] * self.num_envs
        by_actor, _ = self._gather(refs)
        self._raise_lost_if_strict()
        for i, (a, k) in enumerate(self._where):
            # A lost env answers None, even where its actor was replaced for a sibling (it is not reset yet).
            if a in by_actor and self._lost[i] is None:
                results[i] = self._unwrap(i, by_actor[a][k])
        return tuple(results)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute ``name`` of every sub-env (a method is called, as gymnasium's vector envs do)."""
        return self.call(name)

    def set_attr(self, name: str, values: Any) -> None:
        """Set attribute ``name`` on every sub-env: one value each (a list or tuple) or one for all."""
        self._check_open()
        self._raise_lost_if_strict()
        per_env = per_env_values(values, self.num_envs)
        requests: dict[int, list[tuple[int, Any]]] = {}
        for i, (a, k) in enumerate(self._where):
            if self._lost[i] is None:
                requests.setdefault(a, []).append((k, per_env[i]))
        by_actor, _ = self._gather({a: self._actors[a].set_attr.remote(name, items) for a, items in requests.items()})
        for a, answers in by_actor.items():
            for (k, _), answer in zip(requests[a], answers, strict=True):
                self._unwrap(a * self._per_actor + k, answer)
        self._raise_lost_if_strict()

    def render(self) -> tuple[Any, ...] | None:
        """Every sub-env's ``render()``."""
        return self.call("render")

    def close_extras(self, terminate: bool = False, **kwargs: Any) -> None:
        """Close the sub-envs (unless ``terminate``), kill the actors, and shut Ray down if this object started it."""
        ray = getattr(self, "_ray", None)
        if ray is None:
            return
        actors = [actor for actor in getattr(self, "_actors", []) if actor is not None]
        if not terminate and actors and ray.is_initialized():
            refs = [actor.close.remote() for actor in actors]
            with contextlib.suppress(Exception):
                ray.wait(refs, num_returns=len(refs), timeout=CLOSE_TIMEOUT_S)
        for actor in actors:
            with contextlib.suppress(Exception):
                ray.kill(actor, no_restart=True)
        self._actors = []
        if self._owns_ray:
            self._owns_ray = False
            with contextlib.suppress(Exception):
                ray.shutdown()

    def __del__(self) -> None:
        # A forgotten env must not leave actors (or a Ray instance it started) running.
        if not getattr(self, "closed", True):
            with contextlib.suppress(Exception):
                self.close(terminate=True)

    # --- for callers that look inside ------------------------------------------------------------

    @property
    def actors(self) -> tuple[Any, ...]:
        """The Ray actor handles, one per group of sub-envs (``None`` where one was lost)."""
        return tuple(self._actors)

    def actor_of(self, index: int) -> Any:
        """The actor handle hosting sub-env ``index`` (``None`` while it is lost)."""
        return self._actors[self._where[index][0]]

    @property
    def lost(self) -> tuple[bool, ...]:
        """Which sub-envs are lost (they come back at their next reset)."""
        return tuple(error is not None for error in self._lost)

    # --- internals ---------------------------------------------------------------------------

    @staticmethod
    def _env_fns(
        env_fns: Sequence[Callable[[], gym.Env[Any, Any]]] | None,
        env_id: str | None,
        num_envs: int | None,
        env_kwargs: Mapping[str, Any] | None,
    ) -> list[Callable[[], gym.Env[Any, Any]]]:
        if (env_fns is None) == (env_id is None):
            raise CerebellumError("give either env_fns or env_id (with num_envs), not both nor neither")
        if env_fns is not None:
            if num_envs is not None and num_envs != len(env_fns):
                raise CerebellumError(f"num_envs={num_envs} but {len(env_fns)} env_fns")
            fns = list(env_fns)
        else:
            assert env_id is not None
            fns = [partial(make_registered_env, env_id, dict(env_kwargs or {})) for _ in range(num_envs or 0)]
        if not fns:
            raise CerebellumError("a RayVectorEnv needs at least one sub-env")
        return fns

    def _spawn(self, a: int) -> Any:
        host = _remote_host(self._ray)
        return host.options(**self._actor_options).remote(self._groups[a], self.autoreset_mode.value)

    def _respawn_for(self, indices: Any) -> None:
        # A lost env's actor is replaced by a fresh one before its next reset (once, if a sibling env already did).
        for a in sorted({self._where[i][0] for i in indices}):
            if self._actors[a] is None:
                self._actors[a] = self._spawn(a)

    def _describe(self) -> list[tuple[Any, Any, dict[str, Any], str | None]]:
        by_actor, lost = self._gather({a: actor.describe.remote() for a, actor in enumerate(self._actors)})
        if lost:
            first = next(iter(lost.values()))
            raise CerebellumError(f"could not start the sub-envs in Ray actors: {first}") from first
        return [entry for a in range(len(self._groups)) for entry in by_actor[a]]

    def _run(self, requests: Mapping[int, tuple[str, Any]]) -> dict[int, Any]:
        """Send each env its request (one remote call per actor); answers by env index, a
        :class:`RayEnvLostError` for the envs of a lost actor. An env's own exception is raised."""
        per_actor: dict[int, list[tuple[str, int, Any]]] = {}
        owners: dict[int, list[int]] = {}
        for i, (kind, data) in requests.items():
            a, k = self._where[i]
            per_actor.setdefault(a, []).append((kind, k, data))
            owners.setdefault(a, []).append(i)
        by_actor, _ = self._gather({a: self._actors[a].run.remote(items) for a, items in per_actor.items()})
        answers: dict[int, Any] = {}
        error: BaseException | None = None
        for a, envs in owners.items():
            if a not in by_actor:
                for i in envs:
                    answers[i] = self._lost[i]
                continue
            for i, (ok, value) in zip(envs, by_actor[a], strict=True):
                if ok:
                    answers[i] = value
                elif error is None:
                    error = self._remote_error(i, value)
        if error is not None:
            raise error
        if self._lost_handler is None:
            self._raise_lost_if_strict([i for i in requests if isinstance(answers.get(i), RayEnvLostError)])
        return answers

    def _gather(self, refs: Mapping[int, Any]) -> tuple[dict[int, Any], dict[int, RayEnvLostError]]:
        """Wait for one answer per actor, all under one deadline; mark the actors that fail as lost."""
        ray = self._ray
        deadline = None if self.timeout_s is None else time.monotonic() + self.timeout_s
        results: dict[int, Any] = {}
        lost: dict[int, RayEnvLostError] = {}
        for a, ref in refs.items():
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                results[a] = ray.get(ref, timeout=remaining)
            except ray.exceptions.GetTimeoutError:
                lost[a] = self._mark_lost(a, f"did not answer within {self.timeout_s:g} s")
            except ray.exceptions.RayTaskError as exc:
                # Not a lost actor: the host itself failed (an answer that cannot be pickled, say).
                raise CerebellumError(f"Ray actor {a} failed: {_summary(exc)}") from exc
            except ray.exceptions.RayError as exc:
                lost[a] = self._mark_lost(a, f"{type(exc).__name__}: {_summary(exc)}")
                lost[a].__cause__ = exc
        return results, lost

    def _mark_lost(self, a: int, why: str) -> RayEnvLostError:
        indices = [i for i, (owner, _) in enumerate(self._where) if owner == a]
        error = RayEnvLostError(f"Ray actor for sub-env(s) {', '.join(map(str, indices))} lost: {why}", indices)
        actor, self._actors[a] = self._actors[a], None
        if actor is not None:
            # A stuck actor must not come back later with stale state.
            with contextlib.suppress(Exception):
                self._ray.kill(actor, no_restart=True)
        for i in indices:
            self._lost[i] = error
        return error

    def _on_lost(self, i: int, error: RayEnvLostError) -> tuple[Any, dict[str, Any]]:
        assert self._lost_handler is not None  # "raise" mode raised before getting here
        return self._lost_handler(i, error, self._env_obs[i])

    def _raise_lost_if_strict(self, indices: Sequence[int] | None = None) -> None:
        if self._lost_handler is not None:
            return
        chosen = [i for i in (range(self.num_envs) if indices is None else indices) if self._lost[i] is not None]
        if chosen:
            first = self._lost[chosen[0]]
            assert first is not None
            raise RayEnvLostError(str(first), sorted(chosen))

    def _unwrap(self, i: int, answer: tuple[bool, Any]) -> Any:
        ok, value = answer
        if not ok:
            raise self._remote_error(i, value)
        return value

    @staticmethod
    def _remote_error(i: int, value: tuple[BaseException, str]) -> BaseException:
        return remote_error(value, f"raised in sub-env {i} (a Ray actor)")

    def _check_open(self) -> None:
        if self.closed:
            raise CerebellumError("this RayVectorEnv is closed")

    def _out(self, observations: Any) -> Any:
        return copy_module.deepcopy(observations) if self.copy else observations


def _summary(exc: BaseException) -> str:
    """One line for a Ray error: a creation-task failure ends with the env's own exception, which says more
    than Ray's first line."""
    lines = [line.strip() for line in re.sub(r"\x1b\[[0-9;]*m", "", str(exc)).splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    last = lines[-1]
    return (last if len(lines) > 1 and re.match(r"^[\w.]+(Error|Exception|Exit|Interrupt)\b", last) else lines[0])[:300]
