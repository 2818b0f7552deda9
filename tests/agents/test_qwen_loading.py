"""Model loading refuses pickle-format weights (issue 14, item 9).

The decoy case: a ``*.safetensors`` file beside ``adapter_model.bin`` once passed the
"safetensors only" check, and PEFT then loaded the pickle. The pickles here are real: unpickling
them would create a marker file, so a test also shows that nothing was unpickled.
"""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("peft")

from cerebellum_gym.agents import load_agent
from cerebellum_gym.agents.qwen_agent import QwenActionAgent
from cerebellum_gym.errors import CerebellumError


class _Payload:
    """Unpickling this creates ``marker`` (a stand-in for arbitrary code)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (self.marker.touch, ())


def _poison(path: Path, marker: Path) -> None:
    path.write_bytes(pickle.dumps(_Payload(marker)))


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def test_the_payload_runs_when_unpickled(tmp_path: Path) -> None:
    _poison(tmp_path / "x.bin", tmp_path / "ran")
    pickle.loads((tmp_path / "x.bin").read_bytes())  # what loading a pickle would do
    assert (tmp_path / "ran").exists()


def test_decoy_safetensors_beside_a_pickled_adapter_is_refused(tiny_model: Path, tiny_adapter: Path, tmp_path: Path) -> None:
    adapter = tmp_path / "adapter"
    adapter.mkdir()
    shutil.copy(tiny_adapter / "adapter_config.json", adapter)
    (adapter / "decoy.safetensors").write_bytes((tiny_adapter / "adapter_model.safetensors").read_bytes())
    marker = tmp_path / "ran"
    _poison(adapter / "adapter_model.bin", marker)
    with pytest.raises(CerebellumError, match=r"adapter folder .* pickle-format files \(adapter_model\.bin\)"):
        QwenActionAgent.from_pretrained(tiny_model, adapter)
    with pytest.raises(CerebellumError, match=r"adapter_model\.bin"):
        load_agent(f"qwen:{tiny_model},{adapter}")
    assert not marker.exists()


@pytest.mark.parametrize("name", ["adapter_model.pt", "weights.pth", "state.pkl", "last.ckpt", "ADAPTER.BIN", "sub/optimizer.pt"])
def test_any_pickle_format_file_in_the_adapter_folder_is_refused(tiny_model: Path, tiny_adapter: Path, tmp_path: Path, name: str) -> None:
    adapter = _copy(tiny_adapter, tmp_path / "adapter")
    (adapter / name).parent.mkdir(parents=True, exist_ok=True)
    _poison(adapter / name, tmp_path / "ran")
    with pytest.raises(CerebellumError, match="pickle-format"):
        QwenActionAgent.from_pretrained(tiny_model, adapter)
    assert not (tmp_path / "ran").exists()


@pytest.mark.parametrize("name", ["pytorch_model.bin", "model.pt", "training_args.bin"])
def test_any_pickle_format_file_in_the_base_folder_is_refused(tiny_model: Path, tmp_path: Path, name: str) -> None:
    base = _copy(tiny_model, tmp_path / "base")
    _poison(base / name, tmp_path / "ran")
    with pytest.raises(CerebellumError, match=rf"base model folder .*\({name}\)"):
        QwenActionAgent.from_pretrained(base)
    assert not (tmp_path / "ran").exists()


def test_adapter_without_its_safetensors_weights_is_refused(tiny_model: Path, tiny_adapter: Path, tmp_path: Path) -> None:
    adapter = tmp_path / "adapter"
    adapter.mkdir()
    shutil.copy(tiny_adapter / "adapter_config.json", adapter)
    (adapter / "decoy.safetensors").write_bytes((tiny_adapter / "adapter_model.safetensors").read_bytes())
    with pytest.raises(CerebellumError, match=r"no adapter_model\.safetensors"):
        QwenActionAgent.from_pretrained(tiny_model, adapter)


def test_adapter_for_another_model_is_refused(tiny_model: Path, tmp_path: Path) -> None:
    from safetensors.torch import load_file, save_file

    from cerebellum_gym.agents.qwen_tiny import build_lora

    adapter = build_lora(tiny_model, tmp_path / "adapter", r=4, alpha=8, targets=["q_proj"])
    state = load_file(str(adapter / "adapter_model.safetensors"))
    save_file({k.replace("q_proj", "k_proj"): v for k, v in state.items()}, str(adapter / "adapter_model.safetensors"))
    with pytest.raises(CerebellumError, match="does not fit the base model"):
        QwenActionAgent.from_pretrained(tiny_model, adapter)


def test_base_folder_without_safetensors_is_refused(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(CerebellumError, match="only safetensors"):
        QwenActionAgent.from_pretrained(tmp_path)
