"""The oracle agent: each task's scripted solver. Privileged: an upper bound, not a baseline."""

from __future__ import annotations

from collections.abc import Sequence

from cerebellum_gym.agents.base import Agent, Observation, OracleSource
from cerebellum_gym.errors import CerebellumError


class OracleAgent(Agent):
    """Plays the task's scripted oracle, which reads the live labelled screen.

    It needs the env (an :class:`OracleSource`: the evaluation harness passes one; for a single
    env, :meth:`act_env` asks it directly). Results are labelled "oracle (privileged)".
    """

    name = "oracle (privileged)"
    privileged = True
    needs_pixels = False

    def act(self, observation: Observation) -> str:
        raise CerebellumError("the oracle agent reads the env, not the observation; use act_batch(..., oracle=...) or act_env(env)")

    def act_batch(self, observations: Sequence[Observation], oracle: OracleSource | None = None) -> list[str]:
        if oracle is None:
            raise CerebellumError("the oracle agent needs an oracle source (the evaluation harness passes the envs)")
        return list(oracle.oracle_actions())

    @staticmethod
    def act_env(env: object) -> str:
        """The oracle's next action for a single (possibly wrapped) cerebellum env."""
        return str(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
