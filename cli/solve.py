"""``heritage solve`` and ``heritage check``: the best goal-meeting line of a deal, and whether a
trial can be won at all.

Both build the deal as ``heritage play`` does (trial, hand, seeds, or ``--from`` a position
file), run `solver.solve.solve` and print the line turn by turn with the score sheet and the
goals, or (``--json``) the line file plus ``status``, ``vp``, ``bound``, ``gap``, ``nodes``,
``seconds``. Exit codes, as planners and SAT solvers use them: 0 a goal-meeting line was found
(OPTIMAL or FEASIBLE), 1 proven INFEASIBLE, 3 UNKNOWN, 2 usage or input error.

While the search runs, a live display on stderr (when stderr is a terminal) shows the elapsed
time, nodes, nodes per second, the best VP with all goals met, the bound and the gap. Ctrl-C
stops the search and prints the best line found so far.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.live import Live
from rich.table import Table

from cli.common import Output, deal_setup, domain_errors, fail, write_out
from cli.options import (
    BoundOption,
    CardsOption,
    ChestsOption,
    DealOptions,
    DieSeedOption,
    FromOption,
    HandOption,
    NodeLimitOption,
    SeedOption,
    SolveOptions,
    TimeLimitOption,
    TrialOption,
    TrialsOption,
    WorkersOption,
)
from cli.play import print_log, print_score
from puzzles.deal import describe_setup
from puzzles.lines import load_position_file
from solver.bounds.bound import BOUND_NAMES
from solver.engine.describe import TurnReport, describe_line
from solver.engine.goal_check import goals_json
from solver.engine.record import GameRecord, dumps
from solver.search.status import Status
from solver.solve import Progress, SolveConfig, SolveResult, solve


def _root(opts: SolveOptions) -> GameRecord:
    """The position to solve from: a fresh deal, or the position of ``--from``."""
    if opts.from_file is not None:
        return load_position_file(opts.from_file)
    book, setup = deal_setup(opts.deal)
    return GameRecord.new(setup, book)


def _config(opts: SolveOptions, first: bool) -> SolveConfig:
    """The solve's budget and switches, or exit 2 naming the bad option."""
    time_limit, node_limit = opts.time_limit, opts.node_limit
    if time_limit is not None and node_limit is not None:
        fail("--time-limit and --node-limit: give one budget, not both")
    if time_limit is not None and not (time_limit > 0 and math.isfinite(time_limit)):
        fail(f"--time-limit: must be a positive number of seconds, got {time_limit}")
    if node_limit is not None and node_limit <= 0:
        fail(f"--node-limit: must be a positive whole number, got {node_limit}")
    if opts.workers < 1:
        fail(f"--workers: must be at least 1, got {opts.workers}")
    if opts.bound not in BOUND_NAMES:
        fail(f"--bound: must be one of {', '.join(BOUND_NAMES)}, got {opts.bound!r}")
    if time_limit is None and node_limit is None:
        node_limit = 200_000
    return SolveConfig(time_limit=time_limit, node_limit=node_limit, workers=opts.workers,
                       first_solution=first, bound=opts.bound)


def _fmt(value: float | None) -> str:
    if value is None or math.isinf(value):
        return "-"
    return f"{value:g}"


class LiveDisplay:
    """The live search display on stderr (only when stderr is a terminal)."""

    def __init__(self) -> None:
        self.console = Console(stderr=True)
        self.progress = Progress()
        self.live: Live | None = None
        if self.console.is_terminal:
            self.live = Live(console=self.console, refresh_per_second=4, transient=True,
                             get_renderable=lambda: self._render(self.progress))

    def _render(self, p: Progress) -> Table:
        t = Table(title="heritage solve", title_justify="left", show_header=False)
        rate = p.nodes / p.elapsed if p.elapsed > 0 else 0.0
        gap = p.bound - p.best_value if math.isfinite(p.best_value) and math.isfinite(p.bound) else None
        for k, v in (("phase", p.phase), ("elapsed", f"{p.elapsed:.1f} s"), ("nodes", f"{p.nodes:,}"),
                     ("nodes/s", f"{rate:,.0f}"), ("best VP (all goals met)", _fmt(p.best_value)),
                     ("best VP (a goal missed)", _fmt(p.best_failed)),
                     ("upper bound", _fmt(p.bound)), ("gap", _fmt(gap))):
            t.add_row(k, v)
        return t

    def update(self, p: Progress) -> None:
        self.progress = p

    def __enter__(self) -> LiveDisplay:
        if self.live is not None:
            self.live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.live is not None:
            self.live.__exit__(None, None, None)


def _finish(root: GameRecord, actions: list[int]) -> GameRecord:
    record = root.clone()
    for a in actions:
        record.apply(a)
    return record


def result_json(root: GameRecord, res: SolveResult) -> dict[str, Any]:
    """The line file of the best line plus the solve's figures (``best_failed`` when no line
    meets every goal: itself a line file that `heritage verify` accepts)."""
    if res.value is not None:
        data = _finish(root, res.line).to_json()
    else:
        data = root.to_json()
        data["score"] = None
        data["goals"] = goals_json(root.state)
    data.update({
        "status": res.status.value,
        "vp": None if res.value is None else int(res.value),
        "bound": None if math.isinf(res.bound) else int(res.bound),
        "gap": None if res.gap is None else int(res.gap),
        "nodes": res.nodes,
        "seconds": round(res.seconds, 3),
        "time_to_best": round(res.time_to_best, 3),
    })
    if res.interrupted:
        data["interrupted"] = True
    if res.value is None and res.failed_line:
        data["best_failed"] = _finish(root, res.failed_line).to_json()
    return data


def print_line_table(out: Output, reports: list[TurnReport]) -> None:
    """The line turn by turn: on a terminal a Rich table (actions with every sub-choice, what
    the automatic phases did, then hand, knowledge on the Timeline, lost knowledge); plain text
    (the play log) otherwise, so scripts read stable output."""
    if not out.rich:
        print_log(out, reports)
        return
    table = Table(title="The line, turn by turn", title_justify="left", show_lines=True)
    table.add_column("turn", justify="right", no_wrap=True)
    table.add_column("actions and choices", ratio=3)
    table.add_column("timeline, decline, technology phases", ratio=2, style="dim")
    for col in ("hand", "knowledge", "lost"):
        table.add_column(col, justify="right", no_wrap=True)
    for rep in reports:
        table.add_row("setup" if rep.turn == 0 else str(rep.turn), "\n".join(rep.phrases),
                      "\n".join(rep.events), str(rep.hand), str(rep.timeline_knowledge),
                      str(rep.lost))
    out.console.print(table)


def _print_line(out: Output, record: GameRecord, title: str) -> None:
    out.heading(title)
    out.line(describe_setup(record.setup))
    print_line_table(out, describe_line(record.setup, record.book, record.line))
    out.line()
    print_score(out, record.state.score())
    for g in goals_json(record.state):
        out.line(f"Goal {g['chest']}: {g['goal']}: {'met' if g['met'] else 'NOT met'}")


def _status_lines(out: Output, res: SolveResult) -> None:
    words = {
        Status.OPTIMAL: "OPTIMAL: proven best line",
        Status.FEASIBLE: "FEASIBLE: best line found, not proven optimal",
        Status.INFEASIBLE: "INFEASIBLE: proven, no line meets every goal with this deal",
        Status.UNKNOWN: "UNKNOWN: no line meeting every goal was found within the budget",
    }
    out.heading(words[res.status] + (" (interrupted)" if res.interrupted else ""))
    out.line(f"VP {_fmt(res.value)}  bound {_fmt(res.bound)}  gap {_fmt(res.gap)}  "
             f"nodes {res.nodes:,}  time {res.seconds:.1f} s  time to best {res.time_to_best:.1f} s")


def _run(root: GameRecord, cfg: SolveConfig) -> SolveResult:
    display = LiveDisplay()
    with display:
        return solve(root.state, cfg, on_progress=display.update)


@domain_errors
def solve_command(
    trial: TrialOption = None,
    hand: HandOption = "1",
    seed: SeedOption = 0,
    die_seed: DieSeedOption = None,
    time_limit: TimeLimitOption = None,
    node_limit: NodeLimitOption = None,
    workers: WorkersOption = 1,
    from_file: FromOption = None,
    cards: CardsOption = None,
    chests: ChestsOption = None,
    trials: TrialsOption = None,
    bound: BoundOption = "simple",
    json_output: Annotated[bool, typer.Option("--json", help="Print the line file with status, "
                                              "vp, bound, gap, nodes and seconds.")] = False,
    out_file: Annotated[Path | None, typer.Option("--out", metavar="FILE",
                                                  help="Also write the JSON result here.")] = None,
) -> None:
    """Find the line that meets every goal chest and scores the most VP; prove it where possible."""
    opts = SolveOptions(DealOptions(hand=hand, seed=seed, die_seed=die_seed, trial=trial,
                                    cards=cards, chests=chests, trials=trials),
                        from_file, time_limit, node_limit, workers, bound)
    cfg = _config(opts, first=False)
    root = _root(opts)
    res = _run(root, cfg)
    data = result_json(root, res)
    write_out(out_file, dumps(data), "result")
    if json_output:
        typer.echo(dumps(data), nl=False)
    else:
        out = Output()
        if res.value is not None:
            _print_line(out, _finish(root, res.line), "Best line (all goals met)")
        elif res.failed_line:
            _print_line(out, _finish(root, res.failed_line),
                        "FAILED TRIAL: best line found, but it misses a goal")
        out.line()
        _status_lines(out, res)
    raise typer.Exit(res.status.exit_code)


@domain_errors
def check_command(
    trial: TrialOption = None,
    hand: HandOption = "1",
    seed: SeedOption = 0,
    die_seed: DieSeedOption = None,
    time_limit: TimeLimitOption = None,
    node_limit: NodeLimitOption = None,
    workers: WorkersOption = 1,
    from_file: FromOption = None,
    cards: CardsOption = None,
    chests: ChestsOption = None,
    trials: TrialsOption = None,
    bound: BoundOption = "simple",
    json_output: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """Is the trial winnable with this deal? yes (with a witness line) / no (proven) / unknown."""
    opts = SolveOptions(DealOptions(hand=hand, seed=seed, die_seed=die_seed, trial=trial,
                                    cards=cards, chests=chests, trials=trials),
                        from_file, time_limit, node_limit, workers, bound)
    cfg = _config(opts, first=True)
    root = _root(opts)
    res = _run(root, cfg)
    answer = {Status.OPTIMAL: "yes", Status.FEASIBLE: "yes", Status.INFEASIBLE: "no",
              Status.UNKNOWN: "unknown"}[res.status]
    if res.status == Status.INFEASIBLE:
        reason = (f"proven: exhaustive search of {res.nodes:,} positions found no line meeting "
                  "every goal" if bound == "simple" else "proven (exhaustive search, or the "
                  "constraint layer's relaxation): no line meets every goal")
    elif res.status == Status.UNKNOWN:
        reason = "no goal-meeting line found within the budget, and no proof that none exists"
    else:
        reason = "a witness line meets every goal"
    if json_output:
        data = result_json(root, res)
        data.update({"winnable": answer, "reason": reason})
        typer.echo(dumps(data), nl=False)
    else:
        out = Output()
        out.heading(f"Winnable: {answer} ({reason})")
        if res.value is not None:
            _print_line(out, _finish(root, res.line), "Witness line")
    raise typer.Exit(res.status.exit_code)
