"""The count of builder cards that can still leave the deck before the last Timeline phase
(`solver.bounds.decktakes`) and the end-game rule it feeds (`solver.guidance.endgame`: a token
reader too deep in the deck cannot enter play in time)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from puzzles.chests import load_chests
from solver.bounds.decktakes import DeckTakes
from solver.bounds.poolfacts import pool_facts
from solver.bounds.reachable import UNBOUNDED, ReachMemo, reach
from solver.bounds.simple import decline_phases_left, taken_before_timeline
from solver.bounds.takes import CardTakes, card_takes
from solver.engine import flow
from solver.engine.actions import CHEST_LETTERS
from solver.engine.cards import Step
from solver.engine.flow import Auto
from solver.engine.frames import (
    D_ACTION,
    F_DECLINE_PHASE,
    F_STEPS,
    F_TECH_PHASE,
    F_TIMELINE_PHASE,
    Frame,
)
from solver.engine.newgame import new_game
from solver.engine.setup import Setup
from solver.engine.state import GameState
from solver.guidance.endgame import last_turn, token_readers, tokens_dead
from solver.rng import Stream
from tests.builder import book, idx, names_of, play, position, user_set
from tests.test_endgame import SEEDS
from tests.test_relaxation import endgame


def _before_timeline(st: GameState) -> bool:
    return st.turn >= last_turn(st) and any(fr[0] == F_TIMELINE_PHASE for fr in st.stack)


@pytest.mark.parametrize("seed", SEEDS)
def test_takes_at_least_the_cards_taken_along_random_lines(seed: int) -> None:
    """From every position of the last turn before its Timeline phase queues, along a random
    line: the cards that leave the deck until the queue forms are at most the count (a
    reshuffle means more than the whole deck left)."""
    st = endgame(seed)
    takes = DeckTakes()
    rng = Stream(seed, "decktakes", 0)
    line = [st.clone()]
    watch = _QueueWatch(st)
    while not st.is_terminal() and (st.turn < last_turn(st) or _before_timeline(st)):
        legal = st.legal_actions()
        flow.RULES.apply(st, legal[rng.below(len(legal))], observer=watch)
        line.append(st.clone())
    deck_then, reshuffles_then = watch.at_queue or (len(st.deck), st.reshuffles[0])
    for pos in line:
        if not _before_timeline(pos) or pos.over:
            continue
        bound = takes(pos)
        if reshuffles_then > pos.reshuffles[0]:
            assert bound > len(pos.deck), seed
        else:
            assert bound >= len(pos.deck) - deck_then, seed


class _QueueWatch:
    """Watches the engine loop (`solver.engine.flow.Observer`): the builder deck's size and
    reshuffles when the last turn's Timeline phase is about to queue its effects, the moment the
    count runs to (a lone Timeline effect, e.g. Toniná's draw, resolves in the same step)."""

    def __init__(self, st: GameState) -> None:
        self.st = st
        self.at_queue: tuple[int, int] | None = None

    def note(self, fr: Frame, action: int, explicit: bool) -> None:
        return None

    def auto(self, fr: Frame, run: Auto) -> None:
        st = self.st
        if fr[0] == F_TIMELINE_PHASE and self.at_queue is None and st.turn >= last_turn(st):
            self.at_queue = (len(st.deck), st.reshuffles[0])
        run(st, fr)


def _deep_reader(depth: int, actions: int) -> GameState:
    """The last turn, `actions` actions left, A13 (a Timeline reader of tokens) with `depth`
    cards above it in the deck; Calakmul (P33: digs without bound) in the Past."""
    above = ["C5", "C6", "C7", "C8", "C9", "C10", "C11", "C12", "C13", "C14", "C15", "C16",
             "C17", "C18", "C19", "C20", "C21", "C22", "C23", "C24", "C25"][:depth]
    st = position(hand=["C1"], timeline={2: ["C3"]}, tokens={"C3": 2}, time_space=1, past=["P33"],
                  time_visits=2, turn=16, deck_top=[*above, "A13"])
    while sum(1 for fr in st.stack if fr[0] == D_ACTION) > actions:
        st.stack.remove(next(fr for fr in st.stack if fr[0] == D_ACTION))
    return st


def test_a_reader_too_deep_in_the_deck_cannot_enter_play() -> None:
    """One action left and M16 (create an artifact) in hand: the old rule lets a card of the deck
    enter play (alive). With the token readers (A6, A13) at the bottom, more cards above them
    than can leave the deck before the Timeline phase: dead with the count, alive without it;
    one of them right on top: alive either way."""
    st = _deep_reader(0, 1)
    m16 = idx(st, "M16")
    st.deck.remove(m16)
    st.hand = sorted([*st.hand, m16])
    readers = token_readers(st)
    assert set(readers.timeline) == {idx(st, "A6"), idx(st, "A13")}
    takes = DeckTakes()
    assert not tokens_dead(st, readers, takes) and not tokens_dead(st, readers)
    for c in readers.timeline:
        st.deck.remove(c)
        st.deck.insert(0, c)
    bound = takes(st)
    assert 10 <= bound <= len(st.deck) - 2  # both readers have at least `bound` cards above
    assert tokens_dead(st, readers, takes)
    assert not tokens_dead(st, readers)
    # just within reach: as many cards above it as can leave, plus one fewer
    a6 = idx(st, "A6")
    st.deck.remove(a6)
    st.deck.insert(len(st.deck) - bound + 1, a6)
    assert len(st.deck) - 1 - st.deck.index(a6) == bound - 1
    assert not tokens_dead(st, readers, takes)


def test_a_buried_digger_counts_only_if_it_can_leave_the_deck() -> None:
    """Calakmul (P33: digs without bound) at the bottom of the deck, one action left: it cannot
    leave the deck before the others' count is spent, so the count is that of P33 in the Past.
    On top of the deck (it may be drawn and created) the count stays bounded too, both ways
    of counting: its dig is a decline effect, and no decline effect runs in the last turn
    before its Timeline phase (the game ends at that turn's decline phase, D8); only a dig
    that can run in an action phase (`CardTakes.action_unbounded`) would lift the bound."""
    past = _deep_reader(0, 1)
    takes = DeckTakes()
    expected = takes(past)
    st = _deep_reader(0, 1)
    p33 = idx(st, "P33")
    st.past.remove(p33)
    st.deck.insert(0, p33)
    assert takes(st) == expected < len(st.deck) - 1
    st.deck.remove(p33)
    st.deck.append(p33)
    assert takes._every_card(st, *takes._tables(st)) < UNBOUNDED
    assert takes(st) < UNBOUNDED


def test_only_the_cards_that_can_enter_play_take() -> None:
    """Two actions left, the token readers (A6, A13) 60 cards down. Counting every card out of
    the Past as if it acted (the module's first count: the largest immediate draw of any card,
    at every Create), 60 cards could leave the deck and the tokens stay alive. Only the cards
    that can enter play before the Timeline phase act (the count of `taken_before_timeline`: a
    card acts once created, from the hand, and only the deck's top reaches the hand): fewer
    than 60 leave, and the tokens are dead."""
    st = _deep_reader(0, 2)
    readers = token_readers(st)
    for c in readers.timeline:
        st.deck.remove(c)
        st.deck.insert(len(st.deck) - 60, c)
        assert len(st.deck) - 1 - st.deck.index(c) == 60
    takes = DeckTakes()
    crude = takes._every_card(st, *takes._tables(st))
    assert takes(st) < 60 < crude < UNBOUNDED
    assert tokens_dead(st, readers, takes)
    every = lambda pos, _key: takes._every_card(pos, *takes._tables(pos))  # noqa: E731
    assert not tokens_dead(st, readers, every)


@pytest.mark.parametrize("seed", SEEDS)
def test_kept_answers_are_those_of_their_own_position(seed: int) -> None:
    """`taken_before_timeline` keeps its last answers by the position's exact key
    (`GameState.key()`) in a memo shared by the bound and `DeckTakes`: along a random line of
    the last turn, asked of one memo throughout (each position twice, as the search key and the
    bound ask), it answers what a fresh memo computes for that position."""
    st = endgame(seed)
    facts = pool_facts(st)
    assert facts.takes is not None
    shared = ReachMemo()
    rng = Stream(seed, "kept-takes", 0)
    asked = 0
    while not st.is_terminal() and (st.turn < last_turn(st) or _before_timeline(st)):
        if _before_timeline(st) and not st.over:
            kept = taken_before_timeline(st, facts, facts.takes, shared)
            assert taken_before_timeline(st, facts, facts.takes, shared) == kept
            assert kept == taken_before_timeline(st, facts, facts.takes, ReachMemo()), seed
            asked += 1
        legal = st.legal_actions()
        st.apply(legal[rng.below(len(legal))])
    assert asked > 0


def _to_the_queue(seed: int) -> tuple[list[GameState], GameState]:
    """A random game of deal `seed` (premade hand 1-4, the time card in space 3 or 4, as in
    `tests.test_bound_sweep`) played at random until its last Timeline phase queues its
    effects: the positions of its last turn before then (the game not over), and the position
    where play stopped."""
    st = new_game(Setup(hand=str(1 + (seed // 4) % 4), seed=seed, time_space=3 + seed % 2),
                  book())
    rng = Stream(seed, "fallback", 0)
    line = []
    while not st.is_terminal() and (st.turn < last_turn(st) or _before_timeline(st)):
        if _before_timeline(st) and not st.over:
            line.append(st.clone())
        legal = st.legal_actions()
        st.apply(legal[rng.below(len(legal))])
    return line, st


def test_every_card_counts_where_the_tighter_count_finds_none() -> None:
    """The last turn of a random game (deal 82: hand 1, time space 3), both action choices
    left, the deck at 111 cards: the count of the cards that can enter play in time finds no
    bound (its rounds climb past the whole deck, to 115 at the sixth: a reshuffle may come), so
    the count is the module's own, every card out of the Past acting: bounded, above the deck
    (the discard pile may be reached), and at least the cards taken along the rest of the
    line."""
    line, end = _to_the_queue(82)
    facts = pool_facts(end)
    assert facts.takes is not None
    loose = [pos for pos in line
             if taken_before_timeline(pos, facts, facts.takes, ReachMemo()) >= UNBOUNDED]
    assert len(loose) == 1
    pos = loose[0]
    assert sum(1 for fr in pos.stack if fr[0] == D_ACTION) == 2 and len(pos.deck) == 111
    takes = DeckTakes()
    every = takes._every_card(pos, *takes._tables(pos))
    assert takes(pos) == every
    assert len(pos.deck) < every < UNBOUNDED
    assert end.reshuffles[0] == pos.reshuffles[0] and every >= len(pos.deck) - len(end.deck)


def test_every_card_counts_at_least_the_cards_that_can_enter_play() -> None:
    """The module's own count, the fallback, lets every card out of the Past act;
    `taken_before_timeline` only the cards that can enter play in time: where the latter finds
    a bound, the fallback is never the smaller (a count below it has left a card out). Every
    position of the last turn before its Timeline phase queues, along a random line of each of
    200 random deals (both time spaces, the four premade hands)."""
    asked = 0
    for seed in range(200):
        takes = DeckTakes()
        for pos in _to_the_queue(seed)[0]:
            facts, table, memo = takes._tables(pos)
            assert facts.takes is not None
            tight = taken_before_timeline(pos, facts, facts.takes, memo)
            if tight < UNBOUNDED:
                assert takes._every_card(pos, facts, table, memo) >= tight, seed
                asked += 1
    assert asked >= 800


def _last_actions(actions: int, draw: int, names: tuple[str, ...] = ("base",)) -> GameState:
    """The last turn, `actions` action choices left (the technology, decline and Timeline
    phases still to come), Anaximander (T6) learned, C3 in the Timeline, P2 and P4 in the Past
    (card set `names`); with `draw`, an effect of C1 that draws `draw` cards resolving on top
    of the stack."""
    st = position(hand=["C1"], timeline={2: ["C3"]}, past=["P2", "P4"], time_space=1, time_visits=2,
                  turn=16, techs=["T6"], names=names,
                  pending=[(F_TECH_PHASE,), (F_DECLINE_PHASE,), (F_TIMELINE_PHASE,),
                           *[(D_ACTION, i) for i in reversed(range(actions))]])
    if draw:
        st.stack.append((F_STEPS, idx(st, "C1"), (Step(op="draw", n=draw),), 0, 0, False))
    return st


@pytest.mark.parametrize(("actions", "draw", "count"), [(2, 0, 20), (1, 0, 10), (2, 2, 22),
                                                        (0, 3, 3)])
def test_every_card_counts_ten_a_dig_left_and_the_steps_in_flight(actions: int, draw: int,
                                                                  count: int) -> None:
    """With no card able to act (an empty table), the module's count is what the stack itself
    takes: 10 per action choice left (an Excavate draws until 10 in hand, D4) plus the cards
    the effect resolving draws (each step once)."""
    st = _last_actions(actions, draw)
    takes = DeckTakes()
    facts, _, memo = takes._tables(st)
    assert takes._every_card(st, facts, (), memo) == count


def test_every_card_counts_the_best_unlearned_technology_and_no_card_of_the_past() -> None:
    """Each Create may set off the largest immediate take of a builder card out of the Past and
    every "each time you CREATE" take; each Learn the immediate take of a technology not yet
    learned (the largest first). A learned technology (T6, 7) and a card of the Past (P2, 9)
    add nothing: only T1's 3 counts, once for the Learns, and C3's 4 + 1 per Create."""
    st = _last_actions(2, 0)
    takes = DeckTakes()
    facts, _, memo = takes._tables(st)
    r = reach(st, facts.activators, decline_phases_left(st), facts.poulnabrone, memo)
    assert r.learns >= 1 and r.creates + r.art_creates >= 1
    table = (CardTakes(card=idx(st, "T6"), tech=True, monument=False, immediate=7),
             CardTakes(card=idx(st, "T1"), tech=True, monument=False, immediate=3),
             CardTakes(card=idx(st, "P2"), tech=False, monument=True, immediate=9),
             CardTakes(card=idx(st, "C3"), tech=False, monument=True, immediate=4, on_create=1))
    assert (takes._every_card(st, facts, table, memo)
            == 20 + (r.creates + r.art_creates) * (4 + 1) + 3)


def test_every_card_counts_an_excavate_under_way_as_the_action_it_took() -> None:
    """Excavate chosen, the number of Past monuments still to choose: one action choice left
    and the Excavate under way, 10 each (its draw stops at 10 in hand, D4); each "each time
    you EXCAVATE" take (C3's 2, C5's 1) once per dig."""
    st = play(_last_actions(2, 0), "excavate")
    assert names_of(st) == ["#1", "#2"]
    takes = DeckTakes()
    facts, _, memo = takes._tables(st)
    assert takes._every_card(st, facts, (), memo) == 20
    table = (CardTakes(card=idx(st, "C3"), tech=False, monument=True, on_excavate=2),
             CardTakes(card=idx(st, "C5"), tech=False, monument=True, on_excavate=1))
    assert takes._every_card(st, facts, table, memo) == 20 + 2 * (2 + 1)


def test_every_card_counts_each_chest_under_the_board_once() -> None:
    """Effect chests under the board not yet used (RULES.md section 8: each used once) take
    what their steps draw: А draws 2, Л draws 3."""
    st = _last_actions(2, 0)
    st.setup = dataclasses.replace(st.setup, chest_data=load_chests())
    st.chests_under = sorted(CHEST_LETTERS.index(ch) for ch in ("А", "Л"))
    takes = DeckTakes()
    facts, _, memo = takes._tables(st)
    assert takes._every_card(st, facts, (), memo) == 20 + 2 + 3


def test_every_card_leaves_out_a_digger_that_cannot_leave_the_deck_in_time() -> None:
    """A card whose effect digs without bound (C20 here, marked so) acts only once it left the
    deck or the discard pile: at the deck's bottom, or in the discard pile with the deck not
    emptied, it is left out and the others still count (C3: 4 per Create); in the hand it may
    be created and act, so there is no bound."""
    st = _last_actions(2, 0)
    c20 = idx(st, "C20")
    takes = DeckTakes()
    facts, _, memo = takes._tables(st)
    r = reach(st, facts.activators, decline_phases_left(st), facts.poulnabrone, memo)
    digger = CardTakes(card=c20, tech=False, monument=True, action_unbounded=True)
    table = (digger, CardTakes(card=idx(st, "C3"), tech=False, monument=True, immediate=4))
    count = 20 + (r.creates + r.art_creates) * 4
    assert count < len(st.deck) - 1
    st.deck.remove(c20)
    st.deck.insert(0, c20)
    assert takes._every_card(st, facts, table, memo) == count
    st.deck.remove(c20)
    st.discard.append(c20)
    assert takes._every_card(st, facts, table, memo) == count
    st.discard.remove(c20)
    st.hand = sorted([*st.hand, c20])
    assert takes._every_card(st, facts, table, memo) >= UNBOUNDED


#: An artifact that draws a card each time you Excavate (the base set has no such card).
DIGGING_JOURNAL: dict[str, Any] = {
    "id": "Z1_DiggingJournal", "code": "Z1", "name": "Digging Journal", "type": "artifact",
    "number": 1, "country": "Nowhere", "starting_hand": None, "discard_cost": 0,
    "activation": "anytime", "text": "Each time you excavate a monument: draw 1 card.",
    "effects": [{"moment": "anytime", "trigger": {"event": "excavate", "rotated_at_least": 1},
                 "steps": [{"op": "draw", "n": 1}]}]}


def test_the_table_holds_each_card_that_can_take_before_the_queue(tmp_path: Path) -> None:
    """The fallback's table lists every card of the pool with a take before the Timeline
    phase queues (immediate, on a Create, a Learn or an Excavate), each under its own card:
    with the Digging Journal in the pool, its draw on each Excavate is there."""
    st = _last_actions(2, 0, user_set(tmp_path / "dig.json", builders=[DIGGING_JOURNAL]))
    _, table, _ = DeckTakes()._tables(st)
    cards = st.book.cards
    assert all(t == card_takes(t.card, cards[t.card]) for t in table)
    by_code = {cards[t.card].code: t for t in table}
    assert by_code["Z1"].on_excavate == 1
    assert all(t.immediate or t.on_create or t.on_learn or t.on_excavate or t.action_unbounded
               for t in table)
