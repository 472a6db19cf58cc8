"""From which turn can exact search prove the optimum within a budget?

    python benchmarks/prove_from.py [--time-limit 60] [--instances 1:1,2:3,5:2]

For each trial:hand instance (seed 0) a line is found with NRPA; then, for turn T = 16, 15, ...,
the position at the start of turn T on that line is solved with the exact search alone (budget
per position). The earliest turn proven OPTIMAL is reported.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from puzzles.deal import build_setup, load_cards  # noqa: E402
from solver.engine.newgame import new_game  # noqa: E402
from solver.game import HeritageGame  # noqa: E402
from solver.search.nrpa import NRPA, NRPAConfig  # noqa: E402
from solver.search.status import Status  # noqa: E402
from solver.solve import SolveConfig, solve  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--instances", default="1:1,2:3,5:2")
    parser.add_argument("--nrpa-nodes", type=int, default=100_000)
    args = parser.parse_args()
    book, card_sets = load_cards(["base"])
    for item in args.instances.split(","):
        trial, hand = item.split(":")
        root = new_game(build_setup(book, card_sets, hand=hand, seed=0, trial=int(trial)), book)
        inc = NRPA(root, NRPAConfig(max_nodes=args.nrpa_nodes), game=HeritageGame()).run()
        line = inc.line
        starts: dict[int, int] = {}
        st = root.clone()
        for i, a in enumerate(line):
            starts.setdefault(st.turn, i)
            st.apply(a)
        earliest = None
        for turn in range(16, 0, -1):
            if turn not in starts:
                continue
            pos = root.clone()
            for a in line[:starts[turn]]:
                pos.apply(a)
            t0 = time.monotonic()
            res = solve(pos, SolveConfig(time_limit=args.time_limit, node_limit=None,
                                         exact_first_phases=99, exact_first_share=1.0))
            dt = time.monotonic() - t0
            print(f"trial {trial} hand {hand}: from turn {turn:2}: {res.status.value:<8} "
                  f"VP {res.value} nodes {res.nodes:,} {dt:.1f} s", flush=True)
            if res.status != Status.OPTIMAL:
                break
            earliest = turn
        print(f"trial {trial} hand {hand}: earliest turn proven optimal within "
              f"{args.time_limit:g} s: {earliest}", flush=True)


if __name__ == "__main__":
    main()
