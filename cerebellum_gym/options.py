"""One table of the env's own options, checked before anything is built.

``gym.make(id, **kwargs)`` hands its keyword arguments to the loader; the loader's own
(``task``, ``backend``, ``device_options``, ...) aside, the rest are the env's options below. A
misspelt name or a value of the wrong kind is a one-line :class:`~cerebellum_gym.errors.ConfigError`
that names the fix, raised before a device (an adb server, an emulator) is started.

    >>> import gymnasium as gym
    >>> import cerebellum_gym
    >>> gym.make("Cerebellum-Sim-v0", pixel=False)
    Traceback (most recent call last):
    ...
    cerebellum_gym.errors.ConfigError: unknown option 'pixel' (did you mean 'pixels'?); valid options: ...
"""

from __future__ import annotations

import difflib
import math
import numbers
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from cerebellum_gym.errors import ConfigError


def did_you_mean(
    name: object, valid: Iterable[str], *, what: str = "option", where: str = "", listing: str | None = None, plural: str | None = None
) -> str:
    """``"unknown <what> 'x'<where> (did you mean 'y'?); valid <what>s: a, b"``, on one line.

    ``valid`` is listed in the order given (or ``listing`` said instead, for long lists);
    matching ignores case.
    """
    choices = list(dict.fromkeys(valid))
    lowered = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(str(name).lower(), list(lowered), n=1, cutoff=0.6)
    hint = f" (did you mean {lowered[close[0]]!r}?)" if close else ""
    shown = listing if listing is not None else f"valid {plural or what + 's'}: " + ", ".join(choices)
    return f"unknown {what} {name!r}{where}{hint}; {shown}"


def _is_int(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


@dataclass(frozen=True)
class Option:
    """One option: its kind, in words, and the test its value must pass."""

    kind: str
    check: Callable[[Any], bool]


def _boolean() -> Option:
    return Option("True or False", lambda v: isinstance(v, bool | np.bool_))


def _integer(low: int | None = None, *, optional: bool = False) -> Option:
    kind = "an integer" + (f" of at least {low}" if low is not None else "") + (" or None" if optional else "")
    return Option(kind, lambda v: (optional and v is None) or (_is_int(v) and (low is None or v >= low)))


def _one_of(*choices: str | None) -> Option:
    return Option("one of " + ", ".join(str(c) for c in choices), lambda v: v in choices)


REWARD_MODES: Final[tuple[str, ...]] = ("shaped", "progress_delta", "sparse")

#: The env's own options (``CerebellumEnv``'s keyword arguments), with what each takes. Ranges
#: of the observation's sizes are checked by its observation config, which knows them.
ENV_OPTIONS: Final[dict[str, Option]] = {
    "pixels": _boolean(),
    "screenshot_width": _integer(),
    "history_len": _integer(),
    "history_width": _integer(),
    "max_tree_chars": _integer(),
    "max_labels": _integer(),
    "max_steps": _integer(1, optional=True),
    "invalid_action": _one_of("penalize", "raise"),
    "invalid_action_penalty": Option(
        "a finite number", lambda v: isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(float(v))
    ),
    "reward": _one_of(*REWARD_MODES),
    "success_requires_done": _boolean(),
    "raise_infra_errors": _boolean(),
    "judge_every_step": _boolean(),
    "render_mode": _one_of(None, "rgb_array"),
}

#: What ``env.reset(options=...)`` reads (wrappers take theirs out before the env sees them).
RESET_OPTIONS: Final[tuple[str, ...]] = ("task", "state")


def check_options(options: Mapping[str, Any], table: Mapping[str, Option], *, extra: Iterable[str] = ()) -> None:
    """Raise :class:`ConfigError` for the first unknown key or bad value of ``options``.

    ``extra`` names keys that are valid but checked elsewhere (the loader's own).
    """
    allowed = set(table) | set(extra)
    for key, value in options.items():
        if key not in allowed:
            raise ConfigError(did_you_mean(key, sorted(allowed)))
        option = table.get(key)
        if option is not None and not option.check(value):
            raise ConfigError(f"{key} must be {option.kind}, got {value!r}")


def check_env_options(options: Mapping[str, Any], *, extra: Iterable[str] = ()) -> None:
    """Check the env's own options (see :data:`ENV_OPTIONS`)."""
    check_options(options, ENV_OPTIONS, extra=extra)


def check_reset_options(options: Mapping[str, Any] | None) -> None:
    """Check ``env.reset(options=...)``: only :data:`RESET_OPTIONS`, a task given by its name."""
    if options is None:
        return
    if not isinstance(options, Mapping):
        raise ConfigError(f"reset options must be a mapping, got {type(options).__name__}")
    for key in options:
        if key not in RESET_OPTIONS:
            raise ConfigError(did_you_mean(key, RESET_OPTIONS, what="reset option"))
    task = options.get("task")
    if task is not None and not isinstance(task, str):
        raise ConfigError(f"reset option 'task' takes a task name (str), got {type(task).__name__}")
    if "state" in options and "task" in options:
        raise ConfigError("reset options 'state' and 'task' exclude each other: a state carries its task")


__all__ = [
    "ENV_OPTIONS",
    "RESET_OPTIONS",
    "REWARD_MODES",
    "Option",
    "check_env_options",
    "check_options",
    "check_reset_options",
    "did_you_mean",
]
