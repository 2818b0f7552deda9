"""Constrained decoding of action codes, on bytes rather than on a fixed token split.

The answer must spell a legal action on the current screen: a complete action (``"T UE"``,
``"B"``, ``"F"``) or an open prefix (``"K "``, ``"F "``) followed by free text. The constraint
works on the bytes that the generated tokens spell, so the model may tokenize an answer as its
tokenizer (and so its training) does: ``K hello`` may come as ``[K, Ġhello]`` or ``[K, Ġ, hello]``.

- Before the free text: a token is allowed when the bytes so far plus its bytes are a prefix of a
  legal string, or complete an open prefix and go on into valid text.
- In free text: any ordinary token whose bytes keep the text valid UTF-8 (a character split over
  tokens is fine, an invalid one is not); added tokens (``<|im_end|>``, ``<think>``...) never.
- The end token only after a complete action, or after text that is complete UTF-8 and not only
  whitespace.
- Free text holds at most ``max_text_chars`` characters (the env's own limit, 1000, by default):
  a token that would pass it is not allowed, and at the limit only the end token is.

Masks over the vocabulary are computed once per tokenizer (:class:`TokenTable`) and cached per
UTF-8 state, so a decoding step costs a dictionary lookup per row.

Example:
    >>> table = TokenTable.from_token_bytes([b"K", b" ", b" hi", b"T", b" UE", b"\\xc3", b"\\xa9", b"<e>"], stop_ids=[7])
    >>> c = ActionConstraint(table, complete=["T UE"], open_prefixes=["K "])
    >>> sorted(c.allowed(b"").ids)
    [0, 3]
    >>> a = c.allowed(b"K")
    >>> sorted(a.ids), a.mask.nonzero()[0].tolist()  # " " completes "K "; " hi" and " UE" go on into text
    ([1], [2, 4])
    >>> c.allowed(b"K \\xc3").mask.nonzero()[0].tolist(), c.allowed(b"K \\xc3").stop  # half a character
    ([6], False)
    >>> c.allowed(b"K \\xc3\\xa9").stop
    True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

import numpy as np

from cerebellum_gym.core.actions import MAX_TEXT_CHARS

#: First-continuation-byte ranges of the lead bytes that restrict it (no overlongs, no surrogates, nothing past U+10FFFF).
_SECOND_BYTE: Final = {0xE0: (0xA0, 0xBF), 0xED: (0x80, 0x9F), 0xF0: (0x90, 0xBF), 0xF4: (0x80, 0x8F)}


def _char_length(lead: int) -> int:
    """Bytes in the UTF-8 character that starts with ``lead`` (0: not a lead byte)."""
    if lead < 0x80:
        return 1
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def utf8_tail(data: bytes) -> bytes | None:
    """The incomplete character at the end of ``data`` (``b""`` when none), or ``None`` when
    ``data`` is not a prefix of valid UTF-8."""
    if data.isascii():
        return b""
    i, n = 0, len(data)
    while i < n:
        lead = data[i]
        size = _char_length(lead)
        if size == 0:
            return None
        for k in range(1, size):
            if i + k >= n:
                return data[i:]
            lo, hi = _SECOND_BYTE.get(lead, (0x80, 0xBF)) if k == 1 else (0x80, 0xBF)
            if not lo <= data[i + k] <= hi:
                return None
        i += size
    return b""


@lru_cache(maxsize=1)
def _byte_decoder() -> dict[str, int]:
    """The inverse of the byte-level BPE alphabet (GPT-2's printable stand-ins for the 256 bytes)."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    chars = list(printable)
    extra = 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            chars.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(printable, chars, strict=True)}


def token_bytes(tokenizer: Any) -> tuple[list[bytes | None], set[int]]:
    """Each token id's bytes (``None`` for added tokens), and the added token ids.

    Byte-level BPE tokens (Qwen's) map back to bytes exactly; other tokenizers fall back to
    decoding each token alone.
    """
    added = {int(i) for i in getattr(tokenizer, "added_tokens_decoder", {})}
    for name in getattr(tokenizer, "all_special_tokens", []):
        special = tokenizer.convert_tokens_to_ids(name)
        if special is not None:
            added.add(int(special))
    size = len(tokenizer)
    pieces = tokenizer.convert_ids_to_tokens(list(range(size)))
    decoder = _byte_decoder()
    out: list[bytes | None] = []
    for i, piece in enumerate(pieces):
        if i in added or piece is None:
            out.append(None)
        elif all(ch in decoder for ch in piece):
            out.append(bytes(decoder[ch] for ch in piece))
        else:
            out.append(tokenizer.decode([i]).encode("utf-8"))
    return out, added


@dataclass
class Allowed:
    """What may come next: token ids, a vocabulary mask, and whether the answer may end here."""

    ids: set[int] = field(default_factory=set)
    mask: np.ndarray | None = None
    stop: bool = False


class TokenTable:
    """A tokenizer's vocabulary as bytes, with the masks the constraint needs, cached.

    Args:
        pieces: each token id's bytes; ``None`` for ids never allowed (added tokens, ids past
            the tokenizer in a larger embedding).
        stop_ids: the ids that end an answer (the chat turn's end and the end of text).
    """

    def __init__(self, pieces: Sequence[bytes | None], stop_ids: Iterable[int]) -> None:
        self.pieces = list(pieces)
        self.stop_ids = tuple(sorted({int(i) for i in stop_ids}))
        n = len(self.pieces)
        self.size = n
        self.text_ok = np.zeros(n, bool)
        self.length = np.zeros(n, np.int32)
        self.head = np.zeros(n, np.int32)  # leading continuation bytes
        self.body_ok = np.zeros(n, bool)  # the rest is a valid UTF-8 prefix
        self.first = np.full(n, -1, np.int32)
        self.leads = np.zeros(n, np.int32)  # characters a token starts (its bytes that are not continuation bytes)
        self.by_bytes: dict[bytes, list[int]] = {}
        for i, piece in enumerate(self.pieces):
            if not piece or i in self.stop_ids:
                continue
            self.text_ok[i] = True
            self.length[i] = len(piece)
            self.first[i] = piece[0]
            head = 0
            while head < len(piece) and 0x80 <= piece[head] <= 0xBF:
                head += 1
            self.head[i] = head
            self.leads[i] = sum(1 for b in piece if not 0x80 <= b <= 0xBF)
            self.body_ok[i] = utf8_tail(piece[head:]) is not None
            self.by_bytes.setdefault(piece, []).append(i)
        self._free: dict[bytes, np.ndarray] = {}
        self._capped: dict[tuple[bytes, int], np.ndarray] = {}
        self._openers: dict[bytes, np.ndarray] = {}

    @classmethod
    def from_tokenizer(cls, tokenizer: Any, vocab_size: int | None = None) -> TokenTable:
        """The table of ``tokenizer``, padded to the model's ``vocab_size`` (extra ids never allowed)."""
        pieces, _ = token_bytes(tokenizer)
        if vocab_size is not None and vocab_size > len(pieces):
            pieces += [None] * (vocab_size - len(pieces))
        stops = set()
        vocab = tokenizer.get_vocab()
        for name in ("<|im_end|>", "<|endoftext|>"):  # the chat turn's end, and the end of text
            if name in vocab:
                stops.add(int(vocab[name]))
        if tokenizer.eos_token_id is not None:
            stops.add(int(tokenizer.eos_token_id))
        return cls(pieces, stops)

    @classmethod
    def from_token_bytes(cls, pieces: Sequence[bytes | None], stop_ids: Iterable[int]) -> TokenTable:
        """A table from explicit token bytes (for tests and examples)."""
        return cls([None if i in set(stop_ids) else p for i, p in enumerate(pieces)], stop_ids)

    def spell(self, ids: Sequence[int]) -> bytes:
        """The bytes that ``ids`` spell (stop and added tokens spell nothing)."""
        return b"".join(self.pieces[i] or b"" for i in ids if 0 <= i < self.size)

    def free_mask(self, pending: bytes) -> np.ndarray:
        """Tokens that continue valid text after the incomplete character ``pending``."""
        mask = self._free.get(pending)
        if mask is None:
            if not pending:
                mask = self.text_ok & (self.head == 0) & self.body_ok
            else:
                need = _char_length(pending[0]) - len(pending)
                short = (self.head == self.length) & (self.length < need)  # all continuation bytes, still short
                mask = self.text_ok & self.body_ok & ((self.head == need) | short)
                if len(pending) == 1:
                    lo, hi = _SECOND_BYTE.get(pending[0], (0x80, 0xBF))
                    mask &= (self.first >= lo) & (self.first <= hi)
            self._free[pending] = mask
        return mask

    def capped_mask(self, pending: bytes, room: int) -> np.ndarray:
        """:meth:`free_mask` less the tokens that start more than ``room`` characters."""
        mask = self.free_mask(pending)
        if room >= int(self.leads.max(initial=0)):
            return mask
        key = (pending, room)
        capped = self._capped.get(key)
        if capped is None:
            capped = mask & (self.leads <= room)
            self._capped[key] = capped
        return capped

    def opener_mask(self, rest: bytes) -> np.ndarray:
        """Tokens that spell ``rest`` (the end of an open prefix such as ``"K "``) and then go on
        into the start of valid text."""
        mask = self._openers.get(rest)
        if mask is None:
            mask = np.zeros(self.size, bool)
            for i, piece in enumerate(self.pieces):
                if piece and self.text_ok[i] and len(piece) > len(rest) and piece.startswith(rest):
                    tail = piece[len(rest) :]
                    mask[i] = not 0x80 <= tail[0] <= 0xBF and utf8_tail(tail) is not None
            self._openers[rest] = mask
        return mask


class ActionConstraint:
    """The legal answers on one screen, as a byte-level automaton over :class:`TokenTable` tokens.

    Args:
        table: the tokenizer's table.
        complete: complete legal actions (``"T UE"``, ``"B"``, ``"F"``).
        open_prefixes: prefixes followed by free text (``"K "``, ``"F "``).
        max_text_chars: characters of free text at most.
    """

    def __init__(
        self, table: TokenTable, complete: Sequence[str], open_prefixes: Sequence[str] = (), *, max_text_chars: int = MAX_TEXT_CHARS
    ) -> None:
        self.table = table
        self.max_text_chars = max_text_chars
        self.complete = [a.encode("utf-8") for a in complete]
        self.openers = [p.encode("utf-8") for p in open_prefixes]
        self._complete_set = set(self.complete)

    def text_of(self, spelled: bytes) -> bytes | None:
        """The free text after an open prefix, or ``None`` before one."""
        for opener in self.openers:
            if spelled.startswith(opener):
                return spelled[len(opener) :]
        return None

    def allowed(self, spelled: bytes) -> Allowed:
        """What may follow the answer's bytes so far."""
        text = self.text_of(spelled)
        if text is not None:
            pending = utf8_tail(text)
            if pending is None:  # cannot happen under the constraint; end rather than go on
                return Allowed(stop=True)
            whole = text[: len(text) - len(pending)].decode("utf-8")
            done = not pending and bool(whole.strip())
            room = self.max_text_chars - len(whole) - (1 if pending else 0)
            if room <= 0 and not pending:
                return Allowed(stop=True)  # at the limit: the end, whatever the text (the fallback decides)
            # A pending character is already counted: its continuation bytes start nothing new.
            return Allowed(mask=self.table.capped_mask(pending, max(room, 0)), stop=done)
        out = Allowed(stop=spelled in self._complete_set)
        n = len(spelled)
        for target in (*self.complete, *self.openers):
            if len(target) > n and target.startswith(spelled):
                rest = target[n:]
                for k in range(1, len(rest) + 1):
                    out.ids.update(self.table.by_bytes.get(rest[:k], ()))
        for opener in self.openers:
            if len(opener) > n and opener.startswith(spelled):
                mask = self.table.opener_mask(opener[n:])
                out.mask = mask if out.mask is None else out.mask | mask
        if not out.ids and out.mask is None:
            out.stop = True  # nothing legal continues: end (the caller's fallback decides)
        return out

    def accepts(self, ids: Sequence[int]) -> bool:
        """Whether the constraint allows ``ids`` step by step and then the end token."""
        return self.accepts_prefix(ids) and self.allowed(self.table.spell(ids)).stop

    def accepts_prefix(self, ids: Sequence[int]) -> bool:
        """Whether the constraint allows ``ids`` step by step (an answer cut at a token cap)."""
        for k, token in enumerate(ids):
            allowed = self.allowed(self.table.spell(ids[:k]))
            ok = token in allowed.ids or (allowed.mask is not None and 0 <= token < len(allowed.mask) and bool(allowed.mask[token]))
            if not ok:
                return False
        return True

    def finish(self, spelled: bytes) -> str | None:
        """The answer from its bytes, cut at the token cap if need be: an incomplete last
        character is dropped; ``None`` when what is left is no legal answer."""
        text = self.text_of(spelled)
        if text is None:
            return spelled.decode("utf-8") if spelled in self._complete_set else None
        opener = spelled[: len(spelled) - len(text)]
        pending = utf8_tail(text)
        if pending is None:
            return None
        decoded = text[: len(text) - len(pending)].decode("utf-8")
        if not decoded.strip():
            return None
        return opener.decode("utf-8") + decoded
