"""Helpers for the dataset tests (a module of its own: conftest names collide across test folders)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym

from cerebellum_gym.datasets.format import PART_EPISODES, PART_INDEX, PART_STEPS, PARTS_DIR


def play(
    env: gym.Env[Any, Any], policy: Callable[[Any], str], *, seed: int | None, options: dict[str, Any] | None = None
) -> list[tuple[Any, ...]]:
    """One episode; every (obs, info) and step result as the env returned them."""
    obs, info = env.reset(seed=seed, options=options)
    trace: list[tuple[Any, ...]] = [("reset", obs, info)]
    done = False
    while not done:
        action = policy(obs)
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append(("step", action, obs, reward, terminated, truncated, info))
        done = terminated or truncated
    return trace


# --- editing a recorded (version-2) dataset on disk, as damage or a re-run would ------------------


def part_of(folder: Path, episode_id: str) -> Path:
    """The part (writer folder) holding ``episode_id``."""
    for part in (folder / PARTS_DIR).iterdir():
        if any(json.loads(line)["episode_id"] == episode_id for line in (part / PART_EPISODES).read_text().splitlines()):
            return part
    raise KeyError(episode_id)


def rewrite_row(folder: Path, episode_id: str, t: int, edit: Callable[[dict[str, Any]], None]) -> None:
    """Apply ``edit`` to row ``t`` of an episode, in place in its part's ``steps.jsonl``."""
    path = part_of(folder, episode_id) / PART_STEPS
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    edit(next(r for r in rows if r["episode_id"] == episode_id and r["t"] == t))
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


def duplicate_episode(folder: Path, episode_id: str, new_id: str) -> None:
    """Append a copy of an episode under ``new_id`` to its part (a re-run recording the same trajectory)."""
    part = part_of(folder, episode_id)
    meta = [json.loads(line) for line in (part / PART_EPISODES).read_text().splitlines()]
    final = [m for m in meta if m["episode_id"] == episode_id][-1]
    rows = [json.loads(line) for line in (part / PART_STEPS).read_text().splitlines()]
    with open(part / PART_EPISODES, "a") as f:
        f.write(json.dumps({**final, "episode_id": new_id}) + "\n")
    with open(part / PART_STEPS, "a") as f:
        for row in rows:
            if row["episode_id"] == episode_id:
                f.write(json.dumps({**row, "episode_id": new_id}) + "\n")


def point_image_at(folder: Path, ident: str, other: str) -> None:
    """Make the index say image ``ident``'s bytes are ``other``'s (a tampered record)."""
    for part in (folder / PARTS_DIR).iterdir():
        index = part / PART_INDEX
        lines = index.read_text().splitlines()
        where = {line.split()[0]: line.split()[1:] for line in lines}
        if ident in where and other in where:
            index.write_text("".join(f"{ident} {' '.join(where[other])}\n" if line.split()[0] == ident else line + "\n" for line in lines))
            return
    raise KeyError(ident)


def remove_episode(folder: Path, episode_id: str) -> None:
    """Delete an episode's records and rows from its part."""
    part = part_of(folder, episode_id)
    for name in (PART_EPISODES, PART_STEPS):
        lines = (part / name).read_text().splitlines()
        (part / name).write_text("".join(line + "\n" for line in lines if json.loads(line)["episode_id"] != episode_id))
