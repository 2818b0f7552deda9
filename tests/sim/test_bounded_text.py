"""Text layout reads only what it can show (issue 36): a text of a megabyte is measured as often as
its first screenful, and the lines laid out are the screenful's lines."""

from __future__ import annotations

from PIL import Image, ImageDraw

from cerebellum_gym.sim import render
from cerebellum_gym.sim.apps import broccoli
from cerebellum_gym.sim.phone import Phone
from cerebellum_gym.sim.widgets import wrap_lines
from cerebellum_gym.tasks import sms

HUGE = ("lorem ipsum dolor sit amet " * 40_000)[:1_000_000]
PAGE = HUGE[:20_000]


class CountingDraw(ImageDraw.ImageDraw):
    """A real drawing context that counts how many characters it was asked to measure."""

    measured = 0

    def textlength(self, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.measured += len(text)
        return super().textlength(text, *args, **kwargs)


def draw() -> CountingDraw:
    return CountingDraw(Image.new("RGB", (1080, 2400)))


def test_layout_lines_of_a_huge_text_are_its_pages_lines_with_the_ellipsis() -> None:
    # Only the first screenful of the text is read now: the lines and the ellipsis must not change.
    page, huge = draw(), draw()
    shown = render.layout_lines(page, PAGE, 40, 900, max_lines=30, ellipsize=True)
    assert render.layout_lines(huge, HUGE, 40, 900, max_lines=30, ellipsize=True) == shown
    assert shown[-1].endswith("…") and huge.measured == page.measured


def test_wrap_lines_with_a_limit_reads_a_screenful() -> None:
    page, huge = draw(), draw()
    whole = wrap_lines(page, PAGE, 40, 900)
    assert wrap_lines(huge, HUGE, 40, 900, 30) == whole[:30]
    assert huge.measured < page.measured / 5


def test_broccolis_wrapping_stops_at_a_screenful() -> None:
    lines = broccoli.wrap_text(HUGE, 37, 990)
    assert len(lines) == broccoli.MAX_LAID_OUT_LINES
    assert lines == broccoli.wrap_text(PAGE, 37, 990)[: broccoli.MAX_LAID_OUT_LINES]
    assert broccoli.wrapped(HUGE, 40, 990) == broccoli.wrapped(PAGE, 40, 990)[: broccoli.MAX_LAID_OUT_LINES]


def test_a_megabyte_sms_shows_in_its_thread() -> None:
    # The bubble once wrapped the whole body on every paint (34 s a step for a megabyte).
    phone = Phone()
    sms.add_sms(phone, "+15550100", HUGE, "1", 0)
    phone.start_app(sms.SMS_PACKAGE)
    row = next(n for n in phone.ui_tree().iter() if n.text.startswith("lorem ipsum"))
    phone.tap(*row.center)
    body = next(n for n in phone.ui_tree().iter() if n.resource_id.endswith("thread_message_body"))
    assert body.text.startswith("lorem ipsum") and phone.screenshot().shape[:2] == (2400, 1080)
