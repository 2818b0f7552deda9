"""The flat Discrete action space: codec, masks against the real env, and recreation from the spec."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cerebellum_gym  # noqa: F401
from cerebellum_gym.core.actions import CODES
from cerebellum_gym.errors import InvalidActionError
from cerebellum_gym.tasks import task_names
from cerebellum_gym.wrappers import FlatActionLayout, FlatActions

LABELS = st.lists(st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=2), unique=True, max_size=8)
TEXTS = st.lists(st.text(min_size=1, max_size=12).filter(lambda t: t.strip() == t and t), unique=True, max_size=3)
CODE_SETS = st.sets(st.sampled_from(CODES), min_size=1).filter(lambda s: bool(s & set("BHWFI"))).map("".join)


@settings(max_examples=200, deadline=None)
@given(labels=LABELS, texts=TEXTS, codes=CODE_SETS, answer_texts=st.booleans())
def test_every_legal_index_decodes_and_encodes_back(labels: list[str], texts: list[str], codes: str, answer_texts: bool) -> None:
    layout = FlatActionLayout(max_labels=8, max_texts=3, codes=codes, answer_texts=answer_texts)
    mask = layout.mask(np.ones(len(CODES), np.int8), len(labels), len(texts))
    assert mask.shape == (layout.n,) and mask.any()
    for index in np.flatnonzero(mask):
        action = layout.decode(int(index), labels, texts)
        assert action[0] in codes
        assert layout.encode(action, labels, texts) == index
    for index in np.flatnonzero(~mask):
        with pytest.raises(InvalidActionError):
            layout.decode(int(index), labels, texts)


def test_layout_rejects_bad_configs_and_out_of_range_indices() -> None:
    with pytest.raises(ValueError, match="unknown codes"):
        FlatActionLayout(codes="TX")
    with pytest.raises(ValueError, match="always legal"):
        FlatActionLayout(codes="TPK")
    layout = FlatActionLayout(max_labels=2, max_texts=0, codes="TB")
    assert layout.n == 3 and layout.decode(2, ("AB",)) == "B"
    with pytest.raises(InvalidActionError, match="outside"):
        layout.decode(3, ("AB",))
    with pytest.raises(InvalidActionError, match="not in this layout"):
        layout.encode("H", ("AB",))


def test_masks_follow_the_env_action_mask() -> None:
    layout = FlatActionLayout(max_labels=4, max_texts=2)
    action_mask = np.ones(len(CODES), np.int8)
    action_mask[CODES.index("K")] = 0  # nothing focused
    mask = layout.mask(action_mask, n_labels=3, n_texts=2)
    shown = [layout.decode(int(i), ("AA", "BB", "CC"), ("x", "y")) for i in np.flatnonzero(mask)]
    assert "T CC" in shown and "P AA" in shown and "F y" in shown
    assert not any(a.startswith("K ") for a in shown)


@pytest.mark.parametrize("task", task_names())
def test_every_unmasked_action_is_valid_in_the_env(task: str) -> None:
    env = FlatActions(gym.make("Cerebellum-Sim-v0", task=task, pixels=False), codes="TPKUDLRBHW")
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    for _ in range(12):
        legal = np.flatnonzero(env.action_masks())
        assert set(obs["text_candidates"]) <= set(env.unwrapped.task.text_candidates())  # type: ignore[attr-defined]
        obs, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert not info["invalid_action"], info["error"]
        if terminated or truncated:
            obs, _ = env.reset()
    env.close()


def test_oracle_plays_through_the_flat_space_including_typed_text() -> None:
    """The contacts task needs K with the task's candidate texts: the flat space can express it."""
    env = FlatActions(gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", pixels=False))
    obs, _ = env.reset(seed=3)
    layout = env.layout
    typed = 0
    done = False
    while not done:
        action = env.unwrapped.oracle_action()  # type: ignore[attr-defined]
        index = layout.encode(action, obs["labels"], obs["text_candidates"])
        assert env.action_masks()[index], action
        assert env.action_text(index) == action
        typed += action.startswith("K ")
        obs, _, terminated, truncated, info = env.step(index)
        done = terminated or truncated
    assert info["success"] and typed >= 2


def test_a_masked_out_index_is_an_invalid_action_not_a_crash() -> None:
    env = FlatActions(gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False, invalid_action_penalty=-0.5))
    env.reset(seed=0)
    masked = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(masked)
    assert info["invalid_action"] and "flat_action_error" in info
    assert reward == -0.5 and not terminated


def test_flat_actions_needs_a_reset_and_a_raw_env() -> None:
    env = FlatActions(gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False))
    with pytest.raises(gym.error.ResetNeeded):
        env.action_masks()
    with pytest.raises(TypeError, match="raw"):
        FlatActions(gym.make("CartPole-v1"))  # type: ignore[arg-type]


def test_wrapped_env_is_recreated_from_its_spec() -> None:
    env = FlatActions(gym.make("Cerebellum-Sim-v0", task="SystemBluetoothTurnOn", pixels=False), max_texts=2, codes="TBF")
    again = gym.make(env.spec)  # type: ignore[arg-type]
    assert isinstance(again, FlatActions)
    assert again.layout == env.layout and again.action_space == env.action_space
    a, _ = env.reset(seed=5)
    b, _ = again.reset(seed=5)
    assert a["tree"] == b["tree"] and a["labels"] == b["labels"]
    np.testing.assert_array_equal(env.action_masks(), again.action_masks())
