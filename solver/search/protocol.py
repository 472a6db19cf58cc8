"""The small game protocol that every search in `solver.search` talks to.

A puzzle (the Ancient Knowledge solo game, the Antike know-how purchase, ...) implements
`PuzzleState`; the searches use nothing else. The protocol follows OpenSpiel's Python games:
a state has one pending decision whose legal actions are small integers, `apply` changes the
state in place, `clone` copies it cheaply.

The objective is always *maximised*. A terminal state has a `value()` (the score) and says
whether it is `feasible()` (every hard constraint met, e.g. every goal chest). A search only
accepts feasible terminals as solutions; it may keep the best infeasible one for reporting.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol, TypeVar, runtime_checkable

S = TypeVar("S", bound="PuzzleState")


@runtime_checkable
class PuzzleState(Protocol):
    """One position of a deterministic single-agent puzzle."""

    def legal_actions(self) -> Sequence[int]:
        """The legal actions of the pending decision, as stable integer codes, in a fixed order."""
        ...

    def apply(self, action: int) -> None:
        """Apply one legal action in place; raise `ValueError` (or a subclass) if it is illegal."""
        ...

    def clone(self: S) -> S:
        """An independent copy."""
        ...

    def is_terminal(self) -> bool:
        """True when no decision is pending any more."""
        ...

    def value(self) -> float:
        """The objective of a terminal state (higher is better)."""
        ...

    def feasible(self) -> bool:
        """True when a terminal state meets every hard constraint."""
        ...

    def key(self) -> Hashable:
        """An exact position key: equal keys mean equal futures (for transposition tables)."""
        ...

    def upper_bound(self) -> float:
        """An admissible bound: no terminal reachable from here has a larger `value()`."""
        ...

    def action_to_string(self, action: int) -> str:
        """The notation of an action of the pending decision."""
        ...
