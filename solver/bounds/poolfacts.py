"""What the simple bound (`solver.bounds.simple`) reads of a game's card pool, fixed once the game
is dealt: worked out once per search (`PoolFactsCache`) instead of at every node."""

from __future__ import annotations

from dataclasses import dataclass

from solver.bounds.activators import Activator, activators
from solver.bounds.endrules import reads_techs
from solver.bounds.movers import MoverFacts, mover_facts
from solver.bounds.reachable import ReachMemo
from solver.bounds.takes import TakeTable, take_table
from solver.bounds.techrow import (
    LEARN_STEPS,
    TileTaker,
    candi_cards,
    chests_take_techs,
    free_learners,
    tile_takers,
)
from solver.engine.cards import ARTIFACT, Card
from solver.engine.state import GameState
from solver.frozen import Frozen


def _grants_learn(card: Card) -> int:
    """How many Learns `card`'s effects grant (each step at least one)."""
    return sum(max(1, s.count) for e in card.effects for s in e.steps if s.op in LEARN_STEPS)


@dataclass(frozen=True)
class PoolFacts(Frozen):
    """What the simple bound reads of a game's card pool: fixed once the game is dealt, so a
    search computes it once (`SimpleBound` keeps it) instead of at every node. No field has a
    default: an empty one would read as "no such card in the pool" and lower the bound.

    :param monuments: the pool's monuments (builder cards that are not artifacts), ascending.
    :param vp: printed VP of every card, by index.
    :param grants: how many Learns a card's effects grant, by index.
    :param endgame: monuments with an end-game scoring effect.
    :param techs_by_vp: (VP, index) of the pool's technologies, highest VP first.
    :param mover_facts: what can put a monument into space 1 during a decline phase
        (`solver.bounds.movers`).
    :param activators: the pool's effects that grant Creates or Learns or remove lost
        knowledge (`solver.bounds.reachable`).
    :param poulnabrone: the pool's cards with Poulnabrone Dolmen's special.
    :param free_learners: the pool's cards with a Learn that ignores requirements outside a
        decline effect (read with no decline phase left, `_learnable_later`: none runs, D8).
    :param candi: the pool's cards with Candi Sukuh's special (D19).
    :param takes: the pool's cards that take from the builder deck (`solver.bounds.takes`);
        None counts no takes and so restricts nothing (every card out of play may act).
    :param tile_takers: the pool's cards that take technologies off the tiles other than by a
        Learn (`solver.bounds.techrow`).
    :param chest_takers: a chest of the setup does.
    :param tech_readers: the monuments of `endgame` whose end-game rule reads a technology
        counter (`few_learns`).
    :param learn_takers: the pool's technologies that, once learned, may take cards from the
        builder deck or out of the hand in an action phase (`takes`' actors): a last-turn
        split with one Learn is bounded once with them and once without
        (`solver.bounds.splitplay.learn_cases`).
    """

    monuments: tuple[int, ...]
    vp: tuple[int, ...]
    grants: tuple[int, ...]
    endgame: frozenset[int]
    techs_by_vp: tuple[tuple[int, int], ...]
    mover_facts: MoverFacts
    activators: tuple[Activator, ...]
    poulnabrone: tuple[int, ...]
    free_learners: tuple[int, ...]
    candi: tuple[int, ...]
    takes: TakeTable | None
    tile_takers: tuple[TileTaker, ...]
    chest_takers: bool
    tech_readers: frozenset[int]
    learn_takers: frozenset[int]


def pool_facts(st: GameState) -> PoolFacts:
    """The `PoolFacts` of the game `st` belongs to (its setup's card pool)."""
    cards = st.book.cards
    pool = st.setup.card_pool(st.book)
    monuments = tuple(sorted(c for c in pool if not cards[c].is_tech
                             and cards[c].kind != ARTIFACT))
    techs = sorted(((cards[c].vp, c) for c in pool if cards[c].is_tech), key=lambda t: -t[0])
    table = take_table(cards, pool)
    return PoolFacts(
        monuments=monuments,
        vp=tuple(c.vp for c in cards),
        grants=tuple(_grants_learn(c) for c in cards),
        endgame=frozenset(c for c in monuments if cards[c].activation == "endgame"),
        techs_by_vp=tuple(techs),
        activators=activators(cards, pool),
        poulnabrone=tuple(c for c in sorted(pool)
                          if any(e.special == "poulnabrone" for e in cards[c].effects)),
        free_learners=free_learners(cards, pool),
        candi=candi_cards(cards, pool),
        mover_facts=mover_facts(cards, pool),
        takes=table,
        tile_takers=tile_takers(cards, pool),
        chest_takers=chests_take_techs(st),
        tech_readers=frozenset(c for c in monuments
                               if cards[c].activation == "endgame" and reads_techs(cards[c])),
        learn_takers=frozenset(a[0] for a in table.actors if a[1]),
    )


class PoolFactsCache:
    """The `PoolFacts` of the last game asked about (a search asks about one game), recomputed
    when a state of another game (another setup or card book object) comes."""

    def __init__(self) -> None:
        self._setup: object = None
        self._book: object = None
        self._facts: PoolFacts | None = None
        self.memo = ReachMemo()

    def facts(self, st: GameState) -> PoolFacts:
        if self._facts is None or st.setup is not self._setup or st.book is not self._book:
            self._setup, self._book = st.setup, st.book
            self._facts = pool_facts(st)
            self.memo = ReachMemo()
        return self._facts
