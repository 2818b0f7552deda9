"""``CerebellumEnv``: an Android device and a task behind the standard ``gymnasium.Env`` API.

The env builds nothing itself: it is handed a ready device, a task catalogue and a task choice.
``gym.make`` goes through :func:`cerebellum_gym.loader.make_env`, which assembles them.

Example:
    >>> import gymnasium as gym
    >>> import cerebellum_gym  # registers the env ids
    >>> env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn")
    >>> obs, info = env.reset(seed=0)
    >>> obs["goal"]
    'Turn wifi on.'
    >>> obs["screenshot"].shape
    (1031, 464, 3)
    >>> label = obs["labels"][0]
    >>> obs, reward, terminated, truncated, info = env.step(f"T {label}")
    >>> sorted(k for k in info if k in ("success", "progress", "invalid_action", "infra_error"))
    ['infra_error', 'invalid_action', 'progress', 'success']
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal, SupportsFloat

import gymnasium as gym
import numpy as np

from cerebellum_gym.core.actions import CODE_INDEX, CODES, MAX_TEXT_CHARS, Action, StructuredAction, coerce_action, plain_structured
from cerebellum_gym.core.history import frozen
from cerebellum_gym.core.memory import reuse_freed_frames, reuse_requested
from cerebellum_gym.core.observation import (
    DEFAULT_HISTORY_LEN,
    DEFAULT_HISTORY_WIDTH,
    DEFAULT_MAX_TREE_CHARS,
    DEFAULT_SCREENSHOT_WIDTH,
    MAX_GOAL_CHARS,
    MAX_SUBTREE_CHARS,
    MIN_IMAGE_WIDTH,  # noqa: F401  (re-exported: the env's documented minimum)
    ObservationConfig,
    ObservationParts,
    fresh_observation,
    label_mask,
    source_observation,
)
from cerebellum_gym.core.som import DEFAULT_MAX_LABELS, LabelledScreen, draw_overlay, label_screen
from cerebellum_gym.core.spaces import action_space
from cerebellum_gym.core.state import STATE_FORMAT, EpisodeState, dumps_state, is_state_type, loads_state
from cerebellum_gym.core.tree import compact_subtree
from cerebellum_gym.devices.base import KEYCODE_BACK, KEYCODE_HOME, Device
from cerebellum_gym.errors import (
    CerebellumError,
    ConfigError,
    InfraError,
    InvalidActionError,
    StateError,
    StepError,
    UnsupportedOperationError,
)
from cerebellum_gym.options import check_env_options, check_reset_options
from cerebellum_gym.tasks.base import Oracle, Task
from cerebellum_gym.tasks.catalog import BUILTIN, TaskCatalog

ObsType = dict[str, Any]
#: The read-only sources of an observation's pixel fields (:meth:`CerebellumEnv.observation_frames`).
ObservationFrames = dict[str, Any]
#: What :meth:`CerebellumEnv.step_parts` returns: ``step``'s five values with the observation's parts.
PartsStep = tuple[ObservationParts, SupportsFloat, bool, bool, dict[str, Any]]
ActType = str | Action | StructuredAction
TaskSpec = str | Task | type[Task] | Sequence[str] | None

InvalidActionMode = Literal["penalize", "raise"]
RewardMode = Literal["shaped", "progress_delta", "sparse"]
#: The reward rules ``reward=`` accepts (see docs/rewards.md).
#: Longest ``info["action"]`` shown for a rejected action (an agent may send a megabyte).
MAX_SHOWN_ACTION_CHARS: Final = MAX_TEXT_CHARS + 4
WAIT_SECONDS: Final = 2.0


class CerebellumEnv(gym.Env[ObsType, ActType]):
    """An Android UI task as a Gymnasium environment.

    Args:
        task: a task name, a list of names to draw from per episode, a :class:`Task` class or
            instance, or ``None`` to draw from every task of ``catalog``.
        device: the ready device the env drives.
        catalog: where task names resolve (the bundled tasks by default; the loader passes the
            backend's own catalogue, as AndroidWorld's).
        owns_device: :meth:`close` closes the device too.
        screenshot_width: width of the current screenshot (the reference agent reads 464 px; at
            least :data:`MIN_IMAGE_WIDTH`, as is ``history_width``).
        pixels: ``False`` drops every image from the observation (tree-only mode, fastest).
        history_len: past frames kept in the observation (at least 1).
        history_width: width of history screenshots.
        max_tree_chars: the compact tree is cut to this many characters.
        max_labels: label slots (elements beyond these get no label).
        max_steps: step budget; defaults to the task's (``10 x complexity``).
        invalid_action: ``"penalize"`` counts a bad action (device untouched, ``info`` says why)
            and adds ``invalid_action_penalty`` to the reward; ``"raise"`` raises
            :class:`~cerebellum_gym.errors.InvalidActionError`.
        invalid_action_penalty: reward added for an invalid action (usually negative).
        reward: the reward rule (docs/rewards.md). ``"shaped"`` (default): progress as a
            potential, cashed in for success when the episode ends, so the undiscounted return
            is 1 for a success and 0 for anything else (plus penalties); ``"progress_delta"``:
            the change in progress each step (the return is the progress gained);
            ``"sparse"``: 1 on the step that ends in success, else 0. ``info["progress"]``
            carries the partial credit whatever the rule.
        success_requires_done: as in AndroidWorld, success counts only when the agent says
            ``F``; when ``False`` the episode also ends as soon as the goal holds.
        raise_infra_errors: re-raise device faults from ``step`` instead of ending the episode
            with ``truncated=True`` and ``info["infra_error"]`` set.
        judge_every_step: also judge tasks whose protocol judges once at the end (AndroidWorld's)
            after reset and every step, for a per-step progress reward. Allowed only for tasks
            whose judge is declared side-effect free (``Task.judge_side_effect_free``); others
            raise :class:`~cerebellum_gym.errors.ConfigError` at reset.
        render_mode: ``"rgb_array"`` renders the screen with the set-of-mark overlay.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 2}  # noqa: RUF012  (gymnasium's own declaration)

    def __init__(
        self,
        task: TaskSpec = None,
        *,
        device: Device,
        catalog: TaskCatalog = BUILTIN,
        owns_device: bool = False,
        screenshot_width: int = DEFAULT_SCREENSHOT_WIDTH,
        pixels: bool = True,
        history_len: int = DEFAULT_HISTORY_LEN,
        history_width: int = DEFAULT_HISTORY_WIDTH,
        max_tree_chars: int = DEFAULT_MAX_TREE_CHARS,
        max_labels: int = DEFAULT_MAX_LABELS,
        max_steps: int | None = None,
        invalid_action: InvalidActionMode = "penalize",
        invalid_action_penalty: float = 0.0,
        reward: RewardMode = "shaped",
        success_requires_done: bool = True,
        raise_infra_errors: bool = False,
        judge_every_step: bool = False,
        render_mode: str | None = None,
    ) -> None:
        check_env_options(
            {
                "pixels": pixels,
                "screenshot_width": screenshot_width,
                "history_len": history_len,
                "history_width": history_width,
                "max_tree_chars": max_tree_chars,
                "max_labels": max_labels,
                "max_steps": max_steps,
                "invalid_action": invalid_action,
                "invalid_action_penalty": invalid_action_penalty,
                "reward": reward,
                "success_requires_done": success_requires_done,
                "raise_infra_errors": raise_infra_errors,
                "judge_every_step": judge_every_step,
                "render_mode": render_mode,
            }
        )
        #: The observation's shape: its space, the history and a batch's arrays are made from it.
        self.observation_config = ObservationConfig(
            screen_size=device.screen_size,
            screenshot_width=screenshot_width,
            pixels=pixels,
            history_len=history_len,
            history_width=history_width,
            max_tree_chars=max_tree_chars,
            max_labels=max_labels,
        )
        self._owns_device = owns_device
        self.device: Device = device
        self.catalog = catalog
        self._task_choices, self._fixed_task = _resolve_tasks(task, catalog)
        self.screenshot_width = screenshot_width
        self.pixels = pixels
        self.max_tree_chars = max_tree_chars
        self.max_labels = max_labels
        self._max_steps_override = max_steps
        self.invalid_action = invalid_action
        self.invalid_action_penalty = float(invalid_action_penalty)
        self.reward_mode: RewardMode = reward
        self.success_requires_done = success_requires_done
        self.raise_infra_errors = raise_infra_errors
        self.judge_every_step = judge_every_step
        self.render_mode = render_mode

        if pixels and reuse_requested():
            # Fresh frames every step: reuse their memory. Process-wide, so only when asked (core/memory.py).
            reuse_freed_frames()
        self._scale = screenshot_width / self.device.screen_size[0]
        self.observation_space = self.observation_config.space()
        self.action_space = action_space(max_labels, MAX_TEXT_CHARS)
        self.history = self.observation_config.history()

        self.task: Task | None = None
        self._oracle: Oracle | None = None
        self.screen: LabelledScreen | None = None
        self._screenshot: np.ndarray | None = None
        self._progress = 0.0
        self._initial_progress = 0.0
        self._steps = 0
        self.max_steps = 0
        self._torn_down = True  # no episode whose task still needs its tear_down
        self._goal_memo: tuple[int, Task, str] | None = None  # (step, task, goal) for _goal
        # search_action's plan: (the step it continues at, its actions, whether it ends in success)
        self._search_plan: tuple[int, list[str], bool] | None = None
        # The pixel arrays of the observation last returned (weakly: the caller owns them) and
        # the read-only frames they were copied from (observation_frames).
        self._handed: tuple[Any, Any, ObservationFrames] | None = None

    # --- gymnasium API -----------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[ObsType, dict[str, Any]]:
        """Start an episode: draw the task and its parameters, reset the device, set it up.

        ``options`` may carry ``task`` (a name) to pick this episode's task, or ``state`` (an
        :class:`EpisodeState` from :meth:`clone_state`) to continue from it instead of starting
        afresh (``seed`` is then ignored: the state carries its random generator).
        """
        parts, info = self.reset_parts(seed=seed, options=options)
        return self._handout(parts), info

    def reset_parts(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[ObservationParts, dict[str, Any]]:
        """:meth:`reset` with the observation as its immutable :class:`ObservationParts` (no
        copies): what ``reset`` is built on, and what a native batch writes its rows from."""
        check_reset_options(options)
        if options and "state" in options:
            return self._restore(options["state"])
        super().reset(seed=seed)
        self._goal_memo = None  # set-up may change the goal (AndroidWorld's rewrites dates)
        self._search_plan = None
        self._end_task(quiet=True)  # an episode left running: its task is torn down before the next starts
        rng = self.np_random
        name = (options or {}).get("task")
        if name is not None:
            cls = self.catalog.get(str(name))
            self.task = cls(cls.generate_params(rng))
        elif self._fixed_task is not None:
            self.task = self._fixed_task
        else:
            cls = self._task_choices[int(rng.integers(len(self._task_choices)))]
            self.task = cls(cls.generate_params(rng))
        self._check_judging(self.task)
        self._torn_down = False
        self.task.start_episode(self.device)
        self._oracle = None
        self.max_steps = self._max_steps_override or self.task.max_steps()
        self._steps = 0
        self.history.clear()
        self._observe()
        self._progress = self._initial_progress = self._judge(None) if self._judges_every_step() else 0.0
        return self.observation_parts(), self._info(invalid=None, infra=None, action="")

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Act once (:meth:`step_parts`, its observation handed out as fresh arrays).

        Args:
            action: see :meth:`step_parts`.
        """
        parts, reward, terminated, truncated, info = self.step_parts(action)
        return self._handout(parts), reward, terminated, truncated, info

    def step_parts(self, action: ActType) -> PartsStep:
        """Act once, the observation as its immutable :class:`ObservationParts` (no copies):
        what ``step`` is built on, and what a native batch writes its rows from. ``action`` is a
        string (``"T UE"``), an :class:`Action`, or the structured mapping ``{"code", "label", "text"}``.

        Whatever the action, only project errors leave: a malformed or illegal action takes the
        invalid-action path (or raises :class:`InvalidActionError` with ``invalid_action="raise"``),
        a device fault ends the episode (or raises an :class:`InfraError`), and an unexpected
        failure of the env itself is raised as :class:`StepError`.
        """
        if self.task is None or self.screen is None:
            raise CerebellumError("call reset() before step()")
        try:
            return self._step(action)
        except CerebellumError:
            raise
        except Exception as exc:  # a bug below us: keep the error type promise, keep the cause
            raise StepError(f"step({_shown(action)}) failed: {type(exc).__name__}: {exc}") from exc

    def _step(self, action: ActType) -> PartsStep:
        assert self.screen is not None
        self._steps += 1
        try:
            parsed = coerce_action(action, self.screen.labels)
        except InvalidActionError as err:
            return self._reject(action, err)
        try:
            node = self._validate(parsed)
        except InvalidActionError as err:
            # Well formed, refused by this screen: a structured action is shown in its compact
            # form (what sending that string does: the same refusal).
            return self._reject(action if isinstance(action, str) else parsed, err)

        try:
            shot = self._history_shot()
            try:
                self._perform(parsed, node)
            except UnsupportedOperationError as err:
                # The backend cannot do it (text it has no keyboard for): the agent's problem, device untouched.
                return self._reject(action, InvalidActionError(str(parsed), str(err)))
            self.history.push(
                shot,
                str(parsed),
                compact_subtree(node, MAX_SUBTREE_CHARS) if node is not None else "",
                node.bounds if node is not None else None,
            )
            if not parsed.is_terminal:
                self._observe()
            answer = parsed.text if parsed.code == "F" else None
            progress = self._judge_step(answer, ends=parsed.is_terminal or self._steps >= self.max_steps)
        except InfraError as err:
            self._end_task(quiet=True)  # the episode is cut short: tear down what can be
            if self.raise_infra_errors:
                raise
            # The episode ends here as a failure; progress stays as last judged.
            reward = self._reward(self._progress, ended=True, success=False)
            return self.observation_parts(), reward, False, True, self._info(invalid=None, infra=err, action=_shown(action))
        terminated = parsed.is_terminal or (not self.success_requires_done and progress >= 1.0)
        truncated = not terminated and self._steps >= self.max_steps
        success = self._succeeded(parsed, progress)
        reward = self._reward(progress, ended=terminated or truncated, success=success)
        self._progress = progress
        info = self._info(invalid=None, infra=None, action=str(parsed))
        info["success"] = success
        if terminated or truncated:
            self._end_task()
        return self.observation_parts(), reward, terminated, truncated, info

    def render(self) -> np.ndarray | None:
        if self.render_mode is None:
            gym.logger.warn("render() called without render_mode; pass render_mode='rgb_array'")
            return None
        if self.screen is None:
            raise CerebellumError("call reset() before render()")
        shot = self._screenshot if self._screenshot is not None else self.device.screenshot(self.screenshot_width)
        return draw_overlay(shot, self.screen, self._scale)

    def close(self) -> None:
        try:
            self._end_task(quiet=True)
        finally:
            if self._owns_device:
                self.device.close()

    # --- extras ------------------------------------------------------------------------------

    def oracle_action(self) -> str:
        """The task's scripted oracle's next action (privileged: an upper bound, not a baseline)."""
        if self.task is None or self.screen is None:
            raise CerebellumError("call reset() before oracle_action()")
        if self._oracle is None:
            self._oracle = self.task.oracle()
        return self._oracle.act(self.screen)

    def search_action(self, budget: int = 500) -> str:
        """The next action of a best-first search on this env's own episode states
        (:func:`cerebellum_gym.search.plan`; privileged: it reads the judge). A plan that reaches
        a success is followed to its end; one that only makes progress gives its first action
        and the search runs again at the next step; with no progress within the budget it gives
        up (``F``: the episode ends, as an agent that finds no way would).

        Raises:
            UnsupportedOperationError: the device has no episode states (an emulator).
        """
        from cerebellum_gym.search import plan

        if self.task is None or self.screen is None:
            raise CerebellumError("call reset() before search_action()")
        kept = self._search_plan
        if kept is None or kept[0] != self._steps or not kept[2]:
            found = plan(self, budget)
            if not found.solved and (not found.actions or found.progress <= self._progress):
                return "F"
            kept = (self._steps, found.actions, found.solved)
        step, actions, complete = kept
        self._search_plan = (step + 1, actions[1:], complete) if len(actions) > 1 else None
        return actions[0]

    def text_candidates(self) -> list[str]:
        """The current task's texts for agents with a discrete typing vocabulary (``K`` choices)."""
        if self.task is None:
            raise CerebellumError("call reset() before text_candidates()")
        return self.task.text_candidates()

    def observation_frames(self, obs: Mapping[str, Any]) -> ObservationFrames | None:
        """The read-only arrays the pixel fields of ``obs`` were copied from, when ``obs`` is
        the observation this env returned last (its pixel arrays are the very arrays it handed
        out); ``None`` otherwise, or without pixels.

        The observation's arrays are fresh copies (a caller may keep or change them); these
        are their sources, which nothing can write to: ``{"screenshot": array, "history":
        {"screenshots": (frame, ...)}}``, shaped as the observation; the screenshot is left out
        when its source is not read-only, and a history frame may be writable (an env restored
        from a pickle): a consumer checks each frame before it relies on its identity. A
        source is the same array object as long as its content is the same one the env keeps:
        the simulator's cached screen while the screen does not change, a history frame for as
        long as it stays in the history. A consumer that has
        already seen one (the dataset recorder, which hashes every image it stores) can know
        it by identity instead of reading its pixels again. ``obs`` equals its sources only
        if nothing changed it in place since the env returned it; that is the caller's promise.

        Example:
            >>> import gymnasium as gym, numpy as np, cerebellum_gym
            >>> env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOn")
            >>> obs, _ = env.reset(seed=0)
            >>> frames = env.unwrapped.observation_frames(obs)
            >>> np.array_equal(frames["screenshot"], obs["screenshot"]), frames["screenshot"].flags.writeable
            (True, False)
            >>> len(frames["history"]["screenshots"]), env.unwrapped.observation_frames(dict(obs, screenshot=obs["screenshot"].copy()))
            (4, None)
        """
        handed = self._handed
        if handed is None or not isinstance(obs, Mapping):
            return None
        shot, stack, history = handed[0](), handed[1](), obs.get("history")
        if shot is None or stack is None or obs.get("screenshot") is not shot or not isinstance(history, Mapping):
            return None
        return handed[2] if history.get("screenshots") is stack else None

    @property
    def progress(self) -> float:
        return self._progress

    # --- episode state as a value --------------------------------------------------------------

    def state_options(self) -> dict[str, Any]:
        """The options an :class:`EpisodeState` must share with the env it is restored into: the
        task set and everything that shapes an observation, a reward or an episode's end."""
        choices = [cls.name for cls in self._task_choices]
        fixed = self._fixed_task
        return {
            "backend": self.device.backend,
            "tasks": choices if fixed is None else [f"{fixed.name}{fixed.params!r}"],
            "pixels": self.pixels,
            "screenshot_width": self.screenshot_width,
            "history_len": self.history.length,
            "history_width": self.history.size[0] if self.history.size is not None else None,
            "max_tree_chars": self.max_tree_chars,
            "max_labels": self.max_labels,
            "max_steps": self._max_steps_override,
            "invalid_action": self.invalid_action,
            "invalid_action_penalty": self.invalid_action_penalty,
            "reward": self.reward_mode,
            "success_requires_done": self.success_requires_done,
            "judge_every_step": self.judge_every_step,
        }

    def clone_state(self) -> EpisodeState:
        """This moment of the episode as an immutable value: the device (the phone's apps,
        databases, files, settings and clock), the task with its parameters, the oracle's
        memory, the history, the labels' random generator, the step count and the reward
        account. :meth:`restore_state` (here, in another env made with the same options, or in
        another process) continues from it exactly as this episode would have.

        Example:
            >>> import gymnasium as gym, cerebellum_gym
            >>> env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOff", pixels=False)
            >>> obs, _ = env.reset(seed=0)
            >>> state = env.unwrapped.clone_state()
            >>> first = env.step("W")
            >>> obs2, _ = env.unwrapped.restore_state(state)
            >>> again = env.step("W")
            >>> again[0]["tree"] == first[0]["tree"], again[1:4] == first[1:4], state.step
            (True, True, 0)

        Raises:
            CerebellumError: no episode has started (call ``reset`` first).
            UnsupportedOperationError: the device's state is not a value (an emulator).
        """
        task = self.task
        if task is None or self.screen is None:
            raise CerebellumError("no episode to clone: call reset() first")
        actions, subtrees, frames = self.history.export()
        shot = self._screenshot if self.pixels else None
        if shot is not None and not frozen(shot):
            shot = np.array(shot)
            shot.flags.writeable = False
        rng = self.np_random
        oracle = self._oracle
        if oracle is not None and not is_state_type(type(oracle)):
            oracle = None  # a foreign oracle: made afresh on demand after a restore
        blob = dumps_state(
            {
                "device": self.device.save_state(),
                "task": task,
                "oracle": oracle,
                "screen": self.screen,
                "rng": (type(rng.bit_generator).__name__, rng.bit_generator.state, self._np_random_seed),
                "history": (actions, subtrees, len(frames)),
                "screenshot": shot is not None,
                "counters": (self._steps, self.max_steps, self._progress, self._initial_progress, self._torn_down),
            }
        )
        spec = self.spec
        return EpisodeState(
            env_id=spec.id if spec is not None else "",
            options=self.state_options(),
            step=self._steps,
            task=task.name,
            blob=blob,
            frames=(*frames, shot) if shot is not None else tuple(frames),
        )

    def restore_state(self, state: EpisodeState) -> tuple[ObsType, dict[str, Any]]:
        """Continue from ``state`` (from :meth:`clone_state`): the episode running here ends
        (its task torn down), and the observation and info returned are the state's; every
        later step is what the original episode's would have been. Nothing is shared with the
        state or its other copies: it can be restored any number of times.

        Raises:
            StateError: a state taken with other options or by another version, or bytes that
                are not a state.
        """
        parts, info = self._restore(state)
        return self._handout(parts), info

    def _restore(self, state: EpisodeState) -> tuple[ObservationParts, dict[str, Any]]:
        if isinstance(state, list | tuple):
            raise StateError(
                "one env restores one episode state; a list of states (one per env) is for cerebellum-gym's vector envs "
                "(gymnasium's SyncVectorEnv and AsyncVectorEnv give every env the same options)"
            )
        if not isinstance(state, EpisodeState):
            raise StateError(f"restore_state takes an EpisodeState (clone_state's), not {type(state).__name__}")
        if state.version != STATE_FORMAT:
            raise StateError(f"an episode state of format {state.version}; this cerebellum-gym reads format {STATE_FORMAT}")
        mine = self.state_options()
        if dict(state.options) != mine:
            differ = sorted(k for k in {*mine, *state.options} if state.options.get(k) != mine.get(k))
            shown = ", ".join(f"{k}: state {state.options.get(k)!r}, env {mine.get(k)!r}" for k in differ)
            raise StateError(f"this episode state was taken with other env options ({shown}); make the env with the same options")
        spec = self.spec
        if state.env_id and spec is not None and spec.id != state.env_id:
            raise StateError(f"this episode state comes from {state.env_id!r}, not {spec.id!r}")
        parts = loads_state(state.blob)
        try:
            steps, max_steps, progress, initial, torn_down = parts["counters"]
            name, bit_state, seed = parts["rng"]
            actions, subtrees, count = parts["history"]
            task, screen = parts["task"], parts["screen"]
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"an episode state with missing parts: {exc}") from None
        if not isinstance(task, Task) or not isinstance(screen, LabelledScreen):
            raise StateError("an episode state must hold a task and a labelled screen")
        if name not in _BIT_GENERATORS:
            raise StateError(f"an episode state's random generator {name!r} is not one of {sorted(_BIT_GENERATORS)}")
        if count > len(state.frames) or (parts["screenshot"] and count != len(state.frames) - 1):
            raise StateError("an episode state whose frames do not match its history")
        self._end_task(quiet=True)
        self.device.load_state(parts["device"])
        generator = np.random.Generator(getattr(np.random, name)())
        generator.bit_generator.state = bit_state
        self._np_random, self._np_random_seed = generator, seed
        self.task = task
        task.resume(self.device)
        self._oracle = parts["oracle"]
        self.screen = screen
        self.history.load(tuple(actions), tuple(subtrees), state.frames[:count])
        self._screenshot = state.frames[count] if parts["screenshot"] else None
        self._steps, self.max_steps = int(steps), int(max_steps)
        self._progress, self._initial_progress = float(progress), float(initial)
        self._torn_down = bool(torn_down)
        self._goal_memo = None
        self._handed = None
        self._search_plan = None
        return self.observation_parts(), self._info(invalid=None, infra=None, action="")

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_handed"] = None  # weak references do not pickle; a copy has handed out nothing yet
        return state

    # --- internals ---------------------------------------------------------------------------

    def _validate(self, action: Action) -> Any:
        """The element the action targets (if any); raise if the action is illegal here."""
        screen = self.screen
        assert screen is not None
        if action.label is not None:
            node = screen.node_for(action.label)
            if node is None:
                shown = ", ".join(screen.labels[:12]) + (" …" if len(screen.labels) > 12 else "")
                raise InvalidActionError(str(action), f"label {action.label!r} is not on the current screen (visible: {shown or 'none'})")
            return node
        if action.code == "K":
            if screen.focused is None:
                raise InvalidActionError(str(action), "no text field is focused; tap one first (T <label>)")
            return screen.focused
        if action.code in "UD" and screen.scrollable is None:
            raise InvalidActionError(str(action), f"nothing on this screen scrolls {'up' if action.code == 'U' else 'down'}")
        if action.code in "LR" and _horizontal_target(screen) is None:
            raise InvalidActionError(str(action), "nothing on this screen scrolls sideways (no list or slider)")
        return None

    def _perform(self, action: Action, node: Any) -> None:
        device = self.device
        code = action.code
        if code == "T":
            device.tap(*node.center)
        elif code == "P":
            device.long_press(*node.center)
        elif code == "K":
            assert action.text is not None
            device.type_text(action.text)
        elif code in "UDLR" and (surface := _drawing_surface(self.screen, code)) is not None:
            # A scrollable node with nothing in it is a drawing surface (a canvas): the swipe runs
            # from its centre to an edge, as AndroidWorld's scroll actuation swipes, so the four
            # codes draw four different strokes.
            left, top, right, bottom = surface.bounds
            x, y = (left + right) // 2, (top + bottom) // 2
            end = {"D": (x, top), "U": (x, bottom - 1), "R": (left, y), "L": (right - 1, y)}[code]
            device.swipe(x, y, *end)
        elif code in "UD":
            assert self.screen is not None and self.screen.scrollable is not None
            left, top, right, bottom = self.screen.scrollable.bounds
            x, upper, lower = (left + right) // 2, top + (bottom - top) // 4, top + 3 * (bottom - top) // 4
            # "Scroll down" reveals what is below: the finger moves up.
            if code == "D":
                device.swipe(x, lower, x, upper)
            else:
                device.swipe(x, upper, x, lower)
        elif code in "LR":
            assert self.screen is not None
            target = _horizontal_target(self.screen)
            assert target is not None
            left, top, right, bottom = target.bounds
            y = (top + bottom) // 2
            if target.is_slider:
                # On a slider the code names where the thumb goes: R drags it to the right end.
                start, end = target.center[0], (right - 1 if code == "R" else left)
            else:
                quarter = (right - left) // 4
                # "Scroll right" reveals what is to the right: the finger moves left.
                start, end = (right - quarter, left + quarter) if code == "R" else (left + quarter, right - quarter)
            device.swipe(start, y, end, y)
        elif code == "B":
            device.press_key(KEYCODE_BACK)
        elif code == "H":
            device.press_key(KEYCODE_HOME)
        elif code == "W":
            device.wait(WAIT_SECONDS)
        # F and I touch nothing.

    def _history_shot(self) -> np.ndarray | None:
        """The screen being acted on, at history size when the device renders that cheaply."""
        if not self.pixels or self.history.size is None:
            return None
        if self.device.renders_any_width:
            return self.device.screenshot(self.history.size[0])
        return self._screenshot

    def _observe(self) -> None:
        if self.pixels:
            self._screenshot = self.device.screenshot(self.screenshot_width)
        self.screen = label_screen(self.device.ui_tree(), self.np_random, self.max_labels)

    def _succeeded(self, action: Action, progress: float) -> bool:
        """Whether the episode succeeds with this step: the goal holds and, by default, the agent said ``F``."""
        return bool(progress >= 1.0 and (action.code == "F" or not self.success_requires_done))

    def _reward(self, progress: float, *, ended: bool, success: bool) -> float:
        """This step's reward under ``self.reward_mode`` (docs/rewards.md has the argument).

        Args:
            progress: the task's progress after this step (``self._progress`` is before it).
            ended: this step ends the episode (terminated or truncated).
            success: the episode succeeded (only meaningful when ``ended``).
        """
        if self.reward_mode == "progress_delta":
            return progress - self._progress
        if self.reward_mode == "sparse":
            return float(success) if ended else 0.0
        # "shaped": potential Phi = progress - initial progress (zero at reset). Each step pays the
        # change in Phi; the last step pays success - Phi(before it), so the shaping telescopes away
        # and the undiscounted return is exactly the final success.
        if ended:
            return float(success) - (self._progress - self._initial_progress)
        return progress - self._progress

    def _judge(self, answer: str | None) -> float:
        assert self.task is not None
        return float(min(1.0, max(0.0, self.task.progress(self.device, answer))))

    # --- when to judge, and the end of an episode (the task's protocol) ----------------------

    def _judges_every_step(self) -> bool:
        """Per-step judging: the task's own mode, or the user's opt-in (checked at reset)."""
        assert self.task is not None
        return self.task.judge_mode == "per_step" or self.judge_every_step

    def _check_judging(self, task: Task) -> None:
        if self.judge_every_step and task.judge_mode == "on_end" and not task.judge_side_effect_free:
            raise ConfigError(
                f"judge_every_step=True, but {task.name}'s judge is not declared side-effect free "
                "(judging it every step could move the UI or change the device); it is judged once, when the episode ends"
            )

    def _judge_step(self, answer: str | None, *, ends: bool) -> float:
        """The progress after a step: judged now when the task judges every step or the
        episode ends here (an ``on_end`` task's one judgement), else unchanged (0)."""
        if self._judges_every_step() or ends:
            return self._judge(answer)
        return self._progress

    def _end_task(self, *, quiet: bool = False) -> None:
        """The task's ``tear_down``, once per episode. ``quiet`` (a cut-short episode, close)
        keeps a failing tear-down from hiding what happened first."""
        if self._torn_down or self.task is None:
            return
        self._torn_down = True
        try:
            self.task.tear_down(self.device)
        except CerebellumError as exc:
            if not quiet:
                raise
            gym.logger.warn(f"tear_down of {self.task.name} failed: {type(exc).__name__}: {exc}")

    def _reject(self, action: ActType, err: InvalidActionError) -> PartsStep:
        """The invalid-action path: raise (and give the step back), or penalize and leave the device as it is."""
        if self.invalid_action == "raise":
            self._steps -= 1
            raise err
        truncated = self._steps >= self.max_steps
        progress = self._progress
        if truncated and not self._judges_every_step():
            # The budget ends the episode: its one judgement, as after any last step.
            progress = self._judge(None)
        success = bool(truncated and progress >= 1.0 and not self.success_requires_done)
        reward = self.invalid_action_penalty + self._reward(progress, ended=truncated, success=success)
        self._progress = progress
        info = self._info(invalid=err, infra=None, action=_shown(action))
        info["success"] = success
        if truncated:
            self._end_task()
        return self.observation_parts(), reward, False, truncated, info

    def observation_parts(self) -> ObservationParts:
        """The current observation's parts, immutable (``core/observation.py``): what every
        form of the observation (fresh arrays, recorder sources, a batch's rows) is made from."""
        screen, task = self.screen, self.task
        if screen is None or task is None:
            raise CerebellumError("call reset() before observation_parts()")
        # tuple.__new__: a NamedTuple's own __new__ is a Python function, twice the cost per step.
        return tuple.__new__(
            ObservationParts,
            (
                # The step's memoised goal: the info shows it too, and a task may build it each time.
                self._goal()[:MAX_GOAL_CHARS],
                screen.text(self.max_tree_chars),
                screen.labels,
                _action_mask(screen),
                label_mask(self.max_labels, len(screen.labels)),
                self.history.parts(),
                self._screenshot if self.pixels else None,
            ),
        )

    def source_observation(self) -> ObsType:
        """The current observation with nothing copied, for a consumer that only reads it
        (:func:`~cerebellum_gym.core.observation.source_observation` of :meth:`observation_parts`)."""
        return source_observation(self.observation_parts())

    def _handout(self, parts: ObservationParts) -> ObsType:
        """The observation ``reset`` and ``step`` return: ``parts`` as fresh arrays (and what
        their pixels were copied from remembered, for :meth:`observation_frames`)."""
        obs = fresh_observation(parts)
        if self.pixels:
            # What the pixel arrays handed out were copied from (observation_frames).
            frames: ObservationFrames = {"history": {"screenshots": parts.history.frames}}
            if frozen(parts.screenshot):
                frames["screenshot"] = parts.screenshot
            self._handed = (weakref.ref(obs["screenshot"]), weakref.ref(obs["history"]["screenshots"]), frames)
        return obs

    def _goal(self) -> str:
        """The task's goal, worked out once per step (the observation and the info both show it;
        a task may build it from its parameters each time)."""
        memo = self._goal_memo
        if memo is not None and memo[0] == self._steps and memo[1] is self.task:
            return memo[2]
        assert self.task is not None
        goal = self.task.goal
        self._goal_memo = (self._steps, self.task, goal)
        return goal

    def _info(self, *, invalid: InvalidActionError | None, infra: InfraError | None, action: str) -> dict[str, Any]:
        assert self.task is not None
        return {
            **self.device.info_entries(),  # the env's own entries below win a clash
            "task": self.task.name,
            "goal": self._goal(),
            "step": self._steps,
            "max_steps": self.max_steps,
            "action": action,
            "progress": self._progress,
            "success": False,
            "invalid_action": invalid is not None,
            "error": invalid.reason if invalid is not None else "",
            "infra_error": f"{type(infra).__name__}: {infra}" if infra is not None else "",
            "judge_error": self.task.judge_error,
        }


#: The random generators an episode state may name (numpy's bit generators).
_BIT_GENERATORS: Final = frozenset({"PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937"})


def _action_mask(screen: LabelledScreen) -> np.ndarray:
    """The legal codes on ``screen``, worked out once per screen tree: shared and read-only
    (observations get copies, a batch copies it into its rows)."""
    return screen.derived("action_mask", lambda _: _compute_action_mask(screen))


def _compute_action_mask(screen: LabelledScreen) -> np.ndarray:
    mask = np.ones(len(CODES), np.int8)
    if not screen.labels:
        mask[CODE_INDEX["T"]] = mask[CODE_INDEX["P"]] = 0
    if screen.focused is None:
        mask[CODE_INDEX["K"]] = 0
    if screen.scrollable is None:
        mask[CODE_INDEX["U"]] = mask[CODE_INDEX["D"]] = 0
    if _horizontal_target(screen) is None:
        mask[CODE_INDEX["L"]] = mask[CODE_INDEX["R"]] = 0
    mask.flags.writeable = False
    return mask


def _drawing_surface(screen: LabelledScreen | None, code: str) -> Any:
    """The node a U/D/L/R swipe goes to when it is a drawing surface (scrollable, with no
    children: nothing in it to scroll), else ``None``."""
    if screen is None:
        return None
    node = screen.scrollable if code in "UD" else _horizontal_target(screen)
    return node if node is not None and node.scrollable and not node.children else None


def _horizontal_target(screen: LabelledScreen) -> Any:
    return screen.derived("horizontal_target", lambda _: _find_horizontal_target(screen))


def _find_horizontal_target(screen: LabelledScreen) -> Any:
    for node in screen.nodes:
        if node.is_slider:
            return node
    return screen.scrollable


def _shown(action: object) -> str:
    """The action as ``info["action"]`` shows it, cut to :data:`MAX_SHOWN_ACTION_CHARS`. A
    mapping shows its NumPy scalars as plain numbers, so the same action built from plain JSON
    (a recorded one, replayed) shows the same."""
    try:
        if isinstance(action, Mapping):
            action = plain_structured(action)
        text = action if isinstance(action, str) else str(action)
    except Exception:  # an object whose __str__ fails is still an (invalid) action
        text = f"<{type(action).__name__}>"
    return text if len(text) <= MAX_SHOWN_ACTION_CHARS else text[: MAX_SHOWN_ACTION_CHARS - 1] + "…"


def _resolve_tasks(task: TaskSpec, catalog: TaskCatalog) -> tuple[list[type[Task]], Task | None]:
    if task is None:
        return [catalog.get(name) for name in catalog.names()], None
    if isinstance(task, Task):
        return [type(task)], task
    if isinstance(task, type) and issubclass(task, Task):
        return [task], None
    if isinstance(task, str):
        return [catalog.get(task)], None
    names = list(task)
    if not names:
        raise ValueError("task list is empty")
    return [catalog.get(name) for name in names], None
