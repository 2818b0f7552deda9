"""Whole episodes replay bit for bit: the same seed and actions give the same observations, rewards
and infos as when the fixture was recorded (``python tests/episode_digest.py``).

A change that alters behaviour on purpose re-records the fixture in the same commit and says why.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from episode_digest import CASES, episode

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "episode_digests.json").read_text())


@pytest.mark.parametrize(("task", "seed", "policy"), CASES, ids=[f"{t}-{s}-{p}" for t, s, p in CASES])
def test_episode_matches_the_recording(task: str, seed: int, policy: str) -> None:
    recorded = FIXTURE[f"{task}/{seed}/{policy}"]
    replayed = episode(task, seed, policy)
    for step, (want, got) in enumerate(zip(recorded, replayed, strict=False)):
        assert got == want, f"{task} seed {seed}: step {step} differs from the recording"
    assert len(replayed) == len(recorded)
