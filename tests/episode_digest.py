"""Digests of whole episodes, to prove a refactor changes no behaviour.

``python tests/episode_digest.py > tests/fixtures/episode_digests.json`` records them; the test
``tests/test_episode_identity.py`` recomputes them and compares, step by step.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import gymnasium as gym
import numpy as np

import cerebellum_gym  # noqa: F401  (registers the env ids)

#: (task, seed, policy): the oracle solves, the random policy wanders through legal and illegal
#: actions, ``done`` says F at once, ``halfway`` follows the oracle until the goal partly holds and
#: then says I (the last three pin the reward rule's payouts, docs/rewards.md).
CASES: tuple[tuple[str, int, str], ...] = (
    ("SystemWifiTurnOn", 3, "oracle"),
    ("ContactsAddContact", 11, "oracle"),
    ("MarkorCreateNote", 5, "oracle"),
    ("ExpenseDeleteMultiple", 2, "oracle"),
    ("SimpleCalendarAddOneEvent", 4, "random"),
    ("FilesDeleteFile", 9, "random"),
    ("SimpleSmsSend", 1, "random"),
    ("BrowserMaze", 6, "oracle"),
    ("SystemBluetoothTurnOffVerify", 8, "random"),
    ("SystemBluetoothTurnOffVerify", 8, "done"),
    ("TurnOffWifiAndTurnOnBluetooth", 0, "halfway"),
    ("SystemWifiTurnOn", 3, "done"),
)


def _digest(value: Any) -> str:
    h = hashlib.sha256()

    def feed(v: Any) -> None:
        if isinstance(v, dict):
            for key in sorted(v):
                h.update(key.encode())
                feed(v[key])
        elif isinstance(v, list | tuple):
            h.update(b"[")
            for item in v:
                feed(item)
            h.update(b"]")
        elif isinstance(v, np.ndarray):
            h.update(str(v.dtype).encode() + str(v.shape).encode())
            h.update(np.ascontiguousarray(v).tobytes())
        else:
            h.update(repr(v).encode())

    feed(value)
    return h.hexdigest()[:16]


def _random_action(rng: np.random.Generator, obs: dict[str, Any]) -> str:
    labels = list(obs["labels"])
    pick = int(rng.integers(12))
    if pick < 6 and labels:
        return f"{'T' if pick < 5 else 'P'} {labels[int(rng.integers(len(labels)))]}"
    return str(rng.choice(["K hello", "U", "D", "L", "R", "B", "W", "T ZZ"]))


def episode(task: str, seed: int, policy: str, max_steps: int = 25) -> list[str]:
    """One digest per observation (reset first), covering the observation, reward and info."""
    env = gym.make("Cerebellum-Sim-v0", task=task)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    out = [_digest({"obs": obs, "info": info})]
    for _ in range(max_steps):
        if policy == "done":
            action = "F"
        elif policy == "halfway" and 0.0 < info["progress"] < 1.0:
            action = "I"
        elif policy in ("oracle", "halfway"):
            action = env.unwrapped.oracle_action()
        else:
            action = _random_action(rng, obs)
        obs, reward, terminated, truncated, info = env.step(action)
        out.append(_digest({"obs": obs, "info": info, "reward": float(reward), "end": (terminated, truncated)}))
        if terminated or truncated:
            break
    env.close()
    return out


def record() -> dict[str, list[str]]:
    return {f"{task}/{seed}/{policy}": episode(task, seed, policy) for task, seed, policy in CASES}


if __name__ == "__main__":
    print(json.dumps(record(), indent=1))
