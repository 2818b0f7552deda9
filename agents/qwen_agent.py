"""The reference agent: a Qwen3.5 vision-language model (plus a LoRA adapter) that reads the
goal, the recent history and the current screen, and emits one action code under constrained
decoding.

The prompt is the model card's chat prompt (:mod:`cerebellum_gym.agents.qwen_prompt`, shared with
dataset exports and trainers): one user turn with the goal, up to four history frames numbered by
absolute step, the current screenshot and compact tree, the legend and ``Next action:``; the
assistant turn opened by the tokenizer's own chat template with thinking off; the card's limits
applied.

Decoding is constrained (:mod:`cerebellum_gym.agents.qwen_constraint`) so every answer is legal on
the current screen: the code among those the ``action_mask`` allows, ``T``/``P`` labels among the
labels visible now, ``K``/``F`` text any valid, not-only-whitespace text however the model
tokenizes it, codes without arguments ending at once.

:meth:`QwenActionAgent.act_batch` runs one left-padded batched ``generate`` over the batch, each
row with its own constraint and its own end.

Needs the ``agents`` extra (torch, transformers >= 5.2, peft); the ``gpu`` extra adds the fast
Gated DeltaNet kernels. Weights load only from safetensors, never with remote code: a base or
adapter folder holding any pickle-format file (``.bin``, ``.pt``, ``.pth``, ``.pkl``, ``.ckpt``) is
refused. ``AutoProcessor`` needs torchvision, so the tokenizer and image processor load separately.

Example (with real weights; tests build a tiny random model instead)::

    agent = QwenActionAgent.from_pretrained("Qwen/Qwen3.5-0.8B", adapter="path/to/lora", device="cuda", dtype="bfloat16")
    action = agent.act(obs)   # e.g. "T UE"
    agent = load_agent("qwen:Qwen/Qwen3.5-0.8B,path/to/lora?device=cuda&dtype=bfloat16")
"""

from __future__ import annotations

import hashlib
import importlib.util
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import parse_qsl

import numpy as np

from cerebellum_gym.agents.base import Agent, Observation, OracleSource
from cerebellum_gym.agents.qwen_constraint import ActionConstraint, TokenTable
from cerebellum_gym.agents.qwen_prompt import (
    ACTION_LEGEND,
    CARD_LIMITS,
    EncodedPrompt,
    PromptEncoder,
    PromptLimits,
    build_messages,
    render_prompt,
)
from cerebellum_gym.core.actions import CODES, MAX_TEXT_CHARS, parse_action
from cerebellum_gym.errors import CerebellumError, InvalidActionError

__all__ = [
    "ACTION_LEGEND",
    "CARD_LIMITS",
    "PICKLE_SUFFIXES",
    "ActionConstraint",
    "PromptLimits",
    "QwenActionAgent",
    "allowed_actions",
    "asks_question",
    "build_messages",
    "check_weights_folder",
    "parse_qwen_spec",
    "render_prompt",
]

#: File suffixes of pickle-based weight formats: loading them can run code.
PICKLE_SUFFIXES: Final = (".bin", ".pt", ".pth", ".pkl", ".ckpt")
ADAPTER_WEIGHTS: Final = "adapter_model.safetensors"
#: Options of the ``qwen:`` spec's query string, and how each is read.
SPEC_OPTIONS: Final = {"device": str, "dtype": str, "attn": str, "images": "bool", "max_text_tokens": int, "batch_size": int}


def asks_question(observation: Observation) -> bool:
    """Whether the task asks a question (answered with ``F {answer}``).

    The observation's own ``question`` entry wins where there is one; otherwise the goal asks a
    question when it holds a ``?`` (every AndroidWorld and simulator question task does, and no
    other task does: checked on AndroidWorld's 116 tasks).
    """
    flag = observation.get("question")
    if flag is not None:
        return bool(np.asarray(flag).item())
    return "?" in str(observation.get("goal", ""))


def allowed_actions(
    observation: Observation, *, labels: Sequence[str] | None = None, question: bool | None = None
) -> tuple[list[str], list[str]]:
    """Complete action strings legal now, and open prefixes (``"K "``, ``"F "``) followed by free text.

    Args:
        observation: the env observation (its ``action_mask``, ``labels`` and goal).
        labels: the labels that may be tapped: those the prompt's tree shows
            (:attr:`EncodedPrompt.labels`); ``None``: all of ``observation["labels"]``.
        question: whether ``F`` may carry an answer; ``None``: :func:`asks_question`. Elsewhere
            ``F`` ends at once, as the card's single-token actions do.
    """
    mask = observation.get("action_mask")
    legal = [c for c, ok in zip(CODES, np.asarray(mask).tolist(), strict=True) if ok] if mask is not None else list(CODES)
    shown = list(observation.get("labels", ())) if labels is None else list(labels)
    answers = asks_question(observation) if question is None else question
    complete: list[str] = []
    open_prefixes: list[str] = []
    for code in legal:
        if code in "TP":
            complete += [f"{code} {label}" for label in shown]
        elif code == "K":
            open_prefixes.append("K ")
        elif code == "F":
            complete.append("F")
            if answers:
                open_prefixes.append("F ")
        else:
            complete.append(code)
    if not complete and not open_prefixes:
        complete.append("W")
    return complete, open_prefixes


def check_weights_folder(path: str | Path, kind: str) -> None:
    """Refuse a local ``kind`` folder (base or adapter) that holds any pickle-format file.

    Raises:
        CerebellumError: naming the files.
    """
    folder = Path(path)
    if not folder.is_dir():
        return
    found = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.suffix.lower() in PICKLE_SUFFIXES and p.is_file())
    if found:
        shown = ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")
        raise CerebellumError(
            f"the {kind} folder {folder} holds pickle-format files ({shown}); loading those can run code, and only "
            f"safetensors are loaded: remove them (or convert them to .safetensors)"
        )


def parse_qwen_spec(spec: str) -> tuple[str, str | None, dict[str, Any]]:
    """``BASE[,ADAPTER][?device=cuda&dtype=bfloat16&attn=sdpa&images=0&max_text_tokens=N&batch_size=N]``
    as base, adapter and agent options.

    Example:
        >>> parse_qwen_spec("Qwen/Qwen3.5-0.8B,runs/lora?device=cuda&dtype=bfloat16")
        ('Qwen/Qwen3.5-0.8B', 'runs/lora', {'device': 'cuda', 'dtype': 'bfloat16'})

    Raises:
        ValueError: an unknown option or a bad value.
    """
    body, _, query = spec.partition("?")
    base, _, adapter = body.partition(",")
    if not base:
        raise ValueError(f"qwen:{spec} names no base model: use qwen:BASE[,ADAPTER][?device=...&dtype=...&attn=...]")
    options: dict[str, Any] = {}
    for key, value in parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query)):
        kind = SPEC_OPTIONS.get(key)
        if kind is None:
            raise ValueError(f"unknown qwen: option {key!r}; known: {', '.join(SPEC_OPTIONS)}")
        try:
            if kind == "bool":
                if value.lower() not in ("0", "1", "true", "false", "yes", "no"):
                    raise ValueError(value)
                options["use_images" if key == "images" else key] = value.lower() in ("1", "true", "yes")
            else:
                options[key] = kind(value)  # type: ignore[operator]
        except ValueError:
            raise ValueError(f"qwen: option {key}={value!r} is not a valid value") from None
    return base, adapter or None, options


def _resolve_adapter(adapter: str | Path) -> Path:
    """A local adapter folder; a hub id is fetched with only its config and safetensors."""
    local = Path(adapter)
    if local.is_dir():
        return local
    try:
        from huggingface_hub import snapshot_download
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise CerebellumError(f"adapter {adapter} is not a folder and huggingface_hub is missing: {exc}") from exc
    # Only the config and safetensors are fetched: a pickle in the repository never lands here.
    return Path(snapshot_download(str(adapter), allow_patterns=["adapter_config.json", "*.safetensors"]))


def load_adapter(model: Any, adapter: str | Path, *, trainable: bool = False) -> Any:
    """``model`` wrapped in the LoRA adapter at ``adapter``, its weights read with safetensors;
    with ``trainable`` the adapter's tensors require gradients (and nothing else does).

    Raises:
        CerebellumError: pickle files in the folder, no ``adapter_model.safetensors``, or weights
            that do not fit the model.
    """
    from peft import PeftConfig, PeftModel
    from peft.utils import set_peft_model_state_dict
    from safetensors.torch import load_file

    folder = _resolve_adapter(adapter)
    check_weights_folder(folder, "adapter")
    weights = folder / ADAPTER_WEIGHTS
    if not weights.is_file():
        raise CerebellumError(f"the adapter folder {folder} has no {ADAPTER_WEIGHTS}; only safetensors adapters are loaded")
    config = PeftConfig.from_pretrained(str(folder))
    config.inference_mode = not trainable
    wrapped = PeftModel(model, config)
    state = load_file(str(weights))
    result: Any = set_peft_model_state_dict(wrapped, state)
    missing = [k for k in result.missing_keys if "lora_" in k]
    if result.unexpected_keys or missing:
        raise CerebellumError(
            f"the adapter {folder} does not fit the base model: {len(result.unexpected_keys)} unexpected and "
            f"{len(missing)} missing LoRA tensors (e.g. {(list(result.unexpected_keys) + missing)[:2]})"
        )
    if trainable:
        for name, param in wrapped.named_parameters():
            param.requires_grad_("lora_" in name)
    return wrapped


def text_token_cap(opener_chars: int = 2) -> int:
    """Generated tokens enough for any legal answer: a token spells at least one byte, and typed
    text holds at most ``MAX_TEXT_CHARS`` characters of at most 4 bytes each, after its opener
    (``"K "``) and before the end token."""
    return opener_chars + 4 * MAX_TEXT_CHARS + 1


def _fingerprint(observation: Observation) -> str:
    history = observation.get("history") or {}
    parts = [str(observation.get("goal", "")), str(observation.get("tree", "")), *map(str, history.get("actions", ()))]
    return hashlib.blake2b("\x00".join(parts).encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


class StepCounter:
    """Absolute step numbers per env slot, read from the history the observations carry.

    The history window shows at most ``history_len`` frames; while it is not full, the number of
    frames is the number of steps taken. Once it is full, each new observation of a slot is one
    step more (the same observation seen again is the same step). :meth:`begin` resets a slot.
    An observation may also carry ``step`` (steps taken so far), which wins.
    """

    def __init__(self) -> None:
        self._taken: dict[Hashable, tuple[int, str]] = {}

    def begin(self, key: Hashable) -> None:
        self._taken.pop(key, None)

    def clear(self) -> None:
        self._taken.clear()

    def next_step(self, key: Hashable, observation: Observation) -> int:
        """The number of the step about to be taken in slot ``key`` (1 for an episode's first)."""
        mark = _fingerprint(observation)
        explicit = observation.get("step")
        history = observation.get("history") or {}
        mask = np.asarray(history.get("mask", ())).tolist()
        filled = int(sum(bool(m) for m in mask))
        if explicit is not None:
            taken = int(np.asarray(explicit).item())
        elif filled < len(mask) or not mask:
            taken = filled
        else:
            before = self._taken.get(key)
            if before is None:
                taken = filled
            elif before[1] == mark:
                taken = before[0]
            else:
                taken = max(before[0] + 1, filled)
        self._taken[key] = (taken, mark)
        return taken + 1


class QwenActionAgent(Agent):
    """Qwen3.5 (+ LoRA) as a cerebellum-gym agent.

    Args:
        model: a loaded ``Qwen3_5ForConditionalGeneration`` (or a PEFT model around one).
        tokenizer: its tokenizer (its chat template renders the prompt).
        image_processor: its image processor; ``None`` reads text only.
        max_text_tokens: cap on generated tokens; ``None`` (the default): as many as the env's
            text limit (:data:`~cerebellum_gym.core.actions.MAX_TEXT_CHARS` characters, which the
            constraint enforces) can take, so typed text ends at the model's end token as the card's does.
        name: shown in result tables.
        limits: the prompt limits (the card's by default).
        batch_size: observations per ``generate`` call in :meth:`act_batch` (``None``: all).
    """

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        image_processor: Any = None,
        *,
        max_text_tokens: int | None = None,
        name: str = "qwen3.5",
        limits: PromptLimits = CARD_LIMITS,
        batch_size: int | None = None,
    ) -> None:
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.image_processor = image_processor
        self.needs_pixels = image_processor is not None
        self.max_text_tokens = max_text_tokens if max_text_tokens is not None else text_token_cap()
        self.name = name
        self.batch_size = batch_size
        self.encoder = PromptEncoder(tokenizer, image_processor, limits)
        config = getattr(model, "config", None)
        text_config = getattr(config, "text_config", config)
        vocab = int(getattr(text_config, "vocab_size", 0) or len(tokenizer))
        self.table = TokenTable.from_tokenizer(tokenizer, vocab)
        if not self.table.stop_ids:
            raise CerebellumError("the tokenizer has no end-of-turn or end-of-sequence token")
        pad = getattr(tokenizer, "pad_token_id", None)
        self.pad_id = int(pad) if pad is not None else self.table.stop_ids[0]
        image_pad = tokenizer.convert_tokens_to_ids("<|image_pad|>")
        self.image_token_id = int(image_pad) if isinstance(image_pad, int) else None
        self.steps = StepCounter()
        #: Sampling temperature of :meth:`act_batch`: 0 decodes greedily (the default).
        self.temperature = 0.0
        #: The generator sampling draws from (seeded by :meth:`reset`).
        self.generator: Any = None
        #: What the last :meth:`act_batch` decided, row by row (token ids and log-probabilities).
        self.last_decisions: list[Decision] = []

    @classmethod
    def from_pretrained(
        cls,
        base: str | Path,
        adapter: str | Path | None = None,
        *,
        use_images: bool = True,
        dtype: str = "auto",
        device: str = "auto",
        attn: str | None = None,
        trainable: bool = False,
        **kwargs: Any,
    ) -> QwenActionAgent:
        """Load the base model (safetensors only, no remote code), an optional LoRA adapter
        (its safetensors read explicitly), the tokenizer and the image processor.

        Args:
            base: a model id or folder.
            adapter: a LoRA adapter id or folder.
            use_images: read screenshots (``False``: text only; a model without a vision tower,
                loaded as a causal LM, always reads text only).
            dtype: ``auto`` (the checkpoint's), ``float32``, ``bfloat16``, ``float16``.
            device: ``cpu``, ``cuda``, ``cuda:1``, ``mps``, or ``auto`` (CUDA when there is one).
            attn: the attention implementation (``sdpa``, ``eager``, ``flash_attention_2``);
                ``None`` lets transformers choose.
            trainable: load the adapter with its weights requiring gradients (for training;
                the base model stays frozen).
            **kwargs: passed to the agent (``max_text_tokens``, ``limits``, ``batch_size``, ``name``).

        Raises:
            CerebellumError: a local checkpoint with pickle-format files or without safetensors
                weights, a bad adapter, or missing extras.
        """
        try:
            import torch  # noqa: F401  (the agents extra is installed)
            from transformers import AutoConfig, AutoImageProcessor, AutoModelForCausalLM, AutoModelForImageTextToText, AutoTokenizer
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise CerebellumError(f"the Qwen agent needs the 'agents' extra: {exc}") from exc
        check_weights_folder(base, "base model")
        if adapter is not None:
            check_weights_folder(adapter, "adapter")
        local = Path(base)
        if local.is_dir() and not any(local.glob("*.safetensors")):
            raise CerebellumError(f"{local} has no .safetensors weights; only safetensors are loaded")
        device = resolve_device(device)
        if dtype not in ("auto", "float32", "bfloat16", "float16"):
            raise CerebellumError(f"dtype must be auto, float32, bfloat16 or float16, not {dtype!r}")
        options: dict[str, Any] = {"dtype": dtype, "use_safetensors": True, "trust_remote_code": False}
        if attn is not None:
            options["attn_implementation"] = attn
        # Image-text-to-text models read screenshots and tree; a text-only causal LM reads the tree.
        reads_images = getattr(AutoConfig.from_pretrained(str(base), trust_remote_code=False), "vision_config", None) is not None
        loader = AutoModelForImageTextToText if reads_images else AutoModelForCausalLM
        use_images = use_images and reads_images
        model = loader.from_pretrained(str(base), **options)
        if adapter is not None:
            model = load_adapter(model, adapter, trainable=trainable)
        model = model.to(device)  # type: ignore[arg-type]
        slow = slow_path_warning(model, device)
        if slow is not None:
            warnings.warn(slow, SlowKernelWarning, stacklevel=2)
        tokenizer: Any = AutoTokenizer.from_pretrained(str(base), trust_remote_code=False)
        if not reads_images:
            tokenizer = TextChatTokenizer(tokenizer)
        image_processor = AutoImageProcessor.from_pretrained(str(base), trust_remote_code=False) if use_images else None
        return cls(model, tokenizer, image_processor, **kwargs)

    # --- the Agent API -----------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> None:
        self.steps.clear()
        if seed is not None:
            import torch

            # A CPU generator on any device: the processor draws on the generator's device, so
            # a seed samples the same actions on the CPU and on CUDA.
            self.generator = torch.Generator().manual_seed(int(seed))

    def begin_episode(self, slot: int) -> None:
        self.steps.begin(slot)

    def act(self, observation: Observation) -> str:
        return self.act_batch([observation])[0]

    def act_batch(
        self,
        observations: Sequence[Observation],
        oracle: OracleSource | None = None,
        *,
        temperature: float | None = None,
        generator: Any = None,
    ) -> list[str]:
        """One batched, left-padded ``generate`` over the observations (in chunks of
        ``batch_size``), each row under its own screen's constraint; with ``temperature`` > 0
        (or the agent's :attr:`temperature`) sampled from ``generator`` (or the agent's, seeded
        by :meth:`reset`). The token ids and log-probabilities land in :attr:`last_decisions`."""
        return [d.action for d in self.decide_batch(observations, oracle, temperature=temperature, generator=generator)]

    def decide_batch(
        self,
        observations: Sequence[Observation],
        oracle: OracleSource | None = None,
        *,
        temperature: float | None = None,
        generator: Any = None,
    ) -> list[Decision]:
        """As :meth:`act_batch`, each row's whole :class:`Decision`."""
        slots = getattr(oracle, "slots", None)
        keys: list[Hashable] = list(slots) if slots is not None and len(slots) == len(observations) else list(range(len(observations)))
        prompts = [self.encoder.encode(obs, step=self.steps.next_step(key, obs)) for key, obs in zip(keys, observations, strict=True)]
        constraints = [self.constraint(obs, prompt) for obs, prompt in zip(observations, prompts, strict=True)]
        temp = self.temperature if temperature is None else float(temperature)
        if temp < 0:
            raise ValueError(f"temperature must be >= 0, got {temp}")
        gen = generator if generator is not None else self.generator
        size = self.batch_size or max(1, len(observations))
        out: list[Decision] = []
        for start in range(0, len(observations), size):
            out += self._generate(prompts[start : start + size], constraints[start : start + size], temp, gen)
        self.last_decisions = out
        return out

    # --- internals ---------------------------------------------------------------------------

    def constraint(self, observation: Observation, prompt: EncodedPrompt | None = None) -> ActionConstraint:
        """The decoding constraint of ``observation``'s screen: with ``prompt``, only the labels
        its (perhaps cut) tree shows may be tapped."""
        complete, open_prefixes = allowed_actions(observation, labels=prompt.labels if prompt is not None else None)
        return ActionConstraint(self.table, complete, open_prefixes)

    def inputs(self, prompts: Sequence[EncodedPrompt], answers: Sequence[Sequence[int]] | None = None) -> dict[str, Any]:
        """Model inputs for a batch of encoded prompts, each followed by its ``answers`` tokens
        when given, left-padded."""
        import torch

        device = next(self.model.parameters()).device
        rows = [list(p.input_ids) + (list(answers[i]) if answers is not None else []) for i, p in enumerate(prompts)]
        width = max(len(r) for r in rows)
        ids = torch.full((len(prompts), width), self.pad_id, dtype=torch.long)
        mask = torch.zeros((len(prompts), width), dtype=torch.long)
        for row, tokens in enumerate(rows):
            n = len(tokens)
            ids[row, width - n :] = torch.tensor(tokens, dtype=torch.long)
            mask[row, width - n :] = 1
        inputs: dict[str, Any] = {"input_ids": ids.to(device), "attention_mask": mask.to(device)}
        pixel = [p.pixel_values for p in prompts if p.pixel_values is not None]
        if pixel:
            if self.image_token_id is None:
                raise CerebellumError("the tokenizer has no <|image_pad|> token: this model cannot read screenshots (images=0)")
            dtype = next(self.model.parameters()).dtype
            inputs["pixel_values"] = torch.cat(pixel).to(device=device, dtype=dtype)
            inputs["image_grid_thw"] = torch.cat([p.image_grid_thw for p in prompts if p.image_grid_thw is not None]).to(device)
            inputs["mm_token_type_ids"] = ids.eq(self.image_token_id).to(torch.long).to(device)
        return inputs

    def _generate(
        self, prompts: Sequence[EncodedPrompt], constraints: Sequence[ActionConstraint], temperature: float, generator: Any
    ) -> list[Decision]:
        import torch
        from transformers import LogitsProcessorList

        inputs = self.inputs(prompts)
        prompt_len = int(inputs["input_ids"].shape[1])
        processor = ConstraintProcessor(constraints, self.table, prompt_len, temperature=temperature, generator=generator)
        with torch.inference_mode():
            out = self.model.generate(
                **inputs,
                max_new_tokens=self.max_text_tokens,
                # The processor picks every token itself (greedy or sampled from its own
                # generator); generate only takes the one token it leaves.
                do_sample=False,
                repetition_penalty=1.0,
                eos_token_id=list(self.table.stop_ids),
                pad_token_id=self.pad_id,
                logits_processor=LogitsProcessorList([processor]),
            )
        decisions: list[Decision] = []
        for row, constraint in enumerate(constraints):
            generated: list[int] = []
            ended = False
            for token in out[row, prompt_len:].tolist():
                generated.append(token)
                if token in self.table.stop_ids:
                    ended = True
                    break
            steps = processor.logprobs[row][: len(generated)]
            spelled = self.table.spell(generated[:-1] if ended else generated)
            decisions.append(
                Decision(
                    action=self._finish(constraint, spelled),
                    token_ids=generated,
                    token_logprobs=steps,
                    logprob=float(sum(steps)),
                    ended=ended,
                    temperature=temperature,
                    prompt=prompts[row],
                    constraint=constraint,
                )
            )
        return decisions

    @staticmethod
    def _finish(constraint: ActionConstraint, spelled: bytes) -> str:
        text = constraint.finish(spelled)
        if text is not None:
            try:
                return str(parse_action(text))
            except InvalidActionError:
                pass
        # Only a cap hit in free text lands here (nothing but whitespace typed yet): wait if
        # waiting is legal, else the first complete legal action.
        complete = [a.decode("utf-8") for a in constraint.complete]
        return "W" if "W" in complete or not complete else complete[0]


@dataclass
class Decision:
    """One row of :meth:`QwenActionAgent.decide_batch`.

    Attributes:
        action: the action sent (canonical form; the fallback's when the tokens spell none).
        token_ids: the answer's tokens as decoded, the end token last when it ``ended``.
        token_logprobs: each token's log-probability under the constrained decoder (at
            ``temperature``; greedy decisions are scored at temperature 1).
        logprob: their sum, the answer's log-probability.
        ended: whether the answer ended with the end token (not at the token cap).
        temperature: the sampling temperature (0: greedy).
        prompt: the encoded prompt it answered.
        constraint: the constraint it was decoded under.
    """

    action: str
    token_ids: list[int]
    token_logprobs: list[float]
    logprob: float
    ended: bool
    temperature: float
    prompt: EncodedPrompt
    constraint: ActionConstraint


class ConstraintProcessor:
    """A ``LogitsProcessor`` applying one :class:`ActionConstraint` per batch row and choosing
    each row's token itself: the best one, or with ``temperature`` > 0 one drawn from the
    constrained, tempered distribution with ``generator``. It leaves only that token possible, so
    greedy ``generate`` takes it, and keeps its log-probability. Rows that have ended are left
    alone (``generate`` pads them)."""

    def __init__(
        self,
        constraints: Sequence[ActionConstraint],
        table: TokenTable,
        prompt_len: int,
        *,
        temperature: float = 0.0,
        generator: Any = None,
    ) -> None:
        self.constraints = list(constraints)
        self.table = table
        self.prompt_len = prompt_len
        self.temperature = temperature
        self.generator = generator
        self._masks: dict[tuple[int, Any], Any] = {}
        self.stop = list(table.stop_ids)
        #: Each row's chosen tokens' log-probabilities, in order.
        self.logprobs: list[list[float]] = [[] for _ in self.constraints]

    def _tensor(self, mask: np.ndarray, device: Any) -> Any:
        import torch

        key = (id(mask), device)
        cached = self._masks.get(key)
        if cached is None:
            cached = (mask, torch.from_numpy(mask).to(device))  # keep the array alive: its id is the key
            self._masks[key] = cached
        return cached[1]

    def allowed_mask(self, row: int, ids: Sequence[int], width: int, device: Any) -> Any:
        """The tokens row ``row``'s constraint allows after its answer tokens ``ids``."""
        return allowed_tensor(self.constraints[row], self.table, ids, width, device, self._tensor)

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        import torch

        generated = input_ids[:, self.prompt_len :].tolist()
        stops = set(self.stop)
        out = torch.full_like(scores, float("-inf"))
        for row, ids in enumerate(generated):
            if stops.intersection(ids):
                out[row] = scores[row]
                continue
            masked = scores[row].float().masked_fill(~self.allowed_mask(row, ids, scores.shape[1], scores.device), float("-inf"))
            if self.temperature > 0:
                logp = torch.log_softmax(masked / self.temperature, dim=-1)
                token = draw(logp.exp(), self.generator)
            else:
                logp = torch.log_softmax(masked, dim=-1)
                token = int(masked.argmax().item())
            self.logprobs[row].append(float(logp[token].item()))
            out[row, token] = 0.0
        return out


class TextChatTokenizer:
    """A text-only model's tokenizer, its chat template given each message's text parts joined
    into one string (text-only templates, SmolLM2's for one, expect string contents where the
    prompt carries a list of parts); everything else is the tokenizer's."""

    def __init__(self, tokenizer: Any) -> None:
        self._tokenizer = tokenizer

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tokenizer, name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._tokenizer(*args, **kwargs)

    def __len__(self) -> int:
        return len(self._tokenizer)

    def apply_chat_template(self, messages: Sequence[Any], **kwargs: Any) -> Any:
        flat = []
        for message in messages:
            content = message.get("content")
            if isinstance(content, list):
                content = "".join(str(part.get("text", "")) for part in content if part.get("type") == "text")
            flat.append({**message, "content": content})
        kwargs.pop("enable_thinking", None)
        return self._tokenizer.apply_chat_template(flat, **kwargs)


def draw(probs: Any, generator: Any) -> int:
    """One index drawn from ``probs`` with ``generator``, on the generator's device (a CPU
    generator with CUDA probabilities draws on the CPU: the same seed, the same draw)."""
    import torch

    if generator is not None and probs.device != generator.device:
        probs = probs.to(generator.device)
    return int(torch.multinomial(probs, 1, generator=generator).item())


class SlowKernelWarning(UserWarning):
    """A Qwen3.5 model runs on CUDA without the fast Gated DeltaNet kernels."""


#: The packages holding the fast Gated DeltaNet kernels (the ``gpu`` extra installs them).
FAST_KERNELS: Final = {"fla": "flash-linear-attention", "causal_conv1d": "causal-conv1d"}


def resolve_device(device: str) -> str:
    """``auto``: CUDA when there is one, else the CPU; any other name as given."""
    if device != "auto":
        return device
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def slow_path_warning(model: Any, device: str) -> str | None:
    """A warning when ``model`` has Gated DeltaNet (linear-attention) layers and runs on CUDA
    without the kernel packages: transformers then takes its pure-PyTorch path for those layers
    (18 of Qwen3.5-0.8B's 24), many times slower. ``None`` when nothing is missing."""
    if not str(device).startswith("cuda"):
        return None
    config = getattr(model, "config", None)
    text = getattr(config, "text_config", config)
    layers = list(getattr(text, "layer_types", None) or [])
    linear = sum(1 for kind in layers if kind == "linear_attention")
    if not linear:
        return None
    missing = [pip for module, pip in FAST_KERNELS.items() if importlib.util.find_spec(module) is None]
    if not missing:
        return None
    return (
        f"{linear} of {len(layers)} layers are Gated DeltaNet and {', '.join(missing)} is not installed: they run on "
        f"the slow PyTorch path. Install the fast kernels with pip install 'cerebellum-gym[gpu]'"
    )


def allowed_tensor(
    constraint: ActionConstraint, table: TokenTable, ids: Sequence[int], width: int, device: Any, to_tensor: Any = None
) -> Any:
    """A boolean tensor over ``width`` token ids: what ``constraint`` allows after the answer
    tokens ``ids`` (the one mask the decoder and the scorer share)."""
    import torch

    allowed = torch.zeros(width, dtype=torch.bool, device=device)
    a = constraint.allowed(table.spell(ids))
    if a.mask is not None:
        n = min(width, len(a.mask))
        mask = to_tensor(a.mask, device) if to_tensor is not None else torch.from_numpy(a.mask).to(device)
        allowed[:n] = mask[:n]
    if a.ids:
        allowed[sorted(i for i in a.ids if i < width)] = True
    if a.stop:
        allowed[list(table.stop_ids)] = True
    return allowed
