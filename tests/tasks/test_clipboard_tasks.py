"""The clipboard tasks' own parameter pool is AndroidWorld's (read from its source with ``ast``,
as tests/tasks/test_androidworld_conformance.py reads the shared pools)."""

from __future__ import annotations

import pytest
from test_androidworld_conformance import READ, _local_literal

from cerebellum_gym.tasks.clipboard import CLIPBOARD_CONTENTS


@pytest.mark.skipif(READ is None, reason="AndroidWorld's source is not available")
def test_copy_to_clipboard_pool_is_androidworlds() -> None:
    want = _local_literal("task_evals/single/system.py", "generate_random_params", cls="SystemCopyToClipboard")
    assert tuple(want) == CLIPBOARD_CONTENTS
