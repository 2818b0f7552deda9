"""CerebellumEnv: the gymnasium contract, rewards and episode ends, invalid actions, determinism."""

from __future__ import annotations

import pickle
import string
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import cerebellum_gym
from cerebellum_gym import CerebellumEnv, InvalidActionError
from cerebellum_gym.core.actions import CODES, batch_actions
from cerebellum_gym.errors import CerebellumError, DeviceLostError, UnknownTaskError
from cerebellum_gym.loader import make_device
from cerebellum_gym.sim import Phone

#: Registered ids whose backend can run on this machine (no emulator or phone here).
RUNNABLE_IDS = ["Cerebellum-Sim-v0"]


def absent_label(obs: Any) -> str:
    """A well-formed label the screen does not show (which bigrams it shows moves with the apps)."""
    shown = set(obs["labels"])
    return next(a + b for a in string.ascii_uppercase for b in string.ascii_uppercase if a + b not in shown)


def test_all_ids_are_registered() -> None:
    for env_id in cerebellum_gym.ENV_IDS:
        assert env_id in gym.registry


@pytest.mark.parametrize("env_id", RUNNABLE_IDS)
@pytest.mark.parametrize("pixels", [True, False])
def test_gymnasium_env_checker_passes(env_id: str, pixels: bool) -> None:
    env = gym.make(env_id, pixels=pixels, render_mode="rgb_array")
    check_env(env.unwrapped, skip_render_check=False)


def _rollout(env: gym.Env[Any, Any], seed: int, steps: int) -> list[Any]:
    trace: list[Any] = []
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        trace.append((obs["goal"], obs["tree"], obs["labels"], obs.get("screenshot", np.zeros(1)).tobytes()))
        legal = [c for c, ok in zip(CODES, obs["action_mask"], strict=True) if ok and c not in "FIK"]
        code = legal[int(rng.integers(len(legal)))]
        action = f"{code} {obs['labels'][int(rng.integers(len(obs['labels'])))]}" if code in "TP" else code
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append((action, reward, terminated, truncated, info["progress"]))
        if terminated or truncated:
            obs, info = env.reset(seed=seed + 1)
    return trace


def test_same_seed_same_episode_bit_for_bit() -> None:
    a = _rollout(gym.make("Cerebellum-Sim-v0"), seed=3, steps=25)
    b = _rollout(gym.make("Cerebellum-Sim-v0"), seed=3, steps=25)
    assert a == b
    c = _rollout(gym.make("Cerebellum-Sim-v0"), seed=4, steps=25)
    assert a != c


def test_labels_are_redrawn_every_screen_from_the_seeded_rng() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False)
    obs, _ = env.reset(seed=0)
    first = obs["labels"]
    obs, *_ = env.step("W")
    assert obs["labels"] != first  # same home screen, fresh labels
    assert len(obs["labels"]) == len(first)


def test_oracle_episode_rewards_sum_to_progress_and_success_needs_done() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False)
    obs, info = env.reset(seed=0)
    assert info["progress"] == 0.0 and not info["success"]
    total = 0.0
    while True:
        action = env.unwrapped.oracle_action()  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        if action != "F":
            assert not info["success"]  # AndroidWorld counts success only with the done signal
        if terminated or truncated:
            break
    assert action == "F" and terminated and info["success"] and total == pytest.approx(1.0)


def test_success_without_done_ends_the_episode_when_configured() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False, success_requires_done=False)
    env.reset(seed=0)
    while True:
        obs, reward, terminated, truncated, info = env.step(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
        if terminated or truncated:
            break
    assert terminated and info["success"] and info["action"] != "F"


def test_truncated_at_the_step_budget() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False, max_steps=3)
    env.reset(seed=0)
    results = [env.step("W") for _ in range(3)]
    assert [r[3] for r in results] == [False, False, True]
    assert not any(r[2] for r in results)


def test_impossible_ends_without_success() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False)
    env.reset(seed=0)
    _, _, terminated, _, info = env.step("I")
    assert terminated and not info["success"]


@pytest.mark.parametrize(
    ("action", "fragment"),
    [
        ("T {absent}", "not on the current screen"),  # a label the screen does not show
        ("K hello", "no text field is focused"),
        ("Q", "unknown code"),
        ({"code": 0, "label": 63, "text": ""}, "label slot 63 is empty"),
    ],
)
def test_invalid_actions_are_counted_and_leave_the_device_untouched(action: Any, fragment: str) -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False, invalid_action_penalty=-0.1)
    obs, _ = env.reset(seed=0)
    if isinstance(action, str):
        action = action.format(absent=absent_label(obs))
    phone = env.unwrapped.device  # type: ignore[attr-defined]
    before = (phone.version, phone.snapshot())
    obs2, reward, terminated, truncated, info = env.step(action)
    assert info["invalid_action"] and fragment in info["error"]
    assert reward == pytest.approx(-0.1) and not terminated and not truncated
    assert (phone.version, phone.snapshot()) == before
    assert obs2["tree"] == obs["tree"]


def test_invalid_actions_raise_when_configured() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False, invalid_action="raise")
    obs, _ = env.reset(seed=0)
    with pytest.raises(InvalidActionError, match="not on the current screen"):
        env.step(f"T {absent_label(obs)}")
    env.step("W")  # the env is still usable


def test_scroll_masks_follow_the_screen() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemBrightnessMax", pixels=False)
    obs, _ = env.reset(seed=0)
    mask = dict(zip(CODES, obs["action_mask"], strict=True))
    assert mask["K"] == 0 and mask["T"] == 1 and mask["B"] == 1
    _, _, _, _, info = env.step("K x")
    assert info["invalid_action"]


def test_structured_and_string_forms_do_the_same_thing() -> None:
    env_a = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False)
    env_b = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False)
    obs_a, _ = env_a.reset(seed=5)
    obs_b, _ = env_b.reset(seed=5)
    label = obs_a["labels"][1]
    out_a = env_a.step(f"T {label}")
    out_b = env_b.step({"code": 0, "label": 1, "text": ""})
    assert out_a[0]["tree"] == out_b[0]["tree"]
    assert out_a[4]["action"] == out_b[4]["action"] == f"T {label}"


def test_history_records_acted_frames_oldest_first() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn")
    obs, _ = env.reset(seed=0)
    assert obs["history"]["mask"].tolist() == [0, 0, 0, 0]
    settings_label = obs["labels"][[i for i, _ in enumerate(obs["labels"])][-1]]
    obs, *_ = env.step(f"T {settings_label}")
    obs, *_ = env.step("W")
    hist = obs["history"]
    assert hist["mask"].tolist() == [0, 0, 1, 1]
    assert hist["actions"][2] == f"T {settings_label}" and hist["actions"][3] == "W"
    assert hist["subtrees"][2] and hist["subtrees"][3] == ""
    assert hist["screenshots"].shape == (4, 516, 232, 3)
    assert hist["screenshots"][2].any() and not hist["screenshots"][0].any()
    # The acted element is outlined in the overlay colour on its frame only.
    outline = np.all(hist["screenshots"][2] == (255, 64, 32), axis=-1)
    assert outline.sum() > 50 and not np.all(hist["screenshots"][3] == (255, 64, 32), axis=-1).any()


def test_render_draws_labels_over_the_screenshot() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", render_mode="rgb_array")
    obs, _ = env.reset(seed=0)
    frame = env.render()
    assert frame.shape == obs["screenshot"].shape
    assert (frame != obs["screenshot"]).any()


def test_screenshot_width_is_configurable() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", screenshot_width=300, history_width=150)
    obs, _ = env.reset(seed=0)
    assert obs["screenshot"].shape == (667, 300, 3)
    assert env.observation_space["history"]["screenshots"].shape == (4, 333, 150, 3)  # type: ignore[index]


def test_max_tree_chars_cuts_the_tree() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False, max_tree_chars=40)
    obs, _ = env.reset(seed=0)
    assert len(obs["tree"]) <= 40 and obs["tree"].endswith("…")


def test_reset_options_pick_the_task_and_task_lists_are_drawn_from() -> None:
    env = gym.make("Cerebellum-Sim-v0", task=["SystemWifiTurnOn", "SystemBluetoothTurnOn"], pixels=False)
    goals = {env.reset(seed=s)[0]["goal"] for s in range(12)}
    assert goals == {"Turn wifi on.", "Turn bluetooth on."}
    obs, info = env.reset(seed=0, options={"task": "SystemBrightnessMin"})
    assert info["task"] == "SystemBrightnessMin"


def test_bad_configuration_is_reported_clearly() -> None:
    with pytest.raises(UnknownTaskError, match="did you mean SystemWifiTurnOn"):
        CerebellumEnv(task="SystemWifiTurnOnn", device=Phone())
    with pytest.raises(ValueError, match="invalid_action"):
        CerebellumEnv(invalid_action="ignore", device=Phone())  # type: ignore[arg-type]
    with pytest.raises(CerebellumError, match="unknown backend"):
        make_device("telepathy")
    with pytest.raises(CerebellumError, match="call reset"):
        CerebellumEnv(task="SystemWifiTurnOn", device=Phone()).step("W")


class _DroppingPhone(Phone):
    """A simulator whose link drops on the Nth input: fault injection at the Device boundary."""

    def __init__(self, drop_at: int) -> None:
        super().__init__()
        self.calls = 0
        self.drop_at = drop_at

    def tap(self, x: int, y: int) -> None:
        self.calls += 1
        if self.calls == self.drop_at:
            raise DeviceLostError("link dropped")
        super().tap(x, y)


def test_infra_errors_end_the_episode_as_truncated_with_the_reason() -> None:
    env = CerebellumEnv(task="SystemWifiTurnOn", device=_DroppingPhone(drop_at=1), pixels=False)
    obs, _ = env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(f"T {obs['labels'][0]}")
    assert truncated and not terminated and reward == 0.0
    assert info["infra_error"] == "DeviceLostError: link dropped" and not info["invalid_action"]
    obs, info = env.reset(seed=1)  # the next episode recovers
    assert info["infra_error"] == ""
    raising = CerebellumEnv(task="SystemWifiTurnOn", device=_DroppingPhone(drop_at=1), pixels=False, raise_infra_errors=True)
    obs, _ = raising.reset(seed=0)
    with pytest.raises(DeviceLostError):
        raising.step(f"T {obs['labels'][0]}")


def test_env_creator_pickles_for_vector_use() -> None:
    spec = gym.spec("Cerebellum-Sim-v0")
    clone = pickle.loads(pickle.dumps(spec))
    env = clone.make(task="SystemWifiTurnOn", pixels=False)
    assert env.reset(seed=0)[0]["goal"] == "Turn wifi on."
    # The env itself pickles too (state included), for process-based vector envs.
    env2 = pickle.loads(pickle.dumps(env))
    assert env2.unwrapped.task.goal == "Turn wifi on."  # type: ignore[attr-defined]


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_envs_batch_rollouts(mode: str) -> None:
    kwargs = {"vector_kwargs": {"shared_memory": False}} if mode == "async" else {}
    envs = gym.make_vec("Cerebellum-Sim-v0", num_envs=2, vectorization_mode=mode, task="SystemWifiTurnOn", pixels=False, **kwargs)
    try:
        obs, info = envs.reset(seed=[10, 11])
        assert obs["goal"] == ("Turn wifi on.", "Turn wifi on.")
        label = obs["labels"][1][0]
        actions = batch_actions(["W", f"T {label}"], obs["labels"])
        obs, reward, terminated, truncated, info = envs.step(actions)
        assert list(info["action"]) == ["W", f"T {label}"]
        assert reward.shape == (2,) and not info["invalid_action"].any()
        # The tapped env left the home screen; the waiting one did not.
        assert obs["tree"][0] != obs["tree"][1]
    finally:
        envs.close()


def test_text_candidates_come_from_the_running_task() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", pixels=False)
    with pytest.raises(CerebellumError, match="call reset"):
        env.unwrapped.text_candidates()  # type: ignore[attr-defined]
    obs, _ = env.reset(seed=3)
    first, last, number = env.unwrapped.text_candidates()  # type: ignore[attr-defined]
    assert f"{first} {last}" in obs["goal"] and number in obs["goal"]


def test_a_refused_structured_action_is_shown_in_a_form_that_replays_the_same() -> None:
    """Well formed but refused by the screen: shown as its compact string (sending that string
    is refused the same way). Malformed: shown as the mapping with plain numbers, the same
    whether its numbers are NumPy's or Python's (as when built again from JSON)."""
    env = gym.make("Cerebellum-Sim-v0", task="CameraTakePhoto", pixels=False)
    env.reset(seed=0)
    obs, *_ = env.step("D")  # the app drawer
    env.step("T " + next(line for line in obs["tree"].splitlines() if '"Camera"' in line).split("[")[1][:2])
    # the camera's first-run prompt: nothing on it scrolls
    scroll_up = {"code": np.int64(CODES.index("U")), "label": np.int64(0), "text": "x"}
    _, _, _, _, info = env.step(scroll_up)
    assert info["invalid_action"] and info["action"] == "U"
    _, _, _, _, again = env.step("U")
    assert again["error"] == info["error"]
    empty_slot = {"code": np.int64(CODES.index("T")), "label": np.int64(60), "text": ""}
    _, _, _, _, numpy_info = env.step(empty_slot)
    _, _, _, _, plain_info = env.step({"code": CODES.index("T"), "label": 60, "text": ""})
    assert numpy_info["invalid_action"] and numpy_info["action"] == plain_info["action"] == "{'code': 0, 'label': 60, 'text': ''}"
    assert numpy_info["error"] == plain_info["error"]
    env.close()


@pytest.mark.parametrize("history_len", [0, -1])
def test_a_history_without_slots_is_refused_by_name(history_len: int) -> None:
    """The history mask is a ``MultiBinary(history_len)``, which needs a slot: say so, rather than
    let gymnasium's space fail with its own message."""
    with pytest.raises(ValueError, match=f"history_len must be at least 1, got {history_len}"):
        gym.make("Cerebellum-Sim-v0", history_len=history_len)
