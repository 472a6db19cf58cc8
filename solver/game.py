"""The Heritage solo game as the searches see it: the engine's `GameState` behind the search
protocol (`solver.search.protocol`), with the hooks a search may use declared here, not on the
state: the bound (an object passed in), the NRPA prior and its context codes
(`solver.guidance.policy`), the goal shortfall that ranks lines missing a goal, and the key of
the transposition table.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Final

from solver.bounds.bound import Bound, SimpleBound
from solver.bounds.createsleft import CreatesLeft
from solver.bounds.decktakes import DeckTakes
from solver.engine.goal_check import goal_shortfall
from solver.engine.state import GameState
from solver.guidance import policy
from solver.guidance.dominance import Dominance
from solver.guidance.endgame import TokenReadersCache, search_key
from solver.guidance.ordering import Order, incumbent_order

#: How many decisions' codes and factors a game remembers (`HeritageGame.policy_choice`).
CHOICES_KEPT: Final = 1 << 16


class HeritageGame:
    """The search hooks of the solo game for one solve (`solver.search.protocol.Game`).

    :param bound: the bound this solve uses (default: a fresh `SimpleBound`).
    :param prior: give NRPA the playout prior of `solver.guidance.policy`.
    :param plan: the relaxation's plan as one more prior (`policy.PlanPrior`; plain data, so it
        reaches NRPA worker processes as it is); None: the prior alone.
    """

    def __init__(self, bound: Bound | None = None, prior: bool = True,
                 plan: policy.PlanPrior | None = None) -> None:
        self.bound: Bound = bound if bound is not None else SimpleBound()
        self.has_prior = prior
        #: the key, the dominance rules and the game's end-game counts make no cycles; the
        #: bound says for itself (`Bound.cycle_free`)
        self.cycle_free = self.bound.cycle_free
        # which deep cards can still enter play (`solver.bounds.decktakes`), sharing the
        # bound's pool facts and memo (both ask about the same positions)
        takes = DeckTakes(self.bound.pool)
        self.readers = TokenReadersCache(takes)
        self.dominance = Dominance(takes, CreatesLeft(self.bound.pool))
        self.bound.keyed_by(self.search_key)
        self.plan = plan
        #: `policy_choice` remembered: (kind, *options) -> (codes, factors)
        self._choices: dict[tuple[int, ...], tuple[list[int], list[float] | None]] = {}

    def upper_bound(self, state: GameState) -> float:
        return self.bound.upper_bound(state)

    def improved(self, value: float) -> None:
        self.bound.improved(value)

    def search_key(self, state: GameState) -> Hashable:
        """The engine's exact key less what nothing can read any more
        (`solver.guidance.endgame.search_key`: discard order; tokens after the last decline
        once no card, goal or chest can read them; which cards the hand, the deck and the
        discard pile hold once they are alike, `solver.guidance.handcards`): equal keys still
        mean equal futures."""
        return search_key(state, self.readers.readers(state), self.readers.takes,
                          self.dominance.alike(state))

    def policy_code(self, state: GameState, action: int) -> Hashable:
        return policy.code(state, action)

    def policy_bias(self, state: GameState, action: int) -> float:
        return policy.bias(state, action)

    def policy_codes(self, state: GameState, legal: Sequence[int]) -> Sequence[Hashable]:
        """`policy.codes` (the codes of a decision, without the prior)."""
        return policy.codes(state, legal)

    def policy_factors(self, state: GameState, legal: Sequence[int]) -> Sequence[float] | None:
        return policy.factors(state, legal, self.plan)

    def policy_choice(self, state: GameState, legal: Sequence[int],
                      ) -> tuple[Sequence[Hashable], Sequence[float] | None]:
        """`policy.choice`, remembered by decision kind and options where it reads nothing
        else (`policy.reads_only_options`; most NRPA decisions repeat one seen before): the
        same lists, which nobody changes. At most `CHOICES_KEPT` are kept (then forgotten)."""
        stack = state.stack
        if not stack:
            return policy.choice(state, legal, self.plan)
        kind: int = stack[-1][0]
        key = (kind, *legal)
        hit = self._choices.get(key)
        if hit is not None:
            return hit
        out = policy.choice(state, legal, self.plan)
        if policy.reads_only_options(kind, legal, self.plan):
            if len(self._choices) >= CHOICES_KEPT:
                self._choices.clear()
            self._choices[key] = out
        return out

    def shortfall(self, state: GameState) -> float:
        return float(goal_shortfall(state))

    def order(self, root: GameState, line: Sequence[int]) -> Order:
        """The move ordering of an exact search from `root` with the incumbent `line`:
        dominance, the bound's plan as hints, the incumbent's actions first."""
        return incumbent_order(root, line, hints=self.bound.plan_order,
                               dominance=self.dominance.prune)
