"""The history ring's text parts and masks, as the observation and a batch's rows show them."""

from __future__ import annotations

import numpy as np

from cerebellum_gym.core.history import History


def test_texts_and_write_agree_with_the_observation_as_frames_fill_and_wrap() -> None:
    history = History(3, None, 1080)
    for step in range(5):
        obs = history.observation()
        mask = np.full(3, 7, np.int8)
        written = history.write(mask, None)
        assert history.texts() == written == (obs["actions"], obs["subtrees"])
        assert np.array_equal(mask, np.asarray(obs["mask"]))
        assert int(mask.sum()) == len(history) == min(step, 3)
        history.push(None, f"T A{step}", f"node {step}", None)
    assert history.texts()[0] == ("T A2", "T A3", "T A4")
    history.clear()
    assert history.texts() == (("", "", ""), ("", "", ""))
