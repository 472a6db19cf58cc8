"""The solver's figures on the 24 trial instances: trials 1-6 x premade hands 1-4, seed 0.

    python benchmarks/solve_table.py [--time-limit 60] [--workers 2] [--json OUT.jsonl]

Prints one row per instance: status, VP, bound, gap, time to the best line, nodes per second
(each instance is one `heritage solve` run in-process, as the command line would run it).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from puzzles.deal import build_setup, load_cards  # noqa: E402
from solver.engine.newgame import new_game  # noqa: E402
from solver.solve import SolveConfig, solve  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--trials", default="1,2,3,4,5,6")
    parser.add_argument("--hands", default="1,2,3,4")
    parser.add_argument("--json", type=Path, default=None, help="also write JSON lines here")
    args = parser.parse_args()
    book, card_sets = load_cards(["base"])
    rows = []
    print(f"{'trial':>5} {'hand':>4} {'status':<10} {'VP':>4} {'bound':>5} {'gap':>5} "
          f"{'t_best':>7} {'nodes/s':>8}", flush=True)
    for trial in [int(t) for t in args.trials.split(",")]:
        for hand in args.hands.split(","):
            setup = build_setup(book, card_sets, hand=hand, seed=args.seed, trial=trial)
            root = new_game(setup, book)
            res = solve(root, SolveConfig(time_limit=args.time_limit, node_limit=None,
                                          workers=args.workers))
            row = {
                "trial": trial, "hand": hand, "seed": args.seed, "status": res.status.value,
                "vp": res.value, "bound": None if math.isinf(res.bound) else res.bound,
                "gap": res.gap, "time_to_best": round(res.time_to_best, 1),
                "nodes_per_second": round(res.nodes / res.seconds) if res.seconds else 0,
                "nodes": res.nodes, "seconds": round(res.seconds, 1),
                "failed_vp": res.failed_value,
            }
            rows.append(row)
            print(f"{trial:>5} {hand:>4} {row['status']:<10} "
                  f"{'-' if res.value is None else int(res.value):>4} "
                  f"{'-' if row['bound'] is None else int(row['bound']):>5} "
                  f"{'-' if res.gap is None else int(res.gap):>5} {row['time_to_best']:>7} "
                  f"{row['nodes_per_second']:>8}", flush=True)
            if args.json is not None:
                with args.json.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
