"""Four places where the reference agent departed from its model card, each held to the card.

- ``F`` ends at once unless the task asks a question (the card lists ``F`` among the single-token
  actions; an answer belongs only to question tasks).
- Only labels that the prompt's (perhaps cut) tree shows may be tapped.
- ``eval-offline`` numbers history frames absolutely, as online play and the exports do.
- Typed text is limited by the env's own 1000-character limit, not by a 48-token cap.

The model is the tiny random Qwen3.5 of ``conftest.py`` (no download).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

import cerebellum_gym  # noqa: E402,F401
from cerebellum_gym.agents.qwen_agent import QwenActionAgent, allowed_actions, asks_question, text_token_cap  # noqa: E402
from cerebellum_gym.agents.qwen_constraint import ActionConstraint, TokenTable  # noqa: E402
from cerebellum_gym.agents.qwen_prompt import PromptLimits  # noqa: E402
from cerebellum_gym.core.actions import CODES, MAX_TEXT_CHARS, parse_action  # noqa: E402


@pytest.fixture(scope="module")
def text_agent(tiny_model: Path) -> QwenActionAgent:
    torch.set_num_threads(1)
    return QwenActionAgent.from_pretrained(tiny_model, use_images=False, max_text_tokens=12)


def _obs(task: str, seed: int, steps: int = 0) -> dict[str, Any]:
    env = gym.make("Cerebellum-Sim-v0", task=task, pixels=False)
    obs, _ = env.reset(seed=seed)
    for _ in range(steps):
        obs, *_ = env.step(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
    return dict(obs)


def _only(obs: dict[str, Any], codes: str) -> dict[str, Any]:
    return {**obs, "action_mask": np.array([1 if c in codes else 0 for c in CODES], dtype=np.int8)}


def test_done_ends_at_once_unless_the_task_asks_a_question(text_agent: QwenActionAgent) -> None:
    plain = _only(_obs("SystemWifiTurnOn", 0), "F")
    assert not asks_question(plain)
    assert allowed_actions(plain) == (["F"], [])
    constraint = text_agent.constraint(plain)
    after = constraint.allowed(b"F")
    assert after.stop and not after.ids and after.mask is None  # nothing but the end after F
    for seed in range(3):
        assert text_agent.act(_only(_obs("SystemWifiTurnOn", seed), "F")) == "F"
    question = {**plain, "goal": "What is the phone number of Ada in my contacts? Answer with the number only."}
    assert asks_question(question)
    assert allowed_actions(question) == (["F"], ["F "])
    assert text_agent.constraint(question).allowed(b"F ").mask is not None  # an answer may follow
    assert allowed_actions({**question, "question": False}) == (["F"], [])  # the observation's own flag wins


def test_only_labels_the_prompt_shows_may_be_tapped(tiny_model: Path) -> None:
    agent = QwenActionAgent.from_pretrained(tiny_model, use_images=False, max_text_tokens=4, limits=PromptLimits(max_tree_chars=120))
    obs = _obs("ContactsAddContact", 1, 3)
    prompt = agent.encoder.encode(obs)
    assert 0 < len(prompt.labels) < len(obs["labels"])
    hidden = set(obs["labels"]) - set(prompt.labels)
    for label in prompt.labels:
        assert f"[{label}]" in prompt.text
    for label in hidden:
        assert f"[{label}]" not in prompt.text
    complete, _ = allowed_actions(obs, labels=prompt.labels)
    assert {a for a in complete if a.startswith("T ")} == {f"T {label}" for label in prompt.labels}
    taps = [parse_action(agent.act(_only(obs, "TP"))) for _ in range(2)]
    assert all(a.label in prompt.labels for a in taps)
    decisions = agent.decide_batch([_only(obs, "TP")] * 6, temperature=2.0, generator=torch.Generator().manual_seed(0))
    assert all(parse_action(d.action).label in prompt.labels for d in decisions)


def test_eval_offline_numbers_history_frames_as_the_exports_do(tiny_model: Path, tmp_path: Path) -> None:
    from cerebellum_gym.datasets import RecordEpisodes
    from cerebellum_gym.datasets.exports import export_sft
    from cerebellum_gym.datasets.offline import evaluate_offline

    env = RecordEpisodes(gym.make("Cerebellum-Sim-v0", pixels=False), tmp_path / "data", agent="oracle")
    obs, _ = env.reset(seed=0, options={"task": "ContactsAddContact"})
    done = False
    while not done:
        _, _, terminated, truncated, _ = env.step(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
        done = terminated or truncated
    env.close()
    export_sft(tmp_path / "data", tmp_path / "sft")
    exported: dict[int, list[str]] = {}
    for line in (tmp_path / "sft" / "sft.jsonl").read_text().splitlines():
        record = json.loads(line)
        text = "".join(item.get("text", "") for item in record["messages"][0]["content"])
        exported[record["t"]] = re.findall(r"^Step (\d+):", text, re.MULTILINE)
    assert max(exported) >= 6  # deep enough that the window is full and has moved
    agent = QwenActionAgent.from_pretrained(tiny_model, use_images=False, max_text_tokens=4)
    seen: dict[int, list[str]] = {}
    encode = agent.encoder.encode

    def spy(observation: Any, *, step: int | None = None) -> Any:
        prompt = encode(observation, step=step)
        assert step is not None
        seen[step - 1] = re.findall(r"^Step (\d+):", prompt.text, re.MULTILINE)
        return prompt

    agent.encoder.encode = spy  # type: ignore[method-assign]
    evaluate_offline(agent, tmp_path / "data", n=None)
    assert seen == exported
    last = max(exported)
    assert exported[last] == [str(s) for s in range(last - 3, last + 1)]


def test_typed_text_is_limited_by_the_env_limit_not_a_token_cap(tiny_model: Path) -> None:
    table = TokenTable.from_token_bytes([b"K", b" ", b"a", b"bb", "é".encode(), b"\xc3", b"<e>"], stop_ids=[6])
    c = ActionConstraint(table, [], ["K "])
    near = b"K " + b"a" * (MAX_TEXT_CHARS - 1)
    mask = c.allowed(near).mask
    assert mask is not None and mask[2] and mask[4] and mask[5] and not mask[3]  # one character left: "bb" no longer fits
    full = c.allowed(b"K " + b"a" * MAX_TEXT_CHARS)
    assert full.stop and full.mask is None and not full.ids
    assert c.allowed(near + b"\xc3").mask is not None  # the pending character is already counted, and may finish
    agent = QwenActionAgent.from_pretrained(tiny_model, use_images=False)
    assert agent.max_text_tokens == text_token_cap() >= 4 * MAX_TEXT_CHARS
