"""What nothing can read any more after the last decline: the facts the end-game dominance rules
(`solver.guidance.dominance`) and the search key (`solver.game.HeritageGame.search_key`) use.

The last decline (RULES.md section 4): the time card moves on its own (D18: no effect moves it),
so the game ends during the decline phase of the last turn (`turns_for`), at once (D8: no monument
declines then, no technology phase follows). The last decline phase that moves monuments is the
one of the turn before; once it is over, no monument reaches the Past again (only a decline
moves a card to the Past: `solver.engine.decline.decline_finish`).

Knowledge on Timeline monuments (its *tokens*) then counts for nothing by itself: tokens become
lost knowledge only when their monument declines (section 4C step 2, D2), and the score sheet has
no row for them (section 7). They still matter while something can *read* them:

* a goal chest with the ``tl_tokens`` counter (section 8), or a chest effect under the board
  whose steps read them;
* the requirement of a technology not yet learned that reads them (a card set may write one:
  it is checked at the Learn, section 5);
* an effect whose condition, amount (``per``), target filter (``min_tokens``,
  ``exact_tokens``) or end-game score reads ``tl_tokens`` or ``self.tokens``, unless all it can
  do is remove knowledge (then what it reads only changes tokens again). Decline effects
  (``vanish_if_knowledge``, C19's filter) never run again after the last decline. An end-game
  score reads at the end only if its card is in the Past. Any other such effect can still run
  while its card is out of the Past, except a Timeline effect once the last Timeline phase has
  queued its effects (section 4B): then only the queued ones (and the frames on the stack)
  still run; before that, in the last turn, one that is out of play, out of the hand and not
  being resolved runs only if it can still enter play (`_may_enter_play`), and one in the deck
  with more cards above it than can still leave the deck before that Timeline phase (or in the
  discard pile, with no more than the deck's cards able to leave) never reaches the hand in
  time (`_may_leave_deck`, with a count of those cards passed in: `Takes`).

When none of these can happen, the tokens are *dead*: two positions that differ only in tokens
have the same futures, and a choice that only changes tokens changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from solver.engine.cards import Card, Effect, Step, all_steps
from solver.engine.frames import (
    D_ACTION,
    D_CHEST_WINDOW,
    F_DECLINE_PHASE,
    F_TECH_PHASE,
    F_TIMELINE_PHASE,
    F_TURN_END,
)
from solver.engine.goals import counters_of
from solver.engine.setup import turns_for
from solver.engine.state import CHEST_BASE, GameState
from solver.frozen import Frozen

TOKEN_COUNTERS: Final = frozenset({"tl_tokens", "self.tokens"})
#: The most builder cards that can still leave the deck from a position in the last turn until
#: its Timeline phase queues its effects (`solver.bounds.decktakes.DeckTakes`).
#: Called with the position and its `GameState.key()` when the caller has it (None: not).
Takes = Callable[[GameState, "tuple[object, ...] | None"], int]


def last_turn(st: GameState) -> int:
    """The turn during whose decline phase the game ends (RULES.md section 4)."""
    return turns_for(st.setup.time_space)


def after_last_decline(st: GameState) -> bool:
    """True when no decline phase that moves monuments is still to come or in progress (see the
    module): the last turn, or the turn before it once its decline phase is over."""
    if st.over:
        return True
    last = last_turn(st)
    if st.turn >= last:
        return True
    if st.turn < last - 1 or st.in_decline:
        return False
    return not any(fr[0] == F_DECLINE_PHASE for fr in st.stack)


def _effect_reads_tokens(e: Effect) -> bool:
    """Whether effect `e` reads the knowledge on Timeline monuments: a condition or a score on a
    token counter, a step counting tokens or choosing its target by them, a decline effect that
    vanishes when its card holds knowledge, or an optional effect opened by a removal that does
    more (offered only while a token is left). A step's ``then`` runs only after a payment (the
    card-set loader refuses it elsewhere), so a removal is never followed by steps of its own."""
    if any(c.counter in TOKEN_COUNTERS for c in e.condition):
        return True
    if e.score is not None and (e.score.per in TOKEN_COUNTERS or e.score.counter in TOKEN_COUNTERS):
        return True
    if (e.optional and e.steps and e.steps[0].op == "remove_knowledge"
            and not removes_only(e)):
        return True  # offered only if a token can be removed: the rest depends on tokens
    for s in all_steps(e.steps):
        if s.per in TOKEN_COUNTERS or s.op == "vanish_if_knowledge":
            return True
        if s.filter.min_tokens is not None or s.filter.exact_tokens is not None:
            return True
    return False


def removes_only(e: Effect) -> bool:
    """An effect all of whose steps remove knowledge (it changes tokens and nothing else)."""
    return bool(e.steps) and e.special is None and all(
        s.op == "remove_knowledge" for s in all_steps(e.steps))


@dataclass(frozen=True)
class TokenReaders(Frozen):
    """Who can read tokens in one game (fixed once it is dealt).

    :param scores: cards whose end-game score reads tokens (they read at the end from the Past).
    :param timeline: cards whose only live token readers are Timeline effects.
    :param anytime: cards with a token reader at another moment (immediate, anytime, a trigger).
    :param chests: chest letters whose goal or effect reads tokens.
    :param requirements: technologies whose requirement reads tokens (while not learned).
    """

    scores: frozenset[int]
    timeline: tuple[int, ...]
    anytime: tuple[int, ...]
    chests: frozenset[int]
    requirements: frozenset[int]


def token_readers(st: GameState) -> TokenReaders:
    """The `TokenReaders` of the game `st` belongs to."""
    scores: set[int] = set()
    timeline: list[int] = []
    anytime: list[int] = []
    requirements: set[int] = set()
    for c in sorted(st.setup.card_pool(st.book)):
        card: Card = st.book.cards[c]
        if any(clause.counter in TOKEN_COUNTERS for clause in card.requirement):
            requirements.add(c)
        moments = set()
        for e in card.effects:
            if not _effect_reads_tokens(e):
                continue
            if e.moment == "endgame" or e.score is not None:
                scores.add(c)
            elif e.moment == "decline" or removes_only(e):
                continue  # never runs again / changes only tokens
            else:
                moments.add("timeline" if e.moment == "timeline" and e.trigger is None else "any")
        if "any" in moments:
            anytime.append(c)
        elif moments:
            timeline.append(c)
    chests: set[int] = set()
    data = st.setup.chest_data
    if data is not None:
        for k, chest in enumerate(data.chests):
            if TOKEN_COUNTERS & counters_of(chest.goal) or any(
                    s.per in TOKEN_COUNTERS or s.filter.min_tokens is not None
                    or s.filter.exact_tokens is not None for s in all_steps(chest.steps)):
                chests.add(k)
    return TokenReaders(frozenset(scores), tuple(timeline), tuple(anytime), frozenset(chests),
                        frozenset(requirements))


class TokenReadersCache:
    """The `TokenReaders` of the last game asked about (a search asks about one game)."""

    def __init__(self, takes: Takes | None = None) -> None:
        self._setup: object = None
        self._book: object = None
        self._readers: TokenReaders | None = None
        self.takes = takes  # see `tokens_dead`

    def readers(self, st: GameState) -> TokenReaders:
        if self._readers is None or st.setup is not self._setup or st.book is not self._book:
            self._setup, self._book = st.setup, st.book
            self._readers = token_readers(st)
        return self._readers


def mentioned(st: GameState, card: int) -> bool:
    """Whether `card` appears in a pending frame (a queued effect, an effect resolving): an
    over-approximation (any equal number in a frame counts)."""
    for fr in st.stack:
        for item in fr[1:]:
            if item == card:
                return True
            if isinstance(item, tuple) and _contains(item, card):
                return True
    return False


def _contains(items: tuple[object, ...], card: int) -> bool:
    return any(item == card or (isinstance(item, tuple) and _contains(item, card))
               for item in items)


def tokens_dead(st: GameState, readers: TokenReaders, takes: Takes | None = None,
                position: tuple[object, ...] | None = None) -> bool:
    """True when nothing can read tokens any more (see the module): after the last decline, no
    goal or chest under the board that reads them, no technology not learned whose requirement
    reads them, no end-game score in the Past that reads them, and every other reader either
    in the Past or a Timeline reader after the last Timeline phase has queued its effects
    without it (or, before, one that cannot enter play in time; `takes`: the count of
    `_may_leave_deck`, none: that test is skipped; `position`: `st.key()`, when the caller has
    it)."""
    if not after_last_decline(st):
        return False
    if readers.chests and any(k in readers.chests for k in (*st.goal_chests, *st.chests_under)):
        return False
    if readers.requirements and any(t not in st.techs for t in readers.requirements):
        return False
    past = st.past
    if any(c in past for c in readers.scores):
        return False
    if any(c not in past for c in readers.anytime):
        return False
    if readers.timeline:
        last = st.turn >= last_turn(st)
        queued = last and not any(fr[0] == F_TIMELINE_PHASE for fr in st.stack)
        enters: bool | None = None
        taken = -1
        for c in readers.timeline:
            if c in past:
                continue
            if queued and not mentioned(st, c):
                continue
            if last and not queued and not mentioned(st, c) and not _in_reach(st, c):
                if enters is None:
                    enters = _may_enter_play(st)
                if not enters:
                    continue
                if takes is not None:
                    if taken < 0:
                        taken = takes(st, position)
                    if not _may_leave_deck(st, c, taken):
                        continue
            return False
    return True


#: The frames of a turn that is not resolving anything (`solver.engine.turn.turn_start`).
QUIET: Final = frozenset({F_TURN_END, F_TECH_PHASE, F_DECLINE_PHASE, F_TIMELINE_PHASE, D_ACTION,
                          D_CHEST_WINDOW})
ENABLING_OPS: Final = frozenset({"create", "ancient_greek", "learn", "niches"})
#: Steps that take cards from the top of the deck into the hand (`GameState.take_top`).
DECK_OPS: Final = frozenset({"draw", "reveal_keep", "reveal_until"})


def _in_reach(st: GameState, card: int) -> bool:
    """In play, in hand, or between zones: it may be in play when the Timeline phase starts."""
    return (card in st.hand or card in st.limbo or card in st.artifacts
            or any(card in sp for sp in st.spaces))


def _may_leave_deck(st: GameState, card: int, taken: int) -> bool:
    """Whether `card` may leave the deck when at most `taken` cards can (see the module): the
    deck's top is its last card, and the discard pile is shuffled in only once the deck is
    empty (RULES.md section 5); a card in neither: yes."""
    deck = st.deck
    if card in deck:
        above = len(deck) - 1 - deck.index(card)
        return taken > above
    if card in st.discard:
        return taken > len(deck)
    return True


def _enables(steps: tuple[Step, ...]) -> bool:
    return any(s.op in ENABLING_OPS for s in all_steps(steps))


def _may_enter_play(st: GameState) -> bool:
    """Whether a card now in the deck or the discard pile may still enter play before the
    last Timeline phase (section 5: only a Create puts a card into play, from the hand or, for
    Ancient Greek, from the cards it reveals). Over-approximated: yes while anything is being
    resolved or two actions are left (draw, then create); yes if a lightning chest under the
    board can create or learn (section 8: it is used at an action choice or a chest window,
    without an action, so even with no action left; a Learn may reveal and create); with one
    action left, yes if such a chest can take cards from the deck (it draws the card, the last
    action creates it), or a card in hand, an available technology, or a trigger of a card in
    play can create or learn, or Poulnabrone Dolmen is in play (each Create grants one more);
    otherwise no."""
    actions = 0
    for fr in st.stack:
        if fr[0] not in QUIET:
            return True
        actions += fr[0] == D_ACTION
    if actions >= 2:
        return True
    data = st.setup.chest_data
    chests = [data.chests[k].steps for k in st.chests_under] if data is not None else []
    if any(_enables(steps) for steps in chests):
        return True
    if actions == 0:
        return False
    if any(s.op in DECK_OPS for steps in chests for s in all_steps(steps)):
        return True
    cards = st.book.cards
    for c in (*st.hand, *st.available_techs()):
        if any(_enables(e.steps) for e in cards[c].effects):
            return True
    for c in (*st.artifacts, *(x for sp in st.spaces for x in sp)):
        if 0 <= c < CHEST_BASE and any(
                (e.trigger is not None and _enables(e.steps)) or e.special == "poulnabrone"
                for e in cards[c].effects):
            return True
    return False


#: Where `GameState.key()` keeps the hand, the deck, the discard pile and the tokens (checked by
#: the tests).
KEY_HAND: Final = 0
KEY_DECK: Final = 1
KEY_DISCARD: Final = 2
KEY_TOKENS: Final = 4


def search_key(st: GameState, readers: TokenReaders,
               takes: Takes | None = None, alike: bool = False) -> tuple[object, ...]:
    """The transposition key of `st` for the exact search: `GameState.key()` less what nothing
    can read. Equal keys still mean equal futures:

    * the discard pile as a sorted tuple: the only reader of its order is the reshuffle, which
      sorts it first (RULES.md section 3.1, `GameState.reshuffle_builder`); everything else asks
      whether a card is in it;
    * no tokens once they are dead (`tokens_dead`: after the last decline nothing reads them);
    * with `alike` (`solver.guidance.handcards.hand_cards_alike`: no card of the hand, the deck
      or the discard pile can enter play any more and nothing reads their kinds), the number of
      cards in each instead of the cards.
    """
    key = st.key()
    tokens = () if tokens_dead(st, readers, takes, key) else key[KEY_TOKENS]
    if alike:
        cards: tuple[object, ...] = (len(st.hand), len(st.deck), len(st.discard))
    else:
        cards = (key[KEY_HAND], key[KEY_DECK], tuple(sorted(st.discard)))
    return (*cards, key[KEY_DISCARD + 1], tokens, *key[KEY_TOKENS + 1:])
