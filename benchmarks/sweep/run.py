"""The sweep driver: hand out the deals not stored yet, store each row as it arrives.

`run_sweep` is the collecting process's loop, the one writer of the database:

1. Plan: every deal of the `Sweep`; the deals already stored for its budget, bound, heritage
   version and data are skipped (so the same command resumes a sweep cut short).
2. Hand out tasks while the backend has room (`Backend.capacity`), seed first.
3. Collect ended tasks: a row is stored and committed at once; an error (worker lost, deadline
   passed, an exception) puts the deal back at the front of the queue until it has failed
   `retries` + 1 times, then it is reported as failed (not stored: the next run tries again).
   A deal another sweep on the same file stored meanwhile counts as stored before, with the
   status of the row kept (the first).
   A worker refusing the sweep (another heritage version or data) stops it.
4. Interrupts (`interrupts()`, e.g. Ctrl-C counted by the command line): the first stops
   handing out tasks and waits for the running ones to end, the second drops them. Every row
   stored stays stored; the command says how to resume.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from benchmarks.sweep.backend import Backend, Outcome
from benchmarks.sweep.plan import Sweep, SweepError, Task
from benchmarks.sweep.store import SweepStore

#: `interrupts()` values: nothing, stop handing out tasks, drop the running ones.
GO, STOP, DROP = 0, 1, 2
#: Seconds `collect` waits for a task to end before the loop looks at interrupts again.
TICK = 0.2


@dataclass
class SweepTally:
    """What a sweep did: counts of the planned deals stored (before and during this run)."""

    planned: int
    already: int = 0  # stored before this run
    solved: int = 0  # stored by this run
    outcomes: dict[str, int] = field(default_factory=lambda: {
        "won": 0, "unwinnable": 0, "unknown": 0})
    failed: list[str] = field(default_factory=list)
    retried: int = 0
    interrupted: bool = False
    dropped: int = 0
    refused: str | None = None
    run: int = 0

    @property
    def stored(self) -> int:
        return self.already + self.solved

    @property
    def complete(self) -> bool:
        return self.stored == self.planned

    def as_json(self) -> dict[str, Any]:
        return {"planned": self.planned, "already": self.already, "solved": self.solved,
                "stored": self.stored, "won": self.outcomes["won"],
                "unwinnable": self.outcomes["unwinnable"], "unknown": self.outcomes["unknown"],
                "retried": self.retried, "failed": self.failed, "interrupted": self.interrupted,
                "dropped": self.dropped, "refused": self.refused, "complete": self.complete,
                "run": self.run}


def pending(sweep: Sweep, store: SweepStore, tally: SweepTally) -> list[Task]:
    """The deals of `sweep` not stored yet; the stored ones are counted into `tally`."""
    done = store.done(sweep.budget.key, sweep.bound, sweep.version, sweep.data_sha256)
    todo = []
    for task in sweep.tasks():
        status = done.get(task.deal)
        if status is None:
            todo.append(task)
        else:
            tally.already += 1
            tally.outcomes[status] += 1
    return todo


def run_sweep(sweep: Sweep, store: SweepStore, backend: Backend, *, retries: int = 1,
              command: str = "", interrupts: Callable[[], int] = lambda: GO,
              on_start: Callable[[SweepTally], None] | None = None,
              on_row: Callable[[dict[str, Any], SweepTally], None] | None = None,
              on_stopping: Callable[[int], None] | None = None) -> SweepTally:
    """Solve every deal of `sweep` not yet in `store` on `backend` (module docstring).

    :raises SweepError: the backend cannot start, or refuses a worker at start."""
    if retries < 0:
        raise SweepError(f"--retries: must be 0 or more, got {retries}")
    tally = SweepTally(planned=sweep.count)
    todo = deque(pending(sweep, store, tally))
    if on_start is not None:
        on_start(tally)
    if not todo:
        return tally
    attempts: dict[tuple[int, str, int, int], int] = {}
    backend.start()
    tally.run = store.start_run(command, sweep.version, sweep.data_sha256, sweep.budget.key,
                                sweep.bound, backend.name, sweep.count)
    stopping = False

    def ended(out: Outcome) -> None:
        nonlocal stopping
        if out.row is not None and "refused" in out.row:
            tally.refused = str(out.row["refused"])
            stopping = True
        elif out.row is not None:
            if store.add(out.row, tally.run):
                tally.solved += 1
                tally.outcomes[out.row["status"]] += 1
            else:  # another sweep on the file stored it first: its row is the one kept
                tally.already += 1
                tally.outcomes[store.status(out.row)] += 1
            if on_row is not None:
                on_row(out.row, tally)
        else:
            attempts[out.task.deal] = attempts.get(out.task.deal, 0) + 1
            if attempts[out.task.deal] <= retries and not stopping:
                tally.retried += 1
                todo.appendleft(out.task)
            else:
                t = out.task
                tally.failed.append(f"trial {t.trial} hand {t.hand} seed {t.seed} die seed "
                                    f"{t.die_seed}: {out.error}")

    try:
        while True:
            asked = interrupts()
            if asked >= DROP:
                tally.dropped = backend.running()
                tally.interrupted = True
                break
            if asked >= STOP and not stopping:
                stopping = tally.interrupted = True
                if on_stopping is not None:
                    on_stopping(backend.running())
            while not stopping and todo and backend.capacity() > 0:
                backend.submit(todo.popleft())
            if backend.running() == 0 and (stopping or not todo):
                break
            for out in backend.collect(TICK):
                ended(out)
    finally:
        backend.close()
        store.end_run(tally.run)
    return tally
