"""The agent interface, and the ways a policy plugs in.

An agent turns observations into action strings. It may act on one observation or on a batch
(one per parallel env); the default batch method loops, and model-based agents override it to
run one forward pass for the whole batch.

Any callable ``observation -> action string`` is an agent (wrap it in :class:`FunctionAgent`, or
let :func:`load_agent` do it), and so is ``module:object`` on the command line.

Example:
    >>> agent = FunctionAgent(lambda obs: "W")
    >>> agent.act({"labels": ()})
    'W'
    >>> agent.act_batch([{}, {}])
    ['W', 'W']
"""

from __future__ import annotations

import abc
import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Protocol

Observation = Mapping[str, Any]
Policy = Callable[[Observation], str]


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

    def reset(self, seed: int | None = None) -> None:
        """Forget everything between runs; ``seed`` seeds any randomness."""

    def begin_episode(self, slot: int) -> None:
        """Env ``slot`` of the batch starts a new episode (clear per-episode memory)."""

    @abc.abstractmethod
    def act(self, observation: Observation) -> str:
        """The next action for one observation."""

    def act_batch(self, observations: Sequence[Observation], oracle: OracleSource | None = None) -> list[str]:
        """The next action for each observation of a batch (one per env slot)."""
        return [self.act(obs) for obs in observations]


class FunctionAgent(Agent):
    """Wrap a plain callable ``observation -> action string``."""

    def __init__(self, policy: Policy, name: str | None = None) -> None:
        self.policy = policy
        self.name = str(name or getattr(policy, "__name__", type(policy).__name__))

    def act(self, observation: Observation) -> str:
        return self.policy(observation)


def load_agent(spec: str | Agent | Policy, **options: Any) -> Agent:
    """An agent from a spec: ``random``, ``oracle``, ``sb3:PATH``, ``qwen:BASE[,ADAPTER][?OPTIONS]``
    (the reference agent; a model id or folder, an optional LoRA adapter, and options such as
    ``device=cuda&dtype=bfloat16&attn=sdpa``), ``module:object``, an :class:`Agent`, or a callable.

    ``module:object`` may name an :class:`Agent` instance, an :class:`Agent` subclass (built with
    ``options``), a factory returning an agent or callable, or a plain policy callable.

    Raises:
        ValueError: the spec names nothing usable.
    """
    if isinstance(spec, Agent):
        return spec
    if callable(spec) and not isinstance(spec, str):
        return FunctionAgent(spec)
    if spec == "random":
        from cerebellum_gym.agents.random_agent import RandomAgent

        return RandomAgent(**options)
    if spec == "oracle":
        from cerebellum_gym.agents.oracle_agent import OracleAgent

        return OracleAgent()
    if spec.startswith("qwen:"):
        from cerebellum_gym.agents.qwen_agent import QwenActionAgent, parse_qwen_spec

        base, adapter, spec_options = parse_qwen_spec(spec[5:])
        return QwenActionAgent.from_pretrained(base, adapter, **{**spec_options, **options})
    if spec.startswith("sb3:"):
        from cerebellum_gym.agents.sb3_agent import SB3Agent

        return SB3Agent.load(spec[4:], **options)
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"unknown agent {spec!r}: use random, oracle, sb3:PATH, qwen:BASE[,ADAPTER] or module:object")
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"cannot import {module_name!r} for agent {spec!r}: {exc}") from exc
    for part in attr.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise ValueError(f"{module_name!r} has no attribute {attr!r}") from None
    if isinstance(target, Agent):
        return target
    if isinstance(target, type) and issubclass(target, Agent):
        return target(**options)
    if callable(target):
        if options:
            target = target(**options)
            if isinstance(target, Agent):
                return target
        return FunctionAgent(target, name=attr)
    raise ValueError(f"{spec!r} is neither an Agent nor a callable")
