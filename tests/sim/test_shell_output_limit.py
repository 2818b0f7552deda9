"""The served shell stops a command line whose output passes the device's limit before building
it (issue 36): the payloads that raised peak memory by hundreds of MB end with the limit's error,
what fits still comes back, and output written to a file is bounded by storage instead."""

from __future__ import annotations

import pytest

from cerebellum_gym.sim import Phone
from cerebellum_gym.sim.shell import Shell
from cerebellum_gym.sim.shell.language import MAX_ARGS_BYTES, MAX_OUTPUT

MIB = 1 << 20


@pytest.fixture
def sh() -> Shell:
    return Shell(Phone())


def test_a_line_of_many_cats_stops_at_the_limit_with_what_fit(sh: Shell) -> None:
    sh.phone.write_file("/sdcard/f", b"x" * (8 * MIB))
    result = sh.run("cat /sdcard/f; " * 30)
    assert result.code == 1
    assert b"output passed the device's limit" in result.stderr
    assert len(result.stdout) == (MAX_OUTPUT // (8 * MIB)) * 8 * MIB  # every whole file that fit
    assert sh.run("echo still here").stdout == b"still here\n"  # the session goes on


def test_one_cat_of_many_big_files_fails_before_joining_them(sh: Shell) -> None:
    for i in range(20):
        sh.phone.write_file(f"/sdcard/big{i}", bytes([65 + i]) * (16 * MIB))
    result = sh.run("cat " + " ".join(f"/sdcard/big{i}" for i in range(20)))
    assert result.code == 1 and result.stdout == b""
    assert b"limit of" in result.stderr
    # Under the limit, the same command answers in full.
    assert sh.run("cat /sdcard/big0 /sdcard/big1").stdout == b"A" * (16 * MIB) + b"B" * (16 * MIB)


def test_substitutions_are_bounded_by_the_words_a_command_may_hold(sh: Shell) -> None:
    sh.phone.write_file("/sdcard/f", b"y" * (MAX_ARGS_BYTES // 2))
    result = sh.run("echo $(cat /sdcard/f) $(cat /sdcard/f) $(cat /sdcard/f)")
    assert result.code == 1 and b"Argument list too long" in result.stderr
    # Two halves fit exactly: the words are what the files hold.
    assert len(sh.run("echo $(cat /sdcard/f)$(cat /sdcard/f)").stdout) == MAX_ARGS_BYTES + 1


def test_output_to_a_file_is_bounded_by_storage_not_by_the_line_limit(sh: Shell) -> None:
    sh.phone.write_file("/sdcard/f", b"z" * (24 * MIB))
    result = sh.run("cat /sdcard/f /sdcard/f > /sdcard/g")
    assert result.code == 0, result.stderr
    assert len(sh.phone.read_file("/sdcard/g")) == 48 * MIB > MAX_OUTPUT
    assert sh.run("cat /sdcard/g").code == 1  # but it cannot all come back in one line


def test_a_line_under_the_limit_is_unchanged(sh: Shell) -> None:
    sh.phone.write_file("/sdcard/a", b"alpha\n")
    assert sh.run("cat /sdcard/a /sdcard/a; echo $(cat /sdcard/a) done").stdout == b"alpha\nalpha\nalpha done\n"
    assert sh.run("screencap; screencap").code == 0  # two raw 1080x2400 frames fit
