"""Which build of `solver` is installed: compiled or pure Python (README, "Builds").

One source, two builds. A wheel (``pip install .``) compiles the engine and the search loops
with mypyc where a C compiler exists (``setup.py`` lists what it compiles and why the rest stays
interpreted); an editable install, or a machine without a compiler, runs every module
interpreted. Both play the same games: the compiled modules are the same typed Python.

This module looks at the files Python would load for each module of the package, without
importing them (``heritage --version`` stays fast).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

PACKAGE = "solver"


@dataclass(frozen=True)
class Build:
    """The modules of `solver` that run compiled and those that run interpreted (sorted)."""

    compiled: tuple[str, ...]
    interpreted: tuple[str, ...]

    @property
    def kind(self) -> str:
        """``compiled`` when any module is compiled, else ``pure``."""
        return "compiled" if self.compiled else "pure"


def package_modules() -> list[str]:
    """Every module of the package (packages' ``__init__`` excluded), by dotted name."""
    root = Path(__file__).resolve().parent
    names = {f"{PACKAGE}." + ".".join(p.relative_to(root).with_suffix("").parts)
             for p in root.rglob("*.py") if p.name != "__init__.py"}
    return sorted(names)


def is_compiled(module: str) -> bool:
    """Whether importing `module` loads a compiled extension (not its ``.py``)."""
    spec = importlib.util.find_spec(module)
    origin = spec.origin if spec is not None else None
    return origin is not None and origin.endswith(tuple(EXTENSION_SUFFIXES))


def current_build() -> Build:
    """The build this interpreter imports."""
    modules = package_modules()
    compiled = tuple(m for m in modules if is_compiled(m))
    return Build(compiled, tuple(m for m in modules if m not in compiled))


def interpreted_summary(build: Build) -> str:
    """The interpreted modules in a short line: whole subpackages by name and count."""
    groups: dict[str, list[str]] = {}
    for m in build.interpreted:
        parent = m.rsplit(".", 1)[0]
        fully = not any(c.startswith(parent + ".") for c in build.compiled)
        key = parent if fully and parent != PACKAGE else m
        groups.setdefault(key, []).append(m)
    return ", ".join(k if len(v) == 1 and v[0] == k else f"{k} ({len(v)} modules)"
                     for k, v in sorted(groups.items()))
