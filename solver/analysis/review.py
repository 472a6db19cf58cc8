"""Where the VP went: a whole game analysed turn by turn, as a chess engine analyses a game.

The game is replayed from its deal; at the start of each turn (with `ReviewConfig.
every_decision`, before each decision) the position is solved (`solver.solve.solve`, one
solve per position, several positions at once on a process pool) with the player's own
continuation from there as the first incumbent. Lines are ranked as the solver ranks them:
a line meeting every goal above any line that misses one, then by final VP.

For the positions ``P_0 .. P_n`` of the game (``P_n`` the end), with ``S_i`` the player's
decisions from ``P_i`` to ``P_{i+1}`` and ``B_i`` the best line found from ``P_i``:

1. every solve starts from the player's continuation, so ``B_i`` never ranks below it;
2. forward: when ``B_i`` begins with ``S_i``, its rest is a line from ``P_{i+1}``, which
   ``B_{i+1}`` then never ranks below (the player who followed the best line lost nothing);
3. backward: ``S_i`` followed by ``B_{i+1}`` is a line from ``P_i``, which ``B_i`` then never
   ranks below (a budgeted search may miss at ``P_i`` what it found at ``P_{i+1}``);
4. down the game: ``P_{i+1}`` is reached from ``P_i`` by ``S_i``, so ``S_i`` followed by any
   goal-meeting line from ``P_{i+1}`` is one from ``P_i``: an upper bound proven at ``P_i`` holds at
   ``P_{i+1}`` and every later position (``V(P_0) >= V(P_1) >= ...``, ``V`` the best
   goal-meeting VP). Each position's bound is the least of its own and those before it; where
   the best line found there reaches it, that line is proven optimal, and after a position
   proven to have no goal-meeting line (bound ``-inf``) none has one (`_inherit`).

So ``B_0 >= B_1 >= ... >= B_n`` = the game as played, and the VP lost by the decisions ``S_i``,
``vp(B_i) - vp(B_{i+1})``, is never negative. One exception is counted as 0 VP and told apart:
decisions that gave up the goals (``B_i`` meets them, no line from ``P_{i+1}`` found does) while
the best line missing a goal scores more; the summary names that turn (`Unwinnable`). The sum
of the losses is the VP left on the table. A loss is a difference of lines *found*: it is
exact (`TurnReview.lost_proven`) only where both ends are proven optimal (or the end is the game
as played); elsewhere it is neither a lower nor an upper bound of the true loss, but the best
line found less the next position's bound is a lower bound (`TurnReview.lost_at_least`). The
VP left on the table is at least its figure (the best line from ``P_0`` is a line, the game's
VP exact).

Goals reachable from a position: ``True`` with a witness (the best line meets every goal),
``False`` only where proven (the exact search completed, the constraint layer's relaxation with
``bound="cpsat"``, or the game is over), else ``None``.

Determinism: with a node limit each solve depends only on its position, its incumbent and the
configuration, so the result is the same for any number of pool workers.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from solver.engine.actions import NotationError
from solver.engine.describe import describe_line
from solver.engine.errors import HeritageError
from solver.engine.newgame import new_game
from solver.engine.record import GameRecord
from solver.engine.state import GameState
from solver.search.status import Status
from solver.solve import SolveConfig, solve


class ReviewError(HeritageError, ValueError):
    """A line that cannot be analysed: not legal from the deal, or not a finished game."""


@dataclass(frozen=True)
class ReviewConfig:
    """How a game is analysed.

    :param solve: the budget and method of each position's solve (its ``workers`` is ignored:
        one process a position).
    :param every_decision: a position before every decision, not only at each turn start.
    :param workers: positions solved at once (processes).
    """

    solve: SolveConfig = SolveConfig(node_limit=50_000)
    every_decision: bool = False
    workers: int = 1

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, got {self.workers}")


@dataclass(frozen=True)
class Ranked:
    """A whole line from a position to the end of the game, with its final VP and goals."""

    actions: tuple[int, ...]
    vp: int
    goals_met: bool

    @property
    def rank(self) -> tuple[bool, int]:
        """The solver's order: every goal met first, then VP."""
        return (self.goals_met, self.vp)


@dataclass(frozen=True)
class Found:
    """What the solve of one position returned."""

    status: Status
    bound: float
    best: Ranked
    nodes: int
    seconds: float
    interrupted: bool


@dataclass(frozen=True)
class TurnReview:
    """One analysed position: the start of `turn` (or, with every decision, before decision
    `decision` of it)."""

    turn: int
    decision: int
    best: Ranked
    status: Status  # of the best line (`solver.search.status`); UNKNOWN where not analysed
    #: on goal-meeting lines from the position (-inf: none exists): the least of its own
    #: solve's bound and those of the positions before it (the module's point 4)
    bound: float
    played: Ranked
    #: best less the next position's best; None where that position was not analysed (Ctrl-C):
    #: the difference would hold the losses of every turn after it.
    lost: int | None
    lost_proven: bool  # both ends of the loss exact (proven optimal, or the game's end)
    alternative: str | None  # the turn as the best line plays it, when it costs VP or goals
    goals_reachable: bool | None
    analysed: bool
    nodes: int
    seconds: float
    #: what the decisions lost at least, proven: the best line found here less the next
    #: position's bound (None: not measured, or a goal missed at either end)
    lost_at_least: int | None = None

    def to_json(self, with_decision: bool = False) -> dict[str, Any]:
        """The JSON object of the turn (``decision`` only with every decision)."""
        data: dict[str, Any] = {"turn": self.turn}
        if with_decision:
            data["decision"] = self.decision
        data.update({
            "best_vp": self.best.vp, "best_goals_met": self.best.goals_met,
            "best_status": self.status.value,
            "bound": self.bound if math.isfinite(self.bound) else None,
            "played_vp": self.played.vp,
            "played_goals_met": self.played.goals_met, "lost": self.lost,
            "lost_proven": self.lost_proven, "lost_at_least": self.lost_at_least,
            "alternative": self.alternative, "goals_reachable": self.goals_reachable,
        })
        return data


@dataclass(frozen=True)
class Unwinnable:
    """Where the goals were lost: after the decisions of `turn` (from `decision` on) the goals
    are proven out of reach. `certain`: before them a goal-meeting line was found, so these very
    decisions lost the trial; otherwise it happened at that turn at the latest, after
    `last_winnable` (the last position with a goal-meeting line found, or None). `at_start`:
    already proven out of reach at the first position analysed. `at_end`: no position before
    the end of the game was proven out of reach (the game itself missed a goal): when the
    trial became unwinnable is not known, `turn` is the last turn."""

    turn: int
    decision: int
    certain: bool
    last_winnable: int | None
    at_start: bool
    at_end: bool = False


@dataclass(frozen=True)
class Review:
    """A game analysed (see the module)."""

    rows: tuple[TurnReview, ...]
    final_vp: int
    final_goals_met: bool
    has_goals: bool
    every_decision: bool
    interrupted: bool

    @property
    def total_lost(self) -> int:
        """The sum of the losses of every turn (equal to `left_on_table` unless a turn gave up
        the goals for a line with more VP, `goals_given_up`)."""
        return sum(r.lost for r in self.rows if r.lost is not None)

    @property
    def left_on_table(self) -> int:
        """The VP left on the table: the best line found from the first position less the
        game's VP (0 when the game scored more by missing a goal the best line meets); at least
        that many unless `left_proven`."""
        return max(0, self.rows[0].best.vp - self.final_vp) if self.rows else 0

    @property
    def left_proven(self) -> bool:
        """Whether `left_on_table` is exact: the first position's best line proven optimal."""
        return not self.rows or self.rows[0].status == Status.OPTIMAL

    @property
    def goals_given_up(self) -> TurnReview | None:
        """The last position from which a goal-meeting line was found when no such line was
        found after its decisions (None: the goals were met, or never found reachable)."""
        if not self.has_goals:
            return None
        after = [r.best.goals_met for r in self.rows[1:]] + [self.final_goals_met]
        for r, then in zip(reversed(self.rows), reversed(after), strict=True):
            if r.lost is not None and r.best.goals_met and not then:
                return r
        return None

    def costliest(self, n: int = 3) -> list[TurnReview]:
        """The `n` positions whose decisions lost most VP (ties: the earlier first)."""
        costly = [r for r in self.rows if (r.lost or 0) > 0]  # None: not measured
        return sorted(costly, key=lambda r: (-(r.lost or 0), r.turn, r.decision))[:n]

    @property
    def unwinnable(self) -> Unwinnable | None:
        """Where the goals became out of reach, if they did (see `Unwinnable`)."""
        if not self.has_goals or not self.rows:
            return None
        reach = [r.goals_reachable for r in self.rows] + [self.final_goals_met]
        if False not in reach:
            return None
        first = reach.index(False)
        if first == 0:
            r = self.rows[0]
            return Unwinnable(r.turn, r.decision, True, None, True)
        r = self.rows[first - 1]
        winnable = [row for row in self.rows[:first] if row.goals_reachable]
        last = winnable[-1].turn if winnable else None
        return Unwinnable(r.turn, r.decision, reach[first - 1] is True, last, False,
                          first == len(self.rows))

    def to_json(self) -> list[dict[str, Any]]:
        return [r.to_json(self.every_decision) for r in self.rows]


@dataclass(frozen=True)
class _Point:
    turn: int
    decision: int
    record: GameRecord  # the game up to here (notation by turn)
    played_from: int  # index in the game's actions of the next decision


def review_game(start: GameState, line: Sequence[Sequence[str]], config: ReviewConfig,
                on_point: Callable[[int, int], None] | None = None) -> Review:
    """Analyse the game `line` (notation by turn, `solver.engine.record`) played from the deal
    `start` (a `new_game`, not changed). `on_point(done, total)` is told of each position solved.
    Ctrl-C stops the solves: the positions not solved keep the player's continuation as their
    best line (``analysed`` False) and the review is marked ``interrupted``.

    :raises ReviewError: `start` is not a fresh deal, a decision is not legal, or the line
        stops before the end of the game."""
    points, actions, record = _replay(start, line, config.every_decision)
    st = record.state
    final = Ranked((), st.score().total, st.feasible())
    tasks = [(p.record.state, tuple(actions[p.played_from:]), replace(config.solve, workers=1))
             for p in points]
    found, interrupted = solve_positions(tasks, config.workers, on_point)
    ends = [p.played_from for p in points] + [len(actions)]
    steps = [tuple(actions[a:b]) for a, b in zip(ends, ends[1:], strict=False)]
    played = [Ranked(t[1], final.vp, final.goals_met) for t in tasks]
    best = [f.best if f is not None else p for f, p in zip(found, played, strict=True)] + [final]
    improved = _chain(best, steps)
    rows = []
    statuses = []
    for i, f in enumerate(found):
        status = f.status if f is not None else Status.UNKNOWN
        if improved[i] and best[i].goals_met and status != Status.OPTIMAL:
            status = Status.FEASIBLE
        statuses.append(status)
    bounds = _inherit([f.bound if f is not None else math.inf for f in found], statuses,
                      best, [f is not None for f in found])
    exact = [s == Status.OPTIMAL for s in statuses] + [True]  # the game's end is exact
    bound_at = [*bounds, float(final.vp) if final.goals_met else -math.inf]
    # a loss is measured between two analysed positions (or the last one and the game's end)
    measured = [f is not None and (i + 1 == len(found) or found[i + 1] is not None)
                for i, f in enumerate(found)]
    for i, p in enumerate(points):
        f, status = found[i], statuses[i]
        reachable = True if best[i].goals_met else (False if status == Status.INFEASIBLE else None)
        costs = measured[i] and best[i].rank > best[i + 1].rank
        rows.append(TurnReview(
            turn=p.turn, decision=p.decision, best=best[i], status=status,
            bound=bounds[i], played=played[i],
            lost=max(0, best[i].vp - best[i + 1].vp) if measured[i] else None,
            lost_proven=measured[i] and exact[i] and exact[i + 1],
            lost_at_least=(_least_loss(best[i], best[i + 1], bound_at[i + 1])
                           if measured[i] else None),
            alternative=_alternative(start, p, best[i]) if costs else None,
            goals_reachable=reachable, analysed=f is not None,
            nodes=f.nodes if f is not None else 0, seconds=f.seconds if f is not None else 0.0))
    return Review(tuple(rows), final.vp, final.goals_met, bool(st.goal_chests),
                  config.every_decision, interrupted)


def _replay(start: GameState, line: Sequence[Sequence[str]],
            every_decision: bool) -> tuple[list[_Point], list[int], GameRecord]:
    """The positions to analyse, the game's actions, and the record of the whole game."""
    fresh = new_game(start.setup, start.book)
    if start.key() != fresh.key():
        raise ReviewError("the game must be analysed from its deal (a position before any "
                          "decision)")
    record = GameRecord(start.setup, start.clone())
    points: list[_Point] = []
    actions: list[int] = []
    for t, turn in enumerate(line):
        for k, text in enumerate(turn, start=1):
            st = record.state
            where = f"turn {t}, decision {k}"
            if st.is_terminal() or st.turn != t:
                raise ReviewError(f"{where}: {text!r} is not where the game is (turn {st.turn}"
                                  f"{', over' if st.is_terminal() else ''})")
            try:
                action = st.string_to_action(text)
            except NotationError:
                action = -1
            if action not in st.legal:
                raise ReviewError(f"{where}: {text!r} is not legal here")
            if every_decision or k == 1:
                points.append(_Point(t, k, record.clone(), len(actions)))
            record.apply(action)
            actions.append(action)
    if not record.state.is_terminal():
        raise ReviewError(f"turn {record.state.turn}: the line ends before the game is over; "
                          "only a finished game can be analysed")
    return points, actions, record


def _chain(best: list[Ranked], steps: Sequence[tuple[int, ...]]) -> list[bool]:
    """The forward and backward passes of the module (in place on `best`, whose last item is
    the end of the game); which positions got a better line."""
    improved = [False] * len(best)
    for i, step in enumerate(steps):  # forward
        line = best[i].actions
        if line[:len(step)] == step and best[i].rank > best[i + 1].rank:
            best[i + 1] = Ranked(line[len(step):], best[i].vp, best[i].goals_met)
            improved[i + 1] = True
    for i in range(len(steps) - 1, -1, -1):  # backward
        if best[i + 1].rank > best[i].rank:
            nxt = best[i + 1]
            best[i] = Ranked(steps[i] + nxt.actions, nxt.vp, nxt.goals_met)
            improved[i] = True
    return improved


def _inherit(own: Sequence[float], statuses: list[Status], best: Sequence[Ranked],
             analysed: Sequence[bool]) -> list[float]:
    """The module's point 4: each position's bound lowered to the least bound of the positions
    before it (a later position of the game is one of their continuations, so no line from it
    beats their best). An analysed position whose best line meets every goal and reaches that
    bound is proven optimal; one after a position proven to have no goal-meeting line has none
    either, unless a line found there meets them. `statuses` is updated in place."""
    bounds: list[float] = []
    least = math.inf
    for i, b in enumerate(own):
        least = min(least, b)
        bounds.append(least)
        if not analysed[i] or statuses[i] in (Status.OPTIMAL, Status.INFEASIBLE):
            continue
        if best[i].goals_met and -math.inf < least <= best[i].vp:
            statuses[i] = Status.OPTIMAL
        elif least == -math.inf and not best[i].goals_met:
            statuses[i] = Status.INFEASIBLE
    return bounds


def _least_loss(here: Ranked, then: Ranked, bound: float) -> int | None:
    """The least VP the decisions between two positions lost: the best goal-meeting VP from
    the first is at least its best line's, that from the second at most its bound (an integer:
    VP are whole), so the true loss is at least their difference, and never below 0 (the
    first position can play the decisions). None where either best line misses a goal."""
    if not (here.goals_met and then.goals_met and math.isfinite(bound)):
        return None
    return max(0, here.vp - math.floor(bound))


def _alternative(start: GameState, point: _Point, best: Ranked) -> str | None:
    """The turn of `point` as the best line plays it, in words (`solver.engine.describe`)."""
    record = point.record.clone()
    for action in best.actions:
        if record.state.is_terminal() or record.state.turn != point.turn:
            break
        record.apply(action)
    reports = describe_line(start.setup, start.book, record.line)
    phrases = [p for r in reports if r.turn == point.turn for p in r.phrases]
    return "; ".join(phrases) or None


# ------------------------------------------------------------------ solving the positions

Task = tuple[GameState, tuple[int, ...], SolveConfig]


def solve_position(task: Task) -> Found:
    """Solve one position with the player's continuation as the first incumbent."""
    state, continuation, cfg = task
    res = solve(state, cfg, incumbent=continuation)
    vp: float | None = res.value
    goals, line = True, res.line
    if vp is None:
        vp, goals, line = res.failed_value, False, res.failed_line
    assert vp is not None  # the continuation is always there
    return Found(res.status, res.bound, Ranked(tuple(line), int(vp), goals), res.nodes,
                 res.seconds, res.interrupted)


def _indexed(item: tuple[int, Task]) -> tuple[int, Found]:
    return item[0], solve_position(item[1])


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops them all."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def solve_positions(tasks: Sequence[Task], workers: int,
                    on_point: Callable[[int, int], None] | None = None,
                    ) -> tuple[list[Found | None], bool]:
    """Solve each position (in `workers` processes); the results in the order of `tasks`
    (None for a position that Ctrl-C left unsolved) and whether Ctrl-C stopped the work."""
    found: list[Found | None] = [None] * len(tasks)
    done = 0
    if workers == 1 or len(tasks) <= 1:
        for i, task in enumerate(tasks):
            f = solve_position(task)
            found[i] = f
            done += 1
            if on_point is not None:
                on_point(done, len(tasks))
            if f.interrupted:  # the solve caught Ctrl-C and kept what it had
                return found, True
        return found, False
    ctx = mp.get_context("fork")
    pool = ctx.Pool(processes=min(workers, len(tasks)), initializer=_ignore_sigint)
    try:
        for i, f in pool.imap_unordered(_indexed, list(enumerate(tasks))):
            found[i] = f
            done += 1
            if on_point is not None:
                on_point(done, len(tasks))
    except KeyboardInterrupt:
        pool.terminate()
        pool.join()
        return found, True
    pool.close()
    pool.join()
    return found, False
