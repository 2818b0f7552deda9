"""The README and the guides, run as written: code runs, and shown output is what it prints.

Every fenced block carries a language, which says what the test does with it:

- ``python``: run; a page's blocks run in order in one namespace (a later block may use names
  from an earlier one). When an ``output`` block follows, what the python block prints must match it.
- ``console``: ``$ cerebellum-gym ...`` lines are run (as ``python -m cerebellum_gym``, in a
  fresh folder per page), and the lines after each, up to the next ``$``, must match what it
  prints on stdout.
- ``output``: expected output of the python block before it.
- ``json``: a suite file (``docs/suites.md``): it must load as one.
- ``bash``: commands shown, not run (installs, devices, clusters); they must show no output.
- ``text``: an illustration that no command prints (a grammar, a layout).

Matching is doctest's: ``...`` stands for anything (values that vary, such as timings, paths
and timestamps), and runs of whitespace are equal. Blocks that need what this machine lacks (a
device, an emulator, AndroidWorld) are skipped by the markers in :data:`NEEDS_OUTSIDE`.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.S | re.M)
LANGUAGES = {"python", "console", "output", "json", "bash", "text"}
#: Examples that need something this machine does not have (a device, an emulator).
NEEDS_OUTSIDE = ("Cerebellum-Adb-v0", "Cerebellum-AndroidWorld-v0", "android_world", "--ray-address", "serve-adb")
CHECKER = doctest.OutputChecker()
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    lang: str
    body: str

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        indent = len(match["indent"])
        body = "\n".join(line[indent:] for line in match["body"].splitlines()) + "\n"
        found.append(Block(path.name, text.count("\n", 0, match.start()) + 1, match["lang"].strip(), body))
    return found


def _needs_outside(block: Block) -> bool:
    return any(marker in block.body for marker in NEEDS_OUTSIDE)


def _match(expected: str, got: str, where: str) -> None:
    if not CHECKER.check_output(expected, got, FLAGS):
        example = doctest.Example("", expected)
        pytest.fail(f"{where}: the output shown is not what runs print\n" + CHECKER.output_difference(example, got, FLAGS))


def test_every_block_says_what_it_is() -> None:
    for path in PAGES:
        for block in blocks(path):
            assert block.lang in LANGUAGES, f"{block.where}: fence language {block.lang!r}; use one of {sorted(LANGUAGES)}"
    for path in PAGES:
        previous: Block | None = None
        for block in blocks(path):
            if block.lang == "output":
                assert previous is not None and previous.lang == "python", f"{block.where}: an output block follows a python block"
            if block.lang == "bash":
                shown = [ln for ln in block.body.splitlines() if ln.strip() and not ln.lstrip().startswith(("#", "$"))]
                assert all(not ln.startswith(("|", "Report:")) for ln in shown), f"{block.where}: output belongs in a console block"
            previous = block


@pytest.mark.parametrize("page", [p.name for p in PAGES if any(b.lang == "python" for b in blocks(p))])
def test_python_examples_print_what_the_page_shows(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__main__"}  # as `python page_example.py` runs it
    page_blocks = blocks(next(p for p in PAGES if p.name == page))
    for index, block in enumerate(page_blocks):
        if block.lang != "python" or _needs_outside(block):
            continue
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(block.body, f"<{block.where}>", "exec"), namespace)
        following = page_blocks[index + 1] if index + 1 < len(page_blocks) else None
        if following is not None and following.lang == "output":
            _match(following.body, printed.getvalue(), following.where)


def _console_cases() -> list[tuple[str, str, str]]:
    cases = []
    for path in PAGES:
        for block in blocks(path):
            if block.lang != "console" or _needs_outside(block):
                continue
            command, expected = None, []
            for line in [*block.body.splitlines(), "$ "]:
                if line.startswith("$ "):
                    if command:
                        cases.append((block.where, command, "\n".join(expected) + "\n"))
                    command, expected = line[2:].strip(), []
                else:
                    expected.append(line)
    return cases


def test_console_blocks_only_run_the_cli() -> None:
    for where, command, _ in _console_cases():
        assert shlex.split(command)[0] == "cerebellum-gym", f"{where}: console blocks run cerebellum-gym commands; {command!r}"


@pytest.mark.slow
@pytest.mark.parametrize(("where", "command", "expected"), _console_cases(), ids=lambda v: v if ":" in str(v) and ".md" in v else "")
def test_console_examples_print_what_the_page_shows(where: str, command: str, expected: str, tmp_path: Path) -> None:
    args = shlex.split(command)[1:]
    done = subprocess.run(
        [sys.executable, "-m", "cerebellum_gym", *args], cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, f"{where}: {command} failed:\n{done.stderr}"
    _match(expected, done.stdout, where)


def test_suite_examples_load() -> None:
    from cerebellum_gym.evaluation.suites import suite_from_mapping

    for path in PAGES:
        for block in blocks(path):
            if block.lang == "json":
                data = json.loads(block.body)
                if path.name == "fidelity.md":
                    continue  # a reference screen of the fidelity benchmark, which checks its own format
                suite_from_mapping(data, name="example", source=block.where)
