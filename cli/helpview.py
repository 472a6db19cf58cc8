"""How a command's ``--help`` shows its options and subcommands.

Typer's Rich help gives every option a type column. For a flag (``--json``, ``--help``) recent
Typer versions print ``<bool>`` there, a value nobody types; a group lists its subcommands with
the first paragraph of each docstring, keeping the docstring's line breaks, so that a
subcommand's summary breaks mid-sentence. `tidy_help` mends both on a loaded command before Click
formats it: flags get an empty type column, subcommands a one-line summary. It changes nothing
that a command parses or does.

This module imports only Click (through Typer), so that ``heritage --help`` stays quick.
"""

from __future__ import annotations

from typing import Any

import typer


def summary(help_text: str) -> str:
    """The first paragraph of a help text on one line: the words of a docstring's first
    paragraph, its line breaks read as spaces."""
    first = help_text.strip().split("\n\n", 1)[0]
    return " ".join(first.split())


def tidy_help(command: Any) -> Any:
    """`command` (a Click command or group, with its subcommands) with the help mends of the
    module docstring; returns it."""
    for sub in getattr(command, "commands", {}).values():
        tidy_help(sub)
        if sub.short_help is None and sub.help:
            sub.short_help = summary(sub.help)
    help_option = command.get_help_option(typer.Context(command))
    for param in [*command.params, help_option]:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""  # no type column: a flag takes no value
    return command
