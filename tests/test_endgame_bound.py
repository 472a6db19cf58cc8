"""Proofs near the end (issue 13, part 2, session 4): the simple bound's end-game tightenings
are sound (bound >= the exact optimum) and change what they should."""

from __future__ import annotations

from dataclasses import replace

import pytest

from solver.bounds.activators import lost_needed
from solver.bounds.poolfacts import pool_facts
from solver.bounds.reachable import ReachMemo, in_flight, reach
from solver.bounds.simple import _learnable_later, decline_phases_left, simple_upper_bound
from solver.bounds.techjoint import few_learns, grows, tech_removals
from solver.engine import actions as A
from solver.engine.flow import settle
from solver.engine.frames import D_ACTION, D_LEARN, D_ORDER
from solver.engine.state import GameState
from tests.builder import idx, position
from tests.test_endgame import plain_optimum


def _last_turn_with_ishibutai(lost: int) -> GameState:
    """The last turn's action phase, Ishibutai Kofun (M29: Timeline effect "if you have 5 or
    more lost knowledge, discard 1 lost knowledge") in the Timeline, `lost` lost knowledge."""
    return position(hand=["C1"], timeline={4: ["M29"], 2: ["C3"]}, past=["C4"], lost=lost,
                    time_space=1, time_visits=2, turn=16, deck_top=["C5", "C6"])


def test_lost_needed_reads_the_condition() -> None:
    st = _last_turn_with_ishibutai(0)
    card = st.book.cards[idx(st, "M29")]
    assert [lost_needed(e) for e in card.effects] == [5]


def _removals(lost: int, declines: int = 0) -> int:
    st = _last_turn_with_ishibutai(lost)
    facts = pool_facts(st)
    return reach(st, facts.activators, declines, facts.poulnabrone).lost_removed


def test_removal_gated_by_lost_knowledge_counts_only_when_reachable() -> None:
    """After the last decline lost knowledge never grows (RULES.md section 4C step 2 is its
    only source): below 5, M29's removal can never resolve and is not counted; from 5 on it is.
    While a decline remains, it counts whatever lost knowledge is now."""
    assert _removals(3) == _removals(4) == _removals(5) - 1 == _removals(6) - 1
    assert _removals(3, declines=1) == _removals(6, declines=1)


@pytest.mark.parametrize("lost", [3, 4, 5, 6])
def test_gated_bound_at_least_the_optimum(lost: int) -> None:
    st = _last_turn_with_ishibutai(lost)
    assert decline_phases_left(st) == 0
    complete, best = plain_optimum(st)
    assert complete and best is not None
    assert simple_upper_bound(st, pool_facts(st)) >= best


def test_queued_effect_whose_condition_cannot_hold_brings_nothing() -> None:
    """An effect queued in the Timeline phase checks its condition when it resolves
    (`solver.engine.effects.resolve_effect`): queued with too little lost knowledge, its
    removal is not counted; with enough, it is."""
    st = _last_turn_with_ishibutai(4)
    m29 = idx(st, "M29")
    st.stack = [*st.stack[:-1], (D_ORDER, ((m29, 0), (m29, 0)), True)]
    assert in_flight(st, ReachMemo(), 4)[0][3] == 0
    assert in_flight(st, ReachMemo(), 5)[0][3] == 2



KNOWN = ["T1", "T2", "T5", "T9", "T10", "T11", "T19", "T22", "T23"]  # every tech with a learn chain


@pytest.mark.parametrize("tiles", [
    ["T3", "T12", "T20", "T13", "T21", "T28", "T34", None, None],
    ["T29", "T37", "T45", None, None, None, "T44", "T39", None],
    ["T3", "T4", "T6", "T7", "T8", None, "T28", "T31", "T33"],
])
@pytest.mark.parametrize("optional", [True, False])
def test_one_learn_bound_at_least_the_optimum(tiles: list[str | None], optional: bool) -> None:
    """The last turn with one Learn left (a ``D_LEARN`` of count 1, requirements ignored) and
    end-game rules that read technology counts in the Past (M1, P5: 2 per complete trio; P1,
    P4: tiers): the joint bound (`solver.bounds.techjoint.few_learns`) is at least the optimum
    of a search with no bound; here, where nothing else can change, it is the optimum."""
    st = position(hand=[], past=["M1", "P5", "P1", "P4"], techs=KNOWN, tiles=tiles,
                  time_space=1, time_visits=2, turn=16, deck_top=["C6", "C7"])
    st.stack = [fr for fr in st.stack if fr[0] != D_ACTION] + [(D_LEARN, optional, True, 1)]
    settle(st)
    facts = pool_facts(st)
    assert decline_phases_left(st) == 0
    assert reach(st, facts.activators, 0, facts.poulnabrone).learns == 1
    complete, best = plain_optimum(st)
    assert complete and best is not None
    assert simple_upper_bound(st, facts) == best


@pytest.mark.parametrize("tiles", [
    ["T3", "T12", "T20", "T13", "T21", "T28", "T34", None, None],
    ["T29", "T37", "T45", None, None, None, "T44", "T39", None],
    ["T3", "T4", "T6", "T7", "T8", None, "T28", "T31", "T33"],
])
@pytest.mark.parametrize("learns", [2, 3])
def test_few_learns_bound_at_least_the_optimum(tiles: list[str | None], learns: int) -> None:
    """The last turn with two or three Learns left (one ``D_LEARN`` of that count,
    requirements ignored) and end-game rules that read technology counts in the Past (M1, P5:
    2 per complete trio; P1, P4: tiers; RULES.md section 7, rows 2 and 3): the joint bound over
    the counts by type
    (`solver.bounds.techjoint.few_learns`) is at least the optimum of a search with no bound,
    and never above the bound with each row at its own best (no joint rules)."""
    st = position(hand=[], past=["M1", "P5", "P1", "P4"], techs=KNOWN, tiles=tiles,
                  time_space=1, time_visits=2, turn=16, deck_top=["C6", "C7"])
    st.stack = [fr for fr in st.stack if fr[0] != D_ACTION] + [(D_LEARN, False, True, learns)]
    settle(st)
    facts = pool_facts(st)
    assert decline_phases_left(st) == 0
    assert reach(st, facts.activators, 0, facts.poulnabrone).learns == learns
    complete, best = plain_optimum(st)
    assert complete and best is not None
    apart = simple_upper_bound(st, replace(facts, tech_readers=frozenset()))
    assert best <= simple_upper_bound(st, facts) <= apart


def test_few_learns_bound_is_tighter_than_each_row_at_its_best() -> None:
    """Three Learns left (known: 4 ancient, 2 secret, 3 writing; candidates: 1 ancient, 2
    secret, 2 writing): each rule at its own best takes the lowest type count to 4 (M1, P5: 2
    VP per complete trio) and the writing count to 5 (P4's top tier) at once; three Learns
    cannot do both (2 secret and 1 writing for the trios, 2 writing for P4), so the joint
    bound drops, and stays at least the optimum (here it is the optimum: nothing else can
    change)."""
    tiles = ["T29", "T37", "T45", None, None, None, "T44", "T39", None]
    st = position(hand=[], past=["M1", "P5", "P1", "P4"], techs=KNOWN, tiles=tiles,
                  time_space=1, time_visits=2, turn=16, deck_top=["C6", "C7"])
    st.stack = [fr for fr in st.stack if fr[0] != D_ACTION] + [(D_LEARN, False, True, 3)]
    settle(st)
    facts = pool_facts(st)
    complete, best = plain_optimum(st)
    assert complete and best is not None
    joint = simple_upper_bound(st, facts)
    apart = simple_upper_bound(st, replace(facts, tech_readers=frozenset()))
    assert best == joint < apart


def test_few_learns_answers_are_kept_by_what_they_read() -> None:
    """`few_learns` with a memo answers as without one, position by position: two positions
    that differ in the collection (one has learned T29) or in the Learns left share a memo
    without sharing an answer; asked again, the kept answer comes back."""
    tiles = ["T29", "T37", "T45", None, None, None, "T44", "T39", None]
    first = position(hand=[], past=["M1", "P5", "P1", "P4"], techs=KNOWN, tiles=tiles,
                     time_space=1, time_visits=2, turn=16, deck_top=["C6", "C7"])
    second = position(hand=[], past=["M1", "P5", "P1", "P4"], techs=[*KNOWN, "T29"],
                      tiles=[None if t == "T29" else t for t in tiles], time_space=1,
                      time_visits=2, turn=16, deck_top=["C6", "C7"])
    facts = pool_facts(first)
    memo = ReachMemo()
    answers = []
    for st in (first, second):
        for learns in (1, 2, 3):
            alone = few_learns(st, facts.tech_readers, facts.techs_by_vp, learns)
            kept = few_learns(st, facts.tech_readers, facts.techs_by_vp, learns, memo=memo)
            assert kept == alone is not None
            answers.append(alone)
    assert len(memo.tech_rows) == 6 and len(set(answers)) > 1
    assert few_learns(first, facts.tech_readers, facts.techs_by_vp, 3, memo=memo) == answers[2]
    assert len(memo.tech_rows) == 6


def test_a_create_whose_card_is_chosen_opens_no_slot_for_another_card() -> None:
    """Once the card of a Create is chosen (``D_CREATE_SPACE``: RULES.md section 5, the card is
    picked first), that Create brings that card's gains (C1: none), not the best gains of any
    card out of play: the counts and the bound drop, and stay at least the optimum. (The tiles
    hold technologies: empty ones are never refilled, so there the Learns would add nothing.)"""
    st = position(hand=["C1", "C2", "C5"], past=["M1", "P5"],
                  techs=["T1", "T2", "T5", "T9", "T22", "T23"],
                  tiles=["T3", "T8", "T11", "T12", "T14", "T15", "T31", "T34", "T43"],
                  time_space=1, time_visits=2, turn=16, deck_top=["C6", "C7"])
    facts = pool_facts(st)
    loose = replace(facts, takes=None)  # every card out of play counted (`solver.bounds.takes` off)
    st.apply(A.ACT_CREATE)
    open_create = reach(st, facts.activators, 0, facts.poulnabrone)
    open_bound = simple_upper_bound(st, loose)
    st.apply(A.code(A.CARD, idx(st, "C1")))
    chosen = reach(st, facts.activators, 0, facts.poulnabrone)
    assert chosen.learns < open_create.learns
    assert chosen.creates <= open_create.creates
    complete, best = plain_optimum(st)
    assert complete and best is not None
    assert best <= simple_upper_bound(st, facts) <= simple_upper_bound(st, loose) < open_bound


def test_grows_tells_rules_that_never_fall_as_their_counter_grows() -> None:
    """`few_learns` rates only the counts that learn as many technologies as possible when
    every rule grows with its counter (RULES.md section 7: a tier is the highest one reached):
    P1's tiers (5 then 12 VP) and M1's 2 per trio grow; a tier worth less than the one below,
    or a negative VP per thing, does not."""
    st = position(hand=[], past=["M1", "P1"], turn=16)
    cards = st.book.cards
    p1, m1 = cards[idx(st, "P1")], cards[idx(st, "M1")]
    assert grows(p1) and grows(m1)
    tier_rule = next(e for e in p1.effects if e.score is not None)
    per_rule = next(e for e in m1.effects if e.score is not None)
    assert tier_rule.score is not None and per_rule.score is not None
    falling = replace(p1, effects=(replace(tier_rule, score=replace(
        tier_rule.score, tiers=((8, 12), (12, 5)))),))
    negative = replace(m1, effects=(replace(per_rule, score=replace(per_rule.score, times=-2)),))
    assert not grows(falling) and not grows(negative)


def _two_learns_with_removals(tiles: list[str | None]) -> GameState:
    """The last turn, two Learns left (requirements ignored), 10 lost knowledge, nothing in
    play: Mercury (T9) and Arabic Numerals (T23) remove 2 and 3 lost knowledge, Phoenician
    Alphabet (T44) and Hieroglyphs (T45) are worth 4 VP, Thoth (T30) 2."""
    st = position(hand=[], past=["C4"], lost=10, tiles=tiles, time_space=1, time_visits=2,
                  turn=16, deck_top=["C6", "C7"])
    st.stack = [fr for fr in st.stack if fr[0] != D_ACTION] + [(D_LEARN, False, True, 2)]
    settle(st)
    return st


@pytest.mark.parametrize("tiles", [
    ["T9", "T23", None, None, None, None, "T44", "T30", "T45"],
    ["T9", "T23", "T5", None, None, None, "T44", "T30", "T45"],
])
def test_removals_of_technologies_take_learns_too(tiles: list[str | None]) -> None:
    """A technology that removes lost knowledge (D22: a point of row 5 each, RULES.md section
    7) takes a Learn like one worth VP (section 5): with two Learns, the two 4-VP technologies
    or a removal and one of them, not both pairs. The bound rates each technology at its VP
    plus its own removal (`solver.bounds.techjoint.few_learns` with `tech_removals`) and is the
    optimum here; each row at its own best (the two best VP and every removal reachable) is
    above it."""
    st = _two_learns_with_removals(tiles)
    facts = pool_facts(st)
    removals = tech_removals(st, facts.activators)
    assert removals is not None
    assert {st.book.cards[c].name: n for c, n in removals.items()} == {
        "Nicolas Flammel": 1, "Mercury": 2, "Arabic Numerals": 3}
    r = reach(st, facts.activators, 0, facts.poulnabrone)
    complete, best = plain_optimum(st)
    assert complete and best is not None
    rows_apart = st.score().total + 4 + 4 + min(st.lost, r.lost_removed)
    assert best == simple_upper_bound(st, facts) < rows_apart


@pytest.mark.parametrize("tiles", [
    ["T9", "T23", None, None, None, None, None, None, None],
    ["T9", "T23", None, None, None, None, "T30", None, None],
])
def test_removals_of_technologies_count_where_they_are_the_best_learns(
        tiles: list[str | None]) -> None:
    """Two Learns where the best are removals of lost knowledge (Mercury, Arabic Numerals; D22:
    a point of row 5 each), worth more than any technology's VP (none, or Thoth's 2): the
    bound over the Learns, each technology rated at its VP plus its removal
    (`solver.bounds.techjoint.few_learns` with `tech_removals`), is at least the optimum; rated
    at their VP alone, with the lost knowledge their removals leave uncounted, it fell 3 below
    (a mutation run's witness, first met in a random game's turn 15 at a Learn of a tile)."""
    st = _two_learns_with_removals(tiles)
    complete, best = plain_optimum(st)
    assert complete and best is not None and best > st.score().total
    assert simple_upper_bound(st, pool_facts(st)) >= best


def test_at_most_lost_knowledge_requirement_against_the_removals_left() -> None:
    """After the last decline lost knowledge only falls, by the removals still reachable
    (D22): Alchemy (T37: 7 monuments in the Past and at most 3 lost knowledge) stays a
    candidate while the floor of lost knowledge is 3, not at 4 (Candi Sukuh lowers only "at
    least" values, D19); Thoth (T30: at least 9) is unaffected. With 20 lost knowledge and 11
    removals at most, the bound leaves Alchemy out and is still at least the optimum."""
    st = position(hand=[], past=["C4", "C5", "C6", "C7", "C8", "C9", "C10"], lost=20,
                  tiles=["T9", "T5", None, None, None, None, "T37", "T30", None],
                  time_space=1, time_visits=2, turn=16, deck_top=["C11", "C12"])
    facts = pool_facts(st)
    watched = {idx(st, "T37"): "Alchemy", idx(st, "T30"): "Thoth"}

    def candidates(floor: int) -> list[str]:
        later = _learnable_later(st, facts, set(), ReachMemo(), floor)
        assert later is not None
        return sorted(watched[c] for c in later if c in watched)

    assert candidates(3) == ["Alchemy", "Thoth"]
    assert candidates(4) == ["Thoth"]
    assert reach(st, facts.activators, 0, facts.poulnabrone).lost_removed == 11
    complete, best = plain_optimum(st)
    assert complete and best is not None
    assert best <= simple_upper_bound(st, facts)
