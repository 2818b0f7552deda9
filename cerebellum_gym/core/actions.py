"""The compact action code set, as a string form and a structured form of one codec.

String form (what a language model emits)::

    T <label>    tap the labelled element          "T UE"
    P <label>    long-press the labelled element   "P JD"
    K <text>     type text into the focused field  "K hello world"
    U D L R      scroll up / down / left / right
    B H W        back, home, wait
    F [answer]   done, with an optional answer     "F", "F 555-0134"
    I            the task is impossible

Structured form (what an RL policy emits): a mapping ``{"code": int, "label": int, "text": str}``
where ``code`` indexes :data:`CODES`, ``label`` indexes the list of labels visible on the current
screen, and ``text`` is only read for ``K`` and ``F``. The form is strict: ``code`` and ``label``
are integers (Python or NumPy; never bools, floats or strings), ``text`` is a ``str``, and no other
key is allowed. Anything else is an :class:`~cerebellum_gym.errors.InvalidActionError`, the same
path as a malformed string.

Text rule (every backend): ``K`` text and ``F`` answers hold at most :data:`MAX_TEXT_CHARS`
characters and must be encodable as UTF-8 (a lone surrogate is not).

Example:
    >>> from cerebellum_gym.core.actions import Action, parse_action
    >>> parse_action("T UE")
    Action(code='T', label='UE', text=None)
    >>> parse_action("K hello world").text
    'hello world'
    >>> str(Action("F", text="42"))
    'F 42'
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

import numpy as np

from cerebellum_gym.errors import InvalidActionError

#: Every action code, in the order of the structured form's ``code`` index.
CODES: Final[str] = "TPKUDLRBHWFI"
CODE_INDEX: Final[dict[str, int]] = {c: i for i, c in enumerate(CODES)}
LABELLED_CODES: Final[frozenset[str]] = frozenset("TP")
SCROLL_CODES: Final[frozenset[str]] = frozenset("UDLR")
#: Codes that end the episode.
TERMINAL_CODES: Final[frozenset[str]] = frozenset("FI")

CODE_NAMES: Final[dict[str, str]] = {
    "T": "tap",
    "P": "long-press",
    "K": "type text",
    "U": "scroll up",
    "D": "scroll down",
    "L": "scroll left",
    "R": "scroll right",
    "B": "back",
    "H": "home",
    "W": "wait",
    "F": "done",
    "I": "impossible",
}

#: Longest ``K`` text or ``F`` answer, in characters (longer is an invalid action on every backend).
MAX_TEXT_CHARS: Final = 1000
#: Longest action string a valid action formats to (``"K "`` + text).
MAX_ACTION_CHARS: Final = MAX_TEXT_CHARS + 2
#: The keys of the structured form.
STRUCTURED_KEYS: Final[frozenset[str]] = frozenset(("code", "label", "text"))

ActionCode = Literal["T", "P", "K", "U", "D", "L", "R", "B", "H", "W", "F", "I"]
#: The structured form: ``{"code": int, "label": int, "text": str}``.
StructuredAction = Mapping[str, Any]

_LABEL_RE: Final = re.compile(r"[A-Z]{2}")


def is_label(value: object) -> bool:
    """True when ``value`` has the set-of-mark label shape: two uppercase ASCII letters."""
    return isinstance(value, str) and _LABEL_RE.fullmatch(value) is not None


@dataclass(frozen=True, slots=True)
class Action:
    """One parsed action. Construct through :func:`parse_action` or directly (validated).

    Attributes:
        code: one of :data:`CODES`.
        label: the element label for ``T``/``P``, else ``None``.
        text: the typed text for ``K``, the optional answer for ``F``, else ``None``.
    """

    code: str
    label: str | None = None
    text: str | None = None

    def __post_init__(self) -> None:
        shown = _show(self.code, self.label, self.text)
        if not isinstance(self.code, str) or self.code not in CODE_INDEX:
            raise InvalidActionError(shown, f"unknown code {self.code!r}; expected one of {CODES}")
        if self.code in LABELLED_CODES:
            if self.label is None:
                raise InvalidActionError(shown, f"{self.code} ({CODE_NAMES[self.code]}) needs a label")
            if not is_label(self.label):
                raise InvalidActionError(shown, f"label {self.label!r} is not two uppercase letters like 'UE'")
        elif self.label is not None:
            raise InvalidActionError(shown, f"{self.code} ({CODE_NAMES[self.code]}) takes no label")
        if self.text is not None and not isinstance(self.text, str):
            raise InvalidActionError(shown, f"text must be a str, got {type(self.text).__name__}")
        if self.code == "K":
            if not self.text:
                raise InvalidActionError(shown, "K (type text) needs non-empty text")
        elif self.code == "F":
            if self.text is not None and (not self.text or self.text.isspace()):
                raise InvalidActionError(shown, "F takes either no answer or one that is not blank")
        elif self.text is not None:
            raise InvalidActionError(shown, f"{self.code} ({CODE_NAMES[self.code]}) takes no text")
        if self.text is not None:
            check_text(self.text, shown)

    @property
    def code_index(self) -> int:
        """Index of this action's code in :data:`CODES`."""
        return CODE_INDEX[self.code]

    @property
    def is_terminal(self) -> bool:
        """Whether this action ends the episode (``F`` or ``I``)."""
        return self.code in TERMINAL_CODES

    def __str__(self) -> str:
        return format_action(self)

    def to_structured(self, labels: Sequence[str]) -> dict[str, Any]:
        """The structured form, with the label turned into its slot in ``labels``.

        Raises:
            InvalidActionError: the label is not among ``labels``.
        """
        label_index = 0
        if self.label is not None:
            try:
                label_index = list(labels).index(self.label)
            except ValueError:
                raise InvalidActionError(str(self), f"label {self.label!r} is not on the current screen") from None
        return {"code": self.code_index, "label": label_index, "text": self.text or ""}


def check_text(text: str, shown: object = None) -> None:
    """Apply the text rule to ``K`` text or an ``F`` answer (the same on every backend).

    Raises:
        InvalidActionError: longer than :data:`MAX_TEXT_CHARS`, or not encodable as UTF-8 (a
            lone surrogate), which no device can receive.
    """
    if len(text) > MAX_TEXT_CHARS:
        raise InvalidActionError(
            shown if shown is not None else text, f"text is {len(text)} characters long; at most {MAX_TEXT_CHARS} are allowed per action"
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        bad = text[err.start : err.end]
        raise InvalidActionError(
            shown if shown is not None else text,
            f"text holds {bad!r} at position {err.start}, which is not a Unicode character (a lone surrogate) and cannot be typed",
        ) from None


def _show(code: object, label: object, text: object) -> str:
    parts = [str(code)]
    if label is not None:
        parts.append(str(label))
    if text is not None:
        parts.append(str(text))
    return " ".join(parts)


def format_action(action: Action) -> str:
    """The string form of ``action``; :func:`parse_action` inverts it exactly."""
    if action.label is not None:
        return f"{action.code} {action.label}"
    if action.text is not None:
        return f"{action.code} {action.text}"
    return action.code


#: Short action strings already parsed (actions are immutable): an agent sends the same few again
#: and again. Bounded, and only for plain ``str`` keys of at most :data:`_PARSED_MAX_CHARS`.
_PARSED: Final[dict[str, Action]] = {}
_PARSED_MAX_ENTRIES: Final = 4096
_PARSED_MAX_CHARS: Final = 40


def parse_action(text: str) -> Action:
    """Parse the string form of an action.

    ``K`` and ``F`` keep everything after the first space verbatim (any Unicode, spaces and
    newlines included). Other codes tolerate trailing whitespace, such as a model's newline.

    Raises:
        InvalidActionError: with a message that names the problem.
    """
    if type(text) is str:
        parsed = _PARSED.get(text)
        if parsed is None:
            parsed = _parse_action(text)  # raises for a bad action: nothing is cached then
            if len(text) <= _PARSED_MAX_CHARS and len(_PARSED) < _PARSED_MAX_ENTRIES:
                _PARSED[text] = parsed
        return parsed
    return _parse_action(text)


def _parse_action(text: str) -> Action:
    if not isinstance(text, str):
        raise InvalidActionError(text, f"expected a string, got {type(text).__name__}")
    if not text or text.isspace():
        raise InvalidActionError(text, f"empty action; expected one of the codes {CODES}")
    code, rest = text[0], text[1:]
    if code not in CODE_INDEX:
        hint = ""
        if code.upper() in CODE_INDEX:
            hint = f" (codes are uppercase: did you mean {code.upper()!r}?)"
        raise InvalidActionError(text, f"unknown code {code!r}; expected one of {CODES}{hint}")
    if code == "K":
        if not rest.startswith(" ") or len(rest) < 2:
            raise InvalidActionError(text, "K (type text) needs a space and then the text: 'K hello'")
        return Action("K", text=rest[1:])
    if code == "F":
        if rest == "" or rest.isspace():
            return Action("F")
        if not rest.startswith(" "):
            raise InvalidActionError(text, "F takes an optional answer after a space: 'F 42'")
        return Action("F", text=rest[1:])
    if code in LABELLED_CODES:
        label = rest.strip()
        if not rest.startswith(" ") or not label:
            raise InvalidActionError(text, f"{code} ({CODE_NAMES[code]}) needs a space and a label: '{code} UE'")
        if not is_label(label):
            raise InvalidActionError(text, f"label {label!r} is not two uppercase letters like 'UE'")
        return Action(code, label=label)
    if rest and not rest.isspace():
        raise InvalidActionError(text, f"{code} ({CODE_NAMES[code]}) takes no argument")
    return Action(code)


def _structured_int(action: StructuredAction, key: str, default: int | None) -> int:
    """``action[key]`` as an int, strictly: Python or NumPy integers only (no bool, float, str)."""
    if key not in action:
        if default is None:
            raise InvalidActionError(action, f"structured action needs an integer {key!r}")
        return default
    value = action[key]
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        raise InvalidActionError(action, f"{key!r} must be an integer, got {type(value).__name__} {_short(value)}")
    return int(value)


def plain_structured(action: StructuredAction) -> dict[str, Any]:
    """``action``'s entries with NumPy scalars (and one-element arrays) as plain Python values:
    the same action whether it was sampled from the space or built again from JSON.

    Example:
        >>> plain_structured({"code": np.int64(0), "label": np.array(3), "text": "hi"})
        {'code': 0, 'label': 3, 'text': 'hi'}
    """
    return {
        key: value.item() if isinstance(value, np.generic) or (isinstance(value, np.ndarray) and value.size == 1) else value
        for key, value in action.items()
    }


def _short(value: object, limit: int = 40) -> str:
    shown = repr(value)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def from_structured(action: StructuredAction, labels: Sequence[str]) -> Action:
    """Decode the structured form against the labels visible on the current screen.

    Raises:
        InvalidActionError: a key other than ``code``, ``label`` and ``text``, or one of them
            missing; a ``code`` or
            ``label`` that is not an integer (bools, floats and strings are refused); ``text`` that
            is not a ``str``; an unknown code index; an empty label slot; missing ``K`` text; text
            that breaks the text rule (:func:`check_text`).
    """
    extra = [k for k in action if k not in STRUCTURED_KEYS]
    if extra:
        keys = ", ".join(_short(k) for k in extra)
        raise InvalidActionError(action, f"unknown key(s) {keys}; the structured form has code, label and text")
    code_index = _structured_int(action, "code", None)
    if not 0 <= code_index < len(CODES):
        raise InvalidActionError(action, f"code index {code_index} outside 0..{len(CODES) - 1}")
    slot = _structured_int(action, "label", None) if "label" in action else None
    text = action.get("text", "")
    if not isinstance(text, str):
        raise InvalidActionError(action, f"'text' must be a str, got {type(text).__name__} {_short(text)}")
    missing = [k for k in ("label", "text") if k not in action]
    if missing:
        # Strict, as the space samples it: a policy that drops a key has a bug, and a missing
        # label read as slot 0 would tap whatever came first.
        raise InvalidActionError(
            action,
            f"structured action lacks {' and '.join(repr(k) for k in missing)}: it has code, label and text"
            " (label 0 and text '' where the code reads neither)",
        )
    assert slot is not None
    code = CODES[code_index]
    if code in LABELLED_CODES and not 0 <= slot < len(labels):
        raise InvalidActionError(
            action,
            f"{code} ({CODE_NAMES[code]}) label slot {slot} is empty: {len(labels)} labels are on screen",
        )
    if code == "K":
        return Action("K", text=text)
    if code == "F" and text and not text.isspace():
        return Action("F", text=text)
    decoded = _decoded(code_index, slot, text, labels)
    assert decoded is not None  # every other code decodes once its slot is checked
    return decoded


#: Decoded actions no screen can refuse, shared: ``T``/``P`` by (code index, label) (labels
#: come from a fixed pool, so this stays small) and the argument-free codes by code index.
_LABELLED_INDEXES: Final = frozenset(CODE_INDEX[code] for code in LABELLED_CODES)
_PLAIN_ACTIONS: Final[dict[int, Action]] = {i: Action(code) for i, code in enumerate(CODES) if code not in LABELLED_CODES and code != "K"}
_labelled_actions: dict[tuple[int, str], Action] = {}
#: Scrolls decode alike, but a screen may refuse them: the batch leaves them to the env, whose
#: refusal then shows the action exactly as it was sent.
_SCROLL_INDEXES: Final = frozenset(CODE_INDEX[code] for code in SCROLL_CODES)


def _decoded(code: int, slot: int, text: str, labels: Sequence[str]) -> Action | None:
    """The one decoding of a structured action's checked fields: the cached :class:`Action`,
    or ``None`` for what this decoder leaves to :func:`from_structured` (typing, an empty label
    slot, an unknown code, an ``F`` with an answer)."""
    if code in _LABELLED_INDEXES:
        if not 0 <= slot < len(labels):
            return None
        key = (code, labels[slot])
        action = _labelled_actions.get(key)
        if action is None:
            action = _labelled_actions[key] = Action(CODES[code], label=key[1])
        return action
    plain = _PLAIN_ACTIONS.get(code)
    if plain is not None and plain.code == "F" and text and not text.isspace():
        return None  # an answer: its own Action, whose text the env checks (check_text)
    return plain


def decode_batch(
    codes: Sequence[int], slots: Sequence[int], texts: Sequence[Any], labels: Sequence[Sequence[str] | None]
) -> list[Action | None]:
    """The batched structured form decoded per row, as :func:`from_structured` would, where no
    screen can refuse the result: a ``T``/``P`` of a filled label slot, keys, wait,
    ``I`` and an answerless ``F`` (shared :class:`Action` objects). ``None`` for the rest (typing,
    scrolls, anything malformed or illegal, a row with no screen), which the env decodes and refuses
    itself. The vector envs' fast path; ``from_structured`` decodes through the same table.

    Example:
        >>> decode_batch([0, 2, 7, 0, 4], [1, 0, 0, 5, 0], ["", "hi", "", "", ""], [("QX", "UE")] * 5)
        [Action(code='T', label='UE', text=None), None, Action(code='B', label=None, text=None), None, None]
    """
    out: list[Action | None] = []
    scrolls = _SCROLL_INDEXES
    for code, slot, text, screen in zip(codes, slots, texts, labels, strict=True):
        out.append(_decoded(code, slot, text, screen) if type(text) is str and screen is not None and code not in scrolls else None)
    return out


def coerce_action(action: str | Action | StructuredAction, labels: Sequence[str]) -> Action:
    """Accept any of the three forms an agent may pass to ``env.step``."""
    if isinstance(action, Action):
        return action
    if isinstance(action, str):
        return parse_action(action)
    if isinstance(action, Mapping):
        return from_structured(action, labels)
    raise InvalidActionError(action, f"expected an action string, Action or mapping, got {type(action).__name__}")


def batch_actions(actions: Sequence[str | Action], labels: Sequence[Sequence[str]]) -> dict[str, Any]:
    """Turn one action per env into the batched structured form that gymnasium's vector envs
    take (they iterate the Dict action space, so strings must be encoded first).

    Args:
        actions: one action string or :class:`Action` per env.
        labels: the ``labels`` observation of each env (a batched observation's
            ``obs["labels"]``), to turn labels into slots.

    Raises:
        InvalidActionError: an action string is malformed or names a label not on its screen.

    Vector envs made by ``gym.make_vec`` also take the list of strings as it is (see
    :mod:`cerebellum_gym.core.spaces`); this function is for code that wants the array form.

    Example:
        >>> batch = batch_actions(["T UE", "K hi"], [("QX", "UE"), ()])
        >>> batch["code"].tolist(), batch["label"].tolist(), batch["text"]
        ([0, 2], [1, 0], ('', 'hi'))
    """
    if len(actions) != len(labels):
        raise ValueError(f"{len(actions)} actions for {len(labels)} envs")
    structured = [
        (a if isinstance(a, Action) else parse_action(a)).to_structured(env_labels) for a, env_labels in zip(actions, labels, strict=True)
    ]
    return {
        "code": np.array([s["code"] for s in structured], dtype=np.int64),
        "label": np.array([s["label"] for s in structured], dtype=np.int64),
        "text": tuple(s["text"] for s in structured),
    }
