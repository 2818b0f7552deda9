"""Agents for cerebellum-gym environments (installed as ``cerebellum_gym.agents``).

- :class:`RandomAgent`: uniform over legal actions (reads the action masks).
- :class:`OracleAgent`: the tasks' scripted solvers; privileged, an upper bound.
- :class:`SearchAgent`: a best-first search on the env's episode states; privileged.
- :class:`FunctionAgent` and :func:`load_agent`: plug in any callable or ``module:object``.
"""

from __future__ import annotations

from cerebellum_gym.agents.base import Agent, FunctionAgent, Observation, OracleSource
from cerebellum_gym.agents.oracle_agent import OracleAgent
from cerebellum_gym.agents.random_agent import RandomAgent
from cerebellum_gym.agents.registry import load_agent
from cerebellum_gym.agents.search_agent import SearchAgent

__all__ = ["Agent", "FunctionAgent", "Observation", "OracleAgent", "OracleSource", "RandomAgent", "SearchAgent", "load_agent"]
