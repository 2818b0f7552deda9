"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os

from hypothesis import settings

# CI machines are small and shared: fewer, deadline-free examples keep property tests stable.
settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
