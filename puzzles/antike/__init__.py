"""A second, small puzzle: planning a know-how purchase in Antike (rules manual, page 9).

It implements the same `PuzzleState` protocol as the Ancient Knowledge puzzles and is solved two
ways that must agree: a CP-SAT model (`model`) and the generic search (`game` +
`solver.search.exhaustive`). Entry point: `plan.plan(problem.PurchaseProblem.create(...))`.
"""

from puzzles.antike.knowhow import Catalog, Kind, KnowHow, KnowHowError, load_catalog
from puzzles.antike.plan import MethodsDisagreeError, PlanReport, Purchase, plan
from puzzles.antike.problem import Goal, ProblemError, PurchaseProblem

__all__ = [
    "Catalog",
    "Goal",
    "Kind",
    "KnowHow",
    "KnowHowError",
    "MethodsDisagreeError",
    "PlanReport",
    "ProblemError",
    "Purchase",
    "PurchaseProblem",
    "load_catalog",
    "plan",
]
