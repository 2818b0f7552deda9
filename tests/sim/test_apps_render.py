"""Every simulated app renders like a phone screen, on its first screen and along its oracles' paths."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import cerebellum_gym  # noqa: F401
from cerebellum_gym.sim.apps import DEFAULT_APPS
from cerebellum_gym.sim.apps.launcher import open_drawer
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.tasks import get_task_class, task_names


def assert_phone_frame(frame: np.ndarray, width: int) -> None:
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[1] == width and frame.shape[2] == 3
    assert frame.shape[0] == round(2400 * width / 1080)
    packed = frame[..., 0].astype(np.uint32) << 16 | frame[..., 1].astype(np.uint32) << 8 | frame[..., 2]
    assert len(np.unique(packed)) > 8, "the frame is (almost) one colour"


@pytest.mark.parametrize("app", DEFAULT_APPS, ids=lambda a: a.__name__)
def test_every_app_launches_and_renders(app: type) -> None:
    phone = Phone()
    phone.start_app(app.package)
    assert phone.foreground_package() == app.package
    tree = phone.ui_tree()
    assert any(n.text or n.content_desc for n in tree.iter())
    assert_phone_frame(phone.screenshot(464), 464)
    assert_phone_frame(phone.screenshot(232), 232)


def test_launcher_drawer_shows_every_launchable_app() -> None:
    phone = Phone()
    open_drawer(phone)
    texts = {n.text for n in phone.ui_tree().iter()}
    assert {app.label for app in DEFAULT_APPS if app.launchable} <= texts
    assert "Clipper" not in texts  # installed for AndroidWorld's clipboard, started by its activity only


def _one_task_per_app() -> list[str]:
    seen: dict[str, str] = {}
    for name in task_names():
        seen.setdefault(get_task_class(name).app, name)
    return sorted(seen.values())


@pytest.mark.parametrize("name", _one_task_per_app())
def test_screens_along_the_oracle_path_render(name: str) -> None:
    env = gym.make("Cerebellum-Sim-v0", task=name, pixels=True, screenshot_width=232)
    obs, _ = env.reset(seed=0)
    env_u = env.unwrapped
    frames = [obs["screenshot"]]
    for _ in range(env_u.max_steps):
        obs, _, terminated, truncated, _ = env.step(env_u.oracle_action())
        frames.append(obs["screenshot"])
        if terminated or truncated:
            break
    env.close()
    for frame in frames:
        assert_phone_frame(frame, 232)
    # The screen changes as the oracle works: not every frame the same picture.
    assert len({f.tobytes() for f in frames}) >= 2
