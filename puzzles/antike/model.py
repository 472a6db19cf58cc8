"""The know-how purchase as a CP-SAT model (the first of the two solving methods).

One Boolean ``buy[k]`` per know-how the nation does not own. Constraints (rules p. 9):

* a secondary needs its basic: ``buy[secondary] <= buy[basic]`` when the basic is not owned;
* the bank is paid from the nation's gold: ``sum(price[k] * buy[k]) <= gold``;
* every wanted know-how not owned is bought: ``buy[k] == 1``.

Objective: maximise ``sum(coefficient[k] * buy[k])`` (`PurchaseProblem.coefficient`), the same
linear form the search maximises, so both methods must return the same unique purchase.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

from puzzles.antike.problem import PurchaseProblem
from solver.search.status import Status


def _status(code: cp_model.CpSolverStatus) -> Status:
    """The search status of a CP-SAT result code."""
    from ortools.sat.python import cp_model  # lazy: start-up time (OR-Tools)

    return {cp_model.OPTIMAL: Status.OPTIMAL, cp_model.FEASIBLE: Status.FEASIBLE,
            cp_model.INFEASIBLE: Status.INFEASIBLE, cp_model.UNKNOWN: Status.UNKNOWN}[code]


@dataclass(frozen=True)
class ModelOutcome:
    """What CP-SAT returned: its status and, with a solution, the bought know-hows."""

    status: Status
    bought: tuple[str, ...] | None
    objective: int | None


def build_model(problem: PurchaseProblem) -> tuple[cp_model.CpModel, dict[str, cp_model.IntVar]]:
    """The CP-SAT model of `problem` and its ``buy`` variables by know-how name."""
    from ortools.sat.python import cp_model  # lazy: start-up time (OR-Tools)

    model = cp_model.CpModel()
    buy = {k.name: model.new_bool_var(f"buy_{k.name}") for k in problem.candidates}
    for name, var in buy.items():
        basic = problem.catalog[name].prerequisite
        if basic is not None and basic not in problem.have:
            model.add_implication(var, buy[basic])
    model.add(sum(problem.price(name) * var for name, var in buy.items()) <= problem.gold)
    for name in problem.required:
        model.add(buy[name] == 1)
    model.maximize(sum(problem.coefficient(name) * var for name, var in buy.items()))
    return model, buy


def solve_model(problem: PurchaseProblem, time_limit: float = 10.0) -> ModelOutcome:
    """Solve `problem` with CP-SAT (one worker, fixed seed: deterministic).

    :raises RuntimeError: when CP-SAT rejects the model (a bug, not an input error).
    """
    from ortools.sat.python import cp_model  # lazy: start-up time (OR-Tools)

    model, buy = build_model(problem)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = time_limit
    code = solver.solve(model)
    if code == cp_model.MODEL_INVALID:
        raise RuntimeError(f"CP-SAT rejected the model: {model.validate()}")
    status = _status(code)
    if not status.has_solution:
        return ModelOutcome(status, None, None)
    chosen = [name for name, var in buy.items() if solver.boolean_value(var)]
    return ModelOutcome(status, problem.catalog.in_order(chosen), round(solver.objective_value))
