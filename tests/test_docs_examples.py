"""The Python examples in the README and the guides run as written (those that need no device,
cluster or downloaded weights).

A ```` ```python ```` block followed directly by an ```` ```output ```` block shows what it prints:
the test runs the page's blocks in order and compares.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"```python\n(.*?)```", re.S)
#: Examples that need something this machine does not have (a device, an emulator).
NEEDS_OUTSIDE = ("Cerebellum-Adb-v0", "Cerebellum-AndroidWorld-v0", "android_world")


def _examples() -> list[tuple[str, int, str]]:
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for i, code in enumerate(BLOCK.findall(path.read_text())):
            if not any(marker in code for marker in NEEDS_OUTSIDE):
                found.append((path.name, i, code))
    return found


def _chains(examples: list[tuple[str, int, str]]) -> list[tuple[str, str]]:
    # Blocks of one page continue each other (a later block may use names from an earlier one).
    pages: dict[str, str] = {}
    for name, _, code in examples:
        pages[name] = pages.get(name, "") + "\n" + code
    return sorted(pages.items())


@pytest.mark.parametrize(("page", "code"), _chains(_examples()), ids=lambda v: v if isinstance(v, str) and v.endswith(".md") else "")
def test_page_examples_run(page: str, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    exec(compile(code, f"<{page}>", "exec"), {"__name__": "__docs__"})


SHOWN = re.compile(r"```python\n(.*?)```\s*```output\n(.*?)```", re.S)


def _pages_with_output() -> list[str]:
    names = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        if SHOWN.search(path.read_text()):
            names.append(path.name)
    return names


@pytest.mark.parametrize("page", _pages_with_output())
def test_shown_output_is_what_the_code_prints(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = (ROOT / ("README.md" if page == "README.md" else f"docs/{page}")).read_text()
    shown = {m.start(1): m.group(2) for m in SHOWN.finditer(text)}
    namespace = {"__name__": "__docs__"}
    for match in BLOCK.finditer(text):
        if any(marker in match.group(1) for marker in NEEDS_OUTSIDE):
            continue
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            exec(compile(match.group(1), f"<{page}>", "exec"), namespace)
        if match.start(1) in shown:
            assert buffer.getvalue() == shown[match.start(1)], f"{page}: the output shown after a block is not what it prints"
