"""The slot-sharing policy and self-imitation: save/load as an agent, shared slot scoring, a small real learning run."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO

import cerebellum_gym  # noqa: F401
from cerebellum_gym.agents import RandomAgent, load_agent
from cerebellum_gym.agents.sb3_agent import SB3Agent, save_model
from cerebellum_gym.agents.sb3_train import Args, SelfImitation, evaluate, train
from cerebellum_gym.agents.slot_policy import SlotPointerPolicy, slot_policy_kwargs
from cerebellum_gym.wrappers import SB3EnvConfig, make_sb3_env

torch.set_num_threads(1)


def test_slot_policy_scores_every_slot_with_the_same_weights_and_loads_as_an_agent(tmp_path: Path) -> None:
    config = SB3EnvConfig(tasks=("SystemWifiTurnOn",), max_labels=8, codes="TUDLRBF")
    env = make_sb3_env(config)
    model = MaskablePPO(SlotPointerPolicy, env, n_steps=32, batch_size=32, n_epochs=1, seed=0, policy_kwargs=slot_policy_kwargs(config, 16))
    obs, _ = env.reset(seed=0)
    policy = model.policy
    net = policy.mlp_extractor
    with torch.no_grad():
        logits = net.forward_actor(policy.extract_features(policy.obs_to_tensor(obs)[0]))[0]
        assert logits.shape == (env.action_space.n,)
        # Silence the slot-position input: a slot's T logit is then a function of its element alone,
        # the same function for every slot. Copy slot 0's element into slot 1: their logits agree.
        net.slot_embed[0].weight[:, -1] = 0.0
        tensors = policy.obs_to_tensor(obs)[0]
        slots = tensors["slots"].view(1, 8, net.slot_width).clone()
        slots[0, 1] = slots[0, 0]
        tensors["slots"] = slots.view(1, -1)
        twin = net.forward_actor(policy.extract_features(tensors))[0]
    assert torch.isclose(twin[0], twin[1], atol=1e-7) and not torch.isclose(twin[0], twin[2], atol=1e-7)

    path = save_model(model, tmp_path / "slot", config)
    agent = load_agent(f"sb3:{path}")
    assert isinstance(agent, SB3Agent) and isinstance(agent.model, SlotPointerPolicy)
    raw_env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn", pixels=False, max_labels=8)
    raw, _ = raw_env.reset(seed=0)
    expected, _ = model.predict(obs, deterministic=True, action_masks=env.action_masks())
    assert agent.act_env(raw_env, raw) == env.get_wrapper_attr("action_text")(int(expected))


def _step(screen: int) -> dict[str, np.ndarray]:
    return {"goal": np.ones(2, np.float32), "screen": np.full(2, screen, np.float32), "slots": np.zeros(2, np.float32)}


def test_self_imitation_keeps_the_loop_free_path_of_good_episodes_only() -> None:
    sil = SelfImitation(n_envs=1, capacity=100, batch=4, updates=1, lr=1e-3, reached=True, seed=0)
    mask = np.ones((1, 3), bool)

    def feed(screen: int, action: int, done: bool = False, **info: float) -> None:
        obs = {k: v[None] for k, v in _step(screen).items()}
        sil.record(obs, np.array([action]), mask, np.zeros(1), np.array([done]), [dict(info)])

    # A -> B -> back to A -> C (goal holds) -> F: the detour through B is cut.
    feed(0, 0)
    feed(1, 1)
    feed(0, 2)
    feed(2, 3, progress=1.0, env_reward=1.0)
    feed(3, 4, done=True, progress=1.0, success=True)
    assert sil.actions == [2, 3, 4] and sil.episodes == 1
    # Reaching the goal without F keeps the prefix up to the rewarded step; a plain failure keeps nothing.
    feed(0, 5)
    feed(1, 6, progress=1.0, env_reward=1.0)
    feed(2, 7, done=True, progress=0.0)
    feed(0, 8)
    feed(1, 0, done=True)
    assert sil.actions == [2, 3, 4, 5, 6] and sil.episodes == 2


def test_slot_policy_with_self_imitation_learns_to_beat_random(tmp_path: Path) -> None:
    """Pure RL (no demonstrations), seeded and small: the slot policy must clearly beat the random agent."""
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
        policy="slot",
        hidden=32,
        max_labels=16,
        eval_every=10**9,
        eval_episodes=30,
        output=str(tmp_path / "run"),
        verbose=False,
    )
    summary = train(args)
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
    assert summary["final_success"] >= wins / 30 + 0.3, (summary["final_success"], wins / 30)
    agent = load_agent(f"sb3:{summary['model']}")
    assert isinstance(agent, SB3Agent)
    assert evaluate(agent, agent.config, 30)["success"] == summary["final_success"]
