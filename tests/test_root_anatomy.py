"""`benchmarks.root_anatomy`: the five score rows it reads add up to the VP (RULES.md section
7), on a real line and on the root relaxation's best assignment, and a what-if cap lowers the
bound (it is a cap, not a rule: the module says so)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.prove_from import given_lines
from benchmarks.root_anatomy import anatomy, line_rows, turn_start
from tests.test_relaxation_timed import LINES, _root

ROWS = ("past_vp", "endgame", "tech_vp", "timeline")


def test_line_rows_add_up() -> None:
    trial, hand, line = LINES["t2-h1"]
    r = line_rows(_root(trial, hand), line)
    assert r["vp"] == 57
    assert sum(r[k] for k in ROWS) - r["lost"] == r["vp"]
    assert r["create_actions"] > 0 and r["past"] > 0


def test_root_assignment_rows_and_a_cap() -> None:
    st = _root(1, "1")
    a = anatomy(st, 1.0, [])
    assert "vp" in a and a["bound"] >= a["vp"]
    assert sum(a[k] for k in ROWS) - a["lost"] == a["vp"]
    assert a["past"] > 13  # the relaxation declines far more than a real line (13)
    capped = anatomy(st, 1.0, [("past.any", 13)])
    assert capped["bound"] < a["bound"] - 50
    assert capped.get("past", 13) <= 13


def test_turn_start_rows_and_the_effect_depth_cap() -> None:
    """At the start of turn 15 of a kept line: the deck rows are read, and the what-if cap on
    the effect depth holds in the assignment and does not raise the bound."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "lines" / "session5-t60.jsonl"
    _, root, line = next(x for x in given_lines(path) if x[0] == "t2-h3-s0")
    st = turn_start(root, line, 15)
    assert st.turn == 15
    a = anatomy(st, 2.0, [])
    capped = anatomy(st, 2.0, [("effect_depth", 0)])
    assert "vp" in capped and capped["effect_depth"] == 0
    assert capped["bound"] <= a["bound"]
    assert -1 <= a["deepest"] < len(st.deck)
