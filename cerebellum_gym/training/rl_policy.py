"""What the RL trainer needs of a policy, and a small torch policy that has it.

The trainer (:mod:`cerebellum_gym.training.rl`) talks to a policy through :class:`RLPolicy`
only: sample constrained actions for a batch of observations (one call per env step for the
whole batch), give the records of given actions (positive replay), and score records
differentiably, under the policy being trained or under the frozen reference it started from.
A record's ``tokens`` are the constrained decoder's choices (the LLM's answer tokens; the small
policy's one flat index), so the log-probabilities optimised are those of the constrained policy.

:class:`TinySlotPolicy` is a masked softmax over the project's flat action layout
(:class:`~cerebellum_gym.wrappers.FlatActionLayout`), reading the project's hashed observation
features (:class:`~cerebellum_gym.wrappers.ObservationEncoder`): labels come from the screen,
codes from the ``action_mask``, texts from the task's candidates. It is what tests and the CPU
benchmark train, independent of any language model.

Example:
    >>> import torch
    >>> from cerebellum_gym.wrappers import FlatActionLayout
    >>> policy = TinySlotPolicy(FlatActionLayout(max_labels=4, max_texts=0, codes="TBF"), seed=0)
    >>> obs = {"goal": "Turn wifi on.", "tree": '[AB] Switch "Wi-Fi"', "labels": ("AB",),
    ...        "action_mask": [1] * 12, "label_mask": [1, 0, 0, 0]}
    >>> step = policy.sample([obs], temperature=1.0, generator=torch.Generator().manual_seed(0))[0]
    >>> step.action in ("T AB", "B", "F"), step.tokens[0] in (0, 4, 5)
    (True, True)
"""

from __future__ import annotations

import copy
import itertools
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

import numpy as np

from cerebellum_gym.core.actions import CODES, parse_action
from cerebellum_gym.errors import CerebellumError, InvalidActionError
from cerebellum_gym.wrappers.actions import FlatActionLayout
from cerebellum_gym.wrappers.encoding import EncoderConfig, ObservationEncoder

Observation = Mapping[str, Any]
POLICY_CONFIG: Final = "policy.json"
POLICY_WEIGHTS: Final = "policy.safetensors"


@dataclass
class StepSample:
    """One step's action as the policy chose (or was given) it.

    Attributes:
        action: the action string sent to the env.
        tokens: the decoder's choices that spell it (answer tokens; one flat index for the small policy).
        logprob: their summed log-probability under the policy that sampled them (``nan`` when
            the action was given, not sampled: positive replay fills it in before the update).
        context: whatever the policy needs to score the tokens again (the encoded prompt).
        trainable: whether the update may use the step (``False``: the tokens do not spell the
            action sent, as an answer cut by the token cap that fell back to a legal one).
    """

    action: str
    tokens: tuple[int, ...]
    logprob: float
    context: Any
    trainable: bool = True


class RLPolicy(Protocol):
    """The policy interface of the RL trainer."""

    name: str
    #: Whether observations need screenshots (the env is built with ``pixels`` to match).
    needs_pixels: bool
    #: Whether observations should carry ``text_candidates`` (the task's texts to type).
    needs_texts: bool

    def sample(self, observations: Sequence[Observation], *, temperature: float, generator: Any) -> list[StepSample]:
        """One constrained, sampled action per observation (one batched model call)."""
        ...

    def force(self, observations: Sequence[Observation], actions: Sequence[str]) -> list[StepSample]:
        """Records of the given actions (they must be legal on their screens); ``logprob`` nan."""
        ...

    def greedy(self, observations: Sequence[Observation]) -> list[str]:
        """The most likely constrained action per observation (evaluation)."""
        ...

    def token_logprobs(self, steps: Sequence[StepSample], *, temperature: float, reference: bool = False) -> tuple[Any, Any]:
        """``(logprobs, mask)``, both ``(len(steps), T)``: each record's token log-probabilities
        under the constrained policy (differentiable) or, with ``reference``, under the frozen
        reference (no gradient); ``mask`` marks real tokens."""
        ...

    def parameters(self) -> list[Any]:
        """The trainable tensors."""
        ...

    def save(self, folder: Path) -> None:
        """Write the trainable weights (safetensors) and what :meth:`load` needs."""
        ...

    def load(self, folder: Path) -> None:
        """Read back weights written by :meth:`save`."""
        ...

    def freeze_reference(self, folder: Path | None = None) -> None:
        """Take the current weights (or those saved in ``folder``) as the frozen KL reference."""
        ...


def legal_action(action: str, observation: Observation) -> bool:
    """Whether the constrained decoder could produce ``action`` on ``observation``'s screen:
    its code allowed by the ``action_mask``, a ``T``/``P`` label among the labels shown, text of
    ``K``/``F`` not only whitespace. The trainer checks every action against this before the env sees it."""
    try:
        parsed = parse_action(action)
    except InvalidActionError:
        return False
    mask = observation.get("action_mask")
    if mask is not None and not bool(np.asarray(mask)[CODES.index(parsed.code)]):
        return False
    if parsed.code in "TP":
        return parsed.label in tuple(observation.get("labels", ()))
    if parsed.code == "K":
        return bool(parsed.text and parsed.text.strip())
    return True


def _mlp(sizes: Sequence[int]) -> Any:
    from torch import nn

    layers: list[Any] = []
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        layers.append(nn.Linear(a, b))
        if i < len(sizes) - 2:
            layers.append(nn.Tanh())
    return nn.Sequential(*layers)


def _network(layout: FlatActionLayout, encoder: EncoderConfig, hidden: int) -> Any:
    """The small policy's module (built lazily so importing this file needs no torch)."""
    import torch
    from torch import nn

    enc = ObservationEncoder(encoder)
    codes = len(CODES)

    class SlotNet(nn.Module):
        """Logits over the flat layout: each label slot and candidate text scored from its own
        words gated by the goal's, the plain codes from the goal, the screen, the legal codes
        and the last actions. The output layers start at zero: the first policy is uniform
        over the legal actions."""

        def __init__(self) -> None:
            super().__init__()
            self.token_dim = encoder.token_dim
            self.goal_dim = encoder.goal_dim
            self.max_labels = encoder.max_labels
            self.n_texts = max(encoder.max_texts, 1)
            context_in = encoder.goal_dim + encoder.screen_dim + codes + max(encoder.history_len, 1) * enc.history_width
            self.context = _mlp([context_in, hidden])
            self.slot = _mlp([enc.slot_width + encoder.token_dim, hidden])
            self.text = _mlp([enc.text_width + encoder.token_dim, hidden])
            self.slot_out = nn.Linear(2 * hidden, 2)  # T, P
            self.text_out = nn.Linear(2 * hidden, 2)  # K, F text
            plain = [name for name, _ in layout.segments if name not in ("T", "P", "K", "F text")]
            self.code_out = nn.Linear(hidden, max(len(plain), 1))
            for layer in (self.slot_out, self.text_out, self.code_out):
                nn.init.zeros_(layer.weight)
                nn.init.zeros_(layer.bias)

        def fold(self, goal: Any) -> Any:
            # CRC-32 buckets: a goal word's bucket modulo token_dim is its bucket among the slot's words.
            folded = goal.new_zeros(goal.shape[0], self.token_dim)
            for start in range(0, self.goal_dim, self.token_dim):
                chunk = goal[:, start : start + self.token_dim]
                folded[:, : chunk.shape[1]] = torch.maximum(folded[:, : chunk.shape[1]], chunk)
            return folded

        def forward(self, x: Mapping[str, Any]) -> Any:
            batch = x["goal"].shape[0]
            folded = self.fold(x["goal"]).unsqueeze(1)
            ctx = self.context(torch.cat([x["goal"], x["screen"], x["masks"][:, :codes], x["history"]], dim=1))
            wide = ctx.unsqueeze(1)
            slots = x["slots"].view(batch, self.max_labels, -1)
            slot_h = self.slot(torch.cat([slots, slots[:, :, 2:] * folded], dim=-1))
            slot_logits = self.slot_out(torch.cat([slot_h, slot_h * wide], dim=-1))
            texts = x["texts"].view(batch, self.n_texts, -1)
            text_h = self.text(torch.cat([texts, texts[:, :, 1:] * folded], dim=-1))
            text_logits = self.text_out(torch.cat([text_h, text_h * wide], dim=-1))
            code_logits = self.code_out(ctx)
            out: list[Any] = []
            plain = 0
            for name, size in layout.segments:
                if name in ("T", "P"):
                    out.append(slot_logits[:, :size, 0 if name == "T" else 1])
                elif name in ("K", "F text"):
                    out.append(text_logits[:, :size, 0 if name == "K" else 1])
                else:
                    out.append(code_logits[:, plain : plain + 1])
                    plain += 1
            return torch.cat(out, dim=1)

    return SlotNet()


#: Hash buckets per label, text and history frame of the small policy's features. The encoder's
#: default (32) gives "Camera" and "Settings" one bucket: the home screen's two labels then get
#: the same features, hence the same probability, and greedy decoding takes the first (Camera)
#: for every Settings task. 512 tells the labels of every screen of the default curriculum's
#: oracle paths apart (2 seeds each; at 256 and below, 27 of 162 screens still hold a pair).
TOKEN_DIM: Final = 512


def default_encoder(layout: FlatActionLayout) -> EncoderConfig:
    """The small policy's features for ``layout``: :data:`TOKEN_DIM` buckets per label and
    per goal (the goal's buckets fold onto a label's, so the goal has as many), 2 history frames."""
    return EncoderConfig(max_labels=layout.max_labels, max_texts=layout.max_texts, history_len=2, token_dim=TOKEN_DIM, goal_dim=TOKEN_DIM)


class TinySlotPolicy:
    """A masked softmax over the flat action layout, on the project's hashed features.

    Args:
        layout: the flat actions offered (codes, label slots, text slots).
        encoder: the observation features (``max_labels`` must match the layout's; default: :func:`default_encoder`).
        hidden: width of the hidden layers.
        seed: seeds the initial weights.
    """

    name = "tiny-slot"
    needs_pixels = False

    def __init__(self, layout: FlatActionLayout, encoder: EncoderConfig | None = None, *, hidden: int = 64, seed: int = 0) -> None:
        import torch

        encoder = encoder or default_encoder(layout)
        if encoder.max_labels != layout.max_labels or max(encoder.max_texts, 0) != layout.max_texts:
            raise CerebellumError("the encoder's max_labels and max_texts must match the layout's")
        self.layout = layout
        self.encoder_config = encoder
        self.encoder = ObservationEncoder(encoder)
        self.hidden = hidden
        self.needs_texts = layout.max_texts > 0
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            self.net = _network(layout, encoder, hidden)
        self.reference = copy.deepcopy(self.net).requires_grad_(False)

    # --- the RLPolicy interface --------------------------------------------------------------

    def sample(self, observations: Sequence[Observation], *, temperature: float, generator: Any) -> list[StepSample]:
        import torch

        if not observations:
            return []
        contexts = [self._context(obs) for obs in observations]
        with torch.no_grad():
            logp = self._log_softmax(self.net, contexts, temperature)
            probs = logp.exp()
            if generator is not None and probs.device != generator.device:
                probs = probs.to(generator.device)  # a CPU generator draws on the CPU, whatever the net's device
            picks = torch.multinomial(probs, 1, generator=generator).squeeze(1).tolist()
        out = []
        for row, (obs, ctx) in enumerate(zip(observations, contexts, strict=True)):
            index = int(picks[row])
            action = self.layout.decode(index, tuple(obs.get("labels", ())), ctx["texts_list"])
            out.append(StepSample(action, (index,), float(logp[row, index]), ctx))
        return out

    def force(self, observations: Sequence[Observation], actions: Sequence[str]) -> list[StepSample]:
        out = []
        for obs, action in zip(observations, actions, strict=True):
            ctx = self._context(obs)
            index = self.layout.encode(action, tuple(obs.get("labels", ())), ctx["texts_list"])
            if not ctx["mask"][index]:
                raise InvalidActionError(action, "not legal on this screen under the policy's constraint")
            out.append(StepSample(action, (index,), math.nan, ctx))
        return out

    def greedy(self, observations: Sequence[Observation]) -> list[str]:
        import torch

        if not observations:
            return []
        contexts = [self._context(obs) for obs in observations]
        with torch.no_grad():
            picks = self._log_softmax(self.net, contexts, 1.0).argmax(dim=1).tolist()
        return [
            self.layout.decode(int(i), tuple(obs.get("labels", ())), ctx["texts_list"])
            for i, obs, ctx in zip(picks, observations, contexts, strict=True)
        ]

    def token_logprobs(self, steps: Sequence[StepSample], *, temperature: float, reference: bool = False) -> tuple[Any, Any]:
        import torch

        net = self.reference if reference else self.net
        contexts = [s.context for s in steps]
        if reference:
            with torch.no_grad():
                logp = self._log_softmax(net, contexts, temperature)
        else:
            logp = self._log_softmax(net, contexts, temperature)
        index = torch.tensor([s.tokens[0] for s in steps], dtype=torch.long, device=logp.device).unsqueeze(1)
        picked = logp.gather(1, index)
        return picked, torch.ones_like(picked, dtype=torch.bool)

    def parameters(self) -> list[Any]:
        return list(self.net.parameters())

    def save(self, folder: Path) -> None:
        from safetensors.torch import save_file

        folder.mkdir(parents=True, exist_ok=True)
        save_file({k: v.detach().contiguous() for k, v in self.net.state_dict().items()}, str(folder / POLICY_WEIGHTS))
        config = {
            "kind": "tiny-slot",
            "layout": self.layout.to_dict(),
            "encoder": self.encoder_config.to_dict(),
            "hidden": self.hidden,
        }
        (folder / POLICY_CONFIG).write_text(json.dumps(config, indent=2))

    def load(self, folder: Path) -> None:
        self.net.load_state_dict(_read_weights(folder))

    def freeze_reference(self, folder: Path | None = None) -> None:
        self.reference.load_state_dict(_read_weights(folder) if folder is not None else self.net.state_dict())

    @classmethod
    def from_folder(cls, folder: Path) -> TinySlotPolicy:
        """A policy saved by :meth:`save` (its reference: the same weights)."""
        try:
            config = json.loads((folder / POLICY_CONFIG).read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise CerebellumError(f"{folder} holds no small RL policy ({POLICY_CONFIG}): {exc}") from exc
        policy = cls(FlatActionLayout(**config["layout"]), EncoderConfig.from_dict(config["encoder"]), hidden=int(config["hidden"]))
        policy.load(folder)
        policy.freeze_reference()
        return policy

    # --- internals ---------------------------------------------------------------------------

    def _context(self, obs: Observation) -> dict[str, Any]:
        texts = tuple(str(t) for t in obs.get("text_candidates", ()))[: self.layout.max_texts]
        arrays = self.encoder.encode(obs, texts)
        mask = self.layout.observation_mask(obs, texts)
        return {**arrays, "mask": mask, "texts_list": texts}

    def _log_softmax(self, net: Any, contexts: Sequence[Mapping[str, Any]], temperature: float) -> Any:
        import torch

        keys = ("goal", "screen", "slots", "texts", "masks", "history")
        batch = {k: torch.from_numpy(np.stack([c[k] for c in contexts])) for k in keys}
        mask = torch.from_numpy(np.stack([c["mask"] for c in contexts]))
        logits = net(batch) / temperature
        return torch.log_softmax(logits.masked_fill(~mask, float("-inf")), dim=1)


def _read_weights(folder: Path) -> dict[str, Any]:
    from safetensors.torch import load_file

    path = folder / POLICY_WEIGHTS
    if not path.is_file():
        raise CerebellumError(f"{folder} has no {POLICY_WEIGHTS}")
    return load_file(str(path))
