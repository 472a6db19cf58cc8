"""The constraint layer (solver/constraints): the schedule, the relaxation's soundness against
exact search, INFEASIBLE proofs, the cached bound API, plan hints and the solver switch.

Soundness is the point: on many small end-game positions (1-2 turns left, few cards, sometimes
a goal chest), the exact optimum found by branch and bound with the *simple* bound (independent
of this layer) is never above the relaxation's bound, and the relaxation never says INFEASIBLE
where a goal-meeting line exists.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from typer.testing import CliRunner

from benchmarks.prove_from import given_lines
from cli.app import app
from puzzles.cardsets import load_book
from puzzles.chests import load_chests
from puzzles.trials import with_trial
from solver.bounds.cpsat.bound import BoundCache, CpsatBound, plan_order, relaxed_bound
from solver.bounds.cpsat.relaxation import PlanStep, Relaxation, RelaxConfig, relax
from solver.bounds.cpsat.resources import (
    Gains,
    UnsupportedCardError,
    effect_gains,
    hand_payment,
    step_gains,
    steps_gains,
    typed_payment,
)
from solver.bounds.cpsat.schedule import END, TechGraph, build_schedule, phase_of
from solver.bounds.simple import simple_upper_bound
from solver.engine import actions as A
from solver.engine.actions import CHEST_LETTERS
from solver.engine.cards import ARTIFACT, PYRAMID, Step
from solver.engine.newgame import new_game
from solver.engine.record import GameRecord, dumps
from solver.engine.setup import Setup
from solver.engine.state import CHEST_BASE, EMPTY, GameState
from solver.game import HeritageGame
from solver.guidance.dominance import prune
from solver.rng import Stream
from solver.search.exhaustive import SearchConfig, search
from solver.search.status import Status
from solver.solve import SolveConfig, solve
from tests.builder import book, idx, play, position

KEPT_LINES = Path(__file__).resolve().parent.parent / "benchmarks" / "lines" / "session5-t60.jsonl"

EXACT_NODES = 5_000  # most generated positions are searched through within this
GOALS = ("", "", "", "", "", "", "А", "Г", "Д", "Е", "О", "В", "Л", "П")  # met and missed
CFG = RelaxConfig(max_deterministic_time=0.3)


def with_goal(st: GameState, letter: str) -> GameState:
    """`st` with a goal chest in the first free artifact space (RULES.md section 8)."""
    st.setup = Setup(hand="1", seed=0, dice=(1,) * 16, goals=(letter,), chest_data=load_chests())
    k = CHEST_LETTERS.index(letter)
    st.goal_chests = [k]
    st.artifacts[st.artifacts.index(EMPTY)] = CHEST_BASE + k
    return st


def endgame(seed: int) -> GameState:
    """A small end-game position: 1 or 2 turns left (the time card in space 1 or 2 with two
    visits done, RULES.md section 4C / D8), up to 3 cards in hand, 3 Timeline monuments, a Past,
    maybe an artifact, technologies on the tiles, one of them owned, maybe a goal chest."""
    b = book()
    rng = Stream(seed, "relaxation-position", 0)
    builders = [c for c in b.cards if not c.is_tech]
    monuments = [c for c in builders if c.is_monument]
    artifacts = [c for c in builders if c.is_artifact]
    turns_left = 2 if rng.below(3) == 0 else 1
    pick = rng.shuffled([c.code for c in builders])
    hand = pick[: 1 + rng.below(3) if turns_left == 1 else 1]
    rest = [c.code for c in rng.shuffled(monuments) if c.code not in hand]
    timeline: dict[int, list[str]] = {}
    for code in rest[:3]:
        s = 1 + rng.below(3)
        if len(timeline.get(s, [])) < 2 - (1 if s == turns_left else 0):
            timeline.setdefault(s, []).append(code)
    tokens = {code: rng.below(4) for items in timeline.values() for code in items}
    past = rest[3:3 + rng.below(5)]
    board = [a.code for a in rng.shuffled(artifacts) if a.code not in hand][: rng.below(2)]
    level1 = rng.shuffled([t.code for t in b.cards if t.is_tech and t.level == 1])
    level2 = rng.shuffled([t.code for t in b.cards if t.is_tech and t.level == 2])
    tiles: list[str | None] = [None] * 9
    if turns_left == 1:
        for k in range(rng.below(3)):
            tiles[k] = level1[k]
        for k in range(rng.below(3)):
            tiles[6 + k] = level2[k]
    used = set(hand) | {c for v in timeline.values() for c in v} | set(past) | set(board)
    st = position(hand=hand, timeline=timeline, tokens=tokens, past=past,
                  rotated=rng.below(len(past) + 1), artifacts=board, lost=rng.below(4),
                  techs=level1[5:5 + rng.below(2)], tiles=tiles, time_space=turns_left,
                  time_visits=2, turn=17 - turns_left,
                  deck_top=[c for c in pick if c not in used][:6])
    goal = GOALS[rng.below(len(GOALS))]
    return with_goal(st, goal) if goal else st


def exact(st: GameState, nodes: int = EXACT_NODES) -> tuple[bool, float | None]:
    """(complete, best goal-meeting VP) by branch and bound with the simple bound and the
    dominance rules (both independent of the constraint layer)."""
    res = search(st.clone(), SearchConfig(max_nodes=nodes), order=prune, game=HeritageGame())
    return res.status in (Status.OPTIMAL, Status.INFEASIBLE), res.value


def check_sound(seed: int) -> None:
    st = endgame(seed)
    complete, best = exact(st)
    r = relaxed_bound(st, CFG, cache=None)
    assert r.bound <= simple_upper_bound(st) or r.source == "exact"
    if not complete:
        return
    if best is None:
        return  # infeasible: any answer of the relaxation is sound
    assert not r.infeasible, f"seed {seed}: relaxation says INFEASIBLE, a line scores {best}"
    assert r.bound >= best, f"seed {seed}: bound {r.bound} below the optimum {best}"


# ------------------------------------------------------------------ the schedule


def test_schedule_of_a_new_game() -> None:
    """16 turns from space 4 (RULES.md section 4); the time card is in space 1 at the decline
    phases of turns 4 and 10 (one monument there), the 3rd time (turn 16) ends the game (D8)."""
    st = new_game(Setup(hand="1", seed=0), book())
    phase = phase_of(st)
    assert phase is not None and phase.actions == 2 and phase.timeline and phase.decline
    sch = build_schedule(st, phase, potala=False)
    assert [s.turn for s in sch.slots] == list(range(1, 17))
    assert sch.decline_slots == tuple(range(15))
    assert sch.slots[-1].ends and not sch.slots[-1].decline
    assert [s.turn for s in sch.slots if s.decline and s.cap == 1] == [4, 10]
    assert sch.actions == 32 and sch.timeline_phases == 16
    assert build_schedule(st, phase, potala=True).slots[3].cap == 2  # D12's third row


def test_timeline_graph_fates() -> None:
    """A monument in space s at turn u declines at u + s - 1 (section 4C step 3)."""
    st = new_game(Setup(hand="1", seed=0), book())
    phase = phase_of(st)
    assert phase is not None
    g = build_schedule(st, phase, potala=False).graph
    assert g.decline_slot(0, 3) == 2  # created turn 1 in space 3: declines turn 3
    assert g.decline_slot(10, 5) == 14  # turn 11, space 5: turn 15, the last decline
    assert g.fate(11, 5) == END  # turn 12, space 5: still there at the end
    assert g.fate(15, 1) == END  # created on the last turn


def test_schedule_after_potala_this_turn() -> None:
    """Potala Palace created this turn: no monument declines or slides (C30); the time card
    still does."""
    st = position(timeline={1: ["C7"], 2: ["M1"]}, time_space=3, turn=5, time_visits=1)
    st.potala = True
    phase = phase_of(st)
    assert phase is not None
    sch = build_schedule(st, phase, potala=True)
    assert not sch.slots[0].decline and sch.offset == 1
    assert sch.graph.decline_slot(0, 1) == 1  # C7 declines next turn instead
    assert sch.slots[1].time_space == 2  # the time card slid from 3 to 2 anyway


def test_phase_boundaries() -> None:
    st = new_game(Setup(hand="draw", seed=3), book())
    ph = phase_of(st)
    assert ph is not None and ph.setup and ph.hand == 6  # draw 10, keep 6
    st = position(hand=["C12", "M2", "P1"], turn=3, time_space=3)
    assert phase_of(st) == phase_of(st.clone())
    play(st, "create")
    assert phase_of(st) is None  # inside an action: not a phase boundary
    play(st, "C12", "s1")
    ph = phase_of(st)
    assert ph is not None and ph.actions == 1


def test_technology_graph_drops_what_cannot_be_learned() -> None:
    """Golden Mean (T34) needs 3 Past cities: with at most 2, it cannot be learned; Pliny the
    Elder (T33) needs 3 *other* ancient technologies (the fixpoint over the graph)."""
    b = book()
    t33, t34 = idx(b, "T33"), idx(b, "T34")
    ancients = [idx(b, c) for c in ("T1", "T2", "T3")]
    g = TechGraph(b, [t33, t34, *ancients[:2]])
    caps = {"past.city": 2}
    assert g.learnable(caps, owned=[], relax=0, free_learns=0) == sorted(ancients[:2])
    assert t33 in g.learnable(caps, owned=[ancients[2]], relax=0, free_learns=0)
    assert t34 in g.learnable(caps, owned=[], relax=1, free_learns=0)  # Candi Sukuh (D19)
    assert t34 in g.learnable(caps, owned=[], relax=0, free_learns=1)  # Montguyon (M34)


def test_resources_per_activation() -> None:
    b = load_book(["base"])
    jericho = b.lookup("C17")
    thales = b.lookup("T4")
    assert jericho is not None and thales is not None
    assert effect_gains(jericho.effects[0], 189).draw == 6
    g = effect_gains(thales.effects[0], 189)
    assert (g.draw, g.depth) == (1, 8)  # looks at 8, keeps 1
    with pytest.raises(UnsupportedCardError):
        step_gains(Step(op="teleport"), 189)


def test_a_draw_paid_with_cards_from_the_hand_counts_net_of_them() -> None:
    """Moai Statue (A7: discard 2 artifact cards, draw 4) and A8 (discard 1, draw 1) bring
    their draws into the hand net of the cards paid, and take all of them off the deck; a
    payment of up to N (T17: it may be smaller) and one with no draw (A3) count as before."""
    b = load_book(["base"])

    def gains(code: str) -> tuple[int, int]:
        card = b.lookup(code)
        assert card is not None
        g = effect_gains(card.effects[0], 189)
        return g.draw, g.depth

    assert gains("A7") == (2, 4)
    assert gains("A8") == (0, 1)
    assert gains("T17") == (3, 3)
    assert gains("A3") == (0, 0)


def test_the_cards_an_effect_may_discard_from_the_hand() -> None:
    """`Gains.shed`, the most cards one activation takes out of the hand (the model's hand
    may lose no more than its payments and these, `cardflow.most_spent`): Tulum (C35: give up
    1 card) 1, Planetary Stone (A3: discard 2) 2, Earthquake Engineering (T17: up to 3) 3;
    Moai Statue (A7: 2 for 4) and A8 (1 for 1) none beyond the cards their draws net; the
    stand-in chest П (draw 2, discard 1) 1; a draw alone none."""
    b = load_book(["base"])

    def shed(code: str) -> int:
        card = b.lookup(code)
        assert card is not None
        return sum(effect_gains(e, 189).shed for e in card.effects)

    assert [shed(c) for c in ("C35", "A3", "T17", "A7", "A8", "C17")] == [1, 2, 3, 0, 0, 0]
    zimbabwe = [c for c in load_chests().chests if any(s.op == "discard_hand" for s in c.steps)]
    assert [c.name for c in zimbabwe] == ["Chest of Great Zimbabwe"]
    assert steps_gains(zimbabwe[0].steps, 189) == Gains(draw=2, depth=2, shed=1)


def test_the_cards_an_effect_takes_from_the_hand_as_its_price() -> None:
    """`resources.hand_payment`: Planetary Stone (A3: discard 2 cards, then remove up to 3)
    yields only once paid, 2 cards; Moai Statue (A7: 2 for 4) and A8 (1 for 1) net their
    price against their draws, 0; a payment of up to 3 (T17) may be 0, and Tulum's discard
    (C35) is no price (an empty hand gives up nothing): 0."""
    b = load_book(["base"])

    def price(code: str) -> int:
        card = b.lookup(code)
        assert card is not None
        return sum(hand_payment(e) for e in card.effects)

    assert [price(c) for c in ("A3", "A7", "A8", "T17", "C35", "C17")] == [2, 0, 0, 0, 0, 0]


def test_the_cards_of_one_type_an_effect_takes_as_its_price() -> None:
    """`resources.typed_payment`: Moai Statue (A7) is paid with 2 artifact cards; Planetary
    Stone (A3) and A8 take cards of any type, T17 up to 3 of any type: no typed price."""
    b = load_book(["base"])

    def typed(code: str) -> list[tuple[int, int] | None]:
        card = b.lookup(code)
        assert card is not None
        return [typed_payment(e) for e in card.effects]

    assert typed("A7") == [(ARTIFACT, 2)]
    assert typed("A3") == typed("A8") == typed("T17") == [None]


# ------------------------------------------------------------------ soundness

@pytest.mark.parametrize("seed", range(12))
def test_bound_at_least_the_exact_optimum(seed: int) -> None:
    check_sound(seed)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(hst.integers(min_value=100, max_value=10**6))
def test_soundness_property(seed: int) -> None:
    """Hypothesis: generated end-game positions, the bound against exact search."""
    check_sound(seed)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True)
@given(hst.integers(min_value=10**6, max_value=10**9))
def test_soundness_property_many(seed: int) -> None:
    check_sound(seed)


def test_bound_beats_the_simple_bound_on_end_games() -> None:
    """On the first 12 positions the relaxation is never looser, and much tighter in sum."""
    cp = simple = 0.0
    for seed in range(12):
        st = endgame(seed)
        r = relaxed_bound(st, CFG, cache=None)
        if r.infeasible:
            continue
        cp += r.bound
        simple += simple_upper_bound(st)
    assert cp < simple / 3.5  # session 26: 28 against 112 (both tighter than 34 / 139)


def test_game_over_is_exact() -> None:
    st = position(past=["C7"], lost=3, turn=16, time_space=1, time_visits=2,
                  phase="decline")
    assert st.is_terminal()
    assert relaxed_bound(st, cache=None).bound == st.score().total == 7 - 3
    missed = with_goal(st.clone(), "Г")  # 6 pyramids in the Past: not met
    r = relaxed_bound(missed, cache=None)
    assert r.infeasible and r.bound == -math.inf


def test_inside_an_action_the_simple_bound() -> None:
    st = position(hand=["C12", "M2"], turn=15, time_space=2, time_visits=2)
    play(st, "create")
    r = relaxed_bound(st, cache=None)
    assert r.source == "simple" and r.bound == simple_upper_bound(st)


# ------------------------------------------------------------------ INFEASIBLE proofs

def standard_of_ur_position(turns_left: int) -> GameState:
    """5 pyramids in the Past, the Standard of Ur to meet (6 or more, RULES.md section 8).
    Luxor Temple fills one place of space 1; Pyramid of Nice (starting space 1) is in hand. With
    one turn left no monument declines any more (D8); with two, one decline phase remains and
    space 1 holds Luxor and at most one more monument, and no card that could move Luxor out or
    bring a pyramid in during the decline is within reach of four actions."""
    st = position(hand=["P18"], timeline={1: ["C7"], 3: ["P3"]}, tokens={"C7": 1, "P3": 2},
                  past=["P1", "P2", "M4", "P5", "P6"], time_space=turns_left, time_visits=2,
                  turn=17 - turns_left)
    return with_goal(st, "Г")


def test_standard_of_ur_proven_infeasible_without_search() -> None:
    last = standard_of_ur_position(1)
    r = relax(last, phase_of(last) or pytest.fail("not a phase boundary"), CFG)
    assert r.infeasible
    complete, best = exact(last, nodes=30_000)
    assert complete and best is None  # exact search agrees: no line meets the goal
    st = standard_of_ur_position(2)
    assert relax(st, phase_of(st) or pytest.fail("not a phase boundary"), CFG).infeasible
    res = solve(st, SolveConfig(node_limit=3_000, bound="cpsat"))
    assert res.status == Status.INFEASIBLE and res.bound == -math.inf
    plain = solve(st, SolveConfig(node_limit=3_000))
    assert plain.status == Status.UNKNOWN  # the simple bound cannot prove it in this budget


def test_campaign_goals_the_revision_may_drop() -> None:
    """Campaign mode (RULES.md section 6): before the middle of the game the player may still
    discard goal chests (one stays), so one goal met is enough; in a trial every goal is."""
    def two_goals(campaign: bool) -> GameState:
        st = standard_of_ur_position(2)  # 5 in the Past: the 7th may still come (the flip)
        st.setup = Setup(hand="1", seed=0, dice=(1,) * 16, goals=("Г", "Е"), campaign=campaign,
                         chest_data=load_chests())
        st.goal_chests = [CHEST_LETTERS.index("Г"), CHEST_LETTERS.index("Е")]
        st.artifacts[1] = CHEST_BASE + st.goal_chests[1]
        return st

    trial, campaign = two_goals(False), two_goals(True)
    assert not trial.midgame
    assert relaxed_bound(trial, CFG, cache=None).infeasible
    assert not relaxed_bound(campaign, CFG, cache=None).infeasible


def test_check_proves_a_constructed_deal_infeasible(tmp_path: Path) -> None:
    """`heritage check --bound cpsat` on a position of trial 2 (goals В and the Standard of Ur)
    reached by a legal line with 1 pyramid in the Past and 3 turns left: exit 1 (proven)."""
    b = load_book(["base"])
    sets = tuple((n, d) for n, (_, d) in zip(["base"], b.sets, strict=True))
    rec = GameRecord.new(with_trial(Setup(hand="1", seed=1, card_sets=sets), 2), b)
    rng = Stream(1, "policy", 0)
    while True:
        ph = phase_of(rec.state)
        if ph is not None and ph.actions == 2 and rec.state.turn == 14:
            break
        legal = rec.state.legal_actions()
        rec.apply(legal[rng.below(len(legal))])
    assert rec.state.count_past(PYRAMID) == 1
    path = tmp_path / "position.json"
    path.write_text(dumps(rec.to_json()), encoding="utf-8")
    runner = CliRunner()
    args = ["check", "--from", str(path), "--node-limit", "2000", "--json"]
    res = runner.invoke(app, [*args, "--bound", "cpsat"])
    assert res.exit_code == 1, res.output
    answer = json.loads(res.output)
    assert answer["winnable"] == "no"
    assert "no line from the position solved from (turn 14, after" in answer["reason"]
    assert runner.invoke(app, [*args, "--bound", "simple"]).exit_code == 3  # it cannot tell


# ------------------------------------------------------------------ the bound API

def test_cached_and_deterministic() -> None:
    st = endgame(7)
    cache = BoundCache()
    first = relaxed_bound(st, CFG, cache=cache)
    again = relaxed_bound(st.clone(), CFG, cache=cache)
    assert again is first and cache.hits == 1
    fresh = relaxed_bound(st, CFG, cache=None)
    assert (fresh.bound, fresh.infeasible, fresh.plan) == (first.bound, first.infeasible,
                                                           first.plan)


def test_plan_orders_but_never_prunes() -> None:
    """The plan suggests creating Luxor Temple this turn: Create first, then the card (with
    two pyramids in hand to stand beside it: its Timeline effect needs two, session 49)."""
    st = position(hand=["C7", "M2", "P1", "P21"], turn=15, time_space=2, time_visits=2)
    r = relaxed_bound(st, CFG, cache=None)
    assert any(s.code == "C7" for s in r.plan)
    ordered = plan_order(r.plan, r.techs, st, st.legal_actions())
    assert sorted(ordered) == sorted(st.legal_actions())
    assert ordered[0] == A.ACT_CREATE
    play(st, "create")
    ordered = plan_order(r.plan, r.techs, st, st.legal_actions())
    assert sorted(ordered) == sorted(st.legal_actions())
    assert ordered[0] == A.code(A.CARD, idx(st, "C7"))


def test_plan_steps_reach_their_fate() -> None:
    st = new_game(Setup(hand="1", seed=2), book())
    phase = phase_of(st)
    assert phase is not None
    rel = Relaxation(st, phase, RelaxConfig(max_deterministic_time=0.5))
    out = rel.solve()
    assert out.bound is not None and out.bound <= simple_upper_bound(st)
    g = rel.schedule.graph
    slots = rel.schedule.slots
    for s in out.plan:
        assert isinstance(s, PlanStep)
        if s.space and s.fate is not None:
            slot = s.turn - slots[0].turn
            fate = g.fate(slot, s.space)
            if fate != END and slots[fate[1]].turn == s.fate:
                continue
            # A fate no slide reaches (a move gets the card there, `fates.where`): the step is
            # the fate's turn at the card's starting space.
            card = book().cards[s.card]
            assert s.turn == s.fate and s.space == card.starting_space
            spaces = [card.starting_space] if card.locked else range(1, 7)
            assert not any(g.fate(i, sp) != END and slots[g.fate(i, sp)[1]].turn == s.fate
                           for i in range(len(slots)) for sp in spaces)


def test_node_bound_uses_cpsat_only_near_the_end() -> None:
    early = new_game(Setup(hand="1", seed=0), book())
    assert CpsatBound().upper_bound(early) == simple_upper_bound(early)
    late = endgame(4)
    assert CpsatBound().upper_bound(late) <= simple_upper_bound(late)


def test_lb_tree_search_near_the_end_at_small_budgets() -> None:
    """CP-SAT's lower-bound tree search (`RelaxConfig.lb_tree_turns`): with 2 or 3 turns left
    at a node's budget; not with 1 turn left, not at the root, not at the root's budget."""
    _, root, line = given_lines(KEPT_LINES)[0]
    st = root.clone()
    starts = {}
    for a in line:
        if st.turn not in starts:
            starts[st.turn] = st.clone()
        st.apply(a)
    for turn, pos in [(1, root)] + [(t, starts[t]) for t in (14, 15, 16)]:
        phase = phase_of(pos)
        assert phase is not None
        assert Relaxation(pos, phase, RelaxConfig()).lb_tree() == (turn in (14, 15)), turn
        assert not Relaxation(pos, phase, RelaxConfig(max_deterministic_time=1.0)).lb_tree()


def test_solver_switch() -> None:
    """`SolveConfig(bound="cpsat")`: same optimum as the simple bound with no more nodes, and
    two solves in one process do not influence each other (no module state)."""
    for seed in (0, 8, 12, 27):
        st = endgame(seed)
        a = solve(st, SolveConfig(node_limit=20_000))
        b = solve(st, SolveConfig(node_limit=20_000, bound="cpsat"))
        assert a.status == b.status and a.value == b.value
        if a.status == Status.OPTIMAL:
            assert b.nodes <= a.nodes
        again = solve(st, SolveConfig(node_limit=20_000))
        assert (again.status, again.value, again.line, again.nodes) == (
            a.status, a.value, a.line, a.nodes)
    with pytest.raises(ValueError):
        SolveConfig(bound="magic")
