"""The scorer: the constrained decoder's log-probability of given answers, teacher-forced and
differentiable, equal to what the decoding path reports for the same tokens.

On the tiny random Qwen3.5 of ``conftest.py`` (no download), with images and left padding.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("peft")

import cerebellum_gym  # noqa: E402,F401
from cerebellum_gym.agents.qwen_agent import QwenActionAgent  # noqa: E402
from cerebellum_gym.agents.qwen_prompt import PromptLimits  # noqa: E402
from cerebellum_gym.agents.qwen_scorer import ActionScorer, IllegalAnswer, answer_groups  # noqa: E402
from cerebellum_gym.core.actions import CODES  # noqa: E402

SMALL = PromptLimits(history_width=116, current_width=232, history_gutter=8, current_gutter=16)


@pytest.fixture(scope="module")
def agent(tiny_model: Path, tiny_adapter: Path) -> QwenActionAgent:
    torch.set_num_threads(1)
    return QwenActionAgent.from_pretrained(tiny_model, adapter=tiny_adapter, max_text_tokens=6, limits=SMALL, trainable=True)


def _obs(task: str, seed: int, steps: int, codes: str | None = None) -> dict[str, Any]:
    env = gym.make("Cerebellum-Sim-v0", task=task, screenshot_width=232, history_width=116)
    obs, _ = env.reset(seed=seed)
    for _ in range(steps):
        obs, *_ = env.step(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
    obs = dict(obs)
    if codes is not None:
        obs["action_mask"] = np.array([1 if c in codes else 0 for c in CODES], dtype=np.int8)
    return obs


@pytest.fixture(scope="module")
def batch() -> list[dict[str, Any]]:
    # Different prompt lengths and answer lengths (typed text, taps, single codes).
    return [
        _obs("SystemWifiTurnOn", 0, 0),
        _obs("ContactsAddContact", 2, 4),
        _obs("ContactsAddContact", 3, 3, "K"),
        _obs("SystemBrightnessMax", 4, 1),
        _obs("ContactsAddContact", 6, 5, "KT"),
    ]


@pytest.mark.parametrize("temperature", [0.0, 1.0, 1.7])
def test_scorer_equals_the_decoders_log_probabilities(agent: QwenActionAgent, batch: list[dict[str, Any]], temperature: float) -> None:
    agent.reset()
    decisions = agent.decide_batch(batch, temperature=temperature, generator=torch.Generator().manual_seed(3))
    assert len({len(d.token_ids) for d in decisions}) >= 2
    assert all(np.isfinite(d.logprob) and d.logprob <= 0 for d in decisions)
    scorer = ActionScorer(agent)
    out = scorer.score(scorer.from_decisions(decisions))
    for row, d in enumerate(decisions):
        n = len(d.token_ids)
        assert out.token_mask[row].sum().item() == n
        assert out.token_logprobs[row, :n].tolist() == pytest.approx(d.token_logprobs, abs=2e-4)
        assert out.logprob[row].item() == pytest.approx(d.logprob, abs=5e-4)
    # Long answers scored apart (one pass per row here) give the same figures, in the same order.
    apart = scorer.score(scorer.from_decisions(decisions), max_cells=1)
    assert torch.equal(apart.token_mask, out.token_mask)
    assert torch.allclose(apart.token_logprobs, out.token_logprobs, atol=2e-4)
    assert torch.allclose(apart.logits, out.logits, atol=2e-4)


def test_answer_groups_keep_each_pass_within_its_cells() -> None:
    lengths = [3, 40, 2, 3, 9, 2]
    groups = answer_groups(lengths, 12)
    assert sorted(i for g in groups for i in g) == list(range(len(lengths)))
    assert all(len(g) * max(lengths[i] for i in g) <= 12 or len(g) == 1 for g in groups)
    assert [1] in groups  # the long answer alone
    assert answer_groups(lengths, 1000) == [[2, 5, 0, 3, 4, 1]]


def test_sampling_is_seeded_and_samples(agent: QwenActionAgent, batch: list[dict[str, Any]]) -> None:
    def run(seed: int) -> list[list[int]]:
        agent.reset()
        return [d.token_ids for d in agent.decide_batch(batch * 2, temperature=2.0, generator=torch.Generator().manual_seed(seed))]

    assert run(11) == run(11)
    draws = [run(s) for s in range(4)]
    assert len({str(d) for d in draws}) > 1  # different seeds, different answers somewhere
    agent.reset(seed=5)
    first = agent.act_batch(batch, temperature=2.0)
    ids = [d.token_ids for d in agent.last_decisions]
    agent.reset(seed=5)
    assert agent.act_batch(batch, temperature=2.0) == first and [d.token_ids for d in agent.last_decisions] == ids


def test_gradients_reach_only_the_adapter(agent: QwenActionAgent, batch: list[dict[str, Any]]) -> None:
    trainable = [n for n, p in agent.model.named_parameters() if p.requires_grad]
    assert trainable and all("lora_" in n for n in trainable)
    agent.model.zero_grad()
    scorer = ActionScorer(agent)
    items = scorer.items(batch[:2], ["W", "B"], steps=[1, 5])
    out = scorer.score(items)
    out.logprob.sum().backward()
    touched = [n for n, p in agent.model.named_parameters() if p.grad is not None and p.grad.abs().sum() > 0]
    assert touched and all("lora_" in n for n in touched)
    agent.model.zero_grad()


def test_recorded_actions_are_scored_and_illegal_ones_refused(agent: QwenActionAgent, batch: list[dict[str, Any]]) -> None:
    scorer = ActionScorer(agent)
    obs = batch[1]
    label = obs["labels"][0]
    item = scorer.item(obs, f"T  {label}", step=5)  # canonicalised
    assert agent.table.spell(item.token_ids[:-1]) == f"T {label}".encode()
    with pytest.raises(IllegalAnswer, match="not a legal answer"):
        scorer.item(obs, "T ZZ", step=5)
    with pytest.raises(IllegalAnswer, match="not a legal answer"):
        scorer.item(obs, "F 555", step=5)  # the task asks no question: F ends at once
    with pytest.raises(IllegalAnswer, match="not a valid action"):
        scorer.item(obs, "Q", step=5)
    with torch.no_grad():
        out = scorer.score([item, scorer.item(batch[2], "K hi", step=4)])
        # The margin is the gold code's logit over the best other code's, at the first position.
        first = out.logits[0]
        gold = item.token_ids[0]
        allowed = item.constraint.allowed(b"").ids
        others = [i for i in allowed if agent.table.pieces[i][:1] != agent.table.pieces[gold][:1]]
        assert out.code_margin[0].item() == pytest.approx((first[gold] - first[others].max()).item(), abs=1e-5)
        assert torch.isnan(out.code_margin[1])  # only K is legal there: no other code to beat
        plain = scorer.score([item], constrained=False)
        assert plain.logprob[0].item() < out.logprob[0].item()  # the constraint only removes mass
