"""Polish the tail of a line: exact searches from the starts of its last turns.

A heuristic line is often not the best continuation of its own last turns: an exact search
started at the start of turn 15 of a 60 s solve's line found 86 VP where the line had 83 (T1 H2;
also T2 H1 57 -> 60, T4 H4 81 -> 85, T5 H2 66 -> 68; `benchmarks.prove_from`). `polish` does that
inside a solve: for the last turn of the incumbent line, then the turn before it, and so on while
its budget lasts, it replays the line to the start of that turn, runs the exact search
(`solver.search.exhaustive.search`, the solve's bound, the incumbent's tail first in move order)
for a slice of the budget, and splices any strictly better tail into the line. A spliced line is
replayed from the root and must be legal, end the game and meet every goal with the value the
search reported before it is taken; each earlier turn then starts from the improved line. A
search from an earlier turn keeps `PolishConfig.reprove_share` of the budget back: when it
changes the line without completing, the polish starts again from the new line's last turn,
whose proof is usually a single CP-SAT call.

A search from the start of turn T that completes proves the line's continuation optimal *from
that position only* (the position the line reaches at the start of turn T, not the deal):
`PolishResult.proven_from_turn` is the earliest such turn for the line returned. An incomplete
search from an earlier turn that changes the line voids an older proof (the proven position is
no longer on the line).

Budgets: a node budget (deterministic: same inputs, same line) or seconds, or both; the search
from one turn may take `PolishConfig.slice_share` of what is left (default: all of it), so a
quick proof of the last turn leaves the rest to the turn before it. Why all of it: the exact
search is depth first with the incumbent's move first, so a search from turn T - 1 begins by
searching the subtree at the start of turn T again (cheaply: the CP-SAT answers are cached by
position), then the deviations within turn T - 1; an unfinished search from turn T would only
have been re-searched by a shorter one from T - 1 (measured on 6 suite deals at 60 s: halves
spent the last seconds on turns 13-11 with nothing found). A time slice holds even where a few nodes
take seconds (CP-SAT calls near the end, between the search's clock checks every 64 nodes): past the
end of its slice a search bounds with the simple bound alone (`_Sliced`), so it reaches its next
clock check at once. Ctrl-C (`should_stop`) stops it with the best line so far.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from solver.bounds.bound import SimpleBound
from solver.engine.state import GameState
from solver.game import HeritageGame
from solver.search.exhaustive import SearchConfig
from solver.search.parallel import parallel_search
from solver.search.protocol import PlainGame
from solver.search.status import Status


@dataclass(frozen=True)
class PolishConfig:
    """The budget of one polish.

    :param nodes: exact-search nodes for all turns together (``None``: no node limit).
    :param seconds: wall-clock seconds for all turns together (``None``: no time limit).
    :param slice_share: the share of the budget left that the search from one turn may take.
    :param min_nodes: stop when fewer nodes than this are left (a slice too small to matter).
    :param min_seconds: stop when fewer seconds than this are left.
    :param tt_memory_mb: the exact search's table cap (`SearchConfig.tt_memory_mb`).
    :param workers: processes of each exact search when it is not node-limited
        (`solver.search.parallel`).
    :param reprove_share: the share of what is left that a search from a turn before the
        line's last keeps back: if it changes the line without completing, the polish starts
        again from the new line's last turn (a proof of the old tail is off the new line) and
        needs budget for it. Measured (session 29, compiled, 60 s solves, 2 workers): without
        it 5 of the 24 suite lines ended with no proven tail at all, each improved by an
        unfinished search from turn 15 in its last half second; with it 1 (23 of 24 proven
        from turn 15 or 16; mean VP 72.8 vs 73.4, within a run's spread).
    """

    nodes: int | None = None
    seconds: float | None = None
    slice_share: float = 1.0
    min_nodes: int = 500
    min_seconds: float = 0.5
    tt_memory_mb: float | None = None
    workers: int = 1
    reprove_share: float = 0.2

    def __post_init__(self) -> None:
        if self.nodes is None and self.seconds is None:
            raise ValueError("a polish needs a node or a time budget")
        if not 0.0 < self.slice_share <= 1.0:
            raise ValueError(f"slice_share must be in (0, 1], got {self.slice_share}")
        if not 0.0 <= self.reprove_share < 1.0:
            raise ValueError(f"reprove_share must be in [0, 1), got {self.reprove_share}")


@dataclass(frozen=True)
class PolishResult:
    """What a polish returns.

    :param line: the line from the root (the given one when nothing better was found).
    :param value: its final VP.
    :param nodes: exact-search nodes spent.
    :param improved: the line changed (strictly more VP).
    :param proven_from_turn: the earliest turn from whose start (on `line`) the continuation is
        proven optimal, or None.
    :param turns: the turns searched, latest first.
    """

    line: list[int]
    value: float
    nodes: int
    improved: bool
    proven_from_turn: int | None
    turns: tuple[int, ...]


class _Sliced(PlainGame[GameState]):
    """The hooks of `game` for one time-sliced search: its bound until `until`
    (`time.monotonic()`), then the simple bound, which is as admissible (the CP-SAT bound is
    never above it), so a search that still completes proves as much; the key is `game`'s.
    Only the hooks the exact search asks (`upper_bound`, `search_key`); the NRPA hooks stay
    `PlainGame`'s neutral ones."""

    def __init__(self, game: HeritageGame, until: float) -> None:
        self.game = game
        self.until = until
        self.simple = SimpleBound()
        self.cycle_free = game.cycle_free and self.simple.cycle_free

    def upper_bound(self, state: GameState) -> float:
        if time.monotonic() >= self.until:
            return self.simple.upper_bound(state)
        return self.game.upper_bound(state)

    def search_key(self, state: GameState) -> Hashable:
        return self.game.search_key(state)

    def improved(self, value: float) -> None:
        self.game.improved(value)


def turn_starts(root: GameState, line: Sequence[int]) -> dict[int, int]:
    """For each turn the line plays from `root`: the index of its first action (the position
    after ``line[:index]`` is the start of that turn on the line, or `root` itself for the
    root's turn)."""
    starts: dict[int, int] = {}
    st = root.clone()
    for i, action in enumerate(line):
        starts.setdefault(st.turn, i)
        st.apply(action)
    return starts


def line_value(root: GameState, line: Sequence[int]) -> float | None:
    """The final VP of `line` from `root` if it is legal, ends the game and meets every goal;
    otherwise None (the test a spliced line must pass)."""
    st = root.clone()
    for action in line:
        if action not in st.legal_actions():
            return None
        st.apply(action)
    if not st.is_terminal() or not st.feasible():
        return None
    return st.value()


def polish(root: GameState, game: HeritageGame, line: Sequence[int], value: float,
           cfg: PolishConfig, should_stop: Callable[[], bool] | None = None,
           on_turn: Callable[[int], None] | None = None,
           on_improve: Callable[[list[int], float], None] | None = None) -> PolishResult:
    """Search the tail of `line` (a goal-meeting line of final VP `value` from `root`) from the
    start of its last turn back towards the root, within `cfg`'s budget; return the best line.

    The turn `root` is in is not searched (that is the whole solve's exact search). `on_turn`
    is told each turn before its search; `on_improve` each accepted line. The returned line
    never has less VP than `line`: a tail is taken only when the whole line replays from the
    root to a goal-meeting end of strictly more VP (`line_value`).

    :raises ValueError: `line` is not a goal-meeting line of `value` from `root`."""
    if line_value(root, line) != value:
        raise ValueError("polish: the line does not replay to a goal-meeting end of its value")
    best = list(line)
    start = time.monotonic()
    used = 0
    proven: int | None = None
    improved = False
    searched: list[int] = []
    last = turn = max(turn_starts(root, best), default=root.turn)
    while turn > root.turn:
        if should_stop is not None and should_stop():
            break
        nodes = None if cfg.nodes is None else cfg.nodes - used
        seconds = None if cfg.seconds is None else cfg.seconds - (time.monotonic() - start)
        if (nodes is not None and nodes < cfg.min_nodes) or \
                (seconds is not None and seconds < cfg.min_seconds):
            break
        starts = turn_starts(root, best)
        if turn not in starts:  # the improved line skips this turn (it cannot: guarded anyway)
            turn -= 1
            continue
        cut = starts[turn]
        pos = root.clone()
        for action in best[:cut]:
            pos.apply(action)
        tail = best[cut:]
        if on_turn is not None:
            on_turn(turn)
        searched.append(turn)
        game.bound.start_search(value)
        share = cfg.slice_share * (1.0 - cfg.reprove_share if turn < last else 1.0)
        slice_seconds = None if seconds is None else seconds * share
        scfg = SearchConfig(
            max_nodes=None if nodes is None else max(1, int(nodes * share)),
            max_seconds=slice_seconds, should_stop=should_stop, tt_memory_mb=cfg.tt_memory_mb)
        hooks: HeritageGame | _Sliced = game if slice_seconds is None else \
            _Sliced(game, time.monotonic() + slice_seconds)
        res = parallel_search(pos, scfg, order=game.order(pos, tail), incumbent=value, game=hooks,
                              workers=cfg.workers)
        used += res.nodes
        complete = res.status in (Status.OPTIMAL, Status.INFEASIBLE) and not (
            should_stop is not None and should_stop())
        changed = False
        if res.value is not None and res.value > value:
            candidate = [*best[:cut], *res.line]
            if line_value(root, candidate) == res.value:
                best, value, improved, changed = candidate, res.value, True, True
                proven = None  # the line changed from this turn on: older proofs are off it
                if on_improve is not None:
                    on_improve(list(best), value)
            else:
                complete = False  # not taken: this turn proves nothing
        if complete:
            proven = turn
        elif changed and turn < last:
            # An unfinished search changed the line's later turns: start again from the new
            # line's last turn (its proofs come quickly, and the old ones are off the line).
            last = turn = max(turn_starts(root, best))
            continue
        turn -= 1
    return PolishResult(line=best, value=value, nodes=used, improved=improved,
                        proven_from_turn=proven, turns=tuple(searched))
