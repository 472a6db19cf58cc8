"""Sweeps (issue 15), the command line: ``heritage sweep run|report|export``; the same rows on a
pool of 1 and 2 workers and on ``--dask-local 2``; a real ``kill -9`` of a running sweep and its
resumption; Ctrl-C; one-line errors. The Dask parts skip without the extra ``cluster``."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.sweep.cluster import DaskCluster
from benchmarks.sweep.plan import Budget, Sweep, SweepError
from benchmarks.sweep.run import SweepTally, run_sweep
from benchmarks.sweep.store import SweepStore
from benchmarks.sweep.tasks import worker_identity
from cli.app import app

ROOT = Path(__file__).resolve().parent.parent
RUNNER = CliRunner(env={"COLUMNS": "120", "NO_COLOR": "1"})
#: 8 deals at a tiny node budget: what the determinism runs solve.
DEALS = ("--trials", "1,4", "--hands", "1,draw", "--seeds", "0-1", "--node-limit", "300")
#: What must be identical whatever the backend.
SAME = ("status", "solve_status", "vp", "failed_vp", "upper_bound", "line", "nodes")
NEEDS_DASK = "Dask is the optional extra 'cluster': pip install 'heritage[cluster]'"


def run(*args: str) -> Any:
    return RUNNER.invoke(app, list(args))


def has_dask() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def rows(db: Path) -> dict[tuple[Any, ...], dict[str, Any]]:
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    out = {(r["trial"], r["hand"], r["seed"], r["die_seed"]): dict(r)
           for r in con.execute("SELECT * FROM deals")}
    con.close()
    return out


def runs(db: Path) -> list[tuple[int, str | None]]:
    """The ``runs`` table's stored counts and ends, in order."""
    con = sqlite3.connect(db)
    out = [(int(r[0]), r[1]) for r in
           con.execute("SELECT stored, ended_at FROM runs ORDER BY id").fetchall()]
    con.close()
    return out


def count(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        con = sqlite3.connect(db)
        try:
            return int(con.execute("SELECT count(*) FROM deals").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:  # the sweep is still making its tables
        return 0


def sweep(db: Path, *backend: str) -> dict[str, Any]:
    result = run("sweep", "run", "--db", str(db), *DEALS, *backend, "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.fixture(scope="module")
def pool_dbs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("sweep")
    dbs = {"pool 1": folder / "one.sqlite", "pool 2": folder / "two.sqlite"}
    assert sweep(dbs["pool 1"], "--workers", "1")["solved"] == 8
    assert sweep(dbs["pool 2"], "--workers", "2")["solved"] == 8
    return dbs


def assert_same_rows(a: Path, b: Path) -> None:
    ra, rb = rows(a), rows(b)
    assert sorted(ra) == sorted(rb) and len(ra) == 8
    for deal in ra:
        assert {k: ra[deal][k] for k in SAME} == {k: rb[deal][k] for k in SAME}, deal


# ------------------------------------------------------------------ determinism


def test_pool_of_one_and_two_workers_store_the_same_rows(pool_dbs: dict[str, Path]) -> None:
    assert_same_rows(pool_dbs["pool 1"], pool_dbs["pool 2"])
    workers = {r["worker"] for r in rows(pool_dbs["pool 2"]).values()}
    assert len(workers) == 2  # both workers solved deals


@pytest.mark.skipif(not has_dask(), reason=NEEDS_DASK)
def test_dask_local_cluster_stores_the_same_rows(pool_dbs: dict[str, Path],
                                                 tmp_path: Path) -> None:
    db = tmp_path / "dask.sqlite"
    data = sweep(db, "--dask-local", "2")
    assert data["solved"] == 8 and data["complete"]
    assert_same_rows(pool_dbs["pool 1"], db)
    backend = sqlite3.connect(db).execute("SELECT backend FROM runs").fetchone()[0]
    assert backend == "dask-local:2"


@pytest.mark.skipif(not has_dask(), reason=NEEDS_DASK)
def test_dask_refuses_a_worker_of_another_heritage() -> None:
    cluster = DaskCluster(None, 1, deadline=60.0)
    cluster.identity = {**cluster.identity, "version": "0.0.0-other"}
    with pytest.raises(SweepError, match=r"--dask-local: refusing tcp://127\.0\.0\.1:\d+: worker "
                       r".* has heritage .* the sweep has heritage 0\.0\.0-other"):
        try:
            cluster.start()
        finally:
            cluster.close()


# ------------------------------------------------------------------ resuming


def test_a_finished_sweep_run_again_solves_nothing(pool_dbs: dict[str, Path]) -> None:
    before = rows(pool_dbs["pool 1"])
    data = sweep(pool_dbs["pool 1"], "--workers", "1")
    assert (data["already"], data["solved"], data["complete"]) == (8, 0, True)
    assert rows(pool_dbs["pool 1"]) == before


def start_sweep(db: Path, seeds: str) -> tuple[subprocess.Popen[str], list[str]]:
    args = ["sweep", "run", "--db", str(db), "--trials", "1-2", "--hands", "1,2", "--seeds",
            seeds, "--node-limit", "3000", "--workers", "1", "--json"]
    proc = subprocess.Popen([sys.executable, "-m", "cli.app", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return proc, args


def wait_for_rows(proc: subprocess.Popen[str], db: Path, n: int) -> None:
    until = time.monotonic() + 180
    while count(db) < n:
        assert proc.poll() is None, f"the sweep ended first: {proc.communicate()}"
        assert time.monotonic() < until, "no rows stored in 3 minutes"
        time.sleep(0.05)


def test_kill_9_loses_nothing_stored_and_the_same_command_resumes(tmp_path: Path) -> None:
    db = tmp_path / "killed.sqlite"
    proc, args = start_sweep(db, "0-3")
    wait_for_rows(proc, db, 2)
    proc.kill()  # SIGKILL: no handler runs, no cleanup
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    kept = rows(db)
    assert len(kept) >= 2
    # The killed run's count of stored deals is kept with each row; it has no end.
    assert runs(db) == [(len(kept), None)]
    result = run(*args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["planned"], data["already"], data["solved"]) == (16, len(kept), 16 - len(kept))
    after = rows(db)
    assert len(after) == 16
    assert all(after[deal] == row for deal, row in kept.items())  # untouched, not redone
    (_, first_end), (stored, second_end) = runs(db)
    assert first_end is None and stored == 16 - len(kept) and second_end is not None


def test_ctrl_c_keeps_the_finished_deals_and_says_how_to_resume(tmp_path: Path) -> None:
    db = tmp_path / "stopped.sqlite"
    proc, _ = start_sweep(db, "0-9")
    wait_for_rows(proc, db, 1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 3, err
    data = json.loads(out)
    assert data["interrupted"] and not data["complete"] and data["failed"] == []
    assert data["stored"] == count(db) < 40
    assert "stopping: no more deals handed out" in err
    assert "resume with the same command:" in err and "heritage sweep run --trials 1-2" in err


def test_two_sweeps_share_one_database_at_once(tmp_path: Path) -> None:
    """Two collecting processes write one file at the same time (other seeds, another budget
    on the same seeds): SQLite serializes them, nothing is lost."""
    db = tmp_path / "shared.sqlite"
    common = [sys.executable, "-m", "cli.app", "sweep", "run", "--db", str(db), "--trials", "1",
              "--hands", "1,2", "--workers", "1", "--json"]
    procs = [subprocess.Popen([*common, "--seeds", seeds, "--node-limit", limit], cwd=ROOT,
                              text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for seeds, limit in (("0-5", "200"), ("6-11", "200"), ("0-5", "250"))]
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        assert json.loads(out)["solved"] == 12
    budgets = [r["budget"] for r in rows_all(db)]
    assert budgets.count("nodes=200") == 24 and budgets.count("nodes=250") == 12


def rows_all(db: Path) -> list[dict[str, Any]]:
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    out = [dict(r) for r in con.execute("SELECT * FROM deals")]
    con.close()
    return out


# ------------------------------------------------------------------ report and export


def test_report_table_json_and_heat_map(pool_dbs: dict[str, Path], tmp_path: Path) -> None:
    db = str(pool_dbs["pool 1"])
    result = run("sweep", "report", "--db", db)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].endswith("node limit 300 per deal, bound simple")
    assert lines[1].split()[:6] == ["trial", "hand", "deals", "won", "unwinnable", "unknown"]
    assert [line.split()[:3] for line in lines[2:6]] == [
        ["1", "1", "2"], ["1", "draw", "2"], ["4", "1", "2"], ["4", "draw", "2"]]
    assert "Clopper-Pearson" in result.stdout
    data = json.loads(run("sweep", "report", "--db", db, "--json").stdout)
    assert len(data) == 4
    keys = {"trial", "hand", "deals", "won", "unwinnable", "unknown", "rate_low", "rate_high",
            "ci_low", "ci_high", "mean_vp", "proven_optimal"}
    for s in data:
        assert keys <= set(s)
        assert s["ci_low"] <= s["rate_low"] <= s["rate_high"] <= s["ci_high"]
    stored = rows(pool_dbs["pool 1"]).values()
    assert sum(s["won"] for s in data) == sum(1 for r in stored if r["status"] == "won")
    assert run("sweep", "report", "--db", db, "--node-limit", "7", "--json").stdout.strip() == "[]"
    pytest.importorskip("matplotlib", reason="the heat map needs the extra 'plot'")
    png = tmp_path / "heat.png"
    result = run("sweep", "report", "--db", db, "--plot", str(png))
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_export_writes_a_line_file_that_verify_accepts(pool_dbs: dict[str, Path],
                                                       tmp_path: Path) -> None:
    db = pool_dbs["pool 1"]
    for (trial, hand, seed, _), row in rows(db).items():
        out = tmp_path / f"t{trial}-{hand}-{seed}.json"
        result = run("sweep", "export", "--db", str(db), "--trial", str(trial), "--hand", hand,
                     "--seed", str(seed), "--out", str(out))
        assert result.exit_code == 0, result.output
        data = json.loads(out.read_text(encoding="utf-8"))
        assert data["line"] == json.loads(row["line"])
        assert (data["vp"], data["sweep"]["outcome"]) == (row["vp"], row["status"])
        assert all(g["met"] for g in data["goals"]) == (row["status"] == "won")
        assert data["goals_met"] == (row["status"] == "won")
        assert data["gap"] == (None if row["vp"] is None or row["upper_bound"] is None
                               else row["upper_bound"] - row["vp"])
        checked = run("verify", str(out))
        assert checked.exit_code == 0, checked.output
        if row["status"] == "won":
            assert f"{row['vp']} VP" in checked.stdout.splitlines()[0]


# ------------------------------------------------------------------ errors


def assert_one_line_error(result: Any, *parts: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for part in parts:
        assert part in lines[0], (part, lines[0])


@pytest.mark.parametrize(("args", "parts"), [
    (("--seeds", "0"), ("--time-limit or --node-limit",)),
    (("--node-limit", "5", "--time-limit", "1"), ("give exactly one budget",)),
    (("--node-limit", "0"), ("--node-limit", "from 1 to")),
    (("--node-limit", "5", "--trials", "1-x"), ("--trials", "'1-x'")),
    (("--node-limit", "5", "--trials", "12"), ("--trials: 12 is not in the trial table",)),
    (("--node-limit", "5", "--hands", "1,9"), ("--hands: 9 is not a hand",)),
    (("--node-limit", "5", "--seeds", "9-1"), ("--seeds", "empty range")),
    (("--node-limit", "5", "--bound", "lp"), ("--bound", "'lp'")),
    (("--node-limit", "5", "--workers", "2", "--dask-local", "2"), ("choose one backend",)),
    (("--node-limit", "5", "--workers", "0"), ("--workers: must be at least 1",)),
    (("--node-limit", "5", "--retries", "-1"), ("--retries",)),
])
def test_run_bad_options_exit_2_with_one_line(tmp_path: Path, args: tuple[str, ...],
                                              parts: tuple[str, ...]) -> None:
    db = tmp_path / "bad.sqlite"
    assert_one_line_error(run("sweep", "run", "--db", str(db), *args), *parts)


def test_report_and_export_errors(tmp_path: Path, pool_dbs: dict[str, Path]) -> None:
    missing = str(tmp_path / "none.sqlite")
    assert_one_line_error(run("sweep", "report", "--db", missing), "--db", "does not exist")
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database", encoding="utf-8")
    assert_one_line_error(run("sweep", "report", "--db", str(text)), "--db", "notes.sqlite")
    assert_one_line_error(run("sweep", "export", "--db", str(pool_dbs["pool 1"]), "--trial", "1",
                              "--hand", "1", "--seed", "77"),
                          "--seed: no deal trial 1 hand 1 seed 77 die seed 77")
    assert_one_line_error(run("sweep", "report", "--db", str(tmp_path)), "--db",
                          "is not a file")


def test_report_of_a_damaged_store_names_the_row_and_cell(tmp_path: Path,
                                                          pool_dbs: dict[str, Path]) -> None:
    """SQLite keeps text in an INTEGER column: a store edited by hand is refused in one line
    naming the row and the cell, not with a traceback."""
    db = tmp_path / "damaged.sqlite"
    shutil.copy(pool_dbs["pool 1"], db)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE deals SET vp = 'abc' WHERE vp IS NOT NULL")
    con.close()
    assert_one_line_error(run("sweep", "report", "--db", str(db)), "--db", "damaged.sqlite",
                          "column 'vp' = 'abc'", "expected a whole number or null")


def test_help_names_the_commands() -> None:
    result = run("sweep", "--help")
    assert result.exit_code == 0
    for command in ("run", "report", "export"):
        assert command in result.stdout


@pytest.mark.slow
@pytest.mark.skipif(not has_dask(), reason=NEEDS_DASK)
def test_an_unreachable_scheduler_is_one_line(tmp_path: Path) -> None:
    result = run("sweep", "run", "--db", str(tmp_path / "d.sqlite"), "--seeds", "0",
                 "--node-limit", "100", "--dask", "tcp://127.0.0.1:1")
    assert_one_line_error(result, "--dask: cannot reach the scheduler at tcp://127.0.0.1:1")


# ------------------------------------------------------------------ slow: bigger runs


@pytest.mark.slow
@pytest.mark.skipif(not has_dask(), reason=NEEDS_DASK)
def test_a_dask_worker_killed_mid_sweep_costs_no_deal(tmp_path: Path) -> None:
    """A worker process of the LocalCluster killed (SIGKILL) while deals run: its nanny
    starts another, the scheduler runs the lost deal again, every deal is stored."""
    me = worker_identity()
    sweep_ = Sweep((1, 2), ("1", "2"), tuple(range(4)), None, Budget(node_limit=3000), "simple",
                   me["version"], me["data_sha256"])
    cluster = DaskCluster(None, 2, deadline=300.0)
    killed: list[int] = []

    def kill_one(row: dict[str, Any], tally: SweepTally) -> None:
        if not killed and tally.solved == 2:
            pids = cluster.client.run(os.getpid)
            killed.append(sorted(pids.values())[0])
            os.kill(killed[0], signal.SIGKILL)

    with SweepStore(tmp_path / "k.sqlite") as store:
        tally = run_sweep(sweep_, store, cluster, retries=1, on_row=kill_one)
        assert killed and tally.complete and len(store.rows()) == 16


@pytest.mark.slow
def test_bigger_sweep_same_rows_on_every_backend(tmp_path: Path) -> None:
    deals = ("--trials", "1-6", "--hands", "1,2,3,4,draw", "--seeds", "0-3", "--node-limit",
             "3000", "--json")
    backends = [("--workers", "1"), ("--workers", "2")]
    if has_dask():
        backends.append(("--dask-local", "2"))
    found = []
    for k, backend in enumerate(backends):
        db = tmp_path / f"{k}.sqlite"
        result = run("sweep", "run", "--db", str(db), *deals, *backend)
        assert result.exit_code == 0, result.output
        found.append({d: {c: r[c] for c in SAME} for d, r in rows(db).items()})
    assert len(found[0]) == 120 and all(f == found[0] for f in found[1:])


def test_a_deal_past_its_deadline_is_reported_failed_not_stored(tmp_path: Path) -> None:
    """A deal whose task passes its deadline on every try: exit 3, the note says how often it
    was tried and that the same command tries it again; nothing stored."""
    db = tmp_path / "s.sqlite"
    result = run("sweep", "run", "--db", str(db), "--trials", "1", "--hands", "1", "--seeds", "0",
                 "--node-limit", "20000", "--workers", "1", "--deadline", "0.01", "--retries", "1")
    assert result.exit_code == 3, result.output
    assert ("1 deal(s) failed (after up to 1 retry) and are not stored (the same command tries "
            "them again); first: trial 1 hand 1 seed 0 die seed 0: deadline of 0.01 s passed"
            ) in result.stderr
    assert count(db) == 0
