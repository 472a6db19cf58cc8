"""``heritage play``: deal one game and play it with a policy, printing the game turn by turn.

The only policy for now is ``random``: at each decision it takes ``legal[k]`` with ``k`` drawn
from its own SplitMix64 stream ``(policy_seed, "policy", 0)`` (`solver.rng`,
`solver.search.playout`), so a seed means the same game everywhere. ``heritage solve`` will replace this command as the main job once the
solver exists.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from cli.common import Output, deal_setup, domain_errors, write_out
from cli.options import (
    CardsOption,
    ChestsOption,
    DealOptions,
    DeckOption,
    DiceOption,
    DieSeedOption,
    HandOption,
    PolicySeedOption,
    SeedOption,
    TimeSpaceOption,
    TrialOption,
    TrialsOption,
)
from puzzles.deal import describe_setup
from solver.engine.cards import CardBook
from solver.engine.describe import TurnReport, describe_line
from solver.engine.goal_check import goals_json
from solver.engine.record import GameRecord, dumps
from solver.engine.setup import Setup
from solver.engine.sheet import ScoreSheet
from solver.rng import Stream
from solver.search.playout import random_playout

SCORE_LABELS = (
    ("past", "Monuments in the Past"),
    ("effects", "End-game effects"),
    ("technologies", "Technologies"),
    ("timeline", "Monuments in the Timeline"),
    ("lost_knowledge", "Lost knowledge"),
)


class Policy(StrEnum):
    RANDOM = "random"


def play_random(setup: Setup, book: CardBook, policy_seed: int) -> GameRecord:
    """Play a whole game choosing uniformly among the legal options
    (`solver.search.playout.random_playout`, stream ``(policy_seed, "policy", 0)``)."""
    record = GameRecord.new(setup, book)
    for action in random_playout(record.state.clone(), Stream(policy_seed, "policy", 0)):
        record.apply(action)
    return record


def print_log(out: Output, reports: list[TurnReport]) -> None:
    """The turn-by-turn log: the phrases, the automatic events (``-``), the summary (``=``)."""
    for rep in reports:
        out.heading(rep.title)
        for phrase in rep.phrases:
            out.line(f"  {phrase}")
        for event in rep.events:
            out.line(f"  - {event}", style="dim")
        out.line(f"  = {rep.summary()}", style="cyan")


def print_score(out: Output, sheet: ScoreSheet) -> None:
    """The five rows of the score sheet and the total (RULES.md section 7)."""
    values = sheet.as_dict()
    rows = [[label, str(values[key])] for key, label in SCORE_LABELS]
    rows.append(["Total", str(sheet.total)])
    out.table("Score sheet", ["row", "VP"], rows, right=("VP",))


@domain_errors
def play_command(
    seed: SeedOption = 0,
    hand: HandOption = "1",
    die_seed: DieSeedOption = None,
    deck: DeckOption = None,
    dice: DiceOption = None,
    time_space: TimeSpaceOption = 4,
    policy: Annotated[
        Policy, typer.Option("--policy", help="How decisions are taken.")
    ] = Policy.RANDOM,
    policy_seed: PolicySeedOption = None,
    cards: CardsOption = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the game's line file (JSON) instead of the log.")
    ] = False,
    out_file: Annotated[
        Path | None, typer.Option("--out", metavar="FILE", help="Also write the line file here.")
    ] = None,
    trial: TrialOption = None,
    chests: ChestsOption = None,
    trials: TrialsOption = None,
) -> None:
    """Play one seeded game with the random policy: the turn-by-turn log and the score sheet."""
    del policy  # the only policy so far
    deal = DealOptions(hand=hand, seed=seed, die_seed=die_seed, deck=deck, dice=dice,
                       time_space=time_space, trial=trial, cards=cards, chests=chests,
                       trials=trials)
    book, setup = deal_setup(deal)
    record = play_random(setup, book, seed if policy_seed is None else policy_seed)
    text = dumps(record.to_json())
    write_out(out_file, text)
    if json_output:
        typer.echo(text, nl=False)
        return
    out = Output()
    out.line(describe_setup(setup))
    print_log(out, describe_line(setup, book, record.line))
    out.line()
    print_score(out, record.state.score())
    goals = goals_json(record.state)  # a trial's goal chests (RULES.md section 8)
    for g in goals:
        out.line(f"Goal {g['chest']}: {g['goal']}: {'met' if g['met'] else 'NOT met'}")
    if goals:
        out.line("Trial passed" if all(g["met"] for g in goals) else "Trial failed")
