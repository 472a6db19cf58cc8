"""The bound a solve uses, as an object made per solve and passed in (no module state).

`SimpleBound` is the admissible bound of `solver.bounds.simple`; `CpsatBound`
(`solver.bounds.cpsat.bound`) adds the CP-SAT relaxation near the end, a root bound that can
prove a deal infeasible, and a plan for move ordering. `make_bound` builds one by name.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Final, Protocol

from solver.bounds.cpsat.bound import BoundPolicy, BoundResult, CpsatBound
from solver.bounds.poolfacts import PoolFactsCache
from solver.bounds.simple import as_bound, simple_upper_bound
from solver.bounds.simplegate import SimpleGate, SimpleGatePolicy
from solver.engine.state import GameState
from solver.search.interrupt import Interrupt

BOUND_NAMES: Final = ("simple", "cpsat")


class Bound(Protocol):
    """What a solve asks of its bound."""

    name: str
    #: True when `upper_bound` makes no reference cycles (`solver.search.collector`)
    cycle_free: bool
    #: the pool facts and their memo, shared with the game's other end-game counts
    #: (`solver.bounds.decktakes.DeckTakes` asks about the same positions)
    pool: PoolFactsCache

    def upper_bound(self, st: GameState) -> float:
        """Admissible: no goal-meeting line from `st` scores more (``-inf``: none exists)."""
        ...

    def root(self, st: GameState) -> BoundResult:
        """The bound of the position a solve starts from (may prove it infeasible)."""
        ...

    def start_search(self, incumbent: float | None) -> None:
        """An exact search starts with this incumbent value (a budget may be reset)."""
        ...

    def improved(self, value: float) -> None:
        """The search's incumbent rose to `value` (a line reaching it is known): what the
        bound asks only where it may prune is weighed against it from now on."""
        ...

    def plan_order(self, st: GameState, actions: Sequence[int]) -> Sequence[int]:
        """Move-ordering hints from what the bound learned (a permutation of `actions`)."""
        ...

    def keyed_by(self, key: Callable[[GameState], Hashable]) -> None:
        """Remember bounds by `key` (the search's position key: equal keys, equal futures)."""
        ...


class SimpleBound:
    """The simple admissible bound (`solver.bounds.simple`), with the pool facts of the game
    it is asked about kept between calls (a search asks about one game); no plan."""

    name = "simple"
    cycle_free = True  # `tests/test_bound_cycles.py`

    def __init__(self, gate: SimpleGatePolicy | None = None) -> None:
        self.pool = PoolFactsCache()
        self.gate = SimpleGate(gate)

    def upper_bound(self, st: GameState) -> float:
        """The simple bound, or ``inf`` where it does not pay (`solver.bounds.simplegate`)."""
        return self.gate.bound(st, self.pool)

    def root(self, st: GameState) -> BoundResult:
        return BoundResult(as_bound(simple_upper_bound(st, self.pool.facts(st), self.pool.memo)),
                           False, source="simple")

    def start_search(self, incumbent: float | None) -> None:
        self.gate.start_search(incumbent)

    def improved(self, value: float) -> None:
        self.gate.improved(value)

    def plan_order(self, st: GameState, actions: Sequence[int]) -> Sequence[int]:
        return actions

    def keyed_by(self, key: Callable[[GameState], Hashable]) -> None:
        return None  # nothing is cached by position


def make_bound(name: str, stop: Interrupt | None = None, deadline: float | None = None,
               root_seconds: float | None = None, policy: BoundPolicy | None = None) -> Bound:
    """A fresh bound of the named kind (``simple`` or ``cpsat``). A CP-SAT bound keeps a
    solve's limits: `stop` (Ctrl-C) ends a call at once, no call runs past `deadline`
    (`time.monotonic()`), the root call takes at most `root_seconds`; `policy` says where it
    asks CP-SAT (None: `BoundPolicy()`).

    :raises ValueError: an unknown name, or a policy for the simple bound."""
    if name == "simple":
        if policy is not None:
            raise ValueError("a BoundPolicy is for the cpsat bound, not the simple one")
        return SimpleBound()
    if name == "cpsat":
        return CpsatBound(policy, stop=stop, deadline=deadline, root_seconds=root_seconds)
    raise ValueError(f"bound must be one of {', '.join(BOUND_NAMES)}, got {name!r}")
