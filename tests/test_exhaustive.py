"""The generic exhaustive search on a toy puzzle (0/1 knapsack) defined here, against brute
force."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Self

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.search.exhaustive import MoveOrder, SearchConfig, SearchResult, replay
from solver.search.exhaustive import search as _search
from solver.search.protocol import PuzzleState, SelfBoundedGame
from solver.search.status import EXIT_USAGE_ERROR, Status, exit_code
from solver.search.tt import TranspositionTable, TTEntry


def search(root: Knapsack, config: SearchConfig | None = None,
           order: MoveOrder[Knapsack] | None = None, incumbent: float | None = None,
           ) -> SearchResult:
    """The exact search with the puzzles' own bounds (`SelfBoundedGame`)."""
    return _search(root, config, order, incumbent, game=SelfBoundedGame())

TAKE, LEAVE = 1, 0


class Knapsack:
    """Take or leave each item in turn; feasible when the weight fits (or fills exactly).

    Items may be taken beyond the capacity, so infeasible terminals exist. The key holds the
    weight and value so far, so equal items give transpositions.
    """

    def __init__(
        self,
        weights: Sequence[int],
        values: Sequence[int],
        capacity: int,
        exact_fill: bool = False,
    ) -> None:
        self.weights = tuple(weights)
        self.values = tuple(values)
        self.capacity = capacity
        self.exact_fill = exact_fill
        self.step = 0
        self.weight = 0
        self.total = 0

    def legal_actions(self) -> Sequence[int]:
        return () if self.is_terminal() else (LEAVE, TAKE)

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action}")
        if action == TAKE:
            self.weight += self.weights[self.step]
            self.total += self.values[self.step]
        self.step += 1

    def clone(self) -> Self:
        other = type(self)(self.weights, self.values, self.capacity, self.exact_fill)
        other.step, other.weight, other.total = self.step, self.weight, self.total
        return other

    def is_terminal(self) -> bool:
        return self.step == len(self.weights)

    def value(self) -> float:
        return float(self.total)

    def feasible(self) -> bool:
        if self.exact_fill:
            return self.weight == self.capacity
        return self.weight <= self.capacity

    def key(self) -> tuple[int, int, int]:
        return (self.step, self.weight, self.total)

    def upper_bound(self) -> float:
        return float(self.total + sum(v for v in self.values[self.step :] if v > 0))

    def action_to_string(self, action: int) -> str:
        return f"{'take' if action == TAKE else 'leave'} {self.step}"


def brute_force(puzzle: Knapsack) -> float | None:
    """The best feasible value over every take/leave line, or None."""
    best: float | None = None
    for line in itertools.product((LEAVE, TAKE), repeat=len(puzzle.weights)):
        end = replay(puzzle, line)
        if end.feasible() and (best is None or end.value() > best):
            best = end.value()
    return best


FIXED = Knapsack(
    weights=[3, 4, 2, 3, 4, 2, 5, 1],
    values=[4, 5, 3, 4, 5, 3, 6, 1],
    capacity=11,
)


def test_toy_implements_the_protocol() -> None:
    assert isinstance(FIXED, PuzzleState)


def test_fixed_instance_is_optimal_and_the_line_replays() -> None:
    result = search(FIXED)
    assert result.status is Status.OPTIMAL
    assert result.value == brute_force(FIXED) == 15.0
    end = replay(FIXED, result.line)
    assert end.is_terminal() and end.feasible() and end.value() == result.value


# The node-count signature of the fixed instance (Stockfish-style "bench").
NODES_WITH_TABLE = 169
TT_HITS = 25
NODES_WITHOUT_TABLE = 371
NODES_TAKE_FIRST = 145


def test_node_count_regression() -> None:
    """Deterministic node counts: a change here means the search itself changed."""
    with_table = search(FIXED)
    without_table = search(FIXED, SearchConfig(transpositions=False))
    take_first = search(FIXED, order=lambda _state, actions: sorted(actions, reverse=True))
    assert (with_table.nodes, with_table.tt_hits) == (NODES_WITH_TABLE, TT_HITS)
    assert without_table.nodes == NODES_WITHOUT_TABLE
    assert without_table.tt_hits == 0
    assert take_first.nodes == NODES_TAKE_FIRST
    assert with_table.value == without_table.value == take_first.value


class Listening(SelfBoundedGame[Knapsack]):
    """The puzzles' own bounds, noting each value the search says its incumbent rose to."""

    def __init__(self) -> None:
        self.heard: list[float] = []

    def improved(self, value: float) -> None:
        self.heard.append(value)


def test_the_game_hears_each_better_incumbent() -> None:
    """The search tells the game (and so its bound) each value its incumbent rises to: rising,
    ending at the optimum, none at or below the incumbent it started with."""
    game = Listening()
    result = _search(FIXED, None, None, None, game=game)
    assert game.heard and game.heard[-1] == result.value == 15.0
    assert game.heard == sorted(set(game.heard))
    started = Listening()
    _search(FIXED, None, None, 12.0, game=started)
    assert started.heard and min(started.heard) > 12.0


def test_progress_is_reported_every_poll() -> None:
    """`SearchConfig.on_progress` hears the nodes every `POLL_NODES` (64) and the value a line
    must beat, rising to the optimum (a live display's feed)."""
    heard: list[tuple[int, float]] = []
    result = search(FIXED, SearchConfig(transpositions=False,
                                        on_progress=lambda n, v: heard.append((n, v))))
    assert [n for n, _ in heard] == list(range(64, NODES_WITHOUT_TABLE + 1, 64))
    values = [v for _, v in heard]
    assert result.value == 15.0 and values == sorted(values) and values[-1] <= result.value
    assert values[-1] > float("-inf")


def test_transpositions_save_nodes_on_repeated_items() -> None:
    puzzle = Knapsack(weights=[2] * 10, values=[3] * 10, capacity=9)
    with_table = search(puzzle)
    without_table = search(puzzle, SearchConfig(transpositions=False))
    assert with_table.value == without_table.value == 12.0
    assert with_table.tt_hits > 0
    assert with_table.nodes < without_table.nodes


def test_move_order_hook_changes_the_walk_not_the_answer() -> None:
    seen: list[int] = []

    def order(state: Knapsack, actions: Sequence[int]) -> Sequence[int]:
        seen.append(state.step)
        return tuple(reversed(actions))

    result = search(FIXED, order=order)
    assert seen and seen[0] == 0
    assert result.value == 15.0


def test_root_is_not_changed() -> None:
    root = FIXED.clone()
    search(root)
    assert root.key() == (0, 0, 0)


def test_proven_infeasible() -> None:
    puzzle = Knapsack(weights=[2, 4, 6], values=[1, 1, 1], capacity=5, exact_fill=True)
    result = search(puzzle)
    assert result.status is Status.INFEASIBLE
    assert (result.value, result.line) == (None, [])


def test_terminal_root() -> None:
    result = search(Knapsack(weights=[], values=[], capacity=0))
    assert (result.status, result.value, result.line, result.nodes) == (Status.OPTIMAL, 0.0, [], 1)


def test_dead_end_has_no_solution() -> None:
    class Stuck(Knapsack):
        def legal_actions(self) -> Sequence[int]:
            return ()

    assert search(Stuck([1], [1], 1)).status is Status.INFEASIBLE


def test_node_limit_without_solution_is_unknown() -> None:
    result = search(FIXED, SearchConfig(max_nodes=1))
    assert (result.status, result.value, result.nodes) == (Status.UNKNOWN, None, 1)


def test_node_limit_after_a_solution_is_feasible() -> None:
    full = search(FIXED, SearchConfig(transpositions=False))
    cut = search(FIXED, SearchConfig(max_nodes=20, transpositions=False))
    assert cut.status is Status.FEASIBLE
    assert cut.nodes == 20
    assert cut.value is not None and full.value is not None and cut.value <= full.value
    assert replay(FIXED, cut.line).value() == cut.value


def test_config_rejects_bad_limits() -> None:
    with pytest.raises(ValueError, match="max_nodes"):
        SearchConfig(max_nodes=0)
    with pytest.raises(ValueError, match="tt_capacity"):
        SearchConfig(tt_capacity=-1)


def test_table_replacement_policy() -> None:
    table = TranspositionTable(capacity=1)
    table.store("a", TTEntry(5.0, exact=False))
    table.store("a", TTEntry(7.0, exact=False))  # a looser bound does not replace
    assert table.probe("a") == TTEntry(5.0, exact=False)
    table.store("a", TTEntry(3.0, exact=False))  # a tighter one does
    assert table.probe("a") == TTEntry(3.0, exact=False)
    table.store("a", TTEntry(2.0, exact=True, line=(1,)))
    table.store("a", TTEntry(1.0, exact=False))  # an exact entry stays
    assert table.probe("a") == TTEntry(2.0, exact=True, line=(1,))
    table.store("b", TTEntry(1.0, exact=True))  # full: the oldest entry is forgotten
    assert table.probe("a") is None and table.probe("b") == TTEntry(1.0, exact=True)
    assert len(table) == 1 and table.evicted == 1


def test_status_exit_codes() -> None:
    assert [exit_code(s) for s in Status] == [0, 0, 1, 3]
    assert [s.exit_code for s in Status] == [0, 0, 1, 3]
    assert [str(s) for s in Status] == ["OPTIMAL", "FEASIBLE", "INFEASIBLE", "UNKNOWN"]
    assert EXIT_USAGE_ERROR == 2
    assert Status.FEASIBLE.has_solution and not Status.UNKNOWN.has_solution


knapsacks = st.integers(min_value=0, max_value=8).flatmap(
    lambda n: st.builds(
        Knapsack,
        weights=st.lists(st.integers(0, 6), min_size=n, max_size=n),
        values=st.lists(st.integers(-3, 9), min_size=n, max_size=n),
        capacity=st.integers(0, 25),
        exact_fill=st.booleans(),
    )
)


@settings(max_examples=300, deadline=None)
@given(
    puzzle=knapsacks,
    transpositions=st.booleans(),
    capacity=st.sampled_from([None, 0, 3]),
    memory=st.sampled_from([None, 0.0, 0.001]),
    take_first=st.booleans(),
)
def test_search_matches_brute_force(
    puzzle: Knapsack, transpositions: bool, capacity: int | None, memory: float | None,
    take_first: bool
) -> None:
    config = SearchConfig(transpositions=transpositions, tt_capacity=capacity,
                          tt_memory_mb=memory)
    order = (lambda _s, a: tuple(reversed(a))) if take_first else None
    result = search(puzzle, config, order=order)
    expected = brute_force(puzzle)
    if expected is None:
        assert result.status is Status.INFEASIBLE and result.value is None
    else:
        assert result.status is Status.OPTIMAL and result.value == expected
        end = replay(puzzle, result.line)
        assert end.is_terminal() and end.feasible() and end.value() == expected


class LooseBelowTheRoot(SelfBoundedGame[Knapsack]):
    """The root's bound is the true optimum (tight); every position after the first choice
    has a bound far above anything reachable (loose), so only the root's bound can stop the
    search."""

    def __init__(self, root_bound: float) -> None:
        self.root_bound = root_bound

    def upper_bound(self, state: Knapsack) -> float:
        return self.root_bound if state.step == 0 else 1000.0


def test_a_line_reaching_an_ancestors_bound_ends_the_search_below_it() -> None:
    """`_Search._expand`: once the incumbent reaches the bound of a position on the path, the
    positions between stop at once, not only when the search is back there: with a tight root
    bound the search ends at the first optimal line; with a loose one it visits every line."""
    optimum = brute_force(FIXED)
    assert optimum == 15.0
    tight = _search(FIXED, game=LooseBelowTheRoot(optimum))
    loose = _search(FIXED, game=LooseBelowTheRoot(1000.0))
    assert tight.status is loose.status is Status.OPTIMAL
    assert tight.value == loose.value == optimum
    assert replay(FIXED, tight.line).value() == optimum
    assert tight.nodes < loose.nodes / 2


def test_a_ceiling_ends_the_search_at_a_line_that_reaches_it() -> None:
    """`SearchConfig.ceiling`, an upper bound known on the whole tree (a solve's proven bound):
    the search stops at the first line reaching it, complete (OPTIMAL); with an incumbent at
    the ceiling already nothing is searched (INFEASIBLE: "nothing better")."""
    plain = search(FIXED)
    capped = search(FIXED, SearchConfig(ceiling=15.0))
    assert capped.status is Status.OPTIMAL and capped.value == plain.value == 15.0
    assert capped.nodes < plain.nodes
    done = search(FIXED, SearchConfig(ceiling=15.0), incumbent=15.0)
    assert done.status is Status.INFEASIBLE and done.nodes == 1
    above = search(FIXED, SearchConfig(ceiling=15.5))  # not reached: the whole search
    assert above.status is Status.OPTIMAL and above.value == 15.0


@settings(max_examples=200, deadline=None)
@given(puzzle=knapsacks, slack=st.sampled_from([0.0, 0.5, 3.0]),
       transpositions=st.booleans())
def test_a_ceiling_at_or_above_the_optimum_keeps_the_answer(
        puzzle: Knapsack, slack: float, transpositions: bool) -> None:
    """Any sound ceiling (at or above the optimum) gives brute force's answer, in no more
    nodes than the search without one."""
    expected = brute_force(puzzle)
    config = SearchConfig(transpositions=transpositions)
    plain = search(puzzle, config)
    ceiling = (expected if expected is not None else -1.0) + slack
    capped = search(puzzle, SearchConfig(transpositions=transpositions, ceiling=ceiling))
    if expected is None:
        assert capped.status is Status.INFEASIBLE and capped.value is None
    else:
        assert capped.status is Status.OPTIMAL and capped.value == expected
        assert replay(puzzle, capped.line).value() == expected
    assert capped.nodes <= plain.nodes
