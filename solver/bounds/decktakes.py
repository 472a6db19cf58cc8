"""How many builder cards can still leave the deck before the last Timeline phase forms its
queue: the count that tells the end-game rules (`solver.guidance.endgame`) which cards deep in
the deck or in the discard pile can no longer enter play in time.

A builder card leaves the deck only from its top (`GameState.take_top`: draws, looks and
reveals), and the discard pile becomes the deck only when the deck is empty (RULES.md section 5,
"An empty builder deck is refilled by shuffling its discard pile"); no effect puts a card into
the builder deck or takes one from the discard pile. So a card with ``d`` cards above it leaves
the deck only after ``d`` cards left before it, and a card in the discard pile only after the
whole deck did.

In the last turn, before its Timeline phase queues its effects (section 4: no phase draws; the
Timeline and decline phases come after), cards leave the deck only through what still runs
before: each action choice left (section 5: Search draws 1, Excavate draws 2 per monument but
every draw stops at 10 in hand, D4: at most 10; Archive, Create, Learn draw nothing themselves),
the Excavates under way (at most 10 each), the steps of the effects on the stack and of the
chests under the board (each once), and the effects that Creates and Learns set off: per Create
the created card's immediate effect (at most the largest of any card out of the Past) and every
"each time you CREATE" effect (at most the sum over the cards out of the Past: each fires once a
Create), per Learn the technology's immediate effect (the largest of those not learned) and
every "each time you LEARN" effect, per Excavate every "each time you EXCAVATE" effect. The
Creates and Learns are `solver.bounds.reachable.reach`'s counts (over-estimates). A card in the
Past never acts again (section 7). One effect takes at most: a ``draw`` 10 (D4), a ``reveal_keep``
its count, Ancient Greek 10; a dig without bound that can run before the queue forms (an
immediate effect or a Create, Learn or Excavate trigger; an effect of another trigger or moment)
makes the count `UNBOUNDED`. Calakmul's ``reveal_until`` is a decline effect: none runs in the
last turn (D8), so it does not count (`CardTakes.action_unbounded`).

Tighter, and tried first: only the cards that can enter play before then act (the fixed point
of `solver.bounds.simple.taken_before_timeline`: a card enters play only by a Create, from the
hand, and the hand grows only from the deck's top, so until more than ``taken`` cards left the
deck only the top ``taken`` can have entered play; it also counts the hand's room, D4, and each
split of the action choices on its own). A card's effects of other moments (a decline effect,
a Timeline effect) do not run before the Timeline phase queues its effects. The count below,
every card out of the Past acting, is the fallback when that one finds no bound.

A builder card acts only once it left the deck (it must be created, or be in play, to act): so
a card in the deck or the discard pile whose effects dig without bound is left out when the
count without it cannot reach it (`solver.bounds.takes.may_leave`): until it acts, cards
leave the deck only by the others' effects, which that count bounds, and it cannot act before
it leaves the deck itself.
"""

from __future__ import annotations

from solver.bounds.poolfacts import PoolFacts, PoolFactsCache
from solver.bounds.reachable import UNBOUNDED, ReachMemo, pending_steps, reach
from solver.bounds.simple import decline_phases_left, taken_before_timeline
from solver.bounds.takes import DRAW_MAX, CardTakes, card_takes, may_leave, steps_take
from solver.engine.frames import (
    D_ACTION,
    D_EXCAVATE,
    F_EXCAVATE_TRIGGERS,
)
from solver.engine.state import GameState


class DeckTakes:
    """`takes(st)`: the bound of the module for one game, its static parts kept between calls
    (an object passed in, never module state)."""

    def __init__(self, pool: PoolFactsCache | None = None) -> None:
        """`pool`: the pool facts (and their memo) to share, e.g. the bound's: the bound asks
        `taken_before_timeline` about the same positions."""
        self.pool = pool if pool is not None else PoolFactsCache()
        self._facts: PoolFacts | None = None
        self._cards: tuple[CardTakes, ...] = ()

    def _tables(self, st: GameState) -> tuple[PoolFacts, tuple[CardTakes, ...], ReachMemo]:
        facts = self.pool.facts(st)
        if facts is not self._facts:
            self._facts = facts
            cards = st.book.cards
            self._cards = tuple(t for t in (card_takes(c, cards[c])
                                            for c in sorted(st.setup.card_pool(st.book)))
                                if t.immediate or t.on_create or t.on_learn or t.on_excavate
                                or t.action_unbounded)
        return facts, self._cards, self.pool.memo

    def __call__(self, st: GameState, position: tuple[object, ...] | None = None) -> int:
        """The most builder cards that can leave the deck from `st` (the last turn, its Timeline
        phase still to form its queue) until that queue is formed: the count of
        `solver.bounds.simple.taken_before_timeline` (only the cards that can enter play by
        then act), else the count of the module (every card out of the Past acts).
        `position`: `st.key()`, when the caller has it."""
        facts, table, memo = self._tables(st)
        if facts.takes is not None:
            taken = taken_before_timeline(st, facts, facts.takes, memo, position)
            if taken < UNBOUNDED:
                return taken
        return self._every_card(st, facts, table, memo)

    def _every_card(self, st: GameState, facts: PoolFacts, table: tuple[CardTakes, ...],
                    memo: ReachMemo) -> int:
        """The count of the module, every card out of the Past acting (see there)."""
        past = st.past
        techs = st.techs
        imm = on_create = on_learn = on_excavate = 0
        tech_imms: list[int] = []
        buried: list[int] = []  # unbounded cards in the deck or the discard pile
        for t in table:
            if t.card in past:
                continue
            if t.action_unbounded:
                if not t.tech and (t.card in st.deck or t.card in st.discard):
                    buried.append(t.card)
                    continue
                return UNBOUNDED
            if t.tech and t.card not in techs:
                tech_imms.append(t.immediate)
            elif not t.tech:
                imm = max(imm, t.immediate)
            on_create += t.on_create
            on_learn += t.on_learn
            on_excavate += t.on_excavate
        actions = excavates = 0
        data = st.setup.chest_data
        for fr in st.stack:
            kind = fr[0]
            if kind == D_ACTION:
                actions += 1
            elif kind in (D_EXCAVATE, F_EXCAVATE_TRIGGERS):
                excavates += 1
        flight = sum(steps_take(steps) for steps in pending_steps(st))
        if st.chests_under and data is not None:
            for k in st.chests_under:
                flight += steps_take(data.chests[k].steps)
        if flight >= UNBOUNDED:
            return UNBOUNDED
        r = reach(st, facts.activators, decline_phases_left(st), facts.poulnabrone, memo)
        if max(r.creates, r.art_creates, r.learns) >= UNBOUNDED:
            return UNBOUNDED
        digs = actions + excavates
        tech_imms.sort(reverse=True)
        total = (DRAW_MAX * digs + flight + (r.creates + r.art_creates) * (imm + on_create)
                 + sum(tech_imms[:r.learns]) + r.learns * on_learn + digs * on_excavate)
        if any(may_leave(st, c, total) for c in buried):
            return UNBOUNDED
        return min(total, UNBOUNDED)

