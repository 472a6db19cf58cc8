"""A playout prior for the solo game: which options a sensible player tries more often.

NRPA adds it to its learned weights (GNRPA): the prior only changes the probabilities of a
playout, never what is legal, so no line is lost; the learned weights correct a bad prior.
Numbers are log-odds; they live here, in one place.
"""

from __future__ import annotations

from typing import Final

from solver.engine import actions as A
from solver.engine.frames import D_ACTION, D_CREATE_SPACE, D_REMOVE
from solver.engine.state import GameState

ACTION_PRIOR: Final = {A.ACT_CREATE: 1.5, A.ACT_LEARN: 1.0, A.ACT_EXCAVATE: 0.8, A.ACT_ARCHIVE: 0.0,
                A.ACT_SEARCH: -0.5}
SPACE_DISTANCE_PENALTY: Final = 0.7  # per space away from the card's starting space (extra discards)
STOP_REMOVING_PENALTY: Final = 1.0  # "done" before removing every knowledge token it may


def code(st: GameState, action: int) -> int:
    """A context code for learned policies (NRPA): the action and the kind of pending decision,
    so a policy can learn *when* an action is good."""
    kind: int = st.stack[-1][0] if st.stack else 0
    return (kind << 13) | action


def bias(st: GameState, action: int) -> float:
    """The prior log-odds of `action` at the pending decision."""
    if not st.stack:
        return 0.0
    fr = st.stack[-1]
    kind: int = fr[0]
    if kind == D_ACTION:
        return ACTION_PRIOR.get(action, 0.0)
    if kind == D_CREATE_SPACE:
        card = st.book.cards[fr[1]]
        return -SPACE_DISTANCE_PENALTY * abs(A.value_of(action) - card.starting_space)
    if kind == D_REMOVE and action == A.DONE:
        return -STOP_REMOVING_PENALTY
    return 0.0
