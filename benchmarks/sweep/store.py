"""The sweep database: one SQLite file (stdlib `sqlite3`, WAL), one row per solved deal.

A row is keyed by the deal and everything its answer depends on: (trial, hand, seed, die seed,
budget, bound, heritage version, card/chest data sha256). Only the collecting process writes
(one writer per sweep; several sweeps may share a file: SQLite serializes them and a busy writer
is waited for). Each row is committed as soon as its result arrives, so a sweep killed with
``kill -9`` loses no finished deal, and the same command resumes with the deals not yet stored.
A deal stored twice (two sweeps sharing a file) keeps the first row.

Tables: ``deals`` (the rows), ``runs`` (each ``heritage sweep run``: its command, when it
started and ended, how many deals it planned and stored; the count kept with each row, so a run
killed with ``kill -9`` has the right count and no end), ``meta`` (the schema version).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.sweep.plan import SweepError

SCHEMA_VERSION = "1"
#: How long opening a file waits for the other sweeps that hold it (seconds).
BUSY_SECONDS = 60.0
#: What a row is keyed by.
KEY = ("trial", "hand", "seed", "die_seed", "budget", "bound", "version", "data_sha256")
#: What a row holds beyond its key (the result of `benchmarks.sweep.tasks.solve_deal`).
RESULT = ("status", "solve_status", "vp", "failed_vp", "upper_bound", "line", "nodes", "seconds",
          "task_seconds", "worker")
COLUMNS = (*KEY, *RESULT, "run", "stored_at")
#: The Python kinds a stored cell may have, by column (text columns: `str`).
COLUMN_KINDS: dict[str, tuple[type, ...]] = {
    "trial": (int,), "seed": (int,), "die_seed": (int,), "vp": (int, type(None)),
    "failed_vp": (int, type(None)), "upper_bound": (int, type(None)), "nodes": (int,),
    "seconds": (int, float), "task_seconds": (int, float), "run": (int, type(None)),
}
KIND_WORDS = {int: "a whole number", float: "a number", str: "text", type(None): "null"}

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, command TEXT NOT NULL, version TEXT NOT NULL,
    data_sha256 TEXT NOT NULL, budget TEXT NOT NULL, bound TEXT NOT NULL, backend TEXT NOT NULL,
    planned INTEGER NOT NULL, stored INTEGER NOT NULL DEFAULT 0,
    started_at TEXT NOT NULL, ended_at TEXT);
CREATE TABLE IF NOT EXISTS deals (
    trial INTEGER NOT NULL, hand TEXT NOT NULL, seed INTEGER NOT NULL,
    die_seed INTEGER NOT NULL, budget TEXT NOT NULL, bound TEXT NOT NULL,
    version TEXT NOT NULL, data_sha256 TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('won', 'unwinnable', 'unknown')),
    solve_status TEXT NOT NULL, vp INTEGER, failed_vp INTEGER, upper_bound INTEGER,
    line TEXT NOT NULL, nodes INTEGER NOT NULL, seconds REAL NOT NULL,
    task_seconds REAL NOT NULL, worker TEXT NOT NULL, run INTEGER REFERENCES runs (id),
    stored_at TEXT NOT NULL,
    PRIMARY KEY ({", ".join(KEY)}));
"""


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


class SweepStore:
    """An open sweep database (`create`: made if missing, else it must exist)."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        self.path = path
        if not create and not path.exists():
            raise SweepError(f"--db: {path} does not exist (make it with heritage sweep run)")
        if not create and not path.is_file():
            raise SweepError(f"--db: {path} is not a file (a sweep database is one SQLite file)")
        try:
            self.db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as exc:
            raise SweepError(f"--db: cannot open {path} ({exc})") from None
        self.db.row_factory = sqlite3.Row
        with self._errors("open"):
            until = time.monotonic() + BUSY_SECONDS
            while True:
                try:
                    self._open(create)
                    break
                except sqlite3.OperationalError as exc:
                    # SQLite answers some lock conflicts of a file being set up "locked" at
                    # once, without its busy wait: another sweep is opening it; try again
                    if "locked" not in str(exc) or time.monotonic() >= until:
                        raise
                    time.sleep(0.05)

    def _open(self, create: bool) -> None:
        """Put the file in WAL mode, then check its schema, creating it in a new file, in one
        immediate transaction: sweeps that start on one new file at once each see either no
        table (and create them) or the whole schema with its version. A file opened only to
        read (`create` false) is checked in a plain transaction and left as it is (a sweep
        database is in WAL mode already; any other SQLite file is refused untouched)."""
        if not create:
            self.db.execute("BEGIN")
            try:
                self._check_schema(create)
            finally:
                self.db.execute("ROLLBACK")
            return
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # WAL: a killed process loses nothing
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self._check_schema(create)
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def _check_schema(self, create: bool) -> None:
        path = self.path
        names = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if names and "meta" not in names:
            raise SweepError(f"--db: {path} is a SQLite file but not a sweep database "
                             f"(tables: {', '.join(sorted(names))})")
        if not names and not create:
            raise SweepError(f"--db: {path} is empty: no sweep has run on it")
        if not names:
            for statement in _SCHEMA.split(";"):  # executescript would commit first
                if statement.strip():
                    self.db.execute(statement)
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        have = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if have is None or have[0] != SCHEMA_VERSION:
            raise SweepError(f"--db: {path} has sweep schema "
                             f"{None if have is None else have[0]!r}, "
                             f"this heritage reads schema {SCHEMA_VERSION!r}")

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            raise SweepError(f"--db: {self.path}: cannot {doing} ({exc})") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> SweepStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ runs

    def start_run(self, command: str, version: str, data_sha256: str, budget: str, bound: str,
                  backend: str, planned: int) -> int:
        """Record a sweep run starting; its id marks the rows it stores."""
        with self._errors("record the run"):
            cur = self.db.execute(
                "INSERT INTO runs (command, version, data_sha256, budget, bound, backend, planned, "
                "started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (command, version, data_sha256, budget, bound, backend, planned, _now()))
        return int(cur.lastrowid or 0)

    def end_run(self, run: int) -> None:
        """Record a sweep run ending (a run killed with ``kill -9`` keeps no end: it never
        ended; its count of stored deals is right all the same, `add`)."""
        with self._errors("record the run"):
            self.db.execute("UPDATE runs SET ended_at = ? WHERE id = ?", (_now(), run))

    # ------------------------------------------------------------------ deals

    def done(self, budget: str, bound: str, version: str,
             data_sha256: str) -> dict[tuple[int, str, int, int], str]:
        """The deals (trial, hand, seed, die seed) already stored for this budget, bound,
        version and data, with their status."""
        with self._errors("read"):
            rows = self.db.execute(
                "SELECT trial, hand, seed, die_seed, status FROM deals WHERE budget = ? AND "
                "bound = ? AND version = ? AND data_sha256 = ?",
                (budget, bound, version, data_sha256))
            return {(int(r[0]), str(r[1]), int(r[2]), int(r[3])): str(r[4]) for r in rows}

    def add(self, row: dict[str, Any], run: int | None) -> bool:
        """Store one deal's row and commit it at once, with its run's count of stored deals in
        the same transaction (so the count is right even after ``kill -9``); False if the deal
        was already stored. A row the table refuses (a status outside won/unwinnable/unknown,
        a missing cell) is a `SweepError`, stored and counted nowhere."""
        values = [row[c] for c in KEY + RESULT] + [run, _now()]
        with self._errors("store a deal"):
            self.db.execute("BEGIN IMMEDIATE")
            try:
                # the upsert clause skips only a row whose key is stored; a row breaking a
                # CHECK or NOT NULL is an error (OR IGNORE would skip it as "stored")
                cur = self.db.execute(
                    f"INSERT INTO deals ({', '.join(COLUMNS)}) "
                    f"VALUES ({', '.join('?' * len(COLUMNS))}) "
                    f"ON CONFLICT ({', '.join(KEY)}) DO NOTHING", values)
                stored = cur.rowcount == 1
                if stored and run is not None:
                    self.db.execute("UPDATE runs SET stored = stored + 1 WHERE id = ?", (run,))
            except BaseException:
                if self.db.in_transaction:  # SQLite ends some failed transactions itself
                    self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
        return stored

    def status(self, row: dict[str, Any]) -> str:
        """The status stored for the deal and setting of `row` (the row kept: the first)."""
        with self._errors("read"):
            have = self.db.execute(
                f"SELECT status FROM deals WHERE {' AND '.join(f'{c} = ?' for c in KEY)}",
                [row[c] for c in KEY]).fetchone()
        if have is None:
            raise SweepError(f"--db: {self.path}: the row of trial {row['trial']} hand "
                             f"{row['hand']} seed {row['seed']} is missing")
        return str(have[0])

    def rows(self, *, budget: str | None = None, bound: str | None = None,
             deal: tuple[int, str, int, int] | None = None) -> list[dict[str, Any]]:
        """Stored rows, optionally of one budget, bound or deal, in key order."""
        where: list[str] = []
        args: list[Any] = []
        for column, value in (("budget", budget), ("bound", bound)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        if deal is not None:
            where.append("trial = ? AND hand = ? AND seed = ? AND die_seed = ?")
            args += list(deal)
        sql = f"SELECT {', '.join(COLUMNS)} FROM deals"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += f" ORDER BY {', '.join(KEY)}"
        with self._errors("read"):
            rows = [dict(r) for r in self.db.execute(sql, args)]
        for row in rows:
            self._check_row(row)
        return rows

    def _check_row(self, row: dict[str, Any]) -> None:
        """Refuse a stored row whose cells are not of their column's kind (SQLite keeps text in
        an INTEGER column: a store edited by hand or damaged), naming the row and the cell."""
        for column in COLUMNS:
            value = row[column]
            kinds = COLUMN_KINDS.get(column, (str,))
            if isinstance(value, bool) or not isinstance(value, kinds):
                want = " or ".join(KIND_WORDS[k] for k in kinds)
                raise SweepError(f"--db: {self.path}: the row of trial {row['trial']!r} hand "
                                 f"{row['hand']!r} seed {row['seed']!r}: column {column!r} = "
                                 f"{row[column]!r}: expected {want} (a damaged store?)")
