"""What every `heritage` command shares: error exits, the deal of the options, and output.

Errors: the library raises narrow exceptions (`solver.engine.errors.HeritageError` and its
subclasses, e.g. `puzzles.deal.DealError`), each naming the option or file, the field and the
value; `domain_errors` is the one place that turns them into one line on stderr
(``error: ...``) and exit code 2 (`solver.search.status.EXIT_USAGE_ERROR`), never a traceback.
Output: Rich (colour, tables) when stdout is a terminal, plain text otherwise, so that scripts
and tests read stable output; diagnostics go to stderr.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from cli.options import DealOptions, deal_options_given
from puzzles.chests import DEFAULT
from puzzles.deal import build_setup, left_out_note, load_cards
from puzzles.lines import relocate
from solver.engine.cards import CardBook
from solver.engine.errors import HeritageError
from solver.engine.record import LINE_FORMAT, dumps
from solver.engine.setup import Setup
from solver.search.status import EXIT_USAGE_ERROR

P = ParamSpec("P")
R = TypeVar("R")


#: The longest error line: messages quote at most ~80 characters of a value
#: (`solver.engine.errors.quote`); this guards any other path.
MAX_MESSAGE = 1000


def fail(message: str, code: int = EXIT_USAGE_ERROR) -> NoReturn:
    """One line on stderr, then exit (2 by default: bad input)."""
    text = " ".join(message.split("\n"))
    if len(text) > MAX_MESSAGE:
        text = text[:MAX_MESSAGE] + "..."
    typer.echo(f"error: {text}", err=True)
    raise typer.Exit(code)


def check_out(path: Path | None, option: str = "--out") -> None:
    """Refuse, before any work, an output file that cannot be written: its folder missing, the
    path a folder, or no permission (exit 2 naming the option and the path)."""
    if path is None:
        return
    if path.is_dir():
        fail(f"{option}: {path} is a folder; name a file in it")
    folder = path.absolute().parent
    if not folder.is_dir():
        fail(f"{option}: cannot write {path}: the folder {folder} does not exist")
    if (path.exists() and not os.access(path, os.W_OK)) or not os.access(folder, os.W_OK):
        fail(f"{option}: cannot write {path}: permission denied")


def write_out(path: Path | None, text: str, what: str = "line") -> None:
    """Write `text` to the ``--out`` file, if one was given (exit 2 if it cannot be written;
    `check_out` refuses most such files before the work starts)."""
    if path is None:
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"--out: cannot write {path} ({exc.strerror})")
    note(f"{what} written to {path}")


def line_text(data: dict[str, Any], dest: Path | None) -> str:
    """A line file's text as written to `dest` (None: stdout): its data files named relative
    to the file (`puzzles.lines.relocate`), so the file and its data travel together."""
    return dumps(relocate(data, dest))


def new_position(setup: Setup, **extra: Any) -> dict[str, Any]:
    """A position file's object for `setup` before any decision (``solve --from`` and ``play
    --interactive --from`` take it): a line file of this engine's format (`LINE_FORMAT`), so
    `line_text` names its data files relative to it; `extra` adds fields (``deal``,
    ``goals``)."""
    return {"format": LINE_FORMAT, "setup": setup.to_json(), "line": [[]], "score": None,
            **extra}


def note(message: str) -> None:
    """A diagnostic on stderr."""
    typer.echo(message, err=True)


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def capped_at_cores(option: str, n: int, why: str = "") -> int:
    """`n` processes asked by `option`, at most the cores this process may use (more would only
    share them), with a note when capped (`why`: what the cap changes, or not)."""
    cores = available_cores()
    if n <= cores:
        return n
    note(f"note: {option} {n}: capped at {cores}, the cores this process may use"
         + (f" ({why})" if why else ""))
    return cores


def refuse_deal_beside_from(deal: DealOptions, from_file: Path | None) -> None:
    """Exit 2 when deal options are given beside ``--from``: the position file names its own
    deal, so they would be ignored."""
    given = deal_options_given(deal) if from_file is not None else []
    if given:
        fail(f"--from and {', '.join(given)}: the position file names its own deal; leave out "
             "the deal options")


def domain_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn any project error a command did not handle into one line and exit code 2 (the
    one place where the library's errors become exits)."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except HeritageError as exc:
            fail(str(exc))

    return wrapper


def refuse_chests_without_trial(deal: DealOptions) -> None:
    """Exit 2 when ``--chests`` or ``--trials`` is given without ``--trial``: a deal reads the
    chest and trial files only for its trial's goal and effect chests (RULES.md section 8), so
    without a trial they would be ignored, unread."""
    given = [f"--{name} {path}" for name, path in (("chests", deal.chests),
                                                    ("trials", deal.trials)) if path is not None]
    if given and deal.trial is None:
        fail(f"{' and '.join(given)}: read only for a trial's chests, and no --trial is given; "
             f"give --trial N or leave {'them' if len(given) > 1 else 'it'} out")


def deal_setup(deal: DealOptions) -> tuple[CardBook, Setup]:
    """The card book and the `Setup` of the deal options (`puzzles.deal.build_setup`), with a
    note on stderr when cards without an implemented effect are left out of the deal. Chest
    and trial files without a trial are refused (`refuse_chests_without_trial`)."""
    refuse_chests_without_trial(deal)
    book, card_sets = load_cards(deal.cards, deal.no_base)
    setup = build_setup(book, card_sets, hand=deal.hand, seed=deal.seed, die_seed=deal.die_seed,
                        deck=deal.deck, dice=deal.dice, time_space=deal.time_space,
                        trial=deal.trial, chests=str(deal.chests or DEFAULT),
                        trials=str(deal.trials or DEFAULT), tech_deck_1=deal.tech_deck_1,
                        tech_deck_2=deal.tech_deck_2)
    left_out = left_out_note(book)
    if left_out is not None:
        note(left_out)
    return book, setup


class Output:
    """stdout, styled by Rich on a terminal, plain and stable otherwise."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console(highlight=False, soft_wrap=True)
        self.rich = self.console.is_terminal

    def line(self, text: str = "", style: str | None = None) -> None:
        if self.rich:
            self.console.print(text, style=style, markup=False, highlight=False)
        else:
            typer.echo(text)

    def heading(self, text: str) -> None:
        self.line(text, style="bold")

    def table(self, title: str, columns: Sequence[str], rows: Sequence[Sequence[str]],
              right: Sequence[str] = ()) -> None:
        """A table: Rich on a terminal; plain text in aligned columns otherwise (the last
        column is never padded, so long texts stay on one line)."""
        if self.rich:
            table = Table(title=title, title_justify="left")
            for col in columns:
                wide = col in ("name", "text", "requirement")
                table.add_column(col, justify="right" if col in right else "left",
                                 no_wrap=not wide, min_width=14 if wide else None)
            for row in rows:
                table.add_row(*row)
            self.console.print(table)
            return
        if title:
            typer.echo(title)
        widths = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(columns)]

        def fmt(cells: Sequence[str]) -> str:
            out = []
            for i, cell in enumerate(cells):
                last = i == len(cells) - 1
                if columns[i] in right:
                    out.append(cell.rjust(widths[i]))
                else:
                    out.append(cell if last else cell.ljust(widths[i]))
            return "  ".join(out).rstrip()

        typer.echo(fmt(columns))
        for row in rows:
            typer.echo(fmt(row))
