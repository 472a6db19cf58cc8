"""``heritage trials``: the Trial Table (RULES.md section 9) with each trial's chests.

Goals are the chests in artifact spaces (checked at the end); effects are the chests under the
board (usable once). Parts the rulebook does not print are the project's stand-ins, marked
``*`` (``~`` for the goals inferred from the worked example, D14, and for the Standard of Ur's
letter Г, the project's choice); ``--json`` gives every field.
"""

from __future__ import annotations

import json

import typer

from cli.common import Output, domain_errors
from cli.options import ChestsOption, JsonOption, TrialsOption
from puzzles.chests import DEFAULT, load_chests
from puzzles.table import INFERRED_NOTE
from puzzles.trials import load_trials, trials_json
from solver.engine.actions import CHEST_LETTERS
from solver.engine.chestcards import Chest, ChestSet


def _mark(stand_in: bool, inferred: bool = False) -> str:
    return "~" if inferred else "*" if stand_in else ""


def goal_line(c: Chest) -> str:
    return f"{c.letter}{_mark(c.goal_part.stand_in, c.goal_part.inferred)} {c.goal_text}"


def effect_line(c: Chest) -> str:
    return f"{c.letter}{_mark(c.effect_part.stand_in)} [{c.moment}] {c.effect_text}"


def chest_rows(data: ChestSet) -> list[list[str]]:
    return [[c.letter + _mark(c.name_part.stand_in, c.name_part.inferred), c.name,
             c.goal_text + _mark(c.goal_part.stand_in, c.goal_part.inferred),
             c.moment, c.effect_text + _mark(c.effect_part.stand_in)] for c in data.chests]


@domain_errors
def trials_command(
    json_output: JsonOption = False,
    chests: ChestsOption = None,
    trials: TrialsOption = None,
) -> None:
    """List the trials 1-10 with their goal chests and effect chests (7-10 are stand-ins)."""
    data = load_chests(DEFAULT if chests is None else str(chests))
    table = load_trials(DEFAULT if trials is None else str(trials))
    if json_output:
        out = {"chests_file": data.source, "chests_sha256": data.sha256,
               "trials": trials_json(table, data)}
        typer.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    out_ = Output()
    rows = []
    for n in sorted(table):
        t = table[n]
        goals = "; ".join(goal_line(data[CHEST_LETTERS.index(c)]) for c in t.goals)
        under = "; ".join(effect_line(data[CHEST_LETTERS.index(c)]) for c in t.under) or "-"
        rows.append([str(n), t.name + (" *" if t.stand_in else ""), goals, under])
    out_.table("Trials", ["N", "trial", "goals (artifact spaces)", "effects (under the board)"],
               rows, right=("N",))
    out_.line()
    out_.table("Chests", ["chest", "name", "goal", "moment", "effect"], chest_rows(data))
    out_.line()
    out_.line(f"* stand-in (not printed in the rulebook text); {INFERRED_NOTE}")
