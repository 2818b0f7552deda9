"""Keep long training runs alive through env faults: end the episode, count it, carry on."""

from __future__ import annotations

import traceback
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

from cerebellum_gym.errors import InvalidActionError


class CatchEnvErrors(gym.Wrapper[Any, Any, Any, Any], gym.utils.RecordConstructorArgs):
    """Turn an unexpected exception from ``step`` into a truncated episode with ``info["env_error"]``.

    The env already reports device faults as ``info["infra_error"]``; this catches what escapes
    it (a simulator bug hit by random exploration), so hours of training are not lost to one
    rare crash. Every fault is counted in :attr:`errors` and its traceback kept in
    :attr:`last_error`: read them, and report the bug. Invalid actions still raise if the env
    is set to raise them.

    Args:
        env: any env; put it directly around the cerebellum env (inside action wrappers).
    """

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)
        self.errors = 0
        self.last_error = ""
        self._last_obs: Any = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        self._last_obs = obs
        return obs, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        try:
            obs, reward, terminated, truncated, info = self.env.step(action)
        except InvalidActionError:
            raise
        except Exception as exc:  # the point: anything a buggy env throws
            self.errors += 1
            self.last_error = traceback.format_exc()
            info = {"success": False, "invalid_action": False, "infra_error": "", "env_error": f"{type(exc).__name__}: {exc}"}
            return self._last_obs, 0.0, False, True, info
        self._last_obs = obs
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Forwarded from an inner wrapper, if any."""
        return np.asarray(self.env.get_wrapper_attr("action_masks")())
