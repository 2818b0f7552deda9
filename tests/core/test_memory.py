"""The allocator tuning: an explicit opt-in, applied on glibc, and left alone when asked."""

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


ENV_CODE = (
    "import gymnasium as gym, cerebellum_gym; from cerebellum_gym.core.memory import reuse_freed_frames\n"
    "gym.make('Cerebellum-Sim-v0', task='SystemWifiTurnOn').reset(seed=0)\n"
    "print(reuse_freed_frames.cache_info().currsize)"
)


def test_making_a_pixel_env_tunes_the_allocator_only_when_asked() -> None:
    """The process-wide setting is an opt-in: no env makes it unless the environment asks."""

    def tuned(**env: str) -> str:
        environ = {k: v for k, v in os.environ.items() if k != "CEREBELLUM_REUSE_FREED_FRAMES"}
        result = subprocess.run([sys.executable, "-c", ENV_CODE], capture_output=True, text=True, env={**environ, **env}, check=True)
        return result.stdout.strip().splitlines()[-1]

    assert tuned() == "0"
    assert tuned(CEREBELLUM_REUSE_FREED_FRAMES="1") == "1"
