"""Train sb3-contrib's ``MaskablePPO`` on a family of simulator tasks: one file, dataclass arguments.

Run::

    python -m cerebellum_gym.agents.sb3_train --family system --max-minutes 10 --output runs/system

Every ``--eval-every`` steps it plays the current policy deterministically, through
:class:`~cerebellum_gym.agents.sb3_agent.SB3Agent` on raw envs with ``success_requires_done=True``
(AndroidWorld's rule: success needs ``F``), and logs success. It saves ``model.zip`` (which the
eval CLI loads as ``sb3:OUTPUT/model.zip``) and ``curve.json`` (steps, seconds, success) to
``--output``, and stops at ``--total-timesteps``, after ``--max-minutes``, or once evaluation
success reaches ``--target-success``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from cerebellum_gym.agents.sb3_agent import SB3Agent, save_model
from cerebellum_gym.core.actions import CODES
from cerebellum_gym.errors import InvalidActionError
from cerebellum_gym.wrappers.actions import FlatActions
from cerebellum_gym.wrappers.sb3 import SB3EnvConfig, make_sb3_env


@dataclass
class Args:
    """Command-line arguments (``--snake-case`` flags; booleans also take ``--no-...``)."""

    family: str = "system"
    """task family to train on (``cerebellum-gym tasks`` lists them)"""
    tasks: str = ""
    """comma-separated task names; overrides --family"""
    seed: int = 0
    """seeds torch, the policy and the envs"""
    total_timesteps: int = 2_000_000
    """env steps at most"""
    max_minutes: float = 10.0
    """wall-clock budget for training (evaluations included)"""
    target_success: float = 1.01
    """stop once evaluation success reaches this (above 1: never)"""
    n_envs: int = 16
    """parallel envs (in-process: the simulator is cheap)"""
    n_steps: int = 64
    """steps per env per rollout"""
    batch_size: int = 256
    n_epochs: int = 4
    learning_rate: float = 5e-4
    gamma: float = 0.97
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    policy: str = "slot"
    """``slot``: :class:`~cerebellum_gym.agents.slot_policy.SlotPointerPolicy` (one shared scorer for every
    label slot); ``mlp``: SB3's ``MultiInputPolicy`` over the flattened observation"""
    hidden: int = 128
    """hidden width of the slot policy"""
    net_arch: str = "256,256"
    """hidden layer sizes of the ``mlp`` policy's policy and value MLPs"""
    max_labels: int = 32
    """label slots (the simulator's screens show fewer than 32 actionable elements)"""
    max_texts: int = 4
    codes: str = CODES
    """action codes the flat space offers"""
    token_dim: int = 32
    goal_dim: int = 64
    screen_dim: int = 128
    history_len: int = 2
    success_bonus: float = 1.0
    step_cost: float = 0.01
    novelty_bonus: float = 0.05
    """reward for each screen seen for the first time in an episode (exploration; it can also lure the policy
    into apps with endless distinct screens, such as a calendar: the system-toggle benchmark sets 0)"""
    self_imitation: bool = True
    """imitate the agent's own successful episodes (self-imitation learning; no oracle data)"""
    sil_updates: int = 8
    """self-imitation minibatch updates after each rollout"""
    sil_batch: int = 128
    sil_buffer: int = 4096
    """transitions kept from the most recent good episodes"""
    sil_learning_rate: float = 5e-4
    sil_reached: bool = True
    """also imitate the prefix of an episode up to the step where the goal first held (without F)"""
    bc_episodes: int = 0
    """oracle episodes for a behaviour-cloning warm start (privileged demonstrations; 0: pure RL)"""
    bc_epochs: int = 20
    """passes over the demonstrations"""
    success_requires_done: bool = True
    """train under AndroidWorld's rule (success needs F); evaluation always uses it"""
    train_max_steps: int = 0
    """step budget of training episodes (0: the task's own; evaluation always uses the task's own)"""
    eval_every: int = 16_384
    """env steps between evaluations"""
    eval_episodes: int = 48
    """evaluation episodes, spread evenly over the tasks"""
    output: str = "runs/maskable_ppo"
    """folder for model.zip and curve.json"""
    threads: int = 1
    """torch CPU threads"""
    verbose: bool = True
    extra: dict[str, Any] = field(default_factory=dict)
    """more MaskablePPO keyword arguments (Python API only)"""

    def task_names(self) -> list[str]:
        """The tasks this run trains on."""
        from cerebellum_gym.tasks import task_names

        names = [t.strip() for t in self.tasks.split(",") if t.strip()] or task_names(family=self.family)
        if not names:
            raise ValueError(f"no tasks in family {self.family!r}")
        return names

    def env_config(self) -> SB3EnvConfig:
        """The env config saved with the model."""
        return SB3EnvConfig(
            tasks=tuple(self.task_names()),
            max_labels=self.max_labels,
            max_texts=self.max_texts,
            codes=self.codes,
            token_dim=self.token_dim,
            goal_dim=self.goal_dim,
            screen_dim=self.screen_dim,
            history_len=self.history_len,
            success_requires_done=self.success_requires_done,
            success_bonus=self.success_bonus,
            step_cost=self.step_cost,
            novelty_bonus=self.novelty_bonus,
            catch_env_errors=True,
        )


def parse_args(argv: Sequence[str] | None = None) -> Args:
    """:class:`Args` from the command line, one ``--flag`` per field."""
    parser = argparse.ArgumentParser(prog="python -m cerebellum_gym.agents.sb3_train", description=__doc__.split("\n\n")[0])
    hints = typing.get_type_hints(Args)
    for f in dataclasses.fields(Args):
        if f.name == "extra":
            continue
        kind = hints[f.name]
        flag = "--" + f.name.replace("_", "-")
        if kind is bool:
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=f.default)
        else:
            if isinstance(kind, types.UnionType):
                kind = next(a for a in typing.get_args(kind) if a is not type(None))
            parser.add_argument(flag, type=kind, default=f.default, metavar=kind.__name__.upper())
    return Args(**vars(parser.parse_args(argv)))


def evaluate(agent: SB3Agent, config: SB3EnvConfig, episodes: int, seed: int = 10_000) -> dict[str, float]:
    """Success rate and mean episode length of ``agent`` on raw envs under AndroidWorld's rule.

    Episodes go round-robin over ``config.tasks`` with seeds ``seed, seed + 1, ...`` (kept apart
    from training seeds).
    """
    tasks = list(config.tasks)
    envs = {
        name: gym.make(
            config.env_id,
            task=name,
            pixels=config.screenshot_size is not None,
            max_labels=config.max_labels,
            success_requires_done=True,
            **dict(config.env_kwargs),
        )
        for name in tasks
    }
    solved = steps = 0
    per_task: dict[str, list[int]] = {name: [] for name in tasks}
    try:
        for episode in range(episodes):
            name = tasks[episode % len(tasks)]
            env = envs[name]
            obs, info = env.reset(seed=seed + episode)
            done = False
            while not done:
                obs, _, terminated, truncated, info = env.step(agent.act_env(env, obs))
                steps += 1
                done = terminated or truncated
            solved += int(info["success"])
            per_task[name].append(int(info["success"]))
    finally:
        for env in envs.values():
            env.close()
    result = {"success": solved / max(episodes, 1), "mean_steps": steps / max(episodes, 1)}
    result.update({f"success/{name}": float(np.mean(v)) for name, v in per_task.items() if v})
    return result


def collect_demonstrations(config: SB3EnvConfig, episodes: int, seed: int) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """Encoded observations, flat actions and masks of the tasks' scripted oracles (privileged).

    Episodes go round-robin over ``config.tasks``; an oracle action the layout cannot express
    (a code left out of ``config.codes``) ends that episode's demonstration.
    """
    env = make_sb3_env(config, success_requires_done=True)
    flat: Any = env
    while not isinstance(flat, FlatActions):
        flat = flat.env
    tasks = list(config.tasks)
    observations: list[dict[str, np.ndarray]] = []
    actions: list[int] = []
    masks: list[np.ndarray] = []
    for episode in range(episodes):
        obs, _ = env.reset(seed=seed + episode, options={"task": tasks[episode % len(tasks)]})
        done = False
        while not done:
            raw = flat.raw_observation
            try:
                index = flat.layout.encode(env.unwrapped.oracle_action(), raw["labels"], raw["text_candidates"])
            except InvalidActionError:
                break
            observations.append(obs)
            actions.append(index)
            masks.append(flat.action_masks())
            obs, _, terminated, truncated, _ = env.step(index)
            done = terminated or truncated
    env.close()
    stacked = {key: np.stack([o[key] for o in observations]) for key in observations[0]}
    return stacked, np.asarray(actions, np.int64), np.stack(masks)


def behaviour_clone(model: Any, demos: tuple[dict[str, np.ndarray], np.ndarray, np.ndarray], epochs: int, seed: int) -> float:
    """Fit the policy head to the demonstrations by masked cross-entropy; returns the final loss."""
    import torch

    observations, actions, masks = demos
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    rng = np.random.default_rng(seed)
    obs_t = {k: torch.as_tensor(v) for k, v in observations.items()}
    act_t, mask_t = torch.as_tensor(actions), torch.as_tensor(masks)
    loss = torch.zeros(())
    policy.set_training_mode(True)
    for _ in range(epochs):
        for batch in np.array_split(rng.permutation(len(actions)), max(1, len(actions) // 128)):
            index = torch.as_tensor(batch)
            _, log_prob, _ = policy.evaluate_actions({k: v[index] for k, v in obs_t.items()}, act_t[index], action_masks=mask_t[index])
            loss = -log_prob.mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    policy.set_training_mode(False)
    return float(loss.detach())


class SelfImitation:
    """Self-imitation from the agent's own experience: masked cross-entropy on its good episodes.

    Every env's trajectory (encoded observation, flat action, mask) is recorded during rollouts.
    When an episode succeeds, its steps join a buffer; with ``reached``, so do the steps of an
    episode up to the one where the goal first held (its env reward turned positive), even if the
    agent never said ``F``. Loops are cut: when an observation repeats within an episode (same
    goal, screen and elements), the steps since its first visit are dropped, so the buffer keeps
    the path, not the wandering. After each rollout, ``updates`` minibatches of the buffer
    (most recent ``capacity`` steps) push the policy towards those actions.

    It uses only what RL sees (observations, actions, the env's reward and success flag): no
    oracle, no privileged start states.
    """

    def __init__(self, n_envs: int, capacity: int, batch: int, updates: int, lr: float, reached: bool, seed: int) -> None:
        self.capacity, self.batch, self.updates, self.reached = capacity, batch, updates, reached
        self.lr = lr
        self.rng = np.random.default_rng(seed)
        self.current: list[list[tuple[bytes, dict[str, np.ndarray], int, np.ndarray]]] = [[] for _ in range(n_envs)]
        self.marked: list[int | None] = [None] * n_envs
        self.obs: list[dict[str, np.ndarray]] = []
        self.actions: list[int] = []
        self.masks: list[np.ndarray] = []
        self.episodes = 0
        self.optimizer: Any = None

    def record(
        self,
        obs: dict[str, Any],
        actions: np.ndarray,
        masks: np.ndarray | None,
        rewards: np.ndarray,
        dones: np.ndarray,
        infos: list[dict[str, Any]],
    ) -> None:
        """One vectorised step: ``obs`` (tensors or arrays per key) is what the actions were chosen on."""
        arrays = {k: np.asarray(v.cpu() if hasattr(v, "cpu") else v) for k, v in obs.items()}
        for i, info in enumerate(infos):
            step = {k: v[i].copy() for k, v in arrays.items()}
            key = b"".join(step[k].tobytes() for k in ("goal", "screen", "slots") if k in step)
            trajectory = self.current[i]
            for j, (seen, *_) in enumerate(trajectory):
                if seen == key:  # a loop: back where we were, keep the path only
                    del trajectory[j:]
                    if self.marked[i] is not None and self.marked[i] >= j:  # type: ignore[operator]
                        self.marked[i] = None
                    break
            mask = masks[i].copy() if masks is not None else np.ones(1, bool)
            trajectory.append((key, step, int(actions[i]), mask))
            gained = float(info.get("env_reward", rewards[i])) > 0
            if self.marked[i] is None and info.get("progress", 0.0) >= 1.0 and gained:
                self.marked[i] = len(trajectory)
            if dones[i]:
                keep = len(trajectory) if info.get("success") else (self.marked[i] if self.reached else None)
                if keep:
                    self.episodes += 1
                    for _, o, a, m in trajectory[:keep]:
                        self.obs.append(o)
                        self.actions.append(a)
                        self.masks.append(m)
                    del self.obs[: -self.capacity], self.actions[: -self.capacity], self.masks[: -self.capacity]
                self.current[i] = []
                self.marked[i] = None

    def update(self, policy: Any) -> float | None:
        """``updates`` minibatch steps of masked cross-entropy on the buffer; returns the last loss."""
        import torch

        if not self.actions:
            return None
        if self.optimizer is None:
            self.optimizer = torch.optim.Adam(policy.parameters(), lr=self.lr)
        loss = None
        policy.set_training_mode(True)
        for _ in range(self.updates):
            index = self.rng.integers(len(self.actions), size=min(self.batch, len(self.actions)))
            obs = {k: torch.as_tensor(np.stack([self.obs[j][k] for j in index])) for k in self.obs[0]}
            actions = torch.as_tensor(np.asarray([self.actions[j] for j in index]))
            masks = torch.as_tensor(np.stack([self.masks[j] for j in index]))
            _, log_prob, _ = policy.evaluate_actions(obs, actions, action_masks=masks)
            loss = -log_prob.mean()
            self.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            self.optimizer.step()
        policy.set_training_mode(False)
        return float(loss.detach()) if loss is not None else None


def train(args: Args) -> dict[str, Any]:
    """Train, evaluate along the way, save; returns the summary that ``curve.json`` holds."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(args.threads)
    config = args.env_config()
    output = Path(args.output)
    output.mkdir(parents=True, exist_ok=True)
    log = print if args.verbose else (lambda *a, **k: None)

    overrides: dict[str, Any] = {"max_steps": args.train_max_steps} if args.train_max_steps else {}
    venv = make_vec_env(lambda: make_sb3_env(config, **overrides), n_envs=args.n_envs, seed=args.seed)
    policy: Any
    if args.policy == "slot":
        from cerebellum_gym.agents.slot_policy import SlotPointerPolicy, slot_policy_kwargs

        policy, policy_kwargs = SlotPointerPolicy, slot_policy_kwargs(config, hidden=args.hidden)
    elif args.policy == "mlp":
        policy, policy_kwargs = "MultiInputPolicy", {"net_arch": [int(x) for x in args.net_arch.split(",") if x]}
    else:
        raise ValueError(f"--policy must be 'slot' or 'mlp', got {args.policy!r}")
    model = MaskablePPO(
        policy,
        venv,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        learning_rate=args.learning_rate,
        gamma=args.gamma,
        gae_lambda=args.gae_lambda,
        clip_range=args.clip_range,
        ent_coef=args.ent_coef,
        vf_coef=args.vf_coef,
        policy_kwargs=policy_kwargs,
        seed=args.seed,
        device="cpu",
        verbose=0,
        **args.extra,
    )
    agent = SB3Agent(model, config, deterministic=True, name="maskable-ppo")
    start = time.perf_counter()
    bc_loss = None
    if args.bc_episodes:
        demos = collect_demonstrations(config, args.bc_episodes, seed=1_000_000 + args.seed)
        bc_loss = behaviour_clone(model, demos, args.bc_epochs, args.seed)
        log(
            f"behaviour cloning on {len(demos[1])} oracle steps ({args.bc_episodes} episodes): "
            f"loss {bc_loss:.3f}, {time.perf_counter() - start:.0f}s"
        )
    curve: list[dict[str, float]] = []

    class Progress(BaseCallback):
        """Counts training episodes, evaluates every ``eval_every`` steps, enforces the budgets."""

        def __init__(self) -> None:
            super().__init__()
            self.next_eval = 0
            self.train_success: list[int] = []
            self.train_reached: list[int] = []
            self.sil = (
                SelfImitation(
                    args.n_envs, args.sil_buffer, args.sil_batch, args.sil_updates, args.sil_learning_rate, args.sil_reached, args.seed
                )
                if args.self_imitation
                else None
            )
            self.eval_seconds = 0.0

        def _on_rollout_end(self) -> None:
            if self.sil is not None:
                self.sil.update(self.model.policy)

        def _on_step(self) -> bool:
            if self.sil is not None:
                loc = self.locals
                self.sil.record(loc["obs_tensor"], loc["actions"], loc.get("action_masks"), loc["rewards"], loc["dones"], loc["infos"])
            for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                if done:
                    self.train_success.append(int(info.get("success", False)))
                    self.train_reached.append(int(info.get("progress", 0.0) >= 1.0))
            if self.num_timesteps >= self.next_eval:
                self.next_eval += args.eval_every
                if self.evaluate():
                    return False
            return time.perf_counter() - start < args.max_minutes * 60

        def evaluate(self) -> bool:
            began = time.perf_counter()
            result = evaluate(agent, config, args.eval_episodes, seed=10_000 + args.seed * 100_000)
            self.eval_seconds += time.perf_counter() - began
            recent = self.train_success[-200:]
            reached = self.train_reached[-200:]
            point = {
                "steps": float(self.num_timesteps),
                "seconds": round(time.perf_counter() - start, 2),
                "train_success": float(np.mean(recent)) if recent else 0.0,
                "train_goal_reached": float(np.mean(reached)) if reached else 0.0,
                **result,
            }
            curve.append(point)
            log(
                f"steps {self.num_timesteps:>8}  {point['seconds']:>6.0f}s  eval success {result['success']:.2f}  "
                f"steps/ep {result['mean_steps']:.1f}  train success {point['train_success']:.2f}  "
                f"(goal reached {point['train_goal_reached']:.2f})",
                flush=True,
            )
            return result["success"] >= args.target_success

    progress = Progress()
    model.learn(total_timesteps=args.total_timesteps, callback=progress)
    if not curve or curve[-1]["steps"] != model.num_timesteps:
        progress.evaluate()
    seconds = time.perf_counter() - start
    path = save_model(model, output / "model.zip", config)
    best = max(curve, key=lambda p: p["success"])
    reached = [p for p in curve if p["success"] >= 0.8]
    summary: dict[str, Any] = {
        "algorithm": "MaskablePPO (sb3-contrib)",
        "tasks": list(config.tasks),
        "args": {k: v for k, v in dataclasses.asdict(args).items() if k != "extra"},
        "env_config": json.loads(config.to_json()),
        "warm_start": (
            f"behaviour cloning on {args.bc_episodes} oracle episodes (privileged demonstrations)" if args.bc_episodes else None
        ),
        "bc_loss": bc_loss,
        "env_errors": int(sum(venv.get_attr("errors"))) if config.catch_env_errors else 0,
        "total_steps": int(model.num_timesteps),
        "wall_seconds": round(seconds, 1),
        "eval_seconds": round(progress.eval_seconds, 1),
        "final_success": curve[-1]["success"],
        "best_success": best["success"],
        "first_reached_80": ({"steps": reached[0]["steps"], "seconds": reached[0]["seconds"]} if reached else None),
        "model": str(path),
        "curve": curve,
    }
    (output / "curve.json").write_text(json.dumps(summary, indent=2))
    log(f"saved {path} ({model.num_timesteps} steps, {seconds:.0f}s, final success {summary['final_success']:.2f})")
    venv.close()
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    train(parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
