"""Fixtures of the Qwen agent tests: a tiny random Qwen3.5 built here, and a LoRA on it.

Downloaded weights are the boundary we cannot reach in tests: the model is a real
``Qwen3_5ForConditionalGeneration`` with random weights and a byte-level BPE tokenizer trained
locally (with a chat template in the shape of Qwen3.5's), saved as safetensors and loaded back
through the same ``from_pretrained`` path users take.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("transformers")
    from cerebellum_gym.agents.qwen_tiny import build_tiny_qwen35

    return build_tiny_qwen35(tmp_path_factory.mktemp("tiny-qwen35"), seed=0)


@pytest.fixture(scope="session")
def tiny_adapter(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("peft")
    from cerebellum_gym.agents.qwen_tiny import build_lora

    return build_lora(tiny_model, tmp_path_factory.mktemp("tiny-lora"), r=4, alpha=8)
