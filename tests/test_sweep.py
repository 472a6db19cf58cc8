"""Sweeps (issue 15), the library: option parsing, the task, the database, the driver (retries,
deadlines, refusals, interrupts) with a scripted backend, the process pool (a worker killed
mid-task, a deadline), and the report's rates and confidence intervals."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import re
import signal
import sqlite3
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from benchmarks.sweep.backend import Outcome
from benchmarks.sweep.plan import (
    Budget,
    Sweep,
    SweepError,
    Task,
    parse_die_seeds,
    parse_hands,
    parse_numbers,
)
from benchmarks.sweep.pool import ProcessPool
from benchmarks.sweep.report import interval, shared_decks, summarize
from benchmarks.sweep.run import DROP, GO, STOP, run_sweep
from benchmarks.sweep.store import SweepStore
from benchmarks.sweep.tasks import (
    code_digest,
    heritage_version,
    mismatch,
    solve_deal,
    worker_identity,
)
from puzzles.deal import build_setup, load_cards
from puzzles.lines import replay

IDENTITY = worker_identity()
TINY = Budget(node_limit=200)


def sweep_of(trials: tuple[int, ...] = (1,), hands: tuple[str, ...] = ("1",),
             seeds: tuple[int, ...] = (0, 1), budget: Budget = TINY, **kw: Any) -> Sweep:
    return Sweep(trials, hands, seeds, kw.pop("die_seeds", None), budget, "simple",
                 kw.pop("version", IDENTITY["version"]), kw.pop("data", IDENTITY["data_sha256"]))


# ------------------------------------------------------------------ plan


def test_ranges_lists_and_their_errors() -> None:
    assert parse_numbers("0-3", "--seeds") == (0, 1, 2, 3)
    assert parse_numbers("5, 1-2,2", "--seeds") == (5, 1, 2)
    assert parse_hands("1-4,draw") == ("1", "2", "3", "4", "draw")
    assert parse_die_seeds("same") is None and parse_die_seeds("7") == (7,)
    for text, part in (("0-x", "'0-x' is not"), ("3-1", "empty range"), ("-1", "below 0")):
        with pytest.raises(SweepError, match=part):
            parse_numbers(text, "--seeds")
    with pytest.raises(SweepError, match="--hands: 5 is not a hand"):
        parse_hands("1,5")


def test_the_plan_is_seed_first_and_crosses_die_seeds() -> None:
    tasks = sweep_of(trials=(1, 2), hands=("1", "draw"), seeds=(0, 1)).tasks()
    assert [t.deal for t in tasks[:4]] == [(1, "1", 0, 0), (1, "draw", 0, 0), (2, "1", 0, 0),
                                           (2, "draw", 0, 0)]
    assert tasks[4].seed == 1 and tasks[4].die_seed == 1
    crossed = sweep_of(seeds=(0, 1), die_seeds=(5, 6)).tasks()
    assert [(t.seed, t.die_seed) for t in crossed] == [(0, 5), (0, 6), (1, 5), (1, 6)]


def test_budget_key_and_deadline() -> None:
    assert Budget(node_limit=2000).key == "nodes=2000"
    assert Budget(time_limit=1.5).key == "seconds=1.5"
    assert Budget(time_limit=60).key == "seconds=60"
    # a budget :g would round into another's rows keeps its exact spelling
    assert Budget(time_limit=0.05000004).key == "seconds=0.05000004"
    assert Budget(time_limit=1.234567).key == "seconds=1.234567"
    assert Budget(time_limit=10).default_deadline() == 80.0
    assert Budget(node_limit=20_000).default_deadline() == 80.0
    for bad in ({}, {"node_limit": 1, "time_limit": 1.0}, {"node_limit": 0}):
        with pytest.raises(SweepError):
            Budget(**bad)


# ------------------------------------------------------------------ the task


def test_a_task_solves_one_deal_and_its_line_replays() -> None:
    task = sweep_of(trials=(1,), seeds=(3,)).tasks()[0]
    row = solve_deal(**task.kwargs())
    assert row["status"] in ("won", "unknown") and row["solve_status"] in ("FEASIBLE", "UNKNOWN")
    assert row["budget"] == "nodes=200" and row["nodes"] >= 200
    assert (row["vp"] is not None) == (row["status"] == "won")
    again = solve_deal(**task.kwargs())
    assert {k: again[k] for k in ("status", "vp", "line", "nodes")} == {
        k: row[k] for k in ("status", "vp", "line", "nodes")}  # a node budget is deterministic
    setup = solve_setup_json(task)
    record, error = replay({"setup": setup, "line": json.loads(row["line"])})
    assert error is None and record is not None
    assert record.state.feasible() == (row["status"] == "won")
    if row["status"] == "won":
        assert record.state.score().total == row["vp"]


def test_a_time_budget_is_stored_as_seconds() -> None:
    task = sweep_of(seeds=(0,), budget=Budget(time_limit=0.3)).tasks()[0]
    row = solve_deal(**task.kwargs())
    assert row["budget"] == "seconds=0.3" and row["seconds"] < 5


def solve_setup_json(task: Task) -> dict[str, Any]:
    book, sets = load_cards(None)
    return build_setup(book, sets, hand=task.hand, seed=task.seed, die_seed=task.die_seed,
                       trial=task.trial).to_json()


def test_a_worker_with_other_data_or_version_refuses() -> None:
    task = sweep_of(version="0.0.0-other").tasks()[0]
    row = solve_deal(**task.kwargs())
    assert set(row) == {"refused"} and "heritage 0.0.0-other" in row["refused"]
    assert mismatch(IDENTITY, IDENTITY["version"], IDENTITY["data_sha256"]) is None
    why = mismatch(IDENTITY, IDENTITY["version"], "f" * 64)
    assert why is not None and "data sha256 ffffffffffff" in why


# ------------------------------------------------------------------ the database


def fake_row(task: Task, status: str = "won") -> dict[str, Any]:
    return {"trial": task.trial, "hand": task.hand, "seed": task.seed, "die_seed": task.die_seed,
            "budget": task.budget.key, "bound": task.bound, "version": task.version,
            "data_sha256": task.data_sha256, "status": status,
            "solve_status": {"won": "FEASIBLE", "unwinnable": "INFEASIBLE"}.get(status, "UNKNOWN"),
            "vp": 10 + task.seed if status == "won" else None, "failed_vp": None,
            "upper_bound": 600, "line": "[[]]", "nodes": 200, "seconds": 0.01,
            "task_seconds": 0.02, "worker": "test:1"}


def test_store_keeps_the_first_row_of_a_deal_and_knows_what_is_done(tmp_path: Path) -> None:
    tasks = sweep_of(seeds=(0, 1, 2)).tasks()
    with SweepStore(tmp_path / "s.sqlite") as store:
        assert (store.add(fake_row(tasks[0]), None)
                and store.add(fake_row(tasks[1], "unknown"), None))
        assert not store.add(fake_row(tasks[0], "unknown"), None)
        done = store.done("nodes=200", "simple", IDENTITY["version"], IDENTITY["data_sha256"])
        assert done == {(1, "1", 0, 0): "won", (1, "1", 1, 1): "unknown"}
        assert store.done("nodes=300", "simple", IDENTITY["version"], IDENTITY["data_sha256"]) == {}
    mode = sqlite3.connect(tmp_path / "s.sqlite").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_a_runs_count_goes_with_its_rows_and_a_refused_row_leaves_no_trace(
        tmp_path: Path) -> None:
    """`SweepStore.add` counts a stored row into its run in the row's own transaction (right
    even after ``kill -9``); a row the database cannot take (a cell SQLite cannot bind, a
    status its CHECK refuses, a missing cell) is a clear error, never "already stored",
    counted nowhere, and the store takes the next row (no transaction left open)."""
    tasks = sweep_of(seeds=(0, 1, 2)).tasks()
    with SweepStore(tmp_path / "s.sqlite") as store:
        run = store.start_run("test", IDENTITY["version"], IDENTITY["data_sha256"], "nodes=200",
                              "simple", "pool", 3)
        assert store.add(fake_row(tasks[0]), run)
        assert not store.add(fake_row(tasks[0]), run)  # already stored: not counted again
        with pytest.raises(SweepError, match="cannot store a deal"):
            store.add({**fake_row(tasks[1]), "line": {"not": "text"}}, run)
        for broken in ({"status": "lost"}, {"line": None}):  # a CHECK, a NOT NULL
            with pytest.raises(SweepError, match="cannot store a deal.*constraint"):
                store.add({**fake_row(tasks[1]), **broken}, run)
        assert store.add(fake_row(tasks[2]), run)
        counted = store.db.execute("SELECT stored, ended_at FROM runs").fetchall()
        assert [tuple(r) for r in counted] == [(2, None)]
        store.end_run(run)
        assert store.db.execute("SELECT ended_at FROM runs").fetchone()[0] is not None


def test_store_refuses_files_that_are_not_sweeps(tmp_path: Path) -> None:
    text = tmp_path / "t.sqlite"
    text.write_text("hello", encoding="utf-8")
    with pytest.raises(SweepError, match="--db: .*t.sqlite"):
        SweepStore(text)
    other = tmp_path / "o.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE x (a)").connection.commit()
    with pytest.raises(SweepError, match="not a sweep database"):
        SweepStore(other)
    with pytest.raises(SweepError, match="does not exist"):
        SweepStore(tmp_path / "missing.sqlite", create=False)


def test_reading_a_file_that_is_not_a_sweep_leaves_it_as_it_was(tmp_path: Path) -> None:
    """`sweep report` / `export` (a store opened to read) refuse another SQLite file without
    putting it in WAL mode."""
    other = tmp_path / "o.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE x (a)").connection.commit()
    with pytest.raises(SweepError, match="not a sweep database"):
        SweepStore(other, create=False)
    assert sqlite3.connect(other).execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    with SweepStore(tmp_path / "s.sqlite") as store:
        store.add(fake_row(sweep_of().tasks()[0]), None)
    with SweepStore(tmp_path / "s.sqlite", create=False) as store:
        assert len(store.rows()) == 1


def _open_store(path: str, answers: Any) -> None:
    """Body of one process of the test below: open the store, say what went wrong if anything."""
    try:
        SweepStore(Path(path)).close()
        answers.put("")
    except SweepError as error:
        answers.put(str(error))


def test_sweeps_starting_on_one_new_file_at_once_all_open_it(tmp_path: Path) -> None:
    """Several sweeps may share a file (`benchmarks.sweep.store`), also when they start on a new
    one at the same moment: each sees either no table or the whole schema with its version (an
    opener that saw the tables before the version row was written refused the file, or met a
    lock SQLite does not wait for: 32 of 400 openers failed before the schema check became one
    transaction). 4 processes on each of 20 new files."""
    ctx = multiprocessing.get_context("fork")
    answers = ctx.Queue()
    failures: list[str] = []
    for k in range(20):
        path = str(tmp_path / f"new{k}.sqlite")
        procs = [ctx.Process(target=_open_store, args=(path, answers)) for _ in range(4)]
        for proc in procs:
            proc.start()
        failures += [a for a in (answers.get(timeout=60) for _ in procs) if a]
        for proc in procs:
            proc.join(timeout=60)
    assert failures == []


# ------------------------------------------------------------------ the driver


class Scripted:
    """A backend that ends its tasks at once, in process, with scripted errors."""

    name = "scripted"

    def __init__(self, slots: int = 2, errors: dict[int, list[str]] | None = None,
                 status: str = "won", refuse: bool = False, finish: bool = True) -> None:
        self.slots, self.errors, self.status = slots, errors or {}, status
        self.refuse, self.finish = refuse, finish
        self.running_tasks: list[Task] = []
        self.handed: list[Task] = []
        self.closed = False

    def start(self) -> None:
        pass

    def capacity(self) -> int:
        return self.slots - len(self.running_tasks)

    def submit(self, task: Task) -> None:
        self.running_tasks.append(task)
        self.handed.append(task)

    def running(self) -> int:
        return len(self.running_tasks)

    def collect(self, timeout: float) -> list[Outcome]:
        if not self.finish:
            return []
        out = []
        for task in self.running_tasks:
            pending = self.errors.get(task.seed, [])
            if pending:
                out.append(Outcome(task, None, pending.pop(0)))
            elif self.refuse:
                out.append(Outcome(task, {"refused": "worker w has heritage 0.0"}))
            else:
                out.append(Outcome(task, fake_row(task, self.status)))
        self.running_tasks = []
        return out

    def close(self) -> None:
        self.closed = True


def test_driver_stores_every_deal_and_resumes_without_redoing(tmp_path: Path) -> None:
    sweep = sweep_of(seeds=tuple(range(5)))
    with SweepStore(tmp_path / "s.sqlite") as store:
        first = Scripted()
        hits = iter([GO, GO, STOP] + [STOP] * 100)
        tally = run_sweep(sweep, store, first, interrupts=lambda: next(hits))
        assert tally.interrupted and not tally.complete and first.closed
        assert tally.solved == len(first.handed) == len(store.rows()) < 5
        second = Scripted()
        tally = run_sweep(sweep, store, second)
        assert tally.complete and tally.already == len(first.handed)
        assert {t.seed for t in second.handed} == set(range(5)) - {t.seed for t in first.handed}
        assert len(store.rows()) == 5 and tally.outcomes["won"] == 5
        runs = store.db.execute("SELECT planned, stored FROM runs ORDER BY id").fetchall()
        assert [tuple(r) for r in runs] == [(5, len(first.handed)), (5, 5 - len(first.handed))]


def test_a_deal_another_sweep_stored_first_counts_as_stored(tmp_path: Path) -> None:
    """Two sweeps sharing a file: a deal the other stored after this one planned its work is
    stored (the first row kept, with its status), not missing."""
    sweep = sweep_of(seeds=(0, 1))

    class Late(SweepStore):  # planned before the other sweep's rows landed
        def done(self, *args: Any) -> dict[tuple[int, str, int, int], str]:
            return {}

    with SweepStore(tmp_path / "s.sqlite") as store:
        run_sweep(sweep, store, Scripted(status="unknown"))
    with Late(tmp_path / "s.sqlite") as store:
        tally = run_sweep(sweep, store, Scripted(status="won"))
        assert tally.complete and tally.solved == 0 and tally.already == 2
        assert tally.outcomes == {"won": 0, "unwinnable": 0, "unknown": 2}
        assert [r["status"] for r in store.rows()] == ["unknown", "unknown"]


def test_driver_retries_then_reports_a_failed_deal(tmp_path: Path) -> None:
    sweep = sweep_of(seeds=(0, 1, 2))
    with SweepStore(tmp_path / "s.sqlite") as store:
        backend = Scripted(errors={1: ["worker lost (exit code -9)"],
                                   2: ["deadline of 1 s passed"] * 3})
        tally = run_sweep(sweep, store, backend, retries=2)
        assert tally.retried == 3 and tally.solved == 2 and not tally.complete
        assert len(tally.failed) == 1 and "seed 2" in tally.failed[0]
        assert "deadline" in tally.failed[0]
        assert [r["seed"] for r in store.rows()] == [0, 1]


def test_driver_stops_at_a_refusing_worker(tmp_path: Path) -> None:
    with SweepStore(tmp_path / "s.sqlite") as store:
        tally = run_sweep(sweep_of(seeds=tuple(range(6))), store, Scripted(refuse=True))
        assert tally.refused is not None and "heritage 0.0" in tally.refused
        assert tally.solved == 0 and store.rows() == []


def test_second_interrupt_drops_the_running_deals(tmp_path: Path) -> None:
    with SweepStore(tmp_path / "s.sqlite") as store:
        hits = iter([GO, GO, STOP, DROP])
        backend = Scripted(finish=False)
        tally = run_sweep(sweep_of(seeds=tuple(range(6))), store, backend,
                          interrupts=lambda: next(hits))
        assert tally.interrupted and tally.dropped == 2 and backend.closed
        assert len(backend.handed) == 2  # nothing handed out after the first interrupt


# ------------------------------------------------------------------ the process pool


class KillingPool(ProcessPool):
    """Kills its worker (SIGKILL) right after handing it the second deal."""

    def __init__(self) -> None:
        super().__init__(1, deadline=120.0)
        self.handed = 0

    def submit(self, task: Task) -> None:
        super().submit(task)
        self.handed += 1
        if self.handed == 2:
            pid = self.workers[0].process.pid
            assert pid is not None
            os.kill(pid, signal.SIGKILL)


def test_a_worker_killed_mid_task_costs_that_task_only(tmp_path: Path) -> None:
    sweep = sweep_of(seeds=(0, 1, 2))
    with SweepStore(tmp_path / "s.sqlite") as store:
        tally = run_sweep(sweep, store, KillingPool(), retries=1)
        assert tally.complete and tally.retried == 1 and tally.failed == []
        assert [r["seed"] for r in store.rows()] == [0, 1, 2]


def test_a_task_past_its_deadline_is_stopped_and_not_stored(tmp_path: Path) -> None:
    sweep = sweep_of(seeds=(0,), budget=Budget(node_limit=5_000_000))
    with SweepStore(tmp_path / "s.sqlite") as store:
        tally = run_sweep(sweep, store, ProcessPool(1, deadline=0.5), retries=0)
        assert not tally.complete and tally.solved == 0
        assert len(tally.failed) == 1 and "deadline of 0.5 s passed" in tally.failed[0]


# ------------------------------------------------------------------ the report


def test_report_rates_intervals_and_vp() -> None:
    tasks = sweep_of(seeds=tuple(range(10))).tasks()
    statuses = ["won"] * 6 + ["unwinnable"] * 1 + ["unknown"] * 3
    rows = [fake_row(t, s) for t, s in zip(tasks, statuses, strict=True)]
    rows[0]["solve_status"] = "OPTIMAL"
    [s] = summarize(rows)
    assert (s["deals"], s["won"], s["unwinnable"], s["unknown"]) == (10, 6, 1, 3)
    assert s["rate_low"] == 0.6 and s["rate_high"] == 0.9
    assert s["ci_low"] == pytest.approx(interval(6, 10)[0]) and s["ci_high"] == pytest.approx(
        interval(9, 10)[1])
    assert s["mean_vp"] == pytest.approx(12.5) and s["median_vp"] == 12.5
    assert s["proven_optimal"] == 1
    assert interval(0, 10)[0] == 0.0 and round(interval(0, 10)[1], 4) == 0.3085


@pytest.mark.parametrize("n", [1, 2, 7, 12])
def test_interval_brackets_the_rate_range(n: int) -> None:
    task = sweep_of().tasks()[0]
    for won, unwinnable in product(range(n + 1), range(n + 1)):
        if won + unwinnable > n:
            continue
        rows = ([fake_row(task, "won")] * won + [fake_row(task, "unwinnable")] * unwinnable
                + [fake_row(task, "unknown")] * (n - won - unwinnable))
        [s] = summarize(rows)
        assert 0 <= s["ci_low"] <= s["rate_low"] <= s["rate_high"] <= s["ci_high"] <= 1


def test_report_warns_when_deals_share_decks() -> None:
    """Crossed die seeds: deals on one deck are not independent; the report says the interval
    is too narrow, and does not when each deal has its own deck."""
    crossed = sweep_of(seeds=(0, 1), die_seeds=(0, 1, 2)).tasks()
    [s] = summarize([fake_row(t) for t in crossed])
    assert (s["deals"], s["seeds"]) == (6, 2)
    warning = shared_decks([s])
    assert warning is not None and "6 deals on 2 decks" in warning and "too narrow" in warning
    [s] = summarize([fake_row(t) for t in sweep_of(seeds=(0, 1, 2)).tasks()])
    assert (s["deals"], s["seeds"]) == (3, 3) and shared_decks([s]) is None


def test_report_keeps_settings_apart() -> None:
    a = fake_row(sweep_of().tasks()[0])
    b = dict(a, budget="nodes=999")
    assert [(s["budget"], s["deals"]) for s in summarize([a, b])] == [("nodes=200", 1),
                                                                       ("nodes=999", 1)]


def test_a_sweep_version_names_the_code_not_only_the_release() -> None:
    """Rows are keyed by the version *and* the code that decided them: two checkouts of one
    release (an editable install moved on) are two settings, never mixed. The digest is of the
    Python sources of solver and puzzles, so the compiled build of a tree has the tree's."""
    assert re.fullmatch(r"\S+\+[0-9a-f]{12}", heritage_version())
    assert heritage_version().endswith("+" + code_digest()[:12])
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for package in ("solver", "puzzles"):
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
            digest.update(path.read_bytes() + b"\0")
    assert code_digest() == digest.hexdigest()  # the build under test is of these sources
