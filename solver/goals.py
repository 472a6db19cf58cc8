"""Goal chests (RULES.md section 8): checked at the end; the solo-modes layer defines them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.state import GameState


def goals_met(st: GameState) -> bool:
    """True when every goal chest in an artifact space is met (no chests: always)."""
    return not st.goal_chests
