"""The cycle collector while a search runs (`solver.search.collector`): paused, or kept to its
young generations; the collector inside and after each block, and searches that see it."""

from __future__ import annotations

import gc
from collections.abc import Sequence

import pytest

from solver.engine.state import GameState
from solver.search.collector import NO_FULL_RUNS, collector_paused, young_collections_only
from solver.search.exhaustive import SearchConfig, search
from solver.search.nrpa import NRPAConfig, nrpa
from solver.search.protocol import PlainGame
from tests.builder import position


def _last_turn() -> GameState:
    """A small last-turn position: a few hundred nodes to its end."""
    return position(hand=["C6"], timeline={2: ["C3"]}, past=["C4"], time_space=1,
                    time_visits=2, turn=16, deck_top=["C7", "C8"], tiles=[None] * 9)


def test_no_full_runs_inside_and_thresholds_back_after() -> None:
    before = gc.get_threshold()
    with young_collections_only():
        inside = gc.get_threshold()
        with young_collections_only():
            assert gc.get_threshold() == inside
        assert gc.get_threshold() == inside
    assert inside == (before[0], before[1], NO_FULL_RUNS)
    assert gc.get_threshold() == before


def test_thresholds_back_when_the_block_raises() -> None:
    before = gc.get_threshold()
    with pytest.raises(KeyError), young_collections_only():
        raise KeyError("stop")
    assert gc.get_threshold() == before


def test_paused_inside_and_back_after() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # a nested block changes nothing
    assert gc.isenabled()
    with pytest.raises(KeyError), collector_paused():
        raise KeyError("stop")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # as it was
    finally:
        gc.enable()


def test_what_a_paused_block_allocated_is_not_young_after_it() -> None:
    """Else the first young run after the block would traverse all of it."""
    gc.collect()
    with collector_paused():
        kept = [[i] for i in range(50_000)]
        assert gc.get_count()[0] >= 50_000
    assert gc.get_count()[0] < 1_000
    assert len(kept) == 50_000


class _Watching(PlainGame[GameState]):
    """No bound; notes the oldest generation's threshold at every node the search bounds."""

    def __init__(self) -> None:
        self.seen: set[int] = set()

    def upper_bound(self, state: GameState) -> float:
        self.seen.add(gc.get_threshold()[2])
        return float("inf")


def test_the_exact_search_runs_without_full_collections() -> None:
    """`PlainGame` makes no promise about cycles (a subclass may make them): young runs go on."""
    before = gc.get_threshold()
    st = _last_turn()
    game = _Watching()
    result = search(st, SearchConfig(max_nodes=200), game=game)
    assert result.nodes > 1
    assert game.seen == {NO_FULL_RUNS}
    assert gc.get_threshold() == before


class _CycleFree(_Watching):
    """Promises its hooks make no cycles; notes whether the collector runs at each bound."""

    cycle_free = True

    def __init__(self) -> None:
        super().__init__()
        self.enabled: set[bool] = set()

    def upper_bound(self, state: GameState) -> float:
        self.enabled.add(gc.isenabled())
        return float("inf")


def test_the_exact_search_pauses_the_collector_for_cycle_free_hooks() -> None:
    st = _last_turn()
    game = _CycleFree()
    result = search(st, SearchConfig(max_nodes=200), game=game)
    assert result.nodes > 1
    assert game.enabled == {False}
    assert gc.isenabled()


class _WatchingChoices(PlainGame[GameState]):
    """Notes the oldest generation's threshold at every decision NRPA weighs."""

    def __init__(self) -> None:
        self.seen: set[int] = set()

    def policy_codes(self, state: GameState, legal: Sequence[int]) -> Sequence[int]:
        self.seen.add(gc.get_threshold()[2])
        return legal


def test_nrpa_runs_without_full_collections() -> None:
    before = gc.get_threshold()
    st = _last_turn()
    game = _WatchingChoices()
    nrpa(st, NRPAConfig(level=1, iterations=3, max_nodes=60), game=game)
    assert game.seen == {NO_FULL_RUNS}
    assert gc.get_threshold() == before
