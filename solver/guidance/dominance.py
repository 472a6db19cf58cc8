"""Dominance rules: options a search may skip because another option reaches the same outcome.

Each rule names the decision it thins and the argument why no better line is lost. The engine
itself never prunes (a player may take any legal option); searches call `prune`.

Rule 1 (decline order, RULES.md section 4C step 2). Two monuments in space 1 neither of which
  has a decline effect: each decline only moves its knowledge to lost knowledge and the card to
  the Past (or the discard pile); the middle-of-game flip, if it happens between them, reads
  nothing the second decline changes. Both orders reach the same state, so only the first
  option is searched. Only while no lightning chest is usable: one may be used in the window
  between the two declines (`solver.engine.chests`), where the orders differ (which monument
  is in the Past, which still in space 1).

Rule 2 (Timeline phase order, section 4B). When every effect still queued is a "pure draw"
  (only fixed ``draw`` steps, with no condition on the hand), the effects commute: each takes
  the next cards of the same deck until 10 in hand, whatever the order, and none of them reads
  what another changes. Only the first option is searched.

Rule 3 (commuting effects, D15). An order decision resolves a queue of effects one at a time.
  If the effect an option starts *commutes* with every other effect of the queue, any order of
  the queue reaches the same outcomes as one that starts with it (move it to the front by
  swapping neighbours), so only that option is searched (the first such option). Two effects
  commute when neither changes what the other reads or changes (`footprint`: hand and deck,
  lost knowledge, tokens, and every counter its condition reads; any other step, a trigger or
  a chest counts as reading and changing everything), with two exceptions argued in
  `_commute`: two fixed draws commute (every draw takes the next cards of the same deck until
  10 in hand, RULES.md D4: the same cards either way), and two lost-knowledge removals commute
  (``max(0, lost - a - b)`` either way; with "up to" the same range of results, D22). An
  effect that can only remove knowledge commutes with everything once the tokens are dead
  (`solver.guidance.endgame`: nothing can read them any more, so what it does is nothing);
  likewise, a knowledge removal inside another effect is left out of its footprint then (when
  nothing else of the effect depends on it: not asked as "you may", no steps after it).
  Rules 2 and 3 hold only while no lightning chest under the board is usable: one may be used
  in the window between two effects of the queue (`solver.engine.chests`), and a chest reads and
  changes anything, so moving an effect across that window could change what it does. (Chests
  under the board only leave during a game: none usable now, none usable later.)

Rule 4 (dead knowledge removals, RULES.md section 5 Archive and removal effects). Once the
  tokens are dead (`solver.guidance.endgame.tokens_dead`), the choice of the monument a token is
  removed from (and whether to stop an "up to" removal) changes only tokens: every option
  reaches the same futures, so only the first is searched.

Rule 5 (cards from the hand alike, section 5 Create, Archive and costs). A payment, an Archive or
  a discard picks cards of the hand one at a time in rising card order (`solver.engine.costs`,
  `solver.engine.archive`): a set of cards is one sequence. Once the cards of the hand are told
  apart by nothing but their number (`solver.guidance.handcards.hand_cards_alike`: no Create of a
  card not yet picked can come, no effect that reads kinds can run), two sets of the same size
  reach the same futures (the hand, the deck and the discard pile then differ only in which
  cards they hold, not in how many). So only the sets of the smallest cards are searched: a card
  is offered only while no smaller card stays in the hand (the other options, ``done`` or
  ``no``, stay). The sequence of the ``k`` smallest cards picks, each time, the smallest card
  left, so every size of set is still searched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from solver.engine import actions as A
from solver.engine.cards import Effect, all_steps
from solver.engine.chests import lightning_options
from solver.engine.frames import (
    D_ARCHIVE,
    D_DECLINE_ORDER,
    D_DISCARD_VAR,
    D_ORDER,
    D_PAY,
    D_REMOVE,
    D_TARGET,
)
from solver.engine.state import CHEST_BASE, GameState
from solver.engine.targets import REMOVAL_PURPOSES
from solver.guidance.endgame import (
    Takes,
    TokenReaders,
    TokenReadersCache,
    removes_only,
    token_readers,
    tokens_dead,
)
from solver.guidance.handcards import CreatesLeft, KindReadersCache, hand_cards_alike

HAND_COUNTERS: Final = frozenset({"hand", "hand.artifact"})
HAND: Final = "hand"
DECK: Final = "deck"
LOST: Final = "lost"
TOKENS: Final = "tokens"
EVERYTHING: Final = "*"
#: What a condition's counter reads (RULES.md section 2 zones); any other counter: everything.
COUNTER_READS: Final = {
    "hand": HAND, "hand.artifact": HAND, "lost": LOST, "tl_tokens": TOKENS, "self.tokens": TOKENS,
}
DRAW: Final = 0
LOST_REMOVAL: Final = 1
INERT: Final = 2
OTHER: Final = 3
#: Decisions that pick cards of the hand one at a time in rising card order (Rule 5).
HAND_PICKS: Final = frozenset({D_PAY, D_ARCHIVE, D_DISCARD_VAR})


@dataclass(frozen=True)
class Footprint:
    """What resolving one effect may read and change (`Rule 3`).

    :param kind: ``DRAW`` (fixed draws only), ``LOST_REMOVAL`` (lost-knowledge removals only),
        ``INERT`` (changes nothing anything reads), ``OTHER``.
    :param condition: what its condition reads (beyond what its steps read).
    :param reads: everything it reads; :param writes: everything it changes.
    """

    kind: int
    condition: frozenset[str]
    reads: frozenset[str]
    writes: frozenset[str]


ALL: Final = frozenset({EVERYTHING})
OTHER_PRINT: Final = Footprint(OTHER, ALL, ALL, ALL)
INERT_PRINT: Final = Footprint(INERT, frozenset(), frozenset(), frozenset())


def footprint(e: Effect, dead: bool) -> Footprint:
    """The `Footprint` of effect `e`; `dead`: the tokens are dead (see the module), so its
    knowledge removals change nothing anything reads and are left out."""
    if e.trigger is not None or e.special is not None or not e.steps:
        return OTHER_PRINT
    if dead and removes_only(e):
        return INERT_PRINT
    cond = frozenset(_reads(c.counter) for c in e.condition)
    steps = [s for s in all_steps(e.steps)
             if not (dead and s.op == "remove_knowledge" and not s.then and not e.optional)]
    if all(s.op == "draw" and s.per is None for s in steps):
        return Footprint(DRAW, cond, cond | {HAND, DECK}, frozenset({HAND, DECK}))
    if all(s.op == "discard_lost" and s.per is None for s in steps):
        return Footprint(LOST_REMOVAL, cond, cond | {LOST}, frozenset({LOST}))
    return OTHER_PRINT


def _reads(counter: str) -> str:
    """The zone a condition's counter reads (`COUNTER_READS`; a Past, Timeline or technology
    count: that zone; anything else: everything)."""
    known = COUNTER_READS.get(counter)
    if known is not None:
        return known
    head = counter.split(".")[0]
    return head if head in ("past", "timeline", "techs") else EVERYTHING


def _meets(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a & b) or (bool(a) and EVERYTHING in b) or (bool(b) and EVERYTHING in a)


def _commute(a: Footprint, b: Footprint) -> bool:
    """Whether two effects reach the same outcomes in either order (Rule 3).

    Disjoint footprints commute. Two fixed draws also commute when neither condition reads what
    the other changes: each draw takes the next cards of the same deck (refilled the same way
    when empty) and stops at 10 in hand (D4), so ``min(a, room)`` then ``min(b, room - drawn)``
    is ``min(a + b, room)`` cards, the same ones, in either order; the hand is kept sorted.
    Two lost-knowledge removals likewise: ``max(0, lost - a - b)`` either way."""
    if a.kind == INERT or b.kind == INERT:
        return True
    if a.kind == OTHER or b.kind == OTHER:
        return False
    if a.kind == b.kind:
        return not _meets(a.condition, b.writes) and not _meets(b.condition, a.writes)
    return not _meets(a.writes, b.reads | b.writes) and not _meets(b.writes, a.reads)


def _has_decline_effect(st: GameState, card: int) -> bool:
    return any(e.moment == "decline" and not e.opponents_only for e in st.book.cards[card].effects)


def _pure_draw(e: Effect) -> bool:
    return (e.trigger is None and not e.optional and bool(e.steps)
            and all(s.op == "draw" and s.per is None and not s.optional for s in e.steps)
            and not any(c.counter in HAND_COUNTERS for c in e.condition))


def prune(st: GameState, actions: Sequence[int],
          readers: TokenReaders | None = None, takes: Takes | None = None) -> Sequence[int]:
    """The options of the pending decision that a search needs to try (a non-empty subset).
    `readers`: the game's `TokenReaders` (computed when needed if not given); `takes`: see
    `solver.guidance.endgame.tokens_dead`."""
    if len(actions) < 2 or not st.stack:
        return actions
    fr = st.stack[-1]
    kind: int = fr[0]
    if kind == D_DECLINE_ORDER and not lightning_options(st):
        mons = st.space_monuments(1)
        if not any(_has_decline_effect(st, m) for m in mons):
            return actions[:1]
    elif kind == D_ORDER and fr[2] and not lightning_options(st):
        # The Timeline-phase queue (and Create/Learn groups), no lightning chest usable (Rules
        # 2 and 3: a chest used in the window between two effects reads and changes anything).
        cards = st.book.cards
        # A chest effect in the queue (source CHEST_BASE + k, RULES.md section 9) is no card:
        # never a pure draw, so such a queue is searched in full.
        if all(c < CHEST_BASE and _pure_draw(cards[c].effects[i]) for c, i in fr[1]):
            return actions[:1]
        return _commuting(st, fr[1], actions, readers, takes)
    elif (kind == D_REMOVE or (kind == D_TARGET and fr[2] in REMOVAL_PURPOSES)) and _dead(
            st, readers, takes):
        return actions[:1]
    return actions


def _dead(st: GameState, readers: TokenReaders | None, takes: Takes | None = None) -> bool:
    return tokens_dead(st, readers if readers is not None else token_readers(st), takes)


def _commuting(st: GameState, queue: tuple[tuple[int, int], ...], actions: Sequence[int],
               readers: TokenReaders | None, takes: Takes | None = None) -> Sequence[int]:
    """Rule 3: the first option whose effect commutes with every other queued effect, alone."""
    cards = st.book.cards
    effects = [None if c >= CHEST_BASE else cards[c].effects[i] for c, i in queue]
    # Whether the tokens are dead is asked only when a queued effect removes knowledge (the
    # only steps it changes), and then for every effect of the queue.
    dead = any(e is not None and _removes_knowledge(e) for e in effects) and _dead(
        st, readers, takes)
    prints = [OTHER_PRINT if e is None else footprint(e, dead) for e in effects]
    if all(p.kind == OTHER for p in prints):
        return actions
    for a in actions:
        if A.kind_of(a) != A.ORDER:
            continue
        card = A.value_of(a)
        pos = next((k for k, (c, _) in enumerate(queue) if c == card), -1)
        if pos < 0:
            continue
        mine = prints[pos]
        if all(_commute(mine, p) for k, p in enumerate(prints) if k != pos):
            return [a]
    return actions


def _removes_knowledge(e: Effect) -> bool:
    return any(s.op == "remove_knowledge" for s in all_steps(e.steps))


def smallest_picks(st: GameState, actions: Sequence[int]) -> Sequence[int]:
    """Rule 5 once the cards of the hand are alike: of the cards offered, only the smallest card
    of the hand (if a smaller card was passed over, none: that set is searched elsewhere), and
    every option that is not a card; never empty."""
    smallest = min(st.hand) if st.hand else -1
    kept = [a for a in actions if A.kind_of(a) != A.CARD or A.value_of(a) == smallest]
    return kept if kept else actions[:1]


class Dominance:
    """The dominance rules for one search, with the game's `TokenReaders` kept between calls.

    :param takes: see `solver.guidance.endgame.tokens_dead`.
    :param creates_left: whether a Create of a card not yet picked may still come
        (`solver.bounds.createsleft.CreatesLeft`); None: Rule 5 is not applied."""

    def __init__(self, takes: Takes | None = None, creates_left: CreatesLeft | None = None,
                 ) -> None:
        self.readers = TokenReadersCache(takes)
        self.kinds = KindReadersCache()
        self.creates_left = creates_left

    def alike(self, st: GameState) -> bool:
        """Whether the cards of the hand, the deck and the discard pile are told apart by
        nothing but their number from `st` on (`solver.guidance.handcards`); False without
        `creates_left`."""
        return self.creates_left is not None and hand_cards_alike(
            st, self.kinds.readers(st), self.creates_left)

    def prune(self, st: GameState, actions: Sequence[int]) -> Sequence[int]:
        """`prune` with this game's token readers, and Rule 5."""
        if len(actions) < 2 or not st.stack:
            return actions
        if st.stack[-1][0] in HAND_PICKS and self.alike(st):
            return smallest_picks(st, actions)
        return prune(st, actions, self.readers.readers(st), self.readers.takes)
