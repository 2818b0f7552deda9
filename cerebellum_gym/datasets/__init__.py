"""Episodes as datasets: recording, loading, replay audits, offline action evaluation, exports.

- :class:`RecordEpisodes` (a gymnasium wrapper) and :func:`recording_env_fns` (vector envs) write
  every episode into a dataset folder as it happens, crash-safe;
- :func:`open_dataset` reads it back as episodes or steps, observations exactly as recorded;
- :func:`~cerebellum_gym.datasets.replay.audit` re-runs simulator episodes from their seeds and
  checks every observation and reward;
- :func:`~cerebellum_gym.datasets.offline.evaluate_offline` scores an agent's next action against
  the recorded one;
- :mod:`~cerebellum_gym.datasets.exports`: Parquet / Hugging Face ``datasets``, Minari, SFT
  examples and trajectory-level DPO pairs.

The format is documented in ``docs/datasets.md`` and :mod:`cerebellum_gym.datasets.format`.
Parquet, Hugging Face ``datasets`` and Minari need the ``datasets`` extra; recording and reading
need only the core install (images then stored as PNG; with the extra, as ``npy.zst``, which
reading then needs too).
"""

from __future__ import annotations

from cerebellum_gym.datasets.format import FORMAT_VERSION, DatasetError
from cerebellum_gym.datasets.reader import Dataset, Episode, Step, open_dataset
from cerebellum_gym.datasets.recorder import DatasetWriter, RecordEpisodes, recording_env_fns

__all__ = [
    "FORMAT_VERSION",
    "Dataset",
    "DatasetError",
    "DatasetWriter",
    "Episode",
    "RecordEpisodes",
    "Step",
    "open_dataset",
    "recording_env_fns",
]
