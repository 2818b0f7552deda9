"""The Qwen3.5 reference agent, on a tiny random Qwen3.5 built here.

Downloaded weights are the boundary we cannot reach in tests: the model is a real
``Qwen3_5ForConditionalGeneration`` with random weights (hidden 64, 2 layers, a one-block
vision tower) and a byte-level BPE tokenizer trained locally, saved as safetensors and loaded back
through the same ``from_pretrained`` path users take, with a real PEFT LoRA adapter. Random
weights make the unconstrained output garbage, which is what makes the constraint testable.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
peft = pytest.importorskip("peft")

import cerebellum_gym  # noqa: E402,F401
from cerebellum_gym.agents.qwen_agent import ActionConstraint, QwenActionAgent, allowed_actions, build_prompt  # noqa: E402
from cerebellum_gym.core.actions import CODES, parse_action  # noqa: E402
from cerebellum_gym.errors import CerebellumError  # noqa: E402

SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|vision_start|>", "<|vision_end|>", "<|image_pad|>", "<|video_pad|>"]


def _build_tiny(path: Path, seed: int) -> None:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil
    from transformers.models.qwen3_5 import Qwen3_5Config, Qwen3_5ForConditionalGeneration

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=420, special_tokens=SPECIALS, initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    corpus = ["Task: Turn wifi on.", "Next action:", "T UE", "K hello world", '[AB] TextView "Settings"', "Action taken: T QX"] * 20
    tok.train_from_iterator(corpus, trainer)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|endoftext|>", pad_token="<|endoftext|>")
    tokenizer.add_special_tokens({"additional_special_tokens": SPECIALS[1:]})
    ids = {name: tokenizer.convert_tokens_to_ids(name) for name in SPECIALS}
    config = Qwen3_5Config(
        text_config={
            "vocab_size": len(tokenizer),
            "hidden_size": 64,
            "intermediate_size": 128,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "num_key_value_heads": 1,
            "head_dim": 32,
            "linear_num_key_heads": 2,
            "linear_num_value_heads": 2,
            "linear_key_head_dim": 16,
            "linear_value_head_dim": 16,
            "layer_types": ["linear_attention", "full_attention"],
            "max_position_embeddings": 8192,
            "eos_token_id": ids["<|endoftext|>"],
            "pad_token_id": ids["<|endoftext|>"],
        },
        vision_config={
            "depth": 1,
            "hidden_size": 32,
            "intermediate_size": 64,
            "num_heads": 2,
            "out_hidden_size": 64,
            "num_position_embeddings": 256,
        },
        image_token_id=ids["<|image_pad|>"],
        video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"],
        vision_end_token_id=ids["<|vision_end|>"],
        tie_word_embeddings=True,
    )
    torch.manual_seed(seed)
    Qwen3_5ForConditionalGeneration(config).save_pretrained(path, safe_serialization=True)
    tokenizer.save_pretrained(path)
    Qwen2VLImageProcessorPil(
        patch_size=16, merge_size=2, temporal_patch_size=2, min_pixels=32 * 32 * 4, max_pixels=232 * 520
    ).save_pretrained(path)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tiny-qwen35")
    _build_tiny(path, seed=0)
    return path


@pytest.fixture(scope="module")
def tiny_adapter(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForImageTextToText

    base = AutoModelForImageTextToText.from_pretrained(tiny_model)
    # PEFT has no default target modules for qwen3_5: name them.
    lora = get_peft_model(base, LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"], init_lora_weights=False))
    out = tmp_path_factory.mktemp("tiny-lora")
    lora.save_pretrained(out, safe_serialization=True)
    return out


@pytest.fixture(scope="module")
def agent(tiny_model: Path, tiny_adapter: Path) -> QwenActionAgent:
    torch.set_num_threads(1)
    return QwenActionAgent.from_pretrained(tiny_model, adapter=tiny_adapter, max_text_tokens=8)


def _obs(task: str, seed: int, steps: int = 0, **kwargs: Any) -> tuple[gym.Env[Any, Any], dict[str, Any]]:
    env = gym.make("Cerebellum-Sim-v0", task=task, screenshot_width=232, history_width=116, **kwargs)
    obs, _ = env.reset(seed=seed)
    for _ in range(steps):
        obs, *_ = env.step(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
    return env, obs


def test_prompt_follows_the_reference_format() -> None:
    _, obs = _obs("SystemWifiTurnOn", seed=0, steps=2)
    text, images = build_prompt(obs)
    assert text.startswith("Task: Turn wifi on.\n\nStep 1:\n<image>\nAction taken: ")
    assert "Step 2:" in text and "Step 3:" not in text
    assert text.endswith("\nNext action:") and "Current screen:\n<image>\n" in text
    assert len(images) == 3 and images[-1].shape == obs["screenshot"].shape
    text_only, none = build_prompt(obs, use_images=False)
    assert "<image>" not in text_only and none == []


def test_constraint_trie_allows_exactly_the_legal_continuations() -> None:
    c = ActionConstraint(complete=[(1,), (2, 3), (2, 4)], open_prefixes=[(5,)], eos=0)
    assert c.allowed([]) == [1, 2, 5]
    assert c.allowed([2]) == [3, 4]
    assert c.allowed([2, 3]) == [0]  # complete: only EOS
    assert c.allowed([5]) == "free-not-empty"
    assert c.allowed([5, 9]) == "free"


def test_allowed_actions_follow_masks_and_labels() -> None:
    obs = {"action_mask": np.array([1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0]), "labels": ("AB", "CD")}
    complete, opened = allowed_actions(obs)
    assert complete == ["T AB", "T CD", "D", "B", "F"] and opened == ["F "]


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
    env, obs = _obs("ContactsAddContact", seed=3, steps=3)
    only_type = dict(obs)
    only_type["action_mask"] = np.array([1 if c == "K" else 0 for c in CODES], dtype=np.int8)
    action = parse_action(agent.act(only_type))
    assert action.code == "K" and action.text  # free text, at least one token
    only_tap = dict(obs)
    only_tap["action_mask"] = np.array([1 if c == "T" else 0 for c in CODES], dtype=np.int8)
    action = parse_action(agent.act(only_tap))
    assert action.code == "T" and action.label in obs["labels"]


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


def test_refuses_checkpoints_without_safetensors(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{}")
    (tmp_path / "pytorch_model.bin").write_bytes(b"pickle")
    with pytest.raises(CerebellumError, match="only safetensors"):
        QwenActionAgent.from_pretrained(tmp_path)


def test_loads_from_the_cli_spec(tiny_model: Path, tiny_adapter: Path) -> None:
    from cerebellum_gym.agents import load_agent

    agent = load_agent(f"qwen:{tiny_model},{tiny_adapter}", max_text_tokens=4)
    assert isinstance(agent, QwenActionAgent) and agent.needs_pixels
    assert not load_agent(f"qwen:{tiny_model}", use_images=False).needs_pixels
