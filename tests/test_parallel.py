"""The exact search over several processes (`solver.search.parallel`) and the one-run search of
several roots it rests on (`search_each`): the same optimum as the search in one process, on the
toy knapsack of `tests.test_exhaustive` and on the suite's small end-game positions."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings

from benchmarks.suite import load_suite
from solver.game import HeritageGame
from solver.search.exhaustive import SearchConfig, replay, search, search_each
from solver.search.parallel import frontier, parallel_search
from solver.search.protocol import SelfBoundedGame
from solver.search.status import Status
from tests.test_exhaustive import FIXED, LEAVE, TAKE, Knapsack, brute_force, knapsacks

GAME: SelfBoundedGame[Knapsack] = SelfBoundedGame()


def test_two_processes_find_the_optimum_and_its_line_replays() -> None:
    result = parallel_search(FIXED, game=GAME, workers=2)
    assert result.status is Status.OPTIMAL
    assert result.value == brute_force(FIXED) == 15.0
    end = replay(FIXED, result.line)
    assert end.is_terminal() and end.feasible() and end.value() == result.value


@settings(max_examples=25, deadline=None)
@given(puzzle=knapsacks)
def test_two_processes_match_brute_force(puzzle: Knapsack) -> None:
    result = parallel_search(puzzle, game=GAME, workers=2)
    expected = brute_force(puzzle)
    if expected is None:
        assert result.status is Status.INFEASIBLE and result.value is None
    else:
        assert result.status is Status.OPTIMAL and result.value == expected
        assert replay(puzzle, result.line).value() == expected


def test_an_incumbent_no_line_beats_is_proven() -> None:
    """A complete search that finds nothing better than the incumbent says so (INFEASIBLE in
    the sense "nothing better", as `search` does)."""
    result = parallel_search(FIXED, incumbent=15.0, game=GAME, workers=2)
    assert result.status is Status.INFEASIBLE and result.value is None
    better = parallel_search(FIXED, incumbent=14.0, game=GAME, workers=2)
    assert better.status is Status.OPTIMAL and better.value == 15.0


def test_progress_is_heard_in_the_parent_as_subtrees_finish() -> None:
    """`SearchConfig.on_progress` is called here (the workers are forked copies: a display lives
    in this process), with the nodes of the subtrees finished so far and the best value shared:
    rising, never above the whole search's nodes and its optimum."""
    heard: list[tuple[int, float]] = []
    result = parallel_search(FIXED, SearchConfig(on_progress=lambda n, v: heard.append((n, v))),
                             game=GAME, workers=2)
    nodes = [n for n, _ in heard]
    assert heard and nodes == sorted(nodes) and nodes[-1] <= result.nodes
    assert result.value == 15.0 and heard[-1][1] <= result.value


def test_a_node_limit_keeps_the_search_in_one_process() -> None:
    """Node-limited: exactly the one-process search (same nodes, same answer), so a
    node-limited solve gives the same result every time."""
    for limit in (7, 40, 1000):
        one = search(FIXED, SearchConfig(max_nodes=limit), game=GAME)
        two = parallel_search(FIXED, SearchConfig(max_nodes=limit), game=GAME, workers=2)
        assert (two.status, two.value, two.line, two.nodes) == (one.status, one.value, one.line,
                                                                one.nodes)


def test_the_frontier_cuts_every_line_once() -> None:
    """Every line from the root passes through exactly one frontier position, in move order."""
    puzzle = Knapsack(weights=[1, 2, 3, 4], values=[1, 2, 3, 4], capacity=5)
    front = frontier(puzzle, None, 5)
    assert len(front.paths) >= 5
    assert front.paths == sorted(front.paths)  # LEAVE (0) before TAKE (1): move order
    for line in itertools.product((LEAVE, TAKE), repeat=4):
        hits = [p for p in front.paths if tuple(line[:len(p)]) == p]
        assert len(hits) == 1, line
    for path, state in zip(front.paths, front.states, strict=True):
        assert state.key() == replay(puzzle, path).key()


def test_the_frontier_drops_what_cannot_beat_the_incumbent() -> None:
    puzzle = Knapsack(weights=[1, 1, 1], values=[5, 1, 1], capacity=3)
    front = frontier(puzzle, None, 8, GAME, incumbent=6.0)
    # leaving item 0 caps the value at 2, so no position under LEAVE is kept
    assert front.paths and all(p[0] == TAKE for p in front.paths)
    assert not frontier(puzzle, None, 8, GAME, incumbent=7.0).paths


def test_one_run_over_several_roots_carries_the_incumbent() -> None:
    """`search_each`: one result per root (positions of one game: the table is shared); a
    root searched later looks only for lines better than those found before (its own result
    holds only what it found)."""
    puzzle = Knapsack(weights=[1, 1], values=[3, 4], capacity=1)
    low, high = replay(puzzle, [TAKE]), replay(puzzle, [LEAVE])
    results = list(search_each((low, high, low), game=GAME))
    assert [r.status for r in results] == [Status.OPTIMAL, Status.OPTIMAL, Status.INFEASIBLE]
    assert [r.value for r in results] == [3.0, 4.0, None]
    assert results[1].line == [TAKE]


def test_a_value_known_elsewhere_prunes() -> None:
    """`SearchConfig.shared_best`: a value found by another process prunes like an incumbent."""
    puzzle = Knapsack(weights=[1] * 16, values=[1] * 16, capacity=7)  # a loose bound: 101,341 nodes
    alone = search(puzzle, SearchConfig(transpositions=False), game=GAME)
    told = search(puzzle, SearchConfig(transpositions=False, shared_best=lambda: 99.0), game=GAME)
    assert alone.value == 7.0 and alone.nodes > 100_000
    assert told.nodes <= 2_048  # asked every 1,024 nodes: nothing is searched after the first
    assert (told.value or 0.0) <= 7.0
    seen: list[float] = []
    search(FIXED, SearchConfig(on_improve=seen.append), game=GAME)
    assert seen and seen == sorted(seen) and seen[-1] == 15.0


SMALL_PROOF = 4_000


def test_suite_positions_same_optimum_in_two_processes() -> None:
    """The suite's small end-game positions (optima proven before): the same optimum from two
    processes as from one."""
    checked = 0
    for p in load_suite().positions:
        if (p.proof_nodes or 0) > SMALL_PROOF:
            continue
        root = p.root()
        game = HeritageGame()
        res = parallel_search(root, order=game.order(root, []), game=game, workers=2)
        assert res.status is Status.OPTIMAL and res.value == p.optimum, p.id
        end = replay(root, res.line)
        assert end.is_terminal() and end.feasible() and end.value() == p.optimum
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("workers", [0, 1])
def test_one_process_is_the_search_itself(workers: int) -> None:
    one = search(FIXED, game=GAME)
    same = parallel_search(FIXED, game=GAME, workers=workers)
    assert (same.value, same.line, same.nodes) == (one.value, one.line, one.nodes)


def test_a_stop_asked_in_the_parent_stops_every_process() -> None:
    """`SearchConfig.should_stop` (Ctrl-C in a solve) is the parent's: it stops the processes,
    and what they searched is reported as not proven."""
    puzzle = Knapsack(weights=[1] * 16, values=[1] * 16, capacity=7)  # 101,341 nodes in one
    res = parallel_search(puzzle, SearchConfig(transpositions=False, should_stop=lambda: True),
                          game=GAME, workers=2)
    assert res.status in (Status.FEASIBLE, Status.UNKNOWN)
    assert res.nodes < 50_000


class Broken(Knapsack):
    """A knapsack whose sixth item (below the frontier of two processes) cannot be decided (as an
    engine error would stop a line)."""

    def apply(self, action: int) -> None:
        if self.step == 5:
            raise NotImplementedError("item 5: not implemented")
        super().apply(action)

    def clone(self) -> Broken:
        other = Broken(self.weights, self.values, self.capacity, self.exact_fill)
        other.step, other.weight, other.total = self.step, self.weight, self.total
        return other


def test_an_error_in_a_process_is_raised_in_the_parent() -> None:
    """An error inside a process (an effect not implemented) is not lost as an unfinished
    subtree: the parent raises it, as the search in one process would."""
    puzzle = Broken(weights=[1] * 7, values=[1] * 7, capacity=7)
    assert len(frontier(puzzle, None, 32).paths) == 32  # cut above item 5: the processes meet it
    with pytest.raises(NotImplementedError, match="item 5"):
        parallel_search(puzzle, game=GAME, workers=2)


def test_a_ceiling_reached_in_one_process_ends_them_all() -> None:
    """`SearchConfig.ceiling` holds in every process: once the optimum's line reaches it the
    processes stop, and the whole search still says complete (OPTIMAL), with the optimum."""
    plain = parallel_search(FIXED, game=GAME, workers=2)
    capped = parallel_search(FIXED, SearchConfig(ceiling=15.0), game=GAME, workers=2)
    assert capped.status is Status.OPTIMAL and capped.value == plain.value == 15.0
    assert replay(FIXED, capped.line).value() == 15.0
