"""The OpenSpiel adapter (`puzzles.openspiel_game`): OpenSpiel's own conformance check for Python
games, a state that mirrors the engine step by step, the terminal rewards (shaped: NRPA's
ranking of finished lines in [0, 1], issue 13; binary: VP/100 clipped to [0, 1] when every goal
is met, else 0), and OpenSpiel's Python MCTSBot on it (issue: Benchmarks). The tests that need
``open-spiel`` (the optional extra ``bench``) skip without it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pytest

from benchmarks.suite import Instance, load_suite
from puzzles import openspiel_game as og
from solver.engine.actions import ACTION_SPACE
from solver.engine.state import GameState
from solver.game import HeritageGame
from solver.rng import Stream
from solver.search.exhaustive import SearchConfig, search
from solver.search.nrpa import NRPAConfig
from solver.search.playout import random_playout
from solver.search.status import Status

NO_OPENSPIEL = ("open-spiel is not installed (optional extra 'bench': pip install "
                "'heritage[bench]'); its wheel may not exist for this platform")


def pyspiel() -> Any:
    return pytest.importorskip("pyspiel", reason=NO_OPENSPIEL)


@lru_cache(maxsize=8)
def instance(iid: str) -> Instance:
    return load_suite().by_id()[iid]


def optimum(pos: Instance) -> float:
    assert pos.optimum is not None
    return pos.optimum


# ------------------------------------------------------------------ without open-spiel


def test_the_adapter_imports_without_open_spiel_and_says_how_to_get_it(monkeypatch: Any) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now raises ImportError
    assert og.available() is False
    with pytest.raises(og.OpenSpielUnavailable, match=r"pip install 'heritage\[bench\]'"):
        og.load_pyspiel()
    from benchmarks.run import available_contenders

    names, missing = available_contenders()
    for name in ("mcts", "mcts-binary"):
        assert name not in names and "open-spiel is not installed" in missing[name]
    assert names == ["solve", "nrpa", "exact", "random", "greedy"]


@dataclass
class _Terminal:
    """Just what `reward` reads of a finished game."""

    vp: float
    met: bool

    def is_terminal(self) -> bool:
        return True

    def feasible(self) -> bool:
        return self.met

    def value(self) -> float:
        return self.vp


@pytest.mark.parametrize("vp, met, expected", [
    (45, True, 0.45), (100, True, 1.0), (130, True, 1.0), (-7, True, 0.0), (0, True, 0.0),
    (80, False, 0.0),
])
def test_binary_reward_is_vp_over_100_clipped_and_0_when_a_goal_is_missed(
        vp: float, met: bool, expected: float) -> None:
    terminal: Any = _Terminal(vp, met)  # stands in for the OpenSpiel state the rewards read
    assert og.binary_reward(terminal) == pytest.approx(expected)
    assert og.reward(terminal, "binary") == og.binary_reward(terminal)


VPS = (-40.0, -7.0, 0.0, 12.0, 45.0, 59.0, 60.0, 85.0, 100.0, 130.0, 300.0)
SHORTFALLS = (0.0, 1.0, 2.0, 5.0, 20.0)


def test_shaped_reward_ranks_every_goal_meeting_line_above_every_miss_and_stays_in_0_1() -> None:
    met = [og.shaped_value(vp, True, 0.0) for vp in VPS]
    missed = [og.shaped_value(vp, False, s) for vp in VPS for s in SHORTFALLS]
    assert all(0.0 <= r <= 1.0 for r in met + missed)
    assert min(met) >= og.MET_FLOOR > og.MISSED_CEILING >= max(missed)
    assert min(met) > max(missed)


def test_shaped_reward_prefers_more_vp_and_less_shortfall() -> None:
    for lo, hi in zip(VPS, VPS[1:], strict=False):
        assert og.shaped_value(lo, True, 0.0) < og.shaped_value(hi, True, 0.0)
        for s in SHORTFALLS:
            assert og.shaped_value(lo, False, s) < og.shaped_value(hi, False, s)
    for vp in VPS:
        for less, more in zip(SHORTFALLS, SHORTFALLS[1:], strict=False):
            assert og.shaped_value(vp, False, less) > og.shaped_value(vp, False, more)


def test_shaped_reward_is_the_default_and_an_unknown_kind_is_refused() -> None:
    assert (og.reward(_Terminal(60, True))  # type: ignore[arg-type]
            == og.shaped_value(60, True, 0.0))
    assert og.reward(_Terminal(60, True)) > og.reward(_Terminal(59, True))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="reward must be one of shaped, binary"):
        og.reward_function("vp")


def _nrpa_score(st: GameState) -> float:
    """How NRPA scores a finished playout (`solver.search.nrpa.NRPA.playout`)."""
    penalty = NRPAConfig().infeasible_penalty
    return st.value() if st.feasible() else st.value() - penalty - HeritageGame().shortfall(st)


def test_shaped_reward_orders_random_finished_games_as_nrpa_scores_them() -> None:
    """On random games from a trial deal (they miss a goal) and from saved positions near the
    end (some meet every goal), the shaped reward and NRPA's playout score put every pair in
    the same order."""
    finished: list[GameState] = []
    for iid in ("t4-h4-s0", "t4-h4-s0-b4", "t3-h3-s0-b6"):
        root = instance(iid).root()
        for g in range(15):
            st = root.clone()
            random_playout(st, Stream(g, "openspiel-shaped", 0))
            finished.append(st)
    scores = [_nrpa_score(st) for st in finished]
    rewards = [og.shaped_reward(st) for st in finished]
    assert len(set(scores)) > 5 and any(st.feasible() for st in finished) \
        and not all(st.feasible() for st in finished)
    for a in range(len(finished)):
        for b in range(len(finished)):
            if scores[a] < scores[b]:
                assert rewards[a] < rewards[b], (scores[a], scores[b])
            elif scores[a] == scores[b]:
                assert rewards[a] == rewards[b]


# ------------------------------------------------------------------ with open-spiel


def test_open_spiel_random_sim_test_passes_on_the_registered_game() -> None:
    """OpenSpiel's conformance check for Python games, on deals and on a saved position."""
    ps = pyspiel()
    assert og.register() == "python_heritage"
    for params in ({"trial": 4, "hand": "4", "seed": 0}, {"trial": 1, "hand": "2", "seed": 3},
                   {"trial": 0, "hand": "1", "seed": 1}):
        game = ps.load_game("python_heritage", params)
        ps.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    pos = instance("t3-h3-s0-b6")
    game = ps.load_game("python_heritage", {"position": str(pos.file)})
    assert game.root.key() == pos.root().key()
    ps.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_the_game_declares_one_deterministic_player_and_terminal_rewards() -> None:
    ps = pyspiel()
    game = og.make_game(trial=1, hand="1", seed=0)
    gt = game.get_type()
    assert gt.short_name == "python_heritage"
    assert gt.dynamics == ps.GameType.Dynamics.SEQUENTIAL
    assert gt.chance_mode == ps.GameType.ChanceMode.DETERMINISTIC
    assert gt.reward_model == ps.GameType.RewardModel.TERMINAL
    assert game.num_players() == 1
    assert game.num_distinct_actions() == ACTION_SPACE
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    assert game.max_game_length() == og.MAX_GAME_LENGTH


def test_a_state_mirrors_the_engine_and_clones_independently() -> None:
    pyspiel()
    game = og.make_game(trial=4, hand="4", seed=0)
    engine: GameState = game.root.clone()
    state = game.new_initial_state()
    stream = Stream(7, "openspiel-test", 0)
    steps = 0
    while not engine.is_terminal():
        legal = engine.legal_actions()
        assert state.legal_actions() == sorted(legal)
        assert state.current_player() == 0
        a = legal[stream.below(len(legal))]
        assert state.action_to_string(0, a) == engine.action_to_string(a)
        if steps == 20:
            twin = state.clone()
            twin.apply_action(twin.legal_actions()[-1])
            assert len(twin.history()) == steps + 1
            assert og.engine_state(state).key() == engine.key()  # the original did not move
        engine.apply(a)
        state.apply_action(a)
        steps += 1
        assert og.engine_state(state).key() == engine.key()
    assert state.is_terminal() and len(state.history()) == steps
    assert state.returns() == [og.reward(engine)]
    assert game.log.decisions == steps + 1  # the twin's one decision counts too


def test_returns_score_the_optimal_line_and_the_log_keeps_it() -> None:
    pyspiel()
    pos = instance("t1-h1-s0-b4")
    root = pos.root()
    proof = search(root, SearchConfig(), game=HeritageGame())
    assert proof.status == Status.OPTIMAL and proof.value == pos.optimum
    game = og.make_game(root)
    state = game.new_initial_state()
    for a in proof.line:
        state.apply_action(a)
    assert state.is_terminal()
    assert state.returns() == [pytest.approx(og.shaped_value(optimum(pos), True, 0.0))]
    assert state.rewards() == state.returns()
    assert game.log.best_vp == pos.optimum and game.log.best_line == proof.line
    assert game.log.terminals == 1


def test_a_line_that_misses_a_goal_returns_0_with_the_binary_reward() -> None:
    pyspiel()
    game = og.make_game(trial=1, hand="1", seed=0, reward="binary")
    for g in range(50):
        state = game.new_initial_state()
        stream = Stream(g, "openspiel-test", 1)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[stream.below(len(legal))])
        st = og.engine_state(state)
        if not st.feasible():
            assert state.returns() == [0.0]
            assert st.value() != 0  # a real score, ignored because a goal is missed
            return
    pytest.fail("every random game met the goals: no goal-missing line to test")


def test_openspiel_mcts_bot_finds_the_optimum_of_a_small_position() -> None:
    """The Python MCTSBot (UCT, random rollouts) with a fixed number of simulations is
    deterministic given its NumPy seeds; on a small position it reaches the proven optimum."""
    pyspiel()
    import numpy as np
    from open_spiel.python.algorithms import mcts

    pos = instance("t1-h1-s0-b4")
    game = og.make_game(pos.root(), reward="binary")
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=200,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    played = og.engine_state(state)
    assert played.feasible() and played.value() <= optimum(pos)
    assert state.returns() == [pytest.approx(played.value() / 100)]
    assert game.log.best_vp == pos.optimum


def test_the_mcts_baseline_plays_a_whole_game_within_its_budget_share() -> None:
    pyspiel()
    from benchmarks.baselines import mcts
    from benchmarks.run import check

    pos = instance("t3-h3-s0-b6")
    root = pos.root()
    res = mcts(root, 0.5, seed=0)
    assert check(pos, root, res) == "ok"
    assert res.extra["moves"] >= 1 and res.extra["simulations"] >= 2 * res.extra["moves"]
    assert res.vp is not None and res.extra["played_vp"] <= res.vp <= optimum(pos)
    assert res.nodes > 0 and res.trace[-1] == (res.time_to_best, res.vp)


def test_the_game_parameter_reward_picks_the_terminal_reward() -> None:
    ps = pyspiel()
    og.register()
    pos = instance("t1-h1-s0-b4")
    rewards = {}
    for kind in og.REWARDS:
        game = ps.load_game("python_heritage", {"position": str(pos.file), "reward": kind})
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        rewards[kind] = state.returns()[0]
        assert rewards[kind] == og.REWARDS[kind](og.engine_state(state))
    assert rewards["shaped"] != rewards["binary"]
    with pytest.raises(ValueError, match="reward must be one of"):
        og.make_game(pos.root(), reward="vp")


@pytest.mark.parametrize("name", ["mcts", "mcts-binary"])
def test_both_mcts_baselines_play_a_deal_and_a_position(name: str) -> None:
    """A smoke run of the fair (shaped) and the binary MCTS: each plays a whole game from a
    saved position and from a deal on a tiny budget, with lines that replay."""
    pyspiel()
    from benchmarks.baselines import BASELINES
    from benchmarks.run import check

    run = BASELINES[name]
    for iid in ("t4-h4-s0-b4", "t4-h4-s0"):
        inst = instance(iid)
        root = inst.root()
        res = run(root, 0.3, 0)
        assert res.solver == name
        assert check(inst, root, res) == "ok"
        assert res.extra["moves"] >= 1 and 0.0 <= res.extra["played_reward"] <= 1.0
        played_met = res.extra["played_goals_met"]
        if name == "mcts":
            assert (res.extra["played_reward"] >= og.MET_FLOOR) == played_met
        elif not played_met:
            assert res.extra["played_reward"] == 0.0
