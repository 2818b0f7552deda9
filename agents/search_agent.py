"""The search agent: a best-first search over the action codes on the env's own episode states.

Privileged (it reads the task's judge and restores the env's states), so an upper bound of
another kind than the oracle's: where the oracle knows each task's way, the search finds one,
guided by the judge's progress and the goal's words, within ``budget`` steps per decision
(:mod:`cerebellum_gym.search`). It runs on in-process vector envs of the embedded simulator.
"""

from __future__ import annotations

from collections.abc import Sequence

from cerebellum_gym.agents.base import Agent, Observation, OracleSource
from cerebellum_gym.errors import CerebellumError, ConfigError


class SearchAgent(Agent):
    """Plays a best-first search's plan (``--agent search:budget=N``).

    Args:
        budget: env steps the search may spend per decision (a plan that succeeds is followed
            without searching again).
    """

    privileged = True
    needs_pixels = False

    def __init__(self, budget: int = 500) -> None:
        if int(budget) < 1:
            raise ConfigError(f"the search agent's budget must be at least 1 step, got {budget}")
        self.budget = int(budget)
        self.name = f"search budget={self.budget} (privileged)"

    def act(self, observation: Observation) -> str:
        raise CerebellumError("the search agent reads the env, not the observation; use act_batch(..., oracle=...)")

    def act_batch(self, observations: Sequence[Observation], oracle: OracleSource | None = None) -> list[str]:
        search = getattr(oracle, "search_actions", None)
        if search is None:
            raise CerebellumError("the search agent needs the envs (the evaluation harness passes them)")
        return list(search(self.budget))
