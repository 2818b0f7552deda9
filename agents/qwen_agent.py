"""The reference agent: a Qwen3.5 vision-language model (plus a LoRA adapter) that reads the
goal, the recent history and the current screen, and emits one action code under constrained
decoding.

The prompt follows the format the reference adapter was trained on: the goal, up to four history
frames (image, action taken, compact subtree of the element acted on), the current screenshot and
the compact tree with set-of-mark labels, the action legend, then ``Next action:``.

Decoding is constrained so every answer is legal on the current screen:

- the first token must start one of the codes the observation's ``action_mask`` allows;
- ``T``/``P`` labels must be labels visible now;
- ``K`` text is generated freely until end of sequence (at least one token);
- codes without arguments end at once; ``F`` may carry an answer.

Needs the ``agents`` extra (torch, transformers >= 5.2, peft). Weights load only from safetensors
and never with remote code. ``AutoProcessor`` needs torchvision, so the tokenizer and the image
processor are loaded separately.

Example (with real weights; tests build a tiny random model instead)::

    agent = QwenActionAgent.from_pretrained("Qwen/Qwen3.5-0.8B", adapter="path/to/lora")
    action = agent.act(obs)   # e.g. "T UE"
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np

from cerebellum_gym.agents.base import Agent, Observation, OracleSource
from cerebellum_gym.core.actions import CODES, parse_action
from cerebellum_gym.errors import CerebellumError, InvalidActionError

ACTION_LEGEND: Final = (
    "Actions: T <label>=tap, P <label>=long-press, K {text}=type text, U/D/L/R=scroll, B=back, H=home, W=wait, F=done, I=impossible."
)
IMAGE_PLACEHOLDER: Final = "<image>"
VISION_START: Final = "<|vision_start|>"
VISION_END: Final = "<|vision_end|>"
IMAGE_PAD: Final = "<|image_pad|>"
FREE: Final = "free"
FREE_NOT_EMPTY: Final = "free-not-empty"


def build_prompt(observation: Observation, *, use_images: bool = True) -> tuple[str, list[np.ndarray]]:
    """The prompt text (with ``<image>`` where each image goes) and the images, in order.

    History frames come oldest first; padding frames are skipped. Without images the
    placeholders are left out and the model reads text only.
    """
    parts = [f"Task: {observation.get('goal', '')}", ""]
    images: list[np.ndarray] = []
    history = observation.get("history") or {}
    mask = list(np.asarray(history.get("mask", ())).tolist())
    shots = history.get("screenshots")
    step = 0
    for i, filled in enumerate(mask):
        if not filled:
            continue
        step += 1
        parts.append(f"Step {step}:")
        if use_images and shots is not None:
            parts.append(IMAGE_PLACEHOLDER)
            images.append(np.asarray(shots[i]))
        parts.append(f"Action taken: {history['actions'][i]}")
        if history["subtrees"][i]:
            parts.append(history["subtrees"][i])
        parts.append("")
    parts.append("Current screen:")
    if use_images and observation.get("screenshot") is not None:
        parts.append(IMAGE_PLACEHOLDER)
        images.append(np.asarray(observation["screenshot"]))
    parts += [str(observation.get("tree", "")), "", ACTION_LEGEND, "Next action:"]
    return "\n".join(parts), images


def allowed_actions(observation: Observation) -> tuple[list[str], list[str]]:
    """Complete action strings legal now, and open prefixes (``"K "``, ``"F "``) followed by free text."""
    mask = observation.get("action_mask")
    legal = [c for c, ok in zip(CODES, np.asarray(mask).tolist(), strict=True) if ok] if mask is not None else list(CODES)
    labels = list(observation.get("labels", ()))
    complete: list[str] = []
    open_prefixes: list[str] = []
    for code in legal:
        if code in "TP":
            complete += [f"{code} {label}" for label in labels]
        elif code == "K":
            open_prefixes.append("K ")
        elif code == "F":
            complete.append("F")
            open_prefixes.append("F ")
        else:
            complete.append(code)
    if not complete and not open_prefixes:
        complete.append("W")
    return complete, open_prefixes


@dataclass
class ActionConstraint:
    """Which tokens may come next, given what was generated: a token trie over the legal action
    strings, then free text after an open prefix.

    Attributes:
        complete: token sequences of complete actions.
        open_prefixes: token sequences after which free text follows.
        eos: the end-of-sequence token id.
        banned: ids never allowed in free text (image and other special tokens).
    """

    complete: list[tuple[int, ...]]
    open_prefixes: list[tuple[int, ...]]
    eos: int
    banned: frozenset[int] = field(default_factory=frozenset)

    def allowed(self, generated: Sequence[int]) -> list[int] | str:
        """Token ids allowed next, or :data:`FREE` / :data:`FREE_NOT_EMPTY` inside free text
        (any token but the banned ones; the first free token may not be EOS)."""
        n = len(generated)
        prefix = tuple(generated)
        for opener in self.open_prefixes:
            if n >= len(opener) and prefix[: len(opener)] == opener:
                return FREE if n > len(opener) else FREE_NOT_EMPTY
        nxt: set[int] = set()
        for seq in (*self.complete, *self.open_prefixes):
            if len(seq) > n and seq[:n] == prefix:
                nxt.add(seq[n])
        if prefix in self.complete:
            nxt.add(self.eos)
        return sorted(nxt) if nxt else [self.eos]


def _make_logits_processor(constraint: ActionConstraint, prompt_len: int) -> Any:
    import torch
    from transformers import LogitsProcessor

    class _Constrain(LogitsProcessor):
        def __call__(self, input_ids: torch.LongTensor, scores: torch.Tensor) -> torch.Tensor:
            generated = input_ids[0, prompt_len:].tolist()
            allowed = constraint.allowed(generated)
            if isinstance(allowed, str):
                masked = scores.clone()
                banned = [*constraint.banned, constraint.eos] if allowed == FREE_NOT_EMPTY else list(constraint.banned)
                if banned:
                    masked[:, banned] = float("-inf")
                return masked
            masked = torch.full_like(scores, float("-inf"))
            masked[:, allowed] = scores[:, allowed]
            return masked

    return _Constrain()


class QwenActionAgent(Agent):
    """Qwen3.5 (+ LoRA) as a cerebellum-gym agent.

    Args:
        model: a loaded ``Qwen3_5ForConditionalGeneration`` (or a PEFT model around one).
        tokenizer: its tokenizer.
        image_processor: its image processor; ``None`` reads text only.
        max_text_tokens: cap on generated tokens (typed text is the long case).
        name: shown in result tables.
    """

    def __init__(
        self, model: Any, tokenizer: Any, image_processor: Any = None, *, max_text_tokens: int = 48, name: str = "qwen3.5"
    ) -> None:
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.image_processor = image_processor
        self.needs_pixels = image_processor is not None
        self.max_text_tokens = max_text_tokens
        self.name = name
        eos = tokenizer.eos_token_id
        if eos is None:
            raise CerebellumError("the tokenizer has no end-of-sequence token")
        self.eos = int(eos)
        special = {tokenizer.convert_tokens_to_ids(t) for t in getattr(tokenizer, "all_special_tokens", [])}
        self.banned = frozenset(int(i) for i in special if i is not None and int(i) != self.eos)

    @classmethod
    def from_pretrained(
        cls,
        base: str | Path,
        adapter: str | Path | None = None,
        *,
        use_images: bool = True,
        dtype: str = "auto",
        device: str = "cpu",
        **kwargs: Any,
    ) -> QwenActionAgent:
        """Load the base model (safetensors only, no remote code), an optional LoRA adapter, the
        tokenizer and the image processor.

        Raises:
            CerebellumError: a local checkpoint without safetensors weights, or missing extras.
        """
        try:
            from transformers import AutoImageProcessor, AutoModelForImageTextToText, AutoTokenizer
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise CerebellumError(f"the Qwen agent needs the 'agents' extra: {exc}") from exc
        for path in (base, adapter):
            local = Path(path) if path is not None else None
            if local is not None and local.is_dir() and not any(local.glob("*.safetensors")):
                raise CerebellumError(f"{local} has no .safetensors weights; only safetensors are loaded")
        model = AutoModelForImageTextToText.from_pretrained(str(base), dtype=dtype, use_safetensors=True, trust_remote_code=False)
        if adapter is not None:
            from peft import PeftModel

            model = PeftModel.from_pretrained(model, str(adapter), use_safetensors=True)  # type: ignore[assignment]
        model = model.to(device)  # type: ignore[arg-type]
        tokenizer = AutoTokenizer.from_pretrained(str(base), trust_remote_code=False)
        image_processor = AutoImageProcessor.from_pretrained(str(base), trust_remote_code=False) if use_images else None
        return cls(model, tokenizer, image_processor, **kwargs)

    # --- the Agent API -----------------------------------------------------------------------

    def act(self, observation: Observation) -> str:
        return self._decode(observation)

    def act_batch(self, observations: Sequence[Observation], oracle: OracleSource | None = None) -> list[str]:
        # One sequence at a time: the hybrid (Gated DeltaNet) cache of Qwen3.5 does not pad or
        # crop, and constrained decoding differs per screen.
        return [self._decode(obs) for obs in observations]

    # --- internals ---------------------------------------------------------------------------

    def _encode(self, observation: Observation) -> dict[str, Any]:
        import torch

        text, images = build_prompt(observation, use_images=self.image_processor is not None)
        inputs: dict[str, Any] = {}
        if images:
            vision = self.image_processor(images=images, return_tensors="pt")
            merge = int(getattr(self.image_processor, "merge_size", 2)) ** 2
            counts = [int(np.prod(thw)) // merge for thw in vision["image_grid_thw"].tolist()]
            pieces = text.split(IMAGE_PLACEHOLDER)
            text = pieces[0] + "".join(
                f"{VISION_START}{IMAGE_PAD * n}{VISION_END}{rest}" for n, rest in zip(counts, pieces[1:], strict=True)
            )
            inputs.update(pixel_values=vision["pixel_values"], image_grid_thw=vision["image_grid_thw"])
        encoded = self.tokenizer(text, return_tensors="pt", add_special_tokens=False)
        inputs.update(input_ids=encoded["input_ids"], attention_mask=encoded["attention_mask"])
        if images:
            image_id = self.tokenizer.convert_tokens_to_ids(IMAGE_PAD)
            inputs["mm_token_type_ids"] = (encoded["input_ids"] == image_id).to(torch.long)
        device = next(self.model.parameters()).device
        return {k: v.to(device) if hasattr(v, "to") else v for k, v in inputs.items()}

    def _constraint(self, observation: Observation) -> ActionConstraint:
        complete, open_prefixes = allowed_actions(observation)

        def ids(text: str) -> tuple[int, ...]:
            return tuple(self.tokenizer.encode(text, add_special_tokens=False))

        return ActionConstraint([ids(a) for a in complete], [ids(p) for p in open_prefixes], self.eos, self.banned)

    def _decode(self, observation: Observation) -> str:
        import torch
        from transformers import LogitsProcessorList

        inputs = self._encode(observation)
        prompt_len = int(inputs["input_ids"].shape[1])
        constraint = self._constraint(observation)
        with torch.no_grad():
            out = self.model.generate(
                **inputs,
                max_new_tokens=self.max_text_tokens,
                do_sample=False,
                eos_token_id=self.eos,
                pad_token_id=self.eos,
                logits_processor=LogitsProcessorList([_make_logits_processor(constraint, prompt_len)]),
            )
        generated = [t for t in out[0, prompt_len:].tolist() if t != self.eos]
        text = self.tokenizer.decode(generated, skip_special_tokens=True)
        try:
            return str(parse_action(text))
        except InvalidActionError:
            # Only free text can go wrong (for example a cap hit mid-token); waiting is harmless.
            return "W"
