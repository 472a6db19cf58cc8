"""The rooms of the house (ARCHITECTURE.md) hold: the import-linter contracts of pyproject.toml,
no import loop at module level (imports under TYPE_CHECKING included), no project import hidden
inside a function, and no source file over 600 lines."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import grimp
import networkx as nx
import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("solver", "puzzles", "cli", "benchmarks")
MAX_LINES = 600
#: An in-function project import is allowed only with this mark and a reason on its line.
LAZY_MARK = "lazy:"


def _sources() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def test_import_linter_contracts_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True,
                        no_logo=True) == 0


def test_no_import_loop_between_modules() -> None:
    """Every project module, every import (TYPE_CHECKING too): the graph is acyclic."""
    os.chdir(ROOT)
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    edges = nx.DiGraph()
    for module in graph.modules:
        edges.add_node(module)
        for imported in graph.find_modules_directly_imported_by(module):
            edges.add_edge(module, imported)
    loops = [sorted(c) for c in nx.strongly_connected_components(edges) if len(c) > 1]
    assert loops == []


def _function_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = path.read_text(encoding="utf-8").splitlines()
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.ImportFrom):
                names = [inner.module or ""]
            elif isinstance(inner, ast.Import):
                names = [a.name for a in inner.names]
            else:
                continue
            if any(n.split(".")[0] in PACKAGES for n in names):
                text = lines[inner.lineno - 1]
                if LAZY_MARK not in text:
                    found.append(f"{path.relative_to(ROOT)}:{inner.lineno}: {text.strip()}")
    return found


def test_no_project_import_inside_a_function() -> None:
    """Imports sit at the top of a module; a lazy import of an optional extra says why on its
    line (``# lazy: ...``)."""
    found = [f for p in _sources() for f in _function_imports(p)]
    assert found == []


def test_no_source_file_over_600_lines() -> None:
    long = [f"{p.relative_to(ROOT)}: {n}" for p in _sources()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES]
    assert long == []
