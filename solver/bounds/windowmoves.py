"""Moves in the window of the last decline (`solver.bounds.window`): the steps that move or
swap one monument of the Timeline, which the window follows choice by choice
(`solver.bounds.window.passive_starts`) as its one move (`solver.bounds.windowwork.moved`): a
decline effect of space 1 (C15, P12), a technology learned in the Timeline phase (T10), or a
card just created that swaps itself with another monument (C13, C14, P23).
"""

from __future__ import annotations

from typing import Final

from solver.engine.cards import Effect, Step
from solver.engine.frames import D_ORDER, F_EFFECT
from solver.engine.state import CHEST_BASE, GameState

#: A step that moves a monument (`moves_one`).
MOVE_OP: Final = "move"
#: A step that swaps two monuments (`swaps_self`).
SWAP_OP: Final = "swap"
#: An effect's moment when its card enters play (section 5).
IMMEDIATE: Final = "immediate"


def decline_move(e: Effect) -> bool:
    """Whether `e` is a decline effect that must move a monument (`moves_one`: C15, P12)."""
    return e.moment == "decline" and not e.optional and any(moves_one(x) for x in e.steps)


def moves_one(step: Step) -> bool:
    """Whether `step` must move one monument of the Timeline to a space of the player's
    choice, nothing following (C15 Ajanta Caves, P12 Gunung Padang: another one; T10
    Planetary Grid: any); `solver.bounds.window.passive_starts` follows every choice (a move
    one may decline would be declined there)."""
    return (step.op == MOVE_OP and step.target == "one" and not step.to and not step.then
            and not step.optional)


def swaps_self(step: Step) -> bool:
    """Whether `step` swaps its own card with another monument of the Timeline, nothing
    following (C13, C14, P23: mandatory, with any other, `solver.engine.targets.step_swap`):
    one move of each; `solver.bounds.window.passive_starts` follows every choice."""
    return step.op == SWAP_OP and step.first == "self" and not step.then


def self_swap(e: Effect) -> bool:
    """Whether `e` is an immediate effect that swaps its card with another monument, nothing
    else read first (C13, C14, P23: `swaps_self`, no condition, no special)."""
    return (e.moment == IMMEDIATE and e.trigger is None and e.special is None
            and not e.condition and any(swaps_self(x) for x in e.steps))


def swap_pending(st: GameState) -> bool:
    """Whether a created card's swap of itself (`self_swap`) waits in a Create group on the
    stack of `st`: it resolves before the Timeline phase (a Create is an action, section 4A),
    so the places of the Timeline may differ from now where the Timeline phase reads them."""
    cards = st.book.cards
    for fr in st.stack:
        if fr[0] in (F_EFFECT, D_ORDER):
            items = ((fr[1], fr[2]),) if fr[0] == F_EFFECT else fr[1]
            if any(c < CHEST_BASE and self_swap(cards[c].effects[i]) for c, i in items):
                return True
    return False
