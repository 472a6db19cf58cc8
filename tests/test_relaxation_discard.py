"""Cards out of the discard pile only after a reshuffle (`cardflow.from_discard`), and
Poulnabrone Dolmen's extra Creates without its own creation (`effects.special_cards`): the
engine's lines on crafted positions are solutions of the model (feasible with the rule), and
the rule cuts what the engine cannot do."""

from __future__ import annotations

from ortools.sat.python import cp_model

from solver.bounds.cpsat.relaxation import Relaxation, RelaxConfig, relax
from solver.bounds.cpsat.schedule import phase_of
from solver.engine import actions as A
from solver.engine.state import GameState
from tests.builder import idx, position
from tests.test_poulnabrone_reach import _last_turn


def _reshuffle_position() -> GameState:
    """Two turns left, an empty hand, one card (C12) in the deck and Poulnabrone Dolmen (M36,
    no discard cost) in the discard pile: two Searches empty the deck and bring M36 back."""
    st = position(hand=[], deck_top=["C12"], discard=["M36"], time_space=2, time_visits=2,
                  turn=15, past=["C1", "C2", "C3"])
    st.deck = [idx(st, "C12")]
    return st


def _pick(st: GameState, kind: int, value: int) -> None:
    a = A.code(kind, value)
    assert a in st.legal_actions(), (kind, value)
    st.apply(a)


def _status(st: GameState, fix: list[tuple[str, int]]) -> int:
    """CP-SAT's status on the model of `st` with these (what, value) fixed: "M36" its
    creations (fates), "reshuffle" the Boolean, "poul" Poulnabrone's extra Creates,
    "created" the monuments created."""
    phase = phase_of(st)
    assert phase is not None
    rel = Relaxation(st, phase, RelaxConfig(max_deterministic_time=2.0))
    v = rel.build()
    m = rel.model
    m.clear_hints()  # type: ignore[no-untyped-call]
    m36 = idx(st, "M36")
    for what, value in fix:
        if what == "M36":
            m.add(v.monuments.created[m36] == value)
        elif what == "reshuffle":
            assert v.reshuffle is not None
            m.add(v.reshuffle == value)
        elif what == "created":
            m.add(v.events.monuments_created == value)
        else:
            m.add(v.specials.poulnabrone == value)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = 5.0
    return int(solver.solve(m))


def test_a_discarded_card_comes_back_after_the_reshuffle() -> None:
    """The engine: Search, Search (the deck runs out: the discard pile comes back with M36),
    then M36 created in turn 16. The model admits it (with the reshuffle) and its bound is at
    least that line's VP; M36 created without the reshuffle is what it cuts (two Searches dig
    as deep as M36's position, the deck's size, so without the rule it was a solution)."""
    st = _reshuffle_position()
    line = st.clone()
    _pick(line, A.ACT, A.SEARCH)
    _pick(line, A.ACT, A.SEARCH)
    assert idx(line, "M36") in line.hand and line.turn == 16
    _pick(line, A.ACT, A.CREATE)
    _pick(line, A.CARD, idx(line, "M36"))
    while not line.is_terminal():
        line.apply(line.legal_actions()[0])
    assert idx(line, "M36") in line.monuments() and line.feasible()
    phase = phase_of(st)
    assert phase is not None
    r = relax(st, phase, RelaxConfig(max_deterministic_time=1.0))
    assert not r.infeasible and r.bound is not None and r.bound >= line.value()
    ok = (cp_model.OPTIMAL, cp_model.FEASIBLE)
    assert _status(st, [("M36", 1), ("reshuffle", 1)]) in ok
    assert _status(st, [("M36", 1), ("reshuffle", 0)]) == cp_model.INFEASIBLE


def test_poulnabrone_does_not_double_its_own_create() -> None:
    """The last turn with M36, M2, C12 and C13 in hand, 11 in the Past: the engine creates
    M36, then M2 (paying C12), which M36 doubles (clarifications, M36: any monument Create
    other than its own): C13 in the extra Create, three monuments created, one extra Create.
    The model admits that; one extra Create with only two monuments created (M36's own
    creation doubled) is what it cuts (``2 p <= created`` alone allowed it)."""
    st = _last_turn("hand", 2)
    line = st.clone()
    _pick(line, A.ACT, A.CREATE)
    _pick(line, A.CARD, idx(line, "M36"))
    _pick(line, A.SPACE, 6)
    _pick(line, A.ACT, A.CREATE)
    _pick(line, A.CARD, idx(line, "M2"))
    _pick(line, A.SPACE, 4)
    _pick(line, A.CARD, idx(line, "C12"))  # M2's discard
    _pick(line, A.CARD, idx(line, "C13"))  # Poulnabrone's extra Create
    while not line.is_terminal():
        line.apply(line.legal_actions()[0])
    assert {line.book.cards[c].code for c in line.monuments()} >= {"M36", "M2", "C13"}
    ok = (cp_model.OPTIMAL, cp_model.FEASIBLE)
    assert _status(st, [("M36", 1), ("poul", 1), ("created", 3)]) in ok
    assert _status(st, [("M36", 1), ("poul", 1), ("created", 2)]) == cp_model.INFEASIBLE
