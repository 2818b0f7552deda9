"""One error root for every layer, with infrastructure faults kept apart from agent mistakes.

Evaluation relies on the split: an :class:`InfraError` means the episode says nothing about the
agent (it is retried, then counted as an infra skip), while an :class:`AgentError` is the agent's
own doing and counts against it.
"""

from __future__ import annotations


class CerebellumError(Exception):
    """Root of every error raised by cerebellum-gym."""


class AgentError(CerebellumError):
    """The agent asked for something that cannot be done; the device is left untouched."""


class InvalidActionError(AgentError, ValueError):
    """An action string or structure that is malformed or not legal on the current screen.

    Attributes:
        action: the offending action as given (string or structure).
        reason: a short, precise explanation (which code, which label, why).
    """

    action: object
    reason: str

    def __init__(self, action: object, reason: str | None = None) -> None:
        if reason is None and isinstance(action, InvalidActionError):
            # gymnasium's async vector env re-raises a worker's error as ``type(err)(err)``.
            original: InvalidActionError = action
            action, reason = original.action, original.reason
        self.action = action
        self.reason = reason if reason is not None else str(action)
        super().__init__(f"invalid action {_shown(action)}: {self.reason}")

    def __reduce__(self) -> tuple[type[InvalidActionError], tuple[object, str]]:
        # Pickles (to and from worker processes) with both fields, not the formatted message.
        return type(self), (self.action, self.reason)


def _shown(value: object, limit: int = 200) -> str:
    """``repr(value)``, cut: an agent's action may be a megabyte of text."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


class InfraError(CerebellumError):
    """The device or its transport failed; the episode is not the agent's fault."""


class DeviceLostError(InfraError):
    """The connection to the device dropped or the device disappeared."""


class DeviceTimeoutError(InfraError):
    """The device did not answer within the allotted time."""


class DeviceProtocolError(InfraError):
    """The device answered with something that could not be understood."""


class ConfigError(CerebellumError, ValueError):
    """A bad option when assembling an env: an unknown backend, a misspelt or invalid device option."""


class StepError(CerebellumError):
    """The env, its device or its task failed unexpectedly inside ``step`` (a bug, not the agent's
    doing). The original exception is its ``__cause__``; ``reset`` starts afresh."""


class UnsupportedOperationError(CerebellumError):
    """The backend cannot perform this operation (for example typing text it cannot encode)."""


class TaskError(CerebellumError):
    """A task could not be set up or judged (unknown task name, bad parameters, setup failed)."""


class UnknownTaskError(TaskError, KeyError):
    """No task is registered under the requested name."""

    def __str__(self) -> str:  # KeyError would quote the whole message otherwise
        return str(self.args[0]) if self.args else "unknown task"


class StateError(CerebellumError, ValueError):
    """An episode state that cannot be restored here: taken with other options, of another
    format version, or not a state at all (bytes that name code, a truncated file)."""
