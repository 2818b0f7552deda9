"""A slot-sharing ("pointer") actor-critic policy for sb3-contrib's ``MaskablePPO`` on the flat action space.

The flat action space (:class:`~cerebellum_gym.wrappers.FlatActionLayout`) has one ``T`` and one
``P`` index per label slot. A plain MLP over the flattened observation learns each slot's logit
with its own weights, so "tap the row that matters for this goal" has to be learnt again for
every slot position and every screen. :class:`SlotPointerPolicy` instead scores every label slot
with one shared network that reads that slot's element features together with the goal and a
summary of the screen; the logits of ``T slot i`` come from the same weights for every ``i``
(and likewise ``P``, and the ``K``/``F {text}`` candidate slots). The plain codes (``U D L R B
H W F I``) get a head on the screen summary. A separate MLP estimates the value.

The policy needs the encoded observation of :class:`~cerebellum_gym.wrappers.EncodeObservation`
(``goal``, ``screen``, ``slots``, ``texts``, ``masks``, ``history``; a ``screenshot`` entry is
ignored) and the layout's and encoder's configs, passed as ``policy_kwargs``; they are saved with
the model, so ``MaskablePPO.load`` (and ``SB3Agent.load``, ``sb3:PATH`` on the CLI) rebuilds it::

    from sb3_contrib import MaskablePPO
    from cerebellum_gym.agents.slot_policy import SlotPointerPolicy, slot_policy_kwargs

    model = MaskablePPO(SlotPointerPolicy, venv, policy_kwargs=slot_policy_kwargs(config))

This module imports torch; ``cerebellum_gym.wrappers`` itself does not.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from cerebellum_gym.core.actions import CODES
from cerebellum_gym.wrappers.actions import FlatActionLayout
from cerebellum_gym.wrappers.encoding import EncoderConfig, ObservationEncoder
from cerebellum_gym.wrappers.sb3 import SB3EnvConfig

#: Encoded observation entries the policy reads, in the order the extractor concatenates them.
KEYS = ("goal", "screen", "slots", "texts", "masks", "history")


def slot_policy_kwargs(config: SB3EnvConfig, hidden: int = 128) -> dict[str, Any]:
    """``policy_kwargs`` for :class:`SlotPointerPolicy` on envs built by ``make_sb3_env(config)`` (JSON-friendly)."""
    return {"layout": config.layout.to_dict(), "encoder": config.encoder.to_dict(), "hidden": int(hidden)}


class EncodedObsExtractor(BaseFeaturesExtractor):
    """Concatenates the encoded entries in :data:`KEYS` order (the policy slices them apart again)."""

    def __init__(self, observation_space: spaces.Dict) -> None:
        missing = [k for k in KEYS if k not in observation_space.spaces]
        if missing:
            raise ValueError(f"SlotPointerPolicy needs EncodeObservation's entries; missing {missing}")
        sizes = [int(np.prod(observation_space.spaces[k].shape or ())) for k in KEYS]
        super().__init__(observation_space, features_dim=sum(sizes))
        self.sizes = sizes

    def forward(self, observations: Mapping[str, th.Tensor]) -> th.Tensor:
        return th.cat([observations[k].flatten(1).float() for k in KEYS], dim=1)


def _mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in itertools.pairwise(sizes):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers)


class SlotActorCritic(nn.Module):
    """The actor (flat logits with slot-shared scorers) and the critic (an MLP), on the concatenated features.

    ``forward_actor`` returns the action logits themselves (the policy's ``action_net`` is the
    identity); ``forward_critic`` returns the value network's last hidden layer.
    """

    def __init__(self, layout: FlatActionLayout, encoder: EncoderConfig, hidden: int) -> None:
        super().__init__()
        enc = ObservationEncoder(encoder)
        self.layout = layout
        self.n_codes = len(CODES)
        self.max_labels = encoder.max_labels
        self.n_texts = max(encoder.max_texts, 1)
        self.token_dim = encoder.token_dim
        self.goal_dim = encoder.goal_dim
        self.slot_width = enc.slot_width
        self.text_width = enc.text_width
        sizes = {
            "goal": encoder.goal_dim,
            "screen": encoder.screen_dim,
            "slots": encoder.max_labels * enc.slot_width,
            "texts": self.n_texts * enc.text_width,
            "masks": self.n_codes + encoder.max_labels,
            "history": max(encoder.history_len, 1) * enc.history_width,
        }
        self.sizes = [sizes[k] for k in KEYS]
        context_in = sizes["goal"] + sizes["screen"] + self.n_codes + sizes["history"]
        # Per element: its features, its tokens gated by the goal's (folded onto the same buckets), its position.
        slot_in = enc.slot_width + self.token_dim + 1
        text_in = enc.text_width + self.token_dim
        self.context = _mlp([context_in, hidden])
        self.goal_gate = nn.Linear(encoder.goal_dim, hidden)
        self.slot_embed = _mlp([slot_in, hidden])
        self.text_embed = _mlp([text_in, hidden])
        self.summary = _mlp([2 * hidden, hidden])  # context + pooled slots
        self.slot_scorer = _mlp([3 * hidden, hidden])  # element, summary, element x goal
        self.text_scorer = _mlp([3 * hidden, hidden])
        segments = dict(layout.segments)
        plain = [name for name, _ in layout.segments if name not in ("T", "P", "K", "F text")]
        self.label_heads = nn.Linear(hidden, 2)  # T, P
        self.text_heads = nn.Linear(hidden, 2)  # K, F text
        self.code_head = nn.Linear(hidden, max(len(plain), 1))
        self.segment_names = [name for name, _ in layout.segments]
        self.segment_sizes = segments
        self.critic = _mlp([context_in + enc.slot_width, hidden, hidden])
        self.latent_dim_pi = layout.n
        self.latent_dim_vf = hidden

    def output_layers(self) -> list[nn.Module]:
        """The layers that produce logits (initialised small, so the first policy is near uniform)."""
        return [self.label_heads, self.text_heads, self.code_head]

    def _split(self, features: th.Tensor) -> dict[str, th.Tensor]:
        return dict(zip(KEYS, th.split(features, self.sizes, dim=1), strict=True))

    def _fold_goal(self, goal: th.Tensor) -> th.Tensor:
        # CRC-32 buckets: bucket % token_dim of a goal word is its bucket among token_dim (when goal_dim is a multiple).
        folded = goal.new_zeros(goal.shape[0], self.token_dim)
        for start in range(0, self.goal_dim, self.token_dim):
            chunk = goal[:, start : start + self.token_dim]
            folded[:, : chunk.shape[1]] = th.maximum(folded[:, : chunk.shape[1]], chunk)
        return folded

    def _context_input(self, parts: dict[str, th.Tensor]) -> th.Tensor:
        return th.cat([parts["goal"], parts["screen"], parts["masks"][:, : self.n_codes], parts["history"]], dim=1)

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        parts = self._split(features)
        batch = features.shape[0]
        goal = parts["goal"]
        folded = self._fold_goal(goal)
        slots = parts["slots"].view(batch, self.max_labels, self.slot_width)
        position = th.linspace(0.0, 1.0, self.max_labels, device=features.device).expand(batch, -1).unsqueeze(-1)
        slot_tokens = slots[:, :, 2:]
        elements = self.slot_embed(th.cat([slots, slot_tokens * folded.unsqueeze(1), position], dim=-1))
        filled = slots[:, :, :1]
        pooled = (elements * filled).sum(1) / filled.sum(1).clamp(min=1.0)
        summary = self.summary(th.cat([self.context(self._context_input(parts)), pooled], dim=1))
        gate = th.tanh(self.goal_gate(goal)).unsqueeze(1)
        wide = summary.unsqueeze(1)
        scored = self.slot_scorer(th.cat([elements, wide.expand(-1, self.max_labels, -1), elements * gate], dim=-1))
        label_logits = self.label_heads(scored)  # (batch, L, 2)

        texts = parts["texts"].view(batch, self.n_texts, self.text_width)
        text_elements = self.text_embed(th.cat([texts, texts[:, :, 1:] * folded.unsqueeze(1)], dim=-1))
        text_scored = self.text_scorer(th.cat([text_elements, wide.expand(-1, self.n_texts, -1), text_elements * gate], dim=-1))
        text_logits = self.text_heads(text_scored)  # (batch, C, 2)
        code_logits = self.code_head(summary)

        out: list[th.Tensor] = []
        plain = 0
        for name in self.segment_names:
            if name == "T":
                out.append(label_logits[:, : self.segment_sizes[name], 0])
            elif name == "P":
                out.append(label_logits[:, : self.segment_sizes[name], 1])
            elif name == "K":
                out.append(text_logits[:, : self.segment_sizes[name], 0])
            elif name == "F text":
                out.append(text_logits[:, : self.segment_sizes[name], 1])
            else:
                out.append(code_logits[:, plain : plain + 1])
                plain += 1
        return th.cat(out, dim=1)

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        parts = self._split(features)
        slots = parts["slots"].view(features.shape[0], self.max_labels, self.slot_width)
        filled = slots[:, :, :1]
        pooled = (slots * filled).sum(1) / filled.sum(1).clamp(min=1.0)
        return self.critic(th.cat([self._context_input(parts), pooled], dim=1))

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)


class SlotPointerPolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` whose actor scores label slots with one shared network (see the module docstring).

    Args:
        observation_space, action_space, lr_schedule: as for any SB3 policy.
        layout: :meth:`FlatActionLayout.to_dict` of the env's flat action layout.
        encoder: :meth:`EncoderConfig.to_dict` of the env's observation encoder.
        hidden: width of the hidden layers.
        kwargs: passed on to ``MaskableActorCriticPolicy`` (``net_arch`` and
            ``features_extractor_class`` are fixed by this policy).
    """

    def __init__(
        self,
        observation_space: spaces.Dict,
        action_space: spaces.Discrete,
        lr_schedule: Any,
        layout: Mapping[str, Any] | None = None,
        encoder: Mapping[str, Any] | None = None,
        hidden: int = 128,
        **kwargs: Any,
    ) -> None:
        if layout is None or encoder is None:
            raise ValueError("SlotPointerPolicy needs policy_kwargs layout and encoder (see slot_policy_kwargs)")
        self.layout_config = dict(layout)
        self.encoder_config = dict(encoder)
        self.hidden = int(hidden)
        self._layout = FlatActionLayout(**self.layout_config)
        if int(action_space.n) != self._layout.n:
            raise ValueError(f"action space has {action_space.n} actions but the layout {self._layout.n}")
        kwargs.pop("net_arch", None)
        kwargs.pop("features_extractor_class", None)
        kwargs.pop("features_extractor_kwargs", None)
        super().__init__(observation_space, action_space, lr_schedule, net_arch=[], features_extractor_class=EncodedObsExtractor, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = SlotActorCritic(self._layout, EncoderConfig.from_dict(self.encoder_config), self.hidden)  # type: ignore[assignment]

    def _build(self, lr_schedule: Any) -> None:
        self._build_mlp_extractor()
        self.action_net = nn.Identity()
        self.value_net = nn.Linear(self.mlp_extractor.latent_dim_vf, 1)
        if self.ortho_init:
            self.mlp_extractor.apply(lambda m: self.init_weights(m, gain=float(np.sqrt(2))))
            for layer in self.mlp_extractor.output_layers():  # type: ignore[operator]
                layer.apply(lambda m: self.init_weights(m, gain=0.01))
            self.value_net.apply(lambda m: self.init_weights(m, gain=1.0))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)  # type: ignore[call-arg]

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(layout=self.layout_config, encoder=self.encoder_config, hidden=self.hidden)
        for key in ("net_arch", "features_extractor_class", "features_extractor_kwargs"):
            data.pop(key, None)
        return data
