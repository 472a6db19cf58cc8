"""The default sweep backend: a pool of worker processes on this machine.

Each worker is a process started with ``spawn`` (a fresh interpreter that imports the installed
package, as a Dask worker does) running `_serve`: it receives one task's keyword arguments at a
time on its own pipe, calls `benchmarks.sweep.tasks.solve_deal` and sends the row back. The pool
hands a task only to an idle worker, so it always knows which task each worker runs: a worker
that dies (killed, out of memory) costs that task only, and one that runs past the deadline is
killed; either way a fresh worker takes its place and the driver decides on a retry. Workers
ignore Ctrl-C from their start (the collecting process decides what to do) and leave when their pipe
closes, so a collector killed with ``kill -9`` leaves no worker behind once their current deal is
done.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from benchmarks.sweep.backend import Outcome, sigint_ignored
from benchmarks.sweep.plan import SweepError, Task
from benchmarks.sweep.tasks import solve_deal, worker_name

#: Seconds a new worker may take to import the package and say it is ready.
START_TIMEOUT = 180.0


def _serve(conn: Connection) -> None:
    """Body of a pool worker: solve the deals sent on `conn`, one at a time, until ``None``
    arrives or the collector is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        conn.send(("ready", worker_name()))
        while True:
            kwargs = conn.recv()
            if kwargs is None:
                return
            reply: tuple[str, Any]
            try:
                reply = ("ok", solve_deal(**kwargs))
            except Exception as exc:  # reported to the collector, which retries the deal
                reply = ("error", f"{type(exc).__name__}: {exc}")
            conn.send(reply)
    except (EOFError, OSError):  # the collector is gone
        return


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    ready: bool = False
    task: Task | None = None
    started: float = 0.0


class ProcessPool:
    """`workers` processes, each task given up after `deadline` seconds."""

    def __init__(self, workers: int, deadline: float) -> None:
        if workers < 1:
            raise SweepError(f"--workers: must be at least 1, got {workers}")
        self.size = workers
        self.deadline = deadline
        self.name = f"pool:{workers}"
        self.context = mp.get_context("spawn")
        self.workers: list[_Worker] = []
        self.failed_starts: list[str] = []

    def _spawn(self) -> _Worker:
        here, there = self.context.Pipe()
        process = self.context.Process(target=_serve, args=(there,), daemon=True,
                                       name="heritage-sweep-worker")
        with sigint_ignored():
            process.start()
        there.close()
        return _Worker(process, here)

    def start(self) -> None:
        self.workers = [self._spawn() for _ in range(self.size)]
        until = time.monotonic() + START_TIMEOUT
        while not all(w.ready for w in self.workers):
            if time.monotonic() > until:
                self.close()
                raise SweepError(f"--workers: the worker processes did not start within "
                                 f"{START_TIMEOUT:g} s")
            self.collect(0.5)
            if self.failed_starts:
                self.close()
                raise SweepError(f"--workers: a worker process failed to start "
                                 f"({self.failed_starts[0]})")

    def capacity(self) -> int:
        return sum(1 for w in self.workers if w.ready and w.task is None)

    def submit(self, task: Task) -> None:
        worker = next(w for w in self.workers if w.ready and w.task is None)
        worker.task, worker.started = task, time.monotonic()
        worker.conn.send(task.kwargs())

    def running(self) -> int:
        return sum(1 for w in self.workers if w.task is not None)

    def _replace(self, worker: _Worker) -> None:
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join(timeout=5.0)
        worker.conn.close()
        self.workers[self.workers.index(worker)] = self._spawn()

    def collect(self, timeout: float) -> list[Outcome]:
        waiting = [w.conn for w in self.workers] + [w.process.sentinel for w in self.workers]
        wait(waiting, timeout)
        out: list[Outcome] = []
        now = time.monotonic()
        for worker in list(self.workers):
            gone = False
            try:
                while worker.conn.poll():
                    kind, value = worker.conn.recv()
                    if kind == "ready":
                        worker.ready = True
                    elif worker.task is not None:
                        row, error = (value, None) if kind == "ok" else (None, value)
                        out.append(Outcome(worker.task, row, error))
                        worker.task = None
            except (EOFError, OSError):
                gone = True
            if gone or not worker.process.is_alive():
                code = worker.process.exitcode
                if worker.task is not None:
                    out.append(Outcome(worker.task, None, f"worker lost (exit code {code})"))
                elif not worker.ready:
                    self.failed_starts.append(f"exit code {code}")
                    if len(self.failed_starts) > 3 * self.size:
                        raise SweepError(f"--workers: worker processes keep failing to start "
                                         f"({self.failed_starts[-1]})")
                self._replace(worker)
            elif worker.task is not None and now - worker.started > self.deadline:
                out.append(Outcome(worker.task, None,
                                   f"deadline of {self.deadline:g} s passed (worker stopped)"))
                self._replace(worker)
        return out

    def close(self) -> None:
        for worker in self.workers:
            try:
                if worker.task is None and worker.process.is_alive():
                    worker.conn.send(None)
            except OSError:
                pass
        until = time.monotonic() + 2.0
        for worker in self.workers:
            if worker.task is not None:
                worker.process.kill()
            worker.process.join(timeout=max(0.0, until - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(timeout=5.0)
            worker.conn.close()
        self.workers = []
