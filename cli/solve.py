"""``heritage solve`` and ``heritage check``: the best goal-meeting line of a deal, and whether a
trial can be won at all.

Both build the deal as ``heritage play`` does (trial, hand, seeds, or ``--from`` a position
file), run `solver.solve.solve` and print the line turn by turn with the score sheet and the
goals, or (``--json``) the line file plus ``status``, ``vp``, ``bound``, ``gap``, ``nodes``,
``seconds`` (and ``proven_from_turn`` when the polish proved the line's play from the start of
that turn best for the position it reaches there: `solver.polish`; and ``solved_from``, the
turn and number of decisions of a ``--from`` position with decisions taken: its status and bound
speak of the lines from there, not of the deal). Exit codes, as planners
and SAT solvers use them: 0 a goal-meeting line was found (OPTIMAL or FEASIBLE), 1 proven
INFEASIBLE, 3 UNKNOWN, 2 usage or input error.

While the search runs, a live display on stderr (when stderr is a terminal) shows the phase
(bound, heuristic, polish turn T, exact), the elapsed time, nodes, nodes per second, the best
VP with all goals met, the bound and the gap. Ctrl-C stops the search and prints the best line
found so far.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.live import Live
from rich.table import Table

from cli.common import (
    Output,
    available_cores,
    capped_at_cores,
    check_out,
    deal_setup,
    domain_errors,
    fail,
    line_text,
    note,
    refuse_deal_beside_from,
    write_out,
)
from cli.lineplot import check_plot, draw_line
from cli.lineview import print_game
from cli.options import (
    SOLVE_BOUND,
    BoundOption,
    CardsOption,
    ChestsOption,
    DealOptions,
    DeckOption,
    DiceOption,
    DieSeedOption,
    FromOption,
    HandOption,
    NoBaseOption,
    NodeLimitOption,
    NotationOption,
    PlotOption,
    SeedOption,
    ShowDealOption,
    SolveOptions,
    TechDeck1Option,
    TechDeck2Option,
    TimeLimitOption,
    TimeSpaceOption,
    TrialOption,
    TrialsOption,
    TTMemoryOption,
    ViewOptions,
    WorkersOption,
)
from puzzles.lines import load_position_file, verify_line
from solver.bounds.bound import BOUND_NAMES
from solver.engine.describe import TurnReport, describe_line
from solver.engine.goal_check import goals_json
from solver.engine.record import GameRecord
from solver.search.status import Status
from solver.search.tt import DEFAULT_MEMORY_MB
from solver.solve import MAX_NODES, MAX_SECONDS, Progress, SolveConfig, SolveResult, solve


def _root(opts: SolveOptions) -> GameRecord:
    """The position to solve from: a fresh deal, or the position of ``--from``."""
    if opts.from_file is not None:
        return load_position_file(opts.from_file)
    book, setup = deal_setup(opts.deal)
    return GameRecord.new(setup, book)


#: The most processes a solve may ask for (beyond, a mistake rather than a machine).
MAX_WORKERS = 256


def _config(opts: SolveOptions, first: bool) -> SolveConfig:
    """The solve's budget and switches, or exit 2 naming the bad option. Under a time limit,
    more workers than cores are capped at the cores, with a note (they would only share the
    cores, each with a sliver of the time). Under a node limit they are not: the line depends on
    the number of workers (each plays its share of the nodes with its own seed), so W workers
    give the same line on any machine, only slower on fewer cores (a note says so)."""
    time_limit, node_limit = opts.time_limit, opts.node_limit
    refuse_deal_beside_from(opts.deal, opts.from_file)
    if time_limit is not None and node_limit is not None:
        fail("--time-limit and --node-limit: give one budget, not both")
    if time_limit is not None and not 0 < time_limit <= MAX_SECONDS:
        fail(f"--time-limit: must be a number of seconds above 0 and at most {MAX_SECONDS:g}, "
             f"got {time_limit}")
    if node_limit is not None and not 1 <= node_limit <= MAX_NODES:
        fail(f"--node-limit: must be a whole number from 1 to {MAX_NODES:,}, got {node_limit}")
    if opts.workers < 1:
        fail(f"--workers: must be at least 1, got {opts.workers}")
    if opts.bound not in BOUND_NAMES:
        fail(f"--bound: must be one of {', '.join(BOUND_NAMES)}, got {opts.bound!r}")
    if opts.workers > MAX_WORKERS:
        fail(f"--workers: must be at most {MAX_WORKERS}, got {opts.workers}")
    if time_limit is None and node_limit is None:
        node_limit = 200_000
    if time_limit is not None:
        workers = capped_at_cores("--workers", opts.workers)
    else:
        workers = opts.workers
        cores = available_cores()
        if workers > cores:
            note(f"note: --workers {workers} on {cores} core{'s' if cores > 1 else ''}: the "
                 f"processes share them (slower), and the line is the one {workers} workers "
                 "find on any machine (a node-limited result depends on the number of workers)")
    return SolveConfig(time_limit=time_limit, node_limit=node_limit, workers=workers,
                       first_solution=first, bound=opts.bound, tt_memory_mb=opts.tt_memory)


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
        finite = math.isfinite(p.best_value) and math.isfinite(p.bound)
        gap = p.bound - p.best_value if finite else None
        for k, v in (("phase", p.phase), ("elapsed", f"{p.elapsed:.1f} s"),
                     ("nodes", f"{p.nodes:,}"), ("nodes/s", f"{rate:,.0f}"),
                     ("best VP (all goals met)", _fmt(p.best_value)),
                     ("best VP (a goal missed)", _fmt(p.best_failed)),
                     ("upper bound", _fmt(p.bound)), ("gap", _fmt(gap)),
                     ("tail proven from turn", "-" if p.proven_from_turn is None
                      else str(p.proven_from_turn))):
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
    """The line file of the best line plus the solve's figures. When no line meets every goal
    (UNKNOWN, INFEASIBLE) the line is the best failed one, labelled ``goals_met: false``: a
    legal game that `heritage verify` accepts as such (a failed trial). Without any finished
    line (interrupted at once) it is the position solved from, unfinished."""
    if res.value is not None:
        data = _finish(root, res.line).to_json()
    elif res.failed_line:
        data = _finish(root, res.failed_line).to_json()
    else:
        data = root.to_json()
        data["score"] = None
        data["goals"] = goals_json(root.state)
    if data["score"] is not None:
        data["goals_met"] = res.value is not None
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
    if res.proven_from_turn is not None:
        data["proven_from_turn"] = res.proven_from_turn
    taken = decisions_taken(root)
    if taken:
        data["solved_from"] = {"turn": root.state.turn, "decisions": taken}
    return data


def decisions_taken(root: GameRecord) -> int:
    """How many decisions the position solved from has taken (0: the deal's start)."""
    return sum(len(turn) for turn in root.line)


def solved_from_words(root: GameRecord) -> str:
    """`` from the position solved from (turn T, after N decisions)``, or "" from the deal's
    start: what a status or an answer speaks of."""
    taken = decisions_taken(root)
    return (f" from the position solved from (turn {root.state.turn}, after {taken} decisions)"
            if taken else "")


def self_check(data: dict[str, Any]) -> str | None:
    """The solver's own check of a finished result: its line file verifies (`puzzles.lines.
    verify_line`: legal, every claim true; a goal-meeting status needs every goal met).
    Returns what is wrong, or None."""
    if data.get("score") is None:
        return None  # no finished line (interrupted at once): nothing to replay
    verdict = verify_line(data)
    if verdict.error is not None:
        return verdict.error
    if data["status"] in ("OPTIMAL", "FEASIBLE") and verdict.claims.goals_met is False:
        return "its line misses a goal"
    return None


def _print_line(out: Output, record: GameRecord, title: str, view: ViewOptions) -> None:
    """The line for a player at the table (`cli.lineview`), and its picture (``--plot``)."""
    reports = print_game(out, record, title, notation=view.notation, deal=view.deal)
    _plot(record, reports, view)


def _plot(record: GameRecord, reports: list[TurnReport], view: ViewOptions) -> None:
    if view.plot is None:
        return
    draw_line(reports, record.book, view.plot)
    note(f"picture written to {view.plot}")


def show_result(root: GameRecord, res: SolveResult, view: ViewOptions, json_output: bool,
                out_file: Path | None) -> None:
    """What ``solve`` prints: the JSON result (``--json``, ``--out``) or the line in words with
    its status; the picture of the line (``--plot``) either way."""
    data = result_json(root, res)
    line = res.line if res.value is not None else res.failed_line
    if json_output:
        typer.echo(line_text(data, None), nl=False)
        if line:
            record = _finish(root, line)
            _plot(record, describe_line(record.setup, record.book, record.line), view)
    else:
        out = Output()
        if res.value is not None:
            _print_line(out, _finish(root, res.line), "Best line (all goals met)", view)
        elif res.failed_line:
            _print_line(out, _finish(root, res.failed_line),
                        "FAILED TRIAL: best line found, but it misses a goal", view)
        out.line()
        _status_lines(out, res, root)
    write_out(out_file, line_text(data, out_file), "result")  # after the result is shown
    problem = self_check(data)
    if problem is not None:
        fail(f"the solver's own check failed: its result does not verify: {problem}",
             Status.UNKNOWN.exit_code)


def _status_lines(out: Output, res: SolveResult, root: GameRecord) -> None:
    """The status in words; from a position with decisions taken (``--from``), the proofs
    speak of the lines from there (the decisions before it are given, not chosen)."""
    where = solved_from_words(root)
    words = {
        Status.OPTIMAL: f"OPTIMAL: proven best line{where}",
        Status.FEASIBLE: f"FEASIBLE: best line found{where}, not proven optimal",
        Status.INFEASIBLE: (f"INFEASIBLE: proven, no line{where} meets every goal"
                            + ("" if where else " with this deal")),
        Status.UNKNOWN: f"UNKNOWN: no line{where} meeting every goal was found within the budget",
    }
    out.heading(words[res.status] + (" (interrupted)" if res.interrupted else ""))
    out.line(f"VP {_fmt(res.value)}  bound {_fmt(res.bound)}  gap {_fmt(res.gap)}  "
             f"nodes {res.nodes:,}  time {res.seconds:.1f} s  "
             f"time to best {res.time_to_best:.1f} s")
    if res.proven_from_turn is not None:
        out.line(f"The line's play from the start of turn {res.proven_from_turn} on is proven "
                 "best for the position it reaches there (not the line from turn 1).")


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
    bound: BoundOption = SOLVE_BOUND,
    tt_memory: TTMemoryOption = DEFAULT_MEMORY_MB,
    json_output: Annotated[bool, typer.Option("--json", help="Print the line file with status, "
                                              "vp, bound, gap, nodes and seconds.")] = False,
    out_file: Annotated[Path | None, typer.Option("--out", metavar="FILE",
                                                  help="Also write the JSON result here.")] = None,
    deck: DeckOption = None,
    dice: DiceOption = None,
    time_space: TimeSpaceOption = 4,
    tech_deck_1: TechDeck1Option = None,
    tech_deck_2: TechDeck2Option = None,
    no_base: NoBaseOption = False,
    notation: NotationOption = False,
    show_deal: ShowDealOption = False,
    plot: PlotOption = None,
) -> None:
    """Find the line that meets every goal chest and scores the most VP; prove it where possible."""
    opts = SolveOptions(DealOptions(hand=hand, seed=seed, die_seed=die_seed, trial=trial,
                                    cards=cards, chests=chests, trials=trials, deck=deck,
                                    dice=dice, time_space=time_space, tech_deck_1=tech_deck_1,
                                    tech_deck_2=tech_deck_2, no_base=no_base),
                        from_file, time_limit, node_limit, workers, bound, tt_memory)
    solve_position(lambda: _root(opts), opts, ViewOptions(notation, show_deal, plot),
                   json_output, out_file)


def solve_position(root_of: Callable[[], GameRecord], opts: SolveOptions, view: ViewOptions,
                   json_output: bool, out_file: Path | None) -> NoReturn:
    """Solve from the position `root_of` builds (after the budget options are checked), show
    the result and exit with the status's code (``solve``, ``campaign solve``)."""
    cfg = _config(opts, first=False)
    check_plot(view.plot)
    ignored = [o for o, on in (("--notation", view.notation), ("--deal", view.deal)) if on]
    if json_output and ignored:
        note(f"note: {' and '.join(ignored)}: ignored with --json (they shape the printed "
             "line, and --json prints none)")
    check_out(out_file)  # before the search: a result is never lost to a bad --out
    root = root_of()
    res = _run(root, cfg)
    show_result(root, res, view, json_output, out_file)
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
    bound: BoundOption = SOLVE_BOUND,
    tt_memory: TTMemoryOption = DEFAULT_MEMORY_MB,
    json_output: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
    deck: DeckOption = None,
    dice: DiceOption = None,
    time_space: TimeSpaceOption = 4,
    tech_deck_1: TechDeck1Option = None,
    tech_deck_2: TechDeck2Option = None,
    no_base: NoBaseOption = False,
    notation: NotationOption = False,
    show_deal: ShowDealOption = False,
) -> None:
    """Is the trial winnable with this deal? yes (with a witness line) / no (proven) / unknown."""
    opts = SolveOptions(DealOptions(hand=hand, seed=seed, die_seed=die_seed, trial=trial,
                                    cards=cards, chests=chests, trials=trials, deck=deck,
                                    dice=dice, time_space=time_space, tech_deck_1=tech_deck_1,
                                    tech_deck_2=tech_deck_2, no_base=no_base),
                        from_file, time_limit, node_limit, workers, bound, tt_memory)
    cfg = _config(opts, first=True)
    root = _root(opts)
    if not root.state.goal_chests and not root.setup.revealed:
        fail("check: this deal has no goal chest, so no trial to win (every line would meet "
             "its goals): give --trial N, or --from a position of a trial or a campaign game")
    res = _run(root, cfg)
    answer = {Status.OPTIMAL: "yes", Status.FEASIBLE: "yes", Status.INFEASIBLE: "no",
              Status.UNKNOWN: "unknown"}[res.status]
    where = solved_from_words(root)
    if res.status == Status.INFEASIBLE:
        how = ("the exhaustive search" if bound == "simple" else
               "the exhaustive search, or the constraint layer's relaxation")
        reason = f"proven ({how}): no line{where} meets every goal"
    elif res.status == Status.UNKNOWN:
        reason = (f"no goal-meeting line{where} found within the budget, and no proof that none "
                  "exists")
    else:
        reason = f"a witness line{where} meets every goal"
    data = result_json(root, res)
    if json_output:
        data.update({"winnable": answer, "reason": reason})
        typer.echo(line_text(data, None), nl=False)
    else:
        out = Output()
        out.heading(f"Winnable: {answer} ({reason})")
        if res.value is not None:
            _print_line(out, _finish(root, res.line), "Witness line",
                        ViewOptions(notation, show_deal))
    problem = self_check(data)
    if problem is not None:
        fail(f"the solver's own check failed: its witness does not verify: {problem}",
             Status.UNKNOWN.exit_code)
    raise typer.Exit(res.status.exit_code)
