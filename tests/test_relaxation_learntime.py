"""Learns in time (relaxation 11, `solver.bounds.cpsat.learntime`): each technology's
requirement read on the counts of the moment it is learned.

Sound: a line that learns a technology the first moment its requirement holds (after a decline)
stays a solution, and real lines of the 60 s suite keep their VP under the bound at the root
and mid-game. Binding: the same technology cannot be learned where its requirement does not
hold yet (before the decline, or with too much lost knowledge for "at most" clauses), and a
Timeline Learn (A33) fires at most once per Timeline phase.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from ortools.sat.python import cp_model

from solver.bounds.cpsat.learntime import learn_points
from solver.bounds.cpsat.relaxation import Relaxation, RelaxConfig, relax
from solver.bounds.cpsat.resources import UnsupportedCardError
from solver.bounds.cpsat.schedule import phase_of
from solver.engine.state import GameState
from tests.builder import idx, play, position
from tests.test_endgame import plain_optimum
from tests.test_relaxation_random import best_continuation, random_position
from tests.test_relaxation_timed import LINES, turn_starts

ON = RelaxConfig(max_deterministic_time=1.0, learn_turns=40)
OFF = RelaxConfig(max_deterministic_time=1.0, learn_turns=0)


def past_nine_soon() -> GameState:
    """Turn 15 of 16 (the time card in space 2, two visits done): 8 monuments in the Past, two
    in space 1 that decline at the end of this turn; T43 (10 in the Past) is the only
    technology on the tiles. It can be learned in turn 16 only (RULES.md section 5)."""
    return position(hand=["C20"], timeline={1: ["C7", "P3"], 4: ["M5"]},
                    tokens={"C7": 0, "P3": 0, "M5": 0},
                    past=["P1", "P2", "M4", "P5", "P6", "C1", "C2", "C3"], rotated=8,
                    tiles=[None] * 6 + ["T43", None, None], tile_level=(2, 1, 2),
                    time_space=2, time_visits=2, turn=15)


def solve_with(st: GameState, cfg: RelaxConfig, extra: object) -> tuple[str, float]:
    """Build the model, add constraints (`extra(model, variables)`), and maximize what
    `extra` returns (or the VP when None): CP-SAT's status and objective."""
    phase = phase_of(st)
    assert phase is not None
    r = Relaxation(st, phase, cfg)
    v = r.build()
    assert callable(extra)
    goal = extra(r.model, v)
    if goal is not None:
        r.model.maximize(goal)
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    s.parameters.max_deterministic_time = 5.0
    code = s.solve(r.model)
    return s.status_name(code), s.objective_value


def test_learn_points_follow_the_turn() -> None:
    """A point per slot (its actions and Timeline phase after the previous decline), none
    after the last decline (it ends the game, D8)."""
    st = past_nine_soon()
    phase = phase_of(st)
    assert phase is not None
    r = Relaxation(st, phase, ON)
    assert learn_points(r.context) == 2


def test_requirement_met_only_after_the_decline() -> None:
    """The line: two Searches, the decline (10 in the Past), then Learn T43 in turn 16 (21 VP).
    With learn times the model still lets T43 be learned (read on turn 16's Past), and its
    bound covers the line; if no Learn can come in turn 16, T43 cannot be learned at all
    (turn 15's actions see 8 in the Past), which the final counters alone would allow."""
    st = past_nine_soon()
    end = play(st.clone(), "search", "search")
    while end.turn == 15:
        end.apply(end.legal[0])
    assert len(end.past) == 10
    play(end, "learn", "search")
    while not end.is_terminal():
        end.apply(end.legal[0])
    vp = end.value()
    assert idx(end, "T43") in end.techs and end.feasible() and vp == 21
    t43 = idx(st, "T43")

    def learn_t43(model: cp_model.CpModel, v: object) -> None:
        model.add(v.technologies.learned[t43] == 1)  # type: ignore[attr-defined]

    status, best = solve_with(st, ON, learn_t43)
    assert status == "OPTIMAL" and best >= vp

    def no_learn_in_turn_16(model: cp_model.CpModel, v: object) -> object:
        model.add(v.turns.learns[1] == 0)  # type: ignore[attr-defined]
        return v.technologies.learned[t43]  # type: ignore[attr-defined]

    assert solve_with(st, ON, no_learn_in_turn_16) == ("OPTIMAL", 0.0)
    assert solve_with(st, OFF, no_learn_in_turn_16) == ("OPTIMAL", 1.0)


def test_at_most_lost_knowledge_against_the_least_reachable() -> None:
    """T37 needs 7 in the Past and at most 3 lost knowledge: with 10 lost and no
    lost-knowledge removal within reach it cannot be learned (the final counters ignore
    "at most" clauses); with 3 lost it can."""
    def pos(lost: int) -> GameState:
        return position(hand=["C20"], timeline={1: ["C7"], 4: ["M5"]},
                        tokens={"C7": 0, "M5": 0},
                        past=["P1", "P2", "M4", "P5", "P6", "C1", "C2", "C3"], rotated=8,
                        tiles=[None] * 6 + ["T37", None, None], tile_level=(2, 1, 2),
                        lost=lost, time_space=1, time_visits=2, turn=16)

    def t37(model: cp_model.CpModel, v: object) -> object:
        return v.technologies.learned[idx(pos(0), "T37")]  # type: ignore[attr-defined]

    assert solve_with(pos(10), ON, t37) == ("OPTIMAL", 0.0)
    assert solve_with(pos(10), OFF, t37) == ("OPTIMAL", 1.0)
    assert solve_with(pos(3), ON, t37) == ("OPTIMAL", 1.0)


def test_timeline_learn_once_per_phase_once_its_condition_holds() -> None:
    """A33 (with 17 lost knowledge: learn one technology in the Timeline phase) on the board,
    two turns left, no Learn action, no builder card left to draw. With 17 lost: at most two
    Learns, one per Timeline phase (RULES.md section 4B). With 15 lost and C7 (2 knowledge)
    declining at the end of turn 15: one, in turn 16's Timeline phase (the untimed model,
    reading the condition on the final lost knowledge, allows two)."""
    def pos(lost: int) -> GameState:
        st = position(hand=["C20"], timeline={1: ["C7"], 3: ["M5"]}, tokens={"C7": 2, "M5": 0},
                      artifacts=["A33"], past=["P1", "P2"], lost=lost,
                      tiles=["T3", "T4", "T5", "T6", "T9", "T10", None, None, None],
                      time_space=2, time_visits=2, turn=15)
        st.deck = []  # nothing to draw: A33 is the only card that grants a Learn
        return st

    def techs_without_actions(model: cp_model.CpModel, v: object) -> object:
        for x in v.turns.learns:  # type: ignore[attr-defined]
            model.add(x == 0)
        return sum(v.technologies.learned.values())  # type: ignore[attr-defined]

    assert solve_with(pos(17), ON, techs_without_actions) == ("OPTIMAL", 2.0)
    assert solve_with(pos(15), ON, techs_without_actions) == ("OPTIMAL", 1.0)
    assert solve_with(pos(15), OFF, techs_without_actions) == ("OPTIMAL", 2.0)


@pytest.mark.parametrize("name", sorted(LINES))
def test_real_lines_below_the_bound_with_learn_times(name: str) -> None:
    """Real 60 s lines: at the start of turns 1, 8, 12 and 14, the bound with learn times on
    (at every turn) is at least the line's VP and never INFEASIBLE."""
    starts, vp = turn_starts(*LINES[name])
    for turn in (1, 8, 12, 14):
        pos = starts[turn]
        phase = phase_of(pos)
        assert phase is not None
        r = Relaxation(pos, phase, RelaxConfig(max_deterministic_time=0.3,
                                               learn_turns=40)).solve()
        assert not r.infeasible, f"turn {turn}: INFEASIBLE, the line scores {vp}"
        assert r.bound is not None and r.bound >= vp, (turn, r.bound, vp)


@settings(max_examples=4, deadline=None, derandomize=True)
@given(hst.integers(min_value=0, max_value=10**6))
def test_bound_above_random_continuations_with_learn_times(seed: int) -> None:
    """Hypothesis: random positions from random play (turn 5 on), learn times on at every
    turn (and creation times): the bound against the best goal-meeting random continuation."""
    st = random_position(seed, earliest=5)
    if st is None:
        return
    phase = phase_of(st)
    assert phase is not None
    best = best_continuation(st, seed, 12)
    try:
        r = Relaxation(st, phase, RelaxConfig(max_deterministic_time=0.2, timed=True,
                                              learn_turns=40)).solve()
    except UnsupportedCardError:
        return
    if best is None:
        return
    assert not r.infeasible, f"seed {seed}: INFEASIBLE, but a continuation scores {best}"
    assert r.bound is None or r.bound >= best, f"seed {seed}: bound {r.bound} below {best}"


def relaxed_covers_the_optimum(
        st: GameState,
        optimum: Callable[[GameState], tuple[bool, float | None]] = plain_optimum) -> float:
    """The exact optimum of `st` (by `optimum`, a complete search which must finish and find a
    line: by default a plain one), once the relaxation's own bound at `st`'s phase boundary
    (not its minimum with the simple bound) is checked to be at least it and not INFEASIBLE."""
    complete, best = optimum(st)
    assert complete and best is not None
    phase = phase_of(st)
    assert phase is not None
    r = relax(st, phase, RelaxConfig())
    assert not r.infeasible and r.bound is not None and r.bound >= best, (r.bound, best)
    return best


def test_a_learn_granted_by_a_create_counts_in_the_turn_of_the_create() -> None:
    """Borobudur Temple (P20: each time you create an artifact, you may learn a technology)
    grants a Learn that takes no action of its own (RULES.md section 5). In the last turn,
    creating Sumerian Tablets (A20) learns Chinese Alphabet (T40, 2 VP: its 3 megaliths in the
    Past lowered to the 2 there by Candi Sukuh, P19); that Learn draws a card (A20's own
    trigger), which the second action creates: 11 VP. The model's Learns of that turn must
    leave room for the granted one (found by a mutation run: taking the grants not tied to a
    turn away instead of adding them put the bound at 10)."""
    st = position(hand=["A20"], timeline={1: ["M4", "TIME"], 2: ["P20"], 3: ["P19"]},
                  tokens={"P20": 1}, past=["M9", "M27", "P6"],
                  tiles=["T9", "T11", None, None, None, None, "T30", "T40", None],
                  deck_top=["C35", "A26", "C26", "M7", "C29", "M11"], time_space=1,
                  time_visits=2, turn=16)
    assert relaxed_covers_the_optimum(st) == st.score().total + 3 == 11


def test_a_learn_counts_toward_the_next_learn_s_requirement() -> None:
    """Sumerian Cuneiforms (T42, 2 VP) asks for at least 6 technologies already in the
    collection: with 5, the last turn's first Learn (Mercury, T9, no requirement) brings the
    count to 6 and the second learns T42 (RULES.md section 5: a requirement is checked when
    the Learn happens). Every technology learned raises its type's count and the count of
    all technologies (found by a mutation run: the latter left unraised put the bound at 2
    against an optimum of 4)."""
    st = position(timeline={1: ["M4", "TIME"], 2: ["C3"]},
                  techs=["T6", "T10", "T12", "T13", "T14"],
                  tiles=["T9", None, None, None, None, None, "T42", None, None],
                  time_space=1, time_visits=2, turn=16)
    assert relaxed_covers_the_optimum(st) == st.score().total + 2 == 4


def test_a_monument_declined_into_the_past_counts_for_a_later_requirement() -> None:
    """Pythagoras (T31, 3 VP) asks for at least 3 monuments with an end-game scoring effect in
    the Past. With 2 there (P6, P36) and Sulawesi Megaliths (M4, final scoring) in space 1,
    turn 15's decline sends M4 to the Past (RULES.md section 4C) and turn 16 learns T31: the
    requirement is checked on the Past of the Learn's turn, counting only the monuments with
    an end-game effect (found by a mutation run: counting the others instead put the bound at
    14 against an optimum of 15)."""
    st = position(timeline={1: ["M4"], 2: ["TIME", "C3"]}, past=["P6", "P36"],
                  tiles=[None, None, None, None, None, None, "T31", None, None],
                  time_space=2, time_visits=2, turn=15)
    assert relaxed_covers_the_optimum(st) == 15
