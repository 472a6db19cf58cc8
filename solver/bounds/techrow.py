"""Which technologies can still enter the collection in the last turn: those on the tiles now,
those already revealed, and those the tile refills can still turn up (a bound for
`solver.bounds.simple`).

A technology enters the collection only (RULES.md section 5 and section 12):

* by a Learn (the action, or an effect's Learn): the player takes an *available* technology,
  one on a tile;
* by the Pyramid of the Niches (P7, ``niches``): one of the top 7 of the Level II deck, revealed;
* by Abu Simbel's decline effect (``gain_held_tech``): the technology held on it.

In the last turn no decline phase moves a monument (the game ends at once at its decline phase,
D8) and no technology phase comes, so the tiles change only when a technology leaves one: a
Learn, or an effect that buries (``bury_tech``) or holds (``hold_tech``) an available one. A tile
left with exactly one card is refilled with 3 from the top of its level's deck (section 5,
Learn), reshuffling that level's discards when the deck runs out. With at most ``R`` removals
from the tiles still to come, a refill's cards can be learned only if a Learn follows it, so
only the refills the first ``R - 1`` removals cause matter (`refills`, level by level: at most
``R - 1``), each taking the next 3 of its level's deck. The technologies that can still enter
the collection are those on the tiles, those revealed (in limbo), and the top ``3 (R - 1)`` of
each level's deck (fewer: `refills`), or every technology of that level in the deck and discard
pile when that reaches past the deck's bottom. Every other technology stays out of the
collection, whatever the line.

``R`` is the Learns still reachable plus the buries and holds of the cards that can still
activate (decline effects never do in the last turn). When such an effect could run more than
once, or the Pyramid of the Niches could reveal, or one of these steps is already under way, or
a chest holds one, the answer is None (no restriction).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from solver.bounds.reachable import pending_steps
from solver.engine.cards import ARTIFACT, Card, Clause, all_steps
from solver.engine.conditions import count
from solver.engine.frames import D_BOTTOM, D_LEARN, D_TECH_PICK
from solver.engine.setup import turns_for
from solver.engine.state import GameState
from solver.frozen import Frozen

#: Steps that take a technology off a tile (so a refill may follow) or reveal Level II ones.
TILE_OPS: Final = frozenset({"bury_tech", "hold_tech", "niches"})
#: Steps that learn (section 5 Learn; the Pyramid of the Niches learns as at a Learn).
LEARN_STEPS: Final = frozenset({"learn", "niches"})
REFILL: Final = 3  # cards a refilled tile takes from its level's deck


@dataclass(frozen=True)
class TileTaker(Frozen):
    """A card of the pool whose effects take technologies off the tiles other than by a Learn.

    :param card: the card. :param tech: it is a technology.
    :param removals: the technologies its effects take off the tiles, once each runs.
    :param once: every such effect is immediate and takes technologies off the tiles (no
        Pyramid of the Niches' reveal): it runs once, when the card enters play or the
        collection, and the card cannot go round again (not an artifact).
    :param niches: of `removals`, the Pyramid of the Niches' reveals (a Learn of a Level II
        card from the deck, no tile left: `solver.bounds.cpsat.tiles`).
    :param immediate: every such effect is immediate, with no trigger.
    """

    card: int
    tech: bool
    removals: int
    once: bool
    niches: int = 0
    immediate: bool = True


def tile_takers(cards: tuple[Card, ...], pool: frozenset[int]) -> tuple[TileTaker, ...]:
    """The `TileTaker`s of a game's card pool, in card order (fixed once the game is dealt).
    Decline effects are left out: none runs in the last turn (its decline phase ends the game
    at once, D8)."""
    out: list[TileTaker] = []
    for c in sorted(pool):
        card = cards[c]
        removals = niches = 0
        once = card.is_tech or card.kind != ARTIFACT
        immediate = True
        found = False
        for e in card.effects:
            steps = [s for s in all_steps(e.steps) if s.op in TILE_OPS]
            if not steps or (e.moment == "decline" and e.trigger is None):
                continue
            found = True
            if e.moment != "immediate" or e.trigger:
                once = immediate = False
            if any(s.op == "niches" for s in steps):
                once = False
            removals += sum(max(1, s.count) for s in steps)
            niches += sum(max(1, s.count) for s in steps if s.op == "niches")
        if found:
            out.append(TileTaker(c, card.is_tech, removals, once, niches, immediate))
    return tuple(out)


def chests_take_techs(st: GameState) -> bool:
    """Whether a chest of the game's setup holds a step of `TILE_OPS`."""
    data = st.setup.chest_data
    if data is None:
        return False
    return any(s.op in TILE_OPS for chest in data.chests for s in all_steps(chest.steps))


def tile_ops_under_way(st: GameState) -> bool:
    """Whether a step of `TILE_OPS` is still to run on the stack (a decision of one, or
    `solver.bounds.reachable.pending_steps`)."""
    if any(fr[0] in (D_TECH_PICK, D_BOTTOM) for fr in st.stack):
        return True
    return any(s.op in TILE_OPS for steps in pending_steps(st) for s in all_steps(steps))


def refills(st: GameState, removals: int, level: int,
            removable: frozenset[int] | set[int] | None = None) -> int:
    """The most refills of the tiles of `level` (1 or 2) that `removals` removals from the tiles
    can cause (section 5, Learn): a tile is refilled when it is left with exactly one card, so
    a tile with 2 cards now needs 1 removal for its first refill, one with 3 needs 2, and a
    refilled tile (3 cards) 2 more. A tile keeps its level (only the middle of the game flips
    one, section 6: at a decline).

    `removable`, when given, holds every card now on a tile that a removal can take (the
    caller's: only Learns remove, and only these may still be learned): a tile's first refill
    then needs all but one of its cards now among them; a refill's new cards count as
    removable. With no tile that can be refilled first, none is refilled at all."""
    if removals <= 0:
        return 0
    tiles = [t for t, lv in enumerate(st.tile_level) if lv == level]
    if not tiles:
        return 0

    def opens(t: int, size: int) -> bool:
        held = [c for c in st.tiles[3 * t:3 * t + 3] if c >= 0]
        return len(held) == size and (
            removable is None or sum(1 for c in held if c in removable) >= size - 1)

    twos = sum(1 for t in tiles if opens(t, 2))
    first = min(removals, twos)
    if first == 0 and not any(opens(t, 3) for t in tiles):
        return 0
    return first + (removals - first) // 2


def last_turn_techs(st: GameState, learns: int, takers: tuple[TileTaker, ...],
                    chest_takers: bool = False,
                    present: set[int] | None = None,
                    learnable: frozenset[int] | set[int] | None = None) -> frozenset[int] | None:
    """In the last turn: the technologies that may still enter the collection (see the
    module), given that at most `learns` Learns can still happen; None when not in the last
    turn or when no restriction can be shown. `takers` are the pool's `tile_takers`;
    `chest_takers`: a chest of the setup holds a step of `TILE_OPS`; `present`: the builder
    cards that may be in play before the game ends (`solver.bounds.simple`), None: any.

    A builder card's removals count while it is out of play and may enter it (in play, its
    immediate effect has run, or is under way: no restriction then; one whose effects may run
    again, in play or not: no restriction); a technology's while it is among the technologies
    found so far (counted to a fixed point: each round's set holds the previous one's).
    `learnable`, when given: the technologies a Learn may still take (`may_pass`); while only
    Learns remove (no taker counts), a card on a tile outside it stays there (`refills`)."""
    if st.over or max(st.turn, 1) != turns_for(st.setup.time_space) or chest_takers:
        return None
    if tile_ops_under_way(st):
        return None
    past = set(st.past)
    known = set(st.techs)
    in_play = set(st.artifacts)
    for sp in st.spaces:
        in_play.update(sp)
    base = learns
    tech_takers: list[TileTaker] = []
    for t in takers:
        if t.card in past or t.card in known:
            continue  # never acts again (its immediate effect is not under way: checked above)
        if t.tech:
            tech_takers.append(t)
            continue
        if present is not None and t.card not in present and t.card not in st.limbo:
            continue
        if not t.once:
            return None  # in play or not, it may take technologies again
        if t.card not in in_play:
            base += t.removals
    counted: set[int] = set()
    while True:
        removals = base + sum(t.removals for t in tech_takers if t.card in counted)
        out = set(st.available_techs())
        out.update(st.limbo)
        only_learns = removals == learns
        for lv in (0, 1):
            take = REFILL * refills(st, removals - 1, lv + 1,
                                    learnable if only_learns else None)
            if take > 0:
                deck = st.tech_decks[lv]
                out.update(deck[-take:])
                if take > len(deck):
                    out.update(st.tech_discards[lv])
        now = {t.card for t in tech_takers if t.card in out}
        if now <= counted:
            break
        if any(not t.once for t in tech_takers if t.card in now):
            return None
        counted |= now
    return frozenset(c for c in out if c not in known)


def may_pass(st: GameState, requirement: tuple[Clause, ...], tech: int, relax: int,
             lost_floor: int = 0) -> bool:
    """Whether `requirement` may still be met after the last decline: no "at least" or
    "exactly" clause on lost knowledge or a Past count above its value now (less `relax` for an
    "at least": Candi Sukuh, D19), and no "at most" or "exactly" clause on lost knowledge below
    `lost_floor` (the least lost knowledge still reachable). After the last decline the Past
    never changes (a card enters it only by declining, section 4C step 2) and lost knowledge
    never grows (only a decline adds to it; removals lower it, D22)."""
    for clause in requirement:
        if clause.counter == "lost" and (
                (clause.op in ("<=", "==") and clause.value < lost_floor)
                or (clause.op == "<" and clause.value <= lost_floor)):
            return False
        if clause.op not in (">=", "=="):
            continue
        need = clause.value - relax if clause.op == ">=" else clause.value
        if clause.counter == "lost":
            if need > st.lost:
                return False
        elif clause.counter.startswith("past.") and need > count(st, clause.counter, tech):
            return False
    return True


def free_learners(cards: tuple[Card, ...], pool: frozenset[int]) -> tuple[int, ...]:
    """The pool's cards with a Learn that ignores requirements outside a decline effect (with
    no decline phase left none of those runs, D8)."""
    return tuple(c for c in sorted(pool) if any(
        s.op in LEARN_STEPS and s.ignore_requirements
        for e in cards[c].effects if e.moment != "decline" for s in all_steps(e.steps)))


def candi_cards(cards: tuple[Card, ...], pool: frozenset[int]) -> tuple[int, ...]:
    """The pool's cards with Candi Sukuh's special (D19)."""
    return tuple(c for c in sorted(pool)
                 if any(e.special == "candi_sukuh" for e in cards[c].effects))


def learn_relax(st: GameState, free: tuple[int, ...], candi: tuple[int, ...],
                may_act: Callable[[int], bool]) -> int | None:
    """After the last decline, what a requirement may lack and still pass: 1 while a Candi
    Sukuh (`candi`) may act (D19: one "at least" value 1 lower), else 0; None when a Learn
    that ignores requirements may still come (one of `free` may act, or one is under way), so
    any technology may be taken. `may_act`: whether a card of the pool may still act (out of
    the Past, and whatever else the caller knows)."""
    if any(may_act(c) for c in free) or any(fr[0] == D_LEARN and fr[2] for fr in st.stack):
        return None
    return 1 if any(may_act(c) for c in candi) else 0


def tile_learnable(st: GameState, free: tuple[int, ...],
                   candi: tuple[int, ...]) -> frozenset[int] | None:
    """After the last decline: the technologies on the tiles whose requirement may still be
    met (`may_pass`, with `learn_relax` for any card out of the Past), or None when any may.
    `free` and `candi`: the pool's `free_learners` and `candi_cards`."""
    past = set(st.past)
    relax = learn_relax(st, free, candi, lambda c: c not in past)
    if relax is None:
        return None
    cards = st.book.cards
    return frozenset(c for c in st.available_techs()
                     if may_pass(st, cards[c].requirement, c, relax))
