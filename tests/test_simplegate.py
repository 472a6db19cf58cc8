"""Where the simple bound is asked (`solver.bounds.simplegate`): before the last decline only
while it prunes, after it always; a closed gate answers ``inf`` (no bound), which loses no line:
the same optimum from turn-15 positions of kept lines with the gate shut at once and never."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from benchmarks.prove_from import given_lines
from solver.bounds.bound import SimpleBound
from solver.bounds.cpsat.bound import CpsatBound
from solver.bounds.simple import decline_phases_left, simple_upper_bound
from solver.bounds.simplegate import ALWAYS, CLOSED, SimpleGate, SimpleGatePolicy
from solver.engine.frames import F_TIMELINE_PHASE
from solver.engine.state import GameState
from solver.game import HeritageGame
from solver.search.exhaustive import SearchConfig, search
from solver.search.status import Status
from tests.builder import position

LINES = Path(__file__).resolve().parent.parent / "benchmarks" / "lines" / "session8-t60.jsonl"


def test_the_gate_closes_where_the_bound_never_prunes_and_probes() -> None:
    st = position(hand=["C1"], turn=15)
    assert decline_phases_left(st) == 1
    gate = SimpleGate(SimpleGatePolicy(calls=4, rate=0.5, probe=3))
    gate.start_search(10.0)
    for _ in range(4):
        count = gate.ask(st)
        assert count == 1
        gate.asked(count, 20.0)  # above the incumbent: no prune
    asks = [gate.ask(st) for _ in range(9)]
    assert asks.count(CLOSED) == 6 and asks[2] == asks[5] == asks[8] == 1  # one in three probes


def test_the_gate_stays_open_where_the_bound_prunes() -> None:
    st = position(hand=["C1"], turn=15)
    gate = SimpleGate(SimpleGatePolicy(calls=4, rate=0.5, probe=3))
    gate.start_search(10.0)
    for value in (5.0, 20.0, 8.0, 20.0, 9.0, 20.0):  # half of them prune
        count = gate.ask(st)
        assert count == 1
        gate.asked(count, value)
    assert gate.ask(st) == 1


def test_after_the_last_decline_the_bound_is_always_asked() -> None:
    st = position(hand=["C1"], turn=16)
    assert decline_phases_left(st) == 0
    gate = SimpleGate(SimpleGatePolicy(calls=0, rate=1.0, probe=1_000))
    gate.start_search(10.0)
    for _ in range(5):
        assert gate.ask(st) == ALWAYS
        gate.asked(ALWAYS, 99.0)


def test_a_closed_gate_answers_no_bound_but_the_root_keeps_its_own() -> None:
    st = position(hand=["C1", "M2"], turn=15)
    bound = SimpleBound(SimpleGatePolicy(calls=1, rate=1.0, probe=1_000))
    bound.start_search(0.0)
    first = bound.upper_bound(st)
    assert first == simple_upper_bound(st) and math.isfinite(first)
    assert bound.upper_bound(st) == math.inf  # one call, no prune: closed
    assert bound.root(st).bound == first


def _timeline_start(deal: str) -> tuple[GameState, list[int]]:
    """The start of turn 15's Timeline phase on the kept line of `deal`, and the rest of it."""
    for name, root, line in given_lines(LINES):
        if name != deal:
            continue
        st = root.clone()
        for i, action in enumerate(line):
            if st.turn == 15 and not any(fr[0] == F_TIMELINE_PHASE for fr in st.stack):
                return st, line[i:]
            st.apply(action)
    raise AssertionError(deal)


SHUT = SimpleGatePolicy(calls=1, rate=1.0, probe=1_000_000)
OPEN = SimpleGatePolicy(calls=1_000_000_000)


@pytest.mark.parametrize("deal", ["t1-h3-s0", "t2-h1-s0", "t2-h3-s0"])
def test_same_optimum_with_the_gate_shut_and_open(deal: str) -> None:
    st, rest = _timeline_start(deal)
    assert decline_phases_left(st) == 1
    values = []
    for policy in (SHUT, OPEN):
        bound = SimpleBound(policy)
        game = HeritageGame(bound)
        res = search(st, SearchConfig(max_nodes=200_000), order=game.order(st, rest), game=game)
        assert res.status is Status.OPTIMAL
        values.append(res.value)
        if policy is SHUT:
            assert bound.gate.seen[1][2] > 0  # positions answered with no bound
    assert values[0] == values[1]


def test_same_optimum_with_the_constraint_layer_and_the_gate_shut() -> None:
    st, rest = _timeline_start("t2-h1-s0")
    values = []
    for policy in (SHUT, OPEN):
        bound = CpsatBound(simple_gate=policy)
        game = HeritageGame(bound)
        bound.start_search(None)
        res = search(st, SearchConfig(max_nodes=200_000), order=game.order(st, rest), game=game)
        assert res.status is Status.OPTIMAL
        values.append(res.value)
        if policy is SHUT:
            assert bound.simple_gate.seen[1][2] > 0
    assert values[0] == values[1]
