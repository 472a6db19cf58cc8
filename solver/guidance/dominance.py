"""Dominance rules: options a search may skip because another option reaches the same outcome.

Each rule names the decision it thins and the argument why no better line is lost. The engine
itself never prunes (a player may take any legal option); searches call `prune`.

Rule 1 (decline order, RULES.md section 4C step 2). Two monuments in space 1 neither of which
  has a decline effect: each decline only moves its knowledge to lost knowledge and the card to
  the Past (or the discard pile); the middle-of-game flip, if it happens between them, reads
  nothing the second decline changes. Both orders reach the same state, so only the first
  option is searched.

Rule 2 (Timeline phase order, section 4B). When every effect still queued is a "pure draw"
  (only fixed ``draw`` steps, with no condition on the hand), the effects commute: each takes
  the next cards of the same deck until 10 in hand, whatever the order, and none of them reads
  what another changes. Only the first option is searched.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from solver.engine.cards import Effect
from solver.engine.frames import D_DECLINE_ORDER, D_ORDER
from solver.engine.state import CHEST_BASE, GameState

HAND_COUNTERS: Final = frozenset({"hand", "hand.artifact"})


def _has_decline_effect(st: GameState, card: int) -> bool:
    return any(e.moment == "decline" and not e.opponents_only for e in st.book.cards[card].effects)


def _pure_draw(e: Effect) -> bool:
    return (e.trigger is None and not e.optional and bool(e.steps)
            and all(s.op == "draw" and s.per is None and not s.optional for s in e.steps)
            and not any(c.counter in HAND_COUNTERS for c in e.condition))


def prune(st: GameState, actions: Sequence[int]) -> Sequence[int]:
    """The options of the pending decision that a search needs to try (a non-empty subset)."""
    if len(actions) < 2 or not st.stack:
        return actions
    fr = st.stack[-1]
    kind: int = fr[0]
    if kind == D_DECLINE_ORDER:
        mons = st.space_monuments(1)
        if not any(_has_decline_effect(st, m) for m in mons):
            return actions[:1]
    elif kind == D_ORDER and fr[2]:  # the Timeline-phase queue (and Create/Learn groups)

        cards = st.book.cards
        # A chest effect in the queue (source CHEST_BASE + k, RULES.md section 9) is no card:
        # never a pure draw, so such a queue is searched in full.
        if all(c < CHEST_BASE and _pure_draw(cards[c].effects[i]) for c, i in fr[1]):
            return actions[:1]
    return actions
