"""The discard pile coming back: the only way a card that left play is created again
(relaxation 4, `solver.bounds.cpsat.cardflow`).

When the builder deck runs out, the discard pile is shuffled into a new deck (RULES.md section
5, Search); before that, a card discarded from play cannot come back to the hand.
"""

from __future__ import annotations

from solver.bounds.cpsat.context import Context, LinExpr
from solver.bounds.cpsat.variables import Var


def may_reshuffle(ctx: Context) -> Var | None:
    """Relaxation 4 (RULES.md section 5: an empty builder deck is refilled by shuffling its
    discard pile): the discard pile comes back only once the deck is dug through (the
    Boolean is tied to the depth in `cardflow.dig_for_cards`); None when the deck cannot
    run out."""
    return ctx.model.new_bool_var("reshuffle") if ctx.reach.reshuffle else None


def more_lives(ctx: Context, reshuffle: Var | None, name: str, first: LinExpr) -> LinExpr:
    """Creations after the first of a card that can leave play to the discard pile: only
    after a reshuffle, at most one per action left (each needs a Create)."""
    if reshuffle is None:
        return 0
    m, actions = ctx.model, ctx.actions_left
    v = m.new_int_var(0, actions, f"more_{name}")
    m.add(v <= actions * reshuffle)
    if not isinstance(first, int):
        m.add(v <= actions * first)
    return v
