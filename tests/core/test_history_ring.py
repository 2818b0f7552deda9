"""The history ring: its parts (texts and mask padded at the front, frames as read-only arrays), one read-out for every observation form."""

from __future__ import annotations

import numpy as np

from cerebellum_gym.core.history import History, frozen
from cerebellum_gym.core.observation import stack_frames


def test_the_parts_pad_texts_and_mask_at_the_front_as_frames_fill_and_wrap() -> None:
    history = History(3, None, 1080)
    for step in range(5):
        parts = history.parts()
        filled = min(step, 3)
        assert parts.filled == len(history) == filled and parts.frames == ()
        assert parts.mask.tolist() == [0] * (3 - filled) + [1] * filled and not parts.mask.flags.writeable
        assert parts.actions == ("",) * (3 - filled) + tuple(f"T A{i}" for i in range(step - filled, step))
        assert parts.subtrees[3 - filled :] == tuple(f"node {i}" for i in range(step - filled, step))
        history.push(None, f"T A{step}", f"node {step}", None)
    assert history.parts().actions == ("T A2", "T A3", "T A4")
    history.clear()
    assert history.parts()[:2] == (("", "", ""), ("", "", ""))


def _screen(value: int, *, read_only: bool) -> np.ndarray:
    shot = np.full((8, 4, 3), value, np.uint8)
    shot.flags.writeable = not read_only
    return shot


def test_each_frame_is_one_read_only_array_while_it_stays_in_the_history() -> None:
    history = History(3, (4, 8), 4)
    blank = history.frames()
    assert len(blank) == 3 and all(frozen(f) and not f.any() for f in blank)
    history.push(_screen(10, read_only=True), "B", "", None)
    history.push(_screen(20, read_only=False), "T A", "node", (0, 0, 2, 2))
    before = history.frames()
    history.push(_screen(30, read_only=False), "B", "", None)
    after = history.frames()
    assert after[0] is before[1] and after[1] is before[2]  # the frames slid along, unchanged
    assert all(frozen(frame) for frame in after)
    assert history.parts().frames == after
    stack = np.empty((3, 8, 4, 3), np.uint8)
    stack_frames(after, stack)
    assert np.array_equal(stack, np.stack(after))


def test_a_read_only_screen_is_kept_as_is_and_any_other_is_copied() -> None:
    history = History(2, (4, 8), 4)
    shared = _screen(10, read_only=True)
    history.push(shared, "B", "", None)
    assert history.frames()[-1] is shared  # nothing drawn on it, nothing can change it
    history.push(shared, "T A", "node", (0, 0, 2, 2))
    outlined = history.frames()[-1]
    assert outlined is not shared and not np.array_equal(outlined, shared) and np.all(shared == 10)
    mine = _screen(20, read_only=False)
    history.push(mine, "B", "", None)
    mine[:] = 99  # the caller's array changes; the history's frame does not
    assert np.all(history.frames()[-1] == 20)


def test_frozen_follows_the_base_arrays() -> None:
    base = np.zeros(6, np.uint8)
    view = base[:3]
    view.flags.writeable = False
    assert not frozen(view)  # its base can still change it
    base.flags.writeable = False
    assert frozen(view) and frozen(np.frombuffer(b"abc", np.uint8)) and not frozen(np.zeros(2))


def test_frames_restored_from_a_pickle_are_read_only_again() -> None:
    """A pickle brings arrays back writable; a restored history freezes its own frames again, so
    a consumer can still know them by identity (and its frames equal the original's)."""
    import pickle

    history = History(3, (4, 8), 4)
    history.push(_screen(10, read_only=True), "B", "", None)
    history.push(_screen(20, read_only=False), "T A", "node", (0, 0, 2, 2))
    restored = pickle.loads(pickle.dumps(history))
    frames = restored.frames()
    assert len(frames) == 3 and all(frozen(f) for f in frames)
    assert all(np.array_equal(a, b) for a, b in zip(frames, history.frames(), strict=True))
    assert frames[0] is frames[0] and restored.frames()[2] is frames[2]  # one array per frame, as before
