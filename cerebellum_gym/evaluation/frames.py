"""Frame sets for the report: which episodes get their screens, recorded live or by replay.

A frame set is a folder ``frames/<case>/`` holding ``000.jpg`` (the first screen), ``k.jpg``
(the screen after step k), and ``steps.json``: the frames' paths, the compact tree the agent
read on each screen and the action it took there. The report steps through it.

Which episodes get one (:class:`ScreenPolicy`):

- ``auto`` (the default): every episode that did not succeed (failures, partial ones,
  errors), a spread of successful ones (:data:`AUTO_SUCCESS_SAMPLE`, round-robin over
  families), and every episode when the run is small (at most :data:`SMALL_RUN` cases);
- ``all``, a number of cases (spread over families), or none.

Which episodes fail is known only at their end. On the in-process simulator an episode is a
pure function of its seed and its actions, so ``auto`` records nothing during the rollout and
replays the chosen episodes afterwards, with the recorded actions, drawing each screen (a
replay that does not reproduce the recorded rewards stops there, and says so). On a device,
where a step costs far more than drawing a frame and nothing can be replayed, ``auto`` records
every episode live and keeps the chosen ones.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import gymnasium as gym
import numpy as np

from cerebellum_gym.evaluation.results import FRAMES_DIR
from cerebellum_gym.evaluation.suites import Case, Suite

#: With ``auto``, a run of at most this many cases keeps every episode's screens.
SMALL_RUN: Final = 30
#: With ``auto``, successful episodes kept besides the unsuccessful ones (spread over families).
AUTO_SUCCESS_SAMPLE: Final = 20
STEPS_FILE: Final = "steps.json"


@dataclass(frozen=True)
class ScreenPolicy:
    """Which episodes get a frame set.

    Attributes:
        mode: ``auto``, ``all``, ``count`` or ``none``.
        count: with ``count``: how many cases (spread over families).
    """

    mode: str = "auto"
    count: int = 0

    @classmethod
    def parse(cls, value: str | int | None) -> ScreenPolicy:
        """``auto``, ``all``, ``none``/``0`` or a number of cases (ints: ``-1`` all, ``0`` none, N)."""
        if value is None or value == "auto":
            return cls("auto")
        if value in ("all", -1):
            return cls("all")
        if value in ("none", 0, "0"):
            return cls("none")
        try:
            count = int(value)
        except (TypeError, ValueError):
            raise ValueError(f"--screens takes auto, all, none or a number of cases, got {value!r}") from None
        if count < 0:
            raise ValueError(f"--screens must be auto, all, none or a number >= 0, got {value!r}")
        return cls("count", count) if count else cls("none")

    def live(self, suite: Suite, *, replayable: bool) -> set[str]:
        """The cases whose screens are recorded while they run."""
        if self.mode == "none" or (self.mode == "auto" and replayable):
            return set()
        if self.mode == "count":
            return spread(suite.cases, self.count)
        return {c.id for c in suite.cases}

    def keep(self, suite: Suite, record: Mapping[str, Any]) -> bool:
        """Whether the finished ``record`` gets a frame set."""
        if self.mode == "none" or record.get("status") in ("infra_skip", "unavailable"):
            return False
        if self.mode == "all":
            return True
        if self.mode == "count":
            return record["case"] in spread(suite.cases, self.count)
        if len(suite.cases) <= SMALL_RUN or not record.get("success"):
            return True
        return record["case"] in spread(suite.cases, AUTO_SUCCESS_SAMPLE)


def spread(cases: Sequence[Case], count: int) -> set[str]:
    """The ids of ``count`` cases, round-robin over families in suite order (every family shows
    up, and every agent gets the same ones)."""
    queues: dict[str, deque[Case]] = {}
    for case in cases:
        queues.setdefault(case.family, deque()).append(case)
    chosen: list[str] = []
    while len(chosen) < count and any(queues.values()):
        for queue in queues.values():
            if queue and len(chosen) < count:
                chosen.append(queue.popleft().id)
    return set(chosen)


def case_slug(case_id: str) -> str:
    """A file-name-safe folder name for a case's frames (a hash keeps odd ids apart)."""
    import hashlib

    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", case_id)[:80]
    if slug != case_id:
        slug += "-" + hashlib.sha1(case_id.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return slug


def write_frame_set(
    run_dir: Path, case_id: str, frames: Sequence[bytes | None], trees: Sequence[str | None], actions: Sequence[str], note: str = ""
) -> list[str | None]:
    """Write ``frames/<case>/`` (JPEGs and ``steps.json``); the frames' paths relative to ``run_dir``."""
    folder = run_dir / FRAMES_DIR / case_slug(case_id)
    folder.mkdir(parents=True, exist_ok=True)
    paths: list[str | None] = []
    for index, data in enumerate(frames):
        if data is None:
            paths.append(None)
            continue
        name = f"{index:03d}.jpg"
        (folder / name).write_bytes(data)
        paths.append(f"{FRAMES_DIR}/{folder.name}/{name}")
    steps = {"case": case_id, "frames": paths, "trees": list(trees), "actions": list(actions), "note": note}
    text = json.dumps(steps, ensure_ascii=True, separators=(",", ":"))  # ASCII: any agent text is written escaped
    (folder / STEPS_FILE).write_text(text + "\n", encoding="ascii")
    return paths


def read_frame_set(run_dir: Path, record: Mapping[str, Any]) -> dict[str, Any] | None:
    """A case's frame set (``frames``, ``trees``, ``actions``, ``note``), or ``None`` when it has none."""
    path = run_dir / FRAMES_DIR / case_slug(str(record["case"])) / STEPS_FILE
    if path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            data = None
        if isinstance(data, dict):
            return data
    frames = record.get("frames") or []
    if any(frames):  # a run from before frame sets: paths in the record, no trees
        return {"frames": frames, "trees": [], "actions": record.get("actions", []), "note": ""}
    return None


def has_frame_set(run_dir: Path, case_id: str) -> bool:
    """Whether ``frames/<case>/steps.json`` exists."""
    return (run_dir / FRAMES_DIR / case_slug(case_id) / STEPS_FILE).is_file()


def replay(env: gym.Env[Any, Any], record: Mapping[str, Any], width: int | None = None) -> tuple[list[bytes | None], list[str | None], str]:
    """Replay a recorded episode on ``env`` (made with ``render_mode="rgb_array"``): its screens,
    trees, and a note when the replay stopped matching the record."""
    from cerebellum_gym.evaluation.slot import encode_frame

    def look(observation: Any) -> tuple[bytes | None, str | None]:
        image = env.render()
        tree = observation.get("tree") if isinstance(observation, Mapping) else None
        return (encode_frame(image, width) if isinstance(image, np.ndarray) else None), tree

    obs, _ = env.reset(seed=int(record["seed"]), options={"task": record["task"]})
    frame, tree = look(obs)
    frames, trees = [frame], [tree]
    rewards = record.get("rewards", [])
    for index, action in enumerate(record.get("actions", [])):
        try:
            obs, reward, terminated, truncated, _ = env.step(action)
        except Exception as exc:  # the env crashed here in the run too (an error case)
            return frames, trees, f"the env failed at step {index + 1}: {type(exc).__name__}: {exc}"
        if index < len(rewards) and round(float(reward), 6) != rewards[index]:
            return frames, trees, f"the replay left the recorded episode at step {index + 1}; later screens are not shown"
        frame, tree = look(obs)
        frames.append(frame)
        trees.append(tree)
        if terminated or truncated:
            break
    return frames, trees, ""


def replay_frame_sets(
    env_id: str, env_kwargs: Mapping[str, Any], run_dir: Path, records: Iterable[Mapping[str, Any]], width: int | None = None
) -> int:
    """Replay ``records`` on one fresh env and write their frame sets; how many were written."""
    from cerebellum_gym.evaluation.slot import make_env

    todo = [r for r in records if not has_frame_set(run_dir, str(r["case"]))]
    if not todo:
        return 0
    env = make_env(env_id, env_kwargs, None)
    written = 0
    try:
        for record in todo:
            try:
                frames, trees, note = replay(env, record, width)
            except Exception as exc:  # a crash on replay (an error case) shows what was drawn before it
                frames, trees, note = [], [], f"replay failed: {type(exc).__name__}: {exc}"
            write_frame_set(run_dir, str(record["case"]), frames, trees, record.get("actions", []), note)
            written += 1
    finally:
        env.close()
    return written
