"""What a sweep solves: the deals (trial, hand, seed, die seed) of the options, and the budget.

A sweep asks "how often can trial T be won with hand H?" of many deals: every combination of
the trials, hands, seeds and die seeds given, each solved once with the same budget and bound.
`Sweep.tasks` lists them seed first (every trial and hand of seed 0, then of seed 1, ...), so a
sweep cut short has about as many deals of each trial and hand.

Errors are `SweepError`s naming the option and the value, e.g. ``--seeds: '0-x' is not ...``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from puzzles.deal import PREMADE
from puzzles.trials import load_trials
from solver.bounds.bound import BOUND_NAMES
from solver.engine.errors import HeritageError
from solver.solve import MAX_NODES, MAX_SECONDS

#: ``--die-seeds same``: each deal's die is rolled from its own seed (``--die-seed`` = ``--seed``).
SAME = "same"
#: A sweep that plans more deals than this is refused (a typo such as ``0-99999999``).
MAX_TASKS = 10_000_000
#: The deadline of a task, beyond what its budget needs: start-up, a loaded machine.
DEADLINE_SLACK = 60.0
#: Nodes per second a task is assumed to reach at least, for the deadline of a node budget.
SLOWEST_NODES_PER_SECOND = 1000.0


class SweepError(HeritageError, ValueError):
    """A sweep that cannot run as asked: names the option or file, and the value."""


#: The largest seed a sweep stores: SQLite's integers are signed 64-bit (a seed of `solve` may
#: go up to 2^64 - 1).
MAX_SWEEP_SEED = 2**63 - 1


def parse_numbers(text: str, option: str, low: int = 0, high: int = MAX_SWEEP_SEED,
                  ) -> tuple[int, ...]:
    """Whole numbers written as a list of ranges, ``0-999`` or ``1,3,5`` or ``1-3,6``, in the
    order given, each once.

    >>> parse_numbers("1-3,6,2", "--trials")
    (1, 2, 3, 6)

    :raises SweepError: a word that is not a number or range, a number below `low` or above
        `high`, an empty range."""
    out: list[int] = []
    for word in (w.strip() for w in text.split(",")):
        m = re.fullmatch(r"(-?\d+)(?:\s*-\s*(-?\d+))?", word)
        if m is None:
            raise SweepError(f"{option}: {word!r} is not a whole number or a range like 0-99 "
                             "(separate several with commas)")
        first = int(m.group(1))
        last = first if m.group(2) is None else int(m.group(2))
        if last < first:
            raise SweepError(f"{option}: {word!r} is an empty range (write the smaller number "
                             "first)")
        if first < low:
            raise SweepError(f"{option}: {first} is below {low}")
        if last > high:
            raise SweepError(f"{option}: {last} is above {high:,}"
                             + (" (2^63 - 1: the sweep database stores signed 64-bit integers)"
                                if high == MAX_SWEEP_SEED else ""))
        if last - first >= MAX_TASKS:
            raise SweepError(f"{option}: {word!r} has more than {MAX_TASKS:,} numbers")
        out.extend(range(first, last + 1))
    return tuple(dict.fromkeys(out))


def parse_hands(text: str) -> tuple[str, ...]:
    """Starting hands: premade 1-4 and ``draw`` (draw 10, keep 6), e.g. ``1,2,3,4,draw`` or
    ``1-4,draw``, in the order given.

    :raises SweepError: a hand that is not 1-4 or draw."""
    out: list[str] = []
    for word in (w.strip() for w in text.split(",")):
        if word == "draw":
            out.append(word)
            continue
        for n in parse_numbers(word, "--hands", low=1):
            if str(n) not in PREMADE:
                raise SweepError(f"--hands: {n} is not a hand (premade hands 1-4, or draw)")
            out.append(str(n))
    return tuple(dict.fromkeys(out))


def parse_die_seeds(text: str) -> tuple[int, ...] | None:
    """``same`` (None: each deal's die seed is its seed) or die seeds like ``--seeds``."""
    if text.strip() == SAME:
        return None
    return parse_numbers(text, "--die-seeds")


@dataclass(frozen=True)
class Budget:
    """The budget of each deal's solve: a node limit (deterministic) or a time limit."""

    node_limit: int | None = None
    time_limit: float | None = None

    def __post_init__(self) -> None:
        if (self.node_limit is None) == (self.time_limit is None):
            raise SweepError("--time-limit and --node-limit: give exactly one budget")
        if self.node_limit is not None and not 1 <= self.node_limit <= MAX_NODES:
            raise SweepError(f"--node-limit: must be a whole number from 1 to {MAX_NODES:,}, "
                             f"got {self.node_limit}")
        if self.time_limit is not None and not 0 < self.time_limit <= MAX_SECONDS:
            raise SweepError(f"--time-limit: must be a number of seconds above 0 and at most "
                             f"{MAX_SECONDS:g}, got {self.time_limit}")

    @property
    def key(self) -> str:
        """The budget as stored in the database: ``nodes=20000`` or ``seconds=30``; a time
        limit in its shortest exact spelling (``seconds=0.05000004``, never rounded into
        another budget's rows)."""
        if self.node_limit is not None:
            return f"nodes={self.node_limit}"
        short = f"{self.time_limit:g}"
        return f"seconds={short if float(short) == self.time_limit else repr(self.time_limit)}"

    def default_deadline(self) -> float:
        """Seconds a task may take before it is given up (and retried): twice a time limit, or
        a node limit at `SLOWEST_NODES_PER_SECOND`, plus `DEADLINE_SLACK`."""
        if self.time_limit is not None:
            return 2 * self.time_limit + DEADLINE_SLACK
        return float(self.node_limit or 0) / SLOWEST_NODES_PER_SECOND + DEADLINE_SLACK


@dataclass(frozen=True)
class Task:
    """One deal to solve, in plain values (what is sent to a worker; nothing of the engine)."""

    trial: int
    hand: str
    seed: int
    die_seed: int
    budget: Budget
    bound: str
    version: str  # the heritage version and data the worker must have
    data_sha256: str

    @property
    def deal(self) -> tuple[int, str, int, int]:
        """(trial, hand, seed, die seed): the deal, as the database keys it with the budget."""
        return (self.trial, self.hand, self.seed, self.die_seed)

    def kwargs(self) -> dict[str, Any]:
        """The keyword arguments of `benchmarks.sweep.tasks.solve_deal` for this deal."""
        return {"trial": self.trial, "hand": self.hand, "seed": self.seed,
                "die_seed": self.die_seed, "node_limit": self.budget.node_limit,
                "time_limit": self.budget.time_limit, "bound": self.bound,
                "version": self.version, "data_sha256": self.data_sha256}


def check_bound(bound: str) -> str:
    if bound not in BOUND_NAMES:
        raise SweepError(f"--bound: must be one of {', '.join(BOUND_NAMES)}, got {bound!r}")
    return bound


@dataclass(frozen=True)
class Sweep:
    """The deals of a sweep and how each is solved: every combination of `trials`, `hands`,
    `seeds` and `die_seeds` (None: each deal's die seed is its seed), with one budget and bound,
    for the heritage `version` and card/chest data `data_sha256` of the collecting machine."""

    trials: tuple[int, ...]
    hands: tuple[str, ...]
    seeds: tuple[int, ...]
    die_seeds: tuple[int, ...] | None
    budget: Budget
    bound: str
    version: str
    data_sha256: str

    def __post_init__(self) -> None:
        check_bound(self.bound)
        if self.count > MAX_TASKS:
            raise SweepError(f"--seeds: the sweep would solve {self.count:,} deals (at most "
                             f"{MAX_TASKS:,})")

    @property
    def count(self) -> int:
        dies = 1 if self.die_seeds is None else len(self.die_seeds)
        return len(self.trials) * len(self.hands) * len(self.seeds) * dies

    def tasks(self) -> list[Task]:
        """Every deal, seed first (then die seed, trial, hand)."""
        return [Task(trial, hand, seed, die, self.budget, self.bound, self.version,
                     self.data_sha256)
                for seed in self.seeds
                for die in ((seed,) if self.die_seeds is None else self.die_seeds)
                for trial in self.trials for hand in self.hands]


def check_trials(trials: Sequence[int]) -> tuple[int, ...]:
    """The trials, each checked against the shipped Trial Table (RULES.md section 9).

    :raises SweepError: a trial that is not in the table."""
    table = load_trials()
    for t in trials:
        if t not in table:
            raise SweepError(f"--trials: {t} is not in the trial table (trials "
                             f"{', '.join(str(n) for n in sorted(table))})")
    return tuple(trials)
