"""Which monuments can still enter play in the turn whose decline phase is the last that moves
monuments to the Past (turn 15 of 16): how many builder cards can leave the deck before the
Timeline phase begins (`solver.bounds.actiontakes.action_takes`), which cards may then be in
play (`enterable`), and how many monuments effects can create after the action phase
(`late_creates`). The simple bound (`solver.bounds.simple`) reads them to say which monuments
can still decline.

A builder card leaves the deck only from its top (`GameState.take_top`: draws into the hand, and
the looks of ``reveal_keep``, ``reveal_until`` and Ancient Greek), and the discard pile becomes
the deck only when the deck is empty (RULES.md section 5, "An empty builder deck is refilled by
shuffling its discard pile"); no effect puts a card into the builder deck or takes one from the
discard pile. A monument enters play only by a Create, which takes it from the hand (section 5:
"pick a monument in hand"; only Ancient Greek creates from the cards it looks at, and it
creates an artifact), and the hand grows only from the deck. So a card now in the deck with
``d`` cards above it can enter play only once ``d + 1`` cards left the deck, and one in the
discard pile only once the whole deck did (`may_leave`, `enterable`).

Until the Timeline phase begins (section 4A: the action choices left and what they set off),
cards leave the deck only through:

* each action choice left: Search draws 1, Excavate draws 2 (or 3) per monument but every draw
  stops at 10 in hand (D4): at most 10; Create, Learn and Archive take nothing themselves; each
  Excavate under way likewise at most 10;
* the steps still to run of the effects on the stack and of the chests under the board (each
  chest once, D16);
* per Create, the created card's immediate effect (at most the largest of the builder cards that
  may enter play) and every "each time you CREATE" effect (at most their sum: each fires once a
  Create); per Learn, the technology's immediate effect (each technology is learned once: the
  largest of those not learned, one per Learn) and every "each time you LEARN" effect; per
  Excavate, every "each time you EXCAVATE" effect. The Creates and Learns are
  `solver.bounds.reachable.reach`'s counts over the action phase (over-estimates).

One effect takes at most: a ``draw`` 10 (D4), a ``reveal_keep`` its count, Ancient Greek 10;
Calakmul's ``reveal_until`` digs without bound, as does an effect of another trigger or moment
(then `UNBOUNDED`). Cards drawn into the hand are also bounded by the hand itself (D4): it
never holds more than 10, so the cards drawn are at most the room in it now plus the cards that
leave it (`solver.bounds.actiontakes`; `steps_out` for the effects, a Create's card and cost, an
Archive).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from solver.bounds.activators import ARTIFACT_CREATE, LEARN, MONUMENT
from solver.bounds.movers import learns
from solver.bounds.reachable import UNBOUNDED, ReachMemo, in_flight, pending_steps
from solver.engine.cards import ARTIFACT, Card, Step, all_steps
from solver.engine.frames import (
    D_ARCHIVE,
    D_CREATE_CARD,
    D_CREATE_SPACE,
    D_DISCARD_VAR,
    D_PAY,
    F_TIMELINE_PHASE,
)
from solver.engine.state import HAND_LIMIT, GameState
from solver.frozen import Frozen

#: What one effect activation can take at most (see the module).
DRAW_MAX: Final = HAND_LIMIT
GREEK: Final = 10
#: Decisions on the stack that remove cards from the hand (`flight_takes`).
OUT_FRAMES: Final = frozenset({D_PAY, D_ARCHIVE, D_DISCARD_VAR, D_CREATE_CARD, D_CREATE_SPACE})
#: The counter of a draw of one card per city in the Timeline (Mystery School's).
CITIES: Final = "timeline.city"


def steps_take(steps: tuple[Step, ...]) -> int:
    """The most builder cards running `steps` once takes from the deck (see the module): the
    cards it draws into the hand plus those it looks at (`steps_look`)."""
    look = steps_look(steps)
    if look >= UNBOUNDED:
        return UNBOUNDED
    return look + steps_draw(steps, 0)


def steps_draw(steps: tuple[Step, ...], paid: int) -> int:
    """The most cards running `steps` once draws into the hand: a fixed draw its count, a draw
    per unit paid (``per: paid``, after a payment: RULES.md section 5, the effect runs with the
    units paid) at most the units its payment asks for (`paid`, that ``pay`` step's amount;
    0: not known), any other at most 10 (D4)."""
    n = 0
    for s in steps:
        if s.op == "draw":
            if s.per is None:
                n += min(DRAW_MAX, s.n)
            elif s.per == "paid" and paid > 0:
                n += min(DRAW_MAX, paid)
            else:
                n += DRAW_MAX
        if s.then:
            n += steps_draw(s.then, s.amount if s.op == "pay" else paid)
    return n


def steps_look(steps: tuple[Step, ...]) -> int:
    """Of `steps_take`, the cards looked at (``reveal_keep``, Ancient Greek, ``reveal_until``):
    the part that does not go through a draw into the hand."""
    n = 0
    for s in all_steps(steps):
        if s.op == "reveal_keep":
            n += s.count
        elif s.op == "ancient_greek":
            n += GREEK
        elif s.op == "reveal_until":
            return UNBOUNDED
    return n


def steps_out(steps: tuple[Step, ...]) -> int:
    """The most cards running `steps` once removes from the hand (an Archive, a discard, a cost
    paid in cards from the hand: RULES.md section 5; at most the hand, 10 cards, D4)."""
    n = 0
    for s in all_steps(steps):
        if s.op == "archive":
            n += HAND_LIMIT
        elif s.op == "discard_hand" or (s.op == "pay" and s.cost.startswith("discard_hand")):
            n += s.amount
    return min(n, HAND_LIMIT)


#: The buckets of `CardTakes.parts`: by activation.
IMMEDIATE: Final = 0
ON_CREATE: Final = 1
ON_LEARN: Final = 2
ON_EXCAVATE: Final = 3
TIMELINE: Final = 4
DECLINE: Final = 5
#: The three parts of each bucket: cards drawn into the hand, cards looked at, cards out of hand.
DRAW: Final = 0
LOOK: Final = 1
OUT: Final = 2


@dataclass(frozen=True)
class CardTakes(Frozen):
    """One card's takes by activation (`card_takes`): immediate, on a Create, on a Learn, on an
    Excavate, in a Timeline phase, in a decline phase, and whether another effect takes without
    a bound (`unbounded`; `action_unbounded`: one that may run in an action phase, or one of
    another moment that removes cards from the hand); `parts` splits each bucket (in that order)
    into (drawn, looked at, out of hand), and `create_out` is the most cards a Create of it
    removes from the hand (the card and its cost, RULES.md section 5: printed cost plus the
    distance from its starting space, at most 5); `city_draws`: of its immediate draws, how many
    draw one card per city in the Timeline (counted 10 each in the buckets)."""

    card: int
    tech: bool
    monument: bool
    immediate: int = 0
    on_create: int = 0
    on_learn: int = 0
    on_excavate: int = 0
    timeline: int = 0
    decline: int = 0
    unbounded: bool = False
    action_unbounded: bool = False
    parts: tuple[tuple[int, int, int], ...] = ()
    create_out: int = 0
    city_draws: int = 0

    def takes(self) -> bool:
        return bool(self.immediate or self.on_create or self.on_learn or self.on_excavate
                    or self.timeline or self.decline or self.unbounded or self.action_unbounded
                    or any(p[OUT] for p in self.parts))


def card_takes(index: int, card: Card) -> CardTakes:
    """The `CardTakes` of `card` (its index `index`)."""
    monument = not card.is_tech and card.kind != ARTIFACT
    totals = [0] * 6
    unbounded = action_unbounded = False
    parts = [[0, 0, 0] for _ in range(6)]
    cities = 0
    for e in card.effects:
        if e.trigger is None and e.moment == "immediate":
            cities += sum(1 for s in all_steps(e.steps) if s.op == "draw" and s.per == CITIES)
        n = steps_take(e.steps)
        out = steps_out(e.steps)
        if n == 0 and out == 0:
            continue
        bucket = -1
        if e.trigger is not None:
            ev = e.trigger.event
            if ev == "create":
                bucket = ON_CREATE
            elif ev == "learn":
                bucket = ON_LEARN
            elif ev == "excavate":
                bucket = ON_EXCAVATE
            else:  # another event: when it fires is not bounded here
                unbounded = unbounded or n > 0
                action_unbounded = True
        elif e.moment == "immediate":
            bucket = IMMEDIATE
        elif e.moment == "timeline":
            bucket = TIMELINE
        elif e.moment == "decline":
            bucket = DECLINE
        elif e.moment != "endgame":
            unbounded = unbounded or n > 0
            action_unbounded = True
        if n >= UNBOUNDED:
            unbounded = True
            if bucket in (IMMEDIATE, ON_CREATE, ON_LEARN, ON_EXCAVATE):
                action_unbounded = True
        if bucket >= 0:
            totals[bucket] += n
            look = min(n, steps_look(e.steps))
            parts[bucket][DRAW] += n - look
            parts[bucket][LOOK] += look
            parts[bucket][OUT] += out
    return CardTakes(index, card.is_tech, monument, totals[IMMEDIATE], totals[ON_CREATE],
                     totals[ON_LEARN], totals[ON_EXCAVATE], totals[TIMELINE], totals[DECLINE],
                     unbounded, action_unbounded, tuple((p[0], p[1], p[2]) for p in parts),
                     min(HAND_LIMIT, 1 + card.discard_cost + (5 if monument else 0)), cities)


@dataclass(frozen=True)
class TakeTable(Frozen):
    """The pool's cards as this module reads them (fixed once dealt).

    :param cards: the cards that take from the deck or remove cards from the hand
        (`CardTakes`, in card order).
    :param create_out: the most a Create of a builder card removes from the hand, by index (0
        for a technology or a card out of the pool).
    :param actors: what `action_takes` reads of the cards that may take or remove cards from
        the hand in an action phase: (card, technology, unbounded there, then (drawn, looked
        at, out of hand) of its immediate effects, on a Create, on a Learn, on an Excavate,
        then its `CardTakes.city_draws`).
    :param late: (card, monuments created) of the builder cards with an effect that runs after
        an action phase (a Timeline or decline effect, or another moment) and may create
        monuments: how many, summed over such effects.
    :param triggered: cards with an "each time you ..." effect that may create a monument, a
        technology with another such effect than an immediate one, and any card with an effect
        that learns while a technology of `tech_creators` exists (when those run is not
        bounded here).
    :param tech_creators: technologies whose immediate effect may create a monument.
    :param timeline_creators: cards with an effect that may run in a Timeline phase (a
        Timeline effect, or one of another moment than immediate, decline, end-game or a
        trigger) and create a card (of any kind, or by Ancient Greek's look).
    :param timeline_learners: the same with a Learn instead.
    :param entry_techs: technologies whose immediate effect may create a card.
    :param learn_triggers: cards with an "each time you LEARN" effect that may create a card or
        learn.
    :param immediate_creators: (card, monuments created) of the builder cards whose immediate
        effects create monuments.
    """

    cards: tuple[CardTakes, ...]
    create_out: tuple[int, ...]
    actors: tuple[tuple[int, ...], ...] = ()
    late: tuple[tuple[int, int], ...] = ()
    triggered: tuple[int, ...] = ()
    tech_creators: tuple[int, ...] = ()
    timeline_creators: tuple[int, ...] = ()
    timeline_learners: tuple[int, ...] = ()
    entry_techs: tuple[int, ...] = ()
    learn_triggers: tuple[int, ...] = ()
    immediate_creators: tuple[tuple[int, int], ...] = ()


def monuments_created(steps: tuple[Step, ...]) -> int:
    """The most monuments running `steps` once creates (a Create not only of artifacts)."""
    return sum(max(1, s.count) for s in all_steps(steps) if s.op == "create" and s.kind != ARTIFACT)


def take_table(cards: tuple[Card, ...], pool: frozenset[int]) -> TakeTable:
    """The `TakeTable` of a game's card pool."""
    every = {c: card_takes(c, cards[c]) for c in sorted(pool)}
    table = tuple(t for t in every.values() if t.takes())
    outs = tuple(0 if c.is_tech or c.index not in every else every[c.index].create_out
                 for c in cards)
    tech_creators = tuple(c for c in sorted(pool) if cards[c].is_tech and any(
        e.trigger is None and e.moment == "immediate" and monuments_created(e.steps)
        for e in cards[c].effects))
    late: dict[int, int] = {}
    triggered: list[int] = []
    for c in sorted(pool):
        for e in cards[c].effects:
            made = monuments_created(e.steps)
            learning = bool(tech_creators) and learns(e.steps)
            if not (made or learning):
                continue
            if e.trigger is not None or learning:
                triggered.append(c)
            elif e.moment in ("immediate", "endgame"):
                continue  # at a Create or Learn (a technology: only a Learn that `learning` sees)
            elif cards[c].is_tech:
                triggered.append(c)
            else:
                late[c] = late.get(c, 0) + made
    in_timeline = [(c, e.steps) for c in sorted(pool) for e in cards[c].effects
                   if e.trigger is None and e.moment not in ("immediate", "decline", "endgame")]
    actors = tuple((t.card, int(t.tech), int(t.action_unbounded), *t.parts[IMMEDIATE],
                    *t.parts[ON_CREATE], *t.parts[ON_LEARN], *t.parts[ON_EXCAVATE],
                    t.city_draws)
                   for t in table if t.action_unbounded or any(
                       any(t.parts[b]) for b in (IMMEDIATE, ON_CREATE, ON_LEARN, ON_EXCAVATE)))
    return TakeTable(
        table, outs, actors, tuple(late.items()), tuple(dict.fromkeys(triggered)), tech_creators,
        tuple(dict.fromkeys(c for c, steps in in_timeline if creates_card(steps))),
        tuple(dict.fromkeys(c for c, steps in in_timeline if learns(steps))),
        tuple(c for c in sorted(pool) if cards[c].is_tech and any(
            e.trigger is None and e.moment == "immediate" and creates_card(e.steps)
            for e in cards[c].effects)),
        tuple(c for c in sorted(pool) if any(
            e.trigger is not None and e.trigger.event == "learn"
            and (creates_card(e.steps) or learns(e.steps)) for e in cards[c].effects)),
        tuple((c, made) for c, made in (
            (c, sum(monuments_created(e.steps) for e in cards[c].effects
                    if e.trigger is None and e.moment == "immediate"))
            for c in sorted(pool) if not cards[c].is_tech) if made))


def creates_card(steps: tuple[Step, ...]) -> bool:
    """Whether running `steps` may create a card of any kind (a Create, Ancient Greek's)."""
    return any(s.op in ("create", "ancient_greek") for s in all_steps(steps))


def enters_after_actions(st: GameState, table: TakeTable, present: set[int],
                         memo: ReachMemo) -> bool:
    """In the last turn (no decline phase runs: the game ends at its start, D8): whether a card
    may enter play after the action phase while only the builder cards of `present` enter play
    before. After the action phase only the Timeline phase runs (section 4B: the Timeline
    effects of the cards in play, the chests under the board, D16, the work on the stack once
    it began, and what they set off). A card enters play only by a Create (section 5), so by one
    of those effects that creates, by a technology they learn whose immediate effect creates
    (section 5 Learn: it applies its immediate effect), or by an "each time you LEARN" effect
    such a Learn sets off (an "each time you CREATE" one needs a Create first; "each time you
    EXCAVATE" an Excavate, an action). A card out of play never acts, a card in the Past never
    again (section 7)."""
    past = st.past
    techs = st.techs
    cards = st.book.cards

    def live(cs: tuple[int, ...]) -> bool:
        return any(c not in past and (c in present or cards[c].is_tech) for c in cs)

    if live(table.timeline_creators):
        return True
    learn_matters = live(table.learn_triggers) or any(c not in techs for c in table.entry_techs)
    if learn_matters and live(table.timeline_learners):
        return True
    data = st.setup.chest_data
    if st.chests_under and data is not None and any(
            creates_card(data.chests[k].steps) or (learn_matters and learns(data.chests[k].steps))
            for k in st.chests_under):
        return True
    if not any(fr[0] == F_TIMELINE_PHASE for fr in st.stack):
        gains, _ = in_flight(st, memo)
        if gains[MONUMENT] or gains[ARTIFACT_CREATE] or (learn_matters and gains[LEARN]):
            return True
    return False


def late_creates(st: GameState, table: TakeTable, present: set[int], poulnabrone: tuple[int, ...],
                 memo: ReachMemo) -> int:
    """The most monuments that may be created after this turn's action phase (in its Timeline
    or decline phase, or in the chests' windows between) while only the builder cards of
    `present` enter play, or `UNBOUNDED` when not bounded here. A Create of a monument after
    the action phase comes only from an effect that runs then (section 4B-4C: a Timeline or
    decline effect, its count of Creates each time it runs, once this turn; a chest under the
    board, once, D16; the work on the stack once the Timeline phase began), or from what they
    set off: an "each time you ..." effect or a technology learned then (not bounded here), and
    Poulnabrone Dolmen's one more Create per Create of a monument (M36: at most doubles them).
    A card out of play never acts, a card in the Past never again (section 7). A card created
    late may be any card of the hand then (not only of `present`), so once one may be, every
    such card out of the Past counts: each Timeline or decline creator once, and each builder
    card whose immediate effect creates monuments once (its immediate effect runs when it is
    created, section 5; an artifact among them could go round again: not bounded here)."""
    past = st.past
    cards = st.book.cards
    if any(c not in past and (c in present or cards[c].is_tech) for c in table.triggered):
        return UNBOUNDED
    n = sum(k for c, k in table.late if c not in past and c in present)
    if n:
        n = sum(k for c, k in table.late if c not in past)
    open_techs = any(c not in st.techs for c in table.tech_creators)
    data = st.setup.chest_data
    if st.chests_under and data is not None:
        for k in st.chests_under:
            steps = data.chests[k].steps
            if open_techs and learns(steps):
                return UNBOUNDED
            n += monuments_created(steps)
    if not any(fr[0] == F_TIMELINE_PHASE for fr in st.stack):
        gains, _ = in_flight(st, memo)
        if open_techs and gains[LEARN] > 0:
            return UNBOUNDED
        n += gains[MONUMENT]
    if n and any(c not in past for c in table.triggered):
        return UNBOUNDED  # one created late may set off more (it need not be in `present`)
    if n:
        for c, k in table.immediate_creators:
            if c not in past:
                if cards[c].kind == ARTIFACT:
                    return UNBOUNDED
                n += k
    if n and any(c not in past for c in poulnabrone):
        n *= 2  # Poulnabrone in play, or created late itself
    return n


def flight_takes(st: GameState) -> tuple[int, int]:
    """The most the steps on the stack and the chests under the board (each once) can take from
    the deck and remove from the hand; a decision on the stack that removes cards from the hand
    (a cost, an Archive, a discard, a Create not yet placed) at most 10 (D4)."""
    flight = out = 0
    for steps in pending_steps(st):  # a payment's rest: with any number of units paid
        flight += steps_take(steps)
        out += steps_out(steps)
    out += HAND_LIMIT * sum(1 for fr in st.stack if fr[0] in OUT_FRAMES)
    data = st.setup.chest_data
    if st.chests_under and data is not None:
        for k in st.chests_under:
            flight += steps_take(data.chests[k].steps)
            out += steps_out(data.chests[k].steps)
    return min(flight, UNBOUNDED), out


def may_leave(st: GameState, card: int, taken: int) -> bool:
    """Whether `card` may leave the deck when at most `taken` cards can (the deck's top is its
    last card; the discard pile is shuffled in only once the deck is empty, RULES.md section 5);
    a card in neither: yes."""
    deck = st.deck
    if card in deck:
        return taken > len(deck) - 1 - deck.index(card)
    if card in st.discard:
        return taken > len(deck)
    return True


def enterable(st: GameState, taken: int) -> set[int]:
    """The builder cards that may be in play by the time at most `taken` cards left the deck
    (see the module): in play now, in hand, between zones (being created or looked at), the top
    `taken` cards of the deck, and the discard pile when the whole deck can leave."""
    out = set(st.hand)
    out.update(st.limbo)
    out.update(st.artifacts)
    for sp in st.spaces:
        out.update(sp)
    deck = st.deck
    if taken > 0:
        out.update(deck[max(0, len(deck) - taken):])
    if taken > len(deck):
        out.update(st.discard)
    return out
