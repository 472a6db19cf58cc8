"""The `heritage` command line: a thin Typer layer over `solver` and `puzzles`.

Commands live in their own modules (`cli.cards`, `cli.play`, `cli.deal`, `cli.verify`,
`cli.trials`, `cli.campaign`, `cli.antike`, `cli.bench`, `cli.sweep`, `cli.analyse`); this module
only names them in `COMMANDS`, and a command's module is imported when that command runs (or
shows its own ``--help``): ``heritage --help`` imports Typer and Rich only, and ``heritage
play`` never imports the solver, OR-Tools, pandas or the benchmarks (`benchmarks/startup.py`
measures it). A new command is one `Command` line in `COMMANDS`. Exit codes: 0 success, 1 a
negative answer (an invalid line), 2 bad input (one line on stderr), 3 unknown (solvers).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import typer
from typer.core import TyperCommand

from cli.errors import OneLineGroup
from cli.helpview import tidy_help


@dataclass(frozen=True)
class Command:
    """A command of `heritage`: its name, where it lives (``module:attribute``: a command
    function, or with `group` a Typer app of subcommands) and its help."""

    name: str
    target: str
    help: str = ""
    group: bool = False

    def load(self) -> Any:
        """The command as Click runs it (its module is imported now), its help tidied
        (`cli.helpview`)."""
        module, attr = self.target.split(":")
        obj = getattr(importlib.import_module(module), attr)  # lazy: start-up time (see above)
        if self.group:
            group = typer.main.get_group(obj)
            group.name = self.name
            return tidy_help(group)
        single = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
        single.command(self.name, help=self.help)(obj)
        return tidy_help(typer.main.get_command(single))


COMMANDS = (
    Command(
        "cards", "cli.cards:cards_command",
        "List the cards of the chosen card sets: code, name, type, cost, space, knowledge, VP, "
        "activation and text (technologies: level, requirement, VP). --missing lists only the "
        "cards whose effect the engine does not implement."),
    Command(
        "play", "cli.play:play_command",
        "Deal one seeded game and play it with the random policy; print the game turn by turn "
        "and the five-row score sheet, or (--json) its line file."),
    Command(
        "solve", "cli.solve:solve_command",
        "Find the line that meets every goal chest of a trial and scores the most VP, proven "
        "optimal where possible; print it turn by turn (or --json). Exit 0 found, 1 proven "
        "infeasible, 3 unknown, 2 bad input."),
    Command(
        "check", "cli.solve:check_command",
        "Answer whether a trial can be won with a deal: yes (with a witness line), no (proven) "
        "or unknown. Exit 0 yes, 1 no, 3 unknown, 2 bad input."),
    Command(
        "deal", "cli.deal:deal_command",
        "Print the whole deal of the deal options (hand, builder deck, technology tiles and "
        "decks top first, die rolls) to stack a physical game; --json for scripts."),
    Command(
        "analyse", "cli.analyse:analyse_command",
        "Replay a finished game (a line file) and show turn by turn where the VP went: the "
        "best VP still reachable, the VP your line kept, the VP each turn lost, the best "
        "alternative, when the goals went out of reach. --json, --plot FILE.png. Exit 0, 2 bad "
        "input, 130 Ctrl-C (the turns analysed so far are printed)."),
    Command(
        "verify", "cli.verify:verify_command",
        "Replay a line file with the engine and check every claim it makes (score, goals, "
        "trial, a solve's vp/status/bound/gap; OPTIMAL and INFEASIBLE are 'claimed, not "
        "verified'): exit 0 if it is a legal finished game whose claims hold, 1 if not (naming "
        "the first illegal step or false claim) or, with --require-goals, if it misses a goal; "
        "2 if the file is malformed."),
    Command(
        "trials", "cli.trials:trials_command",
        "List the Trial Table (trials 1-10) with each trial's goal chests and effect chests; "
        "stand-ins are marked. --json for scripts."),
    Command(
        "bench", "cli.bench:bench_command",
        "Benchmark every search method (solve, nrpa, exact) and the baselines (random, greedy, "
        "OpenSpiel MCTS) on the fixed suite, same budget each: JSON lines, a summary table, "
        "anytime and performance-profile plots, engine throughput. --smoke: the CI run (~1 "
        "min). Exit 0 ok, 1 a check failed, 2 bad input."),
    Command(
        "campaign", "cli.campaign:campaign_app",
        "Campaign mode: a campaign-state file (chest decks 1/2/3, games, last VP, goals "
        "achieved out of 15); build the next game, solve it, play it, record it.", group=True),
    Command(
        "antike", "cli.antike:antike_app",
        "Antike know-how purchases (Antike rules, page 9): a second, small puzzle.",
        group=True),
    Command(
        "sweep", "cli.sweep:sweep_app",
        "How often can a trial be won with a starting hand? Solve many deals (trials x hands x "
        "seeds), store them in SQLite, report the winnable rate with a 95% confidence interval "
        "and the VP, export a deal's line.", group=True),
)


class LazyGroup(OneLineGroup):
    """The top-level group over `COMMANDS`: listing the commands (``heritage --help``) reads
    their help from the table; running one (or asking its own help) imports its module."""

    listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return [c.name for c in COMMANDS]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = next((c for c in COMMANDS if c.name == cmd_name), None)
        if command is None:
            return None
        if self.listing:  # the group's own help: the table's words, no import
            return TyperCommand(name=command.name, help=command.help, short_help=command.help)
        return command.load()

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self.listing = False


app = typer.Typer(
    name="heritage",
    cls=LazyGroup,
    rich_markup_mode=None,  # the plain help of Click: Typer's Rich help alone takes 0.2 s
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def print_version(value: bool) -> None:
    """``--version``: the version and the build, ``build: compiled`` (mypyc) or ``build: pure``;
    a compiled build also lists what runs interpreted (README, "Builds")."""
    if not value:
        return
    from importlib.metadata import version

    from solver import buildinfo  # lazy: only --version; heritage --help imports no solver

    build = buildinfo.current_build()
    typer.echo(f"heritage {version('heritage')}")
    typer.echo(f"build: {build.kind}")
    if build.kind == "compiled":
        typer.echo(f"interpreted: {buildinfo.interpreted_summary(build)}")
    raise typer.Exit()


@app.callback()
def heritage(
    show_version: bool = typer.Option(
        False, "--version", callback=print_version, is_eager=True,
        help="Print the version and the build (compiled or pure Python) and exit."),
) -> None:
    """Exact rules engine and solver for the solo modes of Ancient Knowledge: Heritage.

    Line files (JSON) record a game: the setup, every decision by turn, the score."""


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
