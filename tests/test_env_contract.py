"""The env's contract holds for every input (property tests over random tasks and actions).

Random tasks, seeds and action sequences: strings and structured actions, valid and malformed
(wrong types, NaN and inf, bytes, None, unknown keys, empty label slots, text past the length
limit, lone surrogates, arbitrary Unicode). For every step: the observation is inside
``observation_space``, nothing but the project's own errors leaves ``step``, and after an invalid
action the env still works. The same through sync and async vector envs made with gymnasium's
default arguments.
"""

from __future__ import annotations

import math
import string
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cerebellum_gym  # noqa: F401  (registers the env ids)
from cerebellum_gym import CerebellumEnv
from cerebellum_gym.core.actions import CODES, MAX_TEXT_CHARS
from cerebellum_gym.core.spaces import split_observations
from cerebellum_gym.errors import CerebellumError, InvalidActionError, StepError
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks.catalog import BUILTIN

TASKS = BUILTIN.names()
#: Env steps cost milliseconds: a quarter of the profile's examples keeps the suite quick.
FEW = settings(max_examples=max(8, settings.default.max_examples // 4), deadline=None, suppress_health_check=[HealthCheck.too_slow])

weird_numbers = st.one_of(
    st.integers(-3, 80),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.sampled_from([float("inf"), float("-inf"), float("nan"), np.int64(1), np.float32(0.5), np.bool_(True), "0", "1", b"0", None]),
)
weird_texts = st.one_of(
    st.text(max_size=20),
    st.text(alphabet=st.characters(categories=["Cs"]), min_size=1, max_size=3),  # lone surrogates
    st.binary(max_size=5),
    st.none(),
    st.integers(),
    st.sampled_from(["x" * (MAX_TEXT_CHARS + 1), "y" * MAX_TEXT_CHARS, "0", " ", "\n", "héllo 世界 🎉"]),
)


@st.composite
def actions(draw: st.DrawFn, labels: tuple[str, ...]) -> Any:
    """Any action an agent might send, legal, illegal or malformed, for a screen with ``labels``."""
    kind = draw(st.sampled_from(["string", "string", "structured", "structured", "raw", "other"]))
    label = (
        draw(st.sampled_from(labels)) if labels and draw(st.booleans()) else draw(st.text(string.ascii_uppercase, min_size=0, max_size=3))
    )
    if kind == "string":
        code = draw(st.sampled_from(CODES))
        if code in "TP":
            return f"{code} {label}"
        if code in "KF":
            text = draw(weird_texts.filter(lambda t: isinstance(t, str)))
            return f"{code} {text}" if text or code == "K" else code
        return code
    if kind == "structured":
        action: dict[Any, Any] = {
            "code": draw(st.one_of(st.integers(0, len(CODES) - 1), weird_numbers)),
            "label": draw(st.one_of(st.integers(0, max(0, len(labels) - 1)), weird_numbers)),
            "text": draw(weird_texts),
        }
        for key in draw(st.lists(st.sampled_from(["code", "label", "text"]), max_size=2)):
            action.pop(key, None)
        if draw(st.integers(0, 9)) == 0:
            action[draw(st.sampled_from(["lable", "mask", 3]))] = 0
        return action
    if kind == "raw":
        return draw(st.text(max_size=30))
    return draw(st.sampled_from([None, 3, 2.5, b"T AB", ["T", "AB"], ("W",), {}, float("nan"), np.array([1, 2])]))


def _assert_inside(space: gym.spaces.Dict, obs: dict[str, Any]) -> None:
    assert space.contains(obs), next(k for k in obs if not space[k].contains(obs[k]))


@FEW
@given(task=st.sampled_from(TASKS), seed=st.integers(0, 2**16), pixels=st.booleans(), data=st.data())
def test_every_step_keeps_the_contract(task: str, seed: int, pixels: bool, data: st.DataObject) -> None:
    width = data.draw(st.integers(32, 96))
    env = gym.make("Cerebellum-Sim-v0", task=task, pixels=pixels, screenshot_width=width, history_width=32, max_steps=12)
    raw: CerebellumEnv = env.unwrapped  # type: ignore[assignment]
    obs, info = env.reset(seed=seed)
    _assert_inside(raw.observation_space, obs)
    for _ in range(data.draw(st.integers(1, 8))):
        action = data.draw(actions(obs["labels"]))
        obs, reward, terminated, truncated, info = env.step(action)  # penalize mode: no exception at all
        _assert_inside(raw.observation_space, obs)
        assert isinstance(reward, float) and math.isfinite(reward)
        assert 0.0 <= info["progress"] <= 1.0
        if info["invalid_action"]:
            assert info["error"] and len(info["action"]) <= MAX_TEXT_CHARS + 4
            # The env still works: home is always legal, and it is not the rejected action's echo.
            obs, _, terminated, truncated, info = env.step("H")
            assert not info["invalid_action"]
            _assert_inside(raw.observation_space, obs)
        if terminated or truncated:
            obs, info = env.reset()
    env.close()


@FEW
@given(task=st.sampled_from(TASKS), seed=st.integers(0, 2**16), data=st.data())
def test_raise_mode_raises_only_the_invalid_action_error_and_gives_the_step_back(task: str, seed: int, data: st.DataObject) -> None:
    env = CerebellumEnv(task, device=Phone(), pixels=False, invalid_action="raise", max_steps=50)
    obs, _ = env.reset(seed=seed)
    for _ in range(data.draw(st.integers(1, 6))):
        steps = env._steps
        try:
            obs, _, terminated, truncated, _ = env.step(data.draw(actions(obs["labels"])))
        except InvalidActionError as err:
            assert err.reason and env._steps == steps
            continue
        if terminated or truncated:
            obs, _ = env.reset()
        assert env.observation_space.contains(obs)
    assert not env.step("H")[4]["invalid_action"]


TYPING_TASKS = [
    name for name in TASKS if any(word in name for word in ("Contact", "Sms", "Markor", "Expense", "Calendar", "Alarm", "Browser"))
]


@FEW
@given(task=st.sampled_from(TYPING_TASKS), seed=st.integers(0, 2**16), data=st.data())
def test_any_typed_text_is_shown_on_the_screens_that_follow(task: str, seed: int, data: st.DataObject) -> None:
    """The oracle walks deep screens, typing arbitrary text where it would type its own, so that
    the text reaches lists, titles and bubbles (a line break there once crashed the renderer)."""
    env = gym.make(
        "Cerebellum-Sim-v0", task=task, screenshot_width=data.draw(st.sampled_from([32, 64, 464])), history_width=32, max_steps=60
    )
    raw: CerebellumEnv = env.unwrapped  # type: ignore[assignment]
    obs, _ = env.reset(seed=seed)
    done = False
    while not done:
        action = raw.oracle_action()
        if action.startswith("K "):
            typed = data.draw(
                st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=60)
                | st.sampled_from(["a\nb", "\n", "x" * MAX_TEXT_CHARS])
            )
            action = f"K {typed}"
        obs, reward, terminated, truncated, info = env.step(action)
        assert not info["invalid_action"], info["error"]
        _assert_inside(raw.observation_space, obs)
        done = terminated or truncated
    env.close()


@pytest.mark.parametrize("task", ["ContactsAddContact", "ClockAddAlarm"])
def test_line_breaks_in_typed_text_render_on_every_screen(task: str) -> None:
    """Regression: a contact named with a line break crashed the renderer on the next screen."""
    env = gym.make("Cerebellum-Sim-v0", task=task, screenshot_width=32, history_width=32, max_steps=60)
    raw: CerebellumEnv = env.unwrapped  # type: ignore[assignment]
    env.reset(seed=0)
    done = False
    while not done:
        action = raw.oracle_action()
        obs, _, terminated, truncated, info = env.step(f"{action}\nsecond line" if action.startswith("K ") else action)
        assert not info["invalid_action"] and raw.observation_space.contains(obs)
        done = terminated or truncated


def test_screenshots_narrower_than_the_minimum_are_refused() -> None:
    with pytest.raises(ValueError, match="screenshot_width must be at least 32 px, got 16"):
        gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", screenshot_width=16)
    with pytest.raises(ValueError, match="history_width must be at least 32 px, got 0"):
        gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", history_width=0)


def test_the_issue_s_malformed_actions_are_invalid_with_a_clear_reason() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", pixels=False)
    obs, _ = env.reset(seed=1)
    cases = {
        "{'code': 2, 'text': None}": ({"code": 2, "text": None}, "'text' must be a str, got NoneType"),
        "bytes": ({"code": 2, "text": b"hi"}, "'text' must be a str, got bytes"),
        "code '0'": ({"code": "0", "label": 0, "text": ""}, "'code' must be an integer, got str"),
        "code 1.9": ({"code": 1.9, "label": 0, "text": ""}, "'code' must be an integer, got float"),
        "code True": ({"code": True, "label": 0, "text": ""}, "'code' must be an integer, got bool"),
        "label 0.5": ({"code": 0, "label": 0.5, "text": ""}, "'label' must be an integer, got float"),
        "F text 0": ({"code": 10, "label": 0, "text": 0}, "'text' must be a str, got int"),
        "code inf": ({"code": float("inf")}, "'code' must be an integer, got float inf"),
        "code nan": ({"code": float("nan")}, "'code' must be an integer, got float nan"),
        "unknown key": ({"code": 7, "lable": 0}, "unknown key(s) 'lable'"),
        "long K": ("K " + "x" * (MAX_TEXT_CHARS + 1), f"at most {MAX_TEXT_CHARS} are allowed"),
        "long F": ("F " + "x" * (MAX_TEXT_CHARS + 1), f"at most {MAX_TEXT_CHARS} are allowed"),
        "surrogate": ({"code": 10, "label": 0, "text": "ok \udc80"}, "lone surrogate"),
    }
    for name, (action, reason) in cases.items():
        obs2, reward, terminated, truncated, info = env.step(action)
        assert info["invalid_action"], name
        assert reason in info["error"], (name, info["error"])
        assert obs2["tree"] == obs["tree"] and not terminated, name
    # A numpy integer is an integer (vector envs hand those over).
    assert not env.step({"code": np.int64(7), "label": np.int64(0), "text": ""})[4]["invalid_action"]


def test_history_strings_stay_inside_their_bounds() -> None:
    env = gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", pixels=False, max_steps=100)
    raw: CerebellumEnv = env.unwrapped  # type: ignore[assignment]
    obs, _ = env.reset(seed=0)
    while not obs["action_mask"][CODES.index("K")]:
        obs, *_ = env.step(raw.oracle_action())
    longest = "K " + "é" * MAX_TEXT_CHARS
    obs, _, _, _, info = env.step(longest)
    assert not info["invalid_action"] and obs["history"]["actions"][-1] == longest
    assert raw.observation_space.contains(obs)
    # A history fed from outside the codec is cut like the tree, with a final ellipsis.
    raw.history.push(None, "K " + "z" * 5000, "s" * 5000, None)
    history = raw.history.parts()
    assert len(history.actions[-1]) == MAX_TEXT_CHARS + 4 and history.actions[-1].endswith("…")
    assert len(history.subtrees[-1]) == 300


class _BuggyPhone(Phone):
    """A simulator with a bug on long-press (a foreign exception from below the env)."""

    def long_press(self, x: int, y: int) -> None:
        raise KeyError("widget")


def test_a_foreign_exception_inside_step_is_a_step_error_and_the_env_recovers() -> None:
    env = CerebellumEnv("SystemWifiTurnOn", device=_BuggyPhone(), pixels=False)
    obs, _ = env.reset(seed=0)
    with pytest.raises(StepError, match="KeyError") as caught:
        env.step(f"P {obs['labels'][0]}")
    assert isinstance(caught.value.__cause__, KeyError)
    obs, info = env.reset(seed=1)
    assert not env.step(f"T {obs['labels'][0]}")[4]["invalid_action"]


def test_text_a_backend_cannot_type_is_an_invalid_action() -> None:
    """AndroidWorld's emulator types ASCII only; the env turns its refusal into an invalid action."""
    from cerebellum_gym.errors import UnsupportedOperationError

    class AsciiPhone(Phone):
        def type_text(self, text: str) -> None:
            if not text.isascii():
                raise UnsupportedOperationError("this backend types printable ASCII only")
            super().type_text(text)

    env = CerebellumEnv("ContactsAddContact", device=AsciiPhone(), pixels=False, max_steps=100)
    obs, _ = env.reset(seed=0)
    while not obs["action_mask"][CODES.index("K")]:
        obs, *_ = env.step(env.oracle_action())
    history = obs["history"]["actions"]
    obs, _, _, _, info = env.step("K héllo")
    assert info["invalid_action"] and "ASCII only" in info["error"]
    assert obs["history"]["actions"] == history  # the rejected action left no trace
    assert not env.step("K hello")[4]["invalid_action"]


# --- vector envs -----------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=["sync", "async"])
def vector_env(request: pytest.FixtureRequest) -> Any:
    envs = gym.make_vec("Cerebellum-Sim-v0", num_envs=2, vectorization_mode=request.param, task=TASKS[:12], pixels=False)
    yield envs
    envs.close()


@FEW
@given(seed=st.integers(0, 2**16), data=st.data())
def test_vector_envs_keep_the_contract(vector_env: Any, seed: int, data: st.DataObject) -> None:
    single = vector_env.single_observation_space
    obs, _ = vector_env.reset(seed=seed)
    for _ in range(data.draw(st.integers(1, 5))):
        per_env = split_observations(obs)
        assert all(single.contains(o) for o in per_env)
        batch = [data.draw(actions(o["labels"])) for o in per_env]
        if data.draw(st.booleans()):  # the structured batch, as an RL library sends it
            structured = [
                a if isinstance(a, dict) and set(a) == {"code", "label", "text"} else {"code": 9, "label": 0, "text": ""} for a in batch
            ]
            sent: Any = {key: [a[key] for a in structured] for key in ("code", "label", "text")}
        else:
            sent = batch
        try:
            obs, reward, terminated, truncated, info = vector_env.step(sent)
        except InvalidActionError as err:
            # Only a batch that cannot be split per env (the dict with values numpy cannot hold) is refused whole.
            assert isinstance(sent, dict), err
            continue
        assert np.all(np.isfinite(reward))
        assert all(single.contains(o) for o in split_observations(obs))
    obs, _, _, _, info = vector_env.step(["H", "H"])
    assert not info["invalid_action"].any()


@pytest.mark.filterwarnings("ignore::UserWarning:gymnasium.vector.async_vector_env")
def test_async_vector_env_re_raises_an_invalid_action_as_itself() -> None:
    """In raise mode the worker's error comes back as InvalidActionError (it pickles), not a TypeError."""
    envs = gym.make_vec(
        "Cerebellum-Sim-v0", num_envs=2, vectorization_mode="async", task="SystemWifiTurnOn", pixels=False, invalid_action="raise"
    )
    try:
        envs.reset(seed=0)
        with pytest.raises(InvalidActionError, match="label 'ZZ' is not on the current screen"):
            envs.step(["W", "T ZZ"])
    finally:
        envs.close(terminate=True)


def test_vector_env_batch_errors_are_project_errors() -> None:
    envs = gym.make_vec("Cerebellum-Sim-v0", num_envs=2, vectorization_mode="sync", task="SystemWifiTurnOn", pixels=False)
    envs.reset(seed=0)
    for bad in (["W"], "W W", {"code": [1, 2]}, 7):
        with pytest.raises(CerebellumError):
            envs.step(bad)
    assert not envs.step(["W", "W"])[4]["invalid_action"].any()
    envs.close()
