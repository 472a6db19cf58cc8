"""``heritage verify``: check a line file (`solver.engine.record`) by replaying it with the engine.

Exit codes: 0 the line is a legal, finished game whose claimed score (and goals) match the
replay; 1 it is not (the first illegal step, or the first difference, is printed); 2 the file is
malformed or cannot be replayed at all (one line on stderr naming the file, field and value).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from cli.common import Output, domain_errors, fail
from cli.options import JsonOption
from cli.play import print_log, print_score
from puzzles.lines import read_line_file, replay
from solver.engine.describe import describe_line

EXIT_INVALID = 1


@domain_errors
def verify_command(
    line_file: Annotated[
        Path, typer.Argument(metavar="LINE.json", help="A line file written by 'heritage play'.")
    ],
    log: Annotated[
        bool, typer.Option("--log", help="Also print the game turn by turn.")
    ] = False,
    json_output: JsonOption = False,
) -> None:
    """Replay a line file: exit 0 valid (prints the recomputed score), 1 invalid (prints the
    first illegal step), 2 malformed file."""
    data = read_line_file(line_file)
    record, error = replay(data, base_dir=line_file.parent)
    if record is None:
        fail(f"{line_file}: {error}")
    turns = record.state.turn
    if json_output:
        result = {"valid": error is None, "error": error, "turns": turns,
                  "score": record.score_json()}
        typer.echo(json.dumps(result, indent=2, ensure_ascii=False))
        if error is not None:
            raise typer.Exit(EXIT_INVALID)
        return
    out = Output()
    if error is not None:
        out.line(f"invalid: {error}")
        raise typer.Exit(EXIT_INVALID)
    if log:
        print_log(out, describe_line(record.setup, record.book, record.line))
        out.line()
    out.line(f"valid: {turns} turns, {record.state.score().total} VP")
    print_score(out, record.state.score())
