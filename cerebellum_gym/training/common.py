"""What the SFT and DPO trainers share: the trainable policy, the optimizer, crash-safe
checkpoints, the JSONL log, the PNG curves and the progress bar.

Checkpoints (``OUT/checkpoints/step-NNNNNN/``) are PEFT adapter folders, safetensors only, that
``PeftModel.from_pretrained`` (and ``qwen:BASE,CHECKPOINT``) loads, with the optimizer state (also
safetensors) and ``trainer_state.json`` beside them. Each is written into a hidden temporary
folder, synced and renamed into place, and only then named in ``OUT/latest``, so a kill at any
moment leaves the last checkpoint whole. A run never writes into the adapter it started from.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import shutil
import time
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from cerebellum_gym.agents.qwen_prompt import PromptLimits
from cerebellum_gym.errors import CerebellumError

__all__ = [
    "LoraSettings",
    "Run",
    "RunLog",
    "base_fingerprint",
    "best_checkpoint",
    "build_optimizer",
    "load_policy",
    "prepare_out",
    "read_checkpoint",
    "start_run",
    "write_best",
    "write_checkpoint",
    "write_curves",
]

CHECKPOINTS: Final = "checkpoints"
LATEST: Final = "latest"
STATE: Final = "trainer_state.json"
OPTIMIZER: Final = "optimizer.safetensors"
LOG: Final = "log.jsonl"
BEST: Final = "best"


@dataclass(frozen=True)
class LoraSettings:
    """A new adapter's shape (used when no starting adapter is given).

    Attributes:
        r: rank. alpha: scale numerator. dropout: LoRA dropout. dora: weight-decomposed LoRA
        (DoRA) instead of plain LoRA. targets: module-name regex (default: attention, Gated
        DeltaNet projections and MLP of every language-model layer).
    """

    r: int = 16
    alpha: int = 32
    dropout: float = 0.0
    dora: bool = False
    targets: str | None = None


def base_fingerprint(model: Any) -> str:
    """A short hash of the base model's text and vision shapes: an adapter trained on one base
    is refused on another."""
    config = getattr(model, "config", None)
    if hasattr(model, "get_base_model"):
        config = model.get_base_model().config
    parts: dict[str, Any] = {}
    for name in ("text_config", "vision_config"):
        sub = getattr(config, name, None)
        if sub is not None:
            parts[name] = {
                k: getattr(sub, k, None)
                for k in ("hidden_size", "num_hidden_layers", "intermediate_size", "vocab_size", "depth", "num_attention_heads")
            }
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:16]


def load_policy(
    base: str | os.PathLike[str],
    adapter: str | os.PathLike[str] | None,
    *,
    lora: LoraSettings = LoraSettings(),
    device: str = "auto",
    dtype: str = "auto",
    limits: PromptLimits | None = None,
    use_images: bool = True,
    max_text_tokens: int | None = None,
    seed: int = 0,
) -> Any:
    """A :class:`~cerebellum_gym.agents.qwen_agent.QwenActionAgent` whose adapter trains: the
    starting ``adapter`` loaded trainable, or a new LoRA/DoRA adapter.

    Raises:
        CerebellumError: the adapter was not made for this base model (its tensors do not fit,
            or its trainer state names another base), or the model stack is missing.
    """
    try:
        from peft import LoraConfig, get_peft_model
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise CerebellumError(f"training needs the 'agents' extra: {exc}") from exc
    from cerebellum_gym.agents.qwen_agent import QwenActionAgent
    from cerebellum_gym.training.gguf import resolve_base

    base = resolve_base(str(base))  # a named or .gguf base: its cached safetensors folder
    kwargs: dict[str, Any] = {"max_text_tokens": max_text_tokens}
    if limits is not None:
        kwargs["limits"] = limits
    try:
        agent = QwenActionAgent.from_pretrained(base, adapter, device=device, dtype=dtype, use_images=use_images, trainable=True, **kwargs)
    except RuntimeError as exc:  # a size mismatch while loading the adapter's tensors
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CerebellumError(f"the adapter {adapter} was not made for the base model {base}: {first[:300]}") from None
    fingerprint = base_fingerprint(agent.model)
    if adapter is not None:
        state = Path(adapter) / STATE
        if state.is_file():
            made_for = json.loads(state.read_text()).get("base_fingerprint")
            if made_for and made_for != fingerprint:
                raise CerebellumError(
                    f"the adapter {adapter} was trained on another base model than {base} (fingerprint {made_for} != {fingerprint})"
                )
        return agent
    import torch

    torch.manual_seed(seed)  # a new adapter's initial weights follow the run's seed
    config = LoraConfig(
        r=lora.r,
        lora_alpha=lora.alpha,
        lora_dropout=lora.dropout,
        use_dora=lora.dora,
        target_modules=lora.targets or lora_targets(agent.model),
    )
    model = get_peft_model(agent.model, config)
    return QwenActionAgent(model, agent.tokenizer, agent.image_processor, limits=agent.encoder.limits, max_text_tokens=max_text_tokens)


#: LoRA targets of decoder-only language models (Llama, Mistral, SmolLM, Qwen2/3 text...): the
#: attention and MLP projections of every layer.
DECODER_TARGETS: Final = r".*layers\.\d+\.(self_attn\.(q|k|v|o)_proj|mlp\.(gate|up|down)_proj)"


def lora_targets(model: Any) -> str:
    """The LoRA targets for ``model``'s architecture: Qwen3.5's language model (attention, Gated
    DeltaNet and MLP projections, not the vision tower), else a decoder-only model's attention
    and MLP projections.

    Raises:
        CerebellumError: neither matches a module (name them with ``LoraSettings.targets``).
    """
    import re

    from cerebellum_gym.agents.qwen_tiny import LORA_TARGETS

    names = [name for name, _ in model.named_modules()]
    for pattern in (LORA_TARGETS, DECODER_TARGETS):
        if any(re.fullmatch(pattern, name) for name in names):
            return pattern
    raise CerebellumError(
        f"no known LoRA targets in {type(model).__name__} (modules such as {names[1:4]}): name them (LoraSettings.targets)"
    )


def enable_checkpointing(model: Any) -> None:
    """Recompute activations in the backward pass (memory for time: what lets the card's
    12 x 2,600-token micro-batch fit a 12 GB GPU). transformers checkpoints only in training
    mode; Qwen3.5 has no dropout, so its outputs do not change."""
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if hasattr(model, "enable_input_require_grads"):
        model.enable_input_require_grads()
    model.train()


def trainable_parameters(model: Any) -> list[Any]:
    return [p for p in model.parameters() if p.requires_grad]


def build_optimizer(model: Any, name: str, lr: float, weight_decay: float) -> tuple[Any, str]:
    """``adamw`` (torch's), ``paged_adamw_8bit`` (bitsandbytes, GPU only: the card's) or ``auto``
    (the 8-bit one on CUDA when bitsandbytes is installed, AdamW otherwise); and the name used.

    Raises:
        CerebellumError: an unknown optimizer, or 8-bit AdamW without CUDA or bitsandbytes.
    """
    import torch

    params = trainable_parameters(model)
    if not params:
        raise CerebellumError("the model has nothing to train (no adapter tensor requires gradients)")
    on_cuda = params[0].device.type == "cuda"
    if name == "auto":
        try:
            import bitsandbytes  # noqa: F401

            has_bnb = True
        except ImportError:
            has_bnb = False
        name = "paged_adamw_8bit" if on_cuda and has_bnb else "adamw"
        if on_cuda and not has_bnb:
            warnings.warn(
                "--optimizer auto: bitsandbytes is not installed, so the card's paged 8-bit AdamW is not used; training with "
                "torch's AdamW (more optimizer memory). pip install 'cerebellum-gym[train-gpu]' for the 8-bit one",
                stacklevel=2,
            )
    if name == "adamw":
        return torch.optim.AdamW(params, lr=lr, weight_decay=weight_decay), name
    if name == "paged_adamw_8bit":
        if not on_cuda:
            raise CerebellumError("paged_adamw_8bit needs a CUDA device (use --optimizer adamw on a CPU)")
        try:
            import bitsandbytes as bnb
        except ImportError as exc:
            raise CerebellumError(f"paged_adamw_8bit needs bitsandbytes (pip install 'cerebellum-gym[train-gpu]'): {exc}") from None
        return bnb.optim.PagedAdamW8bit(params, lr=lr, weight_decay=weight_decay), name
    raise CerebellumError(f"unknown optimizer {name!r}; use adamw, paged_adamw_8bit or auto")


def prepare_out(out: str | os.PathLike[str], start_adapter: str | os.PathLike[str] | None, *, resume: bool) -> Path:
    """The run folder, checked: never the starting adapter or a folder around or inside it, and
    without ``resume`` not a folder that already holds a run.

    Raises:
        CerebellumError: naming what is wrong.
    """
    root = Path(out)
    if start_adapter is not None:
        adapter = Path(start_adapter).resolve()
        here = root.resolve()
        if here == adapter or here.is_relative_to(adapter) or adapter.is_relative_to(here):
            raise CerebellumError(
                f"the run folder {root} holds or is the starting adapter {start_adapter}: a run never overwrites it; choose another --out"
            )
    if root.exists() and not root.is_dir():
        raise CerebellumError(f"--out {root} is a file")
    if not resume and (root / LATEST).exists():
        raise CerebellumError(f"{root} already holds a run: pass --resume to continue it, or choose another --out")
    root.mkdir(parents=True, exist_ok=True)
    # A temporary checkpoint left by a kill is garbage: the last whole one is named in LATEST.
    for stale in (root / CHECKPOINTS).glob(".*.tmp") if (root / CHECKPOINTS).is_dir() else ():
        shutil.rmtree(stale, ignore_errors=True)
    return root


def _fsync_tree(folder: Path) -> None:
    for path in folder.iterdir():
        if path.is_file():
            with open(path, "rb") as f:
                os.fsync(f.fileno())
    with contextlib.suppress(OSError):  # directories cannot be opened for sync everywhere
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_text_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _optimizer_tensors(optimizer: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    import torch

    state = optimizer.state_dict()
    tensors: dict[str, Any] = {}
    meta: dict[str, Any] = {"param_groups": state["param_groups"], "state": {}}
    for index, entry in state["state"].items():
        kept: dict[str, Any] = {}
        for key, value in entry.items():
            if isinstance(value, torch.Tensor):
                tensors[f"{index}.{key}"] = value.detach().cpu().contiguous()
                kept[key] = "__tensor__"
            else:
                kept[key] = value
        meta["state"][str(index)] = kept
    return tensors, meta


def _load_optimizer(optimizer: Any, tensors: Mapping[str, Any], meta: Mapping[str, Any]) -> None:
    state: dict[int, dict[str, Any]] = {}
    for index, entry in meta["state"].items():
        state[int(index)] = {k: (tensors[f"{index}.{k}"] if v == "__tensor__" else v) for k, v in entry.items()}
    optimizer.load_state_dict({"state": state, "param_groups": meta["param_groups"]})


def _write_folder(root: Path, name: str, pointer: str, model: Any, state: Mapping[str, Any], optimizer: Any = None) -> Path:
    """``model``'s adapter (and ``optimizer``'s state) into ``root/checkpoints/NAME``: written in
    a hidden temporary folder, synced, renamed into place, and only then named in ``root/POINTER``."""
    from safetensors.torch import save_file

    folder = root / CHECKPOINTS
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{name}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(str(tmp), safe_serialization=True)
    full = dict(state)
    if optimizer is not None:
        tensors, meta = _optimizer_tensors(optimizer)
        save_file(tensors, str(tmp / OPTIMIZER))
        full["optimizer_state"] = meta
    (tmp / STATE).write_text(json.dumps(full, indent=1, default=float) + "\n")
    _fsync_tree(tmp)
    final = folder / name
    if final.exists():  # a checkpoint of this step from a run resumed before it: the new one wins
        shutil.rmtree(final)
    os.replace(tmp, final)
    _write_text_atomic(root / pointer, name + "\n")
    return final


def _pointed(root: Path, pointer: str) -> Path | None:
    """The whole checkpoint folder ``root/POINTER`` names (``None`` when there is none)."""
    path = root / pointer
    if not path.is_file():
        return None
    folder = root / CHECKPOINTS / path.read_text().strip()
    return folder if (folder / STATE).is_file() else None


def write_checkpoint(root: Path, step: int, model: Any, optimizer: Any, state: Mapping[str, Any]) -> Path:
    """Checkpoint ``step`` into ``root/checkpoints/step-NNNNNN`` (atomically) and name it in
    ``root/latest``."""
    return _write_folder(root, f"step-{step:06d}", LATEST, model, {**state, "step": step}, optimizer)


def write_best(root: Path, step: int, model: Any, state: Mapping[str, Any]) -> Path:
    """The adapter of ``step`` as the run's best so far: ``root/checkpoints/best-step-NNNNNN``
    (written atomically, no optimizer state), named in ``root/best``; the previous best goes."""
    final = _write_folder(root, f"best-step-{step:06d}", BEST, model, {**state, "step": step})
    for old in final.parent.glob("best-step-*"):  # only once the pointer names the new one
        if old.name != final.name:
            shutil.rmtree(old, ignore_errors=True)
    return final


def best_checkpoint(root: Path) -> Path | None:
    """The adapter :func:`write_best` kept last (``None`` when there is none)."""
    return _pointed(root, BEST)


def latest_checkpoint(root: Path) -> Path | None:
    """The last whole checkpoint of the run in ``root`` (``None`` when there is none)."""
    return _pointed(root, LATEST)


def read_checkpoint(folder: Path, model: Any, optimizer: Any) -> dict[str, Any]:
    """Load a checkpoint's adapter tensors and optimizer state into ``model`` and ``optimizer``;
    its trainer state."""
    from peft.utils import set_peft_model_state_dict
    from safetensors.torch import load_file

    state: dict[str, Any] = json.loads((folder / STATE).read_text())
    result: Any = set_peft_model_state_dict(model, load_file(str(folder / "adapter_model.safetensors")))
    unexpected = list(getattr(result, "unexpected_keys", ()))
    if unexpected:
        raise CerebellumError(f"the checkpoint {folder} does not fit the model ({len(unexpected)} unexpected tensors)")
    _load_optimizer(optimizer, load_file(str(folder / OPTIMIZER)), state.pop("optimizer_state"))
    return state


@dataclass
class Run:
    """A run's policy and optimizer, restored from its last checkpoint on resume.

    Attributes:
        agent: the agent whose adapter trains. optimizer, optimizer_name: its optimizer.
        fingerprint: the base model's (:func:`base_fingerprint`). checkpoint: the checkpoint
        resumed from (``None``: a fresh start). state: its trainer state. start: steps done.
    """

    agent: Any
    optimizer: Any
    optimizer_name: str
    fingerprint: str
    checkpoint: Path | None
    state: dict[str, Any]
    start: int


def start_run(root: Path, config: Any, *, resume: bool) -> Run:
    """The policy, optimizer and progress of the run in ``root`` for ``config`` (an SFT or DPO
    config: ``base``, ``init_adapter``, ``lora``, ``limits``, ``history_len``, ``optimizer``...).

    Raises:
        CerebellumError: see :func:`load_policy`, or a checkpoint made on another base.
    """
    from dataclasses import replace

    agent = load_policy(
        config.base,
        config.init_adapter,
        lora=config.lora,
        device=config.device,
        dtype=config.dtype,
        limits=replace(config.limits, history_len=config.history_len),
        use_images=config.use_images,
        max_text_tokens=config.eval_max_text_tokens,
        seed=config.seed,
    )
    if getattr(config, "gradient_checkpointing", False):
        enable_checkpointing(agent.model)
    # Training mode whatever the checkpointing: the agent loads in eval mode, where LoRA dropout
    # is off (checks switch to eval mode and back with `evaluating`).
    agent.model.train()
    fingerprint = base_fingerprint(agent.model)
    optimizer, name = build_optimizer(agent.model, config.optimizer, config.lr, config.weight_decay)
    checkpoint = latest_checkpoint(root) if resume else None
    state: dict[str, Any] = {}
    if checkpoint is not None:
        state = read_checkpoint(checkpoint, agent.model, optimizer)
        if state.get("base_fingerprint") != fingerprint:
            raise CerebellumError(f"the run in {root} was trained on another base model than {config.base}")
    return Run(agent, optimizer, name, fingerprint, checkpoint, state, int(state.get("step", 0)))


class RunLog:
    """``OUT/log.jsonl``: one JSON object per line (``kind``: ``train``, ``eval``, ...), flushed
    each line. On resume, lines of steps after the checkpoint are dropped (they are redone)."""

    def __init__(self, root: Path, *, resume_step: int | None = None) -> None:
        self.path = root / LOG
        self.records: list[dict[str, Any]] = []
        if resume_step is not None and self.path.is_file():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                with contextlib.suppress(ValueError):  # a line torn by the kill
                    record = json.loads(line)
                    if int(record.get("step", 0)) <= resume_step:
                        self.records.append(record)
            _write_text_atomic(self.path, "".join(json.dumps(r) + "\n" for r in self.records))
        elif self.path.exists():
            self.path.unlink()
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the run

    def write(self, record: Mapping[str, Any]) -> None:
        line = dict(record)
        self.records.append(line)
        self._file.write(json.dumps(line, default=_json_default) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def _json_default(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return str(value)


def write_curves(path: Path, records: Sequence[Mapping[str, Any]], panels: Sequence[tuple[str, str, Sequence[str]]]) -> bool:
    """A PNG of the run's curves: one panel per ``(title, kind, keys)`` (the values of ``keys``
    in records of ``kind`` against ``step``). ``False`` when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 3.6), squeeze=False)
    for ax, (title, kind, keys) in zip(axes[0], panels, strict=True):
        rows = [r for r in records if r.get("kind") == kind]
        for key in keys:
            points = [(r["step"], r[key]) for r in rows if isinstance(r.get(key), int | float) and math.isfinite(r[key])]
            if points:
                xs, ys = zip(*points, strict=True)
                ax.plot(xs, ys, marker="o" if len(points) < 30 else None, markersize=3, label=key)
        ax.set_title(title)
        ax.set_xlabel("step")
        if keys:
            ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    tmp = path.with_name(f".{path.name}.tmp.png")
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    os.replace(tmp, path)
    return True


class Progress:
    """A tqdm bar when tqdm is installed and ``enabled``; silent otherwise."""

    def __init__(self, total: int, initial: int, desc: str, enabled: bool) -> None:
        self.bar: Any = None
        self.desc = desc
        if enabled:
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, initial=initial, desc=desc, unit="step", dynamic_ncols=True)
            except ImportError:
                self.bar = None

    def update(self, **postfix: Any) -> None:
        if self.bar is not None:
            self.bar.set_postfix({k: (f"{v:.4g}" if isinstance(v, float) else v) for k, v in postfix.items()}, refresh=False)
            self.bar.update(1)

    def checking(self, done: int, total: int) -> None:
        """Show a check's own progress (``done`` of ``total`` steps scored) on the bar, which
        would otherwise stand still while the check runs; ``total`` 0 ends it."""
        if self.bar is not None:
            self.bar.set_description(f"{self.desc} (check {done}/{total})" if total else self.desc, refresh=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


@contextlib.contextmanager
def evaluating(model: Any) -> Iterator[None]:
    """``model`` in eval mode for the block (a checkpointing run decodes with its cache), then back."""
    was = bool(getattr(model, "training", False))
    model.eval()
    try:
        yield
    finally:
        model.train(was)


@contextlib.contextmanager
def timer() -> Iterator[list[float]]:
    """Yields a one-element list that holds the elapsed seconds once the block ends."""
    box = [0.0]
    tick = time.perf_counter()
    try:
        yield box
    finally:
        box[0] = time.perf_counter() - tick
