"""The byte-level decoding constraint, on the tiny model's real tokenizer (no model needed).

Random-score decodes stand in for a model: whatever the scores, every answer must parse and be
legal on its screen.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

import cerebellum_gym  # noqa: E402,F401
from cerebellum_gym.agents.qwen_agent import ConstraintProcessor, QwenActionAgent, allowed_actions  # noqa: E402
from cerebellum_gym.agents.qwen_constraint import ActionConstraint, TokenTable, utf8_tail  # noqa: E402
from cerebellum_gym.agents.qwen_tiny import ADDED_TOKENS, SPECIAL_TOKENS  # noqa: E402
from cerebellum_gym.core.actions import CODES, parse_action  # noqa: E402

#: Texts that the tokenizer itself turns into added tokens are not typed text.
FORBIDDEN = ("<|", *ADDED_TOKENS)


@pytest.fixture(scope="module")
def tokenizer(tiny_model: Path) -> Any:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(tiny_model)


@pytest.fixture(scope="module")
def table(tokenizer: Any) -> TokenTable:
    return TokenTable.from_tokenizer(tokenizer, vocab_size=len(tokenizer) + 12)


def _typing(table: TokenTable) -> ActionConstraint:
    return ActionConstraint(table, ["T UE", "T AB", "B", "F"], ["K ", "F "])


def test_added_and_out_of_vocabulary_tokens_are_never_text(tokenizer: Any, table: TokenTable) -> None:
    banned = [tokenizer.convert_tokens_to_ids(t) for t in (*SPECIAL_TOKENS, *ADDED_TOKENS)]
    for pending in (b"", b"\xc3", b"\xe6\x9d"):
        mask = table.free_mask(pending)
        assert not mask[banned].any() and not mask[len(tokenizer) :].any()
    assert table.stop_ids == tuple(
        sorted({tokenizer.convert_tokens_to_ids("<|im_end|>"), tokenizer.convert_tokens_to_ids("<|endoftext|>")})
    )


@pytest.mark.parametrize("pending", [b"", b"\xc3", b"\xe0", b"\xed", b"\xe6", b"\xe6\x9d", b"\xf0", b"\xf0\x9f", b"\xf0\x9f\x98", b"\xf4"])
def test_free_masks_equal_a_brute_force_utf8_check(table: TokenTable, pending: bytes) -> None:
    mask = table.free_mask(pending)
    for i, piece in enumerate(table.pieces):
        expected = bool(piece) and bool(table.text_ok[i]) and utf8_tail(pending + piece) is not None
        assert bool(mask[i]) == expected, (i, piece, pending)


@given(st.binary(max_size=12))
def test_utf8_tail_agrees_with_pythons_decoder(data: bytes) -> None:
    tail = utf8_tail(data)
    try:
        data.decode("utf-8")
        complete = True
    except UnicodeDecodeError:
        complete = False
    assert (tail == b"") == complete
    if tail:  # an incomplete last character: some completion decodes
        assert any(utf8_tail(data + bytes([b])) is not None for b in range(0x80, 0xC0))


def _text() -> st.SearchStrategy[str]:
    return st.text(min_size=1, max_size=24).filter(lambda t: bool(t.strip()) and not any(f in t for f in FORBIDDEN))


@given(text=_text(), code=st.sampled_from(["K", "F"]))
@settings(max_examples=150)
def test_the_tokenizers_own_tokens_for_typed_text_are_accepted(tokenizer: Any, table: TokenTable, text: str, code: str) -> None:
    ids = tokenizer.encode(f"{code} {text}", add_special_tokens=False)
    # Qwen's tokenizer normalises to NFC first (U+F900 becomes U+8C48): its tokens spell that form.
    assert table.spell(ids) == unicodedata.normalize("NFC", f"{code} {text}").encode()
    assert _typing(table).accepts(ids)


@given(text=_text())
def test_every_split_of_typed_text_into_vocabulary_tokens_is_accepted(tokenizer: Any, table: TokenTable, text: str) -> None:
    # Byte by byte (each byte is a token of a byte-level BPE): characters split over tokens.
    ids = tokenizer.encode("K", add_special_tokens=False) + [table.by_bytes[bytes([b])][0] for b in f" {text}".encode()]
    assert _typing(table).accepts(ids)


def test_whitespace_partial_characters_and_added_tokens_cannot_end_text(tokenizer: Any, table: TokenTable) -> None:
    c = _typing(table)
    assert not c.accepts(tokenizer.encode("K    ", add_special_tokens=False))
    assert not c.allowed(b"K ").stop and not c.allowed(b"F ").stop
    assert not c.allowed(b"K caf" + b"\xc3").stop
    assert c.allowed("K café".encode()).stop
    think = tokenizer.convert_tokens_to_ids("<think>")
    assert not c.accepts([*tokenizer.encode("K hi", add_special_tokens=False), think])
    assert c.finish("K café".encode()[:-1]) == "K caf"  # cut at the cap: no half character
    assert c.finish(b"K  ") is None


def test_labels_and_codes_stay_on_the_screen(tokenizer: Any, table: TokenTable) -> None:
    c = _typing(table)
    assert c.accepts(tokenizer.encode("T UE", add_special_tokens=False))
    assert not c.accepts(tokenizer.encode("T UF", add_special_tokens=False))
    assert not c.accepts(tokenizer.encode("P UE", add_special_tokens=False))
    done = c.allowed(b"B")
    assert done.stop and not done.ids and done.mask is None  # single-token actions end at once
    f = c.allowed(b"F")
    assert f.stop and f.mask is not None  # F ends, or goes on into an answer


def _random_decode(constraint: ActionConstraint, table: TokenTable, rng: np.random.Generator, cap: int) -> str:
    processor = ConstraintProcessor([constraint], table, prompt_len=0)
    ids: list[int] = []
    for _ in range(cap):
        scores = torch.from_numpy(rng.normal(size=(1, table.size)).astype(np.float32))
        # Random scores that favour the end token sometimes, so short answers happen too.
        scores[0, list(table.stop_ids)] += float(rng.uniform(-3, 3))
        token = int(processor(torch.tensor([ids], dtype=torch.long), scores).argmax())
        if token in table.stop_ids:
            break
        ids.append(token)
    return QwenActionAgent._finish(constraint, table.spell(ids))


def test_every_random_score_decode_is_legal_on_its_screen(table: TokenTable) -> None:
    rng = np.random.default_rng(0)
    decoded = 0
    codes: set[str] = set()
    cases = [("SystemWifiTurnOn", 0, 0), ("ContactsAddContact", 1, 3), ("ContactsAddContact", 2, 4), ("SystemBrightnessMax", 3, 1)]
    for task, seed, steps in cases * 3:
        env = gym.make("Cerebellum-Sim-v0", task=task, pixels=False)
        obs, _ = env.reset(seed=seed + decoded)
        for _ in range(steps):
            obs, *_ = env.step(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
        for _screen in range(8):
            complete, opened = allowed_actions(obs)
            constraint = ActionConstraint(table, complete, opened)
            for _ in range(5):
                text = _random_decode(constraint, table, rng, cap=int(rng.integers(2, 12)))
                action = parse_action(text)
                assert "\ufffd" not in text
                assert dict(zip(CODES, obs["action_mask"], strict=True))[action.code] == 1
                if action.label is not None:
                    assert action.label in obs["labels"]
                if action.text is not None:
                    assert action.text.strip()
                codes.add(action.code)
                decoded += 1
            obs, _, terminated, truncated, info = env.step(text)
            assert not info["invalid_action"], info["error"]
            if terminated or truncated:
                break
    assert decoded >= 100 and {"T", "K"} <= codes


def test_an_answer_cut_at_the_token_cap_is_a_prefix_but_not_an_answer() -> None:
    """Free text cut by the token cap (no end token) was allowed step by step: ``accepts_prefix``
    says so, ``accepts`` (which wants the end) does not; a token off the constraint fails both."""
    table = TokenTable.from_token_bytes([b"K", b" ", b" hi", b"T", b" UE", b"\xc3", b"\xa9", b"<e>"], stop_ids=[7])
    c = ActionConstraint(table, complete=["T UE"], open_prefixes=["K "])
    cut = [0, 2, 2, 5]  # "K hi hi" and half a character
    assert c.accepts_prefix(cut) and not c.accepts(cut)
    assert c.finish(table.spell(cut)) == "K hi hi"
    assert c.accepts([0, 2, 5, 6]) and c.accepts_prefix([0, 2, 5, 6])
    assert not c.accepts_prefix([3, 2])  # "T hi": no such label
