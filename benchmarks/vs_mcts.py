"""``solve`` against the fair MCTS baseline on the trial deals, same budget per deal.

    python -m benchmarks.vs_mcts [--time-limit 60] [--workers 2] [--deals t1-h1,t2-h3]
                                 [--solve-json SOLVE.jsonl] [--binary] [--json] [--out FILE]

For each deal (as `benchmarks.solve_table` selects them): `solver.solve.solve` with the time
limit and workers, then the ``mcts`` baseline of `benchmarks.baselines` (OpenSpiel's UCT with
the shaped reward: every goal met first, VP second, as NRPA ranks lines) with the same seconds
on one core; ``--binary`` adds ``mcts-binary`` (the old VP/100-or-0 reward) for the record.

A deal is flagged (``LOW``) when ``solve`` wins it (a line meeting every goal) but its VP is
below the MCTS VP plus 15% (``vp < mcts_vp + 0.15 * |mcts_vp|``), the issue 13 target; a deal
MCTS does not win cannot be flagged. ``--solve-json`` takes the solve rows from a
`benchmarks.solve_table` ``--out`` file instead of solving again (rows matched by deal id; the
last row of a deal wins; a deal without a row is solved). Needs open-spiel (``pip install
'heritage[bench]'``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.baselines import RunResult, mcts, mcts_binary  # noqa: E402
from benchmarks.solve_table import (  # noqa: E402
    add_budget_options,
    emit,
    fmt,
    select_deals,
    solve_row,
)
from puzzles.openspiel_game import OpenSpielUnavailable, load_pyspiel  # noqa: E402

#: ``solve`` should beat the fair MCTS by this share of its VP (issue 13 target).
MARGIN = 0.15


def flagged(solve_vp: float | None, mcts_vp: float | None, margin: float = MARGIN) -> bool:
    """True when ``solve`` won the deal with less than the MCTS VP plus `margin` of it (module
    docstring); never when either found no goal-meeting line.

    >>> flagged(60, 50), flagged(57, 50), flagged(None, 50), flagged(40, None)
    (False, True, False, False)
    """
    if solve_vp is None or mcts_vp is None:
        return False
    return solve_vp < mcts_vp + margin * abs(mcts_vp)


def load_solve_rows(path: Path) -> dict[str, dict[str, Any]]:
    """The rows of a `benchmarks.solve_table` ``--out`` file by deal id (the last row wins)."""
    rows: dict[str, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            rows[row["deal"]] = row
    return rows


HEADER = (f"{'deal':<9} {'solve':<9} {'VP':>4} {'mcts':>5} {'played':>6} {'ratio':>6} "
          f"{'flag':<4}")


def compare_row(solve: dict[str, Any], budget: float, mcts_run: RunResult,
                binary_run: RunResult | None) -> dict[str, Any]:
    """One deal's comparison (module docstring) from a solve row and the MCTS results of
    `budget` seconds."""
    vp, mvp = solve["vp"], mcts_run.vp
    row = {
        "deal": solve["deal"], "trial": solve["trial"], "hand": solve["hand"],
        "seed": solve["seed"], "time_limit": solve["time_limit"],
        "solve_status": solve["status"], "solve_vp": vp,
        "solve_time_to_best": solve["time_to_best"],
        "mcts_budget": budget, "mcts_vp": mvp, "mcts_failed_vp": mcts_run.failed_vp,
        "mcts_played_vp": mcts_run.extra["played_vp"],
        "mcts_played_goals_met": mcts_run.extra["played_goals_met"],
        "mcts_simulations": mcts_run.extra["simulations"],
        "ratio": None if vp is None or not mvp else round(vp / mvp, 3),
        "flagged": flagged(vp, mvp),
    }
    if binary_run is not None:
        row["mcts_binary_vp"] = binary_run.vp
        row["mcts_binary_played_vp"] = binary_run.extra["played_vp"]
    return row


def text_row(row: dict[str, Any]) -> str:
    ratio = "-" if row["ratio"] is None else f"{row['ratio']:.2f}"
    played = fmt(row["mcts_played_vp"]) + ("" if row["mcts_played_goals_met"] else "x")
    text = (f"{row['deal']:<9} {row['solve_status']:<9} {fmt(row['solve_vp']):>4} "
            f"{fmt(row['mcts_vp']):>5} {played:>6} {ratio:>6} {'LOW' if row['flagged'] else '':<4}")
    if "mcts_binary_vp" in row:
        text += f" {fmt(row['mcts_binary_vp']):>6}"
    return text.rstrip()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.vs_mcts",
        description="heritage solve vs the fair MCTS baseline (shaped reward) on the trial "
        f"deals, same seconds per deal; flags deals where solve's VP < MCTS VP + {MARGIN:.0%}.")
    add_budget_options(parser)
    parser.add_argument("--mcts-seed", type=int, default=0, help="seed of MCTS (default 0)")
    parser.add_argument("--binary", action="store_true",
                        help="also run mcts-binary (VP/100, 0 for a missed goal), for the record")
    parser.add_argument("--solve-json", type=Path, default=None, metavar="FILE",
                        help="take the solve rows from a benchmarks.solve_table --out file")
    args = parser.parse_args(argv)
    try:
        deals = select_deals(args.deals, args.trials, args.hands, args.seed)
        load_pyspiel()
    except (ValueError, OpenSpielUnavailable) as exc:
        parser.error(str(exc))
    known = load_solve_rows(args.solve_json) if args.solve_json is not None else {}
    if not args.json:
        print(HEADER + (" binary" if args.binary else "")
              + "   (played: the game MCTS played, x: a goal missed)", flush=True)
    rows = []
    for inst in deals:
        solve = known.get(inst.id) or solve_row(inst, args.time_limit, args.workers, args.bound)
        if solve["time_limit"] != args.time_limit:
            print(f"note: {inst.id}: the solve row had {solve['time_limit']:g} s, MCTS gets "
                  f"--time-limit {args.time_limit:g} s", file=sys.stderr)
        root = inst.root()
        run = mcts(root, args.time_limit, args.mcts_seed)
        binary = mcts_binary(root, args.time_limit, args.mcts_seed) if args.binary else None
        row = compare_row(solve, args.time_limit, run, binary)
        rows.append(row)
        emit(row, args, text_row(row))
    if not args.json:
        won = [r for r in rows if r["solve_vp"] is not None]
        low = [r["deal"] for r in rows if r["flagged"]]
        print(f"solve won {len(won)}/{len(rows)}, MCTS won "
              f"{sum(r['mcts_vp'] is not None for r in rows)}/{len(rows)}; below MCTS + "
              f"{MARGIN:.0%}: {len(low)}{' (' + ', '.join(low) + ')' if low else ''}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
