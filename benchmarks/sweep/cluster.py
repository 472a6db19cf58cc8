"""The Dask backend of a sweep: an existing Dask distributed scheduler (``--dask ADDRESS``) or a
LocalCluster of N worker processes on loopback with the dashboard off (``--dask-local N``).

Needs the optional extra ``cluster`` (``pip install 'heritage[cluster]'``: dask and
distributed); without it the sweep says so and stops (exit 2).

Each task is `benchmarks.sweep.tasks.solve_deal` submitted by reference (a function of the
installed package, plain values in and out; ``pure=False``, ``retries=0``: the driver retries,
as for every backend). Before the first task, and whenever a worker joins, every worker reports
its heritage version and data sha256 (`worker_identity`); one that differs is refused and the
sweep stops (a task landing on such a worker refuses to solve, too). A worker lost mid-task
costs that task only: the scheduler runs it again elsewhere. At most two tasks per worker
thread are handed out at once, so a task waits little before it runs; one not done
`deadline` seconds after it was handed out is cancelled and reported (its worker thread finishes
the bounded solve and the result is dropped).
"""

from __future__ import annotations

import queue
import time
from typing import Any

from benchmarks.sweep.backend import Outcome, sigint_ignored
from benchmarks.sweep.plan import SweepError, Task
from benchmarks.sweep.tasks import mismatch, solve_deal, worker_identity

#: Tasks handed out per worker thread.
PER_THREAD = 2
#: Seconds between two looks at the cluster's workers (new ones are checked).
REFRESH = 2.0
#: Seconds to reach a scheduler.
CONNECT_TIMEOUT = 20.0
#: Seconds to wait for a scheduler's first worker.
WORKER_TIMEOUT = 60.0


class DaskCluster:
    """A Dask client, and the LocalCluster it started if `local_workers` is given."""

    def __init__(self, address: str | None, local_workers: int | None, deadline: float) -> None:
        if (address is None) == (local_workers is None):
            raise SweepError("--dask and --dask-local: give one of them")
        if local_workers is not None and local_workers < 1:
            raise SweepError(f"--dask-local: must be at least 1 worker, got {local_workers}")
        self.address = address
        self.local_workers = local_workers
        self.deadline = deadline
        self.name = f"dask:{address}" if address is not None else f"dask-local:{local_workers}"
        self.option = "--dask" if address is not None else "--dask-local"
        self.client: Any = None
        self.cluster: Any = None
        self.threads = 0
        self.checked: set[str] = set()
        self.looked = 0.0
        self.futures: dict[Any, tuple[Task, float]] = {}
        self.ended: queue.Queue[Any] = queue.Queue()
        self.identity = worker_identity()

    def start(self) -> None:
        try:
            import distributed as dask_distributed  # lazy: optional extra ``cluster``
        except ImportError:
            raise SweepError(f"{self.option}: needs Dask: pip install 'heritage[cluster]' "
                             "(dask[distributed])") from None
        distributed: Any = dask_distributed
        try:
            if self.local_workers is not None:
                with sigint_ignored():  # the nannies and workers inherit it
                    self.cluster = distributed.LocalCluster(
                        n_workers=self.local_workers, threads_per_worker=1, processes=True,
                        host="127.0.0.1", dashboard_address=None)
                self.client = distributed.Client(self.cluster)
            else:
                self.client = distributed.Client(self.address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as exc:
            self.close()
            where = f"the scheduler at {self.address}" if self.address else "a LocalCluster"
            raise SweepError(f"{self.option}: cannot reach {where} ({exc})") from None
        try:
            self.client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
        except TimeoutError:
            self.close()
            raise SweepError(f"{self.option}: the scheduler at {self.address} has no worker after "
                             f"{WORKER_TIMEOUT:g} s (start some: dask worker {self.address})"
                             ) from None
        self._look()

    def _look(self) -> None:
        """Count the worker threads; check the workers not checked yet."""
        self.looked = time.monotonic()
        nthreads: dict[str, int] = self.client.nthreads()
        new = [w for w in nthreads if w not in self.checked]
        if new:
            found = self.client.run(worker_identity, workers=new, on_error="return")
            for address, identity in found.items():
                if isinstance(identity, BaseException):
                    continue  # gone or not ready: looked at again next time
                why = mismatch(identity, self.identity["version"], self.identity["data_sha256"])
                if why is not None:
                    raise SweepError(f"{self.option}: refusing {address}: {why}")
                self.checked.add(address)
        self.threads = sum(n for w, n in nthreads.items() if w in self.checked)

    def capacity(self) -> int:
        if time.monotonic() - self.looked > REFRESH:
            self._look()
        return max(0, PER_THREAD * self.threads - len(self.futures))

    def submit(self, task: Task) -> None:
        future = self.client.submit(solve_deal, pure=False, retries=0, **task.kwargs())
        self.futures[future] = (task, time.monotonic())
        future.add_done_callback(self.ended.put)

    def running(self) -> int:
        return len(self.futures)

    def collect(self, timeout: float) -> list[Outcome]:
        out: list[Outcome] = []
        done: list[Any] = []
        try:
            done.append(self.ended.get(timeout=timeout))
            while True:
                done.append(self.ended.get_nowait())
        except queue.Empty:
            pass
        for future in done:
            entry = self.futures.pop(future, None)
            if entry is None:  # cancelled at its deadline, already reported
                continue
            task = entry[0]
            if future.status == "finished":
                out.append(Outcome(task, future.result()))
            elif future.status == "error":
                exc = future.exception()
                out.append(Outcome(task, None, f"{type(exc).__name__}: {exc}"))
            else:
                out.append(Outcome(task, None, f"task {future.status}"))
        now = time.monotonic()
        for future, (task, handed) in list(self.futures.items()):
            if now - handed > self.deadline:
                del self.futures[future]
                future.cancel()
                out.append(Outcome(task, None, f"deadline of {self.deadline:g} s passed "
                                               "(task cancelled)"))
        return out

    def close(self) -> None:
        for future in list(self.futures):
            future.cancel()
        self.futures.clear()
        if self.client is not None:
            self.client.close()
            self.client = None
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None
