"""The proof code's exact branch and bound and its transposition table (`solver.search.exhaustive`,
`solver.search.tt`), tests that a mutation run found missing.

The positions are hand-made game trees (`Tree`) whose values are known, so that each edge of the
search is reached on purpose: the table's limits (entries, MiB), the clock and the value another
worker shares, the table's exact and upper-bound entries, a stored line that does not replay,
pruning at equality and the incumbent passed in. The card game's rules are not involved: the
search promises the same answers on any `PuzzleState` (RULES.md is the game's, not the search's).
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Self

import pytest

from solver.search import exhaustive
from solver.search.exhaustive import SearchConfig, SearchResult, search, search_each
from solver.search.protocol import PlainGame
from solver.search.status import Status
from solver.search.tt import (
    ENTRY_OVERHEAD,
    KEY_SAMPLE,
    LINE_ITEM_BYTES,
    TranspositionTable,
    TTEntry,
    deep_size,
)


class Tree:
    """A position of a hand-made game tree.

    `children[node]` are the node's options in order (the action is the index); any other node
    is a terminal, feasible with value `leaves[node]` unless that is None. `keys` gives nodes
    one transposition key (equal keys: the trees below must have the same values)."""

    def __init__(self, children: Mapping[str, Sequence[str]], leaves: Mapping[str, float | None],
                 node: str = "r", keys: Mapping[str, Hashable] | None = None) -> None:
        self.children = children
        self.leaves = leaves
        self.node = node
        self.keys = keys or {}

    def legal_actions(self) -> Sequence[int]:
        return range(len(self.children.get(self.node, ())))

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action} at {self.node}")
        self.node = self.children[self.node][action]

    def clone(self) -> Self:
        return type(self)(self.children, self.leaves, self.node, self.keys)

    def is_terminal(self) -> bool:
        return self.node not in self.children

    def value(self) -> float:
        value = self.leaves[self.node]
        assert value is not None
        return value

    def feasible(self) -> bool:
        return self.leaves.get(self.node) is not None

    def key(self) -> Hashable:
        return self.keys.get(self.node, self.node)

    def action_to_string(self, action: int) -> str:
        return self.children[self.node][action]


class TreeGame(PlainGame[Tree]):
    """Bounds by node (``inf`` where none is given); notes the nodes bounded, the nodes keyed
    and the values the search says its incumbent rose to."""

    def __init__(self, bounds: Mapping[str, float] | None = None) -> None:
        self.bounds = bounds or {}
        self.asked: list[str] = []
        self.heard: list[float] = []
        self.keyed: list[str] = []

    def search_key(self, state: Tree) -> Hashable:
        self.keyed.append(state.node)
        return state.key()

    def upper_bound(self, state: Tree) -> float:
        self.asked.append(state.node)
        return self.bounds.get(state.node, math.inf)

    def improved(self, value: float) -> None:
        self.heard.append(value)


def run(tree: Tree, game: TreeGame | None = None, config: SearchConfig | None = None,
        incumbent: float | None = None) -> SearchResult:
    return search(tree, config, None, incumbent, game or TreeGame())


def wide(n: int, values: Sequence[float] | None = None) -> Tree:
    """A root with `n` leaf options (values 1.0, or `values`): `n + 1` nodes to search."""
    leaves = [f"l{i}" for i in range(n)]
    vals = values if values is not None else [1.0] * n
    return Tree({"r": leaves}, dict(zip(leaves, vals, strict=True)))


#: Two ways (a, b) to one position: x and y share a key and the leaves below (value 5 or 3).
#: Searched in order, x is stored before a is, so a table that keeps only its youngest entry
#: has forgotten x when y is probed.
TWO_WAYS = Tree({"r": ["a", "b"], "a": ["x"], "b": ["y"], "x": ["p", "q"], "y": ["p", "q"]},
                {"p": 5.0, "q": 3.0}, keys={"x": "X", "y": "X"})


# --- the table's limits -------------------------------------------------------------------------


def test_deep_size_counts_exactly_the_small_ints_cpython_shares_as_free() -> None:
    """The memory estimate (`deep_size`) charges nothing for the integers CPython shares, -5 to
    256, and charges every other integer."""
    assert deep_size(-5) == deep_size(256) == 0
    assert deep_size(-6) > 0 and deep_size(257) > 0


def test_a_memory_cap_is_in_mib_and_one_not_reached_costs_no_transposition() -> None:
    """`SearchConfig.tt_memory_mb` is in MiB (`MB` bytes each): a 1 MiB table holds this tiny
    search whole, so it answers the second way to x as an uncapped table does."""
    free = run(TWO_WAYS.clone())
    capped = run(TWO_WAYS.clone(), config=SearchConfig(tt_memory_mb=1.0))
    assert free.tt_hits == 1 and free.value == 5.0
    assert (capped.tt_hits, capped.nodes, capped.value) == (free.tt_hits, free.nodes, 5.0)


def test_a_table_capacity_of_0_keeps_nothing() -> None:
    """`SearchConfig.tt_capacity` reaches the table: with 0 entries no position is answered
    from it (the same optimum, more nodes)."""
    free = run(TWO_WAYS.clone())
    none = run(TWO_WAYS.clone(), config=SearchConfig(tt_capacity=0))
    assert free.tt_hits == 1 and none.tt_hits == 0
    assert none.value == free.value == 5.0 and none.nodes > free.nodes


# --- the clock and the value another worker shares ----------------------------------------------


class Clock:
    """A stand-in for `time`: `monotonic()` reads `start`, then one second more at each call."""

    def __init__(self, start: float) -> None:
        self.now = start - 1.0

    def monotonic(self) -> float:
        self.now += 1.0
        return self.now


@pytest.mark.skipif(not (exhaustive.__file__ or "").endswith(".py"),
                    reason="the compiled search reads the clock through its own reference")
def test_the_time_limit_stops_at_the_first_node_once_it_has_passed(monkeypatch: Any) -> None:
    """`SearchConfig.max_seconds`: the clock is read at every node, against the search's
    start; the search stops at the first node where the seconds spent reach the limit (not
    before). Here each read is one second later: node k reads k seconds."""
    monkeypatch.setattr(exhaustive, "time", Clock(100.0))
    cut = run(wide(100), config=SearchConfig(max_seconds=5.0))
    assert (cut.status, cut.nodes, cut.value) == (Status.FEASIBLE, 5, 1.0)
    monkeypatch.setattr(exhaustive, "time", Clock(100.0))
    whole = run(wide(100), config=SearchConfig(max_seconds=101.5))
    assert (whole.status, whole.nodes) == (Status.OPTIMAL, 101)


class SlowGame(TreeGame):
    """A bound that takes `seconds` a call (the window bound takes up to 0.6 s on some
    turn-15 positions, pure build)."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    def upper_bound(self, state: Tree) -> float:
        time.sleep(self.seconds)
        return super().upper_bound(state)


def test_a_time_limit_is_kept_and_a_generous_one_changes_nothing() -> None:
    """The same promise on the real clock (both builds): a limit already spent stops the search
    at its first node, without a line; with slow nodes (a bound of 20 ms) a limit of 0.1 s
    stops it within a few nodes, not after `POLL_NODES` of them (64 such nodes between two
    looks at the clock ran a 60 s solve to 65.8 s); an hour's limit lets a 300-node tree be
    searched through and proved."""
    cut = run(wide(300), config=SearchConfig(max_seconds=1e-9))
    assert (cut.status, cut.nodes) == (Status.UNKNOWN, 1)
    inner = {"r": [f"c{i}" for i in range(100)]} | {f"c{i}": [f"l{i}"] for i in range(100)}
    slow = run(Tree(inner, {f"l{i}": 1.0 for i in range(100)}), SlowGame(0.02),
               SearchConfig(max_seconds=0.1))  # a bound at r and each c: 20 ms each
    assert slow.status == Status.FEASIBLE and slow.nodes < exhaustive.POLL_NODES // 4
    whole = run(wide(300), config=SearchConfig(max_seconds=3600.0))
    assert (whole.status, whole.nodes, whole.value) == (Status.OPTIMAL, 301, 1.0)


def test_a_value_shared_by_another_worker_raises_the_incumbent_and_is_heard() -> None:
    """`SearchConfig.shared_best`: a better value known elsewhere becomes what a line must beat,
    and the game (its bound) hears of it, once; a value that is not better changes nothing.
    `SearchConfig.on_improve` hears the values of this search's own better lines only."""
    values = [1.0] * 99 + [50.0]
    game = TreeGame()
    own: list[float] = []
    res = run(wide(100, values), game, SearchConfig(shared_best=lambda: 10.0,
                                                    on_improve=own.append))
    assert (res.status, res.value) == (Status.OPTIMAL, 50.0)
    assert game.heard == [1.0, 10.0, 50.0] and own == [1.0, 50.0]
    same = TreeGame()
    res = run(wide(100, values), same, SearchConfig(shared_best=lambda: 1.0))
    assert res.value == 50.0 and same.heard == [1.0, 50.0]


# --- the branch and bound's edges and what its table learns --------------------------------------


def learned(tree: Tree, game: TreeGame, incumbent: float | None = None,
            ) -> exhaustive._Search[Tree]:
    """The search run of `tree` (searched to the end), to read its table. What the table holds
    is no caller's to see (`search` reports the incumbent's line and value): these tests pin
    the contract of `solver.search.exhaustive` (exact entries with their lines, bounds without)
    that a later reader of the table would rely on."""
    run = exhaustive._Search(SearchConfig(), None, game)
    if incumbent is not None:
        run.best_value = incumbent
    run.visit(tree)
    return run


def entries(run: exhaustive._Search[Tree], keys: Sequence[str]) -> dict[str, Any]:
    assert run.table is not None
    return {k: run.table.probe(k) for k in keys}


E = TTEntry
INF = math.inf

#: Searched with an incumbent of 4: `a` is pruned at equality (its bound is 4) and `a2`, one
#: position with `a`, is answered by that stored bound (4 does not beat 4); `b` stops at its
#: first option, which reaches its bound 5; below `n1` the subtree `m` (bound 3) is pruned, so
#: `n1` learns only a bound, 7; that 7 reaches `n`'s bound and `n` stops before `n2`.
EDGES = Tree({"r": ["a", "a2", "b", "n"], "a": ["a1"], "a2": ["a1"], "b": ["b1", "b2"],
              "n": ["n1", "n2"], "n1": ["m", "l7"], "m": ["mm"]},
             {"a1": 4.0, "b1": 5.0, "b2": 2.0, "n2": 0.0, "l7": 7.0, "mm": 1.0},
             keys={"a2": "a"})
EDGE_BOUNDS = {"a": 4.0, "a2": 4.0, "b": 5.0, "n": 7.0, "m": 3.0}


def test_the_branch_and_bound_stops_exactly_at_its_edges() -> None:
    """A subtree whose bound does not exceed the incumbent is pruned (equality prunes); a
    stored bound that does not exceed it answers the position; a node stops once a child
    reaches its bound exactly, or once the incumbent reaches it (the siblings left cannot do
    better). Nothing else is skipped: the optimum 7 and its line are found."""
    game = TreeGame(EDGE_BOUNDS)
    res = run(EDGES.clone(), game, incumbent=4.0)
    assert (res.status, res.value, res.line) == (Status.OPTIMAL, 7.0, [3, 0, 1])
    assert (res.nodes, res.tt_hits) == (9, 1)
    assert game.asked == ["r", "a", "b", "n", "n1", "m"]
    assert game.heard == [5.0, 7.0]


def test_the_table_learns_exact_values_with_lines_and_bounds_without() -> None:
    """What the table stores (`solver.search.tt.TTEntry`): a pruned position, its bound; a
    position left before its last option, the node's bound (inexact); a node stopped by a child
    at its bound, that child's value, exact, with its line; a node with a pruned descendant,
    the best value below it as a bound only."""
    run_ = learned(EDGES.clone(), TreeGame(EDGE_BOUNDS), incumbent=4.0)
    assert entries(run_, ["a", "b", "n", "n1", "m", "r"]) == {
        "a": E(4.0, exact=False), "b": E(5.0, exact=True, line=(0,)), "n": E(7.0, exact=False),
        "n1": E(7.0, exact=False), "m": E(3.0, exact=False), "r": E(7.0, exact=False)}


#: Searched with no bound: `a` has only infeasible ends; `c` is worth 5 by either option.
SEARCHED_THROUGH = Tree({"r": ["a", "b"], "a": ["i1", "i2"], "b": ["c", "d"], "c": ["p", "q"]},
                        {"i1": None, "i2": None, "p": 5.0, "q": 5.0, "d": 4.0})


def test_a_subtree_searched_through_is_stored_exact_with_the_line_to_its_best_end() -> None:
    """A position whose subtree was searched through is exact in the table: -inf (no feasible
    end) with no line, or its best value with the actions from it to that end (of equal ends,
    the first in move order, as for the incumbent)."""
    run_ = learned(SEARCHED_THROUGH.clone(), TreeGame())
    assert entries(run_, ["a", "b", "c", "r"]) == {
        "a": E(-INF, exact=True), "c": E(5.0, exact=True, line=(0,)),
        "b": E(5.0, exact=True, line=(0, 0)), "r": E(5.0, exact=True, line=(1, 0, 0))}
    assert (run_.best_value, run_.best_line) == (5.0, [1, 0, 0])


def test_without_a_table_no_position_is_keyed() -> None:
    """`SearchConfig.transpositions=False`: the search never asks the game for a key (the
    card game's key is costly: `solver.game.HeritageGame.search_key`)."""
    game = TreeGame()
    res = run(TWO_WAYS.clone(), game, SearchConfig(transpositions=False))
    assert res.value == 5.0 and res.tt_hits == 0 and game.keyed == []
    keyed = TreeGame()
    run(TWO_WAYS.clone(), keyed)
    assert keyed.keyed == ["r", "a", "x", "b", "y"]


#: As `TWO_WAYS`, but y lists its options the other way round: the position is the same (same
#: key, same values), the line stored from x (its first option) is not y's best.
SWAPPED = Tree({"r": ["a", "b"], "a": ["x"], "b": ["y"], "x": ["p", "q"], "y": ["q", "p"]},
               {"p": 5.0, "q": 3.0}, keys={"x": "X", "y": "X"})


def test_an_exact_entry_that_cannot_beat_the_incumbent_answers_without_replaying() -> None:
    """A stored exact value that does not beat the incumbent answers the position as it is
    (its line is replayed only when it would become the incumbent's): y, reached with the
    incumbent at x's value 5, is not searched again although x's line is not y's."""
    res = run(SWAPPED.clone())
    assert (res.value, res.line, res.nodes, res.tt_hits) == (5.0, [0, 0, 0], 7, 1)


def test_the_memory_estimate_samples_a_key_every_key_sample_new_positions() -> None:
    """`TranspositionTable.memory`: the mean size of the keys sampled (the first new position's
    and every `KEY_SAMPLE`-th one's after; a replaced entry is not a new position) per entry,
    plus `ENTRY_OVERHEAD` per entry and `LINE_ITEM_BYTES` per action of the lines held."""
    table = TranspositionTable()
    first, late = (10**6, 0), ((10**6, 10**7, 10**8), 0)
    table.store(first, TTEntry(8.0, exact=True, line=(1, 2)))
    for k in range(1, KEY_SAMPLE):
        table.store((k,), TTEntry(1.0, exact=False))
    table.store((1,), TTEntry(0.5, exact=True, line=(4,)))  # replaced: not a new position
    assert table.memory == KEY_SAMPLE * (deep_size(first) + ENTRY_OVERHEAD) + 3 * LINE_ITEM_BYTES
    table.store(late, TTEntry(1.0, exact=True, line=(3,)))  # the next sample
    mean = (deep_size(first) + deep_size(late)) / 2
    assert table.memory == int((KEY_SAMPLE + 1) * (mean + ENTRY_OVERHEAD) + 4 * LINE_ITEM_BYTES)
    table.store(("x",), TTEntry(1.0, exact=False))  # not sampled
    assert table.memory == int((KEY_SAMPLE + 2) * (mean + ENTRY_OVERHEAD) + 4 * LINE_ITEM_BYTES)


def test_an_equal_bound_is_no_news_and_leaves_the_entry_as_old_as_it_was() -> None:
    """The replacement policy: a bound replaces a bound only when it is lower (tighter); an
    equal one changes nothing, so the entry stays the oldest and a full table forgets it first."""
    table = TranspositionTable(capacity=4)
    for k in "abcd":
        table.store(k, TTEntry(5.0, exact=False))
    table.store("a", TTEntry(5.0, exact=False))
    table.store("e", TTEntry(5.0, exact=False))
    assert [k for k in "abcde" if table.probe(k) is not None] == ["c", "d", "e"]


def test_without_a_game_the_search_uses_the_states_own_keys_and_no_bound() -> None:
    """`search(root)` with no `game`: `PlainGame` (no bound: nothing is pruned; `state.key()`:
    the two ways to x are one position)."""
    res = search(TWO_WAYS.clone())
    assert (res.status, res.value, res.line, res.nodes, res.tt_hits) == (
        Status.OPTIMAL, 5.0, [0, 0, 0], 7, 1)


def test_one_run_over_several_roots_reports_each_roots_own_nodes_and_table_hits() -> None:
    """`search_each`: one table and one incumbent for the run, but each result counts the
    nodes and table hits of its own root's search (a, then b: one position below both, then b
    again: answered whole by the table); a root with nothing better than the lines found
    before proves just that (INFEASIBLE: nothing better)."""
    a, b = TWO_WAYS.clone(), TWO_WAYS.clone()
    a.node, b.node = "a", "b"
    results = list(search_each((a, b, b.clone()), game=TreeGame()))
    assert [(r.nodes, r.tt_hits) for r in results] == [(4, 0), (2, 1), (1, 1)]
    assert [(r.status, r.value) for r in results] == [
        (Status.OPTIMAL, 5.0), (Status.INFEASIBLE, None), (Status.INFEASIBLE, None)]


def test_a_memory_cap_is_kept_to_the_byte_and_eviction_stops_at_its_share() -> None:
    """The memory limit (`TranspositionTable`, ``memory_bytes``): a table at its cap exactly is
    not over it; one entry more, and the oldest entries go until the estimate is at most
    `EVICT_SHARE` below the cap (each forgotten entry frees its key's mean size,
    `ENTRY_OVERHEAD` and its line's `LINE_ITEM_BYTES`), no further; `evicted` counts every
    entry forgotten."""
    size = deep_size((1,)) + ENTRY_OVERHEAD + LINE_ITEM_BYTES  # keys alike, lines of 1 action
    table = TranspositionTable(memory_bytes=8 * size)
    for k in range(1, 9):
        table.store((k,), TTEntry(1.0, exact=True, line=(0,)))
    assert (len(table), table.evicted, table.memory) == (8, 0, 8 * size)
    table.store((9,), TTEntry(1.0, exact=True, line=(0,)))  # over: down to 6, 75% of the cap
    assert (len(table), table.evicted, table.memory) == (6, 3, 6 * size)
    assert [k for k in range(1, 10) if table.probe((k,)) is not None] == [4, 5, 6, 7, 8, 9]
    for k in range(10, 13):
        table.store((k,), TTEntry(1.0, exact=True, line=(0,)))
    assert (len(table), table.evicted, table.memory) == (6, 6, 6 * size)
