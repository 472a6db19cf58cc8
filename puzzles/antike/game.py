"""The know-how purchase as a `PuzzleState`, so the generic search of `solver.search` solves it.

One decision per know-how the nation does not own, in `Catalog.decision_order` (a basic before
its secondary): ``SKIP`` it or ``BUY`` it. Buying is legal when the gold still covers its price
and its basic is owned or already bought in this purchase (rules p. 9: a secondary needs its
basic, which may be bought in the same purchase). After the last decision the state is terminal;
its `value()` is `PurchaseProblem.objective` and it is `feasible()` when the purchase reaches
every wanted know-how.
"""

from __future__ import annotations

from collections.abc import Sequence

from puzzles.antike.knowhow import KnowHow
from puzzles.antike.problem import Goal, PurchaseProblem

SKIP = 0
BUY = 1
_NAMES = {SKIP: "skip", BUY: "buy"}


class IllegalPurchaseError(ValueError):
    """An action that is not legal in the current state (unknown, unaffordable, no basic)."""


class PurchaseState:
    """A purchase being decided know-how by know-how (implements `PuzzleState`)."""

    __slots__ = ("_bought", "_candidates", "_gold", "_scholars", "_step", "problem")

    def __init__(self, problem: PurchaseProblem) -> None:
        self.problem = problem
        self._candidates: tuple[KnowHow, ...] = problem.candidates
        self._step = 0
        self._bought = 0  # bit i set: the know-how of chart index i is bought
        self._gold = 0
        self._scholars = 0

    # --- PuzzleState ----------------------------------------------------------------------------

    def legal_actions(self) -> Sequence[int]:
        """``SKIP`` always; ``BUY`` when affordable and its basic is owned or bought."""
        if self.is_terminal():
            return ()
        return (SKIP, BUY) if self._can_buy(self._candidates[self._step]) else (SKIP,)

    def apply(self, action: int) -> None:
        """Decide the pending know-how.

        :raises IllegalPurchaseError: when `action` is not one of `legal_actions()`.
        """
        if action not in self.legal_actions():
            pending = self.pending.name if self.pending else "nothing (terminal)"
            raise IllegalPurchaseError(f"action {action!r} is not legal when deciding {pending}")
        know_how = self._candidates[self._step]
        if action == BUY:
            self._bought |= 1 << know_how.index
            self._gold += self.problem.price(know_how.name)
            self._scholars += self.problem.scholars(know_how.name)
        self._step += 1

    def clone(self) -> PurchaseState:
        other = PurchaseState.__new__(PurchaseState)
        other.problem = self.problem
        other._candidates = self._candidates
        other._step = self._step
        other._bought = self._bought
        other._gold = self._gold
        other._scholars = self._scholars
        return other

    def is_terminal(self) -> bool:
        return self._step == len(self._candidates)

    def value(self) -> float:
        """`PurchaseProblem.objective` of the purchase (scholars, then gold, then `TIE_BREAK`)."""
        return float(self.problem.objective(self.bought))

    def feasible(self) -> bool:
        """True when the purchase reaches every wanted know-how (gold and basics hold by
        construction: `apply` refuses a purchase that breaks them)."""
        return self.problem.required <= frozenset(self.bought)

    def key(self) -> tuple[int, int]:
        """The decision reached and the bought set: together they fix gold, scholars and every
        reachable terminal."""
        return (self._step, self._bought)

    def upper_bound(self) -> float:
        """No terminal from here scores more (admissible over every terminal, wanted or not).

        Each later purchase adds its `PurchaseProblem.coefficient`, which is negative unless the
        know-how earns a scholar, and then below ``scholar_weight``. So the objective so far plus
        ``scholar_weight`` per scholar still affordable bounds the best: the most scholar-earning
        know-hows the remaining gold buys, cheapest first, prerequisites ignored.
        """
        bound = self.problem.objective(self.bought)
        if self.problem.goal is not Goal.SCHOLARS:
            return float(bound)
        prices = sorted(
            self.problem.price(k.name)
            for k in self._candidates[self._step :]
            if self.problem.scholars(k.name) > 0
        )
        left = self.problem.gold - self._gold
        for price in prices:
            if price > left:
                break
            left -= price
            bound += self.problem.scholar_weight * self.problem.catalog.scholars_per_first
        return float(bound)

    def action_to_string(self, action: int) -> str:
        """``buy navigation`` or ``skip navigation`` for the pending know-how."""
        pending = self.pending
        if pending is None or action not in _NAMES:
            raise IllegalPurchaseError(f"action {action!r} has no notation here")
        return f"{_NAMES[action]} {pending.name}"

    # --- the purchase ---------------------------------------------------------------------------

    @property
    def pending(self) -> KnowHow | None:
        """The know-how being decided, or None when terminal."""
        return None if self.is_terminal() else self._candidates[self._step]

    @property
    def bought(self) -> tuple[str, ...]:
        """The know-hows bought so far, in chart order."""
        return tuple(k.name for k in self.problem.catalog.know_hows if self._bought >> k.index & 1)

    @property
    def gold_spent(self) -> int:
        return self._gold

    @property
    def scholars(self) -> int:
        return self._scholars

    def _can_buy(self, know_how: KnowHow) -> bool:
        """Rules p. 9: the gold covers the price, and a secondary's basic is owned or bought."""
        if self._gold + self.problem.price(know_how.name) > self.problem.gold:
            return False
        basic = know_how.prerequisite
        if basic is None or basic in self.problem.have:
            return True
        return bool(self._bought >> self.problem.catalog[basic].index & 1)


def promising_first(state: PurchaseState, actions: Sequence[int]) -> Sequence[int]:
    """Move ordering for the search: try ``BUY`` first when the pending know-how is wanted, or
    earns a scholar under the ``scholars`` goal; otherwise try ``SKIP`` first."""
    pending = state.pending
    if pending is None or BUY not in actions:
        return actions
    problem = state.problem
    wanted = pending.name in problem.required
    scholarly = problem.goal is Goal.SCHOLARS and problem.scholars(pending.name) > 0
    return (BUY, SKIP) if wanted or scholarly else (SKIP, BUY)
