"""The quota as the card reads it: a fixed composition of every micro-batch."""

from __future__ import annotations

from collections import Counter

import pytest

from cerebellum_gym.datasets.offline import GROUPS
from cerebellum_gym.errors import CerebellumError
from cerebellum_gym.training.examples import Example, QuotaSampler
from cerebellum_gym.training.quota import FixedQuotaSampler, batch_counts, make_sampler

CARD = "tp=5,k=2,scroll=2,wait=2,system=1"


def _examples(per_group: dict[str, int]) -> list[Example]:
    out = []
    for group, n in per_group.items():
        out += [Example(f"{group}:{i}", "T", "W", 1, 4, group, dict) for i in range(n)]
    return out


def _groups(examples: list[Example], indices: list[int]) -> Counter[str]:
    return Counter(examples[i].group for i in indices)


def test_every_micro_batch_holds_the_cards_composition() -> None:
    examples = _examples({g: 30 for g in GROUPS})
    sampler = FixedQuotaSampler(examples, CARD, seed=0)
    for step in range(20):
        for micro in range(4):
            drawn = sampler.draw(step, micro, 12)
            assert _groups(examples, drawn) == Counter({"tp": 5, "k": 2, "scroll": 2, "wait": 2, "system": 1})
            assert len(set(drawn)) == 12  # no row twice while the groups have enough
    assert sampler.draw(3, 1, 12) == FixedQuotaSampler(examples, CARD, seed=0).draw(3, 1, 12)  # resumable
    assert sampler.draw(3, 1, 12) != sampler.draw(3, 2, 12)
    # The weights reading, by contrast, varies the composition from batch to batch.
    weighted = QuotaSampler(examples, CARD, seed=0)
    assert len({tuple(sorted(_groups(examples, weighted.draw(s, 0, 12)).items())) for s in range(20)}) > 1


def test_other_batch_sizes_and_missing_groups_scale_the_counts() -> None:
    assert batch_counts({"tp": 5, "k": 2, "scroll": 2, "wait": 2, "system": 1}, 6) == {"tp": 3, "k": 1, "scroll": 1, "wait": 1}
    assert sum(batch_counts({"tp": 5, "k": 2, "scroll": 2, "wait": 2, "system": 1}, 24).values()) == 24
    examples = _examples({"tp": 4, "k": 1, "wait": 3})  # no scroll or system rows at all
    sampler = FixedQuotaSampler(examples, CARD, seed=1)
    counts = _groups(examples, sampler.draw(0, 0, 12))
    assert sum(counts.values()) == 12 and set(counts) == {"tp", "k", "wait"}
    assert counts["tp"] == 7 and {counts["k"], counts["wait"]} == {2, 3}  # 5:2:2 of 12, largest remainders


def test_modes_and_bad_quotas() -> None:
    examples = _examples({"tp": 3})
    assert isinstance(make_sampler(examples, CARD, 0, "weights"), QuotaSampler)
    assert isinstance(make_sampler(examples, CARD, 0, "fixed"), FixedQuotaSampler)
    with pytest.raises(CerebellumError, match="quota-mode"):
        make_sampler(examples, CARD, 0, "odd")
    with pytest.raises(CerebellumError, match="no group the data has"):
        FixedQuotaSampler(examples, "k=1", 0)
