"""``heritage verify``: check a line file (`solver.engine.record`) by replaying it with the engine.

Every claim the file makes is recomputed and compared (`puzzles.claims`): the score sheet, the
goals and whether each is met, the trial, and a solve's ``vp``, ``status``, ``bound``, ``gap``
and ``goals_met``. Claims a replay cannot decide (a status OPTIMAL or INFEASIBLE, a bound) are
printed as "claimed, not verified". A line that misses a goal is a legal game but a failed
trial: ``verify`` says so, and ``--require-goals`` makes it a negative answer.

Exit codes: 0 the line is a legal, finished game whose claims hold; 1 it is not (the first
illegal step, or the first false claim, is printed), or (``--require-goals``) it misses a goal;
2 the file is malformed or cannot be replayed at all (one line on stderr naming the file, the
field and the value).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from cli.common import Output, domain_errors, fail
from cli.lineview import print_log, print_score
from cli.options import JsonOption, TrialsOption
from puzzles.chests import DEFAULT
from puzzles.lines import Verdict, read_line_file, verify_line
from puzzles.trials import load_trials
from solver.engine.describe import describe_line

EXIT_INVALID = 1


def goals_phrase(verdict: Verdict) -> str:
    """Whether the trial is passed, in words ("" without goal chests)."""
    claims = verdict.claims
    if claims.goals_met is None:
        return ""
    if claims.goals_met:
        return "; every goal met"
    return "; FAILED TRIAL: goal not met: " + "; ".join(claims.missed)


@domain_errors
def verify_command(
    line_file: Annotated[
        Path, typer.Argument(metavar="LINE.json", help="A line file written by 'heritage play', "
                             "'solve' or 'campaign play'.")
    ],
    log: Annotated[
        bool, typer.Option("--log", help="Also print the game turn by turn.")
    ] = False,
    require_goals: Annotated[
        bool, typer.Option("--require-goals", help="Exit 1 when the line misses a goal chest "
                           "(a legal game, but a failed trial).")
    ] = False,
    trials: TrialsOption = None,
    json_output: JsonOption = False,
) -> None:
    """Replay a line file and check every claim: exit 0 valid (prints the recomputed score and
    the goals), 1 invalid (prints the first illegal step or false claim), 2 malformed file."""
    if trials is not None:
        load_trials(str(trials))  # a bad --trials is bad input (exit 2), not a false claim
    data = read_line_file(line_file)
    verdict = verify_line(data, line_file.parent, str(trials or DEFAULT))
    record, error, claims = verdict.record, verdict.error, verdict.claims
    if record is None:
        fail(f"{line_file}: {error}")
    failed = require_goals and error is None and claims.goals_met is False
    code = EXIT_INVALID if error is not None or failed else 0
    turns = record.state.turn
    if json_output:
        result = {"valid": error is None, "error": error, "turns": turns,
                  "score": record.score_json(), "goals_met": claims.goals_met,
                  "goals_missed": list(claims.missed),
                  "claimed_not_verified": list(claims.unverified)}
        typer.echo(json.dumps(result, indent=2, ensure_ascii=False))
        raise typer.Exit(code)
    out = Output()
    if error is not None:
        out.line(f"invalid: {error}")
        raise typer.Exit(EXIT_INVALID)
    if log:
        print_log(out, describe_line(record.setup, record.book, record.line))
        out.line()
    status_unverified = any(c.startswith("status") for c in claims.unverified)
    head = "legal, claims checked" if status_unverified else "valid"
    out.line(f"{head}: {turns} turns, {record.state.score().total} VP{goals_phrase(verdict)}")
    if claims.unverified:
        out.line(f"claimed, not verified: {', '.join(claims.unverified)} (a replay of one line "
                 "cannot prove that no other line does better, or that none meets the goals)")
    print_score(out, record.state.score())
    raise typer.Exit(code)
