"""The card's quota as a fixed per-batch composition.

The card's ``tp=5,k=2,scroll=2,wait=2,system=1`` sums to 12, its micro-batch: every micro-batch
holds 5 tap/press rows, 2 typing rows, 2 scrolls, 2 waits and 1 system action.
:class:`FixedQuotaSampler` draws so. For another batch size the counts scale (largest remainders
first); a group the data lacks gives its share to the others in proportion. The older reading,
the quota as probability weights over groups drawn with replacement, is
:class:`~cerebellum_gym.training.examples.QuotaSampler` (``--quota-mode weights``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

import numpy as np

from cerebellum_gym.datasets.offline import GROUPS
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.training.examples import Example, QuotaSampler

__all__ = ["QUOTA_MODES", "FixedQuotaSampler", "batch_counts", "make_sampler"]

#: How ``--quota`` is read: ``fixed`` (counts per micro-batch, the card's) or ``weights``.
QUOTA_MODES: Final = ("fixed", "weights")


def batch_counts(weights: Mapping[str, float], size: int) -> dict[str, int]:
    """Rows per group in a micro-batch of ``size``: ``weights`` scaled to sum to ``size``,
    rounded by largest remainder (ties: the order of :data:`GROUPS`)."""
    live = {g: w for g, w in weights.items() if w > 0}
    total = sum(live.values())
    if total <= 0:
        raise CerebellumError("the quota weighs no group")
    exact = {g: w * size / total for g, w in live.items()}
    counts = {g: math.floor(x) for g, x in exact.items()}
    rest = size - sum(counts.values())
    rank = {g: i for i, g in enumerate(GROUPS)}
    order = sorted(live, key=lambda g: (-(exact[g] - counts[g]), rank[g]))
    for g in order[:rest]:
        counts[g] += 1
    return {g: c for g, c in counts.items() if c > 0}


class FixedQuotaSampler(QuotaSampler):
    """Micro-batches of a fixed composition per group (see the module). Within a group rows are
    drawn without replacement while the group has enough; draws depend only on
    ``(seed, step, micro)``, so a resumed run draws what the killed one would have. The groups
    and pools are :class:`QuotaSampler`'s.

    Raises:
        CerebellumError: an unknown group, or a quota that weighs no group the data has.
    """

    def counts(self, size: int) -> dict[str, int]:
        return batch_counts({g: self.weights[g] for g in self.live}, size)

    def draw(self, step: int, micro: int, size: int) -> list[int]:
        """``size`` example indices for micro-batch ``micro`` of optimizer step ``step``."""
        rng = np.random.default_rng([self.seed, step, micro])
        out: list[int] = []
        for group, count in self.counts(size).items():
            pool = self.pools[group]
            picks = rng.choice(len(pool), size=count, replace=count > len(pool))
            out += [pool[int(i)] for i in picks]
        return out


def make_sampler(examples: Sequence[Example], quota: str | Mapping[str, float] | None, seed: int, mode: str) -> Any:
    """The sampler ``--quota-mode`` names.

    Raises:
        CerebellumError: an unknown mode (or see the samplers).
    """
    if mode == "fixed":
        return FixedQuotaSampler(examples, quota, seed)
    if mode == "weights":
        return QuotaSampler(examples, quota, seed)
    raise CerebellumError(f"unknown --quota-mode {mode!r}; use {' or '.join(QUOTA_MODES)}")
