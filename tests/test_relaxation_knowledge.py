"""Knowledge removed in time and lost knowledge that can come down (issue 13, session 48;
`solver.bounds.cpsat.knowledge`, `solver.bounds.cpsat.effects`).

RULES.md section 4 (a turn's Timeline phase comes before its decline phase; turn 16's decline
phase ends the game before any monument declines, D8), 4C step 2 (the knowledge left on a
declining monument becomes lost knowledge), section 7 row 5 and D22 (lost knowledge goes down
only by the effects that discard it)."""

from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

import solver.bounds.cpsat.effects as effects
from solver.bounds.cpsat.bound import relaxed_bound
from solver.bounds.cpsat.relaxation import Relaxation
from solver.bounds.cpsat.variables import Variables
from tests.builder import position
from tests.test_relaxation_techdeal import turn_start
from tests.test_relaxation_tiles import CFG, model_solve


def test_t5_h3_turn_15_counts_only_the_removals_before_its_declines(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """t5-h3's turn-15 start (lost knowledge 29; the Standing Stones of Stenness, M23, and the
    Cahuachi Pyramids, P5, hold 6 knowledge and decline in turn 15): the model removed that
    knowledge with the Pyramid of Djoser (P29: "4 lost knowledge or less") and with Timeline
    effects of turn 16, after the last decline. Now P29 fires only if the lost knowledge can
    come down to 4, and a Timeline effect's removals count for one phase (turn 15's) only: the
    bound is 66 (the line: 63), 67 without the first rule, 68 without the second (P29 then
    has nothing to add) or both."""
    st, end, _ = turn_start("t5-h3-s0", 15)
    assert end.value() == 63 and st.lost == 29
    assert relaxed_bound(st, CFG).bound == 66
    with monkeypatch.context() as mp:
        mp.setattr(effects, "lost_comes_down", lambda ctx, eff, b, clause: None)
        assert relaxed_bound(st, CFG).bound == 67
    monkeypatch.setattr(effects, "_phases_to_declines", lambda ctx: 99)
    assert relaxed_bound(st, CFG).bound == 68


def _djoser_fires(lost: int) -> bool:
    """Whether the model lets the Pyramid of Djoser (P29) fire in turns 15-16 with `lost` lost
    knowledge now and Ishibutai Kofun (M29: "at least 5 lost knowledge: discard 1 lost
    knowledge", a Timeline effect, so once a phase) beside it in the Timeline."""
    st = position(hand=[], timeline={2: ["M5"], 3: ["M29", "P29"]},
                  tokens={"M5": 2, "M29": 0, "P29": 0}, past=["C2"], lost=lost,
                  time_space=2, time_visits=2, turn=15)

    def fire(rel: Relaxation, v: Variables) -> None:
        acts = [act for act, _, name in v.effects.timed if name.startswith("P29_")]
        assert acts
        rel.model.add(sum(acts) >= 1)

    code, _ = model_solve(st, fire)
    assert code in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
    return code != cp_model.INFEASIBLE


def test_djoser_fires_only_where_the_lost_knowledge_can_come_down_to_4() -> None:
    """With 6 lost knowledge, M29 discards one in turn 15's Timeline phase and one in turn
    16's (5 and more each time), and P29, after it in turn 16's, meets "4 lost knowledge or
    less": the model must let it fire. With 7, two discards leave 5: it cannot."""
    assert _djoser_fires(6)
    assert not _djoser_fires(7)
