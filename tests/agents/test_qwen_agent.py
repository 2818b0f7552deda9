"""The Qwen3.5 reference agent, on a tiny random Qwen3.5 built here (see ``conftest.py``).

Random weights make the unconstrained output garbage, which is what makes the constraint
testable; greedy decoding makes batched and single runs comparable decision by decision.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("peft")

import cerebellum_gym  # noqa: E402,F401
from cerebellum_gym.agents.qwen_agent import QwenActionAgent, StepCounter, parse_qwen_spec  # noqa: E402
from cerebellum_gym.agents.qwen_prompt import PromptLimits  # noqa: E402
from cerebellum_gym.core.actions import CODES, parse_action  # noqa: E402

#: Small images keep the tiny model's steps fast; the card's limits are tested in test_qwen_prompt.
SMALL = PromptLimits(history_width=116, current_width=232, history_gutter=8, current_gutter=16)


@pytest.fixture(scope="module")
def agent(tiny_model: Path, tiny_adapter: Path) -> QwenActionAgent:
    torch.set_num_threads(1)
    return QwenActionAgent.from_pretrained(tiny_model, adapter=tiny_adapter, max_text_tokens=8, limits=SMALL)


def _obs(task: str, seed: int, steps: int = 0, **kwargs: Any) -> tuple[gym.Env[Any, Any], dict[str, Any]]:
    env = gym.make("Cerebellum-Sim-v0", task=task, screenshot_width=232, history_width=116, **kwargs)
    obs, _ = env.reset(seed=seed)
    for _ in range(steps):
        obs, *_ = env.step(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
    return env, obs


def _only(obs: dict[str, Any], codes: str) -> dict[str, Any]:
    out = dict(obs)
    out["action_mask"] = np.array([1 if c in codes else 0 for c in CODES], dtype=np.int8)
    return out


@pytest.mark.parametrize(("task", "seed", "steps"), [("SystemWifiTurnOn", 0, 0), ("SystemWifiTurnOn", 1, 2), ("ContactsAddContact", 2, 4)])
def test_every_answer_is_legal_on_the_current_screen(agent: QwenActionAgent, task: str, seed: int, steps: int) -> None:
    env, obs = _obs(task, seed, steps)
    action = parse_action(agent.act(obs))
    mask = dict(zip(CODES, obs["action_mask"], strict=True))
    assert mask[action.code] == 1
    if action.label is not None:
        assert action.label in obs["labels"]
    _, _, _, _, info = env.step(str(action))
    assert not info["invalid_action"], info["error"]


def test_masks_steer_the_first_token(agent: QwenActionAgent) -> None:
    _, obs = _obs("ContactsAddContact", seed=3, steps=3)
    action = parse_action(agent.act(_only(obs, "K")))
    assert action.code == "K" and action.text and action.text.strip() and "\ufffd" not in action.text
    action = parse_action(agent.act(_only(obs, "T")))
    assert action.code == "T" and action.label in obs["labels"]


def test_text_cut_at_the_token_cap_is_still_an_action(tiny_model: Path) -> None:
    agent = QwenActionAgent.from_pretrained(tiny_model, use_images=False, max_text_tokens=2)
    _, obs = _obs("ContactsAddContact", seed=3, steps=3, pixels=False)
    for codes in ("K", "KW", "KT"):
        action = parse_action(agent.act(_only(obs, codes)))
        assert action.code in codes and (action.text is None or action.text.strip())


def test_batched_decisions_equal_single_ones(agent: QwenActionAgent) -> None:
    # Mixed prompt lengths (tasks, history depths, free text), so left padding differs per row.
    observations = [
        _obs("SystemWifiTurnOn", 0, 0)[1],
        _obs("ContactsAddContact", 2, 4)[1],
        _only(_obs("ContactsAddContact", 3, 3)[1], "K"),
        _obs("SystemBrightnessMax", 4, 1)[1],
        _only(_obs("SystemWifiTurnOn", 5, 2)[1], "KF"),
        _obs("ContactsAddContact", 6, 6)[1],
    ]
    lengths = {len(agent.encoder.encode(o).input_ids) for o in observations}
    assert len(lengths) >= 4
    calls = 0
    generate = agent.model.generate

    def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return generate(*args, **kwargs)

    agent.model.generate = counting  # counts calls, changes nothing
    try:
        agent.reset()
        batched = agent.act_batch(observations)
        assert calls == 1  # one generate for the whole batch
        agent.reset()
        single = [agent.act_batch([o])[0] for o in observations]
    finally:
        del agent.model.generate
    assert batched == single
    assert any(a.startswith("K ") for a in batched)


def test_batch_size_splits_the_batch(tiny_model: Path) -> None:
    agent = QwenActionAgent.from_pretrained(tiny_model, use_images=False, max_text_tokens=4, batch_size=2)
    observations = [_obs("SystemWifiTurnOn", s, s % 3, pixels=False)[1] for s in range(5)]
    whole = QwenActionAgent(agent.model, agent.tokenizer, None, max_text_tokens=4).act_batch(observations)
    assert agent.act_batch(observations) == whole


def test_step_numbers_follow_the_episode() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", pixels=False)
    counter = StepCounter()
    obs, _ = env.reset(seed=0)
    numbers = []
    for _ in range(7):
        numbers.append(counter.next_step(0, obs))
        assert counter.next_step(0, obs) == numbers[-1]  # the same observation is the same step
        obs, *_ = env.step(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
    assert numbers == [1, 2, 3, 4, 5, 6, 7]
    counter.begin(0)
    obs, _ = env.reset(seed=1)
    assert counter.next_step(0, obs) == 1
    assert counter.next_step(1, {**obs, "step": 11}) == 12


def test_agent_plays_an_episode_in_text_only_mode(tiny_model: Path) -> None:
    agent = QwenActionAgent.from_pretrained(tiny_model, use_images=False, max_text_tokens=6)
    env = gym.make("Cerebellum-Sim-v0", task="SystemBluetoothTurnOn", pixels=False, max_steps=4)
    obs, _ = env.reset(seed=0)
    for _ in range(4):
        obs, _, terminated, truncated, info = env.step(agent.act_batch([obs])[0])
        assert not info["invalid_action"], info["error"]
        if terminated or truncated:
            break


def test_adapter_changes_the_model(tiny_model: Path, tiny_adapter: Path) -> None:
    from transformers import AutoModelForImageTextToText

    base = AutoModelForImageTextToText.from_pretrained(tiny_model)
    tuned = QwenActionAgent.from_pretrained(tiny_model, adapter=tiny_adapter).model
    ids = torch.tensor([[5, 6, 7, 8]])
    with torch.no_grad():
        assert not torch.allclose(base(input_ids=ids).logits, tuned(input_ids=ids).logits)


def test_device_dtype_and_attention_options(tiny_model: Path, tiny_adapter: Path) -> None:
    agent = QwenActionAgent.from_pretrained(
        tiny_model, tiny_adapter, dtype="bfloat16", attn="eager", device="cpu", max_text_tokens=4, limits=SMALL
    )
    assert next(agent.model.parameters()).dtype == torch.bfloat16
    assert agent.model.config._attn_implementation == "eager"
    env, obs = _obs("SystemWifiTurnOn", 0, 1)
    _, _, _, _, info = env.step(agent.act(obs))
    assert not info["invalid_action"]


def test_loads_from_the_cli_spec(tiny_model: Path, tiny_adapter: Path) -> None:
    from cerebellum_gym.agents import load_agent

    agent = load_agent(f"qwen:{tiny_model},{tiny_adapter}", max_text_tokens=4)
    assert isinstance(agent, QwenActionAgent) and agent.needs_pixels
    assert not load_agent(f"qwen:{tiny_model}", use_images=False).needs_pixels
    tuned = load_agent(f"qwen:{tiny_model},{tiny_adapter}?device=cpu&dtype=bfloat16&attn=sdpa&images=0&max_text_tokens=3&batch_size=2")
    assert isinstance(tuned, QwenActionAgent)
    assert not tuned.needs_pixels and tuned.max_text_tokens == 3 and tuned.batch_size == 2
    assert next(tuned.model.parameters()).dtype == torch.bfloat16 and tuned.model.config._attn_implementation == "sdpa"


def test_spec_options_are_checked() -> None:
    assert parse_qwen_spec("m") == ("m", None, {})
    assert parse_qwen_spec("m,a?images=false") == ("m", "a", {"use_images": False})
    with pytest.raises(ValueError, match="unknown qwen: option 'gpu'"):
        parse_qwen_spec("m?gpu=1")
    with pytest.raises(ValueError, match="max_text_tokens"):
        parse_qwen_spec("m?max_text_tokens=many")
    with pytest.raises(ValueError, match="names no base model"):
        parse_qwen_spec(",adapter")
