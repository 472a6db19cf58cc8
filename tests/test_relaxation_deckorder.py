"""The deck's order in the relaxation (`solver.bounds.cpsat.deckorder`): Calakmul's reveal and
the Excavates' draws bounded.

`run_steps` against the engine's own reveal (`step_reveal_until`) from every start of a real
deck: never below what the engine takes (soundness), and equal to the most over the starts up
to there (the step function is exact). A crafted position where Calakmul declines this turn:
the model admits the engine's reveal and no more. The kept lines at turn 15 (the model's
optimum, not only its LP bound, within the budget; and with a node's budget) still bound the
line's VP.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from ortools.sat.python import cp_model

from benchmarks.prove_from import given_lines
from solver.bounds.cpsat.deckorder import concave_envelope, run_steps
from solver.bounds.cpsat.relaxation import Relaxation, RelaxConfig
from solver.bounds.cpsat.schedule import phase_of
from solver.engine.reveal import step_reveal_until
from solver.engine.state import GameState
from tests.builder import idx, position

LINES = Path(__file__).resolve().parent.parent / "benchmarks" / "lines" / "session5-t60.jsonl"
DECK_TOP = ["M1", "P1", "A1", "M2", "P2", "C2", "M3", "P3", "A2", "C3", "M4"]  # cities at 5, 9


DEEPER_TOP = ["C2", "C3", "M1", "P1", "A1", "M2", "P2", "C4", "M3", "C5", "M4"]  # 0, 1, 7, 9


def _calakmul_position(top: list[str] = DECK_TOP) -> GameState:
    return position(hand=["C1"], timeline={1: ["P33"]}, tokens={"P33": 0}, turn=16,
                    time_space=1, deck_top=top)


def _engine_run(st: GameState, start: int) -> int | None:
    """Cards Calakmul's reveal takes off the deck after `start` cards left it (None: the deck
    ran out, a reshuffle)."""
    st = st.clone()
    st.hand = []
    for _ in range(start):
        st.discard.append(st.take_top())
    step = next(s for e in st.book.cards[idx(st, "P33")].effects for s in e.steps
                if s.op == "reveal_until")
    before, shuffles = len(st.deck), st.reshuffles[0]
    step_reveal_until(st, idx(st, "P33"), step, 0)
    return None if st.reshuffles[0] != shuffles else before - len(st.deck)


@pytest.mark.parametrize("turn", [1, 15])
def test_run_steps_match_the_engine(turn: int) -> None:
    name, root, line = given_lines(LINES)[0]
    st = root.clone()
    for a in line:
        if st.turn == turn:
            break
        st.apply(a)
    kind = st.book.cards[idx(st, "P33")].effects[0].steps[0].monument_type
    assert kind is not None
    breaks = run_steps(st, kind, 2)
    most = 0
    for q in range(len(st.deck)):
        r = max(v for p, v in breaks if p <= q)
        taken = _engine_run(st, q)
        if taken is None:  # the deck ran out: the model adds the discard pile then
            return
        most = max(most, taken)
        assert taken <= r, (name, q)
        assert r == most, (name, q)


def _reveal_model(depth: int, top: list[str] = DECK_TOP, searches: int = 0) -> int:
    """CP-SAT's status on the crafted position with Calakmul's reveal in this turn's decline
    phase fixed to `depth` cards, `searches` Searches and no other action or effect taking a
    card before it."""
    st = _calakmul_position(top)
    phase = phase_of(st)
    assert phase is not None
    rel = Relaxation(st, phase, RelaxConfig(max_deterministic_time=1.0))
    v = rel.build()
    m = rel.model
    # the fixed reveal below contradicts the model's hint (no reveal)
    m.clear_hints()  # type: ignore[no-untyped-call]
    d = next(d for c, i, d in v.effects.reveals if i == 0)
    m.add(d == depth)
    m.add(v.turns.searches[0] == searches)
    m.add(v.turns.excavations[0] == 0)
    m.add(v.draws.dug_by_effects == 0)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = 5.0
    return int(solver.solve(m))


def test_calakmul_reveal_in_the_model() -> None:
    """The engine's reveal from the top takes 10 cards here (the 2nd city is the 10th card): the
    model admits exactly that much (feasible at 10, infeasible at 11)."""
    assert _engine_run(_calakmul_position(), 0) == 10
    assert _reveal_model(10) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    assert _reveal_model(11) == cp_model.INFEASIBLE


def test_calakmul_reveal_after_searches() -> None:
    """Two Searches first: the reveal starts at the 3rd card and takes 8 (to the 2nd city after
    it, the 10th card), more than from the top (2): the model's cap (`bound_reveals`, the
    step function at the start the Searches reach) admits exactly that much (feasible at 8,
    not at 9)."""
    st = _calakmul_position(DEEPER_TOP)
    assert _engine_run(st, 0) == 2 and _engine_run(st, 2) == 8
    assert _reveal_model(8, DEEPER_TOP, 2) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    assert _reveal_model(9, DEEPER_TOP, 2) == cp_model.INFEASIBLE


@pytest.mark.parametrize("dtime", [1.0, 0.1])
@pytest.mark.parametrize("deal", ["t1-h1-s0", "t2-h1-s0", "t6-h4-s0"])
def test_kept_lines_bounded_at_turn_15(deal: str, dtime: float) -> None:
    """The model's bound at the start of turn 15 of a kept line (with the budget to reach its
    optimum, where the deck's order binds; and with a node's budget, where CP-SAT runs its
    lower-bound tree search, `RelaxConfig.lb_tree_turns`) is at least the line's VP."""
    name, root, line = next(x for x in given_lines(LINES) if x[0] == deal)
    st = root.clone()
    pos = None
    for a in line:
        if st.turn == 15 and pos is None:
            pos = st.clone()
        st.apply(a)
    assert pos is not None and st.feasible()
    phase = phase_of(pos)
    assert phase is not None
    rel = Relaxation(pos, phase, RelaxConfig(max_deterministic_time=dtime))
    assert rel.lb_tree() == (dtime <= 0.5)
    r = rel.solve()
    assert not r.infeasible
    assert r.bound is not None and r.bound >= st.value(), (name, r.bound, st.value())


@pytest.mark.parametrize("seed", range(20))
def test_the_envelope_lies_above_the_cards_of_a_type_among_the_top(seed: int) -> None:
    """`deckorder.pay_in_kind` bounds the cards of a type among the deck's top d cards by the
    upper concave envelope of that step function: at every depth, each segment's line is at
    least the count, and the envelope meets the count at its corners (not looser there)."""
    rng = random.Random(seed)
    positions = sorted(rng.sample(range(60), rng.randint(1, 12)))
    corners = [(0, 0)] + [(p + 1, j + 1) for j, p in enumerate(positions)]
    segments = concave_envelope(corners)
    assert segments and segments[0][0] == (0, 0)
    for d in range(62):
        count = sum(1 for p in positions if p < d)
        for (x1, y1), (x2, y2) in segments:
            assert x2 > x1
            assert (x2 - x1) * count <= (y2 - y1) * d + y1 * x2 - y2 * x1
    hull = [a for a, _ in segments] + [segments[-1][1]]
    assert hull[-1] == corners[-1] and all(c in corners for c in hull)
