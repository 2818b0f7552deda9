"""The spaces and their vector forms: bounded labels, text through shared memory, string batches."""

from __future__ import annotations

import copy
import multiprocessing

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector.utils import batch_space, create_shared_memory, iterate, read_from_shared_memory, write_to_shared_memory
from hypothesis import given
from hypothesis import strategies as st

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym.core.spaces import BatchedActionSpace, LabelList, SharedTexts, UnicodeText, action_space, split_observations
from cerebellum_gym.errors import InvalidActionError


@given(st.lists(st.text(max_size=12), min_size=3, max_size=3))
def test_any_text_goes_through_shared_memory_unchanged(texts: list[str]) -> None:
    space = UnicodeText(12)
    memory = create_shared_memory(space, n=3, ctx=multiprocessing)
    view = read_from_shared_memory(space, memory, n=3)
    for i, text in enumerate(texts):
        write_to_shared_memory(space, i, text, memory)
    # The view reads the buffer when indexed, so it follows later writes (gymnasium reads once).
    assert tuple(view) == tuple(texts) and view == tuple(texts)
    write_to_shared_memory(space, 1, "later", memory)
    assert view[1] == "later"


def test_shared_memory_keeps_surrogates_emoji_and_the_full_length() -> None:
    space = UnicodeText(5)
    memory = create_shared_memory(space, n=2, ctx=multiprocessing)
    write_to_shared_memory(space, 0, "a\ud800🎉\x00z", memory)
    write_to_shared_memory(space, 1, "", memory)
    view = read_from_shared_memory(space, memory, n=2)
    assert view[0] == "a\ud800🎉\x00z" and view[1] == "" and view[-1] == "" and view[0:1] == ("a\ud800🎉\x00z",)
    with pytest.raises(IndexError):
        view[2]
    with pytest.raises(ValueError, match="do not fit"):
        write_to_shared_memory(space, 0, "x" * 6, memory)


def test_label_lists_go_through_shared_memory_and_deep_copy_to_tuples() -> None:
    space = LabelList(4)
    memory = create_shared_memory(space, n=2, ctx=multiprocessing)
    write_to_shared_memory(space, 0, ("AB", "CD", "EF", "GH"), memory)
    write_to_shared_memory(space, 1, (), memory)
    view = read_from_shared_memory(space, memory, n=2)
    assert isinstance(view, SharedTexts)
    snapshot = copy.deepcopy({"labels": view})["labels"]
    assert type(snapshot) is tuple and snapshot == (("AB", "CD", "EF", "GH"), ())


def test_label_list_is_bounded_and_samples_inside_itself() -> None:
    space = LabelList(3, seed=0)
    assert space.contains(()) and space.contains(("AB", "ZZ", "QQ"))
    assert not space.contains(("AB",) * 4) and not space.contains(["AB"]) and not space.contains(("A",))
    assert all(space.contains(space.sample()) for _ in range(50))
    assert space == LabelList(3) and space != LabelList(4)


def test_a_batched_action_space_takes_strings_or_the_structured_batch() -> None:
    batched = batch_space(action_space(8, 100), 3)
    assert isinstance(batched, BatchedActionSpace)
    assert list(iterate(batched, ["T AB", {"code": 1}, "W"])) == ["T AB", {"code": 1}, "W"]
    structured = {"code": np.array([0, 9, 11]), "label": np.array([1, 0, 0]), "text": ("", "", "")}
    assert [int(a["code"]) for a in iterate(batched, structured)] == [0, 9, 11]
    for bad, reason in (
        (["W", "W"], "2 actions for 3 envs"),
        ("W", "one action per env"),
        ({"code": [0, 1, 2]}, "has the keys"),
        ({"code": np.zeros(2), "label": np.zeros(3), "text": ("",) * 3}, "values per key|actions for 3 envs"),
    ):
        with pytest.raises(InvalidActionError, match=reason):
            list(iterate(batched, bad))


@pytest.mark.parametrize("pixels", [False, True])
def test_split_observations_gives_each_env_its_own_observation(pixels: bool) -> None:
    envs = gym.make_vec("Cerebellum-Sim-v0", 3, vectorization_mode="sync", task="SystemWifiTurnOn", pixels=pixels, screenshot_width=32)
    obs, _ = envs.reset(seed=[5, 6, 7])
    obs, *_ = envs.step(["W", "H", f"T {obs['labels'][2][0]}"])
    singles = [gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=pixels, screenshot_width=32) for _ in range(3)]
    split = split_observations(obs)
    for i, (env, part) in enumerate(zip(singles, split, strict=True)):
        own, _ = env.reset(seed=5 + i)
        own, *_ = env.step(["W", "H", f"T {own['labels'][0]}"][i])
        assert env.observation_space.contains(part)
        assert part["tree"] == own["tree"] and part["labels"] == own["labels"]
        assert part["history"]["actions"] == own["history"]["actions"]
        assert np.array_equal(part["history"]["mask"], own["history"]["mask"])
        if pixels:
            assert np.array_equal(part["screenshot"], own["screenshot"])
    assert split_observations(split) == split  # a list passes through
    envs.close()


def test_observation_rows_are_views_built_on_read_and_copies_when_asked() -> None:
    """An agent reads a native batch through rows that share its arrays (nothing re-split up
    front); the RL rollout keeps rows past the next step, so it asks for copies."""
    from cerebellum_gym.core.spaces import ObservationRows
    from cerebellum_gym.vector.native import NativeVectorEnv

    envs = NativeVectorEnv(2, task="SystemWifiTurnOn", pixels=False)
    try:
        batch, _ = envs.reset(seed=0)
        rows = ObservationRows(batch)
        assert len(rows) == 2 and not rows._rows  # nothing built before it is read
        first = rows[0]
        assert rows[-2] is first and np.shares_memory(first["action_mask"], batch["action_mask"])
        assert first["history"]["actions"] == tuple(frame[0] for frame in batch["history"]["actions"])
        kept = split_observations(batch, copy=True)
        before = kept[1]["action_mask"].copy()
        assert not np.shares_memory(kept[1]["action_mask"], batch["action_mask"])
        batch["action_mask"][1] ^= 1  # the next step overwrites the batch's storage
        assert np.array_equal(kept[1]["action_mask"], before)
        with pytest.raises(IndexError):
            rows[2]
    finally:
        envs.close()
