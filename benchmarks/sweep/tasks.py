"""The task of a sweep: solve one deal, in whatever process or machine runs it.

`solve_deal` is a plain top-level function of the installed package taking plain values
(trial, hand, seed, die seed, budget, bound, and the heritage version and data the sweep
expects) and returning a plain dict: nothing of the engine is pickled, so a process pool and a
Dask cluster run the same function. It deals the game as ``heritage solve`` does
(`puzzles.deal.build_setup`), solves it with `solver.solve.solve` on one core (NRPA seed 0, so a
node-limited solve gives the same line everywhere) and writes the line with
`solver.engine.record.GameRecord`.

A worker whose heritage version or card, chest and trial data differ from the sweep's would
answer another question: `solve_deal` then solves nothing and returns ``{"refused": why}``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import socket
import time
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any

import puzzles
import solver
from benchmarks.sweep.plan import Budget
from puzzles.chests import load_chests
from puzzles.deal import build_setup, load_cards
from puzzles.trials import DEFAULT_PATH as TRIALS_PATH
from solver.engine.record import GameRecord
from solver.search.status import Status
from solver.solve import SolveConfig, solve

#: What a deal's solve status says about winning the trial with it.
OUTCOME = {Status.OPTIMAL: "won", Status.FEASIBLE: "won", Status.INFEASIBLE: "unwinnable",
           Status.UNKNOWN: "unknown"}
#: The NRPA seed of every sweep solve (the deal's seeds vary, the search's does not).
SEARCH_SEED = 0


def heritage_version() -> str:
    """The installed heritage version (``unknown`` when run from a tree not installed) and the
    digest of the code that decides a result (`code_digest`): ``0.1.0+3f2a9c01d4e7``. Two
    checkouts of one version with different code (an editable install moved on) are two
    settings of a sweep, never mixed."""
    try:
        number = package_version("heritage")
    except PackageNotFoundError:
        number = "unknown"
    return f"{number}+{code_digest()[:12]}"


@functools.cache
def code_digest() -> str:
    """One sha256 over the Python sources of the packages that decide a solve's result
    (`solver`, `puzzles`), by path: the same for the pure and the compiled build of one tree
    (both play the same games, `tests/test_build.py`)."""
    digest = hashlib.sha256()
    for package in (solver, puzzles):
        root = Path(str(package.__file__)).parent
        for path in sorted(root.rglob("*.py")):
            digest.update(path.relative_to(root.parent).as_posix().encode("utf-8") + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def data_digest(card_sets: Sequence[tuple[str, str]], chests_sha256: str,
                trials_sha256: str) -> str:
    """One sha256 over the data a deal depends on: each card set's sha256, the chest file's
    and the trial table's."""
    text = json.dumps({"cards": [list(c) for c in card_sets], "chests": chests_sha256,
                       "trials": trials_sha256}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def trials_sha256() -> str:
    """The sha256 of the shipped trial table (`puzzles/data/trials.json`)."""
    return hashlib.sha256(TRIALS_PATH.read_bytes()).hexdigest()


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def worker_identity() -> dict[str, str]:
    """The heritage version and data sha256 this process solves with (a sweep compares every
    worker's with its own), and the worker's name."""
    _, card_sets = load_cards(None)
    return {"version": heritage_version(),
            "data_sha256": data_digest(card_sets, load_chests().sha256, trials_sha256()),
            "worker": worker_name()}


def mismatch(identity: dict[str, str], version: str, data_sha256: str) -> str | None:
    """Why a worker of `identity` may not solve for a sweep of `version` and `data_sha256`
    (None: it may)."""
    if identity["version"] == version and identity["data_sha256"] == data_sha256:
        return None
    return (f"worker {identity['worker']} has heritage {identity['version']} with card/chest "
            f"data sha256 {identity['data_sha256'][:12]}..., the sweep has heritage {version} "
            f"with data sha256 {data_sha256[:12]}...: install the same heritage on every worker")


def solve_deal(trial: int, hand: str, seed: int, die_seed: int, node_limit: int | None,
               time_limit: float | None, bound: str, version: str,
               data_sha256: str) -> dict[str, Any]:
    """Solve one deal of trial `trial` (RULES.md section 9: every goal chest met) with `hand`,
    `seed` and `die_seed`, within the budget, with the bound `bound`.

    Returns the row of the sweep database: the deal and budget, ``status`` (``won``: a witness
    line meets every goal; ``unwinnable``: proven that none does; ``unknown``), the solver's
    ``solve_status``, ``vp`` of the witness, ``upper_bound``, ``line`` (the witness, else the
    best line found that misses a goal, in notation by turn), ``nodes``, ``seconds`` of the
    solve and ``task_seconds`` of the whole task (and ``cpu_seconds``, not stored). Or
    ``{"refused": why}`` when this worker's
    heritage version or data differ from `version` and `data_sha256`."""
    started, cpu = time.perf_counter(), time.process_time()
    book, card_sets = load_cards(None)
    setup = build_setup(book, card_sets, hand=hand, seed=seed, die_seed=die_seed, trial=trial)
    identity = {"version": heritage_version(), "worker": worker_name(),
                "data_sha256": data_digest(card_sets, setup.chests_sha256 or "", trials_sha256())}
    why = mismatch(identity, version, data_sha256)
    if why is not None:
        return {"refused": why}
    root = GameRecord.new(setup, book)
    cfg = SolveConfig(node_limit=node_limit, time_limit=time_limit, workers=1, seed=SEARCH_SEED,
                      bound=bound)
    res = solve(root.state, cfg)
    record = root.clone()
    for action in res.line if res.value is not None else res.failed_line:
        record.apply(action)
    return {
        "trial": trial, "hand": hand, "seed": seed, "die_seed": die_seed,
        "budget": Budget(node_limit=node_limit, time_limit=time_limit).key,
        "bound": bound, "version": version, "data_sha256": data_sha256,
        "status": OUTCOME[res.status], "solve_status": res.status.value,
        "vp": None if res.value is None else int(res.value),
        "failed_vp": None if res.failed_value is None else int(res.failed_value),
        "upper_bound": None if res.bound in (float("inf"), float("-inf")) else int(res.bound),
        "line": json.dumps(record.line, ensure_ascii=False, separators=(",", ":")),
        "nodes": res.nodes, "seconds": round(res.seconds, 4),
        "task_seconds": round(time.perf_counter() - started, 4), "worker": identity["worker"],
        "cpu_seconds": round(time.process_time() - cpu, 4),  # not stored: for benchmarks
    }
