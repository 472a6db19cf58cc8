"""``heritage sweep export``'s line file of a stored row (`benchmarks.sweep.export.line_file`):
the stored line is this engine's, so a lightning chest used at a window that line-file format 1
did not know replays as it was played."""

from __future__ import annotations

import json
from typing import Any

from benchmarks.sweep.export import line_file
from benchmarks.sweep.tasks import worker_identity
from puzzles.deal import build_setup, load_cards
from solver.engine import actions as A
from solver.engine.chests import window_since
from solver.engine.record import LINE_FORMAT, GameRecord
from solver.rng import Stream

TRIAL, HAND, SEED, DIE_SEED = 3, "2", 0, 0  # trial 3: lightning chests В, Ж, З under the board


def chest_at_a_later_window() -> tuple[GameRecord, str]:
    """A random game of the deal that keeps its chests until a window of format 3 or later
    (between two effects, or in the decline phase) and uses one there, played to the end;
    the notation of that use."""
    book, sets = load_cards(None)
    setup = build_setup(book, sets, hand=HAND, seed=SEED, die_seed=DIE_SEED, trial=TRIAL)
    record = GameRecord.new(setup, book)
    st = record.state
    stream = Stream(0, "sweep-export-test", 0)
    used = ""
    while not st.is_terminal():
        legal = st.legal_actions()
        chests = [a for a in legal if A.kind_of(a) == A.CHEST]
        if not used and chests and window_since(st) >= 3:
            used = st.action_to_string(chests[0])
            record.apply(chests[0])
            continue
        keep = [a for a in legal if A.kind_of(a) != A.CHEST] or legal
        record.apply(keep[stream.below(len(keep))])
    assert used, "no later window with a chest in this game"
    return record, used


def stored_row(record: GameRecord) -> dict[str, Any]:
    """The row a sweep stores for `record` (`benchmarks.sweep.tasks.solve_deal`'s fields)."""
    me = worker_identity()
    won = record.state.feasible()
    vp = record.state.score().total
    return {"trial": TRIAL, "hand": HAND, "seed": SEED, "die_seed": DIE_SEED,
            "line": json.dumps(record.line, ensure_ascii=False, separators=(",", ":")),
            "status": "won" if won else "unknown", "solve_status": "FEASIBLE" if won else "UNKNOWN",
            "vp": vp if won else None, "upper_bound": None, "nodes": 1, "seconds": 0.0,
            "budget": "nodes=1", "bound": "simple", "version": me["version"],
            "data_sha256": me["data_sha256"]}


def test_export_replays_a_chest_used_at_a_window_format_1_did_not_know() -> None:
    record, used = chest_at_a_later_window()
    data = line_file(stored_row(record))
    assert data["format"] == LINE_FORMAT
    assert data["line"] == record.line  # the same decisions, the chest's use among them
    assert any(used in turn for turn in data["line"])
    assert data["score"] == record.state.score().as_dict()
    assert data["goals_met"] == record.state.feasible()
