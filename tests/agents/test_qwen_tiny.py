"""The locally built Qwen3.5's tokenizer: with ``spell_capitals`` a set-of-mark label is the same
tokens in the tree and in the answer (so a small model can copy it), and the constrained decoder
still scores and decodes taps with it.

The tokenizer is trained here on a few prompt lines (no download); the model is the small random
Qwen3.5 the learning benchmark trains.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("transformers")

from cerebellum_gym.agents.qwen_tiny import build_small_qwen35, build_tokenizer
from cerebellum_gym.core.som import LABEL_POOL

CORPUS = ['[OH] TextView "Settings"', " [VC] Switch off", " Off On Vibrate", "Action taken: T OH", "T VC", "T BN", "VLC Wi-Fi SIMs"]


def _pieces(tokenizer: Any, text: str) -> list[str]:
    return list(tokenizer.convert_ids_to_tokens(tokenizer(text, add_special_tokens=False)["input_ids"]))


def _label_tokens(tokenizer: Any, label: str) -> tuple[list[str], list[str]]:
    """The label's tokens in a tree line and in a tap answer."""
    tree = _pieces(tokenizer, f" [{label}] Switch off")
    answer = _pieces(tokenizer, f"T {label}")
    start = next(i for i, p in enumerate(tree) if p.endswith("[")) + 1
    return tree[start : tree.index("]")], answer[1:]


def _loaded(tokenizer: Any, folder: Path) -> Any:
    """The tokenizer as the agent loads it (``AutoTokenizer`` of a ``qwen3_5`` model, which sets
    Qwen3.5's own pre-tokenizer whatever ``tokenizer.json`` holds)."""
    from transformers import AutoTokenizer

    tokenizer.save_pretrained(folder)
    (folder / "config.json").write_text('{"model_type": "qwen3_5"}')
    return AutoTokenizer.from_pretrained(str(folder))


def test_spelled_capitals_make_every_label_the_same_tokens_in_tree_and_answer(tmp_path: Path) -> None:
    built = build_tokenizer(vocab_size=600, corpus=CORPUS * 50, spell_capitals=True)
    loaded = _loaded(built, tmp_path / "tok")
    assert type(loaded).__name__ == "Qwen3_5Tokenizer"
    for tokenizer in (built, loaded):
        for label in LABEL_POOL:
            tree, answer = _label_tokens(tokenizer, label)
            assert tree == list(label), label
            assert answer == ["Ġ", *label], label
        # Words keep their merges; only capitals stand apart from a space or another capital.
        assert _pieces(tokenizer, 'TextView "Settings"') == ["TextView", 'Ġ"', "Settings", '"']
        assert _pieces(tokenizer, "Action taken: T OH")[-4:] == ["T", "Ġ", "O", "H"]
        assert _pieces(tokenizer, "VLC") == ["V", "L", "C"]
        text = 'Action taken: T OH\n [VC] Switch off "Wi-Fi"'
        assert tokenizer.decode(tokenizer(text, add_special_tokens=False)["input_ids"]) == text
    text = "[OH] Switch Off\nT OH"
    assert built(text, add_special_tokens=False)["input_ids"] == loaded(text, add_special_tokens=False)["input_ids"]


def test_without_spelling_a_loaded_label_is_other_tokens_in_tree_and_answer(tmp_path: Path) -> None:
    """The default (the tests' tiny model), as loaded: a trained merge spells ``VC`` one way after
    ``[`` and another after a space (what kept the benchmark's tap label at chance)."""
    loaded = _loaded(build_tokenizer(vocab_size=600, corpus=CORPUS * 50), tmp_path / "tok")
    differ = [label for label in ("VC", "OH", "BN", "ON", "OF") if _label_tokens(loaded, label)[0] != _label_tokens(loaded, label)[1][1:]]
    assert len(differ) >= 3, differ


def test_the_small_model_scores_and_decodes_taps_with_spelled_labels(tmp_path: Path) -> None:
    import torch

    from cerebellum_gym.agents.qwen_agent import QwenActionAgent
    from cerebellum_gym.agents.qwen_scorer import ActionScorer

    torch.set_num_threads(1)
    base = build_small_qwen35(tmp_path / "base", hidden_size=64, num_layers=2, vocab_size=600, corpus=CORPUS * 50, linear_attention=False)
    agent = QwenActionAgent.from_pretrained(base, use_images=False, max_text_tokens=4)
    obs = {
        "goal": "Turn wifi on.",
        "tree": '[OH] TextView "Settings"\n[VC] Switch off',
        "labels": ("OH", "VC"),
        "history": {},
    }
    scorer = ActionScorer(agent)
    item = scorer.item(obs, "T VC")
    names = agent.tokenizer.convert_ids_to_tokens(item.token_ids[:-1])
    assert names == ["T", "Ġ", "V", "C"]
    # The label's tokens are the tree's own: the prompt holds "V", "C" in that order.
    prompt = item.prompt.input_ids
    v, c = item.token_ids[2], item.token_ids[3]
    assert any(prompt[i] == v and prompt[i + 1] == c for i in range(len(prompt) - 1))
    with torch.no_grad():
        assert float(scorer.score([item]).logprob[0]) < 0
    # The constrained decoder only answers legal actions with this tokenizer too.
    agent.reset(seed=0)
    answer = str(agent.act(obs))
    code, _, rest = answer.partition(" ")
    assert code in {"T", "P", "K", "U", "D", "L", "R", "B", "H", "W", "F", "I"}
    if code in "TP":
        assert rest in {"OH", "VC"}


def test_the_small_models_logits_can_reach_the_cards_margin(tmp_path: Path) -> None:
    """At the config's 0.02 an embedding row of a 128-wide model has norm about 0.23 and the
    final-normed hidden state about sqrt(128): no logit could pass about 2.6, short of the card's
    margin target (8). The small model's rows have about unit norm, the head tied to them."""
    import torch
    from transformers import AutoModelForImageTextToText

    base = build_small_qwen35(tmp_path / "base", hidden_size=128, num_layers=1, vocab_size=600, corpus=CORPUS * 50, linear_attention=False)
    model = AutoModelForImageTextToText.from_pretrained(str(base))
    embed: Any = model.get_input_embeddings().weight
    head: Any = model.get_output_embeddings().weight
    assert torch.equal(head, embed)
    rows = embed.norm(dim=-1)
    assert 0.8 < float(rows.median()) < 1.2
    assert float(rows.max()) * 128**0.5 > 8.0  # the largest logit a unit-RMS hidden state can give


@pytest.mark.parametrize(
    ("linear", "kinds"), [(True, ["linear_attention", "full_attention", "linear_attention"]), (False, ["full_attention"] * 3)]
)
def test_the_small_models_heads_and_layer_kinds_are_as_asked(tmp_path: Path, linear: bool, kinds: list[str]) -> None:
    """The benchmark sizes the attention (more, narrower heads) and picks the layer kinds; the
    saved model loads with exactly those shapes."""
    from transformers import AutoModelForImageTextToText

    base = build_small_qwen35(
        tmp_path / "base",
        hidden_size=64,
        num_layers=3,
        vocab_size=600,
        corpus=CORPUS * 50,
        linear_attention=linear,
        num_heads=4,
        head_dim=16,
    )
    model = AutoModelForImageTextToText.from_pretrained(str(base))
    text = model.config.text_config
    assert (text.num_attention_heads, text.num_key_value_heads, text.head_dim) == (4, 2, 16)
    assert list(text.layer_types) == kinds
    full = next(layer for layer in model.model.language_model.layers if hasattr(layer, "self_attn"))
    assert full.self_attn.q_proj.out_features == 4 * 16 * 2  # Qwen3.5's query projection carries its output gate too


@pytest.mark.parametrize(("fraction", "theta"), [(None, None), (1.0, 100.0), (0.5, None)])
def test_the_small_models_rotary_embedding_is_as_asked(tmp_path: Path, fraction: float | None, theta: float | None) -> None:
    """Qwen3.5's default rotates a quarter of each head (two frequencies for heads of 16); the
    lookup probe widens it. The loaded model's frequencies are the rotary formula's."""
    import torch
    from transformers import AutoModelForImageTextToText

    base = build_small_qwen35(
        tmp_path / "base",
        hidden_size=64,
        num_layers=1,
        vocab_size=600,
        corpus=CORPUS * 50,
        linear_attention=False,
        num_heads=2,
        head_dim=16,
        rotary_fraction=fraction,
        rope_theta=theta,
    )
    model = AutoModelForImageTextToText.from_pretrained(str(base))
    rotated = int(16 * (0.25 if fraction is None else fraction))
    base_theta = 10_000.0 if theta is None else theta
    want = base_theta ** (-torch.arange(0, rotated, 2, dtype=torch.float32) / rotated)
    got = model.model.language_model.rotary_emb.inv_freq
    assert got.shape == want.shape
    assert torch.allclose(got.float(), want, rtol=1e-5)
