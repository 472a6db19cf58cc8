"""Solve a position of the solo game: the goal-meeting line of most VP, proven where possible.

Two searches over the game protocol (`solver.search`):

1. NRPA (anytime heuristic) in `workers` processes, each with its own seed and an equal share of
   the node budget (or the whole time budget); the best line of the lowest-numbered worker wins
   ties, so a node-limited solve is deterministic for a given number of workers.
1b. The tail polish (`solver.polish`, `SolveConfig.polish_share` of the budget): exact searches
   from the start of the NRPA line's last turn, then the turn before, ..., splicing in any
   better continuation; a completed one proves the line's play from that turn's position only
   (`SolveResult.proven_from_turn`), never the line.
2. Exact depth-first branch and bound (transposition table, incumbent line first, dominance
   rules of `solver.guidance.dominance`, the admissible bound of `solver.bounds`) started with the
   NRPA incumbent: if it completes, the line is proven OPTIMAL, or the deal INFEASIBLE.

Under a time limit the exact searches (2 and the polish's) run in `workers` processes too
(`solver.search.parallel`); node-limited they run in one, so the result stays deterministic.

Statuses (`solver.search.status.Status`): OPTIMAL, FEASIBLE (best found, with bound and gap),
INFEASIBLE (proven: no line meets every goal), UNKNOWN (nothing found within the budget).

The solve builds everything it remembers (the bound object with its cache and plan, the game
hooks) and passes it in: no module state, so two solves in one process answer as two
processes would.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import queue
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from solver.bounds.bound import BOUND_NAMES, make_bound
from solver.bounds.cpsat.bound import BoundPolicy
from solver.bounds.cpsat.relaxation import load_libraries
from solver.bounds.simple import as_bound, decline_phases_left, simple_upper_bound
from solver.engine.state import GameState
from solver.game import HeritageGame
from solver.guidance.policy import PLAN_BONUS, PlanPrior
from solver.polish import PolishConfig, PolishResult, polish
from solver.search.exhaustive import SearchConfig, SearchResult
from solver.search.interrupt import Interrupt
from solver.search.nrpa import NRPA, Incumbent, NRPAConfig
from solver.search.parallel import parallel_search, shut_down
from solver.search.status import Status
from solver.search.tt import DEFAULT_MEMORY_MB

#: The largest budgets a command takes (`--time-limit`, `--node-limit`): about 11 days, a
#: million million nodes.
MAX_SECONDS: Final = 1_000_000.0
MAX_NODES: Final = 10**12


@dataclass(frozen=True)
class SolveConfig:
    """Budget and method switches of a solve (tuned numbers live here, nowhere else).

    :param time_limit: wall-clock seconds for the whole solve (``None``: use `node_limit`).
    :param node_limit: decisions played by NRPA plus nodes of the exact search (deterministic).
    :param workers: processes: NRPA's, and the exact search's when it is not node-limited
        (`solver.search.parallel`).
    :param seed: base seed of the NRPA streams (worker ``w`` uses ``seed * 1000 + w``).
    :param heuristic_share: share of the budget for NRPA; the rest goes to the exact search.
    :param exact: run the exact search after NRPA.
    :param polish_share: share of the budget left when NRPA starts that goes to polishing the
        NRPA line's tail (`solver.polish`: exact searches from the starts of its last turns),
        taken from the exact search's share (from NRPA's only beyond it); 0: no polish.
    :param plan_bonus: with ``bound="cpsat"``, the root relaxation's plan is a playout prior of
        NRPA (`solver.guidance.policy.PlanPrior`; `worker_game`): this many log-odds on each
        option it names; 0: none.
    """

    time_limit: float | None = None
    node_limit: int | None = 200_000
    workers: int = 1
    seed: int = 0
    heuristic_share: float = 0.6
    heuristic_share_far: float = 0.9  # far from the end the exact search rarely finishes
    exact: bool = True
    # Measured (issue 13): NRPA alone, 300k decisions (~15 s of one worker) on T1H1 T2H3 T3H2
    # T4H4 T5H1 T6H2 (deal seed 0), NRPA seeds 0-2: level 2 x 30 iterations (restarting from an
    # empty policy after each level-2 search) 49.0 VP mean, every goal met; 2 x 45 49.5 mean
    # of 17 with one goal missed; seed 0 or 1 only: 2 x 20 41.8, 2 x 60 51.2 of 5 (one missed),
    # 3 x 12 44.0, 1 x 100 38.3.
    # Measured again at the budget a 60 s solve gives each of its 2 workers (session 8: NRPA
    # alone, 4M decisions, seed 0, trials 1-6 x hands 1 and 3, compiled; VP mean of 12, every
    # goal met at 4M): level 2 x 30 59.1, 2 x 60 67.0, 2 x 100 67.4, 3 x 15 63.6; at 3.5M 58.7,
    # 64.2, 65.3, 66.2 (one goal missed). The longer restarts find a first goal-meeting line
    # later (2 x 60 at up to 0.9M decisions, 2 x 100 at 3.3M on t6-h1; 2 x 30 by 0.22M), so
    # the restarts before one is known keep 30 iterations (`nrpa_first_iterations`).
    nrpa_level: int = 2
    nrpa_iterations: int = 60
    nrpa_first_iterations: int = 30
    first_solution: bool = False  # stop at the first goal-meeting line (`heritage check`)
    exact_first_phases: int = 1  # exact search first when this few decline phases are left
    exact_first_share: float = 0.5
    bound: str = "simple"  # "cpsat": the constraint layer's bound, plan and proofs
    bound_policy: BoundPolicy | None = None  # where the cpsat bound asks CP-SAT (None: default)
    root_bound_share: float = 0.25  # the most of a time limit the CP-SAT root bound may take
    plan_bonus: float = PLAN_BONUS  # log-odds NRPA adds to what the root plan names (0: none)
    tt_memory_mb: float | None = DEFAULT_MEMORY_MB  # the exact search's table (None: no cap)
    # Measured (issue 13, pure build on a loaded machine, 60 s, 2 workers, cpsat, 6 deals): 25%
    # taken from NRPA cost more (t1-h1 56 -> 51, t5-h1 44 -> 33, t6-h2 67 -> 62: NRPA still
    # improving) than the polish found (t2-h3 57 -> 59, t4-h4 79 -> 80); the exact search from
    # the root, which the polish replaces far from the end, found nothing in 6 of 6 runs.
    polish_share: float = 0.1

    def __post_init__(self) -> None:
        if self.time_limit is not None and self.time_limit <= 0:
            raise ValueError(f"time limit must be positive, got {self.time_limit}")
        if self.node_limit is not None and self.node_limit <= 0:
            raise ValueError(f"node limit must be positive, got {self.node_limit}")
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, got {self.workers}")
        if self.bound not in BOUND_NAMES:
            raise ValueError(f"bound must be one of {', '.join(BOUND_NAMES)}, got {self.bound!r}")
        if self.bound_policy is not None and self.bound != "cpsat":
            raise ValueError(f"bound_policy is for bound='cpsat', not {self.bound!r}")
        if self.tt_memory_mb is not None and self.tt_memory_mb < 0:
            raise ValueError(f"tt_memory_mb must be at least 0, got {self.tt_memory_mb}")
        if not 0.0 <= self.polish_share < 1.0:
            raise ValueError(f"polish_share must be in [0, 1), got {self.polish_share}")


@dataclass
class Progress:
    """What a live display shows; updated as the solve goes."""

    started: float = field(default_factory=time.monotonic)
    nodes: int = 0
    best_value: float = -math.inf
    best_failed: float = -math.inf
    bound: float = math.inf
    phase: str = "heuristic"
    time_to_best: float = 0.0
    proven_from_turn: int | None = None  # the line's continuation proven optimal from there

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started


@dataclass(frozen=True)
class SolveResult:
    status: Status
    line: list[int]  # actions from the root: the best goal-meeting line (empty if none)
    value: float | None
    failed_line: list[int]  # best line missing a goal, when no goal-meeting line was found
    failed_value: float | None
    bound: float
    nodes: int
    seconds: float
    time_to_best: float
    interrupted: bool = False
    #: A FEASIBLE line's continuation is proven optimal from the start of this turn *on the
    #: line* (the position the line reaches there; `solver.polish`), not the line from the root.
    proven_from_turn: int | None = None

    @property
    def gap(self) -> float | None:
        if self.value is None or math.isinf(self.bound):
            return None
        return max(0.0, self.bound - self.value)


def nrpa_config(cfg: SolveConfig, worker: int, nodes: int | None, seconds: float | None
                ) -> NRPAConfig:
    """The NRPA settings of worker `worker` of a solve with `cfg`: its level, iterations and
    seed, and its share of the budget (`nodes` decisions, `seconds`)."""
    return NRPAConfig(level=cfg.nrpa_level, iterations=cfg.nrpa_iterations,
                      first_iterations=cfg.nrpa_first_iterations, max_nodes=nodes,
                      max_seconds=seconds, seed=cfg.seed * 1000 + worker,
                      stop_when_found=cfg.first_solution)


def _worker(root: GameState, game: HeritageGame, ncfg: NRPAConfig, wid: int, out: Any,
            stop: Any) -> None:
    """Body of one NRPA process: report improvements, then the final incumbent. Ctrl-C is the
    parent's to handle: it sets `stop`, and the worker then sends what it has."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def improve(inc: Incumbent) -> None:
        out.put(("improve", wid, inc.value, inc.failed_value, inc.nodes))

    inc = NRPA(root, ncfg, on_improve=improve, should_stop=stop.is_set, game=game).run()
    out.put(("done", wid, inc))


def worker_game(game: HeritageGame, plan: PlanPrior | None, worker: int, workers: int
                ) -> HeritageGame:
    """The hooks NRPA worker `worker` of `workers` plays with: `game` (its bound and prior) plus
    the relaxation's `plan` as a prior, except on the even-numbered workers of a solve with two
    or more (a portfolio: measured, the plan raises the mean VP but not on every deal)."""
    if plan is None or (workers > 1 and worker % 2 == 0):
        return game if game.plan is None else HeritageGame(game.bound, game.has_prior)
    return HeritageGame(game.bound, game.has_prior, plan)


def run_heuristic(root: GameState, game: HeritageGame, cfg: SolveConfig, progress: Progress,
                  on_progress: Callable[[Progress], None] | None,
                  nodes: int | None, seconds: float | None,
                  interrupt: Interrupt | None = None,
                  plan: PlanPrior | None = None) -> tuple[Incumbent, bool]:
    """NRPA over `cfg.workers` processes (in-process for one worker), each with the hooks of
    `worker_game` (`plan`: plain data, it reaches the processes as it is). The node budget is a
    total: each worker gets its share (a worker stops after the playout that reaches it). Returns
    the best incumbent and whether Ctrl-C (`interrupt`) stopped it."""
    interrupt = interrupt or Interrupt()
    share = None if nodes is None else max(1, nodes // cfg.workers)
    if cfg.workers == 1:
        def improve(inc: Incumbent) -> None:
            progress.nodes = inc.nodes
            progress.best_failed = inc.failed_value
            if inc.found and inc.value > progress.best_value:  # not a line the solve had
                progress.best_value = inc.value
                progress.time_to_best = progress.elapsed
            if on_progress is not None:
                on_progress(progress)

        holder: list[NRPA[GameState]] = []

        def tick() -> bool:
            progress.nodes = holder[0].best.nodes  # keep the live display's node count fresh
            return interrupt.is_set()

        run = NRPA(root, nrpa_config(cfg, 0, share, seconds), on_improve=improve, should_stop=tick,
                   game=worker_game(game, plan, 0, 1))
        holder.append(run)
        inc = run.run()
        progress.nodes = inc.nodes
        return inc, interrupt.is_set()

    ctx = mp.get_context("fork")
    out = ctx.Queue()
    stop = ctx.Event()
    procs = [ctx.Process(target=_worker, args=(root, worker_game(game, plan, w, cfg.workers),
                                               nrpa_config(cfg, w, share, seconds), w, out, stop),
                         daemon=True) for w in range(cfg.workers)]
    for p in procs:
        p.start()
    results: dict[int, Incumbent] = {}
    worker_nodes = [0] * cfg.workers
    try:
        while len(results) < cfg.workers and not interrupt.is_set():
            try:
                msg = out.get(timeout=0.2)
            except queue.Empty:
                if all(not p.is_alive() for p in procs) and out.empty():
                    break
                if on_progress is not None:
                    on_progress(progress)
                continue
            if msg[0] == "improve":
                _, wid, value, failed, n = msg
                worker_nodes[wid] = n
                progress.nodes = sum(worker_nodes)
                if value > progress.best_value:
                    progress.best_value = value
                    progress.time_to_best = progress.elapsed
                progress.best_failed = max(progress.best_failed, failed)
            else:
                _, wid, inc = msg
                results[wid] = inc
                worker_nodes[wid] = inc.nodes
                progress.nodes = sum(worker_nodes)
            if on_progress is not None:
                on_progress(progress)
        if interrupt.is_set():  # Ctrl-C: each worker stops and sends what it has
            stop.set()
            deadline = time.monotonic() + 2.0
            while len(results) < cfg.workers and time.monotonic() < deadline:
                try:
                    msg = out.get(timeout=0.1)
                except queue.Empty:
                    continue
                if msg[0] == "done":
                    results[msg[1]] = msg[2]
    finally:
        shut_down(stop, procs)
    ordered = [results[w] for w in sorted(results)] or [Incumbent()]
    best = ordered[0]
    for inc in ordered[1:]:
        if inc.value > best.value or (not best.found and not inc.found
                                      and inc.failed_value > best.failed_value):
            best = inc
    best.nodes = sum(i.nodes for i in ordered)
    return best, interrupt.is_set()


def _exact(root: GameState, game: HeritageGame, line: Sequence[int], value: float | None,
           nodes: int | None, seconds: float | None, interrupt: Interrupt,
           tt_memory_mb: float | None = DEFAULT_MEMORY_MB, workers: int = 1,
           report: Callable[[int, float], None] | None = None,
           ceiling: float = math.inf) -> SearchResult:
    """Exact branch and bound from `root` with the incumbent; Ctrl-C (`interrupt`) stops it
    like a budget, with the best line it found (FEASIBLE) or none (UNKNOWN). In `workers`
    processes unless node-limited (`solver.search.parallel`: a node-limited solve stays
    deterministic). `report` hears its nodes and best value as it goes (`_exact_report`).
    `ceiling`: the solve's proven bound on `root` (`SearchConfig.ceiling`: a line reaching it
    ends the search at once, proven)."""
    game.bound.start_search(value)
    scfg = SearchConfig(max_nodes=nodes, max_seconds=seconds, should_stop=interrupt.is_set,
                        tt_memory_mb=tt_memory_mb, on_progress=report,
                        ceiling=ceiling if math.isfinite(ceiling) else None)
    return parallel_search(root, scfg, order=game.order(root, line), incumbent=value, game=game,
                           workers=workers)


def _exact_report(progress: Progress, on_progress: Callable[[Progress], None] | None
                  ) -> Callable[[int, float], None] | None:
    """What an exact search tells the live display: its nodes (after those counted so far) and
    a better line's value as it finds one."""
    if on_progress is None:
        return None
    base = progress.nodes

    def report(nodes: int, best: float) -> None:
        progress.nodes = base + nodes
        if best > progress.best_value:
            progress.best_value = best
            progress.time_to_best = progress.elapsed
        on_progress(progress)

    return report


def _polish(root: GameState, game: HeritageGame, line: list[int], value: float,
            nodes: int | None, seconds: float | None, interrupt: Interrupt, progress: Progress,
            on_progress: Callable[[Progress], None] | None,
            tt_memory_mb: float | None, workers: int = 1) -> PolishResult:
    """`solver.polish.polish` of the incumbent with the solve's bound, its progress shown as
    the phase ``polish turn T``; stopped by Ctrl-C like the other phases."""
    base = progress.nodes

    def on_turn(turn: int) -> None:
        progress.phase = f"polish turn {turn}"
        if on_progress is not None:
            on_progress(progress)

    def on_improve(_line: list[int], vp: float) -> None:
        progress.best_value = vp
        progress.time_to_best = progress.elapsed
        if on_progress is not None:
            on_progress(progress)

    pcfg = PolishConfig(nodes=nodes, seconds=seconds, tt_memory_mb=tt_memory_mb, workers=workers)
    res = polish(root, game, line, value, pcfg, should_stop=interrupt.is_set, on_turn=on_turn,
                 on_improve=on_improve)
    progress.nodes = base + res.nodes
    progress.proven_from_turn = res.proven_from_turn
    if on_progress is not None:
        on_progress(progress)
    return res


def _seed(root: GameState, line: Sequence[int]) -> Incumbent:
    """The incumbent a given line makes: its final VP as a goal-meeting line, or as a line that
    misses a goal (an empty line makes none).

    :raises ValueError: an action of `line` is not legal, or the line stops before the end."""
    seed = Incumbent()
    if not line:
        return seed
    st = root.clone()
    for k, action in enumerate(line):
        if action not in st.legal:
            raise ValueError(f"incumbent: action {k + 1} ({action}) is not legal there")
        st.apply(action)
    if not st.is_terminal():
        raise ValueError(
            f"incumbent: the line ends after {len(line)} actions, before the game does")
    if st.feasible():
        seed.value, seed.line = st.value(), list(line)
    else:
        seed.failed_value, seed.failed_line = st.value(), list(line)
    return seed


def solve(root: GameState, cfg: SolveConfig,
          on_progress: Callable[[Progress], None] | None = None,
          incumbent: Sequence[int] = ()) -> SolveResult:
    """Solve from `root` (not changed) with a fresh bound of kind `cfg.bound`. Ctrl-C returns
    the best line found so far.

    Near the end of the game (at most `cfg.exact_first_phases` decline phases left) the exact
    search runs first, with `cfg.exact_first_share` of the budget: small trees are proven at
    once. Otherwise, and if that does not finish, NRPA runs, then the tail polish
    (`solver.polish`), then the exact search again with the best line as incumbent.

    `incumbent`, a whole line from `root` to the end of the game (a player's own continuation,
    `solver.analysis`), is the first incumbent: the line returned never ranks below it (every
    goal met above any goal missed, then VP; ties keep it).

    Ctrl-C (SIGINT, while `solve` runs in the main thread) does not raise: every phase stops
    with what it has (`solver.search.interrupt`), and the result, marked ``interrupted``, holds
    the best line so far. A time limit holds for every phase, the CP-SAT calls included.

    :raises ValueError: `incumbent` is not a legal line to the end of the game."""
    interrupt = Interrupt()
    with interrupt.catching_sigint():
        if cfg.bound == "cpsat":
            load_libraries()  # start-up (~1.5 s the first time), before the solve's clock
        return _solve(root, cfg, on_progress, incumbent, interrupt)


def _solve(root: GameState, cfg: SolveConfig, on_progress: Callable[[Progress], None] | None,
           incumbent: Sequence[int], interrupt: Interrupt) -> SolveResult:
    """The body of `solve`; Ctrl-C raises `interrupt`."""
    start = time.monotonic()
    deadline = None if cfg.time_limit is None else start + cfg.time_limit
    root_seconds = None if cfg.time_limit is None else cfg.time_limit * cfg.root_bound_share
    game = HeritageGame(make_bound(cfg.bound, interrupt, deadline, root_seconds,
                                   cfg.bound_policy))
    progress = Progress()
    progress.bound = as_bound(simple_upper_bound(root, game.bound.pool.facts(root)))
    if on_progress is not None:
        on_progress(progress)
    total_nodes = None if cfg.time_limit is not None else cfg.node_limit
    used = 0
    status = Status.UNKNOWN
    value: float | None = None
    line: list[int] = []
    inc = Incumbent()
    interrupted = False
    proven_from: int | None = None  # a polish's proof of the line's tail (`solver.polish`)
    plan: PlanPrior | None = None
    seed = _seed(root, incumbent)
    if seed.found:
        status, value, line = Status.FEASIBLE, seed.value, list(seed.line)
        progress.best_value = seed.value  # a later line is the best only if it beats this one

    def remaining(share: float) -> tuple[int | None, float | None]:
        n = None if total_nodes is None else max(1, int((total_nodes - used) * share))
        t = None if deadline is None else max(0.05, (deadline - time.monotonic()) * share)
        return n, t

    if root.is_terminal():
        if root.feasible():
            status, value = Status.OPTIMAL, root.value()
        else:
            status = Status.INFEASIBLE
            inc.failed_value = root.value()
    proven = status in (Status.OPTIMAL, Status.INFEASIBLE)
    if not proven and cfg.bound == "cpsat":  # the relaxation may prove the deal infeasible
        progress.phase = "bound"
        if on_progress is not None:
            on_progress(progress)
        rb = game.bound.root(root)
        progress.bound = min(progress.bound, rb.bound)
        if cfg.plan_bonus and (rb.plan or rb.techs):  # NRPA's prior (`worker_game`)
            plan = PlanPrior(tuple((s.turn, s.card, s.space) for s in rb.plan), rb.techs,
                             cfg.plan_bonus)
        if rb.infeasible and value is None:
            status, proven = Status.INFEASIBLE, True
        elif value is not None and rb.bound <= value:
            status, proven = Status.OPTIMAL, True  # the incumbent reaches the bound
        interrupted = interrupt.is_set()
    if not proven and not interrupted and cfg.exact \
            and decline_phases_left(root) <= cfg.exact_first_phases:
        progress.phase = "exact"
        n, t = remaining(cfg.exact_first_share)
        res = _exact(root, game, line, value, n, t, interrupt, cfg.tt_memory_mb, cfg.workers,
                     _exact_report(progress, on_progress), progress.bound)
        interrupted = interrupt.is_set()
        used += res.nodes
        if res.status == Status.OPTIMAL and res.value is not None:
            proven, status = True, Status.OPTIMAL
            value, line = res.value, list(res.line)
            progress.time_to_best = time.monotonic() - start
            progress.best_value = res.value
        elif res.status == Status.INFEASIBLE:  # complete: nothing beats the incumbent
            proven = True
            status = Status.OPTIMAL if value is not None else Status.INFEASIBLE
        elif res.value is not None:
            status, value, line = Status.FEASIBLE, res.value, list(res.line)
            progress.time_to_best = time.monotonic() - start
            progress.best_value = res.value
    polishing = cfg.exact and cfg.polish_share > 0 and not cfg.first_solution
    pol_n, pol_t = remaining(cfg.polish_share)  # reserved before NRPA starts
    if not interrupted and not root.is_terminal() and (not proven or value is None):
        # NRPA: to find lines, or (proven infeasible) the best line that misses a goal.
        if proven:
            n, t = remaining(1.0)
        else:
            far = decline_phases_left(root) > cfg.exact_first_phases + 1
            share = cfg.heuristic_share_far if far else cfg.heuristic_share
            if cfg.exact and polishing:  # the polish's share comes from the exact search's
                share = min(share, 1.0 - cfg.polish_share)
            n, t = remaining(share if cfg.exact else 1.0)
        progress.phase = "heuristic"
        inc, interrupted = run_heuristic(root, game, cfg, progress, on_progress, n, t, interrupt,
                                         plan)
        used += inc.nodes
        if not proven and inc.found and (value is None or inc.value > value):
            status, value, line = Status.FEASIBLE, inc.value, list(inc.line)
    if polishing and not proven and not interrupted and value is not None:
        n, t = remaining(1.0)  # NRPA may have run late: never past the solve's budget
        n = None if n is None or pol_n is None else min(n - 1, pol_n)  # 1 left: the root's
        t = None if t is None or pol_t is None else min(t, pol_t)
        pres = _polish(root, game, line, value, n, t, interrupt, progress, on_progress,
                       cfg.tt_memory_mb, cfg.workers)
        interrupted = interrupt.is_set()
        used += pres.nodes
        line, value, proven_from = pres.line, pres.value, pres.proven_from_turn
    if (cfg.exact and not proven and not interrupted
            and not (cfg.first_solution and value is not None)):
        progress.phase = "exact"
        if on_progress is not None:
            on_progress(progress)
        n, t = remaining(1.0)
        res = _exact(root, game, line, value, n, t, interrupt, cfg.tt_memory_mb, cfg.workers,
                     _exact_report(progress, on_progress), progress.bound)
        interrupted = interrupt.is_set()
        used += res.nodes
        if res.status == Status.OPTIMAL and res.value is not None:
            status, value, line = Status.OPTIMAL, res.value, list(res.line)
            progress.time_to_best = time.monotonic() - start
        elif res.status == Status.INFEASIBLE and not interrupted:
            # Complete search, nothing better than the incumbent: proven.
            status = Status.OPTIMAL if value is not None else Status.INFEASIBLE
        elif res.status == Status.FEASIBLE and res.value is not None:
            status, value, line = Status.FEASIBLE, res.value, list(res.line)
            proven_from = None  # a new line: the polish's proof was about the old one's tail
    if status == Status.FEASIBLE and value is not None and progress.bound <= value:
        status = Status.OPTIMAL  # a line that reaches an upper bound cannot be beaten
    bound = progress.bound
    if status == Status.OPTIMAL and value is not None:
        bound = value
    elif status == Status.INFEASIBLE:
        bound = -math.inf
    if seed.failed_line and (not inc.failed_line or seed.failed_value >= inc.failed_value):
        inc = seed  # no goal met either way: the incumbent line keeps its rank on ties
    return SolveResult(
        status=status, line=line, value=value,
        failed_line=[] if value is not None else list(inc.failed_line),
        failed_value=None if value is not None or not inc.failed_line else inc.failed_value,
        bound=bound, nodes=used, seconds=time.monotonic() - start,
        time_to_best=progress.time_to_best, interrupted=interrupted,
        proven_from_turn=proven_from if status == Status.FEASIBLE else None)
