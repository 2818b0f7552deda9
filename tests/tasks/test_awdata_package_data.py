"""AndroidWorld's parameter pools ship as package data (``tasks/data/androidworld.json``) and load
as the immutable pools the tasks draw from (the values themselves are checked against
AndroidWorld's source in ``test_androidworld_conformance.py``)."""

from __future__ import annotations

import configparser
import fnmatch
import json
from pathlib import Path
from typing import Any

from cerebellum_gym.tasks import awdata

ROOT = Path(__file__).resolve().parents[2]


def _no_lists(value: Any, where: str) -> None:
    assert not isinstance(value, list), f"{where} is a list (the pools are tuples)"
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str), where
            _no_lists(item, f"{where}[{key!r}]")
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            _no_lists(item, f"{where}[{i}]")
    else:
        assert isinstance(value, str), f"{where} is a {type(value).__name__}"


def test_every_pool_in_the_data_file_is_a_module_attribute_of_tuples_and_strings() -> None:
    data = json.loads(awdata.DATA_FILE.read_text(encoding="utf-8"))
    pools = {n for n, v in vars(awdata).items() if n.isupper() and isinstance(v, tuple | dict) and not n.startswith("_")}
    assert set(data) == pools
    for name in data:
        _no_lists(getattr(awdata, name), name)
    assert awdata.RECIPES[0] == tuple(data["RECIPES"][0])  # pairs stay pairs


def test_the_data_file_is_declared_package_data() -> None:
    """A wheel carries it (``tests/test_packaging.py`` installs one and runs the tasks)."""
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    patterns = [p.strip() for p in cfg["options.package_data"]["cerebellum_gym"].split(",")]
    relative = awdata.DATA_FILE.relative_to(ROOT / "cerebellum_gym").as_posix()
    assert any(fnmatch.fnmatch(relative, pattern) for pattern in patterns), (relative, patterns)
