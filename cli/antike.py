"""``heritage antike``: the Antike know-how purchase, a second puzzle on the same search layer.

A thin layer: it parses the options into a `PurchaseProblem`, calls `puzzles.antike.plan.plan`
(CP-SAT and the generic search, which must agree) and prints the answer. Exit codes as
``solve``: 0 a purchase found (OPTIMAL), 1 proven INFEASIBLE (the wanted know-hows cost more than
the gold), 2 a bad option value (one line on stderr), 3 UNKNOWN (or the methods disagree).
"""

from __future__ import annotations

import json
from typing import Annotated, NoReturn

import typer

from cli.common import Output, fail
from puzzles.antike.knowhow import KnowHowError
from puzzles.antike.plan import MethodsDisagreeError, PlanReport, plan
from puzzles.antike.problem import Goal, ProblemError, PurchaseProblem
from solver.search.status import EXIT_USAGE_ERROR, Status

antike_app = typer.Typer(
    help="Antike know-how purchases (Antike rules, page 9): a second, small puzzle.",
    no_args_is_help=True,
    add_completion=False,
)

_OPTION_OF = {name: f"--{name}" for name in ("have", "others", "gold", "goal", "want")}


@antike_app.callback()
def antike() -> None:
    """Antike know-how purchases (Antike rules, page 9): a second, small puzzle."""


@antike_app.command("plan")
def plan_command(
    gold: Annotated[
        str, typer.Option("--gold", metavar="INTEGER", help="Gold the nation may pay (>= 0).")
    ],
    have: Annotated[
        str,
        typer.Option(
            "--have",
            metavar="KNOW-HOWS",
            help="Know-hows the nation owns, comma-separated. A secondary implies its basic.",
        ),
    ] = "",
    others: Annotated[
        str,
        typer.Option(
            "--others",
            metavar="KNOW-HOWS",
            help="Know-hows another nation possesses (cheaper, no scholar). "
            "A secondary implies its basic.",
        ),
    ] = "",
    goal: Annotated[
        str,
        typer.Option(
            "--goal",
            metavar="[scholars|cheapest]",
            help="scholars: most scholars within the gold (ties: less gold). "
            "cheapest: reach --want for the least gold.",
        ),
    ] = Goal.SCHOLARS.value,
    want: Annotated[
        str,
        typer.Option(
            "--want",
            metavar="KNOW-HOWS",
            help="Know-hows the purchase must reach (their basics too); needed by cheapest.",
        ),
    ] = "",
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Plan one know-how purchase: what to buy, its cost item by item, the scholars earned."""
    try:
        problem = PurchaseProblem.from_text(
            have=have, others=others, gold=gold, goal=goal, want=want
        )
    except ProblemError as exc:
        option = _OPTION_OF.get(exc.parameter, exc.parameter)
        _fail(f"{option}: {exc}", EXIT_USAGE_ERROR)
    except KnowHowError as exc:  # the packaged data itself is broken
        _fail(f"know-how data: {exc}", EXIT_USAGE_ERROR)
    try:
        report = plan(problem)
    except MethodsDisagreeError as exc:
        _fail(f"methods disagree: {exc}", Status.UNKNOWN.exit_code)

    if json_output:
        typer.echo(json.dumps(report.to_json(), indent=2))
    else:
        _print_report(report, Output())
    if report.status.exit_code:
        raise typer.Exit(report.status.exit_code)


def _fail(message: str, code: int) -> NoReturn:
    fail(message, code)  # one line, cut at `cli.common.MAX_MESSAGE`


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(names) if names else "none"


def _print_report(report: PlanReport, out: Output) -> None:
    """The purchase as a table, then the totals, the status and the agreement of the methods
    (Rich on a terminal, plain text otherwise)."""
    problem, purchase = report.problem, report.purchase
    catalog = problem.catalog
    out.line(f"have: {_names(catalog.in_order(problem.have))}")
    out.line(f"others have: {_names(catalog.in_order(problem.others))}")
    out.line(f"gold: {problem.gold}, goal: {problem.goal}")
    if problem.want:
        out.line(f"want: {_names(catalog.in_order(problem.want))}")
    if purchase is None:
        out.line(f"status: {report.status} - the wanted know-hows cost {report.wanted_cost} "
                 f"gold, more than {problem.gold}")
    else:
        rows = [[item.know_how, item.kind, "yes" if item.new else "no", str(item.price),
                 str(item.scholars)] for item in purchase.items]
        rows.append(["total", "", "", str(purchase.gold_spent), str(purchase.scholars)])
        out.table("Know-how purchase", ["know-how", "kind", "new", "gold", "scholars"], rows,
                  right=["gold", "scholars"])
        if not purchase.items:
            out.line("nothing to buy")
        out.line(f"gold spent: {purchase.gold_spent} of {problem.gold}")
        out.line(f"scholars: {purchase.scholars}")
        all_eight = "yes (extra personage)" if purchase.all_eight else "no"
        out.line(f"all eight know-hows: {all_eight}")
        out.line(f"status: {report.status}")
    out.line(f"methods agree: CP-SAT and search ({report.search.nodes} search nodes)")
