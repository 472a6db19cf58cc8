"""The contenders of `heritage bench`: our search methods and three baselines, one interface.

Every contender is a function ``run(root, budget, seed) -> RunResult``: it plays from `root`
(never changed) for at most `budget` wall-clock seconds and reports the best line it found that
meets every goal chest (RULES.md section 8), with its VP, when it found it and what it did.

Our methods (`solver.solve`, `solver.search`):

* ``solve``: the full solver: NRPA for 60% of the budget, then exact branch and bound seeded
  with its line (`solver.solve.solve`, one worker).
* ``nrpa``: NRPA alone (`solver.search.nrpa`), restarts until the budget runs out.
* ``exact``: the exact branch and bound alone (`solver.search.exhaustive.search`, dominance
  rules, no incumbent). It reports no anytime points: its line counts from the end of its run.

Baselines:

* ``random``: uniform random play, best of as many whole games as fit in the budget.
* ``greedy``: a one-step greedy policy: at each decision, try every option and keep the one whose
  position scores best by `greedy_score` (the score sheet so far, minus a penalty per unit of
  goal shortfall); the first game breaks ties by option order, later games (as many as fit)
  break them at random.
* ``mcts``: OpenSpiel's Python ``MCTSBot`` (UCT, random-rollout evaluator) playing our engine
  through the OpenSpiel adapter (`puzzles.openspiel_game`), move by move, each move given an
  equal share of the time left (see `mcts`), with the shaped terminal reward: NRPA's ranking of
  finished lines (every goal met first, VP second, goal shortfall among misses) scaled to
  [0, 1] (`puzzles.openspiel_game.shaped_reward`), the fair comparison with our searches.
  Needs the optional ``open-spiel`` package.
* ``mcts-binary``: the same with the reward before issue 13 (VP/100, 0 for any missed goal:
  `puzzles.openspiel_game.binary_reward`), kept for the record: far from the end, where most
  rollouts miss a goal, it gives UCT nothing to follow.

A result's ``status`` uses the solver words (`solver.search.status.Status`): baselines say
FEASIBLE (a goal-meeting line) or UNKNOWN; only ``solve`` and ``exact`` can prove anything.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from puzzles.openspiel_game import load_pyspiel, make_game
from solver.engine.goal_check import goal_shortfall
from solver.engine.state import GameState
from solver.rng import Stream
from solver.search.playout import greedy_playout, random_playout
from solver.search.status import Status


@dataclass(frozen=True)
class BaselineConfig:
    """Tuned numbers of the baselines, in one place.

    :param goal_weight: greedy: VP a unit of goal shortfall (`GameState.goal_shortfall`) costs.
    :param missed_goal_penalty: greedy: subtracted from a finished game that misses a goal.
    :param uct_c: MCTS exploration constant (OpenSpiel's examples use 2).
    :param rollouts: MCTS random rollouts per leaf evaluation.
    :param min_simulations: MCTS simulations per move at least (OpenSpiel's ``MCTSBot`` needs 2
        to expand the root: the first only evaluates it).
    :param length_share: MCTS plans its time over this share of the moves it expects to be
        left (games vary in length; planning over all of them leaves time unused).
    """

    goal_weight: float = 10.0
    missed_goal_penalty: float = 1000.0
    uct_c: float = 2.0
    rollouts: int = 1
    min_simulations: int = 2
    length_share: float = 0.8


DEFAULT = BaselineConfig()


@dataclass
class RunResult:
    """What one contender did on one instance.

    :param vp: VP of the best line meeting every goal (None: no such line found).
    :param line: its actions from the root (engine codes).
    :param bound: an upper bound on the optimum, from the methods that compute one.
    :param time_to_best: seconds from the start to the best line (None when not known).
    :param nodes: work done: decisions applied (playouts, greedy look-ahead, MCTS through the
        adapter) or positions visited (exact search); ``solve`` counts both.
    :param trace: ``(seconds, VP)`` each time the best goal-meeting VP improved (anytime profile).
    :param failed_vp: VP of the best line missing a goal, when no goal-meeting line was found.
    """

    solver: str
    status: Status
    vp: float | None
    line: list[int]
    bound: float | None
    time_to_best: float | None
    nodes: int
    seconds: float
    trace: list[tuple[float, float]] = field(default_factory=list)
    failed_vp: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def goals_met(self) -> bool:
        return self.vp is not None


Runner = Callable[[GameState, float, int], RunResult]


class _Best:
    """The best goal-meeting and goal-missing lines seen by a playout baseline."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.vp = -math.inf
        self.line: list[int] = []
        self.found_at: float | None = None
        self.failed = -math.inf
        self.trace: list[tuple[float, float]] = []

    def offer(self, st: GameState, line: list[int]) -> None:
        value = st.value()
        if st.feasible():
            if value > self.vp:
                self.vp, self.line = value, line
                self.found_at = time.monotonic() - self.start
                self.trace.append((self.found_at, value))
        elif value > self.failed:
            self.failed = value

    def result(self, solver: str, nodes: int, extra: dict[str, Any]) -> RunResult:
        found = self.vp > -math.inf
        return RunResult(
            solver=solver, status=Status.FEASIBLE if found else Status.UNKNOWN,
            vp=self.vp if found else None, line=self.line, bound=None,
            time_to_best=self.found_at, nodes=nodes, seconds=time.monotonic() - self.start,
            trace=self.trace, failed_vp=None if found or self.failed == -math.inf else self.failed,
            extra=extra)


def best_of_games(name: str, budget: float,
                  play: Callable[[int], tuple[GameState, list[int], int]]) -> RunResult:
    """Whole games until `budget` seconds have passed (at least one): ``play(k)`` plays game
    ``k`` and returns its last position, its line and the decisions it applied or evaluated;
    the result is the best line (`_Best`), with the games played in ``extra``."""
    best = _Best()
    deadline = best.start + budget
    nodes = games = 0
    while games == 0 or time.monotonic() < deadline:
        st, line, work = play(games)
        nodes += work
        games += 1
        best.offer(st, line)
    return best.result(name, nodes, {"games": games})


def random_play(root: GameState, budget: float, seed: int) -> RunResult:
    """Uniform random play (each legal option equally likely, stream ``(seed, "bench-random")``,
    `solver.search.playout.random_playout`), best of as many whole games as fit in `budget`
    (at least one)."""
    stream = Stream(seed, "bench-random", 0)

    def play(_: int) -> tuple[GameState, list[int], int]:
        st = root.clone()
        line = random_playout(st, stream)
        return st, line, len(line)

    return best_of_games("random", budget, play)


def greedy_score(st: GameState, cfg: BaselineConfig = DEFAULT) -> float:
    """The greedy policy's view of a position: the score sheet so far (RULES.md section 7) minus
    `goal_weight` per unit of goal shortfall (section 8); a finished game that misses a goal
    also loses `missed_goal_penalty`."""
    if st.is_terminal():
        value = st.value()
        return value if st.feasible() else (
            value - cfg.missed_goal_penalty - cfg.goal_weight * goal_shortfall(st))
    return float(st.score().total) - cfg.goal_weight * goal_shortfall(st)


def greedy(root: GameState, budget: float, seed: int, cfg: BaselineConfig = DEFAULT) -> RunResult:
    """One-step greedy play (module docstring, `solver.search.playout.greedy_playout`): first
    game ties by option order, later games ties at random (stream ``(seed, "bench-greedy")``),
    as many as fit in `budget`."""
    stream = Stream(seed, "bench-greedy", 0)

    def score(st: GameState) -> float:
        return greedy_score(st, cfg)

    def play(game: int) -> tuple[GameState, list[int], int]:
        p = greedy_playout(root.clone(), score, None if game == 0 else stream)
        return p.state, p.line, p.evaluated

    return best_of_games("greedy", budget, play)


def mcts(root: GameState, budget: float, seed: int, cfg: BaselineConfig = DEFAULT) -> RunResult:
    """OpenSpiel's MCTS with the shaped reward (`puzzles.openspiel_game.shaped_reward`: every
    goal met first, VP second, scaled to [0, 1]); see `run_mcts`."""
    return run_mcts(root, budget, seed, "shaped", cfg)


def mcts_binary(root: GameState, budget: float, seed: int,
                cfg: BaselineConfig = DEFAULT) -> RunResult:
    """OpenSpiel's MCTS with the binary reward (`puzzles.openspiel_game.binary_reward`: VP/100
    clipped to [0, 1], 0 when a goal is missed); see `run_mcts`."""
    return run_mcts(root, budget, seed, "binary", cfg)


def run_mcts(root: GameState, budget: float, seed: int, reward: str,
             cfg: BaselineConfig = DEFAULT) -> RunResult:
    """OpenSpiel's Python ``MCTSBot`` with ``RandomRolloutEvaluator`` playing one game on our
    engine (`puzzles.openspiel_game`) with the terminal reward named `reward` (``"shaped"``:
    the contender ``mcts``; ``"binary"``: ``mcts-binary``).

    Time: OpenSpiel's bot takes a number of simulations, not a time; before each move the
    simulations are set to ``(time left / (length_share * moves left)) * simulations per
    second``, where the moves left are estimated from the mean length of the games its rollouts
    finished and the rate is measured as it goes (at least `cfg.min_simulations`, so the played game
    is finished even after the budget: a late move costs a few milliseconds). Both random
    streams are NumPy ``RandomState(seed)``.

    The result is the best goal-meeting line the run reached, whether the game the bot played
    or one of its rollouts (every rollout is a whole line of the game); ``extra`` has the
    played game's VP and whether it met the goals.

    :raises OpenSpielUnavailable: open-spiel is not installed."""
    import numpy as np  # lazy: only MCTS needs NumPy's random state

    load_pyspiel()
    from open_spiel.python.algorithms import mcts as os_mcts  # lazy: open-spiel is optional

    start = time.monotonic()
    deadline = start + budget
    game = make_game(root, reward=reward)
    log = game.log
    log.started = start
    evaluator = os_mcts.RandomRolloutEvaluator(n_rollouts=cfg.rollouts,
                                               random_state=np.random.RandomState(seed))
    bot = os_mcts.MCTSBot(game, uct_c=cfg.uct_c, max_simulations=cfg.min_simulations,
                          evaluator=evaluator, random_state=np.random.RandomState(seed))
    state = game.new_initial_state()
    # Calibrate: one rollout from the root gives a game length and a simulation's cost.
    t0 = time.monotonic()
    evaluator.evaluate(state)
    rate = 1.0 / max(1e-6, time.monotonic() - t0)
    mean_length = float(max(1, log.decisions))
    sims = 1
    search_time = time.monotonic() - t0
    moves = 0
    while not state.is_terminal():
        left = deadline - time.monotonic()
        moves_left = max(1.0, cfg.length_share * (mean_length - len(state.history())))
        n = (max(cfg.min_simulations, int(left / moves_left * rate)) if left > 0
             else cfg.min_simulations)
        bot.max_simulations = n
        terminals_before, decisions_before = log.terminals, log.decisions
        t0 = time.monotonic()
        action = bot.step(state)
        search_time += time.monotonic() - t0
        sims += log.terminals - terminals_before  # one finished line per simulation; a
        rate = sims / max(1e-6, search_time)      # solved root stops the bot early
        if log.terminals > terminals_before:
            # Mean length of a finished game, from the rollouts of this move.
            done = log.terminals - terminals_before
            per = (log.decisions - decisions_before) / done + len(state.history())
            mean_length = 0.8 * mean_length + 0.2 * per
        state.apply_action(action)
        moves += 1
    played = state.engine.st
    found = log.best_vp > -math.inf
    failed = None if found else played.value()
    return RunResult(
        solver="mcts" if reward == "shaped" else f"mcts-{reward}",
        status=Status.FEASIBLE if found else Status.UNKNOWN,
        vp=log.best_vp if found else None, line=list(log.best_line), bound=None,
        time_to_best=log.found_at if found else None, nodes=log.decisions,
        seconds=time.monotonic() - start, trace=list(log.improvements), failed_vp=failed,
        extra={"simulations": sims, "moves": moves, "played_vp": played.value(),
               "played_goals_met": played.feasible(), "played_reward": game.reward_of(played),
               "rollout_terminals": log.terminals})


BASELINES: dict[str, Runner] = {"random": random_play, "greedy": greedy, "mcts": mcts,
                                "mcts-binary": mcts_binary}
#: The baselines that need the optional ``open-spiel`` package.
OPENSPIEL_BASELINES = ("mcts", "mcts-binary")
