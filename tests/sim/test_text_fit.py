"""Fitting text to a width: the longest prefix that fits with its ellipsis, at a cost that does not
grow with the length of the text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from cerebellum_gym.sim.render import font, text_fit

DRAW = ImageDraw.Draw(Image.new("RGB", (1, 1)))


def _naive_fit(text: str, size: int, max_width: int) -> str:
    """The definition, one character at a time (the quadratic original), on one line."""
    f = font(size)
    text = text.replace("\n", " ")
    if DRAW.textlength(text, font=f) <= max_width:
        return text
    while text and DRAW.textlength(text + "…", font=f) > max_width:
        text = text[:-1]
    return text + "…"


@given(
    text=st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=300) | st.text("abc WXYZ.il", max_size=400),
    size=st.sampled_from([12, 24, 40]),
    max_width=st.integers(0, 900),
)
def test_text_fit_is_the_longest_prefix_that_fits(text: str, size: int, max_width: int) -> None:
    assert text_fit(DRAW, text, size, max_width) == _naive_fit(text, size, max_width)


def test_text_fit_measures_only_what_can_show() -> None:
    """A megabyte of text costs a handful of measurements of short prefixes, never the whole."""
    measured: list[int] = []

    class Counting(ImageDraw.ImageDraw):
        def textlength(self, text: str, *args: object, **kwargs: object) -> float:  # type: ignore[override]
            measured.append(len(text))
            return super().textlength(text, *args, **kwargs)  # type: ignore[arg-type]

    draw = Counting(Image.new("RGB", (1, 1)))
    shown = text_fit(draw, "word " * 200_000, 24, 400)
    assert shown.endswith("…") and len(shown) < 100
    assert max(measured) <= 256 and len(measured) < 20
