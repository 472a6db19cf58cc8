"""The cards the rest of the game can still involve: a static over-approximation, read once
before the model is built.

Which builder cards can still be drawn (how deep the deck can be dug, relaxation 4 of
`solver.bounds.cpsat.relaxation`), which technologies can still be dealt to the tiles
(relaxation 7), and a few flags the model needs (Potala Palace, Candi Sukuh, Phaistos Disc,
moves and swaps, monuments entering space 1 during a decline).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from solver.bounds.cpsat.facts import FactBook
from solver.bounds.cpsat.resources import DECK_ALL, NOTHING, Gains, discards_artifacts, steps_gains
from solver.bounds.cpsat.schedule import Phase, Schedule, build_schedule
from solver.bounds.techrow import (
    TileTaker,
    candi_cards,
    chests_take_techs,
    free_learners,
    last_turn_techs,
    tile_learnable,
    tile_takers,
)
from solver.engine.chests import chest_of
from solver.engine.state import GameState


@dataclass
class Reach:
    """The cards the rest of the game can still involve (a static over-approximation)."""

    positions: dict[int, int]  # builder card -> deck position (0 = top); -1: in hand
    in_timeline: list[int]
    on_board: list[int]
    techs: list[int]  # technologies not in the collection (tiles, decks, discards, held)
    reshuffle: bool  # the builder deck may run out (the discard pile comes back)
    potala: bool  # Potala Palace may still be created (C30)
    candi: bool  # Candi Sukuh may be in the Timeline at a Learn (P19)
    phaistos: bool
    movers: bool  # some move/swap step can still fire
    entries: int  # monuments that may enter space 1 during decline phases
    recycle_all: bool  # artifacts may leave the board by another card's effect (P13)

    def playable(self) -> list[int]:
        """Every card that can still act: reachable builders, cards in play, technologies."""
        return sorted(set(self.positions) | set(self.in_timeline) | set(self.on_board)
                      | set(self.techs))


def chest_gains(st: GameState, pool_size: int) -> Gains:
    """What the chest cards under the board can still give, each once (RULES.md section 8)."""
    if not st.chests_under:
        return NOTHING

    out = NOTHING
    for k in st.chests_under:
        out = out + steps_gains(chest_of(st, k).steps, pool_size)
    return out


def _top(values: Iterable[int], k: int) -> int:
    """The sum of the `k` largest values."""
    return sum(sorted((v for v in values if v > 0), reverse=True)[:max(0, k)])


def read_reach(st: GameState, phase: Phase, facts: FactBook, chest: Gains) -> Reach:
    """Which cards can still be drawn: a fixpoint on the deepest the deck can be dug.

    The depth is at most: one card per action (Search); the excavation rate times every
    monument that can be straight in the Past (there now, every decline still possible,
    every straightening); the reveals and draws of the effects that can fire, each at its
    most (immediate effects of at most as many cards as Creates remain, decline effects of
    at most as many as declines remain, Timeline effects every phase, triggers every event,
    technologies' effects for at most as many as Learns remain)."""
    cards = st.book.cards
    deck_pos = {c: len(st.deck) - 1 - k for k, c in enumerate(st.deck)}
    hand = set(st.hand)
    in_play = set(st.monuments()) | set(st.board_artifacts())
    pre = build_schedule(st, phase, True)
    actions = pre.actions
    phases = pre.timeline_phases
    declines = sum(s.cap for s in pre.slots if s.decline)
    # A decline effect applies only as its monument declines (RULES.md section 4C step 2):
    # with no decline phase that moves monuments left (the last turn's ends the game at
    # once, D8), none fires and no monument enters space 1 during a decline.
    declining = any(s.decline for s in pre.slots)
    straight = len(st.past) - st.rotated
    depth = 0
    reach: set[int] = hand | in_play
    techs = dealt_technologies(st, facts, actions, pre, declines, reach)
    entries = 0
    for _ in range(10):
        new = sorted(reach - in_play)
        facts_of = [facts[c] for c in sorted(reach)]
        tech_facts = [facts[t] for t in techs]
        once = NOTHING  # immediate and decline effects of every reachable card, summed
        for c in sorted(reach):
            f = facts[c]
            if c not in in_play:
                once = once + f.immediate
            once = once + (f.decline if declining else NOTHING) + f.timeline.scaled(phases)
        once = once + chest
        c_max = actions + once.create_mon + once.create_art
        if any("poulnabrone" in f.specials for f in facts_of):
            c_max *= 2
        l_max = actions + once.learn + sum(g.learn for f in facts_of for _, g in f.triggers) * (
            actions + c_max)
        if any(g.learn for f in facts_of for e, g in f.triggers
               if e.trigger is not None and e.trigger.event == "learn"):
            l_max = len(techs)
        l_max = min(l_max, len(techs))
        # Monuments entering space 1 during declines: one per decline effect that can
        # create or move (each card declines once; see `fates.limit_declines`).
        moving_techs = any(f.immediate.moves or f.immediate.create_mon for f in tech_facts)
        entries = sum(1 for c in sorted(reach) if cards[c].is_monument and (
            facts[c].decline.create_mon or facts[c].decline.moves
            or (facts[c].decline.learn and moving_techs))) if declining else 0
        rate = 3 if any("phaistos_disc" in f.specials for f in facts_of) else 2
        dig = actions + rate * (straight + declines + entries + once.straighten)
        dig += _top((facts[c].immediate.depth for c in new), c_max)
        dig += _top((facts[c].decline.depth for c in sorted(reach)), declines + entries)
        dig += _top((facts[c].timeline.depth * phases for c in sorted(reach)),
                    c_max + len(in_play))
        for f in facts_of:
            for e, g in f.triggers:
                t = e.trigger
                assert t is not None
                events = l_max if t.event == "learn" else actions if t.event == "excavate" \
                    else c_max
                dig += g.depth * events
        dig += _top((f.immediate.depth for f in tech_facts), l_max) + chest.depth
        new_depth = DECK_ALL if dig >= len(st.deck) else dig
        new_reach = hand | in_play | {c for c, p in deck_pos.items() if p < new_depth}
        if new_depth >= DECK_ALL:
            new_reach |= set(st.discard)
        new_techs = dealt_technologies(st, facts, l_max, pre, declines + entries, new_reach)
        if new_reach == reach and new_depth == depth and new_techs == techs:
            break
        reach, depth, techs = new_reach, new_depth, new_techs
    else:
        depth = DECK_ALL
        reach = hand | in_play | set(deck_pos) | set(st.discard)
    positions = {c: -1 for c in st.hand}
    for c in sorted(reach - hand - in_play):
        positions[c] = deck_pos.get(c, len(st.deck))
    playable = sorted(reach) + techs

    def has(special: str, among: Iterable[int]) -> bool:
        return any(special in facts[c].specials for c in among)

    movers = chest.moves > 0 or any(
        facts[c].immediate.moves or facts[c].timeline.moves
        or facts[c].decline.moves or any(g.moves for _, g in facts[c].triggers)
        for c in playable)
    return Reach(
        positions=positions,
        in_timeline=list(st.monuments()),
        on_board=st.board_artifacts(),
        techs=techs,
        reshuffle=depth >= DECK_ALL,
        potala=st.potala or has("potala_skip_decline", positions),
        candi=has("candi_sukuh", sorted(reach)),
        phaistos=has("phaistos_disc", sorted(reach)),
        movers=movers,
        entries=entries,
        recycle_all=any(discards_artifacts(cards[c]) for c in playable),
    )


def dealt_technologies(st: GameState, facts: FactBook, learns: int, sch: Schedule,
                       declines: int, builders: set[int]) -> list[int]:
    """Technologies that can still be learned: those on the tiles, those held on a card
    (Abu Simbel), and the next cards of each level's deck that refills can deal. A tile is
    refilled only when a departure (a Learn, a die roll, a card put under its deck) leaves
    it with one card (RULES.md sections 4D and 5), three cards a refill, in deck order; the
    middle-of-game flip deals 3 Level II cards, Pyramid of the Niches (P7) reveals the top 7
    of the Level II deck. A deck that can run out brings its discards back (reshuffle). In
    the last turn, only those `solver.bounds.techrow.last_turn_techs` leaves open with at most
    `learns` Learns (a refill needs a tile left with one card, and a refill's cards count only
    if a Learn follows it; only the `builders` can enter play)."""
    cards = st.book.cards
    dice = sum(1 for sl in sch.slots if not sl.ends)
    buries = 0
    niches = False
    for c in sorted(builders | set(pool_technologies(st))):
        f = facts[c]
        if f.buries:  # P35, T27: put technologies under their deck
            buries += f.buries * (sch.timeline_phases if f.buries_timeline else 1)
        niches = niches or (f.niches and c in builders)
    departures = learns + dice + buries
    flip = not st.midgame and len(st.past) + declines >= 7
    out = {c for c in st.tiles if c >= 0} | {t for _, t in st.held}
    for lv in (1, 2):
        live = any(st.tile_level[k] == lv and any(c >= 0 for c in st.tiles[3 * k:3 * k + 3])
                   for k in range(3))
        deal = 3 * departures if live else 0
        if lv == 2:
            if flip:
                deal = 3 * departures + 3
            if niches:
                deal += 7
        deck = st.tech_decks[lv - 1]
        out |= set(deck[len(deck) - min(deal, len(deck)):])
        if deal > len(deck):
            out |= set(st.tech_discards[lv - 1])
    takers, free, candi = tile_facts(st)
    still = last_turn_techs(st, learns, takers, chests_take_techs(st), builders,
                            tile_learnable(st, free, candi))
    if still is not None:
        out &= still
    return sorted(t for t in out if cards[t].is_tech and t not in st.techs)


_TileFacts = tuple[tuple[TileTaker, ...], tuple[int, ...], tuple[int, ...]]
_TILE_FACTS: dict[object, _TileFacts] = {}  # by card sets and pool: a pure cache


def tile_facts(st: GameState) -> _TileFacts:
    """The pool's tile takers, free learners and Candi Sukuhs (`solver.bounds.techrow`),
    memoized by card sets and whether the pool is restricted (`Setup.card_pool`)."""
    key = (st.book.sets, st.setup.restricted)
    got = _TILE_FACTS.get(key)
    if got is None:
        cards, pool = st.book.cards, st.setup.card_pool(st.book)
        got = (tile_takers(cards, pool), free_learners(cards, pool), candi_cards(cards, pool))
        _TILE_FACTS[key] = got
    return got


_POOL_TECHS: dict[object, list[int]] = {}  # by card sets and pool: a pure cache


def pool_technologies(st: GameState) -> list[int]:
    """The technologies of the game's card pool (memoized by card sets and whether the pool is
    restricted)."""
    key = (st.book.sets, st.setup.restricted)
    cached = _POOL_TECHS.get(key)
    if cached is None:
        pool = st.setup.card_pool(st.book)
        cached = [t for t in sorted(pool) if st.book.cards[t].is_tech]
        _POOL_TECHS[key] = cached
    return cached
