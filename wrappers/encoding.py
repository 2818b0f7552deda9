"""Encode cerebellum observations as fixed-size arrays, so Stable-Baselines3's ``MultiInputPolicy`` can read them.

The encoder is a pure function of the raw observation (goal, tree text, labels, masks, history,
optionally the screenshot). That matters: a trained policy is later fed raw observations by the
evaluation harness, and :class:`~cerebellum_gym.agents.sb3_agent.SB3Agent` rebuilds the same
encoder from the configuration saved with the model.

Text becomes hashed bags of tokens ("feature hashing"): every lowercased word, and for the goal
also every word bigram, sets one of ``dim`` buckets picked by CRC-32 (stable across processes,
unlike Python's salted ``hash``). Each label slot gets the tokens of its element's line in the
tree plus the lines nested under it that carry no label of their own, so the policy's logit for
``T <slot i>`` can depend on what element ``i`` says.

Example:
    >>> enc = ObservationEncoder(EncoderConfig(max_labels=4, token_dim=8, goal_dim=8, screen_dim=8, history_len=1))
    >>> raw = {"goal": "Turn wifi on.", "tree": '[AB] TextView "Settings"', "labels": ("AB",),
    ...        "action_mask": np.ones(12, np.int8), "label_mask": np.array([1, 0, 0, 0], np.int8)}
    >>> arrays = enc.encode(raw)
    >>> sorted(arrays), arrays["slots"].shape
    (['goal', 'history', 'masks', 'screen', 'slots', 'texts'], (40,))
    >>> enc.observation_space.contains(arrays)
    True
"""

from __future__ import annotations

import itertools
import re
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from PIL import Image

from cerebellum_gym.core.actions import CODES

_WORD_RE = re.compile(r"[a-z0-9]+")
_LABEL_LINE_RE = re.compile(r"^( *)\[([A-Z]{2})\] (.*)$")
#: Indentation depth is divided by this to keep the depth feature within [0, 1].
_DEPTH_SCALE = 8.0


@dataclass(frozen=True)
class EncoderConfig:
    """Sizes of the encoded observation (saved with a trained model; keep it JSON-friendly).

    Attributes:
        max_labels: label slots (the env's ``max_labels``).
        max_texts: candidate text slots (the flat action space's ``K``/``F`` texts).
        token_dim: hash buckets per label slot, per candidate text and per history frame.
        goal_dim: hash buckets for the goal.
        screen_dim: hash buckets for the whole tree (tells screens apart).
        history_len: history frames encoded (the most recent ones).
        screenshot_size: ``(height, width)`` of the downscaled screenshot, or ``None`` for no
            pixels (the env must then not need ``pixels=True``).
    """

    max_labels: int = 64
    max_texts: int = 4
    token_dim: int = 32
    goal_dim: int = 64
    screen_dim: int = 128
    history_len: int = 2
    screenshot_size: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        for name in ("max_labels", "token_dim", "goal_dim", "screen_dim"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        if self.max_texts < 0 or self.history_len < 0:
            raise ValueError("max_texts and history_len must be >= 0")
        if self.screenshot_size is not None:
            height, width = self.screenshot_size
            if height <= 0 or width <= 0:
                raise ValueError(f"screenshot_size must be positive, got {self.screenshot_size}")
            # JSON round-trips turn tuples into lists; keep the dataclass hashable and comparable.
            object.__setattr__(self, "screenshot_size", (int(height), int(width)))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict; :meth:`from_dict` inverts it."""
        data = asdict(self)
        data["screenshot_size"] = list(self.screenshot_size) if self.screenshot_size is not None else None
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EncoderConfig:
        """Rebuild from :meth:`to_dict`'s output (unknown keys are an error, to catch version skew)."""
        kwargs = dict(data)
        size = kwargs.get("screenshot_size")
        kwargs["screenshot_size"] = tuple(size) if size is not None else None
        return cls(**kwargs)


def tokens(text: str) -> list[str]:
    """Lowercased word tokens of ``text``.

    Example:
        >>> tokens('[AB] Switch "Wi-Fi" off')
        ['ab', 'switch', 'wi', 'fi', 'off']
    """
    return _WORD_RE.findall(text.lower())


def bucket(token: str, dim: int) -> int:
    """The hash bucket of ``token`` among ``dim`` (CRC-32: the same in every process)."""
    return zlib.crc32(token.encode("utf-8")) % dim


def hash_bag(words: Iterable[str], dim: int, out: np.ndarray | None = None) -> np.ndarray:
    """A binary bag of ``words`` over ``dim`` hashed buckets (written into ``out`` if given)."""
    vec = np.zeros(dim, np.float32) if out is None else out
    for word in words:
        vec[bucket(word, dim)] = 1.0
    return vec


def with_bigrams(words: Sequence[str]) -> list[str]:
    """``words`` plus each adjacent pair joined with ``_`` (word order matters in goals)."""
    return [*words, *(f"{a}_{b}" for a, b in itertools.pairwise(words))]


def slot_texts(tree: str, labels: Sequence[str]) -> dict[str, tuple[str, int]]:
    """Per label: the text it owns in the tree (its line and unlabelled nested lines) and its depth.

    Example:
        >>> tree = '[AB] LinearLayout "Wi-Fi"\\n [CD] Switch off\\nTextView "Connected"'
        >>> slot_texts(tree, ("AB", "CD"))
        {'AB': ('LinearLayout "Wi-Fi"', 0), 'CD': ('Switch off', 1)}
    """
    wanted = set(labels)
    out: dict[str, tuple[str, int]] = {}
    current: str | None = None
    current_depth = -1
    for line in tree.splitlines():
        match = _LABEL_LINE_RE.match(line)
        depth = len(line) - len(line.lstrip(" "))
        if match is not None:
            current = match.group(2) if match.group(2) in wanted else None
            current_depth = len(match.group(1))
            if current is not None:
                out[current] = (match.group(3), current_depth)
        elif current is not None and depth > current_depth:
            text, d = out[current]
            out[current] = (f"{text}\n{line.strip()}", d)
        else:
            current = None
    return out


def downscale(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` (H, W, 3 uint8) resized to ``size`` = (height, width) with area averaging."""
    height, width = size
    if image.shape[:2] == (height, width):
        return np.ascontiguousarray(image, dtype=np.uint8)
    return np.asarray(Image.fromarray(np.asarray(image, np.uint8)).resize((width, height), Image.Resampling.BOX), np.uint8)


@dataclass
class ObservationEncoder:
    """Turns a raw observation dict into fixed-size arrays (see the module docstring).

    Keys of the encoded observation (all float32 in [0, 1], except the uint8 screenshot):

    - ``goal`` (goal_dim,): hashed goal words and bigrams.
    - ``screen`` (screen_dim,): hashed words of the whole tree.
    - ``slots`` (max_labels x slot_width,): per label slot: filled, depth, hashed words.
    - ``texts`` (max_texts x text_width,): per candidate text: filled, hashed words.
    - ``masks`` (12 + max_labels,): the env's ``action_mask`` then ``label_mask``.
    - ``history`` (history_len x history_width,): per recent frame (oldest first): present,
      the action's code one-hot, hashed words of the acted element's subtree.

    Per-slot entries are flattened row by row (SB3's checker and default extractor want 1-D
    vectors); reshape to ``(-1, slot_width)`` in a custom extractor that shares weights across slots.
    - ``screenshot`` (height, width, 3) uint8, only with ``screenshot_size``.
    """

    config: EncoderConfig = field(default_factory=EncoderConfig)

    @property
    def slot_width(self) -> int:
        """Features per label slot (``slots`` reshapes to ``(max_labels, slot_width)``)."""
        return self.config.token_dim + 2

    @property
    def text_width(self) -> int:
        """Features per candidate text slot."""
        return self.config.token_dim + 1

    @property
    def history_width(self) -> int:
        """Features per history frame."""
        return 1 + len(CODES) + self.config.token_dim

    @property
    def observation_space(self) -> spaces.Dict:
        """The space of :meth:`encode`'s output."""
        cfg = self.config
        codes = len(CODES)
        entries: dict[str, spaces.Space[Any]] = {
            "goal": spaces.Box(0.0, 1.0, (cfg.goal_dim,), np.float32),
            "screen": spaces.Box(0.0, 1.0, (cfg.screen_dim,), np.float32),
            "slots": spaces.Box(0.0, 1.0, (cfg.max_labels * self.slot_width,), np.float32),
            "texts": spaces.Box(0.0, 1.0, (max(cfg.max_texts, 1) * self.text_width,), np.float32),
            "masks": spaces.Box(0.0, 1.0, (codes + cfg.max_labels,), np.float32),
            "history": spaces.Box(0.0, 1.0, (max(cfg.history_len, 1) * self.history_width,), np.float32),
        }
        if cfg.screenshot_size is not None:
            height, width = cfg.screenshot_size
            entries["screenshot"] = spaces.Box(0, 255, (height, width, 3), np.uint8)
        return spaces.Dict(entries)

    def encode(self, observation: Mapping[str, Any], text_candidates: Sequence[str] | None = None) -> dict[str, np.ndarray]:
        """Encode one raw observation.

        Args:
            observation: a raw cerebellum observation (``pixels=False`` is fine unless the
                config asks for a screenshot).
            text_candidates: the texts behind the ``K``/``F`` text slots; defaults to
                ``observation["text_candidates"]`` (added by
                :class:`~cerebellum_gym.wrappers.FlatActions`), else none.

        Raises:
            KeyError: the config wants a screenshot and the observation has none.
        """
        cfg = self.config
        codes = len(CODES)
        labels = tuple(observation.get("labels", ()))[: cfg.max_labels]
        tree = str(observation.get("tree", ""))

        goal = hash_bag(with_bigrams(tokens(str(observation.get("goal", "")))), cfg.goal_dim)
        screen = hash_bag(tokens(tree), cfg.screen_dim)

        slots = np.zeros((cfg.max_labels, cfg.token_dim + 2), np.float32)
        owned = slot_texts(tree, labels)
        for i, label in enumerate(labels):
            slots[i, 0] = 1.0
            text, depth = owned.get(label, ("", 0))
            slots[i, 1] = min(depth / _DEPTH_SCALE, 1.0)
            hash_bag(tokens(text), cfg.token_dim, out=slots[i, 2:])

        if text_candidates is None:
            text_candidates = tuple(observation.get("text_candidates", ()))
        texts = np.zeros((max(cfg.max_texts, 1), cfg.token_dim + 1), np.float32)
        for j, text in enumerate(list(text_candidates)[: cfg.max_texts]):
            texts[j, 0] = 1.0
            hash_bag(tokens(text), cfg.token_dim, out=texts[j, 1:])

        masks = np.zeros(codes + cfg.max_labels, np.float32)
        masks[:codes] = np.asarray(observation.get("action_mask", np.ones(codes)), np.float32)[:codes]
        label_mask = np.asarray(observation.get("label_mask", np.ones(len(labels))), np.float32)[: cfg.max_labels]
        masks[codes : codes + len(label_mask)] = label_mask

        history = np.zeros((max(cfg.history_len, 1), 1 + codes + cfg.token_dim), np.float32)
        if cfg.history_len:
            past = observation.get("history") or {}
            actions = list(past.get("actions", ()))[-cfg.history_len :]
            subtrees = list(past.get("subtrees", ()))[-cfg.history_len :]
            subtrees += [""] * (len(actions) - len(subtrees))
            offset = cfg.history_len - len(actions)  # newest frame always in the last row
            for k, (action, subtree) in enumerate(zip(actions, subtrees, strict=True)):
                if not action:
                    continue
                row = history[offset + k]
                row[0] = 1.0
                if action[0] in CODES:
                    row[1 + CODES.index(action[0])] = 1.0
                hash_bag(tokens(subtree), cfg.token_dim, out=row[1 + codes :])

        out = {"goal": goal, "screen": screen, "slots": slots.ravel(), "texts": texts.ravel(), "masks": masks, "history": history.ravel()}
        if cfg.screenshot_size is not None:
            if observation.get("screenshot") is None:
                raise KeyError("the encoder wants a screenshot: make the env with pixels=True, or set screenshot_size=None")
            out["screenshot"] = downscale(observation["screenshot"], cfg.screenshot_size)
        return out

    def encode_batch(
        self, observations: Sequence[Mapping[str, Any]], text_candidates: Sequence[Sequence[str] | None] | None = None
    ) -> dict[str, np.ndarray]:
        """Encode several observations and stack them along a new first axis."""
        cands = list(text_candidates) if text_candidates is not None else [None] * len(observations)
        encoded = [self.encode(obs, c) for obs, c in zip(observations, cands, strict=True)]
        return {key: np.stack([e[key] for e in encoded]) for key in encoded[0]} if encoded else {}


class EncodeObservation(gym.ObservationWrapper[dict[str, np.ndarray], Any, dict[str, Any]], gym.utils.RecordConstructorArgs):
    """Replace the raw observation with :class:`ObservationEncoder`'s fixed-size arrays.

    Put it outside :class:`~cerebellum_gym.wrappers.FlatActions` (which adds the candidate
    texts to the raw observation) so the ``texts`` entry describes the text action slots.

    Args:
        env: a cerebellum env, possibly wrapped.
        max_labels: label slots; ``None`` takes the env's.
        max_texts: candidate text slots; ``None`` takes them from an inner ``FlatActions`` (else 4).
        token_dim, goal_dim, screen_dim, history_len: see :class:`EncoderConfig`.
        screenshot_size: ``(height, width)`` to include a downscaled screenshot (the env needs
            ``pixels=True``), or ``None``.
    """

    def __init__(
        self,
        env: gym.Env[Any, Any],
        max_labels: int | None = None,
        max_texts: int | None = None,
        token_dim: int = 32,
        goal_dim: int = 64,
        screen_dim: int = 128,
        history_len: int = 2,
        screenshot_size: tuple[int, int] | None = None,
    ) -> None:
        gym.utils.RecordConstructorArgs.__init__(
            self,
            max_labels=max_labels,
            max_texts=max_texts,
            token_dim=token_dim,
            goal_dim=goal_dim,
            screen_dim=screen_dim,
            history_len=history_len,
            screenshot_size=screenshot_size,
        )
        gym.ObservationWrapper.__init__(self, env)
        raw_space = env.observation_space
        if max_labels is None:
            label_space = raw_space["label_mask"] if isinstance(raw_space, spaces.Dict) and "label_mask" in raw_space.spaces else None
            max_labels = int(np.prod(label_space.n)) if isinstance(label_space, spaces.MultiBinary) else 64
        if max_texts is None:
            try:
                max_texts = int(env.get_wrapper_attr("max_texts"))
            except AttributeError:
                max_texts = 4
        if screenshot_size is not None and isinstance(raw_space, spaces.Dict) and "screenshot" not in raw_space.spaces:
            raise ValueError("screenshot_size needs an env made with pixels=True")
        self.encoder = ObservationEncoder(
            EncoderConfig(
                max_labels=max_labels,
                max_texts=max_texts,
                token_dim=token_dim,
                goal_dim=goal_dim,
                screen_dim=screen_dim,
                history_len=history_len,
                screenshot_size=tuple(screenshot_size) if screenshot_size is not None else None,  # type: ignore[arg-type]
            )
        )
        self.observation_space = self.encoder.observation_space  # type: ignore[assignment]

    def observation(self, observation: dict[str, Any]) -> dict[str, np.ndarray]:
        return self.encoder.encode(observation)

    def action_masks(self) -> np.ndarray:
        """The inner :class:`~cerebellum_gym.wrappers.FlatActions`' masks (wrappers do not forward attributes)."""
        return np.asarray(self.env.get_wrapper_attr("action_masks")())
