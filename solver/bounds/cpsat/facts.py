"""What the relaxation needs to know about each card, read once from its data.

A card's `Facts` sort its effects by when they fire (RULES.md section 4: immediately on a Create
or a Learn, in each Timeline phase, on its decline, or on a triggering event) and give each the
most it can yield per activation (`solver.bounds.cpsat.resources`; relaxation 5 of
`solver.bounds.cpsat.relaxation`). A card with an effect that cannot be bounded raises
`UnsupportedCardError` here, before any model is built.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.bounds.cpsat.resources import (
    NOTHING,
    Gains,
    UnsupportedCardError,
    effect_gains,
    specials,
)
from solver.engine.cards import Card, CardBook, Clause, Effect, Score

MONOTONE = ("past.", "techs.")


@dataclass
class Facts:
    """What the model needs to know about one card (read once from its data)."""

    card: Card
    immediate: Gains = NOTHING
    timeline: Gains = NOTHING
    decline: Gains = NOTHING
    triggers: list[tuple[Effect, Gains]] = field(default_factory=list)
    specials: frozenset[str] = frozenset()
    scores: list[Score] = field(default_factory=list)
    parts: list[tuple[Effect, Gains]] = field(default_factory=list)  # effects with gains
    frees_artifacts: bool = False  # pays by discarding artifacts from the board (P13)
    trig: Gains = NOTHING  # all triggered effects, one activation each
    buries: int = 0  # technologies put under their deck per activation (P35, T27)
    buries_timeline: bool = False
    niches: bool = False  # Pyramid of the Niches (P7)


def card_facts(card: Card, pool_size: int) -> Facts:
    """Sort the effects of `card` by moment (RULES.md section 4) with their gains per
    activation; end-game scoring rules (section 7) apart.

    :raises UnsupportedCardError: a trigger on an event the model does not count, or an
        effect with gains that fires at any time without a trigger.
    """
    f = Facts(card=card, specials=specials(card))
    for e in card.effects:
        if e.score is not None:
            f.scores.append(e.score)
            continue
        g = effect_gains(e, pool_size)
        if not g.empty:
            f.parts.append((e, g))
        if any(st.op == "pay" and st.cost == "discard_artifacts" for st in e.steps):
            f.frees_artifacts = True
        for step in e.steps:
            if step.op == "bury_tech":
                f.buries += max(1, step.count)
                f.buries_timeline = f.buries_timeline or e.moment == "timeline"
            f.niches = f.niches or step.op == "niches"
        if e.trigger is not None:
            if e.trigger.event not in ("create", "learn", "excavate"):
                raise UnsupportedCardError(f"{card.code}: trigger {e.trigger.event!r}")
            f.triggers.append((e, g))
            f.trig = f.trig + g
        elif e.moment == "immediate":
            f.immediate = f.immediate + g
        elif e.moment == "timeline":
            f.timeline = f.timeline + g
        elif e.moment == "decline":
            f.decline = f.decline + g
        elif e.moment in ("anytime", "endgame") and not g.empty:
            raise UnsupportedCardError(f"{card.code}: {e.moment} steps without a trigger")
    return f


def is_monotone(clause: Clause) -> bool:
    """A ``>=`` clause on a counter whose final (or largest) value bounds every earlier one:
    the Past and technology counts, the highest lost knowledge, the artifacts ever on the
    board (none of them goes down, RULES.md sections 4-5)."""
    return clause.op in (">=", "==") and clause.value > 0 and (
        clause.counter.startswith(MONOTONE) or clause.counter in ("lost", "artifacts"))


#: Timeline counts: a monument enters the Timeline only by its creation (moves and swaps keep
#: it there, RULES.md section 5), and knowledge comes onto it only then; so each of these is
#: at most its value now plus what the creations to come bring (`effects.created_into`).
CREATED_INTO = ("timeline.city", "timeline.megalith", "timeline.pyramid", "timeline.any",
                "timeline.min_type", "space1", "adj.city", "adj.megalith", "adj.pyramid",
                "adj.any", "adj.max_type", "tl_tokens")


def grows_by_creation(clause: Clause) -> bool:
    """An "at least N" clause on a Timeline count, the Timeline's knowledge or a card's
    neighbours: it can hold only if the count now plus what the monuments still to be
    created bring reaches N (`CREATED_INTO`)."""
    return clause.op in (">=", "==") and clause.value > 0 and clause.counter in CREATED_INTO


_FACTS: dict[tuple[object, int, int], Facts] = {}  # by (card sets, card, pool size)


class FactBook:
    """The `Facts` of the cards of one book, read on first use.

    Facts depend only on the card data and the pool size, so they are also memoized across
    positions (keyed by the book's card sets): a pure cache, never a switch.
    """

    def __init__(self, book: CardBook, pool_size: int) -> None:
        self.book = book
        self.pool_size = pool_size
        self._read: dict[int, Facts] = {}

    def __getitem__(self, c: int) -> Facts:
        f = self._read.get(c)
        if f is None:
            key = (self.book.sets, c, self.pool_size)
            f = _FACTS.get(key)
            if f is None:
                f = card_facts(self.book.cards[c], self.pool_size)
                _FACTS[key] = f
            self._read[c] = f
        return f
