"""An admissible upper bound on the final VP of a position (for exact search).

"Admissible" means no line from the position can score more. The bound adds, row by row of the
score sheet (RULES.md section 7), the most each row can still reach:

* Past VP: the VP already in the Past, plus the best printed VP of the monuments that could
  still decline. At most 2 monuments decline a decline phase (space 1 has two places), plus at
  most one per card whose effect can create or move a monument (each card declines once), so
  ``declines <= 2 * decline_phases_left + movers``.
* End-game effects: each Past (or possibly Past) end-game card at its best value with every
  counter at its most optimistic (Past counts after every possible decline, every technology
  learned, no lost knowledge, a full Timeline).
* Technologies: the VP already learned, plus the best Level II VP still in the game, at most
  two Learns a turn plus the cards that grant Learns.
* Timeline: at most 12 monuments (6 spaces, 2 places).
* Lost knowledge: it never goes below 0.

It is loose early in the game; near the end (few decline phases left) it is what lets branch
and bound cut. The constraint layer (`solver.bounds.cpsat`) gives a tighter one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from solver.engine.cards import ARTIFACT, Card
from solver.engine.frames import F_DECLINE_PHASE
from solver.engine.setup import turns_for
from solver.engine.state import GameState
from solver.frozen import Frozen

TIMELINE_PLACES: Final = 12
MOVER_OPS: Final = frozenset({"create", "move", "swap"})


def _is_mover(card: Card) -> bool:
    return any(s.op in MOVER_OPS or any(t.op in MOVER_OPS for t in s.then)
               for e in card.effects for s in e.steps) or any(
        e.special == "poulnabrone" for e in card.effects)


def _grants_learn(card: Card) -> int:
    return sum(max(1, s.count) for e in card.effects for s in e.steps if s.op in ("learn", "niches"))


def decline_phases_left(st: GameState) -> int:
    """Decline phases still to come that move monuments to the Past (the last turn's decline
    ends the game instead, D8)."""
    if st.over:
        return 0
    last = turns_for(st.setup.time_space)
    pending_now = st.in_decline or any(fr[0] == F_DECLINE_PHASE for fr in st.stack)
    later = max(0, last - max(st.turn, 1) - 1)
    now = 1 if pending_now and st.turn < last else 0
    return later + now


@dataclass(frozen=True)
class PoolFacts(Frozen):
    """What the simple bound reads of a game's card pool: fixed once the game is dealt, so a
    search computes it once (`SimpleBound` keeps it) instead of at every node.

    :param monuments: the pool's monuments (builder cards that are not artifacts), ascending.
    :param vp: printed VP of every card, by index.
    :param movers: monuments whose effect can create or move a monument.
    :param grants: how many Learns a card's effects grant, by index.
    :param endgame: monuments with an end-game scoring effect.
    :param techs_by_vp: (VP, index) of the pool's technologies, highest VP first.
    """

    monuments: tuple[int, ...]
    vp: tuple[int, ...]
    movers: frozenset[int]
    grants: tuple[int, ...]
    endgame: frozenset[int]
    techs_by_vp: tuple[tuple[int, int], ...]


def pool_facts(st: GameState) -> PoolFacts:
    """The `PoolFacts` of the game `st` belongs to (its setup's card pool)."""
    cards = st.book.cards
    pool = st.setup.card_pool(st.book)
    monuments = tuple(sorted(c for c in pool if not cards[c].is_tech
                             and cards[c].kind != ARTIFACT))
    techs = sorted(((cards[c].vp, c) for c in pool if cards[c].is_tech), key=lambda t: -t[0])
    return PoolFacts(
        monuments=monuments,
        vp=tuple(c.vp for c in cards),
        movers=frozenset(c for c in monuments if _is_mover(cards[c])),
        grants=tuple(_grants_learn(c) for c in cards),
        endgame=frozenset(c for c in monuments if cards[c].activation == "endgame"),
        techs_by_vp=tuple(techs),
    )


class PoolFactsCache:
    """The `PoolFacts` of the last game asked about (a search asks about one game), recomputed
    when a state of another game (another setup or card book object) comes."""

    def __init__(self) -> None:
        self._setup: object = None
        self._book: object = None
        self._facts: PoolFacts | None = None

    def facts(self, st: GameState) -> PoolFacts:
        if self._facts is None or st.setup is not self._setup or st.book is not self._book:
            self._setup, self._book = st.setup, st.book
            self._facts = pool_facts(st)
        return self._facts


def simple_upper_bound(st: GameState, facts: PoolFacts | None = None) -> int:
    """At the end, the exact score; before it, a bound no line can beat (see the module).
    `facts` (the game's `pool_facts`) saves recomputing the pool at every call."""
    sheet = st.score()
    if st.over:
        return sheet.total
    if facts is None:
        facts = pool_facts(st)
    cards = st.book.cards
    phases = decline_phases_left(st)
    past_set = set(st.past)
    future = [c for c in facts.monuments if c not in past_set]
    movers = sum(1 for c in future if c in facts.movers)
    declines = min(len(future), 2 * phases + movers) if phases or movers else 0
    if phases == 0:
        declines = min(declines, 2)  # only a decline in progress can still move cards
    vp = facts.vp
    best_vp = sorted((vp[c] for c in future), reverse=True)[:declines]
    grants = facts.grants
    learns_left = 2 * max(0, turns_for(st.setup.time_space) - max(st.turn, 1) + 1) + sum(
        grants[c] for c in future)
    known_techs = set(st.techs)
    tech_vps = [v for v, c in facts.techs_by_vp if c not in known_techs]
    tech_future = sum(tech_vps[:learns_left])
    # End-game effects at their most optimistic: each card's effect bounded by its score rule
    # with counters at their largest possible values.
    past_final = len(st.past) + declines
    techs_final = len(st.techs) + min(learns_left, len(tech_vps))
    effect_bound = 0
    for c in st.past:
        effect_bound += _effect_max(cards[c], past_final, techs_final)
    extra_effect_cards = 0
    for c in future:
        if c not in facts.endgame:
            continue
        if extra_effect_cards >= declines:
            break
        extra_effect_cards += 1
        effect_bound += _effect_max(cards[c], past_final, techs_final)
    return (sheet.past + sum(best_vp) + effect_bound + sheet.technologies + tech_future
            + TIMELINE_PLACES)


def _effect_max(card: Card, past_final: int, techs_final: int) -> int:
    """The most an end-game rule can be worth with counters at their largest values."""
    total = 0
    for e in card.effects:
        r = e.score
        if r is None:
            continue
        if r.per is not None:
            cap = _counter_cap(r.per, past_final, techs_final)
            total += r.times * cap
        elif r.tiers:
            total += max(vp for _, vp in r.tiers)
        else:
            total += r.fixed
    return total


def _counter_cap(counter: str, past_final: int, techs_final: int) -> int:
    if counter.startswith("past."):
        return past_final if counter != "past.min_type" else past_final // 3
    if counter.startswith("techs."):
        return techs_final if counter != "techs.min_type" else techs_final // 3
    if counter.startswith("timeline."):
        return TIMELINE_PLACES
    return 60  # any other counter: a generous cap (lost knowledge, hand...)
