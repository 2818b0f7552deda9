"""Replay audit: re-run recorded simulator episodes from their seeds and check every observation.

For each replayable episode (simulator backend, env rebuilt from its recorded id and options),
the audit resets a fresh env with the recorded seed (or the recorded RNG state of an unseeded
reset) and options, sends the recorded actions one by one, and compares after every step the
whole observation (screenshot and history frames by content hash, tree, labels, masks, history
text), the reward, the done flags and the judge's verdict in ``info``. The first difference of
an episode is reported with its step and field. Separately, every stored image is decoded and
checked against its content hash, so a tampered image file is caught too.

Example:
    >>> from cerebellum_gym.datasets.replay import audit
    >>> report = audit("runs/oracle-data")  # doctest: +SKIP
    >>> report.ok, report.markdown()  # doctest: +SKIP
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np

from cerebellum_gym.datasets.format import DatasetError, hash_function, image_id
from cerebellum_gym.datasets.reader import Dataset, Episode, open_dataset
from cerebellum_gym.datasets.recorder import observation_image_ids, observation_row
from cerebellum_gym.loader import backend_name, env_backend

#: Fields of ``info`` a replay must reproduce.
INFO_FIELDS = ("step", "progress", "success", "invalid_action", "error", "infra_error", "action")
REWARD_TOLERANCE = 1e-9


@dataclass
class EpisodeAudit:
    """The audit of one episode.

    Attributes:
        status: ``ok``, ``mismatch`` (the replay differs: see ``where`` and ``detail``),
            ``skipped`` (not replayable: ``detail`` says why) or ``error`` (the replay crashed).
        steps: observations compared.
        where: ``step T, FIELD`` of the first difference.
    """

    episode_id: str
    task: str
    seed: int | None
    status: str
    steps: int = 0
    where: str = ""
    detail: str = ""

    def line(self) -> str:
        head = f"{self.episode_id} ({self.task}, seed {self.seed})"
        if self.status == "ok":
            return f"{head}: ok, {self.steps} observations match"
        if self.status == "mismatch":
            return f"{head}: MISMATCH at {self.where}: {self.detail}"
        return f"{head}: {self.status}: {self.detail}"


@dataclass
class AuditReport:
    """The audit of a dataset."""

    dataset: str
    episodes: list[EpisodeAudit] = field(default_factory=list)
    images_checked: int = 0
    image_errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No episode differs or crashed and every image matches its hash (skipped ones aside)."""
        return not self.image_errors and all(e.status in ("ok", "skipped") for e in self.episodes)

    def counts(self) -> dict[str, int]:
        out = {"ok": 0, "mismatch": 0, "skipped": 0, "error": 0}
        for e in self.episodes:
            out[e.status] = out.get(e.status, 0) + 1
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "dataset": self.dataset,
            "ok": self.ok,
            "headline": self.headline(),
            "counts": self.counts(),
            "observations_checked": sum(e.steps for e in self.episodes),
            "images_checked": self.images_checked,
            "image_errors": self.image_errors,
            "episodes": [asdict(e) for e in self.episodes],
        }

    def headline(self) -> str:
        c = self.counts()
        verdict = "PASS" if self.ok else "FAIL"
        return (
            f"replay audit {verdict}: {c['ok']} episodes reproduced ({sum(e.steps for e in self.episodes)} observations), "
            f"{c['mismatch']} mismatched, {c['error']} failed, {c['skipped']} not replayable; "
            f"{self.images_checked - len(self.image_errors)}/{self.images_checked} images match their hashes"
        )

    def markdown(self, *, max_listed: int = 20) -> str:
        lines = ["## Replay audit", "", self.headline(), ""]
        bad = [e for e in self.episodes if e.status in ("mismatch", "error")]
        for e in bad[:max_listed]:
            lines.append(f"- {e.line()}")
        for err in self.image_errors[:max_listed]:
            lines.append(f"- {err}")
        skipped = [e for e in self.episodes if e.status == "skipped"]
        if skipped:
            lines.append(f"- not replayable ({len(skipped)}): {skipped[0].detail}")
        return "\n".join(lines).rstrip() + "\n"


class _Hasher:
    """Stands in for a dataset writer: gives image ids, stores nothing."""

    def __init__(self, hash_name: str) -> None:
        self._digest = hash_function(hash_name)

    def image(self, pixels: np.ndarray) -> str:
        return image_id(pixels, self._digest)

    def row(self, obs: Mapping[str, Any], goal: str) -> dict[str, Any]:
        """The row the recorder would write for ``obs``."""
        return observation_row(obs, observation_image_ids(obs, self.image), goal)


def make_replay_env(meta: Mapping[str, Any]) -> gym.Env[Any, Any]:
    """A fresh env built the way the episode's env was.

    Raises:
        DatasetError: the record asks for anything but the simulator (see :func:`replay_refusal`).
    """
    why = replay_refusal(meta)
    if why is not None:
        raise DatasetError(why)
    return gym.make(str(meta["env_id"]), **dict(meta.get("env_kwargs") or {}))


def replay_refusal(meta: Mapping[str, Any]) -> str | None:
    """Why the env a record names is not rebuilt (``None``: it is cerebellum-gym's simulator).

    A shared dataset's record is not trusted to pick the env: ``gym.make`` imports the module of
    an id written ``module:Name``, and a device backend would send the recorded actions to a
    real phone. Replays build only this package's env ids, on the simulator backend."""
    import cerebellum_gym

    env_id, kwargs = meta.get("env_id"), meta.get("env_kwargs") or {}
    if env_id not in cerebellum_gym.ENV_IDS or not isinstance(kwargs, Mapping):
        return f"env {env_id!r} is not one of cerebellum-gym's ({', '.join(cerebellum_gym.ENV_IDS)})"
    record = env_backend(str(env_id), kwargs)
    if record is None or not record.replayable:
        return f"backend {backend_name(str(env_id), kwargs)!r} is not the simulator (replays drive no device)"
    for name, most in REPLAY_OPTION_LIMITS.items():
        value = kwargs.get(name)
        if isinstance(value, int | float) and value > most:
            return f"env option {name}={value!r} is over {most} (the env would allocate for it)"
    return None


#: The largest sizing options a replay accepts from a record: the env allocates by them (a
#: 40,000-px screenshot is gigabytes) and checks only their lower bounds.
REPLAY_OPTION_LIMITS: dict[str, int] = {
    "screenshot_width": 4096,
    "history_width": 4096,
    "history_len": 256,
    "max_labels": 100_000,
    "max_tree_chars": 100_000_000,
}


def replay_reset(env: gym.Env[Any, Any], meta: Mapping[str, Any]) -> tuple[Any, dict[str, Any]]:
    """Reset ``env`` as the episode was reset: its seed, or the generator state an unseeded reset drew from."""
    options = dict(meta.get("options") or {}) or None
    seed = meta.get("seed")
    if seed is None and meta.get("rng_state") is not None:
        generator = np.random.Generator(np.random.PCG64())
        generator.bit_generator.state = meta["rng_state"]
        env.unwrapped.np_random = generator
        return env.reset(options=options)
    return env.reset(seed=seed, options=options)


def _first_difference(recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> tuple[str, str] | None:
    for key in ("goal", "tree", "labels", "action_mask", "label_mask", "screenshot"):
        a, b = recorded.get(key), replayed.get(key)
        if a != b:
            return key, _describe(key, a, b)
    rh, ph = recorded.get("history") or {}, replayed.get("history") or {}
    for key in ("actions", "subtrees", "mask", "screenshots"):
        a, b = rh.get(key), ph.get(key)
        if a != b:
            return f"history.{key}", _describe(key, a, b)
    return None


def _describe(key: str, recorded: Any, replayed: Any) -> str:
    if isinstance(recorded, str) and isinstance(replayed, str) and key in ("tree", "goal"):
        ra, pa = recorded.split("\n"), replayed.split("\n")
        for i, (x, y) in enumerate(zip(ra, pa, strict=False)):
            if x != y:
                return f"line {i + 1}: recorded {x!r}, replayed {y!r}"
        return f"recorded {len(ra)} lines, replayed {len(pa)}"
    if isinstance(recorded, list) and isinstance(replayed, list) and len(recorded) == len(replayed):
        for i, (x, y) in enumerate(zip(recorded, replayed, strict=True)):
            if x != y:
                return f"item {i}: recorded {_short(x)}, replayed {_short(y)}"
    return f"recorded {_short(recorded)}, replayed {_short(replayed)}"


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def replay_episode(
    episode: Episode, *, on_step: Callable[[gym.Env[Any, Any], int], None] | None = None, hash_name: str | None = None
) -> EpisodeAudit:
    """Replay one episode and compare (see the module docstring).

    Args:
        episode: the recorded episode.
        on_step: called with the env and the step index before each recorded action is sent (the
            offline evaluator reads the live oracle there).
        hash_name: the dataset's image hash.
    """
    meta = episode.meta
    result = EpisodeAudit(episode.episode_id, str(meta.get("task", "")), meta.get("seed"), "ok")
    if not meta.get("replayable"):
        result.status, result.detail = "skipped", str(meta.get("not_replayable_because") or "not replayable")
        return result
    refusal = replay_refusal(meta)
    if refusal is not None:
        result.status, result.detail = "skipped", refusal
        return result
    if not episode.rows:
        result.status, result.detail = "skipped", "no observation recorded"
        return result
    hasher = _Hasher(hash_name or episode.dataset.hash_name)
    env = make_replay_env(meta)
    try:
        obs, info = replay_reset(env, meta)
        for t, row in enumerate(episode.rows):
            replayed = hasher.row(obs, str(meta.get("observation_goal", "")))
            recorded = {**row, "goal": row.get("goal", meta.get("observation_goal", ""))}
            replayed.setdefault("goal", meta.get("observation_goal", ""))
            diff = _first_difference(recorded, replayed)
            if diff is not None:
                result.status, result.where, result.detail = "mismatch", f"step {t}, {diff[0]}", diff[1]
                return result
            result.steps = t + 1
            action = row.get("action")
            if action is None:
                break
            if on_step is not None:
                on_step(env, t)
            # A structured action the env refused as malformed has no string form that does
            # the same: it was recorded as sent.
            sent = row.get("action_input")
            obs, reward, terminated, truncated, info = env.step(sent if sent is not None else action)
            checks: list[tuple[str, Any, Any]] = [
                ("terminated", bool(row.get("terminated")), bool(terminated)),
                ("truncated", bool(row.get("truncated")), bool(truncated)),
            ]
            recorded_info = row.get("info") or {}
            checks += [(f"info.{k}", recorded_info.get(k), _plain(info.get(k))) for k in INFO_FIELDS if k in recorded_info]
            if abs(float(row.get("reward") or 0.0) - float(reward)) > REWARD_TOLERANCE:
                result.status, result.where = "mismatch", f"step {t}, reward"
                result.detail = f"recorded {row.get('reward')!r}, replayed {float(reward)!r} (after {action!r})"
                return result
            for name, a, b in checks:
                if a != b:
                    result.status, result.where, result.detail = (
                        "mismatch",
                        f"step {t}, {name}",
                        f"recorded {a!r}, replayed {b!r} (after {action!r})",
                    )
                    return result
    except Exception as exc:
        result.status, result.detail = "error", f"{type(exc).__name__}: {exc}"
    finally:
        env.close()
    return result


def _plain(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    return value


def audit(
    dataset: Dataset | str | os.PathLike[str],
    *,
    episode_ids: Iterable[str] | None = None,
    check_images: bool = True,
    progress: Callable[[EpisodeAudit], None] | None = None,
) -> AuditReport:
    """Replay every (or the given) episode of a dataset and check every stored image.

    Raises:
        DatasetError: not a dataset.
    """
    data = dataset if isinstance(dataset, Dataset) else open_dataset(dataset)
    report = AuditReport(str(data.root))
    ids = list(episode_ids) if episode_ids is not None else data.episode_ids()
    seen: dict[str, str] = {}
    for episode_id in ids:
        episode = data.episode(episode_id)
        result = replay_episode(episode, hash_name=data.hash_name)
        report.episodes.append(result)
        if progress is not None:
            progress(result)
        if check_images:
            for step in episode.steps():
                for ident in step.image_ids:
                    if ident not in seen:
                        seen[ident] = f"episode {episode_id} step {step.t}"
    if check_images:
        for ident, where in seen.items():
            problem = data.verify_image(ident)
            report.images_checked += 1
            if problem is not None:
                report.image_errors.append(f"{problem} (first used at {where})")
    return report


def audit_run(dataset: Dataset | str | os.PathLike[str], run_dir: str | os.PathLike[str], **kwargs: Any) -> AuditReport:
    """Audit the episodes one evaluation run recorded (``eval --record``) into ``dataset``."""
    data = dataset if isinstance(dataset, Dataset) else open_dataset(dataset)
    ids = [i for i in data.episode_ids() if (data.episode(i).meta.get("meta") or {}).get("run") == str(run_dir)]
    return audit(data, episode_ids=ids, **kwargs)


__all__ = [
    "AuditReport",
    "DatasetError",
    "EpisodeAudit",
    "audit",
    "audit_run",
    "make_replay_env",
    "replay_episode",
    "replay_refusal",
    "replay_reset",
]
