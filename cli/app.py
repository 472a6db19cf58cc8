"""The `heritage` command line: a thin Typer layer over `solver` and `puzzles`.

Commands live in their own modules (`cli.cards`, `cli.play`, `cli.verify`, `cli.trials`,
`cli.campaign`, `cli.antike`, `cli.bench`); this module only assembles them. Exit codes: 0 success, 1 a negative answer (an invalid line),
2 bad input (one line on stderr), 3 unknown (solvers).
"""

from __future__ import annotations

import typer

from cli.antike import antike_app
from cli.bench import bench_command
from cli.campaign import campaign_app
from cli.cards import cards_command
from cli.play import play_command
from cli.solve import check_command, solve_command
from cli.trials import trials_command
from cli.verify import verify_command

app = typer.Typer(
    name="heritage",
    help="Exact rules engine and solver for the solo modes of Ancient Knowledge: Heritage.\n\n"
    "Line files (JSON) record a game: the setup, every decision by turn, the score.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

app.command(
    "cards",
    help="List the cards of the chosen card sets: code, name, type, cost, space, knowledge, VP, "
    "activation and text (technologies: level, requirement, VP). --missing lists only the cards "
    "whose effect the engine does not implement.",
)(cards_command)
app.command(
    "play",
    help="Deal one seeded game and play it with the random policy; print the game turn by turn "
    "and the five-row score sheet, or (--json) its line file.",
)(play_command)
app.command(
    "solve",
    help="Find the line that meets every goal chest of a trial and scores the most VP, proven "
    "optimal where possible; print it turn by turn (or --json). Exit 0 found, 1 proven "
    "infeasible, 3 unknown, 2 bad input.",
)(solve_command)
app.command(
    "check",
    help="Answer whether a trial can be won with a deal: yes (with a witness line), no (proven) "
    "or unknown. Exit 0 yes, 1 no, 3 unknown, 2 bad input.",
)(check_command)
app.command(
    "verify",
    help="Replay a line file with the engine: exit 0 if it is a legal finished game with the "
    "claimed score, 1 if not (naming the first illegal step), 2 if the file is malformed.",
)(verify_command)
app.command(
    "trials",
    help="List the Trial Table (trials 1-10) with each trial's goal chests and effect chests; "
    "stand-ins are marked. --json for scripts.",
)(trials_command)
app.command(
    "bench",
    help="Benchmark every search method (solve, nrpa, exact) and the baselines (random, greedy, "
    "OpenSpiel MCTS) on the fixed suite, same budget each: JSON lines, a summary table, "
    "anytime and performance-profile plots, engine throughput. --smoke: the CI run (~1 min). "
    "Exit 0 ok, 1 a check failed, 2 bad input.",
)(bench_command)
app.add_typer(campaign_app, name="campaign")
app.add_typer(antike_app, name="antike")


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
