"""Effects on technologies other than the Learn action: bury, hold on a card, learn a revealed
one (RULES.md sections 5 and 12, decision D19).

A buried technology goes to the bottom of its level's deck; a held one waits on Abu Simbel
(section 12). Either leaves its tile, and the tile rule of section 5 follows (a tile left with
exactly one card is discarded and refilled). The Pyramid of the Niches learns one of the Level II
technologies it reveals and puts the rest at the bottom in the player's order: a Learn, so its
requirement is met as at a Learn (Candi Sukuh may relax it, **D19**). Abu Simbel's technology is
added to the collection, which is not a Learn (no Learn trigger, no Candi Sukuh).
"""

from __future__ import annotations

from bisect import insort
from typing import Final

from solver.engine import actions as A
from solver.engine.cards import Step
from solver.engine.conditions import requirement_met
from solver.engine.frames import D_BOTTOM, D_TECH_PICK, Frame, Registry
from solver.engine.learn import add_to_collection, candi_sukuh_in_timeline, gain_technology
from solver.engine.state import GameState

# D_TECH_PICK purposes
BURY: Final = 0
LEARN_REVEALED: Final = 1
HOLD: Final = 2


def step_bury(st: GameState, card: int, step: Step, ctx: int) -> None:
    st.stack.append((D_TECH_PICK, BURY, step.count, step.level))


def tech_pick_options(st: GameState, fr: Frame) -> list[int]:
    _, purpose, _, arg = fr
    cards = st.book.cards
    if purpose == BURY:
        return [A.code(A.CARD, t) for t in sorted(st.available_techs())
                if arg is None or cards[t].level == arg]
    if purpose == HOLD:
        return [A.code(A.CARD, t) for t in sorted(st.available_techs()) if cards[t].level == arg]
    relax = candi_sukuh_in_timeline(st)
    return [A.code(A.CARD, t) for t in sorted(arg)
            if t in st.limbo and requirement_met(st, cards[t].requirement, relax)]


def tech_pick_choose(st: GameState, fr: Frame, action: int) -> None:
    """BURY: the technology goes to the bottom of its level's deck, then the tile refill rule
    (P35, T27). LEARN_REVEALED: learn a revealed Level II technology (P7). HOLD: the technology
    goes onto the card (Abu Simbel, RULES.md section 12), then the tile refill rule."""
    _, purpose, n, arg = fr
    t = A.value_of(action)
    if purpose == BURY:
        if n > 1:
            st.stack.append((D_TECH_PICK, BURY, n - 1, arg))
        tile = st.take_from_tile(t)
        st.tech_decks[st.book.cards[t].level - 1].insert(0, t)
        st.check_tile(tile)
    elif purpose == HOLD:
        st.held = st.held + ((n, t),)
        st.check_tile(st.take_from_tile(t))
    else:
        st.limbo.remove(t)
        gain_technology(st, t)


def step_niches(st: GameState, card: int, step: Step, ctx: int) -> None:
    """Pyramid of the Niches (P7): nothing if the Level II deck is empty; else look at its top 7
    (fewer if fewer), learn one whose requirement you meet (mandatory; Candi Sukuh applies), and
    put the rest at the bottom of the deck in the order you choose."""
    deck = st.tech_decks[1]
    if not deck:
        return
    revealed = tuple(deck[-7:][::-1])
    del deck[-len(revealed):]
    st.limbo.extend(revealed)
    st.stack.append((D_BOTTOM, revealed))
    st.stack.append((D_TECH_PICK, LEARN_REVEALED, 1, revealed))


def bottom_options(st: GameState, fr: Frame) -> list[int]:
    return [A.code(A.CARD, c) for c in sorted(fr[1]) if c in st.limbo]


def bottom_choose(st: GameState, fr: Frame, action: int) -> None:
    """The chosen card goes under the deck; the next one chosen goes under it."""
    c = A.value_of(action)
    st.limbo.remove(c)
    st.tech_decks[1].insert(0, c)
    if any(x in st.limbo for x in fr[1]):
        st.stack.append(fr)


def step_hold_tech(st: GameState, card: int, step: Step, ctx: int) -> None:
    """Abu Simbel (RULES.md section 12), on Create: put an available technology of the step's
    level on this card (it leaves its tile; the tile rule of section 5 follows)."""
    if st.in_timeline(card):
        st.stack.append((D_TECH_PICK, HOLD, card, step.level or 2))


def step_gain_held_tech(st: GameState, card: int, step: Step, ctx: int) -> None:
    """Abu Simbel (RULES.md section 12), on decline: the technology on this card is added to the
    collection if its requirement is met now, as printed; otherwise it is discarded (stand-in).
    "Add it to your collection" is not a Learn: no "each time you LEARN" effect reacts, and
    Candi Sukuh, which lowers a requirement "at each Learn" (D19), does not apply. The
    technology's own immediate effect resolves, as for any technology entering the collection."""
    for holder, t in st.held:
        if holder != card:
            continue
        st.held = tuple(h for h in st.held if h != (holder, t))
        if requirement_met(st, st.book.cards[t].requirement, False):
            insort(st.techs, t)
            add_to_collection(st, t)
        else:
            st.discard_tech(t)


def register() -> Registry:
    """The technology decisions of effects for the engine loop (`solver.engine.flow`)."""
    options = {D_TECH_PICK: tech_pick_options, D_BOTTOM: bottom_options}
    choose = {D_TECH_PICK: tech_pick_choose, D_BOTTOM: bottom_choose}
    return {}, options, choose
