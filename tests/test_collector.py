"""The cycle collector kept to its young generations while a search runs
(`solver.search.collector`): the thresholds inside and after the block, and a search that sees
them."""

from __future__ import annotations

import gc
from collections.abc import Sequence

import pytest

from solver.engine.state import GameState
from solver.search.collector import NO_FULL_RUNS, young_collections_only
from solver.search.exhaustive import SearchConfig, search
from solver.search.nrpa import NRPAConfig, nrpa
from solver.search.protocol import PlainGame
from tests.builder import position


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


class _Watching(PlainGame[GameState]):
    """No bound; notes the oldest generation's threshold at every node the search bounds."""

    def __init__(self) -> None:
        self.seen: set[int] = set()

    def upper_bound(self, state: GameState) -> float:
        self.seen.add(gc.get_threshold()[2])
        return float("inf")


def test_the_exact_search_runs_without_full_collections() -> None:
    before = gc.get_threshold()
    st = position(hand=["C6"], timeline={2: ["C3"]}, past=["C4"], time_space=1,
                  time_visits=2, turn=16, deck_top=["C7", "C8"], tiles=[None] * 9)
    game = _Watching()
    result = search(st, SearchConfig(max_nodes=200), game=game)
    assert result.nodes > 1
    assert game.seen == {NO_FULL_RUNS}
    assert gc.get_threshold() == before


class _WatchingChoices(PlainGame[GameState]):
    """Notes the oldest generation's threshold at every decision NRPA weighs."""

    def __init__(self) -> None:
        self.seen: set[int] = set()

    def policy_codes(self, state: GameState, legal: Sequence[int]) -> Sequence[int]:
        self.seen.add(gc.get_threshold()[2])
        return legal


def test_nrpa_runs_without_full_collections() -> None:
    before = gc.get_threshold()
    st = position(hand=["C6"], timeline={2: ["C3"]}, past=["C4"], time_space=1,
                  time_visits=2, turn=16, deck_top=["C7", "C8"], tiles=[None] * 9)
    game = _WatchingChoices()
    nrpa(st, NRPAConfig(level=1, iterations=3, max_nodes=60), game=game)
    assert game.seen == {NO_FULL_RUNS}
    assert gc.get_threshold() == before
