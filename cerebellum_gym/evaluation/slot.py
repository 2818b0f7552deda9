"""One parallel env of an evaluation: runs the case it is handed, and never dies.

gymnasium's vector envs give every sub-env the same reset ``options`` and step every sub-env
on every call, and an exception in an async worker kills that worker. :class:`EpisodeSlot`
fits a cerebellum env to that:

- its reset reads *its own* job from ``options["jobs"][slot]`` (a case and attempt), or idles;
- its action space is any action string, and the empty string is a no-op (an idle slot at the
  end of a suite costs nothing, and the vector env needs no autoreset);
- device faults and crashes of any kind become a :class:`SlotReport` with a status, so the
  runner can retry, skip or record them; after a device fault the env is rebuilt (a fresh
  device connection) before the next case;
- on request it renders each screen with the set-of-mark overlay as a JPEG (at the width of the
  env's screenshots: what the agent saw) and keeps its compact tree, for the report's
  step-through.

Everything the runner needs comes back in ``info["cg"]`` (one object per slot, which the vector
env passes through as is).
"""

from __future__ import annotations

import contextlib
import io
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, Final, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from cerebellum_gym.core.spaces import UnicodeText
from cerebellum_gym.errors import InfraError
from cerebellum_gym.evaluation.faults import FaultPlan, FaultyDevice

#: Longest action string an agent may send (longer ones reach the env and are judged invalid).
MAX_ACTION_CHARS: Final = 4096
INFO_KEY: Final = "cg"
#: Width of recorded screens; ``None`` keeps the env's screenshot width (464 px by default).
DEFAULT_FRAME_WIDTH: Final[int | None] = None


@dataclass(frozen=True)
class Job:
    """What a slot runs next: a case (by id, task and seed), which attempt, and whether to record screens."""

    case_id: str
    task: str
    seed: int
    attempt: int = 0
    record: bool = False


@dataclass
class SlotReport:
    """What happened in one slot on one reset or step.

    Attributes:
        status: ``ok``, ``idle``, ``infra`` (a device fault: the attempt is void) or ``error``
            (the env or task crashed: a harness bug, not retried).
        done: the episode ended (terminated, truncated, or failed).
        message: the fault or crash, one line; ``detail`` has the traceback for ``error``.
    """

    status: str = "ok"
    reward: float = 0.0
    terminated: bool = False
    truncated: bool = False
    success: bool = False
    progress: float = 0.0
    invalid_action: bool = False
    invalid_reason: str = ""
    action: str = ""
    goal: str = ""
    max_steps: int = 0
    message: str = ""
    detail: str = ""
    frame: bytes | None = None
    tree: str | None = None

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated or self.status in ("infra", "error")


def blank_observation(space: spaces.Space[Any]) -> Any:
    """A valid, empty member of ``space`` (zeros, empty strings, empty sequences).

    Example:
        >>> blank_observation(spaces.Dict({"a": spaces.MultiBinary(2), "t": spaces.Text(5, min_length=0)}))
        {'a': array([0, 0], dtype=int8), 't': ''}
    """
    if isinstance(space, spaces.Dict):
        return {key: blank_observation(sub) for key, sub in space.spaces.items()}
    if isinstance(space, spaces.Tuple):
        return tuple(blank_observation(sub) for sub in space.spaces)
    if isinstance(space, spaces.Text):
        return space.characters[:1] * space.min_length
    if isinstance(space, spaces.Sequence):
        return ()
    if isinstance(space, spaces.Box):
        assert space.dtype is not None
        return np.clip(np.zeros(space.shape, space.dtype), space.low, space.high).astype(space.dtype)
    if isinstance(space, spaces.MultiBinary):
        return np.zeros(space.shape, space.dtype)
    if isinstance(space, spaces.Discrete):
        return np.int64(space.start)
    if isinstance(space, spaces.MultiDiscrete):
        return np.asarray(space.start, space.dtype).copy()
    raise TypeError(f"no blank observation for space {space!r}")


def encode_frame(image: np.ndarray, width: int | None = None) -> bytes:
    """``image`` as JPEG bytes, scaled to ``width`` pixels wide when given."""
    from PIL import Image

    pil = Image.fromarray(image)
    if width is not None and pil.width != width:
        pil = pil.resize((width, max(1, round(pil.height * width / pil.width))), Image.Resampling.BILINEAR)
    buf = io.BytesIO()
    pil.save(buf, format="JPEG", quality=80, optimize=False)
    return buf.getvalue()


def make_env(env_id: str, env_kwargs: Mapping[str, Any], fault_plan: FaultPlan | None) -> gym.Env[Any, Any]:
    """A cerebellum env for evaluation (with the overlay renderer on, and a faulty device when a plan is given)."""
    kwargs = dict(env_kwargs)
    kwargs.setdefault("render_mode", "rgb_array")
    if fault_plan is not None:
        kwargs["device_wrapper"] = partial(FaultyDevice, plan=fault_plan)
    return gym.make(env_id, **kwargs)


class EpisodeSlot(gym.Env[Any, str]):
    """Slot ``slot`` of a vector env of evaluation episodes (see the module docstring).

    Args:
        factory: builds the cerebellum env (called again after a device fault).
        slot: this env's index in the vector env.
        frame_width: width of recorded screens.
    """

    def __init__(self, factory: Callable[[], gym.Env[Any, Any]], slot: int, frame_width: int | None = DEFAULT_FRAME_WIDTH) -> None:
        self.metadata = {"render_modes": []}
        self._factory = factory
        self.slot = slot
        self.frame_width = frame_width
        self.env: gym.Env[Any, Any] | None = factory()
        self.observation_space = self.env.observation_space
        self.action_space = UnicodeText(MAX_ACTION_CHARS)
        self._blank = blank_observation(self.observation_space)
        self._obs: Any = self._blank
        self._active = False
        self._record = False
        self._oracle_error: SlotReport | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        job: Job | None = (options or {}).get("jobs", {}).get(self.slot)
        self._active = False
        self._oracle_error = None
        self._obs = self._blank
        if job is None:
            return self._obs, {INFO_KEY: SlotReport(status="idle")}
        self._record = job.record
        try:
            env = self._env()
            device = getattr(env.unwrapped, "device", None)
            if isinstance(device, FaultyDevice):
                device.begin_case(job.case_id, job.attempt)
            obs, info = env.reset(seed=job.seed, options={"task": job.task})
        except Exception as exc:
            return self._obs, {INFO_KEY: self._failure(exc)}
        self._obs = obs
        self._active = True
        report = SlotReport(
            progress=float(info.get("progress", 0.0)), goal=str(info.get("goal", "")), max_steps=int(info.get("max_steps", 0))
        )
        report.frame, report.tree = self._frame()
        return obs, {INFO_KEY: report}

    def step(self, action: str) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        if not self._active or action == "":
            return self._obs, 0.0, False, False, {INFO_KEY: SlotReport(status="idle")}
        if self._oracle_error is not None:
            self._active = False
            report, self._oracle_error = self._oracle_error, None
            return self._obs, 0.0, False, False, {INFO_KEY: report}
        try:
            obs, reward, terminated, truncated, info = self._env().step(action)
        except Exception as exc:
            self._active = False
            return self._obs, 0.0, False, False, {INFO_KEY: self._failure(exc)}
        self._obs = obs
        infra = str(info.get("infra_error", ""))
        report = SlotReport(
            status="infra" if infra else "ok",
            reward=float(reward),
            terminated=bool(terminated),
            truncated=bool(truncated),
            success=bool(info.get("success", False)),
            progress=float(info.get("progress", 0.0)),
            invalid_action=bool(info.get("invalid_action", False)),
            invalid_reason=str(info.get("error", "")),
            action=str(info.get("action", action)),
            message=infra or str(info.get("judge_error", "")),
        )
        if infra:
            self._drop_env()
        elif self._record:
            report.frame, report.tree = self._frame()
        if report.done:
            self._active = False
        # The slot's own done flags stay False: the runner ends episodes from the report, so the
        # vector env never needs an autoreset.
        return obs, report.reward, False, False, {INFO_KEY: report}

    def oracle_action(self) -> str:
        """The scripted oracle's next action in the running episode ("" when idle)."""
        return self._privileged("oracle", lambda env: env.oracle_action())

    def search_action(self, budget: int) -> str:
        """A best-first search's next action in the running episode ("" when idle)."""
        return self._privileged("search", lambda env: env.search_action(budget))

    def _privileged(self, what: str, ask: Callable[[Any], str]) -> str:
        if not self._active or self.env is None:
            return ""
        try:
            return str(ask(self.env.unwrapped))
        except Exception as exc:
            # An oracle bug must not kill an async worker: the next step ends the episode as an error.
            self._oracle_error = SlotReport(
                status="error", message=f"{what} failed: {type(exc).__name__}: {exc}", detail=traceback.format_exc(limit=8)
            )
            return "W"

    def text_candidates(self) -> list[str]:
        """The running task's texts for agents with a discrete typing vocabulary ([] when idle)."""
        if not self._active or self.env is None:
            return []
        return list(self.env.unwrapped.text_candidates())  # type: ignore[attr-defined]

    def close(self) -> None:
        try:
            self._drop_env()
        finally:
            # A factory may hold what its envs run on (an emulator pool's lease): let it go with the slot.
            release = getattr(self._factory, "close", None)
            if callable(release):
                release()

    # --- internals ---------------------------------------------------------------------------

    def _env(self) -> gym.Env[Any, Any]:
        if self.env is None:
            self.env = self._factory()
        return self.env

    def _drop_env(self) -> None:
        # After a device fault the connection is suspect: close it and build a fresh env for the next case.
        env, self.env = self.env, None
        if env is not None:
            with contextlib.suppress(Exception):
                env.close()

    def _failure(self, exc: BaseException) -> SlotReport:
        message = f"{type(exc).__name__}: {exc}"
        detail = traceback.format_exc(limit=8)
        # Either way the env's state is suspect: the next case gets a fresh one.
        self._drop_env()
        if isinstance(exc, InfraError):
            return SlotReport(status="infra", message=message)
        return SlotReport(status="error", message=message, detail=detail)

    def _frame(self) -> tuple[bytes | None, str | None]:
        """The screen with its overlay as JPEG, and the compact tree the agent read with it."""
        if not self._record or self.env is None:
            return None, None
        tree = self._obs.get("tree") if isinstance(self._obs, Mapping) else None
        try:
            image = self.env.render()
        except Exception:  # a screen we cannot draw is missing from the report, nothing more
            return None, tree
        if not isinstance(image, np.ndarray):
            return None, tree
        return encode_frame(image, self.frame_width), tree
