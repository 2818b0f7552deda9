"""Search over the action codes on an env's own episode states (issue 37): a privileged baseline.

:func:`plan` runs a best-first search from the env's current moment: each node is an episode
state (``clone_state``), each edge one move (a tap or a long press on a labelled element, Back, a
swipe; one of the task's texts not yet in a field typed into a field, with the tap that focuses
it, the texts in the task's order first; where the goal is a question, ``F`` with each of the
goal's quoted strings and, on a screen reached through an element that shows the goal's words,
each text the screen shows, every answer once). Nodes are taken in order of the task's progress
(its judge, read through ``info["progress"]``), then of the goal's words shown by the elements
tapped on the way plus three points for each of the task's texts in a field (where the judge
gives no progress until the end, these are the only guide), then the shallowest. A screen seen
before is expanded again only when another element led to it (a mode the tree does not show:
the camera's video mode gives the photo mode's screen). It stops at the first success (the goal
holds and ``F`` ends the episode with it) or when ``budget`` steps are spent, and leaves the env
where it found it. The search shows what the judges reward: it finds a task's goal without being
told the way, where the judge gives progress on the way, and shortcuts the oracles miss; an
answer it gives is one the judge accepted when asked (a yes/no question falls to trying both
quoted answers), not one it read. It never reads the oracle or the task's parameters, only the
goal, the task's typing texts (``text_candidates``, what every agent may read), the screens and
the judge's progress.

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
from collections.abc import Sequence
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
    # The goal's words the elements tapped on the way showed (a set: tapping "Phone" three
    # times is not three times the way to the goal).
    seen_words: frozenset[str] = field(compare=False, default=frozenset())
    gain: int = field(compare=False, default=0)
    signature: tuple[Any, ...] = field(compare=False, default=())
    # Reached by a tap on an element that shows the goal's words: its texts are worth answering.
    asks: bool = field(compare=False, default=False)


def screen_signature(screen: LabelledScreen) -> tuple[Any, ...]:
    """What tells two screens apart for the search (the labels are drawn at random, so the
    elements' texts, descriptions, ids, bounds and states, not the tree's text)."""
    return tuple((n.text, n.content_desc, n.resource_id, n.bounds, n.checked, n.selected, n.focused) for n in screen.root.iter())


_QUOTED = re.compile(r"(?<![\w'])'([^']+)'(?![\w'])|\"([^\"]+)\"")
_QUESTION = re.compile(r"^\s*(what|how|which|is|are|was|were|did|do|does|when|where|who)\b|\?", re.IGNORECASE)


def goal_quotes(goal: str) -> list[str]:
    """The goal's quoted strings, in order ("'True'", "\"Date, Item, Amount\"")."""
    return list(dict.fromkeys(a or b for a, b in _QUOTED.findall(goal)))


def is_question(goal: str) -> bool:
    """Whether the goal asks for an answer (then ``F <answer>`` is worth trying)."""
    return _QUESTION.search(goal) is not None


def shown_texts(screen: LabelledScreen) -> list[str]:
    """The short texts the screen shows (candidate answers to a question), in tree order."""
    found = (n.text.strip() for n in screen.root.iter())
    return list(dict.fromkeys(t for t in found if t and len(t) <= 60))


def legal_actions(screen: LabelledScreen, texts: Sequence[str], answers: Sequence[str] = ()) -> list[tuple[str, ...]]:
    """The moves the search tries on ``screen``, each one or two actions: a tap on every labelled
    element, a long press on those that take one, the first of the task's texts not yet on
    screen typed into the focused field or into an editable field after a tap on it (a form's field
    and its text are one move, so a form is as deep as its fields), scrolls, Back, and ``F``
    with each of ``answers``."""
    moves: list[tuple[str, ...]] = [(f"T {label}",) for label in screen.labels]
    moves += [(f"P {label}",) for label, node in zip(screen.labels, screen.nodes, strict=True) if node.long_clickable]
    # Only the first text not yet shown, into any field: texts go in the order the task lists
    # them (a form's order), and a form of n fields costs n moves, not n! orders.
    typeable = [t for t in texts if t not in filled(screen)]
    for label, node in zip(screen.labels, screen.nodes, strict=True):
        if node.is_editable:
            tap = () if node is screen.focused else (f"T {label}",)
            moves += [(*tap, f"K {text}") for text in typeable]
    if screen.focused is not None and all(n is not screen.focused for n in screen.nodes):
        moves += [(f"K {text}",) for text in typeable]
    # A swipe is tried even where nothing scrolls (the home screen's swipe up opens the app drawer).
    moves += [("D",), ("U",), ("B",)]
    return moves + [(f"F {answer}",) for answer in answers]


def _words(text: str) -> set[str]:
    """Lower-case words of three letters or more, hyphens and spaces inside words dropped
    ("Wi‑Fi" and "wifi" are one word)."""
    cleaned = re.sub(r"(?<=\w)[-\u2010\u2011](?=\w)", "", text.lower())
    return {w for w in re.findall(r"[^\W_]+", cleaned) if len(w) >= 3}


def target(screen: LabelledScreen, action: str) -> tuple[str, str, str] | None:
    """The element a tap or a long press acts on (its text, description and id); None for
    other actions."""
    code, _, label = action.partition(" ")
    node = screen.node_for(label) if code in ("T", "P") else None
    return None if node is None else (node.text, node.content_desc, node.resource_id)


def relevance(screen: LabelledScreen, action: str, goal: set[str]) -> frozenset[str]:
    """The goal's words the element an action targets shows (none for no target)."""
    code, _, label = action.partition(" ")
    node = screen.node_for(label) if code in ("T", "P") else None
    if node is None:
        return frozenset()
    return frozenset(_words(" ".join(n.text + " " + n.content_desc for n in node.iter())) & goal)


def filled(screen: LabelledScreen) -> set[str]:
    """The texts in the screen's editable fields."""
    return {n.text for n in screen.root.iter() if n.is_editable}


def typed_score(screen: LabelledScreen, texts: Sequence[str]) -> int:
    """Three points for each of the task's texts in a field of the screen (a form filled in:
    where the judge gives nothing before the form is saved, the texts typed are the guide)."""
    return 3 * len(filled(screen).intersection(texts))


def plan(env: SearchableEnv, budget: int = 500) -> Plan:
    """Actions from the env's current moment to a success (ending with ``F``), found by a
    best-first search of at most ``budget`` steps; when none is found, the way to the most
    progress seen, or where no progress was seen to the most of the goal's words (possibly
    empty). The env is left as it was (its state restored).

    Raises:
        UnsupportedOperationError: the env's device has no episode states (an emulator).
    """
    root = env.clone_state()
    assert env.task is not None and env.screen is not None
    quotes = goal_quotes(env.task.goal)
    texts = list(dict.fromkeys([*env.text_candidates(), *quotes]))
    question = is_question(env.task.goal)
    answered: set[str] = set()
    goal = _words(f"{env.task.goal} {env.task.app}")
    counter = itertools.count()
    seen: set[Any] = {screen_signature(env.screen)}
    # Priority: progress first, then the goal shown and tapped on the way, then the deepest
    # (a greedy dive: a task's way is often ten steps of one screen after another).
    frontier = [_Node((-env.progress, 0, 0, next(counter)), root, (), frozenset(), 0, screen_signature(env.screen))]
    # The most progress seen, then the most of the goal, then the shortest way.
    best: tuple[float, int, int, tuple[str, ...]] = (env.progress, 0, 0, ())
    spent = 0
    try:
        while frontier and spent < budget:
            node = heapq.heappop(frontier)
            env.restore_state(node.state)
            screen = env.screen
            assert screen is not None
            answers: list[str] = []
            if question:
                offered = [*quotes, *shown_texts(screen)] if node.asks else quotes
                answers = [a for a in offered if a not in answered]
                answered.update(answers)
            for tried, move in enumerate(legal_actions(screen, texts, answers)):
                if spent >= budget:
                    break
                if tried:
                    env.restore_state(node.state)
                hit = relevance(screen, move[0], goal)
                words = node.seen_words | hit
                # A question's way leads to the screen that shows what is asked about: the goal's
                # words seen count once. A task's way often taps several elements naming its
                # app or folder: every tap that shows the goal's words counts.
                gain = len(words) if question else node.gain + len(hit)
                ended = False
                for action in move:
                    _, _, terminated, truncated, info = env.step(action)
                    spent += 1
                    if terminated or truncated or info["invalid_action"]:
                        ended = True
                        break
                path = (*node.actions, *move)
                if info["success"]:
                    return Plan(list(path), float(info["progress"]), True)
                progress = float(info["progress"])
                if progress >= 1.0 and not ended:
                    after = env.clone_state()
                    if env.step("F")[4]["success"]:
                        return Plan([*path, "F"], progress, True)
                    spent += 1
                    env.restore_state(after)
                if ended:
                    continue
                assert env.screen is not None
                score = gain + typed_score(env.screen, texts)
                if (progress, score, -len(path)) > best[:3]:
                    best = (progress, score, -len(path), path)
                signature = screen_signature(env.screen)
                if signature == node.signature and move[0][0] != "P":
                    continue  # nothing visible changed (a long press may select a field's text)
                # A screen seen before is new again when another element led to it: a mode
                # the tree does not show (the camera's video mode gives the photo mode's screen).
                key = (signature, move[0][0], target(screen, move[0]))
                if key in seen or (signature in seen and key[2] is None):
                    continue
                seen.update((key, signature))
                child = _Node((-progress, -score, len(path), next(counter)), env.clone_state(), path, words, gain, signature, bool(hit))
                heapq.heappush(frontier, child)
        return Plan(list(best[3]), best[0], False)
    finally:
        env.restore_state(root)


__all__ = ["Plan", "SearchableEnv", "legal_actions", "plan", "screen_signature"]
