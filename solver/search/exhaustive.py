"""Exact depth-first branch and bound over any `PuzzleState`.

The search uses only the protocol of `solver.search.protocol` (`legal_actions`, `apply`,
`clone`, `is_terminal`, `value`, `feasible`) and the hooks of a `Game` (`upper_bound`,
`search_key`), so it solves every puzzle that implements them: the Antike know-how purchase and
the Ancient Knowledge solo game (`solver.game.HeritageGame`).

What it does, in the order of `_Search.visit`:

1. count the node and stop at the node limit of `SearchConfig`; return at once when the
   incumbent reaches the least bound on the path from the root (an ancestor's bound holds for
   its whole subtree) or `SearchConfig.ceiling`;
2. score a terminal (only feasible terminals are solutions);
3. probe the transposition table, keyed by `Game.search_key(state)` (a stored line that would
   become the incumbent's is replayed first: a key may leave out what nothing reads, so the
   line of an equal-keyed position may not be legal here; then the position is searched);
4. prune when `Game.upper_bound(state)` cannot beat the best solution found so far (the incumbent);
5. expand the children in the order of the move-ordering hook, stopping early once a child
   reaches the node's bound or the incumbent reaches the least bound on the path;
6. store what was learned about the position in the transposition table.

The transposition table stores, for a key, the best *feasible terminal value reachable from the
position*: exact when the subtree was searched through (with the action line that reaches it),
otherwise an upper bound on it. This is sound because the protocol promises that equal keys mean
equal futures, i.e. the same reachable terminals with the same `value()`; a game whose terminal
value depends on the path must therefore put that path's contribution (score so far) in its key.

Requirements on the game: `value()` of a feasible terminal is finite; `upper_bound()` is
admissible (never below the value of a reachable feasible terminal; returning ``-inf`` declares
that no feasible terminal is reachable). Ties keep the first solution found in move order, so the
result is deterministic. The search recurses once per decision, so a line must stay well below
Python's recursion limit (1000 by default).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Generic, TypeAlias, TypeVar

from solver.frozen import Frozen
from solver.search.collector import collector_paused, young_collections_only
from solver.search.protocol import Game, PlainGame, PuzzleState
from solver.search.status import Status, search_status
from solver.search.tt import MB, TranspositionTable, TTEntry

S = TypeVar("S", bound=PuzzleState)

#: A move-ordering hook: given a state and its legal actions, the same actions in the order to
#: try (a permutation: dropping an action would make the search inexact; it is not checked).
MoveOrder: TypeAlias = Callable[[S, Sequence[int]], Sequence[int]]

NEG_INF: Final = -math.inf
#: Nodes between two looks at the other workers' best (`SearchConfig.shared_best`). The clock
#: and the stop request are looked at every node: a bound that sees through the last decline
#: (`solver.bounds.window`) takes up to 0.6 s a node on some turn-15 positions (pure), and 64 such
#: nodes between two looks ran a 60 s search to 65.8 s (t1-h3 from turn 15, session 44).
POLL_NODES: Final = 64
POLL_MASK: Final = POLL_NODES - 1


@dataclass(frozen=True)
class SearchConfig(Frozen):
    """The tunable parameters of the exhaustive search, in one place.

    :param max_nodes: stop after visiting this many nodes (``None``: no limit). A stopped search
        reports ``FEASIBLE`` (with its best solution) or ``UNKNOWN`` (without one).
    :param transpositions: use the transposition table.
    :param tt_capacity: most positions kept in the table (``None``: no limit).
    :param tt_memory_mb: most memory the table may hold, in MiB, as the table estimates it
        (``None``: no limit). A full table forgets its oldest entries (`solver.search.tt`): a
        limit costs transpositions, never the optimum.
    :param max_seconds: stop after this much wall-clock time (not deterministic; checked at
        every node).
    :param should_stop: polled at every node; True stops the search (e.g. Ctrl-C).
    :param shared_best: polled every `POLL_NODES` nodes: a value some line elsewhere is known to
        reach (another process of `solver.search.parallel`); the search then prunes against it
        as against its incumbent (a subtree whose bound does not exceed a known value cannot
        hold a better line, wherever that value was found).
    :param ceiling: an upper bound known on every line below the search's roots (e.g. the
        solve's proven bound of the position it searches from; ``None``: none): like the bound
        of an ancestor (see `_Search._expand`), once the incumbent reaches it nothing is left
        to search, and the search ends complete.
    :param on_improve: called with the value of each solution better than the incumbent.
    :param on_progress: called every `POLL_NODES` nodes with the nodes visited and the value a
        line must beat (the incumbent or a better line found since; -inf: none yet), for a live
        display; never in the worker processes of `solver.search.parallel` (its caller hears
        from there).
    :raises ValueError: when a limit is not positive.
    """

    max_nodes: int | None = None
    transpositions: bool = True
    tt_capacity: int | None = None
    tt_memory_mb: float | None = None
    max_seconds: float | None = None
    should_stop: Callable[[], bool] | None = None
    shared_best: Callable[[], float] | None = None
    ceiling: float | None = None
    on_improve: Callable[[float], None] | None = None
    on_progress: Callable[[int, float], None] | None = None

    def __post_init__(self) -> None:
        if self.max_nodes is not None and self.max_nodes < 1:
            raise ValueError(f"max_nodes must be at least 1, got {self.max_nodes}")
        if self.tt_capacity is not None and self.tt_capacity < 0:
            raise ValueError(f"tt_capacity must be at least 0, got {self.tt_capacity}")
        if self.tt_memory_mb is not None and self.tt_memory_mb < 0:
            raise ValueError(f"tt_memory_mb must be at least 0, got {self.tt_memory_mb}")


@dataclass(frozen=True)
class SearchResult(Frozen):
    """The outcome of `search`.

    :param status: ``OPTIMAL`` (best solution, proven), ``INFEASIBLE`` (proven: no feasible
        terminal), ``FEASIBLE`` (node limit hit after a solution was found) or ``UNKNOWN``.
    :param value: the `value()` of the best feasible terminal found, or ``None``.
    :param line: the actions from the root to that terminal (empty when there is none).
    :param nodes: the number of positions visited, the root included (deterministic).
    :param tt_hits: the number of positions answered by the transposition table.
    """

    status: Status
    value: float | None
    line: list[int]
    nodes: int
    tt_hits: int


class _NodeLimitReachedError(Exception):
    """Raised inside the search when `SearchConfig.max_nodes` positions have been visited."""


class _Search(Generic[S]):
    """One run of the branch and bound: the incumbent, the counters and the table."""

    def __init__(self, config: SearchConfig, order: MoveOrder[S] | None, game: Game[S]) -> None:
        self.config = config
        self.order = order
        self.bound = game.upper_bound
        self.improved = game.improved
        self.key = game.search_key
        memory = None if config.tt_memory_mb is None else int(config.tt_memory_mb * MB)
        self.table = (TranspositionTable(config.tt_capacity, memory) if config.transpositions
                      else None)
        self.found = False
        # what a line must beat: the incumbent, or a value known elsewhere
        self.best_value = NEG_INF
        self.found_value = NEG_INF  # the value of `best_line`, the best solution this run found
        self.best_line: list[int] = []
        self.path: list[int] = []
        self.caps = self.top_caps()
        self.nodes = 0
        self.tt_hits = 0
        self.start = time.monotonic()
        self.deadline = (None if config.max_seconds is None
                         else self.start + config.max_seconds)
        self.stop = config.should_stop
        self.cycle_free = game.cycle_free  # the collector paused (`solver.search.collector`)

    def top_caps(self) -> list[float]:
        """The caps above a root: the known ceiling, if any (`_expand`)."""
        ceiling = self.config.ceiling
        return [math.inf if ceiling is None else ceiling]

    def _stopped(self) -> bool:
        """Whether the time is up or a stop was asked (looked at every node)."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            return True
        return self.stop is not None and self.stop()

    def _hear_shared_best(self) -> None:
        """Prune against the best value another worker reached (every `POLL_NODES` nodes)."""
        shared_best = self.config.shared_best
        if shared_best is not None:
            shared = shared_best()
            if shared > self.best_value:  # another worker's line: the bound hears of it too
                self.best_value = shared
                self.improved(shared)

    def _improve(self, value: float, tail: Sequence[int]) -> None:
        """Make the solution `path + tail` of `value` the incumbent if it is strictly better."""
        if value > self.best_value:
            self.found = True
            self.best_value = self.found_value = value
            self.best_line = [*self.path, *tail]
            self.improved(value)
            if self.config.on_improve is not None:
                self.config.on_improve(value)

    def visit(self, state: S) -> TTEntry:
        """Search the subtree of `state` (never changed) and report its best feasible value."""
        # Step 1. Count the node; stop at the node limit.
        limit = self.config.max_nodes
        if limit is not None and self.nodes >= limit:
            raise _NodeLimitReachedError
        self.nodes += 1
        if not self.nodes & POLL_MASK:
            self._hear_shared_best()
            if self.config.on_progress is not None:
                self.config.on_progress(self.nodes, self.best_value)
        if self._stopped():
            raise _NodeLimitReachedError
        if self.best_value >= self.caps[-1]:
            # An ancestor's bound (or the ceiling) is reached: nothing below beats the incumbent.
            return TTEntry(self.caps[-1], exact=False)

        # Step 2. A terminal is a solution when it is feasible.
        if state.is_terminal():
            if not state.feasible():
                return TTEntry(NEG_INF, exact=True)
            value = state.value()
            self._improve(value, ())
            return TTEntry(value, exact=True)

        # Step 3. A position searched before answers from the table.
        key = self.key(state) if self.table is not None else None
        if self.table is not None:
            known = self.table.probe(key)
            if known is not None and (known.exact or known.value <= self.best_value) and not (
                    known.exact and known.value > self.best_value
                    and not _reaches(state, known.line, known.value)):
                self.tt_hits += 1
                if known.exact:
                    self._improve(known.value, known.line)
                return known

        # Step 4. Prune a subtree that cannot beat the incumbent.
        bound = self.bound(state)
        if bound <= self.best_value:
            return self._store(key, TTEntry(bound, exact=False))

        # Step 5. Expand the children in move order.
        entry = self._expand(state, bound)

        # Step 6. Remember the position.
        return self._store(key, entry)

    def _expand(self, state: S, bound: float) -> TTEntry:
        """Step 5 of `visit`: search every child, or stop once nothing better can follow: a
        child reaches the node's bound, or the incumbent reaches the least bound on the path
        from the root to here (`caps`: each ancestor's bound holds for its whole subtree, this
        node's children included, so once a line as good is known nothing below can beat it;
        a line found deep below a node whose bound it reaches ends the search of everything
        between at once, not as each level returns)."""
        actions: Sequence[int] = state.legal_actions()
        if self.order is not None:
            actions = self.order(state, actions)
        caps = self.caps
        cap = min(bound, caps[-1])
        caps.append(cap)
        best = NEG_INF
        best_exact = False
        best_line: tuple[int, ...] = ()
        exact = True
        for index, action in enumerate(actions):
            child = state.clone()
            child.apply(action)
            self.path.append(action)
            result = self.visit(child)
            self.path.pop()
            exact = exact and result.exact
            if result.value > best:
                best, best_exact = result.value, result.exact
                best_line = (action, *result.line) if result.exact else ()
            if best_exact and best >= bound:
                # A child reaches the admissible bound: no sibling can do better.
                caps.pop()
                return TTEntry(best, exact=True, line=best_line)
            if self.best_value >= cap and index < len(actions) - 1:
                # The incumbent reaches this node's bound or an ancestor's: the siblings left
                # cannot beat it (the node's own bound is what is known of its value).
                caps.pop()
                return TTEntry(bound, exact=False)
        caps.pop()
        if exact:
            return TTEntry(best, exact=True, line=best_line if best > NEG_INF else ())
        return TTEntry(min(best, bound), exact=False)

    def _store(self, key: Hashable, entry: TTEntry) -> TTEntry:
        if self.table is not None:
            self.table.store(key, entry)
        return entry


def _reaches(state: S, line: Sequence[int], value: float) -> bool:
    """Whether `line` played from `state` is legal and ends in a feasible terminal of `value`.

    A key may leave out what no future reads (`Game.search_key`): two positions with one key
    then have the same reachable values, but a line of one may not be legal in the other (a
    choice among options that differ only in what nothing reads). A stored line is checked
    before it becomes the incumbent's; if it does not replay, the position is searched."""
    st = state.clone()
    try:
        for action in line:
            st.apply(action)
    except ValueError:
        return False
    return st.is_terminal() and st.feasible() and st.value() == value


def search(
    root: S,
    config: SearchConfig | None = None,
    order: MoveOrder[S] | None = None,
    incumbent: float | None = None,
    game: Game[S] | None = None,
) -> SearchResult:
    """Find the feasible terminal of largest `value()` reachable from `root` (never changed).

    :param root: the position to search from.
    :param config: limits and switches; the defaults search to the end with a table.
    :param order: the move-ordering hook (default: the order of `legal_actions()`).
    :param incumbent: the value of a solution already known (e.g. from a heuristic search): only
        strictly better solutions are searched for. A complete search that finds none proves
        the known one optimal; it then reports ``INFEASIBLE`` in the sense "nothing better"
        (the caller, who holds the known line, turns that into ``OPTIMAL``).
    :param game: the bound and key hooks (default `PlainGame`: no bound, `state.key()`).
    :returns: the status, the best value and line, and the node count.
    """
    return next(iter(search_each((root,), config, order, incumbent, game)))


def search_each(
    roots: Iterable[S],
    config: SearchConfig | None = None,
    order: MoveOrder[S] | None = None,
    incumbent: float | None = None,
    game: Game[S] | None = None,
) -> Iterator[SearchResult]:
    """`search` from each of `roots` in turn, as one run: one transposition table (what was
    learned about a position holds whichever root reached it), one node count and limit, and
    the incumbent carried from one root to the next (each root's search looks only for lines
    better than every line found before). Yields one result per root: its status (complete or
    not), the best line found below it (from it), and the nodes its search visited; once a
    limit stops the run, the result of the root it stopped in is the last. `roots` may be a
    lazy iterable (e.g. the items a process of `solver.search.parallel` takes in turn)."""
    run = _Search(config or SearchConfig(), order, game if game is not None else PlainGame())
    if incumbent is not None:
        run.best_value = incumbent
    for root in roots:
        run.found, run.found_value, run.best_line, run.path = False, NEG_INF, [], []
        run.caps = run.top_caps()  # a stopped root may have left its path's caps
        before, hits = run.nodes, run.tt_hits
        try:
            with collector_paused() if run.cycle_free else young_collections_only():
                run.visit(root)
            complete = True
        except _NodeLimitReachedError:
            complete = False
        yield SearchResult(
            status=search_status(complete, run.found),
            value=run.found_value if run.found else None,
            line=list(run.best_line),
            nodes=run.nodes - before,
            tt_hits=run.tt_hits - hits,
        )
        if not complete:
            return


def replay(root: S, line: Sequence[int]) -> S:
    """A copy of `root` after the actions of `line` (`root` is not changed).

    :raises ValueError: (from the game) when an action of the line is illegal.
    """
    state = root.clone()
    for action in line:
        state.apply(action)
    return state
