"""Whether a Create can still come whose card is not yet picked: once none can, no card in the
hand, the deck or the discard pile ever enters play again, the fact behind the dominance rule on
discards from the hand (`solver.guidance.dominance`, Rule 5).

A card enters play only by a Create (RULES.md section 5: a monument or an artifact is picked in
the hand and placed; only Ancient Greek creates from the cards it looks at, and that is a Create
too). `solver.bounds.reachable.reach` over-estimates the Creates still to come, of monuments and
of artifacts, counting each Create already under way (its card picked: ``D_CREATE_SPACE``,
``F_PLACE``) as one (`solver.bounds.reachable.in_flight`). When the two counts together are at
most the Creates under way, every Create to come is one of those, and their cards are no longer
in the hand or the deck.

Two answers come without `reach`: before the last turn, and while an action choice is left
(each turn has two, section 4A, and any may be a Create), a Create may come.
"""

from __future__ import annotations

from solver.bounds.poolfacts import PoolFactsCache
from solver.bounds.reachable import UNBOUNDED, reach
from solver.bounds.simple import decline_phases_left
from solver.engine.frames import D_ACTION, D_CREATE_SPACE, F_PLACE
from solver.engine.setup import turns_for
from solver.engine.state import GameState


class CreatesLeft:
    """`creates_left(st)`: the test of the module for one game (an object passed in, sharing
    the bound's pool facts and memo: they ask `reach` about the same positions)."""

    def __init__(self, pool: PoolFactsCache | None = None) -> None:
        self.pool = pool if pool is not None else PoolFactsCache()

    def __call__(self, st: GameState) -> bool:
        """Whether a Create whose card is not yet picked may still come from `st` (see the
        module); over the rest of the game, decline phases included."""
        if st.over:
            return False
        if st.turn < turns_for(st.setup.time_space) or any(fr[0] == D_ACTION for fr in st.stack):
            return True
        facts = self.pool.facts(st)
        r = reach(st, facts.activators, decline_phases_left(st), facts.poulnabrone,
                  self.pool.memo)
        if r.creates >= UNBOUNDED or r.art_creates >= UNBOUNDED:
            return True
        picked = sum(1 for fr in st.stack if fr[0] == F_PLACE or fr[0] == D_CREATE_SPACE)
        return r.creates + r.art_creates > picked
