"""The constrained decoder's log-probability of given actions, differentiable: what trainers
(SFT, DPO, RL) optimise.

One teacher-forced pass through the (PEFT) model over prompt + answer tokens, batched and
left-padded, with ``logits_to_keep`` so that logits exist only at the answer positions (the card's
"focused loss": no full-prompt vocabulary logits). Each answer position is masked by the
constraint's allowed tokens exactly as :class:`~cerebellum_gym.agents.qwen_agent.ConstraintProcessor`
masks it while decoding, so the log-probability equals the one the decoder (greedy or sampled)
reports for the same tokens.

Example (train-rl's loop, on the tiny model or real weights)::

    agent = QwenActionAgent.from_pretrained(base, adapter, trainable=True)   # LoRA tensors require grad
    scorer = ActionScorer(agent)

    # On-policy: sample, then score the very tokens sampled (equal to d.logprob, with gradients).
    decisions = agent.decide_batch(observations, temperature=1.0, generator=torch.Generator().manual_seed(0))
    out = scorer.score(scorer.from_decisions(decisions))
    out.logprob            # tensor [B]: summed log-probability of each row's answer tokens
    (-(advantages * out.logprob).mean()).backward()

    # Off-policy / supervised: recorded actions as strings (tokenized as training renders them).
    items = scorer.items(observations, ["T UE", "K hello", "B"], steps=[5, 2, 9])  # steps: absolute step numbers
    out = scorer.score(items)
    out.token_logprobs     # [B, L] per answer token (0 past each row's length), out.token_mask [B, L]
    out.code_margin        # [B] gold code's logit minus the best other legal code's (first answer position)

Rows are :class:`ScoreItem` (prompt, constraint, token ids); :meth:`ActionScorer.items` raises
:class:`IllegalAnswer` for an action the constraint would never decode (a label the cut tree does
not show, an answer to a task that asks no question).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cerebellum_gym.agents.qwen_agent import Decision, QwenActionAgent, allowed_tensor
from cerebellum_gym.agents.qwen_constraint import ActionConstraint
from cerebellum_gym.agents.qwen_prompt import EncodedPrompt
from cerebellum_gym.core.actions import parse_action
from cerebellum_gym.errors import CerebellumError, InvalidActionError

if TYPE_CHECKING:
    import torch

__all__ = ["ActionScorer", "IllegalAnswer", "ScoreItem", "ScoreOutput", "answer_groups"]


class IllegalAnswer(CerebellumError):
    """An action the constrained decoder could never produce on its screen."""


@dataclass
class ScoreItem:
    """One row to score: the prompt, the constraint it is decoded under, the answer's tokens
    (the end token last when the answer ended), and the temperature to score at."""

    prompt: EncodedPrompt
    constraint: ActionConstraint
    token_ids: list[int]
    temperature: float = 1.0


@dataclass
class ScoreOutput:
    """What :meth:`ActionScorer.score` returns (tensors on the model's device, float32).

    Attributes:
        logprob: ``[B]`` each answer's log-probability (differentiable).
        token_logprobs: ``[B, L]`` per answer token, 0 where ``token_mask`` is false.
        token_mask: ``[B, L]`` which positions hold answer tokens (rows left-aligned).
        code_margin: ``[B]`` at the first answer position, the gold token's logit minus the best
            logit of an allowed token that starts another code (``nan`` when no other code is legal).
        logits: ``[B, V]`` the raw logits at the first answer position (before masking; float32).
    """

    logprob: torch.Tensor
    token_logprobs: torch.Tensor
    token_mask: torch.Tensor
    code_margin: torch.Tensor
    logits: torch.Tensor


def answer_groups(lengths: Sequence[int], max_cells: int) -> list[list[int]]:
    """Row indices in groups, shortest answers first, each group's size times its longest
    answer at most ``max_cells`` (a row longer than that alone)."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    groups: list[list[int]] = []
    for i in order:
        if groups and (len(groups[-1]) + 1) * lengths[i] <= max_cells:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


class ActionScorer:
    """Teacher-forced, constrained log-probabilities of answers under ``agent``'s model.

    Args:
        agent: the agent whose model, prompt encoder and token table are scored (load it with
            ``trainable=True`` to train its adapter).
    """

    #: Answer positions (rows x longest answer) per forward pass, by default: 12 rows of
    #: single-code and tap answers fit one pass, a long typed answer goes apart.
    max_cells: int = 12 * 8

    def __init__(self, agent: QwenActionAgent) -> None:
        self.agent = agent
        self.table = agent.table
        vocab = agent.tokenizer.get_vocab()
        end = vocab.get("<|im_end|>", agent.tokenizer.eos_token_id)
        if end is None:
            raise CerebellumError("the tokenizer has no end-of-turn token")
        self.end_id = int(end)

    # --- building rows -----------------------------------------------------------------------

    def answer_ids(self, action: str) -> list[int]:
        """``action``'s tokens as training renders the answer (the tokenizer's own split, then
        the end of the turn)."""
        return [*self.agent.tokenizer(action, add_special_tokens=False)["input_ids"], self.end_id]

    def item(
        self,
        observation: Mapping[str, Any],
        action: str,
        *,
        step: int | None = None,
        prompt: EncodedPrompt | None = None,
        temperature: float = 1.0,
    ) -> ScoreItem:
        """The row of a recorded ``action`` (canonicalised) on ``observation`` at absolute step
        ``step`` (1 for an episode's first action).

        Raises:
            IllegalAnswer: the action is not valid, or the constraint would not decode it.
        """
        try:
            text = str(parse_action(action))
        except InvalidActionError as exc:
            raise IllegalAnswer(f"{action!r} is not a valid action: {exc}") from None
        encoded = prompt if prompt is not None else self.agent.encoder.encode(observation, step=step)
        constraint = self.agent.constraint(observation, encoded)
        ids = self.answer_ids(text)
        if not constraint.accepts(ids[:-1]):
            raise IllegalAnswer(f"{text!r} is not a legal answer on this screen (labels shown: {', '.join(encoded.labels) or 'none'})")
        return ScoreItem(encoded, constraint, ids, temperature)

    def items(
        self, observations: Sequence[Mapping[str, Any]], actions: Sequence[str], *, steps: Sequence[int | None] | None = None
    ) -> list[ScoreItem]:
        """:meth:`item` for each observation and action."""
        chosen = list(steps) if steps is not None else [None] * len(observations)
        return [self.item(o, a, step=s) for o, a, s in zip(observations, actions, chosen, strict=True)]

    @staticmethod
    def from_decisions(decisions: Sequence[Decision]) -> list[ScoreItem]:
        """Rows of the tokens the decoder chose, scored at the temperature they were sampled
        at (greedy ones at 1)."""
        return [ScoreItem(d.prompt, d.constraint, list(d.token_ids), d.temperature or 1.0) for d in decisions]

    # --- scoring -----------------------------------------------------------------------------

    def score(self, items: Sequence[ScoreItem], *, constrained: bool = True, max_cells: int | None = None) -> ScoreOutput:
        """Score ``items``; ``constrained=False`` scores under the plain softmax.

        Rows are scored in forward passes of at most ``max_cells`` answer positions (rows times
        the longest answer among them; default :attr:`max_cells`), shortest answers first, so
        one long typed answer does not pad every row of the batch to its length.
        """
        import torch
        import torch.nn.functional as F  # noqa: N812  (the usual name)

        if not items:
            raise ValueError("nothing to score")
        if any(not it.token_ids for it in items):
            raise ValueError("an item has no answer tokens")
        groups = answer_groups([len(it.token_ids) for it in items], max_cells or self.max_cells)
        if len(groups) == 1:
            return self._score(items, constrained)
        parts = [self._score([items[i] for i in g], constrained) for g in groups]
        longest = max(len(it.token_ids) for it in items)
        order = [i for g in groups for i in g]
        back = torch.empty(len(order), dtype=torch.long)
        back[torch.tensor(order)] = torch.arange(len(order))
        device = parts[0].logprob.device
        back = back.to(device)

        def joined(tensors: list[Any], pad: Any = None) -> Any:
            if pad is not None:
                tensors = [F.pad(t, (0, longest - t.shape[1]), value=pad) for t in tensors]
            return torch.cat(tensors).index_select(0, back)

        return ScoreOutput(
            logprob=joined([p.logprob for p in parts]),
            token_logprobs=joined([p.token_logprobs for p in parts], 0.0),
            token_mask=joined([p.token_mask for p in parts], False),
            code_margin=joined([p.code_margin for p in parts]),
            logits=joined([p.logits for p in parts]),
        )

    def _score(self, items: Sequence[ScoreItem], constrained: bool) -> ScoreOutput:
        import torch

        inputs = self.agent.inputs([it.prompt for it in items], [it.token_ids for it in items])
        longest = max(len(it.token_ids) for it in items)
        out = self.agent.model(**inputs, logits_to_keep=longest + 1, use_cache=False)
        # Kept position k predicts the token at k+1; row i's answer (n_i tokens, right-aligned)
        # is predicted from kept positions longest-n_i ... longest-1. The logits stay in the
        # model's dtype; only one position's [rows, vocab] is ever taken to float32 at a time.
        kept = out.logits
        rows, width = len(items), kept.shape[-1]
        device = kept.device
        index = torch.zeros((rows, longest), dtype=torch.long, device=device)
        targets = torch.zeros((rows, longest), dtype=torch.long, device=device)
        present = torch.zeros((rows, longest), dtype=torch.bool, device=device)
        allowed = torch.ones((rows, longest, width), dtype=torch.bool, device=device)
        temps = torch.ones((rows, 1), device=device)
        rival = torch.zeros((rows, width), dtype=torch.bool, device=device)
        first_byte = self._first_bytes(width, device)
        for i, it in enumerate(items):
            n = len(it.token_ids)
            index[i, :n] = torch.arange(longest - n, longest, device=device)
            targets[i, :n] = torch.tensor(it.token_ids, device=device)
            present[i, :n] = True
            temps[i] = float(it.temperature)
            for j in range(n):
                allowed[i, j] = allowed_tensor(it.constraint, self.table, it.token_ids[:j], width, device)
            # Other codes: allowed first tokens whose first byte is not the gold one's.
            gold = first_byte[it.token_ids[0]]
            rival[i] = allowed[i, 0] & (first_byte != gold) & (first_byte >= 0)
        columns = []
        for j in range(longest):
            at = kept.gather(1, index[:, j, None, None].expand(-1, 1, width)).squeeze(1).float()
            if constrained:
                at = at.masked_fill(~allowed[:, j], float("-inf"))
            at = at / temps
            gold_j = at.gather(-1, targets[:, j, None]).squeeze(-1)
            columns.append(gold_j - torch.logsumexp(at, dim=-1))
        picked = torch.stack(columns, dim=1)
        picked = torch.where(present, picked, torch.zeros_like(picked))
        first = kept.gather(1, index[:, :1, None].expand(-1, 1, width)).squeeze(1).float()
        gold_logit = first.gather(-1, targets[:, :1]).squeeze(-1)
        best_other = first.masked_fill(~rival, float("-inf")).max(dim=-1).values
        margin = torch.where(rival.any(dim=-1), gold_logit - best_other, torch.full_like(gold_logit, float("nan")))
        return ScoreOutput(logprob=picked.sum(dim=-1), token_logprobs=picked, token_mask=present, code_margin=margin, logits=first)

    def _first_bytes(self, width: int, device: Any) -> torch.Tensor:
        """Each token id's first byte (-1 for ids that spell nothing), cached per device."""
        import torch

        cache: dict[Any, torch.Tensor] = self.__dict__.setdefault("_first_cache", {})
        key = (width, str(device))
        if key not in cache:
            firsts = [(p[0] if p else -1) for p in self.table.pieces[:width]] + [-1] * max(0, width - len(self.table.pieces))
            cache[key] = torch.tensor(firsts, dtype=torch.long, device=device)
        return cache[key]
