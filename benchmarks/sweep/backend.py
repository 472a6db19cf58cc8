"""What the sweep driver asks of a backend that runs tasks: a process pool on this machine
(`benchmarks.sweep.pool`) or a Dask cluster (`benchmarks.sweep.cluster`).

The driver hands out a task when the backend has room (`capacity`), and collects `Outcome`s:
a row, or an error (the worker was lost, the task passed its deadline, it raised). A backend
owns its deadline (it gives up a task that runs past it) and its workers; the driver owns the
retries and the database, so every backend retries the same way.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from benchmarks.sweep.plan import Task


@dataclass(frozen=True)
class Outcome:
    """A task's end: its row (`benchmarks.sweep.tasks.solve_deal`), or why it has none."""

    task: Task
    row: dict[str, Any] | None
    error: str | None = None


class Backend(Protocol):
    """Runs sweep tasks somewhere (see the module docstring)."""

    #: How the runs table names it: ``pool:2``, ``dask-local:2``, ``dask:tcp://...``.
    name: str

    def start(self) -> None:
        """Start the workers (or connect to them) and check them; wait until they can work.

        :raises SweepError: they cannot be started or reached, or differ from this machine."""

    def capacity(self) -> int:
        """How many more tasks may be handed out now."""

    def submit(self, task: Task) -> None:
        """Hand out one task (only when `capacity` is positive)."""

    def running(self) -> int:
        """Tasks handed out and not yet collected."""

    def collect(self, timeout: float) -> list[Outcome]:
        """The tasks ended since the last call, waiting up to `timeout` seconds for one."""

    def close(self) -> None:
        """Stop the workers (tasks still running are dropped) and free everything."""


@contextmanager
def sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C while worker processes are started, so that they inherit the ignoring:
    Ctrl-C in a terminal reaches the whole process group, and only the collecting process may
    decide what it means (stop handing out deals, then drop the running ones)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
