"""Lost knowledge that can come down (issue 13, session 48; `solver.bounds.cpsat.effects`'s
`lost_comes_down`).

RULES.md section 7 row 5 and D22: lost knowledge goes down only by the effects that discard it
(Ishibutai Kofun, M29; Carnac, M13; Pyramid of Coba, P11; chests), so an effect gated on "at most
N lost knowledge" (Pyramid of Djoser, P29) can fire only if those discards can bring it to N."""

from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

import solver.bounds.cpsat.effects as effects
from solver.bounds.cpsat.relaxation import Relaxation
from solver.bounds.cpsat.variables import Variables
from tests.builder import position
from tests.test_relaxation_tiles import model_solve


def _djoser_fires(lost: int) -> bool:
    """Whether the model lets the Pyramid of Djoser (P29: "4 lost knowledge or less and a
    monument in your Past: discard 1 knowledge") fire in turns 15-16 with `lost` lost
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
    less": the model must let it fire. With 7, two discards leave 5: it cannot (before session
    48 the model let it fire at any lost knowledge: the clause was not read)."""
    assert _djoser_fires(6)
    assert not _djoser_fires(7)


def test_without_the_rule_djoser_fires_at_any_lost_knowledge(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule is what stops it: with `lost_comes_down` dropped, P29 fires with 20."""
    monkeypatch.setattr(effects, "lost_comes_down", lambda ctx, eff, b, clause: None)
    assert _djoser_fires(20)
