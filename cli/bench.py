"""``heritage bench``: every search method and three baselines, same budget, same instances.

A thin layer over `benchmarks.run`: it resolves the options, shows a progress bar on stderr,
then prints the summary table (Rich on a terminal, plain text otherwise), the engine throughput,
and the files written (``results.jsonl``, ``summary.json``, ``summary.txt``, the plots).
``--smoke`` is the CI run of about a minute: the suite's ``smoke`` subset at its short budget.

Exit codes: 0 the bench ran and every check passed; 1 a check failed (a line that does not
replay, or a result that contradicts a proven optimum); 2 bad input.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from benchmarks.run import (
    DEFAULT_BUDGET,
    DEFAULT_ENGINE_GAMES,
    BenchConfig,
    BenchReport,
    engine_line,
    instance_rows,
    resummarize,
    run_bench,
    summary_rows,
)
from benchmarks.suite import DEFAULT_SUITE, load_suite
from cli.common import Output, domain_errors, fail, note
from cli.options import check_seed

#: The longest budget per instance and solver (a day).
MAX_BUDGET = 86_400.0


def plain_table(title: str, columns: list[str], rows: list[list[str]]) -> str:
    """A table as aligned plain text (for ``summary.txt``)."""
    widths = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(columns)]
    lines = [title] if title else []
    for cells in [columns, *rows]:
        lines.append("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip())
    return "\n".join(lines)


class _Bar:
    """The progress bar on stderr (drawn only when stderr is a terminal)."""

    def __init__(self) -> None:
        console = Console(stderr=True)
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                 MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                                 transient=True, disable=not console.is_terminal)
        self.task = self.progress.add_task("bench", total=None)

    def step(self, label: str, done: int, total: int) -> None:
        self.progress.update(self.task, description=label, completed=done, total=total)

    def __enter__(self) -> _Bar:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(None, None, None)


@domain_errors
def bench_command(
    smoke: Annotated[bool, typer.Option("--smoke", help="The CI run (about a minute): the suite's "
                                        "smoke subset at its short budget.")] = False,
    budget: Annotated[list[float] | None, typer.Option(
        "--budget", metavar="SECONDS", help="Seconds per instance and solver; repeat for several "
        "passes (default 10; --smoke: the suite's smoke budget).")] = None,
    solver: Annotated[list[str] | None, typer.Option(
        "--solver", metavar="NAME", help="Run only this solver (repeatable): solve, nrpa, exact, "
        "random, greedy, mcts (shaped reward: goals first, VP second), mcts-binary (VP/100, 0 for "
        "a missed goal). Default: all (mcts and mcts-binary only with open-spiel "
        "installed).")] = None,
    subset: Annotated[str | None, typer.Option(
        "--subset", metavar="NAME", help="A named subset of the suite: smoke, core6.")] = None,
    instance: Annotated[list[str] | None, typer.Option(
        "--instance", metavar="ID", help="An instance id, e.g. t1-h2-s0 (repeatable).")] = None,
    seed: Annotated[int, typer.Option("--seed", metavar="SEED", callback=check_seed,
                                      help="Seed of every solver's randomness.")] = 0,
    engine_games: Annotated[int | None, typer.Option(
        "--engine-games", metavar="N", min=0, max=1_000_000, help="Random games of the engine "
        "throughput figure (0: skip; default 300, --smoke 100).")] = None,
    out: Annotated[Path, typer.Option("--out", metavar="DIR", help="Folder for the results "
                                      "and plots.")] = Path("bench-results"),
    no_plots: Annotated[bool, typer.Option("--no-plots",
                                           help="Do not draw the PNG plots.")] = False,
    suite: Annotated[Path | None, typer.Option("--suite", metavar="FILE", help="A suite file "
                                               "(default: puzzles/data/bench_suite.json).")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print summary.json on stdout "
                                              "instead of the tables.")] = False,
    summarize: Annotated[bool, typer.Option(
        "--summarize", help="Run nothing: summarize DIR/results.jsonl of --out again (tables, "
        "summary files, plots), e.g. of a run cut short.")] = False,
) -> None:
    """Benchmark every solver on the fixed suite; write JSON lines, a summary and plots."""
    if out.exists() and not out.is_dir():
        fail(f"--out: {out} is a file; name a folder for the results")
    if any(b > MAX_BUDGET for b in budget or ()):
        fail(f"--budget: at most {MAX_BUDGET:g} seconds per instance, got {max(budget or ())}")
    if summarize:
        _present(resummarize(out, plots=not no_plots), out, json_output)
    suite_path = suite or DEFAULT_SUITE
    loaded = load_suite(suite_path)
    if smoke and subset is None and not instance:
        subset = "smoke"
    budgets = tuple(budget) if budget else ((loaded.smoke_budget,) if smoke else (DEFAULT_BUDGET,))
    games = engine_games if engine_games is not None else (
        loaded.smoke_engine_games if smoke else DEFAULT_ENGINE_GAMES)
    try:
        cfg = BenchConfig(budgets=budgets, solvers=tuple(solver) if solver else None,
                          subset=subset, instances=tuple(instance or ()), seed=seed,
                          engine_games=games, out=out, plots=not no_plots, suite=suite_path)
    except ValueError as exc:
        fail(str(exc).replace("budgets", "--budget")
             .replace("unknown solver", "--solver: unknown solver")
             .replace("engine games", "--engine-games"))
    try:
        with _Bar() as bar:
            report = run_bench(cfg, on_step=bar.step)
    except OSError as exc:
        fail(f"--out: cannot write to {out} ({exc.strerror})")
    _present(report, out, json_output)


def _present(report: BenchReport, out: Path, json_output: bool) -> NoReturn:
    """Write ``summary.txt``, print the tables (or the JSON), notes and failed checks, exit."""
    summary = report.summary
    budgets, solvers = summary["config"]["budgets"], summary["config"]["solvers"]
    columns, rows = summary_rows(summary)
    icolumns, irows = instance_rows(summary, budgets, solvers)
    title = f"heritage bench: {len(summary['config']['instances'])} instances, " \
            f"budget {', '.join(f'{b:g} s' for b in budgets)} per instance and solver"
    legend = ("won: trials won (every goal met) / instances; mean VP: over the instances won; "
              "optimal: proven optimal; ratio: mean max(0, VP) / best known VP (0 if not won); "
              "best s / used s: mean seconds to the best line / of the run")
    text = "\n\n".join([plain_table(title, columns, rows), legend, engine_line(summary["engine"]),
                        plain_table("VP per instance (* proven optimal, - no goal-meeting line)",
                                    icolumns, irows),
                        "machine: " + json.dumps(summary["machine"])]) + "\n"
    (out / "summary.txt").write_text(text, encoding="utf-8")
    for n in report.notes:
        note(f"note: {n}")
    if json_output:
        typer.echo(json.dumps(summary, indent=1))
    else:
        output = Output()
        if output.rich:
            table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                          collapse_padding=True)
            for k, col in enumerate(columns):
                table.add_column(col, justify="right" if 2 <= k <= 8 else "left", no_wrap=True)
            for row in rows:
                table.add_row(*row)
            output.console.print(table)
        else:
            output.table(title, columns, rows, right=columns[2:9])
        output.line(engine_line(summary["engine"]))
        files = [*(str(p) for p in report.files), str(out / "summary.txt")]
        output.line("written: " + ", ".join(files))
    for f in report.failures:
        note(f"CHECK FAILED: {f}")
    raise typer.Exit(1 if report.failures else 0)
