"""Compare the speed of two source trees of heritage in one run: engine random games/s
(`benchmarks.engine`), NRPA decisions/s and playouts/s, and exact-search nodes/s (from the start
of turn 16 of an NRPA line, simple bound), interleaved, medians of several runs each.

Each measurement runs in a fresh interpreter with the tree first on ``sys.path``, so the two
trees never share a process. Older trees (before the rooms of ARCHITECTURE.md) are measured
through their own API, detected by import. ``--new-python`` measures instead the build installed
in that interpreter (a virtualenv after ``pip install .``: the compiled build), run from a
temporary directory so that no source tree shadows it.

Run from the repository root, with an older checkout at OLD (``git worktree add OLD REV``)::

    python -m benchmarks.compare_trees --old OLD [--new-python VENV/bin/python] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

NRPA_PROBE = """
import json, time
from puzzles.cardsets import load_book
from solver.search.nrpa import NRPA, NRPAConfig
try:
    from solver.engine.newgame import new_game
    from solver.engine.setup import Setup
    from solver.game import HeritageGame
    extra = {"game": HeritageGame()}
except ImportError:  # a tree before the rooms: the state carries its own hooks
    from solver.setup import Setup, new_game
    extra = {}
root = new_game(Setup(hand="1", seed=0), load_book(["base"]))
start = time.perf_counter()
inc = NRPA(root, NRPAConfig(max_nodes=%d, seed=0), **extra).run()
seconds = time.perf_counter() - start
print(json.dumps({"nodes": inc.nodes, "value": inc.value, "seconds": seconds,
                  "nodes_per_second": inc.nodes / seconds,
                  "playouts_per_second": inc.playouts / seconds}))
"""


EXACT_PROBE = """
import json, time
from puzzles.cardsets import load_book
from solver.search.exhaustive import SearchConfig, search
from solver.search.nrpa import NRPA, NRPAConfig
try:
    from solver.engine.newgame import new_game
    from solver.engine.setup import Setup
    from solver.game import HeritageGame
    game = HeritageGame()
    nrpa_extra = {"game": game}
    def exact(pos, nodes):
        return search(pos, SearchConfig(max_nodes=nodes), order=game.order(pos, []), game=game)
except ImportError:  # a tree before the rooms: the state carries its own hooks
    from solver.setup import Setup, new_game
    from solver.solve import incumbent_order
    nrpa_extra = {}
    def exact(pos, nodes):
        return search(pos, SearchConfig(max_nodes=nodes), order=incumbent_order(pos, []))
root = new_game(Setup(hand="1", seed=0), load_book(["base"]))
line = NRPA(root, NRPAConfig(max_nodes=20000, seed=0), **nrpa_extra).run().line
pos = root.clone()
for a in line:
    if pos.turn >= 16:
        break
    pos.apply(a)
start = time.perf_counter()
res = exact(pos, %d)
seconds = time.perf_counter() - start
print(json.dumps({"nodes": res.nodes, "value": res.value, "seconds": seconds,
                  "nodes_per_second": res.nodes / seconds}))
"""


BUILD_PROBE = """
try:
    from solver.buildinfo import current_build
    print(current_build().kind)
except ImportError:  # a tree before the compiled build
    print("pure")
"""


def _python(tree: Path, args: list[str], python: str | None) -> str:
    """The output of Python with `args` on the sources of `tree`, or (`python`) on the build
    installed for that interpreter, run from a temporary directory."""
    if python is None:
        command, cwd, env = [sys.executable, *args], str(tree), {"PYTHONPATH": str(tree)}
    else:
        command, cwd, env = [python, *args], tempfile.gettempdir(), {}
    out = subprocess.run(command, cwd=cwd, check=True, capture_output=True, text=True,
                         env={**env, "PATH": "/usr/bin:/bin"})
    return out.stdout.strip()


def _run(tree: Path, args: list[str], python: str | None = None) -> dict[str, float]:
    result: dict[str, float] = json.loads(_python(tree, args, python).splitlines()[-1])
    return result


def build_of(tree: Path, python: str | None = None) -> str:
    """``compiled`` or ``pure``: the build that `_run` measures."""
    return _python(tree, ["-c", BUILD_PROBE], python)


def measure(tree: Path, games: int, nodes: int, exact_nodes: int, python: str | None = None,
            ) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """One engine run, one NRPA run and one exact search (turn 16, simple bound) in `tree`
    (or in the build installed for `python`)."""
    engine = _run(tree, ["-m", "benchmarks.engine", "--games", str(games), "--json"], python)
    nrpa = _run(tree, ["-c", NRPA_PROBE % nodes], python)
    exact = _run(tree, ["-c", EXACT_PROBE % exact_nodes], python)
    return engine, nrpa, exact


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="the older source tree")
    parser.add_argument("--new", type=Path, default=Path.cwd(), help="the newer tree (here)")
    parser.add_argument("--new-python", help="measure the build installed for this Python "
                        "(e.g. a virtualenv after `pip install .`) instead of --new's sources")
    parser.add_argument("--runs", type=int, default=5, help="interleaved runs of each (5)")
    parser.add_argument("--games", type=int, default=200, help="random games a run (200)")
    parser.add_argument("--nodes", type=int, default=60_000, help="NRPA decisions a run")
    parser.add_argument("--exact-nodes", type=int, default=30_000,
                        help="exact-search nodes a run (from turn 16 of an NRPA line)")
    args = parser.parse_args(argv)
    rows: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    checks: dict[str, set[tuple[float, ...]]] = {"old": set(), "new": set()}
    for _ in range(args.runs):
        for name, tree, python in (("old", args.old, None), ("new", args.new, args.new_python)):
            engine, nrpa, exact = measure(tree.resolve(), args.games, args.nodes,
                                          args.exact_nodes, python)
            rows[name].setdefault("games/s", []).append(engine["games_per_second"])
            rows[name].setdefault("NRPA decisions/s", []).append(nrpa["nodes_per_second"])
            rows[name].setdefault("NRPA playouts/s", []).append(nrpa["playouts_per_second"])
            rows[name].setdefault("exact nodes/s", []).append(exact["nodes_per_second"])
            checks[name].add((engine["decisions"], nrpa["nodes"], nrpa["value"], exact["nodes"],
                              exact["value"]))
    print(f"old: {build_of(args.old.resolve())} build of {args.old}; new: "
          f"{build_of(args.new.resolve(), args.new_python)} build of "
          f"{args.new_python or args.new} ({args.runs} interleaved runs)")
    print(f"{'measure':<20} {'old (median)':>14} {'new (median)':>14} {'new/old':>8}")
    for measure_name in ("games/s", "NRPA decisions/s", "NRPA playouts/s", "exact nodes/s"):
        old = statistics.median(rows["old"][measure_name])
        new = statistics.median(rows["new"][measure_name])
        print(f"{measure_name:<20} {old:>14,.1f} {new:>14,.1f} {new / old:>8.3f}")
    same = checks["old"] == checks["new"] and len(checks["new"]) == 1
    print(f"same work in both trees (decisions, NRPA nodes and value, exact nodes and value): "
          f"{same} "
          f"{sorted(checks['new'])}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
