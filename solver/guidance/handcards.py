"""When the cards in the hand are told apart by nothing but their number: the fact behind the
dominance rule on discards from the hand (`solver.guidance.dominance`, Rule 5).

Which card of the hand is which matters only to:

* a Create, which picks its card in the hand (RULES.md section 5), and through the card created
  everything it does and scores; and the deck and the discard pile only by the cards they later
  put into the hand (a card leaves the deck only into the hand or by a look, and the discard pile
  only by becoming the deck when it is empty, section 5; no effect takes a card from either);
* an effect that reads the *kind* of cards in the hand or the deck: a cost or discard limited to a
  card type (Moai Statue A7: two artifact cards from the hand), a count of the artifacts in the
  hand (``hand.artifact``), Calakmul's reveal (P33: the cities turned up go to the hand; its
  count depends on what the deck holds, so on which cards were discarded before a reshuffle),
  the requirement of a technology not yet learned that counts some cards of the hand (a card
  set may write one; checked at the Learn, section 5).

Every other reader counts the hand (the hand limit, D4; the ``hand`` counter of conditions and
goals) or takes any cards of it (an Archive, a discard, a cost). So when no Create whose card is
not yet picked can come (`solver.bounds.createsleft`: an object passed in, the bounds being
another room) and no effect that reads kinds can still run, the futures of two positions that
differ only in which cards are in the hand, the deck and the discard pile (with the same number
in each) are the same.

An effect of a builder card runs only while the card is in play or being resolved (an immediate
effect once it is created: none is, then), an end-game score only from the Past (section 7), a
decline effect only while a decline phase is still to come; a technology's immediate effect when
it is learned (any technology not learned counts as able to run, and a learned one while its
effect is still resolving: `gain_technology` adds it to the technologies before its effect
runs). A chest under the board or a goal that reads kinds counts as always able to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from solver.engine.cards import Effect, Step, all_steps
from solver.engine.goals import counters_of
from solver.engine.state import GameState
from solver.frozen import Frozen
from solver.guidance.endgame import after_last_decline, mentioned

#: The moment of a reader that is a technology's requirement (`KindReaders.cards`).
REQUIREMENT: Final = "requirement"
#: Whether a Create whose card is not yet picked may still come (`solver.bounds.createsleft`).
CreatesLeft = Callable[[GameState], bool]


def _kind_counter(counter: str | None) -> bool:
    """A counter of some of the cards in the hand (``hand.artifact``; ``hand`` counts them all)."""
    return counter is not None and counter.startswith("hand.")


def _steps_read_kinds(steps: tuple[Step, ...]) -> bool:
    """A step limited to a card type, counting some cards of the hand, or Calakmul's reveal."""
    return any(s.card_type is not None or _kind_counter(s.per) or s.op == "reveal_until"
               for s in all_steps(steps))


def _reads_kinds(e: Effect) -> bool:
    if any(_kind_counter(c.counter) for c in e.condition):
        return True
    if e.score is not None and (_kind_counter(e.score.per) or _kind_counter(e.score.counter)):
        return True
    return _steps_read_kinds(e.steps)


@dataclass(frozen=True)
class KindReaders(Frozen):
    """Who can read the kinds of cards in the hand or the deck in one game (fixed once dealt).

    :param cards: (card, moment) of every card effect that does, and (technology,
        ``"requirement"``) of every requirement that does.
    :param chests: a chest of the setup does (its goal or its effect).
    """

    cards: tuple[tuple[int, str], ...]
    chests: bool


def kind_readers(st: GameState) -> KindReaders:
    """The `KindReaders` of the game `st` belongs to."""
    cards = st.book.cards
    pool = sorted(st.setup.card_pool(st.book))
    found = tuple((c, e.moment) for c in pool for e in cards[c].effects if _reads_kinds(e))
    found += tuple((c, REQUIREMENT) for c in pool
                   if any(_kind_counter(clause.counter) for clause in cards[c].requirement))
    data = st.setup.chest_data
    chests = data is not None and any(
        any(_kind_counter(c) for c in counters_of(ch.goal)) or _steps_read_kinds(ch.steps)
        for ch in data.chests)
    return KindReaders(found, chests)


class KindReadersCache:
    """The `KindReaders` of the last game asked about (a search asks about one game)."""

    def __init__(self) -> None:
        self._setup: object = None
        self._book: object = None
        self._readers: KindReaders | None = None

    def readers(self, st: GameState) -> KindReaders:
        if self._readers is None or st.setup is not self._setup or st.book is not self._book:
            self._setup, self._book = st.setup, st.book
            self._readers = kind_readers(st)
        return self._readers


def _may_run(st: GameState, card: int, moment: str) -> bool:
    """Whether an effect of `card` at `moment` that reads kinds may still run, no Create being
    able to come (see the module)."""
    if moment == REQUIREMENT:  # read at a Learn of it
        return card not in st.techs
    if st.book.cards[card].is_tech:
        return card not in st.techs or moment != "immediate" or mentioned(st, card)
    if moment == "endgame":
        return card in st.past or card in st.in_play()
    if card in st.past:
        return False
    if moment == "decline" and after_last_decline(st):
        return False
    return card in st.in_play() or card in st.limbo or mentioned(st, card)


def hand_cards_alike(st: GameState, readers: KindReaders, creates_left: CreatesLeft) -> bool:
    """Whether the cards in the hand, the deck and the discard pile are told apart by nothing
    but their number from `st` on (see the module)."""
    if readers.chests or creates_left(st):  # the cheap answers of `creates_left` come first
        return False
    return not any(_may_run(st, c, m) for c, m in readers.cards)
