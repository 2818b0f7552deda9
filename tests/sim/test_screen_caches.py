"""The simulator's caches for screens that return (trees by signature, whole frames by their
tiles) give exactly what building and compositing afresh would: random walks over every app with
each cached tree checked against a fresh one, and frames checked against a compositing with the
frame cache off."""

from __future__ import annotations

import functools
import os
import subprocess
import sys

import numpy as np
import pytest
from PIL import ImageDraw

from cerebellum_gym.core.tree import to_uiautomator_xml
from cerebellum_gym.sim import render, screen
from cerebellum_gym.sim.apps.base import App
from cerebellum_gym.sim.phone import Phone, status_background
from cerebellum_gym.sim.render import FRAMES, FrameCache
from cerebellum_gym.sim.screen import TreeCache
from cerebellum_gym.sim.widgets import Widget


def _walk(phone: Phone, rng: np.random.Generator, steps: int) -> None:
    """Random taps on interactive widgets, long presses, typing, scrolls, back and home."""
    for _ in range(steps):
        lay = phone.layout
        pick = int(rng.integers(12))
        if pick < 7 and lay.interactive:
            item = lay.interactive[int(rng.integers(len(lay.interactive)))]
            left, top, right, bottom = item.bounds
            x, y = (left + right) // 2, (top + bottom) // 2
            phone.long_press(x, y) if pick == 6 else phone.tap(x, y)
        elif pick == 7:
            phone.type_text("hi")
        elif pick == 8:
            phone.swipe(540, 1800, 540, 600)
        elif pick == 9:
            phone.swipe(540, 600, 540, 1800)
        elif pick == 10:
            phone.press_key(4)
        else:
            phone.press_key(3)
        phone.ui_tree()


def test_cached_trees_equal_fresh_ones_on_random_walks(monkeypatch: pytest.MonkeyPatch) -> None:
    cache = TreeCache(check=True)
    monkeypatch.setattr(screen, "TREES", cache)
    import cerebellum_gym.sim.phone as phone_module

    monkeypatch.setattr(phone_module, "TREES", cache)
    monkeypatch.setattr(App, "check_reused_specs", True)  # and every reused spec against a fresh one
    rng = np.random.default_rng(5)
    phone = Phone()
    for app in phone.launchable_apps():
        phone.factory_reset()
        phone.start_app(app.package)
        _walk(phone, rng, 40)  # every hit builds the tree afresh too and compares (check=True)
    # (screens whose app hands back the same spec reuse their layout and skip the tree cache)
    assert cache.hits > 60, "screens return often on random walks"
    assert cache.misses > 20


def test_a_cached_tree_comes_back_for_a_screen_that_returns() -> None:
    phone = Phone()
    home = phone.ui_tree()
    phone.start_app("com.android.settings")
    assert phone.ui_tree() is not home
    phone.press_key(3)
    # The same tree object (its compact-text plan and label scan already derived) ...
    assert phone.ui_tree() is home
    # ... and a second phone in the process shares it.
    assert Phone().ui_tree() is home
    assert to_uiautomator_xml(home) == to_uiautomator_xml(screen.layout(phone.foreground_app.build(), phone.foreground_package()).root)


def test_cached_frames_equal_freshly_composed_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(9)
    phone = Phone()
    seen: list[tuple[int, np.ndarray]] = []
    for app in phone.launchable_apps()[:8]:
        phone.start_app(app.package)
        for _ in range(12):
            _walk(phone, rng, 1)
            width = (464, 232)[int(rng.integers(2))]
            seen.append((width, np.array(phone.screenshot(width))))
            phone.invalidate()  # compose (or fetch) again on the next call, not the phone's last frame
    assert FRAMES.hits > 0
    # Replay the same walk on a fresh phone with an empty frame cache that keeps nothing.
    monkeypatch.setattr(render, "FRAMES", FrameCache(max_bytes=0))
    import cerebellum_gym.sim.phone as phone_module

    monkeypatch.setattr(phone_module, "FRAMES", render.FRAMES)
    rng = np.random.default_rng(9)
    phone = Phone()
    fresh: list[tuple[int, np.ndarray]] = []
    for app in phone.launchable_apps()[:8]:
        phone.start_app(app.package)
        for _ in range(12):
            _walk(phone, rng, 1)
            width = (464, 232)[int(rng.integers(2))]
            fresh.append((width, np.array(phone.screenshot(width))))
            phone.invalidate()
    assert render.FRAMES.hits == 0
    assert len(seen) == len(fresh)
    for (w1, a), (w2, b) in zip(seen, fresh, strict=True):
        assert w1 == w2 and np.array_equal(a, b)


def test_frame_cache_is_bounded_by_bytes() -> None:
    cache = FrameCache(max_bytes=3 * 1000)
    for i in range(5):
        cache.put(i, np.zeros(1000, np.uint8))
    assert cache.nbytes == 3000 and cache.get(0) is None and cache.get(4) is not None


def test_frame_cache_resize_drops_the_least_recently_used_now() -> None:
    cache = FrameCache(max_bytes=4 * 1000)
    for i in range(4):
        cache.put(i, np.zeros(1000, np.uint8))
    assert cache.get(0) is not None  # 0 is now the most recently used
    cache.resize(2 * 1000)
    assert cache.nbytes == 2000 and cache.get(1) is None and cache.get(2) is None
    assert cache.get(0) is not None and cache.get(3) is not None
    cache.put(9, np.zeros(1000, np.uint8))  # the new bound holds for later frames too
    assert cache.nbytes == 2000
    with pytest.raises(ValueError, match="0 or more"):
        cache.resize(-1)


@pytest.mark.parametrize(
    ("value", "megabytes"), [(None, render.DEFAULT_FRAME_CACHE_MB), ("", render.DEFAULT_FRAME_CACHE_MB), ("256", 256), (" 0 ", 0)]
)
def test_frame_cache_size_comes_from_the_environment(value: str | None, megabytes: int) -> None:
    environ = {} if value is None else {render.FRAME_CACHE_ENV_VAR: value}
    assert render.frame_cache_bytes(environ) == megabytes * 1024 * 1024


@pytest.mark.parametrize("value", ["-1", "1.5", "lots", "64MB", "1_0", "\u0663"])
def test_frame_cache_size_refuses_what_is_not_whole_megabytes(value: str) -> None:
    with pytest.raises(ValueError, match=render.FRAME_CACHE_ENV_VAR) as caught:
        render.frame_cache_bytes({render.FRAME_CACHE_ENV_VAR: value})
    assert repr(value) in str(caught.value)


def test_worker_processes_started_with_the_variable_use_it() -> None:
    """The variable is read at import, so a process started with it set (a vector env's worker,
    say) sizes its cache by it, and a phone there keeps no frame with 0."""
    code = (
        "import cerebellum_gym.sim.render as r; from cerebellum_gym.sim.phone import Phone; "
        "p = Phone(); p.screenshot(464); p.invalidate(); p.screenshot(464); "
        "print(r.FRAMES.max_bytes, r.FRAMES.nbytes, r.FRAMES.hits)"
    )
    for value, expected in (("0", "0 0 0"), ("3", f"{3 * 1024 * 1024} ")):
        env = {**os.environ, render.FRAME_CACHE_ENV_VAR: value}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
        assert out.startswith(expected), out


def _paint(widget: Widget, scale: float, draw: ImageDraw.ImageDraw, width: int, height: int) -> None:
    widget.paint(draw, width, height, scale)


def _reference_frame(phone: Phone, width: int) -> np.ndarray:
    """The frame as the plain recipe paints it: background everywhere, the status bar, then every
    opaque widget's tile in paint order, halving what lies under a dialog."""
    from cerebellum_gym.sim.screen import SCREEN_HEIGHT, SCREEN_WIDTH

    lay = phone.layout
    scale = width / SCREEN_WIDTH
    canvas = np.empty((round(SCREEN_HEIGHT * scale), width, 3), np.uint8)
    canvas[:] = lay.background
    status_key, status_paint = phone._status_tile(width, scale, status_background(lay.background))
    status = render.TILES.get(status_key, (width, status_key[4]), status_paint, status_key[5])
    render.paste(canvas, status, 0, 0, (0, 0, canvas.shape[1], canvas.shape[0]))
    for i, (widget, (left, top, right, bottom), clip) in enumerate(lay.placed):
        if i == lay.overlay_index:
            canvas >>= 1
        if not widget.opaque:
            continue
        w, h = int((right - left) * scale + 0.5), int((bottom - top) * scale + 0.5)
        key = (type(widget).__name__, widget.render_key(), w, h, round(scale, 5), widget.background)
        tile = render.TILES.get(key, (w, h), functools.partial(_paint, widget, scale), widget.background)
        cl, ct, cr, cb = (int(v * scale + 0.5) for v in clip)
        render.paste(canvas, tile, int(left * scale + 0.5), int(top * scale + 0.5), (cl, ct, cr, cb))
    if lay.overlay_index is not None and lay.overlay_index == len(lay.placed):
        canvas >>= 1
    return canvas


@pytest.mark.parametrize("width", [48, 232, 464])
def test_composed_frames_equal_the_plain_recipe(monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    """The compositor paints the background only where no full-width tile will: the frames are
    still exactly what painting everything in order gives, dialogs (dimming) included."""
    import cerebellum_gym.sim.phone as phone_module

    monkeypatch.setattr(phone_module, "FRAMES", FrameCache(max_bytes=0))  # compose every frame
    rng = np.random.default_rng(width)
    phone = Phone()
    dialogs = 0
    for app in phone.launchable_apps():
        phone.factory_reset()
        phone.start_app(app.package)
        for _ in range(15):
            _walk(phone, rng, 1)
            dialogs += phone.layout.overlay_index is not None
            assert np.array_equal(phone.screenshot(width), _reference_frame(phone, width))
    assert dialogs > 0, "the walks reach dialogs"
