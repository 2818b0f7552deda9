"""AndroidWorld's judges on the embedded simulator at the start of an episode (issue 36): a judge
never turns an honest episode into an exception. Where AndroidWorld's emulator has a folder after
its set-up, the simulator has it too; where AndroidWorld's own judge raises on its emulator, the
episode fails as its suite runner fails it, with the reason in ``info["judge_error"]``."""

from __future__ import annotations

import warnings

import gymnasium as gym
import pytest

import cerebellum_gym  # noqa: F401  (registers the env ids)

pytest.importorskip("android_world")
pytestmark = pytest.mark.xdist_group("androidworld")


@pytest.fixture(scope="module")
def env():  # type: ignore[no-untyped-def]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        made = gym.make("Cerebellum-AndroidWorld-v0", pixels=False)
    yield made
    made.close()


def test_osmand_track_is_judged_on_a_fresh_phone_as_on_the_emulator(env) -> None:  # type: ignore[no-untyped-def]
    """OsmAnd made its tracks folder when AndroidWorld's set-up started it: the judge finds it
    empty (no track drawn) and says 0.0, without an error."""
    env.reset(seed=0, options={"task": "OsmAndTrack"})
    _, reward, terminated, _, info = env.step("F")
    assert terminated and not info["success"] and reward == 0.0
    assert info["judge_error"] == ""


def test_a_judge_that_raises_fails_the_episode_and_says_why(env) -> None:  # type: ignore[no-untyped-def]
    """AndroidWorld's RetroPlayingQueue set-up deletes the playback database (its push of the
    playlist database clears the folder) until Retro Music starts again: its judge raises on its
    emulator, so an agent that never opens the app fails, as AndroidWorld's runner scores it."""
    env.reset(seed=0, options={"task": "RetroPlayingQueue"})
    with pytest.warns(UserWarning, match="judged 0.0"):
        _, reward, terminated, _, info = env.step("F")
    assert terminated and not info["success"] and reward == 0.0
    assert "no such table: playing_queue" in info["judge_error"]
    # The next episode of the same env judges afresh.
    env.reset(seed=0, options={"task": "OsmAndTrack"})
    _, _, _, _, info = env.step("F")
    assert info["judge_error"] == ""
