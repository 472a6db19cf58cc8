"""Who can still decline at turn 15 (the last decline phase that moves monuments to the Past,
D8): only monuments in play by then, so from the hand or from the builder deck's top down to
the cards that can leave it before the Timeline phase (`solver.bounds.simple.
taken_before_timeline`, `solver.bounds.actiontakes.action_takes`), plus those created after the
action phase (`solver.bounds.takes.late_creates`: Menhirs of Monteneuf's decline effect)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks.prove_from import given_lines
from solver.bounds.poolfacts import pool_facts
from solver.bounds.reachable import UNBOUNDED, ReachMemo
from solver.bounds.simple import (
    _in_play_by_the_end,
    last_decline_now,
    simple_upper_bound,
    taken_before_timeline,
)
from solver.bounds.splitplay import closed_take
from solver.bounds.takes import enterable, enters_after_actions, late_creates, steps_take
from solver.engine.flow import RULES
from solver.engine.frames import D_ACTION, F_DECLINE_PHASE, F_TECH_PHASE, F_TIMELINE_PHASE, Frame
from solver.engine.state import GameState
from solver.rng import Stream
from solver.search.exhaustive import SearchConfig, search
from solver.search.protocol import PlainGame
from solver.search.status import Status
from tests.builder import idx, position
from tests.test_relaxation import endgame

LINES = Path(__file__).resolve().parent.parent / "benchmarks" / "lines" / "session5-t60.jsonl"


def _before_timeline(st: GameState) -> bool:
    return any(fr[0] == F_TIMELINE_PHASE for fr in st.stack)


class _Watch:
    """An observer of the engine's loop (`solver.engine.flow.Observer`) that records the deck
    of `st` as the Timeline phase begins: (cards in it, reshuffles so far), before its effects."""

    def __init__(self, st: GameState) -> None:
        self.st = st
        self.at: tuple[int, int] | None = None

    def note(self, fr: Frame, action: int, explicit: bool) -> None:
        return None

    def auto(self, fr: Frame, run: Callable[[GameState, Frame], None]) -> None:
        if fr[0] == F_TIMELINE_PHASE and self.at is None:
            self.at = (len(self.st.deck), self.st.reshuffles[0])
        run(self.st, fr)


def _apply(st: GameState, action: int) -> tuple[int, int] | None:
    """Apply `action`; (deck size, reshuffles) when the Timeline phase began in it."""
    watch = _Watch(st)
    RULES.apply(st, action, watch)
    return watch.at


def _check_random_line(st: GameState, seed: int) -> int:
    """Along a random line from `st` until the Timeline phase begins: from each position, the
    cards that leave the deck until then (counted as the phase's frame runs, before its
    effects: the engine runs those that need no decision in the same step) are at most
    `taken_before_timeline` (a reshuffle means more than the whole deck left). The positions
    checked."""
    facts = pool_facts(st)
    assert facts.takes is not None
    memo = ReachMemo()
    rng = Stream(seed, "turn-takes", 0)
    line = []
    at = None
    while at is None and st.stack and _before_timeline(st):
        line.append(st.clone())
        legal = st.legal_actions()
        at = _apply(st, legal[rng.below(len(legal))])
    if at is None:
        return 0
    deck, shuffles = at
    for pos in line:
        bound = taken_before_timeline(pos, facts, facts.takes, memo)
        if shuffles > pos.reshuffles[0]:
            assert bound > len(pos.deck), seed
        else:
            assert bound >= len(pos.deck) - deck, seed
    return len(line)


def line_at_turn(path: Path, index: int, turn: int) -> GameState:
    """The start of `turn` on the kept line number `index` (modulo their number) of the
    ``solve_table --out`` file `path` (`benchmarks.prove_from.given_lines`)."""
    lines = given_lines(path)
    name, root, line = lines[index % len(lines)]
    st = root.clone()
    for a in line:
        if st.turn == turn:
            break
        st.apply(a)
    assert st.turn == turn, name
    return st


@pytest.mark.parametrize("seed", range(12))
def test_taken_at_least_the_cards_taken_on_kept_lines(seed: int) -> None:
    """From the start of turn 15 of kept lines (real decks and hands), random play until the
    Timeline phase: the count is never below the cards taken."""
    st = line_at_turn(LINES, seed * 7, 15)
    for k in range(4):
        assert _check_random_line(st.clone(), seed * 4 + k) > 0


@pytest.mark.parametrize("seed", range(40))
def test_taken_at_least_the_cards_taken_on_generated_positions(seed: int) -> None:
    """The same from generated end-game positions (`tests.test_relaxation.endgame`: turn 15 or
    16)."""
    st = endgame(seed)
    assert _check_random_line(st, seed) > 0


def test_kept_lines_bounded_from_turn_12() -> None:
    """Every position of the 24 kept lines from turn 12 on: the bound is at least the VP the
    line reaches (the line is a witness)."""
    for name, root, line in given_lines(LINES):
        facts = pool_facts(root)
        memo = ReachMemo()
        end = root.clone()
        for a in line:
            end.apply(a)
        vp = end.value()
        st = root.clone()
        for a in line:
            if st.turn >= 12:
                assert simple_upper_bound(st, facts, memo) >= vp, (name, st.turn)
            st.apply(a)


def _turn15(hand: list[str], space1: list[str], deck_top: list[str], past: list[str],
            phase: str = "action", actions: int = 2, discard: tuple[str, ...] = (),
            tiles: tuple[str | None, ...] = (None,) * 9) -> GameState:
    pending = [(F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,),
               *[(D_ACTION, k) for k in range(actions)][::-1]]
    return position(hand=hand, timeline={1: space1, 3: ["C3"]}, past=past, discard=discard,
                    techs=["T1", "T2", "T5"], time_space=2, time_visits=2, turn=15,
                    deck_top=deck_top, pending=pending if phase == "action" else None,
                    phase=phase, tiles=tiles)


def test_a_monument_deep_in_the_deck_does_not_decline() -> None:
    """Atlantis (12 VP) on the deck's top may be drawn and created into space 1 this turn; in
    the discard pile (under a deck of 100 cards and more) it cannot leave it before the
    Timeline phase, and no effect creates a monument later: the bound leaves it out."""
    top = _turn15(["C2", "M7"], ["M1"], ["C29"], ["P1", "M3"])
    deep = _turn15(["C2", "M7"], ["M1"], [], ["P1", "M3"], discard=("C29",))
    facts = pool_facts(deep)
    assert facts.takes is not None
    for st in (top, deep):
        assert last_decline_now(st)
    taken = taken_before_timeline(deep, facts, facts.takes, ReachMemo())
    assert taken < len(deep.deck)
    present = enterable(deep, taken)
    assert idx(deep, "C29") not in present and idx(top, "C29") in enterable(top, 1)
    assert late_creates(deep, facts.takes, present, facts.poulnabrone, ReachMemo()) == 0
    assert simple_upper_bound(deep) < simple_upper_bound(top)


def test_menhirs_creates_late() -> None:
    """Menhirs of Monteneuf (M11) in play creates a monument at its decline, from the hand as
    it is then (a card drawn by Jericho's decline effect): one monument from anywhere; each of
    Dolmen of Menga (M18) and Masuda Iwafune (M27) out of the Past may be that card and create
    one more when created (its immediate effect); Poulnabrone Dolmen (M36: one more Create per
    Create of a monument) out of the Past doubles them (it may be created late itself)."""
    for past, late in ((["P1", "M36", "M18", "M27"], 1), (["P1", "M36", "M18"], 2),
                       (["P1", "M36"], 3), (["P1"], 6)):
        st = _turn15([], ["C17", "M11"], ["C6", "C9", "C29", "C8", "C10", "C11"], past,
                     phase="decline")
        facts = pool_facts(st)
        assert facts.takes is not None
        assert taken_before_timeline(st, facts, facts.takes, ReachMemo()) == 0
        assert late_creates(st, facts.takes, enterable(st, 0), facts.poulnabrone,
                            ReachMemo()) == late, past


@pytest.mark.parametrize(("hand", "space1", "deck_top", "actions"), [
    # the last action Excavates two monuments (4 cards); Menhirs then creates one of them
    ([], ["M11"], ["C6", "C29", "C9", "C28", "C10"], 1),
    # a Search then a Create of the drawn Babylon into space 1 (cost 2 paid from the hand)
    (["C4", "C5"], [], ["C28", "C6"], 2),
])
def test_bound_at_least_the_optimum(hand: list[str], space1: list[str], deck_top: list[str],
                                    actions: int) -> None:
    """Crafted turn-15 positions where a monument drawn this turn can decline: the bound is at
    least the optimum of a search with no bound."""
    st = _turn15(hand, space1, deck_top, ["P1", "M3"], actions=actions)
    assert last_decline_now(st)
    res = search(st.clone(), SearchConfig(max_nodes=400_000), game=PlainGame())
    assert res.status is Status.OPTIMAL and res.value is not None
    facts = pool_facts(st)
    assert facts.takes is not None
    assert taken_before_timeline(st, facts, facts.takes, ReachMemo()) < UNBOUNDED
    assert simple_upper_bound(st, facts) >= res.value


def _turn16(deck_top: list[str], discard: tuple[str, ...] = (), artifacts: tuple[str, ...] = (),
            techs: tuple[str, ...] = ("T1", "T2", "T5")) -> GameState:
    return position(hand=["C4"], timeline={2: ["C3"]}, past=["P1", "M3"], lost=5,
                    artifacts=artifacts, techs=techs, time_space=1, time_visits=2, turn=16,
                    deck_top=deck_top, discard=discard, tiles=[None] * 9)


def test_last_turn_counts_only_cards_that_can_enter_play() -> None:
    """The last turn: Timbuktu (C12: discard lost knowledge when created) on the deck's top may
    be drawn by a Search and created; in the discard pile it never enters play, so its removal
    is not counted (`_in_play_by_the_end`). Either way the bound is at least the optimum."""
    top = _turn16(["C12"])
    deep = _turn16([], discard=("C12",))
    facts = pool_facts(top)
    assert facts.takes is not None
    for st in (top, deep):
        assert not last_decline_now(st)
        res = search(st.clone(), SearchConfig(max_nodes=400_000), game=PlainGame())
        assert res.status is Status.OPTIMAL and res.value is not None
        assert simple_upper_bound(st, facts) >= res.value
    timbuktu = idx(top, "C12")
    near, far = _in_play_by_the_end(top, facts, None), _in_play_by_the_end(deep, facts, None)
    assert near is not None and timbuktu in near
    assert far is not None and timbuktu not in far
    assert simple_upper_bound(deep, facts) <= simple_upper_bound(top, facts)


def test_a_timeline_learn_may_bring_a_card_into_play() -> None:
    """Michaux Stone (A33) learns in the Timeline phase: while Ancient Greek (T22: creates an
    artifact from the deck's top) may be learned, a card may enter play after the action phase
    and the last turn's count is off; once it is learned, on."""
    facts = pool_facts(_turn16([]))
    assert facts.takes is not None
    memo = ReachMemo()
    for techs, after in (((), True), (("T22",), False)):
        st = _turn16([], artifacts=("A33",), techs=("T1", "T2", *techs))
        assert enters_after_actions(st, facts.takes, enterable(st, 0), memo) is after


def test_a_draw_per_card_paid_takes_at_most_the_cards_paid() -> None:
    """Earthquake Engineering (T17: pay up to 3 cards, draw 1 per card paid) takes at most 3,
    Moai Statue (A7: pay 2, draw 4) its 4; a draw per anything else (T13: per city in the
    Timeline) still counts the hand's 10 (D4)."""
    st = position(turn=16)
    cards = st.book.cards
    takes = {code: steps_take(cards[idx(st, code)].effects[0].steps)
             for code in ("T17", "A7", "T13")}
    assert takes == {"T17": 3, "A7": 4, "T13": 10}


@pytest.mark.parametrize(("space1", "cities"), [([], 1), (["C2", "C5"], 3)])
def test_mystery_school_draws_at_most_the_cities(space1: list[str], cities: int) -> None:
    """Mystery School (T13: draw one card per city in the Timeline) the only technology on
    the row and one action left, spent on a Learn: no Create comes before it, so it draws at
    most the cities in the Timeline now (Carthage, C3, in space 3, and those of space 1), not
    the hand's 10; a line that learns it takes exactly that many."""
    st = _turn15([], space1, ["M1", "M2", "M4", "M5", "M6"], ["P1", "M3"], actions=1,
                 tiles=("T13", *(None,) * 8))
    facts = pool_facts(st)
    assert facts.takes is not None
    taken = closed_take(st, facts.activators, facts.poulnabrone, facts.takes, ReachMemo(), 8,
                        (0, 1, 0), frozenset({st.tiles[0]}))
    assert taken == cities
    deck = len(st.deck)
    at = _apply(st, next(a for a in st.legal_actions() if st.action_to_string(a) == "learn"))
    assert idx(st, "T13") in st.techs  # the only technology to learn: no choice asked
    assert at is not None and deck - at[0] == cities
