"""A text-only causal LM as the policy: loaded as a causal LM (no vision tower, so it reads the
tree only), LoRA targets found for its architecture, decoding legal actions and training.

The model is a tiny random Llama built here with the project's local tokenizer (no download),
saved as safetensors and loaded through the same path users take.
"""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("peft")

import cerebellum_gym  # noqa: E402,F401
from cerebellum_gym.agents.qwen_agent import QwenActionAgent, allowed_actions  # noqa: E402
from cerebellum_gym.agents.qwen_scorer import ActionScorer  # noqa: E402
from cerebellum_gym.training.common import DECODER_TARGETS, LoraSettings, load_policy, lora_targets  # noqa: E402


@pytest.fixture(scope="module")
def tiny_llama(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from transformers import LlamaConfig, LlamaForCausalLM

    from cerebellum_gym.agents.qwen_tiny import build_tokenizer

    folder = tmp_path_factory.mktemp("tiny-llama")
    tokenizer = build_tokenizer()
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=8192,
        eos_token_id=tokenizer.convert_tokens_to_ids("<|im_end|>"),
        pad_token_id=tokenizer.pad_token_id,
    )
    torch.manual_seed(0)
    LlamaForCausalLM(config).save_pretrained(folder, safe_serialization=True)
    tokenizer.save_pretrained(folder)
    return folder


def test_a_text_only_causal_lm_reads_the_tree_and_trains(tiny_llama: Path) -> None:
    agent = QwenActionAgent.from_pretrained(tiny_llama, device="cpu", dtype="float32", max_text_tokens=6)
    assert agent.image_processor is None and not agent.needs_pixels
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False)
    obs, _ = env.reset(seed=0)
    action = agent.act(obs)
    complete, _ = allowed_actions(obs)
    assert action in complete or action.startswith(("K ", "F "))
    assert lora_targets(agent.model) == DECODER_TARGETS
    policy = load_policy(tiny_llama, None, lora=LoraSettings(r=2, alpha=4), device="cpu", dtype="float32")
    trained = [n for n, p in policy.model.named_parameters() if p.requires_grad]
    assert trained and all("lora_" in n for n in trained)
    assert any("self_attn.q_proj" in n for n in trained) and any("mlp.down_proj" in n for n in trained)
    scorer = ActionScorer(policy)
    out = scorer.score([scorer.item(obs, "W", step=1)])
    out.logprob.sum().backward()  # the SFT loss's gradient reaches the adapter
    assert any(p.grad is not None and float(p.grad.abs().sum()) > 0 for n, p in policy.model.named_parameters() if "lora_B" in n)
