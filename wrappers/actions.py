"""A flat ``Discrete`` action space over the compact code set, with masks for sb3-contrib's ``MaskablePPO``.

Layout of the flat index (codes left out of ``codes`` take no room)::

    [T slot 0..L-1] [P slot 0..L-1] [K text 0..C-1] [F text 0..C-1] [U D L R B H W F I]

``L`` is ``max_labels``; ``C`` is ``max_texts``, the number of candidate strings a discrete agent
may type (``K``) or answer with (``F {text}``), taken from the task's ``text_candidates()``.
An index is legal when its code is legal on this screen (the env's ``action_mask``), its label
slot is filled, and its text slot has a candidate. :class:`FlatActionLayout` is the pure codec
(used as well by :class:`~cerebellum_gym.agents.sb3_agent.SB3Agent` on raw observations);
:class:`FlatActions` is the gymnasium wrapper.

Example:
    >>> layout = FlatActionLayout(max_labels=2, max_texts=1)
    >>> layout.n, [layout.decode(i, ("QO", "WC"), ("Alice",)) for i in range(layout.n)]
    (15, ['T QO', 'T WC', 'P QO', 'P WC', 'K Alice', 'F Alice', 'U', 'D', 'L', 'R', 'B', 'H', 'W', 'F', 'I'])
    >>> layout.encode("K Alice", ("QO", "WC"), ("Alice",))
    4
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from cerebellum_gym.core.actions import CODE_INDEX, CODES, parse_action
from cerebellum_gym.core.spaces import UnicodeText
from cerebellum_gym.errors import InvalidActionError

#: Codes that are legal on every screen; a layout keeps at least one so a mask is never empty.
ALWAYS_LEGAL = "BHWFI"
#: Codes that take neither a label nor a text in the flat layout.
PLAIN_CODES = "UDLRBHWFI"
MAX_CANDIDATE_CHARS = 1000


@dataclass(frozen=True)
class FlatActionLayout:
    """The pure flat-index codec (see the module docstring).

    Attributes:
        max_labels: label slots for ``T`` and ``P``.
        max_texts: candidate text slots for ``K`` and ``F {text}``.
        codes: the codes offered, a subset of ``CODES`` in any order (kept in ``CODES`` order).
            Leaving out rarely useful codes (``P``, ``I``) shrinks the space an RL agent explores.
        answer_texts: whether ``F {text}`` slots exist (question tasks answer with a candidate).
    """

    max_labels: int = 64
    max_texts: int = 4
    codes: str = CODES
    answer_texts: bool = True

    def __post_init__(self) -> None:
        unknown = set(self.codes) - set(CODES)
        if unknown:
            raise ValueError(f"unknown codes {''.join(sorted(unknown))!r}; choose from {CODES}")
        if not set(self.codes) & set(ALWAYS_LEGAL):
            raise ValueError(f"codes must include one of {ALWAYS_LEGAL} (always legal), so a mask is never empty")
        if self.max_labels <= 0 or self.max_texts < 0:
            raise ValueError("max_labels must be positive and max_texts >= 0")
        object.__setattr__(self, "codes", "".join(c for c in CODES if c in self.codes))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict; ``FlatActionLayout(**d)`` inverts it."""
        return asdict(self)

    @property
    def segments(self) -> list[tuple[str, int]]:
        """``(name, size)`` of each segment in layout order: ``T``, ``P``, ``K``, ``F text``, then plain codes."""
        segs: list[tuple[str, int]] = []
        if "T" in self.codes:
            segs.append(("T", self.max_labels))
        if "P" in self.codes:
            segs.append(("P", self.max_labels))
        if "K" in self.codes:
            segs.append(("K", self.max_texts))
        if "F" in self.codes and self.answer_texts:
            segs.append(("F text", self.max_texts))
        segs.extend((c, 1) for c in PLAIN_CODES if c in self.codes)
        return segs

    @property
    def n(self) -> int:
        """Size of the ``Discrete`` space."""
        return sum(size for _, size in self.segments)

    def _locate(self, index: int) -> tuple[str, int]:
        if not 0 <= index < self.n:
            raise InvalidActionError(index, f"flat action {index} outside 0..{self.n - 1}")
        for name, size in self.segments:
            if index < size:
                return name, index
            index -= size
        raise AssertionError("unreachable")

    def _offset(self, name: str) -> int:
        start = 0
        for seg, size in self.segments:
            if seg == name:
                return start
            start += size
        raise KeyError(name)

    def decode(self, index: int, labels: Sequence[str], texts: Sequence[str] = ()) -> str:
        """The action string of flat ``index`` on a screen showing ``labels``.

        Raises:
            InvalidActionError: the index is out of range or names an empty label/text slot.
        """
        name, slot = self._locate(int(index))
        if name in ("T", "P"):
            if slot >= len(labels):
                raise InvalidActionError(index, f"{name} label slot {slot} is empty: {len(labels)} labels are on screen")
            return f"{name} {labels[slot]}"
        if name in ("K", "F text"):
            if slot >= len(texts):
                raise InvalidActionError(index, f"text slot {slot} is empty: {len(texts)} candidate texts")
            return f"{name[0]} {texts[slot]}"
        return name

    def encode(self, action: str, labels: Sequence[str], texts: Sequence[str] = ()) -> int:
        """The flat index of an action string (for demonstrations, e.g. the oracle's).

        Raises:
            InvalidActionError: the action is not representable in this layout.
        """
        parsed = parse_action(action)
        code = parsed.code
        if code not in self.codes:
            raise InvalidActionError(action, f"code {code} is not in this layout's codes {self.codes!r}")
        try:
            if code in "TP":
                slot = list(labels).index(str(parsed.label))
                if slot >= self.max_labels:
                    raise ValueError
                return self._offset(code) + slot
            if code == "K" or (code == "F" and parsed.text is not None):
                name = "K" if code == "K" else "F text"
                slot = list(texts[: self.max_texts]).index(str(parsed.text))
                return self._offset(name) + slot
        except (ValueError, KeyError):
            raise InvalidActionError(action, "its label or text has no slot in this layout") from None
        return self._offset(code)

    def mask(self, action_mask: np.ndarray | Sequence[int], n_labels: int, n_texts: int) -> np.ndarray:
        """Legal flat actions (bool array of length :attr:`n`) on a screen with ``n_labels`` labels."""
        legal = np.asarray(action_mask, dtype=bool)
        out = np.zeros(self.n, dtype=bool)
        start = 0
        for name, size in self.segments:
            code = name[0]
            if name in ("T", "P"):
                out[start : start + min(n_labels, size)] = bool(legal[CODE_INDEX[code]])
            elif name in ("K", "F text"):
                out[start : start + min(n_texts, size)] = bool(legal[CODE_INDEX[code]])
            else:
                out[start] = bool(legal[CODE_INDEX[code]])
            start += size
        if not out.any():  # cannot happen with a sane env mask; never hand MaskablePPO an empty one
            out[self._offset(next(c for c in PLAIN_CODES if c in self.codes and c in ALWAYS_LEGAL))] = True
        return out

    def observation_mask(self, observation: Mapping[str, Any], texts: Sequence[str] = ()) -> np.ndarray:
        """:meth:`mask` for a raw observation."""
        return self.mask(observation["action_mask"], len(observation.get("labels", ())), min(len(texts), self.max_texts))


def task_text_candidates(env: gym.Env[Any, Any]) -> list[str]:
    """The current task's ``text_candidates()`` (empty when the env has no task or none)."""
    task = getattr(env.unwrapped, "task", None)
    if task is None or not hasattr(task, "text_candidates"):
        return []
    return [str(t) for t in task.text_candidates() if str(t)]


class FlatActions(gym.Wrapper[dict[str, Any], np.int64, dict[str, Any], Any], gym.utils.RecordConstructorArgs):
    """A ``Discrete`` action space over (code, label slot) and candidate texts, with ``action_masks()``.

    The raw observation gains ``text_candidates`` (the texts behind the ``K``/``F`` text slots,
    at most ``max_texts``), which :class:`~cerebellum_gym.wrappers.EncodeObservation` encodes.

    Args:
        env: a cerebellum env, possibly wrapped (observation still raw).
        max_labels: label slots; ``None`` takes the env's ``max_labels``.
        max_texts: candidate text slots.
        codes: codes offered (see :class:`FlatActionLayout`).
        answer_texts: whether ``F {text}`` slots exist.
    """

    def __init__(
        self,
        env: gym.Env[Any, Any],
        max_labels: int | None = None,
        max_texts: int = 4,
        codes: str = CODES,
        answer_texts: bool = True,
    ) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, max_labels=max_labels, max_texts=max_texts, codes=codes, answer_texts=answer_texts)
        gym.Wrapper.__init__(self, env)
        raw_space = env.observation_space
        if not isinstance(raw_space, spaces.Dict) or "action_mask" not in raw_space.spaces:
            raise TypeError("FlatActions wraps a cerebellum env whose observation is still the raw Dict (put encoders outside it)")
        if max_labels is None:
            max_labels = int(raw_space["label_mask"].n)  # type: ignore[attr-defined]
        self.layout = FlatActionLayout(max_labels=max_labels, max_texts=max_texts, codes=codes, answer_texts=answer_texts)
        self.max_texts = max_texts
        self.action_space = spaces.Discrete(self.layout.n)
        self.observation_space = spaces.Dict(
            {**raw_space.spaces, "text_candidates": spaces.Sequence(UnicodeText(MAX_CANDIDATE_CHARS), stack=False)}
        )
        self._texts: tuple[str, ...] = ()
        self._obs: dict[str, Any] | None = None

    @property
    def raw_observation(self) -> dict[str, Any] | None:
        """The latest raw observation (with ``text_candidates``), for demonstrations and debugging."""
        return self._obs

    @property
    def texts(self) -> tuple[str, ...]:
        """The candidate texts of this episode (what the ``K``/``F`` text slots type)."""
        return self._texts

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        # The task is fixed for the episode, so its candidates are read once.
        self._texts = tuple(t[:MAX_CANDIDATE_CHARS] for t in task_text_candidates(self.env)[: self.max_texts])
        return self._augment(obs), info

    def step(self, action: np.int64 | int) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        if self._obs is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        inner: gym.Env[Any, Any] = self.env
        try:
            text = self.layout.decode(int(action), self._obs["labels"], self._texts)
        except InvalidActionError as err:
            # A masked-out index (a policy that ignores masks): the env judges and penalises it.
            text = str(err)
            obs, reward, terminated, truncated, info = inner.step({"code": -1})
            info = {**info, "flat_action_error": text}
        else:
            obs, reward, terminated, truncated, info = inner.step(text)
        return self._augment(obs), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Legal flat actions now (``MaskablePPO`` calls this before each step)."""
        if self._obs is None:
            raise gym.error.ResetNeeded("call reset() before action_masks()")
        return self.layout.observation_mask(self._obs, self._texts)

    def action_text(self, action: int) -> str:
        """The action string flat ``action`` stands for on the current screen."""
        if self._obs is None:
            raise gym.error.ResetNeeded("call reset() first")
        return self.layout.decode(int(action), self._obs["labels"], self._texts)

    def _augment(self, obs: dict[str, Any]) -> dict[str, Any]:
        obs = {**obs, "text_candidates": self._texts}
        self._obs = obs
        return obs
