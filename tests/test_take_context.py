"""What the last turn's counts keep between calls only saves time (`solver.bounds.actiontakes`,
`solver.bounds.splitplay`, `solver.bounds.simple`): the rounds of `closed_take` shared across
splits, the technologies' part of a `TakeContext` shared across positions, `_OpenRows.rest`
remembered, the position key passed down. Each answer with them equals the answer worked out
afresh, on positions of kept lines and random play from them."""

from __future__ import annotations

import pytest

from solver.bounds.actiontakes import TakeContext, action_takes
from solver.bounds.poolfacts import PoolFactsCache
from solver.bounds.reachable import ReachMemo, reach
from solver.bounds.simple import TAKE_ROUNDS, simple_upper_bound, taken_before_timeline
from solver.bounds.splitplay import SPLIT_ROUNDS, Contexts, action_splits, closed_take
from solver.bounds.takes import enterable
from solver.engine.frames import F_TIMELINE_PHASE
from solver.engine.state import GameState
from tests.test_bound_cycles import _positions


def _last_turn(index: int, turn: int) -> list[GameState]:
    return [st for st in _positions(index, turn, 40) if not st.over]


@pytest.mark.parametrize(("index", "turn"), [(0, 15), (5, 16), (11, 16), (17, 15)])
def test_shared_rounds_and_parts_answer_as_fresh_ones(index: int, turn: int) -> None:
    positions = _last_turn(index, turn)
    pool = PoolFactsCache()
    facts = pool.facts(positions[0])
    table = facts.takes
    assert table is not None
    shared = ReachMemo()
    compared = 0
    for st in positions:
        contexts: Contexts = {}
        for split in action_splits(st):
            for techs_open in (None, frozenset(), frozenset(st.techs)):
                kept = closed_take(st, facts.activators, facts.poulnabrone, table, shared,
                                   SPLIT_ROUNDS, split, techs_open, contexts)
                fresh = closed_take(st, facts.activators, facts.poulnabrone, table,
                                    ReachMemo(), SPLIT_ROUNDS, split, techs_open)
                assert kept == fresh
                compared += 1
        present = enterable(st, 2)
        r = reach(st, facts.activators, 0, facts.poulnabrone, ReachMemo(), True, present)
        assert action_takes(st, table, r, present, None, None,
                            TakeContext(st, table, None, shared.tech_takes)) \
            == action_takes(st, table, r, present)
        if any(fr[0] == F_TIMELINE_PHASE for fr in st.stack):  # else 0 at once
            assert taken_before_timeline(st, facts, table, shared, st.key()) == closed_take(
                st, facts.activators, facts.poulnabrone, table, ReachMemo(), TAKE_ROUNDS)
    assert compared > 0
    assert shared.tech_takes  # the parts were shared


@pytest.mark.parametrize(("index", "turn"), [(0, 15), (11, 16), (17, 15)])
def test_the_simple_bound_with_its_memo_answers_as_a_fresh_one(index: int, turn: int) -> None:
    positions = _last_turn(index, turn)
    pool = PoolFactsCache()
    for st in positions:
        kept = simple_upper_bound(st, pool.facts(st), pool.memo)
        fresh_pool = PoolFactsCache()
        assert kept == simple_upper_bound(st, fresh_pool.facts(st), fresh_pool.memo)
