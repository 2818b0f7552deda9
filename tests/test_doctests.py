"""Run the examples in the package's docstrings, so the documentation stays true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import cerebellum_gym
import cerebellum_gym.agents
import cerebellum_gym.wrappers


def _modules() -> list[str]:
    names = []
    # agents/ and wrappers/ live beside the package in the repository, so walk them too.
    packages = (
        (cerebellum_gym.__path__, "cerebellum_gym."),
        (cerebellum_gym.agents.__path__, "cerebellum_gym.agents."),
        (cerebellum_gym.wrappers.__path__, "cerebellum_gym.wrappers."),
    )
    infos = [info for path, prefix in packages for info in pkgutil.walk_packages(path, prefix)]
    for info in infos:
        # Optional backends import their extras at module level; their examples need a device.
        if info.name.endswith(("__main__", ".adb", ".androidworld")):
            continue
        names.append(info.name)
    return sorted(set(names))


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
