"""The decline phase (RULES.md section 4C) and the middle of the game (section 6).

1. The time card in space 1: to the Past (1st and 2nd time), or the game ends at once (3rd
   time, D8).
2. Each monument in space 1 declines, one at a time in the player's order: its decline effect
   (the card still in the Timeline, immune to move and swap), then its knowledge becomes lost
   knowledge and it goes to the Past straight, unless its effect discarded it (C25-C29); the
   7th monument in the Past starts the middle of the game. A monument that enters space 1
   during the phase declines right after the card whose effect put it there.
3. Elongated Skulls (A32) draws for the knowledge converted; then everything slides one space
   left, the time card included (a third row if needed, D12).

On a turn in which Potala Palace was created outside a decline phase, only step 1 and the time
card's slide happen.
"""

from __future__ import annotations

from bisect import insort
from typing import Final

from solver.engine import actions as A
from solver.engine.chests import SINCE_BETWEEN, SINCE_STEPS, discard_unused_chests
from solver.engine.conditions import special_in_play
from solver.engine.frames import (
    D_CHEST_WINDOW,
    D_DECLINE_ORDER,
    D_FLIP,
    F_DECLINE_CARD,
    F_DECLINE_FINISH,
    F_DECLINE_NEXT,
    F_DECLINE_PHASE,
    F_EFFECT,
    F_ELONGATED,
    F_SLIDE,
    Frame,
    Registry,
)
from solver.engine.state import TIME, GameState

MIDGAME_PAST: Final = 7
AFTER_ONE: Final = 1  # `decline_next`: a monument declined before in this phase
FREED: Final = 2  # `decline_next`: step 1 freed a place in space 1 (the time card left it)


def decline_phase(st: GameState, fr: Frame) -> None:
    # Step 1: the time card.
    if st.time_space == 1:
        st.time_visits += 1
        if st.time_visits >= 3:
            end_game(st)
            return
        st.spaces[0] = tuple(c for c in st.spaces[0] if c != TIME)
        st.time_space = 0
    if st.potala:
        slide_time_card(st)
        return
    st.in_decline = True
    st.converted = 0
    st.stack.append((F_SLIDE,))
    st.stack.append((F_ELONGATED,))
    # The time card's leaving frees a place in space 1: a lightning window before the first
    # decline (a chest's Create may put a monument there, to decline now; section 8).
    st.stack.append((F_DECLINE_NEXT, FREED) if st.time_space == 0 else (F_DECLINE_NEXT,))


def end_game(st: GameState) -> None:
    """The third time the time card is in space 1 the game ends at once (D8): no decline, no
    technology phase."""
    st.over = True
    st.in_decline = False
    st.stack.clear()
    discard_unused_chests(st)


def decline_next(st: GameState, fr: Frame) -> None:
    """The next monument of space 1 declines (the player orders two, section 4C step 2).

    A frame ``(F_DECLINE_NEXT, AFTER_ONE)`` follows each decline of this phase, and
    ``(F_DECLINE_NEXT, FREED)`` step 1 when the time card left space 1: a lightning window
    opens first ("at any moment", section 8; `solver.engine.chests`), then this runs again
    without it. The window between two declines is the one line files of format 3 know; the
    window before the first (in the place the time card freed) and after the last (before
    Elongated Skulls and the slide) came with format 4 (`solver.engine.chests.SINCE_STEPS`). A
    monument a chest creates in space 1 there declines in this phase too, as any monument that
    enters space 1 during it."""
    mons = st.space_monuments(1)
    if len(fr) > 1 and st.chests_under:
        st.stack.append((F_DECLINE_NEXT,))
        between = bool(mons) and fr[1] == AFTER_ONE
        st.stack.append((D_CHEST_WINDOW, SINCE_BETWEEN if between else SINCE_STEPS))
        return
    if not mons:
        return
    if len(mons) == 1:
        st.stack.append((F_DECLINE_NEXT, AFTER_ONE))
        st.stack.append((F_DECLINE_CARD, mons[0]))
    else:
        st.stack.append((D_DECLINE_ORDER,))


def decline_order_options(st: GameState, fr: Frame) -> list[int]:
    return [A.code(A.ORDER, c) for c in st.space_monuments(1)]


def decline_order_choose(st: GameState, fr: Frame, action: int) -> None:
    st.stack.append((F_DECLINE_NEXT, AFTER_ONE))
    st.stack.append((F_DECLINE_CARD, A.value_of(action)))


def decline_card(st: GameState, fr: Frame) -> None:
    card = fr[1]
    st.declining = card
    st.stack.append((F_DECLINE_FINISH, card))
    effects = st.book.cards[card].effects
    for i in range(len(effects) - 1, -1, -1):
        if effects[i].moment == "decline":
            st.stack.append((F_EFFECT, card, i, 0))


def decline_finish(st: GameState, fr: Frame) -> None:
    card = fr[1]
    st.declining = -1
    if not st.in_timeline(card):
        return
    st.take_from_timeline(card)
    tokens = st.tokens[card]
    st.tokens[card] = 0
    if st.vanishing == card:
        # Discarded instead of declining: no Past card, its knowledge returns to the reserve.
        st.vanishing = -1
        st.discard.append(card)
        return
    st.lost += tokens
    st.converted += tokens
    insort(st.past, card)
    if len(st.past) == MIDGAME_PAST and not st.midgame:
        st.midgame = True
        st.stack.append((D_FLIP,))
        if st.chests_under:  # the monument is in the Past, the flip still to come (section 8)
            st.stack.append((D_CHEST_WINDOW, SINCE_STEPS))


def elongated(st: GameState, fr: Frame) -> None:
    """A32 Elongated Skulls: draw 2 for each full 3 knowledge converted this decline phase."""
    if st.converted >= 3:

        for _ in special_in_play(st, "elongated_skulls"):
            st.draw(2 * (st.converted // 3))


def slide(st: GameState, fr: Frame) -> None:
    """Everything left in the Timeline slides one space left, keeping its row."""
    st.in_decline = False
    leftover = st.spaces[0]
    st.spaces = st.spaces[1:] + [()]
    if leftover:  # cannot happen: space 1 has declined (kept as a guard)
        st.spaces[0] = leftover + st.spaces[0]
    if st.time_space > 1:
        st.time_space -= 1


def slide_time_card(st: GameState) -> None:
    """Potala Palace: only the time card slides; into a full space it sits in a third row."""
    if st.time_space > 1:
        s = st.time_space
        st.spaces[s - 1] = tuple(c for c in st.spaces[s - 1] if c != TIME)
        st.spaces[s - 2] = st.spaces[s - 2] + (TIME,)
        st.time_space = s - 1


def register() -> Registry:

    auto = {F_DECLINE_PHASE: decline_phase, F_DECLINE_NEXT: decline_next,
            F_DECLINE_CARD: decline_card, F_DECLINE_FINISH: decline_finish,
            F_ELONGATED: elongated, F_SLIDE: slide}
    options = {D_DECLINE_ORDER: decline_order_options}
    choose = {D_DECLINE_ORDER: decline_order_choose}
    return auto, options, choose

