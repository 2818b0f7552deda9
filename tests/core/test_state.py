"""The episode state's format: data only on load, a header checked, frames read-only."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import numpy as np
import pytest

from cerebellum_gym.core.state import STATE_FORMAT, EpisodeState, dumps_state, loads_state
from cerebellum_gym.core.tree import UINode
from cerebellum_gym.errors import StateError


class _Planted:
    """What a crafted state would run on load: it writes a file when unpickled."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (os.system, (f"touch {self.path}",))


def _state(blob: bytes, frames: tuple[np.ndarray, ...] = ()) -> EpisodeState:
    return EpisodeState(env_id="Cerebellum-Sim-v0", options={"pixels": False}, step=3, task="T", blob=blob, frames=frames)


def test_a_crafted_blob_runs_no_code(tmp_path: Path) -> None:
    planted = tmp_path / "ran"
    blob = pickle.dumps({"device": _Planted(str(planted))})
    with pytest.raises(StateError, match="not a state type"):
        loads_state(blob)
    data = _state(blob).to_bytes()
    with pytest.raises(StateError):
        loads_state(EpisodeState.from_bytes(data).blob)
    assert not planted.exists()


@pytest.mark.parametrize(
    "target",
    [
        ("builtins", "eval"),
        ("subprocess", "Popen"),
        ("cerebellum_gym.__main__", "main"),
        ("cerebellum_gym.env", "CerebellumEnv"),
        ("os", "remove"),
    ],
)
def test_only_registered_types_load(target: tuple[str, str]) -> None:
    module, name = target
    # GLOBAL opcode naming the target, then STOP: what a crafted file holds.
    blob = b"c" + module.encode() + b"\n" + name.encode() + b"\n."
    with pytest.raises(StateError, match="not a state type"):
        loads_state(blob)


def test_data_round_trips() -> None:
    node = UINode(text="Wi\u2011Fi", children=[UINode(content_desc="On")])
    value = {"node": node, "array": np.arange(5, dtype=np.int16), "seen": {1, 2}, "t": (1.5, None)}
    back = loads_state(dumps_state(value))
    assert back["node"].text == "Wi\u2011Fi" and back["node"].children[0].content_desc == "On"
    assert back["array"].tolist() == [0, 1, 2, 3, 4] and back["seen"] == {1, 2} and back["t"] == (1.5, None)
    assert back["node"] is not node


def test_bytes_round_trip_keeps_frames_read_only() -> None:
    frame = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    frame.flags.writeable = False
    state = _state(dumps_state({"x": 1}), (frame,))
    back = EpisodeState.from_bytes(state.to_bytes())
    assert (back.env_id, back.step, back.task, dict(back.options)) == ("Cerebellum-Sim-v0", 3, "T", {"pixels": False})
    assert np.array_equal(back.frames[0], frame) and not back.frames[0].flags.writeable
    assert loads_state(back.blob) == {"x": 1}
    copied = pickle.loads(pickle.dumps(state))  # across processes and Ray: as its bytes
    assert np.array_equal(copied.frames[0], frame) and not copied.frames[0].flags.writeable


def test_writable_frames_are_refused() -> None:
    with pytest.raises(StateError, match="read-only"):
        _state(b"", (np.zeros((1, 1, 3), np.uint8),))


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda b: b"not a state", "no cerebellum-gym state header"),
        (lambda b: b[:-3], "truncated or padded"),
        (lambda b: b + b"xx", "truncated or padded"),
        (lambda b: b.replace(f'"version": {STATE_FORMAT}'.encode(), b'"version": 9'), "format 9"),
    ],
)
def test_bad_bytes_get_a_clear_error(mangle: object, message: str) -> None:
    frame = np.zeros((2, 2, 3), np.uint8)
    frame.flags.writeable = False
    data = _state(dumps_state(1), (frame,)).to_bytes()
    with pytest.raises(StateError, match=message):
        EpisodeState.from_bytes(mangle(data))  # type: ignore[operator]


def test_the_state_is_immutable() -> None:
    state = _state(b"")
    with pytest.raises(AttributeError):
        state.step = 4  # type: ignore[misc]
