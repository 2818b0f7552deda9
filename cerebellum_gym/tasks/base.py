"""Tasks: a goal from seeded parameters, set-up and judging through the Device interface, and a
scripted oracle that solves the task by reading the live screen.

A task never looks inside a backend. It sets up and judges with what any Android device offers
over ADB (settings, content providers, files, the UI tree), so one definition runs on the
simulator, on the simulator served over ADB, and on a real device.
"""

from __future__ import annotations

import abc
import math
import string
from collections.abc import Mapping
from typing import Any, ClassVar, Final, Literal

import numpy as np

from cerebellum_gym.core.som import LabelledScreen
from cerebellum_gym.core.state import register_state_base
from cerebellum_gym.devices.base import KEYCODE_HOME, Device
from cerebellum_gym.errors import UnsupportedOperationError

JudgeMode = Literal["per_step", "on_end"]


#: Steps added to AndroidWorld's budget: its agents open an app with one action (``open_app``),
#: which this action set has not; on the Pixel launcher an app outside the favourites tray opens
#: with a swipe up to the app drawer and a tap.
LAUNCH_STEPS: Final = 1


@register_state_base
class Oracle(abc.ABC):
    """A scripted, privileged policy for one task instance: an upper bound, not a baseline.

    It reads the current labelled screen and answers the next action string. It may keep a
    little memory (for example which way it is scrolling), but never replays coordinates.
    """

    @abc.abstractmethod
    def act(self, screen: LabelledScreen) -> str:
        """The next action on ``screen``."""


@register_state_base
class Task(abc.ABC):
    """One task family member with concrete parameters.

    Class attributes describe the task for registries and docs; an instance carries the
    parameters of one episode.

    Attributes:
        name: registry name, the AndroidWorld name when it mirrors one; by default the class's
            name.
        app: the human name of the main app.
        family: the group results are reported by (``system``, ``contacts``, ...).
        complexity: AndroidWorld's complexity; the step budget is ``ceil(10 * complexity)``.
        template: the goal with ``{param}`` placeholders.
        judge: one sentence on what :meth:`progress` checks.
        mirrors: the AndroidWorld task it mirrors, or ``None``.
        answer: whether the task is a question answered with ``F {answer}``.
        judge_mode: when the env judges: ``"per_step"`` (after reset and every step, for a
            per-step progress reward: the simulator's cheap judges) or ``"on_end"`` (once, when
            the episode ends, as AndroidWorld's protocol does).
        judge_side_effect_free: whether :meth:`progress` only reads the device (it presses
            nothing, opens nothing, writes nothing), so that judging after every step changes
            no episode. Only such tasks may be judged every step when their mode is ``on_end``.
    """

    name: ClassVar[str] = ""
    app: ClassVar[str] = ""
    family: ClassVar[str] = ""
    complexity: ClassVar[float] = 1.0
    template: ClassVar[str] = ""
    judge: ClassVar[str] = ""
    mirrors: ClassVar[str | None] = None
    answer: ClassVar[bool] = False
    judge_mode: ClassVar[JudgeMode] = "per_step"
    judge_side_effect_free: ClassVar[bool] = True
    #: Why the last judgement scored 0 without judging (a judge of AndroidWorld's that raised,
    #: which its suite runner counts as a failed episode), else ``""``; ``info["judge_error"]``.
    judge_error: str = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # A task is named after its class unless it says otherwise (AndroidWorld's names are
        # its class names, which the mirrored tasks share).
        if "name" not in cls.__dict__:
            cls.name = cls.__name__

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        self.params: dict[str, Any] = dict(params or {})

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Random parameters for one episode, drawn from ``rng`` only."""
        return {}

    @classmethod
    def max_steps(cls) -> int:
        """The step budget: ten steps per unit of complexity, as AndroidWorld allots, and
        :data:`LAUNCH_STEPS` more."""
        return math.ceil(10 * cls.complexity) + LAUNCH_STEPS

    @property
    def goal(self) -> str:
        return self.template.format(**self.params)

    def text_candidates(self) -> list[str]:
        """Texts an agent with a discrete action space may type for this task (for ``K``).

        The default offers the goal's string parameters; tasks whose goal text is not what gets
        typed override it.
        """
        fields = [name for _, name, _, _ in string.Formatter().parse(self.template) if name]
        return [str(self.params[f]) for f in fields if isinstance(self.params.get(f), str)]

    def start_episode(self, device: Device) -> None:
        """Bring the device to the episode's first screen: factory fresh (or at least home),
        then :meth:`initialize`. Tasks whose protocol orders it otherwise override this."""
        try:
            device.factory_reset()
        except UnsupportedOperationError:
            device.press_key(KEYCODE_HOME)
        self.initialize(device)

    def initialize(self, device: Device) -> None:
        """Put the device into the task's start state (the device is already factory fresh)."""

    @classmethod
    def from_androidworld(cls, params: dict[str, Any]) -> dict[str, Any]:
        """This task's parameters from AndroidWorld's parameters of the task it mirrors (the
        same, by default; a task that splits or adds fields derives them here)."""
        return dict(params)

    def baseline(self, device: Device) -> None:
        """Record what the judge compares the end state with (the files already there, ...),
        reading the device only. :meth:`initialize` calls it last; a harness whose set-up ran
        another way (AndroidWorld's own ``initialize_task``, see
        ``benchmarks/androidworld/conformance.py``) calls it instead. Nothing by default."""

    def resume(self, device: Device) -> None:
        """The episode goes on from a restored state (``CerebellumEnv.restore_state``) on
        ``device``, whose state is already back: re-bind whatever the task keeps of the device
        (nothing by default; a task holds data only, so an episode state can carry it)."""

    def tear_down(self, device: Device) -> None:
        """Undo what the episode left that the next one must not see; the env calls it once per
        episode, when the episode ends, is cut short or the env closes. Nothing by default."""

    @abc.abstractmethod
    def progress(self, device: Device, answer: str | None = None) -> float:
        """How much of the goal holds now, in ``[0, 1]``; ``answer`` is the agent's ``F`` text."""

    @abc.abstractmethod
    def oracle(self) -> Oracle:
        """A fresh scripted solver for this instance."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.params!r})"
