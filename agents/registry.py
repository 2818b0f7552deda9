"""Agents by spec: :func:`load_agent` turns ``random``, ``oracle``, ``sb3:PATH``,
``qwen:BASE[,ADAPTER]``, ``module:object``, an :class:`~cerebellum_gym.agents.base.Agent` or a
callable into an agent.

Kept apart from :mod:`~cerebellum_gym.agents.base` (the interface every agent imports) so the
dependency runs one way: this module imports the agents, the agents import the interface. The
built-in agents are imported only when named, so their extras (torch, stable-baselines3) are
needed only by those who use them.

Example:
    >>> load_agent("random").name
    'random'
    >>> load_agent(lambda obs: "W").act({})
    'W'
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Iterator
from typing import Any

from cerebellum_gym.agents.base import Agent, FunctionAgent, Policy
from cerebellum_gym.options import did_you_mean


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
    if spec == "search" or spec.startswith("search:"):
        from cerebellum_gym.agents.search_agent import SearchAgent

        return SearchAgent(**{**_search_options(spec), **options})
    for prefix, what in (("qwen:", "a model id or folder: qwen:BASE[,ADAPTER]"), ("sb3:", "a saved model: sb3:PATH.zip")):
        if spec.startswith(prefix) and not spec[len(prefix) :].strip():
            raise ValueError(f"agent {spec!r} names no model; give {what}")
    if spec.startswith("qwen:"):
        with _needs_extra("agents", spec):
            from cerebellum_gym.agents.qwen_agent import QwenActionAgent, parse_qwen_spec

            base, adapter, spec_options = parse_qwen_spec(spec[5:])
            return QwenActionAgent.from_pretrained(base, adapter, **{**spec_options, **options})
    if spec.startswith("sb3:"):
        with _needs_extra("sb3", spec):
            from cerebellum_gym.agents.sb3_agent import SB3Agent

            return SB3Agent.load(spec[4:], **options)
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        usage = "use random, oracle, search[:budget=N], sb3:PATH, qwen:BASE[,ADAPTER] or module:object"
        raise ValueError(did_you_mean(spec, ("random", "oracle", "search"), what="agent", listing=usage))
    try:
        target: Any = _import_from_cwd(module_name)
    except ImportError as exc:
        raise ValueError(
            f"cannot import {module_name!r} for agent {spec!r}: {exc}; module:object names a module importable from here "
            "(a .py file in the current folder, or an installed package)"
        ) from exc
    for part in attr.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            public = [name for name in dir(target) if not name.startswith("_")]
            listing = None if len(public) <= 12 else "module:object names a function or an Agent in that module"
            where = f" in {module_name!r} for agent {spec!r}"
            raise ValueError(did_you_mean(part, public, what="object", where=where, listing=listing)) from None
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


def _import_from_cwd(module_name: str) -> Any:
    """Import ``module_name`` the way ``python -m`` would: the current folder comes first, so
    ``--agent my_policy:SettingsFirst`` finds ``./my_policy.py`` from an installed command (and
    the module's own later imports of its neighbours work too)."""
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)
    return importlib.import_module(module_name)


@contextlib.contextmanager
def _needs_extra(extra: str, spec: str) -> Iterator[None]:
    """Turn a missing optional dependency into a message naming the extra that brings it."""
    try:
        yield
    except ImportError as exc:
        raise ValueError(f"agent {spec!r} needs the {extra!r} extra ({exc}): pip install 'cerebellum-gym[{extra}]'") from exc


def _search_options(spec: str) -> dict[str, int]:
    """``search:budget=N`` as keyword options (``search`` alone: the defaults)."""
    _, _, rest = spec.partition(":")
    options: dict[str, int] = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if key.strip() != "budget" or not sep or not value.strip().isdigit():
            raise ValueError(f"agent {spec!r}: the search agent takes budget=N (steps per decision), e.g. search:budget=500")
        options["budget"] = int(value)
    return options
