"""The house style where CI sees it: ruff (pyproject.toml: at most 100 columns, sorted imports,
pyflakes, bugbear, pyupgrade), mypy strict on `solver/`, and mypy on every package and the tests.
Each runs on the sources of this checkout (the tests themselves import the installed build)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("solver", "puzzles", "cli", "benchmarks", "tests")


def _run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip(tool, reason=f"{tool} comes with the test extras: pip install '.[test]'")
    return subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, check=False)


def test_ruff_reports_nothing() -> None:
    result = _run("ruff", "check", "--no-cache", *PACKAGES)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_the_solver(tmp_path: Path) -> None:
    result = _run("mypy", "--strict", "--cache-dir", str(tmp_path), "solver")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_on_every_package_and_the_tests(tmp_path: Path) -> None:
    result = _run("mypy", "--cache-dir", str(tmp_path), *PACKAGES)
    assert result.returncode == 0, result.stdout + result.stderr
