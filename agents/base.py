"""The agent interface, and the ways a policy plugs in.

An agent turns observations into action strings. It may act on one observation or on a batch
(one per parallel env); the default batch method loops, and model-based agents override it to
run one forward pass for the whole batch.

Any callable ``observation -> action string`` is an agent (wrap it in :class:`FunctionAgent`, or
let :func:`~cerebellum_gym.agents.registry.load_agent` do it), and so is ``module:object`` on
the command line.

``act_batch`` takes the batch as a list of observations or as a vector env's batched dict
(what ``envs.reset`` and ``envs.step`` return), so a rollout is three lines::

    obs, _ = envs.reset(seed=0)
    while True:
        obs, reward, terminated, truncated, info = envs.step(agent.act_batch(obs))

Example:
    >>> agent = FunctionAgent(lambda obs: "W")
    >>> agent.act({"labels": ()})
    'W'
    >>> agent.act_batch([{}, {}])
    ['W', 'W']
    >>> agent.act_batch({"goal": ("a", "b"), "labels": ((), ("UE",))})
    ['W', 'W']
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Protocol

from cerebellum_gym.core.spaces import ObservationRows

Observation = Mapping[str, Any]
#: A batch: one observation per env, or a vector env's batched observation dict.
Batch = Sequence[Observation] | Mapping[str, Any]
Policy = Callable[[Observation], str]
ActBatch = Callable[..., list[str]]


def accepts_batched_dict(method: ActBatch) -> ActBatch:
    """Let an ``act_batch`` implementation receive a vector env's batched dict as well as a list
    (the dict is read as its rows, :class:`~cerebellum_gym.core.spaces.ObservationRows`: each
    built when the agent reads it, its arrays views of the batch's). :class:`Agent` applies it to
    every subclass's ``act_batch``, so an override only ever sees a sequence of observations."""
    if getattr(method, "_accepts_batched_dict", False):
        return method

    @functools.wraps(method)
    def act_batch(self: Any, observations: Batch, *args: Any, **kwargs: Any) -> list[str]:
        return method(self, ObservationRows(observations) if isinstance(observations, Mapping) else observations, *args, **kwargs)

    act_batch._accepts_batched_dict = True  # type: ignore[attr-defined]
    return act_batch


class OracleSource(Protocol):
    """Where privileged agents read the scripted oracle's actions: one per env slot."""

    def oracle_actions(self) -> Sequence[str]: ...


class Agent(abc.ABC):
    """Base class of agents.

    Attributes:
        name: shown in result tables.
        privileged: ``True`` for agents that read the task's scripted oracle instead of the
            observation; their results are an upper bound, and reports label them so.
    """

    name: str = "agent"
    privileged: ClassVar[bool] = False
    #: Whether the agent reads screenshots; harnesses skip rendering for agents that do not.
    needs_pixels: bool = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "act_batch" in cls.__dict__:
            cls.act_batch = accepts_batched_dict(cls.__dict__["act_batch"])  # type: ignore[method-assign]

    def reset(self, seed: int | None = None) -> None:
        """Forget everything between runs; ``seed`` seeds any randomness."""

    def begin_episode(self, slot: int) -> None:
        """Env ``slot`` of the batch starts a new episode (clear per-episode memory)."""

    @abc.abstractmethod
    def act(self, observation: Observation) -> str:
        """The next action for one observation."""

    @accepts_batched_dict
    def act_batch(self, observations: Batch, oracle: OracleSource | None = None) -> list[str]:
        """The next action for each observation of a batch (one per env slot): a list of
        observations, or a vector env's batched observation dict."""
        assert not isinstance(observations, Mapping)  # split by the decorator
        return [self.act(obs) for obs in observations]


class FunctionAgent(Agent):
    """Wrap a plain callable ``observation -> action string``.

    It gets screenshots unless it says it reads none: ``needs_pixels=False`` here, or a
    ``needs_pixels = False`` attribute on the function (what ``--agent module:function`` reads),
    which spares the harness the rendering.
    """

    def __init__(self, policy: Policy, name: str | None = None, *, needs_pixels: bool | None = None) -> None:
        self.policy = policy
        self.name = str(name or getattr(policy, "__name__", type(policy).__name__))
        self.needs_pixels = bool(getattr(policy, "needs_pixels", True) if needs_pixels is None else needs_pixels)

    def act(self, observation: Observation) -> str:
        return self.policy(observation)
