"""Before/after figures of the constraint layer: the same solves with the simple bound and with
the CP-SAT bound, the same node budget (reproducible), one run.

Instances: the solver issue's set, trials 1-6 x premade hands 1-4 (seed 0), solved from the
start of the game; and the 30 small end-game positions of `tests/test_solver.py` (1-2 turns
left), where exact search can finish. Printed: per instance the status, VP, bound and gap for
each bound; then the average gap and the numbers proven OPTIMAL and INFEASIBLE.

    python -m benchmarks.bound_figures [--node-limit N] [--tiny-limit N] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass
from typing import Any

from puzzles.deal import build_setup, load_cards
from solver.engine.newgame import new_game
from solver.engine.state import GameState
from solver.search.status import Status
from solver.solve import SolveConfig, SolveResult, solve

MODES = ("simple", "cpsat")


@dataclass(frozen=True)
class Row:
    name: str
    mode: str
    status: str
    value: float | None
    bound: float
    gap: float | None
    nodes: int
    seconds: float


def _row(name: str, mode: str, res: SolveResult, seconds: float) -> Row:
    return Row(name, mode, res.status.value, res.value, res.bound, res.gap, res.nodes, seconds)


def trial_instances() -> list[tuple[str, GameState]]:
    book, card_sets = load_cards(["base"])
    return [(f"trial {t} hand {h}",
             new_game(build_setup(book, card_sets, hand=str(h), seed=0, trial=t), book))
            for t in range(1, 7) for h in range(1, 5)]


def tiny_instances() -> list[tuple[str, GameState]]:
    from tests.test_solver import TINY_SEEDS, tiny_position  # lazy: tests/ is not installed

    return [(f"end game {s}", tiny_position(s)) for s in TINY_SEEDS]


def run(instances: list[tuple[str, GameState]], node_limit: int,
        progress: bool = False) -> list[Row]:
    rows = []
    for name, st in instances:
        for mode in MODES:
            t = time.perf_counter()
            res = solve(st, SolveConfig(node_limit=node_limit, bound=mode))
            rows.append(_row(name, mode, res, time.perf_counter() - t))
            if progress:
                print(_line(rows[-1]), file=sys.stderr, flush=True)
    return rows


def _line(r: Row) -> str:
    return (f"{r.name:22} {r.mode:6} {r.status:10} VP {_fmt(r.value):>4} bound "
            f"{_fmt(r.bound):>5} gap {_fmt(r.gap):>5} nodes {r.nodes:>7} {r.seconds:6.1f} s")


def summary(rows: list[Row]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for mode in MODES:
        mine = [r for r in rows if r.mode == mode]
        gaps = [r.gap for r in mine if r.gap is not None]
        out[mode] = {
            "instances": len(mine),
            "average_gap": round(sum(gaps) / len(gaps), 2) if gaps else None,
            "optimal": sum(r.status == Status.OPTIMAL.value for r in mine),
            "infeasible": sum(r.status == Status.INFEASIBLE.value for r in mine),
            "nodes": sum(r.nodes for r in mine),
            "seconds": round(sum(r.seconds for r in mine), 1),
        }
    return out


def _fmt(x: float | None) -> str:
    if x is None or (isinstance(x, float) and math.isinf(x)):
        return "-"
    return f"{x:g}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--node-limit", type=int, default=20_000,
                        help="node budget per trial instance and bound (default 20000)")
    parser.add_argument("--tiny-limit", type=int, default=20_000,
                        help="node budget per end-game position and bound (default 20000)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    sets = {"trials": run(trial_instances(), args.node_limit, progress=True),
            "end games": run(tiny_instances(), args.tiny_limit, progress=True)}
    result = {name: {"summary": summary(rows), "rows": [r.__dict__ for r in rows]}
              for name, rows in sets.items()}
    if args.json:
        print(json.dumps(result, default=str))
        return 0
    for name, rows in sets.items():
        print(f"== {name}")
        for r in rows:
            print(_line(r))
        for mode, s in summary(rows).items():
            print(f"   {mode:6}: {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
