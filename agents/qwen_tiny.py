"""Qwen3.5 checkpoints built locally with random weights: for tests, benchmarks and smoke runs
with no download.

- :func:`build_tiny_qwen35`: a real ``Qwen3_5ForConditionalGeneration`` (hidden 64, 2 layers, a
  one-block vision tower) with a byte-level BPE tokenizer trained here and a chat template in the
  shape of Qwen3.5's (images as vision placeholders, thinking turned off by an empty think block).
- :func:`build_random_qwen35`: the same at the real Qwen3.5-0.8B size, from its published
  configuration (the tokenizer is still a small local one: token counts differ from the real one).
- :func:`build_lora`: a PEFT LoRA adapter on named modules (PEFT has no defaults for qwen3_5).

Everything is saved as safetensors and loads back through :meth:`QwenActionAgent.from_pretrained`.
Random weights decode garbage, which is what makes the constraint testable.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

#: Control tokens of Qwen3.5's vocabulary that the agent uses (the end-of-text token first).
SPECIAL_TOKENS: Final = (
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|image_pad|>",
    "<|video_pad|>",
)
#: Non-special added tokens, as Qwen3.5 has them: they decode to text but are not text.
ADDED_TOKENS: Final = ("<think>", "</think>", "<tool_call>", "</tool_call>")

#: A chat template in the shape of Qwen3.5's: content given as a string or a list of text, image
#: and video items; images become ``<|vision_start|><|image_pad|><|vision_end|>``; the
#: generation prompt opens the assistant turn, with an empty think block when
#: ``enable_thinking`` is false and an open one otherwise. Written for the tests (no tools).
CHAT_TEMPLATE: Final = """\
{%- macro content_text(content) -%}
{%- if content is string -%}{{ content }}
{%- elif content is none -%}
{%- else -%}
{%- for part in content -%}
{%- if part.type == 'image' or 'image' in part or 'image_url' in part -%}<|vision_start|><|image_pad|><|vision_end|>
{%- elif part.type == 'video' or 'video' in part -%}<|vision_start|><|video_pad|><|vision_end|>
{%- elif 'text' in part -%}{{ part.text }}
{%- else -%}{{ raise_exception('unknown content item') }}
{%- endif -%}
{%- endfor -%}
{%- endif -%}
{%- endmacro -%}
{%- for message in messages -%}
{%- set body = content_text(message.content) | trim -%}
{%- if message.role == 'assistant' -%}
{%- set thought = '' -%}
{%- if '</think>' in body -%}
{%- set thought = body.split('</think>')[0].split('<think>')[-1] | trim -%}
{%- set body = body.split('</think>')[-1] | trim -%}
{%- endif -%}
{{ '<|im_start|>assistant\\n<think>\\n' + thought + '\\n</think>\\n\\n' + body + '<|im_end|>\\n' }}
{%- else -%}
{{ '<|im_start|>' + message.role + '\\n' + body + '<|im_end|>\\n' }}
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}
{{ '<|im_start|>assistant\\n' }}
{%- if enable_thinking is defined and enable_thinking is false -%}
{{ '<think>\\n\\n</think>\\n\\n' }}
{%- else -%}
{{ '<think>\\n' }}
{%- endif -%}
{%- endif -%}
"""

#: Qwen/Qwen3.5-0.8B's configuration (its config.json): 24 layers, three Gated DeltaNet layers to
#: one full-attention layer, a 12-block vision tower.
QWEN35_0_8B_TEXT: Final[dict[str, Any]] = {
    "vocab_size": 248320,
    "hidden_size": 1024,
    "intermediate_size": 3584,
    "num_hidden_layers": 24,
    "num_attention_heads": 8,
    "num_key_value_heads": 2,
    "head_dim": 256,
    "attn_output_gate": True,
    "linear_num_key_heads": 16,
    "linear_num_value_heads": 16,
    "linear_key_head_dim": 128,
    "linear_value_head_dim": 128,
    "linear_conv_kernel_dim": 4,
    "full_attention_interval": 4,
    "layer_types": ["linear_attention", "linear_attention", "linear_attention", "full_attention"] * 6,
    "rms_norm_eps": 1e-6,
    "max_position_embeddings": 262144,
    "tie_word_embeddings": True,
    "rope_parameters": {
        "rope_type": "default",
        "rope_theta": 10000000,
        "partial_rotary_factor": 0.25,
        "mrope_interleaved": True,
        "mrope_section": [11, 11, 10],
    },
}
QWEN35_0_8B_VISION: Final[dict[str, Any]] = {
    "depth": 12,
    "hidden_size": 768,
    "intermediate_size": 3072,
    "num_heads": 12,
    "in_channels": 3,
    "patch_size": 16,
    "temporal_patch_size": 2,
    "spatial_merge_size": 2,
    "out_hidden_size": 1024,
    "num_position_embeddings": 2304,
}
#: The image processor settings of Qwen3.5 (patch 16, merge 2).
IMAGE_PROCESSOR: Final[dict[str, Any]] = {"patch_size": 16, "merge_size": 2, "temporal_patch_size": 2}

#: The modules a realistic action-model LoRA wraps: attention, Gated DeltaNet projections and the
#: MLP of every language-model layer (not the vision tower).
LORA_TARGETS: Final = (
    r".*language_model\.layers\.\d+\.(self_attn\.(q|k|v|o)_proj|linear_attn\.(in_proj_qkv|in_proj_z|out_proj)|mlp\.(gate|up|down)_proj)"
)

_CORPUS: Final = (
    "Task: Turn wifi on.",
    "Next action:",
    "Current screen:",
    "Step 1:",
    "T UE",
    "K hello world",
    '[AB] TextView "Settings"',
    "Action taken: T QX",
    "Actions: T <label>=tap, P <label>=long-press, K {text}=type text, U/D/L/R=scroll, B=back, H=home, W=wait, F=done, I=impossible.",
    "Ada Okafor +15550100134 café naïve 東京 Ελληνικά",
)


#: Where the tokenizer's training splits text besides the byte-level split: between the letters
#: of a run of capitals (a set-of-mark label: ``UE``, ``VLC``) and after a space before a capital.
SPELLING_SPLIT: Final = r"[A-Z](?=[A-Z])|(?<=[A-Z])[A-Z]| (?=[A-Z])"


def build_tokenizer(vocab_size: int = 420, corpus: Sequence[str] = (), *, spell_capitals: bool = False) -> Any:
    """A byte-level BPE tokenizer trained here on a few prompt lines (and ``corpus``), with
    Qwen3.5's control and added tokens and :data:`CHAT_TEMPLATE`.

    A saved tokenizer loads back (``AutoTokenizer``, the agent's loader) with Qwen3.5's own
    pre-tokenizer, which glues ``[`` to a label in the tree (``[VC``) and the space to it in the
    answer (`` VC``): with merges such as ``ĠV`` or ``VC`` a label is different tokens in the two
    places, and a small model must learn 676 label-to-label mappings instead of copying.

    With ``spell_capitals`` the merges are learned with :data:`SPELLING_SPLIT` as well, so no
    token joins two capitals, or a space and a capital: a label is its letters in both places
    (``[``, ``V``, ``C`` in the tree; ``T``, ``Ġ``, ``V``, ``C`` in the answer) and the model can
    copy it; words keep their merges (``ĠTextView`` becomes ``Ġ``, ``TextView``). The returned
    tokenizer then has Qwen3.5's pre-tokenizer and normaliser already, as it has once loaded.
    """
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast
    from transformers.models.qwen3_5.tokenization_qwen3_5 import PRETOKENIZE_REGEX

    tok = Tokenizer(models.BPE())
    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.pre_tokenizer = (
        pre_tokenizers.Sequence([pre_tokenizers.Split(Regex(SPELLING_SPLIT), behavior="isolated"), byte_level])
        if spell_capitals
        else byte_level
    )
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=list(SPECIAL_TOKENS), initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tok.train_from_iterator([*(list(_CORPUS) * 20), *corpus], trainer)
    if spell_capitals:  # what Qwen3_5Tokenizer sets on load
        tok.normalizer = normalizers.NFC()
        tok.pre_tokenizer = pre_tokenizers.Sequence(
            [
                pre_tokenizers.Split(Regex(PRETOKENIZE_REGEX), behavior="isolated"),
                pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
            ]
        )
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    tokenizer.add_special_tokens({"additional_special_tokens": list(SPECIAL_TOKENS[1:])})
    tokenizer.add_tokens(list(ADDED_TOKENS))
    tokenizer.chat_template = CHAT_TEMPLATE
    return tokenizer


def _config(tokenizer: Any, text: dict[str, Any], vision: dict[str, Any]) -> Any:
    from transformers.models.qwen3_5 import Qwen3_5Config

    ids = {name: tokenizer.convert_tokens_to_ids(name) for name in SPECIAL_TOKENS}
    text = {**text, "vocab_size": max(int(text.get("vocab_size", 0)), len(tokenizer))}
    text.update(eos_token_id=ids["<|im_end|>"], pad_token_id=ids["<|endoftext|>"])
    return Qwen3_5Config(
        text_config=text,
        vision_config=vision,
        image_token_id=ids["<|image_pad|>"],
        video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"],
        vision_end_token_id=ids["<|vision_end|>"],
        tie_word_embeddings=bool(text.get("tie_word_embeddings", True)),
    )


def _save(
    path: Path,
    tokenizer: Any,
    config: Any,
    seed: int,
    max_pixels: int,
    dtype: Any = None,
    embedding_std: float | None = None,
) -> Path:
    import torch
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil
    from transformers.models.qwen3_5 import Qwen3_5ForConditionalGeneration

    torch.manual_seed(seed)
    model = Qwen3_5ForConditionalGeneration(config)
    if embedding_std is not None:  # tied: the output head's rows too
        weight: Any = model.get_input_embeddings().weight
        with torch.no_grad():
            weight.normal_(0.0, embedding_std)
    if dtype is not None:
        model = model.to(dtype)
    path.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(path, safe_serialization=True)
    tokenizer.save_pretrained(path)
    Qwen2VLImageProcessorPil(**IMAGE_PROCESSOR, min_pixels=32 * 32 * 4, max_pixels=max_pixels).save_pretrained(path)
    return path


def build_tiny_qwen35(path: str | Path, seed: int = 0, *, max_pixels: int = 232 * 520) -> Path:
    """A tiny random Qwen3.5 (hidden 64, 2 layers, one vision block) saved to ``path``.

    ``max_pixels`` caps the image processor's resolution (small for speed).
    """
    tokenizer = build_tokenizer()
    text = {
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
    }
    vision = {"depth": 1, "hidden_size": 32, "intermediate_size": 64, "num_heads": 2, "out_hidden_size": 64, "num_position_embeddings": 256}
    return _save(Path(path), tokenizer, _config(tokenizer, text, vision), seed, max_pixels)


def build_small_qwen35(
    path: str | Path,
    seed: int = 0,
    *,
    hidden_size: int = 128,
    num_layers: int = 4,
    vocab_size: int = 1024,
    corpus: Sequence[str] = (),
    max_pixels: int = 232 * 520,
    linear_attention: bool = True,
    spell_capitals: bool = True,
    embedding_std: float | None = None,
    num_heads: int | None = None,
    head_dim: int = 32,
    rotary_fraction: float | None = None,
    rope_theta: float | None = None,
) -> Path:
    """A small random Qwen3.5 sized to learn on a CPU (benchmarks): ``hidden_size`` wide,
    ``num_layers`` deep (Gated DeltaNet and full attention alternating, a Gated DeltaNet layer
    first; with ``linear_attention=False`` full attention only, which runs about twice as fast on
    a CPU without the Gated DeltaNet kernels), ``num_heads`` heads of ``head_dim`` (default: one
    per 32 of width; key/value heads half as many), a tokenizer of at most ``vocab_size`` tokens trained on
    ``corpus`` (prompt text) so prompts stay short, and an embedding of just that vocabulary.
    ``spell_capitals`` (see :func:`build_tokenizer`) lets it copy a label from the tree into
    its answer; Qwen's own tokenizer is what it is, this is for the small model only.

    The (tied) embedding is drawn with ``embedding_std`` (default ``hidden_size ** -0.5``, rows
    of about unit norm) instead of the config's 0.02: a logit is a final-normed hidden state
    (norm about ``sqrt(hidden_size)``, its norm weight frozen under LoRA) times an embedding
    row, so at 0.02 no logit of a 128-wide model passes about 2.6 whatever the adapter learns,
    and neither the card's margin target (8) nor a confident answer is reachable.

    ``rotary_fraction`` and ``rope_theta`` override the configuration's rotary embedding
    (Qwen3.5's default rotates a quarter of each head at theta 10,000: with heads of 16 that is
    two frequencies, 1 and 0.01 radians per token)."""
    tokenizer = build_tokenizer(vocab_size=vocab_size, corpus=corpus, spell_capitals=spell_capitals)
    heads = max(2, hidden_size // 32) if num_heads is None else num_heads
    text = {
        "hidden_size": hidden_size,
        "intermediate_size": 2 * hidden_size,
        "num_hidden_layers": num_layers,
        "num_attention_heads": heads,
        "num_key_value_heads": max(1, heads // 2),
        "head_dim": head_dim,
        "linear_num_key_heads": heads,
        "linear_num_value_heads": heads,
        "linear_key_head_dim": head_dim,
        "linear_value_head_dim": head_dim,
        "layer_types": (["linear_attention", "full_attention"] * num_layers)[:num_layers]
        if linear_attention
        else ["full_attention"] * num_layers,
        "max_position_embeddings": 8192,
        "vocab_size": len(tokenizer),
    }
    if rotary_fraction is not None or rope_theta is not None:
        from transformers.models.qwen3_5 import Qwen3_5TextConfig

        rope = dict(Qwen3_5TextConfig().rope_parameters or {})
        if rotary_fraction is not None:
            rope["partial_rotary_factor"] = rotary_fraction
        if rope_theta is not None:
            rope["rope_theta"] = rope_theta
        text["rope_parameters"] = rope
    vision = {
        "depth": 1,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_heads": 2,
        "out_hidden_size": hidden_size,
        "num_position_embeddings": 256,
    }
    std = hidden_size**-0.5 if embedding_std is None else embedding_std
    return _save(Path(path), tokenizer, _config(tokenizer, text, vision), seed, max_pixels, embedding_std=std)


def build_random_qwen35(path: str | Path, seed: int = 0, *, dtype: Any = None) -> Path:
    """A Qwen3.5-0.8B-sized model with random weights (about 0.9 B parameters) saved to ``path``;
    the image processor keeps Qwen's default resolution cap."""
    tokenizer = build_tokenizer(vocab_size=4000)
    return _save(Path(path), tokenizer, _config(tokenizer, dict(QWEN35_0_8B_TEXT), dict(QWEN35_0_8B_VISION)), seed, 16384 * 32 * 32, dtype)


def build_lora(
    base: str | Path, out: str | Path, *, r: int = 16, alpha: int = 32, targets: str | list[str] = LORA_TARGETS, seed: int = 0
) -> Path:
    """A LoRA adapter with random (non-zero) weights on ``targets`` of the model at ``base``,
    saved as safetensors to ``out``."""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForImageTextToText

    torch.manual_seed(seed)
    model = AutoModelForImageTextToText.from_pretrained(str(base), use_safetensors=True, trust_remote_code=False)
    lora = get_peft_model(model, LoraConfig(r=r, lora_alpha=alpha, target_modules=targets, init_lora_weights=False))
    Path(out).mkdir(parents=True, exist_ok=True)
    lora.save_pretrained(str(out), safe_serialization=True)
    return Path(out)
