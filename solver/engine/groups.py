"""Simultaneous effects (RULES.md D15): a group is resolved one effect at a time, in the
player's order, each completely before the next."""

from __future__ import annotations

from solver.engine.frames import D_ORDER, F_EFFECT
from solver.engine.state import GameState


def push_group(st: GameState, group: list[tuple[int, int]]) -> None:
    """Resolve the (card, effect index) pairs: one directly, several through an order decision
    (each card must still be in play when its turn comes)."""
    if len(group) == 1:
        st.stack.append((F_EFFECT, group[0][0], group[0][1], 0))
    elif group:
        st.stack.append((D_ORDER, tuple(group), True))
