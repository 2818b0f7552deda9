"""Public trajectories into this project's dataset format: AndroidControl, Android in the Wild
and AndroidWorld episodes (``cerebellum-gym datasets import``; see ``docs/datasets.md``).

One module per source turns its files into source episodes; :mod:`.common` maps their actions
to codes, labels their screens as the simulator does, and writes one part per source file,
atomically, with a report. No TensorFlow: :mod:`.tfrecord` frames and checks the records,
:mod:`.protowire` decodes the protocol buffers.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from cerebellum_gym.datasets.importers.common import ImportReport, Shard, import_shards, iter_shards, shard_number
from cerebellum_gym.errors import CerebellumError

SOURCES = ("androidcontrol", "aitw", "androidworld")


def import_dataset(
    source: str,
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    out: str | os.PathLike[str],
    *,
    progress: bool = False,
    limit: int | None = None,
) -> ImportReport:
    """Import the files (or folders of files) ``paths`` of ``source`` into the dataset ``out``.

    Raises:
        CerebellumError: an unknown source, or no file to import.
    """
    if source == "androidcontrol":
        from cerebellum_gym.datasets.importers import androidcontrol as module
    elif source == "aitw":
        from cerebellum_gym.datasets.importers import aitw as module  # type: ignore[no-redef]
    elif source == "androidworld":
        from cerebellum_gym.datasets.importers import androidworld as module  # type: ignore[no-redef]
    else:
        raise CerebellumError(f"unknown source {source!r}; sources: {', '.join(SOURCES)}")
    given = [paths] if isinstance(paths, str | os.PathLike) else list(paths)
    for path in given:
        if not Path(path).exists():
            raise CerebellumError(f"{path} does not exist")
    files = iter_shards(Path(p) for p in given)
    if not files:
        raise CerebellumError(f"no file to import in {', '.join(map(str, given))}")
    shards: list[Shard] = [(f.name, shard_number(f.name), partial(module.episodes, f)) for f in files]
    return import_shards(source, shards, out, progress=progress, limit=limit)


__all__ = ["SOURCES", "ImportReport", "import_dataset"]
