"""The searches' inner loops (the exact search's bound and key, NRPA's playouts) leave no
reference cycles behind.

A cycle is freed only by Python's cycle collector, whose runs are set off by allocations: the
simple bound's nested functions closed over one another, which left a cycle (and every list,
set and position it held) per call, ~20 objects a node, and the collector's runs cost the
search ~8% of its nodes/s (session 45). These tests fail if a bound, the search key or NRPA
makes a cycle again."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from solver.bounds.bound import make_bound
from solver.engine.state import GameState
from solver.game import HeritageGame
from solver.rng import Stream
from solver.search.exhaustive import SearchConfig, search
from solver.search.nrpa import NRPAConfig, nrpa
from tests.test_turn_takes import line_at_turn

LINES = Path(__file__).resolve().parent.parent / "benchmarks" / "lines" / "session8-t60.jsonl"


def _positions(index: int, turn: int, moves: int) -> list[GameState]:
    """The start of `turn` on a kept line and the positions of `moves` random decisions
    after it (the last turn's action phase and Timeline phase: every split, the window)."""
    st = line_at_turn(LINES, index, turn)
    rng = Stream(index * 31 + turn, "cycles")
    out = [st.clone()]
    for _ in range(moves):
        if st.over:
            break
        legal = st.legal_actions()
        st.apply(legal[rng.below(len(legal))])
        out.append(st.clone())
    return out


@pytest.mark.parametrize(("index", "turn"), [(0, 15), (5, 16), (11, 16), (17, 15)])
def test_bound_and_search_key_make_no_reference_cycles(index: int, turn: int) -> None:
    positions = _positions(index, turn, 30)
    game = HeritageGame()
    game.upper_bound(positions[0])  # the pool's facts, once a game
    was_on = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for st in positions:
            game.upper_bound(st)
            game.search_key(st)
        cycles = gc.collect()
    finally:
        if was_on:
            gc.enable()
    assert cycles == 0


def test_nrpa_playouts_make_no_reference_cycles() -> None:
    """NRPA's policies, playouts and the prior's choices (the collector keeps to its young
    generations while it runs on that ground, `solver.search.collector`)."""
    root = line_at_turn(LINES, 3, 12)
    game = HeritageGame()
    was_on = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        nrpa(root, NRPAConfig(level=1, iterations=5, max_nodes=3000, seed=0), game=game)
        cycles = gc.collect()
    finally:
        if was_on:
            gc.enable()
    assert cycles == 0


@pytest.mark.parametrize(("index", "turn"), [(0, 15), (11, 15), (5, 14)])
def test_the_exact_search_with_the_simple_bound_makes_no_reference_cycles(
        index: int, turn: int) -> None:
    """The promise behind `HeritageGame.cycle_free` (the exact search pauses the collector with
    the simple bound, `solver.search.collector`): the whole search, its key, bound, move
    ordering, dominance rules and table, leaves nothing for the collector."""
    root = line_at_turn(LINES, index, turn)
    game = HeritageGame()
    assert game.cycle_free
    gc.collect()
    result = search(root, SearchConfig(max_nodes=1500), order=game.order(root, []), game=game)
    assert result.nodes > 100
    assert gc.isenabled()  # the search gave the collector back
    gc.disable()
    try:
        cycles = gc.collect()
    finally:
        gc.enable()
    assert cycles == 0


def test_the_cpsat_bound_says_it_makes_cycles() -> None:
    assert not HeritageGame(bound=make_bound("cpsat")).cycle_free
