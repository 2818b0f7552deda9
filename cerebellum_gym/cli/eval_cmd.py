"""``cerebellum-gym eval``: evaluate agents on the simulator (a first, sequential version)."""

from __future__ import annotations

import argparse
import time
from typing import Any


def register(sub: Any) -> None:
    parser = sub.add_parser("eval", help="evaluate agents on tasks")
    parser.add_argument("--env", default="Cerebellum-Sim-v0")
    parser.add_argument("--tasks", default=None, help="comma-separated task names (default: all)")
    parser.add_argument("--agent", action="append", default=None, help="random, oracle or module:object (repeatable)")
    parser.add_argument("--episodes", type=int, default=3, help="seeds per task")
    parser.add_argument("--seed", type=int, default=0)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import gymnasium as gym

    import cerebellum_gym  # noqa: F401  (registers the env ids)
    from cerebellum_gym.agents import OracleAgent, load_agent
    from cerebellum_gym.tasks import task_names

    names = args.tasks.split(",") if args.tasks else task_names()
    for spec in args.agent or ["random", "oracle"]:
        agent = load_agent(spec)
        agent.reset(seed=args.seed)
        solved = total = steps = 0
        start = time.perf_counter()
        for name in names:
            env = gym.make(args.env, task=name, pixels=False)
            for episode in range(args.episodes):
                obs, info = env.reset(seed=args.seed + episode)
                done = False
                while not done:
                    action = OracleAgent.act_env(env) if agent.privileged else agent.act(obs)
                    obs, _, term, trunc, info = env.step(action)
                    steps += 1
                    done = term or trunc
                solved += int(info["success"])
                total += 1
            env.close()
        print(f"{agent.name:>22}: success {solved}/{total} = {100 * solved / total:.1f}%  avg steps {steps / total:.1f}  ({time.perf_counter() - start:.1f}s)")
    return 0
