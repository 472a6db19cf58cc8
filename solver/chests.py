"""Chest cards in the engine (RULES.md section 8). The solo-modes layer fills this in."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.state import GameState


def discard_unused_chests(st: GameState) -> None:
    """Effect chests under the board that were not used are discarded at the end (section 8)."""
    st.chests_under.clear()
