"""The reference agent (Qwen3.5 + LoRA) as an :class:`~cerebellum_gym.training.rl_policy.RLPolicy`.

Sampling is the agent's own constrained ``decide_batch`` (one left-padded batched ``generate``
per env step, each row under its screen's constraint); scoring is
:class:`~cerebellum_gym.agents.qwen_scorer.ActionScorer`, the teacher-forced, constraint-masked
log-probability of the very tokens sampled (equal to the sampler's). Only the LoRA tensors train;
the KL reference is the starting adapter, kept as a copy of its tensors and swapped in for the
reference pass (no second model in memory).

``qwen:BASE`` without an adapter starts a new LoRA (``B = 0``: the base model's own policy at the
start), as ``train sft`` does. Answers cut by the token cap (``max_text_tokens``,
32 by default for rollouts) fall back to a legal action the tokens do not spell; those steps are
sent but left out of the update (``unended`` in the log).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from cerebellum_gym.agents.base import Agent
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.training.prompt_cache import PackedItem
from cerebellum_gym.training.rl_policy import POLICY_CONFIG, StepSample

ADAPTER_WEIGHTS: Final = "adapter_model.safetensors"
#: Generated tokens per answer during rollouts (typed text is the long case).
ROLLOUT_TEXT_TOKENS: Final = 32


class QwenRLPolicy:
    """The Qwen agent's constrained sampler and scorer behind the trainer's policy interface.

    Args:
        agent: a :class:`~cerebellum_gym.agents.qwen_agent.QwenActionAgent` whose model is a PEFT
            model with trainable LoRA tensors.
        base: the base model's id or folder (saved beside the adapter, for ``qwen:BASE,FOLDER``).
    """

    needs_texts = False

    def __init__(self, agent: Any, base: str) -> None:
        from cerebellum_gym.agents.qwen_scorer import ActionScorer

        self.agent = agent
        self.base = base
        self.name = f"qwen-rl:{Path(base).name}"
        self.needs_pixels = bool(agent.needs_pixels)
        self.scorer = ActionScorer(agent)
        self._lora = [(n, p) for n, p in agent.model.named_parameters() if p.requires_grad]
        if not self._lora:
            raise CerebellumError("the Qwen policy has no trainable LoRA tensors (load the adapter with trainable=True)")
        self._reference = {n: p.detach().clone() for n, p in self._lora}

    # --- the RLPolicy interface --------------------------------------------------------------

    def sample(self, observations: Sequence[Mapping[str, Any]], *, temperature: float, generator: Any) -> list[StepSample]:
        from cerebellum_gym.agents.qwen_scorer import ScoreItem

        if not observations:
            return []
        decisions = self.agent.decide_batch(list(observations), temperature=temperature, generator=generator)
        out = []
        for d in decisions:
            item = ScoreItem(d.prompt, d.constraint, list(d.token_ids), d.temperature or 1.0)
            # An answer cut by the token cap was replaced by a fallback its tokens do not spell: not trained on.
            out.append(StepSample(d.action, tuple(d.token_ids), float(d.logprob), self._keep(item), trainable=bool(d.ended)))
        return out

    def _keep(self, item: Any) -> PackedItem:
        """A step's row as the rollout keeps it until the update: packed (an update holds every
        step of its episodes; encoded, each would hold megabytes of patches)."""
        return PackedItem.of(item, self.agent.image_processor)

    def allows(self, step: StepSample) -> bool:
        """Whether the step's constraint decodes what it sends: its tokens (less the end) or,
        for a fallback, one of the constraint's complete actions."""
        constraint = step.context.constraint
        if step.trainable:
            return bool(constraint.accepts(list(step.tokens[:-1])))
        if step.action.encode("utf-8") in set(constraint.complete):
            return True
        # Free text cut at the token cap: sent as the agent finishes what its tokens spell.
        tokens = list(step.tokens)
        return bool(constraint.accepts_prefix(tokens)) and self.agent._finish(constraint, constraint.table.spell(tokens)) == step.action

    def force(self, observations: Sequence[Mapping[str, Any]], actions: Sequence[str]) -> list[StepSample]:
        out = []
        for obs, action in zip(observations, actions, strict=True):
            item = self.scorer.item(obs, action, step=int(obs.get("step", 0)) + 1)
            out.append(StepSample(action, tuple(item.token_ids), math.nan, self._keep(item)))
        return out

    def greedy(self, observations: Sequence[Mapping[str, Any]]) -> list[str]:
        return [d.action for d in self.agent.decide_batch(list(observations), temperature=0.0)]

    def eval_agent(self, temperature: float = 0.0) -> Agent:
        """The agent itself (greedy, or sampled at ``temperature``), for the gates: it numbers
        steps per slot as in ``eval``."""
        self.agent.temperature = temperature
        agent: Agent = self.agent
        return agent

    def token_logprobs(self, steps: Sequence[StepSample], *, temperature: float, reference: bool = False) -> tuple[Any, Any]:
        import torch

        items = [s.context.unpacked(self.agent.image_processor, temperature) for s in steps]
        if not reference:
            out = self.scorer.score(items)
            return out.token_logprobs, out.token_mask
        current = {n: p.detach().clone() for n, p in self._lora}
        try:
            self._assign(self._reference)
            with torch.no_grad():
                out = self.scorer.score(items)
        finally:
            self._assign(current)
        return out.token_logprobs, out.token_mask

    def parameters(self) -> list[Any]:
        return [p for _, p in self._lora]

    def save(self, folder: Path) -> None:
        from safetensors.torch import save_file

        folder.mkdir(parents=True, exist_ok=True)
        self.agent.model.save_pretrained(str(folder), safe_serialization=True)
        # The adapter's own tensors under PEFT's names, read back exactly by load().
        save_file({n: p.detach().contiguous() for n, p in self._lora}, str(folder / "rl_lora.safetensors"))
        (folder / POLICY_CONFIG).write_text(json.dumps({"kind": "qwen", "base": self.base}, indent=2))

    def load(self, folder: Path) -> None:
        self._assign(_read(folder))

    def freeze_reference(self, folder: Path | None = None) -> None:
        self._reference = _read(folder) if folder is not None else {n: p.detach().clone() for n, p in self._lora}

    # --- internals ---------------------------------------------------------------------------

    def _assign(self, state: Mapping[str, Any]) -> None:
        import torch

        missing = [n for n, _ in self._lora if n not in state]
        if missing:
            raise CerebellumError(f"the saved adapter does not fit this model ({len(missing)} LoRA tensors missing, e.g. {missing[0]})")
        with torch.no_grad():
            for n, p in self._lora:
                p.copy_(state[n].to(p.device, p.dtype))


def _read(folder: Path) -> dict[str, Any]:
    from safetensors.torch import load_file

    path = folder / "rl_lora.safetensors"
    if not path.is_file():
        raise CerebellumError(f"{folder} holds no RL adapter state (rl_lora.safetensors)")
    return load_file(str(path))


def build(spec: str, *, seed: int) -> QwenRLPolicy:
    """The policy of ``qwen:BASE[,ADAPTER][?options]`` (options as the eval agent's spec): the
    adapter loaded trainable, or a new LoRA (:func:`~cerebellum_gym.training.common.load_policy`)."""
    from cerebellum_gym.agents.qwen_agent import parse_qwen_spec
    from cerebellum_gym.training.common import load_policy

    base, adapter, options = parse_qwen_spec(spec)
    unknown = sorted(set(options) - {"device", "dtype", "use_images", "max_text_tokens"})
    if unknown:
        raise CerebellumError(f"qwen: option(s) {', '.join(unknown)} do not apply to training")
    agent = load_policy(
        base,
        adapter,
        device=options.get("device", "auto"),
        dtype=options.get("dtype", "auto"),
        use_images=options.get("use_images", True),
        max_text_tokens=options.get("max_text_tokens", ROLLOUT_TEXT_TOKENS),
        seed=seed,
    )
    agent.model.eval()  # no dropout: sampling and scoring see the same function
    return QwenRLPolicy(agent, base)
