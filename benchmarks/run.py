"""The bench runner behind ``heritage bench``: every contender, same budget, same instances.

One run takes a suite selection (`benchmarks.suite`), a list of budgets (seconds per instance)
and a list of contenders (`CONTENDERS`: our methods ``solve``, ``nrpa``, ``exact`` and the
baselines ``random``, ``greedy``, ``mcts``, ``mcts-binary`` of `benchmarks.baselines`), and for
each budget, instance and contender runs the contender from the instance's root on one core,
one after the other (so the runs do not compete for the 2 cores of a small machine).

Outputs, in the output folder (default ``bench-results/``):

* ``results.jsonl``: one JSON object per (instance, contender, budget), written as it finishes:
  ``status``, ``vp``, ``goals_met``, ``bound``, ``time_to_best``, ``nodes``, ``seconds``,
  ``trace`` (the anytime points), ``line`` (the best line in notation), ``check``...
* ``summary.json`` and ``summary.txt``: the summary table per budget and contender (mean VP over
  the instances won, trials won, proven optimal, mean ratio to the best known VP), the VP of
  every instance, the engine throughput (`benchmarks.engine`) and the machine;
* ``anytime-{budget}s.png`` and ``profile-{budget}s.png`` (`benchmarks.plots`, needs matplotlib).

Checks, on every result: its line replays on the engine from the root to a finished game that
meets every goal with the VP claimed; on a saved position, no contender beats the proven
optimum and a contender that says OPTIMAL hits it. A failed check is reported and makes the
run fail (exit code 1 of ``heritage bench``); the result then counts for nothing in the summary
(not won, not proven, no VP, not in the best known). The proofs are also checked against each
other (`cross_check`): an OPTIMAL below, or an INFEASIBLE beside, a goal-meeting line another
result of the run found on the same instance fails the run too.

Definitions of the summary (per budget and contender):

* *best known* of an instance: the most VP with every goal met over every contender and budget
  of the run, and the proven optimum of a saved position;
* *trials won*: instances where the contender found a line meeting every goal;
* *mean VP*: over the instances it won (so compare it together with trials won);
* *ratio*: mean over the instances whose best known VP is positive of ``max(0, VP) / best
  known``, counting 0 for an instance it did not win;
* *proven optimal*: instances where it proved its line optimal (status OPTIMAL);
* *time to best*: mean over the instances won of the seconds to its best line; *time used*: mean
  wall-clock seconds of its runs (a run may end early, when a proof completes or MCTS's game
  ends, or late: the exact search looks at the clock every 64 nodes).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from benchmarks.baselines import BASELINES, OPENSPIEL_BASELINES, Runner, RunResult
from benchmarks.engine import run as engine_run
from benchmarks.plots import plot_all
from benchmarks.suite import DEFAULT_SUITE, Instance, SuiteError, load_suite
from puzzles.jsonfile import parse_json, read_text
from puzzles.openspiel_game import OpenSpielUnavailable, load_pyspiel
from solver.engine.errors import HeritageError, quote
from solver.engine.state import GameState
from solver.game import HeritageGame
from solver.search.exhaustive import SearchConfig, search
from solver.search.nrpa import NRPA, Incumbent
from solver.search.status import Status
from solver.search.tt import DEFAULT_MEMORY_MB
from solver.solve import Progress, SolveConfig, nrpa_config, solve

DEFAULT_OUT = Path("bench-results")
DEFAULT_BUDGET = 10.0
DEFAULT_ENGINE_GAMES = 300


# ------------------------------------------------------------------ our methods


def run_solve(root: GameState, budget: float, seed: int) -> RunResult:
    """`solver.solve.solve` with a time limit, one worker: NRPA then the exact search."""
    trace: list[tuple[float, float]] = []

    def progress(p: Progress) -> None:
        if p.best_value > -math.inf and (not trace or p.best_value > trace[-1][1]):
            trace.append((p.elapsed, p.best_value))

    res = solve(root, SolveConfig(time_limit=budget, node_limit=None, workers=1, seed=seed),
                on_progress=progress)
    if res.value is not None and (not trace or res.value > trace[-1][1]):
        trace.append((res.time_to_best, res.value))
    bound = None if math.isinf(res.bound) else res.bound
    return RunResult(
        solver="solve", status=res.status, vp=res.value, line=list(res.line), bound=bound,
        time_to_best=res.time_to_best if res.value is not None else None, nodes=res.nodes,
        seconds=res.seconds, trace=trace, failed_vp=res.failed_value)


def run_nrpa(root: GameState, budget: float, seed: int) -> RunResult:
    """NRPA alone (`solver.search.nrpa`, the solver's default level and iterations)."""
    trace: list[tuple[float, float]] = []

    def improve(inc: Incumbent) -> None:
        if inc.found and (not trace or inc.value > trace[-1][1]):
            trace.append((inc.found_at, inc.value))

    start = time.monotonic()
    cfg = nrpa_config(SolveConfig(seed=seed), 0, None, budget)  # the solve's first worker
    inc = NRPA(root, cfg, on_improve=improve, game=HeritageGame()).run()
    found = inc.found
    return RunResult(
        solver="nrpa", status=Status.FEASIBLE if found else Status.UNKNOWN,
        vp=inc.value if found else None, line=list(inc.line), bound=None,
        time_to_best=inc.found_at if found else None, nodes=inc.nodes,
        seconds=time.monotonic() - start, trace=trace,
        failed_vp=None if found or not inc.failed_line else inc.failed_value,
        extra={"playouts": inc.playouts})


def run_exact(root: GameState, budget: float, seed: int) -> RunResult:
    """The exact branch and bound alone, with the dominance rules and no incumbent; a complete
    search proves its line OPTIMAL (or the deal INFEASIBLE). No anytime points: the search
    reports its line when it stops."""
    start = time.monotonic()
    game = HeritageGame()
    res = search(root, SearchConfig(max_seconds=budget, tt_memory_mb=DEFAULT_MEMORY_MB),
                 order=game.order(root, []), game=game)
    seconds = time.monotonic() - start
    if res.status == Status.OPTIMAL:
        bound: float | None = res.value
    elif res.status == Status.INFEASIBLE:
        bound = None
    else:
        bound = HeritageGame().upper_bound(root)
    return RunResult(
        solver="exact", status=res.status, vp=res.value, line=list(res.line), bound=bound,
        time_to_best=None, nodes=res.nodes, seconds=seconds,
        trace=[] if res.value is None else [(seconds, res.value)],
        extra={"tt_hits": res.tt_hits})


#: Every contender by name, in the order of the tables and plots.
CONTENDERS: dict[str, Runner] = {"solve": run_solve, "nrpa": run_nrpa, "exact": run_exact,
                                 **BASELINES}


def available_contenders() -> tuple[list[str], dict[str, str]]:
    """The contenders this installation can run, and why the others cannot."""
    missing: dict[str, str] = {}
    try:
        load_pyspiel()
    except OpenSpielUnavailable:
        for name in OPENSPIEL_BASELINES:
            missing[name] = "open-spiel is not installed (pip install 'heritage[bench]')"
    return [n for n in CONTENDERS if n not in missing], missing


# ------------------------------------------------------------------ configuration


class BenchError(HeritageError, ValueError):
    """A bench that cannot run as asked (a contender this installation cannot run)."""


@dataclass(frozen=True)
class BenchConfig:
    """One bench run (``heritage bench`` options).

    :param budgets: seconds per instance and contender; each budget is a full pass.
    :param solvers: contenders to run (None: every available one).
    :param subset: a named subset of the suite (``smoke``, ``core6``), or None.
    :param instances: explicit instance ids (added to the subset; none and no subset: all).
    :param seed: seed of every contender's randomness.
    :param engine_games: random games of the engine throughput figure (0: skip it).
    :param plots: draw the PNG plots (needs matplotlib).
    """

    budgets: tuple[float, ...] = (DEFAULT_BUDGET,)
    solvers: tuple[str, ...] | None = None
    subset: str | None = None
    instances: tuple[str, ...] = ()
    seed: int = 0
    engine_games: int = DEFAULT_ENGINE_GAMES
    out: Path = DEFAULT_OUT
    plots: bool = True
    suite: Path = DEFAULT_SUITE

    def __post_init__(self) -> None:
        if not self.budgets or any(not (b > 0 and math.isfinite(b)) for b in self.budgets):
            raise ValueError(
                f"budgets must be positive numbers of seconds, got {list(self.budgets)}")
        if self.engine_games < 0:
            raise ValueError(f"engine games must be 0 or more, got {self.engine_games}")
        unknown = [s for s in self.solvers or () if s not in CONTENDERS]
        if unknown:
            raise ValueError(f"unknown solver {unknown[0]!r} (one of {', '.join(CONTENDERS)})")


@dataclass
class BenchReport:
    """The outcome of a run: the records, the summary, the failed checks, the files."""

    records: list[dict[str, Any]]
    summary: dict[str, Any]
    failures: list[str]
    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# ------------------------------------------------------------------ one run


def check(inst: Instance, root: GameState, res: RunResult) -> str:
    """``"ok"`` or what is wrong with a result (module docstring: checks)."""
    if res.vp is not None:
        st = root.clone()
        try:
            for a in res.line:
                st.apply(a)
        except ValueError as exc:
            return f"its line does not replay: {exc}"
        if not st.is_terminal():
            return "its line does not finish the game"
        if not st.feasible():
            return "its line misses a goal"
        if st.value() != res.vp:
            return f"its line scores {st.value():g} VP, not the {res.vp:g} claimed"
    if inst.optimum is not None:
        if res.vp is not None and res.vp > inst.optimum:
            return f"{res.vp:g} VP beats the proven optimum {inst.optimum:g}"
        if res.status == Status.OPTIMAL and res.vp != inst.optimum:
            return f"claims OPTIMAL at {res.vp:g} VP, the proven optimum is {inst.optimum:g}"
        if res.status == Status.INFEASIBLE:
            return f"claims INFEASIBLE, the proven optimum is {inst.optimum:g}"
    return "ok"


def record_of(inst: Instance, root: GameState, budget: float, res: RunResult,
              verdict: str) -> dict[str, Any]:
    """The JSON line of one result."""
    notation: list[str] = []
    st = root.clone()
    if verdict == "ok":
        for a in res.line:
            notation.append(st.action_to_string(a))
            st.apply(a)

    def r(x: float | None, nd: int = 3) -> float | None:
        return None if x is None or math.isinf(x) else round(x, nd)

    return {
        "instance": inst.id, "kind": inst.kind, "trial": inst.trial, "hand": inst.hand,
        "seed": inst.seed, "solver": res.solver, "budget": budget,
        "status": res.status.value, "vp": None if res.vp is None else int(res.vp),
        "goals_met": res.goals_met, "bound": r(res.bound, 1), "time_to_best": r(res.time_to_best),
        "nodes": res.nodes, "seconds": r(res.seconds),
        "failed_vp": None if res.failed_vp is None else int(res.failed_vp),
        "known_optimum": inst.optimum, "check": verdict,
        "trace": [[round(t, 3), int(v)] for t, v in res.trace],
        "line": notation, "extra": res.extra,
    }


def _machine() -> dict[str, Any]:
    info: dict[str, Any] = {"python": platform.python_version(), "platform": platform.platform(),
                            "cpus": os.cpu_count(), "date": time.strftime("%Y-%m-%d %H:%M:%S"),
                            "load_average": [round(x, 2) for x in os.getloadavg()]}
    with contextlib.suppress(PackageNotFoundError):  # not installed: leave it out
        info["open_spiel"] = version("open_spiel")
    return info


def run_bench(cfg: BenchConfig,
              on_step: Callable[[str, int, int], None] | None = None) -> BenchReport:
    """Run the bench of `cfg`, writing its files; `on_step(label, done, total)` is called
    before each run and at the end (for a progress bar).

    :raises SuiteError: the suite or the selection is bad.
    :raises BenchError: a contender is not available."""
    suite = load_suite(cfg.suite)
    chosen = suite.select(cfg.subset, cfg.instances)
    avail, missing = available_contenders()
    notes: list[str] = []
    if cfg.solvers is None:
        solvers = avail
        notes.extend(f"{name} skipped: {why}" for name, why in missing.items())
    else:
        bad = [s for s in cfg.solvers if s in missing]
        if bad:
            raise BenchError(f"--solver {bad[0]}: {missing[bad[0]]}")
        solvers = list(cfg.solvers)
    load_start = [round(x, 2) for x in os.getloadavg()]
    cfg.out.mkdir(parents=True, exist_ok=True)
    results_path = cfg.out / "results.jsonl"
    engine: dict[str, Any] | None = None
    if cfg.engine_games:
        if on_step is not None:
            on_step(f"engine throughput ({cfg.engine_games} random games)", 0, 1)
        engine = dict(engine_run(cfg.engine_games, cfg.seed))
    roots = {inst.id: inst.root() for inst in chosen}
    total = len(cfg.budgets) * len(chosen) * len(solvers)
    records: list[dict[str, Any]] = []
    done = 0
    with results_path.open("w", encoding="utf-8") as out:
        for budget in cfg.budgets:
            for inst in chosen:
                for name in solvers:
                    if on_step is not None:
                        on_step(f"{budget:g} s  {inst.id}  {name}", done, total)
                    root = roots[inst.id]
                    res = CONTENDERS[name](root.clone(), budget, cfg.seed)
                    verdict = check(inst, root, res)
                    rec = record_of(inst, root, budget, res, verdict)
                    records.append(rec)
                    out.write(json.dumps(rec, ensure_ascii=False) + "\n")
                    out.flush()
                    done += 1
    if on_step is not None:
        on_step("summary", done, total)
    config = {"budgets": list(cfg.budgets), "solvers": solvers, "subset": cfg.subset,
              "instances": [i.id for i in chosen], "seed": cfg.seed, "suite": str(cfg.suite)}
    machine = {**_machine(), "load_average_at_start": load_start}
    return finish(records, chosen, config, engine, machine, cfg.out, cfg.plots, notes)


def finish(records: list[dict[str, Any]], instances: Sequence[Instance], config: dict[str, Any],
           engine: dict[str, Any] | None, machine: dict[str, Any], out: Path, plots: bool,
           notes: list[str]) -> BenchReport:
    """Summarize `records`, draw the plots and write ``summary.json``."""
    budgets, solvers = config["budgets"], config["solvers"]
    summary = summarize(records, instances, budgets, solvers)
    failures = [f"{r['instance']} {r['solver']} {r['budget']:g} s: {r['check']}"
                for r in records if r["check"] != "ok"] + cross_check(records)
    summary.update({"engine": engine, "machine": machine, "config": config, "failures": failures})
    files = [out / "results.jsonl"]
    if plots:
        try:
            files.extend(plot_all(records, summary["best_known"], budgets, solvers, out))
        except ImportError:
            notes.append("plots skipped: matplotlib is not installed "
                         "(pip install 'heritage[bench]')")
    summary["plots"] = [p.name for p in files if p.suffix == ".png"]
    summary["notes"] = notes
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    files.append(out / "summary.json")
    return BenchReport(records, summary, failures, files, notes)


def cross_check(records: Sequence[dict[str, Any]]) -> list[str]:
    """The proofs of the run against its lines: per instance, a result claiming OPTIMAL below
    the best goal-meeting VP another (checked) result found, or INFEASIBLE where one was
    found, is false."""
    best: dict[str, tuple[int, str]] = {}
    for r in records:
        if r["check"] == "ok" and r["goals_met"] and r["vp"] is not None:
            have = best.get(r["instance"])
            if have is None or r["vp"] > have[0]:
                best[r["instance"]] = (r["vp"], f"{r['solver']} {r['budget']:g} s")
    out = []
    for r in records:
        found = best.get(r["instance"])
        if found is None or r["check"] != "ok":
            continue
        who = f"{r['instance']} {r['solver']} {r['budget']:g} s"
        if r["status"] == Status.OPTIMAL.value and r["vp"] is not None and r["vp"] < found[0]:
            out.append(f"{who}: claims OPTIMAL at {r['vp']} VP, {found[1]} found a line of "
                       f"{found[0]}")
        elif r["status"] == Status.INFEASIBLE.value:
            out.append(f"{who}: claims INFEASIBLE, {found[1]} found a goal-meeting line of "
                       f"{found[0]}")
    return out


#: The fields of a result line the summary reads, with their JSON types (`record_of`).
RESULT_FIELDS: dict[str, tuple[type, ...]] = {
    "instance": (str,), "kind": (str,), "trial": (int,), "hand": (str,), "seed": (int,),
    "solver": (str,), "budget": (int, float), "status": (str,), "vp": (int, type(None)),
    "goals_met": (bool,), "bound": (int, float, type(None)),
    "time_to_best": (int, float, type(None)), "nodes": (int,), "seconds": (int, float, type(None)),
    "failed_vp": (int, type(None)), "known_optimum": (int, float, type(None)), "check": (str,),
    "trace": (list,),
}


def result_record(data: Any, where: str) -> dict[str, Any]:
    """One line of ``results.jsonl`` as the summary reads it, or `SuiteError` naming the line,
    the field and the value."""
    if not isinstance(data, dict):
        raise SuiteError(f"{where}: expected a result object, got {quote(data)}")
    for key, types in RESULT_FIELDS.items():
        value = data.get(key)
        if key not in data or not isinstance(value, types) or (
                isinstance(value, bool) and bool not in types):
            names = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise SuiteError(f"{where}: field {key!r} = {quote(value)}: expected {names}")
    if data["status"] not in {s.value for s in Status}:
        raise SuiteError(f"{where}: field 'status' = {quote(data['status'])}: expected one of "
                         f"{', '.join(s.value for s in Status)}")
    return data


def resummarize(out: Path, plots: bool = True) -> BenchReport:
    """Summary and plots again from ``out/results.jsonl`` (e.g. of a run cut short, or after a
    change of the summary), keeping the engine and machine figures of ``out/summary.json``.

    :raises SuiteError: the results file cannot be read."""
    path = out / "results.jsonl"
    text = read_text(path, SuiteError, "bench results file (results.jsonl)")
    records = [result_record(parse_json(x, f"{path}, line {n}", SuiteError, "bench result"),
                             f"{path}, line {n}")
               for n, x in enumerate(text.splitlines(), 1) if x.strip()]
    if not records:
        raise SuiteError(f"{path}: no results")
    old: Any = {}
    with contextlib.suppress(OSError, ValueError):  # kept figures, if the summary still reads
        old = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    if not isinstance(old, dict):
        old = {}
    seen: dict[str, Instance] = {}
    for r in records:
        seen.setdefault(r["instance"], Instance(r["instance"], r["kind"], r["trial"], r["hand"],
                                                r["seed"], optimum=r["known_optimum"]))
    budgets = list(dict.fromkeys(r["budget"] for r in records))
    solvers = list(dict.fromkeys(r["solver"] for r in records))
    config = {**old.get("config", {}), "budgets": budgets, "solvers": solvers,
              "instances": list(seen)}
    return finish(records, list(seen.values()), config, old.get("engine"), old.get("machine", {}),
                  out, plots, [])


# ------------------------------------------------------------------ summary


def best_known(records: Sequence[dict[str, Any]],
               instances: Sequence[Instance]) -> dict[str, float | None]:
    """Per instance: the most VP with every goal met in the run, or the proven optimum."""
    best: dict[str, float | None] = {i.id: i.optimum for i in instances}
    for rec in records:
        vp = rec["vp"]
        if vp is not None and rec["check"] == "ok":  # a failed check's VP is no evidence
            cur = best.get(rec["instance"])
            best[rec["instance"]] = vp if cur is None else max(cur, vp)
    return best


def ratio(vp: float | None, best: float | None) -> float | None:
    """``max(0, vp) / best`` for a positive best known VP (0 when not won); None otherwise."""
    if best is None or best <= 0:
        return None
    return 0.0 if vp is None else max(0.0, vp) / best


def summarize(records: Sequence[dict[str, Any]], instances: Sequence[Instance],
              budgets: Sequence[float], solvers: Sequence[str]) -> dict[str, Any]:
    """The summary rows (module docstring: definitions) and the per-instance VP table."""
    best = best_known(records, instances)
    rows = []
    for budget in budgets:
        for name in solvers:
            recs = [r for r in records if r["budget"] == budget and r["solver"] == name]
            if not recs:
                continue
            ok = [r for r in recs if r["check"] == "ok"]  # a failed check counts for nothing
            won = [r for r in ok if r["goals_met"]]
            ratios = [x for x in (ratio(r["vp"] if r["check"] == "ok" else None,
                                        best[r["instance"]]) for r in recs) if x is not None]
            ttb = [r["time_to_best"] for r in won if r["time_to_best"] is not None]
            secs = sum(r["seconds"] for r in recs)
            rows.append({
                "budget": budget, "solver": name, "instances": len(recs), "won": len(won),
                "mean_vp": round(sum(r["vp"] for r in won) / len(won), 1) if won else None,
                "proven_optimal": sum(1 for r in ok if r["status"] == Status.OPTIMAL.value),
                "ratio": round(sum(ratios) / len(ratios), 3) if ratios else None,
                "mean_time_to_best": round(sum(ttb) / len(ttb), 2) if ttb else None,
                "mean_seconds": round(secs / len(recs), 2),
                "nodes_per_second": (round(sum(r["nodes"] for r in recs) / secs) if secs > 0
                                     else None),
                "failed_checks": sum(1 for r in recs if r["check"] != "ok"),
            })
    table: dict[str, dict[str, Any]] = {}
    for r in records:
        row = table.setdefault(r["instance"], {"best_known": best[r["instance"]],
                                               "known_optimum": r["known_optimum"]})
        key = f"{r['solver']}@{r['budget']:g}"
        row[key] = {"vp": r["vp"], "status": r["status"]}
    return {"rows": rows, "best_known": best, "instances": table}


def _fmt(x: Any, spec: str = "") -> str:
    if x is None:
        return "-"
    return format(x, spec) if spec else str(x)


def summary_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The summary table as text cells (columns, rows): trials won / instances, mean VP over
    the instances won, proven optimal, mean ratio to the best known VP, mean seconds to the
    best line, mean seconds used, nodes per second, checks."""
    columns = ["budget", "solver", "won", "mean VP", "optimal", "ratio", "best s", "used s",
               "nodes/s", "checks"]
    rows = []
    for r in summary["rows"]:
        rows.append([f"{r['budget']:g} s", r["solver"], f"{r['won']}/{r['instances']}",
                     _fmt(r["mean_vp"], ".1f"), str(r["proven_optimal"]), _fmt(r["ratio"], ".3f"),
                     _fmt(r["mean_time_to_best"], ".2f"), _fmt(r["mean_seconds"], ".2f"),
                     _fmt(r["nodes_per_second"], ","),
                     "ok" if not r["failed_checks"] else f"{r['failed_checks']} FAILED"])
    return columns, rows


def instance_rows(summary: dict[str, Any], budgets: Sequence[float],
                  solvers: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """VP of every instance per contender (``*``: proven optimal; ``-``: no goal-meeting line)."""
    keys = [(s, b) for b in budgets for s in solvers]
    multi = len(budgets) > 1
    columns = ["instance", "best known"] + [f"{s}@{b:g}s" if multi else s for s, b in keys]
    rows = []
    for iid, row in summary["instances"].items():
        cells = [iid, _fmt(row["best_known"], "g")]
        for s, b in keys:
            got = row.get(f"{s}@{b:g}")
            if got is None:
                cells.append("")
            else:
                mark = "*" if got["status"] == Status.OPTIMAL.value else ""
                cells.append(_fmt(got["vp"]) + mark)
        rows.append(cells)
    return columns, rows


def engine_line(engine: dict[str, Any] | None) -> str:
    if not engine:
        return "engine throughput: not measured"
    return (f"engine throughput: {engine['games']} random games, {engine['decisions']:,} decisions "
            f"in {engine['seconds']} s: {engine['games_per_second']} games/s, "
            f"{engine['decisions_per_second']:,} decisions/s (one core)")
