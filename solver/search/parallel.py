"""The exact branch and bound of `solver.search.exhaustive` over several processes.

The tree is cut at a *frontier*: the root's subtrees, level by level in move order, until there
are at least `FRONTIER_PER_WORKER` of them per process (or nothing left to cut). Every line from
the root passes through exactly one frontier position, so the best line is the best of the
frontier's best lines, and the search is complete when every frontier position was searched
through. Each process takes the next position not yet taken (a shared counter: a process that
drew small subtrees takes more) and searches it with `search_each`, keeping one transposition
table for all the positions it takes. The best value any process has found is shared: every
search prunes against it (`SearchConfig.shared_best`), as one search prunes against its own
incumbent.

The processes are forked (they inherit the root, the move order and the game's hooks as they
are: nothing is pickled but the results). A node limit keeps the search in one process: the
node counts, and so the result, of processes running side by side depend on timing, and a
node-limited search must give the same answer every time. With a time limit, or none, the
value found by a complete search is the optimum whatever the timing; among lines of that value
the one reported may differ from run to run.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import queue
import signal
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any, Final, Generic, TypeVar

from solver.search.exhaustive import MoveOrder, SearchConfig, SearchResult, search, search_each
from solver.search.protocol import Game, PuzzleState
from solver.search.status import Status, search_status

S = TypeVar("S", bound=PuzzleState)

#: Frontier positions per process: enough that the processes finish close together.
FRONTIER_PER_WORKER: Final = 16
#: How often the parent looks at its own stop condition while it waits (seconds).
POLL: Final = 0.1


class Frontier(Generic[S]):
    """The positions where the tree is cut, in move order: `paths[i]` leads from the root to
    `states[i]`; `nodes` counts the positions expanded to find them."""

    def __init__(self, paths: list[tuple[int, ...]], states: list[S], nodes: int) -> None:
        self.paths = paths
        self.states = states
        self.nodes = nodes


def frontier(root: S, order: MoveOrder[S] | None, target: int, game: Game[S] | None = None,
             incumbent: float | None = None) -> Frontier[S]:
    """Cut the tree of `root` level by level (every position of a level replaced by its
    children, in move order) until at least `target` positions are left or none can be cut (all
    terminal). Move order is kept: the frontier lists the subtrees in the order a depth-first
    search meets them. A position whose bound (`game`'s) does not exceed `incumbent` is
    dropped, as the search would prune it: no line through it beats the incumbent."""
    items: list[tuple[tuple[int, ...], S]] = [((), root.clone())]
    nodes = 0
    while len(items) < target:
        cut: list[tuple[tuple[int, ...], S]] = []
        grew = False
        for path, state in items:
            if state.is_terminal():
                cut.append((path, state))
                continue
            nodes += 1
            if game is not None and incumbent is not None \
                    and game.upper_bound(state) <= incumbent:
                continue
            actions: Sequence[int] = state.legal_actions()
            if order is not None:
                actions = order(state, actions)
            for action in actions:
                child = state.clone()
                child.apply(action)
                cut.append(((*path, action), child))
            grew = True
        items = cut
        if not grew:
            break
    return Frontier([p for p, _ in items], [s for _, s in items], nodes)


def parallel_search(
    root: S,
    config: SearchConfig | None = None,
    order: MoveOrder[S] | None = None,
    incumbent: float | None = None,
    game: Game[S] | None = None,
    workers: int = 1,
) -> SearchResult:
    """`solver.search.exhaustive.search` in `workers` processes (see the module). One process,
    a node limit, or a root with nothing to cut: the search itself, in this process. The
    transposition table's memory cap (`SearchConfig.tt_memory_mb`) is shared out between the
    processes. `config.should_stop` (e.g. Ctrl-C) is polled here and stops every process;
    `config.max_seconds` holds from the call (the frontier's time counts); `config.on_progress`
    hears here the nodes of the subtrees finished and the best value shared."""
    cfg = config or SearchConfig()
    if workers <= 1 or cfg.max_nodes is not None or root.is_terminal():
        return search(root, cfg, order, incumbent, game)
    start = time.monotonic()
    front = frontier(root, order, FRONTIER_PER_WORKER * workers, game, incumbent)
    seconds = cfg.max_seconds
    if seconds is not None:  # the time the frontier took counts
        seconds = max(0.01, seconds - (time.monotonic() - start))
    ctx = mp.get_context("fork")
    best = ctx.Value("d", -math.inf if incumbent is None else incumbent)
    taken = ctx.Value("i", 0)
    stop = ctx.Event()
    out: Any = ctx.Queue()
    memory = None if cfg.tt_memory_mb is None else cfg.tt_memory_mb / workers
    wcfg = replace(cfg, tt_memory_mb=memory, max_seconds=seconds, should_stop=stop.is_set,
                   on_progress=None)  # a display lives here, not in a forked copy
    procs = [ctx.Process(target=_worker, args=(front, wcfg, order, incumbent, game, best, taken,
                                               out), daemon=True) for _ in range(workers)]
    for p in procs:
        p.start()
    results: dict[int, SearchResult] = {}
    done = 0
    try:
        while done < workers:
            if cfg.should_stop is not None and cfg.should_stop():
                stop.set()
            if cfg.on_progress is not None:  # the subtrees finished so far, the best shared
                cfg.on_progress(sum(r.nodes for r in results.values()), best.value)
            try:
                msg = out.get(timeout=POLL)
            except queue.Empty:
                if all(not p.is_alive() for p in procs) and out.empty():
                    break  # a process died without a word: what it held is lost
                continue
            if msg[0] == "item":
                results[msg[1]] = msg[2]
            elif msg[0] == "error":
                raise msg[1]  # e.g. a card effect not implemented: never a silent gap
            else:
                done += 1
    finally:
        shut_down(stop, procs)
    return _merge(front, results, incumbent)


def shut_down(stop: Any, procs: list[Any]) -> None:
    """Set `stop` and wait for `procs` (a second each, then terminated)."""
    stop.set()
    for p in procs:
        p.join(timeout=1.0)
        if p.is_alive():
            p.terminate()


def _items(front: Frontier[S], taken: Any, order: list[int]) -> Iterator[S]:
    """The frontier positions this process takes, one at a time (`order` records their
    indices)."""
    while True:
        with taken.get_lock():
            i = taken.value
            taken.value = i + 1
        if i >= len(front.states):
            return
        order.append(i)
        yield front.states[i]


def _worker(front: Frontier[S], cfg: SearchConfig, order: MoveOrder[S] | None,
            incumbent: float | None, game: Game[S] | None, best: Any, taken: Any,
            out: Any) -> None:
    """Body of one process: search the frontier positions it takes, sending each result (the
    parent handles Ctrl-C and sets the stop event)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def publish(value: float) -> None:
        with best.get_lock():
            if value > best.value:
                best.value = value

    wcfg = replace(cfg, shared_best=lambda: float(best.value), on_improve=publish)
    indices: list[int] = []
    try:
        for k, result in enumerate(search_each(_items(front, taken, indices), wcfg, order,
                                               incumbent, game)):
            out.put(("item", indices[k], result))
    except Exception as error:  # the parent raises it, as the search in one process would
        out.put(("error", error))
        return
    out.put(("done",))


def _merge(front: Frontier[S], results: dict[int, SearchResult],
           incumbent: float | None) -> SearchResult:
    """One `SearchResult` from the frontier's: the best line (the first in move order among
    equal values), complete when every frontier position was searched through."""
    complete = len(results) == len(front.states) and all(
        r.status in (Status.OPTIMAL, Status.INFEASIBLE) for r in results.values())
    value: float | None = None
    line: list[int] = []
    for i in sorted(results):
        r = results[i]
        if r.value is not None and (value is None or r.value > value) and (
                incumbent is None or r.value > incumbent):
            value, line = r.value, [*front.paths[i], *r.line]
    nodes = front.nodes + sum(r.nodes for r in results.values())
    hits = sum(r.tt_hits for r in results.values())
    return SearchResult(status=search_status(complete, value is not None), value=value,
                        line=line, nodes=nodes, tt_hits=hits)
