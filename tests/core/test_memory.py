"""The allocator tuning: applied on glibc, and left alone when asked."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

CODE = "from cerebellum_gym.core.memory import reuse_freed_frames; print(reuse_freed_frames())"


def _run(**env: str) -> str:
    result = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, env={**os.environ, **env}, check=True)
    return result.stdout.strip()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc only")
def test_tuned_on_glibc_and_skipped_on_request() -> None:
    assert _run(CEREBELLUM_KEEP_MALLOC="0") == "True"
    assert _run(CEREBELLUM_KEEP_MALLOC="1") == "False"
