"""Fixtures for the evaluation harness tests: small suites in temporary folders."""

from __future__ import annotations

from pathlib import Path

import pytest
from evalhelpers import write_suite


@pytest.fixture
def small_suite(tmp_path: Path) -> Path:
    """Eight cases over four tasks and two families."""
    return write_suite(tmp_path, "small", 2)
