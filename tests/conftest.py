"""Which build the tests import (README, "Builds").

Python puts the source tree first on ``sys.path`` when it runs from the repository root, which
would hide an installed build. So, before any test imports the project:

* an installed copy of heritage built from exactly these sources (``pip install .``: the
  compiled build where a C compiler exists) is what the tests import;
* an installed copy that differs from these sources is stale: the tests import the sources
  (pure Python) and say so, naming the first file that differs;
* otherwise (an editable install, or nothing installed) the tests import the sources.

``HERITAGE_TEST_BUILD=source`` always tests the sources (CI's pure-Python run of the rules
tests); ``HERITAGE_TEST_BUILD=compiled`` or ``=pure`` also checks that the build under test is
that one (`tests/test_build.py`). The summary of every run names the build it tested.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("solver", "puzzles", "cli", "benchmarks")
#: Data installed with the packages (pyproject.toml: package data).
DATA = ("data/*.json", "data/*.md", "data/**/*.json", "data/**/*.md")


def _on_tree(entry: str) -> bool:
    return Path(entry or ".").resolve() == ROOT


def installed_copy() -> Path | None:
    """The directory holding an installed heritage other than these sources, if any."""
    spec = PathFinder.find_spec("solver", [p for p in sys.path if not _on_tree(p)])
    if spec is None or not spec.submodule_search_locations:
        return None
    site = Path(next(iter(spec.submodule_search_locations))).resolve().parent
    return None if site == ROOT else site


def packaged(base: Path) -> dict[str, Path]:
    """The files of the packages under `base` that an install carries: the modules of every
    package (a directory with ``__init__.py``) and the data files, by relative path."""
    found: dict[str, Path] = {}
    for pkg in PACKAGES:
        for init in (base / pkg).rglob("__init__.py"):
            for f in init.parent.glob("*.py"):
                found[f.relative_to(base).as_posix()] = f
        for pattern in DATA:
            for f in (base / pkg).glob(pattern):
                found[f.relative_to(base).as_posix()] = f
    return found


def differences(site: Path) -> list[str]:
    """The packaged files that these sources and the copy in `site` do not share, sorted."""
    ours, theirs = packaged(ROOT), packaged(site)
    return sorted(rel for rel in ours.keys() | theirs.keys()
                  if rel not in ours or rel not in theirs
                  or ours[rel].read_bytes() != theirs[rel].read_bytes())


def choose_build() -> str:
    """Put the build to test first on ``sys.path``; describe it in one line."""
    site = None if os.environ.get("HERITAGE_TEST_BUILD") == "source" else installed_copy()
    stale = differences(site) if site is not None else []
    if site is not None and not stale:
        sys.path[:] = [p for p in sys.path if not _on_tree(p)] + [str(ROOT)]
        return f"the build installed in {site}"
    sys.path.insert(0, str(ROOT))
    if site is None:
        return f"the sources in {ROOT}"
    note = (f"the installed heritage in {site} differs from these sources ({stale[0]}"
            f"{f' and {len(stale) - 1} more' if len(stale) > 1 else ''}): testing the sources; "
            "`pip install .` again to test the installed build")
    print(f"heritage tests: {note}", file=sys.stderr)
    return f"the sources in {ROOT} ({note})"


UNDER_TEST = choose_build()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The summary of every run (``-q`` too) names the build it tested."""
    from solver.buildinfo import current_build  # after choose_build() has set sys.path

    terminalreporter.write_line(f"heritage under test: the {current_build().kind} build, "
                                f"{UNDER_TEST}")
