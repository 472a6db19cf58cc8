"""Start-up: ``heritage --help`` and ``heritage play`` import neither OR-Tools nor pandas (nor
the other heavy libraries), checked in a fresh interpreter; `benchmarks/startup.py` measures
the time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.startup import main as startup_main

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("ortools", "pandas", "networkx", "scipy", "matplotlib")
PROBE = """
import sys
sys.argv = ['heritage'] + {args!r}
from cli.app import main
try:
    main()
except SystemExit:
    pass
print('MODULES:' + ','.join(sorted({{m.split('.')[0] for m in sys.modules}})), file=sys.stderr)
"""


def loaded(args: list[str]) -> set[str]:
    proc = subprocess.run([sys.executable, "-c", PROBE.format(args=args)], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    line = next(x for x in proc.stderr.splitlines() if x.startswith("MODULES:"))
    return set(line[len("MODULES:"):].split(","))


@pytest.mark.parametrize("args", [["--help"], ["play", "--hand", "1", "--seed", "0"]])
def test_help_and_play_import_no_heavy_library(args: list[str]) -> None:
    modules = loaded(args)
    assert "cli" in modules
    assert modules & set(HEAVY) == set()


def test_help_imports_no_command_module() -> None:
    modules = loaded(["--help"])
    assert "solver" not in modules and "puzzles" not in modules and "benchmarks" not in modules


def test_the_startup_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert startup_main(["--runs", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["results"]) == {"python -c pass", "heritage --help", "heritage play"}
    assert data["results"]["heritage play"]["heavy_modules"] == []
