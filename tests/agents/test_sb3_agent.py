"""SB3 on cerebellum envs: SB3's own check_env, the SB3Agent round trip, and a real (small) learning run."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_checker import check_env

import cerebellum_gym  # noqa: F401
from cerebellum_gym.agents import RandomAgent, load_agent
from cerebellum_gym.agents.sb3_agent import SB3Agent, goal_text_candidates, load_config, save_model
from cerebellum_gym.agents.sb3_train import Args, evaluate, parse_args, train
from cerebellum_gym.tasks import task_names
from cerebellum_gym.wrappers import SB3EnvConfig, make_sb3_env

torch.set_num_threads(1)
SMALL = {"net_arch": [32]}


@pytest.mark.parametrize("task", task_names())
def test_sb3_check_env_passes_on_every_task(task: str) -> None:
    env = make_sb3_env(SB3EnvConfig(tasks=(task,), max_labels=32))
    check_env(env, warn=True)
    env.close()


def test_sb3_check_env_passes_with_a_screenshot() -> None:
    env = make_sb3_env(SB3EnvConfig(tasks=("SystemWifiTurnOn",), screenshot_size=(48, 24)))
    check_env(env)
    obs, _ = env.reset(seed=0)
    assert obs["screenshot"].shape == (48, 24, 3) and obs["screenshot"].dtype == np.uint8 and obs["screenshot"].any()


def test_saved_policy_loads_as_an_agent_and_acts_like_the_model(tmp_path: Path) -> None:
    config = SB3EnvConfig(tasks=("ContactsAddContact",), max_labels=16)
    model = MaskablePPO(
        "MultiInputPolicy", make_sb3_env(config), n_steps=64, batch_size=32, n_epochs=1, seed=0, policy_kwargs=SMALL, device="cpu"
    )
    model.learn(64)
    path = save_model(model, tmp_path / "policy", config)
    assert path.name == "policy.zip" and load_config(path) == config

    agent = load_agent(f"sb3:{path}")
    assert isinstance(agent, SB3Agent) and not agent.privileged
    raw_env = gym.make("Cerebellum-Sim-v0", task="ContactsAddContact", pixels=False, max_labels=16)
    wrapped = make_sb3_env(config)
    raw, _ = raw_env.reset(seed=4)
    encoded, _ = wrapped.reset(seed=4)
    # The agent on a raw observation picks what the model picks on the wrapped one.
    expected, _ = model.predict(encoded, deterministic=True, action_masks=wrapped.action_masks())
    assert agent.act_env(raw_env, raw) == wrapped.get_wrapper_attr("action_text")(int(expected))
    # A batch: one forward pass, every action legal on its screen.
    batch = []
    for seed in range(3):
        obs, _ = raw_env.reset(seed=seed)
        batch.append(obs)
    for obs, action in zip(batch, agent.act_batch(batch), strict=True):
        assert action[0] in "TPKUDLRBHWFI"
        if action[0] in "TP":
            assert action[2:] in obs["labels"]


def test_playing_a_model_never_unpickles_the_zip(tmp_path: Path) -> None:
    """SB3's own members hold pickled objects; the agent reads only JSON and safetensors."""
    import zipfile

    config = SB3EnvConfig(tasks=("SystemWifiTurnOn",), max_labels=16)
    model = MaskablePPO(
        "MultiInputPolicy", make_sb3_env(config), n_steps=32, batch_size=32, n_epochs=1, seed=0, policy_kwargs=SMALL, device="cpu"
    )
    path = save_model(model, tmp_path / "policy", config)
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    assert {"cerebellum_policy.json", "cerebellum_policy.safetensors", "cerebellum_gym.json"} <= set(members)
    poisoned = tmp_path / "poisoned.zip"
    with zipfile.ZipFile(poisoned, "w") as archive:
        for name, data in members.items():
            # Anything SB3 would unpickle is replaced by bytes that fail loudly if ever read.
            archive.writestr(name, data if name.startswith("cerebellum") else b"\x80\x04 not a pickle")
    agent = load_agent(f"sb3:{poisoned}")
    env = make_sb3_env(config)
    encoded, _ = env.reset(seed=1)
    raw_env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False, max_labels=16)
    raw, _ = raw_env.reset(seed=1)
    expected, _ = model.predict(encoded, deterministic=True, action_masks=env.action_masks())
    assert agent.act_env(raw_env, raw) == env.get_wrapper_attr("action_text")(int(expected))

    bare = tmp_path / "bare.zip"
    with zipfile.ZipFile(bare, "w") as archive:
        archive.writestr("cerebellum_gym.json", members["cerebellum_gym.json"])
    with pytest.raises(ValueError, match="re-save it"):
        load_agent(f"sb3:{bare}")


def test_goal_candidates_fallback() -> None:
    assert goal_text_candidates("Turn wifi on.") == []
    assert goal_text_candidates('Call "Mum" at +1 555 0100 now') == ["Mum", "+1 555 0100"]


def test_sb3_agent_refuses_a_zip_without_config(tmp_path: Path) -> None:
    model = MaskablePPO(
        "MultiInputPolicy", make_sb3_env(SB3EnvConfig(tasks=("SystemWifiTurnOn",), max_labels=8)), policy_kwargs=SMALL, device="cpu"
    )
    model.save(tmp_path / "bare.zip")
    with pytest.raises(ValueError, match=r"cerebellum_gym\.json"):
        SB3Agent.load(tmp_path / "bare.zip")
    with pytest.raises(FileNotFoundError):
        SB3Agent.load(tmp_path / "missing.zip")


def test_training_script_arguments() -> None:
    args = parse_args(["--family", "contacts", "--n-envs", "2", "--no-verbose", "--codes", "TKBF"])
    assert (args.family, args.n_envs, args.verbose, args.codes) == ("contacts", 2, False, "TKBF")
    assert args.env_config().tasks == tuple(task_names(family="contacts"))
    with pytest.raises(ValueError, match="no tasks"):
        Args(family="no-such-family").task_names()


def test_maskable_ppo_learns_to_beat_random(tmp_path: Path) -> None:
    """A short, seeded, pure-RL run (no demonstrations) must beat the random agent clearly.

    The task starts in its goal state ("turn wifi on" with wifi already on): the policy has to
    learn to check and say done instead of wandering or toggling it off, under the full code set.
    """
    task = "SystemWifiTurnOnVerify"
    args = Args(
        tasks=task,
        seed=0,
        total_timesteps=1536,
        n_envs=4,
        n_steps=128,
        batch_size=128,
        n_epochs=6,
        learning_rate=3e-3,
        policy="mlp",
        self_imitation=False,
        net_arch="32",
        max_labels=16,
        eval_every=10**9,
        eval_episodes=30,
        output=str(tmp_path / "run"),
        verbose=False,
    )
    summary = train(args)
    trained = summary["final_success"]

    random_agent = RandomAgent(seed=0)
    env = gym.make("Cerebellum-Sim-v0", task=task, pixels=False, max_labels=16)
    wins = 0
    for seed in range(30):
        obs, _ = env.reset(seed=10_000 + seed)
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(random_agent.act(obs))
            done = terminated or truncated
        wins += info["success"]
    random_success = wins / 30
    assert trained >= random_success + 0.3, (trained, random_success)
    # The saved model is what the eval CLI would load; it plays as well as the one in memory.
    agent = load_agent(f"sb3:{summary['model']}")
    assert isinstance(agent, SB3Agent)
    assert evaluate(agent, agent.config, 30)["success"] == trained
