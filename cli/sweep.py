"""``heritage sweep run|report|export``: how often can a trial be won with a starting hand?

``run`` solves every deal of its options (trials x hands x seeds x die seeds), each with the
same budget, on a process pool (default: one worker per core) or a Dask cluster, and stores one
row per deal in a SQLite file; the same command resumes a sweep cut short. ``report`` gives per
trial and hand the winnable rate with a 95% confidence interval and the VP (a Rich table,
``--json``, ``--plot`` a heat map). ``export`` writes one stored deal as a line file. The work is
done by `benchmarks.sweep`; this module parses, shows progress, prints, and maps errors to exit
codes: 0 done, 2 bad input (one line on stderr), 3 (``run``) some deals not stored yet.
"""

from __future__ import annotations

import json
import math
import shlex
import signal
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from benchmarks.sweep.backend import Backend
from benchmarks.sweep.cluster import DaskCluster
from benchmarks.sweep.export import line_file, pick_row
from benchmarks.sweep.heatmap import plot_heatmap
from benchmarks.sweep.plan import (
    MAX_SWEEP_SEED,
    SAME,
    Budget,
    Sweep,
    check_bound,
    check_trials,
    parse_die_seeds,
    parse_hands,
    parse_numbers,
)
from benchmarks.sweep.pool import ProcessPool
from benchmarks.sweep.report import (
    COLUMNS,
    plain_table,
    setting_title,
    settings,
    shared_decks,
    summarize,
    table_rows,
)
from benchmarks.sweep.run import DROP, SweepTally, run_sweep
from benchmarks.sweep.store import SweepStore
from benchmarks.sweep.tasks import worker_identity
from cli.common import (
    Output,
    available_cores,
    capped_at_cores,
    domain_errors,
    fail,
    note,
    write_out,
)
from cli.lineplot import check_plot
from cli.options import MANY_SOLVES_BOUND, BoundOption
from solver.engine.record import dumps

sweep_app = typer.Typer(
    name="sweep", no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
    help="How often can a trial be won with a starting hand? Solve many deals (trials x hands "
    "x seeds) on a process pool or a Dask cluster, store them in SQLite, report the winnable "
    "rate with a 95% confidence interval and the VP, export a deal's line.")

DbOption = Annotated[Path, typer.Option(
    "--db", metavar="FILE.sqlite", help="The sweep database (SQLite): one row per deal solved. "
    "Several sweeps may share one.")]
NodeBudget = Annotated[int | None, typer.Option(
    "--node-limit", metavar="K", help="Budget of each deal in search nodes: the same rows on "
    "any backend and worker count.")]
TimeBudget = Annotated[float | None, typer.Option(
    "--time-limit", metavar="SECONDS", help="Budget of each deal in wall-clock seconds (rows "
    "depend on the machine and its load).")]


class RateColumn(ProgressColumn):
    """Deals solved per second in this run."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- deals/s" if speed is None else f"{speed:.2f} deals/s")


class SweepProgress:
    """The progress bar on stderr (drawn only when stderr is a terminal): done / total, rate,
    ETA, and the running win rate of the deals stored."""

    def __init__(self, tally_total: int) -> None:
        console = Console(stderr=True)
        self.bar = Progress(TextColumn("sweep"), BarColumn(), MofNCompleteColumn(), RateColumn(),
                            TextColumn("ETA"), TimeRemainingColumn(),
                            TextColumn("{task.fields[won]}"), console=console, transient=True,
                            disable=not console.is_terminal)
        self.task = self.bar.add_task("sweep", total=tally_total, won="")

    @staticmethod
    def _won(tally: SweepTally) -> str:
        won = tally.outcomes["won"]
        return f"won {won}/{tally.stored} ({100 * won / max(1, tally.stored):.1f}%)"

    def start(self, tally: SweepTally) -> None:
        """The deals stored before this run count as done (but not in its rate)."""
        self.bar.reset(self.task, total=tally.planned, completed=tally.already,
                       won=self._won(tally))

    def row(self, row: dict[str, Any], tally: SweepTally) -> None:
        self.bar.update(self.task, advance=1, won=self._won(tally))

    def __enter__(self) -> SweepProgress:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.__exit__(None, None, None)


class Interrupts:
    """Ctrl-C counted instead of raised while a sweep runs: the first stops handing out deals,
    the second drops the running ones (`benchmarks.sweep.run`)."""

    def __init__(self) -> None:
        self.count = 0
        self.previous: Any = None

    def __call__(self) -> int:
        return min(self.count, DROP)

    def _hit(self, signum: int, frame: FrameType | None) -> None:
        self.count += 1

    def __enter__(self) -> Interrupts:
        self.previous = signal.signal(signal.SIGINT, self._hit)
        return self

    def __exit__(self, *exc: object) -> None:
        signal.signal(signal.SIGINT, self.previous)


def _budget(node_limit: int | None, time_limit: float | None) -> Budget:
    """The budget of each deal of a run (exit 2 if none or both are given)."""
    if node_limit is None and time_limit is None:
        fail("--time-limit or --node-limit: give the budget of each deal")
    return Budget(node_limit=node_limit, time_limit=time_limit)


def _budget_key(node_limit: int | None, time_limit: float | None) -> str | None:
    """The budget a report or export is narrowed to, as stored (None: any)."""
    if node_limit is None and time_limit is None:
        return None
    return Budget(node_limit=node_limit, time_limit=time_limit).key


def _backend(workers: int | None, dask: str | None, dask_local: int | None,
             deadline: float) -> Backend:
    chosen = [o for o, v in (("--workers", workers), ("--dask", dask),
                             ("--dask-local", dask_local)) if v is not None]
    if len(chosen) > 1:
        fail(f"{' and '.join(chosen)}: choose one backend")
    if dask_local is not None:
        dask_local = capped_at_cores("--dask-local", dask_local)
    if dask is not None or dask_local is not None:
        return DaskCluster(dask, dask_local, deadline)
    workers = available_cores() if workers is None else capped_at_cores(
        "--workers", workers, "the rows do not depend on the number of workers")
    return ProcessPool(workers, deadline)


def _command(**options: Any) -> str:
    """The command that resumes this sweep (options in a fixed order)."""
    words = ["heritage", "sweep", "run"]
    for name, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + name.replace("_", "-")
        words += [flag] if value is True else [flag, str(value)]
    return shlex.join(words)


@sweep_app.command("run")
@domain_errors
def run_command(
    db: DbOption,
    trials: Annotated[str, typer.Option(
        "--trials", metavar="1-6", help="Trials of the Trial Table: a range or list, e.g. 1-6 "
        "or 1,3,5.")] = "1-6",
    hands: Annotated[str, typer.Option(
        "--hands", metavar="1,2,3,4,draw", help="Starting hands: premade 1-4 and draw (draw "
        "10, keep 6), e.g. 1-4,draw.")] = "1,2,3,4",
    seeds: Annotated[str, typer.Option(
        "--seeds", metavar="0-999", help="Seeds of the deals (builder and technology decks): "
        "a range or list.")] = "0-99",
    die_seeds: Annotated[str, typer.Option(
        "--die-seeds", metavar="same|S", help="Seeds of the die rolls: 'same' (each deal's "
        "own seed) or a range or list crossed with --seeds.")] = SAME,
    time_limit: TimeBudget = None,
    node_limit: NodeBudget = None,
    bound: BoundOption = MANY_SOLVES_BOUND,
    workers: Annotated[int | None, typer.Option(
        "--workers", metavar="N", help="Worker processes of the process pool (default: one "
        "per core).")] = None,
    dask: Annotated[str | None, typer.Option(
        "--dask", metavar="tcp://HOST:8786", help="Run on this Dask distributed scheduler "
        "(extra 'cluster'); its workers must have the same heritage installed.")] = None,
    dask_local: Annotated[int | None, typer.Option(
        "--dask-local", metavar="N", help="Run on a Dask LocalCluster of N worker processes on "
        "loopback, dashboard off (extra 'cluster').")] = None,
    deadline: Annotated[float | None, typer.Option(
        "--deadline", metavar="SECONDS", help="Give a deal up (and retry it) after this long "
        "(default: 2 x the time limit + 60 s, or node limit / 1000 + 60 s).")] = None,
    retries: Annotated[int, typer.Option(
        "--retries", metavar="R", help="Times a deal is tried again after its worker is lost, "
        "its deadline passes or it fails.")] = 1,
    json_output: Annotated[bool, typer.Option(
        "--json", help="Print what the run did as JSON (planned, already, solved, won, "
        "unwinnable, unknown, failed, interrupted...).")] = False,
) -> None:
    """Solve every deal of the options, each once, and store one row per deal; the same command
    resumes a sweep cut short (deals already stored are not solved again)."""
    budget = _budget(node_limit, time_limit)
    if deadline is not None and not (deadline > 0 and math.isfinite(deadline)):
        fail(f"--deadline: must be a positive number of seconds, got {deadline}")
    if retries < 0:
        fail(f"--retries: must be 0 or more, got {retries}")
    me = worker_identity()
    sweep = Sweep(trials=check_trials(parse_numbers(trials, "--trials", low=1)),
                  hands=parse_hands(hands), seeds=parse_numbers(seeds, "--seeds"),
                  die_seeds=parse_die_seeds(die_seeds), budget=budget, bound=check_bound(bound),
                  version=me["version"], data_sha256=me["data_sha256"])
    backend = _backend(workers, dask, dask_local, deadline or budget.default_deadline())
    command = _command(trials=trials, hands=hands, seeds=seeds, die_seeds=die_seeds,
                       node_limit=node_limit, time_limit=time_limit, bound=bound, db=db,
                       workers=workers, dask=dask, dask_local=dask_local, deadline=deadline,
                       retries=retries)
    with SweepStore(db) as store, SweepProgress(sweep.count) as progress, Interrupts() as hits:
        tally = run_sweep(
            sweep, store, backend, retries=retries, command=command, interrupts=hits,
            on_start=progress.start, on_row=progress.row,
            on_stopping=lambda n: note(f"stopping: no more deals handed out; waiting for {n} "
                                       "running deal(s) (Ctrl-C again to drop them)"))
    _present(tally, db, command, json_output, retries)


def _present(tally: SweepTally, db: Path, command: str, json_output: bool,
             retries: int) -> None:
    data = tally.as_json()
    if json_output:
        typer.echo(json.dumps({**data, "db": str(db)}, indent=1))
    else:
        o = tally.outcomes
        Output().line(f"sweep: {tally.planned} deals planned; {tally.already} already stored, "
                      f"{tally.solved} solved now; of the {tally.stored} stored: won {o['won']}, "
                      f"unwinnable {o['unwinnable']}, unknown {o['unknown']}; db {db}")
    if tally.failed:
        retried = f"after up to {retries} retr{'y' if retries == 1 else 'ies'}" + (
            ", none once the sweep was stopping" if tally.interrupted else "")
        note(f"{len(tally.failed)} deal(s) failed ({retried}) and are not stored (the same "
             f"command tries them again); first: {tally.failed[0]}")
    if tally.refused is not None:
        fail(tally.refused)
    if not tally.complete:
        if tally.interrupted:
            dropped = f", {tally.dropped} running deal(s) dropped" if tally.dropped else ""
            note(f"interrupted: {tally.stored} of {tally.planned} deals stored in {db} (nothing "
                 f"finished is lost{dropped}); resume with the same command:\n  {command}")
        raise typer.Exit(3)


@sweep_app.command("report")
@domain_errors
def report_command(
    db: DbOption,
    node_limit: Annotated[int | None, typer.Option(
        "--node-limit", metavar="K", help="Report only the deals solved with this node "
        "limit.")] = None,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", metavar="SECONDS", help="Report only the deals solved with this time "
        "limit.")] = None,
    bound: Annotated[str | None, typer.Option(
        "--bound", metavar="{simple,cpsat}", help="Report only the deals solved with this "
        "bound.")] = None,
    json_output: Annotated[bool, typer.Option(
        "--json", help="Print a list of one object per (trial, hand): trial, hand, deals, won, "
        "unwinnable, unknown, rate_low, rate_high, ci_low, ci_high, mean_vp, median_vp, "
        "proven_optimal, seeds (builder decks: fewer than deals when die seeds are crossed, "
        "and the interval is then too narrow), and the setting (budget, bound, version, "
        "data_sha256).")] = False,
    plot: Annotated[Path | None, typer.Option(
        "--plot", metavar="FILE.png", help="Also draw a heat map (trials x hands, share won, "
        "unknown share hatched; extra 'plot': matplotlib).")] = None,
) -> None:
    """Per trial and hand: deals won, proven unwinnable and unknown; the winnable rate with a
    95% Clopper-Pearson interval; the VP of the lines found, and how many were proven optimal."""
    budget = _budget_key(node_limit, time_limit)
    if bound is not None:
        check_bound(bound)
    check_plot(plot)
    with SweepStore(db, create=False) as store:
        rows = store.rows(budget=budget, bound=bound)
    summary = summarize(rows)
    found = settings(summary)
    if plot is not None:
        if len(found) != 1:
            fail(f"--plot: the report holds {len(found)} settings (budget, bound, version); "
                 "choose one with --node-limit, --time-limit or --bound")
        plot_heatmap(summary, plot, setting_title(found[0]))
    if json_output:
        typer.echo(json.dumps(summary, indent=1))
    else:
        out = Output()
        if not summary:
            filtered = " with these filters" if budget or bound else ""
            out.line(f"no deals stored in {db}{filtered}")
        for setting in found:
            part = [s for s in summary if (s["budget"], s["bound"], s["version"],
                                           s["data_sha256"]) == setting]
            if out.rich:
                out.table(setting_title(setting), COLUMNS, table_rows(part), right=COLUMNS[2:])
            else:
                out.line(plain_table(setting_title(setting), table_rows(part)))
            out.line()
        if summary:
            out.line("winnable rate: won / deals, up to (deals - proven unwinnable) / deals while "
                     "unknowns remain; 95% CI: Clopper-Pearson (exact binomial), the lower end "
                     "of won's interval to the upper end of (deals - unwinnable)'s; VP: of the "
                     "lines found; optimal: proven optimal")
            warning = shared_decks(summary)
            if warning is not None:
                out.line(warning)
    if plot is not None:
        note(f"heat map written to {plot}")


@sweep_app.command("export")
@domain_errors
def export_command(
    db: DbOption,
    trial: Annotated[int, typer.Option("--trial", metavar="T", help="The deal's trial.")],
    hand: Annotated[str, typer.Option("--hand", metavar="H", help="The deal's hand (1-4 or "
                                      "draw).")],
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="The deal's seed.")],
    die_seed: Annotated[int | None, typer.Option(
        "--die-seed", metavar="D", help="The deal's die seed (default: --seed).")] = None,
    node_limit: Annotated[int | None, typer.Option(
        "--node-limit", metavar="K", help="The row of this node limit (default: the best row "
        "stored).")] = None,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", metavar="SECONDS", help="The row of this time limit.")] = None,
    bound: Annotated[str | None, typer.Option(
        "--bound", metavar="{simple,cpsat}", help="The row of this bound.")] = None,
    out_file: Annotated[Path | None, typer.Option(
        "--out", metavar="FILE", help="Write the line file here instead of stdout.")] = None,
) -> None:
    """Write the stored line of one deal as a line file (heritage verify takes it)."""
    for option, value in (("--seed", seed), ("--die-seed", die_seed)):
        if value is not None and not 0 <= value <= MAX_SWEEP_SEED:
            fail(f"{option}: must be a whole number from 0 to {MAX_SWEEP_SEED:,} (the sweep "
                 f"database stores signed 64-bit integers), got {value}")
    budget = _budget_key(node_limit, time_limit)
    if bound is not None:
        check_bound(bound)
    with SweepStore(db, create=False) as store:
        row = pick_row(store, (trial, hand, seed, seed if die_seed is None else die_seed),
                       budget, bound)
    text = dumps(line_file(row))
    if row["status"] != "won":
        note(f"note: this deal is {row['status']} ({row['solve_status']}, {row['budget']}): the "
             "line is the best one found, and it misses a goal")
    if out_file is None:
        typer.echo(text, nl=False)
    else:
        write_out(out_file, text, "line")
