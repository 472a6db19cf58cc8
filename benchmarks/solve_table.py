"""The solver's figures on the 24 trial deals: trials 1-6 x premade hands 1-4, seed 0.

    python -m benchmarks.solve_table [--time-limit 60] [--workers 2] [--bound cpsat|simple]
                                     [--deals t1-h1,t2-h3] [--json] [--out FILE.jsonl]
                                     [--polish-share 0.25]

One row per deal: status, VP (all goals met), bound, gap, seconds to the best line, nodes per
second, the best VP of a line missing a goal when none met them. Each deal is one
`solver.solve.solve` run in-process with ``heritage solve``'s defaults and the given budget,
dealt as ``heritage solve --trial T --hand H --seed S`` deals it (`benchmarks.suite`: the deal
ids are the bench's, ``t1-h1-s0``; ``t1-hdraw-s0`` deals the draw-10-keep-6 hand, and
``--hands`` takes ``draw`` too). ``--json`` prints one JSON object per deal instead of the
table; ``--out`` also appends them to a file as JSON lines (``benchmarks.vs_mcts --solve-json``
reads it back).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.suite import Instance, deal_id  # noqa: E402
from puzzles.deal import PREMADE  # noqa: E402
from solver.bounds.bound import BOUND_NAMES  # noqa: E402
from solver.engine.record import LINE_FORMAT  # noqa: E402
from solver.solve import SolveConfig, solve  # noqa: E402

TRIALS = (1, 2, 3, 4, 5, 6)
HANDS = ("1", "2", "3", "4")  # the suite's grid; any of `PREMADE` may be named
DEAL_ID = re.compile(rf"t(\d+)-h({'|'.join(map(re.escape, PREMADE))})(?:-s(\d+))?")


def select_deals(deals: str | None, trials: str, hands: str, seed: int) -> list[Instance]:
    """The deals to run: those named in `deals` (comma separated, ``t1-h1`` or ``t1-h1-s0``;
    ``t1-h1`` takes `seed`; ``t1-hdraw`` the draw-10-keep-6 hand), else trials x hands at
    `seed`, in that order.

    :raises ValueError: a deal id, trial or hand that does not name a trial and a starting
        hand."""
    if deals:
        out = []
        for item in deals.split(","):
            m = DEAL_ID.fullmatch(item.strip())
            if m is None:
                raise ValueError(f"--deals: {item!r} is not a deal id such as t1-h2 or t1-h2-s0 "
                                 f"(hands {', '.join(PREMADE)})")
            trial, hand, s = int(m[1]), m[2], seed if m[3] is None else int(m[3])
            out.append(Instance(deal_id(trial, hand, s), "deal", trial, hand, s))
        return out
    grid = [(t.strip(), h.strip()) for t in trials.split(",") for h in hands.split(",")]
    for t, h in grid:
        if not t.isdigit():
            raise ValueError(f"--trials: {t!r} is not a trial number")
        if h not in PREMADE:
            raise ValueError(f"--hands: {h!r} is not a hand (hands {', '.join(PREMADE)})")
    return [Instance(deal_id(int(t), h, seed), "deal", int(t), h, seed) for t, h in grid]


def solve_row(inst: Instance, time_limit: float, workers: int, bound: str,
              polish_share: float | None = None) -> dict[str, Any]:
    """Solve the deal `inst` with a time limit and report one row (module docstring);
    `polish_share`: `SolveConfig.polish_share` (None: the default)."""
    extra: dict[str, Any] = {} if polish_share is None else {"polish_share": polish_share}
    res = solve(inst.root(), SolveConfig(time_limit=time_limit, node_limit=None,
                                         workers=workers, bound=bound, **extra))
    return {
        "deal": inst.id, "trial": inst.trial, "hand": inst.hand, "seed": inst.seed,
        "time_limit": time_limit, "workers": workers, "bound_kind": bound,
        "status": res.status.value, "vp": res.value,
        "bound": None if math.isinf(res.bound) else res.bound, "gap": res.gap,
        "time_to_best": round(res.time_to_best, 1),
        "nodes_per_second": round(res.nodes / res.seconds) if res.seconds else 0,
        "nodes": res.nodes, "seconds": round(res.seconds, 1), "failed_vp": res.failed_value,
        "line": list(res.line),  # the goal-meeting line's actions (`prove_from --lines`)
        "line_format": LINE_FORMAT,  # the engine's decisions they answer (`puzzles.lines`)
        "proven_from_turn": res.proven_from_turn,  # the tail proven from there (`solver.polish`)
        "polish_share": polish_share,
    }


def fmt(value: float | None) -> str:
    """A VP-like figure for a table: whole numbers, ``-`` for none."""
    return "-" if value is None else f"{value:.0f}"


HEADER = (f"{'deal':<9} {'status':<10} {'VP':>4} {'bound':>5} {'gap':>5} {'t_best':>7} "
          f"{'nodes/s':>8} {'failed':>6}")


def text_row(row: dict[str, Any]) -> str:
    return (f"{row['deal']:<9} {row['status']:<10} {fmt(row['vp']):>4} {fmt(row['bound']):>5} "
            f"{fmt(row['gap']):>5} {row['time_to_best']:>7} {row['nodes_per_second']:>8} "
            f"{fmt(row['failed_vp']):>6}")


def summary_line(rows: Sequence[dict[str, Any]]) -> str:
    """Deals won (a goal-meeting line), proven optimal, and the mean VP and gap of the wins."""
    won = [r for r in rows if r["vp"] is not None]
    gaps = [r["gap"] for r in won if r["gap"] is not None]
    mean_vp = f"{sum(r['vp'] for r in won) / len(won):.1f}" if won else "-"
    mean_gap = f"{sum(gaps) / len(gaps):.1f}" if gaps else "-"
    optimal = sum(r["status"] == "OPTIMAL" for r in rows)
    return (f"won {len(won)}/{len(rows)}, optimal {optimal}, mean VP of the wins {mean_vp}, "
            f"mean gap {mean_gap}")


def add_budget_options(parser: argparse.ArgumentParser) -> None:
    """The options this script shares with `benchmarks.vs_mcts`: budget and deals."""
    parser.add_argument("--time-limit", type=float, default=60.0, metavar="SECONDS",
                        help="seconds per deal (default 60)")
    parser.add_argument("--workers", type=int, default=2, metavar="W",
                        help="processes of each solve: NRPA's, and the exact searches' "
                             "(default 2)")
    parser.add_argument("--bound", choices=BOUND_NAMES, default="cpsat",
                        help="bound of the exact search, as heritage solve --bound (default "
                             "cpsat, as heritage solve)")
    parser.add_argument("--seed", type=int, default=0, help="deal seed (default 0)")
    parser.add_argument("--trials", default=",".join(map(str, TRIALS)),
                        help="trials, comma separated (default 1-6)")
    parser.add_argument("--hands", default=",".join(HANDS),
                        help="starting hands, comma separated: premade 1-4 or draw (draw 10, "
                             "keep 6; default 1-4)")
    parser.add_argument("--deals", default=None, metavar="IDS",
                        help="only these deals, e.g. t1-h1,t2-h3 (replaces --trials/--hands)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per deal instead of the table")
    parser.add_argument("--out", type=Path, default=None, metavar="FILE",
                        help="also append the rows to FILE as JSON lines")


def emit(row: dict[str, Any], args: argparse.Namespace, text: str) -> None:
    """Print a row (JSON or `text`) and append it to ``--out``."""
    print(json.dumps(row) if args.json else text, flush=True)
    if args.out is not None:
        with args.out.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.solve_table",
        description="heritage solve on the trial deals at a time limit: status, VP, bound, "
        "gap, time to best per deal.")
    add_budget_options(parser)
    parser.add_argument("--polish-share", type=float, default=None, metavar="SHARE",
                        help="SolveConfig.polish_share (0: no tail polish; default: solve's)")
    args = parser.parse_args(argv)
    try:
        deals = select_deals(args.deals, args.trials, args.hands, args.seed)
    except ValueError as exc:
        parser.error(str(exc))
    rows = []
    if not args.json:
        print(HEADER, flush=True)
    for inst in deals:
        row = solve_row(inst, args.time_limit, args.workers, args.bound, args.polish_share)
        rows.append(row)
        emit(row, args, text_row(row))
    if not args.json:
        print(summary_line(rows), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
