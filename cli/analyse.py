"""``heritage analyse LINE.json``: where the VP went, turn by turn (`solver.analysis.review`).

The game of a line file (from ``play``, ``solve``, ``play --interactive``, a sweep's exported
lines) is replayed; at the start of each turn (``--every-decision``: before each decision) the
position is solved within the budget (``--time-limit`` / ``--node-limit`` per position, the
options of ``solve``; ``--node-limit`` gives the same analysis on every machine, whatever
``--workers``), with the player's own continuation as the first incumbent. Printed: a table of
the best VP reachable (proven, or with its bound: the least of the position's own and every
earlier position's, which hold down the game), the VP the player's line kept, the VP the
turn's decisions lost (between lines found: marked ``~`` unless both ends are proven optimal,
``>=N`` where N is proven the least; ``?``, ``lost`` null in JSON, where the next position was
not analysed: Ctrl-C), whether the goals were still reachable, and the best alternative in
words; then the VP left on the table ("at least" unless the first position is proven), the
three costliest turns and the turn the trial became unwinnable. ``--json``: a list of one
object per turn with ``turn``, ``best_vp``, ``best_goals_met``, ``best_status``, ``bound``,
``played_vp``, ``played_goals_met``, ``lost``, ``lost_proven``, ``lost_at_least`` (proven: the
best line less the next position's bound), ``alternative``, ``goals_reachable`` (with
``--every-decision`` also ``decision``, the index of the decision within the turn).
``--plot FILE.png``: best reachable and played VP over the turns (matplotlib, an optional
extra: ``pip install 'heritage[plot]'``).

Exit codes: 0 analysed, 2 bad input (a file that is not a legal finished game), 130 Ctrl-C (the
positions solved so far are printed).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress as Bar

from cli.common import Output, available_cores, capped_at_cores, domain_errors, fail, note
from cli.lineplot import check_plot
from cli.options import MANY_SOLVES_BOUND, BoundOption, JsonOption
from puzzles.lines import read_line_file, replay
from solver.analysis.review import Review, ReviewConfig, TurnReview, review_game
from solver.bounds.bound import BOUND_NAMES
from solver.engine.newgame import new_game
from solver.search.status import Status
from solver.solve import MAX_NODES, MAX_SECONDS, SolveConfig

DEFAULT_NODES = 20_000
EXIT_INTERRUPTED = 130
BEST_COLOUR, PLAYED_COLOUR = "#1f77b4", "#d62728"  # the plot's two lines (tests look for them)


def review_config(time_limit: float | None, node_limit: int | None, workers: int, bound: str,
                  every_decision: bool) -> ReviewConfig:
    """The analysis's budget per position, or exit 2 naming the bad option."""
    if time_limit is not None and node_limit is not None:
        fail("--time-limit and --node-limit: give one budget, not both")
    if time_limit is not None and not 0 < time_limit <= MAX_SECONDS:
        fail(f"--time-limit: must be a number of seconds above 0 and at most {MAX_SECONDS:g}, "
             f"got {time_limit}")
    if node_limit is not None and not 1 <= node_limit <= MAX_NODES:
        fail(f"--node-limit: must be a whole number from 1 to {MAX_NODES:,}, got {node_limit}")
    if workers < 1:
        fail(f"--workers: must be at least 1, got {workers}")
    workers = capped_at_cores("--workers", workers)
    if bound not in BOUND_NAMES:
        fail(f"--bound: must be one of {', '.join(BOUND_NAMES)}, got {bound!r}")
    if time_limit is None and node_limit is None:
        node_limit = DEFAULT_NODES
    return ReviewConfig(SolveConfig(time_limit=time_limit, node_limit=node_limit, bound=bound),
                        every_decision=every_decision, workers=workers)


@domain_errors
def analyse_command(
    line_file: Annotated[Path, typer.Argument(
        metavar="LINE.json", help="A finished game: a line file of play, solve, play "
        "--interactive or a sweep.")],
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", metavar="SECONDS", help="Budget of each position's solve in seconds "
        "(not reproducible across machines; use --node-limit for that).")] = None,
    node_limit: Annotated[int | None, typer.Option(
        "--node-limit", metavar="K", help="Budget of each position's solve in search nodes: "
        f"the same game gives the same analysis. Default {DEFAULT_NODES} when no --time-limit "
        "is given.")] = None,
    workers: Annotated[int | None, typer.Option(
        "--workers", metavar="W", help="Positions solved at once (processes); the result does "
        "not depend on it. Default: the number of CPUs.")] = None,
    bound: BoundOption = MANY_SOLVES_BOUND,
    every_decision: Annotated[bool, typer.Option(
        "--every-decision", help="Analyse the position before every decision, not only at "
        "each turn start.")] = False,
    json_output: JsonOption = False,
    plot: Annotated[Path | None, typer.Option(
        "--plot", metavar="FILE.png", help="Also draw best reachable and played VP over the "
        "turns (needs matplotlib: pip install 'heritage\\[plot]').")] = None,
) -> None:
    """Replay a finished game and show, turn by turn, the best VP still reachable, the VP the
    player's line kept, the VP each turn's decisions lost and the best alternative. Exit 0
    analysed, 2 bad input, 130 Ctrl-C (the positions solved so far are printed)."""
    processes = available_cores() if workers is None else workers
    cfg = review_config(time_limit, node_limit, processes, bound, every_decision)
    check_plot(plot)  # before the analysis: its result is never lost to a bad --plot
    data = read_line_file(line_file)
    record, error = replay(data, base_dir=line_file.parent)
    if record is None or error is not None:
        fail(f"{line_file}: {error}" + ("" if record is None else
                                         " (only a legal, finished game can be analysed)"))
    review = _run(new_game(record.setup, record.book), record.line, cfg)
    if plot is not None:
        draw(review, plot, title=f"{line_file.name}: best reachable and played VP")
    if json_output:
        typer.echo(json.dumps(review.to_json(), indent=2, ensure_ascii=False))
    else:
        print_review(Output(), review)
    if review.interrupted:
        note("interrupted: the positions not solved keep the player's own line as their best")
        raise typer.Exit(EXIT_INTERRUPTED)


def _run(start: Any, line: list[list[str]], cfg: ReviewConfig) -> Review:
    """The review, with a progress bar on stderr when it is a terminal."""
    console = Console(stderr=True)
    if not console.is_terminal:
        return review_game(start, line, cfg)
    with Bar(console=console, transient=True) as bar:
        task = bar.add_task("analysing positions", total=None)

        def tick(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return review_game(start, line, cfg, on_point=tick)


# ------------------------------------------------------------------ the table

def _where(r: TurnReview, every_decision: bool) -> str:
    return f"{r.turn}.{r.decision}" if every_decision else str(r.turn)


def _best_text(r: TurnReview, has_goals: bool) -> str:
    text = str(r.best.vp)
    if has_goals and not r.best.goals_met:
        text += " (goal missed)"
    return text


def _status_text(r: TurnReview) -> str:
    if not r.analysed:
        return "not analysed"
    if r.status == Status.OPTIMAL:
        return "proven"
    if r.status == Status.FEASIBLE and math.isfinite(r.bound):
        return f"bound {r.bound:g}"
    return r.status.value.lower()


def _reachable_text(value: bool | None) -> str:
    return {True: "yes", False: "no (proven)", None: "?"}[value]


def loss_words(lost: int | None, proven: bool, at_least: int | None) -> str:
    """A loss between lines found (a turn's ``lost``, ``lost_proven``, ``lost_at_least``):
    proven (both ends optimal), ``>=N`` (proven at least N: the next position's bound), ``~N``
    (an estimate, neither bound of the true loss), with ``(>=M)`` where a smaller loss is
    proven; ``?`` where the next position was not analysed (Ctrl-C)."""
    if lost is None:
        return "?"
    if proven:
        return str(lost)
    least = at_least or 0
    if least == lost:
        return f">={lost}" if least else "~0"
    return f"~{lost} (>={least})" if least else f"~{lost}"


def _lost_text(r: TurnReview) -> str:
    return loss_words(r.lost, r.lost_proven, r.lost_at_least)


def print_review(out: Output, review: Review) -> None:
    """The table of the turns and the summary."""
    every = review.every_decision
    columns = ["turn", "best", "status", "played", "lost"]
    if review.has_goals:
        columns.append("goals")
    columns.append("best alternative")
    rows = []
    for r in review.rows:
        row = [_where(r, every), _best_text(r, review.has_goals), _status_text(r),
               str(r.played.vp), _lost_text(r)]
        if review.has_goals:
            row.append(_reachable_text(r.goals_reachable))
        row.append(r.alternative or "-")
        rows.append(row)
    out.table("Where the VP went (best: the best line found from the turn's start; played: "
              "your line; lost: best less the next row's best, ~ where either is not proven "
              "optimal, >= a proven least, ? where the next was not analysed)", columns, rows,
              right=("best", "played", "lost"))
    out.line()
    for line in summary_lines(review):
        out.line(line)


def summary_lines(review: Review) -> list[str]:
    """The closing summary: result, VP left, costliest turns, when the goals were lost."""
    every = review.every_decision
    goals = review.has_goals
    lines = []
    result = f"Final score: {review.final_vp} VP"
    if goals:
        result += ", every goal met" if review.final_goals_met else ", a goal missed"
    lines.append(result + ".")
    if review.rows:
        first = review.rows[0]
        best = f"{first.best.vp} VP" + (("" if not goals else ", every goal met")
                                        if first.best.goals_met else ", a goal missed")
        least = "" if review.left_proven else "at least "
        lines.append(f"VP left on the table: {least}{review.left_on_table} (the best line found "
                     f"from turn {_where(first, every)} scores {best}).")
    costly = review.costliest(3)
    lines.append("Costliest turns: " + (", ".join(
        f"turn {_where(r, every)} ({_lost_text(r)} VP)" for r in costly) if costly else "none")
        + ".")
    given_up = review.goals_given_up
    lost = review.unwinnable
    if given_up is not None and not (lost is not None and lost.certain):
        lines.append(f"Turn {_where(given_up, every)}'s decisions gave up the goals: a line "
                     "meeting every goal was found before them, none after them.")
    if lost is not None:
        where = f"{lost.turn}" + (f".{lost.decision}" if every else "")
        if lost.at_start:
            lines.append("The trial was unwinnable from the start (proven).")
        elif lost.certain:
            lines.append(f"The trial became unwinnable in turn {where}: the goals could be met "
                         "before its decisions, and after them it is proven they cannot.")
        elif lost.at_end:
            lines.append("No position before the end was proven unwinnable within the budget "
                         "(the goals were missed at the end).")
        else:
            lines.append(f"The trial was proven unwinnable after turn {where} at the latest.")
    if review.interrupted:
        done = sum(r.analysed for r in review.rows)
        lines.append(f"Interrupted: {done} of {len(review.rows)} positions analysed.")
    return lines


# ------------------------------------------------------------------ the plot

def plot_series(review: Review) -> dict[str, Any]:
    """What the plot draws (also stored in the PNG's metadata, so a reader can check it): a
    point per analysed position and one for the end of the game, where best and played meet;
    where the goals are proven out of reach (between two turns)."""
    rows = review.rows
    end = (max(r.turn for r in rows) + 1) if rows else 1
    lost = review.unwinnable
    return {"x": [_x(review, r) for r in rows] + [float(end)],
            "best_vp": [r.best.vp for r in rows] + [review.final_vp],
            "best_goals_met": [r.best.goals_met for r in rows] + [review.final_goals_met],
            "played_vp": [r.played.vp for r in rows] + [review.final_vp],
            "unwinnable_x": None if lost is None or lost.at_end
            else lost.turn + (-0.5 if lost.at_start else 0.5)}


def _x(review: Review, r: TurnReview) -> float:
    if not review.every_decision:
        return float(r.turn)
    count = sum(1 for o in review.rows if o.turn == r.turn)
    return r.turn + (r.decision - 1) / count


def draw(review: Review, path: Path, title: str) -> None:
    """The PNG of best reachable vs played VP over the turns (exit 2 if matplotlib is missing
    or the file cannot be written)."""
    try:
        from matplotlib.figure import Figure  # lazy: optional extra (plot), and start-up time
    except ImportError:
        fail("--plot: matplotlib is not installed (pip install 'heritage[plot]')")
    series = plot_series(review)
    fig = Figure(figsize=(8, 4.5), dpi=100)
    ax = fig.add_subplot()
    ax.plot(series["x"], series["best_vp"], color=BEST_COLOUR, marker="o", linewidth=2,
            label="best reachable (found)")
    missed = [(x, v) for x, v, ok in zip(series["x"], series["best_vp"],
                                        series["best_goals_met"], strict=True) if not ok]
    if review.has_goals and missed:
        ax.scatter([m[0] for m in missed], [m[1] for m in missed], s=90, facecolors="white",
                   edgecolors=BEST_COLOUR, zorder=3, label="best line misses a goal")
    ax.plot(series["x"], series["played_vp"], color=PLAYED_COLOUR, linewidth=2,
            label="played (your line)")
    if series["unwinnable_x"] is not None:
        ax.axvline(series["unwinnable_x"], color="#7f7f7f", linestyle="--",
                   label="goals proven out of reach from here")
    ax.set_xlabel("turn (the last point: the end of the game)")
    ax.set_ylabel("final VP")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2, fontsize="small",
              frameon=False)
    fig.subplots_adjust(bottom=0.3)
    try:
        fig.savefig(path, format="png", metadata={"Description": json.dumps(series)})
    except OSError as exc:
        fail(f"--plot: cannot write {path} ({exc.strerror})")
    note(f"plot written to {path}")
