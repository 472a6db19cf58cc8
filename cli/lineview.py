"""Printing a game for a player at the table: the header (trial, chests, hand, seeds), the deal
(``--deal``), the line turn by turn (``--notation`` adds each phrase's decisions in notation),
the score sheet and the goals table with its stand-in marks.

The words come from the library (`solver.engine.describe`, `puzzles.table`); this module only
lays them out: a Rich table on a terminal, plain stable text otherwise.
"""

from __future__ import annotations

from rich.table import Table

from cli.common import Output
from puzzles.table import STAND_IN_NOTE, deal_lines, deal_of, goal_rows, has_stand_ins, header_lines
from solver.engine.cards import CardBook
from solver.engine.describe import TurnReport, describe_line
from solver.engine.record import GameRecord
from solver.engine.setup import Setup
from solver.engine.sheet import ScoreSheet

SCORE_LABELS = (
    ("past", "Monuments in the Past"),
    ("effects", "End-game effects"),
    ("technologies", "Technologies"),
    ("timeline", "Monuments in the Timeline"),
    ("lost_knowledge", "Lost knowledge"),
)


def print_header(out: Output, setup: Setup, book: CardBook) -> None:
    """The trial and its chests (stand-ins marked), the hand, the seeds."""
    for line in header_lines(setup, book):
        out.line(line)


def print_deal(out: Output, setup: Setup, book: CardBook) -> None:
    """The whole deal, each pile top first, to stack a physical game (`puzzles.table.Deal`)."""
    out.heading("The deal")
    for line in deal_lines(deal_of(setup, book), book):
        out.line(f"  {line}")


def _with_notation(phrase: str, notation: str, show: bool) -> str:
    return f"{phrase}  [{notation}]" if show and notation else phrase


def print_log(out: Output, reports: list[TurnReport], notation: bool = False) -> None:
    """The turn-by-turn log: the phrases (with ``--notation``, their decisions in brackets),
    the automatic events (``-``), the hand and counts after the turn (``=``)."""
    for rep in reports:
        out.heading(rep.title)
        texts = iter(rep.notations)
        for kind, text in rep.items():  # in the order they happened
            if kind == "phrase":
                out.line(f"  {_with_notation(text, next(texts), notation)}")
            else:
                out.line(f"  - {text}", style="dim")
        out.line(f"  = {rep.summary()}", style="cyan")


def print_turns(out: Output, reports: list[TurnReport], notation: bool = False) -> None:
    """The line turn by turn: on a terminal a Rich table (actions and choices, what the
    automatic phases did, the hand, knowledge on the Timeline, lost knowledge); the plain log
    otherwise, so scripts read stable output."""
    if not out.rich:
        print_log(out, reports, notation)
        return
    table = Table(title="The line, turn by turn", title_justify="left", show_lines=True)
    table.add_column("turn", justify="right", no_wrap=True)
    table.add_column("actions and choices", ratio=3)
    if notation:
        table.add_column("notation", ratio=1, style="dim")
    table.add_column("timeline, decline, technology phases", ratio=2, style="dim")
    table.add_column("hand", ratio=1)
    for col in ("knowledge", "lost"):
        table.add_column(col, justify="right", no_wrap=True)
    for rep in reports:
        cells = ["setup" if rep.turn == 0 else str(rep.turn), "\n".join(rep.phrases)]
        if notation:
            cells.append("\n".join(rep.notations))
        cells += ["\n".join(rep.events), "\n".join(rep.hand_cards) or "-",
                  str(rep.timeline_knowledge), str(rep.lost)]
        table.add_row(*cells)
    out.console.print(table)


def print_score(out: Output, sheet: ScoreSheet) -> None:
    """The five rows of the score sheet and the total (RULES.md section 7)."""
    values = sheet.as_dict()
    rows = [[label, str(values[key])] for key, label in SCORE_LABELS]
    rows.append(["Total", str(sheet.total)])
    out.table("Score sheet", ["row", "VP"], rows, right=("VP",))


def print_goals(out: Output, record: GameRecord) -> None:
    """The goal chests, in words, met or not, stand-ins marked with a footnote."""
    rows = goal_rows(record.state)
    if not rows:
        return
    out.line()
    out.table("Goals", ["chest", "name", "goal", "met"], rows)
    if has_stand_ins(record.setup):
        out.line(STAND_IN_NOTE)


def print_game(out: Output, record: GameRecord, title: str | None = None, *,
               notation: bool = False, deal: bool = False) -> list[TurnReport]:
    """A whole game (or a position): title, header, deal (optional), turns, score, goals.
    Returns the turn reports (a picture of the line reads them)."""
    if title:
        out.heading(title)
    print_header(out, record.setup, record.book)
    if deal:
        print_deal(out, record.setup, record.book)
    reports = describe_line(record.setup, record.book, record.line)
    print_turns(out, reports, notation)
    out.line()
    print_score(out, record.state.score())
    print_goals(out, record)
    return reports
