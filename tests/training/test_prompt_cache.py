"""The compact prompt cache: packed prompts give back the very patches the encoder made, at a
fraction of the bytes, and the cache never holds more than its budget.

On the tiny random Qwen3.5 of ``conftest.py`` (its real image processor), screenshots from the
simulator at the card's widths.
"""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

import cerebellum_gym  # noqa: E402,F401
from cerebellum_gym.agents.qwen_agent import QwenActionAgent  # noqa: E402
from cerebellum_gym.training.prompt_cache import ByteBudgetCache, pack, prompt_nbytes, unpack  # noqa: E402


def test_packed_prompts_give_back_the_same_patches_in_far_fewer_bytes(tiny_base: Path) -> None:
    agent = QwenActionAgent.from_pretrained(tiny_base, device="cpu", dtype="float32")
    env = gym.make("Cerebellum-Sim-v0", task="ContactsAddContact")
    obs, _ = env.reset(seed=1)
    for _ in range(3):
        obs, *_ = env.step(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
    prompt = agent.encoder.encode(obs, step=4)
    assert prompt.pixel_values is not None and len(prompt.images) >= 2
    packed = pack(prompt, agent.image_processor)
    back = unpack(packed, agent.image_processor)
    assert back.pixel_values.shape == prompt.pixel_values.shape
    assert float((back.pixel_values - prompt.pixel_values).abs().max()) < 1e-6
    assert back.input_ids == prompt.input_ids and back.labels == prompt.labels and back.text == prompt.text
    assert torch.equal(back.image_grid_thw, prompt.image_grid_thw)
    assert packed.nbytes * 10 < prompt_nbytes(prompt)
    text_only = pack(agent.encoder.encode({**obs, "screenshot": None}, step=4), None)
    assert text_only.pixels is None


def test_the_cache_holds_at_most_its_budget_and_count() -> None:
    cache: ByteBudgetCache[bytes] = ByteBudgetCache(100, len, max_entries=3)
    for key in range(10):
        cache.put(key, b"x" * 30)
        assert cache.nbytes <= 100 and len(cache) <= 3
    assert cache.get(9) == b"x" * 30 and cache.get(0) is None
    cache.put("big", b"x" * 101)  # heavier than the budget: not kept
    assert cache.get("big") is None and cache.nbytes == sum(len(v) for v, _ in cache.entries.values())
    cache.put(9, b"y")  # replacing an entry counts its new size only
    assert cache.nbytes == sum(len(v) for v, _ in cache.entries.values())
