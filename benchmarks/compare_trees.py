"""Compare the speed of two source trees of heritage in one run: engine random games/s
(`benchmarks.engine`), NRPA decisions/s and playouts/s, and the exact search (simple bound) from
the starts of turns 16 and 15 of one line, interleaved, medians of several runs each.

The exact search is measured on the same positions in both trees: the old tree's NRPA line
(hand 1, seed 0, 20,000 decisions) replayed in each. Its nodes/s alone says little (a tree that
prunes more does more work a node and visits far fewer): the report gives what each tree proved,
its nodes and seconds, and how much faster the newer proves the same optimum.

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

#: Deal hand 1, seed 0, in the tree on ``sys.path``: ``root``, and the NRPA hooks (``extra``).
NRPA_ROOT = """
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
"""

NRPA_PROBE = NRPA_ROOT + """
start = time.perf_counter()
inc = NRPA(root, NRPAConfig(max_nodes=%d, seed=0), **extra).run()
seconds = time.perf_counter() - start
print(json.dumps({"nodes": inc.nodes, "value": inc.value, "seconds": seconds,
                  "nodes_per_second": inc.nodes / seconds,
                  "playouts_per_second": inc.playouts / seconds}))
"""

#: The line the old tree's NRPA finds in 20,000 decisions: the exact search's positions.
LINE_PROBE = NRPA_ROOT + """
print(json.dumps(list(NRPA(root, NRPAConfig(max_nodes=20000, seed=0), **extra).run().line)))
"""


EXACT_PROBE = """
import json, time
from puzzles.cardsets import load_book
from solver.search.exhaustive import SearchConfig, search
try:
    from solver.engine.newgame import new_game
    from solver.engine.setup import Setup
    from solver.game import HeritageGame
    game = HeritageGame()
    def exact(pos, nodes):
        return search(pos, SearchConfig(max_nodes=nodes), order=game.order(pos, []), game=game)
    def legal(pos):
        return pos.legal
except ImportError:  # a tree before the rooms: the state carries its own hooks
    from solver.setup import Setup, new_game
    from solver.solve import incumbent_order
    def exact(pos, nodes):
        return search(pos, SearchConfig(max_nodes=nodes), order=incumbent_order(pos, []))
    def legal(pos):
        return pos.legal_actions()
line, turn, nodes = json.loads(%r), %d, %d
pos = new_game(Setup(hand="1", seed=0), load_book(["base"])).clone()
for action in line:
    if pos.turn >= turn:
        break
    if action not in legal(pos):
        print(json.dumps({"replayed": False}))
        raise SystemExit(0)
    pos.apply(action)
start = time.perf_counter()
res = exact(pos, nodes)
seconds = time.perf_counter() - start
print(json.dumps({"replayed": True, "nodes": res.nodes, "value": res.value,
                  "proven": getattr(res.status, "name", str(res.status)) == "OPTIMAL",
                  "seconds": seconds, "nodes_per_second": res.nodes / seconds}))
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


def measure(tree: Path, games: int, nodes: int, python: str | None = None,
            ) -> tuple[dict[str, float], dict[str, float]]:
    """One engine run and one NRPA run in `tree` (or in the build installed for `python`)."""
    engine = _run(tree, ["-m", "benchmarks.engine", "--games", str(games), "--json"], python)
    nrpa = _run(tree, ["-c", NRPA_PROBE % nodes], python)
    return engine, nrpa


def measure_exact(tree: Path, line: list[int], turn: int, nodes: int,
                  python: str | None = None) -> dict[str, float]:
    """One exact search (simple bound, at most `nodes` nodes) from the start of `turn` of
    `line`, replayed in `tree`: ``replayed`` False when `line` is not legal there."""
    return _run(tree, ["-c", EXACT_PROBE % (json.dumps(line), turn, nodes)], python)


def exact_rows(runs: dict[str, list[dict[str, float]]]) -> list[str]:
    """The exact search's lines of the report: per tree, what it proved and its medians."""
    out = []
    for name, results in runs.items():
        first = results[0]
        proven = "OPTIMAL" if first["proven"] else "not proven"
        out.append(f"  {name}: {proven}, value {first['value']:g}, {int(first['nodes']):,} "
                   f"nodes, {statistics.median(r['seconds'] for r in results):.3f} s, "
                   f"{statistics.median(r['nodes_per_second'] for r in results):,.0f} nodes/s")
    old, new = runs["old"], runs["new"]
    if old[0]["proven"] and new[0]["proven"] and old[0]["value"] == new[0]["value"]:
        ratio = (statistics.median(r["seconds"] for r in old)
                 / statistics.median(r["seconds"] for r in new))
        out.append(f"  the same optimum in both: new proves it {ratio:,.1f}x faster")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="the older source tree")
    parser.add_argument("--new", type=Path, default=Path.cwd(), help="the newer tree (here)")
    parser.add_argument("--new-python", help="measure the build installed for this Python "
                        "(e.g. a virtualenv after `pip install .`) instead of --new's sources")
    parser.add_argument("--runs", type=int, default=5, help="interleaved runs of each (5)")
    parser.add_argument("--games", type=int, default=200, help="random games a run (200)")
    parser.add_argument("--nodes", type=int, default=60_000, help="NRPA decisions a run")
    parser.add_argument("--exact-nodes", type=int, default=300_000,
                        help="most exact-search nodes a run (300,000)")
    parser.add_argument("--exact-turns", default="16,15",
                        help="the turns of the old tree's line to search from (16,15)")
    args = parser.parse_args(argv)
    old_tree, new_tree = args.old.resolve(), args.new.resolve()
    trees = (("old", old_tree, None), ("new", new_tree, args.new_python))
    turns = [int(t) for t in args.exact_turns.split(",") if t.strip()]
    line: list[int] = json.loads(_python(old_tree, ["-c", LINE_PROBE], None).splitlines()[-1])
    rows: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    checks: dict[str, set[tuple[float, ...]]] = {"old": set(), "new": set()}
    exact: dict[int, dict[str, list[dict[str, float]]]] = {
        turn: {"old": [], "new": []} for turn in turns}
    for _ in range(args.runs):
        for name, tree, python in trees:
            engine, nrpa = measure(tree, args.games, args.nodes, python)
            rows[name].setdefault("games/s", []).append(engine["games_per_second"])
            rows[name].setdefault("NRPA decisions/s", []).append(nrpa["nodes_per_second"])
            rows[name].setdefault("NRPA playouts/s", []).append(nrpa["playouts_per_second"])
            work: list[float] = [engine["decisions"], nrpa["nodes"], nrpa["value"]]
            for turn in turns:
                result = measure_exact(tree, line, turn, args.exact_nodes, python)
                exact[turn][name].append(result)
                work += [result.get("nodes", -1), result.get("value", -1)]
            checks[name].add(tuple(work))
    print(f"old: {build_of(old_tree)} build of {args.old}; new: "
          f"{build_of(new_tree, args.new_python)} build of "
          f"{args.new_python or args.new} ({args.runs} interleaved runs)")
    print(f"{'measure':<20} {'old (median)':>14} {'new (median)':>14} {'new/old':>8}")
    for measure_name in ("games/s", "NRPA decisions/s", "NRPA playouts/s"):
        old = statistics.median(rows["old"][measure_name])
        new = statistics.median(rows["new"][measure_name])
        print(f"{measure_name:<20} {old:>14,.1f} {new:>14,.1f} {new / old:>8.3f}")
    for turn in turns:
        print(f"exact search from the start of turn {turn} of the old tree's NRPA line "
              f"(simple bound, at most {args.exact_nodes:,} nodes):")
        if not all(r["replayed"] for runs in exact[turn].values() for r in runs):
            print("  the line is not legal in both trees: not compared")
            continue
        print("\n".join(exact_rows(exact[turn])))
    same = all(len(checks[name]) == 1 for name in checks)
    print(f"each tree did the same work on every run (decisions, NRPA nodes and value, exact "
          f"nodes and values): {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
