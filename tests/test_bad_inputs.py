"""The first hour's bad inputs (benchmarks/firsthour/bad_inputs.py): each gets one line that names
its fix. Every in-process input runs here; of the command lines, one of each kind (the full list
runs with the script, a subprocess each)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "firsthour" / "bad_inputs.py"
_spec = importlib.util.spec_from_file_location("bad_inputs", SCRIPT)
assert _spec is not None and _spec.loader is not None
bad_inputs = importlib.util.module_from_spec(_spec)
sys.modules["bad_inputs"] = bad_inputs  # its dataclass looks its module up
_spec.loader.exec_module(bad_inputs)

IN_PROCESS = [b for b in bad_inputs.BAD if b.call is not None]
COMMANDS = list({b.kind: b for b in bad_inputs.BAD if b.call is None}.values())


def test_every_kind_the_issue_names_is_covered() -> None:
    kinds = {b.kind for b in bad_inputs.BAD}
    assert len(bad_inputs.BAD) >= 30
    assert {"gym.make", "--env-kwargs", "reset options", "device_options", "suite", "family", "app", "agent spec"} <= kinds
    assert {"structured action", "CLI flag"} <= kinds


@pytest.mark.parametrize("bad", IN_PROCESS, ids=[b.typed for b in IN_PROCESS])
def test_in_process_input_gets_one_line_naming_the_fix(bad: object) -> None:
    assert bad_inputs.check(bad) is None


@pytest.mark.parametrize("bad", COMMANDS, ids=[b.typed for b in COMMANDS])
def test_command_exits_2_with_one_line_and_writes_nothing(bad: object) -> None:
    assert bad_inputs.check(bad) is None


def test_an_accepted_input_is_reported() -> None:
    """The check itself can fail: a valid option is 'accepted', a valid command exits 0."""
    good = bad_inputs.Bad("gym.make", "gym.make(ID, pixels=False)", "-", bad_inputs._make(pixels=False))
    assert bad_inputs.check(good) == "accepted"
    listing = bad_inputs._cli("CLI flag", "tasks --family system", "-")
    assert (bad_inputs.check(listing) or "").startswith("exit 0")
