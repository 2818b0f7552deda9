"""Play a trained Stable-Baselines3 ``MaskablePPO`` policy as a cerebellum agent.

The model's zip carries the :class:`~cerebellum_gym.wrappers.SB3EnvConfig` it was trained
with (a ``cerebellum_gym.json`` member that SB3 itself ignores), so the agent applies the same
flat action layout and observation encoder to raw observations, masks included. That is what
lets the evaluation CLI load it as ``sb3:PATH``.

Typed texts (``K`` and ``F {text}`` slots) need the task's candidate strings; they are read,
in order, from the observation's ``text_candidates`` entry (present behind
:class:`~cerebellum_gym.wrappers.FlatActions`), from the ``oracle`` source passed to
:meth:`SB3Agent.act_batch` when it offers ``text_candidates()``, and otherwise from the goal
text itself (quoted phrases and numbers: see :func:`goal_text_candidates`).
"""

from __future__ import annotations

import inspect
import json
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from cerebellum_gym.agents.base import Agent, Observation, OracleSource
from cerebellum_gym.wrappers.actions import task_text_candidates
from cerebellum_gym.wrappers.encoding import ObservationEncoder
from cerebellum_gym.wrappers.sb3 import SB3EnvConfig

#: Name of the zip member that carries the env config.
CONFIG_MEMBER = "cerebellum_gym.json"
#: The policy's class and constructor arguments (JSON), and its weights (safetensors).
POLICY_MEMBER = "cerebellum_policy.json"
WEIGHTS_MEMBER = "cerebellum_policy.safetensors"
#: Policy classes a saved model may name; nothing else is ever constructed from a file.
POLICY_NAMES = ("slot", "multi-input")

_QUOTED_RE = re.compile(r"[\"“']([^\"”']+)[\"”']")
_NUMBER_RE = re.compile(r"\+?\d[\d\-(). ]*\d|\d")


def goal_text_candidates(goal: str) -> list[str]:
    """Texts a discrete agent may type when nothing better is known: quoted phrases, then numbers.

    Example:
        >>> goal_text_candidates('Add a note titled "Groceries" with 3 items, call +15550100134.')
        ['Groceries', '3', '+15550100134']
    """
    found: list[str] = []
    for match in _QUOTED_RE.finditer(goal):
        found.append(match.group(1).strip())
    for match in _NUMBER_RE.finditer(goal):
        found.append(match.group(0).strip().rstrip("."))
    seen: set[str] = set()
    return [t for t in found if t and not (t in seen or seen.add(t))]  # type: ignore[func-returns-value]


def save_config(path: str | Path, config: SB3EnvConfig, extra: dict[str, bytes] | None = None) -> None:
    """Add (or replace) the env config, and any ``extra`` members, inside a saved SB3 model zip."""
    path = Path(path)
    extra = extra or {}
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist() if name != CONFIG_MEMBER and name not in extra}
    members.update(extra)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
        archive.writestr(CONFIG_MEMBER, config.to_json())


def load_config(path: str | Path) -> SB3EnvConfig:
    """The env config saved inside a model zip by :func:`save_config`.

    Raises:
        ValueError: the zip has no config (it was not saved by cerebellum-gym's trainer).
    """
    with zipfile.ZipFile(path) as archive:
        if CONFIG_MEMBER not in archive.namelist():
            raise ValueError(f"{path} has no {CONFIG_MEMBER}: save models with cerebellum_gym.agents.sb3_agent.save_model")
        return SB3EnvConfig.from_json(archive.read(CONFIG_MEMBER).decode("utf-8"))


def _policy_name(policy: Any) -> str:
    from cerebellum_gym.agents.slot_policy import SlotPointerPolicy

    return "slot" if isinstance(policy, SlotPointerPolicy) else "multi-input"


def save_model(model: Any, path: str | Path, config: SB3EnvConfig) -> Path:
    """Save a trained model so :meth:`SB3Agent.load` can play it. Returns the zip path.

    The zip is SB3's own (``MaskablePPO.load`` continues training from it) plus three members of
    ours: the env config, the policy's class name and JSON constructor arguments, and its weights
    as safetensors. Playing a model reads only those three: SB3's own members include pickled
    objects, which would run code from the file.
    """
    from safetensors.torch import save as save_tensors

    path = Path(path)
    if path.suffix != ".zip":
        path = path.with_name(path.name + ".zip")
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(path)
    spec = {"policy": _policy_name(model.policy), "policy_kwargs": dict(model.policy_kwargs or {})}
    try:
        spec_json = json.dumps(spec, sort_keys=True).encode("utf-8")
    except TypeError as exc:
        raise ValueError(f"policy_kwargs must be JSON data to be saved safely: {exc}") from exc
    weights = save_tensors({name: tensor.detach().cpu().contiguous() for name, tensor in model.policy.state_dict().items()})
    save_config(path, config, extra={POLICY_MEMBER: spec_json, WEIGHTS_MEMBER: weights})
    return path


def load_policy(path: str | Path, config: SB3EnvConfig, device: str = "cpu") -> Any:
    """The policy saved by :func:`save_model`, rebuilt from JSON and safetensors only.

    Raises:
        ValueError: the zip lacks our policy members or names an unknown policy class.
    """
    from gymnasium import spaces
    from safetensors.torch import load as load_tensors

    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        if POLICY_MEMBER not in names or WEIGHTS_MEMBER not in names:
            raise ValueError(f"{path} has no {WEIGHTS_MEMBER}: re-save it with cerebellum_gym.agents.sb3_agent.save_model")
        spec = json.loads(archive.read(POLICY_MEMBER).decode("utf-8"))
        weights = load_tensors(archive.read(WEIGHTS_MEMBER))
    name = spec.get("policy")
    if name == "slot":
        from cerebellum_gym.agents.slot_policy import SlotPointerPolicy

        policy_cls: Any = SlotPointerPolicy
    elif name == "multi-input":
        from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy

        policy_cls = MaskableMultiInputActorCriticPolicy
    else:
        raise ValueError(f"{path} names policy {name!r}; known: {', '.join(POLICY_NAMES)}")
    observation_space = ObservationEncoder(config.encoder).observation_space
    policy = policy_cls(observation_space, spaces.Discrete(config.layout.n), lr_schedule=lambda _: 0.0, **spec.get("policy_kwargs", {}))
    policy.load_state_dict(weights)
    policy.set_training_mode(False)
    return policy.to(device)


class SB3Agent(Agent):
    """A trained (Maskable)PPO policy behind the agent interface.

    Args:
        model: a Stable-Baselines3 model with ``predict(obs, deterministic=..., action_masks=...)``
            (sb3-contrib's ``MaskablePPO``); models without ``action_masks`` support get none.
        config: the env config the model was trained with.
        deterministic: take the most likely legal action (``False`` samples).
        name: shown in result tables.
    """

    def __init__(self, model: Any, config: SB3EnvConfig, deterministic: bool = True, name: str | None = None) -> None:
        self.model = model
        self.config = config
        self.layout = config.layout
        self.encoder = ObservationEncoder(config.encoder)
        self.deterministic = deterministic
        self.name = name or f"{type(model).__name__}"
        # Plain SB3 models take no masks; sb3-contrib's maskable ones do.
        self._masked = "action_masks" in inspect.signature(model.predict).parameters
        self.needs_pixels = config.encoder.screenshot_size is not None

    @classmethod
    def load(cls, path: str | Path, deterministic: bool = True, device: str = "cpu", **_: Any) -> SB3Agent:
        """Load a zip written by :func:`save_model` (what ``sb3:PATH`` on the CLI does).

        Args:
            path: the model zip (``.zip`` may be left off).
            deterministic: see the class.
            device: torch device for the policy.

        Raises:
            FileNotFoundError: no such file.
            ValueError: the zip carries no cerebellum env config.
        """
        path = Path(path)
        if not path.exists() and path.with_name(path.name + ".zip").exists():
            path = path.with_name(path.name + ".zip")
        if not path.exists():
            raise FileNotFoundError(f"no SB3 model at {path}")
        config = load_config(path)
        return cls(load_policy(path, config, device), config, deterministic=deterministic, name=f"maskable-ppo ({path.stem})")

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            import torch

            torch.manual_seed(seed)

    def act(self, observation: Observation) -> str:
        return self.act_batch([observation])[0]

    def act_env(self, env: Any, observation: Observation) -> str:
        """The action for ``observation`` of a single raw env, reading candidate texts from its task."""
        return self.act_batch([{**observation, "text_candidates": task_text_candidates(env)}])[0]

    def act_batch(self, observations: Sequence[Observation], oracle: OracleSource | None = None) -> list[str]:
        """One forward pass for the whole batch; masks keep every action legal."""
        if not observations:
            return []
        texts = self._texts(observations, oracle)
        encoded = self.encoder.encode_batch(observations, texts)
        masks = np.stack([self.layout.observation_mask(obs, t) for obs, t in zip(observations, texts, strict=True)])
        if self._masked:
            actions, _ = self.model.predict(encoded, deterministic=self.deterministic, action_masks=masks)
        else:
            actions, _ = self.model.predict(encoded, deterministic=self.deterministic)
        out: list[str] = []
        for picked, obs, t, mask in zip(np.asarray(actions).reshape(-1), observations, texts, masks, strict=True):
            # An unmasked model may pick an illegal index; fall back to the first legal one.
            index = int(picked) if mask[int(picked)] else int(np.flatnonzero(mask)[0])
            out.append(self.layout.decode(index, tuple(obs.get("labels", ())), t))
        return out

    def _texts(self, observations: Sequence[Observation], oracle: OracleSource | None) -> list[tuple[str, ...]]:
        from_source: Sequence[Sequence[str]] | None = None
        getter = getattr(oracle, "text_candidates", None)
        if callable(getter):
            from_source = getter()
        texts: list[tuple[str, ...]] = []
        for i, obs in enumerate(observations):
            if "text_candidates" in obs:
                found: Sequence[str] = obs["text_candidates"]
            elif from_source is not None and i < len(from_source):
                found = from_source[i]
            else:
                found = goal_text_candidates(str(obs.get("goal", "")))
            texts.append(tuple(str(t) for t in found)[: self.layout.max_texts])
        return texts
