"""What every `heritage` command shares: the card-set option, error exits and output.

Errors: the library raises narrow exceptions (`solver.engine.errors`); a command turns them into one
line on stderr (``error: ...``) and exit code 2 (`solver.search.status.EXIT_USAGE_ERROR`), never
a traceback. Output: Rich (colour, tables) when stdout is a terminal, plain text otherwise, so
that scripts and tests read stable output; diagnostics go to stderr.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from puzzles.cardsets import load_book

# `solver.engine.effects` cannot be the first engine module imported (its import of `solver.engine.state` is
# circular), so the engine is loaded through `solver.engine.flow` first.
from solver.engine import flow  # noqa: F401
from solver.engine.cards import CardBook
from solver.engine.errors import CardDataError, HeritageError
from solver.search.status import EXIT_USAGE_ERROR

P = ParamSpec("P")
R = TypeVar("R")

CardsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--cards",
        metavar="SET",
        help="Card set to play with: 'base', 'heritage' or a card-set JSON file "
        "(puzzles/data/CARD_FORMAT.md). Repeat to add sets. Default: base.",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON on stdout instead of text.")]


def fail(message: str, code: int = EXIT_USAGE_ERROR) -> NoReturn:
    """One line on stderr, then exit (2 by default: bad input)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def write_out(path: Path | None, text: str, what: str = "line") -> None:
    """Write `text` to the ``--out`` file, if one was given (exit 2 if it cannot be written)."""
    if path is None:
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"--out: cannot write {path} ({exc.strerror})")
    note(f"{what} written to {path}")


def note(message: str) -> None:
    """A diagnostic on stderr."""
    typer.echo(message, err=True)


def domain_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn any project error a command did not handle into one line and exit code 2."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except HeritageError as exc:
            fail(str(exc))

    return wrapper


def card_set_names(cards: Sequence[str] | None) -> list[str]:
    return list(cards) if cards else ["base"]


def load_cards(cards: Sequence[str] | None) -> tuple[CardBook, tuple[tuple[str, str], ...]]:
    """The card book of the named sets and, for a setup, each name with its sha256."""
    names = card_set_names(cards)
    try:
        book = load_book(names)
    except CardDataError as exc:
        fail(str(exc))
    return book, tuple((n, digest) for n, (_, digest) in zip(names, book.sets, strict=True))


def read_json(path: Path) -> Any:
    """A JSON file, or exit 2 naming the file and the problem."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"{path}: cannot read ({exc.strerror})")
    except UnicodeDecodeError:
        fail(f"{path}: not UTF-8 text")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})")


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
