"""Search over the action codes on an env's own episode states (issue 37): a privileged baseline.

:func:`plan` runs a best-first search from the env's current moment: each node is an episode
state (``clone_state``), each edge one legal action (a tap or a long press on a labelled element,
Back, a scroll where something scrolls, typing one of the task's texts into a focused field), and
nodes are taken in order of the task's progress (its judge, read through ``info["progress"]``),
then of the goal's words shown by the elements tapped on the way (where the judge gives no
progress until the end, the goal's words are the only guide), then depth; screens already seen
are not expanded again. It stops at the first success (the
goal holds and ``F`` ends the episode with it) or when ``budget`` steps are spent, and leaves the
env where it found it. The search shows what the judges reward: it finds a task's goal without
being told the way, where the judge gives progress on the way, and shortcuts the oracles miss.

Example:
    >>> import gymnasium as gym, cerebellum_gym
    >>> env = gym.make("Cerebellum-Sim-v0", task="SystemWifiTurnOff", pixels=False)
    >>> _ = env.reset(seed=0)
    >>> found = plan(env.unwrapped, budget=400)
    >>> found.solved, found.actions[-1], env.unwrapped.progress
    (True, 'F', 0.0)
"""

from __future__ import annotations

import heapq
import itertools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from cerebellum_gym.core.som import LabelledScreen
    from cerebellum_gym.core.state import EpisodeState
    from cerebellum_gym.tasks.base import Task


class SearchableEnv(Protocol):
    """What the search needs of an env (``CerebellumEnv`` has it): its episode states, a step,
    and the task, screen and progress of the moment."""

    task: Task | None
    screen: LabelledScreen | None

    @property
    def progress(self) -> float: ...

    def clone_state(self) -> EpisodeState: ...

    def restore_state(self, state: EpisodeState) -> Any: ...

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]: ...

    def text_candidates(self) -> list[str]: ...


class Plan(NamedTuple):
    """What a search found: the actions, the progress they reach, and whether they succeed
    (then the last action is ``F``)."""

    actions: list[str]
    progress: float
    solved: bool


@dataclass(order=True)
class _Node:
    priority: tuple[float, int, int, int]
    state: EpisodeState = field(compare=False)
    actions: tuple[str, ...] = field(compare=False)
    seen_words: int = field(compare=False, default=0)


def screen_signature(screen: LabelledScreen) -> tuple[Any, ...]:
    """What tells two screens apart for the search (the labels are drawn at random, so the
    elements' texts, descriptions, ids, bounds and states, not the tree's text)."""
    return tuple((n.text, n.content_desc, n.resource_id, n.bounds, n.checked, n.selected, n.focused) for n in screen.root.iter())


def legal_actions(screen: LabelledScreen, texts: list[str]) -> list[str]:
    """The actions the search tries on ``screen``: a tap on every labelled element, a long press
    on those that take one, typing each of the task's texts into a focused field, scrolls where
    something scrolls, Back."""
    actions = [f"T {label}" for label in screen.labels]
    for label in screen.labels:
        node = screen.node_for(label)
        if node is not None and node.long_clickable:
            actions.append(f"P {label}")
    if screen.focused is not None:
        actions += [f"K {text}" for text in texts]
    # A swipe is tried even where nothing scrolls (the home screen's swipe up opens the app drawer).
    return [*actions, "D", "U", "B"]


def _words(text: str) -> set[str]:
    """Lower-case words of three letters or more, hyphens and spaces inside words dropped
    ("Wi‑Fi" and "wifi" are one word)."""
    cleaned = re.sub(r"(?<=\w)[-\u2010\u2011](?=\w)", "", text.lower())
    return {w for w in re.findall(r"[^\W_]+", cleaned) if len(w) >= 3}


def relevance(screen: LabelledScreen, action: str, goal: set[str]) -> int:
    """How many of the goal's words the element an action targets shows (0 for no target)."""
    code, _, label = action.partition(" ")
    if code not in ("T", "P"):
        return 0
    node = screen.node_for(label)
    if node is None:
        return 0
    shown = _words(" ".join(n.text + " " + n.content_desc for n in node.iter()))
    return len(shown & goal)


def plan(env: SearchableEnv, budget: int = 500) -> Plan:
    """Actions from the env's current moment to a success (ending with ``F``), found by a
    best-first search of at most ``budget`` steps; when none is found, the way to the most
    progress seen, or where no progress was seen to the most of the goal's words (possibly
    empty). The env is left as it was (its state restored).

    Raises:
        UnsupportedOperationError: the env's device has no episode states (an emulator).
    """
    root = env.clone_state()
    texts = list(env.text_candidates())
    assert env.task is not None
    goal = _words(f"{env.task.goal} {env.task.app}")
    counter = itertools.count()
    assert env.screen is not None
    seen = {screen_signature(env.screen)}
    # Priority: progress first, then the goal's words seen on the way, then depth.
    frontier = [_Node((-env.progress, 0, 0, next(counter)), root, (), 0)]
    # The most progress seen, then the most of the goal's words, then the shortest way.
    best: tuple[float, int, int, tuple[str, ...]] = (env.progress, 0, 0, ())
    spent = 0
    try:
        while frontier and spent < budget:
            node = heapq.heappop(frontier)
            env.restore_state(node.state)
            assert env.screen is not None
            screen = env.screen
            for tried, action in enumerate(legal_actions(screen, texts)):
                if spent >= budget:
                    break
                if tried:
                    env.restore_state(node.state)
                gain = node.seen_words + relevance(screen, action, goal)
                _, _, terminated, truncated, info = env.step(action)
                spent += 1
                path = (*node.actions, action)
                if info["success"]:
                    return Plan(list(path), float(info["progress"]), True)
                progress = float(info["progress"])
                if progress >= 1.0 and not terminated and not truncated:
                    after = env.clone_state()
                    if env.step("F")[4]["success"]:
                        return Plan([*path, "F"], progress, True)
                    spent += 1
                    env.restore_state(after)
                if terminated or truncated or info["invalid_action"]:
                    continue
                if (progress, gain, -len(path)) > best[:3]:
                    best = (progress, gain, -len(path), path)
                signature = screen_signature(env.screen)
                if signature in seen:
                    continue
                seen.add(signature)
                heapq.heappush(frontier, _Node((-progress, -gain, len(path), next(counter)), env.clone_state(), path, gain))
        return Plan(list(best[3]), best[0], False)
    finally:
        env.restore_state(root)


__all__ = ["Plan", "SearchableEnv", "legal_actions", "plan", "screen_signature"]
