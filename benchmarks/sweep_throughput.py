"""Sweep throughput: how a sweep scales with workers, and what each task costs beyond its solve.

Two measures, each repeated (runs interleaved, medians reported; the machine's load average
before and after is printed: on a shared machine other work takes cores from the workers), each run
on a fresh database, timed from the moment the backend's workers are ready (process start-up and
imports are not timed) to the last row stored:

* **scale**: the same deals (trials 1-6 x hands 1-4 x seeds from 1000, at ``--node-limit``)
  on a pool of 1 worker and of 2; the ratio of deals per second, 2 workers over 1, and the
  cores the workers got (CPU seconds of the tasks per second of wall time: below 2 for 2
  workers when other work shares the machine);
* **overhead**: deals at a tiny budget (``--tiny-node-limit``) on a pool of 1 worker:
  ``wall / deals - mean task seconds``, the time per deal spent outside the task (handing it
  out, the pipe both ways, storing and committing its row), where *task seconds* is the time
  inside `benchmarks.sweep.tasks.solve_deal` (loading the cards, dealing, solving, writing the
  line; reported too, with the solve's own seconds).

A control runs the scale deals on a plain `multiprocessing` pool of 1 and 2 processes (no
sweep code between the deals): its ratio is what the machine allows at the time.

``--dask`` measures the same on ``--dask-local 1`` and ``2`` (needs the extra ``cluster``).

Run from the repository root::

    python -m benchmarks.sweep_throughput [--node-limit K] [--deals N] [--repeats R] [--json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.sweep.backend import Backend, Outcome
from benchmarks.sweep.cluster import DaskCluster
from benchmarks.sweep.plan import Budget, Sweep, Task
from benchmarks.sweep.pool import ProcessPool
from benchmarks.sweep.run import run_sweep
from benchmarks.sweep.store import SweepStore
from benchmarks.sweep.tasks import solve_deal, worker_identity

#: Seeds of the measured deals start here (away from the seeds of the usual sweeps).
FIRST_SEED = 1000


class Timed:
    """A backend that notes when its workers were ready."""

    def __init__(self, inner: Backend) -> None:
        self.inner = inner
        self.name = inner.name
        self.ready = 0.0

    def start(self) -> None:
        self.inner.start()
        self.ready = time.perf_counter()

    def capacity(self) -> int:
        return self.inner.capacity()

    def submit(self, task: Task) -> None:
        self.inner.submit(task)

    def running(self) -> int:
        return self.inner.running()

    def collect(self, timeout: float) -> list[Outcome]:
        return self.inner.collect(timeout)

    def close(self) -> None:
        self.inner.close()


def deals(count: int, budget: Budget) -> Sweep:
    """`count` deals (rounded up to whole seeds of 24 deals) at `budget`."""
    me = worker_identity()
    seeds = tuple(range(FIRST_SEED, FIRST_SEED + -(-count // 24)))
    return Sweep((1, 2, 3, 4, 5, 6), ("1", "2", "3", "4"), seeds, None, budget, "simple",
                 me["version"], me["data_sha256"])


def measure(sweep: Sweep, backend: Backend) -> dict[str, Any]:
    """Run `sweep` on `backend` into a fresh database; deals per second once ready."""
    timed = Timed(backend)
    cpu: list[float] = []
    with tempfile.TemporaryDirectory() as folder, SweepStore(Path(folder) / "t.sqlite") as store:
        tally = run_sweep(sweep, store, timed, retries=0,
                          on_row=lambda row, _: cpu.append(row["cpu_seconds"]))
        wall = time.perf_counter() - timed.ready
        rows = store.rows()
    assert tally.complete, tally.as_json()
    task = statistics.fmean(r["task_seconds"] for r in rows)
    solve = statistics.fmean(r["seconds"] for r in rows)
    return {"backend": backend.name, "deals": len(rows), "wall": wall,
            "deals_per_second": len(rows) / wall, "task_seconds": task, "solve_seconds": solve,
            "cores": sum(cpu) / wall}


def _solve(kwargs: dict[str, Any]) -> float:
    """One deal, for the bare pool: its CPU seconds."""
    return float(solve_deal(**kwargs)["cpu_seconds"])


def bare(sweep: Sweep, workers: int) -> dict[str, Any]:
    """The control: the same deals on a plain `multiprocessing` pool (no sweep: no store, no
    deadlines), timed once its workers are up. Its ratio is what the machine allows now."""
    with mp.get_context("spawn").Pool(workers) as plain:
        plain.map(abs, range(4 * workers))  # the workers are up
        started = time.perf_counter()
        cpu = plain.map(_solve, [t.kwargs() for t in sweep.tasks()], chunksize=1)
        wall = time.perf_counter() - started
    return {"backend": f"bare:{workers}", "deals": len(cpu), "wall": wall,
            "deals_per_second": len(cpu) / wall, "cores": sum(cpu) / wall}


def pool(workers: int) -> Backend:
    return ProcessPool(workers, deadline=600.0)


def local(workers: int) -> Backend:
    return DaskCluster(None, workers, deadline=600.0)


def bench(make: Any, node_limit: int, count: int, tiny: int, tiny_count: int,
          repeats: int) -> dict[str, Any]:
    """The scale ratio and the per-deal overhead with the backends `make(1)`, `make(2)`."""
    big, small = (deals(count, Budget(node_limit=node_limit)),
                  deals(tiny_count, Budget(node_limit=tiny)))
    one, two, tiny_runs, bare_one, bare_two = [], [], [], [], []
    load_before = os.getloadavg()[0]
    for _ in range(repeats):
        one.append(measure(big, make(1)))
        two.append(measure(big, make(2)))
        tiny_runs.append(measure(small, make(1)))
        if make is pool:
            bare_one.append(bare(big, 1))
            bare_two.append(bare(big, 2))
    rate1 = statistics.median(r["deals_per_second"] for r in one)
    rate2 = statistics.median(r["deals_per_second"] for r in two)
    overhead = statistics.median(r["wall"] / r["deals"] - r["task_seconds"] for r in tiny_runs)
    return {
        "backend": one[0]["backend"].split(":")[0], "node_limit": node_limit,
        "deals": big.count, "repeats": repeats,
        "one_worker_deals_per_second": round(rate1, 3),
        "two_workers_deals_per_second": round(rate2, 3),
        "ratio": round(rate2 / rate1, 3),
        "bare_ratio": round(statistics.median(r["deals_per_second"] for r in bare_two)
                            / statistics.median(r["deals_per_second"] for r in bare_one), 3)
        if bare_one else None,
        "one_worker_cores": round(statistics.median(r["cores"] for r in one), 3),
        "two_workers_cores": round(statistics.median(r["cores"] for r in two), 3),
        "mean_solve_seconds": round(statistics.fmean(r["solve_seconds"] for r in one), 4),
        "tiny_node_limit": tiny, "tiny_deals": small.count,
        "overhead_ms_per_deal": round(1000 * overhead, 2),
        "tiny_task_ms": round(1000 * statistics.median(r["task_seconds"] for r in tiny_runs), 2),
        "tiny_solve_ms": round(1000 * statistics.median(r["solve_seconds"] for r in tiny_runs), 2),
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "cpus": os.cpu_count(),
        "runs": {"one": one, "two": two, "tiny": tiny_runs, "bare_one": bare_one,
                 "bare_two": bare_two},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--node-limit", type=int, default=5000,
                        help="node budget of the scale runs (default 5000)")
    parser.add_argument("--deals", type=int, default=96, help="deals of a scale run (default 96)")
    parser.add_argument("--tiny-node-limit", type=int, default=1,
                        help="node budget of the overhead runs (default 1)")
    parser.add_argument("--tiny-deals", type=int, default=240,
                        help="deals of an overhead run (default 240)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each (default 3)")
    parser.add_argument("--dask", action="store_true", help="also measure --dask-local 1 and 2")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    results = [bench(pool, args.node_limit, args.deals, args.tiny_node_limit, args.tiny_deals,
                     args.repeats)]
    if args.dask:
        results.append(bench(local, args.node_limit, args.deals, args.tiny_node_limit,
                             args.tiny_deals, args.repeats))
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    for r in results:
        print(f"{r['backend']}: {r['deals']} deals at node limit {r['node_limit']} "
              f"(mean solve {r['mean_solve_seconds']:.3f} s), median of {r['repeats']}: "
              f"1 worker {r['one_worker_deals_per_second']:.2f} deals/s, 2 workers "
              f"{r['two_workers_deals_per_second']:.2f} deals/s, ratio {r['ratio']:.2f} "
              f"({r['cpus']} CPUs, load average {r['load_average'][0]} before, "
              f"{r['load_average'][1]} after; the workers got {r['one_worker_cores']:.2f} "
              f"and {r['two_workers_cores']:.2f} cores of CPU time per second)")
        if r["bare_ratio"] is not None:
            print(f"control: the same deals on a plain multiprocessing pool, ratio 2 workers / 1: "
                  f"{r['bare_ratio']:.2f} (what the machine allows at this load)")
        print(f"{r['backend']}: overhead per deal (dispatch + store) "
              f"{r['overhead_ms_per_deal']:.2f} ms, at node limit {r['tiny_node_limit']} over "
              f"{r['tiny_deals']} deals (in the task: {r['tiny_task_ms']:.2f} ms, of which the "
              f"solve {r['tiny_solve_ms']:.2f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
