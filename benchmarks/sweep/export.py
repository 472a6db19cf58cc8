"""A stored deal as a line file (`solver.engine.record`), which ``heritage verify`` and
``analyse`` take.

The deal is dealt again as the sweep dealt it (`puzzles.deal.build_setup`) and its stored
decisions are replayed with `puzzles.lines.load_position` (in this engine's line-file format,
`LINE_FORMAT`: the sweep's engine wrote them), so the file holds the setup, the line,
the score and the goals; the sweep's figures are added as ``heritage solve --json`` adds them
(``status``, ``vp``, ``bound``, ``gap``, ``goals_met``, ``nodes``, ``seconds``; not
``time_to_best``, which a sweep does not store) with ``sweep`` (budget, bound, version, data,
outcome). A deal not won stores the best line found, which misses a goal: it is exported
as it is (``vp`` null, its goals not met).
"""

from __future__ import annotations

import json
from typing import Any

from benchmarks.sweep.plan import SweepError
from benchmarks.sweep.store import SweepStore
from benchmarks.sweep.tasks import worker_identity
from puzzles.deal import build_setup, load_cards
from puzzles.lines import load_position
from solver.engine.record import LINE_FORMAT, LineError

#: Which stored row of a deal is exported when several budgets or bounds hold it.
_PREFERENCE = {"won": 0, "unwinnable": 1, "unknown": 2}


def pick_row(store: SweepStore, deal: tuple[int, str, int, int], budget: str | None,
             bound: str | None) -> dict[str, Any]:
    """The stored row of `deal` (of `budget` and `bound` if given) solved with this
    installation's heritage version and data: won before unwinnable before unknown, then the
    most VP, then the smallest budget and bound in text order.

    :raises SweepError: no such row, or rows only of another version or data."""
    rows = store.rows(budget=budget, bound=bound, deal=deal)
    trial, hand, seed, die = deal
    what = f"trial {trial} hand {hand} seed {seed} die seed {die}"
    if budget is not None or bound is not None:
        what += " with " + ", ".join(x for x in (budget, bound and f"bound {bound}") if x)
    if not rows:
        raise SweepError(f"--seed: no deal {what} is stored in {store.path}")
    me = worker_identity()
    mine = [r for r in rows
            if r["version"] == me["version"] and r["data_sha256"] == me["data_sha256"]]
    if not mine:
        r = rows[0]
        raise SweepError(f"--db: the deal {what} was solved with heritage {r['version']} and "
                         f"data sha256 {r['data_sha256'][:12]}..., this installation has heritage "
                         f"{me['version']} and data {me['data_sha256'][:12]}...: export it where "
                         "the same heritage is installed")
    return min(mine, key=lambda r: (_PREFERENCE[r["status"]], -(r["vp"] or 0), r["budget"],
                                    r["bound"]))


def line_file(row: dict[str, Any]) -> dict[str, Any]:
    """The line file of a stored row (module docstring).

    :raises SweepError: the stored line does not replay on this engine."""
    book, card_sets = load_cards(None)
    setup = build_setup(book, card_sets, hand=row["hand"], seed=int(row["seed"]),
                        die_seed=int(row["die_seed"]), trial=int(row["trial"]))
    try:
        # the stored line is this engine's (`pick_row`), so of its line-file format: without
        # the field a line is read as format 1, its later lightning windows answered "done"
        record = load_position({"format": LINE_FORMAT, "setup": setup.to_json(),
                                "line": json.loads(row["line"])})
    except (LineError, json.JSONDecodeError) as exc:
        raise SweepError(f"--db: the stored line of trial {row['trial']} hand {row['hand']} "
                         f"seed {row['seed']} does not replay: {exc}") from None
    data = record.to_json()
    vp, bound = row["vp"], row["upper_bound"]
    if data["score"] is not None:
        data["goals_met"] = row["status"] == "won"  # a stored line meets every goal iff won
    data.update({
        "status": row["solve_status"], "vp": vp, "bound": bound,
        "gap": None if vp is None or bound is None else bound - vp,
        "nodes": row["nodes"], "seconds": row["seconds"],
        "sweep": {"outcome": row["status"], "budget": row["budget"], "bound": row["bound"],
                  "version": row["version"], "data_sha256": row["data_sha256"]},
    })
    return data
