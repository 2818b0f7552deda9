"""The layers hold: what each part of the package may import, and no import cycles.

The rule (docs/architecture.md, "Layers"): ``core`` is the bottom layer and imports no backend and
no task; devices know no tasks; tasks judge through the Device interface and never import the
simulator; only the loader assembles an env; nothing below the loader imports the package root
(the env ids' registration). No module imports, through others, a module that imports it, but
for the cycles listed below with their reasons. Every import counts, also those inside functions
and under ``TYPE_CHECKING``: a hidden import is still an edge.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Source folder -> the package it installs as (setup.cfg's package_dir).
SOURCES = {"cerebellum_gym": "cerebellum_gym", "agents": "cerebellum_gym.agents", "wrappers": "cerebellum_gym.wrappers"}

#: The package root's layer: ``cerebellum_gym/__init__.py`` registers the env ids (and so imports
#: the env and the loader).
ROOT_LAYER = "cerebellum_gym"
#: Every layer above ``core``.
ABOVE_CORE = {"devices", "tasks", "sim", "env", "loader", "vector", "evaluation", "agents", "wrappers", "cli", ROOT_LAYER, "training"}
#: Layer -> the layers it must never import.
FORBIDDEN: dict[str, set[str]] = {
    "core": ABOVE_CORE,
    "appdata": {"core", *ABOVE_CORE},
    "devices": {"tasks", "sim", "env", "loader", "vector", "evaluation", "agents", "wrappers", "cli", ROOT_LAYER, "training"},
    "tasks": {"sim", "env", "loader", "vector", "evaluation", "agents", "wrappers", "cli", ROOT_LAYER, "training"},
    # sim/shell/framework.py reads the package's __version__ from the root (cerebellum-sim version); not forbidden yet.
    "sim": {"tasks", "env", "loader", "vector", "evaluation", "agents", "wrappers", "cli", "training"},
    "env": {"sim", "loader", "vector", "evaluation", "agents", "wrappers", "cli", ROOT_LAYER, "training"},
    "loader": {"vector", "evaluation", "agents", "wrappers", "cli", ROOT_LAYER, "training"},
    "vector": {"sim", "tasks", "evaluation", "wrappers", "cli", "training"},
    "wrappers": {"evaluation", "vector", "datasets", "cli", "sim", "training"},
    "agents": {"evaluation", "vector", "datasets", "cli", "sim", "training"},
    "evaluation": {"cli", "training"},
    "datasets": {"evaluation", "vector", "cli", "training"},
    # Trainers sit above evaluation, agents and datasets (they run the regression checks) and below the CLI.
    "training": {"cli"},
}
#: Package pairs allowed to import each other: the simulator's host (the phone) and its plugins (the apps).
ALLOWED_CYCLES = [{"cerebellum_gym.sim", "cerebellum_gym.sim.apps"}]
#: Module cycles allowed, each with why it is still there (a module cycle must lie inside one of
#: these groups). Each is in files other branches were changing when the rule came in (issue 28).
ALLOWED_MODULE_CYCLES: list[tuple[set[str], str]] = [
    (
        {"cerebellum_gym.sim.phone", "cerebellum_gym.sim.screen", "cerebellum_gym.sim.widgets", "cerebellum_gym.sim.telephony"}
        # the Material components are widgets (widgets.py's subclasses), in its cycle with the phone
        | {
            f"cerebellum_gym.sim.material.{path.stem}"
            for path in (ROOT / "cerebellum_gym" / "sim" / "material").glob("*.py")
            if path.stem != "__init__"
        }
        | {"cerebellum_gym.sim.apps"}
        # every app module (apps come and go with the branches that add them)
        | {
            f"cerebellum_gym.sim.apps.{path.stem}"
            for path in (ROOT / "cerebellum_gym" / "sim" / "apps").glob("*.py")
            if path.stem != "__init__"
        },
        "the phone (host) and its apps (plugins) know each other (sim/databases.py, which apps/base.py calls, "
        "is out of it: it takes the phone as a protocol)",
    ),
]


def _modules() -> Iterator[tuple[str, Path, bool]]:
    for folder, package in SOURCES.items():
        base = ROOT / folder
        for path in sorted(base.rglob("*.py")):
            parts = list(path.relative_to(base).with_suffix("").parts)
            is_init = parts[-1] == "__init__"
            if is_init:
                parts = parts[:-1]
            yield ".".join([package, *parts]), path, is_init


MODULE_NAMES = {name for name, _, _ in _modules()}


def _imports(name: str, path: Path, is_init: bool) -> set[str]:
    found: set[str] = set()
    package = name if is_init else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            named = {f"{module}.{alias.name}" for alias in node.names}
            # `from pkg import submodule` imports the submodule; it names nothing of pkg itself
            # (whose __init__ runs for any import below it anyway).
            found.update(named)
            if not named <= MODULE_NAMES:
                found.add(module)
    return {m for m in found if m == "cerebellum_gym" or m.startswith("cerebellum_gym.")}


MODULES = {name: _imports(name, path, is_init) for name, path, is_init in _modules()}
KNOWN = set(MODULES)


def _resolve(target: str) -> str | None:
    """The module an import names (``from pkg import name`` may name a function, not a module)."""
    while target and target not in KNOWN:
        target = target.rpartition(".")[0]
    return target or None


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "cerebellum_gym"


def test_the_source_tree_is_seen() -> None:
    assert {"cerebellum_gym.core.actions", "cerebellum_gym.env", "cerebellum_gym.loader", "cerebellum_gym.agents.base"} <= KNOWN


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_layer_imports_above_itself(layer: str) -> None:
    breaches = [
        f"{module} imports {target}"
        for module, targets in MODULES.items()
        if _layer(module) == layer
        for target in sorted(targets)
        if (resolved := _resolve(target)) is not None and _layer(resolved) in FORBIDDEN[layer]
    ]
    assert not breaches, "\n".join(breaches)


def _package_graph() -> dict[str, set[str]]:
    packages = {name for name, path, is_init in _modules() if is_init}

    def package_of(module: str) -> str:
        return module if module in packages else module.rpartition(".")[0]

    graph: dict[str, set[str]] = defaultdict(set)
    for module, targets in MODULES.items():
        for target in targets:
            resolved = _resolve(target)
            if resolved is None:
                continue
            src, dst = package_of(module), package_of(resolved)
            # A package importing its own subpackages (its public surface) is no back-edge.
            if src != dst and not dst.startswith(src + "."):
                graph[src].add(dst)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components of more than one package (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles_between_packages() -> None:
    cycles = [c for c in _cycles(_package_graph()) if c not in ALLOWED_CYCLES]
    assert not cycles, f"import cycles between packages: {cycles}"


def _module_graph() -> dict[str, set[str]]:
    """Module -> the modules it imports (a module's own packages are how Python loads it: no edge)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for module, targets in MODULES.items():
        for target in targets:
            resolved = _resolve(target)
            if resolved is not None and resolved != module and not module.startswith(resolved + "."):
                graph[module].add(resolved)
    return graph


def test_no_import_cycles_between_modules() -> None:
    unexplained = [sorted(cycle) for cycle in _cycles(_module_graph()) if not any(cycle <= allowed for allowed, _ in ALLOWED_MODULE_CYCLES)]
    assert not unexplained, f"import cycles between modules: {unexplained}"


def test_every_allowed_module_cycle_is_still_there() -> None:
    """An allowance outlives nothing: a cycle that was fixed leaves the list."""
    cycles = _cycles(_module_graph())
    stale = [why for allowed, why in ALLOWED_MODULE_CYCLES if not any(cycle <= allowed for cycle in cycles)]
    assert not stale, f"these cycles are gone; drop their allowances: {stale}"


def test_the_module_cycle_check_sees_a_back_edge() -> None:
    graph = _module_graph()
    graph["cerebellum_gym.core.actions"].add("cerebellum_gym.vector.rules")  # a back-edge: actions <-> rules
    graph["cerebellum_gym.vector.rules"].add("cerebellum_gym.core.actions")
    assert any({"cerebellum_gym.core.actions", "cerebellum_gym.vector.rules"} <= c for c in _cycles(graph))


def test_the_cycle_check_sees_a_back_edge() -> None:
    graph = _package_graph()
    graph["cerebellum_gym.core"].add("cerebellum_gym.devices")  # core -> devices -> core
    assert any({"cerebellum_gym.core", "cerebellum_gym.devices"} <= c for c in _cycles(graph))


def test_importing_the_package_loads_no_simulator() -> None:
    """ADB and AndroidWorld users pay for no simulator module at ``import cerebellum_gym``."""
    import subprocess
    import sys

    code = "import sys, cerebellum_gym; print(sorted(m for m in sys.modules if m.startswith('cerebellum_gym.sim')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"


DOC = ROOT / "docs" / "architecture.md"
#: Upward imports the doc allows, each with its reason written there.
DOCUMENTED_UPWARD = {("sim", "cerebellum_gym")}


def _documented_order(text: str) -> list[str]:
    """The layers of docs/architecture.md's "Top to bottom:" list, in order."""
    import re

    start = text.index("Top to bottom")
    listed = text[start : text.index(". One upward import", start)]
    return re.findall(r"`([\w.]+)`", listed)


def _layer_edges() -> set[tuple[str, str]]:
    return {
        (_layer(module), _layer(resolved))
        for module, targets in MODULES.items()
        for target in targets
        if (resolved := _resolve(target)) is not None and _layer(module) != _layer(resolved)
    }


def _upward(order: list[str], edges: set[tuple[str, str]]) -> list[str]:
    rank = {layer: i for i, layer in enumerate(order)}
    return sorted(f"{a} imports {b}" for a, b in edges if (a, b) not in DOCUMENTED_UPWARD and rank[a] >= rank[b])


def test_the_documented_layer_order_is_the_code_s() -> None:
    """docs/architecture.md's layers, top to bottom, hold for every import between layers: each
    goes down the list (but the documented exception), and every layer of the code is listed."""
    order = _documented_order(DOC.read_text())
    edges = _layer_edges()
    assert {layer for edge in edges for layer in edge} <= set(order), "layers the doc does not list"
    assert not _upward(order, edges)
    assert all(f"`{a}`" in DOC.read_text() for a, _ in DOCUMENTED_UPWARD)


def test_the_layer_order_check_sees_a_broken_rule() -> None:
    """The check fails on an import the doc rules out: agents importing the vector envs."""
    order = _documented_order(DOC.read_text())
    assert _upward(order, {*_layer_edges(), ("agents", "vector")}) == ["agents imports vector"]


def test_the_documented_forbidden_imports_are_the_tested_ones() -> None:
    """The doc's sentences about what vector, agents and datasets never import name the layers
    this test forbids them."""
    text = DOC.read_text()
    assert "`vector/` imports no simulator and no task" in text and {"sim", "tasks"} <= FORBIDDEN["vector"]
    assert "know no evaluation, no vector env and no\n  dataset" in text
    assert {"evaluation", "vector", "datasets"} <= FORBIDDEN["agents"] and {"evaluation", "vector"} <= FORBIDDEN["datasets"]
