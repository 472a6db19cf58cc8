"""Move ordering for the exact search: the incumbent's line first, then hints; never pruning
beyond the dominance rules of `solver.guidance.dominance`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from solver.engine.state import GameState
from solver.guidance.dominance import prune

#: A move-ordering hook: the same actions (or, for dominance, a subset argued lossless).
Order = Callable[[GameState, Sequence[int]], Sequence[int]]


def incumbent_order(root: GameState, line: Sequence[int],
                    hints: Order | None = None, dominance: Order = prune) -> Order:
    """The ordering of one exact search: dominance rules everywhere (`dominance`, e.g. a
    `solver.guidance.dominance.Dominance`'s `prune`), then `hints` (e.g. the bound's plan, a
    permutation), then the incumbent's action first at every position on its line."""
    first_on_line: dict[Hashable, int] = {}
    st = root.clone()
    for a in line:
        first_on_line[st.key()] = a
        st.apply(a)

    def order(state: GameState, actions: Sequence[int]) -> Sequence[int]:
        actions = dominance(state, actions)
        if hints is not None:
            actions = hints(state, actions)
        first = first_on_line.get(state.key()) if first_on_line else None
        if first is not None and first in actions:
            return [first, *[a for a in actions if a != first]]
        return actions

    return order
