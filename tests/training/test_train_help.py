"""``cerebellum-gym train sft|dpo|rl --help``: every option says what it does, and a default
shows at most once."""

from __future__ import annotations

import argparse

import pytest

from cerebellum_gym.cli import build_parser


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no sub-commands")


@pytest.mark.parametrize("trainer", ["sft", "dpo", "rl"])
def test_every_option_has_help_and_its_default_once(trainer: str) -> None:
    parser = _subparsers(_subparsers(build_parser())["train"])[trainer]
    missing = [a.option_strings[0] for a in parser._actions if a.option_strings and a.dest != "help" and not a.help]
    assert missing == []
    text = parser.format_help()
    twice = [" ".join(chunk.split())[:80] for chunk in text.split("\n  -") if chunk.count("default") > 1]
    assert twice == []
    assert "--output" not in text
