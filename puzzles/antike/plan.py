"""Plan a know-how purchase two ways, CP-SAT and the generic search, and check they agree.

The result names the purchase item by item (price and scholar of each, rules p. 9), the gold
spent, the scholars earned and whether the nation then has all eight know-hows (the page's extra
personage). Each goal's objective has a unique optimum (`PurchaseProblem.coefficient`), so the
two methods agree when they return the same status and the same purchase.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from puzzles.antike.game import PurchaseState, promising_first
from puzzles.antike.model import solve_model
from puzzles.antike.problem import PurchaseProblem
from solver.search.exhaustive import SearchConfig, replay, search
from solver.search.protocol import SelfBoundedGame
from solver.search.status import Status

CP_SAT = "cp-sat"
SEARCH = "search"


class MethodsDisagreeError(RuntimeError):
    """CP-SAT and the search returned different answers: a bug in one of them."""


@dataclass(frozen=True)
class CostItem:
    """One know-how of the purchase and what it costs and earns (rules p. 9).

    :param new: no other nation possesses it: the "new" price, and one scholar for being first.
    """

    know_how: str
    kind: str
    new: bool
    price: int
    scholars: int

    def to_json(self) -> dict[str, Any]:
        return {
            "know_how": self.know_how,
            "kind": self.kind,
            "new": self.new,
            "price": self.price,
            "scholars": self.scholars,
        }


@dataclass(frozen=True)
class Purchase:
    """A purchase, item by item, with its totals."""

    items: tuple[CostItem, ...]
    gold_spent: int
    scholars: int
    all_eight: bool

    @classmethod
    def of(cls, problem: PurchaseProblem, bought: Iterable[str]) -> Purchase:
        """The cost items and totals of buying `bought` (chart order) in `problem`."""
        names = problem.catalog.in_order(bought)
        items = tuple(
            CostItem(
                know_how=name,
                kind=str(problem.catalog[name].kind),
                new=problem.is_first(name),
                price=problem.price(name),
                scholars=problem.scholars(name),
            )
            for name in names
        )
        return cls(
            items=items,
            gold_spent=problem.cost(names),
            scholars=problem.scholars_for(names),
            all_eight=problem.all_reached(names),
        )

    @property
    def buy(self) -> tuple[str, ...]:
        return tuple(item.know_how for item in self.items)


@dataclass(frozen=True)
class MethodResult:
    """The answer of one method: status, purchase (None without a solution), objective."""

    method: str
    status: Status
    purchase: Purchase | None
    objective: int | None
    nodes: int | None = None

    def same_answer(self, other: MethodResult) -> bool:
        """True when both give the same status, purchase and objective."""
        mine = self.purchase.buy if self.purchase else None
        theirs = other.purchase.buy if other.purchase else None
        return (self.status, mine, self.objective) == (other.status, theirs, other.objective)

    def to_json(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "status": str(self.status),
            "buy": list(self.purchase.buy) if self.purchase else [],
            "gold_spent": self.purchase.gold_spent if self.purchase else None,
            "scholars": self.purchase.scholars if self.purchase else None,
            "objective": self.objective,
        }
        if self.nodes is not None:
            result["nodes"] = self.nodes
        return result


@dataclass(frozen=True)
class PlanReport:
    """The agreed answer of both methods for one problem."""

    problem: PurchaseProblem
    cp_sat: MethodResult
    search: MethodResult

    @property
    def status(self) -> Status:
        return self.cp_sat.status

    @property
    def purchase(self) -> Purchase | None:
        return self.cp_sat.purchase

    @property
    def wanted_cost(self) -> int:
        """The least gold that reaches the wanted know-hows: the price of `required` (it is
        closed under prerequisites, and every price is positive)."""
        return self.problem.cost(self.problem.required)

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON object (stable key order, know-hows in chart order)."""
        problem, purchase = self.problem, self.purchase
        catalog = problem.catalog
        return {
            "status": str(self.status),
            "goal": str(problem.goal),
            "have": list(catalog.in_order(problem.have)),
            "others": list(catalog.in_order(problem.others)),
            "want": list(catalog.in_order(problem.want)),
            "gold": problem.gold,
            "buy": list(purchase.buy) if purchase else [],
            "cost_items": [item.to_json() for item in purchase.items] if purchase else [],
            "gold_spent": purchase.gold_spent if purchase else None,
            "scholars": purchase.scholars if purchase else None,
            "all_eight": purchase.all_eight if purchase else None,
            "methods": {CP_SAT: self.cp_sat.to_json(), SEARCH: self.search.to_json()},
        }


def solve_with_model(problem: PurchaseProblem, time_limit: float = 10.0) -> MethodResult:
    """Method 1: the CP-SAT model of `puzzles.antike.model`."""
    outcome = solve_model(problem, time_limit)
    purchase = Purchase.of(problem, outcome.bought) if outcome.bought is not None else None
    return MethodResult(CP_SAT, outcome.status, purchase, outcome.objective)


def solve_with_search(problem: PurchaseProblem, config: SearchConfig | None = None) -> MethodResult:
    """Method 2: the generic branch and bound of `solver.search.exhaustive` on `PurchaseState`."""
    root = PurchaseState(problem)
    result = search(root, config, order=promising_first, game=SelfBoundedGame())
    if not result.status.has_solution:
        return MethodResult(SEARCH, result.status, None, None, result.nodes)
    final = replay(root, result.line)
    purchase = Purchase.of(problem, final.bought)
    return MethodResult(
        SEARCH, result.status, purchase, problem.objective(final.bought), result.nodes
    )


def plan(
    problem: PurchaseProblem,
    *,
    time_limit: float = 10.0,
    search_config: SearchConfig | None = None,
) -> PlanReport:
    """Solve `problem` with both methods.

    :raises MethodsDisagreeError: when their status, purchase or objective differ.
    """
    by_model = solve_with_model(problem, time_limit)
    by_search = solve_with_search(problem, search_config)
    if not by_model.same_answer(by_search):
        raise MethodsDisagreeError(
            f"CP-SAT says {by_model.to_json()}, the search says {by_search.to_json()}"
        )
    return PlanReport(problem, by_model, by_search)
