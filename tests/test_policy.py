"""The NRPA prior of the solo game (`solver.guidance.policy`): the precomputed factors are the
``exp`` of the documented log-odds, the codes are the per-action codes, and the relaxation's
plan (`PlanPrior`) only raises the odds of what it names: no option is ever dropped."""

from __future__ import annotations

import math
import pickle
from collections.abc import Iterator

import pytest

from puzzles.trials import trial_setup
from solver import solve as solve_module
from solver.engine import actions as A
from solver.engine.frames import (
    D_ACTION,
    D_CHEST_WINDOW,
    D_CREATE_CARD,
    D_CREATE_SPACE,
    D_LEARN,
)
from solver.engine.newgame import new_game
from solver.engine.state import GameState
from solver.game import HeritageGame
from solver.guidance import policy
from solver.guidance.policy import PlanPrior
from solver.rng import Stream
from solver.search.nrpa import NRPA, NRPAConfig
from solver.solve import SolveConfig, worker_game
from tests.builder import book


def decisions(games: int = 3) -> Iterator[GameState]:
    """Every decision of a few random games of trial 1 (each position yielded before its move)."""
    for g in range(games):
        st = new_game(trial_setup(1 + g % 6, hand=str(1 + g % 4), seed=g), book())
        stream = Stream(g, "policy-test", 0)
        while not st.is_terminal():
            yield st
            legal = st.legal_actions()
            st.apply(legal[stream.below(len(legal))])


def plan_of(st: GameState) -> PlanPrior:
    """A plan naming every card in hand and every technology on offer (a plan always 'due')."""
    creates = tuple((1, c, 1 + c % 6) for c in st.hand)
    return PlanPrior(creates, tuple(st.available_techs()), 1.5)


def test_factors_are_the_exp_of_the_log_odds_and_codes_the_per_action_codes() -> None:
    seen = 0
    for st in decisions():
        legal = st.legal_actions()
        assert policy.codes(st, legal) == [policy.code(st, a) for a in legal]
        fs = policy.factors(st, legal)
        expected = [math.exp(policy.bias(st, a)) for a in legal]
        if fs is None:
            assert expected == [1.0] * len(legal)
        else:
            seen += 1
            assert fs == pytest.approx(expected, rel=1e-12)
    assert seen > 50


def test_choice_gives_the_codes_and_the_factors_in_one_call() -> None:
    """`policy.choice` (NRPA's one call per decision, through `HeritageGame.policy_choice`,
    which remembers the choices that read only the options) gives exactly `codes` and
    `factors`, with and without a plan, whether remembered or not."""
    game, fixed = HeritageGame(), None
    for st in decisions(games=4):
        legal = st.legal_actions()
        plan = plan_of(st)
        if fixed is None:  # one plan for the whole run: its remembered choices are reused
            fixed = HeritageGame(plan=plan)
        assert fixed.policy_choice(st, legal) == policy.choice(st, legal, fixed.plan)
        assert policy.choice(st, legal) == (policy.codes(st, legal), policy.factors(st, legal))
        cs, fs = policy.choice(st, legal, plan)
        assert cs == [policy.code(st, a) for a in legal]
        expected = [math.exp(policy.bias(st, a)) for a in legal]
        with_plan = fs or [1.0] * len(legal)
        assert all(w == pytest.approx(e) or w == pytest.approx(e * math.exp(1.5))
                   for w, e in zip(with_plan, expected, strict=True))
        assert game.policy_choice(st, legal) == (game.policy_codes(st, legal),
                                                 game.policy_factors(st, legal))
        planned = HeritageGame(plan=plan)
        assert planned.policy_choice(st, legal) == (planned.policy_codes(st, legal),
                                                    planned.policy_factors(st, legal))


def test_a_code_names_the_kind_and_the_action_and_a_chest_also_the_turn() -> None:
    """A code reads back as the pending decision's kind and the action (no two options, nor
    two kinds, share one: a chest's option at the action choice once shared the code of an
    action, chest Б that of Learn); a lightning chest's options (at a window, and before an
    action) also name the turn, so NRPA learns in which turn a chest pays (RULES.md section 8:
    used once, at any moment; in turn 1 a chest that removes knowledge finds no monument).
    Their prior odds are ``exp(CHEST_PRIOR)`` against "done" or an action of no prior. Every
    other code is the same in every turn, and `HeritageGame.policy_choice` remembers no code
    that names a turn."""
    game = HeritageGame()
    chest_codes: dict[tuple[int, ...], dict[int, tuple[int, ...]]] = {}
    others: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
    st = new_game(trial_setup(3, hand="2", seed=0), book())  # chests В, Ж, З
    stream = Stream(0, "policy-test", 0)
    chest = math.exp(policy.CHEST_PRIOR)
    while not st.is_terminal():
        legal = st.legal_actions()
        kind = st.stack[-1][0]
        cs, fs = policy.choice(st, legal)
        assert game.policy_choice(st, legal) == (cs, fs)
        assert [(c >> policy.CODE_SHIFT) & 0xFF for c in cs] == [kind] * len(legal)
        assert [c & ((1 << policy.CODE_SHIFT) - 1) for c in cs] == legal
        offered = [a >= policy.FIRST_CHEST for a in legal]
        if any(offered):
            assert kind in (D_ACTION, D_CHEST_WINDOW) and fs is not None
            named = [c >> policy.TURN_SHIFT for c in cs]
            assert named == [st.turn if o or kind == D_CHEST_WINDOW else 0 for o in offered]
            assert [f for f, o in zip(fs, offered, strict=True) if o] == [chest] * sum(offered)
            if kind == D_CHEST_WINDOW:
                assert [f for f, o in zip(fs, offered, strict=True) if not o] == [1.0]
            chest_codes.setdefault((kind, *legal), {})[st.turn] = tuple(cs)
        else:
            assert all(c >> policy.TURN_SHIFT == 0 for c in cs)
            if kind != D_CREATE_SPACE:
                others.setdefault((kind, *legal), set()).add(tuple(cs))
        # random play that keeps its chests, so that they are offered turn after turn
        keep = [a for a, o in zip(legal, offered, strict=True) if not o]
        st.apply(keep[stream.below(len(keep))])
    recurring = [turns for turns in chest_codes.values() if len(turns) > 1]
    assert {k[0] for k in chest_codes if len(chest_codes[k]) > 1} == {D_ACTION, D_CHEST_WINDOW}
    for turns in recurring:
        assert len(set(turns.values())) == len(turns)  # each turn its own codes
    assert others and all(len(seen) == 1 for seen in others.values())


def test_a_plan_raises_what_it_names_and_drops_nothing() -> None:
    kinds = set()
    for st in decisions():
        legal = st.legal_actions()
        plan = plan_of(st)
        base = policy.factors(st, legal) or [1.0] * len(legal)
        with_plan = policy.factors(st, legal, plan) or [1.0] * len(legal)
        assert len(with_plan) == len(legal) and all(f > 0 for f in with_plan)
        ratios = [w / b for w, b in zip(with_plan, base, strict=True)]
        assert all(r == pytest.approx(1.0) or r == pytest.approx(math.exp(1.5)) for r in ratios)
        fr = st.stack[-1]
        named: set[int] = set()
        if fr[0] == D_ACTION:
            named = {A.ACT_CREATE} if st.hand else set()
            if st.available_techs():
                named.add(A.ACT_LEARN)
        elif fr[0] == D_CREATE_CARD:
            named = {A.code(A.CARD, c) for c in st.hand}
        elif fr[0] == D_CREATE_SPACE:
            named = {A.code(A.SPACE, 1 + fr[1] % 6)} if fr[1] in st.hand else set()
        elif fr[0] == D_LEARN:
            named = {A.code(A.CARD, t) for t in st.available_techs()}
        else:
            assert ratios == pytest.approx([1.0] * len(legal))
            continue
        kinds.add(fr[0])
        raised = {a for a, r in zip(legal, ratios, strict=True) if r > 1.0 + 1e-9}
        assert raised == named & set(legal), (fr, legal)
    assert {D_ACTION, D_CREATE_CARD, D_CREATE_SPACE} <= kinds


def test_a_plan_prior_is_plain_data_that_pickles() -> None:
    plan = PlanPrior(((3, 17, 2), (5, 17, 4), (2, 9, 0)), (40, 41), 2.0)
    back = pickle.loads(pickle.dumps(plan))
    assert back == plan and back.due == {17: 3, 9: 2} and back.factor == math.exp(2.0)
    assert back.spaces == {17: (A.code(A.SPACE, 2), A.code(A.SPACE, 4))}
    assert PlanPrior().empty and not plan.empty


def test_nrpa_with_a_plan_prior_plays_legal_lines() -> None:
    root = new_game(trial_setup(1, hand="1", seed=0), book())
    game = HeritageGame(plan=plan_of(root))
    inc = NRPA(root, NRPAConfig(max_nodes=3_000, seed=0), game=game).run()
    line = inc.line or inc.failed_line
    st = root.clone()
    for a in line:
        st.apply(a)
    assert st.is_terminal() and st.value() == (inc.value if inc.found else inc.failed_value)


def test_worker_games_a_portfolio_with_and_without_the_plan() -> None:
    plan = PlanPrior(((3, 17, 2),), (40,))
    game = HeritageGame()
    assert worker_game(game, plan, 0, 1).plan == plan  # one worker: the plan
    assert [worker_game(game, plan, w, 3).plan for w in range(3)] == [None, plan, None]
    assert worker_game(game, None, 1, 2) is game
    assert all(worker_game(game, plan, w, 2).bound is game.bound for w in range(2))


def test_a_cpsat_solve_hands_the_root_plan_to_nrpa(monkeypatch: pytest.MonkeyPatch) -> None:
    """`bound="cpsat"`: the root relaxation's plan reaches NRPA as a `PlanPrior` (unless
    ``plan_bonus=0``); it is plain data (it pickles). The position is one where the root call
    finds an assignment within its budget (random play to turn 13 of trial 1, seed 2): on
    many random positions, where the goals are barely in reach, it finds none in 1.0
    deterministic s, and NRPA then runs without a plan (seed 0's position lost its plan to
    session 28's constraints near the end, seed 1's at turn 14 to session 49's larger model:
    the deal rule now binds where Candi Kethek could be created; seed 1's at turn 13 to
    session 53's net draws of Moai Statue, A7, its bound 124 -> 114). Seed 2's positions at
    turns 12 and 13 find one for each of three playout streams."""
    st = new_game(trial_setup(1, hand="1", seed=2), book())
    stream = Stream(0, "policy-test", 0)
    while st.turn < 13 or st.stack[-1][0] != D_ACTION:
        legal = st.legal_actions()
        st.apply(legal[stream.below(len(legal))])
    seen: list[PlanPrior | None] = []
    original = solve_module.run_heuristic

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(args[-1])  # type: ignore[arg-type]
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(solve_module, "run_heuristic", spy)
    for bonus in (2.0, 0.0):
        solve_module.solve(st, SolveConfig(node_limit=500, bound="cpsat", exact=False,
                                           plan_bonus=bonus))
    plan, none = seen
    assert none is None and plan is not None and not plan.empty and plan.bonus == 2.0
    assert pickle.loads(pickle.dumps(plan)) == plan
