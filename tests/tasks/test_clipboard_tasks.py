"""The clipboard, gallery and drawing tasks' own parameter pools are AndroidWorld's (read from its source
with ``ast``, as tests/tasks/test_androidworld_conformance.py reads the shared pools), and the
receipt they push carries its text in its pixels only."""

from __future__ import annotations

import io

import pytest
from test_androidworld_conformance import READ, _local_literal

from cerebellum_gym.tasks import draw, gallery
from cerebellum_gym.tasks.clipboard import CLIPBOARD_CONTENTS

RECEIPTS = "task_evals/utils/receipt_generator.py"


@pytest.mark.skipif(READ is None, reason="AndroidWorld's source is not available")
def test_copy_to_clipboard_pool_is_androidworlds() -> None:
    want = _local_literal("task_evals/single/system.py", "generate_random_params", cls="SystemCopyToClipboard")
    assert tuple(want) == CLIPBOARD_CONTENTS


@pytest.mark.skipif(READ is None, reason="AndroidWorld's source is not available")
def test_receipt_pools_are_androidworlds() -> None:
    assert tuple(tuple(i) for i in _local_literal(RECEIPTS, "_random_transaction", "items")) == gallery.RECEIPT_ITEMS
    assert tuple(_local_literal(RECEIPTS, "_random_company_info", "company_names")) == gallery.RECEIPT_COMPANIES
    assert tuple(_local_literal(RECEIPTS, "_random_company_info", "slogans")) == gallery.RECEIPT_SLOGANS


def test_receipt_draws_like_androidworld() -> None:
    import numpy as np

    receipt = gallery.random_receipt(np.random.default_rng(3), 5)
    for day, item, price in receipt["transactions"]:
        low, high = dict(gallery.RECEIPT_ITEMS)[item]
        assert low <= float(price[1:]) <= high
        assert "2023-01-01" <= day < "2023-10-15"
    assert gallery.receipt_text(receipt).splitlines()[2] == "Date, Item, Amount"
    assert len(gallery.receipt_text(receipt).splitlines()) == 8
    assert gallery.receipt_image(receipt)[:2] == b"\xff\xd8"
    png = gallery.receipt_image(receipt, "PNG")
    from PIL import Image

    assert Image.open(io.BytesIO(png)).size == (500, 900)  # max(250, 50 * (5 + 4)) * 2


@pytest.mark.skipif(READ is None, reason="AndroidWorld's source is not available")
def test_drawing_name_pools_are_androidworlds() -> None:
    rel = "task_evals/single/simple_draw_pro.py"
    assert tuple(_local_literal(rel, "generate_random_params", "words")) == draw.DRAWING_WORDS
    assert tuple(_local_literal(rel, "generate_random_params", "extensions")) == draw.DRAWING_EXTENSIONS
