"""Encoded prompts kept compactly, in a cache bounded by bytes.

An encoded prompt at the card's image limits holds ``pixel_values`` of [4096, 1536] float32
(24 MB): the image processor's patches, each pixel repeated over the two temporal frames and
normalised. Kept as they are, 4,096 cached prompts would take about 96 GB. :func:`pack` keeps
instead the uint8 pixels the patches were normalised from, zlib-compressed (UI screenshots and
the repeated frames compress many times over), and :func:`unpack` normalises them again (within
1e-6 of the encoder's values; running the image processor again would be about 5x slower).

:class:`ByteBudgetCache` is an LRU over such entries that holds at most ``budget`` bytes (as
:func:`packed_nbytes` counts them); rows that do not fit are encoded again when drawn.
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

import numpy as np

from cerebellum_gym.agents.qwen_prompt import EncodedPrompt

__all__ = ["ByteBudgetCache", "ItemCache", "PackedItem", "PackedPrompt", "pack", "packed_nbytes", "prompt_nbytes", "unpack"]

V = TypeVar("V")


@dataclass(frozen=True)
class PackedPrompt:
    """An :class:`EncodedPrompt` without its patches or images, and its patches as uint8
    pixels, zlib-compressed (``shape``: the patches' shape)."""

    prompt: EncodedPrompt
    pixels: bytes | None
    shape: tuple[int, ...]

    @property
    def nbytes(self) -> int:
        return packed_nbytes(self)


def _affine(image_processor: Any, width: int) -> tuple[Any, Any, float]:
    """Per-value mean and std over a patch row (channels first: ``width / 3`` values each), and
    the rescale factor, of ``image_processor``'s normalisation."""
    import torch

    per = width // 3
    mean = torch.tensor(image_processor.image_mean, dtype=torch.float32).repeat_interleave(per)
    std = torch.tensor(image_processor.image_std, dtype=torch.float32).repeat_interleave(per)
    return mean, std, float(getattr(image_processor, "rescale_factor", 1 / 255))


def pack(prompt: EncodedPrompt, image_processor: Any, level: int = 1) -> PackedPrompt:
    """``prompt`` with its patches turned back into the uint8 pixels they were normalised from
    (Qwen's patches are ``(pixel * rescale - mean) / std``, channels first) and compressed; its
    fitted images dropped (the scorer reads the patches only)."""
    import torch

    values = prompt.pixel_values
    if values is None or image_processor is None:
        return PackedPrompt(replace(prompt, images=[]), None, ())
    mean, std, scale = _affine(image_processor, int(values.shape[-1]))
    pixels = ((values.float() * std + mean) / scale).round().clamp(0, 255).to(torch.uint8)
    data = zlib.compress(pixels.numpy().tobytes(), level)
    return PackedPrompt(replace(prompt, images=[], pixel_values=None), data, tuple(values.shape))


def unpack(packed: PackedPrompt, image_processor: Any) -> EncodedPrompt:
    """The prompt again, its patches normalised from the kept pixels as the image processor
    normalises them (float32, within 1e-6 of the encoder's: the same arithmetic, another order);
    without its fitted images."""
    import torch

    if packed.pixels is None:
        return packed.prompt
    pixels = torch.from_numpy(np.frombuffer(zlib.decompress(packed.pixels), dtype=np.uint8).reshape(packed.shape).copy())
    mean, std, scale = _affine(image_processor, packed.shape[-1])
    return replace(packed.prompt, pixel_values=(pixels.float() * scale - mean) / std)


def prompt_nbytes(prompt: EncodedPrompt) -> int:
    """Bytes an encoded prompt holds in its arrays and text (ids at 8 bytes, as Python ints are
    at least that)."""
    pixels = prompt.pixel_values
    size = int(pixels.numel() * pixels.element_size()) if pixels is not None else 0
    return size + sum(int(img.nbytes) for img in prompt.images) + len(prompt.text.encode()) + 8 * len(prompt.input_ids)


def packed_nbytes(packed: PackedPrompt) -> int:
    return prompt_nbytes(packed.prompt) + len(packed.pixels or b"")


class ByteBudgetCache(Generic[V]):
    """An LRU holding at most ``budget`` bytes of values (each weighed by ``weigh`` when put)
    and at most ``max_entries`` of them. A value heavier than the whole budget is not kept.
    """

    def __init__(self, budget: int, weigh: Callable[[V], int], max_entries: int | None = None) -> None:
        if budget < 0:
            raise ValueError(f"the cache budget must be >= 0 bytes, got {budget}")
        self.budget = budget
        self.max_entries = max_entries
        self.weigh = weigh
        self.entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self.nbytes = 0
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, key: Hashable) -> V | None:
        entry = self.entries.get(key)
        if entry is None:
            self.misses += 1
            return None
        self.hits += 1
        self.entries.move_to_end(key)
        return entry[0]

    def put(self, key: Hashable, value: V) -> None:
        size = self.weigh(value)
        old = self.entries.pop(key, None)
        if old is not None:
            self.nbytes -= old[1]
        if size > self.budget:
            return
        self.entries[key] = (value, size)
        self.nbytes += size
        while self.nbytes > self.budget or (self.max_entries is not None and len(self.entries) > self.max_entries):
            _, (_, dropped) = self.entries.popitem(last=False)
            self.nbytes -= dropped


class ItemCache:
    """Scorer rows (:class:`~cerebellum_gym.agents.qwen_scorer.ScoreItem`) kept packed in a
    :class:`ByteBudgetCache`; :meth:`get` gives a row back with its patches made again by
    ``image_processor``."""

    def __init__(self, image_processor: Any, budget: int, max_entries: int | None = None) -> None:
        self.image_processor = image_processor
        self.cache: ByteBudgetCache[tuple[Any, PackedPrompt]] = ByteBudgetCache(budget, lambda entry: entry[1].nbytes, max_entries)

    def get(self, key: Hashable) -> Any:
        entry = self.cache.get(key)
        if entry is None:
            return None
        return replace(entry[0], prompt=unpack(entry[1], self.image_processor))

    def put(self, key: Hashable, item: Any) -> None:
        packed = pack(item.prompt, self.image_processor)
        self.cache.put(key, (replace(item, prompt=packed.prompt), packed))


@dataclass
class PackedItem:
    """A scorer row kept packed (an RL step's context between its rollout and its update):
    the row without its patches, and its :class:`PackedPrompt`."""

    item: Any
    packed: PackedPrompt

    @classmethod
    def of(cls, item: Any, image_processor: Any) -> PackedItem:
        packed = pack(item.prompt, image_processor)
        return cls(replace(item, prompt=packed.prompt), packed)

    @property
    def constraint(self) -> Any:
        return self.item.constraint

    def unpacked(self, image_processor: Any, temperature: float) -> Any:
        """The row with its patches, scored at ``temperature``."""
        return replace(self.item, prompt=unpack(self.packed, image_processor), temperature=temperature)
