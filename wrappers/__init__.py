"""Gymnasium wrappers for cerebellum-gym environments (installed as ``cerebellum_gym.wrappers``).

- :class:`FlatActions`: a ``Discrete`` action space over (code, label slot) and candidate texts,
  with ``action_masks()`` for sb3-contrib's ``MaskablePPO``.
- :class:`EncodeObservation`: fixed-size arrays (hashed goal, tree and per-slot tokens, masks,
  history, optionally a downscaled screenshot) for SB3's ``MultiInputPolicy``.
- :class:`ShapedReward`: success bonus, step cost and episodic novelty bonus.
- :class:`CatchEnvErrors`: keeps long training runs alive through env faults (counted).
- :func:`make_sb3_env` / :class:`SB3EnvConfig`: the three together, from a JSON-friendly config.

Every wrapper subclasses ``gym.Wrapper`` and ``gym.utils.RecordConstructorArgs``, so
``gym.make(env.spec)`` rebuilds a wrapped env.
"""

from __future__ import annotations

from cerebellum_gym.wrappers.actions import FlatActionLayout, FlatActions, task_text_candidates
from cerebellum_gym.wrappers.encoding import EncodeObservation, EncoderConfig, ObservationEncoder
from cerebellum_gym.wrappers.guard import CatchEnvErrors
from cerebellum_gym.wrappers.rewards import ShapedReward, screen_signature
from cerebellum_gym.wrappers.sb3 import SB3EnvConfig, make_sb3_env

__all__ = [
    "CatchEnvErrors",
    "EncodeObservation",
    "EncoderConfig",
    "FlatActionLayout",
    "FlatActions",
    "ObservationEncoder",
    "SB3EnvConfig",
    "ShapedReward",
    "make_sb3_env",
    "screen_signature",
    "task_text_candidates",
]
