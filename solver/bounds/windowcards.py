"""What a window of the last decline leaves open (`Window`, see `solver.bounds.window`), and the
cards that may be in play before the game ends from every turn-16 start it reaches, for the
simple bound of its passive starts: `present_for_all`, by split of turn 16's action choices too
(`SplitAnswers`), and the copy of a start that bound reads (`bare`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from solver.bounds.actiontakes import action_takes
from solver.bounds.poolfacts import PoolFacts
from solver.bounds.reachable import ReachMemo, ReachSummary, reach
from solver.bounds.simple import TAKE_ROUNDS
from solver.bounds.splitplay import (
    Entry,
    Split,
    SplitCards,
    no_create,
    one_split,
    split_entry,
    take_context,
)
from solver.bounds.takes import enters_after_actions
from solver.engine.state import HAND_LIMIT, GameState
from solver.frozen import Frozen

#: Answers kept (`ReachMemo.window`, `ReachMemo.present`; then forgotten at once).
WINDOW_KEPT: Final = 1 << 16


@dataclass(frozen=True)
class Window(Frozen):
    """What the window of a position leaves open (see `solver.bounds.window`).

    :param start: the turn-16 start reached by declining every optional effect (but the
        Learn, the emptied C25-C29, the chests used, the move and the Create that it stands
        for: `solver.bounds.window.passive_starts`).
    :param lost_lo: the least lost knowledge a line that reaches `start` can end with (the
        window's removals against the knowledge of the monuments new in its Past,
        `solver.bounds.windowwork.declined_knowledge`).
    :param lost_hi: the most.
    :param draws: the most cards the window can take from the deck.
    :param hand_least: the fewest cards the hand can hold at turn 16's start (the hand now
        less every payment still to come).
    """

    start: GameState
    lost_lo: int
    lost_hi: int
    draws: int
    hand_least: int


def present_for_all(w: Window, st: GameState, facts: PoolFacts, memo: ReachMemo,
                    split: Split | None = None, learnable: frozenset[int] | None = None,
                    kept: bool = False) -> tuple[set[int], int] | None:
    """The builder cards that may be in play before the game ends from any turn-16 start the
    window of `st` reaches, or None (no restriction): the cards in play at the passive start,
    in hand now, between zones now, and the deck's top down to the window's draws plus ``t``
    cards, where ``t`` is a count of the cards turn 16 can take before its Timeline phase with
    only those cards entering play, the hand's room at its most (`Window.hand_least` cards in
    it) and lost knowledge at its most (`Window.lost_hi`: `reach` counts the effects gated by
    lost knowledge up to it): a count that is at least its own `action_takes` bounds every
    such start, as in `solver.bounds.simple.taken_before_timeline`), provided no card can
    enter play after turn 16's action phase (`solver.bounds.takes.enters_after_actions`);
    with them, the most cards that can leave the deck until then (the window's draws plus
    ``t``). With `split`, on the
    lines that spend turn 16's action choices so (`solver.bounds.splitplay`: ``t`` counted
    with that split's counts alone; `learnable`: the technologies that may still enter the
    collection, the others never act). None where the deck may run out. With `kept`, worked
    out once for what it reads (`ReachMemo.present`): the start but its hand, deck, discard
    pile and knowledge on monuments (`reach`, `action_takes` given the hand's room and
    `enters_after_actions` read none of them), the hand and the cards between zones now as a
    set, the deck now, the window's draws and least hand, `split` and `learnable`."""
    if facts.takes is None:
        return None
    start = bare(w.start, w.lost_hi)  # it reads no hand, deck, discard pile or knowledge
    if not kept:
        found = _present_for_all(w, start, st, facts, memo, split, learnable)
        return None if found is None else (set(found[0]), found[1])
    key = (start.key(), frozenset(st.hand + st.limbo), tuple(st.deck), w.draws, w.hand_least,
           split, learnable)
    if key not in memo.present:
        if len(memo.present) >= WINDOW_KEPT:
            memo.present.clear()
        memo.present[key] = _present_for_all(w, start, st, facts, memo, split, learnable)
    found = memo.present[key]
    return None if found is None else (set(found[0]), found[1])


def _present_for_all(w: Window, start: GameState, st: GameState, facts: PoolFacts,
                     memo: ReachMemo, split: Split | None,
                     learnable: frozenset[int] | None) -> tuple[frozenset[int], int] | None:
    """`present_for_all` worked out, from `start` (`w`'s with lost knowledge at its most)."""
    table = facts.takes
    assert table is not None
    base = held(w, st)
    deck = st.deck
    taken = 0
    # what every round reads of `start`
    context = take_context(start, table, learnable, memo)
    summary = ReachSummary(start, facts.activators, 0, memo, True)
    for _ in range(TAKE_ROUNDS):
        depth = w.draws + taken
        if depth >= len(deck):
            return None
        present = base | set(deck[len(deck) - depth:]) if depth else set(base)
        r = reach(start, facts.activators, 0, facts.poulnabrone, memo, True, present, learnable,
                  summary)
        if split is not None:
            entry = split_entry(r, split)
            if entry is None:
                return None
            r = one_split(entry)
        more = action_takes(start, table, r, present, HAND_LIMIT - w.hand_least, learnable,
                            context)
        if more <= taken:
            if enters_after_actions(start, table, present, memo):
                return None
            return frozenset(present), depth
        taken = more
    return None


def split_cards_for_all(w: Window, st: GameState, facts: PoolFacts, memo: ReachMemo,
                        split: Split, learnable: frozenset[int] | None,
                        kept: bool = False) -> SplitCards | None:
    """`solver.bounds.splitplay.split_present`'s answer for `split` at every turn-16 start
    the window of `st` reaches (`present_for_all` with `split`): the cards that may be in play,
    and the most cards that pass through the hand until turn 16's Timeline phase (in it now,
    between zones now, or taken from the deck: a Create in the window takes one from the hand
    and adds none). `learnable`: the technologies that may still enter the collection (the
    others never act); `kept` as in `present_for_all`."""
    found = present_for_all(w, st, facts, memo, split, learnable, kept)
    if found is None:
        return None
    present, depth = found
    return present, len(st.hand) + len(st.limbo) + depth


class SplitAnswers:
    """`split_cards_for_all` of one window at one position, each answer worked out once
    (`kept`: and kept across positions, as in `present_for_all`)."""

    def __init__(self, w: Window, st: GameState, facts: PoolFacts, memo: ReachMemo,
                 kept: bool = False) -> None:
        self.w = w
        self.kept = kept
        self.st = st
        self.facts = facts
        self.memo = memo
        self.known: dict[tuple[Split, frozenset[int] | None], SplitCards | None] = {}

    def answer(self, split: Split, learnable: frozenset[int] | None) -> SplitCards | None:
        key = (split, learnable)
        if key not in self.known:
            self.known[key] = split_cards_for_all(self.w, self.st, self.facts, self.memo,
                                                  split, learnable, self.kept)
        return self.known[key]

    def first(self, e: Entry, learnable: frozenset[int] | None) -> set[int] | None:
        """`solver.bounds.splitplay.first_cards` at every turn-16 start the window reaches:
        the cards in play at the passive start, in hand or between zones now, and the deck's
        top down to the window's draws plus what turn 16's split of `e` takes with no Create
        and only the cards in play or between zones acting (the hand's room at its most, as
        in `present_for_all`); None where the deck may run out."""
        table = self.facts.takes
        if table is None:
            return None
        start = self.w.start
        before = set(start.in_play())
        before.update(start.limbo)
        before.update(self.st.limbo)
        taken = action_takes(start, table, no_create(e), before,
                             HAND_LIMIT - self.w.hand_least, learnable,
                             take_context(start, table, learnable, self.memo))
        depth = self.w.draws + taken
        deck = self.st.deck
        if depth >= len(deck):
            return None
        return held(self.w, self.st) | set(deck[len(deck) - depth:] if depth else ())


def held(w: Window, st: GameState) -> set[int]:
    """The builder cards of every turn-16 start the window of `st` reaches that need no card
    from the deck: those in play at its passive start, in hand or between zones now (the
    window's work creates and moves nothing, so what is in play is the passive start's)."""
    out = set(st.hand)
    out.update(st.limbo)
    out.update(w.start.in_play())
    return out


def bare(start: GameState, lost: int) -> GameState:
    """A copy of `start` with `lost` lost knowledge and no cards in hand, deck or discard pile
    and no knowledge on monuments: what the simple bound reads of it when it is told the cards
    that may be in play (it reads the hand, the deck and the discard pile only to count those,
    and never reads knowledge on monuments), so that starts that differ only there share a
    key."""
    s = start.clone()
    s.lost = lost
    s.hand = []
    s.deck = []
    s.discard = []
    s.tokens = [0] * len(s.tokens)
    return s
