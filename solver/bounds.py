"""Admissible upper bounds on the final VP of a position (used by exact search)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.state import GameState

LARGE = 10_000


def simple_upper_bound(st: GameState) -> int:
    """At the end, the exact score; before it, a bound no line can beat (trivial for now)."""
    if st.over:
        return st.score().total
    return LARGE
