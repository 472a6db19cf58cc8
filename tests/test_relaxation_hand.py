"""The hand turn by turn (relaxation 12, `solver.bounds.cpsat.handtime`) against real lines.

A witness: a line of the engine with its own per-turn counts written into the model. From
positions at turn starts of a line, the model with creation times and the hand by turn on,
with the hand at the end of each turn fixed to the line's hand (the hand at the next turn's
start) and each card's first creation fixed to the line's turn, must stay feasible and bound
the line's VP. The lines prefer Searches early, so that the hand holds 10 cards at turn ends
and Searches at 10 cards draw nothing (D4): a cap below 10, a balance that counts a Search at
a full hand as a card in hand, or a draw booked in the wrong turn makes the fixed model
infeasible.
"""

from __future__ import annotations

import functools

import pytest
from ortools.sat.python import cp_model

from puzzles.deal import build_setup, load_cards
from solver.bounds.cpsat.relaxation import Relaxation, RelaxConfig
from solver.bounds.cpsat.schedule import phase_of
from solver.engine import actions as A
from solver.engine.newgame import new_game
from solver.engine.state import EMPTY, GameState
from solver.rng import Stream
from tests.builder import position
from tests.test_relaxation import exact
from tests.test_relaxation_learntime import relaxed_covers_the_optimum
from tests.test_relaxation_timed import LINES, _root

ACTION_VARIABLES = {A.ACT_SEARCH: "search", A.ACT_EXCAVATE: "excavate", A.ACT_ARCHIVE: "archive",
                    A.ACT_LEARN: "learn", A.ACT_CREATE: "create"}
CFG = RelaxConfig(max_deterministic_time=0.5, timed=True, hand_by_turn=True)


@functools.cache
def _line(seed: int, trial: int | None) -> tuple[GameState, tuple[int, ...]]:
    """A deal and a line from it: Searches whenever legal in turns 1-4 (the hand fills to 10
    and further Searches draw nothing), then Creates whenever legal, random play otherwise."""
    book, card_sets = load_cards(["base"])
    rng = Stream(seed, "relaxation-hand-line", 0)
    root = new_game(build_setup(book, card_sets, hand=str(1 + seed % 4), seed=seed,
                                trial=trial), book)
    st = root.clone()
    line: list[int] = []
    while not st.is_terminal():
        legal = st.legal_actions()
        if st.turn <= 4 and A.ACT_SEARCH in legal:
            a = A.ACT_SEARCH
        elif A.ACT_CREATE in legal:
            a = A.ACT_CREATE
        else:
            a = legal[rng.below(len(legal))]
        line.append(a)
        st.apply(a)
    return root, tuple(line)


def _on_board(st: GameState) -> set[int]:
    """Builder cards in the Timeline, the Past or the artifact spaces."""
    out = {c for items in st.spaces for c in items if c >= 0}
    out.update(st.past)
    out.update(a for a in st.artifacts if a != EMPTY and a < len(st.book.cards))
    return out


def _witness(root: GameState, line: tuple[int, ...], turn: int) -> tuple[
        GameState, list[int], list[set[int]], list[dict[int, int]], float | None]:
    """The position at the start of `turn` of the line, the hand at the end of each turn from
    there, the cards first created in each turn, the actions of each turn (action code:
    count), and the line's final VP (None: it misses a goal)."""
    st = root.clone()
    seen: set[int] = set()
    pos: GameState | None = None
    hands: list[int] = []
    made: list[set[int]] = []
    acts: list[dict[int, int]] = []
    current = st.turn
    for a in line:
        if st.turn != current or pos is None:
            if pos is not None:
                hands.append(len(st.hand))
                made.append(_on_board(st) - seen)
            if st.turn == turn:
                pos = st.clone()
            current = st.turn
            seen |= _on_board(st)
            if pos is not None:
                acts.append({})
        if pos is not None and A.kind_of(a) == A.ACT:
            acts[-1][a] = acts[-1].get(a, 0) + 1
        st.apply(a)
    assert st.is_terminal() and pos is not None
    hands.append(len(st.hand))
    made.append(_on_board(st) - seen)
    return pos, hands, made, acts, float(st.value()) if st.feasible() else None


def test_lines_hold_ten_cards() -> None:
    """The lines of this module do hold 10 cards at some turn end."""
    _, hands, _, _, _ = _witness(*_line(3, None), 2)
    assert max(hands) == 10


def _real(name: str) -> tuple[GameState, tuple[int, ...]]:
    trial, hand, line = LINES[name]
    return _root(trial, hand), tuple(line)


CASES = [("search-1", 1), ("search-4", 3), ("search-7", 5), ("search-11", 12), ("t2-h1", 9),
         ("t3-h1", 14)]
MORE = [("search-1", 8), ("search-4", 1), ("search-7", 15), ("search-11", 2), ("t2-h1", 1),
        ("t2-h1", 13), ("t3-h1", 4), ("t3-h1", 11)]


@pytest.mark.parametrize(("name", "turn"), CASES)
def test_witness_line_is_a_solution(name: str, turn: int) -> None:
    """The model, with the line's hand at each turn end and its creation turns fixed, is
    feasible and bounds the line's VP."""
    check_witness(name, turn)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "turn"), MORE)
def test_witness_line_is_a_solution_more(name: str, turn: int) -> None:
    """The same at more turn starts."""
    check_witness(name, turn)


def check_witness(name: str, turn: int) -> None:
    if name.startswith("search-"):
        root, line = _line(int(name.split("-")[1]), None)
    else:
        root, line = _real(name)
    pos, hands, made, acts, vp = _witness(root, line, turn)
    assert vp is not None
    phase = phase_of(pos)
    assert phase is not None
    relaxation = Relaxation(pos, phase, CFG)
    relaxation.build()
    model = relaxation.model
    index = {v.name: k for k, v in enumerate(model.proto.variables)}
    cards = pos.book.cards
    fixed = 0
    for i, h in enumerate(hands):
        k = index.get(f"hand_end{i}")
        assert k is not None
        model.add(model.get_int_var_from_proto_index(k) == h)
        if name.startswith("search-") and pos.turn + i <= 4:
            # Turns 1-4 of these lines: only Searches, nothing in play, no chest: no effect
            # draws (so the Searches alone must bring the hand to 10).
            model.add(model.get_int_var_from_proto_index(index[f"effect_draws{i}"]) == 0)
        for a, kind in ACTION_VARIABLES.items():
            model.add(model.get_int_var_from_proto_index(index[f"{kind}{i}"])
                      == acts[i].get(a, 0))
        for c in range(len(cards)):
            k = index.get(f"made_{cards[c].code}_{i}")
            if k is not None:
                model.add(model.get_int_var_from_proto_index(k) == int(c in made[i]))
                fixed += c in made[i]
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = CFG.max_deterministic_time
    solver.parameters.linearization_level = CFG.linearization
    solver.parameters.cp_model_presolve = CFG.presolve
    code = solver.solve(model)
    assert code != cp_model.INFEASIBLE, f"INFEASIBLE with the line's hands {hands} (VP {vp})"
    assert code != cp_model.MODEL_INVALID
    if solver.num_branches > 0 or solver.response_proto.num_lp_iterations > 0:
        assert solver.best_objective_bound + 1e-6 >= vp, (solver.best_objective_bound, vp)


def test_a_draw_set_off_by_a_create_funds_the_same_turn() -> None:
    """Nazca Lines (A22: each time you create a pyramid, draw 1 card) draws when the Create
    happens (RULES.md section 5): in the last turn, creating Janggun-chong (P36, the only card
    in hand) draws the card the second action creates: 5 VP. The hand's balance must book that
    draw in the turn of the Create (found by a mutation run: booking the Create's draws as a
    Learn's, with no Learn to come, put the bound at 4)."""
    st = position(hand=["P36"], timeline={1: ["P22", "TIME"], 2: ["C34"]},
                  past=["C33", "P12", "P16"], rotated=2, artifacts=["A22"], lost=5,
                  techs=["T7"], tiles=[None] * 9, deck_top=["M8", "P34", "P32", "P15", "M25"],
                  discard=["C36"], time_space=1, time_visits=2, turn=16)
    assert relaxed_covers_the_optimum(st) == st.score().total + 2 == 5


def test_a_paid_draw_funds_the_last_turn_s_creates() -> None:
    """Moai Statue (A7) in turn 15's Timeline phase, one action of turn 15 left, three
    artifacts in hand (A1, A2, A10). Best: a Search (A11), A7 pays two artifacts for Ellora
    Caves (C5), Circles of Mpumalanga (M7), A4 and A9, and turn 16 creates C5 and M7 into space
    5 with two artifacts each to discard (both cost 2; +1 VP each as Timeline monuments, no
    Past to score and no technology to learn): 2 VP, with all 6 cards of the hand used;
    without A7 one Create, 1 VP. With A7's draws counted net of its payment
    (`resources._pay_gains`) the model must still reach 2 (it finds 3: turn 16's activation
    counts too, and its four cards off the deck reach C1 and C2 below them); the net numbers
    themselves are `test_relaxation.py`'s."""
    st = position(hand=["A1", "A2"], artifacts=["A7"],
                  deck_top=["A10", "A11", "C5", "M7", "A4", "A9"], tiles=[None] * 9,
                  time_space=2, time_visits=2, turn=15)
    st.apply(A.ACT_SEARCH)  # a phase boundary with one action left (after two, A7 asks)
    # the plain search does not finish here: the simple bound's and the dominance rules' does
    assert relaxed_covers_the_optimum(st, exact) == st.score().total + 2 == 2
