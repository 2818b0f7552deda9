"""One place that builds a cerebellum env ready for Stable-Baselines3, from a JSON-friendly config.

The same :class:`SB3EnvConfig` is saved inside a trained model's zip, so
:class:`~cerebellum_gym.agents.sb3_agent.SB3Agent` applies the very same action layout and
observation encoder to raw observations at evaluation time.

Example:
    >>> from stable_baselines3.common.env_checker import check_env
    >>> env = make_sb3_env(SB3EnvConfig(tasks=("SystemWifiTurnOn",)))
    >>> check_env(env)  # SB3's own checker
    >>> obs, info = env.reset(seed=0)
    >>> bool(env.action_space.n == env.get_wrapper_attr("layout").n), env.action_masks().dtype
    (True, dtype('bool'))
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import gymnasium as gym

from cerebellum_gym.core.actions import CODES
from cerebellum_gym.wrappers.actions import FlatActionLayout, FlatActions
from cerebellum_gym.wrappers.encoding import EncodeObservation, EncoderConfig
from cerebellum_gym.wrappers.guard import CatchEnvErrors
from cerebellum_gym.wrappers.rewards import ShapedReward


@dataclass(frozen=True)
class SB3EnvConfig:
    """Everything needed to rebuild the training env, and to encode raw observations the same way.

    Attributes:
        tasks: task names drawn per episode (empty: every registered task).
        env_id: the gymnasium id.
        env_kwargs: extra keyword options for ``gym.make`` (``pixels`` is set from the encoder).
        max_labels: label slots (env, action layout and encoder agree on it).
        max_texts: candidate text slots.
        codes: codes the flat action space offers.
        answer_texts: whether ``F {text}`` slots exist.
        token_dim, goal_dim, screen_dim, history_len, screenshot_size: see :class:`EncoderConfig`.
        success_requires_done: passed to the env (``True`` is AndroidWorld's rule: success needs ``F``).
        success_bonus, step_cost, novelty_bonus: see :class:`ShapedReward`; all zero leaves
            the env's reward untouched (no shaping wrapper).
        catch_env_errors: wrap the env in :class:`CatchEnvErrors` (long training runs).
    """

    tasks: tuple[str, ...] = ()
    env_id: str = "Cerebellum-Sim-v0"
    env_kwargs: Mapping[str, Any] = field(default_factory=dict)
    max_labels: int = 64
    max_texts: int = 4
    codes: str = CODES
    answer_texts: bool = True
    token_dim: int = 32
    goal_dim: int = 64
    screen_dim: int = 128
    history_len: int = 2
    screenshot_size: tuple[int, int] | None = None
    success_requires_done: bool = True
    success_bonus: float = 1.0
    step_cost: float = 0.01
    novelty_bonus: float = 0.0
    catch_env_errors: bool = False

    @property
    def layout(self) -> FlatActionLayout:
        """The flat action codec."""
        return FlatActionLayout(max_labels=self.max_labels, max_texts=self.max_texts, codes=self.codes, answer_texts=self.answer_texts)

    @property
    def encoder(self) -> EncoderConfig:
        """The observation encoder's config."""
        return EncoderConfig(
            max_labels=self.max_labels,
            max_texts=self.max_texts,
            token_dim=self.token_dim,
            goal_dim=self.goal_dim,
            screen_dim=self.screen_dim,
            history_len=self.history_len,
            screenshot_size=self.screenshot_size,
        )

    def to_json(self) -> str:
        """JSON text; :meth:`from_json` inverts it."""
        data = asdict(self)
        data["tasks"] = list(self.tasks)
        data["env_kwargs"] = dict(self.env_kwargs)
        data["screenshot_size"] = list(self.screenshot_size) if self.screenshot_size is not None else None
        return json.dumps(data, indent=2, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> SB3EnvConfig:
        """Rebuild from :meth:`to_json`'s output."""
        data = json.loads(text)
        data["tasks"] = tuple(data.get("tasks", ()))
        size = data.get("screenshot_size")
        data["screenshot_size"] = tuple(size) if size is not None else None
        return cls(**data)


def make_sb3_env(config: SB3EnvConfig, **env_overrides: Any) -> gym.Env[Any, Any]:
    """The env for SB3: ``gym.make`` -> :class:`FlatActions` -> :class:`ShapedReward` -> :class:`EncodeObservation`.

    Args:
        config: what to build.
        env_overrides: keyword options for ``gym.make`` that win over ``config.env_kwargs``
            (for example ``success_requires_done=True`` for evaluation).
    """
    kwargs: dict[str, Any] = {
        "pixels": config.screenshot_size is not None,
        "max_labels": config.max_labels,
        "success_requires_done": config.success_requires_done,
        **dict(config.env_kwargs),
        **env_overrides,
    }
    if config.tasks:
        kwargs["task"] = list(config.tasks)
    env: gym.Env[Any, Any] = gym.make(config.env_id, **kwargs)
    if config.catch_env_errors:
        env = CatchEnvErrors(env)
    env = FlatActions(env, max_labels=config.max_labels, max_texts=config.max_texts, codes=config.codes, answer_texts=config.answer_texts)
    if config.success_bonus or config.step_cost or config.novelty_bonus:
        env = ShapedReward(env, success_bonus=config.success_bonus, step_cost=config.step_cost, novelty_bonus=config.novelty_bonus)
    return EncodeObservation(
        env,
        max_labels=config.max_labels,
        max_texts=config.max_texts,
        token_dim=config.token_dim,
        goal_dim=config.goal_dim,
        screen_dim=config.screen_dim,
        history_len=config.history_len,
        screenshot_size=config.screenshot_size,
    )
